/* kiste-file.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Writes data to file in place of what it held, through a temporary file
 * in the same folder that takes the file's place once every byte is
 * written. When writing fails (a full disk, a quota), the temporary file
 * is dropped and the file keeps its old contents: GIO's own
 * g_file_replace_contents() moves the partly written file into place when
 * its stream is closed or finalized after the error. A symbolic link or a
 * file with other hard links is replaced by a file of its own. */
gboolean kiste_file_replace        (GFile                *file,
                                    const char           *data,
                                    gsize                 length,
                                    GCancellable         *cancellable,
                                    GError              **error);

/* The same in a worker thread */
void     kiste_file_replace_async  (GFile                *file,
                                    GBytes               *bytes,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
gboolean kiste_file_replace_finish (GFile                *file,
                                    GAsyncResult         *result,
                                    GError              **error);

G_END_DECLS
