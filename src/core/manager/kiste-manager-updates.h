/* kiste-manager-updates.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box.h"
#include "kiste-image-update.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* Whether the boxes' images have newer ones in their registries
 * (kiste-manager-updates.c). Nothing is ever pulled: one skopeo inspect per
 * distinct image, at most KISTE_MANAGER_UPDATE_REQUESTS at once, each
 * within KISTE_MANAGER_UPDATE_TIMEOUT_SECONDS. */

#define KISTE_MANAGER_UPDATE_REQUESTS 4
#define KISTE_MANAGER_UPDATE_TIMEOUT_SECONDS 30

/* Checks every box's image; finishes with kiste_manager_query_finish(): a
 * GPtrArray of KisteImageUpdate, one per distinct image (local ones
 * included, without asking anything), then emits image-updates-changed.
 * Fails only when nothing could be asked (skopeo missing, already
 * checking: KISTE_ERROR_BUSY). */
void                     kiste_manager_check_updates_async   (KisteManager         *self,
                                                              GCancellable         *cancellable,
                                                              GAsyncReadyCallback   callback,
                                                              gpointer              user_data);
/* What the last check said about the box's image, or NULL: not checked */
const KisteImageUpdate  *kiste_manager_get_image_update      (KisteManager         *self,
                                                              KisteBox             *box);
/* Whether the last check found a newer image than the box's own */
gboolean                 kiste_manager_box_has_newer_image   (KisteManager         *self,
                                                              KisteBox             *box);

G_END_DECLS
