/* kiste-manager.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "kiste-apps.h"
#include "kiste-bundled-distrobox.h"
#include "kiste-capabilities-private.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-isolated-home.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-setup-watch.h"
#include "kiste-start-monitor.h"
#include "kiste-validate.h"

G_DEFINE_FINAL_TYPE (KisteManager, kiste_manager, G_TYPE_OBJECT)

enum {
  BUSY_CHANGED,
  EXPORTED_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
op_free (Op *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->ktask);
  g_clear_pointer (&op->box_name, g_free);
  g_clear_pointer (&op->arg, g_free);
  g_clear_pointer (&op->home, g_free);
  g_clear_object (&op->options);
  g_clear_pointer (&op->argv, g_strfreev);
  g_clear_pointer (&op->apps, g_ptr_array_unref);
  g_clear_pointer (&op->output, g_free);
  g_clear_error (&op->pending_error);
  g_free (op);
}

static gboolean
kiste_manager_is_busy_for_watch (const char   *box_name,
                                 KisteManager *self)
{
  return g_hash_table_contains (self->busy, box_name);
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
  self->capabilities = kiste_capabilities_new (self->runner);
  if (kiste_runner_get_in_flatpak (self->runner))
    {
      g_autofree char *own = kiste_bundled_distrobox_dup_install_dir ();

      kiste_capabilities_set_last_path_dir (self->capabilities, own);
    }
  self->store = kiste_box_store_new (self->runner);
  /* a box that one of our operations starts is followed by it */
  self->setup_watch = kiste_setup_watch_new (self->runner, self->store);
  kiste_setup_watch_set_skip_func (self->setup_watch,
                                   (KisteSetupWatchSkipFunc) kiste_manager_is_busy_for_watch, self);
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

KisteBoxStore *
kiste_manager_get_store (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  return self->store;
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
kiste_manager_set_host_dirs (KisteManager *self,
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

static guint
kiste_manager_get_major (KisteManager *self)
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
  kiste_box_store_watch_async (self->store, g_task_get_cancellable (task),
                               load_reload_cb, g_object_ref (task));
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

  if (!kiste_capabilities_has_distrobox (self->capabilities))
    {
      failure = g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING, "%s",
                             kiste_capabilities_get_distrobox_problem (self->capabilities));
      goto failed;
    }

  manager = kiste_capabilities_get_manager (self->capabilities);
  if (preferred != NULL && kiste_capabilities_has_manager (self->capabilities, preferred))
    manager = preferred;

  if (manager == NULL)
    {
      failure = g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING, "%s",
                             kiste_capabilities_get_manager_problem (self->capabilities));
      goto failed;
    }

  /* Listing already, with this manager: its result is the load's */
  if (g_strcmp0 (data->early_manager, manager) == 0)
    {
      if (data->store_done)
        load_return (task, g_steal_pointer (&data->store_error));
      return;
    }

  if (data->early_manager != NULL)
    kiste_box_store_stop_watching (self->store);
  load_start_watching (task, manager);
  return;

failed:
  /* as if the listing had never started */
  if (data->early_manager != NULL)
    kiste_box_store_stop_watching (self->store);
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

  kiste_box_store_stop_watching (self->store);
  /* the task outlives the early call: the refresh holds it until done */
  _kiste_capabilities_refresh_early_async (self->capabilities,
                                           data->preferred,
                                           load_early_cb, task,
                                           cancellable,
                                           load_refresh_cb,
                                           g_object_ref (task));
}

gboolean
kiste_manager_load_finish (KisteManager  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

char **
kiste_manager_dup_enter_argv (KisteManager       *self,
                              KisteBox           *box,
                              const char         *cwd,
                              const char * const *command)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  return kiste_commands_enter_argv (box, kiste_manager_get_major (self), cwd, command);
}

/* Operations: the shared machinery */

