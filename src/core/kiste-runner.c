/* kiste-runner.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-runner-private.h"

#define STDERR_RING_LINES       20
#define RING_LINE_MAX_BYTES     2000
#define TAIL_MAX_LINES          5
#define TAIL_MAX_CHARS          1000
#define COMMAND_DISPLAY_MAX     160
/* A pipe holds 64 KiB: a big ps output arrives in few main-loop turns */
#define READ_CHUNK_SIZE         65536
#define DEFAULT_KILL_GRACE_MS   1500
/* A background process may keep our pipes open after the command itself
 * exited; read what is left for this long, then stop waiting for EOF. */
#define DRAIN_GRACE_MS          1000

typedef struct
{
  char        *manager;
  char        *cwd;
  char        *flatpak_spawn;
  char       **extra_env;
  GHashTable  *dropped_env;
  guint        kill_grace_ms;
  guint        in_flatpak : 1;
} KisteRunnerPrivate;

G_DEFINE_TYPE_WITH_PRIVATE (KisteRunner, kiste_runner, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_IN_FLATPAK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Settings aimed at our own process (dynamic loader, GTK/GLib backends and
 * debugging, Flatpak and startup-notification details) would change how
 * podman, distrobox and, because distrobox forwards the host environment,
 * every program in a box behaves. GTK_IM_MODULE is the session's input
 * method, not ours, so apps started in boxes keep it. */
static const char * const strip_prefixes[] = {
  "ADW_", "FLATPAK_", "G_MESSAGES_", "GDK_", "GIO_", "GOBJECT_", "GSETTINGS_",
  "GSK_", "GTK_", "LD_",
};
static const char * const strip_names[] = {
  "DESKTOP_STARTUP_ID", "G_DEBUG", "G_ENABLE_DIAGNOSTIC", "G_RESOURCE_OVERLAYS",
  "G_SLICE", "GI_TYPELIB_PATH", "MALLOC_CHECK_", "MALLOC_PERTURB_", "OLDPWD", "PWD",
  "XDG_ACTIVATION_TOKEN",
};
static const char * const strip_exceptions[] = {
  "GTK_IM_MODULE",
};

/* flatpak-spawn --host runs commands with the session helper's environment,
 * not ours: these are worth carrying over when we have them. */
static const char * const flatpak_forward_env[] = {
  "TERM", "COLORTERM", "DOCKER_HOST", "CONTAINER_HOST", "PODMAN_IGNORE_CGROUPSV1_WARNING",
};

static gboolean
name_in_list (const char         *name,
              const char * const *list,
              gsize               n_list)
{
  for (gsize i = 0; i < n_list; i++)
    {
      if (strcmp (name, list[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
should_strip_variable (const char *name)
{
  if (name_in_list (name, strip_exceptions, G_N_ELEMENTS (strip_exceptions)))
    return FALSE;

  if (name_in_list (name, strip_names, G_N_ELEMENTS (strip_names)))
    return TRUE;

  for (gsize i = 0; i < G_N_ELEMENTS (strip_prefixes); i++)
    {
      if (g_str_has_prefix (name, strip_prefixes[i]))
        return TRUE;
    }

  return FALSE;
}

static gboolean
arg_needs_quotes (const char *arg)
{
  if (arg[0] == '\0')
    return TRUE;

  for (const char *p = arg; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("@%+=:,./-_", *p) == NULL)
        return TRUE;
    }

  return FALSE;
}

char *
kiste_argv_to_display_string (const char * const *argv)
{
  g_autoptr(GString) str = g_string_new (NULL);

  if (argv == NULL)
    return g_string_free (g_steal_pointer (&str), FALSE);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      const char *arg = argv[i];

      if (i > 0)
        g_string_append_c (str, ' ');

      if (!arg_needs_quotes (arg))
        {
          g_string_append (str, arg);
          continue;
        }

      g_string_append_c (str, '\'');
      for (const char *p = arg; *p != '\0'; p++)
        {
          if (*p == '\'')
            g_string_append (str, "'\\''");
          else
            g_string_append_c (str, *p);
        }
      g_string_append_c (str, '\'');
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* The command as quoted inside an error message: long create commands
 * would drown out the reason. */
static char *
dup_command_for_message (const char * const *argv)
{
  g_autofree char *display = kiste_argv_to_display_string (argv);
  g_autofree char *start = NULL;

  if (g_utf8_strlen (display, -1) <= COMMAND_DISPLAY_MAX)
    return g_steal_pointer (&display);

  start = g_utf8_substring (display, 0, COMMAND_DISPLAY_MAX - 1);
  return g_strconcat (start, "…", NULL);
}

char *
kiste_strip_terminal_escapes (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;
  const char *p;

  g_return_val_if_fail (text != NULL, NULL);

  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid));
  p = valid;

  while (*p != '\0')
    {
      if (*p != '\033')
        {
          g_string_append_c (out, *p++);
          continue;
        }

      p++;
      if (*p == '[')
        {
          /* CSI: parameters and intermediates, then one final byte */
          p++;
          while (*p != '\0' && !(*p >= 0x40 && *p <= 0x7e))
            p++;
          if (*p != '\0')
            p++;
        }
      else if (*p == ']')
        {
          /* OSC (titles, current folder): up to BEL or ESC \ */
          while (*p != '\0' && *p != '\007' && !(p[0] == '\033' && p[1] == '\\'))
            p++;
          if (*p == '\007')
            p++;
          else if (*p == '\033')
            p += 2;
        }
      else if (*p != '\0')
        p++;
    }

  return g_string_free_and_steal (out);
}

/* A line as a person last saw it: progress output rewrites itself with
 * "\r", so only the last non-empty segment counts. */
static char *
clean_stderr_line (const char *line)
{
  g_autofree char *stripped = kiste_strip_terminal_escapes (line);
  g_auto(GStrv) segments = NULL;
  const char *last = NULL;

  segments = g_strsplit (stripped, "\r", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    {
      if (g_strstrip (segments[i])[0] != '\0')
        last = segments[i];
    }

  return g_strdup (last);
}

char *
_kiste_runner_format_stderr_tail (const char * const *lines)
{
  g_autoptr(GPtrArray) picked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) str = NULL;
  glong total = 0;
  guint n_lines;

  if (lines == NULL)
    return NULL;

  n_lines = g_strv_length ((char **) lines);

  for (guint i = n_lines; i > 0 && picked->len < TAIL_MAX_LINES; i--)
    {
      g_autofree char *clean = clean_stderr_line (lines[i - 1]);
      glong len;

      if (clean == NULL)
        continue;

      len = g_utf8_strlen (clean, -1);

      if (total + len > TAIL_MAX_CHARS)
        {
          /* One huge line still deserves its end quoted */
          if (picked->len == 0)
            {
              g_autofree char *end = g_utf8_substring (clean, len - (TAIL_MAX_CHARS - 1), len);

              g_ptr_array_add (picked, g_strconcat ("…", end, NULL));
            }
          break;
        }

      total += len + 1;
      g_ptr_array_add (picked, g_steal_pointer (&clean));
    }

  if (picked->len == 0)
    return NULL;

  str = g_string_new (NULL);
  for (guint i = picked->len; i > 0; i--)
    {
      if (str->len > 0)
        g_string_append_c (str, '\n');
      g_string_append (str, g_ptr_array_index (picked, i - 1));
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* Properties and setup */

static gboolean
detect_flatpak (void)
{
  const char *forced = g_getenv ("KISTE_FORCE_FLATPAK");

  if (g_strcmp0 (forced, "1") == 0)
    return TRUE;

  if (g_strcmp0 (forced, "0") == 0)
    return FALSE;

  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

KisteRunner *
kiste_runner_new (void)
{
  return g_object_new (KISTE_TYPE_RUNNER, NULL);
}

const char *
kiste_runner_get_manager (KisteRunner *self)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_val_if_fail (KISTE_IS_RUNNER (self), NULL);

  return priv->manager;
}

void
kiste_runner_set_manager (KisteRunner *self,
                          const char  *manager)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  if (manager != NULL && manager[0] == '\0')
    manager = NULL;

  if (g_set_str (&priv->manager, manager))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MANAGER]);
}

gboolean
kiste_runner_get_in_flatpak (KisteRunner *self)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_val_if_fail (KISTE_IS_RUNNER (self), FALSE);

  return priv->in_flatpak;
}

void
kiste_runner_set_in_flatpak (KisteRunner *self,
                             gboolean     in_flatpak)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  in_flatpak = !!in_flatpak;

  if (priv->in_flatpak != in_flatpak)
    {
      priv->in_flatpak = in_flatpak;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_IN_FLATPAK]);
    }
}

