/* kiste-manager.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kiste-apps.h"
#include "kiste-bundled-distrobox.h"
#include "kiste-capabilities-private.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-image-update.h"
#include "kiste-isolated-home.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-setup-watch.h"

G_DEFINE_FINAL_TYPE (KisteManager, kiste_manager, G_TYPE_OBJECT)

enum {
  BUSY_CHANGED,
  EXPORTED_CHANGED,
  IMAGE_UPDATES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_CLEANING_UP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
kiste_manager_is_busy_for_watch (const char   *box_ref,
                                 KisteManager *self)
{
  return g_hash_table_contains (self->busy, box_ref);
}

/* A box that one of our operations starts is followed by it */
static KisteBoxSource *
kiste_manager_new_source (KisteManager *self,
                          const char   *engine)
{
  KisteBoxSource *source = kiste_box_source_new (self->runner, engine);

  kiste_setup_watch_set_skip_func (kiste_box_source_get_setup_watch (source),
                                   (KisteSetupWatchSkipFunc) kiste_manager_is_busy_for_watch, self);
  return source;
}

KisteManager *
kiste_manager_new (KisteRunner *runner)
{
  KisteManager *self;

  g_return_val_if_fail (!runner || KISTE_IS_RUNNER (runner), NULL);

  self = g_object_new (KISTE_TYPE_MANAGER, NULL);
  self->runner = runner ? g_object_ref (runner) : kiste_runner_new ();
  if (kiste_runner_get_in_flatpak (self->runner))
    {
      /* Flatpak points XDG_DATA_HOME into the app's own folder; launchers
       * belong in the host's, which it passes on when the host set one */
      const char *host_data = g_getenv ("HOST_XDG_DATA_HOME");
      g_autofree char *data = NULL;

      if (host_data != NULL && g_path_is_absolute (host_data))
        data = g_strdup (host_data);
      else
        data = g_build_filename (g_get_home_dir (), ".local", "share", NULL);
      g_free (self->applications_dir);
      self->applications_dir = g_build_filename (data, "applications", NULL);
    }
  if (kiste_runner_get_in_flatpak (self->runner))
    {
      /* the same for the host's systemd user units */
      const char *host_config = g_getenv ("HOST_XDG_CONFIG_HOME");
      g_autofree char *config = NULL;

      if (host_config != NULL && g_path_is_absolute (host_config))
        config = g_strdup (host_config);
      else
        config = g_build_filename (g_get_home_dir (), ".config", NULL);
      g_free (self->units_dir);
      self->units_dir = g_build_filename (config, "systemd", "user", NULL);
    }
  self->capabilities = kiste_capabilities_new (self->runner);
  if (kiste_runner_get_in_flatpak (self->runner))
    {
      g_autofree char *own = kiste_bundled_distrobox_dup_install_dir ();

      kiste_capabilities_set_last_path_dir (self->capabilities, own);
    }
  {
    /* the first source follows the runner's engine, set by load */
    g_autoptr(KisteBoxSource) first = kiste_manager_new_source (self, NULL);

    self->boxes = kiste_box_list_new (first);
  }
  return self;
}

KisteRunner *
kiste_manager_get_runner (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return self->runner;
}

KisteCapabilities *
kiste_manager_get_capabilities (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return self->capabilities;
}

KisteBoxList *
kiste_manager_get_boxes (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return self->boxes;
}

const char *
_kiste_manager_resolve_box (KisteManager    *self,
                            const char      *box_ref,
                            KisteBoxSource **source)
{
  KisteBox *box = kiste_box_list_find (self->boxes, box_ref);
  KisteBoxSource *found;
  const char *name = box_ref;

  if (box != NULL)
    {
      found = kiste_box_list_get_source_for_box (self->boxes, box);
      name = kiste_box_get_name (box);
    }
  else if ((found = kiste_box_list_parse_ref (self->boxes, box_ref, &name)) == NULL)
    found = kiste_box_list_get_first_source (self->boxes);

  if (source != NULL)
    *source = found;
  return name;
}

KisteBoxStore *
_kiste_manager_get_store (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return kiste_box_source_get_store (kiste_box_list_get_first_source (self->boxes));
}

/**
 * kiste_manager_shutdown:
 *
 * Ends every command still running, with the processes it started: call it
 * when the app quits, so that nothing outlives it.
 */
void
kiste_manager_shutdown (KisteManager *self)
{
  guint n;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  n = kiste_runner_terminate_all ();
  if (n > 0)
    g_debug ("Ended %u running commands on the way out", n);
}

