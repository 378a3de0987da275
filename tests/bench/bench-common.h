/* bench-common.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The median of values (doubles), sorting them in place; 0 when empty */
double   bench_median        (GArray     *values);
double   bench_median_of     (double     *values,
                              guint       n);

/* A 2 ms timer the main loop must answer: the longest it went without,
 * less the 2 ms it waits by design, since the last reset */
void     bench_stall_watch   (int         priority);
void     bench_stall_unwatch (void);
void     bench_stall_reset   (void);
double   bench_stall_take_ms (void);
/* From a time on (monotonic, 0 to stop), says on stderr when each stall
 * over 10 ms began, relative to that time, and how long it was */
void     bench_stall_trace   (gint64      from);

/* Appends line to path (with header first when the file is new); FALSE
 * after saying why on stderr */
gboolean bench_append_line   (const char *path,
                              const char *header,
                              const char *line);

/* Runs argv (found on PATH, stdin from /dev/null) to its end: failing
 * ends the benchmark with the reason; quietly, its failure and output are
 * ignored (clean-up of what may not be there) */
void     bench_spawn         (const char * const *argv);
void     bench_spawn_quietly (const char * const *argv);

/* An asynchronous call's callback sets bench_done; this iterates the
 * default main context until it does (clearing it first) */
extern gboolean bench_done;
void     bench_run_until_done (void);
/* A manager operation's callback (user_data: a GError ** for its error),
 * setting bench_done */
void     bench_operation_cb  (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data);

G_END_DECLS
