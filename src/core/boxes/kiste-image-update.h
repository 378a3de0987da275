/* kiste-image-update.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Whether a box's image has a newer one in its registry: the digests the
 * engine keeps for the image a box was made from, against the digest the
 * registry names for the same reference today (skopeo inspect, nothing
 * pulled). */

typedef enum
{
  KISTE_IMAGE_UPDATE_CURRENT,     /* the registry still has this image */
  KISTE_IMAGE_UPDATE_NEWER,       /* the registry has another image by that name */
  KISTE_IMAGE_UPDATE_LOCAL,       /* made here (localhost/…, an id): no registry to ask */
  KISTE_IMAGE_UPDATE_UNREACHABLE, /* offline, refused, timed out */
  KISTE_IMAGE_UPDATE_FAILED,      /* the registry answered no (unknown image, denied…) */
} KisteImageUpdateState;

/* The answer for one image name, shared by every box made from it */
typedef struct
{
  char                  *image;         /* the name the boxes show */
  KisteImageUpdateState  state;
  char                  *remote_digest; /* the registry's, or NULL */
  GDateTime             *created;       /* when the registry's image was made, or NULL */
  GStrv                  outdated_ids;  /* NEWER: the local image ids the registry no longer has */
  char                  *message;       /* UNREACHABLE, FAILED: why, for people */
} KisteImageUpdate;

/* Answers longer than this are no registry's answer */
#define KISTE_IMAGE_UPDATE_OUTPUT_LIMIT (1024 * 1024)

GType              kiste_image_update_get_type          (void) G_GNUC_CONST;
KisteImageUpdate  *kiste_image_update_new               (const char              *image,
                                                         KisteImageUpdateState    state);
KisteImageUpdate  *kiste_image_update_copy              (const KisteImageUpdate  *update);
void               kiste_image_update_free              (KisteImageUpdate        *update);

/* Whether image names a registry to ask: not localhost/…, not an image id,
 * a valid reference (kiste_validate_image()) */
gboolean           kiste_image_update_is_remote         (const char              *image);
/* skopeo's argv for one image (no TLS flags: the user's registries.conf
 * says which registries speak plain HTTP), bounded by timeout_seconds */
GStrv              kiste_image_update_remote_argv       (const char              *image,
                                                         guint                    timeout_seconds);
/* The engine's argv that prints the local images' digests (JSON) */
GStrv              kiste_image_update_local_argv        (const char              *engine,
                                                         const char * const      *image_refs);
/* skopeo inspect's JSON: the digest (sha256:…) and the image's creation */
gboolean           kiste_image_update_parse_remote      (const char              *output,
                                                         char                   **digest,
                                                         GDateTime              **created,
                                                         GError                 **error);
/* The engine's image inspect JSON: image id -> GStrv of every digest it
 * is known by (Digest and RepoDigests) */
GHashTable        *kiste_image_update_parse_local       (const char              *output,
                                                         GError                 **error);
/* What skopeo's error says: UNREACHABLE (no network, refused, no such
 * host, timeout, TLS) or FAILED (the registry answered) */
KisteImageUpdateState kiste_image_update_classify_error (const char              *stderr_text);
/* The ids of local (from parse_local) that digest does not name */
GStrv              kiste_image_update_find_outdated     (GHashTable              *local,
                                                         const char              *digest);
/* Whether a box with this image name and id is made from an older image */
gboolean           kiste_image_update_applies_to        (const KisteImageUpdate  *update,
                                                         const char              *image_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteImageUpdate, kiste_image_update_free)

G_END_DECLS
