/* kiste-box-list.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-box-source.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_LIST (kiste_box_list_get_type ())

/* A GListModel of KisteBox: the boxes of every source (podman and docker
 * side by side), the first source's first, each store's in its own order.
 * Each store still runs one ps per refresh and one events stream; the list
 * only forwards their changes.
 *
 * The first source is the one Kiste works with by default (new boxes,
 * distrobox's own choice of engine); its boxes are named by their name.
 * A box of another source is named "ENGINE/NAME" (kiste_box_get_ref()), so
 * that equal names in two engines stay apart.
 *
 * Properties: "loaded", "error" and "watching" are the first source's (the
 * others add what they can: an engine that cannot be reached leaves the
 * list), "refreshing" (any source), "several-engines" (boxes of more than
 * one engine are listed: rows then say which), "several-tools" (distrobox
 * and Toolbx boxes are listed: rows then say which), "n-items",
 * "item-type". */
G_DECLARE_FINAL_TYPE (KisteBoxList, kiste_box_list, KISTE, BOX_LIST, GObject)

KisteBoxList   *kiste_box_list_new                 (KisteBoxSource       *first);

/* Adds a source after the others (ignored when one of its engine is
 * there); it is watched when the list is */
void            kiste_box_list_add_source          (KisteBoxList         *self,
                                                    KisteBoxSource       *source);
void            kiste_box_list_remove_source       (KisteBoxList         *self,
                                                    KisteBoxSource       *source);
/* The sources in order, the first one first (transfer none) */
GPtrArray      *kiste_box_list_get_sources         (KisteBoxList         *self);
KisteBoxSource *kiste_box_list_get_first_source    (KisteBoxList         *self);
/* The source of engine, or NULL */
KisteBoxSource *kiste_box_list_find_source         (KisteBoxList         *self,
                                                    const char           *engine);
/* The source that lists box; the first one for a box no store lists */
KisteBoxSource *kiste_box_list_get_source_for_box  (KisteBoxList         *self,
                                                    KisteBox             *box);

/* The box a ref names (kiste_box_get_ref()): "ENGINE/NAME", or a name,
 * looked up in the first source first. Borrowed; NULL if there is none. */
KisteBox       *kiste_box_list_find                (KisteBoxList         *self,
                                                    const char           *ref);
/* Splits ref into its source (the first one for a plain name; NULL for an
 * engine the list does not have) and the box's name (borrowed from ref) */
KisteBoxSource *kiste_box_list_parse_ref           (KisteBoxList         *self,
                                                    const char           *ref,
                                                    const char          **name);

/* Every source's store reloads; completes when all are done, with the
 * first source's error */
void            kiste_box_list_reload_async        (KisteBoxList         *self,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        kiste_box_list_reload_finish       (KisteBoxList         *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
/* One inspect per source for the boxes of boxes that it lists */
void            kiste_box_list_load_details_async  (KisteBoxList         *self,
                                                    KisteBox * const     *boxes,
                                                    guint                 n_boxes,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        kiste_box_list_load_details_finish (KisteBoxList         *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);
/* Stops every source's events stream */
void            kiste_box_list_stop_watching       (KisteBoxList         *self);

gboolean        kiste_box_list_get_loaded          (KisteBoxList         *self);
gboolean        kiste_box_list_get_watching        (KisteBoxList         *self);
const GError   *kiste_box_list_get_error           (KisteBoxList         *self);
gboolean        kiste_box_list_get_several_engines (KisteBoxList         *self);
gboolean        kiste_box_list_get_several_tools   (KisteBoxList         *self);
/* The host home boxes are compared against */
const char     *kiste_box_list_get_host_home       (KisteBoxList         *self);

G_END_DECLS
