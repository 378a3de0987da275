/* kiste-fetch.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Whether uri may be downloaded as a manifest: https, or http to this
 * computer only; KISTE_ERROR_INVALID_INPUT says why not. */
gboolean     kiste_fetch_check_manifest_uri        (const char           *uri,
                                                    GError              **error);
/* Downloads a manifest with one HTTP/1.0 GET: no redirections followed,
 * at most 1 MiB of UTF-8 text, 15 seconds. */
void         kiste_fetch_manifest_async            (const char           *uri,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
char        *kiste_fetch_manifest_finish           (GAsyncResult         *result,
                                                    gsize                *length,
                                                    GError              **error);

G_END_DECLS
