/* kiste-manager-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's operations on a box's apps: listing them, putting them in
 * the host's app menu and taking them out (keeping the user's own
 * launchers), the box's own launcher, launching an app. */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "kiste-apps.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-isolated-home.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"
#include "kiste-validate.h"

/* Apps */

static void
list_apps_exported_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) exported = NULL;
  g_autoptr(GError) error = NULL;

  if (!(exported = kiste_apps_list_exported_finish (result, &error)))
    {
      _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  kiste_apps_mark_exported (op->apps, exported);
  _kiste_op_return (g_steal_pointer (&task), NULL);
}

/* Parsing a big listing (hundreds of apps and their icons) takes longer
 * than a frame: it runs in a worker thread */
typedef struct
{
  char *output;
  char *locale;
} ParseListing;

static void
parse_listing_free (ParseListing *data)
{
  g_free (data->output);
  g_free (data->locale);
  g_free (data);
}

static void
list_apps_parse_thread (GTask        *parse,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  ParseListing *data = task_data;
  GError *error = NULL;
  GPtrArray *apps = kiste_apps_parse_listing (data->output, data->locale, &error);

  if (apps == NULL)
    g_task_return_error (parse, error);
  else
    g_task_return_pointer (parse, apps, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_apps_parsed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  GCancellable *cancellable;
  GError *error = NULL;

  if (!(op->apps = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      _kiste_op_return (g_steal_pointer (&task), error);
      return;
    }

  cancellable = _kiste_op_cancellable (task);
  kiste_apps_list_exported_async (op->self->runner, op->box_name,
                                  op->self->applications_dir,
                                  op->self->bin_dir,
                                  cancellable,
                                  list_apps_exported_cb,
                                  g_steal_pointer (&task));
}

static void
list_apps_parse (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(GTask) parse = g_task_new (NULL, _kiste_op_cancellable (task), list_apps_parsed_cb, task);
  ParseListing *data = g_new0 (ParseListing, 1);

  data->output = g_steal_pointer (&op->output);
  data->locale = g_strdup (g_get_language_names ()[0]);
  g_task_set_source_tag (parse, list_apps_parse);
  g_task_set_task_data (parse, data, (GDestroyNotify) parse_listing_free);
  g_task_run_in_thread (parse, list_apps_parse_thread);
}

static void
list_apps_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) dirs = NULL;
  g_auto(GStrv) argv = NULL;
  KisteBox *box;

  if (!(box = _kiste_op_require_box (task)))
    {
      g_object_unref (task);
      return;
    }

  dirs = kiste_commands_dup_app_dirs (box);
  argv = kiste_commands_list_apps_argv (kiste_manager_get_engine (op->self),
                                        op->box_name,
                                        kiste_box_get_user (box) ? kiste_box_get_user (box)
                                                                 : g_get_user_name (),
                                        (const char * const *) dirs);
  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE, list_apps_parse);
}

/* The listing runs inside the box, which must be up and set up */
static const OpKind list_apps_op = {
  N_("Looking for apps"), NULL, N_("Could not list the apps of “%s”"),
  OP_REQUIRE_RUNNING, FALSE, list_apps_run,
};

KisteTask *
kiste_manager_list_apps_async (KisteManager        *self,
                               const char          *box_name,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  return _kiste_op_launch (self, &list_apps_op, box_name, kiste_manager_list_apps_async,
                           cancellable, callback, user_data);
}


/* Export */

static void
unexport_app_restored_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  GError *error = g_steal_pointer (&op->pending_error);
  g_autoptr(GError) restore_error = NULL;

  if (!kiste_apps_restore_user_launcher_finish (result, &restore_error))
    {
      g_autofree char *id = g_path_get_basename (op->arg);

      g_clear_error (&error);
      error = g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                           _("Your own launcher “%s” could not be put back; it is kept as “%s”: %s"),
                           id, op->home, restore_error->message);
    }

  _kiste_op_return (task, error);
}

