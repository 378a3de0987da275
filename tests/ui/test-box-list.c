/* test-box-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-application-private.h"
#include "kiste-box-page.h"
#include "kiste-box-row.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"
#include "kiste-window-private.h"

typedef struct
{
  KisteApplication *app;
  KisteFakeRunner  *runner;
  KisteWindow      *window;
} Fixture;

/* One application per process: GApplication registers once */
static KisteApplication *app;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(KisteManager) manager = NULL;

  fixture->app = g_object_ref (app);

  manager = kiste_test_manager_new (GPOINTER_TO_INT (data));
  fixture->runner = g_object_ref (KISTE_FAKE_RUNNER (kiste_manager_get_runner (manager)));
  _kiste_application_set_manager (fixture->app, manager);

  g_settings_set_string (kiste_application_get_settings (fixture->app), "selected-box", "");
  fixture->window = kiste_window_new (fixture->app);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1000, 640);
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  kiste_test_flush_main_context ();
  g_clear_object (&fixture->runner);
  g_clear_object (&fixture->app);
}

static GtkWidget *
find_mapped_status_page (GtkWidget  *root,
                         const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_STATUS_PAGE (child) && gtk_widget_get_mapped (child) &&
          g_strcmp0 (adw_status_page_get_title (ADW_STATUS_PAGE (child)), title) == 0)
        return child;
      if ((found = find_mapped_status_page (child, title)))
        return found;
    }
  return NULL;
}

typedef struct
{
  Fixture    *fixture;
  const char *title;
} StatusQuery;

static gboolean
status_page_shown (gpointer data)
{
  StatusQuery *query = data;

  return find_mapped_status_page (GTK_WIDGET (query->fixture->window), query->title) != NULL;
}

/* The status page with this title, once it is on screen */
static GtkWidget *
wait_for_status_page (Fixture    *fixture,
                      const char *title)
{
  StatusQuery query = { fixture, title };

  g_assert_true (kiste_test_wait_for (status_page_shown, &query, 5000));
  return find_mapped_status_page (GTK_WIDGET (fixture->window), title);
}

static GListModel *
get_list_model (Fixture *fixture)
{
  GtkListView *list = GTK_LIST_VIEW (kiste_test_find_widget (GTK_WIDGET (fixture->window),
                                                             GTK_TYPE_LIST_VIEW, "Boxes"));

  g_assert_nonnull (list);
  return G_LIST_MODEL (gtk_list_view_get_model (list));
}

static gboolean
list_has_items (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_LIST_VIEW, "Boxes");
  GtkWidget *split = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_NAVIGATION_SPLIT_VIEW, NULL);
  GtkSelectionModel *model;

  if (list == NULL || !gtk_widget_get_mapped (list))
    return FALSE;
  model = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  /* the first box is chosen after the frame that draws the rows, unless
   * the window is narrow */
  return g_list_model_get_n_items (G_LIST_MODEL (model)) > 0 &&
         (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)) != GTK_INVALID_LIST_POSITION ||
          adw_navigation_split_view_get_collapsed (ADW_NAVIGATION_SPLIT_VIEW (split)));
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

      if (GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), text) == 0)
        return child;
      if ((found = find_label (child, text)))
        return found;
    }
  return NULL;
}

static void
test_rows_sorted_and_selected (Fixture       *fixture,
                               gconstpointer  data)
{
  GListModel *model;
  g_autoptr(KisteBox) first = NULL;
  g_autoptr(KisteBox) last = NULL;
  GtkWidget *row;
  guint n;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  model = get_list_model (fixture);
  n = g_list_model_get_n_items (model);

  /* Only distrobox boxes (not the plain or toolbox containers), by name */
  g_assert_cmpuint (n, ==, 5);
  first = g_list_model_get_item (model, 0);
  last = g_list_model_get_item (model, n - 1);
  g_assert_cmpstr (kiste_box_get_name (first), ==, "fixture-a");
  g_assert_cmpstr (kiste_box_get_name (last), ==, "fixture-clash");

  /* One ps for the whole list */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);

  /* The first box is selected and its row shows name, image and state */
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)), ==, 0);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_BOX_ROW, NULL);
  g_assert_nonnull (row);
  g_assert_true (kiste_box_row_get_box (KISTE_BOX_ROW (row)) == first);
  g_assert_cmpint (kiste_box_get_state (first), ==, KISTE_BOX_STATE_RUNNING);

  /* The image as people know it, the whole reference only when cut */
  {
    GtkWidget *image = NULL;
    g_autoptr(GtkTooltip) tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
    gboolean shown = FALSE;

    image = find_label (row, "kiste-debian:ready");
    g_assert_nonnull (image);
    g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (image)), ==, PANGO_ELLIPSIZE_END);
    g_signal_emit_by_name (image, "query-tooltip", 1, 1, FALSE, tooltip, &shown);
    g_assert_true (shown);
    /* a label that shows it all has no tooltip */
    gtk_label_set_label (GTK_LABEL (image), "localhost/kiste-debian:ready");
    shown = TRUE;
    g_signal_emit_by_name (image, "query-tooltip", 1, 1, FALSE, tooltip, &shown);
    g_assert_false (shown);
  }

  /* Nothing selected: no made-up title in the header */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), GTK_INVALID_LIST_POSITION);
  {
    GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_BOX_PAGE, NULL);
    AdwNavigationPage *content = ADW_NAVIGATION_PAGE (gtk_widget_get_ancestor (page, ADW_TYPE_NAVIGATION_PAGE));
    GtkWidget *header = kiste_test_find_widget (GTK_WIDGET (content), ADW_TYPE_HEADER_BAR, NULL);

    g_assert_false (adw_header_bar_get_show_title (ADW_HEADER_BAR (header)));
    g_assert_null (find_label (header, "Box"));
  }
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), 0);

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "main-window");
}

