/* kiste-window-import.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-assemble.h"
#include "kiste-box-row.h"
#include "kiste-create-dialog.h"
#include "kiste-error.h"
#include "kiste-package-file.h"
#include "kiste-url-dialog.h"
#include "kiste-url-preview-dialog.h"
#include "kiste-window-private.h"

/* Importing distrobox.ini files
 *
 * A manifest is data to fill in the create dialog, never something to run.
 * From the web it is shown to people in full before it is used. */

#define MANIFEST_MAX_SIZE (1024 * 1024)

/* distrobox.ini is distrobox's: with Toolbx alone, the way to distrobox */
static gboolean
kiste_window_check_manifests (KisteWindow *self)
{
  return _kiste_window_check_distrobox (self, _("Boxes of a distrobox.ini are made with "
                                                "distrobox, which this computer does not have."));
}

static void
kiste_window_toast_plain (KisteWindow *self,
                          const char  *title)
{
  AdwToast *toast = adw_toast_new (title);

  /* what a command printed is text, not markup */
  adw_toast_set_use_markup (toast, FALSE);

  /* titles may quote files and servers: never markup */
  adw_toast_set_use_markup (toast, FALSE);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Opens the create dialog filled in from data. source names the file or
 * address for messages. */
static void
kiste_window_open_manifest (KisteWindow *self,
                            const char  *data,
                            gsize        length,
                            const char  *source)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  KisteCreateDialog *dialog;

  /* what is no manifest gets no dialog */
  if (length > MANIFEST_MAX_SIZE)
    g_set_error_literal (&error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                         _("The file is too large for a distrobox.ini."));
  else
    entries = kiste_assemble_parse (data, length, &error);

  if (entries == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not import “%s”: %s"),
                                                  source, error->message);

      kiste_window_toast_plain (self, message);
      return;
    }

  dialog = kiste_create_dialog_new (self->manager);
  g_signal_connect_object (dialog, "created", G_CALLBACK (_kiste_window_created_cb), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));

  if (!kiste_create_dialog_import_assemble (dialog, data, length, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Could not import “%s”: %s"),
                                                  source, error->message);

      adw_dialog_force_close (ADW_DIALOG (dialog));
      kiste_window_toast_plain (self, message);
    }
}

typedef struct
{
  KisteWindow *self;
  char        *name;
} ImportFile;

static void
import_file_free (ImportFile *import)
{
  g_clear_object (&import->self);
  g_free (import->name);
  g_free (import);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ImportFile, import_file_free)

/* Reads a little past the limit, so a larger file is noticed, not loaded */
static gboolean
import_read_more_cb (const char *contents,
                     goffset     size,
                     gpointer    user_data)
{
  return size <= MANIFEST_MAX_SIZE;
}

static void
import_file_loaded_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(ImportFile) import = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_partial_contents_finish (G_FILE (object), result, &contents, &length,
                                            NULL, &error))
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("Could not import “%s”: %s"), import->name, error->message);
      kiste_window_toast_plain (import->self, message);
      return;
    }

  kiste_window_open_manifest (import->self, contents, length, import->name);
}

void
kiste_window_import_file (KisteWindow *self,
                          GFile       *file)
{
  ImportFile *import;

  g_return_if_fail (KISTE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (!kiste_window_check_manifests (self))
    return;

  import = g_new0 (ImportFile, 1);
  import->self = g_object_ref (self);
  import->name = g_file_get_basename (file);
  g_file_load_partial_contents_async (file, self->import_cancellable, import_read_more_cb,
                                      import_file_loaded_cb, import);
}

static void
import_file_chosen_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (!(file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) &&
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        kiste_window_toast_plain (self, error->message);
      return;
    }

  kiste_window_import_file (self, file);
}

static void
kiste_window_import_file_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) manifests = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) everything = gtk_file_filter_new ();

  if (!kiste_window_check_manifests (self))
    return;

  gtk_file_filter_set_name (manifests, _("distrobox Manifests"));
  gtk_file_filter_add_pattern (manifests, "*.ini");
  gtk_file_filter_set_name (everything, _("All Files"));
  gtk_file_filter_add_pattern (everything, "*");
  g_list_store_append (filters, manifests);
  g_list_store_append (filters, everything);

  gtk_file_dialog_set_title (dialog, _("Import distrobox.ini"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, manifests);
  gtk_file_dialog_open (dialog, GTK_WINDOW (self), self->import_cancellable,
                        import_file_chosen_cb, g_object_ref (self));
}

