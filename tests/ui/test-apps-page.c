/* test-apps-page.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-app-row.h"
#include "kiste-apps-page.h"
#include "kiste-box-page.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-resources.h"
#include "kiste-test-ui.h"

/* The apps of a box through the shared fake runner: `podman exec` prints
 * the listing captured from a Debian box, distrobox-export writes and
 * deletes launchers in a temporary "host" folder as distrobox 1.8 does
 * (--delete also removes the same-named launcher), and the small host
 * scripts that keep the user's launcher run for real. */
typedef struct
{
  KisteTestHost    host;
  GtkWindow       *window;
  KisteAppsPage   *page;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *fake_export = NULL;
  GtkWidget *overlay;

  kiste_test_host_init (&fixture->host, "kiste-apps-page-XXXXXX");
  kiste_fake_runner_add (fixture->host.runner, "podman exec",
                         "cat \"$KISTE_TEST_FIXTURES/apps-listing-debian.txt\"");
  kiste_fake_runner_add (fixture->host.runner, "sh -c", "exec sh \"$@\"");
  fake_export = g_strdup_printf ("dir='%s'\n"
                                 "while [ $# -gt 0 ]; do\n"
                                 "  case $1 in --app) app=$2; shift;; --delete) delete=1;; esac\n"
                                 "  shift\n"
                                 "done\n"
                                 "base=${app##*/}\n"
                                 "if [ -n \"$delete\" ]; then\n"
                                 "  rm -f \"$dir/fixture-a-$base\" \"$dir/$base\"\n"
                                 "else\n"
                                 "  printf '[Desktop Entry]\\nType=Application\\nName=%%s (on fixture-a)\\n"
                                 "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   app  %%%%U \\n' \"$base\" "
                                 "> \"$dir/fixture-a-$base\"\n"
                                 "fi\n",
                                 fixture->host.applications);
  kiste_fake_runner_add (fixture->host.runner, "distrobox enter", fake_export);

  fixture->page = kiste_apps_page_new (fixture->host.manager);
  overlay = adw_toast_overlay_new ();
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), GTK_WIDGET (fixture->page));
  fixture->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fixture->window, 640, 720);
  adw_window_set_content (ADW_WINDOW (fixture->window), overlay);
  gtk_window_present (fixture->window);
  kiste_test_flush (GTK_WIDGET (fixture->window));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  kiste_test_host_clear (&fixture->host);
}

static KisteBox *
find_box (Fixture    *fixture,
          const char *name)
{
  KisteBox *box = kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->host.manager), name);

  g_assert_nonnull (box);
  return box;
}

static GtkStack *
page_stack (Fixture *fixture)
{
  return GTK_STACK (adw_bin_get_child (ADW_BIN (fixture->page)));
}

typedef struct
{
  Fixture    *fixture;
  const char *name;
} StackQuery;

static gboolean
stack_shows (gpointer data)
{
  StackQuery *query = data;

  return g_strcmp0 (gtk_stack_get_visible_child_name (page_stack (query->fixture)), query->name) == 0;
}

static void
wait_stack (Fixture    *fixture,
            const char *name)
{
  StackQuery query = { fixture, name };

  if (!kiste_test_wait_for (stack_shows, &query, 5000))
    g_error ("The page shows “%s”, not “%s”",
             gtk_stack_get_visible_child_name (page_stack (fixture)), name);
}

static KisteAppRow *
find_app_row (Fixture    *fixture,
              const char *id)
{
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_LIST_BOX, NULL);

  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (KISTE_IS_APP_ROW (child) &&
        g_str_equal (kiste_desktop_app_get_id (kiste_app_row_get_app (KISTE_APP_ROW (child))), id))
      return KISTE_APP_ROW (child);

  return NULL;
}

static guint
count_visible_rows (Fixture *fixture)
{
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_LIST_BOX, NULL);
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (KISTE_IS_APP_ROW (child) && gtk_widget_get_child_visible (child))
      n++;

  return n;
}

typedef struct
{
  KisteDesktopApp *app;
  gboolean         exported;
} ExportedQuery;