void
kiste_runner_set_cwd (KisteRunner *self,
                      const char  *cwd)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  if (cwd != NULL && cwd[0] == '\0')
    cwd = NULL;

  g_set_str (&priv->cwd, cwd);
}

const char *
kiste_runner_get_cwd (KisteRunner *self)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_val_if_fail (KISTE_IS_RUNNER (self), NULL);

  return priv->cwd != NULL ? priv->cwd : g_get_home_dir ();
}

void
kiste_runner_setenv (KisteRunner *self,
                     const char  *variable,
                     const char  *value)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (variable != NULL && variable[0] != '\0');
  g_return_if_fail (strchr (variable, '=') == NULL);

  if (value != NULL)
    {
      priv->extra_env = g_environ_setenv (priv->extra_env, variable, value, TRUE);
      g_hash_table_remove (priv->dropped_env, variable);
    }
  else
    {
      priv->extra_env = g_environ_unsetenv (priv->extra_env, variable);
      g_hash_table_add (priv->dropped_env, g_strdup (variable));
    }
}

void
_kiste_runner_set_kill_grace (KisteRunner *self,
                              guint        grace_ms)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  priv->kill_grace_ms = grace_ms;
}

void
_kiste_runner_set_flatpak_spawn (KisteRunner *self,
                                 const char  *program)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  g_set_str (&priv->flatpak_spawn, program);
}

