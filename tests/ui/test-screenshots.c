/* test-screenshots.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The screenshots of the README and the store page (`make screenshots`
 * copies them into data/screenshots/): the real window, 1200×800, on a
 * fake runner that answers like a desktop with seven boxes, one a toolbox
 * (tests/fixtures/ps-showcase.json, inspect-showcase.json), a box's apps
 * (apps-listing-showcase.txt), what the boxes exported
 * (exported-showcase/) and shells (tests/fakes/showcase). Each test first
 * checks that the window shows what its picture's caption says, then takes
 * it as showcase-NAME.png, some also in the dark style
 * (showcase-NAME-dark.png). */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-app-row.h"
#include "kiste-application-private.h"
#include "kiste-box-page.h"
#include "kiste-color-row.h"
#include "kiste-create-dialog.h"
#include "kiste-exported-dialog.h"
#include "kiste-manager-private.h"
#include "kiste-manager-updates.h"
#include "kiste-terminal-tab.h"
#include "kiste-test-ui.h"
#include "kiste-window-private.h"

#define TIMEOUT_MS 10000
#define WIDTH 1200
#define HEIGHT 800

static KisteApplication *app;

typedef struct
{
  KisteManager *manager;
  KisteWindow  *window;
  /* files to open */
  char         *dir;
} Fixture;

/* Setup ---------------------------------------------------------------------- */

static void
copy_folder (const char *from,
             const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (from, 0, &error);
  const char *name;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *dest = g_build_filename (to, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (source, &contents, &length, &error));
      g_assert_true (g_file_set_contents (dest, contents, length, &error));
      g_assert_cmpint (g_chmod (dest, g_file_test (source, G_FILE_TEST_IS_EXECUTABLE) ? 0755 : 0644), ==, 0);
    }
}

static gboolean
list_has_selection (gpointer data)
{
  KisteWindow *window = data;
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (window), GTK_TYPE_LIST_VIEW, "Boxes");

  return list != NULL && gtk_widget_get_mapped (list) &&
         gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (
           gtk_list_view_get_model (GTK_LIST_VIEW (list)))) != NULL;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *exported = NULL;
  g_autofree char *applications = NULL;
  g_autofree char *bin = NULL;
  KisteFakeRunner *runner;

  /* data, where given, is the os-release of a computer without boxes */
  fixture->manager = kiste_test_manager_new (data != NULL ? KISTE_TEST_WORLD_EMPTY : KISTE_TEST_WORLD_SHOWCASE);
  runner = KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager));
  kiste_fake_runner_add (runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-showcase.json\"");
  kiste_fake_runner_add (runner, "podman stats",
                         "printf '%s\\n' '[{\"id\":\"000000000000\",\"name\":\"fedora-dev\","
                         "\"cpu_percent\":\"1.75%\",\"avg_cpu\":\"1.75%\","
                         "\"mem_usage\":\"412.3MB / 16.42GB\",\"mem_percent\":\"2.51%\","
                         "\"net_io\":\"0B / 0B\",\"block_io\":\"0B / 0B\",\"pids\":\"23\"}]'");
  /* what runs in a box here is the listing of its apps */
  kiste_fake_runner_add (runner, "podman exec",
                         "cat \"$KISTE_TEST_FIXTURES/apps-listing-showcase.txt\"");
  /* the shells of terminal tabs, which start as processes of their own */
  path = g_strdup_printf ("%s/showcase:%s", g_getenv ("KISTE_TEST_FAKES"), g_getenv ("PATH"));
  kiste_runner_setenv (KISTE_RUNNER (runner), "PATH", path);

  fixture->dir = g_dir_make_tmp ("kiste-screenshots-XXXXXX", &error);
  g_assert_no_error (error);
  /* the host folders where they are on a desktop, so that the pictures
   * show them as ~/.local/…: $HOME is the pictures' own (see main()) */
  exported = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "exported-showcase", NULL);
  applications = g_build_filename (g_get_home_dir (), ".local", "share", "applications", NULL);
  bin = g_build_filename (g_get_home_dir (), ".local", "bin", NULL);
  {
    g_autofree char *from_applications = g_build_filename (exported, "applications", NULL);
    g_autofree char *from_bin = g_build_filename (exported, "bin", NULL);

    copy_folder (from_applications, applications);
    copy_folder (from_bin, bin);
  }
  _kiste_manager_set_host_dirs (fixture->manager, applications, bin);

  _kiste_application_set_manager (app, fixture->manager);
  g_settings_set_string (kiste_application_get_settings (app), "selected-box", "fedora-dev");
  kiste_box_color_set (kiste_application_get_settings (app), "fedora-dev", NULL);

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  fixture->window = kiste_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), WIDTH, HEIGHT);
  if (data != NULL)
    {
      g_autofree char *os_release = g_build_filename (fixture->dir, "os-release", NULL);

      g_assert_true (g_file_set_contents (os_release, data, -1, &error));
      _kiste_window_set_os_release_path (fixture->window, os_release);
    }
  gtk_window_present (GTK_WINDOW (fixture->window));
  if (data == NULL)
    g_assert_true (kiste_test_wait_for (list_has_selection, fixture->window, TIMEOUT_MS));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  kiste_window_close_without_asking (fixture->window);
  kiste_test_flush_main_context ();
  g_clear_object (&fixture->manager);
  kiste_test_remove_tree (fixture->dir);
  {
    g_autofree char *local = g_build_filename (g_get_home_dir (), ".local", NULL);

    kiste_test_remove_tree (local);
  }
  g_clear_pointer (&fixture->dir, g_free);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* Finding and waiting ------------------------------------------------------- */

