/* kiste-snapshots-group.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_SNAPSHOTS_GROUP (kiste_snapshots_group_get_type ())

G_DECLARE_FINAL_TYPE (KisteSnapshotsGroup, kiste_snapshots_group, KISTE, SNAPSHOTS_GROUP, AdwPreferencesGroup)

/* Snapshots on a box's details: the box's snapshots with their date and
 * size, Take Snapshot, and for each Restore…, New Box From Snapshot… and
 * Delete…; and the question before a box is made again (Recreate…, Update
 * Box…), which says what is kept and what is not. Everything goes through
 * the manager; the window shows the outcome. Hidden for a toolbox. */

void        kiste_snapshots_group_set_manager   (KisteSnapshotsGroup *self,
                                                 KisteManager        *manager);
void        kiste_snapshots_group_set_box       (KisteSnapshotsGroup *self,
                                                 KisteBox            *box);
/* The box's snapshots as last listed (KisteSnapshot), or NULL */
GPtrArray  *kiste_snapshots_group_get_snapshots (KisteSnapshotsGroup *self);
/* Takes a snapshot of the box, as its Take Snapshot row does */
void        kiste_snapshots_group_take          (KisteSnapshotsGroup *self);
/* Asks, then makes the box again from its image; update downloads the
 * newer image first */
void        kiste_snapshots_group_ask_recreate  (KisteSnapshotsGroup *self,
                                                 gboolean             update);

G_END_DECLS