/* What we add on top of the inherited environment, in a stable order. */
static char **
dup_added_environ (KisteRunner *self,
                   gboolean     with_forwarded)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);
  char **added = g_new0 (char *, 1);

  if (priv->manager != NULL)
    added = g_environ_setenv (added, "DBX_CONTAINER_MANAGER", priv->manager, TRUE);

  added = g_environ_setenv (added, "DBX_NON_INTERACTIVE", "1", TRUE);

  for (guint i = 0; priv->extra_env != NULL && priv->extra_env[i] != NULL; i++)
    {
      const char *eq = strchr (priv->extra_env[i], '=');
      g_autofree char *name = g_strndup (priv->extra_env[i], eq - priv->extra_env[i]);

      added = g_environ_setenv (added, name, eq + 1, TRUE);
    }

  if (with_forwarded)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (flatpak_forward_env); i++)
        {
          const char *name = flatpak_forward_env[i];
          const char *value = g_getenv (name);

          if (value != NULL &&
              g_environ_getenv (added, name) == NULL &&
              !g_hash_table_contains (priv->dropped_env, name))
            added = g_environ_setenv (added, name, value, TRUE);
        }
    }

  return added;
}

char **
kiste_runner_dup_environ (KisteRunner *self)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);
  g_auto(GStrv) added = NULL;
  g_autoptr(GPtrArray) strip = NULL;
  char **env;

  g_return_val_if_fail (KISTE_IS_RUNNER (self), NULL);

  env = g_get_environ ();
  strip = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; env[i] != NULL; i++)
    {
      const char *eq = strchr (env[i], '=');
      g_autofree char *name = NULL;

      if (eq == NULL)
        continue;

      name = g_strndup (env[i], eq - env[i]);
      if (should_strip_variable (name) || g_hash_table_contains (priv->dropped_env, name))
        g_ptr_array_add (strip, g_steal_pointer (&name));
    }

  for (guint i = 0; i < strip->len; i++)
    env = g_environ_unsetenv (env, g_ptr_array_index (strip, i));

  added = dup_added_environ (self, FALSE);
  for (guint i = 0; added[i] != NULL; i++)
    {
      const char *eq = strchr (added[i], '=');
      g_autofree char *name = g_strndup (added[i], eq - added[i]);

      /* in the sandbox a PATH is the host's, for --env= only: ours must
       * still find flatpak-spawn */
      if (priv->in_flatpak && g_str_equal (name, "PATH"))
        continue;
      env = g_environ_setenv (env, name, eq + 1, TRUE);
    }

  return env;
}

char **
kiste_runner_build_argv (KisteRunner        *self,
                         const char * const *argv)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) added = NULL;

  g_return_val_if_fail (KISTE_IS_RUNNER (self), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  if (!priv->in_flatpak)
    return g_strdupv ((char **) argv);

  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, priv->flatpak_spawn != NULL ? priv->flatpak_spawn : "flatpak-spawn");
  g_strv_builder_add (builder, "--host");
  g_strv_builder_add (builder, "--watch-bus");
  g_strv_builder_take (builder, g_strconcat ("--directory=", kiste_runner_get_cwd (self), NULL));

  added = dup_added_environ (self, TRUE);
  for (guint i = 0; added[i] != NULL; i++)
    g_strv_builder_take (builder, g_strconcat ("--env=", added[i], NULL));

  /* The session helper finds programs on its own PATH, not the one given
   * with --env=: env looks the program up on ours */
  if (g_environ_getenv (added, "PATH") != NULL)
    g_strv_builder_add_many (builder, "env", "--", NULL);

  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}

/* Process groups of the commands still running, so quitting can end them
 * all. Only touched from the thread that runs the operations. */
static GHashTable *live_groups;