GListModel *
kiste_manager_get_tasks (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return G_LIST_MODEL (self->tasks);
}

void
kiste_manager_clear_finished_tasks (KisteManager *self)
{
  guint i;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  /* from the end, neighbours together: one items-changed per run */
  i = g_list_model_get_n_items (G_LIST_MODEL (self->tasks));
  while (i > 0)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (G_LIST_MODEL (self->tasks), i - 1);
      guint end = i;

      if (kiste_task_get_running (task))
        {
          i--;
          continue;
        }

      while (i > 0)
        {
          g_autoptr(KisteTask) before = g_list_model_get_item (G_LIST_MODEL (self->tasks), i - 1);

          if (kiste_task_get_running (before))
            break;
          i--;
        }
      g_list_store_splice (self->tasks, i, end - i, NULL, 0);
    }
}

KisteTask *
kiste_manager_get_task_for_box (KisteManager *self,
                                const char   *box_name)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if (box_name == NULL)
    return NULL;
  return g_hash_table_lookup (self->busy, box_name);
}

gboolean
kiste_manager_is_busy (KisteManager *self,
                       const char   *box_name)
{
  return kiste_manager_get_task_for_box (self, box_name) != NULL;
}

static void exported_monitors_start (KisteManager *self);
static void exported_monitors_stop  (KisteManager *self);

void
_kiste_manager_set_host_dirs (KisteManager *self,
                              const char   *applications_dir,
                              const char   *bin_dir)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (applications_dir != NULL && bin_dir != NULL);

  g_set_str (&self->applications_dir, applications_dir);
  g_set_str (&self->bin_dir, bin_dir);

  /* A watch follows the folders in use */
  if (self->n_exported_watchers > 0)
    {
      exported_monitors_stop (self);
      exported_monitors_start (self);
    }
}

const char *
kiste_manager_get_bin_dir (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  return self->bin_dir;
}

static gboolean
exported_changed_idle (gpointer user_data)
{
  KisteManager *self = user_data;

  self->exported_changed_source = 0;
  g_signal_emit (self, signals[EXPORTED_CHANGED], 0);
  return G_SOURCE_REMOVE;
}

/* distrobox-export writes a launcher, then copies icons and runs
 * update-desktop-database: one signal for a burst of changes */
static void
exported_monitor_changed_cb (KisteManager      *self,
                             GFile             *file,
                             GFile             *other_file,
                             GFileMonitorEvent  event)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED)
    return;
  if (self->exported_changed_source == 0)
    self->exported_changed_source = g_timeout_add_full (G_PRIORITY_DEFAULT, 100,
                                                        exported_changed_idle, self, NULL);
}

static GFileMonitor *
monitor_dir (KisteManager *self,
             const char   *dir)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GError) error = NULL;
  GFileMonitor *monitor;

  /* A folder that does not exist yet is watched for its creation too */
  monitor = g_file_monitor_directory (file, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (monitor == NULL)
    {
      g_debug ("Cannot follow %s: %s", dir, error->message);
      return NULL;
    }

  g_signal_connect_object (monitor, "changed", G_CALLBACK (exported_monitor_changed_cb), self,
                           G_CONNECT_SWAPPED);
  return monitor;
}

/**
 * kiste_manager_watch_exported:
 *
 * Starts following the host folders of exported launchers and wrappers:
 * KisteManager::exported-changed is emitted when something there changes,
 * by Kiste, distrobox or anyone else. Calls nest.
 */
void
kiste_manager_watch_exported (KisteManager *self)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));

  if (self->n_exported_watchers++ == 0)
    exported_monitors_start (self);
}

void
kiste_manager_unwatch_exported (KisteManager *self)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));

  if (self->n_exported_watchers > 0 && --self->n_exported_watchers == 0)
    exported_monitors_stop (self);
}

static void
exported_monitors_start (KisteManager *self)
{
  if (self->applications_monitor == NULL && self->applications_dir != NULL)
    self->applications_monitor = monitor_dir (self, self->applications_dir);
  if (self->bin_monitor == NULL && self->bin_dir != NULL)
    self->bin_monitor = monitor_dir (self, self->bin_dir);
}

static void
exported_monitors_stop (KisteManager *self)
{
  if (self->applications_monitor != NULL)
    g_file_monitor_cancel (self->applications_monitor);
  if (self->bin_monitor != NULL)
    g_file_monitor_cancel (self->bin_monitor);
  g_clear_object (&self->applications_monitor);
  g_clear_object (&self->bin_monitor);
  g_clear_handle_id (&self->exported_changed_source, g_source_remove);
}

