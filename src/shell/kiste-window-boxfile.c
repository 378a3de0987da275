/* kiste-window-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Open Box File: a .kistebox chosen, opened with Kiste or dropped is read
 * and checked completely first (kiste_boxfile_read_async()); then a
 * preview says what it holds and what will be made, asks for another name
 * when the box's own is taken, and the manager makes the box. */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-error.h"
#include "kiste-manager-boxfile.h"
#include "kiste-portal.h"
#include "kiste-validate.h"
#include "kiste-window-private.h"

static void
toast (KisteWindow *self,
       const char  *title)
{
  AdwToast *item = adw_toast_new (title);

  adw_toast_set_use_markup (item, FALSE);
  adw_toast_overlay_add_toast (self->toast_overlay, item);
}

static void
remove_folder (const char *folder)
{
  const char *names[] = { KISTE_BOXFILE_IMAGE, KISTE_BOXFILE_HOME, NULL };

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = g_build_filename (folder, names[i], NULL);

      g_unlink (path);
    }
  g_rmdir (folder);
}

typedef struct
{
  KisteWindow  *self;
  KisteBoxfile *boxfile;
  char         *folder;
  char         *file_name;
  AdwEntryRow  *name_row;
  AdwActionRow *home_row;
  /* where the file's home folder is restored, or NULL: not restored */
  char         *home_folder;
  GtkLabel     *problem;
} Preview;

static void
preview_free (Preview *preview)
{
  if (preview->folder != NULL)
    remove_folder (preview->folder);
  g_clear_object (&preview->self);
  kiste_boxfile_free (preview->boxfile);
  g_free (preview->folder);
  g_free (preview->file_name);
  g_free (preview->home_folder);
  g_free (preview);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Preview *preview = user_data;
  g_autoptr(GError) error = NULL;

  /* each step's task says how it ended; only what failed before any of
   * them began needs saying here */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error) &&
      g_error_matches (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT))
    {
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"),
                                                  preview->file_name, error->message);

      toast (preview->self, message);
    }
  preview_free (preview);
}

static void
preview_check (Preview *preview)
{
  AdwAlertDialog *dialog = ADW_ALERT_DIALOG (g_object_get_data (G_OBJECT (preview->name_row),
                                                                "kiste-dialog"));
  const char *name = gtk_editable_get_text (GTK_EDITABLE (preview->name_row));
  g_autofree char *problem = kiste_manager_check_boxfile (preview->self->manager,
                                                          preview->boxfile, name);

  /* restored only into a new folder */
  if (problem == NULL && preview->home_folder != NULL &&
      (g_file_test (preview->home_folder, G_FILE_TEST_EXISTS) ||
       g_file_test (preview->home_folder, G_FILE_TEST_IS_SYMLINK)))
    problem = g_strdup_printf (_("“%s” exists already: the home folder is restored only "
                                 "into a new folder."), preview->home_folder);

  gtk_label_set_text (preview->problem, problem ? problem : "");
  gtk_widget_set_visible (GTK_WIDGET (preview->problem), problem != NULL);
  if (problem != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (preview->name_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (preview->name_row), "error");
  adw_alert_dialog_set_response_enabled (dialog, "create", problem == NULL);
}

/* The list loaded (a file opened with Kiste comes before it) or a box
 * came or went: the name and the engine checked again */
static void
preview_list_changed (AdwAlertDialog *dialog)
{
  Preview *preview = g_object_get_data (G_OBJECT (dialog), "kiste-preview");

  if (preview != NULL)
    preview_check (preview);
}

static void
preview_response_cb (AdwAlertDialog *dialog,
                     const char     *response,
                     Preview        *preview)
{
  g_autofree char *name = NULL;

  g_object_set_data (G_OBJECT (dialog), "kiste-preview", NULL);

  if (g_strcmp0 (response, "create") != 0 || preview->self->manager == NULL)
    {
      preview_free (preview);
      return;
    }
  name = g_strdup (gtk_editable_get_text (GTK_EDITABLE (preview->name_row)));
  kiste_manager_open_boxfile_async (preview->self->manager, preview->boxfile, name,
                                    preview->home_folder, NULL, NULL,
                                    NULL, opened_cb, preview);
}

/* The folder's path on the host: in the Flatpak the chooser hands over a
 * path of the Documents portal, where host commands cannot make the home */
static void
home_resolved_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(AdwAlertDialog) dialog = user_data;
  Preview *preview = g_object_get_data (G_OBJECT (dialog), "kiste-preview");
  g_autoptr(GError) error = NULL;
  g_autofree char *path = kiste_portal_resolve_host_path_finish (result, &error);

  if (preview == NULL)
    return;
  if (path == NULL)
    {
      toast (preview->self, error->message);
      return;
    }
  /* a new folder in the one chosen, named after the box */
  g_free (preview->home_folder);
  preview->home_folder = g_build_filename (path, gtk_editable_get_text (GTK_EDITABLE (preview->name_row)),
                                           NULL);
  adw_action_row_set_subtitle (preview->home_row, preview->home_folder);
  preview_check (preview);
}

