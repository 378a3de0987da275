/* kiste-manager-boxfile-save.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Save to File as one operation, its steps side by side where they can
 * be: the home is packed into the file while the box is committed, then
 * the engine saves the committed image through a named pipe straight into
 * the file (docker, which renames its own file into place, through a file
 * in the cache, as both do where the cache cannot hold a pipe), then the
 * exported apps are listed and the file is closed. */

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kiste-assemble.h"
#include "kiste-boxfile-writer.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-boxfile-private.h"
#include "kiste-manager-boxfile.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"

#define HOME_PIPE  "home.pipe"
#define IMAGE_PIPE "image.pipe"

/* One side of the save running beside the operation's own command: its
 * command and its copy into the file, both to end before the next step */
typedef struct
{
  GCancellable *cancellable;
  /* a named pipe, or a file the copy starts on once it is written */
  char         *source;
  gboolean      piped;
  guint         pending;
  GError       *run_error;
  GError       *add_error;
  /* the output of its command: tar's complaint about a file */
  char         *stderr_text;
} Branch;

typedef struct
{
  KisteManager       *self;
  char               *folder;
  char               *engine;
  char               *image;
  gboolean            with_home;
  char               *home;
  KisteBoxfileWriter *writer;
  GCancellable       *op_cancellable;
  gulong              cancel_id;
  Branch              home_branch;
  Branch              image_branch;
  /* the commit ended and waits for the home */
  gboolean            committed;
  /* the operation ended: branches ending later only clean up */
  gboolean            over;
  guint64             image_size;
} SaveData;

static void
branch_clear (Branch *branch)
{
  if (branch->cancellable != NULL)
    g_cancellable_cancel (branch->cancellable);
  g_clear_object (&branch->cancellable);
  if (branch->piped)
    kiste_boxfile_writer_end_pipe (branch->source);
  g_clear_pointer (&branch->source, g_free);
  g_clear_error (&branch->run_error);
  g_clear_error (&branch->add_error);
  g_clear_pointer (&branch->stderr_text, g_free);
}

static void
save_data_free (SaveData *data)
{
  if (data->cancel_id != 0)
    g_cancellable_disconnect (data->op_cancellable, data->cancel_id);
  g_clear_object (&data->op_cancellable);
  branch_clear (&data->home_branch);
  branch_clear (&data->image_branch);
  /* a writer not closed removes its file once its last copy has ended */
  g_clear_object (&data->writer);
  _kiste_manager_remove_boxfile_folder (data->folder);
  g_clear_object (&data->self);
  g_free (data->folder);
  g_free (data->engine);
  g_free (data->image);
  g_free (data->home);
  g_free (data);
}

static SaveData *
save_data (GTask *task)
{
  return g_object_get_data (G_OBJECT (task), "kiste-save");
}

static char *
dup_saved_image (const char *box_name)
{
  g_autofree char *lower = g_ascii_strdown (box_name, -1);

  return g_strdup_printf ("localhost/kiste-saved/%s:latest", lower);
}

/* A branch's error: its copy's own (a full disk), else its command's,
 * else NULL; the branch keeps none */
