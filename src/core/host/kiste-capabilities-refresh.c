/* kiste-capabilities-refresh.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A refresh of the capabilities: distrobox, podman, docker and Toolbx probed on
 * the host (with its login PATH and distrobox's config), the results
 * applied in one go, the early call once the manager is known. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-capabilities-state-private.h"
#include "kiste-error.h"

/* Generous: `distrobox create --help` sources the user's config files */
#define PROBE_TIMEOUT_MS 20000

#define ENV_MANAGER "DBX_CONTAINER_MANAGER"

enum
{
  EARLY_DISTROBOX = 1 << 0,
  EARLY_PODMAN    = 1 << 1,
  EARLY_DOCKER    = 1 << 2,
  EARLY_CONFIG    = 1 << 3,
  EARLY_ALL       = EARLY_DISTROBOX | EARLY_PODMAN | EARLY_DOCKER | EARLY_CONFIG,
};

/* Everything one refresh finds out, applied to the object in one go */
typedef struct
{
  guint    serial;
  guint    pending;

  char    *env_manager;
  char    *config_manager;
  char    *config_source;

  char    *distrobox_out;
  GError  *distrobox_error;
  char    *help_out;
  GError  *help_error;
  char    *podman_out;
  GError  *podman_error;
  char    *docker_out;
  GError  *docker_error;
  char    *toolbox_out;
  GError  *toolbox_error;

  /* The answers the manager to list with depends on, still to come
   * (EARLY_* bits): the early call comes once those that came settle it,
   * before create --help */
  guint    early_pending;
  gboolean early_called;
  char    *preferred;
  KisteCapabilitiesEarlyFunc early_func;
  gpointer early_data;
} Probe;

static void
probe_free (Probe *probe)
{
  g_free (probe->env_manager);
  g_free (probe->config_manager);
  g_free (probe->config_source);
  g_free (probe->distrobox_out);
  g_clear_error (&probe->distrobox_error);
  g_free (probe->help_out);
  g_clear_error (&probe->help_error);
  g_free (probe->podman_out);
  g_clear_error (&probe->podman_error);
  g_free (probe->docker_out);
  g_clear_error (&probe->docker_error);
  g_free (probe->toolbox_out);
  g_clear_error (&probe->toolbox_error);
  g_free (probe->preferred);
  g_free (probe);
}

/* Applying results ------------------------------------------------------- */

static char *
dup_first_line (const char *text)
{
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  while (g_ascii_isspace (*text))
    text++;
  end = strchr (text, '\n');

  return end ? g_strndup (text, end - text) : g_strdup (text);
}

static gboolean
is_tool_missing (const GError *error)
{
  return g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
}

/* Keeps a timeout a timeout; anything else from outside our domain is a
 * failed command */
static int
error_code (const GError *error)
{
  return error->domain == KISTE_ERROR ? error->code : KISTE_ERROR_COMMAND_FAILED;
}

static void
choose_manager (KisteCapabilities *self,
                const char        *configured,
                const char        *source)
{
  if (configured == NULL || g_str_equal (configured, "autodetect"))
    {
      if (self->has_podman)
        self->manager = g_strdup ("podman");
      else if (self->has_docker)
        self->manager = g_strdup ("docker");
      else
        self->manager_problem =
          g_strdup (_("No container manager was found. Install podman (recommended) or docker, "
                      "then try again."));
      return;
    }

  self->manager_source = g_strdup (source);

  if (g_str_equal (configured, "podman") || g_str_equal (configured, "docker"))
    {
      if (kiste_capabilities_has_manager (self, configured))
        self->manager = g_strdup (configured);
      else
        self->manager_problem =
          g_strdup_printf (_("distrobox is set to use %s (in %s), but %s is not installed. "
                             "Install it or change that setting."),
                           configured, source, configured);
      return;
    }

  self->manager_problem =
    g_strdup_printf (_("distrobox is set to use “%s” (in %s), but Kiste works only with podman "
                       "or docker. Change that setting to use Kiste."),
                     configured, source);
}