/* The mapped row titled title (mnemonics as written) under root */
static AdwPreferencesRow *
find_row (GtkWidget  *root,
          const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwPreferencesRow *found;

      if (ADW_IS_PREFERENCES_ROW (child) && gtk_widget_get_mapped (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return ADW_PREFERENCES_ROW (child);
      if ((found = find_row (child, title)))
        return found;
    }
  return NULL;
}

typedef struct
{
  GtkWidget  *root;
  const char *title;
  const char *subtitle;   /* NULL: any */
} RowQuery;

static gboolean
row_shows (gpointer data)
{
  RowQuery *query = data;
  AdwPreferencesRow *row = find_row (query->root, query->title);

  if (row == NULL)
    return FALSE;
  return query->subtitle == NULL ||
         (ADW_IS_ACTION_ROW (row) &&
          g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), query->subtitle) == 0);
}

static AdwPreferencesRow *
wait_for_row (GtkWidget  *root,
              const char *title,
              const char *subtitle)
{
  RowQuery query = { root, title, subtitle };

  if (!kiste_test_wait_for (row_shows, &query, TIMEOUT_MS))
    {
      AdwPreferencesRow *row = find_row (root, title);

      g_error ("no row “%s” showing “%s” (it shows “%s”)", title, subtitle ? subtitle : "",
               row && ADW_IS_ACTION_ROW (row) ? adw_action_row_get_subtitle (ADW_ACTION_ROW (row)) : "no row");
    }
  return find_row (root, title);
}

static KisteBoxPage *
box_page (Fixture *fixture)
{
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_BOX_PAGE, NULL);

  g_assert_nonnull (page);
  return KISTE_BOX_PAGE (page);
}

static void
select_box (Fixture    *fixture,
            const char *name)
{
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_LIST_VIEW, "Boxes");
  GtkSingleSelection *model = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (list)));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (g_str_equal (kiste_box_get_name (box), name))
        {
          gtk_single_selection_set_selected (model, i);
          kiste_test_flush (GTK_WIDGET (fixture->window));
          g_assert_true (kiste_box_page_get_box (box_page (fixture)) == box);
          return;
        }
    }
  g_error ("no box “%s” in the list", name);
}

/* Scrolls the scrolled window around widget so that widget is at its top */
static void
scroll_to (GtkWidget *window,
           GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment;
  graphene_point_t point;

  g_assert_nonnull (scrolled);
  kiste_test_flush (window);
  g_assert_true (gtk_widget_compute_point (widget, scrolled, &GRAPHENE_POINT_INIT (0, 0), &point));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + point.y - 12);
  kiste_test_flush (window);
}

static gboolean
dialog_shown (gpointer data)
{
  AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (data));

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static AdwDialog *
wait_for_dialog (Fixture *fixture)
{
  g_assert_true (kiste_test_wait_for (dialog_shown, fixture->window, TIMEOUT_MS));
  return adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fixture->window));
}