static void
kiste_manager_task_finished (KisteManager *self,
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
      kiste_setup_watch_check (self->setup_watch, name);
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

/* Ends the operation; takes the caller's reference to task */
void
_kiste_op_return (GTask  *task,
                  GError *error)
{
  g_autoptr(GTask) owned = task;
  Op *op = g_task_get_task_data (owned);

  kiste_task_finish (op->ktask, error);
  kiste_manager_task_finished (op->self, op->ktask);

  if (error != NULL)
    g_task_return_error (task, error);
  else if (op->apps != NULL)
    g_task_return_pointer (task, g_ptr_array_ref (op->apps), (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_boolean (task, TRUE);
}

/* Creates the operation, or returns NULL after failing it at once (busy box,
 * bad input): nothing runs then. The caller owns the returned GTask. */
GTask *
_kiste_op_new (KisteManager        *self,
               const char          *title,
               const char          *box_name,
               gpointer             source_tag,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  KisteTask *running;
  Op *op;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  op = g_new0 (Op, 1);
  op->self = g_object_ref (self);
  op->box_name = g_strdup (box_name);
  op->ktask = kiste_task_new (title, box_name, cancellable);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);
  g_task_set_check_cancellable (task, FALSE);

  g_list_store_append (self->tasks, op->ktask);

  if (box_name != NULL && (running = g_hash_table_lookup (self->busy, box_name)))
    {
      _kiste_op_return (g_steal_pointer (&task),
                        g_error_new (KISTE_ERROR, KISTE_ERROR_BUSY,
                              _("“%s” is busy: %s. Try again when it is done."),
                              box_name, kiste_task_get_title (running)));
      return NULL;
    }

  if (box_name != NULL)
    {
      g_hash_table_insert (self->busy, g_strdup (box_name), g_object_ref (op->ktask));
      g_signal_emit (self, signals[BUSY_CHANGED], 0, box_name);
    }

  return g_steal_pointer (&task);
}

/* Takes both strings */
void
_kiste_op_set_messages (GTask *task,
                        char  *done,
                        char  *failed)
{
  Op *op = g_task_get_task_data (task);

  kiste_task_set_messages (op->ktask, done, failed);
  g_free (done);
  g_free (failed);
}

GCancellable *
_kiste_op_cancellable (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return kiste_task_get_cancellable (op->ktask);
}

static void
op_fail_reload_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);

  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, NULL);
  _kiste_op_return (task, g_steal_pointer (&op->pending_error));
}

/* Fails the operation (taking task and error), after listing the boxes
 * again when it may have left one behind */
void
_kiste_op_fail (GTask  *task,
         GError *error)
{
  Op *op = g_task_get_task_data (task);
  OpStep recover = op->recover;

  if (recover != NULL)
    {
      op->recover = NULL;
      g_clear_error (&op->pending_error);
      op->pending_error = error;
      recover (task);
      return;
    }

  if (!op->reload_on_error)
    {
      _kiste_op_return (task, error);
      return;
    }

  op->pending_error = error;
  kiste_box_store_reload_async (op->self->store, NULL, op_fail_reload_cb, task);
}

static void
op_line_cb (const char *line,
            gboolean    is_stderr,
            gpointer    user_data)
{
  KisteTask *ktask = user_data;

  kiste_task_append_line (ktask, line);
}

