/* test-snapshots-group.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The Snapshots group of a box's details on a fake podman: the box's
 * snapshots listed with their buttons, Take Snapshot, the question before
 * a box is made again (what is kept, what is not) and what it starts, and
 * nothing of it for a toolbox. */

#include "config.h"

#include <string.h>

#include "kiste-box-page.h"
#include "kiste-capabilities-private.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-resources.h"
#include "kiste-snapshots-group.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"
#include "kiste-test-util.h"

#define SNAP_A "localhost/kiste-snapshot:fixture-a-20261206-084012"

typedef struct
{
  KisteFakeRunner     *runner;
  KisteManager        *manager;
  GtkWindow           *window;
  KisteSnapshotsGroup *group;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--hostname", NULL };
  GtkWidget *page;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman images",
                         "echo '[{\"Id\":\"bbb\",\"Names\":[\"" SNAP_A "\"],\"Size\":123456789,"
                         "\"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"}}]'");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json", "/home/tester");

  fixture->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fixture->window, 700, 500);
  fixture->group = g_object_new (KISTE_TYPE_SNAPSHOTS_GROUP, NULL);
  page = adw_preferences_page_new ();
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (fixture->group));
  adw_window_set_content (ADW_WINDOW (fixture->window), page);
  kiste_snapshots_group_set_manager (fixture->group, fixture->manager);
  gtk_window_present (fixture->window);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  g_clear_object (&fixture->manager);
  kiste_test_unref_and_wait ((gpointer *) &fixture->runner);
}

static KisteBox *
find_box (Fixture    *fixture,
          const char *name)
{
  return kiste_box_list_find (kiste_manager_get_boxes (fixture->manager), name);
}

static gboolean
listed (gpointer data)
{
  Fixture *fixture = data;

  return kiste_snapshots_group_get_snapshots (fixture->group) != NULL;
}

static GtkWidget *
find_labelled_button (GtkWidget  *root,
                      const char *label)
{
  return kiste_test_find_widget (root, GTK_TYPE_BUTTON, label);
}

typedef struct
{
  Fixture    *fixture;
  const char *prefix;
} CommandQuery;

static gboolean
command_ran (gpointer data)
{
  CommandQuery *query = data;

  return kiste_fake_runner_find (query->fixture->runner, query->prefix) != NULL;
}

static void
wait_for_command (Fixture    *fixture,
                  const char *prefix)
{
  CommandQuery query = { fixture, prefix };

  g_assert_true (kiste_test_wait_for (command_ran, &query, 5000));
}

static gboolean
alert_shown (gpointer data)
{
  Fixture *fixture = data;

  return kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_ALERT_DIALOG, NULL) != NULL;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
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
no_task (gpointer data)
{
  Fixture *fixture = data;

  return !kiste_manager_is_busy (fixture->manager, "fixture-a");
}

static void
test_list_and_take (Fixture       *fixture,
                    gconstpointer  data)
{
  GPtrArray *snapshots;
  GtkWidget *take;

  kiste_snapshots_group_set_box (fixture->group, find_box (fixture, "fixture-a"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->group)));
  g_assert_true (kiste_test_wait_for (listed, fixture, 5000));
  kiste_test_flush (GTK_WIDGET (fixture->window));

  snapshots = kiste_snapshots_group_get_snapshots (fixture->group);
  g_assert_cmpuint (snapshots->len, ==, 1);
  g_assert_nonnull (find_labelled_button (GTK_WIDGET (fixture->group), "Restore…"));
  g_assert_nonnull (find_labelled_button (GTK_WIDGET (fixture->group), "New Box From Snapshot…"));
  g_assert_nonnull (find_labelled_button (GTK_WIDGET (fixture->group), "Delete…"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "snapshots-group");

  take = kiste_test_find_widget (GTK_WIDGET (fixture->group), ADW_TYPE_BUTTON_ROW, NULL);
  g_assert_nonnull (take);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (take)), ==, "_Take Snapshot");
  g_signal_emit_by_name (take, "activated");
  wait_for_command (fixture, "podman commit --pause=true");
  g_assert_nonnull (strstr (kiste_fake_runner_find (fixture->runner, "podman commit"),
                            " fixture-a localhost/kiste-snapshot:fixture-a-"));
}

