/* kiste-manager-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files through the manager: Save to File (commit, save, the
 * exported apps listed, the file written) as one operation, and Open Box
 * File as a load, then the create and first start of any new box, then
 * the apps exported again, each step a KisteTask. */

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "kiste-assemble.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-boxfile.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-validate.h"

#define SAVE_TIMEOUT_MS (3 * 60 * 60 * 1000)

char *
kiste_manager_make_boxfile_folder (KisteManager  *self,
                                   GError       **error)
{
  g_autofree char *parent = g_build_filename (g_get_user_cache_dir (), "kiste", NULL);
  g_autofree char *folder = NULL;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if (g_mkdir_with_parents (parent, 0700) != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "%s: %s", parent, g_strerror (errno));
      return NULL;
    }
  folder = g_build_filename (parent, "boxfile-XXXXXX", NULL);
  if (g_mkdtemp (folder) == NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                   "%s: %s", parent, g_strerror (errno));
      return NULL;
    }
  return g_steal_pointer (&folder);
}

/* Removes what a box file left in a folder of the cache, then the folder */
static void
remove_boxfile_folder (const char *folder)
{
  const char *names[] = { KISTE_BOXFILE_IMAGE, KISTE_BOXFILE_HOME, NULL };

  if (folder == NULL)
    return;
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (folder, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
}

/* Save to File */

typedef struct
{
  KisteManager *self;
  char         *folder;
  char         *engine;
  char         *image;
  gboolean      with_home;
  char         *home;
} SaveData;

static void
save_data_free (SaveData *data)
{
  remove_boxfile_folder (data->folder);
  g_clear_object (&data->self);
  g_free (data->folder);
  g_free (data->engine);
  g_free (data->image);
  g_free (data->home);
  g_free (data);
}

static char *
dup_saved_image (const char *box_name)
{
  g_autofree char *lower = g_ascii_strdown (box_name, -1);

  return g_strdup_printf ("localhost/kiste-saved/%s:latest", lower);
}

static void
save_progress (guint64  done,
               guint64  total,
               gpointer user_data)
{
  kiste_task_set_bytes (KISTE_TASK (user_data), _("Writing the file"), done, total);
}

static void
save_written_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!kiste_boxfile_write_finish (result, &error))
    _kiste_op_return (task, error);
  else
    _kiste_op_done (task);
}

static char *
dup_settings (KisteBox    *box,
              const char  *image,
              GError     **error)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();

  kiste_create_options_set_name (options, kiste_box_get_name (box));
  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, image);
  g_ptr_array_add (list, options);
  return kiste_assemble_to_data (list, error);
}

static void
save_listed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) exported = NULL;
  g_autoptr(KisteBoxfile) boxfile = kiste_boxfile_new ();
  g_autoptr(GStrvBuilder) apps = g_strv_builder_new ();
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  SaveData *data = g_object_get_data (G_OBJECT (task), "kiste-save");
  GError *error = NULL;
  KisteBox *box;

  if (!(exported = kiste_apps_list_exported_finish (result, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  if (!(box = _kiste_op_require_box (task)))
    return;

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);

      if (file->kind == KISTE_EXPORTED_APP && file->source != NULL &&
          g_hash_table_add (ids, file->source))
        g_strv_builder_add (apps, file->source);
    }

  boxfile->name = g_strdup (op->box_name);
  boxfile->tool = g_strdup ("distrobox");
  boxfile->engine = g_strdup (data->engine);
  boxfile->image = g_strdup (data->image);
  boxfile->apps = g_strv_builder_end (apps);
  boxfile->image_path = g_build_filename (data->folder, KISTE_BOXFILE_IMAGE, NULL);
  if (data->home != NULL)
    boxfile->home_path = g_build_filename (data->folder, KISTE_BOXFILE_HOME, NULL);
  if (!(boxfile->settings = dup_settings (box, data->image, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  kiste_task_set_step (op->ktask, _("Writing the file"));
  kiste_boxfile_write_async (boxfile, op->arg, save_progress, op->ktask,
                             _kiste_op_cancellable (task), save_written_cb, task);
}

static void
save_list_apps (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_task_set_step (op->ktask, _("Listing the exported apps"));
  kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                  NULL, _kiste_op_cancellable (task), save_listed_cb, task);
}

/* tar could not read a file of the home: one of another user's (the box's
 * root's, with docker; one outside podman's mapping) */
static void
save_home_unreadable (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  GError *error = g_steal_pointer (&op->pending_error);

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      strstr (kiste_task_get_output (op->ktask), "Permission denied") != NULL)
    {
      g_clear_error (&error);
      error = g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                           _("Some files in the box’s home folder cannot be read: they belong "
                             "to another user, such as the box’s own root. Save the box without "
                             "its home folder, or make those files yours first."));
    }
  _kiste_op_return (task, error);
}