void
_kiste_op_run_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;
  g_autofree char *stderr_buf = NULL;
  OpStep next = op->next;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, &stderr_buf, &error))
    {
      if (stderr_buf != NULL && *stderr_buf)
        kiste_task_append_line (op->ktask, g_strchomp (stderr_buf));
      _kiste_op_fail (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  g_clear_pointer (&op->output, g_free);
  op->output = g_steal_pointer (&stdout_buf);
  op->next = NULL;
  next (g_steal_pointer (&task));
}

static void
op_stream_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  OpStep next = op->next;

  if (!kiste_runner_stream_finish (KISTE_RUNNER (object), result, &error))
    {
      _kiste_op_fail (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  op->next = NULL;
  next (g_steal_pointer (&task));
}

/* Runs argv; on success calls next. Streamed output goes line by line into
 * the task; otherwise stdout is kept in op->output for next. */
void
_kiste_op_run (GTask              *task,
               const char * const *argv,
               guint               timeout_ms,
               gboolean            stream,
               OpStep              next)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *display = kiste_argv_to_display_string (argv);

  op->next = next;
  kiste_task_append_line (op->ktask, display);

  /* a pull's and distrobox's lines as one story, in their order */
  if (stream)
    kiste_runner_stream_merged_async (op->self->runner, argv, timeout_ms,
                                      op_line_cb, g_object_ref (op->ktask), g_object_unref,
                                      _kiste_op_cancellable (task),
                                      op_stream_cb, task);
  else
    kiste_runner_run_async (op->self->runner, argv, timeout_ms,
                            _kiste_op_cancellable (task),
                            _kiste_op_run_cb, task);
}

void
_kiste_op_done (GTask *task)
{
  _kiste_op_return (task, NULL);
}

static void
op_reload_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  /* Best effort: the events stream brings the change anyway */
  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, NULL);
  _kiste_op_return (user_data, NULL);
}

/* For operations that add, remove or rename boxes: the list knows the
 * change before they end, so the next operation finds the box */
void
_kiste_op_reload_done (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_box_store_reload_async (op->self->store, NULL, op_reload_cb, task);
}

gboolean
kiste_manager_operation_finish (KisteManager  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

KisteTask *
_kiste_op_get_ktask (GTask *task)
{
  return ((Op *) g_task_get_task_data (task))->ktask;
}


static void
op_safe_details_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  OpStep next = op->next;

  /* best effort: without details the check below has nothing to find */
  kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, NULL);
  op->next = NULL;
  _kiste_op_require_safe_enter (task, next);
}

/* distrobox enter evals the image's PATH and HOME on the host
 * (kiste_box_dup_enter_hazard()): before a command that goes through it,
 * the box's values are read if need be and checked; then next runs */
void
_kiste_op_require_safe_enter (GTask  *task,
                              OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);
  g_autofree char *hazard = NULL;

  if (box != NULL && !kiste_box_get_has_details (box) && !op->details_tried)
    {
      op->details_tried = TRUE;
      op->next = next;
      kiste_box_store_load_details_async (op->self->store, &box, 1, _kiste_op_cancellable (task),
                                          op_safe_details_cb, task);
      return;
    }

  if (box != NULL && (hazard = kiste_box_dup_enter_hazard (box)) != NULL)
    {
      _kiste_op_return (task, g_error_new_literal (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, hazard));
      return;
    }

  next (task);
}

/* Looks the box up; fails the operation when it is gone */
KisteBox *
_kiste_op_require_box (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);

  if (box == NULL)
    _kiste_op_return (g_object_ref (task),
                      g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                            _("There is no box named “%s” any more."), op->box_name));
  return box;
}

/* Start, with first-start progress */

static void
start_finish_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  OpStep next = op->next;

  if (!kiste_start_monitor_start_finish (KISTE_START_MONITOR (object), result, &error))
    {
      _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  op->next = NULL;
  next (g_steal_pointer (&task));
}

static void
start_line_cb (KisteStartMonitor *monitor,
               const char        *line,
               KisteTask         *ktask)
{
  kiste_task_append_line (ktask, line);
}

static void
start_progress_cb (KisteStartMonitor *monitor,
                   GParamSpec        *pspec,
                   KisteTask         *ktask)
{
  kiste_task_set_step (ktask, kiste_start_monitor_get_step (monitor));
  kiste_task_set_fraction (ktask, kiste_start_monitor_get_fraction (monitor));
}