static void
home_chosen_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(AdwAlertDialog) dialog = user_data;
  g_autoptr(GFile) parent = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object),
                                                                   result, NULL);
  g_autofree char *path = parent ? g_file_get_path (parent) : NULL;

  if (path == NULL || g_object_get_data (G_OBJECT (dialog), "kiste-preview") == NULL)
    return;
  kiste_portal_resolve_host_path_async (path, NULL, home_resolved_cb, g_steal_pointer (&dialog));
}

static void
home_choose_cb (GtkButton      *button,
                AdwAlertDialog *dialog)
{
  g_autoptr(GtkFileDialog) chooser = gtk_file_dialog_new ();
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (dialog));

  gtk_file_dialog_set_title (chooser, _("Restore the Home Folder in"));
  gtk_file_dialog_set_modal (chooser, TRUE);
  /* a folder to pick in, not Recent, where none can be picked */
  gtk_file_dialog_set_initial_folder (chooser, home);
  gtk_file_dialog_select_folder (chooser, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL,
                                 home_chosen_cb, g_object_ref (dialog));
}

AdwAlertDialog *
_kiste_window_preview_boxfile (KisteWindow        *self,
                               const KisteBoxfile *boxfile,
                               const char         *folder)
{
  AdwAlertDialog *dialog;
  Preview *preview;
  GtkWidget *box, *list;
  g_autofree char *size = g_format_size (boxfile->image_size);
  g_autofree char *body = NULL;
  guint n_apps = boxfile->apps ? g_strv_length (boxfile->apps) : 0;

  g_return_val_if_fail (KISTE_IS_WINDOW (self), NULL);

  preview = g_new0 (Preview, 1);
  preview->self = g_object_ref (self);
  preview->boxfile = kiste_boxfile_copy (boxfile);
  preview->folder = g_strdup (folder);
  preview->file_name = g_strdup (boxfile->name);

  if (n_apps == 0)
    body = g_strdup_printf (_("The box “%s”, saved with %s by Kiste %s: its image (%s) and its "
                              "settings. Kiste loads the image, creates the box from its settings "
                              "and starts it."),
                            boxfile->name, boxfile->engine,
                            boxfile->kiste_version ? boxfile->kiste_version : "?", size);
  else
    body = g_strdup_printf (ngettext ("The box “%s”, saved with %s by Kiste %s: its image (%s), "
                                      "its settings and %u app for the app menu. Kiste loads the "
                                      "image, creates the box from its settings, starts it and "
                                      "puts its app in the menu again.",
                                      "The box “%s”, saved with %s by Kiste %s: its image (%s), "
                                      "its settings and %u apps for the app menu. Kiste loads the "
                                      "image, creates the box from its settings, starts it and "
                                      "puts its apps in the menu again.", n_apps),
                              boxfile->name, boxfile->engine,
                              boxfile->kiste_version ? boxfile->kiste_version : "?", size, n_apps);
  dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (_("Open Box File"), body));
  adw_alert_dialog_add_responses (dialog, "cancel", _("_Cancel"), "create", _("C_reate Box"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (dialog, "create", ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (dialog, "create");
  adw_alert_dialog_set_close_response (dialog, "cancel");

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  preview->name_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (preview->name_row), _("Name"));
  gtk_editable_set_text (GTK_EDITABLE (preview->name_row), boxfile->name);
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (preview->name_row));
  if (boxfile->home_path != NULL)
    {
      g_autofree char *home_size = g_format_size (boxfile->home_size);
      g_autofree char *title = g_strdup_printf (_("Home Folder (%s)"), home_size);
      GtkWidget *choose = gtk_button_new_with_mnemonic (_("_Restore In…"));

      preview->home_row = ADW_ACTION_ROW (adw_action_row_new ());
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (preview->home_row), title);
      adw_action_row_set_subtitle (preview->home_row, _("Not restored: the box gets the home "
                                                        "its settings name"));
      gtk_widget_set_valign (choose, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (preview->home_row, choose);
      g_signal_connect_object (choose, "clicked", G_CALLBACK (home_choose_cb), dialog, 0);
      gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (preview->home_row));
    }
  gtk_box_append (GTK_BOX (box), list);
  preview->problem = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (preview->problem, TRUE);
  gtk_label_set_xalign (preview->problem, 0);
  gtk_widget_add_css_class (GTK_WIDGET (preview->problem), "error");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (preview->problem));
  adw_alert_dialog_set_extra_child (dialog, box);

  g_object_set_data (G_OBJECT (preview->name_row), "kiste-dialog", dialog);
  g_signal_connect_swapped (preview->name_row, "changed", G_CALLBACK (preview_check), preview);
  g_signal_connect (dialog, "response", G_CALLBACK (preview_response_cb), preview);
  g_object_set_data (G_OBJECT (dialog), "kiste-preview", preview);
  if (self->manager != NULL)
    {
      KisteBoxList *boxes = kiste_manager_get_boxes (self->manager);

      g_signal_connect_object (boxes, "notify::loaded", G_CALLBACK (preview_list_changed),
                               dialog, G_CONNECT_SWAPPED);
      g_signal_connect_object (boxes, "items-changed", G_CALLBACK (preview_list_changed),
                               dialog, G_CONNECT_SWAPPED);
    }
  preview_check (preview);

  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
  return dialog;
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) boxfile = kiste_manager_read_boxfile_finish (KISTE_MANAGER (object),
                                                                       result, &error);

  g_autofree char *folder = NULL;

  /* a refusal's reason is the task's message, shown with its Details */
  if (boxfile == NULL)
    return;
  folder = g_path_get_dirname (boxfile->image_path);
  /* the window closed meanwhile: what was copied out goes */
  if (!gtk_widget_get_visible (GTK_WIDGET (self)))
    remove_folder (folder);
  else
    _kiste_window_preview_boxfile (self, boxfile, folder);
}

