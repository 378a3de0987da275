/* kiste-create-dialog-folders.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create dialog's folders: volume rows and the folder pickers, with
 * Documents portal paths turned into host paths. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-create-dialog-private.h"
#include "kiste-portal.h"

/* Volumes ---------------------------------------------------------------- */

/* The rows' volumes into the options; their "changed" validates. A row
 * edit that leaves the options as they were (a row still empty) is a
 * change of the form all the same: the rows and checks follow once. */
static void
kiste_create_dialog_sync_volumes (KisteCreateDialog *self)
{
  guint validations = self->n_validations;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) volumes = NULL;

  for (guint i = 0; i < self->volume_rows->len; i++)
    {
      g_autofree char *spec = kiste_volume_row_dup_spec (g_ptr_array_index (self->volume_rows, i));

      if (spec != NULL)
        g_strv_builder_add (builder, spec);
    }
  volumes = g_strv_builder_end (builder);
  kiste_create_options_set_volumes (self->options, (const char * const *) volumes);
  if (self->n_validations == validations)
    _kiste_create_dialog_changed (self);
}

static void
volume_row_changed_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  _kiste_create_dialog_touch (self, KISTE_CREATE_FIELD_VOLUMES);
  kiste_create_dialog_sync_volumes (self);
}

static void
volume_row_remove_cb (KisteCreateDialog *self,
                      KisteVolumeRow    *row)
{
  g_ptr_array_remove (self->volume_rows, row);
  adw_expander_row_remove (self->volumes_expander, GTK_WIDGET (row));
  kiste_create_dialog_sync_volumes (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->add_volume_row));
}

static void choose_folder (KisteCreateDialog *self,
                           KisteVolumeRow    *row);

static void
volume_row_choose_cb (KisteCreateDialog *self,
                      KisteVolumeRow    *row)
{
  choose_folder (self, row);
}

KisteVolumeRow *
_kiste_create_dialog_add_volume_row (KisteCreateDialog *self,
                                     const char        *spec)
{
  g_autoptr(GtkWidget) error_row = g_object_ref (self->volumes_error_row);
  g_autoptr(GtkWidget) button_row = g_object_ref (GTK_WIDGET (self->add_volume_row));
  KisteVolumeRow *row = kiste_volume_row_new ();

  /* new rows go above the error and the "Add Volume" button */
  adw_expander_row_remove (self->volumes_expander, error_row);
  adw_expander_row_remove (self->volumes_expander, button_row);
  adw_expander_row_add_row (self->volumes_expander, GTK_WIDGET (row));
  adw_expander_row_add_row (self->volumes_expander, error_row);
  adw_expander_row_add_row (self->volumes_expander, button_row);
  g_ptr_array_add (self->volume_rows, row);

  if (spec != NULL)
    kiste_volume_row_set_spec (row, spec);

  g_signal_connect_object (row, "changed", G_CALLBACK (volume_row_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "remove", G_CALLBACK (volume_row_remove_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "choose-host-folder", G_CALLBACK (volume_row_choose_cb), self,
                           G_CONNECT_SWAPPED);
  return row;
}

void
_kiste_create_dialog_add_volume_cb (KisteCreateDialog *self)
{
  KisteVolumeRow *row = _kiste_create_dialog_add_volume_row (self, NULL);

  adw_expander_row_set_expanded (self->volumes_expander, TRUE);
  _kiste_create_dialog_update_rows (self);
  /* the path can be typed or picked with the row's folder button */
  gtk_widget_grab_focus (GTK_WIDGET (row));
}

/* Folder pickers and the Documents portal ------------------------------- */

typedef struct
{
  KisteCreateDialog *self;
  KisteVolumeRow    *row;
} PickData;

static void
pick_data_free (PickData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->row);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PickData, pick_data_free)

static void
apply_picked_folder (PickData   *data,
                     const char *path,
                     GError     *error)
{
  KisteCreateDialog *self = data->self;

  if (data->row != NULL)
    {
      if (error != NULL)
        {
          kiste_volume_row_set_error (data->row, error->message);
          return;
        }
      kiste_volume_row_set_host_path (data->row, path);
      /* the same path in the box is the usual choice */
      if (kiste_volume_row_get_box_path (data->row)[0] == '\0')
        kiste_volume_row_set_box_path (data->row, path);
      return;
    }

  if (error != NULL)
    {
      _kiste_create_dialog_set_field_error (self, &self->views[VIEW_HOME], error->message);
      return;
    }
  _kiste_create_dialog_touch (self, KISTE_CREATE_FIELD_HOME);
  gtk_editable_set_text (GTK_EDITABLE (self->home_row), path);
}

static void
picked_folder_resolved_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(PickData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (_kiste_create_dialog_is_gone (data->self))
    return;

  path = kiste_portal_resolve_host_path_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  apply_picked_folder (data, path, error);
}

static void
folder_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PickData) data = user_data;
  GCancellable *cancellable = data->self->cancellable;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (_kiste_create_dialog_is_gone (data->self))
    return;

  folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, &error);
  if (folder == NULL)
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED))
        _kiste_create_dialog_toast (data->self, error->message);
      return;
    }

  if (!(path = g_file_get_path (folder)))
    {
      _kiste_create_dialog_toast (data->self, _("Choose a folder on this computer"));
      return;
    }

  kiste_portal_resolve_host_path_async (path, cancellable, picked_folder_resolved_cb,
                                        g_steal_pointer (&data));
}

static void
choose_folder (KisteCreateDialog *self,
               KisteVolumeRow    *row)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GFile) initial = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const char *current;
  PickData *data;

  gtk_file_dialog_set_modal (dialog, TRUE);
  if (row != NULL)
    {
      gtk_file_dialog_set_title (dialog, _("Choose a Folder for the Box"));
      current = kiste_volume_row_get_host_path (row);
    }
  else
    {
      gtk_file_dialog_set_title (dialog, _("Choose a Home Folder"));
      current = _kiste_create_dialog_entry_text (self->home_row);
    }

  if (current != NULL && g_path_is_absolute (current) &&
      g_file_test (current, G_FILE_TEST_IS_DIR))
    initial = g_file_new_for_path (current);
  else
    initial = g_file_new_for_path (g_get_home_dir ());
  gtk_file_dialog_set_initial_folder (dialog, initial);

  data = g_new0 (PickData, 1);
  data->self = g_object_ref (self);
  data->row = row ? g_object_ref (row) : NULL;
  gtk_file_dialog_select_folder (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 self->cancellable, folder_chosen_cb, data);
}

void
_kiste_create_dialog_home_choose_cb (KisteCreateDialog *self)
{
  choose_folder (self, NULL);
}

