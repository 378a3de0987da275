/* kiste-bundled-distrobox.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Where the Flatpak carries distrobox's scripts */
#define KISTE_BUNDLED_DISTROBOX_DIR "/app/share/kiste/distrobox"

char     *kiste_bundled_distrobox_dup_version    (const char           *dir);
char     *kiste_bundled_distrobox_dup_install_dir (void);
void      kiste_bundled_distrobox_install_async  (const char           *source_dir,
                                                  const char           *install_dir,
                                                  GCancellable         *cancellable,
                                                  GAsyncReadyCallback   callback,
                                                  gpointer              user_data);
gboolean  kiste_bundled_distrobox_install_finish (GAsyncResult         *result,
                                                  GError              **error);
gboolean  kiste_bundled_distrobox_remove         (const char           *install_dir,
                                                  GError              **error);

G_END_DECLS
