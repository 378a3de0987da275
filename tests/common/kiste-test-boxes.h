/* kiste-test-boxes.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-store.h"

G_BEGIN_DECLS

void kiste_test_merge_boxes (KisteBoxStore *store,
                             const char    *ps_fixture,
                             const char    *host_home);

G_END_DECLS
