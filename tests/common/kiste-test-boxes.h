/* kiste-test-boxes.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-store.h"

G_BEGIN_DECLS

/* The store's runner (a KisteFakeRunner) answers `podman ps` with the
 * captured ps_fixture (a file in tests/fixtures) from now on; the store,
 * as host_home's (unless NULL), reloads through it and has listed those
 * boxes when this returns: how UI tests fill the store, through its real
 * `ps` path. */
void kiste_test_serve_boxes      (KisteBoxStore *store,
                                  const char    *ps_fixture,
                                  const char    *host_home);
/* The same with the output of `podman ps` as text */
void kiste_test_serve_boxes_json (KisteBoxStore *store,
                                  const char    *json);

/* For core tests only: the boxes of ps_fixture merged into the store, as
 * host_home's, through the store's private parser, without running
 * anything */
void kiste_test_merge_boxes      (KisteBoxStore *store,
                                  const char    *ps_fixture,
                                  const char    *host_home);

G_END_DECLS
