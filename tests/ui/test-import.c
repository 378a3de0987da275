/* test-import.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-application.h"
#include "kiste-create-dialog.h"
#include "kiste-error.h"
#include "kiste-test-ui.h"
#include "kiste-fetch.h"
#include "kiste-window.h"

static const char manifest[] =
  "# from the web\n"
  "[webbox]\n"
  "image=docker.io/library/debian:12\n"
  "unshare_netns=true\n"
  "hostname=webbox\n"
  "init_hooks=\"echo hello\"\n";

/* A small web server on 127.0.0.1, answering in its own threads */
typedef struct
{
  GSocketService *service;
  guint16         port;
  GMutex          lock;
  GPtrArray      *requests;
} Server;

static char *
response_for (const char *path)
{
  if (g_str_equal (path, "/manifest.ini"))
    return g_strdup_printf ("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                            "Content-Length: %zu\r\n\r\n%s",
                            strlen (manifest), manifest);
  if (g_str_equal (path, "/no-length.ini"))
    return g_strdup_printf ("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n%s", manifest);
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
               Server                 *server)
{
  g_autoptr(GDataInputStream) input = NULL;
  g_autoptr(GString) request = g_string_new (NULL);
  g_auto(GStrv) words = NULL;
  g_autofree char *response = NULL;
  char *line;

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
  return TRUE;
}

static Server *
server_start (void)
{
  Server *server = g_new0 (Server, 1);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new_from_string ("127.0.0.1", 0);
  g_autoptr(GSocketAddress) effective = NULL;
  g_autoptr(GError) error = NULL;

  g_mutex_init (&server->lock);
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

static guint
server_n_requests (Server *server)
{
  guint n;

  g_mutex_lock (&server->lock);
  n = server->requests->len;
  g_mutex_unlock (&server->lock);
  return n;
}

static char *
server_dup_request (Server *server,
                    guint   index)
{
  char *request;

  g_mutex_lock (&server->lock);
  request = g_strdup (g_ptr_array_index (server->requests, index));
  g_mutex_unlock (&server->lock);
  return request;
}

static void
server_stop (Server *server)
{
  g_socket_service_stop (server->service);
  g_socket_listener_close (G_SOCKET_LISTENER (server->service));
  g_clear_object (&server->service);
  g_ptr_array_unref (server->requests);
  g_mutex_clear (&server->lock);
  g_free (server);
}

static char *
server_uri (Server     *server,
            const char *path)
{
  return g_strdup_printf ("http://127.0.0.1:%u%s", server->port, path);
}

/* The app, a window on fake boxes ----------------------------------------- */

static KisteApplication *app;
static KisteManager *manager;

typedef struct
{
  KisteWindow *window;
  char        *dir;
} Fixture;

static gboolean
loaded (gpointer data)
{
  return kiste_box_store_get_loaded (kiste_manager_get_store (manager)) &&
         kiste_capabilities_get_loaded (kiste_manager_get_capabilities (manager));
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("kiste-test-import-XXXXXX", &error);
  g_assert_no_error (error);
  fx->window = kiste_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (fx->window), 960, 760);
  gtk_window_present (GTK_WINDOW (fx->window));
  g_assert_true (kiste_test_wait_for (loaded, NULL, 5000));
  kiste_test_flush (GTK_WIDGET (fx->window));
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fx->dir, 0, NULL);
  const char *name;

  gtk_window_destroy (GTK_WINDOW (fx->window));
  kiste_test_flush_main_context ();
  while (dir != NULL && (name = g_dir_read_name (dir)))
    {
      g_autofree char *path = g_build_filename (fx->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fx->dir);
  g_free (fx->dir);
}

static GFile *
write_file (Fixture    *fx,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (fx->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static GtkWidget *
find_create_dialog (Fixture *fx)
{
  return kiste_test_find_widget (GTK_WIDGET (fx->window), KISTE_TYPE_CREATE_DIALOG, NULL);
}

static gboolean
create_dialog_shown (gpointer data)
{
  return find_create_dialog (data) != NULL;
}

static guint
n_creates (void)
{
  GPtrArray *commands = kiste_test_runner_get_commands (KISTE_TEST_RUNNER (kiste_manager_get_runner (manager)));
  guint n = 0;

  for (guint i = 0; i < commands->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (commands, i), "distrobox create --yes"))
      n++;
  return n;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), label) == 0)
        return child;
      if ((found = find_button (child, label)))
        return found;
    }
  return NULL;
}