/* After distrobox-export --delete: the kept launcher goes back, whatever
 * happened */
static gboolean op_box_lacks_home (GTask *task);
static gboolean op_box_may_enter  (GTask *task);

static void
unexport_app_finish (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *id = g_path_get_basename (op->arg);

  if (op->home == NULL)
    {
      _kiste_op_return (task, g_steal_pointer (&op->pending_error));
      return;
    }

  kiste_apps_restore_user_launcher_async (op->self->runner, op->home, op->self->applications_dir, id,
                                          unexport_app_restored_cb, task);
}

static void
unexport_app_removed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* distrobox-export's failure stays in the task's output; the launcher is
   * gone either way */
  if (kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    g_clear_error (&op->pending_error);
  else if (op->pending_error != NULL)
    kiste_task_append_line (op->ktask, op->pending_error->message);
  unexport_app_finish (task);
}

static void
unexport_app_deleted_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autofree char *stdout_buf = NULL;
  g_autofree char *stderr_buf = NULL;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, &stderr_buf, &error))
    {
      if (stdout_buf != NULL && *stdout_buf)
        kiste_task_append_line (op->ktask, g_strchomp (stdout_buf));
      if (stderr_buf != NULL && *stderr_buf)
        kiste_task_append_line (op->ktask, g_strchomp (stderr_buf));
      op->pending_error = error;

      /* The app may be gone from the box (distrobox-export needs its file)
       * or the box may not start: our own launcher still goes */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && op->output != NULL)
        {
          const char *argv[] = { "rm", "-f", "--", op->output, NULL };
          g_autofree char *display = kiste_argv_to_display_string (argv);

          kiste_task_append_line (op->ktask, display);
          kiste_runner_run_async (op->self->runner, argv, SHORT_TIMEOUT_MS, NULL,
                                  unexport_app_removed_cb, task);
          return;
        }
    }

  unexport_app_finish (task);
}

static void
unexport_app_kept_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autofree char *id = g_path_get_basename (op->arg);
  g_autofree char *display = NULL;
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  op->home = kiste_apps_keep_user_launcher_finish (result, &error);
  if (error != NULL)
    {
      g_autoptr(GError) keep_error = error;

      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                    _("Your own launcher “%s” could not be kept safe, so nothing "
                                      "was removed: %s"),
                                    id, keep_error->message));
      return;
    }

  if (op->home != NULL)
    kiste_task_append_line (op->ktask,
                            _("Your own launcher of the same name is kept aside while distrobox "
                              "removes the box’s."));

  if (!(argv = kiste_commands_export_app_argv (op->box_name, op->arg, TRUE, &error)))
    {
      op->pending_error = error;
      unexport_app_finish (task);
      return;
    }

  display = kiste_argv_to_display_string ((const char * const *) argv);
  kiste_task_append_line (op->ktask, display);
  kiste_runner_run_async (op->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS,
                          _kiste_op_cancellable (task), unexport_app_deleted_cb, task);
}

