/* kiste-fetch.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-error.h"
#include "kiste-fetch-private.h"

#define FETCH_TIMEOUT_SECONDS 15
/* Manifests are small; anything bigger is not one */
#define MANIFEST_MAX_SIZE (1024 * 1024)
#define FETCH_MAX_HEAD (16 * 1024)
#define FETCH_CHUNK_SIZE (16 * 1024)

static gboolean
is_loopback_host (const char *host)
{
  g_autoptr(GInetAddress) address = NULL;

  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;
  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

static GUri *
parse_manifest_uri (const char  *uri,
                    GError     **error)
{
  g_autoptr(GUri) parsed = NULL;
  const char *scheme;
  const char *host;

  if (uri == NULL || uri[0] == '\0')
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("Enter the address of a distrobox.ini file."));
      return NULL;
    }

  /* it becomes part of the request line as it is */
  for (const char *p = uri; *p != '\0'; p++)
    {
      if ((guchar) *p <= 0x20 || (guchar) *p >= 0x7f)
        {
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("The address contains spaces or characters that need "
                                 "percent-encoding."));
          return NULL;
        }
    }

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED_PATH | G_URI_FLAGS_ENCODED_QUERY |
                        G_URI_FLAGS_ENCODED_FRAGMENT, NULL);
  host = parsed != NULL ? g_uri_get_host (parsed) : NULL;
  if (host == NULL || host[0] == '\0')
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("This is not a web address. It starts with “https://”."));
      return NULL;
    }

  if (g_uri_get_userinfo (parsed) != NULL)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("Addresses with a user name or password are not supported."));
      return NULL;
    }

  scheme = g_uri_get_scheme (parsed);
  if (g_ascii_strcasecmp (scheme, "https") == 0 ||
      (g_ascii_strcasecmp (scheme, "http") == 0 && is_loopback_host (host)))
    return g_steal_pointer (&parsed);

  if (g_ascii_strcasecmp (scheme, "http") == 0)
    g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                         _("Use an address starting with “https://”: a file downloaded "
                           "without encryption could be changed on its way."));
  else
    g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                         _("Only addresses starting with “https://” can be downloaded."));
  return NULL;
}

gboolean
kiste_fetch_check_manifest_uri (const char  *uri,
                                 GError     **error)
{
  g_autoptr(GUri) parsed = parse_manifest_uri (uri, error);

  return parsed != NULL;
}

typedef struct
{
  GCancellable      *cancellable;
  GCancellable      *outer;
  gulong             outer_id;
  guint              timeout_id;
  gboolean           timed_out;
  GSocketClient     *client;
  GSocketConnection *connection;
  char              *request;
  GByteArray        *buffer;
  /* once the head is read: its size, the status and Content-Length */
  gsize              head_length;
  guint              status;
  char              *reason;
  char              *location;
  gint64             content_length;
  guint8             chunk[FETCH_CHUNK_SIZE];
} Fetch;

static void
fetch_free (Fetch *fetch)
{
  g_clear_handle_id (&fetch->timeout_id, g_source_remove);
  if (fetch->outer != NULL)
    g_cancellable_disconnect (fetch->outer, fetch->outer_id);
  g_clear_object (&fetch->outer);
  g_clear_object (&fetch->cancellable);
  g_clear_object (&fetch->client);
  g_clear_object (&fetch->connection);
  g_clear_pointer (&fetch->request, g_free);
  g_clear_pointer (&fetch->buffer, g_byte_array_unref);
  g_clear_pointer (&fetch->reason, g_free);
  g_clear_pointer (&fetch->location, g_free);
  g_free (fetch);
}

static gboolean
fetch_timeout_cb (gpointer user_data)
{
  Fetch *fetch = user_data;

  fetch->timeout_id = 0;
  fetch->timed_out = TRUE;
  g_cancellable_cancel (fetch->cancellable);
  return G_SOURCE_REMOVE;
}

