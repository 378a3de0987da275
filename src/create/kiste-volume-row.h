/* kiste-volume-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KISTE_TYPE_VOLUME_ROW (kiste_volume_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteVolumeRow, kiste_volume_row, KISTE, VOLUME_ROW, AdwPreferencesRow)

/* One --volume of a new box: a folder on this computer, the path it gets in
 * the box and whether the box may change it.
 *
 * Signals: "changed" when anything was edited, "remove" when people ask to
 * drop the row, "choose-host-folder" when they want a folder picker (the
 * owner runs it, so that portal paths are resolved in one place). */
KisteVolumeRow *kiste_volume_row_new           (void);

const char     *kiste_volume_row_get_host_path (KisteVolumeRow  *self);
void            kiste_volume_row_set_host_path (KisteVolumeRow  *self,
                                                const char      *host_path);
const char     *kiste_volume_row_get_box_path  (KisteVolumeRow  *self);
void            kiste_volume_row_set_box_path  (KisteVolumeRow  *self,
                                                const char      *box_path);
gboolean        kiste_volume_row_get_read_only (KisteVolumeRow  *self);
void            kiste_volume_row_set_read_only (KisteVolumeRow  *self,
                                                gboolean         read_only);

/* HOST:BOX[:OPTIONS] as distrobox takes it; other options than "ro" are
 * kept as they were. A spec without a colon stays a host path alone. */
void            kiste_volume_row_set_spec      (KisteVolumeRow  *self,
                                                const char      *spec);
/* The spec for --volume; NULL while the row is empty. A row without a path
 * in the box gives the host path alone, which validation refuses. */
char           *kiste_volume_row_dup_spec      (KisteVolumeRow  *self);

/* Shows message under the row and marks it invalid; NULL clears it */
void            kiste_volume_row_set_error     (KisteVolumeRow  *self,
                                                const char      *message);
/* The message shown, or NULL */
const char     *kiste_volume_row_get_error     (KisteVolumeRow  *self);

G_END_DECLS
