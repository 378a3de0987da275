/* kiste-box-store-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-store.h"

G_BEGIN_DECLS

/* The boxes (KisteBox, new references) in ps output: a JSON array from
 * podman, JSON lines from docker. Containers that are not boxes are left
 * out. Unreadable output is KISTE_ERROR_BAD_OUTPUT. */
gboolean  _kiste_box_store_parse             (KisteBoxStore  *self,
                                              const char     *text,
                                              GPtrArray     **boxes_out,
                                              GError        **error);

/* Makes the list match boxes (see kiste-box-store.h for the rules) */
void      _kiste_box_store_merge             (KisteBoxStore  *self,
                                              GPtrArray      *boxes);

/* One line of the events stream. Returns TRUE if it asked for a refresh. */
gboolean  _kiste_box_store_handle_event_line (KisteBoxStore  *self,
                                              const char     *line);

/* For tests: the delay that coalesces events, the first delay before an
 * events stream is restarted (doubling up to a cap), the number of quick
 * failures in a row after which watching gives up, and the timeout of ps
 * and inspect. 0 keeps a value. */
void      _kiste_box_store_set_timings       (KisteBoxStore  *self,
                                              guint           refresh_delay_ms,
                                              guint           restart_delay_ms,
                                              guint           max_restarts,
                                              guint           timeout_ms);

/* For tests and benchmarks: refreshes done, processes started */
guint     _kiste_box_store_get_refresh_count  (KisteBoxStore  *self);
guint     _kiste_box_store_get_spawn_count    (KisteBoxStore  *self);

G_END_DECLS