static gboolean
several_engines (gpointer data)
{
  return kiste_box_list_get_several_engines (data);
}

static KisteBoxRow *
find_ref_row (GtkWidget  *root,
              const char *ref)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      KisteBoxRow *found;

      if (KISTE_IS_BOX_ROW (child) && kiste_box_row_get_box (KISTE_BOX_ROW (child)) != NULL &&
          g_strcmp0 (kiste_box_get_ref (kiste_box_row_get_box (KISTE_BOX_ROW (child))), ref) == 0)
        return KISTE_BOX_ROW (child);
      if ((found = find_ref_row (child, ref)))
        return found;
    }
  return NULL;
}

/* Docker boxes beside podman's: one list, and each row says its engine
 * once there are two, to the eye and to a screen reader */
static void
test_engines (Fixture       *fixture,
              gconstpointer  data)
{
  KisteManager *manager = kiste_application_get_manager (fixture->app);
  KisteBoxList *boxes = kiste_manager_get_boxes (manager);
  KisteBoxSource *docker;
  KisteBoxRow *row;
  GtkWidget *search;
  GListModel *model;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = find_ref_row (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_nonnull (row);
  g_assert_null (kiste_box_row_get_engine (row));

  kiste_fake_runner_add (fixture->runner, "docker ps", "cat \"$KISTE_TEST_FIXTURES/docker-ps.txt\"");
  /* the list is live: the new engine is watched, and listed once */
  docker = _kiste_manager_add_engine (manager, "docker");
  g_assert_true (kiste_test_wait_for (several_engines, boxes, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 1);

  /* sorted among the others by name */
  model = get_list_model (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 5 + 3);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = find_ref_row (GTK_WIDGET (fixture->window), "docker/dbx-debian");
  g_assert_nonnull (row);
  g_assert_cmpstr (kiste_box_row_get_engine (row), ==, "Docker");
  g_assert_nonnull (find_label (GTK_WIDGET (row), "Docker"));
  row = find_ref_row (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_cmpstr (kiste_box_row_get_engine (row), ==, "Podman");
  {
    g_autofree char *label = kiste_box_row_dup_accessible_label (kiste_box_row_get_box (row), NULL, "Podman", NULL);

    g_assert_cmpstr (label, ==, "fixture-a, Podman, Running");
  }

  /* search finds them as any other box, and by their engine */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.search", NULL));
  search = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_SEARCH_ENTRY, "Search Boxes");
  g_assert_nonnull (search);
  gtk_editable_set_text (GTK_EDITABLE (search), "dbx");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  gtk_editable_set_text (GTK_EDITABLE (search), "Docker");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  gtk_editable_set_text (GTK_EDITABLE (search), "");
  g_signal_emit_by_name (search, "search-changed");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-list-engines");

  /* one engine again: no engine on the rows */
  kiste_box_list_remove_source (boxes, docker);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = find_ref_row (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_null (kiste_box_row_get_engine (row));
}

/* Toolboxes beside distroboxes: one list, and a toolbox's row says
 * "Toolbx" to the eye and to a screen reader; search finds it by its tool */
static void
test_toolbx_rows (Fixture       *fixture,
                  gconstpointer  data)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (kiste_application_get_manager (fixture->app));
  KisteBoxRow *row;
  GtkWidget *search;
  GListModel *model;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  model = get_list_model (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_true (kiste_box_list_get_several_tools (boxes));
  g_assert_false (kiste_box_list_get_several_engines (boxes));
  kiste_test_flush (GTK_WIDGET (fixture->window));

  row = find_ref_row (GTK_WIDGET (fixture->window), "fedora-toolbox-42");
  g_assert_nonnull (row);
  g_assert_cmpint (kiste_box_get_tool (kiste_box_row_get_box (row)), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_cmpstr (kiste_box_row_get_tool (row), ==, "Toolbx");
  g_assert_null (kiste_box_row_get_engine (row));
  g_assert_nonnull (find_label (GTK_WIDGET (row), "Toolbx"));
  {
    g_autofree char *label = kiste_box_row_dup_accessible_label (kiste_box_row_get_box (row), NULL,
                                                                 NULL, kiste_box_row_get_tool (row));
    g_autofree char *both = kiste_box_row_dup_accessible_label (kiste_box_row_get_box (row), NULL,
                                                                "Podman", "Toolbx");

    g_assert_cmpstr (label, ==, "fedora-toolbox-42, Toolbx, Stopped");
    g_assert_cmpstr (both, ==, "fedora-toolbox-42, Podman, Toolbx, Stopped");
  }

  /* a distrobox says nothing of its tool */
  row = find_ref_row (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_nonnull (row);
  g_assert_null (kiste_box_row_get_tool (row));
  g_assert_null (find_label (GTK_WIDGET (row), "Toolbx"));

  /* "toolbx" and "toolbox" find the toolbox */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.search", NULL));
  search = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_SEARCH_ENTRY, "Search Boxes");
  g_assert_nonnull (search);
  gtk_editable_set_text (GTK_EDITABLE (search), "Toolbx");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  gtk_editable_set_text (GTK_EDITABLE (search), "toolbox");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  gtk_editable_set_text (GTK_EDITABLE (search), "");
  g_signal_emit_by_name (search, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-list-toolbx");
}

/* A stock Silverblue: Toolbx and podman, no distrobox. The list shows
 * its toolboxes, which need not say which tool made them */
static void
test_toolbx_only (Fixture       *fixture,
                  gconstpointer  data)
{
  KisteManager *manager = kiste_application_get_manager (fixture->app);
  KisteBoxRow *row;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  g_assert_false (kiste_capabilities_has_distrobox (kiste_manager_get_capabilities (manager)));
  g_assert_true (kiste_capabilities_has_toolbox (kiste_manager_get_capabilities (manager)));
  g_assert_cmpuint (g_list_model_get_n_items (get_list_model (fixture)), ==, 1);
  g_assert_null (find_mapped_status_page (GTK_WIDGET (fixture->window), "No Distrobox or Toolbx Found"));
  kiste_test_flush (GTK_WIDGET (fixture->window));

  row = find_ref_row (GTK_WIDGET (fixture->window), "fedora-toolbox-42");
  g_assert_nonnull (row);
  g_assert_null (kiste_box_row_get_tool (row));
  g_assert_null (find_label (GTK_WIDGET (row), "Toolbx"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-list-toolbx-only");
}

static void
test_search_filters (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *entry;
  GListModel *model;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  model = get_list_model (fixture);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.search", NULL));
  entry = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_SEARCH_ENTRY, "Search Boxes");
  g_assert_nonnull (entry);

  gtk_editable_set_text (GTK_EDITABLE (entry), "FIXTURE-B");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);

  /* The image matches too */
  gtk_editable_set_text (GTK_EDITABLE (entry), "kiste-debian");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), >=, 3);

  gtk_editable_set_text (GTK_EDITABLE (entry), "nothing-like-this");
  g_signal_emit_by_name (entry, "search-changed");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  wait_for_status_page (fixture, "No Results Found");
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "search-no-results");
}

static gboolean
row_busy (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *row = kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_BOX_ROW, NULL);
  GtkWidget *spinner = row ? kiste_test_find_widget (row, ADW_TYPE_SPINNER, NULL) : NULL;

  return spinner != NULL && gtk_widget_get_visible (spinner);
}

static gboolean
row_idle (gpointer data)
{
  return !row_busy (data);
}

static void
test_busy_row (Fixture       *fixture,
               gconstpointer  data)
{
  KisteManager *manager = kiste_application_get_manager (fixture->app);

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_false (row_busy (fixture));

  /* The stand-in stop takes half a second: the row shows it meanwhile */
  kiste_manager_stop_async (manager, "fixture-a", NULL, NULL, NULL);
  g_assert_true (kiste_test_wait_for (row_busy, fixture, 2000));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "busy-row");
  g_assert_true (kiste_test_wait_for (row_idle, fixture, 5000));
}

