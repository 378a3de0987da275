/* kiste-pty.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-pty.h"
#include "kiste-spawn-private.h"

int
kiste_pty_open_peer (int      master_fd,
                     GError **error)
{
  char name[256];
  int fd = -1;

  g_return_val_if_fail (master_fd >= 0, -1);

#ifdef TIOCGPTPEER
  /* Race-free where the kernel has it */
  fd = ioctl (master_fd, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
#endif

  if (fd < 0)
    {
      if (ptsname_r (master_fd, name, sizeof name) != 0 ||
          (fd = open (name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not open the terminal: %s"), g_strerror (errsv));
          return -1;
        }
    }

  return fd;
}

char **
kiste_pty_dup_environ (KisteRunner        *runner,
                       const char * const *extra_env)
{
  char **env = kiste_runner_dup_environ (runner);

  for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
    {
      const char *eq = strchr (extra_env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL || eq == extra_env[i])
        continue;
      name = g_strndup (extra_env[i], eq - extra_env[i]);
      env = g_environ_setenv (env, name, eq + 1, TRUE);
    }

  return env;
}

GSubprocess *
kiste_pty_spawn (KisteRunner         *runner,
                 const char * const  *argv,
                 const char          *cwd,
                 int                  master_fd,
                 const char * const  *extra_env,
                 GError             **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) wrapped = NULL;
  g_auto(GStrv) full_argv = NULL;
  g_auto(GStrv) env = NULL;
  gboolean in_flatpak;
  int peer;
  int out;
  int err;

  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (master_fd >= 0, NULL);

  in_flatpak = kiste_runner_get_in_flatpak (runner);
  if (cwd == NULL)
    cwd = kiste_runner_get_cwd (runner);

  wrapped = kiste_runner_build_argv (runner, argv);
  if (in_flatpak)
    {
      guint n_wrap = g_strv_length (wrapped) - g_strv_length ((char **) argv);
      gboolean through_env = FALSE;

      /* the runner ends its wrapper with "env --" when it gives the host a
       * PATH of its own: our options go before that */
      if (n_wrap >= 2 && g_str_equal (wrapped[n_wrap - 2], "env") &&
          g_str_equal (wrapped[n_wrap - 1], "--"))
        {
          through_env = TRUE;
          n_wrap -= 2;
        }

      /* flatpak-spawn's own options: this tab's folder and the terminal's
       * variables, which the host side would not see otherwise */
      builder = g_strv_builder_new ();
      for (guint i = 0; i < n_wrap; i++)
        {
          if (g_str_has_prefix (wrapped[i], "--directory="))
            g_strv_builder_take (builder, g_strconcat ("--directory=", cwd, NULL));
          else
            g_strv_builder_add (builder, wrapped[i]);
        }
      for (guint i = 0; extra_env != NULL && extra_env[i] != NULL; i++)
        g_strv_builder_take (builder, g_strconcat ("--env=", extra_env[i], NULL));
      if (through_env)
        g_strv_builder_add_many (builder, "env", "--", NULL);
      g_strv_builder_addv (builder, (const char **) argv);
      full_argv = g_strv_builder_end (builder);
    }
  else
    {
      full_argv = g_steal_pointer (&wrapped);
    }

  if ((peer = kiste_pty_open_peer (master_fd, error)) < 0)
    return NULL;
  out = dup (peer);
  err = dup (peer);

  env = kiste_pty_dup_environ (runner, extra_env);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_take_stdin_fd (launcher, peer);
  g_subprocess_launcher_take_stdout_fd (launcher, out);
  g_subprocess_launcher_take_stderr_fd (launcher, err);

  /* A session of its own with the terminal as its controlling one, so the
   * shell gets job control and the window size. In the sandbox the host
   * side does that (VTE_PTY_NO_CTTY). */
  return _kiste_spawn (launcher, G_SUBPROCESS_FLAGS_SEARCH_PATH_FROM_ENVP,
                       (const char * const *) env, in_flatpak ? NULL : cwd,
                       in_flatpak ? KISTE_SPAWN_SESSION : KISTE_SPAWN_TERMINAL,
                       (const char * const *) full_argv, error);
}

/* What sits between a terminal and the user's programs */
static const char * const not_programs[] = {
  "sh", "bash", "dash", "zsh", "fish", "ksh", "mksh", "tcsh", "csh", "nu", "elvish",
  "su", "login", "podman", "conmon", "runc", "crun", "distrobox", "distrobox-enter",
  "flatpak-spawn", "docker",
};

static gboolean
environ_has (const char *path,
             const char *entry)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  /* NUL-separated, and g_file_get_contents() ends it with one more */
  if (!g_file_get_contents (path, &contents, &len, NULL))
    return FALSE;

  for (gsize i = 0; i < len; i += strlen (contents + i) + 1)
    {
      if (strcmp (contents + i, entry) == 0)
        return TRUE;
    }

  return FALSE;
}

/* comm, process group and the terminal's foreground group from
 * /proc/PID/stat ("pid (comm) state ppid pgrp session tty_nr tpgid …") */
static gboolean
read_stat (const char  *dir,
           char       **comm,
           long        *pgrp,
           long        *tpgid)
{
  g_autofree char *path = g_build_filename (dir, "stat", NULL);
  g_autofree char *contents = NULL;
  const char *open_paren;
  const char *close_paren;
  long ppid;
  long session;
  long tty;
  char state;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* comm may hold spaces and parentheses: it ends at the last ")" */
  if ((open_paren = strchr (contents, '(')) == NULL ||
      (close_paren = strrchr (contents, ')')) == NULL || close_paren < open_paren)
    return FALSE;

  if (sscanf (close_paren + 1, " %c %ld %ld %ld %ld %ld", &state, &ppid, pgrp, &session, &tty, tpgid) != 6)
    return FALSE;

  *comm = g_strndup (open_paren + 1, close_paren - open_paren - 1);
  return TRUE;
}

char *
kiste_pty_dup_foreground_program (const char *terminal_id)
{
  g_autoptr(GDir) proc = NULL;
  g_autofree char *entry = NULL;
  const char *name;

  if (terminal_id == NULL || terminal_id[0] == '\0')
    return NULL;
  if ((proc = g_dir_open ("/proc", 0, NULL)) == NULL)
    return NULL;

  entry = g_strconcat ("KISTE_TERMINAL_ID=", terminal_id, NULL);
  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *dir = NULL;
      g_autofree char *environ_path = NULL;
      g_autofree char *comm = NULL;
      long pgrp;
      long tpgid;
      gboolean skip = FALSE;

      if (!g_ascii_isdigit (name[0]))
        continue;

      dir = g_build_filename ("/proc", name, NULL);
      environ_path = g_build_filename (dir, "environ", NULL);
      if (!environ_has (environ_path, entry) || !read_stat (dir, &comm, &pgrp, &tpgid))
        continue;

      /* in the foreground of its terminal */
      if (tpgid <= 0 || pgrp != tpgid)
        continue;

      for (guint i = 0; i < G_N_ELEMENTS (not_programs) && !skip; i++)
        skip = g_str_equal (comm, not_programs[i]);
      if (!skip)
        return g_steal_pointer (&comm);
    }

  return NULL;
}