static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_get_mapped (child) &&
          strstr (gtk_label_get_text (GTK_LABEL (child)), text) != NULL)
        return child;
      if ((found = find_label (child, text)))
        return found;
    }
  return NULL;
}

/* No toast, banner or message of something gone wrong in the picture */
static void
assert_no_toast (Fixture *fixture)
{
  GtkWidget *toast = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_TOAST_OVERLAY, NULL);

  for (; toast != NULL; toast = kiste_test_find_widget (toast, ADW_TYPE_TOAST_OVERLAY, NULL))
    for (GtkWidget *child = gtk_widget_get_first_child (toast); child; child = gtk_widget_get_next_sibling (child))
      g_assert_false (gtk_widget_has_css_class (child, "toast") && gtk_widget_get_mapped (child));
}

/* Pictures ------------------------------------------------------------------ */

static GskRenderNode *
render_node (GtkWidget *widget,
             int       *width,
             int       *height)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GskRenderNode *node = NULL;

  /* a widget not drawn yet gives no node: wait for frames, up to 10 s */
  for (guint attempt = 0; node == NULL && attempt < 500; attempt++)
    {
      g_autoptr(GtkSnapshot) snapshot = NULL;

      kiste_test_flush (widget);
      *width = gdk_paintable_get_intrinsic_width (paintable);
      *height = gdk_paintable_get_intrinsic_height (paintable);
      if (*width <= 0 || *height <= 0)
        continue;
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, *width, *height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }
  g_assert_nonnull (node);
  return node;
}

/* window as it is on screen, with popover (a menu open in it, which is a
 * surface of its own) drawn where it is, as $KISTE_SCREENSHOT_DIR/name.png */
static void
save_picture (GtkWidget  *window,
              GtkPopover *popover,
              const char *name)
{
  const char *dir = g_getenv ("KISTE_SCREENSHOT_DIR");
  g_autoptr(GskRenderNode) window_node = NULL;
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  int width;
  int height;

  window_node = render_node (window, &width, &height);
  gtk_snapshot_append_node (snapshot, window_node);
  if (popover != NULL)
    {
      g_autoptr(GskRenderNode) popover_node = NULL;
      GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (popover));
      double popover_x, popover_y, window_x, window_y;
      int popover_width, popover_height;

      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
      popover_node = render_node (GTK_WIDGET (popover), &popover_width, &popover_height);
      /* the popover's surface lies relative to the window's; each widget
       * lies in its surface past the shadow */
      gtk_native_get_surface_transform (GTK_NATIVE (popover), &popover_x, &popover_y);
      gtk_native_get_surface_transform (GTK_NATIVE (window), &window_x, &window_y);
      gtk_snapshot_translate (snapshot,
                              &GRAPHENE_POINT_INIT (gdk_popup_get_position_x (GDK_POPUP (surface)) + popover_x - window_x,
                                                    gdk_popup_get_position_y (GDK_POPUP (surface)) + popover_y - window_y));
      gtk_snapshot_append_node (snapshot, popover_node);
    }
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* the size the store page shows */
  g_assert_cmpint (width, ==, WIDTH);
  g_assert_cmpint (height, ==, HEIGHT);
  if (dir == NULL)
    return;
  g_mkdir_with_parents (dir, 0755);
  path = g_strdup_printf ("%s/showcase-%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

static void
take (Fixture    *fixture,
      GtkPopover *popover,
      const char *name,
      gboolean    dark_too)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  assert_no_toast (fixture);
  save_picture (GTK_WIDGET (fixture->window), popover, name);
  if (dark_too)
    {
      g_autofree char *dark_name = g_strconcat (name, "-dark", NULL);

      adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
      g_assert_true (adw_style_manager_get_dark (style));
      save_picture (GTK_WIDGET (fixture->window), popover, dark_name);
      adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
    }
}

/* The pictures -------------------------------------------------------------- */

/* The list and a box's details, read from the box itself */
static void
test_main_window (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *page;

  select_box (fixture, "fedora-dev");
  page = GTK_WIDGET (box_page (fixture));
  wait_for_row (page, "Image", "registry.fedoraproject.org/fedora-toolbox:41");
  wait_for_row (page, "State", "Running");
  wait_for_row (page, "Home Folder", "Your home folder");
  wait_for_row (page, "Exported Apps and Programs", "2 apps and 1 program");
  g_assert_nonnull (find_label (page, "fedora-dev"));
  /* a toolbox among them, its row saying so */
  g_assert_true (kiste_box_list_get_several_tools (kiste_manager_get_boxes (fixture->manager)));
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->window), "Toolbx"));
  take (fixture, NULL, "main-window", TRUE);
}

