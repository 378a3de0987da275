/* test-leftovers.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a Kiste killed while it made a box again left: the window, once
 * the boxes are listed, asks about the journal it finds, and Undo or
 * Finish does what the question said; Ask Later leaves everything. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-application-private.h"
#include "kiste-fake-runner.h"
#include "kiste-journal.h"
#include "kiste-manager-private.h"
#include "kiste-test-ui.h"
#include "kiste-test-util.h"
#include "kiste-window.h"

#define SNAP_A "localhost/kiste-snapshot:fixture-a-20261206-084012"
#define ID_A "2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f"

static KisteApplication *app;

typedef struct
{
  KisteFakeRunner *runner;
  KisteWindow     *window;
  char            *journal_dir;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(KisteManager) manager = kiste_test_manager_new (KISTE_TEST_WORLD_BOXES);
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(KisteJournal) journal = NULL;

  fixture->runner = g_object_ref (KISTE_FAKE_RUNNER (kiste_manager_get_runner (manager)));
  kiste_fake_runner_add (fixture->runner, "podman images --filter label=io.github.kiste.snapshot.box=",
                         "echo '[{\"Id\":\"bbb\",\"Names\":[\"" SNAP_A "\"],"
                         "\"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"}}]'");

  /* killed after the snapshot, before the box went */
  fixture->journal_dir = g_dir_make_tmp ("kiste-leftovers-XXXXXX", NULL);
  kiste_create_options_set_name (options, "fixture-a");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  journal = kiste_journal_new ("podman", "fixture-a", ID_A, SNAP_A, options, FALSE);
  g_assert_true (kiste_journal_write (journal, fixture->journal_dir, NULL));
  _kiste_manager_set_journal_dir (manager, fixture->journal_dir);

  _kiste_application_set_manager (app, manager);
  fixture->window = kiste_window_new (app);
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
  kiste_test_remove_tree (fixture->journal_dir);
  g_free (fixture->journal_dir);
}

static gboolean
question_shown (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *dialog = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_ALERT_DIALOG, NULL);

  return dialog != NULL &&
         g_strcmp0 (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (dialog)), "A Box Was Not Finished") == 0;
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
journal_gone (gpointer data)
{
  Fixture *fixture = data;
  g_autofree char *path = kiste_journal_dup_path (fixture->journal_dir, "podman", "fixture-a");

  return !g_file_test (path, G_FILE_TEST_EXISTS);
}

static GtkWidget *
answer (Fixture    *fixture,
        const char *label)
{
  GtkWidget *dialog;

  g_assert_true (kiste_test_wait_for (question_shown, fixture, 5000));
  dialog = kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_ALERT_DIALOG, NULL);
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog)),
                            "Kiste ended while it made “fixture-a” again. The box is as it was, "
                            "and a snapshot of it was taken."));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  return find_button (dialog, label);
}

static gboolean
snapshot_removed (gpointer data)
{
  Fixture *fixture = data;

  return g_strcmp0 (kiste_fake_runner_find (fixture->runner, "podman rmi"), "podman rmi " SNAP_A) == 0;
}

static void
test_undo (Fixture       *fixture,
           gconstpointer  data)
{
  GtkWidget *undo = answer (fixture, "_Undo");

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "leftovers-question");
  g_assert_nonnull (undo);
  g_signal_emit_by_name (undo, "clicked");
  g_assert_true (kiste_test_wait_for (journal_gone, fixture, 5000));
  /* the box stays, its snapshot goes */
  g_assert_true (kiste_test_wait_for (snapshot_removed, fixture, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rm "), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox create --yes"), ==, 0);
}

static gboolean
created (gpointer data)
{
  Fixture *fixture = data;

  return kiste_fake_runner_find (fixture->runner, "distrobox create --yes") != NULL;
}

static void
test_finish (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *finish = answer (fixture, "_Finish");

  g_assert_nonnull (finish);
  g_signal_emit_by_name (finish, "clicked");
  g_assert_true (kiste_test_wait_for (created, fixture, 5000));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman rm --force fixture-a"));
  g_assert_true (kiste_test_wait_for (journal_gone, fixture, 5000));
}

static void
test_later (Fixture       *fixture,
            gconstpointer  data)
{
  GtkWidget *later = answer (fixture, "_Ask Later");

  g_assert_nonnull (later);
  g_signal_emit_by_name (later, "clicked");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_flush_main_context ();
  g_assert_false (journal_gone (fixture));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman rmi"));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman rm "));
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

#define ADD(path, func) \
  g_test_add ("/kiste/leftovers/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("undo", test_undo);
  ADD ("finish", test_finish);
  ADD ("later", test_later);
#undef ADD

  return g_test_run ();
}
