/* kiste-isolated-home.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The host facts the create needs: which mounts expose the user's home */
typedef struct
{
  const char *host_home;          /* $HOME on the host */
  const char *user_name;          /* for the /var/home/$USER mount of ostree hosts */
  const char *runtime_dir;        /* $XDG_RUNTIME_DIR, /run/user/$UID */
  guint       uid;
  guint       gid;
  gboolean    host_has_var_home;  /* /var/home exists (Fedora Atomic, Bazzite) */
} KisteIsolatedHomeHost;

/* What `distrobox create --dry-run` printed, split without a shell and
 * checked line by line: the engine's create command in its parts */
typedef struct _KisteIsolatedHomeDryRun KisteIsolatedHomeDryRun;

KisteIsolatedHomeDryRun *kiste_isolated_home_parse_dry_run     (const char                     *dry_run,
                                                                GError                        **error);
void                     kiste_isolated_home_dry_run_free      (KisteIsolatedHomeDryRun        *dry_run);
/* The engine's create command of a box that cannot see the user's home,
 * built from the parts */
char                   **kiste_isolated_home_build_argv        (const KisteIsolatedHomeDryRun  *dry_run,
                                                                const KisteIsolatedHomeHost    *host);
/* Both in one */
char                   **kiste_isolated_home_argv_from_dry_run (const char                     *dry_run,
                                                                const KisteIsolatedHomeHost    *host,
                                                                GError                        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteIsolatedHomeDryRun, kiste_isolated_home_dry_run_free)

G_END_DECLS