static void
save_home_packed (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  op->recover = NULL;
  save_list_apps (task);
}

static void
save_pack_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = g_object_get_data (G_OBJECT (task), "kiste-save");
  g_autofree char *path = NULL;
  g_auto(GStrv) argv = NULL;

  if (data->home == NULL)
    {
      save_list_apps (task);
      return;
    }
  path = g_build_filename (data->folder, KISTE_BOXFILE_HOME, NULL);
  argv = kiste_commands_pack_home_argv (data->engine, data->home, path);
  kiste_task_set_step (op->ktask, _("Packing the home folder"));
  op->recover = save_home_unreadable;
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, save_home_packed);
}

static void
save_image (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = g_object_get_data (G_OBJECT (task), "kiste-save");
  g_autofree char *path = g_build_filename (data->folder, KISTE_BOXFILE_IMAGE, NULL);
  g_auto(GStrv) argv = kiste_commands_save_image_argv (data->engine, data->image, path);

  kiste_task_set_step (op->ktask, _("Saving the image"));
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, save_pack_home);
}

static void
save_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = g_object_get_data (G_OBJECT (task), "kiste-save");
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;
  KisteBox *box;

  if (_kiste_op_refuse_toolbox (task) || !(box = _kiste_op_require_box (task)))
    return;
  if (data->with_home)
    {
      const char *home = kiste_box_get_home (box);

      if (!kiste_box_has_custom_home (box) || home == NULL || !g_path_is_absolute (home))
        {
          GError *local = NULL;

          kiste_set_invalid_input (&local, _("The box has no home folder of its own to save."));
          _kiste_op_return (task, local);
          return;
        }
      data->home = g_strdup (home);
    }

  data->engine = g_strdup (_kiste_op_get_engine (task));
  data->image = dup_saved_image (op->box_name);
  if (!(data->folder = kiste_manager_make_boxfile_folder (op->self, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  argv = kiste_commands_commit_argv (data->engine, op->box_name, data->image);
  kiste_task_set_step (op->ktask, _("Committing the box’s changes"));
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, save_image);
}

static const OpKind save_op = {
  N_("Saving to a file"), N_("“%s” was saved to a file"), N_("Could not save “%s” to a file"),
  OP_REQUIRE_DETAILS, TRUE, save_first
};

static void
save_image_removed_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(KisteManager) self = user_data;

  /* best effort: the committed image is only a step on the way */
  kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, NULL);
  _kiste_manager_cleanup_end (self);
}

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  SaveData *data = g_task_get_task_data (outer);
  GError *error = NULL;

  if (data->image != NULL)
    {
      g_auto(GStrv) argv = kiste_commands_remove_image_argv (data->engine, data->image);

      _kiste_manager_cleanup_begin (data->self);
      kiste_runner_run_async (data->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS,
                              NULL, save_image_removed_cb, g_object_ref (data->self));
    }
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_task_return_error (outer, error);
  else
    g_task_return_boolean (outer, TRUE);
}

