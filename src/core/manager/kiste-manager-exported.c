/* kiste-manager-exported.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What boxes put on the host, as the manager sees it: the box's own
 * launcher, each box's exported launchers and wrappers, the programs a box
 * or the host has, and exports whose box is gone (Clean Up). */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-apps.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-validate.h"

/* The box's own launcher */

static void
box_entry_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  gboolean present = FALSE;
  GError *error = NULL;

  if (!kiste_apps_has_box_entry_finish (result, &present, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, present);
}

void
kiste_manager_get_box_entry_async (KisteManager        *self,
                                   const char          *box_name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_get_box_entry_async);

  /* launchers are named after the box's own name */
  box_name = _kiste_manager_resolve_box (self, box_name, NULL);
  if (!kiste_validate_existing_name (box_name, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  kiste_apps_has_box_entry_async (self->runner, self->applications_dir, box_name, cancellable,
                                  box_entry_cb, g_steal_pointer (&task));
}

gboolean
kiste_manager_get_box_entry_finish (KisteManager  *self,
                                    GAsyncResult  *result,
                                    gboolean      *present,
                                    GError       **error)
{
  GError *local_error = NULL;
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  value = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (present != NULL)
    *present = value != 0;
  return TRUE;
}

static void
box_entry_add (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_commands_generate_entry_argv (op->box_name, FALSE);

  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
}

static void
box_entry_remove (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_commands_generate_entry_argv (op->box_name, TRUE);

  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
}

/* The launcher runs distrobox enter: only for a box safe to enter.
 * Indexed by present. */
static const OpKind box_entry_ops[2] = {
  { N_("Removing the box from the app menu"), N_("“%s” is no longer in the app menu"),
    N_("Could not remove “%s” from the app menu"), OP_REQUIRE_NOTHING, FALSE, box_entry_remove },
  { N_("Adding the box to the app menu"), N_("“%s” is in the app menu"),
    N_("Could not add “%s” to the app menu"), OP_REQUIRE_SAFE_ENTER, FALSE, box_entry_add },
};

KisteTask *
kiste_manager_set_box_entry_async (KisteManager        *self,
                                   const char          *box_name,
                                   gboolean             present,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  GTask *task;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &box_entry_ops[!!present], box_name,
                                  kiste_manager_set_box_entry_async, cancellable, callback, user_data)))
    return NULL;

  op = g_task_get_task_data (task);
  /* distrobox generate-entry writes it, for distrobox's boxes */
  if (present && _kiste_op_refuse_toolbox (task))
    {
      KisteTask *ktask = _kiste_op_get_ktask (task);

      g_object_unref (task);
      return ktask;
    }
  /* the launcher runs distrobox enter with distrobox's own engine */
  if (present && op->source != kiste_box_list_get_first_source (self->boxes))
    error = g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                         _("Only boxes of %s can be put in the app menu: "
                           "distrobox’s launcher would not find “%s”."),
                         kiste_box_source_get_title (kiste_box_list_get_first_source (self->boxes)),
                         op->box_name);
  if (error != NULL || !kiste_validate_existing_name (op->box_name, NULL, &error))
    {
      KisteTask *ktask = _kiste_op_get_ktask (task);

      _kiste_op_return (task, g_steal_pointer (&error));
      return ktask;
    }
  return _kiste_op_go (task);
}

static void
list_exported_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GPtrArray) files = NULL;
  GError *error = NULL;

  if (!(files = kiste_apps_list_exported_finish (result, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&files), (GDestroyNotify) g_ptr_array_unref);
}

void
kiste_manager_list_exported_async (KisteManager        *self,
                                   const char          *box_name,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_list_exported_async);
  kiste_apps_list_exported_async (self->runner, _kiste_manager_resolve_box (self, box_name, NULL), self->applications_dir, self->bin_dir,
                                  cancellable, list_exported_cb, g_steal_pointer (&task));
}



/* Programs */

