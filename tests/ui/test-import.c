/* test-import.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-application-private.h"
#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-create-dialog.h"
#include "kiste-error.h"
#include "kiste-manager-private.h"
#include "kiste-test-ui.h"
#include "kiste-test-server.h"
#include "kiste-window.h"

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
  return kiste_box_store_get_loaded (_kiste_manager_get_store (manager)) &&
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
  GPtrArray *commands = kiste_fake_runner_get_commands (KISTE_FAKE_RUNNER (kiste_manager_get_runner (manager)));
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
  g_autofree char *try_action = NULL;

  g_assert_nonnull (menu_button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  section = g_menu_model_get_item_link (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)),
                                        0, G_MENU_LINK_SECTION);
  /* after New Box and Try an Image */
  g_menu_model_get_item_attribute (section, 1, G_MENU_ATTRIBUTE_ACTION, "s", &try_action);
  g_menu_model_get_item_attribute (section, 2, G_MENU_ATTRIBUTE_ACTION, "s", &file_action);
  g_menu_model_get_item_attribute (section, 3, G_MENU_ATTRIBUTE_ACTION, "s", &url_action);
  g_assert_cmpstr (try_action, ==, "win.try-image");
  g_assert_cmpstr (file_action, ==, "win.import-file");
  g_assert_cmpstr (url_action, ==, "win.import-url");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));
}

static void
test_import_file (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GFile) file = write_file (fx, "distrobox.ini", kiste_test_manifest);

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
  g_autoptr(GFile) file = write_file (fx, "webbox.ini", kiste_test_manifest);
  g_autoptr(GFile) other = write_file (fx, "photo.png", "not a manifest");
  GtkDropTarget *target = find_drop_target (fx);
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) list_value = G_VALUE_INIT;
  g_autoslist(GFile) files = NULL;
  const GType *types;
  gsize n_types = 0;
  LabelQuery query = { fx, "Only distrobox.ini, box and package files can be dropped here" };

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

/* Box files: opened with Kiste and dropped ------------------------------------ */

/* A box file as Save to File writes one, its image archive naming image */
static GFile *
write_boxfile (Fixture    *fx,
               const char *name,
               const char *image)
{
  g_autoptr(KisteBoxfile) boxfile = kiste_boxfile_new ();
  g_autofree char *archive_path = g_build_filename (fx->dir, "image-in.tar", NULL);
  g_autofree char *path = g_build_filename (fx->dir, name, NULL);
  g_autofree char *index = g_strdup_printf ("{\"manifests\":[{\"annotations\":{"
                                            "\"org.opencontainers.image.ref.name\":\"%s\"}}]}",
                                            image);
  g_autoptr(GString) archive = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  guchar block[KISTE_TAR_BLOCK];

  _kiste_boxfile_tar_header (block, "index.json", strlen (index));
  g_string_append_len (archive, (const char *) block, sizeof block);
  g_string_append (archive, index);
  while (archive->len % KISTE_TAR_BLOCK != 0 || archive->len < 4 * KISTE_TAR_BLOCK)
    g_string_append_c (archive, '\0');
  g_assert_true (g_file_set_contents (archive_path, archive->str, archive->len, NULL));

  boxfile->name = g_strdup ("saved-box");
  boxfile->tool = g_strdup ("distrobox");
  boxfile->engine = g_strdup ("podman");
  boxfile->image = g_strdup ("localhost/kiste-saved/saved-box:latest");
  boxfile->settings = g_strdup ("[saved-box]\nimage=localhost/kiste-saved/saved-box:latest\n");
  boxfile->apps = g_new0 (char *, 1);
  boxfile->image_path = g_strdup (archive_path);
  g_assert_true (kiste_boxfile_write (boxfile, path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_unlink (archive_path);
  return g_file_new_for_path (path);
}

static GtkWidget *
find_boxfile_preview (Fixture *fx)
{
  GtkWidget *alert = kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_ALERT_DIALOG, NULL);

  if (alert != NULL &&
      g_strcmp0 (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert)), "Open Box File") != 0)
    return NULL;
  return alert;
}

static gboolean
boxfile_preview_shown (gpointer data)
{
  return find_boxfile_preview (data) != NULL;
}