/* The distrobox major version the commands are written for */
guint
_kiste_manager_get_major (KisteManager *self)
{
  guint major = kiste_capabilities_get_distrobox_major (self->capabilities);

  return major ? major : 1;
}

/* TRUE when host commands go through flatpak-spawn: terminals need a pty
 * whose host side claims the controlling terminal */
gboolean
kiste_manager_get_in_flatpak (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), FALSE);

  return kiste_runner_get_in_flatpak (self->runner);
}

const char *
kiste_manager_get_engine (KisteManager *self)
{
  const char *manager;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if ((manager = kiste_runner_get_manager (self->runner)) == NULL)
    manager = kiste_capabilities_get_manager (self->capabilities);
  return manager ? manager : "podman";
}

/* Load */

/* The listing starts as soon as the manager is known (early), while
 * `distrobox create --help` still runs; the load completes when both the
 * capabilities and that listing are done. */
typedef struct
{
  char     *preferred;
  char     *early_manager;  /* the store watches with it */
  GError   *store_error;
  guint     caps_done : 1;
  guint     store_done : 1;
  guint     returned : 1;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_free (data->preferred);
  g_free (data->early_manager);
  g_clear_error (&data->store_error);
  g_free (data);
}

static void
load_return (GTask  *task,
             GError *error)
{
  LoadData *data = g_task_get_task_data (task);

  if (data->returned)
    {
      g_clear_error (&error);
      return;
    }

  data->returned = TRUE;
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
load_reload_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, &error);
  data->store_done = TRUE;

  /* the capabilities may yet say the load fails */
  if (!data->caps_done)
    {
      data->store_error = g_steal_pointer (&error);
      return;
    }

  load_return (task, g_steal_pointer (&error));
}

static void
load_start_watching (GTask      *task,
                     const char *manager)
{
  KisteManager *self = g_task_get_source_object (task);

  kiste_runner_set_manager (self->runner, manager);
  kiste_box_store_watch_async (_kiste_manager_get_store (self), g_task_get_cancellable (task),
                               load_reload_cb, g_object_ref (task));
}

/* An engine beside the first one that cannot be asked (its daemon is not
 * running, the user may not use its socket) has no boxes to show: it
 * leaves the list after its first listing fails */
static void
other_source_error_cb (KisteBoxStore  *store,
                       GParamSpec     *pspec,
                       KisteBoxSource *source)
{
  KisteManager *self = g_object_get_data (G_OBJECT (source), "kiste-manager");
  const GError *error = kiste_box_store_get_error (store);

  if (self == NULL || error == NULL || kiste_box_store_get_loaded (store))
    return;

  g_debug ("The %s boxes are not listed: %s", kiste_box_source_get_engine (source), error->message);
  g_signal_handlers_disconnect_by_func (store, other_source_error_cb, source);
  kiste_box_list_remove_source (self->boxes, source);
}

KisteBoxSource *
_kiste_manager_add_engine (KisteManager *self,
                           const char   *engine)
{
  g_autoptr(KisteBoxSource) source = NULL;
  KisteBoxSource *there;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if ((there = kiste_box_list_find_source (self->boxes, engine)) != NULL)
    return there;

  source = kiste_manager_new_source (self, engine);
  g_object_set_data (G_OBJECT (source), "kiste-manager", self);
  g_signal_connect_object (kiste_box_source_get_store (source), "notify::error",
                           G_CALLBACK (other_source_error_cb), source, 0);
  kiste_box_list_add_source (self->boxes, source);
  return source;
}

/* The boxes of the other engine the computer has, beside those of the
 * first (people run both; distrobox picks one per command) */
static void
load_other_engines (KisteManager *self,
                    const char   *first)
{
  static const char * const engines[] = { "podman", "docker" };
  GPtrArray *sources = kiste_box_list_get_sources (self->boxes);

  /* a source of the engine that is first now goes */
  for (guint i = sources->len; i > 1; i--)
    {
      KisteBoxSource *source = g_ptr_array_index (sources, i - 1);

      if (g_strcmp0 (kiste_box_source_get_engine (source), first) == 0)
        kiste_box_list_remove_source (self->boxes, source);
    }

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      KisteBoxSource *source;

      if (g_str_equal (engines[i], first) ||
          !kiste_capabilities_has_manager (self->capabilities, engines[i]) ||
          kiste_box_list_find_source (self->boxes, engines[i]) != NULL)
        continue;

      source = _kiste_manager_add_engine (self, engines[i]);
      /* lists them once its events stream is up */
      kiste_box_store_start_watching (kiste_box_source_get_store (source));
    }
}

