/* kiste-box-store.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-box.h"
#include "kiste-runner.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_STORE (kiste_box_store_get_type ())

/* A GListModel of KisteBox: the user's distrobox boxes as the runner's
 * manager ("podman", the default, or "docker") lists them.
 *
 * One refresh = one `podman ps -a --no-trunc --format json` (docker:
 * `docker ps -a --no-trunc --format '{{json .}}'`), merged by id: a box
 * that is still there keeps its object and position and only notifies the
 * properties that changed; items-changed is emitted for removals and
 * additions only (additions go to the end, sorted by name among
 * themselves), and not at all when nothing was added or removed.
 *
 * start_watching() keeps one `podman events` process running; events
 * within a short delay share one refresh, events during a refresh queue
 * exactly one more, and a stream that dies is restarted with a growing,
 * bounded delay. Nothing polls.
 *
 * Properties: "runner", "engine", "host-home", "loaded" (a refresh succeeded once),
 * "refreshing", "watching", "error" (G_TYPE_ERROR of the last refresh, NULL
 * after a good one; a failed refresh keeps the last list), "refresh-count"
 * (refreshes started, one process each), "spawn-count" (every process the
 * store started: ps, inspect, events), "n-items", "item-type". */
G_DECLARE_FINAL_TYPE (KisteBoxStore, kiste_box_store, KISTE, BOX_STORE, GObject)

/* Does not block and runs nothing: call reload_async() or start_watching() */
KisteBoxStore  *kiste_box_store_new                 (KisteRunner          *runner);
/* The boxes of engine ("podman", "docker") instead of the runner's */
KisteBoxStore  *kiste_box_store_new_for_engine      (KisteRunner          *runner,
                                                     const char           *engine);
/* The engine listed: the "engine" given, else the runner's, else podman */
const char     *kiste_box_store_get_engine          (KisteBoxStore        *self);

KisteRunner    *kiste_box_store_get_runner          (KisteBoxStore        *self);

/* The host home boxes are compared against (default: g_get_home_dir()) */
const char     *kiste_box_store_get_host_home       (KisteBoxStore        *self);
void            kiste_box_store_set_host_home       (KisteBoxStore        *self,
                                                     const char           *host_home);

/* Completes after a refresh that started after this call. Callers that
 * reload while a refresh runs share the one that follows it. Cancelling
 * returns G_IO_ERROR_CANCELLED at once and stops the process if nobody
 * else waits for it. */
void            kiste_box_store_reload_async        (KisteBoxStore        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean        kiste_box_store_reload_finish       (KisteBoxStore        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);

/* Starts the events stream and a refresh to catch up (so no separate
 * reload is needed). stop_watching() ends the stream. */
/* Starts watching and completes (with kiste_box_store_reload_finish) once
 * the boxes are listed: one ps, taken after the events stream started. */
void            kiste_box_store_watch_async         (KisteBoxStore        *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
void            kiste_box_store_start_watching      (KisteBoxStore        *self);
void            kiste_box_store_stop_watching       (KisteBoxStore        *self);
gboolean        kiste_box_store_get_watching        (KisteBoxStore        *self);

/* One `podman container inspect --format json ID…` for all of boxes,
 * applied with kiste_box_apply_inspect_json(). */
void            kiste_box_store_load_details_async  (KisteBoxStore        *self,
                                                     KisteBox * const     *boxes,
                                                     guint                 n_boxes,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean        kiste_box_store_load_details_finish (KisteBoxStore        *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);

/* Borrowed; NULL if not in the list */
KisteBox       *kiste_box_store_find_by_name        (KisteBoxStore        *self,
                                                     const char           *name);
KisteBox       *kiste_box_store_find_by_id          (KisteBoxStore        *self,
                                                     const char           *id);

gboolean        kiste_box_store_get_loaded          (KisteBoxStore        *self);
gboolean        kiste_box_store_get_refreshing      (KisteBoxStore        *self);
const GError   *kiste_box_store_get_error           (KisteBoxStore        *self);

G_END_DECLS
