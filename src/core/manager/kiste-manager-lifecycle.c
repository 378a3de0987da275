/* kiste-manager-lifecycle.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's operations on a box's life: start (with its first-start
 * progress), stop, restart, delete (with what distrobox leaves behind and
 * the unit that started the box at login) and upgrade. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-start-monitor.h"

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

  /* Toolbx starts a toolbox for a command and waits until its own setup
   * is done: a command that does nothing starts it */
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    {
      const char * const nothing[] = { "true", NULL };
      g_auto(GStrv) argv = kiste_commands_toolbox_run_argv (op->box_name, nothing);

      _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, TRUE, next);
      return;
    }

  monitor = kiste_start_monitor_new (op->self->runner, op->box_name,
                                     kiste_box_source_get_engine (op->source));
  kiste_start_monitor_set_init (monitor, kiste_box_get_init (box));
  g_signal_connect_object (monitor, "line", G_CALLBACK (start_line_cb), op->ktask, 0);
  g_signal_connect_object (monitor, "notify::step", G_CALLBACK (start_progress_cb), op->ktask, 0);
  g_signal_connect_object (monitor, "notify::fraction", G_CALLBACK (start_progress_cb), op->ktask, 0);
  kiste_task_set_fraction (op->ktask, 0);
  kiste_task_set_cancellable_by_user (op->ktask, TRUE);

  op->next = next;
  kiste_start_monitor_start_async (monitor, _kiste_op_cancellable (task), start_finish_cb, task);
}

static void
start_first (GTask *task)
{
  _kiste_op_start_box (task, _kiste_op_done);
}

static const OpKind start_op = {
  N_("Starting"), N_("“%s” is running"), N_("Could not start “%s”"),
  OP_REQUIRE_NOTHING, FALSE, start_first,
};

KisteTask *
kiste_manager_start_async (KisteManager        *self,
                           const char          *box_name,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  return _kiste_op_launch (self, &start_op, box_name, kiste_manager_start_async,
                           cancellable, callback, user_data);
}

/* Stop and restart */

void
_kiste_op_stop_box (GTask  *task,
                    OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = NULL;

  /* distrobox stop is podman stop behind a prompt, and can stick on hosts
   * without systemd; the engine's own stop has a bounded grace time */
  argv = kiste_commands_engine_stop_argv (kiste_box_source_get_engine (op->source),
                                          op->box_name, STOP_GRACE_SECONDS);
  _kiste_op_run (task, (const char * const *) argv, STOP_TIMEOUT_MS, FALSE, next);
}

static void
stop_first (GTask *task)
{
  _kiste_op_stop_box (task, _kiste_op_done);
}

static void
restart_stopped (GTask *task)
{
  _kiste_op_start_box (task, _kiste_op_done);
}

static void
restart_first (GTask *task)
{
  _kiste_op_stop_box (task, restart_stopped);
}

static const OpKind stop_op = {
  N_("Stopping"), N_("“%s” stopped"), N_("Could not stop “%s”"),
  OP_REQUIRE_NOTHING, FALSE, stop_first,
};

static const OpKind restart_op = {
  N_("Restarting"), N_("“%s” restarted"), N_("Could not restart “%s”"),
  OP_REQUIRE_NOTHING, FALSE, restart_first,
};

KisteTask *
kiste_manager_stop_async (KisteManager        *self,
                          const char          *box_name,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  return _kiste_op_launch (self, &stop_op, box_name, kiste_manager_stop_async,
                           cancellable, callback, user_data);
}

KisteTask *
kiste_manager_restart_async (KisteManager        *self,
                             const char          *box_name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  return _kiste_op_launch (self, &restart_op, box_name, kiste_manager_restart_async,
                           cancellable, callback, user_data);
}

/* Delete */

static void
delete_remove_leftovers (GTask *task);

static void
delete_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_commands_remove_home_argv (op->home);

  kiste_task_append_line (op->ktask, _("Deleting the box’s home folder"));
  /* the script is long and its own; show what it does instead */
  op->next = _kiste_op_reload_done;
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS,
                          _kiste_op_cancellable (task), _kiste_op_run_cb, task);
}

/* The box is gone: its unit that started it at login goes too */
static void
delete_unit (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  _kiste_op_remove_autostart (task, op->home ? delete_home : _kiste_op_reload_done);
}

