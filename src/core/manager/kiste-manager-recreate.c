/* kiste-manager-recreate.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's boxes made again from a newer image or a snapshot, and
 * what such an operation left when Kiste was killed half-way
 * (kiste-manager-snapshots.h says how they keep the box safe). */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-manager-snapshots-private.h"
#include "kiste-recreate.h"

/* A pull of a big image on a slow line */
#define PULL_TIMEOUT_MS (60 * 60 * 1000)

void
_kiste_manager_set_journal_dir (KisteManager *self,
                                const char   *dir)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_set_str (&self->journal_dir, dir);
}

/* The names of every box but box_name, which is made again */
static char **
dup_names_but (KisteManager *self,
               const char   *box_name)
{
  g_auto(GStrv) names = _kiste_manager_dup_names (self);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    if (!g_str_equal (names[i], box_name))
      g_strv_builder_add (builder, names[i]);
  return g_strv_builder_end (builder);
}

/* Making a box again */

typedef struct
{
  KisteManager *manager;
  /* what the box is made again from */
  char         *image;
  KisteJournal *journal;
  /* the caller's cancellable, heard until the box is removed */
  GCancellable *caller;
  gulong        cancel_id;
  /* what failed before the box was restored from its snapshot */
  char         *what_failed;
  OpStep        next;
  gboolean      pull;
  gboolean      keep_snapshot;
  /* people asked for the box as it was: restoring it is no failure */
  gboolean      undoing;
  /* from the old box's removal to the end: the app waits for it */
  gboolean      holding;
} Recreate;

static void
recreate_free (Recreate *rc)
{
  if (rc->caller != NULL)
    g_cancellable_disconnect (rc->caller, rc->cancel_id);
  g_clear_object (&rc->caller);
  if (rc->holding)
    _kiste_manager_cleanup_end (rc->manager);
  g_clear_object (&rc->manager);
  g_free (rc->image);
  kiste_journal_free (rc->journal);
  g_free (rc->what_failed);
  g_free (rc);
}

static void
caller_cancelled_cb (GCancellable *cancellable,
                     KisteTask    *ktask)
{
  kiste_task_cancel (ktask);
}

/* The operation on box_ref with its own cancellable: people and the
 * caller may cancel only until the box is removed */
static GTask *
recreate_new (KisteManager        *self,
              const char          *title,
              const char          *box_ref,
              gpointer             source_tag,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  GTask *task;
  Recreate *rc;
  Op *op;

  if (!(task = _kiste_op_new (self, title, box_ref, source_tag, NULL, callback, user_data)))
    return NULL;
  op = g_task_get_task_data (task);
  rc = g_new0 (Recreate, 1);
  rc->manager = g_object_ref (self);
  op->extra = rc;
  op->extra_free = (GDestroyNotify) recreate_free;
  _kiste_op_use_empty_folder (task);
  kiste_task_set_cancellable_by_user (op->ktask, TRUE);
  if (cancellable != NULL)
    {
      rc->caller = g_object_ref (cancellable);
      rc->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (caller_cancelled_cb),
                                             g_object_ref (op->ktask), g_object_unref);
    }
  return task;
}

/* From here the operation ends with a box of the name: nobody cancels it,
 * and the app waits for it */
static void
recreate_hold (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;

  kiste_task_set_cancellable_by_user (op->ktask, FALSE);
  if (rc->caller != NULL)
    {
      g_cancellable_disconnect (rc->caller, rc->cancel_id);
      rc->cancel_id = 0;
      g_clear_object (&rc->caller);
    }
  if (!rc->holding)
    {
      rc->holding = TRUE;
      _kiste_manager_cleanup_begin (rc->manager);
    }
}

static void
best_effort_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autofree char *stderr_buf = NULL;
  g_autoptr(GError) error = NULL;
  OpStep next = rc->next;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, &stderr_buf, &error))
    kiste_task_append_line (op->ktask, error->message);
  rc->next = NULL;
  next (task);
}

/* Runs argv whatever happens to the operation's cancellable, and goes on
 * with next whether it worked or not (what failed goes into the task) */
static void
run_best_effort (GTask              *task,
                 const char * const *argv,
                 OpStep              next)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_auto(GStrv) run = _kiste_op_dup_argv (task, argv);
  g_autofree char *display = kiste_argv_to_display_string ((const char * const *) run);

  rc->next = next;
  kiste_task_append_line (op->ktask, display);
  kiste_runner_run_in_async (op->self->runner, op->cwd, (const char * const *) run, SHORT_TIMEOUT_MS,
                             NULL, best_effort_cb, task);
}