static gboolean
app_exported_is (gpointer data)
{
  ExportedQuery *query = data;

  return kiste_desktop_app_get_exported (query->app) == query->exported;
}

static gboolean
host_file_exists (Fixture    *fixture,
                  const char *name)
{
  g_autofree char *path = g_build_filename (fixture->host.applications, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* A running box's apps, listed in one exec: sorted by name, each with its
 * button; search narrows them */
static void
test_list (Fixture       *fixture,
           gconstpointer  data)
{
  KisteAppRow *row;
  GtkWidget *search;

  kiste_apps_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_stack (fixture, "list");
  g_assert_cmpuint (kiste_fake_runner_count (fixture->host.runner, "podman exec"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->host.runner, "podman start"), ==, 0);

  row = find_app_row (fixture, "org.example.Editor.desktop");
  g_assert_nonnull (row);
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_BUTTON,
                                            "Add to Menu"));
  g_assert_cmpuint (count_visible_rows (fixture), ==, 7);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-list");

  search = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_SEARCH_ENTRY, NULL);
  gtk_editable_set_text (GTK_EDITABLE (search), "VIEWER");
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (gtk_widget_get_parent (GTK_WIDGET (row))));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpuint (count_visible_rows (fixture), ==, 1);
  gtk_editable_set_text (GTK_EDITABLE (search), "");
  gtk_list_box_invalidate_filter (GTK_LIST_BOX (gtk_widget_get_parent (GTK_WIDGET (row))));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpuint (count_visible_rows (fixture), ==, 7);
}

/* A stopped box is not started behind the user's back */
static void
test_stopped_asks (Fixture       *fixture,
                   gconstpointer  data)
{
  kiste_apps_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  wait_stack (fixture, "stopped");
  g_assert_cmpuint (kiste_fake_runner_count (fixture->host.runner, "podman exec"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->host.runner, "podman start"), ==, 0);
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON,
                                            "Start the Box and Look for Apps"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-stopped");
}

static gboolean
path_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* Add to Menu, then Remove from Menu through the context menu: the state
 * follows the host folder; the user's own launcher of the same name
 * survives distrobox's --delete */
static void
test_export_and_remove (Fixture       *fixture,
                        gconstpointer  data)
{
  const char *mine = "[Desktop Entry]\nType=Application\nName=My Editor\nExec=my-editor\n";
  g_autofree char *mine_path = g_build_filename (fixture->host.applications, "org.example.Editor.desktop", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  ExportedQuery query = { 0 };
  KisteAppRow *row;
  GtkWidget *popover;

  kiste_apps_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_stack (fixture, "list");
  row = find_app_row (fixture, "org.example.Editor.desktop");
  query.app = kiste_app_row_get_app (row);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "apps.add", "s",
                                             "org.example.Editor.desktop"));
  query.exported = TRUE;
  g_assert_true (kiste_test_wait_for (app_exported_is, &query, 5000));
  g_assert_true (host_file_exists (fixture, "fixture-a-org.example.Editor.desktop"));
  g_assert_nonnull (kiste_fake_runner_find (fixture->host.runner,
                                            "distrobox enter --name fixture-a --no-tty -- distrobox-export "
                                            "--app /usr/share/applications/org.example.Editor.desktop"));
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_BUTTON, "Remove from Menu"));

  /* The context menu, as the Menu key opens it */
  kiste_app_row_popup_menu (row);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  popover = kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_POPOVER_MENU, NULL);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-context-menu");
  gtk_popover_popdown (GTK_POPOVER (popover));

  g_assert_true (g_file_set_contents (mine_path, mine, -1, &error));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "apps.remove", "s",
                                             "org.example.Editor.desktop"));
  query.exported = FALSE;
  g_assert_true (kiste_test_wait_for (app_exported_is, &query, 5000));
  g_assert_false (host_file_exists (fixture, "fixture-a-org.example.Editor.desktop"));
  /* the box's launcher goes first, then the user's comes back from aside */
  g_assert_true (kiste_test_wait_for (path_exists, mine_path, 5000));
  g_assert_true (g_file_get_contents (mine_path, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, mine);
  g_assert_false (host_file_exists (fixture, ".org.example.Editor.desktop.kiste-kept"));
}

