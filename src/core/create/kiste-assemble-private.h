/* kiste-assemble-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-assemble.h"

G_BEGIN_DECLS

/* For tests: kiste_assemble_parse_for_distrobox() for a distrobox of
 * this major version (0: unknown, read as 1.x; the version, for messages,
 * may be NULL), with the home folder and login name distrobox's shell
 * would fill in for ~, $HOME and $USER (NULL: this user's). */
GPtrArray *_kiste_assemble_parse_full (const char  *data,
                                       gssize       length,
                                       guint        distrobox_major,
                                       const char  *distrobox_version,
                                       const char  *home,
                                       const char  *user,
                                       GError     **error);

G_END_DECLS
