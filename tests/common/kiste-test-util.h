/* kiste-test-util.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Removes path, which must exist, and everything in it, without following
 * symbolic links; every removal must succeed */
void kiste_test_remove_tree (const char *path);

G_END_DECLS