static gboolean
has_label_prefix (GtkWidget  *root,
                  const char *prefix)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_widget_get_mapped (child) &&
          g_str_has_prefix (gtk_label_get_text (GTK_LABEL (child)), prefix))
        return TRUE;
      if (has_label_prefix (child, prefix))
        return TRUE;
    }
  return FALSE;
}

typedef struct
{
  Fixture    *fx;
  const char *prefix;
} LabelQuery;

static gboolean
label_shown (gpointer data)
{
  LabelQuery *query = data;

  return has_label_prefix (GTK_WIDGET (query->fx->window), query->prefix);
}

static void
assert_webbox_form (Fixture *fx)
{
  GtkWidget *dialog;
  KisteCreateOptions *options;

  g_assert_true (kiste_test_wait_for (create_dialog_shown, fx, 3000));
  dialog = find_create_dialog (fx);
  options = kiste_create_dialog_get_options (KISTE_CREATE_DIALOG (dialog));
  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "webbox");
  g_assert_cmpstr (kiste_create_options_get_image (options), ==, "docker.io/library/debian:12");
  g_assert_cmpstr (kiste_create_options_get_hostname (options), ==, "webbox");
  g_assert_cmpstr (kiste_create_options_get_init_hooks (options), ==, "echo hello");
  g_assert_true (kiste_create_options_get_unshare (options, KISTE_UNSHARE_NETNS));
  g_assert_true (kiste_create_dialog_get_can_create (KISTE_CREATE_DIALOG (dialog)));
  /* only filled in: nothing ran */
  g_assert_cmpuint (n_creates (), ==, 0);
}

/* Tests --------------------------------------------------------------------- */

static void
test_menu (Fixture       *fx,
           gconstpointer  data)
{
  GtkWidget *menu_button = kiste_test_find_widget (GTK_WIDGET (fx->window), GTK_TYPE_MENU_BUTTON,
                                                   "Main Menu");
  g_autoptr(GMenuModel) section = NULL;
  g_autofree char *file_action = NULL;
  g_autofree char *url_action = NULL;

  g_assert_nonnull (menu_button);
  section = g_menu_model_get_item_link (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)),
                                        0, G_MENU_LINK_SECTION);
  g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_ACTION, "s", &file_action);
  g_menu_model_get_item_attribute (section, 2, G_MENU_ATTRIBUTE_ACTION, "s", &url_action);
  g_assert_cmpstr (file_action, ==, "win.import-file");
  g_assert_cmpstr (url_action, ==, "win.import-url");
}

static void
test_import_file (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (fx, "distrobox.ini", manifest);

  kiste_window_import_file (fx->window, file);
  assert_webbox_form (fx);
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-file");
}

static void
test_import_not_a_manifest (Fixture       *fx,
                            gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (fx, "notes.ini", "just some notes\n");
  LabelQuery query = { fx, "Could not import “notes.ini”: " };

  /* said in a toast; no dialog to close again */
  kiste_window_import_file (fx->window, file);
  g_assert_true (kiste_test_wait_for (label_shown, &query, 3000));
  g_assert_null (find_create_dialog (fx));
  g_assert_cmpuint (n_creates (), ==, 0);
}

static void
test_import_missing_file (Fixture       *fx,
                          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fx->dir, "missing.ini", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (path);
  LabelQuery query = { fx, "Could not import “missing.ini”: " };

  kiste_window_import_file (fx->window, missing);
  g_assert_true (kiste_test_wait_for (label_shown, &query, 3000));
  g_assert_null (find_create_dialog (fx));
}

static GtkDropTarget *
find_drop_target (Fixture *fx)
{
  GtkWidget *overlay = kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_TOAST_OVERLAY, NULL);
  g_autoptr(GListModel) controllers = NULL;

  g_assert_nonnull (overlay);
  controllers = gtk_widget_observe_controllers (overlay);
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

static gboolean
drop (GtkDropTarget *target,
      const GValue  *value)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (target, "drop", value, 10.0, 10.0, &handled);
  return handled;
}

