/* kiste-lazy-menu.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void kiste_lazy_menu_attach (GtkMenuButton *button,
                             GMenuModel    *model);

G_END_DECLS