static gboolean
banner_shown (gpointer data)
{
  AdwBanner *banner = data;

  return adw_banner_get_revealed (banner);
}

/* A failed export says what distrobox printed, and the app stays out */
static void
test_export_fails (Fixture       *fixture,
                   gconstpointer  data)
{
  AdwBanner *banner;
  KisteAppRow *row;

  kiste_fake_runner_add (fixture->host.runner, "distrobox enter",
                         "echo 'Error: cannot write to the applications folder' >&2; exit 1");
  kiste_apps_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_stack (fixture, "list");
  row = find_app_row (fixture, "org.example.Editor.desktop");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "apps.add", "s",
                                             "org.example.Editor.desktop"));
  banner = ADW_BANNER (kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_BANNER, NULL));
  g_assert_true (kiste_test_wait_for (banner_shown, banner, 5000));
  g_assert_nonnull (strstr (adw_banner_get_title (banner), "cannot write to the applications folder"));
  g_assert_false (kiste_desktop_app_get_exported (kiste_app_row_get_app (row)));
  g_assert_false (host_file_exists (fixture, "fixture-a-org.example.Editor.desktop"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-export-failed");
}

/* A launcher made elsewhere (the command line, another app) shows up
 * without any command: the folder is followed, not polled */
static void
test_follows_host_folder (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->host.applications, "fixture-a-xperf.desktop", NULL);
  g_autoptr(GError) error = NULL;
  ExportedQuery query = { 0 };
  guint n_before;

  kiste_apps_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_stack (fixture, "list");
  query.app = kiste_app_row_get_app (find_app_row (fixture, "xperf.desktop"));
  g_assert_false (kiste_desktop_app_get_exported (query.app));
  n_before = kiste_fake_runner_get_commands (fixture->host.runner)->len;

  g_assert_true (g_file_set_contents (path,
                                      "[Desktop Entry]\nName=X11 Perf (on fixture-a)\n"
                                      "Exec=distrobox enter -n fixture-a -- xperf\n",
                                      -1, &error));
  query.exported = TRUE;
  g_assert_true (kiste_test_wait_for (app_exported_is, &query, 5000));

  g_assert_cmpint (g_unlink (path), ==, 0);
  query.exported = FALSE;
  g_assert_true (kiste_test_wait_for (app_exported_is, &query, 5000));
  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->host.runner)->len, ==, n_before);
}

/* The box page has the apps beside the details, for the same box; the
 * apps view is made when it is first shown, and follows the box */
static void
test_box_page_tab (Fixture       *fixture,
                   gconstpointer  data)
{
  KisteBoxPage *box_page = kiste_box_page_new (fixture->host.manager, NULL);
  g_autoptr(GtkWidget) guard = g_object_ref_sink (GTK_WIDGET (box_page));
  GtkWidget *apps_page;
  GtkWidget *stack;

  kiste_box_page_set_box (box_page, find_box (fixture, "fixture-b"));
  stack = kiste_test_find_widget (GTK_WIDGET (box_page), ADW_TYPE_VIEW_STACK, NULL);
  g_assert_nonnull (adw_view_stack_get_child_by_name (ADW_VIEW_STACK (stack), "apps"));
  g_assert_nonnull (adw_view_stack_get_child_by_name (ADW_VIEW_STACK (stack), "details"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (ADW_VIEW_STACK (stack)), ==, "details");
  g_assert_null (kiste_test_find_widget (GTK_WIDGET (box_page), KISTE_TYPE_APPS_PAGE, NULL));

  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "apps");
  apps_page = kiste_test_find_widget (GTK_WIDGET (box_page), KISTE_TYPE_APPS_PAGE, NULL);
  g_assert_nonnull (apps_page);
  g_assert_true (kiste_apps_page_get_box (KISTE_APPS_PAGE (apps_page)) == find_box (fixture, "fixture-b"));

  kiste_box_page_set_box (box_page, find_box (fixture, "fixture-a"));
  g_assert_true (kiste_apps_page_get_box (KISTE_APPS_PAGE (apps_page)) == find_box (fixture, "fixture-a"));
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "details");
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (stack), "apps");
  g_assert_true (kiste_test_find_widget (GTK_WIDGET (box_page), KISTE_TYPE_APPS_PAGE, NULL) == apps_page);
}