static void
forget_journal (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(GError) error = NULL;

  if (!kiste_journal_remove (op->self->journal_dir, rc->journal->engine, rc->journal->box_name, &error))
    g_warning ("Could not remove the journal of “%s”: %s", rc->journal->box_name, error->message);
}

static void
restore_failed (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(GError) restore_error = g_steal_pointer (&op->pending_error);

  /* the journal stays: the next start offers to restore it again */
  op->reload_on_error = TRUE;
  _kiste_op_set_messages (task, NULL,
                          g_strdup_printf (_("Could not make “%s” again nor restore it"), op->box_name));
  _kiste_op_fail (task, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                     _("%s Restoring the box from its snapshot “%s” failed too: %s "
                                       "The snapshot is kept; Kiste offers to restore it when it starts again."),
                                     rc->what_failed, rc->journal->snapshot, restore_error->message));
}

static void
restored_reloaded (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;

  forget_journal (task);
  if (rc->undoing)
    {
      _kiste_op_reload_done (task);
      return;
    }
  _kiste_op_set_messages (task, NULL,
                          g_strdup_printf (_("Could not make “%s” again: it was restored from its snapshot"),
                                           op->box_name));
  op->reload_on_error = TRUE;
  _kiste_op_fail (task, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                     _("%s The box was restored from its snapshot “%s”, which is kept."),
                                     rc->what_failed, rc->journal->snapshot));
}

static void
restore_create (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(KisteCreateOptions) options = kiste_create_options_copy (rc->journal->options);
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_auto(GStrv) names = dup_names_but (op->self, op->box_name);
  GError *error = NULL;

  kiste_create_options_set_image (options, rc->journal->snapshot);
  /* what the packages and hooks did is in the snapshot already; the
   * hooks that run at every start stay */
  kiste_create_options_set_additional_packages (options, NULL);
  if (!(plan = kiste_create_options_plan (options, (const char * const *) names, op->self->capabilities,
                                          rc->journal->engine, &error)))
    {
      op->pending_error = error;
      restore_failed (task);
      return;
    }

  op->recover = restore_failed;
  op->created = restored_reloaded;
  kiste_task_set_step (op->ktask, _("Restoring the box from its snapshot"));
  _kiste_op_create (task, options, plan);
}

/* Something failed after the box was removed (or the removal did): the
 * box is made again from the snapshot taken before */
static void
restore_from_snapshot (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(GError) error = g_steal_pointer (&op->pending_error);
  g_auto(GStrv) argv = NULL;

  recreate_hold (task);
  g_free (rc->what_failed);
  rc->what_failed = g_strdup (error != NULL ? error->message : "");
  /* whatever the failed create left of a box goes first */
  argv = kiste_recreate_remove_argv (rc->journal->engine, op->box_name, NULL);
  run_best_effort (task, (const char * const *) argv, restore_create);
}

static void
recreate_snapshot_removed (GTask *task)
{
  _kiste_op_reload_done (task);
}

/* The new box stands */
static void
recreate_created (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_auto(GStrv) argv = NULL;

  op->recover = NULL;
  forget_journal (task);
  if (rc->journal->keep_snapshot)
    {
      _kiste_op_reload_done (task);
      return;
    }
  kiste_task_set_step (op->ktask, _("Removing the snapshot"));
  argv = kiste_snapshot_remove_argv (rc->journal->engine,
                                     (const char * const[]) { rc->journal->snapshot, NULL }, NULL);
  run_best_effort (task, (const char * const *) argv, recreate_snapshot_removed);
}

static void
recreate_create (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_auto(GStrv) names = dup_names_but (op->self, op->box_name);
  GError *error = NULL;

  recreate_hold (task);
  op->recover = restore_from_snapshot;
  if (!(plan = kiste_create_options_plan (rc->journal->options, (const char * const *) names,
                                          op->self->capabilities, rc->journal->engine, &error)))
    {
      _kiste_op_fail (task, error);
      return;
    }
  op->created = recreate_created;
  kiste_task_set_step (op->ktask, _("Making the box again"));
  _kiste_op_create (task, rc->journal->options, plan);
}

static void
recreate_remove (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_auto(GStrv) argv = kiste_recreate_remove_argv (rc->journal->engine, op->box_name, NULL);

  /* the snapshot exists: from here the box is restored when anything fails */
  recreate_hold (task);
  op->recover = restore_from_snapshot;
  kiste_task_set_step (op->ktask, _("Removing the old box"));
  _kiste_op_run (task, (const char * const *) argv, STOP_TIMEOUT_MS, FALSE, recreate_create);
}