static void
live_groups_add (pid_t pgid)
{
  if (pgid <= 0)
    return;
  if (live_groups == NULL)
    live_groups = g_hash_table_new (NULL, NULL);
  g_hash_table_add (live_groups, GINT_TO_POINTER (pgid));
}

static void
live_groups_remove (pid_t pgid)
{
  if (pgid > 0 && live_groups != NULL)
    g_hash_table_remove (live_groups, GINT_TO_POINTER (pgid));
}

/**
 * kiste_runner_terminate_all:
 *
 * Sends SIGTERM to the process group of every command still running, for
 * quitting: nothing the app started may outlive it.
 *
 * Returns: how many process groups were signalled
 */
guint
kiste_runner_terminate_all (void)
{
  GHashTableIter iter;
  gpointer key;
  guint n = 0;

  if (live_groups == NULL)
    return 0;

  g_hash_table_iter_init (&iter, live_groups);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (kill (-GPOINTER_TO_INT (key), SIGTERM) == 0)
        n++;
    }

  return n;
}

static void
kiste_runner_child_setup (gpointer user_data)
{
  pid_t parent = GPOINTER_TO_INT (user_data);

  /* A group of its own, so a timeout or cancel also reaches the podman
   * processes a distrobox script started, never our own process. */
  setpgid (0, 0);

#ifdef __linux__
  /* Die with the app even when it is killed and cannot clean up. SIGTERM,
   * not SIGKILL: rootless podman passes it on to its user-namespace child. */
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () != parent)
    _exit (127);
#endif
}

static GSubprocess *
kiste_runner_real_spawn (KisteRunner         *self,
                         const char * const  *argv,
                         GSubprocessFlags     flags,
                         GError             **error)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_auto(GStrv) full_argv = NULL;
  g_auto(GStrv) env = NULL;

  full_argv = kiste_runner_build_argv (self, argv);
  env = kiste_runner_dup_environ (self);

  launcher = g_subprocess_launcher_new (flags);
  g_subprocess_launcher_set_environ (launcher, env);
  /* In the sandbox the directory is the host's (--directory); it may not
   * exist in here, so flatpak-spawn itself keeps our own. */
  if (!priv->in_flatpak)
    g_subprocess_launcher_set_cwd (launcher, kiste_runner_get_cwd (self));
  g_subprocess_launcher_set_child_setup (launcher, kiste_runner_child_setup,
                                         GINT_TO_POINTER (getpid ()), NULL);

  return g_subprocess_launcher_spawnv (launcher, (const char * const *) full_argv, error);
}

GSubprocess *
kiste_runner_spawn (KisteRunner         *self,
                    const char * const  *argv,
                    GSubprocessFlags     flags,
                    GError             **error)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (self), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  return KISTE_RUNNER_GET_CLASS (self)->spawn (self, argv, flags, error);
}

/* Running a command to the end */

typedef struct
{
  GInputStream *stream;     /* a GDataInputStream when streaming lines */
  GByteArray   *collected;  /* everything read, when not streaming */
  guint         is_stderr : 1;
  guint         done : 1;
} Pipe;

typedef struct
{
  GSubprocess     *subprocess;
  char           **argv;
  GCancellable    *io_cancellable;
  GSource         *timeout_source;
  GSource         *cancel_source;
  GSource         *kill_source;
  GSource         *drain_source;
  Pipe             out;
  Pipe             err;
  GQueue           err_ring;
  KisteLineFunc    line_func;
  gpointer         line_data;
  GDestroyNotify   line_data_destroy;
  char            *stdout_text;
  char            *stderr_text;
  char            *program;
  pid_t            pgid;
  guint            timeout_ms;
  guint            kill_grace_ms;
  guint            in_flatpak : 1;
  guint            streaming : 1;
  /* stderr into the same pipe as stdout: lines in the order written */
  guint            merged : 1;
  guint            exited : 1;
  guint            terminating : 1;
  guint            killed : 1;
  guint            timed_out : 1;
  guint            cancelled : 1;
  guint            completed : 1;
} RunOp;

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
run_op_free (RunOp *op)
{
  live_groups_remove (op->pgid);
  clear_source (&op->timeout_source);
  clear_source (&op->cancel_source);
  clear_source (&op->kill_source);
  clear_source (&op->drain_source);

  if (op->line_data_destroy != NULL)
    g_clear_pointer (&op->line_data, op->line_data_destroy);

  g_clear_object (&op->out.stream);
  g_clear_object (&op->err.stream);
  g_clear_pointer (&op->out.collected, g_byte_array_unref);
  g_clear_pointer (&op->err.collected, g_byte_array_unref);
  g_queue_clear_full (&op->err_ring, g_free);
  g_clear_object (&op->subprocess);
  g_clear_object (&op->io_cancellable);
  g_clear_pointer (&op->argv, g_strfreev);
  g_clear_pointer (&op->stdout_text, g_free);
  g_clear_pointer (&op->stderr_text, g_free);
  g_clear_pointer (&op->program, g_free);
  g_free (op);
}