KisteTask *
kiste_manager_save_boxfile_async (KisteManager        *self,
                                  const char          *box_name,
                                  const char          *path,
                                  gboolean             with_home,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  GTask *task;
  SaveData *data;
  Op *op;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, kiste_manager_save_boxfile_async);
  data = g_new0 (SaveData, 1);
  data->self = g_object_ref (self);
  data->with_home = with_home;
  g_task_set_task_data (outer, data, (GDestroyNotify) save_data_free);

  if (!(task = _kiste_op_prepare (self, &save_op, box_name, kiste_manager_save_boxfile_async,
                                  cancellable, save_done_cb, g_object_ref (outer))))
    return NULL;
  op = g_task_get_task_data (task);
  op->arg = g_strdup (path);
  g_object_set_data (G_OBJECT (task), "kiste-save", data);
  return _kiste_op_go (task);
}

/* The home's size */

#define HOME_SIZE_TIMEOUT_MS (2 * 60 * 1000)

static gpointer
parse_home_size (const char  *output,
                 GError     **error)
{
  guint64 size = 0;

  if (!kiste_commands_parse_home_size (output, &size))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The size of the home folder could not be read."));
      return NULL;
    }
  return g_memdup2 (&size, sizeof size);
}

void
kiste_manager_get_home_size_async (KisteManager        *self,
                                   const char          *engine,
                                   const char          *home,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GTask *task;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (home != NULL && g_path_is_absolute (home));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_get_home_size_async);
  argv = kiste_commands_home_size_argv (engine, home);
  _kiste_manager_run_query (self, task, (const char * const *) argv, HOME_SIZE_TIMEOUT_MS,
                            parse_home_size, g_free);
}

/* Reading a box file: the whole file checked, then the names in its
 * image archive */

typedef struct
{
  /* the file's own name, for the message of a refusal */
  char         *file_name;
  char         *folder;
  KisteBoxfile *boxfile;
} ReadData;

static void
read_data_free (ReadData *data)
{
  /* kept only when the read succeeded: the caller removes it then */
  if (data->boxfile == NULL)
    remove_boxfile_folder (data->folder);
  g_free (data->file_name);
  g_free (data->folder);
  kiste_boxfile_free (data->boxfile);
  g_free (data);
}

/* Fails the read with the reason in the task's message, which the window
 * shows: a file refused says why at once */
static void
read_fail (GTask  *task,
           GError *error)
{
  ReadData *data = g_object_get_data (G_OBJECT (task), "kiste-read");

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _kiste_op_set_messages (task, NULL,
                            g_strdup_printf (_("Could not open “%s”: %s"), data->file_name,
                                             error->message));
  _kiste_op_return (task, error);
}

static void
read_progress (guint64  done,
               guint64  total,
               gpointer user_data)
{
  kiste_task_set_bytes (KISTE_TASK (user_data), _("Checking the file"), done, total);
}

static void
read_names_checked_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!kiste_boxfile_check_image_archive_finish (result, &error))
    {
      ReadData *data = g_object_get_data (G_OBJECT (task), "kiste-read");

      g_clear_pointer (&data->boxfile, kiste_boxfile_free);
      read_fail (task, error);
    }
  else
    _kiste_op_done (task);
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  ReadData *data = g_object_get_data (G_OBJECT (task), "kiste-read");
  GError *error = NULL;

  if (!(data->boxfile = kiste_boxfile_read_finish (result, &error)))
    {
      read_fail (task, error);
      return;
    }
  kiste_task_set_step (op->ktask, _("Checking the image’s names"));
  kiste_task_set_fraction (op->ktask, -1);
  kiste_boxfile_check_image_archive_async (data->boxfile->image_path, data->boxfile->engine,
                                           data->boxfile->image, _kiste_op_cancellable (task),
                                           read_names_checked_cb, task);
}

static void
read_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  ReadData *data = g_object_get_data (G_OBJECT (task), "kiste-read");
  GError *error = NULL;

  if (!(data->folder = kiste_manager_make_boxfile_folder (op->self, &error)))
    {
      read_fail (task, error);
      return;
    }
  kiste_task_set_bytes (op->ktask, _("Checking the file"), 0, 0);
  kiste_boxfile_read_async (op->arg, data->folder, read_progress, op->ktask,
                            _kiste_op_cancellable (task), read_done_cb, task);
}

static const OpKind read_op = {
  N_("Checking a box file"), NULL, N_("Could not open the box file"),
  OP_REQUIRE_NOTHING, TRUE, read_first
};