static GError *
branch_take_error (Branch *branch)
{
  if (branch->add_error != NULL &&
      !g_error_matches (branch->add_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return g_steal_pointer (&branch->add_error);
  if (branch->run_error != NULL)
    return g_steal_pointer (&branch->run_error);
  return g_steal_pointer (&branch->add_error);
}

/* A copy's callback: its operation and its branch */
typedef struct
{
  GTask  *task;
  Branch *branch;
} BranchCall;

static void branch_added_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data);

/* Starts copying branch->source into the member name */
static void
branch_add (GTask                *task,
            Branch               *branch,
            const char           *name,
            KisteBoxfileProgress  progress)
{
  SaveData *data = save_data (task);
  BranchCall *call = g_new0 (BranchCall, 1);

  call->task = g_object_ref (task);
  call->branch = branch;
  branch->pending++;
  kiste_boxfile_writer_add_async (data->writer, name, branch->source, progress, task,
                                  branch->cancellable, branch_added_cb, call);
}

static gboolean pipes_allowed = TRUE;

void
_kiste_manager_boxfile_set_pipes_for_testing (gboolean allowed)
{
  pipes_allowed = allowed;
}

/* The branch's source: a named pipe where the cache can hold one (a file
 * system without them, such as some FUSE ones, cannot), else a file */
static void
branch_set_source (SaveData   *data,
                   Branch     *branch,
                   const char *pipe,
                   const char *file,
                   gboolean    pipe_wanted)
{
  branch->source = g_build_filename (data->folder, pipe, NULL);
  branch->piped = pipe_wanted && pipes_allowed && mkfifo (branch->source, 0600) == 0;
  if (!branch->piped)
    {
      g_free (branch->source);
      branch->source = g_build_filename (data->folder, file, NULL);
    }
}

/* Ends the operation with error: branches that end later only clean up */
static void
save_fail (GTask  *task,
           GError *error)
{
  save_data (task)->over = TRUE;
  _kiste_op_return (task, error);
}

static void save_after_commit (GTask *task);
static void save_image_done (GTask *task);

/* The end of the last */

static void
save_closed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!kiste_boxfile_writer_close_finish (KISTE_BOXFILE_WRITER (object), result, &error))
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
  SaveData *data = save_data (task);
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
  if (!(boxfile->settings = dup_settings (box, data->image, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  kiste_task_set_step (op->ktask, _("Writing the file"));
  kiste_task_set_fraction (op->ktask, -1);
  kiste_boxfile_writer_close_async (data->writer, boxfile, _kiste_op_cancellable (task),
                                    save_closed_cb, task);
}

static void
save_list_apps (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  kiste_task_set_step (op->ktask, _("Listing the exported apps"));
  kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                  NULL, _kiste_op_cancellable (task), save_listed_cb, task);
}

/* Both halves of a branch */

static void
branch_half_done (GTask  *task,
                  Branch *branch)
{
  SaveData *data = save_data (task);

  if (--branch->pending > 0 || data->over)
    return;
  if (branch == &data->home_branch)
    {
      /* the home waited for the commit, or the commit for it */
      if (data->committed)
        save_after_commit (task);
    }
  else
    save_image_done (task);
}

static void
branch_added_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autofree BranchCall *call = user_data;
  g_autoptr(GTask) task = call->task;
  Branch *branch = call->branch;
  GError *error = NULL;

  if (!kiste_boxfile_writer_add_finish (KISTE_BOXFILE_WRITER (object), result, &error))
    {
      g_clear_error (&branch->add_error);
      branch->add_error = error;
      /* its command may still wait for the pipe: it ends too */
      g_cancellable_cancel (branch->cancellable);
    }
  branch_half_done (task, branch);
}

/* The home: tar into its pipe, beside the commit */

static void home_progress (guint64  done,
                           guint64  total,
                           gpointer user_data);

static void
home_packed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SaveData *data = save_data (task);
  Op *op = g_task_get_task_data (task);
  Branch *branch = &data->home_branch;
  g_autofree char *err = NULL;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, &err, &error))
    {
      branch->run_error = error;
      branch->stderr_text = g_steal_pointer (&err);
      if (branch->stderr_text != NULL && *branch->stderr_text != '\0' && !data->over)
        kiste_task_append_line (op->ktask, g_strchomp (branch->stderr_text));
      /* the copy may still wait for a tar that never opened the pipe */
      g_cancellable_cancel (branch->cancellable);
    }
  else if (branch->piped)
    /* a tar that never opened the pipe must not leave the copy waiting */
    kiste_boxfile_writer_end_pipe (branch->source);
  else
    /* its file, copied now */
    branch_add (task, branch, KISTE_BOXFILE_HOME, home_progress);
  branch_half_done (task, branch);
}

static void
home_progress (guint64  done,
               guint64  total,
               gpointer user_data)
{
  SaveData *data = save_data (user_data);
  Op *op = g_task_get_task_data (user_data);

  /* shown once the commit is done and the home still goes on */
  if (data->committed && !data->over)
    {
      g_autofree char *size = g_format_size (done);
      /* Translators: the bytes of the home folder packed so far */
      g_autofree char *step = g_strdup_printf (_("Packing the home folder: %s"), size);

      kiste_task_set_step (op->ktask, step);
    }
}

