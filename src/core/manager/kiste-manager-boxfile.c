/* kiste-manager-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files through the manager: reading one, and Open Box File as a
 * load, then the create and first start of any new box, then the apps
 * exported again, each step a KisteTask (Save to File is
 * kiste-manager-boxfile-save.c). */

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "kiste-assemble.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-boxfile-private.h"
#include "kiste-manager-boxfile.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-validate.h"

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

static void
image_removed_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(KisteManager) self = user_data;

  kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, NULL);
  _kiste_manager_cleanup_end (self);
}

void
_kiste_manager_remove_boxfile_image (KisteManager       *self,
                                     const char * const *argv)
{
  _kiste_manager_cleanup_begin (self);
  kiste_runner_run_async (self->runner, argv, SHORT_TIMEOUT_MS, NULL, image_removed_cb,
                          g_object_ref (self));
}

/* Removes what a box file left in a folder of the cache, then the folder */
void
_kiste_manager_remove_boxfile_folder (const char *folder)
{
  const char *names[] = { KISTE_BOXFILE_IMAGE, KISTE_BOXFILE_HOME, "image.pipe", "home.pipe",
                          NULL };

  if (folder == NULL)
    return;
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (folder, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
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
    _kiste_manager_remove_boxfile_folder (data->folder);
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

  if (!kiste_boxfile_check_image_archive_finish (result, NULL, &error))
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

/* The home is unpacked while the image loads: both must end before the
 * operation goes on or fails */
typedef struct
{
  /* podman pulls a docker archive instead of loading it, then says
   * which image has the index's name: the id it pulled, or a fault */
  gboolean  pull;
  char     *pulled_id;
  gboolean  unpacking;
  gboolean  loaded;
  gboolean  load_ended;
  GError   *load_error;
  GError   *unpack_error;
} LoadState;

static void
load_state_free (LoadState *state)
{
  g_clear_error (&state->load_error);
  g_clear_error (&state->unpack_error);
  g_free (state->pulled_id);
  g_free (state);
}

static LoadState *
load_state (GTask *task)
{
  return g_object_get_data (G_OBJECT (task), "kiste-load-state");
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
 * (never one that was there: mkdir made it), even after a cancel, and an
 * image loaded all the same goes too */
static void
load_fail (GTask  *task,
           GError *error)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  const char *folder = g_object_get_data (G_OBJECT (task), "kiste-home-folder");
  const char *image = g_object_get_data (G_OBJECT (task), "kiste-image");
  g_auto(GStrv) argv = NULL;
  g_autofree char *display = NULL;

  if (state->loaded)
    {
      g_auto(GStrv) rmi = kiste_commands_remove_image_argv (_kiste_op_get_engine (task), image);
      g_auto(GStrv) run = _kiste_op_dup_argv (task, (const char * const *) rmi);

      /* a box may use an image of that name already: then it stays */
      _kiste_manager_remove_boxfile_image (op->self, (const char * const *) run);
    }
  if (folder == NULL)
    {
      _kiste_op_return (task, error);
      return;
    }
  g_clear_error (&op->pending_error);
  op->pending_error = error;
  argv = kiste_commands_remove_new_folder_argv (folder);
  display = kiste_argv_to_display_string ((const char * const *) argv);
  kiste_task_append_line (op->ktask, display);
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS, NULL,
                          load_home_removed_cb, task);
}

/* Both ended: the image must come back under the name the index gives,
 * the one the box is created from */
static void
load_join (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  const char *image = g_object_get_data (G_OBJECT (task), "kiste-image");
  GError *error = NULL;

  if (state->unpacking || !state->load_ended)
    return;
  /* a pull was checked when it ended */
  if (state->load_error == NULL && state->unpack_error == NULL && !state->pull &&
      !kiste_boxfile_check_loaded (op->output, image, &error))
    state->load_error = error;
  if (state->load_error != NULL || state->unpack_error != NULL)
    {
      load_fail (task, state->load_error != NULL ? g_steal_pointer (&state->load_error)
                                                 : g_steal_pointer (&state->unpack_error));
      return;
    }
  _kiste_op_done (task);
}

static void load_failed (GTask *task);

static void
load_ended (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  const char *image = g_object_get_data (G_OBJECT (task), "kiste-image");
  GError *error = NULL;

  op->recover = NULL;
  state->loaded = TRUE;
  if (state->pull && state->pulled_id == NULL)
    {
      g_auto(GStrv) argv = NULL;

      if (!(state->pulled_id = kiste_boxfile_parse_image_id (op->output, image, NULL, &error)))
        {
          state->load_error = error;
          state->load_ended = TRUE;
          load_join (task);
          return;
        }
      /* the pull names only the id: the index's name must be that image */
      argv = kiste_commands_image_field_argv (_kiste_op_get_engine (task), image, "{{.Id}}");
      op->recover = load_failed;
      _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, load_ended);
      return;
    }
  if (state->pull)
    {
      g_autofree char *id = kiste_boxfile_parse_image_id (op->output, image, state->pulled_id,
                                                          &error);

      if (id == NULL)
        state->load_error = error;
    }
  state->load_ended = TRUE;
  load_join (task);
}

