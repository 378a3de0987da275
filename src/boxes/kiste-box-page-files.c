/* kiste-box-page-files.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's page writing the box to files: Export Settings (its settings as
 * a distrobox.ini section) and Save to File (the whole box as a
 * .kistebox). Both ask where through the file chooser (the portal's in
 * the Flatpak); the manager does the work. */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-assemble.h"
#include "kiste-box-page-private.h"
#include "kiste-file.h"
#include "kiste-manager-boxfile.h"

typedef struct
{
  KisteBoxPage *self;
  GFile        *file;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->file);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportData, export_data_free)

static void
export_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(ExportData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *basename = g_file_get_basename (data->file);

  if (!kiste_file_replace_finish (G_FILE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("Could not save the settings: %s"), error->message);
    }
  else
    message = g_strdup_printf (_("Settings saved as “%s”"), basename);

  _kiste_box_page_toast (data->self, message);
}

/* The box as a distrobox.ini section: made from its image, not a copy */
static char *
dup_box_manifest (KisteBox  *box,
                  GError   **error)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();

  kiste_create_options_set_name (options, kiste_box_get_name (box));
  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, kiste_box_get_image (box));
  g_ptr_array_add (list, options);
  return kiste_assemble_to_data (list, error);
}

static void
kiste_box_page_write_settings (KisteBoxPage *self,
                               KisteBox     *box,
                               GFile        *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *manifest = NULL;
  g_autoptr(GBytes) bytes = NULL;
  ExportData *data;

  if (!(manifest = dup_box_manifest (box, &error)))
    {
      g_autofree char *message = g_strdup_printf (_("Could not save the settings: %s"),
                                                  error->message);

      _kiste_box_page_toast (self, message);
      return;
    }

  bytes = g_bytes_new_take (manifest, strlen (manifest));
  manifest = NULL;
  data = g_new0 (ExportData, 1);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  kiste_file_replace_async (file, bytes, self->cancellable, export_written_cb, data);
}

typedef struct
{
  KisteBoxPage *self;
  char         *box_name;
  /* Save to File: the box's own home folder too */
  gboolean      with_home;
} ExportChoice;

static void
export_choice_free (ExportChoice *choice)
{
  g_clear_object (&choice->self);
  g_free (choice->box_name);
  g_free (choice);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportChoice, export_choice_free)

static void
export_file_chosen_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(ExportChoice) choice = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  if (!(file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) &&
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _kiste_box_page_toast (choice->self, error->message);
      return;
    }

  if (choice->self->manager == NULL)
    return;
  box = kiste_box_list_find (kiste_manager_get_boxes (choice->self->manager),
                             choice->box_name);
  if (box != NULL)
    kiste_box_page_write_settings (choice->self, box, file);
}

static void
kiste_box_page_export_settings (KisteBoxPage *self,
                                KisteBox     *box)
{
  g_autoptr(GtkFileDialog) dialog = NULL;
  g_autoptr(GListStore) filters = NULL;
  g_autoptr(GtkFileFilter) manifests = NULL;
  g_autofree char *initial_name = NULL;
  ExportChoice *choice;
  GtkRoot *root;

  if (self->export_file != NULL)
    {
      kiste_box_page_write_settings (self, box, self->export_file);
      return;
    }

  manifests = gtk_file_filter_new ();
  gtk_file_filter_set_name (manifests, _("distrobox Manifests"));
  gtk_file_filter_add_pattern (manifests, "*.ini");
  filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_list_store_append (filters, manifests);

  initial_name = g_strdup_printf ("%s.ini", kiste_box_get_name (box));
  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_title (dialog, _("Export Settings"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_initial_name (dialog, initial_name);

  choice = g_new0 (ExportChoice, 1);
  choice->self = g_object_ref (self);
  choice->box_name = g_strdup (kiste_box_get_ref (box));
  root = gtk_widget_get_root (GTK_WIDGET (self));
  gtk_file_dialog_save (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                        self->cancellable, export_file_chosen_cb, choice);
}

static void
export_settings_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    _kiste_box_page_with_details (self, kiste_box_get_ref (self->box),
                                 kiste_box_page_export_settings);
}

/* Save to File: the box's image, settings and apps in one .kistebox */

static void
save_file_chosen_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(ExportChoice) choice = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (!(file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) &&
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _kiste_box_page_toast (choice->self, error->message);
      return;
    }
  if (choice->self->manager == NULL)
    return;
  /* a local path: in the Flatpak the Documents portal's, which Kiste
   * writes itself; the engine writes only into Kiste's cache */
  if (!(path = g_file_get_path (file)))
    {
      _kiste_box_page_toast (choice->self, _("Box files can only be saved to a local folder"));
      return;
    }
  kiste_manager_save_boxfile_async (choice->self->manager, choice->box_name, path,
                                    choice->with_home, NULL,
                                    _kiste_box_page_operation_done_cb, NULL);
}

