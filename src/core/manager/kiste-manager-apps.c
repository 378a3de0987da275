/* kiste-manager-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's operations on a box's apps: listing them, putting them
 * and its programs in the host's app menu and taking them out (keeping the
 * user's own launchers), and the command that launches one. */

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
  argv = kiste_commands_list_apps_argv (kiste_box_source_get_engine (op->source),
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
static gboolean op_writes_own_launcher (GTask *task);
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
  g_auto(GStrv) run = NULL;
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
  /* in the box's own engine */
  run = _kiste_op_dup_argv (task, (const char * const *) argv);

  display = kiste_argv_to_display_string ((const char * const *) run);
  kiste_task_append_line (op->ktask, display);
  kiste_runner_run_async (op->self->runner, (const char * const *) run, SHORT_TIMEOUT_MS,
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

  /* Kiste wrote the launcher (a box without the home, or of another
   * engine); and distrobox must not enter a box it would run something of
   * on this computer: the file goes, nothing runs in the box */
  if ((op->flag && op_writes_own_launcher (task)) || !op_box_may_enter (task))
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
    g_auto(GStrv) run = NULL;
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

    /* in the box's own engine */
    run = _kiste_op_dup_argv (task, (const char * const *) argv);
    display = kiste_argv_to_display_string ((const char * const *) run);
    kiste_task_append_line (op->ktask, display);
    kiste_runner_run_async (op->self->runner, (const char * const *) run, SHORT_TIMEOUT_MS,
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
  KisteBox *box = kiste_box_list_find (op->self->boxes, op->ref);

  return box != NULL && kiste_box_get_unshare (box, KISTE_UNSHARE_HOME) == KISTE_SHARING_UNSHARED;
}

/* A box of another engine than distrobox's own choice: distrobox-export's
 * launcher would look for it in the wrong engine (it names no engine), so
 * Kiste writes one that does */
static gboolean
op_box_of_other_engine (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  return op->source != kiste_box_list_get_first_source (op->self->boxes);
}

/* Toolbx has no export: Kiste writes every launcher of a toolbox */
static gboolean
op_writes_own_launcher (GTask *task)
{
  return op_box_lacks_home (task) || op_box_of_other_engine (task) || _kiste_op_is_toolbox (task);
}

static gboolean
op_box_may_enter (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_list_find (op->self->boxes, op->ref);

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
  g_autofree char *engine = g_strconcat ("DBX_CONTAINER_MANAGER=",
                                         kiste_box_source_get_engine (op->source), NULL);
  const char *enter[] = { "/usr/bin/env", engine, op->program, "enter", "-n", op->box_name, "--", NULL };
  const char *run[] = { op->program, "run", "--container", op->box_name, "--", NULL };
  /* the engine is named when it is not the one distrobox picks itself;
   * Toolbx runs on podman only */
  const char * const *enter_argv = _kiste_op_is_toolbox (task) ? run
                                   : op_box_of_other_engine (task) ? enter : enter + 2;

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
                                             enter_argv, label, &error);
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
      _kiste_op_return (task, g_error_new_literal (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                                                   _kiste_op_is_toolbox (task)
                                                   ? _("Toolbx was not found on this computer.")
                                                   : _("distrobox was not found on this computer.")));
      return;
    }
  op->program = g_steal_pointer (&out);

  kiste_apps_list_exported_async (op->self->runner, op->box_name, op->self->applications_dir,
                                  op->self->bin_dir, _kiste_op_cancellable (task),
                                  export_own_listed_cb, task);
}

/* The launcher runs the host's own distrobox (or toolbox), by its path on
 * the host */
static void
export_own_find_distrobox (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char *argv[] = { "sh", "-c", _kiste_op_is_toolbox (task) ? "command -v toolbox" : "command -v distrobox",
                         NULL };

  kiste_runner_run_async (op->self->runner, argv, SHORT_TIMEOUT_MS, _kiste_op_cancellable (task),
                          export_own_found_cb, task);
}

static void
export_own_read (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteBox *box = kiste_box_list_find (op->self->boxes, op->ref);
  const char *user = box && kiste_box_get_user (box) ? kiste_box_get_user (box) : g_get_user_name ();
  g_autofree char *limit = g_strdup_printf ("%d", MAX_DESKTOP_ENTRY_BYTES);
  const char *argv[] = { kiste_box_source_get_engine (op->source), "exec", "--user", user,
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
  if (op->flag && op_writes_own_launcher (task))
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
    op->argv = is_app ? kiste_commands_export_app_argv (op->box_name, path, FALSE, &error)
                      : kiste_commands_export_bin_argv (op->box_name, path, self->bin_dir, FALSE, &error);
  /* distrobox's wrapper names no engine: it would look for the box in
   * the engine distrobox picks itself */
  if (op->argv != NULL && !is_app && !unexport && _kiste_op_is_toolbox (task))
    {
      g_clear_pointer (&op->argv, g_strfreev);
      error = g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("“%s” was made with Toolbx, which cannot do this."), op->box_name);
    }
  else if (op->argv != NULL && !is_app && !unexport && op_box_of_other_engine (task))
    {
      g_clear_pointer (&op->argv, g_strfreev);
      error = g_error_new (KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("Programs of boxes of %s cannot be exported while Kiste "
                             "works with %s: distrobox’s wrapper would look for "
                             "“%s” there."),
                           kiste_box_source_get_title (op->source),
                           kiste_box_source_get_title (kiste_box_list_get_first_source (self->boxes)),
                           op->box_name);
    }
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

  if (!kiste_validate_existing_name (_kiste_manager_resolve_box (self, box_name, NULL), NULL, error) ||
      !(app_argv = kiste_apps_dup_exec_argv (kiste_desktop_app_get_exec (app), error)))
    return NULL;

  /* people run what they copy: not for a box distrobox must not enter */
  box = kiste_box_list_find (self->boxes, box_name);
  if (box == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("There is no box named “%s”."), box_name);
      return NULL;
    }
  /* Toolbx evaluates nothing of the box on this computer */
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    argv = kiste_commands_toolbox_run_argv (kiste_box_get_name (box), (const char * const *) app_argv);
  else if (!kiste_box_check_enter_safe (box, error))
    return NULL;
  else
    argv = kiste_commands_launch_app_argv (kiste_box_get_name (box), (const char * const *) app_argv);
  {
    g_auto(GStrv) run = kiste_box_source_dup_argv (kiste_box_list_get_source_for_box (self->boxes, box),
                                                   (const char * const *) argv);

    return kiste_argv_to_display_string ((const char * const *) run);
  }
}