static void recreate_commit (GTask    *task,
                             gboolean  pause);

/* The snapshot could not be taken: the box was not touched. A box the
 * engine cannot pause is copied while it runs, once. */
static void
recreate_snapshot_failed (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (_kiste_manager_snapshot_retry_unpaused (task))
    {
      recreate_commit (task, FALSE);
      return;
    }
  forget_journal (task);
  _kiste_op_return (task, g_steal_pointer (&op->pending_error));
}

static void
recreate_commit (GTask    *task,
                 gboolean  pause)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  /* op->flag: tried without pausing */
  op->flag = !pause;
  if (!(argv = kiste_snapshot_commit_argv (rc->journal->engine, op->box_name, rc->journal->snapshot,
                                           "recreate", pause, &error)))
    {
      forget_journal (task);
      _kiste_op_return (task, error);
      return;
    }
  op->recover = recreate_snapshot_failed;
  _kiste_op_run (task, (const char * const *) argv, COMMIT_TIMEOUT_MS, FALSE, recreate_remove);
}

static void
recreate_snapshot (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  GError *error = NULL;

  if (!kiste_journal_write (rc->journal, op->self->journal_dir, &error))
    {
      _kiste_op_return (task, error);
      return;
    }
  kiste_task_set_step (op->ktask, _("Taking a snapshot of the box"));
  recreate_commit (task, _kiste_manager_snapshot_may_pause (task));
}

