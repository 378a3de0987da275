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
#include "kiste-isolated-home.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-setup-watch.h"

G_DEFINE_FINAL_TYPE (KisteManager, kiste_manager, G_TYPE_OBJECT)

enum {
  BUSY_CHANGED,
  EXPORTED_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_CLEANING_UP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
op_free (Op *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->ktask);
  g_clear_pointer (&op->box_name, g_free);
  g_clear_pointer (&op->arg, g_free);
  g_clear_pointer (&op->home, g_free);
  g_clear_pointer (&op->program, g_free);
  if (op->cwd != NULL)
    g_rmdir (op->cwd);
  g_clear_pointer (&op->cwd, g_free);
  g_clear_object (&op->options);
  g_clear_object (&op->plan);
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

  return kiste_commands_enter_argv (box, _kiste_manager_get_major (self), cwd, command);
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

void
_kiste_op_use_empty_folder (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *parent = g_build_filename (g_get_user_cache_dir (), "kiste", NULL);
  g_autofree char *folder = g_build_filename (parent, "run-XXXXXX", NULL);

  /* best effort: without it the runner's folder it is */
  if (g_mkdir_with_parents (parent, 0700) != 0 || g_mkdtemp_full (folder, 0700) == NULL)
    {
      g_debug ("Could not make a folder to run in: %s", g_strerror (errno));
      return;
    }
  g_set_str (&op->cwd, folder);
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
    kiste_runner_stream_merged_in_async (op->self->runner, op->cwd, argv, timeout_ms,
                                         op_line_cb, g_object_ref (op->ktask), g_object_unref,
                                         _kiste_op_cancellable (task),
                                         op_stream_cb, task);
  else
    kiste_runner_run_in_async (op->self->runner, op->cwd, argv, timeout_ms,
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
op_details_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  OpStep next = op->next;
  g_autoptr(GError) error = NULL;

  /* best effort: what needs them checks they are there */
  if (!kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          _kiste_op_return (task, g_steal_pointer (&error));
          return;
        }
      g_debug ("Could not read the details of “%s”: %s", op->box_name, error->message);
    }
  op->next = NULL;
  next (task);
}

/* Reads the box's details (one inspect) unless they are known or were
 * tried already, then next; fails the operation when the box is gone */
void
_kiste_op_require_details (GTask  *task,
                           OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);

  if (box == NULL)
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                                           _("There is no box named “%s” any more."),
                                           op->box_name));
      return;
    }

  if (!kiste_box_get_has_details (box) && !op->details_tried)
    {
      op->details_tried = TRUE;
      op->next = next;
      kiste_box_store_load_details_async (op->self->store, &box, 1, _kiste_op_cancellable (task),
                                          op_details_cb, task);
      return;
    }

  next (task);
}

static void
op_check_safe_enter (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);
  OpStep next = op->after_check;
  GError *error = NULL;

  op->after_check = NULL;
  if (box == NULL)
    error = g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                         _("There is no box named “%s” any more."), op->box_name);
  else
    kiste_box_check_enter_safe (box, &error);

  if (error != NULL)
    _kiste_op_return (task, error);
  else
    next (task);
}

/* distrobox enter evals parts of the box's configuration on the host
 * (kiste_box_check_enter_safe()): before a command that goes through it,
 * the box's details are read if need be and checked, failing closed; then
 * next runs */
void
_kiste_op_require_safe_enter (GTask  *task,
                              OpStep  next)
{
  Op *op = g_task_get_task_data (task);

  op->after_check = next;
  _kiste_op_require_details (task, op_check_safe_enter);
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
  GListModel *boxes = G_LIST_MODEL (self->store);

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
}

static void
kiste_manager_init (KisteManager *self)
{
  self->tasks = g_list_store_new (KISTE_TYPE_TASK);
  self->busy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->applications_dir = g_build_filename (g_get_user_data_dir (), "applications", NULL);
  self->bin_dir = g_build_filename (g_get_home_dir (), ".local", "bin", NULL);
}