/* What a box without the home shares with this computer */
static void
test_isolation (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *page;
  GtkWidget *group;
  AdwPreferencesRow *row;

  select_box (fixture, "experiments");
  page = GTK_WIDGET (box_page (fixture));
  row = wait_for_row (page, "Your home folder is not in this box", NULL);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "/run/host"));
  group = gtk_widget_get_ancestor (GTK_WIDGET (row), ADW_TYPE_PREFERENCES_GROUP);
  g_assert_cmpstr (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (group)), ==, "Isolation");
  wait_for_row (group, "Home Folder", "Separate from the host");
  wait_for_row (group, "Network", "Shared with the host");
  scroll_to (GTK_WIDGET (fixture->window), group);
  take (fixture, NULL, "isolation", FALSE);
}

typedef struct
{
  GtkWidget  *root;
  const char *title;
  const char *prefix;
} PrefixQuery;

static gboolean
row_starts_with (gpointer data)
{
  PrefixQuery *query = data;
  AdwPreferencesRow *row = find_row (query->root, query->title);

  return row != NULL && ADW_IS_ACTION_ROW (row) &&
         g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), query->prefix);
}

/* A preferences group titled title under root, once it has n rows */
static GtkWidget *
find_group (GtkWidget  *root,
            const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_PREFERENCES_GROUP (child) &&
          g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (child)), title) == 0)
        return child;
      if ((found = find_group (child, title)))
        return found;
    }
  return NULL;
}

static guint
count_rows (GtkWidget *root)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    n += (ADW_IS_ACTION_ROW (child) && gtk_widget_get_visible (child)) + count_rows (child);
  return n;
}

typedef struct
{
  GtkWidget  *root;
  const char *title;
  guint       n_rows;
} GroupQuery;

static gboolean
group_has_rows (gpointer data)
{
  GroupQuery *query = data;
  GtkWidget *group = find_group (query->root, query->title);

  return group != NULL && count_rows (group) >= query->n_rows;
}

/* A box whose image has a newer one, and its snapshots */
static void
test_snapshots (Fixture       *fixture,
                gconstpointer  data)
{
  KisteFakeRunner *runner = KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager));
  GtkWidget *page;
  GtkWidget *group;

  kiste_fake_runner_add (runner, "podman images",
                         "echo '["
                         "{\"Id\":\"5e1a\",\"Size\":2214592512,\"Names\":[\"localhost/kiste-snapshot:fedora-dev-20261205-174210\"],"
                         "\"Labels\":{\"io.github.kiste.snapshot.box\":\"fedora-dev\",\"io.github.kiste.snapshot.reason\":\"snapshot\"}},"
                         "{\"Id\":\"77c2\",\"Size\":1932735283,\"Names\":[\"localhost/kiste-snapshot:fedora-dev-20261128-091503\"],"
                         "\"Labels\":{\"io.github.kiste.snapshot.box\":\"fedora-dev\",\"io.github.kiste.snapshot.reason\":\"snapshot\"}}"
                         "]'");
  /* the registry has the local images, and a newer Fedora one */
  kiste_fake_runner_add (runner, "podman image inspect",
                         "shift 4; sep='['; for id in \"$@\"; do"
                         " printf '%s{\"Id\":\"%s\",\"Digest\":\"sha256:%s\"}' \"$sep\" \"$id\" "
                         "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1; sep=,;"
                         " done; echo ']'");
  kiste_fake_runner_add (runner, "skopeo",
                         "case \"$4\" in "
                         "*fedora-toolbox:41) echo '{\"Digest\":\"sha256:"
                         "0000000000000000000000000000000000000000000000000000000000000000\","
                         "\"Created\":\"2026-12-04T08:00:00Z\"}';; "
                         "*) echo '{\"Digest\":\"sha256:"
                         "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\"}';; esac");

  /* the window opened on fedora-dev before there were snapshots: the
   * page lists them again for another box and back */
  select_box (fixture, "experiments");
  select_box (fixture, "fedora-dev");
  page = GTK_WIDGET (box_page (fixture));
  wait_for_row (page, "State", "Running");
  /* the manager's check, as the daily one runs, without the toast */
  kiste_manager_check_updates_async (fixture->manager, NULL, NULL, NULL);
  {
    PrefixQuery newer = { page, "Image Updates", "Newer image available" };
    GroupQuery snapshots = { page, "Snapshots", 2 };

    g_assert_true (kiste_test_wait_for (row_starts_with, &newer, TIMEOUT_MS));
    g_assert_true (kiste_test_wait_for (group_has_rows, &snapshots, TIMEOUT_MS));
  }
  group = find_group (page, "Snapshots");
  scroll_to (GTK_WIDGET (fixture->window), group);
  take (fixture, NULL, "snapshots", FALSE);
}