static void
read_finished_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  ReadData *data = g_task_get_task_data (outer);
  GError *error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_clear_pointer (&data->boxfile, kiste_boxfile_free);
      g_task_return_error (outer, error);
      return;
    }
  g_task_return_pointer (outer, g_steal_pointer (&data->boxfile),
                         (GDestroyNotify) kiste_boxfile_free);
  /* the folder is the caller's now */
  g_clear_pointer (&data->folder, g_free);
}

KisteTask *
kiste_manager_read_boxfile_async (KisteManager        *self,
                                  const char          *path,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) outer = NULL;
  GTask *task;
  ReadData *data;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, kiste_manager_read_boxfile_async);
  data = g_new0 (ReadData, 1);
  g_task_set_task_data (outer, data, (GDestroyNotify) read_data_free);

  if (!(task = _kiste_op_prepare (self, &read_op, NULL, kiste_manager_read_boxfile_async,
                                  cancellable, read_finished_cb, g_object_ref (outer))))
    return NULL;
  data->file_name = g_path_get_basename (path);
  _kiste_op_set_messages (task, NULL,
                          g_strdup_printf (_("Could not open “%s”"), data->file_name));
  ((Op *) g_task_get_task_data (task))->arg = g_strdup (path);
  g_object_set_data (G_OBJECT (task), "kiste-read", data);
  return _kiste_op_go (task);
}

KisteBoxfile *
kiste_manager_read_boxfile_finish (KisteManager  *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Open Box File */

char *
kiste_manager_check_boxfile (KisteManager       *self,
                             const KisteBoxfile *boxfile,
                             const char         *name)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (boxfile != NULL, NULL);

  if (kiste_box_list_find_source (self->boxes, boxfile->engine) == NULL)
    return g_strdup_printf (_("The box was saved with %s, which this computer does not have."),
                            boxfile->engine);
  names = _kiste_manager_dup_names (self);
  if (!kiste_validate_name (name, (const char * const *) names, &error))
    return g_strdup (error->message);
  return NULL;
}

typedef struct
{
  KisteManager          *self;
  KisteBoxfile          *boxfile;
  KisteCreateOptions    *options;
  char                  *name;
  /* the new box's ref: ENGINE/NAME beside the first engine's boxes */
  char                  *ref;
  char                  *home_folder;
  KisteCreationTaskFunc  task_func;
  gpointer               task_data;
  GPtrArray             *exports;
  guint                  next_export;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_object (&data->self);
  kiste_boxfile_free (data->boxfile);
  g_clear_object (&data->options);
  g_free (data->name);
  g_free (data->ref);
  g_free (data->home_folder);
  g_clear_pointer (&data->exports, g_ptr_array_unref);
  g_free (data);
}

static void open_export_next (GTask *outer);

static void
open_exported_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  GError *error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  open_export_next (g_steal_pointer (&outer));
}

static void
open_export_next (GTask *outer)
{
  g_autoptr(GTask) task = outer;
  OpenData *data = g_task_get_task_data (task);
  const char *path;

  if (data->exports == NULL || data->next_export >= data->exports->len)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  path = g_ptr_array_index (data->exports, data->next_export++);
  if (!kiste_manager_export_app_async (data->self, data->ref, path, FALSE,
                                       g_task_get_cancellable (task), open_exported_cb,
                                       g_object_ref (task)))
    g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BUSY, _("The box is busy."));
}

static void
open_listed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  OpenData *data = g_task_get_task_data (outer);
  g_autoptr(GPtrArray) apps = NULL;
  GError *error = NULL;

  if (!(apps = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      g_task_return_error (outer, error);
      return;
    }
  /* the apps by the ids they had; an app the box no longer has is left */
  data->exports = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; data->boxfile->apps[i] != NULL; i++)
    for (guint j = 0; j < apps->len; j++)
      {
        KisteDesktopApp *app = g_ptr_array_index (apps, j);

        if (g_strcmp0 (kiste_desktop_app_get_id (app), data->boxfile->apps[i]) == 0)
          {
            g_ptr_array_add (data->exports, g_strdup (kiste_desktop_app_get_path (app)));
            break;
          }
      }
  open_export_next (g_steal_pointer (&outer));
}

