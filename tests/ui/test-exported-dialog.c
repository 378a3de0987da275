/* test-exported-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-exported-dialog.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-resources.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"

/* Everything Exported against a temporary "host" with the launchers and
 * wrappers of tests/fixtures/exported-all: boxes that are there
 * (fixture-a, fixture-b), one deleted ("gone"), one renamed ("oldname"),
 * a rootful one, and files of the user's own */
typedef struct
{
  KisteTestHost        host;
  GtkWindow           *window;
  KisteExportedDialog *dialog;
} Fixture;

static void
copy_fixture (const char *kind,
              const char *name,
              const char *to_dir)
{
  g_autofree char *from = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "exported-all", kind, name, NULL);
  g_autofree char *to = g_build_filename (to_dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (from, &contents, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, -1, &error);
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  static const char * const applications[] = {
    "fixture-a-org.example.Editor.desktop", "fixture-b.desktop", "gone-org.example.Viewer.desktop",
    "org.example.Viewer.desktop", "oldname-org.example.Notes.desktop", "handmade-vim.desktop",
    "rootbox-org.example.Tool.desktop", NULL
  };
  static const char * const binaries[] = { "x11perf", "gonetool", "mytool", NULL };

  kiste_test_host_init (&fixture->host, "kiste-exported-XXXXXX");
  for (guint i = 0; applications[i]; i++)
    copy_fixture ("applications", applications[i], fixture->host.applications);
  for (guint i = 0; binaries[i]; i++)
    copy_fixture ("bin", binaries[i], fixture->host.bin);

  fixture->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fixture->window, 720, 860);
  adw_window_set_content (ADW_WINDOW (fixture->window), adw_status_page_new ());
  gtk_window_present (fixture->window);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  fixture->dialog = g_object_ref (kiste_exported_dialog_new (fixture->host.manager));
  adw_dialog_present (ADW_DIALOG (fixture->dialog), GTK_WIDGET (fixture->window));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  adw_dialog_force_close (ADW_DIALOG (fixture->dialog));
  g_clear_object (&fixture->dialog);
  gtk_window_destroy (fixture->window);
  kiste_test_host_clear (&fixture->host);
}

static AdwPreferencesGroup *
find_group (Fixture    *fixture,
            const char *title)
{
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fixture->dialog), ADW_TYPE_PREFERENCES_PAGE, NULL);

  g_assert_nonnull (page);
  {
    GQueue queue = G_QUEUE_INIT;

    g_queue_push_tail (&queue, page);
    while (!g_queue_is_empty (&queue))
      {
        GtkWidget *w = g_queue_pop_head (&queue);

        if (ADW_IS_PREFERENCES_GROUP (w) &&
            g_strcmp0 (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (w)), title) == 0)
          {
            g_queue_clear (&queue);
            return ADW_PREFERENCES_GROUP (w);
          }
        for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
          g_queue_push_tail (&queue, c);
      }
  }

  g_error ("No group “%s”", title);
}

/* The titles of a group's rows, sorted, one per line; "" when hidden */
static char *
group_rows (Fixture    *fixture,
            const char *title)
{
  AdwPreferencesGroup *group = find_group (fixture, title);
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  g_autoptr(GString) str = g_string_new (NULL);
  GQueue queue = G_QUEUE_INIT;

  if (!gtk_widget_get_visible (GTK_WIDGET (group)))
    return g_strdup ("");

  g_queue_push_tail (&queue, group);
  while (!g_queue_is_empty (&queue))
    {
      GtkWidget *w = g_queue_pop_head (&queue);

      if (ADW_IS_ACTION_ROW (w))
        g_ptr_array_add (titles, (gpointer) adw_preferences_row_get_title (ADW_PREFERENCES_ROW (w)));
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_queue_push_tail (&queue, c);
    }

  g_ptr_array_sort_values (titles, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < titles->len; i++)
    g_string_append_printf (str, "%s\n", (const char *) g_ptr_array_index (titles, i));
  return g_string_free (g_steal_pointer (&str), FALSE);
}

typedef struct
{
  Fixture    *fixture;
  const char *group;
  const char *rows;
} RowsQuery;

static gboolean
rows_are (gpointer data)
{
  RowsQuery *query = data;
  g_autofree char *rows = group_rows (query->fixture, query->group);

  return g_strcmp0 (rows, query->rows) == 0;
}

static void
wait_rows (Fixture    *fixture,
           const char *group,
           const char *rows)
{
  RowsQuery query = { fixture, group, rows };

  if (!kiste_test_wait_for (rows_are, &query, 5000))
    {
      g_autofree char *now = group_rows (fixture, group);

      g_error ("%s shows:\n%s\nnot:\n%s", group, now, rows);
    }
}

