/* kiste-test-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-box-store-private.h"
#include "kiste-test-boxes.h"

/* The boxes of a captured `podman ps` (a file in tests/fixtures) in the
 * store, as host_home's, without running anything */
void
kiste_test_merge_boxes (KisteBoxStore *store,
                        const char    *ps_fixture,
                        const char    *host_home)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), ps_fixture, NULL);
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;

  kiste_box_store_set_host_home (store, host_home);
  g_assert_true (g_file_get_contents (path, &json, NULL, &error));
  g_assert_true (_kiste_box_store_parse (store, json, &boxes, &error));
  g_assert_no_error (error);
  _kiste_box_store_merge (store, boxes);
}
