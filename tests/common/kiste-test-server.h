/* kiste-test-server.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The manifest /manifest.ini serves */
extern const char kiste_test_manifest[];

/* A small web server on 127.0.0.1, answering in its own threads, for
 * manifest downloads: /manifest.ini, /no-length.ini, /moved.ini (a
 * redirection), /declared-huge.ini, /huge.ini, /binary.ini, /garbage (no
 * HTTP), /markup.ini (a 500 with markup in its reason); 404 otherwise. */
typedef struct _KisteTestServer KisteTestServer;

KisteTestServer *kiste_test_server_start       (void);
void             kiste_test_server_stop        (KisteTestServer *server);
guint16          kiste_test_server_get_port    (KisteTestServer *server);
/* http://127.0.0.1:PORT/path */
char            *kiste_test_server_uri         (KisteTestServer *server,
                                                const char      *path);
guint            kiste_test_server_n_requests  (KisteTestServer *server);
/* The head of a request, one line per header, "\n" ended */
char            *kiste_test_server_dup_request (KisteTestServer *server,
                                                guint            index);

G_END_DECLS