static gboolean
list_shown (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *stack = kiste_test_find_widget (GTK_WIDGET (fixture->dialog), GTK_TYPE_STACK, NULL);

  return g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (stack)), "list") == 0;
}

static GtkWidget *
find_button_labelled (GtkWidget  *root,
                      const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), label) == 0)
        return child;
      if ((found = find_button_labelled (child, label)))
        return found;
    }

  return NULL;
}

static gboolean
alert_shown (gpointer data)
{
  Fixture *fixture = data;

  return ADW_IS_ALERT_DIALOG (adw_window_get_visible_dialog (ADW_WINDOW (fixture->window)));
}

static gboolean
file_in (const char *dir,
         const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Every export with its box; the deleted and the renamed box's apart;
 * the user's own files nowhere */
static void
test_lists (Fixture       *fixture,
            gconstpointer  data)
{
  g_assert_true (kiste_test_wait_for (list_shown, fixture, 5000));
  wait_rows (fixture, "Left Behind", "Example Viewer\nNotes\ngonetool\n");
  wait_rows (fixture, "Apps in the App Menu", "Example Editor\nTool\nfixture-b\n");
  wait_rows (fixture, "Programs", "x11perf\n");
  g_assert_true (gtk_widget_get_sensitive (kiste_test_find_widget (GTK_WIDGET (fixture->dialog), GTK_TYPE_BUTTON,
                                                                   "Clean Up Exports Left Behind")));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "exported-dialog");
}

/* A file made elsewhere and a box that goes away show up without asking */
static void
test_follows (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->host.applications, "fixture-a-org.example.Maps.desktop", NULL);
  KisteBoxStore *store = _kiste_manager_get_store (fixture->host.manager);

  g_assert_true (kiste_test_wait_for (list_shown, fixture, 5000));
  g_assert_true (g_file_set_contents (path, "[Desktop Entry]\nName=Maps (on fixture-a)\n"
                                      "Exec=distrobox enter -n fixture-a -- gnome-maps\n", -1, NULL));
  wait_rows (fixture, "Apps in the App Menu", "Example Editor\nMaps\nTool\nfixture-b\n");

  /* every box gone (podman ps lists none): their exports are left behind */
  kiste_test_serve_boxes_json (store, "[]");
  wait_rows (fixture, "Programs", "");
  wait_rows (fixture, "Left Behind", "Example Editor\nExample Viewer\nMaps\nNotes\nfixture-b\ngonetool\nx11perf\n");
}

/* Clean Up asks, then removes only what distrobox wrote for boxes that are
 * gone */
static void
test_clean_up (Fixture       *fixture,
               gconstpointer  data)
{
  AdwDialog *alert;
  GtkWidget *button;

  g_assert_true (kiste_test_wait_for (list_shown, fixture, 5000));
  wait_rows (fixture, "Left Behind", "Example Viewer\nNotes\ngonetool\n");
  button = kiste_test_find_widget (GTK_WIDGET (fixture->dialog), GTK_TYPE_BUTTON, "Clean Up Exports Left Behind");
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (kiste_test_wait_for (alert_shown, fixture, 5000));
  alert = adw_window_get_visible_dialog (ADW_WINDOW (fixture->window));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (adw_alert_dialog_get_extra_child (ADW_ALERT_DIALOG (alert)))),
                            "gone-org.example.Viewer.desktop"));
  g_assert_null (kiste_fake_runner_find (fixture->host.runner, "rm "));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "exported-dialog-clean-up");

  g_signal_emit_by_name (find_button_labelled (GTK_WIDGET (alert), "_Clean Up"), "clicked");
  wait_rows (fixture, "Left Behind", "");
  g_assert_false (file_in (fixture->host.applications, "gone-org.example.Viewer.desktop"));
  g_assert_false (file_in (fixture->host.applications, "oldname-org.example.Notes.desktop"));
  g_assert_false (file_in (fixture->host.bin, "gonetool"));
  /* the user's own, and the exports of boxes that are there */
  g_assert_true (file_in (fixture->host.applications, "org.example.Viewer.desktop"));
  g_assert_true (file_in (fixture->host.applications, "handmade-vim.desktop"));
  g_assert_true (file_in (fixture->host.bin, "mytool"));
  g_assert_true (file_in (fixture->host.applications, "fixture-a-org.example.Editor.desktop"));
  g_assert_true (file_in (fixture->host.applications, "rootbox-org.example.Tool.desktop"));
  g_assert_true (file_in (fixture->host.bin, "x11perf"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "exported-dialog-cleaned");
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_init (&argc, &argv);
  kiste_register_resource ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/exported-dialog/lists", test_lists);
  ADD ("/kiste/exported-dialog/follows", test_follows);
  ADD ("/kiste/exported-dialog/clean-up", test_clean_up);

#undef ADD

  return g_test_run ();
}
