/* kiste-manifest-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-distro.h"
#include "kiste-manifest-dialog.h"

struct _KisteManifestDialog
{
  AdwAlertDialog  parent_instance;

  GPtrArray      *entries;

  /* Template widgets */
  GtkListBox     *list;
};

G_DEFINE_FINAL_TYPE (KisteManifestDialog, kiste_manifest_dialog, ADW_TYPE_ALERT_DIALOG)

enum {
  ENTRY_CHOSEN,
  CREATE_ALL,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
has_exports (KisteAssembleEntry *entry)
{
  return (entry->exported_apps != NULL && entry->exported_apps[0] != NULL) ||
         (entry->exported_bins != NULL && entry->exported_bins[0] != NULL);
}

static GtkWidget *
create_row (KisteAssembleEntry *entry,
            const char         *problem)
{
  const char *image = kiste_create_options_get_image (entry->options);
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), entry->section);
  /* what is wrong is said where the box is; it can be fixed in the form */
  if (problem != NULL)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Needs changes"),
                                      -1);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), problem);
    }
  else if (entry->warnings != NULL && entry->warnings[0] != NULL)
    {
      /* what Kiste reads otherwise than distrobox, said before Create All */
      g_autofree char *warnings = g_strjoinv ("\n", entry->warnings);
      g_autofree char *subtitle = g_strdup_printf ("%s\n%s", image ? image : "", warnings);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
    }
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), image ? image : "");
  adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name (
                               kiste_distro_icon_name (kiste_distro_id_for_image (image))));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  return row;
}

KisteManifestDialog *
kiste_manifest_dialog_new (GPtrArray *entries,
                           GPtrArray *problems)
{
  KisteManifestDialog *self;
  g_autofree char *body = NULL;
  gboolean all_valid = TRUE;
  gboolean exports = FALSE;

  g_return_val_if_fail (entries != NULL, NULL);
  g_return_val_if_fail (problems != NULL && problems->len == entries->len, NULL);

  self = g_object_new (KISTE_TYPE_MANIFEST_DIALOG, NULL);
  self->entries = g_ptr_array_ref (entries);

  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char *problem = g_ptr_array_index (problems, i);

      if (problem != NULL)
        all_valid = FALSE;
      if (has_exports (entry))
        exports = TRUE;
      gtk_list_box_append (self->list, create_row (entry, problem));
    }

  body = g_strdup (all_valid
                   ? _("This file describes several boxes. Choose the one to fill in, or "
                       "create them all as they are.")
                   : _("This file describes several boxes. Choose the one to fill in. Some "
                       "cannot be created as written, so they cannot all be created at once."));
  if (exports)
    {
      char *with_exports = g_strjoin (" ", body,
                                      _("Apps and programs to export are left out: export them "
                                        "once the box is ready."),
                                      NULL);

      g_free (body);
      body = with_exports;
    }
  adw_alert_dialog_set_body (ADW_ALERT_DIALOG (self), body);
  adw_alert_dialog_set_response_enabled (ADW_ALERT_DIALOG (self), "create-all", all_valid);

  return self;
}

static void
kiste_manifest_dialog_row_activated_cb (KisteManifestDialog *self,
                                        GtkListBoxRow       *row)
{
  int index = gtk_list_box_row_get_index (row);

  if (index >= 0 && (guint) index < self->entries->len)
    g_signal_emit (self, signals[ENTRY_CHOSEN], 0, g_ptr_array_index (self->entries, index));
  adw_dialog_close (ADW_DIALOG (self));
}

static void
kiste_manifest_dialog_response (AdwAlertDialog *dialog,
                                const char     *response)
{
  if (ADW_ALERT_DIALOG_CLASS (kiste_manifest_dialog_parent_class)->response != NULL)
    ADW_ALERT_DIALOG_CLASS (kiste_manifest_dialog_parent_class)->response (dialog, response);

  if (g_str_equal (response, "create-all"))
    g_signal_emit (dialog, signals[CREATE_ALL], 0, KISTE_MANIFEST_DIALOG (dialog)->entries);
}

static void
kiste_manifest_dialog_dispose (GObject *object)
{
  KisteManifestDialog *self = KISTE_MANIFEST_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_MANIFEST_DIALOG);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (kiste_manifest_dialog_parent_class)->dispose (object);
}

static void
kiste_manifest_dialog_class_init (KisteManifestDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwAlertDialogClass *alert_class = ADW_ALERT_DIALOG_CLASS (klass);

  object_class->dispose = kiste_manifest_dialog_dispose;
  alert_class->response = kiste_manifest_dialog_response;

  /**
   * KisteManifestDialog::entry-chosen:
   * @entry: the KisteAssembleEntry to fill the form with
   */
  signals[ENTRY_CHOSEN] =
    g_signal_new ("entry-chosen",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, KISTE_TYPE_ASSEMBLE_ENTRY);
  /**
   * KisteManifestDialog::create-all:
   * @entries: every KisteAssembleEntry of the manifest
   *
   * Every box of the manifest should be created as written.
   */
  signals[CREATE_ALL] =
    g_signal_new ("create-all",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-manifest-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteManifestDialog, list);
  gtk_widget_class_bind_template_callback (widget_class, kiste_manifest_dialog_row_activated_cb);
}

static void
kiste_manifest_dialog_init (KisteManifestDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