static void
unexport_listed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *basename = g_path_get_basename (op->arg);
  const char *path = NULL;

  if (!(files = kiste_apps_list_exported_finish (result, &error)))
    {
      _kiste_op_return (g_steal_pointer (&task), g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; i < files->len && path == NULL; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);

      if (op->flag && file->kind == KISTE_EXPORTED_APP &&
          g_strcmp0 (file->source, basename) == 0)
        path = file->path;
      else if (!op->flag && file->kind == KISTE_EXPORTED_BINARY &&
               (g_strcmp0 (file->source, op->arg) == 0 || g_strcmp0 (file->name, basename) == 0))
        path = file->path;
    }

  if (path == NULL)
    {
      _kiste_op_return (g_steal_pointer (&task),
                        g_error_new (KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                              _("“%s” is not exported from “%s”."), basename, op->box_name));
      return;
    }

  /* Kiste wrote the launcher of a box without the home; and distrobox
   * must not enter a box it would run something of on this computer: the
   * file goes, nothing runs in the box */
  if ((op->flag && op_box_lacks_home (task)) || !op_box_may_enter (task))
    {
      const char *rm_argv[] = { "rm", "-f", "--", path, NULL };

      _kiste_op_run (g_steal_pointer (&task), rm_argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
      return;
    }

  if (op->flag)
    {
      /* distrobox-export --delete also takes the icons it copied, but
       * removes a same-named launcher of the user's too: that one is kept
       * aside first */
      GCancellable *cancellable = _kiste_op_cancellable (task);

      g_set_str (&op->output, path);
      kiste_apps_keep_user_launcher_async (op->self->runner, op->self->applications_dir, basename,
                                           cancellable, unexport_app_kept_cb,
                                           g_steal_pointer (&task));
      return;
    }

  g_set_str (&op->output, path);
  {
    /* distrobox-export --bin PROGRAM --delete, with the program the wrapper
     * names; when the box cannot (the program is gone from it, the box
     * does not start) Kiste removes the wrapper it found by its marker,
     * and nothing else */
    g_auto(GStrv) argv = NULL;
    g_autofree char *display = NULL;
    g_autofree char *source = NULL;
    GError *local_error = NULL;
    GCancellable *cancellable = _kiste_op_cancellable (task);

    for (guint i = 0; i < files->len; i++)
      {
        KisteExportedFile *file = g_ptr_array_index (files, i);

        if (g_strcmp0 (file->path, path) == 0)
          source = g_strdup (file->source);
      }

    if (source != NULL)
      argv = kiste_commands_export_bin_argv (op->box_name, source, op->self->bin_dir, TRUE, &local_error);
    if (argv == NULL)
      {
        const char *rm_argv[] = { "rm", "-f", "--", path, NULL };

        g_clear_error (&local_error);
        _kiste_op_run (g_steal_pointer (&task), rm_argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
        return;
      }

    display = kiste_argv_to_display_string ((const char * const *) argv);
    kiste_task_append_line (op->ktask, display);
    kiste_runner_run_async (op->self->runner, (const char * const *) argv, SHORT_TIMEOUT_MS,
                            cancellable, unexport_app_deleted_cb, g_steal_pointer (&task));
  }
}

/* A box without the home: distrobox-export there could not write to the
 * host's app menu, and whatever the box writes is its own. Kiste reads the
 * app's desktop entry from the box and writes the launcher itself
 * (kiste_apps_build_host_launcher()), entering the box through the
 * host's own distrobox. */

/* The largest desktop entry read from a box */
#define MAX_DESKTOP_ENTRY_BYTES (256 * 1024)

static gboolean
op_box_lacks_home (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);

  return box != NULL && kiste_box_get_unshare (box, KISTE_UNSHARE_HOME) == KISTE_SHARING_UNSHARED;
}

static gboolean
op_box_may_enter (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);

  return box != NULL && kiste_box_check_enter_safe (box, NULL);
}

static char *
op_launcher_name (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autofree char *base = g_path_get_basename (op->arg);

  /* distrobox-export's own name for it */
  return g_strdup_printf ("%s-%s", op->box_name, base);
}

static void
export_own_written_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  kiste_apps_write_host_launcher_finish (result, &error);
  _kiste_op_return (task, error);
}