static GSource *
run_op_add_source (GTask       *task,
                   GSource     *source,
                   GSourceFunc  func,
                   const char  *name)
{
  g_source_set_callback (source, func, task, NULL);
  g_source_set_static_name (source, name);
  g_source_attach (source, g_task_get_context (task));

  return source;
}

static void
run_op_signal (RunOp *op,
               int    signum)
{
  if (op->pgid > 0)
    {
      if (kill (-op->pgid, signum) != 0 && errno != ESRCH)
        g_debug ("Could not signal process group %d: %s", (int) op->pgid, g_strerror (errno));
    }
  else if (!op->exited)
    {
      g_subprocess_send_signal (op->subprocess, signum);
    }
}

/* Takes the collected bytes: valid UTF-8 (the usual case) becomes the
 * text as it is, without a copy of megabytes of ps output. */
static char *
bytes_to_text (GByteArray **bytes)
{
  char *text;

  if (*bytes == NULL || (*bytes)->len == 0)
    return g_strdup ("");

  if (!g_utf8_validate_len ((const char *) (*bytes)->data, (*bytes)->len, NULL))
    return g_utf8_make_valid ((const char *) (*bytes)->data, (*bytes)->len);

  g_byte_array_append (*bytes, (const guint8 *) "", 1);
  text = (char *) g_byte_array_free (g_steal_pointer (bytes), FALSE);
  return text;
}

static char *
run_op_dup_stderr_tail (RunOp *op)
{
  g_autofree const char **lines = NULL;
  g_auto(GStrv) split = NULL;
  guint i = 0;

  if (!op->streaming)
    {
      if (op->stderr_text == NULL)
        return NULL;

      split = g_strsplit (op->stderr_text, "\n", -1);
      return _kiste_runner_format_stderr_tail ((const char * const *) split);
    }

  lines = g_new0 (const char *, op->err_ring.length + 1);
  for (GList *l = op->err_ring.head; l != NULL; l = l->next)
    lines[i++] = l->data;

  return _kiste_runner_format_stderr_tail (lines);
}

/* flatpak-spawn reports a host program it could not start as
 * "Portal call failed: Failed to execute child process …" and exits 1. */
static gboolean
host_program_missing (RunOp *op,
                      int    exit_status)
{
  g_autofree char *tail = NULL;

  if (!op->in_flatpak || exit_status != 1)
    return FALSE;

  tail = run_op_dup_stderr_tail (op);

  return tail != NULL &&
         strstr (tail, "Portal call failed") != NULL &&
         strstr (tail, "No such file or directory") != NULL;
}

static GError *
run_op_dup_status_error (RunOp *op)
{
  g_autofree char *command = dup_command_for_message ((const char * const *) op->argv);
  g_autofree char *tail = run_op_dup_stderr_tail (op);
  g_autofree char *message = NULL;
  KisteError code = KISTE_ERROR_COMMAND_FAILED;

  if (g_subprocess_get_if_signaled (op->subprocess))
    {
      int signum = g_subprocess_get_term_sig (op->subprocess);

      message = g_strdup_printf (_("“%s” was stopped by signal %d (%s)"),
                                 command, signum, g_strsignal (signum));
    }
  else
    {
      int status = g_subprocess_get_exit_status (op->subprocess);

      if (status == 0)
        return NULL;

      if (status == 127)
        {
          code = KISTE_ERROR_TOOL_MISSING;
          message = g_strdup_printf (_("“%s” could not find a program it needs (exit status 127)"),
                                     op->program);
        }
      else if (host_program_missing (op, status))
        {
          code = KISTE_ERROR_TOOL_MISSING;
          message = g_strdup_printf (_("The program “%s” was not found on the host system. "
                                       "Make sure it is installed."),
                                     op->program);
        }
      else
        {
          message = g_strdup_printf (_("“%s” failed (exit status %d)"), command, status);
        }
    }

  if (tail != NULL)
    {
      g_autofree char *with_tail = g_strconcat (message,
                                                strchr (tail, '\n') != NULL ? ":\n" : ": ",
                                                tail,
                                                NULL);

      g_set_str (&message, with_tail);
    }

  return g_error_new_literal (KISTE_ERROR, code, message);
}

