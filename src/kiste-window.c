/* kiste-window.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-window.h"

struct _KisteWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  GtkStack             *main_stack;
  AdwStatusPage        *empty_page;
};

G_DEFINE_FINAL_TYPE (KisteWindow, kiste_window, ADW_TYPE_APPLICATION_WINDOW)

KisteWindow *
kiste_window_new (KisteApplication *application)
{
  g_return_val_if_fail (KISTE_IS_APPLICATION (application), NULL);

  return g_object_new (KISTE_TYPE_WINDOW,
                       "application", application,
                       NULL);
}

void
kiste_window_add_toast (KisteWindow *self,
                        AdwToast    *toast)
{
  g_return_if_fail (KISTE_IS_WINDOW (self));
  g_return_if_fail (ADW_IS_TOAST (toast));

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
kiste_window_restore_state (KisteWindow *self)
{
  int width = g_settings_get_int (self->settings, "window-width");
  int height = g_settings_get_int (self->settings, "window-height");

  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
kiste_window_save_state (KisteWindow *self)
{
  int width;
  int height;
  gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));

  g_settings_delay (self->settings);
  /* A maximized window's size is not the one to restore to */
  if (!maximized)
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized", maximized);
  g_settings_apply (self->settings);
}

static gboolean
kiste_window_close_request (GtkWindow *window)
{
  kiste_window_save_state (KISTE_WINDOW (window));

  return GTK_WINDOW_CLASS (kiste_window_parent_class)->close_request (window);
}

static void
kiste_window_constructed (GObject *object)
{
  KisteWindow *self = KISTE_WINDOW (object);
  GtkApplication *app;

  G_OBJECT_CLASS (kiste_window_parent_class)->constructed (object);

  app = gtk_window_get_application (GTK_WINDOW (self));
  if (KISTE_IS_APPLICATION (app))
    self->settings = g_object_ref (kiste_application_get_settings (KISTE_APPLICATION (app)));
  else
    self->settings = g_settings_new (APP_ID);

  kiste_window_restore_state (self);

  if (DEVELOPMENT_BUILD)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");
}

static void
kiste_window_dispose (GObject *object)
{
  KisteWindow *self = KISTE_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_WINDOW);

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (kiste_window_parent_class)->dispose (object);
}

static void
kiste_window_class_init (KisteWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = kiste_window_constructed;
  object_class->dispose = kiste_window_dispose;

  window_class->close_request = kiste_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, empty_page);
}

static void
kiste_window_init (KisteWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