static void
load_early_cb (const char *manager,
               gpointer    user_data)
{
  GTask *task = user_data;
  LoadData *data = g_task_get_task_data (task);

  data->early_manager = g_strdup (manager);
  load_start_watching (task, manager);
}

static void
load_refresh_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteManager *self = g_task_get_source_object (task);
  LoadData *data = g_task_get_task_data (task);
  const char *preferred = data->preferred;
  const char *manager;
  GError *failure = NULL;
  g_autoptr(GError) error = NULL;

  data->caps_done = TRUE;

  if (!kiste_capabilities_refresh_finish (self->capabilities, result, &error) &&
      !g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING))
    {
      failure = g_steal_pointer (&error);
      goto failed;
    }
  g_clear_error (&error);

  manager = kiste_capabilities_get_manager (self->capabilities);
  if (preferred != NULL && kiste_capabilities_has_manager (self->capabilities, preferred))
    manager = preferred;

  /* Toolbx without distrobox (a stock Silverblue): its boxes, on podman,
   * the only engine Toolbx uses */
  if (!kiste_capabilities_has_distrobox (self->capabilities))
    {
      if (!kiste_capabilities_has_toolbox (self->capabilities) ||
          !kiste_capabilities_has_manager (self->capabilities, "podman"))
        {
          failure = g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING, "%s",
                                 kiste_capabilities_get_distrobox_problem (self->capabilities));
          goto failed;
        }
      manager = "podman";
    }

  if (manager == NULL)
    {
      failure = g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING, "%s",
                             kiste_capabilities_get_manager_problem (self->capabilities));
      goto failed;
    }

  if (kiste_capabilities_has_distrobox (self->capabilities))
    load_other_engines (self, manager);

  /* Listing already, with this manager: its result is the load's */
  if (g_strcmp0 (data->early_manager, manager) == 0)
    {
      if (data->store_done)
        load_return (task, g_steal_pointer (&data->store_error));
      return;
    }

  if (data->early_manager != NULL)
    kiste_box_list_stop_watching (self->boxes);
  load_start_watching (task, manager);
  return;

failed:
  /* as if the listing had never started */
  if (data->early_manager != NULL)
    kiste_box_list_stop_watching (self->boxes);
  load_return (task, failure);
}

void
kiste_manager_load_async (KisteManager        *self,
                          const char          *preferred,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_load_async);
  data = g_new0 (LoadData, 1);
  if (preferred != NULL && g_strcmp0 (preferred, "auto") != 0)
    data->preferred = g_strdup (preferred);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);

  kiste_box_list_stop_watching (self->boxes);
  /* the task outlives the early call: the refresh holds it until done */
  _kiste_capabilities_refresh_early_async (self->capabilities,
                                           data->preferred,
                                           load_early_cb, task,
                                           cancellable,
                                           load_refresh_cb,
                                           g_object_ref (task));
}


char **
kiste_manager_dup_enter_argv (KisteManager       *self,
                              KisteBox           *box,
                              const char         *cwd,
                              const char * const *command)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  {
    g_auto(GStrv) argv = kiste_commands_enter_argv (box, _kiste_manager_get_major (self), cwd, command);

    return kiste_box_source_dup_argv (kiste_box_list_get_source_for_box (self->boxes, box),
                                      (const char * const *) argv);
  }
}

/* Lists the operation's task, and marks its box busy with it when busy */
void
_kiste_manager_task_started (KisteManager *self,
                             KisteTask    *ktask,
                             gboolean      busy)
{
  const char *name = kiste_task_get_box_name (ktask);

  g_list_store_append (self->tasks, ktask);
  if (busy && name != NULL)
    {
      g_hash_table_insert (self->busy, g_strdup (name), g_object_ref (ktask));
      g_signal_emit (self, signals[BUSY_CHANGED], 0, name);
    }
}

