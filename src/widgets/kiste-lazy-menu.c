/* kiste-lazy-menu.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A menu button's menu made when it first opens. GTK makes a popover and a
 * widget for every item as soon as a model is set: work the window's first
 * frame waited for, for menus most starts never open. */

#include "config.h"

#include "kiste-lazy-menu.h"

static void
create_popup_cb (GtkMenuButton *button,
                 gpointer       user_data)
{
  if (gtk_menu_button_get_menu_model (button) == NULL)
    gtk_menu_button_set_menu_model (button, G_MENU_MODEL (user_data));
}

void
kiste_lazy_menu_attach (GtkMenuButton *button,
                        GMenuModel    *model)
{
  g_return_if_fail (GTK_IS_MENU_BUTTON (button));
  g_return_if_fail (G_IS_MENU_MODEL (model));

  gtk_menu_button_set_create_popup_func (button, create_popup_cb, g_object_ref (model), g_object_unref);
}
