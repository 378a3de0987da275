/* kiste-url-preview-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-fetch.h"
#include "kiste-url-preview-dialog.h"

struct _KisteUrlPreviewDialog
{
  AdwDialog     parent_instance;

  char         *uri;
  GBytes       *text;
  GCancellable *cancellable;

  /* Template widgets */
  GtkStack     *stack;
  GtkLabel     *error_label;
  GtkLabel     *heading;
  GtkTextView  *text_view;
  GtkButton    *continue_button;
};

G_DEFINE_FINAL_TYPE (KisteUrlPreviewDialog, kiste_url_preview_dialog, ADW_TYPE_DIALOG)

enum {
  ACCEPTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
downloaded_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(KisteUrlPreviewDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;

  text = kiste_fetch_manifest_finish (result, &length, &error);
  if (g_cancellable_is_cancelled (self->cancellable))
    return;

  if (text == NULL)
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->text_view), text, length);
  self->text = g_bytes_new_take (g_steal_pointer (&text), length);
  gtk_stack_set_visible_child_name (self->stack, "text");
  gtk_widget_set_sensitive (GTK_WIDGET (self->continue_button), TRUE);
  adw_dialog_set_default_widget (ADW_DIALOG (self), GTK_WIDGET (self->continue_button));
}

KisteUrlPreviewDialog *
kiste_url_preview_dialog_new (const char *uri)
{
  KisteUrlPreviewDialog *self;
  g_autofree char *heading = NULL;

  g_return_val_if_fail (uri != NULL, NULL);

  self = g_object_new (KISTE_TYPE_URL_PREVIEW_DIALOG, NULL);
  self->uri = g_strdup (uri);

  heading = g_strdup_printf (_("This file comes from %s. Check it before you use it."), uri);
  gtk_label_set_text (self->heading, heading);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_view),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, heading,
                                  -1);

  kiste_fetch_manifest_async (uri, self->cancellable, downloaded_cb, g_object_ref (self));
  return self;
}

const char *
kiste_url_preview_dialog_get_uri (KisteUrlPreviewDialog *self)
{
  g_return_val_if_fail (KISTE_IS_URL_PREVIEW_DIALOG (self), NULL);
  return self->uri;
}

static void
kiste_url_preview_dialog_continue_cb (KisteUrlPreviewDialog *self)
{
  g_autoptr(KisteUrlPreviewDialog) hold = g_object_ref (self);
  g_autoptr(GBytes) text = g_steal_pointer (&self->text);

  if (text == NULL)
    return;

  /* people saw what they take: only now it reaches the form */
  adw_dialog_close (ADW_DIALOG (self));
  g_signal_emit (self, signals[ACCEPTED], 0, text);
}

static void
kiste_url_preview_dialog_closed (AdwDialog *dialog)
{
  KisteUrlPreviewDialog *self = KISTE_URL_PREVIEW_DIALOG (dialog);

  g_cancellable_cancel (self->cancellable);

  if (ADW_DIALOG_CLASS (kiste_url_preview_dialog_parent_class)->closed)
    ADW_DIALOG_CLASS (kiste_url_preview_dialog_parent_class)->closed (dialog);
}

static void
kiste_url_preview_dialog_dispose (GObject *object)
{
  KisteUrlPreviewDialog *self = KISTE_URL_PREVIEW_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_URL_PREVIEW_DIALOG);

  G_OBJECT_CLASS (kiste_url_preview_dialog_parent_class)->dispose (object);
}

static void
kiste_url_preview_dialog_finalize (GObject *object)
{
  KisteUrlPreviewDialog *self = KISTE_URL_PREVIEW_DIALOG (object);

  g_clear_pointer (&self->uri, g_free);
  g_clear_pointer (&self->text, g_bytes_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (kiste_url_preview_dialog_parent_class)->finalize (object);
}

static void
kiste_url_preview_dialog_class_init (KisteUrlPreviewDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwDialogClass *dialog_class = ADW_DIALOG_CLASS (klass);

  object_class->dispose = kiste_url_preview_dialog_dispose;
  object_class->finalize = kiste_url_preview_dialog_finalize;
  dialog_class->closed = kiste_url_preview_dialog_closed;

  /**
   * KisteUrlPreviewDialog::accepted:
   * @text: the downloaded file, as GBytes
   */
  signals[ACCEPTED] =
    g_signal_new ("accepted",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BYTES);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-url-preview-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteUrlPreviewDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, KisteUrlPreviewDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, KisteUrlPreviewDialog, heading);
  gtk_widget_class_bind_template_child (widget_class, KisteUrlPreviewDialog, text_view);
  gtk_widget_class_bind_template_child (widget_class, KisteUrlPreviewDialog, continue_button);
  gtk_widget_class_bind_template_callback (widget_class, kiste_url_preview_dialog_continue_cb);
  gtk_widget_class_bind_template_callback (widget_class, adw_dialog_close);
}

static void
kiste_url_preview_dialog_init (KisteUrlPreviewDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
}