static void
resolve_program_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  const char *program = g_task_get_task_data (task);
  g_autofree char *stdout_buf = NULL;
  g_autoptr(GError) error = NULL;
  GError *parse_error = NULL;
  char *path;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error) &&
      (stdout_buf == NULL || !g_error_matches (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED)))
    {
      /* it never ran, timed out or was cancelled; `command -v` itself
       * fails only when there is no such program */
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!(path = kiste_apps_parse_resolved_program (stdout_buf, program, &parse_error)))
    g_task_return_error (task, parse_error);
  else
    g_task_return_pointer (task, path, g_free);
}

void
kiste_manager_resolve_program_async (KisteManager        *self,
                                     const char          *box_name,
                                     const char          *program,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;
  KisteBox *box;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_resolve_program_async);
  g_task_set_task_data (task, g_strdup (program), g_free);

  if (!kiste_validate_program (program, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  box = kiste_box_list_find (self->boxes, box_name);
  if (box == NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                               _("There is no box “%s”."), box_name);
      return;
    }
  if (kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("Start “%s” first: the program is looked up inside it."), box_name);
      return;
    }

  argv = kiste_commands_resolve_program_argv (kiste_box_get_engine (box) ? kiste_box_get_engine (box)
                                                                        : kiste_manager_get_engine (self),
                                              kiste_box_get_name (box),
                                              kiste_box_get_user (box) ? kiste_box_get_user (box)
                                                                       : g_get_user_name (),
                                              program);
  kiste_runner_run_async (self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS, cancellable,
                          resolve_program_cb, g_steal_pointer (&task));
}


/* The first line, when it is an absolute path; else no answer */
static gpointer
parse_host_program (const char  *output,
                    GError     **error)
{
  const char *text = output ? output : "";
  g_autofree char *path = g_strndup (text, strcspn (text, "\n"));

  return g_path_is_absolute (path) ? g_steal_pointer (&path) : NULL;
}

void
kiste_manager_find_host_program_async (KisteManager        *self,
                                       const char          *program,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task;
  g_autofree char *name = NULL;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_find_host_program_async);

  if (!kiste_validate_program (program, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  name = g_path_get_basename (program);
  argv = kiste_commands_find_host_program_argv (name, self->bin_dir);
  _kiste_manager_run_query (self, task, (const char * const *) argv, SHORT_TIMEOUT_MS,
                            parse_host_program, g_free);
}


/* Everything exported */

/* The names of the boxes of every engine the user has: the list's, and
 * those of the other engine (docker beside podman) from one ps, so that
 * the exports of its boxes are not taken for left behind. When the other
 * engine cannot be asked (its daemon is not running), nobody can say what
 * is left behind: an error, and exports are left alone. */

static void
other_names_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteManager *self = g_task_get_source_object (task);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) ours = _kiste_manager_dup_names (self);
  g_auto(GStrv) lines = NULL;
  g_autofree char *out = NULL;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_strv_builder_addv (builder, (const char **) ours);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] != '\0')
        g_strv_builder_add (builder, lines[i]);
    }
  g_task_return_pointer (task, g_strv_builder_end (builder), (GDestroyNotify) g_strfreev);
}

static void
all_engine_names_async (KisteManager        *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  const char *engine = kiste_manager_get_engine (self);
  const char *other = g_str_equal (engine, "docker") ? "podman" : "docker";

  g_task_set_source_tag (task, all_engine_names_async);
  if (!kiste_capabilities_has_manager (self->capabilities, other))
    {
      g_task_return_pointer (task, _kiste_manager_dup_names (self), (GDestroyNotify) g_strfreev);
      return;
    }

  {
    const char *argv[] = { other, "ps", "-a", "--format", "{{.Names}}", NULL };

    kiste_runner_run_async (self->runner, argv, SHORT_TIMEOUT_MS, cancellable,
                            other_names_cb, g_steal_pointer (&task));
  }
}