static void
save_start_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = save_data (task);
  Branch *branch = &data->home_branch;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) run = NULL;
  g_autofree char *display = NULL;

  branch_set_source (data, branch, HOME_PIPE, KISTE_BOXFILE_HOME, TRUE);
  argv = kiste_commands_pack_home_argv (data->engine, data->home, branch->source);
  run = _kiste_op_dup_argv (task, (const char * const *) argv);
  display = kiste_argv_to_display_string ((const char * const *) run);
  kiste_task_append_line (op->ktask, display);

  if (branch->piped)
    branch_add (task, branch, KISTE_BOXFILE_HOME, home_progress);
  branch->pending++;
  kiste_runner_run_async (op->self->runner, (const char * const *) run, SAVE_TIMEOUT_MS,
                          branch->cancellable, home_packed_cb, g_object_ref (task));
}

/* tar could not read a file of the home: one of another user's (the box's
 * root's, with docker; one outside podman's mapping) */
static GError *
home_error (Branch *branch)
{
  GError *error = branch_take_error (branch);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
      branch->stderr_text != NULL && strstr (branch->stderr_text, "Permission denied") != NULL)
    {
      g_clear_error (&error);
      error = g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                           _("Some files in the box’s home folder cannot be read: they belong "
                             "to another user, such as the box’s own root. Save the box without "
                             "its home folder, or make those files yours first."));
    }
  return error;
}

/* The image: the engine saves it into its pipe (or its file) */

static void
image_progress (guint64  done,
                guint64  total,
                gpointer user_data)
{
  SaveData *data = save_data (user_data);
  Op *op = g_task_get_task_data (user_data);

  if (data->over)
    return;
  if (data->image_size > 0)
    kiste_task_set_bytes (op->ktask, _("Saving the image"), done, data->image_size);
  else
    {
      g_autofree char *size = g_format_size (done);
      /* Translators: the bytes of the image saved so far */
      g_autofree char *step = g_strdup_printf (_("Saving the image: %s"), size);

      kiste_task_set_step (op->ktask, step);
    }
}

static void
image_sized_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SaveData *data = save_data (task);
  g_autofree char *out = NULL;

  /* best effort: without it the progress shows no total */
  if (kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, NULL) && out != NULL)
    data->image_size = g_ascii_strtoull (g_strstrip (out), NULL, 10);
}

/* The save's command ended, or failed: op->recover */
static void
image_failed (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = save_data (task);
  Branch *branch = &data->image_branch;

  branch->run_error = g_steal_pointer (&op->pending_error);
  g_cancellable_cancel (branch->cancellable);
  branch_half_done (task, branch);
}

static void
image_saved (GTask *task)
{
  SaveData *data = save_data (task);
  Branch *branch = &data->image_branch;
  Op *op = g_task_get_task_data (task);

  op->recover = NULL;
  if (branch->piped)
    /* an engine that never opened the pipe must not leave the copy waiting */
    kiste_boxfile_writer_end_pipe (branch->source);
  else
    /* its file, copied now */
    branch_add (task, branch, KISTE_BOXFILE_IMAGE, image_progress);
  branch_half_done (task, branch);
}

static void
save_image (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = save_data (task);
  Branch *branch = &data->image_branch;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) size_argv = kiste_commands_image_field_argv (data->engine, data->image,
                                                             "{{.Size}}");
  g_auto(GStrv) size_run = _kiste_op_dup_argv (task, (const char * const *) size_argv);

  /* docker renames a file of its own over the path it is given */
  branch_set_source (data, branch, IMAGE_PIPE, KISTE_BOXFILE_IMAGE,
                     !g_str_equal (data->engine, "docker"));
  if (branch->piped)
    branch_add (task, branch, KISTE_BOXFILE_IMAGE, image_progress);
  /* the image's size, for the progress, while it is saved */
  kiste_runner_run_async (op->self->runner, (const char * const *) size_run, SHORT_TIMEOUT_MS,
                          branch->cancellable, image_sized_cb, g_object_ref (task));

  argv = kiste_commands_save_image_argv (data->engine, data->image, branch->source);
  kiste_task_set_step (op->ktask, _("Saving the image"));
  kiste_task_set_fraction (op->ktask, -1);
  branch->pending++;
  op->recover = image_failed;
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, image_saved);
}