static void
run_op_maybe_complete (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);
  GError *error;

  if (op->completed || !op->exited || !op->out.done || !op->err.done)
    return;

  op->completed = TRUE;

  clear_source (&op->timeout_source);
  clear_source (&op->cancel_source);
  clear_source (&op->kill_source);
  clear_source (&op->drain_source);

  if (!op->streaming)
    {
      op->stdout_text = bytes_to_text (&op->out.collected);
      op->stderr_text = bytes_to_text (&op->err.collected);
    }

  if (op->cancelled && g_task_return_error_if_cancelled (task))
    return;

  if (op->timed_out)
    {
      g_autofree char *command = dup_command_for_message ((const char * const *) op->argv);
      guint seconds = MAX (1, (op->timeout_ms + 999) / 1000);

      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_TIMED_OUT,
                               ngettext ("“%s” did not finish within %u second",
                                         "“%s” did not finish within %u seconds",
                                         seconds),
                               command, seconds);
      return;
    }

  error = run_op_dup_status_error (op);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean
run_op_drain_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->drain_source);
  g_cancellable_cancel (op->io_cancellable);

  return G_SOURCE_REMOVE;
}

static void
run_op_start_drain (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->drain_source != NULL || (op->out.done && op->err.done))
    return;

  op->drain_source = run_op_add_source (task, g_timeout_source_new (DRAIN_GRACE_MS),
                                        run_op_drain_cb, "[kiste] runner drain");
}

static gboolean
run_op_kill_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->kill_source);
  op->killed = TRUE;
  run_op_signal (op, SIGKILL);

  if (op->exited)
    run_op_start_drain (task);

  return G_SOURCE_REMOVE;
}

static void
run_op_terminate (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->terminating)
    return;

  op->terminating = TRUE;

  if (op->exited && op->pgid <= 0)
    {
      run_op_start_drain (task);
      return;
    }

  /* flatpak-spawn passes SIGINT on to the whole host process group but
   * SIGTERM only to its leader, and cannot pass SIGKILL at all. */
  run_op_signal (op, op->in_flatpak ? SIGINT : SIGTERM);

  op->kill_source = run_op_add_source (task, g_timeout_source_new (op->kill_grace_ms),
                                       run_op_kill_cb, "[kiste] runner kill");
}

static gboolean
run_op_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->timeout_source);

  if (!op->cancelled)
    op->timed_out = TRUE;

  run_op_terminate (task);

  return G_SOURCE_REMOVE;
}

static gboolean
run_op_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->cancel_source);

  if (!op->timed_out)
    op->cancelled = TRUE;

  run_op_terminate (task);

  return G_SOURCE_REMOVE;
}

static void
run_op_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    g_debug ("Waiting for “%s” failed: %s", op->program, error->message);

  op->exited = TRUE;

  /* While a polite stop is pending, the rest of the group may still be
   * shutting down; the kill timer deals with them. */
  if (!op->terminating || op->killed || op->pgid <= 0)
    {
      clear_source (&op->kill_source);
      run_op_start_drain (task);
    }

  run_op_maybe_complete (task);
}

static Pipe *
run_op_get_pipe (RunOp   *op,
                 GObject *stream)
{
  return (GObject *) op->out.stream == stream ? &op->out : &op->err;
}

static void run_op_read_next (GTask *task,
                              Pipe  *pipe);

static void
run_op_pipe_done (GTask  *task,
                  Pipe   *pipe,
                  GError *error)
{
  RunOp *op = g_task_get_task_data (task);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Reading from “%s” failed: %s", op->program, error->message);

  pipe->done = TRUE;
  run_op_maybe_complete (task);
}

static void
run_op_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  Pipe *pipe = run_op_get_pipe (op, object);
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  /* the chunk was reserved at the end of the array: keep what came */
  g_byte_array_set_size (pipe->collected, pipe->collected->len - READ_CHUNK_SIZE + MAX (n, 0));

  if (n <= 0)
    {
      run_op_pipe_done (task, pipe, error);
      return;
    }

  run_op_read_next (task, pipe);
}

static void
run_op_read_line_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  Pipe *pipe = run_op_get_pipe (op, object);
  g_autoptr(GError) error = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *line = NULL;
  gsize length = 0;

  raw = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result, &length, &error);

  if (raw == NULL)
    {
      run_op_pipe_done (task, pipe, error);
      return;
    }

  line = g_utf8_make_valid (raw, length);

  /* merged: any line may say what went wrong */
  if (pipe->is_stderr || op->merged)
    {
      gsize len = strlen (line);
      const char *keep = line;

      if (len > RING_LINE_MAX_BYTES)
        {
          keep = line + len - RING_LINE_MAX_BYTES;
          while (*keep != '\0' && (*keep & 0xc0) == 0x80)
            keep++;
        }

      g_queue_push_tail (&op->err_ring, g_strdup (keep));
      if (op->err_ring.length > STDERR_RING_LINES)
        g_free (g_queue_pop_head (&op->err_ring));
    }

  /* Once the caller has given up on the command, it wants no more lines */
  if (op->line_func != NULL && !op->cancelled && !op->timed_out)
    op->line_func (line, pipe->is_stderr, op->line_data);

  run_op_read_next (task, pipe);
}