/* Starts the box and follows its setup; then calls next */
void
_kiste_op_start_box (GTask  *task,
                     OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(KisteStartMonitor) monitor = NULL;
  KisteBox *box;

  if (!(box = _kiste_op_require_box (task)))
    {
      g_object_unref (task);
      return;
    }

  monitor = kiste_start_monitor_new (op->self->runner, op->box_name, NULL);
  kiste_start_monitor_set_init (monitor, kiste_box_get_init (box));
  g_signal_connect_object (monitor, "line", G_CALLBACK (start_line_cb), op->ktask, 0);
  g_signal_connect_object (monitor, "notify::step", G_CALLBACK (start_progress_cb), op->ktask, 0);
  g_signal_connect_object (monitor, "notify::fraction", G_CALLBACK (start_progress_cb), op->ktask, 0);
  kiste_task_set_fraction (op->ktask, 0);
  kiste_task_set_cancellable_by_user (op->ktask, TRUE);

  op->next = next;
  kiste_start_monitor_start_async (monitor, _kiste_op_cancellable (task), start_finish_cb, task);
}

KisteTask *
kiste_manager_start_async (KisteManager        *self,
                           const char          *box_name,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Starting"), box_name, kiste_manager_start_async,
                              cancellable, callback, user_data)))
    return NULL;

  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” is running"), box_name),
                          g_strdup_printf (_("Could not start “%s”"), box_name));
  _kiste_op_start_box (task, _kiste_op_done);
  return ktask;
}

/* Stop and restart */

static void
op_stop_box (GTask  *task,
             OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = NULL;

  /* distrobox stop is podman stop behind a prompt, and can stick on hosts
   * without systemd; the engine's own stop has a bounded grace time */
  argv = kiste_commands_engine_stop_argv (kiste_manager_get_engine (op->self),
                                          op->box_name, STOP_GRACE_SECONDS);
  _kiste_op_run (task, (const char * const *) argv, STOP_TIMEOUT_MS, FALSE, next);
}

KisteTask *
kiste_manager_stop_async (KisteManager        *self,
                          const char          *box_name,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Stopping"), box_name, kiste_manager_stop_async,
                              cancellable, callback, user_data)))
    return NULL;

  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” stopped"), box_name),
                          g_strdup_printf (_("Could not stop “%s”"), box_name));
  op_stop_box (task, _kiste_op_done);
  return ktask;
}

static void
restart_stopped (GTask *task)
{
  _kiste_op_start_box (task, _kiste_op_done);
}

KisteTask *
kiste_manager_restart_async (KisteManager        *self,
                             const char          *box_name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Restarting"), box_name, kiste_manager_restart_async,
                              cancellable, callback, user_data)))
    return NULL;

  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” restarted"), box_name),
                          g_strdup_printf (_("Could not restart “%s”"), box_name));
  op_stop_box (task, restart_stopped);
  return ktask;
}

/* Create */

GStrv
_kiste_manager_dup_names (KisteManager *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GListModel *boxes = G_LIST_MODEL (self->store);

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

/* Delete */

static void
delete_remove_leftovers (GTask *task);

static void
delete_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *argv[] = { "rm", "-rf", "--one-file-system", "--", op->home, NULL };

  _kiste_op_run (task, argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_reload_done);
}

static void
delete_leftovers_listed_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  /* Best effort: distrobox rm already removed what it found */
  files = kiste_apps_list_exported_finish (result, NULL);
  if (files == NULL || files->len == 0)
    {
      if (op->home != NULL)
        delete_home (g_steal_pointer (&task));
      else
        _kiste_op_reload_done (g_steal_pointer (&task));
      return;
    }

  g_strv_builder_add_many (builder, "rm", "-f", "--", NULL);
  for (guint i = 0; i < files->len; i++)
    g_strv_builder_add (builder, ((KisteExportedFile *) g_ptr_array_index (files, i))->path);
  argv = g_strv_builder_end (builder);

  _kiste_op_run (g_steal_pointer (&task), (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE,
                 op->home ? delete_home : _kiste_op_reload_done);
}

