/* kiste-image-model.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-manager-queries.h"

G_BEGIN_DECLS

#define KISTE_TYPE_IMAGE_MODEL (kiste_image_model_get_type ())

G_DECLARE_FINAL_TYPE (KisteImageModel, kiste_image_model, KISTE, IMAGE_MODEL, GObject)

/* The images to choose from (a GListModel of KisteImage): those on this
 * computer first, then those known to work with distrobox that are not
 * downloaded yet. */
KisteImageModel *kiste_image_model_new                (void);

/* Asks the manager for both lists; the model fills as they arrive */
void             kiste_image_model_load               (KisteImageModel  *self,
                                                       KisteManager     *manager,
                                                       GCancellable     *cancellable);

/* TRUE once the images on this computer are known (or could not be) */
gboolean         kiste_image_model_get_loaded         (KisteImageModel  *self);
/* TRUE once distrobox's list of known images is there: it needs the
 * network the first time */
gboolean         kiste_image_model_get_has_compatible (KisteImageModel  *self);
gboolean         kiste_image_model_is_downloaded      (KisteImageModel  *self,
                                                       const char       *name);

/* Whether the boxes' snapshots (kiste-snapshot.h) are among the
 * downloaded images; they are not unless asked for */
void             kiste_image_model_set_show_snapshots (KisteImageModel  *self,
                                                       gboolean          show);
/* How many of the downloaded images are snapshots, shown or not */
guint            kiste_image_model_get_n_snapshots    (KisteImageModel  *self);
/* The two lists (GPtrArray of KisteImage), as load() sets them */
void             kiste_image_model_set_downloaded     (KisteImageModel  *self,
                                                       GPtrArray        *images);
void             kiste_image_model_set_compatible     (KisteImageModel  *self,
                                                       GPtrArray        *images);

G_END_DECLS