typedef struct
{
  KisteTerminalTab *tab;
  const char       *text;
} TabQuery;

static gboolean
tab_shows (gpointer data)
{
  TabQuery *query = data;
  g_autofree char *text = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (query->tab));

  return text != NULL && strstr (text, query->text) != NULL;
}

static void
wait_for_text (KisteTerminalTab *tab,
               const char       *text)
{
  TabQuery query = { tab, text };

  if (!kiste_test_wait_for (tab_shows, &query, TIMEOUT_MS))
    {
      g_autofree char *shown = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (tab));

      g_error ("the terminal does not show “%s”:\n%s", text, shown);
    }
}

/* Two boxes' shells in tabs beside the list, one in its box's colour */
static void
test_terminal (Fixture       *fixture,
               gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteTerminalTab *arch;
  KisteTerminalTab *fedora;

  kiste_box_color_set (kiste_application_get_settings (app), "fedora-dev", "blue");
  arch = kiste_window_open_terminal (fixture->window, "arch", NULL);
  wait_for_text (arch, "[tester@arch ~]$ ");
  fedora = kiste_window_open_terminal (fixture->window, "fedora-dev", NULL);
  wait_for_text (fedora, "Fedora release 41");
  wait_for_text (fedora, "fedora-dev\n[tester@fedora-dev ~]$ ");
  g_assert_true (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)) == GTK_WIDGET (fedora));
  /* the details and the two tabs */
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 3);
  g_assert_cmpint (kiste_terminal_tab_get_state (fedora), ==, KISTE_TERMINAL_TAB_RUNNING);
  take (fixture, NULL, "terminal", TRUE);
}

static KisteAppRow *
find_app_row (GtkWidget  *root,
              const char *id)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      KisteAppRow *found;

      if (KISTE_IS_APP_ROW (child) &&
          g_str_equal (kiste_desktop_app_get_id (kiste_app_row_get_app (KISTE_APP_ROW (child))), id))
        return KISTE_APP_ROW (child);
      if ((found = find_app_row (child, id)))
        return found;
    }
  return NULL;
}

typedef struct
{
  GtkWidget  *root;
  const char *id;
} AppQuery;

static gboolean
app_exported (gpointer data)
{
  AppQuery *query = data;
  KisteAppRow *row = find_app_row (query->root, query->id);

  return row != NULL && gtk_widget_get_mapped (GTK_WIDGET (row)) &&
         kiste_desktop_app_get_exported (kiste_app_row_get_app (row));
}

/* The apps inside a box, two of them in the host's menu, and the menu of
 * one */
static void
test_apps (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *page;
  AppQuery query;
  KisteAppRow *row;
  GtkWidget *popover;

  select_box (fixture, "fedora-dev");
  page = GTK_WIDGET (box_page (fixture));
  adw_view_stack_set_visible_child_name (ADW_VIEW_STACK (kiste_test_find_widget (page, ADW_TYPE_VIEW_STACK, NULL)),
                                         "apps");
  query = (AppQuery) { page, "org.gnome.TextEditor.desktop" };
  g_assert_true (kiste_test_wait_for (app_exported, &query, TIMEOUT_MS));
  query.id = "org.gnome.Meld.desktop";
  g_assert_true (kiste_test_wait_for (app_exported, &query, TIMEOUT_MS));
  g_assert_false (kiste_desktop_app_get_exported (kiste_app_row_get_app (find_app_row (page, "emacs.desktop"))));

  /* the menu points at the middle of the row, as the Menu key opens it:
   * once the rows are laid out */
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = find_app_row (page, "org.gnome.TextEditor.desktop");
  kiste_app_row_popup_menu (row);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  popover = kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_POPOVER_MENU, NULL);
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_mapped (popover));
  g_assert_nonnull (find_label (popover, "Launch"));
  g_assert_nonnull (find_label (popover, "Remove from Menu"));
  take (fixture, GTK_POPOVER (popover), "apps", TRUE);
  gtk_popover_popdown (GTK_POPOVER (popover));
}

