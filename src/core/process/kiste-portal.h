/* kiste-portal.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The host path of a file or folder picked through the Documents portal
 * (/run/user/UID/doc/ID/NAME/…), asked from the portal's GetHostPaths on
 * the session bus; other paths come back unchanged. A sandboxed app sees
 * picked folders only through the portal's FUSE mount, which host
 * commands cannot use. KISTE_ERROR_NOT_FOUND when the portal cannot tell. */
void   kiste_portal_resolve_host_path_async  (const char           *path,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
char  *kiste_portal_resolve_host_path_finish (GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