static void
test_recreate_question (Fixture       *fixture,
                        gconstpointer  data)
{
  AdwAlertDialog *dialog;
  GtkWidget *keep;

  kiste_snapshots_group_set_box (fixture->group, find_box (fixture, "fixture-a"));
  g_assert_true (kiste_test_wait_for (listed, fixture, 5000));

  kiste_snapshots_group_ask_recreate (fixture->group, TRUE);
  g_assert_true (kiste_test_wait_for (alert_shown, fixture, 3000));
  dialog = ADW_ALERT_DIALOG (kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_ALERT_DIALOG, NULL));
  g_assert_cmpstr (adw_alert_dialog_get_heading (dialog), ==, "Update “fixture-a”?");
  /* fixture-a shares the user's home: it says so, and what is lost */
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (dialog), "Kept: your home folder"));
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (dialog), "Not kept: changes made inside the box"));
  keep = adw_alert_dialog_get_extra_child (dialog);
  g_assert_true (GTK_IS_CHECK_BUTTON (keep));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (keep)));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "snapshots-update-question");
  /* nothing runs before the answer */
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman pull"));

  /* answered: pulled, a snapshot kept, made again */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (keep), TRUE);
  g_signal_emit_by_name (find_button (GTK_WIDGET (dialog), "_Update"), "clicked");
  wait_for_command (fixture, "distrobox create --yes --name fixture-a --image localhost/kiste-debian:ready");
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman pull localhost/kiste-debian:ready"));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman rm --force fixture-a"));
  g_assert_true (kiste_test_wait_for (no_task, fixture, 5000));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman rmi"));
}

static void
test_toolbox_hidden (Fixture       *fixture,
                     gconstpointer  data)
{
  KisteBox *box;

  /* the list of a computer with a toolbox beside a distrobox */
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-toolbox.json", "/home/tester");
  box = find_box (fixture, "kiste-fixture-tbx");
  g_assert_nonnull (box);
  kiste_snapshots_group_set_box (fixture->group, box);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (fixture->group)));
  kiste_test_flush_main_context ();
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman images"));
}

/* Deleting a box asks whether its snapshots go too; they go after it */
static void
test_delete_asks (Fixture       *fixture,
                  gconstpointer  data)
{
  KisteBoxPage *page = kiste_box_page_new (fixture->manager, NULL);
  KisteSnapshotsGroup *group;
  GtkWidget *dialog;
  GtkWidget *check;

  adw_window_set_content (ADW_WINDOW (fixture->window), GTK_WIDGET (page));
  kiste_box_page_set_box (page, find_box (fixture, "fixture-a"));
  group = KISTE_SNAPSHOTS_GROUP (kiste_test_find_widget (GTK_WIDGET (page), KISTE_TYPE_SNAPSHOTS_GROUP, NULL));
  g_assert_nonnull (group);
  fixture->group = group;
  g_assert_true (kiste_test_wait_for (listed, fixture, 5000));

  gtk_widget_activate_action (GTK_WIDGET (page), "box.delete", NULL);
  g_assert_true (kiste_test_wait_for (alert_shown, fixture, 5000));
  dialog = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_ALERT_DIALOG, NULL);
  g_assert_cmpstr (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (dialog)), ==, "Delete “fixture-a”?");
  check = kiste_test_find_widget (dialog, GTK_TYPE_CHECK_BUTTON, NULL);
  g_assert_nonnull (check);
  g_assert_cmpstr (gtk_check_button_get_label (GTK_CHECK_BUTTON (check)), ==, "Also delete its snapshot");
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "snapshots-delete-box");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_signal_emit_by_name (find_button (dialog, "_Delete"), "clicked");
  wait_for_command (fixture, "podman rmi " SNAP_A);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "distrobox rm"));
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_init (&argc, &argv);
  kiste_register_resource ();

#define ADD(path, func) \
  g_test_add ("/kiste/snapshots-group/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("list-and-take", test_list_and_take);
  ADD ("recreate-question", test_recreate_question);
  ADD ("toolbox-hidden", test_toolbox_hidden);
  ADD ("delete-asks", test_delete_asks);
#undef ADD

  return g_test_run ();
}
