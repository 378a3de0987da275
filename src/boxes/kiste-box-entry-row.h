/* kiste-box-entry-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_ENTRY_ROW (kiste_box_entry_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteBoxEntryRow, kiste_box_entry_row, KISTE, BOX_ENTRY_ROW, AdwActionRow)

/* A switch for the box's own launcher in the host's app menu (a terminal
 * in the box, from `distrobox generate-entry`): shows whether it is there
 * and adds or removes it. */
KisteBoxEntryRow *kiste_box_entry_row_new     (void);
void              kiste_box_entry_row_set_box (KisteBoxEntryRow *self,
                                               KisteBox         *box);

G_END_DECLS