/* Everything is read and checked before anything runs */
static void
recreate_prepare (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr(KisteCreateOptions) options = NULL;
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_auto(GStrv) names = dup_names_but (op->self, op->box_name);
  g_autofree char *snapshot = NULL;
  const char *engine = _kiste_op_get_engine (task);
  const char *image;
  GError *error = NULL;
  KisteBox *box;

  if (!(box = _kiste_manager_require_distrobox (task)))
    return;

  image = rc->image != NULL ? rc->image : kiste_box_get_image (box);
  if (!(options = kiste_recreate_options_new (box, image, _kiste_manager_get_host_home (op->self), &error)) ||
      !(plan = kiste_create_options_plan (options, (const char * const *) names, op->self->capabilities,
                                          engine, &error)) ||
      !(snapshot = kiste_snapshot_dup_image_name (op->box_name, now, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  /* what the packages did is in a snapshot already */
  if (kiste_snapshot_is_snapshot_image (image))
    kiste_create_options_set_additional_packages (options, NULL);
  rc->journal = kiste_journal_new (engine, op->box_name, kiste_box_get_id (box), snapshot,
                                   options, rc->keep_snapshot);

  if (rc->pull)
    {
      g_auto(GStrv) argv = NULL;

      if (!(argv = kiste_recreate_pull_argv (engine, image, &error)))
        {
          _kiste_op_return (task, error);
          return;
        }
      kiste_task_set_step (op->ktask, _("Downloading the image"));
      _kiste_op_run (task, (const char * const *) argv, PULL_TIMEOUT_MS, TRUE, recreate_snapshot);
      return;
    }
  recreate_snapshot (task);
}

KisteTask *
kiste_manager_recreate_async (KisteManager        *self,
                              const char          *box_ref,
                              gboolean             pull,
                              gboolean             keep_snapshot,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  KisteTask *ktask;
  Recreate *rc;
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_ref != NULL, NULL);

  if (!(task = recreate_new (self, pull ? _("Updating") : _("Recreating"), box_ref,
                             kiste_manager_recreate_async, cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  rc = op->extra;
  rc->pull = pull;
  rc->keep_snapshot = keep_snapshot;
  if (pull)
    _kiste_op_set_messages (task, g_strdup_printf (_("“%s” was made again from the newest image"), op->box_name),
                            g_strdup_printf (_("Could not update “%s”"), op->box_name));
  else
    _kiste_op_set_messages (task, g_strdup_printf (_("“%s” was made again"), op->box_name),
                            g_strdup_printf (_("Could not make “%s” again"), op->box_name));
  /* the settings come from the details: read them every time */
  _kiste_op_require_details (task, recreate_prepare);
  return ktask;
}

KisteTask *
kiste_manager_restore_snapshot_async (KisteManager        *self,
                                      const char          *box_ref,
                                      const char          *image,
                                      gboolean             keep_snapshot,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  KisteTask *ktask;
  Recreate *rc;
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_ref != NULL, NULL);

  if (!(task = recreate_new (self, _("Restoring"), box_ref, kiste_manager_restore_snapshot_async,
                             cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  rc = op->extra;
  rc->keep_snapshot = keep_snapshot;
  _kiste_op_set_messages (task, g_strdup_printf (_("“%s” was restored from its snapshot"), op->box_name),
                          g_strdup_printf (_("Could not restore “%s”"), op->box_name));
  if (!kiste_snapshot_parse_image_name (image, op->box_name, NULL))
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                           _("“%s” is not a snapshot of “%s”."),
                                           image ? image : "", op->box_name));
      return ktask;
    }
  rc->image = g_strdup (image);
  _kiste_op_require_details (task, recreate_prepare);
  return ktask;
}

/* What was left */

void
kiste_leftover_free (KisteLeftover *leftover)
{
  if (leftover == NULL)
    return;
  kiste_journal_free (leftover->journal);
  g_free (leftover);
}

typedef struct
{
  GPtrArray *journals;
  GPtrArray *leftovers;
  guint      next;
} FindData;

static void
find_data_free (FindData *data)
{
  g_ptr_array_unref (data->journals);
  g_clear_pointer (&data->leftovers, g_ptr_array_unref);
  g_free (data);
}

/* The box of a journal, by its engine and name */
static KisteBox *
find_journal_box (KisteManager *self,
                  KisteJournal *journal)
{
  GListModel *model = G_LIST_MODEL (self->boxes);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (model, i);

      if (g_str_equal (kiste_box_get_name (box), journal->box_name) &&
          g_strcmp0 (kiste_box_get_engine (box), journal->engine) == 0)
        return box;
    }
  return NULL;
}

static gboolean
snapshots_contain (GPtrArray  *snapshots,
                   const char *image)
{
  for (guint i = 0; i < snapshots->len; i++)
    if (g_str_equal (kiste_snapshot_get_image (g_ptr_array_index (snapshots, i)), image))
      return TRUE;
  return FALSE;
}

static KisteLeftoverState
classify (KisteManager *self,
          KisteJournal *journal,
          GPtrArray    *snapshots)
{
  KisteBox *box = find_journal_box (self, journal);

  return kiste_journal_classify (journal, box != NULL, box ? kiste_box_get_id (box) : NULL,
                                 snapshots_contain (snapshots, journal->snapshot));
}

static void find_next (GTask *task);

static void
find_listed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  KisteManager *self = g_task_get_source_object (task);
  FindData *data = g_object_get_data (G_OBJECT (task), "find-data");
  KisteJournal *journal = g_ptr_array_index (data->journals, data->next);
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(GError) error = NULL;
  KisteLeftoverState state;

  data->next++;
  /* an engine that does not answer says nothing about what is left */
  if (!(snapshots = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      g_debug ("Could not list the snapshots of “%s”: %s", journal->box_name, error->message);
      find_next (task);
      return;
    }

  state = classify (self, journal, snapshots);
  if (state == KISTE_LEFTOVER_NONE)
    kiste_journal_remove (self->journal_dir, journal->engine, journal->box_name, NULL);
  else
    {
      KisteLeftover *leftover = g_new0 (KisteLeftover, 1);

      leftover->journal = g_ptr_array_steal_index (data->journals, data->next - 1);
      g_ptr_array_insert (data->journals, data->next - 1, NULL);
      leftover->state = state;
      g_ptr_array_add (data->leftovers, leftover);
    }
  find_next (task);
}

static void
find_next (GTask *task)
{
  KisteManager *self = g_task_get_source_object (task);
  FindData *data = g_object_get_data (G_OBJECT (task), "find-data");
  KisteJournal *journal;
  GTask *list;

  if (data->next >= data->journals->len || g_task_return_error_if_cancelled (task))
    {
      if (!g_task_had_error (task))
        g_task_return_pointer (task, g_ptr_array_ref (data->leftovers), (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }

  journal = g_ptr_array_index (data->journals, data->next);
  list = g_task_new (self, g_task_get_cancellable (task), find_listed_cb, task);
  _kiste_manager_list_snapshots_run (self, list, journal->engine, journal->box_name);
}

static void
load_journals_thread (GTask        *load,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  g_task_return_pointer (load, kiste_journal_load_all (task_data), (GDestroyNotify) g_ptr_array_unref);
}

static void
journals_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  FindData *data = g_new0 (FindData, 1);

  data->journals = g_task_propagate_pointer (G_TASK (result), NULL);
  if (data->journals == NULL)
    data->journals = g_ptr_array_new ();
  g_ptr_array_set_free_func (data->journals, (GDestroyNotify) kiste_journal_free);
  data->leftovers = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_leftover_free);
  g_object_set_data_full (G_OBJECT (task), "find-data", data, (GDestroyNotify) find_data_free);
  find_next (task);
}

void
kiste_manager_find_leftovers_async (KisteManager        *self,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) load = NULL;
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_find_leftovers_async);
  /* the journals are files: read off the main loop, at start-up too */
  load = g_task_new (self, cancellable, journals_loaded_cb, task);
  g_task_set_task_data (load, g_strdup (self->journal_dir), g_free);
  g_task_run_in_thread (load, load_journals_thread);
}

/* Finishing or undoing: the journal read again, the snapshots listed, the
 * state as it is now */

static void
resolve_undo_box_kept (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_auto(GStrv) argv = NULL;

  forget_journal (task);
  if (rc->journal->keep_snapshot)
    {
      _kiste_op_reload_done (task);
      return;
    }
  argv = kiste_snapshot_remove_argv (rc->journal->engine,
                                     (const char * const[]) { rc->journal->snapshot, NULL }, NULL);
  run_best_effort (task, (const char * const *) argv, recreate_snapshot_removed);
}

static void
resolve_listed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  Recreate *rc = op->extra;
  g_autoptr(GPtrArray) snapshots = NULL;
  GError *error = NULL;

  if (!(snapshots = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  switch (classify (op->self, rc->journal, snapshots))
    {
    case KISTE_LEFTOVER_BOX_AND_SNAPSHOT:
      if (rc->pull)
        recreate_remove (task);
      else
        resolve_undo_box_kept (task);
      break;

    case KISTE_LEFTOVER_SNAPSHOT_ONLY:
      if (rc->pull)
        recreate_create (task);
      else
        {
          recreate_hold (task);
          rc->undoing = TRUE;
          g_set_str (&rc->what_failed, _("Kiste was ended while it made the box again."));
          restore_create (task);
        }
      break;

    case KISTE_LEFTOVER_NEW_BOX:
      if (rc->pull)
        {
          recreate_hold (task);
          recreate_created (task);
        }
      else
        {
          rc->undoing = TRUE;
          op->pending_error = g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                           _("Kiste was ended while it made the box again."));
          restore_from_snapshot (task);
        }
      break;

    case KISTE_LEFTOVER_NONE:
    case KISTE_LEFTOVER_LOST:
    default:
      forget_journal (task);
      _kiste_op_reload_done (task);
      break;
    }
}

KisteTask *
kiste_manager_resolve_leftover_async (KisteManager        *self,
                                      const char          *engine,
                                      const char          *box_name,
                                      gboolean             finish,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GPtrArray) journals = NULL;
  g_autofree char *ref = NULL;
  KisteJournal *journal = NULL;
  KisteBoxSource *first;
  KisteTask *ktask;
  Recreate *rc;
  GTask *task;
  GTask *list;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (engine != NULL && box_name != NULL, NULL);

  first = kiste_box_list_get_first_source (self->boxes);
  ref = g_str_equal (engine, kiste_box_source_get_engine (first))
        ? g_strdup (box_name) : g_strdup_printf ("%s/%s", engine, box_name);

  if (!(task = recreate_new (self, finish ? _("Finishing") : _("Undoing"), ref,
                             kiste_manager_resolve_leftover_async, NULL, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  rc = op->extra;
  /* in this file, pull says which way: finish */
  rc->pull = finish;
  kiste_task_set_cancellable_by_user (op->ktask, FALSE);
  _kiste_op_set_messages (task,
                          g_strdup_printf (finish ? _("“%s” was made again") : _("“%s” is as it was"), box_name),
                          g_strdup_printf (_("Could not finish what was left of “%s”"), box_name));

  journals = kiste_journal_load_all (self->journal_dir);
  for (guint i = 0; i < journals->len; i++)
    {
      KisteJournal *j = g_ptr_array_index (journals, i);

      if (g_str_equal (j->engine, engine) && g_str_equal (j->box_name, box_name))
        journal = g_ptr_array_steal_index (journals, i);
    }
  if (journal == NULL)
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                                           _("Nothing is left to finish for “%s”."), box_name));
      return ktask;
    }
  rc->journal = journal;

  list = g_task_new (self, NULL, resolve_listed_cb, task);
  _kiste_manager_list_snapshots_run (self, list, engine, box_name);
  return ktask;
}