static void
delete_leftovers_listed_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  /* Best effort: distrobox rm already removed what it found */
  files = kiste_apps_list_exported_finish (result, NULL);
  if (files == NULL || files->len == 0)
    {
      delete_unit (g_steal_pointer (&task));
      return;
    }

  g_strv_builder_add_many (builder, "rm", "-f", "--", NULL);
  for (guint i = 0; i < files->len; i++)
    g_strv_builder_add (builder, ((KisteExportedFile *) g_ptr_array_index (files, i))->path);
  argv = g_strv_builder_end (builder);

  _kiste_op_run (g_steal_pointer (&task), (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE,
                 delete_unit);
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

static void
delete_box (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  _kiste_op_run (task, (const char * const *) op->argv, SHORT_TIMEOUT_MS, FALSE, delete_remove_leftovers);
}

/* distrobox rm deletes ~/.local/share/icons/…/ICON.* for each launcher of
 * the box, ICON as its Icon= says: a launcher whose icon is more than a
 * plain name ("*", or none) goes first, so that it cannot take the user's
 * icons with it */
static void
delete_unsafe_listed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  guint n = 0;

  if (!(files = kiste_apps_list_exported_finish (result, &error)))
    {
      /* nothing read, nothing to know: distrobox rm is not run blind */
      _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  g_strv_builder_add_many (builder, "rm", "-f", "--", NULL);
  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);

      if (file->kind == KISTE_EXPORTED_APP && file->unsafe_icon)
        {
          g_strv_builder_add (builder, file->path);
          n++;
        }
    }

  if (n == 0)
    {
      delete_box (g_steal_pointer (&task));
      return;
    }

  argv = g_strv_builder_end (builder);
  _kiste_op_run (g_steal_pointer (&task), (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, delete_box);
}

static void
delete_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                  op->self->bin_dir, _kiste_op_cancellable (task),
                                  delete_unsafe_listed_cb, task);
}

static const OpKind delete_op = {
  N_("Deleting"), N_("“%s” was deleted"), N_("Could not delete “%s”"),
  OP_REQUIRE_NOTHING, FALSE, delete_first,
};

KisteTask *
kiste_manager_delete_async (KisteManager        *self,
                            const char          *box_name,
                            gboolean             remove_home,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  GTask *task;
  KisteBox *box;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &delete_op, box_name, kiste_manager_delete_async,
                                  cancellable, callback, user_data)))
    return NULL;
  op = g_task_get_task_data (task);

  if (!(box = _kiste_op_require_box (task)))
    {
      KisteTask *ktask = op->ktask;

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
          KisteTask *ktask = op->ktask;

          if (error == NULL)
            error = g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                 _("“%s” has no home folder of its own to delete."), op->box_name);
          _kiste_op_return (task, g_steal_pointer (&error));
          return ktask;
        }
      op->home = g_strdup (home);
    }

  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    op->argv = kiste_commands_toolbox_rm_argv (op->box_name);
  else
    op->argv = kiste_commands_rm_argv (_kiste_manager_get_major (self), op->box_name, FALSE);
  return _kiste_op_go (task);
}

/* Upgrade: distrobox upgrade goes through distrobox enter */

static void
upgrade_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  _kiste_op_run (task, (const char * const *) op->argv, UPGRADE_TIMEOUT_MS, TRUE, _kiste_op_done);
}

static const OpKind upgrade_op = {
  N_("Upgrading"), N_("“%s” is up to date"), N_("Could not upgrade “%s”"),
  OP_REQUIRE_SAFE_ENTER, TRUE, upgrade_run,
};

KisteTask *
kiste_manager_upgrade_async (KisteManager        *self,
                             const char          *box_name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &upgrade_op, box_name, kiste_manager_upgrade_async,
                                  cancellable, callback, user_data)))
    return NULL;
  op = g_task_get_task_data (task);
  /* Toolbx has no upgrade: people use the box's package manager */
  if (_kiste_op_refuse_toolbox (task))
    {
      KisteTask *ktask = op->ktask;

      g_object_unref (task);
      return ktask;
    }
  op->argv = kiste_commands_upgrade_argv (_kiste_manager_get_major (self), op->box_name);
  return _kiste_op_go (task);
}