typedef struct
{
  Fixture    *fixture;
  const char *name;
} RowQuery;

/* The row showing the box called name, or NULL */
static GtkWidget *
find_row_of (GtkWidget  *root,
             const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;
      KisteBox *box;

      if (KISTE_IS_BOX_ROW (child) &&
          (box = kiste_box_row_get_box (KISTE_BOX_ROW (child))) != NULL &&
          g_strcmp0 (kiste_box_get_name (box), name) == 0)
        return child;
      if ((found = find_row_of (child, name)))
        return found;
    }
  return NULL;
}

/* TRUE when a visible label of the row reads text */
static gboolean
row_says (GtkWidget  *root,
          const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_widget_get_visible (child) &&
          g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), text) == 0)
        return TRUE;
      if (row_says (child, text))
        return TRUE;
    }
  return FALSE;
}

static gboolean
named_row_idle (gpointer data)
{
  RowQuery *query = data;
  GtkWidget *row = find_row_of (GTK_WIDGET (query->fixture->window), query->name);
  GtkWidget *spinner = row ? kiste_test_find_widget (row, ADW_TYPE_SPINNER, NULL) : NULL;

  /* a row makes its spinner only when it is first busy */
  return row != NULL && (spinner == NULL || !gtk_widget_get_visible (spinner));
}

static gboolean
manager_idle (gpointer data)
{
  Fixture *fixture = data;
  KisteManager *manager = kiste_application_get_manager (fixture->app);
  GListModel *tasks = kiste_manager_get_tasks (manager);

  for (guint i = 0; i < g_list_model_get_n_items (tasks); i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (tasks, i);

      if (kiste_task_get_running (task))
        return FALSE;
    }
  return TRUE;
}

/* A renamed box shows its new name and its real state at once: no spinner,
 * no "Renaming", the new name in the title and to screen readers */