static void
apply_probe (KisteCapabilities *self,
             Probe             *probe)
{
  const char *configured = probe->env_manager;
  const char *source = ENV_MANAGER;

  _kiste_capabilities_clear_results (self);
  self->loaded = TRUE;

  if (probe->distrobox_error != NULL)
    {
      if (is_tool_missing (probe->distrobox_error))
        self->distrobox_problem =
          g_strdup (_("distrobox is not installed. Kiste needs it to create and run boxes: "
                      "install the “distrobox” package, then try again."));
      else
        {
          self->has_distrobox = TRUE;
          self->problem_code = error_code (probe->distrobox_error);
          self->distrobox_problem =
            g_strdup_printf (_("distrobox did not say which version it is: %s"),
                             probe->distrobox_error->message);
        }
    }
  else
    {
      self->has_distrobox = TRUE;
      self->distrobox_version = kiste_capabilities_parse_version (probe->distrobox_out, "distrobox");
      self->distrobox_major = kiste_capabilities_parse_major (self->distrobox_version);

      if (self->distrobox_version == NULL)
        {
          g_autofree char *line = dup_first_line (probe->distrobox_out);

          self->problem_code = KISTE_ERROR_BAD_OUTPUT;
          self->distrobox_problem =
            g_strdup_printf (_("distrobox printed a version Kiste cannot read: “%s”"), line);
        }
      else if (probe->help_error != NULL)
        {
          self->problem_code = error_code (probe->help_error);
          self->distrobox_problem =
            g_strdup_printf (_("distrobox did not list its options: %s"),
                             probe->help_error->message);
        }
      else
        {
          g_strfreev (self->create_flags);
          self->create_flags = kiste_capabilities_parse_create_help (probe->help_out);
        }
    }

  self->has_podman = probe->podman_error == NULL || !is_tool_missing (probe->podman_error);
  if (probe->podman_error == NULL)
    self->podman_version = kiste_capabilities_parse_version (probe->podman_out, "podman");

  self->has_docker = probe->docker_error == NULL || !is_tool_missing (probe->docker_error);
  if (probe->docker_error == NULL)
    self->docker_version = kiste_capabilities_parse_version (probe->docker_out, "docker");

  /* a toolbox that cannot say its version cannot be trusted to run */
  if (probe->toolbox_error == NULL)
    self->toolbox_version = kiste_capabilities_parse_version (probe->toolbox_out, "toolbox");
  self->has_toolbox = self->toolbox_version != NULL;

  if (configured == NULL || configured[0] == '\0')
    {
      configured = probe->config_manager;
      source = probe->config_source;
    }

  choose_manager (self, configured, source);

  if (self->distrobox_problem == NULL && self->manager_problem != NULL)
    self->problem_code = KISTE_ERROR_TOOL_MISSING;

  _kiste_capabilities_notify_all (self);
}

/* Refresh ---------------------------------------------------------------- */

static void
probe_step_done (GTask *task)
{
  KisteCapabilities *self = g_task_get_source_object (task);
  Probe *probe = g_task_get_task_data (task);
  const char *problem;

  g_assert (probe->pending > 0);

  if (--probe->pending > 0)
    return;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* an older refresh finishing late must not overwrite newer results */
  if (probe->serial > self->applied_serial)
    {
      self->applied_serial = probe->serial;
      apply_probe (self, probe);
    }

  problem = self->distrobox_problem ? self->distrobox_problem : self->manager_problem;
  if (problem != NULL)
    g_task_return_new_error_literal (task, KISTE_ERROR, self->problem_code, problem);
  else
    g_task_return_boolean (task, TRUE);
}

/* The manager chosen when podman and docker are there or not: follows
 * apply_probe(), choose_manager() and the manager's preference */
static const char *
probe_choose_early (Probe    *probe,
                    gboolean  has_podman,
                    gboolean  has_docker)
{
  const char *configured = probe->env_manager;
  const char *chosen = NULL;

  if (configured == NULL || configured[0] == '\0')
    configured = probe->config_manager;

  if (configured == NULL || g_str_equal (configured, "autodetect"))
    chosen = has_podman ? "podman" : has_docker ? "docker" : NULL;
  else if (g_str_equal (configured, "podman") && has_podman)
    chosen = "podman";
  else if (g_str_equal (configured, "docker") && has_docker)
    chosen = "docker";

  if (g_strcmp0 (probe->preferred, "podman") == 0 && has_podman)
    chosen = "podman";
  else if (g_strcmp0 (probe->preferred, "docker") == 0 && has_docker)
    chosen = "docker";

  return chosen;
}

/* Whether the answers so far settle the manager a load would list with
 * once this refresh is done: the same whatever the probes still running
 * say. Podman found settles it without docker's answer, unless docker is
 * asked for (docker's CLI took 170 ms to say its version on two busy
 * cores). *manager is NULL when the load is going to fail anyway (no
 * distrobox, no manager). */