static void
run_op_read_next (GTask *task,
                  Pipe  *pipe)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->streaming)
    g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (pipe->stream),
                                         G_PRIORITY_DEFAULT,
                                         op->io_cancellable,
                                         run_op_read_line_cb,
                                         g_object_ref (task));
  else
    {
      guint len = pipe->collected->len;

      /* straight into the collected bytes: no chunk copied twice */
      g_byte_array_set_size (pipe->collected, len + READ_CHUNK_SIZE);
      g_input_stream_read_async (pipe->stream,
                                 pipe->collected->data + len,
                                 READ_CHUNK_SIZE,
                                 G_PRIORITY_DEFAULT,
                                 op->io_cancellable,
                                 run_op_read_cb,
                                 g_object_ref (task));
    }
}

static void
run_op_setup_pipe (RunOp        *op,
                   Pipe         *pipe,
                   GInputStream *stream,
                   gboolean      is_stderr)
{
  pipe->is_stderr = !!is_stderr;

  /* A fake spawn may hand back a process without our pipes */
  if (stream == NULL)
    {
      pipe->done = TRUE;
      return;
    }

  if (op->streaming)
    {
      /* Only "\n" ends a line, so "\r" progress stays inside one */
      GDataInputStream *data = g_data_input_stream_new (stream);

      g_data_input_stream_set_newline_type (data, G_DATA_STREAM_NEWLINE_TYPE_LF);
      pipe->stream = G_INPUT_STREAM (data);
    }
  else
    {
      pipe->stream = g_object_ref (stream);
      pipe->collected = g_byte_array_new ();
    }
}

static GError *
dup_spawn_error (RunOp  *op,
                 GError *error)
{
  g_autofree char *command = NULL;

  if (error == NULL)
    return g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                        _("Could not run “%s”"), op->program);

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
    {
      return g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                          _("The program “%s” was not found. Make sure it is installed."),
                          op->in_flatpak ? "flatpak-spawn" : op->program);
    }

  if (error->domain != G_SPAWN_ERROR)
    return g_error_copy (error);

  command = dup_command_for_message ((const char * const *) op->argv);
  return g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                      _("Could not run “%s”: %s"), command, error->message);
}

static pid_t
find_own_process_group (GSubprocess *subprocess)
{
  const char *identifier = g_subprocess_get_identifier (subprocess);
  pid_t pid;

  if (identifier == NULL)
    return 0;

  pid = (pid_t) g_ascii_strtoll (identifier, NULL, 10);

  /* Only signal a group we know the child leads: a fake spawn may not
   * have made one, and then the group would be ours. */
  if (pid > 1 && getpgid (pid) == pid && pid != getpgrp ())
    return pid;

  return 0;
}

static void
kiste_runner_start (KisteRunner         *self,
                    const char * const  *argv,
                    guint                timeout_ms,
                    gboolean             streaming,
                    KisteLineFunc        line_func,
                    gpointer             line_data,
                    GDestroyNotify       line_data_destroy,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data,
                    gpointer             source_tag)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  RunOp *op;

  op = g_new0 (RunOp, 1);
  op->argv = g_strdupv ((char **) argv);
  op->program = g_path_get_basename (argv[0]);
  op->timeout_ms = timeout_ms;
  op->kill_grace_ms = priv->kill_grace_ms;
  op->in_flatpak = priv->in_flatpak;
  op->streaming = !!streaming;
  op->merged = source_tag == kiste_runner_stream_merged_async;
  op->line_func = line_func;
  op->line_data = line_data;
  op->line_data_destroy = line_data_destroy;
  op->io_cancellable = g_cancellable_new ();
  g_queue_init (&op->err_ring);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) run_op_free);

  if (g_task_return_error_if_cancelled (task))
    return;

  op->subprocess = kiste_runner_spawn (self, argv,
                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                       (op->merged ? G_SUBPROCESS_FLAGS_STDERR_MERGE
                                                   : G_SUBPROCESS_FLAGS_STDERR_PIPE),
                                       &error);
  if (op->subprocess == NULL)
    {
      g_task_return_error (task, dup_spawn_error (op, error));
      return;
    }

  op->pgid = find_own_process_group (op->subprocess);
  live_groups_add (op->pgid);

  run_op_setup_pipe (op, &op->out, g_subprocess_get_stdout_pipe (op->subprocess), FALSE);
  run_op_setup_pipe (op, &op->err, g_subprocess_get_stderr_pipe (op->subprocess), TRUE);

  g_subprocess_wait_async (op->subprocess, NULL, run_op_wait_cb, g_object_ref (task));

  if (!op->out.done)
    run_op_read_next (task, &op->out);
  if (!op->err.done)
    run_op_read_next (task, &op->err);

  if (timeout_ms > 0)
    op->timeout_source = run_op_add_source (task, g_timeout_source_new (timeout_ms),
                                            run_op_timeout_cb, "[kiste] runner timeout");

  if (cancellable != NULL)
    op->cancel_source = run_op_add_source (task, g_cancellable_source_new (cancellable),
                                           G_SOURCE_FUNC (run_op_cancelled_cb),
                                           "[kiste] runner cancel");
}

