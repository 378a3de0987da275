/* kiste-manager-snapshots.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's snapshots of boxes: taken, listed, deleted, and a new box
 * made from one. Making a box again and what such an operation left are in
 * kiste-manager-recreate.c; kiste-manager-snapshots-private.h declares
 * what both files share. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-manager-snapshots-private.h"
#include "kiste-recreate.h"
#include "kiste-validate.h"

#define LIST_TIMEOUT_MS (60 * 1000)

/* Shared with kiste-manager-recreate.c (kiste-manager-snapshots-private.h) */

const char *
_kiste_manager_get_host_home (KisteManager *self)
{
  const char *home = kiste_box_list_get_host_home (self->boxes);

  return home != NULL ? home : g_get_home_dir ();
}

KisteBox *
_kiste_manager_require_distrobox (GTask *task)
{
  KisteBox *box = _kiste_op_require_box (task);

  if (box == NULL || _kiste_op_refuse_toolbox (task))
    {
      g_object_unref (task);
      return NULL;
    }
  return box;
}

/* Whether the engine of the operation's box could not pause a box before:
 * rootless podman on cgroups v1 never can, so later commits do not try */
#define CANNOT_PAUSE_KEY "kiste-snapshots-cannot-pause"

gboolean
_kiste_manager_snapshot_may_pause (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (g_object_get_data (G_OBJECT (op->source), CANNOT_PAUSE_KEY) == NULL)
    return TRUE;
  kiste_task_append_line (op->ktask, _("This box cannot be paused here: it is copied while it runs."));
  return FALSE;
}

gboolean
_kiste_manager_snapshot_retry_unpaused (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (op->flag || !kiste_snapshot_error_is_pause (op->pending_error))
    return FALSE;
  g_clear_error (&op->pending_error);
  g_object_set_data (G_OBJECT (op->source), CANNOT_PAUSE_KEY, GINT_TO_POINTER (TRUE));
  kiste_task_append_line (op->ktask, _("This box cannot be paused here: it is copied while it runs."));
  return TRUE;
}

/* Take a snapshot */

/* A box the engine cannot pause is copied while it runs, once */
static void snapshot_commit (GTask    *task,
                             gboolean  pause);

static void
snapshot_retry_unpaused (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (_kiste_manager_snapshot_retry_unpaused (task))
    {
      snapshot_commit (task, FALSE);
      return;
    }
  _kiste_op_return (task, g_steal_pointer (&op->pending_error));
}