static void
save_image_done (GTask *task)
{
  SaveData *data = save_data (task);
  GError *error = branch_take_error (&data->image_branch);

  if (error != NULL)
    {
      save_fail (task, error);
      return;
    }
  g_unlink (data->image_branch.source);
  save_list_apps (task);
}

/* The commit, and the home beside it */

static void
save_after_commit (GTask *task)
{
  SaveData *data = save_data (task);
  GError *error = home_error (&data->home_branch);

  if (error != NULL)
    {
      save_fail (task, error);
      return;
    }
  if (data->home_branch.source != NULL)
    g_unlink (data->home_branch.source);
  save_image (task);
}

static void
save_committed (GTask *task)
{
  SaveData *data = save_data (task);
  Op *op = g_task_get_task_data (task);

  op->recover = NULL;
  data->committed = TRUE;
  if (data->home_branch.pending > 0)
    {
      kiste_task_set_step (op->ktask, _("Packing the home folder"));
      kiste_task_set_fraction (op->ktask, -1);
      return;
    }
  save_after_commit (task);
}

/* The commit failed: the home stops too */
static void
commit_failed (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = save_data (task);

  g_cancellable_cancel (data->home_branch.cancellable);
  save_fail (task, g_steal_pointer (&op->pending_error));
}

static void
cancel_branches (GCancellable *cancellable,
                 SaveData     *data)
{
  g_cancellable_cancel (data->home_branch.cancellable);
  g_cancellable_cancel (data->image_branch.cancellable);
}

static void
save_first (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  SaveData *data = save_data (task);
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
  if (!(data->folder = kiste_manager_make_boxfile_folder (op->self, &error)) ||
      !(data->writer = kiste_boxfile_writer_new (op->arg, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }
  /* the operation's cancel reaches the branches */
  data->home_branch.cancellable = g_cancellable_new ();
  data->image_branch.cancellable = g_cancellable_new ();
  data->op_cancellable = g_object_ref (_kiste_op_cancellable (task));
  data->cancel_id = g_cancellable_connect (data->op_cancellable, G_CALLBACK (cancel_branches),
                                           data, NULL);
  if (data->home != NULL)
    save_start_home (task);

  argv = kiste_commands_commit_argv (data->engine, op->box_name, data->image);
  kiste_task_set_step (op->ktask, _("Committing the box’s changes"));
  op->recover = commit_failed;
  _kiste_op_run (task, (const char * const *) argv, SAVE_TIMEOUT_MS, TRUE, save_committed);
}

static const OpKind save_op = {
  N_("Saving to a file"), N_("“%s” was saved to a file"), N_("Could not save “%s” to a file"),
  OP_REQUIRE_DETAILS, TRUE, save_first
};

static void
save_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  SaveData *data = g_task_get_task_data (outer);
  GError *error = NULL;

  data->over = TRUE;
  /* nothing left in the cache, also while a branch or the image's size
   * still ends */
  _kiste_manager_remove_boxfile_folder (data->folder);
  /* the committed image is only a step on the way */
  if (data->image != NULL)
    {
      g_auto(GStrv) argv = kiste_commands_remove_image_argv (data->engine, data->image);

      _kiste_manager_remove_boxfile_image (data->self, (const char * const *) argv);
    }
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      /* no file left, also while a branch still ends */
      if (data->writer != NULL)
        kiste_boxfile_writer_abort (data->writer);
      g_task_return_error (outer, error);
    }
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
  /* the branches may end after the operation: the data lives until then */
  g_object_set_data_full (G_OBJECT (task), "kiste-save-outer", g_object_ref (outer),
                          g_object_unref);
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
