/* kiste-manager-ops.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The machinery every operation of the manager runs on: an Op is the state
 * of one operation, kept as its GTask's task data, with its KisteTask for
 * people; steps run one after another until one returns. */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-error.h"
#include "kiste-manager-ops-private.h"

static void
op_free (Op *op)
{
  g_clear_object (&op->self);
  g_clear_object (&op->ktask);
  g_clear_pointer (&op->ref, g_free);
  g_clear_pointer (&op->box_name, g_free);
  g_clear_object (&op->source);
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
  if (op->extra_free != NULL)
    g_clear_pointer (&op->extra, op->extra_free);
  g_free (op);
}

/* Ends the operation; takes the caller's reference to task */
void
_kiste_op_return (GTask  *task,
                  GError *error)
{
  g_autoptr(GTask) owned = task;
  Op *op = g_task_get_task_data (owned);

  kiste_task_finish (op->ktask, error);
  _kiste_manager_task_finished (op->self, op->ktask);

  if (error != NULL)
    g_task_return_error (task, error);
  else if (op->apps != NULL)
    g_task_return_pointer (task, g_ptr_array_ref (op->apps), (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_boolean (task, TRUE);
}

/* Which box box_ref names, in which source: the box's own ref when it is
 * there (a plain name may find another engine's box), else the ref as
 * given, in its source or the first one */
static void
op_resolve_box (Op         *op,
                const char *box_ref)
{
  KisteBoxList *boxes = op->self->boxes;
  KisteBox *box = kiste_box_list_find (boxes, box_ref);
  KisteBoxSource *source;
  const char *name = box_ref;

  if (box != NULL)
    {
      source = kiste_box_list_get_source_for_box (boxes, box);
      name = kiste_box_get_name (box);
      box_ref = kiste_box_get_ref (box);
    }
  else if ((source = kiste_box_list_parse_ref (boxes, box_ref, &name)) == NULL)
    source = kiste_box_list_get_first_source (boxes);

  op->ref = g_strdup (box_ref);
  op->box_name = g_strdup (name);
  op->source = g_object_ref (source);
}

/* Creates the operation on the box of box_ref (kiste_box_get_ref(); NULL
 * for none), or returns NULL after failing it at once (busy box): nothing
 * runs then. The caller owns the returned GTask. */
GTask *
_kiste_op_new (KisteManager        *self,
               const char          *title,
               const char          *box_ref,
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
  if (box_ref != NULL)
    op_resolve_box (op, box_ref);
  else
    op->source = g_object_ref (kiste_box_list_get_first_source (self->boxes));
  /* the task is the box's by its ref, which the busy boxes go by */
  op->ktask = kiste_task_new (title, op->ref, cancellable);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);
  g_task_set_check_cancellable (task, FALSE);

  if (op->ref != NULL && (running = kiste_manager_get_task_for_box (self, op->ref)))
    {
      _kiste_manager_task_started (self, op->ktask, FALSE);
      _kiste_op_return (g_steal_pointer (&task),
                        g_error_new (KISTE_ERROR, KISTE_ERROR_BUSY,
                              _("“%s” is busy: %s. Try again when it is done."),
                              op->box_name, kiste_task_get_title (running)));
      return NULL;
    }

  _kiste_manager_task_started (self, op->ktask, op->ref != NULL);
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

  kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, NULL);
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
  kiste_box_list_reload_async (op->self->boxes, NULL, op_fail_reload_cb, task);
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
  g_auto(GStrv) run = _kiste_op_dup_argv (task, argv);
  g_autofree char *display = kiste_argv_to_display_string ((const char * const *) run);

  op->next = next;
  kiste_task_append_line (op->ktask, display);

  /* a pull's and distrobox's lines as one story, in their order */
  if (stream)
    kiste_runner_stream_merged_in_async (op->self->runner, op->cwd, (const char * const *) run,
                                         timeout_ms, op_line_cb, g_object_ref (op->ktask),
                                         g_object_unref, _kiste_op_cancellable (task),
                                         op_stream_cb, task);
  else
    kiste_runner_run_in_async (op->self->runner, op->cwd, (const char * const *) run, timeout_ms,
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
  kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, NULL);
  _kiste_op_return (user_data, NULL);
}

/* For operations that add, remove or rename boxes: the list knows the
 * change before they end, so the next operation finds the box */
