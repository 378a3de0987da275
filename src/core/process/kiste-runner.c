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

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-runner-state-private.h"
#include "kiste-spawn-private.h"

G_DEFINE_TYPE_WITH_PRIVATE (KisteRunner, kiste_runner, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_IN_FLATPAK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KisteRunnerPrivate *
_kiste_runner_get_private (KisteRunner *self)
{
  return kiste_runner_get_instance_private (self);
}

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
char *
_kiste_runner_dup_command_for_message (const char * const *argv)
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
        {
          /* one character, not the first byte of one */
          p = g_utf8_next_char (p);
        }
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
_kiste_runner_set_output_limit (KisteRunner *self,
                                gsize        limit)
{
  KisteRunnerPrivate *priv = kiste_runner_get_instance_private (self);

  g_return_if_fail (KISTE_IS_RUNNER (self));

  priv->output_limit = limit > 0 ? limit : KISTE_RUNNER_OUTPUT_LIMIT;
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

void
_kiste_runner_live_groups_add (pid_t pgid)
{
  if (pgid <= 0)
    return;
  if (live_groups == NULL)
    live_groups = g_hash_table_new (NULL, NULL);
  g_hash_table_add (live_groups, GINT_TO_POINTER (pgid));
}

void
_kiste_runner_live_groups_remove (pid_t pgid)
{
  if (pgid > 0 && live_groups != NULL)
    g_hash_table_remove (live_groups, GINT_TO_POINTER (pgid));
}

/* Signals the group pgid leads. A command just started through the spawn
 * helper may not have made its group yet; then it is the only process of
 * it, and gets the signal itself. */
gboolean
_kiste_runner_signal_group (pid_t pgid,
                            int   signum)
{
  if (kill (-pgid, signum) == 0)
    return TRUE;

  return errno == ESRCH && getpgid (pgid) != pgid && kill (pgid, signum) == 0;
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
      if (_kiste_runner_signal_group (GPOINTER_TO_INT (key), SIGTERM))
        n++;
    }

  return n;
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

  /* A group of its own, so a timeout or cancel also reaches the podman
   * processes a distrobox script started, never our own process. In the
   * sandbox the directory is the host's (--directory); it may not exist in
   * here, so flatpak-spawn itself keeps our own. */
  return _kiste_spawn (launcher, flags, (const char * const *) env,
                       priv->in_flatpak ? NULL : kiste_runner_get_cwd (self),
                       KISTE_SPAWN_GROUP, (const char * const *) full_argv, error);
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
  priv->output_limit = KISTE_RUNNER_OUTPUT_LIMIT;
  priv->dropped_env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  priv->in_flatpak = detect_flatpak ();
}