static gboolean
boxfile_read (gpointer data)
{
  GListModel *tasks = kiste_manager_get_tasks (manager);

  for (guint i = 0; i < g_list_model_get_n_items (tasks); i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (tasks, i);

      if (g_str_equal (kiste_task_get_title (task), "Checking a box file") &&
          !kiste_task_get_running (task))
        return TRUE;
    }
  return FALSE;
}

static void
close_preview (Fixture *fx)
{
  adw_dialog_force_close (ADW_DIALOG (find_boxfile_preview (fx)));
  kiste_test_flush (GTK_WIDGET (fx->window));
}

static void
test_open_boxfile (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = write_boxfile (fx, "saved-box.kistebox",
                                         "localhost/kiste-saved/saved-box:latest");
  GFile *files[] = { file };

  /* "Open With Kiste", a file on the command line: GApplication's open */
  g_application_open (G_APPLICATION (app), files, 1, "");
  g_assert_true (kiste_test_wait_for (boxfile_preview_shown, fx, 5000));
  kiste_test_flush (GTK_WIDGET (fx->window));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "boxfile-preview");
  close_preview (fx);
}

static void
test_drop_boxfile (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(GFile) file = write_boxfile (fx, "saved-box.kistebox",
                                         "localhost/kiste-saved/saved-box:latest");
  g_autoptr(GFile) crafted = write_boxfile (fx, "crafted.kistebox",
                                            "docker.io/library/debian:latest");
  GtkDropTarget *target = find_drop_target (fx);
  g_auto(GValue) value = G_VALUE_INIT;
  g_auto(GValue) list_value = G_VALUE_INIT;
  g_autoslist(GFile) files = NULL;
  LabelQuery refused = { fx, "Could not open “crafted.kistebox”" };

  /* a file list from a file manager */
  files = g_slist_prepend (NULL, g_object_ref (file));
  g_value_init (&list_value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&list_value, gdk_file_list_new_from_list (files));
  g_assert_true (drop (target, &list_value));
  g_assert_true (kiste_test_wait_for (boxfile_preview_shown, fx, 5000));
  close_preview (fx);

  /* one file whose image archive names another image: refused, with
   * the reason, and no preview */
  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, crafted);
  g_assert_true (drop (target, &value));
  g_assert_true (kiste_test_wait_for (label_shown, &refused, 5000));
  g_assert_true (kiste_test_wait_for (boxfile_read, NULL, 5000));
  g_assert_null (find_boxfile_preview (fx));
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
  KisteTestServer *server = kiste_test_server_start ();
  g_autofree char *uri = kiste_test_server_uri (server, "/manifest.ini");
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
  /* the reason is shown once the entry row has been laid out again */
  {
    LabelQuery refused = { fx, "Use an address starting with “https://”" };

    g_assert_true (kiste_test_wait_for (label_shown, &refused, 3000));
  }
  kiste_test_screenshot (GTK_WIDGET (fx->window), "import-url-refused");

  gtk_editable_set_text (GTK_EDITABLE (entry), uri);
  g_assert_true (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (alert), "download"));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (find_button (alert, "_Download"), "clicked");

  /* the text is shown first, as it is; nothing is filled in yet */
  g_assert_true (kiste_test_wait_for (preview_loaded, fx, 5000));
  view = find_preview_text (fx);
  text = dup_text (view);
  g_assert_cmpstr (text, ==, kiste_test_manifest);
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
  g_assert_cmpuint (kiste_test_server_n_requests (server), ==, 1);
  kiste_test_server_stop (server);
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
  KisteTestServer *server = kiste_test_server_start ();
  g_autofree char *uri = kiste_test_server_uri (server, "/missing.ini");
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
  kiste_test_server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  manager = kiste_test_manager_new (KISTE_TEST_WORLD_BOXES);
  _kiste_application_set_manager (app, manager);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

#define ADD(path, func) \
  g_test_add ("/kiste/import/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("menu", test_menu);
  ADD ("file", test_import_file);
  ADD ("not-a-manifest", test_import_not_a_manifest);
  ADD ("missing-file", test_import_missing_file);
  ADD ("drop", test_drop);
  ADD ("open-boxfile", test_open_boxfile);
  ADD ("drop-boxfile", test_drop_boxfile);
  ADD ("url", test_import_url);
  ADD ("url-fails", test_import_url_fails);

#undef ADD


  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&manager);
  g_clear_object (&app);
  return ret;
}
