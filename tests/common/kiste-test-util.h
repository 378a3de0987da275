/* kiste-test-util.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Iterates the main context until predicate(data) or the timeout */
gboolean kiste_test_wait_for       (gboolean  (*predicate) (gpointer data),
                                    gpointer    data,
                                    guint       timeout_ms);

/* Drops the reference in *object_ptr (leaving NULL there) and waits up
 * to 5 s until the object is finalized: whatever else holds it must let go
 * by then */
void     kiste_test_unref_and_wait (gpointer   *object_ptr);

/* Removes path, which must exist, and everything in it, without following
 * symbolic links; every removal must succeed */
void     kiste_test_remove_tree    (const char *path);

G_END_DECLS