void
_kiste_op_reload_done (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_box_list_reload_async (op->self->boxes, NULL, op_reload_cb, task);
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
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error))
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
  KisteBox *box = _kiste_op_find_box (task);

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
      kiste_box_list_load_details_async (op->self->boxes, &box, 1, _kiste_op_cancellable (task),
                                         op_details_cb, task);
      return;
    }

  next (task);
}

static void
op_check_safe_enter (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = _kiste_op_find_box (task);
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

  /* Toolbx evaluates nothing of a toolbox on this computer */
  if (_kiste_op_is_toolbox (task))
    {
      next (task);
      return;
    }

  op->after_check = next;
  _kiste_op_require_details (task, op_check_safe_enter);
}

char **
_kiste_op_dup_argv (GTask              *task,
                    const char * const *argv)
{
  Op *op = g_task_get_task_data (task);

  return kiste_box_source_dup_argv (op->source, argv);
}

KisteBox *
_kiste_op_find_box (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return op->ref != NULL ? kiste_box_list_find (op->self->boxes, op->ref) : NULL;
}

const char *
_kiste_op_get_engine (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return kiste_box_source_get_engine (op->source);
}

/* Looks the box up; fails the operation when it is gone */
KisteBox *
_kiste_op_require_box (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = _kiste_op_find_box (task);

  if (box == NULL)
    _kiste_op_return (g_object_ref (task),
                      g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                            _("There is no box named “%s” any more."), op->box_name));
  return box;
}

gboolean
_kiste_op_is_toolbox (GTask *task)
{
  KisteBox *box = _kiste_op_find_box (task);

  return box != NULL && kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX;
}

gboolean
_kiste_op_refuse_toolbox (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (!_kiste_op_is_toolbox (task))
    return FALSE;
  _kiste_op_return (g_object_ref (task),
                    g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                 _("“%s” was made with Toolbx, which cannot do this."), op->box_name));
  return TRUE;
}

/* Operations declared by an OpKind */

/* The kind's words name the box; the format is one of its N_() strings,
 * checked by msgfmt --check in every catalogue */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static char *
format_for_box (const char *format,
                const char *box_name)
{
  if (format == NULL)
    return NULL;
  return g_strdup_printf (_(format), box_name ? box_name : "");
}
#pragma GCC diagnostic pop

GTask *
_kiste_op_prepare (KisteManager        *self,
                   const OpKind        *kind,
                   const char          *box_name,
                   gpointer             source_tag,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  GTask *task;
  Op *op;

  g_assert (kind != NULL && kind->first != NULL);

  if (!(task = _kiste_op_new (self, _(kind->title), box_name, source_tag,
                              cancellable, callback, user_data)))
    return NULL;

  op = g_task_get_task_data (task);
  op->kind = kind;
  _kiste_op_set_messages (task, format_for_box (kind->done, op->box_name),
                          format_for_box (kind->failed, op->box_name));
  if (kind->user_cancellable)
    kiste_task_set_cancellable_by_user (op->ktask, TRUE);
  return task;
}

KisteTask *
_kiste_op_go (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteTask *ktask = op->ktask;

  switch (op->kind->require)
    {
    case OP_REQUIRE_NOTHING:
      op->kind->first (task);
      break;

    case OP_REQUIRE_DETAILS:
      _kiste_op_require_details (task, op->kind->first);
      break;

    case OP_REQUIRE_SAFE_ENTER:
      _kiste_op_require_safe_enter (task, op->kind->first);
      break;

    case OP_REQUIRE_RUNNING:
      _kiste_op_require_running (task, op->kind->first);
      break;

    default:
      g_assert_not_reached ();
    }

  return ktask;
}

KisteTask *
_kiste_op_launch (KisteManager        *self,
                  const OpKind        *kind,
                  const char          *box_name,
                  gpointer             source_tag,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  GTask *task = _kiste_op_prepare (self, kind, box_name, source_tag, cancellable, callback, user_data);

  return task != NULL ? _kiste_op_go (task) : NULL;
}

void
_kiste_op_require_running (GTask  *task,
                           OpStep  next)
{
  KisteBox *box = _kiste_op_require_box (task);

  if (box == NULL)
    g_object_unref (task);
  else if (kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING)
    next (task);
  else
    _kiste_op_start_box (task, next);
}
