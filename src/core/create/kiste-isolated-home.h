/* kiste-isolated-home.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The host facts the rewrite needs: which mounts expose the user's home */
typedef struct
{
  const char *host_home;          /* $HOME on the host */
  const char *user_name;          /* for the /var/home/$USER mount of ostree hosts */
  const char *runtime_dir;        /* $XDG_RUNTIME_DIR, /run/user/$UID */
  guint       uid;
  guint       gid;
  gboolean    host_has_var_home;  /* /var/home exists (Fedora Atomic, Bazzite) */
} KisteIsolatedHomeHost;

char **kiste_isolated_home_argv_from_dry_run (const char                  *dry_run,
                                              const KisteIsolatedHomeHost *host,
                                              GError                     **error);

G_END_DECLS
