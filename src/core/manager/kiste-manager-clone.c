/* kiste-manager-clone.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's operations that give a box a new name: clone (the copy
 * made with the source's settings) and rename. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-file.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-validate.h"

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
  kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, NULL);

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

  kiste_box_list_reload_async (op->self->boxes, NULL, clone_reloaded_cb, task);
}

/* The plan made before the source was stopped: a source without the
 * user's home makes a copy without it too */
static void
clone_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  /* a failed copy may leave a box behind: list again, and start the
   * source again, before failing */
  op->recover = clone_created;
  op->created = clone_created;
  kiste_task_set_step (op->ktask, _("Copying the box"));
  _kiste_op_create (task, op->options, op->plan);
}

/* The source's settings as the copy's options; checked before anything
 * runs, so a copy that cannot be made never stops the source */
static void
clone_prepare (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) names = _kiste_manager_dup_names (op->self);
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

  g_clear_object (&op->plan);
  if (!(op->plan = kiste_create_options_plan (op->options, (const char * const *) names,
                                              op->self->capabilities,
                                              kiste_box_source_get_engine (op->source), &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  if (op->flag)
    {
      kiste_task_set_step (op->ktask, _("Stopping the box to copy it"));
      _kiste_op_stop_box (task, clone_run);
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
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error))
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
                          g_strdup_printf (_("“%s” was cloned as “%s”"), op->box_name, new_name),
                          g_strdup_printf (_("Could not clone “%s”"), op->box_name));
  if (!op_take_new_name (task, new_name))
    return ktask;
  /* Toolbx knows no copies */
  if (_kiste_op_refuse_toolbox (task))
    {
      g_object_unref (task);
      return ktask;
    }
  _kiste_op_use_empty_folder (task);

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
                                    op->box_name));
      return ktask;
    }

  if (kiste_box_get_has_details (box))
    clone_prepare (task);
  else
    kiste_box_list_load_details_async (self->boxes, &box, 1, _kiste_op_cancellable (task),
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

      if (!kiste_file_replace (target, rewritten, strlen (rewritten), NULL, &error))
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

/* The unit that started the box at login names the old name: it goes, and
 * people turn it on again for the new one (the task says so) */
static void
rename_remove_unit (GTask *task)
{
  _kiste_op_remove_autostart (task, rename_rewrite);
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
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);
  g_return_val_if_fail (new_name != NULL, NULL);

  if (!(task = _kiste_op_new (self, _("Renaming"), box_name, kiste_manager_rename_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  op = g_task_get_task_data (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” is now called “%s”"), op->box_name, new_name),
                          g_strdup_printf (_("Could not rename “%s”"), op->box_name));
  if (!op_take_new_name (task, new_name))
    return ktask;
  /* Kiste's launchers of toolboxes would keep the old name */
  if (_kiste_op_refuse_toolbox (task))
    {
      g_object_unref (task);
      return ktask;
    }

  argv = kiste_commands_rename_argv (_kiste_op_get_engine (task), op->box_name, new_name);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, rename_remove_unit);
  return ktask;
}