static GFile *
dup_dropped_file (const GValue *value)
{
  if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    return g_value_dup_object (value);

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *files = gdk_file_list_get_files (g_value_get_boxed (value));
      GFile *first = files != NULL ? g_object_ref (files->data) : NULL;

      g_slist_free (files);
      return first;
    }

  return NULL;
}

static gboolean
kiste_window_drop_cb (KisteWindow   *self,
                      const GValue  *value,
                      double         x,
                      double         y,
                      GtkDropTarget *target)
{
  g_autoptr(GFile) file = dup_dropped_file (value);
  g_autofree char *name = NULL;
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  KisteBox *box = NULL;

  if (file == NULL)
    return FALSE;

  /* On a box's row or its page, the file is for that box */
  if (KISTE_IS_BOX_ROW (widget))
    box = kiste_box_row_get_box (KISTE_BOX_ROW (widget));
  else if (widget == GTK_WIDGET (self->page_bin))
    box = _kiste_window_get_selected_box (self);

  name = g_file_get_basename (file);
  if (name != NULL && g_str_has_suffix (name, ".kistebox"))
    {
      kiste_window_open_boxfile (self, file);
      return TRUE;
    }
  if (kiste_package_file_kind_for_path (name) != KISTE_PACKAGE_NONE)
    {
      kiste_window_install_package_file_in (self, file, box ? kiste_box_get_name (box) : NULL);
      return TRUE;
    }
  if (name == NULL || !g_str_has_suffix (name, ".ini"))
    {
      kiste_window_toast_plain (self, _("Only distrobox.ini, box and package files can be dropped here"));
      return FALSE;
    }

  kiste_window_import_file (self, file);
  return TRUE;
}

/* Import from a web address: ask, download, show, then use */

static void
url_accepted_cb (KisteWindow           *self,
                 GBytes                *text,
                 KisteUrlPreviewDialog *preview)
{
  gsize length = 0;
  const char *data = g_bytes_get_data (text, &length);

  kiste_window_open_manifest (self, data, length, kiste_url_preview_dialog_get_uri (preview));
}

static void
url_chosen_cb (KisteWindow *self,
               const char  *uri)
{
  KisteUrlPreviewDialog *preview = kiste_url_preview_dialog_new (uri);

  g_signal_connect_object (preview, "accepted", G_CALLBACK (url_accepted_cb), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (preview), GTK_WIDGET (self));
}

static void
kiste_window_import_url_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  KisteUrlDialog *dialog;

  if (!kiste_window_check_manifests (KISTE_WINDOW (widget)))
    return;

  dialog = kiste_url_dialog_new ();
  g_signal_connect_object (dialog, "url-chosen", G_CALLBACK (url_chosen_cb), widget,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

void
_kiste_window_class_import_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.import-file", NULL,
                                   kiste_window_import_file_action);
  gtk_widget_class_install_action (widget_class, "win.import-url", NULL,
                                   kiste_window_import_url_action);
}

void
_kiste_window_add_drop_target (KisteWindow *self,
                               GtkWidget   *widget)
{
  GtkDropTarget *drop;
  GType drop_types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  gtk_drop_target_set_gtypes (drop, drop_types, G_N_ELEMENTS (drop_types));
  g_signal_connect_object (drop, "drop", G_CALLBACK (kiste_window_drop_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));
}

void
_kiste_window_import_init (KisteWindow *self)
{
  /* a distrobox.ini dropped anywhere on the window is imported, a package
   * file offered to the boxes that take it; on the box page, to its box
   * (rows get their own, see factory_setup_cb()) */
  _kiste_window_add_drop_target (self, GTK_WIDGET (self->toast_overlay));
  _kiste_window_add_drop_target (self, GTK_WIDGET (self->page_bin));
}
