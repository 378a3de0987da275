/* kiste-app-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-apps.h"

G_BEGIN_DECLS

#define KISTE_TYPE_APP_ROW (kiste_app_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteAppRow, kiste_app_row, KISTE, APP_ROW, GtkListBoxRow)

/* One app of a box: its icon, name and comment, a button that adds it to
 * the host's app menu or removes it, and a context menu (right-click,
 * long-press, Menu key, Shift+F10) whose items are the page's apps.*
 * actions with the app's desktop file id. */
KisteAppRow     *kiste_app_row_new       (KisteDesktopApp *app);
KisteDesktopApp *kiste_app_row_get_app   (KisteAppRow     *self);
/* The app's own icon from the box, or NULL for the generic one */
void             kiste_app_row_set_icon  (KisteAppRow     *self,
                                          GdkPaintable    *icon);
/* Shows the desktop file's name after the comment: for apps whose names
 * are the same */
void             kiste_app_row_set_show_id (KisteAppRow   *self,
                                            gboolean       show_id);
/* An operation on the app is running: the button waits */
void             kiste_app_row_set_busy  (KisteAppRow     *self,
                                          gboolean         busy);
/* Opens the context menu as the Menu key does */
void             kiste_app_row_popup_menu (KisteAppRow    *self);

G_END_DECLS