/* op->recover of the load */
static void
load_failed (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);

  state->load_error = g_steal_pointer (&op->pending_error);
  state->load_ended = TRUE;
  load_join (task);
}

/* On the file's own engine: the load op's source is that engine's.
 * `podman load` first unpacks the whole archive into a temporary folder
 * to try it as an OCI archive; a pull from the docker archive reads it in
 * place. */
static void
load_image (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  const char *engine = _kiste_op_get_engine (task);
  g_auto(GStrv) argv = NULL;

  state->pull = state->pull && g_str_equal (engine, "podman") && strchr (op->arg, ':') == NULL;
  if (state->pull)
    argv = kiste_commands_pull_archive_argv (engine, op->arg);
  else
    argv = kiste_commands_load_image_argv (engine, op->arg);

  kiste_task_set_step (op->ktask, _("Loading the image"));
  kiste_task_set_fraction (op->ktask, -1);
  op->recover = load_failed;
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, FALSE, load_ended);
}

static void
home_unpacked_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  g_autofree char *err = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, &err, &state->unpack_error) &&
      err != NULL && *err != '\0')
    kiste_task_append_line (op->ktask, g_strchomp (err));
  state->unpacking = FALSE;
  load_join (task);
}

/* The home into the new folder, beside the load */
static void
load_unpack_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  LoadState *state = load_state (task);
  const char *home_tar = g_object_get_data (G_OBJECT (task), "kiste-home-tar");
  const char *folder = g_object_get_data (G_OBJECT (task), "kiste-home-folder");
  g_auto(GStrv) argv = kiste_commands_unpack_home_argv (home_tar, folder);
  g_auto(GStrv) run = _kiste_op_dup_argv (task, (const char * const *) argv);
  g_autofree char *display = kiste_argv_to_display_string ((const char * const *) run);

  kiste_task_append_line (op->ktask, display);
  state->unpacking = TRUE;
  kiste_runner_run_async (op->self->runner, (const char * const *) run, SAVE_TIMEOUT_MS,
                          _kiste_op_cancellable (task), home_unpacked_cb, g_object_ref (task));
  load_image (task);
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

  if (!kiste_boxfile_check_image_archive_finish (result, &load_state (task)->pull, &error))
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
  g_object_set_data_full (G_OBJECT (task), "kiste-load-state", g_new0 (LoadState, 1),
                          (GDestroyNotify) load_state_free);
  if (task_func != NULL)
    task_func (_kiste_op_get_ktask (task), KISTE_CREATION_STEP_CREATE, task_data);
  _kiste_op_go (task);
}