static void
open_created_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  OpenData *data = g_task_get_task_data (outer);
  GError *error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  if (data->boxfile->apps == NULL || data->boxfile->apps[0] == NULL)
    {
      g_task_return_boolean (outer, TRUE);
      return;
    }
  if (!kiste_manager_list_apps_async (data->self, data->ref, g_task_get_cancellable (outer),
                                      open_listed_cb, g_object_ref (outer)))
    g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_BUSY, _("The box is busy."));
}

static void
open_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  OpenData *data = g_task_get_task_data (outer);
  GError *error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  if (!_kiste_manager_create_and_start_on_async (data->self, data->boxfile->engine, data->options,
                                                 data->task_func, data->task_data, NULL,
                                                 g_task_get_cancellable (outer), open_created_cb,
                                                 g_object_ref (outer)))
    g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_BUSY, _("The box is busy."));
}

/* The image must come back under the name the index gives, the one the
 * box is created from */
static void
load_check (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *image = g_object_get_data (G_OBJECT (task), "kiste-image");
  GError *error = NULL;

  if (!kiste_boxfile_check_loaded (op->output, image, &error))
    _kiste_op_fail (task, error);
  else
    _kiste_op_done (task);
}

/* On the file's own engine: the load op's source is that engine's */
static void
load_image (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_commands_load_image_argv (_kiste_op_get_engine (task), op->arg);

  kiste_task_set_step (op->ktask, _("Loading the image"));
  kiste_task_set_fraction (op->ktask, -1);
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, FALSE, load_check);
}

static void
load_home_removed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    kiste_task_append_line (op->ktask, error->message);
  _kiste_op_return (task, g_steal_pointer (&op->pending_error));
}

/* The unpack or the load failed: the folder the open made goes again
 * (never one that was there: mkdir made it), even after a cancel */
static void
load_remove_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *folder = g_object_get_data (G_OBJECT (task), "kiste-home-folder");
  g_auto(GStrv) argv = kiste_commands_remove_new_folder_argv (folder);
  g_autofree char *display = kiste_argv_to_display_string ((const char * const *) argv);

  kiste_task_append_line (op->ktask, display);
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS, NULL,
                          load_home_removed_cb, task);
}

static void
load_unpack_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *home_tar = g_object_get_data (G_OBJECT (task), "kiste-home-tar");
  const char *folder = g_object_get_data (G_OBJECT (task), "kiste-home-folder");
  g_auto(GStrv) argv = kiste_commands_unpack_home_argv (home_tar, folder);

  /* from here on a failure removes the new folder */
  op->recover = load_remove_home;
  kiste_task_set_step (op->ktask, _("Restoring the home folder"));
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, load_image);
}

/* The home, into a folder made new: mkdir fails on one that exists */
static void
load_make_home (GTask *task)
{
  const char *folder = g_object_get_data (G_OBJECT (task), "kiste-home-folder");
  g_auto(GStrv) argv = NULL;

  if (folder == NULL)
    {
      load_image (task);
      return;
    }
  argv = kiste_commands_make_folder_argv (folder);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, load_unpack_home);
}

static void
load_names_checked_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!kiste_boxfile_check_image_archive_finish (result, &error))
    _kiste_op_return (task, error);
  else
    load_make_home (task);
}

/* The names inside the image archive first: nothing is made or loaded
 * when it names anything but the index's image */
static void
load_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *image = g_object_get_data (G_OBJECT (task), "kiste-image");

  kiste_task_set_step (op->ktask, _("Checking the image’s names"));
  kiste_boxfile_check_image_archive_async (op->arg, _kiste_op_get_engine (task), image,
                                           _kiste_op_cancellable (task), load_names_checked_cb,
                                           task);
}

static const OpKind load_op = {
  N_("Loading the image"), N_("The image of “%s” was loaded"),
  N_("Could not load the image of “%s”"), OP_REQUIRE_NOTHING, TRUE, load_first
};

/* The box's settings as they were saved, with the new name and the image
 * the file carries */