static char **
all_engine_names_finish (GAsyncResult  *result,
                         GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
list_all_exported_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GPtrArray *files;
  GError *error = NULL;

  if (!(files = kiste_apps_list_all_exported_finish (result, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  /* not every engine could be asked: nothing is known to be left behind */
  if (g_task_get_task_data (task) != NULL)
    for (guint i = 0; i < files->len; i++)
      ((KisteExportedFile *) g_ptr_array_index (files, i))->stale = FALSE;
  g_task_return_pointer (task, files, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_all_names_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteManager *self = KISTE_MANAGER (object);
  g_auto(GStrv) names = NULL;
  GCancellable *cancellable;
  g_autoptr(GError) error = NULL;

  if (!(names = all_engine_names_finish (result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_debug ("Exports are not called left behind: %s", error->message);
      g_task_set_task_data (task, GINT_TO_POINTER (TRUE), NULL);
      names = _kiste_manager_dup_names (self);
    }

  cancellable = g_task_get_cancellable (task);
  kiste_apps_list_all_exported_async (self->runner, self->applications_dir, self->bin_dir,
                                      (const char * const *) names, cancellable,
                                      list_all_exported_cb, g_steal_pointer (&task));
}

void
kiste_manager_list_all_exported_async (KisteManager        *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_list_all_exported_async);
  all_engine_names_async (self, cancellable, list_all_names_cb, g_steal_pointer (&task));
}


/* Clean Up: the files asked for that are, read again just now, still
 * distrobox's exports of a box there is not */
static void
clean_up_listed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;
  guint n = 0;

  if (!(files = kiste_apps_list_all_exported_finish (result, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  g_strv_builder_add_many (builder, "rm", "-f", "--", NULL);
  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);

      if (file->stale && g_strv_contains ((const char * const *) op->argv, file->path))
        {
          g_strv_builder_add (builder, file->path);
          n++;
        }
    }

  if (n == 0)
    {
      kiste_task_append_line (op->ktask, _("Nothing left behind to remove"));
      _kiste_op_return (task, NULL);
      return;
    }

  argv = g_strv_builder_end (builder);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
}

static void
clean_up_names_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) names = NULL;
  GError *error = NULL;

  /* without every engine's boxes, anything could look left behind */
  if (!(names = all_engine_names_finish (result, &error)))
    {
      g_autoptr(GError) cause = error;

      if (g_error_matches (cause, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        error = g_steal_pointer (&cause);
      else
        error = g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                             _("The boxes of every container engine could not be listed, so "
                               "nothing is removed: %s"), cause->message);
      _kiste_op_return (task, error);
      return;
    }

  kiste_apps_list_all_exported_async (op->self->runner, op->self->applications_dir, op->self->bin_dir,
                                      (const char * const *) names, _kiste_op_cancellable (task),
                                      clean_up_listed_cb, task);
}

static void
clean_up_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBoxList *boxes = op->self->boxes;

  /* Without the list of boxes every export would look left behind */
  if (!kiste_box_list_get_loaded (boxes) || kiste_box_list_get_error (boxes) != NULL)
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                                           _("The boxes could not be listed, so nothing is "
                                             "removed.")));
      return;
    }

  all_engine_names_async (op->self, _kiste_op_cancellable (task), clean_up_names_cb, task);
}

static const OpKind clean_up_op = {
  N_("Cleaning up exports left behind"), N_("Exports left behind were removed"),
  N_("Could not remove the exports left behind"), OP_REQUIRE_NOTHING, FALSE, clean_up_first,
};

KisteTask *
kiste_manager_clean_up_exported_async (KisteManager        *self,
                                       const char * const  *paths,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (paths != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &clean_up_op, NULL, kiste_manager_clean_up_exported_async,
                                  cancellable, callback, user_data)))
    return NULL;
  ((Op *) g_task_get_task_data (task))->argv = g_strdupv ((char **) paths);
  return _kiste_op_go (task);
}
