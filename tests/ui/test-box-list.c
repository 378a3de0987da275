/* test-box-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-application.h"
#include "kiste-box-row.h"
#include "kiste-test-ui.h"
#include "kiste-window.h"

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
  kiste_application_set_manager (fixture->app, manager);

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

  return list != NULL && gtk_widget_get_mapped (list) &&
         g_list_model_get_n_items (G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)))) > 0;
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

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "main-window");
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
  GtkWidget *page = wait_for_status_page (fixture, "Distrobox Is Not Installed");

  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "istrobox"));
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
         !kiste_box_store_get_refreshing (kiste_manager_get_store (kiste_application_get_manager (app)));
}

static void
test_refresh (Fixture       *fixture,
              gconstpointer  data)
{
  KisteBoxStore *store = kiste_manager_get_store (kiste_application_get_manager (app));
  guint commands;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  g_assert_true (kiste_test_wait_for ((gboolean (*) (gpointer)) kiste_box_store_get_watching, store, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  commands = kiste_fake_runner_get_commands (fixture->runner)->len;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.reload", NULL));
  g_assert_null (find_mapped_status_page (GTK_WIDGET (fixture->window), "Loading Boxes…"));
  g_assert_true (kiste_test_wait_for (listed_again, fixture, 5000));

  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, commands + 1);
  g_assert_cmpuint (g_list_model_get_n_items (get_list_model (fixture)), >, 0);
}

/* The screenshot in the README and the metainfo */
static void
test_showcase (Fixture       *fixture,
               gconstpointer  data)
{
  GListModel *model;

  g_assert_true (kiste_test_wait_for (list_has_items, fixture, 5000));
  model = get_list_model (fixture);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 5);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (model, i);

      if (g_str_equal (kiste_box_get_name (box), "fedora-dev"))
        gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), i);
    }
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 720);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "readme-main-window");
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
  ADD ("/kiste/box-list/busy-row", KISTE_TEST_WORLD_BOXES, test_busy_row);
  ADD ("/kiste/box-list/state-empty", KISTE_TEST_WORLD_EMPTY, test_empty);
  ADD ("/kiste/box-list/state-missing-distrobox", KISTE_TEST_WORLD_NO_DISTROBOX, test_missing_distrobox);
  ADD ("/kiste/box-list/state-error", KISTE_TEST_WORLD_PS_FAILS, test_error);
  ADD ("/kiste/box-list/refresh", KISTE_TEST_WORLD_BOXES, test_refresh);

  ADD ("/kiste/box-list/showcase", KISTE_TEST_WORLD_SHOWCASE, test_showcase);

#undef ADD

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