static void
test_rename_row (Fixture       *fixture,
                 gconstpointer  data)
{
  KisteManager *manager = kiste_application_get_manager (fixture->app);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-box-list-XXXXXX", &error);
  g_autofree char *marker = g_build_filename (dir, "renamed", NULL);
  g_autofree char *rename = g_strdup_printf ("sleep 0.3; touch '%s'", marker);
  g_autofree char *ps = g_strdup_printf ("if [ -e '%s' ]; then "
                                         "sed 's/\"fixture-a\"/\"fixture-z\"/' "
                                         "\"$KISTE_TEST_FIXTURES/ps-podman5.json\"; "
                                         "else cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"; fi",
                                         marker);
  AdwNavigationPage *content;
  GtkWidget *row;
  RowQuery query = { fixture, "fixture-z" };

  g_assert_no_error (error);
  _kiste_manager_set_host_dirs (manager, dir, dir);
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);
  kiste_fake_runner_add (fixture->runner, "podman rename", rename);

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  content = ADW_NAVIGATION_PAGE (gtk_widget_get_ancestor (kiste_test_find_widget (GTK_WIDGET (fixture->window),
                                                                                  KISTE_TYPE_BOX_PAGE, NULL),
                                                          ADW_TYPE_NAVIGATION_PAGE));
  g_assert_cmpstr (adw_navigation_page_get_title (content), ==, "fixture-a");

  kiste_manager_rename_async (manager, "fixture-a", "fixture-z", NULL, NULL, NULL);
  g_assert_true (kiste_test_wait_for (row_busy, fixture, 2000));
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));

  g_assert_null (find_row_of (GTK_WIDGET (fixture->window), "fixture-a"));
  g_assert_true (named_row_idle (&query));
  row = find_row_of (GTK_WIDGET (fixture->window), "fixture-z");
  g_assert_true (row_says (row, "Running"));
  g_assert_false (row_says (row, "Renaming"));
  g_assert_cmpstr (adw_navigation_page_get_title (content), ==, "fixture-z");

  /* In its place by name, still selected */
  {
    GListModel *model = get_list_model (fixture);
    guint n = g_list_model_get_n_items (model);
    g_autoptr(KisteBox) last = g_list_model_get_item (model, n - 1);
    g_autoptr(KisteBox) selected = g_list_model_get_item (model,
                                                          gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (model)));

    g_assert_cmpstr (kiste_box_get_name (last), ==, "fixture-z");
    g_assert_cmpstr (kiste_box_get_name (selected), ==, "fixture-z");
  }
  {
    GtkWidget *item = gtk_widget_get_parent (row);
    g_autofree char *mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (item),
                                                                    GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                                    "fixture-z, Running");

    g_assert_null (mismatch);
  }
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "renamed-row");

  g_unlink (marker);
  g_rmdir (dir);
}

/* Every visible button lies inside the window: none is cut off */
static void
assert_buttons_inside (GtkWidget *root,
                       GtkWidget *window)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_mapped (child) || !gtk_widget_get_child_visible (child))
        continue;

      if (GTK_IS_BUTTON (child) || GTK_IS_MENU_BUTTON (child))
        {
          graphene_rect_t bounds;

          g_assert_true (gtk_widget_compute_bounds (child, window, &bounds));
          if (bounds.origin.x < -0.5 ||
              bounds.origin.x + bounds.size.width > gtk_widget_get_width (window) + 0.5)
            g_error ("%s “%s” lies outside the window: x %.0f, width %.0f of %d",
                     G_OBJECT_TYPE_NAME (child),
                     gtk_widget_get_tooltip_text (child) ? gtk_widget_get_tooltip_text (child) : "",
                     bounds.origin.x, bounds.size.width, gtk_widget_get_width (window));
        }
      assert_buttons_inside (child, window);
    }
}

static gboolean
content_shown (gpointer data)
{
  Fixture *fixture = data;
  AdwNavigationSplitView *split = ADW_NAVIGATION_SPLIT_VIEW (kiste_test_find_widget (GTK_WIDGET (fixture->window),
                                                                                     ADW_TYPE_NAVIGATION_SPLIT_VIEW,
                                                                                     NULL));

  return adw_navigation_split_view_get_show_content (split);
}

/* The primary-button click gesture the window puts on a row */
static GtkGesture *
find_row_click (GtkWidget *row)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (row);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller) &&
          gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (controller)) == GDK_BUTTON_PRIMARY)
        return GTK_GESTURE (controller);
    }
  return NULL;
}

static gboolean
split_collapsed (gpointer data)
{
  return adw_navigation_split_view_get_collapsed (data);
}

static gboolean
split_expanded (gpointer data)
{
  return !adw_navigation_split_view_get_collapsed (data);
}

/* At the smallest size everything fits (G_DEBUG=fatal-warnings makes
 * "… exceeds KisteWindow width" fatal) and one click opens the details */
