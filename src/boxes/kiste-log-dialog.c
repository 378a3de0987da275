/* kiste-log-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-log-dialog.h"
#include "kiste-manager-queries.h"

/* A box with an init system can log a lot; people want the recent part */
#define MAX_LINES 5000

struct _KisteLogDialog
{
  AdwDialog        parent_instance;

  KisteManager    *manager;
  KisteBox        *box;
  GCancellable    *cancellable;
  gboolean         loading;

  AdwToastOverlay *toast_overlay;
  AdwWindowTitle  *window_title;
  GtkButton       *reload_button;
  GtkButton       *copy_button;
  AdwBanner       *truncated_banner;
  GtkStack        *stack;
  AdwStatusPage   *error_page;
  GtkTextView     *text_view;
};

G_DEFINE_FINAL_TYPE (KisteLogDialog, kiste_log_dialog, ADW_TYPE_DIALOG)

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* One reading of the log; shared by the line callback and the end */
typedef struct
{
  KisteLogDialog *self;
  GQueue          lines;
  guint           n_dropped;
} Load;

static void
load_clear (Load *load)
{
  g_clear_object (&load->self);
  g_queue_clear_full (&load->lines, g_free);
}

static void
load_release (gpointer data)
{
  g_rc_box_release_full (data, (GDestroyNotify) load_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Load, load_release)

/* Without terminal escape sequences (distrobox colours its setup messages)
 * and carriage returns, which a text view would show as boxes */
static char *
dup_plain_line (const char *line)
{
  g_autofree char *stripped = kiste_strip_terminal_escapes (line);
  g_auto(GStrv) parts = g_strsplit (stripped, "\r", -1);

  return g_strjoinv ("", parts);
}

static void
kiste_log_dialog_set_loading (KisteLogDialog *self,
                              gboolean        loading)
{
  if (self->loading == loading)
    return;

  self->loading = loading;
  gtk_widget_set_sensitive (GTK_WIDGET (self->reload_button), !loading);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
logs_line_cb (const char *line,
              gboolean    is_stderr,
              gpointer    user_data)
{
  Load *load = user_data;

  /* The container's own stderr (distrobox's trace) belongs to the log too */
  g_queue_push_tail (&load->lines, dup_plain_line (line));
  if (load->lines.length > MAX_LINES)
    {
      g_free (g_queue_pop_head (&load->lines));
      load->n_dropped++;
    }
}

static gboolean
scroll_to_end_cb (GtkWidget     *widget,
                  GdkFrameClock *frame_clock,
                  gpointer       user_data)
{
  GtkTextView *text_view = GTK_TEXT_VIEW (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (text_view);

  /* Scrolling an unallocated view lands in the wrong place */
  if (gtk_widget_get_height (widget) <= 0)
    return G_SOURCE_CONTINUE;

  gtk_text_view_scroll_to_mark (text_view, gtk_text_buffer_get_insert (buffer), 0, TRUE, 0, 1);
  return G_SOURCE_REMOVE;
}

static void
logs_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Load) load = user_data;
  KisteLogDialog *self = load->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = NULL;
  GtkTextBuffer *buffer;
  GtkTextIter end;

  kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  kiste_log_dialog_set_loading (self, FALSE);

  if (error != NULL && load->lines.length == 0)
    {
      /* a description is markup: what a box printed is text */
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_status_page_set_description (self->error_page, escaped);
      gtk_stack_set_visible_child_name (self->stack, "error");
      gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), FALSE);
      return;
    }
  if (error != NULL)
    g_debug ("Log of %s ended with an error: %s", kiste_box_get_name (self->box), error->message);

  text = g_string_new (NULL);
  for (GList *l = load->lines.head; l != NULL; l = l->next)
    {
      g_string_append (text, l->data);
      if (l->next != NULL)
        g_string_append_c (text, '\n');
    }

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_set_text (buffer, text->str, text->len);
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), text->len > 0);

  if (load->n_dropped > 0)
    {
      g_autofree char *title = NULL;

      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Showing the last %u line",
                                            "Showing the last %u lines",
                                            MAX_LINES),
                               (guint) MAX_LINES);
      adw_banner_set_title (self->truncated_banner, title);
    }
  adw_banner_set_revealed (self->truncated_banner, load->n_dropped > 0);

  if (text->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "log");
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_place_cursor (buffer, &end);
  /* The newest lines matter most: scroll once the view has its size */
  gtk_widget_add_tick_callback (GTK_WIDGET (self->text_view), scroll_to_end_cb, NULL, NULL);
}

void
kiste_log_dialog_reload (KisteLogDialog *self)
{
  g_autoptr(GDateTime) since = NULL;
  Load *load;
  gint64 created;

  g_return_if_fail (KISTE_IS_LOG_DIALOG (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  /* Everything since the box exists */
  created = kiste_box_get_created (self->box);
  since = g_date_time_new_from_unix_utc (MAX (created, 1));

  kiste_log_dialog_set_loading (self, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  load = g_rc_box_new0 (Load);
  load->self = g_object_ref (self);
  g_queue_init (&load->lines);

  kiste_manager_stream_log_async (self->manager, kiste_box_get_ref (self->box), since, FALSE,
                                  logs_line_cb, g_rc_box_acquire (load), load_release,
                                  self->cancellable, logs_done_cb, load);
}

static void
copy_clicked_cb (KisteLogDialog *self)
{
  g_autofree char *text = kiste_log_dialog_dup_text (self);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Log copied")));
}

static void
kiste_log_dialog_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  KisteLogDialog *self = KISTE_LOG_DIALOG (object);

  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_log_dialog_dispose (GObject *object)
{
  KisteLogDialog *self = KISTE_LOG_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_LOG_DIALOG);
  g_clear_object (&self->box);
  g_clear_object (&self->manager);

  G_OBJECT_CLASS (kiste_log_dialog_parent_class)->dispose (object);
}

static void
kiste_log_dialog_class_init (KisteLogDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = kiste_log_dialog_get_property;
  object_class->dispose = kiste_log_dialog_dispose;

  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-log-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, reload_button);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, truncated_banner);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, error_page);
  gtk_widget_class_bind_template_child (widget_class, KisteLogDialog, text_view);
  gtk_widget_class_bind_template_callback (widget_class, kiste_log_dialog_reload);
  gtk_widget_class_bind_template_callback (widget_class, copy_clicked_cb);
}

static void
kiste_log_dialog_init (KisteLogDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

KisteLogDialog *
kiste_log_dialog_new (KisteManager *manager,
                      KisteBox     *box)
{
  KisteLogDialog *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  self = g_object_new (KISTE_TYPE_LOG_DIALOG, NULL);
  self->manager = g_object_ref (manager);
  self->box = g_object_ref (box);

  /* Translators: title of the dialog showing a box's log */
  title = g_strdup_printf (_("Log of “%s”"), kiste_box_get_name (box));
  adw_dialog_set_title (ADW_DIALOG (self), title);
  adw_window_title_set_subtitle (self->window_title, kiste_box_get_name (box));

  kiste_log_dialog_reload (self);
  return self;
}

gboolean
kiste_log_dialog_get_loading (KisteLogDialog *self)
{
  g_return_val_if_fail (KISTE_IS_LOG_DIALOG (self), FALSE);

  return self->loading;
}

char *
kiste_log_dialog_dup_text (KisteLogDialog *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start;
  GtkTextIter end;

  g_return_val_if_fail (KISTE_IS_LOG_DIALOG (self), NULL);

  buffer = gtk_text_view_get_buffer (self->text_view);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