/* New Box with the Home Folder switch on */
static void
test_create (Fixture       *fixture,
             gconstpointer  data)
{
  KisteCreateDialog *dialog;
  KisteCreateOptions *options;
  AdwPreferencesRow *home;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-box", NULL));
  dialog = KISTE_CREATE_DIALOG (wait_for_dialog (fixture));
  options = kiste_create_dialog_get_options (dialog);
  kiste_create_options_set_image (options, "quay.io/toolbx/ubuntu-toolbox:24.04");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "ubuntu-toolbox-24-04");
  g_assert_true (kiste_create_dialog_get_can_create (dialog));
  home = find_row (GTK_WIDGET (dialog), "_Home Folder");
  g_assert_nonnull (home);
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (home)));
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (home)));
  scroll_to (GTK_WIDGET (fixture->window),
             gtk_widget_get_ancestor (GTK_WIDGET (find_row (GTK_WIDGET (dialog), "Isolate _Everything")),
                                      ADW_TYPE_PREFERENCES_GROUP));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (home)));
  take (fixture, NULL, "create-box", FALSE);
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

/* Try an Image: a temporary box of an image, with one switch on */
static void
test_try_image (Fixture       *fixture,
                gconstpointer  data)
{
  KisteCreateDialog *dialog;
  KisteCreateOptions *options;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.try-image", NULL));
  dialog = KISTE_CREATE_DIALOG (wait_for_dialog (fixture));
  options = kiste_create_dialog_get_options (dialog);
  kiste_create_options_set_image (options, "quay.io/fedora/fedora:rawhide");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_NETNS, TRUE);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  g_assert_cmpstr (adw_dialog_get_title (ADW_DIALOG (dialog)), ==, "Try an Image");
  g_assert_true (kiste_create_options_get_temporary (options));
  g_assert_true (kiste_create_dialog_get_can_create (dialog));
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (find_row (GTK_WIDGET (dialog), "_Network"))));
  take (fixture, NULL, "try-image", FALSE);
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

/* A package file opened with Kiste: the boxes whose package manager takes
 * it */
static void
test_install_package (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->dir, "hello-2.12.1-5.fc41.x86_64.rpm", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  AdwDialog *alert;

  g_assert_true (g_file_set_contents (path, "\xed\xab\xee\xdb", 4, NULL));
  kiste_window_install_package_file (fixture->window, file);
  alert = wait_for_dialog (fixture);
  g_assert_true (ADW_IS_ALERT_DIALOG (alert));
  g_assert_cmpstr (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert)), ==, "Install Package File?");
  /* Fedora and openSUSE take .rpm files, the others do not */
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fedora-dev"));
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "experiments"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "debian-stable"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "arch"));
  take (fixture, NULL, "install-package", FALSE);
  adw_dialog_force_close (alert);
}

/* Everything Exported: apps and boxes in the app menu, programs, and what
 * a deleted box left behind */
static void
test_exported (Fixture       *fixture,
               gconstpointer  data)
{
  AdwDialog *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.exported", NULL));
  dialog = wait_for_dialog (fixture);
  g_assert_true (KISTE_IS_EXPORTED_DIALOG (dialog));
  wait_for_row (GTK_WIDGET (dialog), "Text Editor", NULL);
  wait_for_row (GTK_WIDGET (dialog), "Meld", NULL);
  wait_for_row (GTK_WIDGET (dialog), "arch", NULL);
  wait_for_row (GTK_WIDGET (dialog), "Emacs", NULL);
  g_assert_nonnull (find_label (GTK_WIDGET (dialog), "Left Behind"));
  take (fixture, NULL, "exported", FALSE);
  adw_dialog_force_close (dialog);
}