void
kiste_runner_run_async (KisteRunner         *self,
                        const char * const  *argv,
                        guint                timeout_ms,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, argv, timeout_ms, FALSE, NULL, NULL, NULL,
                      cancellable, callback, user_data, kiste_runner_run_async);
}

gboolean
kiste_runner_run_finish (KisteRunner   *self,
                         GAsyncResult  *result,
                         char         **stdout_buf,
                         char         **stderr_buf,
                         GError       **error)
{
  RunOp *op;

  g_return_val_if_fail (KISTE_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_runner_run_async, FALSE);

  op = g_task_get_task_data (G_TASK (result));

  /* Handed over, not copied: a result is finished once */
  if (stdout_buf != NULL)
    *stdout_buf = op->stdout_text ? g_steal_pointer (&op->stdout_text) : NULL;
  if (stderr_buf != NULL)
    *stderr_buf = op->stderr_text ? g_strdup (op->stderr_text) : NULL;

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
kiste_runner_stream_async (KisteRunner         *self,
                           const char * const  *argv,
                           guint                timeout_ms,
                           KisteLineFunc        line_func,
                           gpointer             line_data,
                           GDestroyNotify       line_data_destroy,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, argv, timeout_ms, TRUE, line_func, line_data, line_data_destroy,
                      cancellable, callback, user_data, kiste_runner_stream_async);
}

void
kiste_runner_stream_merged_async (KisteRunner         *self,
                                  const char * const  *argv,
                                  guint                timeout_ms,
                                  KisteLineFunc        line_func,
                                  gpointer             line_data,
                                  GDestroyNotify       line_data_destroy,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, argv, timeout_ms, TRUE, line_func, line_data, line_data_destroy,
                      cancellable, callback, user_data, kiste_runner_stream_merged_async);
}

gboolean
kiste_runner_stream_finish (KisteRunner   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_runner_stream_async ||
                        g_task_get_source_tag (G_TASK (result)) == kiste_runner_stream_merged_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* GObject */

static void
kiste_runner_finalize (GObject *object)
{
  KisteRunner *self = KISTE_RUNNER (object);
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_clear_pointer (&priv->manager, g_free);
  g_clear_pointer (&priv->cwd, g_free);
  g_clear_pointer (&priv->flatpak_spawn, g_free);
  g_clear_pointer (&priv->extra_env, g_strfreev);
  g_clear_pointer (&priv->dropped_env, g_hash_table_unref);

  G_OBJECT_CLASS (kiste_runner_parent_class)->finalize (object);
}

static void
kiste_runner_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  KisteRunner *self = KISTE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_string (value, kiste_runner_get_manager (self));
      break;

    case PROP_IN_FLATPAK:
      g_value_set_boolean (value, kiste_runner_get_in_flatpak (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_runner_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  KisteRunner *self = KISTE_RUNNER (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      kiste_runner_set_manager (self, g_value_get_string (value));
      break;

    case PROP_IN_FLATPAK:
      kiste_runner_set_in_flatpak (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_runner_class_init (KisteRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_runner_finalize;
  object_class->get_property = kiste_runner_get_property;
  object_class->set_property = kiste_runner_set_property;

  klass->spawn = kiste_runner_real_spawn;

  properties[PROP_MANAGER] =
    g_param_spec_string ("manager", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_IN_FLATPAK] =
    g_param_spec_boolean ("in-flatpak", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_runner_init (KisteRunner *self)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  priv->kill_grace_ms = DEFAULT_KILL_GRACE_MS;
  priv->dropped_env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  priv->in_flatpak = detect_flatpak ();
}