static void
test_narrow (Fixture       *fixture,
             gconstpointer  data)
{
  AdwNavigationSplitView *split;
  GtkWidget *row;
  GtkGesture *click;

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 360, 640);
  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  split = ADW_NAVIGATION_SPLIT_VIEW (kiste_test_find_widget (GTK_WIDGET (fixture->window),
                                                             ADW_TYPE_NAVIGATION_SPLIT_VIEW, NULL));
  g_assert_true (kiste_test_wait_for (split_collapsed, split, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->window)), <=, 360);
  g_assert_true (adw_navigation_split_view_get_collapsed (split));
  g_assert_false (adw_navigation_split_view_get_show_content (split));
  assert_buttons_inside (GTK_WIDGET (fixture->window), GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "narrow-list");

  /* one click on a row: the details of its box */
  row = find_row_of (GTK_WIDGET (fixture->window), "fixture-b");
  g_assert_nonnull (row);
  click = find_row_click (row);
  g_assert_nonnull (click);
  g_signal_emit_by_name (click, "released", 1, 10.0, 10.0);
  g_assert_true (kiste_test_wait_for (content_shown, fixture, 2000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpstr (adw_navigation_page_get_title (adw_navigation_split_view_get_content (split)), ==,
                   "fixture-b");
  assert_buttons_inside (GTK_WIDGET (fixture->window), GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "narrow-details");

  /* a running box has the most buttons */
  adw_navigation_split_view_set_show_content (split, FALSE);
  row = find_row_of (GTK_WIDGET (fixture->window), "fixture-a");
  g_signal_emit_by_name (find_row_click (row), "released", 1, 10.0, 10.0);
  g_assert_true (kiste_test_wait_for (content_shown, fixture, 2000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  assert_buttons_inside (GTK_WIDGET (fixture->window), GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "narrow-details-running");

  /* a little wider, the list shows its title again */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 420, 640);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  assert_buttons_inside (GTK_WIDGET (fixture->window), GTK_WIDGET (fixture->window));
  adw_navigation_split_view_set_show_content (split, FALSE);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  assert_buttons_inside (GTK_WIDGET (fixture->window), GTK_WIDGET (fixture->window));

  /* wide again: a click only selects (once the X server has resized
   * the window, which a loaded machine may do after a frame or two) */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1000, 640);
  g_assert_true (kiste_test_wait_for (split_expanded, split, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
}

/* A box started elsewhere, still in its first start: "Setting up" in its
 * row, to screen readers and on its page, not "Running" */
static gboolean
row_setting_up (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *row = find_row_of (GTK_WIDGET (fixture->window), "fixture-a");

  return row != NULL && row_says (row, "Setting up");
}

static void
test_setting_up (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *row;
  g_autofree char *mismatch = NULL;

  /* started a moment ago: boxes found running long since are set up */
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "sed \"s/\\\"StartedAt\\\": 1796280498/\\\"StartedAt\\\": $(date +%s)/\" "
                         "\"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/logs-inspect-running.json\"");
  kiste_fake_runner_add (fixture->runner, "podman logs",
                         "printf 'distrobox: Installing basic packages...\\n'; exec sleep 600");

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  g_assert_true (kiste_test_wait_for (row_setting_up, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  row = find_row_of (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_false (row_says (row, "Running"));
  g_assert_true (gtk_widget_get_visible (kiste_test_find_widget (row, ADW_TYPE_SPINNER, NULL)));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (gtk_widget_get_parent (row)),
                                                 GTK_ACCESSIBLE_PROPERTY_LABEL, "fixture-a, Setting up");
  g_assert_null (mismatch);
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_LABEL, "Setting up…"));
  /* followed, never started from here */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman start"), ==, 0);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "setting-up");
}

static void
test_empty (Fixture       *fixture,
            gconstpointer  data)
{
  GtkWidget *page = wait_for_status_page (fixture, "No Boxes");

  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (page)), ==, "No Boxes");
  g_assert_nonnull (kiste_test_find_widget (page, GTK_TYPE_BUTTON, NULL));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "state-empty");
}

static void
test_missing_distrobox (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *page = wait_for_status_page (fixture, "No Distrobox or Toolbx Found");
  const char *description = adw_status_page_get_description (ADW_STATUS_PAGE (page));

  /* neither tool: the page names both */
  g_assert_nonnull (strstr (description, "distrobox"));
  g_assert_nonnull (strstr (description, "Toolbx"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "state-missing-distrobox");
}

static void
test_error (Fixture       *fixture,
            gconstpointer  data)
{
  GtkWidget *page = wait_for_status_page (fixture, "Could Not List Boxes");

  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)),
                            "database is locked"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "state-error");

  /* Retry runs the listing again */
  kiste_test_set_world (fixture->runner, KISTE_TEST_WORLD_BOXES);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.reload", NULL));
  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
}

/* F5 with the list on screen: one ps, no probes, the list stays */
static gboolean
listed_again (gpointer data)
{
  Fixture *fixture = data;

  return kiste_fake_runner_count (fixture->runner, "podman ps") >= 2 &&
         !kiste_box_store_get_refreshing (_kiste_manager_get_store (kiste_application_get_manager (app)));
}

