/* kiste-box-source.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-box-store.h"
#include "kiste-runner.h"
#include "kiste-setup-watch.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_SOURCE (kiste_box_source_get_type ())

G_DECLARE_FINAL_TYPE (KisteBoxSource, kiste_box_source, KISTE, BOX_SOURCE, GObject)

/* Where boxes come from: a container engine on this computer and how to
 * reach it (the runner, and DBX_CONTAINER_MANAGER for distrobox), with the
 * live store of its boxes and the watch on their setup. Today podman and docker; Toolbx, root-owned
 * boxes and other machines are meant to plug in here.
 *
 * A source made with engine NULL follows the runner's manager (the one
 * distrobox itself would pick), as the first source of the manager does. */
KisteBoxSource *kiste_box_source_new         (KisteRunner          *runner,
                                              const char           *engine);

/* "podman", "docker" */
const char     *kiste_box_source_get_engine  (KisteBoxSource       *self);
/* For people, on a row among boxes of several engines: "Podman", "Docker" */
const char     *kiste_box_source_get_title   (KisteBoxSource       *self);
KisteRunner    *kiste_box_source_get_runner  (KisteBoxSource       *self);
KisteBoxStore  *kiste_box_source_get_store   (KisteBoxSource       *self);
/* Follows the setup of the store's boxes that start (kiste-setup-watch.h) */
KisteSetupWatch *kiste_box_source_get_setup_watch (KisteBoxSource  *self);

/* argv as it must run for a box of this source: a distrobox command is
 * told the engine (`env DBX_CONTAINER_MANAGER=ENGINE …`) when the runner
 * would pass another one; every other command is left as it is. */
char          **kiste_box_source_dup_argv    (KisteBoxSource       *self,
                                              const char * const   *argv);

G_END_DECLS