static void
save_choose_file (KisteBoxPage *self,
                  gboolean      with_home)
{
  g_autoptr(GtkFileDialog) dialog = NULL;
  g_autoptr(GListStore) filters = NULL;
  g_autoptr(GtkFileFilter) boxfiles = NULL;
  g_autofree char *initial_name = NULL;
  ExportChoice *choice;
  GtkRoot *root;

  if (self->box == NULL || self->manager == NULL)
    return;

  boxfiles = gtk_file_filter_new ();
  gtk_file_filter_set_name (boxfiles, _("Box Files"));
  gtk_file_filter_add_pattern (boxfiles, "*.kistebox");
  filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_list_store_append (filters, boxfiles);

  initial_name = g_strdup_printf ("%s.kistebox", kiste_box_get_name (self->box));
  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_title (dialog, _("Save to File"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_initial_name (dialog, initial_name);

  choice = g_new0 (ExportChoice, 1);
  choice->self = g_object_ref (self);
  choice->box_name = g_strdup (kiste_box_get_ref (self->box));
  choice->with_home = with_home;
  root = gtk_widget_get_root (GTK_WIDGET (self));
  gtk_file_dialog_save (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                        self->cancellable, save_file_chosen_cb, choice);
}

static void
save_home_response_cb (AdwAlertDialog *dialog,
                       const char     *response,
                       KisteBoxPage   *self)
{
  AdwSwitchRow *row = g_object_get_data (G_OBJECT (dialog), "kiste-home-row");

  if (g_strcmp0 (response, "continue") == 0)
    save_choose_file (self, adw_switch_row_get_active (row));
}

/* A box with a home folder of its own: whether to save it too, with its
 * size, before the file is chosen */
static void
save_home_size_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autofree guint64 *size = kiste_manager_query_finish (KISTE_MANAGER (object), result, NULL);
  g_autofree char *size_text = size ? g_format_size (*size) : NULL;
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;
  GtkWidget *list, *row;

  if (self->box == NULL || gtk_widget_get_root (GTK_WIDGET (self)) == NULL)
    return;
  heading = g_strdup_printf (_("Save “%s” to a File"), kiste_box_get_name (self->box));
  dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading,
                                                   _("The file holds the box’s image with "
                                                     "everything installed in it, its settings "
                                                     "and its apps. Its home folder is its own "
                                                     "and can go into the file too.")));
  /* a switch row, as people know them from the preferences, with the
   * folder's size below its title */
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  row = adw_switch_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Save Its Home Folder Too"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                               size_text ? size_text : _("Its size could not be measured"));
  gtk_list_box_append (GTK_LIST_BOX (list), row);
  adw_alert_dialog_set_extra_child (dialog, list);
  g_object_set_data (G_OBJECT (dialog), "kiste-home-row", row);
  adw_alert_dialog_add_responses (dialog, "cancel", _("_Cancel"), "continue", _("C_hoose File…"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (dialog, "continue", ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (dialog, "continue");
  adw_alert_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (save_home_response_cb), self, 0);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
}

static void
save_to_file_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  const char *home;

  if (self->box == NULL || self->manager == NULL)
    return;
  home = kiste_box_get_home (self->box);
  if (kiste_box_has_custom_home (self->box) && home != NULL && g_path_is_absolute (home))
    kiste_manager_get_home_size_async (self->manager, kiste_box_get_engine (self->box), home,
                                       self->cancellable, save_home_size_cb,
                                       g_object_ref (self));
  else
    save_choose_file (self, FALSE);
}

void
_kiste_box_page_class_files_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "box.export-settings", NULL,
                                   export_settings_action);
  gtk_widget_class_install_action (widget_class, "box.save-to-file", NULL, save_to_file_action);
}
