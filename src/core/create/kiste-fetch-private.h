/* kiste-fetch-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-fetch.h"

G_BEGIN_DECLS

/* A server's whole answer (head and body) as a manifest download reads
 * it, in reads of at most read_size bytes, then the end of the stream:
 * the manifest's text and its length, or the error the download ends
 * with. */
char *_kiste_fetch_read_answer (const guint8  *answer,
                                gsize          size,
                                gsize          read_size,
                                gsize         *length,
                                GError       **error);

G_END_DECLS