typedef struct
{
  Fixture    *fixture;
  const char *name;
  gboolean    exists;
} FileQuery;

static gboolean
file_exists_is (gpointer data)
{
  FileQuery *query = data;

  return host_file_exists (query->fixture, query->name) == query->exists;
}

typedef struct
{
  GtkSwitch *sw;
  gboolean   active;
  gboolean   sensitive;
} SwitchQuery;

static gboolean
switch_is (gpointer data)
{
  SwitchQuery *query = data;

  return gtk_switch_get_active (query->sw) == query->active &&
         gtk_widget_get_sensitive (GTK_WIDGET (query->sw)) == query->sensitive;
}

/* The box itself in the menu: the switch on the details shows whether
 * distrobox generate-entry's launcher is there, and adds and removes it */
static void
test_box_entry (Fixture       *fixture,
                gconstpointer  data)
{
  KisteBoxPage *box_page = kiste_box_page_new (fixture->host.manager, NULL);
  g_autofree char *entry_script = NULL;
  FileQuery file_query = { fixture, "fixture-a.desktop", TRUE };
  SwitchQuery switch_query = { 0 };
  GtkWidget *overlay = adw_toast_overlay_new ();

  entry_script = g_strdup_printf ("if [ \"$3\" = --delete ]; then rm -f '%s/'\"$2\".desktop; else\n"
                                  "printf '[Desktop Entry]\\nName=%%s\\nExec=/usr/bin/distrobox enter %%s\\n"
                                  "Terminal=true\\n' \"$2\" \"$2\" > '%s/'\"$2\".desktop; fi\n",
                                  fixture->host.applications, fixture->host.applications);
  kiste_fake_runner_add (fixture->host.runner, "distrobox generate-entry", entry_script);

  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), GTK_WIDGET (box_page));
  adw_window_set_content (ADW_WINDOW (fixture->window), overlay);
  kiste_box_page_set_box (box_page, find_box (fixture, "fixture-a"));
  switch_query.sw = GTK_SWITCH (kiste_test_find_widget (GTK_WIDGET (box_page), GTK_TYPE_SWITCH,
                                                        "Box in the App Menu"));
  g_assert_nonnull (switch_query.sw);
  switch_query.sensitive = TRUE;
  g_assert_true (kiste_test_wait_for (switch_is, &switch_query, 5000));

  gtk_switch_set_active (switch_query.sw, TRUE);
  g_assert_true (kiste_test_wait_for (file_exists_is, &file_query, 5000));
  g_assert_nonnull (kiste_fake_runner_find (fixture->host.runner, "distrobox generate-entry fixture-a"));
  switch_query.active = TRUE;
  g_assert_true (kiste_test_wait_for (switch_is, &switch_query, 5000));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-entry-switch");

  gtk_switch_set_active (switch_query.sw, FALSE);
  file_query.exists = FALSE;
  g_assert_true (kiste_test_wait_for (file_exists_is, &file_query, 5000));
  g_assert_nonnull (kiste_fake_runner_find (fixture->host.runner, "distrobox generate-entry fixture-a --delete"));
  switch_query.active = FALSE;
  g_assert_true (kiste_test_wait_for (switch_is, &switch_query, 5000));
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_init (&argc, &argv);
  kiste_register_resource ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/apps-page/list", test_list);
  ADD ("/kiste/apps-page/stopped-asks", test_stopped_asks);
  ADD ("/kiste/apps-page/export-and-remove", test_export_and_remove);
  ADD ("/kiste/apps-page/export-fails", test_export_fails);
  ADD ("/kiste/apps-page/follows-host-folder", test_follows_host_folder);
  ADD ("/kiste/apps-page/box-page-tab", test_box_page_tab);
  ADD ("/kiste/apps-page/box-entry", test_box_entry);

#undef ADD

  return g_test_run ();
}