static void
test_refresh (Fixture       *fixture,
              gconstpointer  data)
{
  KisteBoxStore *store = _kiste_manager_get_store (kiste_application_get_manager (app));
  guint commands;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  g_assert_true (kiste_test_wait_for ((gboolean (*) (gpointer)) kiste_box_store_get_watching, store, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  /* the selected box's details and exports are asked for after its page is drawn */
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_flush_main_context ();
  commands = kiste_fake_runner_get_commands (fixture->runner)->len;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.reload", NULL));
  g_assert_null (find_mapped_status_page (GTK_WIDGET (fixture->window), "Loading Boxes…"));
  g_assert_true (kiste_test_wait_for (listed_again, fixture, 5000));

  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, commands + 1);
  g_assert_cmpuint (g_list_model_get_n_items (get_list_model (fixture)), >, 0);
}

/* Check for Updates: a row whose box's image has a newer one says so, and
 * the box's page too, with the newer image's date; a local image's page
 * says there is nothing to check. Nothing is pulled. */
typedef struct
{
  Fixture    *fixture;
  const char *name;
  const char *text;
} UpdateQuery;

static AdwActionRow *
find_action_row (GtkWidget  *root,
                 const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found;

      if (ADW_IS_ACTION_ROW (child) && gtk_widget_get_mapped (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return ADW_ACTION_ROW (child);
      if ((found = find_action_row (child, title)))
        return found;
    }
  return NULL;
}

static gboolean
row_of_says (gpointer data)
{
  UpdateQuery *query = data;
  GtkWidget *row = find_row_of (GTK_WIDGET (query->fixture->window), query->name);

  return row != NULL && row_says (row, query->text);
}

static gboolean
page_says (gpointer data)
{
  UpdateQuery *query = data;
  KisteBox *box = _kiste_window_get_selected_box (query->fixture->window);
  AdwActionRow *row = find_action_row (GTK_WIDGET (query->fixture->window), "Image Updates");

  return box != NULL && g_strcmp0 (kiste_box_get_name (box), query->name) == 0 && row != NULL &&
         g_str_has_prefix (adw_action_row_get_subtitle (row), query->text);
}

static void
test_updates (Fixture       *fixture,
              gconstpointer  data)
{
  UpdateQuery listed = { fixture, "fixture-local", "fixture-local" };
  UpdateQuery newer = { fixture, "fixture-b", "Newer image available" };
  UpdateQuery newer_page = { fixture, "fixture-c", "Newer image available, made " };
  UpdateQuery local_page = { fixture, "fixture-local", "Local image: no updates to check" };
  GtkWidget *row;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-updates.json\"");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.reload", NULL));
  g_assert_true (kiste_test_wait_for (row_of_says, &listed, 5000));

  /* every local image is known by the digest sha256:ID; the registry has
   * another image for fixture-b's and fixture-c's, and is down for the rest */
  kiste_fake_runner_add (fixture->runner, "podman image inspect",
                         "shift 4; sep='['; for id in \"$@\"; do"
                         " printf '%s{\"Id\":\"%s\",\"Digest\":\"sha256:%s\"}' \"$sep\" \"$id\" \"$id\"; sep=,;"
                         " done; echo ']'");
  kiste_fake_runner_add (fixture->runner, "skopeo",
                         "case \"$4\" in "
                         "*/one:latest) echo '{\"Digest\":\"sha256:"
                         "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\"}';; "
                         "*/two:latest) echo '{\"Digest\":\"sha256:"
                         "0000000000000000000000000000000000000000000000000000000000000000\","
                         "\"Created\":\"2026-11-30T08:00:00Z\"}';; "
                         "*) echo 'msg=\"dial tcp: connect: connection refused\"' >&2; exit 1;; esac");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.check-updates", NULL));
  g_assert_true (kiste_test_wait_for (row_of_says, &newer, 5000));
  row = find_row_of (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_false (row_says (row, "Newer image available"));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman pull"), ==, 0);

  _kiste_window_select_by_name (fixture->window, "fixture-c");
  g_assert_true (kiste_test_wait_for (page_says, &newer_page, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-list-updates");

  _kiste_window_select_by_name (fixture->window, "fixture-local");
  g_assert_true (kiste_test_wait_for (page_says, &local_page, 5000));
}

/* The daily check: one timeout for what is left of the day since the last
 * check (at least a little while after the start), none while it is off */
static gint64
update_seconds_left (Fixture *fixture)
{
  GSource *source;

  if (fixture->window->update_timeout == 0)
    return -1;
  source = g_main_context_find_source_by_id (NULL, fixture->window->update_timeout);
  g_assert_nonnull (source);
  return (g_source_get_ready_time (source) - g_get_monotonic_time ()) / G_USEC_PER_SEC;
}

static void
test_daily_check (Fixture       *fixture,
                  gconstpointer  data)
{
  GSettings *settings = kiste_application_get_settings (fixture->app);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gint64 left;

  g_assert_false (g_settings_get_boolean (settings, "check-updates"));
  g_assert_cmpint (update_seconds_left (fixture), ==, -1);

  /* checked an hour ago: the next one in 23 hours */
  g_settings_set_int64 (settings, "last-update-check", now - 60 * 60);
  g_settings_set_boolean (settings, "check-updates", TRUE);
  left = update_seconds_left (fixture);
  g_assert_cmpint (left, >=, 23 * 60 * 60 - 5);
  g_assert_cmpint (left, <=, 23 * 60 * 60);

  /* never checked: soon, not at once */
  g_settings_set_boolean (settings, "check-updates", FALSE);
  g_assert_cmpint (update_seconds_left (fixture), ==, -1);
  g_settings_set_int64 (settings, "last-update-check", 0);
  g_settings_set_boolean (settings, "check-updates", TRUE);
  left = update_seconds_left (fixture);
  g_assert_cmpint (left, >, 0);
  g_assert_cmpint (left, <=, 60);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "skopeo"), ==, 0);

  g_settings_reset (settings, "check-updates");
  g_settings_reset (settings, "last-update-check");
  g_assert_cmpint (update_seconds_left (fixture), ==, -1);
}

/* While the first list is read, the list itself is on screen, under a
 * spinner once that takes half a second (a quicker listing does not flash
 * it), and the details side stays empty rather than asking for a choice */
static gboolean
loading_shown (gpointer data)
{
  Fixture *fixture = data;

  return find_mapped_status_page (GTK_WIDGET (fixture->window), "Loading Boxes…") != NULL;
}

static void
test_loading (Fixture       *fixture,
              gconstpointer  data)
{
  /* the window was made just before (its half second runs from then) */
  gint64 presented = g_get_monotonic_time ();
  GtkWidget *list;

  kiste_fake_runner_add (fixture->runner, "podman ps", "exec sleep 600");
  g_assert_true (kiste_test_wait_for (loading_shown, fixture, 5000));
  g_assert_cmpint (g_get_monotonic_time () - presented, >=, 400 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  list = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_LIST_VIEW, NULL);
  g_assert_true (gtk_widget_get_mapped (list));
  g_assert_cmpint (gtk_widget_get_height (list), >, 0);
  g_assert_null (find_mapped_status_page (GTK_WIDGET (fixture->window), "No Box Selected"));
  g_assert_null (find_mapped_status_page (GTK_WIDGET (fixture->window), "No Boxes"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "loading");
}

typedef struct
{
  GListModel *model;
  guint       n_items;
} CountQuery;

static gboolean
list_counts (gpointer data)
{
  CountQuery *query = data;

  return g_list_model_get_n_items (query->model) == query->n_items;
}

/* ps output with n boxes named many-0001 and on, in dir; its path */
static char *
write_many_boxes (const char *dir,
                  guint       n)
{
  g_autofree char *template = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autoptr(JsonArray) copies = kiste_test_dup_many_boxes (template, "many", n);
  g_autoptr(JsonNode) root = json_node_init_array (json_node_alloc (), copies);
  g_autofree char *json = json_to_string (root, FALSE);
  char *path = g_build_filename (dir, "ps.json", NULL);

  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  return path;
}

/* Many boxes come into the list a few rows a frame, not all at once; a box
 * chosen by name far down is shown and selected at once */
static void
test_many_boxes (Fixture       *fixture,
                 gconstpointer  data)
{
  KisteBoxStore *store = _kiste_manager_get_store (kiste_application_get_manager (fixture->app));
  g_autofree char *dir = g_dir_make_tmp ("kiste-many-XXXXXX", NULL);
  g_autofree char *path = write_many_boxes (dir, 300);
  g_autoptr(KisteBox) first = NULL;
  g_autoptr(KisteBox) last = NULL;
  CountQuery query;
  KisteBox *selected;
  guint shown;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  query.model = get_list_model (fixture);
  query.n_items = 300;

  kiste_test_serve_boxes (store, path, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 300);
  shown = g_list_model_get_n_items (query.model);
  g_assert_cmpuint (shown, >, 0);
  g_assert_cmpuint (shown, <, 300);

  g_assert_true (kiste_test_wait_for (list_counts, &query, 5000));
  first = g_list_model_get_item (query.model, 0);
  last = g_list_model_get_item (query.model, 299);
  g_assert_cmpstr (kiste_box_get_name (first), ==, "many-0001");
  g_assert_cmpstr (kiste_box_get_name (last), ==, "many-0300");

  /* again, and a new box far down the list is chosen before it is shown */
  kiste_test_serve_boxes_json (store, "[]");
  g_assert_cmpuint (g_list_model_get_n_items (query.model), ==, 0);
  kiste_test_serve_boxes (store, path, NULL);
  _kiste_window_created_cb (fixture->window, "many-0250");
  selected = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (query.model));
  g_assert_nonnull (selected);
  g_assert_cmpstr (kiste_box_get_name (selected), ==, "many-0250");
  g_assert_true (kiste_test_wait_for (list_counts, &query, 5000));

  kiste_test_remove_tree (dir);
}

typedef struct
{
  GtkWidget *list;
  gint64     rows_frame;      /* the frame count when the boxes came */
  gint64     selected_frame;  /* and when the first was selected */
  gboolean   selected;
  gboolean   showed_none;
  guint      rows_came;       /* rows in the list when the boxes came */
  int        rows_first_drawn; /* and in the frame that drew them */
  guint      rows_selected;   /* rows in the list when the first was selected */
  int        rows_drawn;      /* and in the frame that drew its details */
  KisteFakeRunner *runner;
  guint      inspects_selected; /* details asked for when it was selected */
  guint      inspects_drawn;    /* and once that frame was drawn */
} FirstLoad;

static gint64
frame_count (GtkWidget *widget)
{
  return gdk_frame_clock_get_frame_counter (gtk_widget_get_frame_clock (widget));
}

static void
first_rows_cb (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               FirstLoad  *load)
{
  if (load->rows_frame < 0 && g_list_model_get_n_items (model) > 0)
    {
      load->rows_frame = frame_count (load->list);
      load->rows_came = g_list_model_get_n_items (model);
    }
}

static void
first_selection_cb (GtkSingleSelection *selection,
                    GParamSpec         *pspec,
                    FirstLoad          *load)
{
  if (load->selected || gtk_single_selection_get_selected_item (selection) == NULL)
    return;
  load->selected = TRUE;
  load->selected_frame = frame_count (load->list);
  load->rows_selected = g_list_model_get_n_items (G_LIST_MODEL (selection));
  load->inspects_selected = kiste_fake_runner_count (load->runner, "podman container inspect");
}

static void
first_details_drawn_cb (GdkFrameClock *clock,
                        FirstLoad     *load)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (load->list)));

  if (load->rows_frame >= 0 && load->rows_first_drawn < 0)
    load->rows_first_drawn = g_list_model_get_n_items (model);
  if (load->selected && load->rows_drawn < 0)
    {
      load->rows_drawn = g_list_model_get_n_items (model);
      load->inspects_drawn = kiste_fake_runner_count (load->runner, "podman container inspect");
    }
}