static void
export_own_listed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *name = op_launcher_name (task);
  g_autofree char *path = g_build_filename (op->self->applications_dir, name, NULL);
  g_autofree char *id = g_path_get_basename (op->arg);
  g_autofree char *label = g_strdup_printf (" (on %s)", op->box_name);
  g_autofree char *launcher = NULL;
  gboolean replace = FALSE;
  GError *error = NULL;
  const char *enter[] = { op->program, "enter", "-n", op->box_name, "--", NULL };

  if (!(files = kiste_apps_list_exported_finish (result, &error)))
    {
      _kiste_op_return (task, error);
      return;
    }

  /* only the box's own launcher of that name is replaced */
  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);

      if (file->kind == KISTE_EXPORTED_APP && g_strcmp0 (file->path, path) == 0)
        replace = TRUE;
    }

  launcher = kiste_apps_build_host_launcher (id, op->output ? op->output : "",
                                             op->output ? strlen (op->output) : 0,
                                             enter, label, &error);
  if (launcher == NULL)
    {
      _kiste_op_return (task, error);
      return;
    }

  kiste_task_append_line (op->ktask, _("Writing the launcher to this computer’s app menu"));
  kiste_apps_write_host_launcher_async (op->self->runner, op->self->applications_dir, name, launcher,
                                        replace, _kiste_op_cancellable (task),
                                        export_own_written_cb, task);
}

static void
export_own_found_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GTask *task = user_data;
  Op *op = g_task_get_task_data (task);
  g_autofree char *out = NULL;
  GError *error = NULL;
  char *newline;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    {
      _kiste_op_return (task, error);
      return;
    }

  if ((newline = strchr (out, '\n')) != NULL)
    *newline = '\0';
  if (!g_path_is_absolute (out) || !g_utf8_validate (out, -1, NULL))
    {
      _kiste_op_return (task, g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                                           _("distrobox was not found on this computer.")));
      return;
    }
  op->program = g_steal_pointer (&out);

  kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                  op->self->bin_dir, _kiste_op_cancellable (task),
                                  export_own_listed_cb, task);
}

/* The launcher runs the host's own distrobox, by its path on the host */
static void
export_own_find_distrobox (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *argv[] = { "sh", "-c", "command -v distrobox", NULL };

  kiste_runner_run_async (op->self->runner, argv, SHORT_TIMEOUT_MS, _kiste_op_cancellable (task),
                          export_own_found_cb, task);
}

static void
export_own_read (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_store_find_by_name (op->self->store, op->box_name);
  const char *user = box && kiste_box_get_user (box) ? kiste_box_get_user (box) : g_get_user_name ();
  g_autofree char *limit = g_strdup_printf ("%d", MAX_DESKTOP_ENTRY_BYTES);
  const char *argv[] = { kiste_manager_get_engine (op->self), "exec", "--user", user,
                         op->box_name, "head", "-c", limit, "--", op->arg, NULL };

  _kiste_op_run (task, argv, SHORT_TIMEOUT_MS, FALSE, export_own_find_distrobox);
}

static void
export_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (op->unexport)
    {
      kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                      op->self->bin_dir, _kiste_op_cancellable (task), unexport_listed_cb, task);
      return;
    }
  if (op->flag && op_box_lacks_home (task))
    {
      _kiste_op_require_running (task, export_own_read);
      return;
    }
  _kiste_op_run (task, (const char * const *) op->argv, SHORT_TIMEOUT_MS, FALSE, _kiste_op_done);
}

/* An export goes through distrobox enter, and so does the launcher or
 * wrapper it writes; taking one out may do without. Indexed by
 * [is_app][unexport]. */
static const OpKind export_ops[2][2] = {
  {
    { N_("Exporting a program"), N_("The program was exported"), N_("Could not export the program"),
      OP_REQUIRE_SAFE_ENTER, FALSE, export_run },
    { N_("Removing a program"), N_("The program was removed"), N_("Could not remove the program"),
      OP_REQUIRE_DETAILS, FALSE, export_run },
  },
  {
    { N_("Adding to the app menu"), N_("Added to the app menu"), N_("Could not add the app to the app menu"),
      OP_REQUIRE_SAFE_ENTER, FALSE, export_run },
    { N_("Removing from the app menu"), N_("Removed from the app menu"),
      N_("Could not remove the app from the app menu"),
      OP_REQUIRE_DETAILS, FALSE, export_run },
  },
};

