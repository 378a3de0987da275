/* kiste-manager-autostart.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Starting a box at login, as the manager does it: whether the session has
 * a systemd user manager and the box's unit is there and enabled; the unit
 * written, reloaded and enabled, or disabled and removed; and removed when
 * its box goes. Every step is a host command through the runner, so it
 * works from the Flatpak sandbox too (kiste-autostart.c). */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-autostart.h"
#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"

#define AUTOSTART_TIMEOUT_MS (30 * 1000)

static const char *
no_user_manager_reason (void)
{
  return _("Your session has no systemd user manager, so boxes cannot be started when you log in.");
}

static char *
dup_other_unit_reason (const char *unit_name)
{
  return g_strdup_printf (_("“%s” is a systemd unit of your own: Kiste leaves it alone."), unit_name);
}

static char *
dup_unit_path (KisteManager *self,
               const char   *unit_name)
{
  return g_build_filename (self->units_dir, unit_name, NULL);
}

/* The state */

typedef struct
{
  char *unit_name;
  char *path;
  char *marker;
} Query;

static void
query_free (Query *query)
{
  g_free (query->unit_name);
  g_free (query->path);
  g_free (query->marker);
  g_free (query);
}

static void
return_state (GTask               *task,
              KisteAutostartState  state,
              const char          *reason)
{
  g_task_set_task_data (task, g_strdup (reason), g_free);
  g_task_return_int (task, state);
}

static void
get_enabled_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  /* is-enabled fails unless enabled; what it printed tells */
  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error) &&
      !g_error_matches (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  return_state (task,
                kiste_autostart_parse_is_enabled (out) ? KISTE_AUTOSTART_ENABLED
                                                       : KISTE_AUTOSTART_DISABLED,
                NULL);
}

static void
get_owner_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Query *query = g_object_get_data (G_OBJECT (task), "query");
  g_autofree char *out = NULL;
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  switch (kiste_autostart_parse_owner (out))
    {
    case KISTE_AUTOSTART_OWNER_NONE:
      return_state (task, KISTE_AUTOSTART_DISABLED, NULL);
      return;

    case KISTE_AUTOSTART_OWNER_OTHER:
      reason = dup_other_unit_reason (query->unit_name);
      return_state (task, KISTE_AUTOSTART_UNAVAILABLE, reason);
      return;

    case KISTE_AUTOSTART_OWNER_KISTE:
    default:
      break;
    }

  argv = kiste_autostart_is_enabled_argv (query->unit_name);
  cancellable = g_task_get_cancellable (task);
  kiste_runner_run_async (KISTE_RUNNER (object), (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          cancellable, get_enabled_cb, g_steal_pointer (&task));
}

static void
get_manager_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Query *query = g_object_get_data (G_OBJECT (task), "query");
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      /* it ran and failed, or there is no systemctl at all */
      if (g_error_matches (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED) ||
          g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING))
        return_state (task, KISTE_AUTOSTART_UNAVAILABLE, no_user_manager_reason ());
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  argv = kiste_autostart_read_unit_argv (query->path, query->marker);
  cancellable = g_task_get_cancellable (task);
  kiste_runner_run_async (KISTE_RUNNER (object), (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          cancellable, get_owner_cb, g_steal_pointer (&task));
}

void
kiste_manager_get_autostart_async (KisteManager        *self,
                                   const char          *box_name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;
  Query *query;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_get_autostart_async);

  /* units are named after the box's own name */
  box_name = _kiste_manager_resolve_box (self, box_name, NULL);
  query = g_new0 (Query, 1);
  g_object_set_data_full (G_OBJECT (task), "query", query, (GDestroyNotify) query_free);
  if (!(query->unit_name = kiste_autostart_dup_unit_name (box_name, &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  query->path = dup_unit_path (self, query->unit_name);
  query->marker = kiste_autostart_dup_marker (box_name);

  argv = kiste_autostart_check_manager_argv ();
  kiste_runner_run_async (self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          cancellable, get_manager_cb, g_steal_pointer (&task));
}

KisteAutostartState
kiste_manager_get_autostart_finish (KisteManager  *self,
                                    GAsyncResult  *result,
                                    char         **reason,
                                    GError       **error)
{
  GError *local_error = NULL;
  gssize state;

  g_return_val_if_fail (g_task_is_valid (result, self), KISTE_AUTOSTART_UNAVAILABLE);

  state = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return KISTE_AUTOSTART_UNAVAILABLE;
    }
  if (reason != NULL)
    *reason = g_strdup (g_task_get_task_data (G_TASK (result)));
  return state;
}

/* Turning it on: the session's user manager, the engine's path on the
 * host, the unit written (only over Kiste's own), reloaded and enabled.
 * op->program holds the unit's name, op->home its path, op->arg its
 * marker. */

static void
autostart_no_manager (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  GError *error = g_steal_pointer (&op->pending_error);

  /* it ran and failed, or there is no systemctl at all */
  if (g_error_matches (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED) ||
      g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING))
    {
      g_clear_error (&error);
      error = g_error_new_literal (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING, no_user_manager_reason ());
    }
  _kiste_op_return (task, error);
}

static void
autostart_check_manager (GTask  *task,
                         OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_autostart_check_manager_argv ();

  op->recover = autostart_no_manager;
  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, next);
}

static void
autostart_enable (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_autostart_enable_argv (op->program, TRUE);

  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, _kiste_op_done);
}

static void
autostart_reload_then_enable (GTask *task)
{
  g_auto(GStrv) argv = kiste_autostart_daemon_reload_argv ();

  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, autostart_enable);
}