void
kiste_window_open_boxfile (KisteWindow *self,
                           GFile       *file)
{
  g_autofree char *path = NULL;

  g_return_if_fail (KISTE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (!(path = g_file_get_path (file)) || self->manager == NULL)
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *message = g_strdup_printf (_("Could not open “%s”: %s"), name,
                                                  _("it is not a local file"));

      toast (self, message);
      return;
    }
  /* a task with the bytes checked, in the task list, cancellable there */
  kiste_manager_read_boxfile_async (self->manager, path, NULL, read_cb, g_object_ref (self));
}

static void
boxfile_chosen_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GFile) file = NULL;

  if ((file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, NULL)))
    kiste_window_open_boxfile (self, file);
}

static void
open_boxfile_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) boxfiles = gtk_file_filter_new ();

  gtk_file_filter_set_name (boxfiles, _("Box Files"));
  gtk_file_filter_add_pattern (boxfiles, "*.kistebox");
  gtk_file_filter_add_mime_type (boxfiles, "application/x-kiste-box");
  g_list_store_append (filters, boxfiles);
  gtk_file_dialog_set_title (dialog, _("Open Box File"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_open (dialog, GTK_WINDOW (widget), NULL, boxfile_chosen_cb,
                        g_object_ref (widget));
}

void
_kiste_window_class_boxfile_init (KisteWindowClass *klass)
{
  gtk_widget_class_install_action (GTK_WIDGET_CLASS (klass), "win.open-boxfile", NULL,
                                   open_boxfile_action);
}
