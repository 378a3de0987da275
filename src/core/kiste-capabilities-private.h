/* kiste-capabilities-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-capabilities.h"

G_BEGIN_DECLS

/* For tests: marks the object loaded with these results, without running
 * anything. distrobox_version NULL means distrobox is missing; manager
 * NULL means no manager; create_flags NULL means none. */
void kiste_capabilities_set_for_testing (KisteCapabilities   *self,
                                         const char          *distrobox_version,
                                         const char          *manager,
                                         const char * const  *create_flags);

G_END_DECLS
