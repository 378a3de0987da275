/* kiste-snapshot.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A snapshot of a box: the engine's commit of the box into a local image
 * named localhost/kiste-snapshot:BOX-YYYYMMDD-HHMMSS (UTC), labelled with
 * the box and the time. Bind mounts (the home folder, volumes) are not part
 * of it. Nothing here starts a process: the argv builders check their
 * input and return NULL with KISTE_ERROR_INVALID_INPUT for anything else. */

#define KISTE_SNAPSHOT_REPOSITORY   "localhost/kiste-snapshot"
#define KISTE_SNAPSHOT_LABEL_BOX    "io.github.kiste.snapshot.box"
#define KISTE_SNAPSHOT_LABEL_TIME   "io.github.kiste.snapshot.time"
#define KISTE_SNAPSHOT_LABEL_REASON "io.github.kiste.snapshot.reason"
/* More snapshots than this in one listing are not read */
#define KISTE_SNAPSHOT_LIST_LIMIT   500

#define KISTE_TYPE_SNAPSHOT (kiste_snapshot_get_type ())

G_DECLARE_FINAL_TYPE (KisteSnapshot, kiste_snapshot, KISTE, SNAPSHOT, GObject)

/* The image's name (localhost/kiste-snapshot:TAG) */
const char  *kiste_snapshot_get_image         (KisteSnapshot       *self);
const char  *kiste_snapshot_get_box_name      (KisteSnapshot       *self);
/* The engine's image id, or NULL */
const char  *kiste_snapshot_get_id            (KisteSnapshot       *self);
/* When it was taken (UTC) */
GDateTime   *kiste_snapshot_get_time          (KisteSnapshot       *self);
/* Its size for people ("1.2 GB"), or NULL when the engine did not say */
const char  *kiste_snapshot_get_size_text     (KisteSnapshot       *self);

/* The image name of a snapshot of box_name taken at time (any zone) */
char        *kiste_snapshot_dup_image_name    (const char          *box_name,
                                               GDateTime           *time,
                                               GError             **error);
/* Whether image is the name of a snapshot of box_name; sets its time */
gboolean     kiste_snapshot_parse_image_name  (const char          *image,
                                               const char          *box_name,
                                               GDateTime          **time);
/* Whether image is a snapshot's name, of any box */
gboolean     kiste_snapshot_is_snapshot_image (const char          *image);

/* `ENGINE commit --pause=true --change "LABEL …" … BOX IMAGE`: the box
 * paused only while it is copied; reason is "snapshot" or "recreate".
 * Without pause, --pause=false: rootless podman on cgroups v1 cannot pause
 * a box (kiste_snapshot_error_is_pause()) */
GStrv        kiste_snapshot_commit_argv       (const char          *engine,
                                               const char          *box_name,
                                               const char          *image,
                                               const char          *reason,
                                               gboolean             pause,
                                               GError             **error);
/* Whether a failed commit failed because the engine cannot pause the box */
gboolean     kiste_snapshot_error_is_pause    (const GError        *error);
/* The engine's listing of box_name's snapshots: `images --filter
 * label=io.github.kiste.snapshot.box=BOX`, JSON */
GStrv        kiste_snapshot_list_argv         (const char          *engine,
                                               const char          *box_name,
                                               GError             **error);
/* `ENGINE rmi IMAGE…` for snapshots' names only */
GStrv        kiste_snapshot_remove_argv       (const char          *engine,
                                               const char * const  *images,
                                               GError             **error);

/* The snapshots of box_name (KisteSnapshot, newest first) in the output of
 * kiste_snapshot_list_argv(): podman's JSON array or docker's JSON lines.
 * Only images named as box_name's snapshots count (a label alone is any
 * image author's to set), and podman's box label must agree; at most
 * KISTE_SNAPSHOT_LIST_LIMIT. Output that is neither: KISTE_ERROR_BAD_OUTPUT. */
GPtrArray   *kiste_snapshot_parse_list        (const char          *output,
                                               const char          *box_name,
                                               GError             **error);

G_END_DECLS
