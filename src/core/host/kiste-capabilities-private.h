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
void _kiste_capabilities_set_for_testing (KisteCapabilities   *self,
                                          const char          *distrobox_version,
                                          const char          *manager,
                                          const char * const  *create_flags);

/* Called at most once during a refresh, as soon as distrobox has told
 * its version and the container manager to list with is known (preferred,
 * "podman" or "docker", wins when installed, as for a load): before
 * `distrobox create --help`, the slowest probe, so the first listing need
 * not wait for it. Not called when distrobox or a manager is missing, nor
 * after cancelling. Completes as kiste_capabilities_refresh_async(). */
typedef void (*KisteCapabilitiesEarlyFunc) (const char *manager,
                                            gpointer    user_data);

void _kiste_capabilities_refresh_early_async (KisteCapabilities          *self,
                                              const char                 *preferred,
                                              KisteCapabilitiesEarlyFunc  early_func,
                                              gpointer                    early_data,
                                              GCancellable               *cancellable,
                                              GAsyncReadyCallback         callback,
                                              gpointer                    user_data);

/* For tests: replaces distrobox's list of config files; NULL restores the
 * default list. */
void _kiste_capabilities_set_config_files (KisteCapabilities   *self,
                                           const char * const  *paths);

G_END_DECLS
