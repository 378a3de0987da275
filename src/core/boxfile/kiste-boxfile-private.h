/* kiste-boxfile-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the reader and the writer of box files share: the tar headers
 * (kiste-boxfile-tar.c), also used by the tests, which build broken
 * files with them; SHA-256 in hexadecimal; progress from a worker
 * thread. */

#pragma once

#include <glib.h>
#include <nettle/sha2.h>

#include "kiste-boxfile.h"

G_BEGIN_DECLS

#define KISTE_TAR_BLOCK 512

/* A ustar header of a regular file called name (at most 99 bytes) of
 * size bytes; sizes past the octal field's 8 GiB in GNU's base-256 */
void     _kiste_boxfile_tar_header       (guchar       block[KISTE_TAR_BLOCK],
                                          const char  *name,
                                          guint64      size);
/* Reads a header: TRUE with *end set for the all-zero block that ends
 * the archive, else the member's name and size. Refuses a wrong
 * checksum, anything but a regular file, and names that are not a plain
 * file name (empty, ".", "..", with "/" or a control character). */
gboolean _kiste_boxfile_tar_read_header  (const guchar block[KISTE_TAR_BLOCK],
                                          char       **name,
                                          guint64     *size,
                                          gboolean    *end,
                                          GError     **error);

/* A member the index may name (any but index.json itself) */
gboolean _kiste_boxfile_is_known_member  (const char *name);

/* SHA-256 through nettle, which uses the processor's SHA instructions
 * where it has them: about five times GLib's speed on the large members */
char    *_kiste_boxfile_sha256_finish    (struct sha256_ctx *ctx);

/* Progress from a worker thread, shown on the caller's main context
 * (or at once without one) */
typedef struct
{
  KisteBoxfileProgress  func;
  gpointer              data;
  GMainContext         *context;
  guint64               total;
  guint64               done;
  guint64               shown;
} KisteBoxfileProgressState;

void     _kiste_boxfile_progress_add     (KisteBoxfileProgressState *progress,
                                          guint64                    bytes);

G_END_DECLS