static KisteTask *
export_common (KisteManager        *self,
               const char          *box_name,
               const char          *path,
               gboolean             is_app,
               gboolean             unexport,
               gpointer             source_tag,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  GTask *task;
  Op *op;

  if (!(task = _kiste_op_prepare (self, &export_ops[!!is_app][!!unexport], box_name, source_tag,
                                  cancellable, callback, user_data)))
    return NULL;
  op = g_task_get_task_data (task);
  op->arg = g_strdup (path);
  op->flag = !!is_app;
  op->unexport = !!unexport;

  if (kiste_validate_absolute_path (is_app ? _("The application file") : _("The program"), path, &error))
    op->argv = is_app ? kiste_commands_export_app_argv (box_name, path, FALSE, &error)
                      : kiste_commands_export_bin_argv (box_name, path, self->bin_dir, FALSE, &error);
  if (op->argv == NULL)
    {
      KisteTask *ktask = op->ktask;

      _kiste_op_return (task, g_steal_pointer (&error));
      return ktask;
    }

  return _kiste_op_go (task);
}

KisteTask *
kiste_manager_export_app_async (KisteManager        *self,
                                const char          *box_name,
                                const char          *desktop_path,
                                gboolean             unexport,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);
  g_return_val_if_fail (desktop_path != NULL, NULL);

  return export_common (self, box_name, desktop_path, TRUE, unexport,
                        kiste_manager_export_app_async, cancellable, callback, user_data);
}

KisteTask *
kiste_manager_export_binary_async (KisteManager        *self,
                                   const char          *box_name,
                                   const char          *binary_path,
                                   gboolean             unexport,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);
  g_return_val_if_fail (binary_path != NULL, NULL);

  return export_common (self, box_name, binary_path, FALSE, unexport,
                        kiste_manager_export_binary_async, cancellable, callback, user_data);
}

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

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  if (!(task = _kiste_op_prepare (self, &box_entry_ops[!!present], box_name,
                                  kiste_manager_set_box_entry_async, cancellable, callback, user_data)))
    return NULL;

  if (!kiste_validate_existing_name (box_name, NULL, &error))
    {
      KisteTask *ktask = _kiste_op_get_ktask (task);

      _kiste_op_return (task, g_steal_pointer (&error));
      return ktask;
    }
  return _kiste_op_go (task);
}

/* Launch */

char *
kiste_manager_dup_launch_command (KisteManager     *self,
                                  const char       *box_name,
                                  KisteDesktopApp  *app,
                                  GError          **error)
{
  g_auto(GStrv) app_argv = NULL;
  g_auto(GStrv) argv = NULL;
  KisteBox *box;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (app), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!kiste_validate_existing_name (box_name, NULL, error) ||
      !(app_argv = kiste_apps_dup_exec_argv (kiste_desktop_app_get_exec (app), error)))
    return NULL;

  /* people run what they copy: not for a box distrobox must not enter */
  box = kiste_box_store_find_by_name (self->store, box_name);
  if (box == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("There is no box named “%s”."), box_name);
      return NULL;
    }
  if (!kiste_box_check_enter_safe (box, error))
    return NULL;

  argv = kiste_commands_launch_app_argv (box_name, (const char * const *) app_argv);
  return kiste_argv_to_display_string ((const char * const *) argv);
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
  kiste_apps_list_exported_async (self->runner, box_name, self->applications_dir, self->bin_dir,
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

  box = kiste_box_store_find_by_name (self->store, box_name);
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

  argv = kiste_commands_resolve_program_argv (kiste_manager_get_engine (self), box_name,
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
  KisteBoxStore *store = op->self->store;

  /* Without the list of boxes every export would look left behind */
  if (!kiste_box_store_get_loaded (store) || kiste_box_store_get_error (store) != NULL)
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
