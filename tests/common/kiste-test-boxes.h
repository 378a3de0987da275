/* kiste-test-boxes.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "kiste-box-store.h"

G_BEGIN_DECLS

/* The store's runner (a KisteFakeRunner) answers `podman ps` with the
 * captured ps_fixture (a file in tests/fixtures, or a path) from now on; the store,
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

/* n_boxes copies of the boxes (distrobox's and Toolbx's) of the `podman ps` JSON at
 * template_path, in turns, named PREFIX-0001 on, with ids as random as
 * real ones (similar ones would all collide in a hash) */
JsonArray *kiste_test_dup_many_boxes (const char *template_path,
                                      const char *prefix,
                                      guint       n_boxes);

G_END_DECLS