/* distrobox rm may leave some of a box's launchers behind */
static void
delete_remove_leftovers (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_apps_list_exported_async (op->self->runner, op->box_name,
                                  op->self->applications_dir,
                                  op->self->bin_dir,
                                  _kiste_op_cancellable (task),
                                  delete_leftovers_listed_cb,
                                  task);
}

KisteTask *
kiste_manager_delete_async (KisteManager        *self,
                            const char          *box_name,
                            gboolean             remove_home,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  GTask *task;
  KisteTask *ktask;
  KisteBox *box;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Deleting"), box_name, kiste_manager_delete_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” was deleted"), box_name),
                          g_strdup_printf (_("Could not delete “%s”"), box_name));
  op = g_task_get_task_data (task);

  if (!(box = _kiste_op_require_box (task)))
    {
      g_object_unref (task);
      return ktask;
    }

  if (remove_home)
    {
      const char *home = kiste_box_get_home (box);

      /* distrobox 1.8's rm --force never removes the home: do it ourselves,
       * after checking it is the box's own folder */
      if (!kiste_box_has_custom_home (box) ||
          !kiste_commands_check_home_removable (home, g_get_home_dir (), &error))
        {
          if (error == NULL)
            error = g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                 _("“%s” has no home folder of its own to delete."), box_name);
          _kiste_op_return (task, g_steal_pointer (&error));
          return ktask;
        }
      op->home = g_strdup (home);
    }

  argv = kiste_commands_rm_argv (kiste_manager_get_major (self), box_name, FALSE);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, delete_remove_leftovers);
  return ktask;
}

/* Upgrade: distrobox upgrade goes through distrobox enter */

static void
upgrade_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  _kiste_op_run (task, (const char * const *) op->argv, 0, TRUE, _kiste_op_done);
}

KisteTask *
kiste_manager_upgrade_async (KisteManager        *self,
                             const char          *box_name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Upgrading"), box_name, kiste_manager_upgrade_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” is up to date"), box_name),
                          g_strdup_printf (_("Could not upgrade “%s”"), box_name));

  kiste_task_set_cancellable_by_user (ktask, TRUE);
  ((Op *) g_task_get_task_data (task))->argv = kiste_commands_upgrade_argv (kiste_manager_get_major (self),
                                                                             box_name);
  _kiste_op_require_safe_enter (task, upgrade_run);
  return ktask;
}

/* Clone and rename */

/* Keeps the new name of a clone or rename, after checking it; fails the
 * operation (taking task) when the name cannot be used */
static gboolean
op_take_new_name (GTask      *task,
                  const char *new_name)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) names = _kiste_manager_dup_names (op->self);
  GError *error = NULL;

  op->arg = g_strdup (new_name);
  if (!kiste_validate_name (new_name, (const char * const *) names, &error))
    {
      _kiste_op_return (task, error);
      return FALSE;
    }
  return TRUE;
}

/* Clone: distrobox create --clone copies the image only, so the copy gets
 * the source's settings as create options (home folder, init, NVIDIA,
 * namespaces). A source that was running is stopped for the copy (distrobox
 * clones stopped boxes only) and started again afterwards. */

static void
clone_restarted (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  /* a failed copy stays failed, even once the source runs again */
  _kiste_op_return (task, g_steal_pointer (&op->pending_error));
}

static void
clone_reloaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);

  /* Best effort: the events stream brings the copy anyway */
  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, NULL);

  if (!op->flag)
    {
      _kiste_op_return (task, g_steal_pointer (&op->pending_error));
      return;
    }

  if (op->pending_error == NULL)
    _kiste_op_set_messages (task,
                            g_strdup_printf (_("“%s” was cloned as “%s”"), op->box_name, op->arg),
                            g_strdup_printf (_("“%s” was cloned as “%s”, but could not be started again"),
                                      op->box_name, op->arg));
  kiste_task_set_step (op->ktask, _("Starting the original box again"));
  _kiste_op_start_box (task, clone_restarted);
}