/* A distrobox.ini with several boxes: which one to fill in, or all */
static void
test_manifest (Fixture       *fixture,
               gconstpointer  data)
{
  static const char manifest[] =
    "[rawhide]\n"
    "image=quay.io/fedora/fedora:rawhide\n"
    "additional_packages=\"git gcc\"\n"
    "\n"
    "[ubuntu-dev]\n"
    "image=quay.io/toolbx/ubuntu-toolbox:24.04\n"
    "init=true\n"
    "\n"
    "[tumbleweed]\n"
    "image=registry.opensuse.org/opensuse/distrobox:latest\n"
    "unshare_netns=true\n";
  g_autofree char *path = g_build_filename (fixture->dir, "distrobox.ini", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  AdwDialog *dialog;

  g_assert_true (g_file_set_contents (path, manifest, -1, NULL));
  kiste_window_import_file (fixture->window, file);
  g_assert_true (kiste_test_wait_for (dialog_shown, fixture->window, TIMEOUT_MS));
  dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fixture->window));
  /* the choice comes over the create dialog */
  wait_for_row (GTK_WIDGET (fixture->window), "rawhide", NULL);
  wait_for_row (GTK_WIDGET (fixture->window), "ubuntu-dev", NULL);
  wait_for_row (GTK_WIDGET (fixture->window), "tumbleweed", NULL);
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->window), "Which Box?"));
  take (fixture, NULL, "manifest", FALSE);
  adw_dialog_force_close (dialog);
}

/* A computer without boxes (Fedora Silverblue 42): the first boxes offered */
static const char silverblue_42[] =
  "NAME=\"Fedora Linux\"\n"
  "VERSION=\"42 (Silverblue)\"\n"
  "ID=fedora\n"
  "VERSION_ID=42\n"
  "VARIANT_ID=silverblue\n";

static gboolean
first_boxes_shown (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_STATUS_PAGE, "No Boxes");

  return page != NULL && gtk_widget_get_mapped (page);
}

static void
test_first_run (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *page;
  GtkWidget *fedora;

  g_assert_true (kiste_test_wait_for (first_boxes_shown, fixture, TIMEOUT_MS));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  page = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_STATUS_PAGE, "No Boxes");
  fedora = kiste_test_find_widget (page, GTK_TYPE_BUTTON, "Create Fedora Box");
  g_assert_nonnull (fedora);
  g_assert_true (gtk_widget_has_css_class (fedora, "suggested-action"));
  g_assert_nonnull (kiste_test_find_widget (page, GTK_TYPE_BUTTON, "Create Ubuntu Box"));
  g_assert_nonnull (kiste_test_find_widget (page, GTK_TYPE_BUTTON, "Try Arch Linux"));
  g_assert_nonnull (find_label (page, "registry.fedoraproject.org/fedora-toolbox:42"));
  take (fixture, NULL, "first-run", TRUE);
}

int
main (int   argc,
      char *argv[])
{
  const char *build_dir = g_getenv ("G_TEST_BUILDDIR");
  g_autofree char *home = g_build_filename (build_dir ? build_dir : g_get_tmp_dir (), "screenshots-home", NULL);
  int ret;

  /* a home of the pictures' own, kept in the build folder: the exports go
   * to its ~/.local, and nothing of the machine's user shows. It stays:
   * the session bus the tests start may keep a mount in its ~/.cache */
  g_assert_cmpint (g_mkdir_with_parents (home, 0700), ==, 0);
  g_setenv ("HOME", home, TRUE);

  /* VTE 0.80 connects to its own deprecated window-title-changed signal,
   * which G_ENABLE_DIAGNOSTIC makes a fatal warning (as in test-terminal-tab) */
  g_setenv ("G_ENABLE_DIAGNOSTIC", "0", TRUE);
  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/kiste/screenshots/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("main-window", test_main_window);
  g_test_add ("/kiste/screenshots/first-run", Fixture, silverblue_42, fixture_setup, test_first_run, fixture_teardown);
  ADD ("isolation", test_isolation);
  ADD ("snapshots", test_snapshots);
  ADD ("terminal", test_terminal);
  ADD ("apps", test_apps);
  ADD ("create", test_create);
  ADD ("try-image", test_try_image);
  ADD ("install-package", test_install_package);
  ADD ("exported", test_exported);
  ADD ("manifest", test_manifest);

#undef ADD

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