static void
test_drop (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (fx, "webbox.ini", manifest);
  g_autoptr(GFile) other = write_file (fx, "photo.png", "not a manifest");
  GtkDropTarget *target = find_drop_target (fx);
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) list_value = G_VALUE_INIT;
  g_autoslist(GFile) files = NULL;
  const GType *types;
  gsize n_types = 0;
  LabelQuery query = { fx, "Only distrobox.ini files can be dropped here" };

  g_assert_nonnull (target);
  types = gtk_drop_target_get_gtypes (target, &n_types);
  g_assert_cmpuint (n_types, ==, 2);
  g_assert_true (types[0] == GDK_TYPE_FILE_LIST || types[1] == GDK_TYPE_FILE_LIST);
  g_assert_true (types[0] == G_TYPE_FILE || types[1] == G_TYPE_FILE);

  /* anything else is refused, with a word why */
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, other);
  g_assert_false (drop (target, &value));
  g_assert_true (kiste_test_wait_for (label_shown, &query, 3000));
  g_assert_null (find_create_dialog (fx));

  /* a file list from a file manager */
  files = g_slist_prepend (NULL, g_object_ref (file));
  g_value_init (&list_value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&list_value, gdk_file_list_new_from_list (files));
  g_assert_true (drop (target, &list_value));
  assert_webbox_form (fx);
  adw_dialog_force_close (ADW_DIALOG (find_create_dialog (fx)));
  kiste_test_flush (GTK_WIDGET (fx->window));

  /* one file */
  g_value_set_object (&value, file);
  g_assert_true (drop (target, &value));
  assert_webbox_form (fx);
}

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
  Server *server = server_start ();
  g_autofree char *uri = server_uri (server, "/manifest.ini");
  g_autofree char *host = g_strdup_printf ("Host: 127.0.0.1:%u\n", server->port);
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
  g_assert_cmpstr (text, ==, manifest);
  g_assert_cmpuint (length, ==, strlen (manifest));
  g_assert_cmpuint (server_n_requests (server), ==, 1);
  request = server_dup_request (server, 0);
  g_assert_true (g_str_has_prefix (request, "GET /manifest.ini HTTP/1.0\n"));
  g_assert_nonnull (strstr (request, host));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&uri, g_free);

  /* no Content-Length: up to the end of the stream */
  uri = server_uri (server, "/no-length.ini");
  text = download (uri, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, manifest);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&uri, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (failures); i++)
    {
      guint before = server_n_requests (server);

      uri = server_uri (server, failures[i].path);
      text = download (uri, &length, &error);
      g_assert_null (text);
      g_assert_cmpuint (length, ==, 0);
      g_assert_error (error, failures[i].domain, failures[i].code);
      if (strstr (error->message, failures[i].in_message) == NULL)
        g_error ("%s: “%s” lacks “%s”", failures[i].path, error->message, failures[i].in_message);
      /* one request each: a redirection is not followed */
      g_assert_cmpuint (server_n_requests (server), ==, before + 1);
      g_clear_error (&error);
      g_clear_pointer (&uri, g_free);
    }

  /* https is https: to a plain server it fails (or there is no TLS here at
   * all), never falls back */
  uri = g_strdup_printf ("https://127.0.0.1:%u/manifest.ini", server->port);
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

  server_stop (server);
}

static void
test_download_cancelled (void)
{
  Server *server = server_start ();
  g_autofree char *uri = server_uri (server, "/manifest.ini");
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
  server_stop (server);
}

static GtkWidget *
find_url_alert (Fixture *fx)
{
  GtkWidget *alert = kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_ALERT_DIALOG, NULL);

  if (alert != NULL &&
      g_strcmp0 (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert)), "Import from the Web") != 0)
    return NULL;
  return alert;
}

static gboolean
url_alert_shown (gpointer data)
{
  return find_url_alert (data) != NULL;
}

static GtkWidget *
find_preview_text (Fixture *fx)
{
  return kiste_test_find_widget (GTK_WIDGET (fx->window), GTK_TYPE_TEXT_VIEW, "Downloaded File");
}

static gboolean
preview_loaded (gpointer data)
{
  GtkWidget *view = find_preview_text (data);

  return view != NULL && gtk_widget_get_mapped (view);
}