static void
fetch_outer_cancelled_cb (GCancellable *outer,
                          GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

static void
fetch_fail (GTask  *task,
            GError *error)
{
  Fetch *fetch = g_task_get_task_data (task);

  if (fetch->timed_out)
    {
      g_error_free (error);
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_TIMED_OUT,
                               ngettext ("The server did not answer within %u second.",
                                         "The server did not answer within %u seconds.",
                                         FETCH_TIMEOUT_SECONDS),
                               FETCH_TIMEOUT_SECONDS);
      return;
    }

  if (error->domain != KISTE_ERROR && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, _("Could not download the file: "));
  g_task_return_error (task, error);
}

/* What a server says goes into messages: printable ASCII only, not long */
static char *
dup_server_text (const char *text)
{
  g_autoptr(GString) clean = g_string_new (NULL);

  for (const char *p = text; *p != '\0' && clean->len < 200; p++)
    g_string_append_c (clean, (guchar) *p >= 0x20 && (guchar) *p < 0x7f ? *p : '?');
  return g_string_free_and_steal (g_steal_pointer (&clean));
}

/* Reads the status line and headers once they are all there. FALSE with
 * error when the answer is unusable; FALSE without when more is needed. */
static gboolean
fetch_parse_head (Fetch   *fetch,
                  GError **error)
{
  const char *data = (const char *) fetch->buffer->data;
  gsize end = 0;
  gsize skip = 0;
  g_autofree char *head = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *digits = NULL;
  char *code = NULL;
  guint64 status = 0;

  for (gsize i = 0; i < fetch->buffer->len && i < FETCH_MAX_HEAD; i++)
    {
      if (i + 3 < fetch->buffer->len && memcmp (data + i, "\r\n\r\n", 4) == 0)
        {
          end = i;
          skip = 4;
          break;
        }
      if (i + 1 < fetch->buffer->len && memcmp (data + i, "\n\n", 2) == 0)
        {
          end = i;
          skip = 2;
          break;
        }
    }

  if (skip == 0)
    {
      /* until no blank line can start below the limit */
      if (fetch->buffer->len >= FETCH_MAX_HEAD + 3)
        g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                             _("The server’s answer cannot be read."));
      return FALSE;
    }

  fetch->head_length = end + skip;
  head = g_strndup (data, end);
  lines = g_strsplit (head, "\n", -1);

  /* HTTP/1.x NNN Reason; an empty head has no line at all */
  if (lines[0] != NULL && g_str_has_prefix (lines[0], "HTTP/1.") &&
      (code = strchr (lines[0], ' ')))
    digits = g_strndup (code + 1, 3);
  if (digits == NULL || !g_ascii_string_to_unsigned (digits, 10, 100, 599, &status, NULL))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The server’s answer cannot be read."));
      return FALSE;
    }
  fetch->status = status;
  fetch->reason = dup_server_text (g_strstrip (code + 1));
  fetch->content_length = -1;

  for (guint i = 1; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *colon = strchr (line, ':');
      const char *value;
      guint64 number;

      if (colon == NULL)
        continue;
      *colon = '\0';
      value = g_strstrip (colon + 1);

      if (g_ascii_strcasecmp (line, "Content-Length") == 0)
        {
          if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT64, &number, NULL))
            {
              g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                   _("The server’s answer cannot be read."));
              return FALSE;
            }
          fetch->content_length = number;
        }
      else if (g_ascii_strcasecmp (line, "Location") == 0)
        {
          g_free (fetch->location);
          fetch->location = dup_server_text (value);
        }
      else if ((g_ascii_strcasecmp (line, "Transfer-Encoding") == 0 ||
                g_ascii_strcasecmp (line, "Content-Encoding") == 0) &&
               g_ascii_strcasecmp (value, "identity") != 0)
        {
          /* not asked for (HTTP/1.0, no Accept-Encoding) */
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                               _("The server’s answer cannot be read."));
          return FALSE;
        }
    }

  return TRUE;
}

