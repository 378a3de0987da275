/* bench-frames.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Times each frame of the widget's frame clock, from the start of its
 * first phase to the end of its after-paint (GTK connects some handlers
 * while the app runs, after ours: each phase is timed from its emission
 * hook). Call before the widget's first frame. */
void     bench_frames_watch           (GtkWidget *widget);
/* The first frame's length (µs), 0 before it */
gint64   bench_frames_get_first       (void);
/* The longest frame since the last call (ms) */
double   bench_frames_take_longest_ms (void);
/* From a time on (monotonic, 0 to stop), says on stderr when each frame
 * over 10 ms began, relative to that time, and how long each of its
 * phases took */
void     bench_frames_trace           (gint64     from);

G_END_DECLS
