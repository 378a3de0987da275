/* test-fetch.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Manifest downloads: which addresses are taken, and one plain request to a
 * small local server, with its failures. */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-fetch.h"
#include "kiste-test-server.h"

static void
test_check_uri (void)
{
  const char *good[] = {
    "https://example.org/distrobox.ini",
    "https://example.org:8443/a/b.ini?raw=1",
    "http://127.0.0.1:8080/x.ini",
    "http://localhost/x.ini",
    "http://[::1]:8000/x.ini",
  };
  const char *bad[] = {
    "",
    "example.org/distrobox.ini",
    "http://example.org/distrobox.ini",
    "http://192.168.1.2/x.ini",
    "ftp://example.org/x.ini",
    "file:///etc/passwd",
    "https://user:secret@example.org/x.ini",
    "https://example.org/a b.ini",
    "https://example.org/x.ini\r\nHost: evil",
    "https:///x.ini",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (kiste_fetch_check_manifest_uri (good[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (kiste_fetch_check_manifest_uri (bad[i], &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }
}

static void
downloaded_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static char *
download (const char  *uri,
          gsize       *length,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_fetch_manifest_async (uri, NULL, downloaded_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_fetch_manifest_finish (result, length, error);
}

static void
test_download (void)
{
  KisteTestServer *server = kiste_test_server_start ();
  g_autofree char *uri = kiste_test_server_uri (server, "/manifest.ini");
  g_autofree char *host = g_strdup_printf ("Host: 127.0.0.1:%u\n", kiste_test_server_get_port (server));
  g_autofree char *text = NULL;
  g_autofree char *request = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  struct
  {
    const char *path;
    GQuark      domain;
    int         code;
    const char *in_message;
  } failures[] = {
    { "/moved.ini", KISTE_ERROR, KISTE_ERROR_NOT_FOUND, "http://elsewhere.example/x.ini" },
    { "/missing.ini", KISTE_ERROR, KISTE_ERROR_NOT_FOUND, "404 Not Found" },
    { "/declared-huge.ini", KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "too large" },
    { "/huge.ini", KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "too large" },
    { "/binary.ini", KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, "not text" },
    { "/garbage", KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT, "cannot be read" },
    { "/markup.ini", KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT, "500 <b>Broken</b>" },
  };

  /* the file as it is, with one plain HTTP/1.0 request */
  text = download (uri, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, kiste_test_manifest);
  g_assert_cmpuint (length, ==, strlen (kiste_test_manifest));
  g_assert_cmpuint (kiste_test_server_n_requests (server), ==, 1);
  request = kiste_test_server_dup_request (server, 0);
  g_assert_true (g_str_has_prefix (request, "GET /manifest.ini HTTP/1.0\n"));
  g_assert_nonnull (strstr (request, host));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&uri, g_free);

  /* no Content-Length: up to the end of the stream */
  uri = kiste_test_server_uri (server, "/no-length.ini");
  text = download (uri, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, kiste_test_manifest);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&uri, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (failures); i++)
    {
      guint before = kiste_test_server_n_requests (server);

      uri = kiste_test_server_uri (server, failures[i].path);
      text = download (uri, &length, &error);
      g_assert_null (text);
      g_assert_cmpuint (length, ==, 0);
      g_assert_error (error, failures[i].domain, failures[i].code);
      if (strstr (error->message, failures[i].in_message) == NULL)
        g_error ("%s: “%s” lacks “%s”", failures[i].path, error->message, failures[i].in_message);
      /* one request each: a redirection is not followed */
      g_assert_cmpuint (kiste_test_server_n_requests (server), ==, before + 1);
      g_clear_error (&error);
      g_clear_pointer (&uri, g_free);
    }

  /* https is https: to a plain server it fails (or there is no TLS here at
   * all), never falls back */
  uri = g_strdup_printf ("https://127.0.0.1:%u/manifest.ini", kiste_test_server_get_port (server));
  text = download (uri, NULL, &error);
  g_assert_null (text);
  g_assert_nonnull (error);
  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_test_message ("https to a plain server: %s", error->message);
  g_clear_error (&error);
  g_clear_pointer (&uri, g_free);

  /* refused before any connection */
  text = download ("http://example.org/distrobox.ini", NULL, &error);
  g_assert_null (text);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  kiste_test_server_stop (server);
}

static void
test_download_cancelled (void)
{
  KisteTestServer *server = kiste_test_server_start ();
  g_autofree char *uri = kiste_test_server_uri (server, "/manifest.ini");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  kiste_fetch_manifest_async (uri, cancellable, downloaded_cb, &result);
  g_cancellable_cancel (cancellable);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  text = kiste_fetch_manifest_finish (result, NULL, &error);
  g_assert_null (text);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  kiste_test_server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fetch/check-uri", test_check_uri);
  g_test_add_func ("/fetch/download", test_download);
  g_test_add_func ("/fetch/download-cancelled", test_download_cancelled);

  return g_test_run ();
}