/* The status says whether there is a file at all */
static gboolean
fetch_check_status (Fetch   *fetch,
                    GError **error)
{
  switch (fetch->status)
    {
    case 200:
      break;

    case 301:
    case 302:
    case 303:
    case 307:
    case 308:
      /* a redirect could lead anywhere, also to plain http */
      if (fetch->location != NULL)
        g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                     _("The file has moved to %s. Kiste does not follow redirections: check "
                       "that address and enter it instead."),
                     fetch->location);
      else
        g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                     _("The server answered “%s” without saying where the file is."),
                     fetch->reason);
      return FALSE;

    case 404:
    case 410:
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("There is no file at this address (the server answered “%s”)."),
                   fetch->reason);
      return FALSE;

    default:
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The server answered “%s”."), fetch->reason);
      return FALSE;
    }

  if (fetch->content_length > MANIFEST_MAX_SIZE)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file is too large for a distrobox.ini."));
      return FALSE;
    }

  return TRUE;
}

/* The body once the answer is complete: its text, or why it is none */
static char *
fetch_dup_body (Fetch   *fetch,
                gsize   *length_out,
                GError **error)
{
  const char *body = (const char *) fetch->buffer->data + fetch->head_length;
  gsize length = fetch->buffer->len - fetch->head_length;

  if (fetch->content_length >= 0)
    {
      if (length < (guint64) fetch->content_length)
        {
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                               _("The download stopped before the end of the file."));
          return NULL;
        }
      length = fetch->content_length;
    }

  if (length > MANIFEST_MAX_SIZE)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file is too large for a distrobox.ini."));
      return NULL;
    }

  if (memchr (body, '\0', length) != NULL || !g_utf8_validate_len (body, length, NULL))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file is not text, so it is no distrobox.ini."));
      return NULL;
    }

  *length_out = length;
  return g_strndup (body, length);
}

/* Takes the n bytes just read into fetch->chunk (0: the end of the
 * stream). FALSE with error when the answer is unusable; TRUE with *text
 * once it is complete, TRUE without while more is needed. */
static gboolean
fetch_take (Fetch    *fetch,
            gsize     n,
            char    **text,
            gsize    *length,
            GError  **error)
{
  if (n > 0)
    g_byte_array_append (fetch->buffer, fetch->chunk, n);

  if (fetch->head_length == 0)
    {
      GError *head_error = NULL;

      if (!fetch_parse_head (fetch, &head_error))
        {
          if (head_error != NULL)
            {
              g_propagate_error (error, head_error);
              return FALSE;
            }
          if (n == 0)
            {
              g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                   _("The server’s answer cannot be read."));
              return FALSE;
            }
          return TRUE;
        }
      if (!fetch_check_status (fetch, error))
        return FALSE;
    }

  if (fetch->buffer->len - fetch->head_length > MANIFEST_MAX_SIZE)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file is too large for a distrobox.ini."));
      return FALSE;
    }

  /* done at the end of the stream, or once Content-Length bytes are in */
  if (n == 0 ||
      (fetch->content_length >= 0 &&
       fetch->buffer->len - fetch->head_length >= (guint64) fetch->content_length))
    return (*text = fetch_dup_body (fetch, length, error)) != NULL;

  return TRUE;
}

static void fetch_read (GTask *task);

static void
fetch_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;
  char *text = NULL;
  gsize length = 0;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  if (n < 0 || !fetch_take (fetch, n, &text, &length, &error))
    {
      fetch_fail (task, error);
      return;
    }

  if (text != NULL)
    {
      g_object_set_data (G_OBJECT (task), "length", GSIZE_TO_POINTER (length));
      g_task_return_pointer (task, text, g_free);
      return;
    }

  fetch_read (g_steal_pointer (&task));
}

static void
fetch_read (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  GInputStream *input = g_io_stream_get_input_stream (G_IO_STREAM (fetch->connection));

  g_input_stream_read_async (input, fetch->chunk, sizeof fetch->chunk, G_PRIORITY_DEFAULT,
                             fetch->cancellable, fetch_read_cb, task);
}

static void
fetch_written_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      fetch_fail (task, error);
      return;
    }
  fetch_read (g_steal_pointer (&task));
}

static void
fetch_connected_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  GError *error = NULL;
  GOutputStream *output;

  if (!(fetch->connection = g_socket_client_connect_finish (G_SOCKET_CLIENT (object), result, &error)))
    {
      fetch_fail (task, error);
      return;
    }

  output = g_io_stream_get_output_stream (G_IO_STREAM (fetch->connection));
  g_output_stream_write_all_async (output, fetch->request, strlen (fetch->request),
                                   G_PRIORITY_DEFAULT, fetch->cancellable,
                                   fetch_written_cb, g_steal_pointer (&task));
}