static gboolean
probe_early_manager (Probe  *probe,
                     char  **manager)
{
  g_autofree char *version = NULL;
  gboolean podman_known = !(probe->early_pending & EARLY_PODMAN);
  gboolean docker_known = !(probe->early_pending & EARLY_DOCKER);
  gboolean has_podman = probe->podman_error == NULL || !is_tool_missing (probe->podman_error);
  gboolean has_docker = probe->docker_error == NULL || !is_tool_missing (probe->docker_error);
  const char *first = NULL;
  gboolean any = FALSE;

  if (probe->early_pending & (EARLY_DISTROBOX | EARLY_CONFIG))
    return FALSE;

  *manager = NULL;
  if (probe->distrobox_error != NULL ||
      (version = kiste_capabilities_parse_version (probe->distrobox_out, "distrobox")) == NULL)
    return TRUE;

  /* every answer the probes still running could give */
  for (int podman = FALSE; podman <= TRUE; podman++)
    for (int docker = FALSE; docker <= TRUE; docker++)
      {
        const char *chosen;

        if ((podman_known && podman != has_podman) || (docker_known && docker != has_docker))
          continue;
        chosen = probe_choose_early (probe, podman, docker);
        if (any && g_strcmp0 (first, chosen) != 0)
          return FALSE;
        first = chosen;
        any = TRUE;
      }

  *manager = g_strdup (first);
  return TRUE;
}

/* Before probe_step_done(), so the early call comes before completion */
static void
probe_early_step_done (GTask *task,
                       guint  answered)
{
  Probe *probe = g_task_get_task_data (task);
  g_autofree char *manager = NULL;

  probe->early_pending &= ~answered;
  if (probe->early_called || probe->early_func == NULL)
    return;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;

  if (!probe_early_manager (probe, &manager))
    return;

  probe->early_called = TRUE;
  if (manager != NULL)
    probe->early_func (manager, probe->early_data);
}

typedef enum
{
  PROBE_DISTROBOX_VERSION,
  PROBE_CREATE_HELP,
  PROBE_PODMAN,
  PROBE_DOCKER,
  PROBE_TOOLBOX,
} ProbeKind;

static void
store_result (GTask        *task,
              ProbeKind     kind,
              GObject      *runner,
              GAsyncResult *result)
{
  Probe *probe = g_task_get_task_data (task);
  char **out = NULL;
  GError **error = NULL;
  guint early_bit = 0;

  switch (kind)
    {
    case PROBE_DISTROBOX_VERSION:
      out = &probe->distrobox_out;
      error = &probe->distrobox_error;
      early_bit = EARLY_DISTROBOX;
      break;

    case PROBE_CREATE_HELP:
      out = &probe->help_out;
      error = &probe->help_error;
      break;

    case PROBE_PODMAN:
      out = &probe->podman_out;
      error = &probe->podman_error;
      early_bit = EARLY_PODMAN;
      break;

    case PROBE_DOCKER:
      out = &probe->docker_out;
      error = &probe->docker_error;
      early_bit = EARLY_DOCKER;
      break;

    case PROBE_TOOLBOX:
      out = &probe->toolbox_out;
      error = &probe->toolbox_error;
      break;

    default:
      g_assert_not_reached ();
    }

  kiste_runner_run_finish (KISTE_RUNNER (runner), result, out, NULL, error);

  if (early_bit != 0)
    probe_early_step_done (task, early_bit);
  probe_step_done (task);
}

static void
distrobox_version_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_DISTROBOX_VERSION, object, result);
}

static void
create_help_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_CREATE_HELP, object, result);
}

static void
podman_version_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_PODMAN, object, result);
}

static void
docker_version_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_DOCKER, object, result);
}

static void
toolbox_version_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_TOOLBOX, object, result);
}

typedef struct
{
  char *manager;
  char *source;
} ConfigResult;

static void
config_result_free (ConfigResult *result)
{
  g_free (result->manager);
  g_free (result->source);
  g_free (result);
}

/* In a worker thread: the files are small, but some may sit on slow mounts */
static void
read_config_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const char * const *explicit_files = task_data;
  g_auto(GStrv) default_files = NULL;
  const char * const *files = explicit_files;
  ConfigResult *result = g_new0 (ConfigResult, 1);

  if (files == NULL)
    {
      g_autofree char *distrobox_path = g_find_program_in_path ("distrobox");

      default_files = kiste_capabilities_dup_default_config_files (distrobox_path);
      files = (const char * const *)default_files;
    }

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *contents = NULL;
      g_autofree char *value = NULL;

      if (!g_file_get_contents (files[i], &contents, NULL, NULL))
        continue;

      if ((value = kiste_capabilities_parse_config_manager (contents)) != NULL)
        {
          g_free (result->manager);
          g_free (result->source);
          result->manager = g_steal_pointer (&value);
          result->source = g_strdup (files[i]);
        }
    }

  g_task_return_pointer (task, result, (GDestroyNotify)config_result_free);
}

static void
read_config_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Probe *probe = g_task_get_task_data (task);
  ConfigResult *config;

  config = g_task_propagate_pointer (G_TASK (result), NULL);
  if (config != NULL)
    {
      probe->config_manager = g_steal_pointer (&config->manager);
      probe->config_source = g_steal_pointer (&config->source);
      config_result_free (config);
    }

  probe_early_step_done (task, EARLY_CONFIG);
  probe_step_done (task);
}