static void
snapshot_commit (GTask    *task,
                 gboolean  pause)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  /* op->arg: the snapshot's name; op->flag: tried without pausing */
  op->flag = !pause;
  if (!(argv = kiste_snapshot_commit_argv (_kiste_op_get_engine (task), op->box_name, op->arg,
                                           "snapshot", pause, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  op->recover = snapshot_retry_unpaused;
  _kiste_op_run (task, (const char * const *) argv, COMMIT_TIMEOUT_MS, FALSE, _kiste_op_done);
}

static void
snapshot_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  GError *error = NULL;

  if (!_kiste_manager_require_distrobox (task))
    return;

  if (!(op->arg = kiste_snapshot_dup_image_name (op->box_name, now, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  kiste_task_set_step (op->ktask, _("Copying the box into a snapshot"));
  snapshot_commit (task, _kiste_manager_snapshot_may_pause (task));
}

static const OpKind snapshot_op = {
  N_("Taking a snapshot"), N_("Snapshot of “%s” taken"), N_("Could not take a snapshot of “%s”"),
  OP_REQUIRE_NOTHING, TRUE, snapshot_first,
};

KisteTask *
kiste_manager_take_snapshot_async (KisteManager        *self,
                                   const char          *box_ref,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_ref != NULL, NULL);

  return _kiste_op_launch (self, &snapshot_op, box_ref, kiste_manager_take_snapshot_async,
                           cancellable, callback, user_data);
}

/* List */

static void
list_snapshots_ran_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *output = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *snapshots;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error) ||
      !(snapshots = kiste_snapshot_parse_list (output, g_task_get_task_data (task), &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, snapshots, (GDestroyNotify) g_ptr_array_unref);
}

void
_kiste_manager_list_snapshots_run (KisteManager *self,
                                   GTask        *task,
                                   const char   *engine,
                                   const char   *box_name)
{
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  g_task_set_task_data (task, g_strdup (box_name), g_free);
  if (!(argv = kiste_snapshot_list_argv (engine, box_name, &error)))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  kiste_runner_run_async (self->runner, (const char * const *) argv, LIST_TIMEOUT_MS,
                          g_task_get_cancellable (task), list_snapshots_ran_cb, task);
}

void
kiste_manager_list_snapshots_async (KisteManager        *self,
                                    const char          *box_ref,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  KisteBoxSource *source = NULL;
  const char *name;
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_ref != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_list_snapshots_async);
  name = _kiste_manager_resolve_box (self, box_ref, &source);
  _kiste_manager_list_snapshots_run (self, task, kiste_box_source_get_engine (source), name);
}

/* Delete */

KisteTask *
kiste_manager_delete_snapshots_async (KisteManager        *self,
                                      const char          *box_ref,
                                      const char * const  *images,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_auto(GStrv) argv = NULL;
  KisteTask *ktask;
  GError *error = NULL;
  GTask *task;
  guint n;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_ref != NULL, NULL);

  n = images != NULL ? g_strv_length ((char **) images) : 0;
  if (!(task = _kiste_op_new (self, ngettext ("Deleting a snapshot", "Deleting snapshots", n), box_ref,
                              kiste_manager_delete_snapshots_async, cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (ngettext ("Snapshot of “%s” deleted", "Snapshots of “%s” deleted", n),
                                           op->box_name),
                          g_strdup_printf (_("Could not delete snapshots of “%s”"), op->box_name));

  for (guint i = 0; i < n; i++)
    if (!kiste_snapshot_parse_image_name (images[i], op->box_name, NULL))
      {
        _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                             _("“%s” is not a snapshot of “%s”."),
                                             images[i], op->box_name));
        return ktask;
      }
  if (!(argv = kiste_snapshot_remove_argv (_kiste_op_get_engine (task), images, &error)))
    {
      _kiste_op_return (task, error);
      return ktask;
    }
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
  return ktask;
}

/* A new box from a snapshot */

static void
from_snapshot_prepare (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(KisteCreateOptions) options = NULL;
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_auto(GStrv) names = _kiste_manager_dup_names (op->self);
  GError *error = NULL;
  KisteBox *box;

  if (!(box = _kiste_manager_require_distrobox (task)))
    return;

  if (!(options = kiste_recreate_options_new (box, op->program, _kiste_manager_get_host_home (op->self),
                                              &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  kiste_create_options_set_name (options, op->arg);
  kiste_create_options_set_additional_packages (options, NULL);
  if (!(plan = kiste_create_options_plan (options, (const char * const *) names, op->self->capabilities,
                                          _kiste_op_get_engine (task), &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  kiste_task_set_step (op->ktask, _("Making the new box"));
  _kiste_op_create (task, options, plan);
}

KisteTask *
kiste_manager_create_from_snapshot_async (KisteManager        *self,
                                          const char          *box_ref,
                                          const char          *image,
                                          const char          *new_name,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_auto(GStrv) names = NULL;
  KisteTask *ktask;
  GError *error = NULL;
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_ref != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Creating"), box_ref, kiste_manager_create_from_snapshot_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” was made from a snapshot of “%s”"), new_name, op->box_name),
                          g_strdup_printf (_("Could not make a box from the snapshot of “%s”"), op->box_name));
  kiste_task_set_cancellable_by_user (op->ktask, TRUE);
  op->reload_on_error = TRUE;
  _kiste_op_use_empty_folder (task);

  names = _kiste_manager_dup_names (self);
  if (!kiste_validate_name (new_name, (const char * const *) names, &error))
    {
      _kiste_op_return (task, error);
      return ktask;
    }
  if (!kiste_snapshot_parse_image_name (image, op->box_name, NULL))
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                           _("“%s” is not a snapshot of “%s”."),
                                           image ? image : "", op->box_name));
      return ktask;
    }
  op->arg = g_strdup (new_name);
  op->program = g_strdup (image);
  _kiste_op_require_details (task, from_snapshot_prepare);
  return ktask;
}