static void
clone_created (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_box_store_reload_async (op->self->store, NULL, clone_reloaded_cb, task);
}

static void
clone_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  if (!(argv = kiste_create_options_to_argv (op->options, op->self->capabilities, &error)))
    {
      op->pending_error = error;
      clone_created (task);
      return;
    }

  /* a failed copy may leave a box behind: list again, and start the
   * source again, before failing */
  op->recover = clone_created;
  kiste_task_set_step (op->ktask, _("Copying the box"));

  /* a source without the user's home: so is its copy */
  if (kiste_create_options_get_effective_unshare (op->options, KISTE_UNSHARE_HOME,
                                                  op->self->capabilities))
    {
      op->created = clone_created;
      _kiste_op_create_isolated (task, op->options, argv);
      return;
    }
  _kiste_op_run (task, (const char * const *) argv, CREATE_TIMEOUT_MS, TRUE, clone_created);
}

/* The source's settings as the copy's options; checked before anything
 * runs, so a copy that cannot be made never stops the source */
static void
clone_prepare (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) names = _kiste_manager_dup_names (op->self);
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;
  KisteBox *box;

  if (!(box = _kiste_op_require_box (task)))
    {
      g_object_unref (task);
      return;
    }

  g_clear_object (&op->options);
  op->options = kiste_create_options_new_from_box (box);
  kiste_create_options_set_name (op->options, op->arg);
  /* as distrobox's own clone: no launcher of the box in the app menu */
  kiste_create_options_set_add_to_menu (op->options, FALSE);

  if (!kiste_create_options_validate (op->options, (const char * const *) names, &error) ||
      !(argv = kiste_create_options_to_argv (op->options, op->self->capabilities, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  if (op->flag)
    {
      kiste_task_set_step (op->ktask, _("Stopping the box to copy it"));
      op_stop_box (task, clone_run);
    }
  else
    clone_run (task);
}

static void
clone_details_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GError) error = NULL;

  /* without details the namespaces read as shared: say so rather than
   * making a copy that quietly shares what the source kept apart */
  if (!kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, &error))
    {
      _kiste_op_return (task, g_steal_pointer (&error));
      return;
    }
  clone_prepare (task);
}

KisteTask *
kiste_manager_clone_async (KisteManager        *self,
                           const char          *source,
                           const char          *new_name,
                           gboolean             stop_first,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;
  KisteTask *ktask;
  KisteBox *box;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (new_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Cloning"), source, kiste_manager_clone_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” was cloned as “%s”"), source, new_name),
                          g_strdup_printf (_("Could not clone “%s”"), source));
  if (!op_take_new_name (task, new_name))
    return ktask;

  if (!(box = _kiste_op_require_box (task)))
    {
      g_object_unref (task);
      return ktask;
    }

  /* op->flag: the source runs, is stopped for the copy and started again */
  op->flag = kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING;
  if (op->flag && !stop_first)
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_BUSY,
                                    _("“%s” is running. Stop it before cloning it."),
                                    source));
      return ktask;
    }

  if (kiste_box_get_has_details (box))
    clone_prepare (task);
  else
    kiste_box_store_load_details_async (self->store, &box, 1, _kiste_op_cancellable (task),
                                        clone_details_cb, task);
  return ktask;
}

/* Rename */

