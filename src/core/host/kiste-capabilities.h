/* kiste-capabilities.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-runner.h"

G_BEGIN_DECLS

#define KISTE_TYPE_CAPABILITIES (kiste_capabilities_get_type ())

G_DECLARE_FINAL_TYPE (KisteCapabilities, kiste_capabilities, KISTE, CAPABILITIES, GObject)

/* What the installed distrobox and container managers can do. Nothing is
 * known until a refresh finishes; results are cached until the next one.
 *
 * The chosen manager follows distrobox's own rule: DBX_CONTAINER_MANAGER,
 * else the last `container_manager=` in distrobox's config files, else
 * podman before docker. This object does not change the runner: pass
 * kiste_capabilities_get_manager() to kiste_runner_set_manager(). */
KisteCapabilities   *kiste_capabilities_new                      (KisteRunner          *runner);

/* Runs `distrobox --version`, `distrobox create --help`, `podman --version`
 * and `docker --version` in parallel and reads the config files. Finishes
 * with TRUE when everything needed is there. When distrobox or every usable
 * manager is missing, the results are still stored (loaded becomes TRUE)
 * and finish fails with KISTE_ERROR_TOOL_MISSING and the message of
 * get_distrobox_problem() or get_manager_problem(). */
void                 kiste_capabilities_refresh_async            (KisteCapabilities    *self,
                                                                  GCancellable         *cancellable,
                                                                  GAsyncReadyCallback   callback,
                                                                  gpointer              user_data);
gboolean             kiste_capabilities_refresh_finish           (KisteCapabilities    *self,
                                                                  GAsyncResult         *result,
                                                                  GError              **error);

gboolean             kiste_capabilities_get_loaded               (KisteCapabilities    *self);
gboolean             kiste_capabilities_has_distrobox            (KisteCapabilities    *self);
/* "1.8.2.5", "2.0.0-rc.4"; NULL if unknown */
const char          *kiste_capabilities_get_distrobox_version    (KisteCapabilities    *self);
/* 1 or 2; 0 if unknown */
guint                kiste_capabilities_get_distrobox_major      (KisteCapabilities    *self);
/* The manager Kiste uses: "podman", "docker" or NULL */
const char          *kiste_capabilities_get_manager              (KisteCapabilities    *self);
/* Where the choice came from: "DBX_CONTAINER_MANAGER", a config file path,
 * or NULL when autodetected */
const char          *kiste_capabilities_get_manager_source       (KisteCapabilities    *self);
/* "5.4.2" for the chosen manager; NULL if unknown */
const char          *kiste_capabilities_get_manager_version      (KisteCapabilities    *self);
/* Whether `name --version` ran ("podman", "docker") */
gboolean             kiste_capabilities_has_manager              (KisteCapabilities    *self,
                                                                  const char           *name);
/* Whether Toolbx's `toolbox --version` ran: Toolbx boxes can be made and
 * entered (on podman, the only engine Toolbx uses) */
gboolean             kiste_capabilities_has_toolbox              (KisteCapabilities    *self);
/* "0.0.99.4"; NULL if unknown */
const char          *kiste_capabilities_get_toolbox_version      (KisteCapabilities    *self);
/* For people: why distrobox cannot be used, or NULL */
const char          *kiste_capabilities_get_distrobox_problem    (KisteCapabilities    *self);
/* For people: why no manager was chosen, or NULL */
const char          *kiste_capabilities_get_manager_problem      (KisteCapabilities    *self);

/* Every long flag `distrobox create --help` lists, sorted */
const char * const  *kiste_capabilities_get_create_flags         (KisteCapabilities    *self);
gboolean             kiste_capabilities_supports_create_flag     (KisteCapabilities    *self,
                                                                  const char           *flag);
/* Whether Kiste knows the shape of what `distrobox create --dry-run`
 * prints here (kiste-isolated-home.c reads it): distrobox 1.x from 1.8.0
 * that lists --dry-run, with podman or docker */
gboolean             kiste_capabilities_can_read_dry_run         (KisteCapabilities    *self);
/* Why it cannot, where the version's reason does not say it ("Needs
 * distrobox 1.8.0 or newer", "Needs Podman or Docker"); otherwise NULL */
char                *kiste_capabilities_dup_dry_run_problem      (KisteCapabilities    *self);
/* Why a flag `distrobox create --help` does not list cannot be used,
 * short, for the UI: "Needs distrobox 1.7.0 or newer" (since: the first
 * release with the flag, or NULL), "Not available in distrobox 1.8.2.5";
 * NULL if it is listed. */
char                *kiste_capabilities_dup_unsupported_reason   (KisteCapabilities    *self,
                                                                  const char           *flag,
                                                                  const char           *since);

void                 kiste_capabilities_set_last_path_dir        (KisteCapabilities    *self,
                                                                  const char           *dir);
gboolean             kiste_capabilities_get_distrobox_is_own     (KisteCapabilities    *self);

/* distrobox's config files in the order it reads them (later wins);
 * distrobox_path is the resolved `distrobox` executable or NULL. */
char               **kiste_capabilities_dup_default_config_files (const char           *distrobox_path);

/* Pure parsers, exposed for tests. */

/* The first version number in output ("distrobox: 1.8.2.5", "distrobox
 * version 2.0.0-rc.4", "podman version 5.4.2", "Docker version 28.2.2,
 * build …"), preferring lines that start with program (case-insensitive)
 * when program is not NULL. NULL if there is none. */
char                *kiste_capabilities_parse_version            (const char           *output,
                                                                  const char           *program);
/* The first number of a version ("2.0.0-rc.4" → 2); 0 if none */
guint                kiste_capabilities_parse_major              (const char           *version);
/* Every --long-flag at the start of an option line, sorted, no duplicates */
char               **kiste_capabilities_parse_create_help        (const char           *help);
/* The value of the last simple `container_manager=…` assignment in a
 * distrobox config file (shell in v1, INI in v2), or NULL. Nothing is
 * evaluated: values using $ or ` are ignored. */
char                *kiste_capabilities_parse_config_manager     (const char           *contents);
/* The PATH a host login shell printed after KISTE_HOST_PATH=, or NULL */
char                *kiste_capabilities_parse_login_path         (const char           *output);

/* strverscmp-like ordering of version strings: < 0, 0, > 0. A release
 * sorts after its release candidates ("2.0.0-rc.4" < "2.0.0"). */
int                  kiste_capabilities_compare_versions         (const char           *a,
                                                                  const char           *b);

G_END_DECLS