static gboolean
first_details_asked (gpointer data)
{
  FirstLoad *load = data;

  return kiste_fake_runner_count (load->runner, "podman container inspect") > load->inspects_drawn;
}

static void
details_side_cb (GtkStack   *stack,
                 GParamSpec *pspec,
                 FirstLoad  *load)
{
  if (g_strcmp0 (gtk_stack_get_visible_child_name (stack), "none") == 0)
    load->showed_none = TRUE;
}

static GtkStack *
find_stack_with_page (GtkWidget  *root,
                      const char *name)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkStack *found;

      if (GTK_IS_STACK (child) && gtk_stack_get_child_by_name (GTK_STACK (child), name) != NULL)
        return GTK_STACK (child);
      if ((found = find_stack_with_page (child, name)))
        return found;
    }
  return NULL;
}

static gboolean
first_box_shown (gpointer data)
{
  FirstLoad *load = data;
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (gtk_widget_get_root (load->list)), KISTE_TYPE_BOX_PAGE, NULL);
  return load->selected && page != NULL && gtk_widget_get_mapped (page);
}

static gboolean
first_details_drawn (gpointer data)
{
  return ((FirstLoad *) data)->rows_drawn >= 0;
}

/* The first listing of many boxes: the frame that draws the first rows
 * adds no more, the rows get drawn before the first box's details are
 * made, the frame that draws those adds no rows and the box's details are
 * asked for after it, and the details side goes from loading to the box
 * without saying that none is selected */
