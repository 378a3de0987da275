/* kiste-app-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-app-row.h"

#define GENERIC_ICON "application-x-executable"

struct _KisteAppRow
{
  GtkListBoxRow    parent_instance;

  KisteDesktopApp *app;
  GtkWidget       *context_menu;
  gboolean         busy;

  /* Template widgets */
  GtkImage        *icon;
  GtkLabel        *name_label;
  GtkLabel        *comment_label;
  GtkButton       *menu_button;
  AdwSpinner      *spinner;
};

G_DEFINE_FINAL_TYPE (KisteAppRow, kiste_app_row, GTK_TYPE_LIST_BOX_ROW)

static void
kiste_app_row_update (KisteAppRow *self)
{
  gboolean exported = kiste_desktop_app_get_exported (self->app);
  const char *label = exported ? _("Remove from Menu") : _("Add to Menu");

  /* The row names the app for screen readers; the button says what it does */
  gtk_button_set_label (self->menu_button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->menu_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->menu_button),
                                  exported ? "apps.remove" : "apps.add");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->menu_button),
                               exported ? _("Remove the app from your computer’s app menu")
                                        : _("Put the app in your computer’s app menu"));

  gtk_widget_set_sensitive (GTK_WIDGET (self->menu_button), !self->busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), self->busy);
}

KisteAppRow *
kiste_app_row_new (KisteDesktopApp *app)
{
  KisteAppRow *self;
  const char *comment;

  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (app), NULL);

  self = g_object_new (KISTE_TYPE_APP_ROW, NULL);
  self->app = g_object_ref (app);
  comment = kiste_desktop_app_get_comment (app);

  gtk_label_set_label (self->name_label, kiste_desktop_app_get_name (app));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), kiste_desktop_app_get_path (app));
  kiste_app_row_set_show_id (self, FALSE);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (self->menu_button), "s",
                                    kiste_desktop_app_get_id (app));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, kiste_desktop_app_get_name (app),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, comment ? comment : "",
                                  -1);

  g_signal_connect_object (app, "notify::exported", G_CALLBACK (kiste_app_row_update), self,
                           G_CONNECT_SWAPPED);
  kiste_app_row_update (self);

  return self;
}

KisteDesktopApp *
kiste_app_row_get_app (KisteAppRow *self)
{
  g_return_val_if_fail (KISTE_IS_APP_ROW (self), NULL);

  return self->app;
}

void
kiste_app_row_set_icon (KisteAppRow  *self,
                        GdkPaintable *icon)
{
  g_return_if_fail (KISTE_IS_APP_ROW (self));
  g_return_if_fail (!icon || GDK_IS_PAINTABLE (icon));

  if (icon != NULL)
    gtk_image_set_from_paintable (self->icon, icon);
  else
    gtk_image_set_from_icon_name (self->icon, GENERIC_ICON);
}

void
kiste_app_row_set_show_id (KisteAppRow *self,
                           gboolean     show_id)
{
  const char *comment;
  g_autofree char *text = NULL;

  g_return_if_fail (KISTE_IS_APP_ROW (self));

  comment = kiste_desktop_app_get_comment (self->app);
  if (show_id && comment != NULL)
    /* Translators: an app's comment and its file name, "Edit text files · editor.desktop" */
    text = g_strdup_printf (_("%s · %s"), comment, kiste_desktop_app_get_id (self->app));
  else if (show_id)
    text = g_strdup (kiste_desktop_app_get_id (self->app));
  else
    text = g_strdup (comment ? comment : "");

  gtk_label_set_label (self->comment_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->comment_label), text[0] != '\0');
}

void
kiste_app_row_set_busy (KisteAppRow *self,
                        gboolean     busy)
{
  g_return_if_fail (KISTE_IS_APP_ROW (self));

  self->busy = !!busy;
  kiste_app_row_update (self);
}

/* The context menu: what can be done with this app */
static void
kiste_app_row_show_menu (KisteAppRow *self,
                         double       x,
                         double       y)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  const char *id = kiste_desktop_app_get_id (self->app);
  struct {
    const char *label;
    const char *action;
    gboolean    shown;
  } items[] = {
    { N_("_Add to Menu"), "apps.add", !kiste_desktop_app_get_exported (self->app) },
    { N_("_Remove from Menu"), "apps.remove", kiste_desktop_app_get_exported (self->app) },
    { N_("_Launch"), "apps.launch", TRUE },
    { N_("_Copy Launch Command"), "apps.copy-command", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(GMenuItem) item = NULL;

      if (!items[i].shown)
        continue;
      item = g_menu_item_new (_(items[i].label), NULL);
      g_menu_item_set_action_and_target_value (item, items[i].action, g_variant_new_string (id));
      g_menu_append_item (i < 2 ? menu : section, item);
    }
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu), &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

void
kiste_app_row_popup_menu (KisteAppRow *self)
{
  g_return_if_fail (KISTE_IS_APP_ROW (self));

  kiste_app_row_show_menu (self, gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
}

static void
kiste_app_row_click_cb (GtkGestureClick *gesture,
                        int              n_press,
                        double           x,
                        double           y,
                        KisteAppRow     *self)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  kiste_app_row_show_menu (self, x, y);
}

static void
kiste_app_row_long_press_cb (GtkGestureLongPress *gesture,
                             double               x,
                             double               y,
                             KisteAppRow         *self)
{
  kiste_app_row_show_menu (self, x, y);
}

static void
kiste_app_row_menu_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  kiste_app_row_popup_menu (KISTE_APP_ROW (widget));
}

static void
kiste_app_row_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  KisteAppRow *self = KISTE_APP_ROW (widget);

  GTK_WIDGET_CLASS (kiste_app_row_parent_class)->size_allocate (widget, width, height, baseline);
  gtk_popover_present (GTK_POPOVER (self->context_menu));
}

static void
kiste_app_row_dispose (GObject *object)
{
  KisteAppRow *self = KISTE_APP_ROW (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_APP_ROW);
  g_clear_object (&self->app);

  G_OBJECT_CLASS (kiste_app_row_parent_class)->dispose (object);
}

static void
kiste_app_row_class_init (KisteAppRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_app_row_dispose;
  widget_class->size_allocate = kiste_app_row_size_allocate;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-app-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteAppRow, icon);
  gtk_widget_class_bind_template_child (widget_class, KisteAppRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, KisteAppRow, comment_label);
  gtk_widget_class_bind_template_child (widget_class, KisteAppRow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, KisteAppRow, spinner);

  gtk_widget_class_install_action (widget_class, "row.menu", NULL, kiste_app_row_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "row.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "row.menu", NULL);
}

static void
kiste_app_row_init (KisteAppRow *self)
{
  GtkGesture *click;
  GtkGesture *long_press;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->context_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (kiste_app_row_click_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect_object (long_press, "pressed", G_CALLBACK (kiste_app_row_long_press_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (long_press));
}
