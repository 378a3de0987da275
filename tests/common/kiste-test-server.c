/* kiste-test-server.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-test-server.h"

const char kiste_test_manifest[] =
  "# from the web\n"
  "[webbox]\n"
  "image=docker.io/library/debian:12\n"
  "unshare_netns=true\n"
  "hostname=webbox\n"
  "init_hooks=\"echo hello\"\n";

struct _KisteTestServer
{
  GSocketService *service;
  guint16         port;
  GMutex          lock;
  GCond           idle;
  guint           active;    /* handlers running in the service's threads */
  gboolean        stopping;
  GPtrArray      *requests;
};

static char *
response_for (const char *path)
{
  if (g_str_equal (path, "/manifest.ini"))
    return g_strdup_printf ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                            "Content-Length: %zu\r\n\r\n%s",
                            strlen (kiste_test_manifest), kiste_test_manifest);
  if (g_str_equal (path, "/no-length.ini"))
    return g_strdup_printf ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n%s", kiste_test_manifest);
  if (g_str_equal (path, "/moved.ini"))
    return g_strdup ("HTTP/1.1 302 Found\r\nLocation: http://elsewhere.example/x.ini\r\n"
                     "Content-Length: 0\r\n\r\n");
  if (g_str_equal (path, "/declared-huge.ini"))
    return g_strdup ("HTTP/1.0 200 OK\r\nContent-Length: 2097152\r\n\r\n[a]\nimage=x\n");
  if (g_str_equal (path, "/huge.ini"))
    {
      g_autofree char *filler = g_strnfill (1200 * 1024, '#');

      return g_strdup_printf ("HTTP/1.0 200 OK\r\n\r\n%s\n", filler);
    }
  if (g_str_equal (path, "/binary.ini"))
    return g_strdup ("HTTP/1.0 200 OK\r\nContent-Length: 4\r\n\r\n\xff\xfe" "AB");
  if (g_str_equal (path, "/garbage"))
    return g_strdup ("SSH-2.0-OpenSSH_9.2\r\n\r\n");
  if (g_str_equal (path, "/markup.ini"))
    return g_strdup ("HTTP/1.0 500 <b>Broken</b>\r\nContent-Length: 0\r\n\r\n");
  return g_strdup ("HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
}

static gboolean
server_run_cb (GThreadedSocketService *service,
               GSocketConnection      *connection,
               GObject                *source,
               KisteTestServer        *server)
{
  g_autoptr(GDataInputStream) input = NULL;
  g_autoptr(GString) request = g_string_new (NULL);
  g_auto(GStrv) words = NULL;
  g_autofree char *response = NULL;
  char *line;

  /* stop waits for every handler: nothing may run on a freed server */
  g_mutex_lock (&server->lock);
  if (server->stopping)
    {
      g_mutex_unlock (&server->lock);
      return TRUE;
    }
  server->active++;
  g_mutex_unlock (&server->lock);

  input = g_data_input_stream_new (g_io_stream_get_input_stream (G_IO_STREAM (connection)));
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (input), FALSE);
  while ((line = g_data_input_stream_read_line (input, NULL, NULL, NULL)) != NULL)
    {
      g_strchomp (line);
      if (line[0] == '\0')
        {
          g_free (line);
          break;
        }
      g_string_append_printf (request, "%s\n", line);
      g_free (line);
    }

  words = g_strsplit (request->str, " ", 3);
  response = response_for (words[0] && words[1] ? words[1] : "/");

  g_mutex_lock (&server->lock);
  g_ptr_array_add (server->requests, g_strdup (request->str));
  g_mutex_unlock (&server->lock);

  /* a client that stopped reading makes this fail: fine */
  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             response, strlen (response), NULL, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);

  g_mutex_lock (&server->lock);
  server->active--;
  g_cond_broadcast (&server->idle);
  g_mutex_unlock (&server->lock);
  return TRUE;
}

KisteTestServer *
kiste_test_server_start (void)
{
  KisteTestServer *server = g_new0 (KisteTestServer, 1);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&server->lock);
  g_cond_init (&server->idle);
  server->requests = g_ptr_array_new_with_free_func (g_free);
  server->service = g_threaded_socket_service_new (4);
  g_socket_listener_add_address (G_SOCKET_LISTENER (server->service), address,
                                 G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL,
                                 &effective, &error);
  g_assert_no_error (error);
  server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (effective));
  g_signal_connect (server->service, "run", G_CALLBACK (server_run_cb), server);
  g_socket_service_start (server->service);
  return server;
}

guint
kiste_test_server_n_requests (KisteTestServer *server)
{
  guint n;

  g_mutex_lock (&server->lock);
  n = server->requests->len;
  g_mutex_unlock (&server->lock);
  return n;
}

char *
kiste_test_server_dup_request (KisteTestServer *server,
                               guint            index)
{
  char *request;

  g_mutex_lock (&server->lock);
  request = g_strdup (g_ptr_array_index (server->requests, index));
  g_mutex_unlock (&server->lock);
  return request;
}

void
kiste_test_server_stop (KisteTestServer *server)
{
  g_socket_service_stop (server->service);
  g_socket_listener_close (G_SOCKET_LISTENER (server->service));
  g_mutex_lock (&server->lock);
  server->stopping = TRUE;
  while (server->active > 0)
    g_cond_wait (&server->idle, &server->lock);
  g_mutex_unlock (&server->lock);
  g_clear_object (&server->service);
  g_ptr_array_unref (server->requests);
  g_cond_clear (&server->idle);
  g_mutex_clear (&server->lock);
  g_free (server);
}

char *
kiste_test_server_uri (KisteTestServer *server,
                       const char      *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u%s", server->port, path);
}

guint16
kiste_test_server_get_port (KisteTestServer *server)
{
  return server->port;
}
