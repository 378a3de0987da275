/* kiste-first-boxes.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a first box is for, as the empty window offers it */
typedef enum
{
  KISTE_FIRST_BOX_HOST,   /* the distribution the computer runs */
  KISTE_FIRST_BOX_OTHER,  /* another common distribution */
  KISTE_FIRST_BOX_TRY,    /* a temporary box to try an image in */
} KisteFirstBoxKind;

/* One way to a first box: a distribution and the image it is made from */
typedef struct
{
  KisteFirstBoxKind  kind;
  /* as kiste-distro.h names it ("debian"); static */
  const char        *distro_id;
  char              *image;
} KisteFirstBox;

void        kiste_first_box_free                 (KisteFirstBox *box);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteFirstBox, kiste_first_box_free)

/* The image distrobox makes boxes of distro_id (kiste-distro.h) from, such
 * as "registry.fedoraproject.org/fedora-toolbox:42" for "fedora" and "42".
 * version_id is the VERSION_ID of an os-release of that distribution; NULL
 * (or one that cannot be a tag) gives its current release. NULL for
 * distributions without an image of their own (NixOS, "generic"). */
char       *kiste_first_boxes_image_for_distro   (const char    *distro_id,
                                                  const char    *version_id);

/* Where the computer's os-release is: the host's through /run/host inside
 * a Flatpak sandbox (which has its runtime's in /etc), else /etc/os-release
 * or, without it, /usr/lib/os-release (os-release(5)). */
const char *kiste_first_boxes_os_release_path    (gboolean       in_flatpak);

/* The first boxes (KisteFirstBox) to offer on a computer whose os-release
 * says contents, best first: a box of its own distribution (by ID, else by
 * ID_LIKE, so that Linux Mint gets Ubuntu), another common distribution,
 * and one to try. When the distribution has no image (NixOS, an unknown
 * one, NULL contents), two common ones come before the one to try. Always
 * three, of three distributions. */
GPtrArray  *kiste_first_boxes_for_os_release     (const char    *contents);

/* The same for the os-release file at path; a file that is missing or
 * cannot be read is an unknown distribution */
GPtrArray  *kiste_first_boxes_load               (const char    *path);

G_END_DECLS