void
_kiste_manager_task_finished (KisteManager *self,
                              KisteTask    *ktask)
{
  const char *name = kiste_task_get_box_name (ktask);
  guint n_finished = 0;
  guint n;

  if (name != NULL && g_hash_table_lookup (self->busy, name) == ktask)
    {
      g_hash_table_remove (self->busy, name);
      g_signal_emit (self, signals[BUSY_CHANGED], 0, name);
      /* a start that was cancelled or failed may leave a setup running */
      {
        KisteBox *box = kiste_box_list_find (self->boxes, name);

        if (box != NULL)
          kiste_setup_watch_check (kiste_box_source_get_setup_watch (kiste_box_list_get_source_for_box (self->boxes, box)),
                                   kiste_box_get_name (box));
      }
    }

  /* Keep the list short: drop the oldest finished tasks */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->tasks));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteTask) t = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);

      if (!kiste_task_get_running (t))
        n_finished++;
    }
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tasks)) &&
                    n_finished > MAX_FINISHED_TASKS;)
    {
      g_autoptr(KisteTask) t = g_list_model_get_item (G_LIST_MODEL (self->tasks), i);

      if (!kiste_task_get_running (t))
        {
          g_list_store_remove (self->tasks, i);
          n_finished--;
        }
      else
        i++;
    }
}

gboolean
kiste_manager_operation_finish (KisteManager  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gpointer
kiste_manager_query_finish (KisteManager  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
kiste_manager_get_cleaning_up (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), FALSE);

  return self->n_cleanups > 0;
}

void
_kiste_manager_cleanup_begin (KisteManager *self)
{
  if (self->n_cleanups++ == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLEANING_UP]);
}

void
_kiste_manager_cleanup_end (KisteManager *self)
{
  g_return_if_fail (self->n_cleanups > 0);

  if (--self->n_cleanups == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLEANING_UP]);
}

/* Create */

GStrv
_kiste_manager_dup_names (KisteManager *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GListModel *boxes = G_LIST_MODEL (self->boxes);

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

static void
kiste_manager_dispose (GObject *object)
{
  KisteManager *self = KISTE_MANAGER (object);

  if (self->boxes != NULL)
    kiste_box_list_stop_watching (self->boxes);
  self->n_exported_watchers = 0;
  exported_monitors_stop (self);

  g_clear_object (&self->boxes);
  g_clear_object (&self->capabilities);
  g_clear_object (&self->runner);
  g_clear_object (&self->tasks);
  g_clear_pointer (&self->busy, g_hash_table_unref);
  g_clear_pointer (&self->image_updates, g_hash_table_unref);

  G_OBJECT_CLASS (kiste_manager_parent_class)->dispose (object);
}

static void
kiste_manager_finalize (GObject *object)
{
  KisteManager *self = KISTE_MANAGER (object);

  g_clear_pointer (&self->applications_dir, g_free);
  g_clear_pointer (&self->bin_dir, g_free);
  g_clear_pointer (&self->units_dir, g_free);
  g_clear_pointer (&self->journal_dir, g_free);

  G_OBJECT_CLASS (kiste_manager_parent_class)->finalize (object);
}

static void
kiste_manager_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  KisteManager *self = KISTE_MANAGER (object);

  switch (prop_id)
    {
    case PROP_CLEANING_UP:
      g_value_set_boolean (value, kiste_manager_get_cleaning_up (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_manager_class_init (KisteManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kiste_manager_dispose;
  object_class->finalize = kiste_manager_finalize;
  object_class->get_property = kiste_manager_get_property;

  properties[PROP_CLEANING_UP] =
    g_param_spec_boolean ("cleaning-up", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * KisteManager::busy-changed:
   * @box_name: the box whose operation started or ended
   */
  signals[BUSY_CHANGED] =
    g_signal_new ("busy-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * KisteManager::exported-changed:
   *
   * Launchers or wrappers on the host changed (see
   * kiste_manager_watch_exported()): list them again.
   */
  signals[EXPORTED_CHANGED] =
    g_signal_new ("exported-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * KisteManager::image-updates-changed:
   *
   * An update check ended (kiste_manager_check_updates_async()): what
   * kiste_manager_get_image_update() says may have changed.
   */
  signals[IMAGE_UPDATES_CHANGED] =
    g_signal_new ("image-updates-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
kiste_manager_init (KisteManager *self)
{
  self->tasks = g_list_store_new (KISTE_TYPE_TASK);
  self->busy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->applications_dir = g_build_filename (g_get_user_data_dir (), "applications", NULL);
  self->bin_dir = g_build_filename (g_get_home_dir (), ".local", "bin", NULL);
  self->units_dir = g_build_filename (g_get_user_config_dir (), "systemd", "user", NULL);
  self->journal_dir = g_build_filename (g_get_user_state_dir (), "kiste", "journal", NULL);
  self->image_updates = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) kiste_image_update_free);
}
