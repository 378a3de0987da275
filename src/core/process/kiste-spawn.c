/* kiste-spawn.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Every process Kiste starts goes through here. With kiste-spawn-helper
 * (next to the program, or installed in libexecdir) GLib starts it with
 * posix_spawn, which does not copy the app's memory map: a fork() of a
 * window with a thousand boxes blocked the main loop for 20-90 ms per
 * command. The helper sets up the process group or session, then runs the
 * command. Without the helper, the fork and a child setup do the same. */

#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif

#include <glib/gi18n.h>

#include "kiste-spawn-private.h"

#define HELPER_NAME "kiste-spawn-helper"

static const char * const mode_names[] = { "group", "session", "terminal" };

/* KISTE_SPAWN_HELPER names the helper (empty: fork, as without one) */
const char *
_kiste_spawn_get_helper (void)
{
  static char *found;
  static gsize once;
  const char *env = g_getenv ("KISTE_SPAWN_HELPER");

  if (env != NULL)
    return env[0] != '\0' ? env : NULL;

  if (g_once_init_enter (&once))
    {
      g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
      g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;
      g_autofree char *beside = dir != NULL ? g_build_filename (dir, HELPER_NAME, NULL) : NULL;
      const char *installed = KISTE_LIBEXECDIR G_DIR_SEPARATOR_S HELPER_NAME;

      /* the build tree's, then the installed one */
      if (beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        found = g_steal_pointer (&beside);
      else if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
        found = g_strdup (installed);

      g_once_init_leave (&once, 1);
    }

  return found;
}

static char *
find_program (const char *program,
              const char *path)
{
  g_auto(GStrv) dirs = NULL;

  if (strchr (program, '/') != NULL)
    return g_file_test (program, G_FILE_TEST_IS_EXECUTABLE) ? g_strdup (program) : NULL;

  if (path == NULL)
    return g_find_program_in_path (program);

  dirs = g_strsplit (path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *candidate = g_build_filename (dirs[i][0] != '\0' ? dirs[i] : ".", program, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&candidate);
    }

  return NULL;
}

static void
child_setup_group (gpointer user_data)
{
  pid_t parent = GPOINTER_TO_INT (user_data);

  setpgid (0, 0);
#ifdef __linux__
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () != parent)
    _exit (127);
#endif
}

static void
child_setup_session (gpointer user_data)
{
  setsid ();
}

static void
child_setup_terminal (gpointer user_data)
{
  setsid ();
  ioctl (STDIN_FILENO, TIOCSCTTY, 0);
}

static GSubprocess *
spawn_forked (GSubprocessLauncher *launcher,
              GSubprocessFlags     flags,
              const char          *cwd,
              KisteSpawnMode       mode,
              const char * const  *argv,
              GError             **error)
{
  static const GSpawnChildSetupFunc setups[] = {
    child_setup_group, child_setup_session, child_setup_terminal,
  };

  g_subprocess_launcher_set_flags (launcher, flags);
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);
  g_subprocess_launcher_set_child_setup (launcher, setups[mode],
                                         GINT_TO_POINTER (getpid ()), NULL);

  return g_subprocess_launcher_spawnv (launcher, argv, error);
}

/* launcher: with the standard streams taken; flags: as for a launcher;
 * cwd: NULL to stay in ours. Errors are GLib's spawn errors. */
GSubprocess *
_kiste_spawn (GSubprocessLauncher *launcher,
              GSubprocessFlags     flags,
              const char * const  *env,
              const char          *cwd,
              KisteSpawnMode       mode,
              const char * const  *argv,
              GError             **error)
{
  const char *helper = _kiste_spawn_get_helper ();
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *path = NULL;
  g_autofree char *parent = NULL;
  g_auto(GStrv) helper_argv = NULL;
  GSubprocess *subprocess;

  g_return_val_if_fail (G_IS_SUBPROCESS_LAUNCHER (launcher), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (mode < G_N_ELEMENTS (mode_names), NULL);

  g_subprocess_launcher_set_environ (launcher, (char **) env);

  if (helper == NULL)
    return spawn_forked (launcher, flags, cwd, mode, argv, error);

  /* What GLib would find and check before its fork, so a missing program
   * or folder is an error here and not an exit status later */
  path = find_program (argv[0], (flags & G_SUBPROCESS_FLAGS_SEARCH_PATH_FROM_ENVP) != 0
                                  ? g_environ_getenv ((char **) env, "PATH")
                                  : NULL);
  if (path == NULL)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
                   _("Failed to execute child process “%s” (%s)"),
                   argv[0], g_strerror (ENOENT));
      return NULL;
    }
  if (cwd != NULL && !g_file_test (cwd, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_CHDIR,
                   _("Failed to change to directory “%s” (%s)"),
                   cwd, g_strerror (ENOENT));
      return NULL;
    }

  parent = g_strdup_printf ("%d", (int) getpid ());
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, helper);
  if (flags & G_SUBPROCESS_FLAGS_STDERR_MERGE)
    g_strv_builder_add (builder, "--merge");
  g_strv_builder_add_many (builder, mode_names[mode], parent, cwd != NULL ? cwd : "", path, NULL);
  g_strv_builder_addv (builder, (const char **) argv);
  helper_argv = g_strv_builder_end (builder);

  /* Only then does GLib use posix_spawn: the helper closes what we leave
   * open, changes the folder and merges the streams itself */
  g_subprocess_launcher_set_flags (launcher,
                                   (flags & ~(G_SUBPROCESS_FLAGS_SEARCH_PATH_FROM_ENVP |
                                              G_SUBPROCESS_FLAGS_STDERR_MERGE)) |
                                   G_SUBPROCESS_FLAGS_INHERIT_FDS);
  subprocess = g_subprocess_launcher_spawnv (launcher, (const char * const *) helper_argv, error);

  if (subprocess != NULL && mode == KISTE_SPAWN_GROUP)
    g_object_set_data (G_OBJECT (subprocess), "kiste-spawn-group", GINT_TO_POINTER (TRUE));

  return subprocess;
}

/* The process group the process leads (or is about to lead), or 0. The
 * pid is read once and only once: GLib forgets it when it reaps the
 * process, which for a quick command may happen at any moment, even
 * before the caller asks (reading it twice crashed on a loaded machine). */
pid_t
_kiste_spawn_get_own_group (GSubprocess *subprocess)
{
  const char *identifier = g_subprocess_get_identifier (subprocess);
  pid_t pid = identifier != NULL ? (pid_t) g_ascii_strtoll (identifier, NULL, 10) : 0;

  if (pid <= 1 || pid == getpgrp ())
    return 0;

  /* the helper makes its group right after it starts */
  if (g_object_get_data (G_OBJECT (subprocess), "kiste-spawn-group") != NULL || getpgid (pid) == pid)
    return pid;

  return 0;
}
