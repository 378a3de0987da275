/* kiste-color-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KISTE_TYPE_COLOR_ROW (kiste_color_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteColorRow, kiste_color_row, KISTE, COLOR_ROW, AdwActionRow)

/* A box's colour: a small palette of swatches and "none", kept in the
 * "box-colors" setting. The colour tints the box's terminal tabs so its
 * shells are never mistaken for the host's. */
void           kiste_color_row_set_settings  (KisteColorRow *self,
                                              GSettings     *settings);
void           kiste_color_row_set_box_name  (KisteColorRow *self,
                                              const char    *box_name);

/* The colour chosen for box_name in settings; FALSE when none */
gboolean       kiste_box_color_lookup        (GSettings     *settings,
                                              const char    *box_name,
                                              GdkRGBA       *color);
/* Gives box_name the palette colour named color ("blue", …), or none when
 * color is NULL or "" */
void           kiste_box_color_set           (GSettings     *settings,
                                              const char    *box_name,
                                              const char    *color);

G_END_DECLS