static void
autostart_write (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *engine_path = NULL;
  g_autofree char *unit = NULL;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  if (!(engine_path = kiste_autostart_parse_engine_path (op->output, &error)) ||
      !(unit = kiste_autostart_build_unit (op->box_name, engine_path, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  /* the unit's text is an argument, not worth a line of its own */
  kiste_task_append_line (op->ktask, op->home);
  argv = kiste_autostart_write_unit_argv (op->home, unit, op->arg);
  op->next = autostart_reload_then_enable;
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          _kiste_op_cancellable (task), _kiste_op_run_cb, task);
}

static void
autostart_find_engine (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_autostart_find_engine_argv (kiste_box_source_get_engine (op->source));

  op->recover = NULL;
  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, autostart_write);
}

static void
autostart_on_first (GTask *task)
{
  autostart_check_manager (task, autostart_find_engine);
}

/* Turning it off: only Kiste's own unit is disabled and removed */

static void
autostart_reload (GTask *task)
{
  g_auto(GStrv) argv = kiste_autostart_daemon_reload_argv ();

  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, _kiste_op_done);
}

static void
autostart_remove (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_autostart_remove_unit_argv (op->home, op->arg);

  kiste_task_append_line (op->ktask, op->home);
  op->next = autostart_reload;
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          _kiste_op_cancellable (task), _kiste_op_run_cb, task);
}

static void
autostart_disable (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *reason = NULL;
  g_auto(GStrv) argv = NULL;

  switch (kiste_autostart_parse_owner (op->output))
    {
    case KISTE_AUTOSTART_OWNER_NONE:
      /* nothing to turn off */
      _kiste_op_done (task);
      return;

    case KISTE_AUTOSTART_OWNER_OTHER:
      reason = dup_other_unit_reason (op->program);
      _kiste_op_return (task, g_error_new_literal (KISTE_ERROR, KISTE_ERROR_UNSAFE, reason));
      return;

    case KISTE_AUTOSTART_OWNER_KISTE:
    default:
      break;
    }

  argv = kiste_autostart_enable_argv (op->program, FALSE);
  _kiste_op_run (task, (const char * const *) argv, AUTOSTART_TIMEOUT_MS, FALSE, autostart_remove);
}

static void
autostart_off_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_autostart_read_unit_argv (op->home, op->arg);

  op->next = autostart_disable;
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          _kiste_op_cancellable (task), _kiste_op_run_cb, task);
}

/* Indexed by enabled */
static const OpKind autostart_ops[2] = {
  { N_("Turning off starting at login"), N_("“%s” is no longer started when you log in"),
    N_("Could not stop “%s” from starting when you log in"), OP_REQUIRE_NOTHING, FALSE,
    autostart_off_first },
  { N_("Turning on starting at login"), N_("“%s” starts when you log in"),
    N_("Could not make “%s” start when you log in"), OP_REQUIRE_NOTHING, FALSE,
    autostart_on_first },
};

KisteTask *
kiste_manager_set_autostart_async (KisteManager        *self,
                                   const char          *box_name,
                                   gboolean             enabled,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GError *error = NULL;
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &autostart_ops[!!enabled], box_name,
                                  kiste_manager_set_autostart_async, cancellable, callback,
                                  user_data)))
    return NULL;

  op = g_task_get_task_data (task);
  if (!(op->program = kiste_autostart_dup_unit_name (op->box_name, &error)))
    {
      KisteTask *ktask = _kiste_op_get_ktask (task);

      _kiste_op_return (task, error);
      return ktask;
    }
  /* a unit for a box that is not there would start nothing */
  if (enabled && _kiste_op_require_box (task) == NULL)
    {
      KisteTask *ktask = _kiste_op_get_ktask (task);

      g_object_unref (task);
      return ktask;
    }
  op->home = dup_unit_path (self, op->program);
  op->arg = kiste_autostart_dup_marker (op->box_name);
  return _kiste_op_go (task);
}

/* When the box goes: best effort, Kiste's own unit only */

static void
remove_reloaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  OpStep next = op->next;

  /* without a user manager there is nothing to reload */
  kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, NULL);
  op->next = NULL;
  next (task);
}

static void
remove_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  OpStep next = op->next;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    g_debug ("Could not remove the box’s unit: %s", error->message);
  else if (out != NULL && g_str_has_prefix (out, "removed"))
    {
      g_auto(GStrv) argv = kiste_autostart_daemon_reload_argv ();

      kiste_task_append_line (op->ktask, _("The box is no longer started when you log in"));
      kiste_runner_run_async (op->self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                              NULL, remove_reloaded_cb, task);
      return;
    }

  op->next = NULL;
  next (task);
}

void
_kiste_op_remove_autostart (GTask  *task,
                            OpStep  next)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *unit_name = NULL;
  g_autofree char *path = NULL;
  g_autofree char *marker = NULL;
  g_auto(GStrv) argv = NULL;

  if (!(unit_name = kiste_autostart_dup_unit_name (op->box_name, NULL)))
    {
      next (task);
      return;
    }

  path = dup_unit_path (op->self, unit_name);
  marker = kiste_autostart_dup_marker (op->box_name);
  argv = kiste_autostart_remove_unit_argv (path, marker);
  op->next = next;
  /* not cancellable: the box is gone, its unit must not stay */
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, AUTOSTART_TIMEOUT_MS,
                          NULL, remove_done_cb, task);
}

void
_kiste_manager_set_units_dir (KisteManager *self,
                              const char   *units_dir)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (units_dir != NULL && g_path_is_absolute (units_dir));

  g_set_str (&self->units_dir, units_dir);
}