static KisteCreateOptions *
dup_open_options (const KisteBoxfile  *boxfile,
                  const char          *name,
                  const char          *home_folder,
                  GError             **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  KisteAssembleEntry *entry;
  g_autoptr(KisteCreateOptions) options = NULL;

  if (!(entries = kiste_assemble_parse (boxfile->settings, -1, error)))
    return NULL;
  if (entries->len != 1)
    {
      kiste_set_invalid_input (error, _("The box file’s settings must hold one box."));
      return NULL;
    }
  entry = g_ptr_array_index (entries, 0);
  if (entry->error != NULL)
    {
      kiste_set_invalid_input (error, "%s", entry->error);
      return NULL;
    }
  options = kiste_create_options_copy (entry->options);
  kiste_create_options_set_name (options, name);
  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, boxfile->image);
  if (home_folder != NULL)
    kiste_create_options_set_home (options, home_folder);
  return g_steal_pointer (&options);
}

void
kiste_manager_open_boxfile_async (KisteManager          *self,
                                  const KisteBoxfile    *boxfile,
                                  const char            *name,
                                  const char            *home_folder,
                                  KisteCreationTaskFunc  task_func,
                                  gpointer               task_data,
                                  GCancellable          *cancellable,
                                  GAsyncReadyCallback    callback,
                                  gpointer               user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autofree char *problem = NULL;
  GError *error = NULL;
  OpenData *data;
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (boxfile != NULL && boxfile->image_path != NULL);

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, kiste_manager_open_boxfile_async);
  data = g_new0 (OpenData, 1);
  data->self = g_object_ref (self);
  data->boxfile = kiste_boxfile_copy (boxfile);
  data->name = g_strdup (name);
  data->home_folder = g_strdup (home_folder);
  data->task_func = task_func;
  data->task_data = task_data;
  g_task_set_task_data (outer, data, (GDestroyNotify) open_data_free);

  /* everything checked before anything runs */
  if (!kiste_boxfile_check (boxfile, &error))
    {
      g_task_return_error (outer, error);
      return;
    }
  if ((problem = kiste_manager_check_boxfile (self, boxfile, name)) != NULL)
    {
      g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "%s", problem);
      return;
    }
  if (home_folder != NULL)
    {
      g_autoptr(GError) local = NULL;

      if (boxfile->home_path == NULL)
        {
          g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "%s",
                                   _("The box file holds no home folder."));
          return;
        }
      if (!kiste_validate_home (home_folder, &local))
        {
          g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "%s",
                                   local->message);
          return;
        }
      if (g_file_test (home_folder, G_FILE_TEST_EXISTS) ||
          g_file_test (home_folder, G_FILE_TEST_IS_SYMLINK))
        {
          g_task_return_new_error (outer, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                   _("“%s” exists already: the home folder is restored only "
                                     "into a new folder."), home_folder);
          return;
        }
    }
  if (!(data->options = dup_open_options (boxfile, name, home_folder, &error)) ||
      !kiste_create_options_validate (data->options, NULL, &error))
    {
      g_task_return_error (outer, error);
      return;
    }

  /* the file's own engine, which kiste_manager_check_boxfile() found */
  data->ref = _kiste_manager_dup_new_ref (self, boxfile->engine, name);
  if (!(task = _kiste_op_prepare (self, &load_op, data->ref, kiste_manager_open_boxfile_async,
                                  cancellable, open_loaded_cb, g_object_ref (outer))))
    return;
  ((Op *) g_task_get_task_data (task))->arg = g_strdup (boxfile->image_path);
  if (home_folder != NULL)
    {
      g_object_set_data_full (G_OBJECT (task), "kiste-home-folder", g_strdup (home_folder),
                              g_free);
      g_object_set_data_full (G_OBJECT (task), "kiste-home-tar", g_strdup (boxfile->home_path),
                              g_free);
    }
  g_object_set_data_full (G_OBJECT (task), "kiste-image", g_strdup (boxfile->image), g_free);
  if (task_func != NULL)
    task_func (_kiste_op_get_ktask (task), KISTE_CREATION_STEP_CREATE, task_data);
  _kiste_op_go (task);
}
