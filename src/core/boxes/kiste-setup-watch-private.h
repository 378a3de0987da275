/* kiste-setup-watch-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-setup-watch.h"

G_BEGIN_DECLS

/* For tests: how long a setup must last before the box says so (default
 * 1 s: a box whose setup is long done reads its log in less, without a
 * flicker) */
void             _kiste_setup_watch_set_delay      (KisteSetupWatch         *self,
                                                    guint                    delay_ms);

G_END_DECLS