/* Takes the reference it is given */
static void
start_probes (GTask *task_owned)
{
  static const char * const distrobox_version_argv[] = { "distrobox", "--version", NULL };
  static const char * const create_help_argv[] = { "distrobox", "create", "--help", NULL };
  static const char * const podman_argv[] = { "podman", "--version", NULL };
  static const char * const docker_argv[] = { "docker", "--version", NULL };
  static const char * const toolbox_argv[] = { "toolbox", "--version", NULL };
  g_autoptr(GTask) task = task_owned;
  KisteCapabilities *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GTask) config_task = NULL;

  kiste_runner_run_async (self->runner, distrobox_version_argv, PROBE_TIMEOUT_MS, cancellable,
                          distrobox_version_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, create_help_argv, PROBE_TIMEOUT_MS, cancellable,
                          create_help_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, podman_argv, PROBE_TIMEOUT_MS, cancellable,
                          podman_version_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, docker_argv, PROBE_TIMEOUT_MS, cancellable,
                          docker_version_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, toolbox_argv, PROBE_TIMEOUT_MS, cancellable,
                          toolbox_version_cb, g_object_ref (task));

  config_task = g_task_new (self, cancellable, read_config_cb, g_object_ref (task));
  g_task_set_source_tag (config_task, read_config_thread);
  g_task_set_task_data (config_task, g_strdupv (self->config_files), (GDestroyNotify)g_strfreev);
  g_task_run_in_thread (config_task, read_config_thread);
}

static void
login_path_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteCapabilities *self = g_task_get_source_object (task);
  g_autofree char *output = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  self->distrobox_is_own = FALSE;
  if (kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      path = kiste_capabilities_parse_login_path (output);
      /* the host's PATH has no distrobox: if one is found, it is Kiste's */
      self->distrobox_is_own = path != NULL && self->last_path_dir != NULL &&
                               strstr (output, "\nKISTE_HOST_DISTROBOX=\n") != NULL &&
                               g_file_test (self->last_path_dir, G_FILE_TEST_IS_DIR);
    }
  else
    g_debug ("Could not ask the host's login shell for its PATH: %s", error->message);

  /* Kiste's own copy of distrobox comes last: the host's wins */
  if (self->last_path_dir != NULL && g_file_test (self->last_path_dir, G_FILE_TEST_IS_DIR))
    {
      char *longer = g_strconcat (path ? path : "/usr/local/bin:/usr/bin:/bin", ":",
                                  self->last_path_dir, NULL);

      g_free (path);
      path = longer;
    }

  if (path != NULL)
    kiste_runner_setenv (self->runner, "PATH", path);

  start_probes (g_steal_pointer (&task));
}

void
_kiste_capabilities_refresh_early_async (KisteCapabilities          *self,
                                         const char                 *preferred,
                                         KisteCapabilitiesEarlyFunc  early_func,
                                         gpointer                    early_data,
                                         GCancellable               *cancellable,
                                         GAsyncReadyCallback         callback,
                                         gpointer                    user_data)
{
  /* flatpak-spawn runs host commands with the session helper's PATH, which
   * lacks what the user's profile adds (~/.local/bin, Homebrew): ask a login
   * shell once per refresh. The script is constant. */
  static const char * const login_path_argv[] = {
    "sh", "-c",
    "shell=$(getent passwd \"$(id -un)\" | cut -d: -f7); "
    "exec \"${shell:-/bin/sh}\" -l -c "
    "'printf \"\\nKISTE_HOST_PATH=%s\\nKISTE_HOST_DISTROBOX=%s\\n\" \"$PATH\" \"$(command -v distrobox)\"' </dev/null",
    NULL
  };
  g_autoptr(GTask) task = NULL;
  Probe *probe;

  g_return_if_fail (KISTE_IS_CAPABILITIES (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_capabilities_refresh_async);

  probe = g_new0 (Probe, 1);
  probe->serial = ++self->started_serial;
  probe->env_manager = g_strdup (g_getenv (ENV_MANAGER));
  probe->pending = 6;
  probe->early_pending = EARLY_ALL;
  probe->preferred = g_strdup (preferred);
  probe->early_func = early_func;
  probe->early_data = early_data;
  g_task_set_task_data (task, probe, (GDestroyNotify)probe_free);

  if (kiste_runner_get_in_flatpak (self->runner))
    {
      kiste_runner_run_async (self->runner, login_path_argv, PROBE_TIMEOUT_MS, cancellable,
                              login_path_cb, g_steal_pointer (&task));
      return;
    }

  start_probes (g_steal_pointer (&task));
}

void
kiste_capabilities_refresh_async (KisteCapabilities   *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  _kiste_capabilities_refresh_early_async (self, NULL, NULL, NULL, cancellable, callback, user_data);
}

gboolean
kiste_capabilities_refresh_finish (KisteCapabilities  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_capabilities_refresh_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
