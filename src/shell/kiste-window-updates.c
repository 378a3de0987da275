/* kiste-window-updates.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Check for Updates (Shift+F5, the main menu) and, when the check-updates
 * setting is on, the same once a day in the background: one timeout for
 * the time left since last-update-check, a notification when a box's image
 * has a newer one. The rows and the box's page follow the manager's
 * image-updates-changed; here only what the whole check says: one line. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-manager-updates.h"
#include "kiste-window-private.h"

#define DAY_SECONDS (24 * 60 * 60)
/* the first background check waits for the list and the window's start */
#define FIRST_CHECK_DELAY_SECONDS 30

static void schedule_check (KisteWindow *self);

static void
show_toast (KisteWindow *self,
            const char  *message)
{
  AdwToast *toast = adw_toast_new (message);

  adw_toast_set_use_markup (toast, FALSE);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static guint
count_newer_boxes (KisteWindow *self)
{
  GListModel *boxes = _kiste_window_get_boxes (self);
  guint n_newer = 0;

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      if (kiste_manager_box_has_newer_image (self->manager, box))
        n_newer++;
    }
  return n_newer;
}

typedef struct
{
  KisteWindow *window;
  gboolean     interactive;
} Check;

static void
checked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autofree Check *check = user_data;
  g_autoptr(KisteWindow) self = check->window;
  gboolean interactive = check->interactive;
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *newer_text = NULL;
  guint n_unreachable = 0;
  guint n_newer;

  updates = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->settings == NULL)
    return;
  if (updates == NULL)
    {
      if (interactive && !g_error_matches (error, KISTE_ERROR, KISTE_ERROR_BUSY))
        show_toast (self, error->message);
      else
        g_debug ("Update check: %s", error->message);
      schedule_check (self);
      return;
    }

  g_settings_set_int64 (self->settings, "last-update-check", g_get_real_time () / G_USEC_PER_SEC);

  for (guint i = 0; i < updates->len; i++)
    {
      const KisteImageUpdate *update = g_ptr_array_index (updates, i);

      if (update->state == KISTE_IMAGE_UPDATE_UNREACHABLE)
        n_unreachable++;
    }
  n_newer = count_newer_boxes (self);

  if (n_newer > 0)
    {
      newer_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "A newer image is available for %u box",
                                                 "Newer images are available for %u boxes",
                                                 n_newer),
                                    n_newer);
      show_toast (self, newer_text);
      if (!interactive)
        {
          g_autoptr(GNotification) notification = g_notification_new (_("Newer images available"));
          GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

          g_notification_set_body (notification, newer_text);
          if (app != NULL)
            g_application_send_notification (app, "image-updates", notification);
        }
    }
  /* offline, or a registry that does not answer: one line, not one a box */
  if (n_unreachable > 0)
    show_toast (self, _("Could not reach the registry: some images were not checked"));
  else if (n_newer == 0 && interactive)
    show_toast (self, _("No newer images"));

  schedule_check (self);
}

static void
start_check (KisteWindow *self,
             gboolean     interactive)
{
  Check *check = g_new0 (Check, 1);

  check->window = g_object_ref (self);
  check->interactive = interactive;
  if (self->update_cancellable == NULL)
    self->update_cancellable = g_cancellable_new ();
  kiste_manager_check_updates_async (self->manager, self->update_cancellable, checked_cb, check);
}

static void
update_timeout_cb (gpointer user_data)
{
  KisteWindow *self = user_data;

  self->update_timeout = 0;
  start_check (self, FALSE);
}

/* One timeout for the time left until a day after the last check */
static void
schedule_check (KisteWindow *self)
{
  gint64 last;
  gint64 now;
  gint64 left;

  g_clear_handle_id (&self->update_timeout, g_source_remove);
  if (self->settings == NULL || !g_settings_get_boolean (self->settings, "check-updates"))
    return;

  last = g_settings_get_int64 (self->settings, "last-update-check");
  now = g_get_real_time () / G_USEC_PER_SEC;
  left = CLAMP (last + DAY_SECONDS - now, FIRST_CHECK_DELAY_SECONDS, DAY_SECONDS);
  self->update_timeout = g_timeout_add_seconds_once ((guint) left, update_timeout_cb, self);
}

static void
settings_changed_cb (KisteWindow *self,
                     const char  *key)
{
  if (g_strcmp0 (key, "check-updates") == 0)
    schedule_check (self);
}

static void
check_updates_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  start_check (KISTE_WINDOW (widget), TRUE);
}

void
_kiste_window_updates_setup (KisteWindow *self)
{
  g_signal_connect_object (self->settings, "changed::check-updates",
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  schedule_check (self);
}

void
_kiste_window_updates_dispose (KisteWindow *self)
{
  g_clear_handle_id (&self->update_timeout, g_source_remove);
  g_cancellable_cancel (self->update_cancellable);
  g_clear_object (&self->update_cancellable);
}

void
_kiste_window_class_updates_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.check-updates", NULL, check_updates_action);
  /* F5 alone is Refresh */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, GDK_SHIFT_MASK,
                                       "win.check-updates", NULL);
}