static void
test_many_boxes_first_load (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-many-XXXXXX", NULL);
  g_autofree char *path = write_many_boxes (dir, 300);
  g_autofree char *ps = g_strdup_printf ("cat '%s'", path);
  g_autoptr(KisteBox) selected = NULL;
  FirstLoad load = {
    .rows_frame = -1, .selected_frame = -1, .rows_first_drawn = -1, .rows_drawn = -1,
    .runner = fixture->runner,
  };
  GtkStack *details_side;
  GListModel *model;

  /* the window lists once its probes have answered: not yet */
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);

  load.list = kiste_test_find_widget (GTK_WIDGET (fixture->window), GTK_TYPE_LIST_VIEW, "Boxes");
  model = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (load.list)));
  details_side = find_stack_with_page (GTK_WIDGET (fixture->window), "none");
  g_assert_nonnull (details_side);
  g_signal_connect (model, "items-changed", G_CALLBACK (first_rows_cb), &load);
  g_signal_connect (model, "notify::selected-item", G_CALLBACK (first_selection_cb), &load);
  g_signal_connect (details_side, "notify::visible-child-name", G_CALLBACK (details_side_cb), &load);
  g_signal_connect (gtk_widget_get_frame_clock (load.list), "after-paint", G_CALLBACK (first_details_drawn_cb), &load);

  g_assert_true (kiste_test_wait_for (first_box_shown, &load, 5000));
  g_assert_true (kiste_test_wait_for (first_details_drawn, &load, 5000));
  /* at least one frame drew the rows without the details */
  g_assert_cmpint (load.rows_frame, >=, 0);
  g_assert_cmpuint (load.rows_came, <, 300);
  g_assert_cmpint (load.rows_first_drawn, ==, load.rows_came);
  g_assert_cmpint (load.selected_frame, >, load.rows_frame);
  g_assert_cmpuint (load.rows_selected, <, 300);
  g_assert_cmpint (load.rows_drawn, ==, load.rows_selected);
  g_assert_cmpuint (load.inspects_drawn, ==, load.inspects_selected);
  g_assert_true (kiste_test_wait_for (first_details_asked, &load, 5000));
  g_assert_false (load.showed_none);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (details_side), ==, "box");
  selected = g_object_ref (gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (model)));
  g_assert_cmpstr (kiste_box_get_name (selected), ==, "many-0001");

  g_signal_handlers_disconnect_by_data (model, &load);
  g_signal_handlers_disconnect_by_data (details_side, &load);
  g_signal_handlers_disconnect_by_data (gtk_widget_get_frame_clock (load.list), &load);
  kiste_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, world, func) \
  g_test_add (path, Fixture, GINT_TO_POINTER (world), fixture_setup, func, fixture_teardown)

  ADD ("/kiste/box-list/rows-sorted-and-selected", KISTE_TEST_WORLD_BOXES, test_rows_sorted_and_selected);
  ADD ("/kiste/box-list/search-filters", KISTE_TEST_WORLD_BOXES, test_search_filters);
  ADD ("/kiste/box-list/engines", KISTE_TEST_WORLD_BOXES, test_engines);
  ADD ("/kiste/box-list/toolbx-rows", KISTE_TEST_WORLD_TOOLBX, test_toolbx_rows);
  ADD ("/kiste/box-list/toolbx-only", KISTE_TEST_WORLD_TOOLBX_ONLY, test_toolbx_only);
  ADD ("/kiste/box-list/busy-row", KISTE_TEST_WORLD_BOXES, test_busy_row);
  ADD ("/kiste/box-list/rename-row", KISTE_TEST_WORLD_BOXES, test_rename_row);
  ADD ("/kiste/box-list/narrow", KISTE_TEST_WORLD_BOXES, test_narrow);
  ADD ("/kiste/box-list/setting-up", KISTE_TEST_WORLD_BOXES, test_setting_up);
  ADD ("/kiste/box-list/state-empty", KISTE_TEST_WORLD_EMPTY, test_empty);
  ADD ("/kiste/box-list/state-missing-distrobox", KISTE_TEST_WORLD_NO_DISTROBOX, test_missing_distrobox);
  ADD ("/kiste/box-list/state-error", KISTE_TEST_WORLD_PS_FAILS, test_error);
  ADD ("/kiste/box-list/refresh", KISTE_TEST_WORLD_BOXES, test_refresh);
  ADD ("/kiste/box-list/updates", KISTE_TEST_WORLD_BOXES, test_updates);
  ADD ("/kiste/box-list/daily-check", KISTE_TEST_WORLD_BOXES, test_daily_check);
  ADD ("/kiste/box-list/loading", KISTE_TEST_WORLD_BOXES, test_loading);
  ADD ("/kiste/box-list/many-boxes", KISTE_TEST_WORLD_BOXES, test_many_boxes);
  ADD ("/kiste/box-list/many-boxes-first-load", KISTE_TEST_WORLD_BOXES, test_many_boxes_first_load);

#undef ADD

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
