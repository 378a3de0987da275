/* kiste-image-chooser.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_IMAGE_CHOOSER (kiste_image_chooser_get_type ())

G_DECLARE_FINAL_TYPE (KisteImageChooser, kiste_image_chooser, KISTE, IMAGE_CHOOSER, AdwBin)

/* A button with a searchable list of images: those on this computer and
 * those known to work with distrobox. Emits "image-chosen" (the name).
 * It lives in the create dialog's template. */

/* Starts listing the manager's images; cancellable stops it */
void               kiste_image_chooser_load          (KisteImageChooser *self,
                                                      KisteManager      *manager,
                                                      GCancellable      *cancellable);
/* Whether image is on this computer, as far as the list knows */
gboolean           kiste_image_chooser_is_downloaded (KisteImageChooser *self,
                                                      const char        *image);

G_END_DECLS