void
kiste_fetch_manifest_async (const char          *uri,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GUri) parsed = NULL;
  g_autoptr(GSocketConnectable) address = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *host_header = NULL;
  const char *host;
  const char *path;
  const char *query;
  gboolean tls;
  int port;
  Fetch *fetch;

  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_fetch_manifest_async);

  if (!(parsed = parse_manifest_uri (uri, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  tls = g_ascii_strcasecmp (g_uri_get_scheme (parsed), "https") == 0;
  if (tls && !g_tls_backend_supports_tls (g_tls_backend_get_default ()))
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                               _("Kiste cannot make secure connections: the TLS support of "
                                 "GLib (glib-networking) is not installed."));
      return;
    }

  host = g_uri_get_host (parsed);
  port = g_uri_get_port (parsed);
  if (port <= 0)
    port = tls ? 443 : 80;
  path = g_uri_get_path (parsed);
  query = g_uri_get_query (parsed);
  host_header = g_strdup_printf (strchr (host, ':') ? "[%s]" : "%s", host);
  if (port != (tls ? 443 : 80))
    {
      char *with_port = g_strdup_printf ("%s:%d", host_header, port);

      g_free (host_header);
      host_header = with_port;
    }

  fetch = g_new0 (Fetch, 1);
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);
  fetch->buffer = g_byte_array_new ();
  fetch->cancellable = g_cancellable_new ();
  /* HTTP/1.0: one plain body, no chunks, the server closes at the end */
  fetch->request = g_strdup_printf ("GET %s%s%s HTTP/1.0\r\n"
                                    "Host: %s\r\n"
                                    "User-Agent: Kiste/" PACKAGE_VERSION "\r\n"
                                    "Accept: */*\r\n"
                                    "Connection: close\r\n"
                                    "\r\n",
                                    path[0] != '\0' ? path : "/",
                                    query != NULL ? "?" : "",
                                    query != NULL ? query : "",
                                    host_header);
  if (cancellable != NULL)
    {
      fetch->outer = g_object_ref (cancellable);
      fetch->outer_id = g_cancellable_connect (cancellable, G_CALLBACK (fetch_outer_cancelled_cb),
                                               g_object_ref (fetch->cancellable), g_object_unref);
    }
  fetch->timeout_id = g_timeout_add_seconds (FETCH_TIMEOUT_SECONDS, fetch_timeout_cb, fetch);

  fetch->client = g_socket_client_new ();
  g_socket_client_set_tls (fetch->client, tls);
  g_socket_client_set_timeout (fetch->client, FETCH_TIMEOUT_SECONDS);
  address = g_network_address_new (host, port);
  g_socket_client_connect_async (fetch->client, address, fetch->cancellable,
                                 fetch_connected_cb, g_steal_pointer (&task));
}

char *
_kiste_fetch_read_answer (const guint8  *answer,
                          gsize          size,
                          gsize          read_size,
                          gsize         *length,
                          GError       **error)
{
  Fetch *fetch;
  char *text = NULL;
  gsize text_length = 0;
  gsize offset = 0;

  g_return_val_if_fail (answer != NULL || size == 0, NULL);
  g_return_val_if_fail (read_size > 0, NULL);

  fetch = g_new0 (Fetch, 1);
  fetch->buffer = g_byte_array_new ();
  for (;;)
    {
      gsize n = MIN (MIN (read_size, sizeof fetch->chunk), size - offset);

      if (n > 0)
        memcpy (fetch->chunk, answer + offset, n);
      offset += n;
      if (!fetch_take (fetch, n, &text, &text_length, error) || text != NULL)
        break;
    }
  fetch_free (fetch);

  if (length != NULL)
    *length = text_length;
  return text;
}

char *
kiste_fetch_manifest_finish (GAsyncResult  *result,
                                       gsize         *length,
                                       GError       **error)
{
  char *text;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  text = g_task_propagate_pointer (G_TASK (result), error);
  if (length != NULL)
    *length = text != NULL ? GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (result), "length")) : 0;
  return text;
}
