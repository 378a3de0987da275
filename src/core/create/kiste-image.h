/* kiste-image.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KISTE_TYPE_IMAGE (kiste_image_get_type ())

G_DECLARE_FINAL_TYPE (KisteImage, kiste_image, KISTE, IMAGE, GObject)

/* An image a box can be made from: one on this computer ("downloaded"), or
 * one from distrobox's list of images known to work. */
KisteImage *kiste_image_new                    (const char  *name,
                                                gboolean     downloaded);
const char *kiste_image_get_name               (KisteImage  *self);
gboolean    kiste_image_get_downloaded         (KisteImage  *self);

/* The tagged images (KisteImage, downloaded) in the output of `podman
 * images --format json` (one JSON array with Names or RepoTags) or `docker
 * images --format '{{json .}}'` (JSON lines with Repository and Tag).
 * Untagged and invalid names are left out, each name comes once. Output
 * that is neither gives an empty array: docker prints nothing without
 * images. */
GPtrArray  *kiste_image_parse_list             (const char  *output);

/* The images (KisteImage, not downloaded) of `distrobox create
 * --compatibility`, one name a line; invalid names are left out. */
GPtrArray  *kiste_image_parse_compatibility    (const char  *output);

G_END_DECLS
