/* kiste-autostart-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_AUTOSTART_ROW (kiste_autostart_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteAutostartRow, kiste_autostart_row, KISTE, AUTOSTART_ROW, AdwActionRow)

/* A switch that starts the box when people log in (a systemd user unit):
 * shows whether it does and turns it on or off; where it cannot be, the
 * switch is gone and the row says why. */
KisteAutostartRow *kiste_autostart_row_new     (void);
void               kiste_autostart_row_set_box (KisteAutostartRow *self,
                                                KisteBox          *box);

G_END_DECLS