static void
rename_rewrite_listed_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  if (!(files = kiste_apps_list_exported_finish (result, &error)))
    {
      _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  /* Launchers and wrappers name the box: rewrite them for the new name,
   * moving launchers to their new file names */
  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);
      g_autoptr(GFile) gfile = g_file_new_for_path (file->path);
      g_autoptr(GFile) target = NULL;
      g_autofree char *contents = NULL;
      g_autofree char *rewritten = NULL;
      g_autofree char *basename = g_path_get_basename (file->path);
      g_autofree char *new_basename = NULL;
      gsize length;

      if (!g_file_load_contents (gfile, NULL, &contents, &length, NULL, &error))
        break;
      rewritten = kiste_apps_rewrite_exported (contents, op->box_name, op->arg);

      if (file->kind == KISTE_EXPORTED_APP &&
          (new_basename = kiste_apps_dup_renamed_launcher_name (basename, op->box_name, op->arg)))
        {
          g_autoptr(GFile) parent = g_file_get_parent (gfile);

          target = g_file_get_child (parent, new_basename);
        }
      else
        target = g_object_ref (gfile);

      if (!g_file_replace_contents (target, rewritten, strlen (rewritten), NULL, FALSE,
                                    G_FILE_CREATE_NONE, NULL, NULL, &error))
        break;
      if (file->kind == KISTE_EXPORTED_BINARY)
        g_file_set_attribute_uint32 (target, G_FILE_ATTRIBUTE_UNIX_MODE, 0755,
                                     G_FILE_QUERY_INFO_NONE, NULL, NULL);
      if (!g_file_equal (target, gfile))
        g_file_delete (gfile, NULL, NULL);
      kiste_task_append_line (op->ktask, g_file_peek_path (target));
    }

  if (error != NULL)
    _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
  else
    _kiste_op_reload_done (g_steal_pointer (&task));
}

static void
rename_rewrite (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_apps_list_exported_async (op->self->runner, op->box_name,
                                  op->self->applications_dir,
                                  op->self->bin_dir,
                                  _kiste_op_cancellable (task),
                                  rename_rewrite_listed_cb,
                                  task);
}

KisteTask *
kiste_manager_rename_async (KisteManager        *self,
                            const char          *box_name,
                            const char          *new_name,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_auto(GStrv) argv = NULL;
  GTask *task;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);
  g_return_val_if_fail (new_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Renaming"), box_name, kiste_manager_rename_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” is now called “%s”"), box_name, new_name),
                          g_strdup_printf (_("Could not rename “%s”"), box_name));
  if (!op_take_new_name (task, new_name))
    return ktask;

  argv = kiste_commands_rename_argv (kiste_manager_get_engine (self), box_name, new_name);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, rename_rewrite);
  return ktask;
}

static void
kiste_manager_dispose (GObject *object)
{
  KisteManager *self = KISTE_MANAGER (object);

  if (self->store != NULL)
    kiste_box_store_stop_watching (self->store);
  if (self->setup_watch != NULL)
    kiste_setup_watch_stop (self->setup_watch);
  self->n_exported_watchers = 0;
  exported_monitors_stop (self);

  g_clear_object (&self->setup_watch);
  g_clear_object (&self->store);
  g_clear_object (&self->capabilities);
  g_clear_object (&self->runner);
  g_clear_object (&self->tasks);
  g_clear_pointer (&self->busy, g_hash_table_unref);

  G_OBJECT_CLASS (kiste_manager_parent_class)->dispose (object);
}

static void
kiste_manager_finalize (GObject *object)
{
  KisteManager *self = KISTE_MANAGER (object);

  g_clear_pointer (&self->applications_dir, g_free);
  g_clear_pointer (&self->bin_dir, g_free);

  G_OBJECT_CLASS (kiste_manager_parent_class)->finalize (object);
}

static void
kiste_manager_class_init (KisteManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kiste_manager_dispose;
  object_class->finalize = kiste_manager_finalize;

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
}

static void
kiste_manager_init (KisteManager *self)
{
  self->tasks = g_list_store_new (KISTE_TYPE_TASK);
  self->busy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->applications_dir = g_build_filename (g_get_user_data_dir (), "applications", NULL);
  self->bin_dir = g_build_filename (g_get_home_dir (), ".local", "bin", NULL);
}
