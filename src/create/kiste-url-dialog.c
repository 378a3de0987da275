/* kiste-url-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-fetch.h"
#include "kiste-url-dialog.h"

struct _KisteUrlDialog
{
  AdwAlertDialog  parent_instance;

  /* Template widgets */
  AdwEntryRow    *entry;
  GtkLabel       *hint;
};

G_DEFINE_FINAL_TYPE (KisteUrlDialog, kiste_url_dialog, ADW_TYPE_ALERT_DIALOG)

enum {
  URL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

KisteUrlDialog *
kiste_url_dialog_new (void)
{
  return g_object_new (KISTE_TYPE_URL_DIALOG, NULL);
}

static char *
dup_uri (KisteUrlDialog *self)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry))));
}

static void
kiste_url_dialog_changed_cb (KisteUrlDialog *self)
{
  g_autofree char *uri = dup_uri (self);
  g_autoptr(GError) error = NULL;
  gboolean valid = kiste_fetch_check_manifest_uri (uri, &error);
  /* no complaint before anything was typed */
  gboolean complain = !valid && uri[0] != '\0';

  adw_alert_dialog_set_response_enabled (ADW_ALERT_DIALOG (self), "download", valid);
  gtk_label_set_text (self->hint, complain ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->hint), complain);
  if (complain)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry), "error");
}

static void
kiste_url_dialog_response (AdwAlertDialog *dialog,
                           const char     *response)
{
  KisteUrlDialog *self = KISTE_URL_DIALOG (dialog);
  g_autofree char *uri = NULL;

  if (ADW_ALERT_DIALOG_CLASS (kiste_url_dialog_parent_class)->response != NULL)
    ADW_ALERT_DIALOG_CLASS (kiste_url_dialog_parent_class)->response (dialog, response);

  if (!g_str_equal (response, "download"))
    return;

  uri = dup_uri (self);
  if (kiste_fetch_check_manifest_uri (uri, NULL))
    g_signal_emit (self, signals[URL_CHOSEN], 0, uri);
}

static void
kiste_url_dialog_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (kiste_url_dialog_parent_class)->map (widget);

  gtk_widget_grab_focus (GTK_WIDGET (KISTE_URL_DIALOG (widget)->entry));
}

static void
kiste_url_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_URL_DIALOG);

  G_OBJECT_CLASS (kiste_url_dialog_parent_class)->dispose (object);
}

static void
kiste_url_dialog_class_init (KisteUrlDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwAlertDialogClass *alert_class = ADW_ALERT_DIALOG_CLASS (klass);

  object_class->dispose = kiste_url_dialog_dispose;
  widget_class->map = kiste_url_dialog_map;
  alert_class->response = kiste_url_dialog_response;

  /**
   * KisteUrlDialog::url-chosen:
   * @uri: the address to download, checked
   */
  signals[URL_CHOSEN] =
    g_signal_new ("url-chosen",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-url-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteUrlDialog, entry);
  gtk_widget_class_bind_template_child (widget_class, KisteUrlDialog, hint);
  gtk_widget_class_bind_template_callback (widget_class, kiste_url_dialog_changed_cb);
}

static void
kiste_url_dialog_init (KisteUrlDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  adw_alert_dialog_set_response_enabled (ADW_ALERT_DIALOG (self), "download", FALSE);
}