static char *
dup_text (GtkWidget *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextIter start;
  GtkTextIter end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
test_import_url (Fixture       *fx,
                 gconstpointer  data)
{
  Server *server = server_start ();
  g_autofree char *uri = server_uri (server, "/manifest.ini");
  g_autofree char *heading = g_strdup_printf ("This file comes from %s. Check it before you use it.", uri);
  g_autofree char *text = NULL;
  LabelQuery query = { fx, heading };
  GtkWidget *alert;
  GtkWidget *entry;
  GtkWidget *proceed;
  GtkWidget *view;

  gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.import-url", NULL);
  g_assert_true (kiste_test_wait_for (url_alert_shown, fx, 3000));
  alert = find_url_alert (fx);
  entry = kiste_test_find_widget (alert, ADW_TYPE_ENTRY_ROW, NULL);
  g_assert_nonnull (entry);
  g_assert_false (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (alert), "download"));

  /* plain http to another computer: refused, with the reason */
  gtk_editable_set_text (GTK_EDITABLE (entry), "http://example.org/distrobox.ini");
  g_assert_false (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (alert), "download"));
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_true (has_label_prefix (alert, "Use an address starting with “https://”"));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-url-refused");

  gtk_editable_set_text (GTK_EDITABLE (entry), uri);
  g_assert_true (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (alert), "download"));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (find_button (alert, "_Download"), "clicked");

  /* the text is shown first, as it is; nothing is filled in yet */
  g_assert_true (kiste_test_wait_for (preview_loaded, fx, 5000));
  view = find_preview_text (fx);
  text = dup_text (view);
  g_assert_cmpstr (text, ==, manifest);
  g_assert_true (gtk_text_view_get_monospace (GTK_TEXT_VIEW (view)));
  g_assert_false (gtk_text_view_get_editable (GTK_TEXT_VIEW (view)));
  g_assert_true (kiste_test_wait_for (label_shown, &query, 1000));
  g_assert_null (find_create_dialog (fx));
  proceed = find_button (GTK_WIDGET (fx->window), "C_ontinue");
  g_assert_nonnull (proceed);
  g_assert_true (gtk_widget_get_sensitive (proceed));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-url-preview");

  g_signal_emit_by_name (proceed, "clicked");
  assert_webbox_form (fx);
  g_assert_null (find_preview_text (fx));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-url-form");
  g_assert_cmpuint (server_n_requests (server), ==, 1);
  server_stop (server);
}

static gboolean
preview_failed (gpointer data)
{
  return has_label_prefix (GTK_WIDGET (((Fixture *) data)->window),
                           "There is no file at this address");
}

static gboolean
preview_gone (gpointer data)
{
  return find_button (GTK_WIDGET (((Fixture *) data)->window), "C_ontinue") == NULL;
}

static void
test_import_url_fails (Fixture       *fx,
                       gconstpointer  data)
{
  Server *server = server_start ();
  g_autofree char *uri = server_uri (server, "/missing.ini");
  GtkWidget *alert;
  GtkWidget *proceed;

  gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.import-url", NULL);
  g_assert_true (kiste_test_wait_for (url_alert_shown, fx, 3000));
  alert = find_url_alert (fx);
  gtk_editable_set_text (GTK_EDITABLE (kiste_test_find_widget (alert, ADW_TYPE_ENTRY_ROW, NULL)), uri);
  g_signal_emit_by_name (find_button (alert, "_Download"), "clicked");

  /* the reason, and nothing to continue with */
  g_assert_true (kiste_test_wait_for (preview_failed, fx, 5000));
  proceed = find_button (GTK_WIDGET (fx->window), "C_ontinue");
  g_assert_nonnull (proceed);
  g_assert_false (gtk_widget_get_sensitive (proceed));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-url-failed");

  g_signal_emit_by_name (find_button (gtk_widget_get_ancestor (proceed, ADW_TYPE_DIALOG), "_Cancel"),
                         "clicked");
  g_assert_true (kiste_test_wait_for (preview_gone, fx, 3000));
  g_assert_null (find_create_dialog (fx));
  server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  manager = kiste_test_manager_new (KISTE_TEST_WORLD_BOXES);
  kiste_application_set_manager (app, manager);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

#define ADD(path, func) \
  g_test_add ("/kiste/import/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("menu", test_menu);
  ADD ("file", test_import_file);
  ADD ("not-a-manifest", test_import_not_a_manifest);
  ADD ("missing-file", test_import_missing_file);
  ADD ("drop", test_drop);
  ADD ("url", test_import_url);
  ADD ("url-fails", test_import_url_fails);

#undef ADD

  g_test_add_func ("/kiste/import/check-uri", test_check_uri);
  g_test_add_func ("/kiste/import/download", test_download);
  g_test_add_func ("/kiste/import/download-cancelled", test_download_cancelled);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&manager);
  g_clear_object (&app);
  return ret;
}
