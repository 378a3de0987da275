/* kiste-boxfile-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The tar headers of a box file (kiste-boxfile-tar.c), shared with
 * kiste-boxfile.c and the tests, which build broken files with them. */

#pragma once

#include <glib.h>

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

G_END_DECLS
