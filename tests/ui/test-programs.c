/* test-programs.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-apps-page.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-programs-group.h"
#include "kiste-resources.h"
#include "kiste-test-ui.h"

/* Programs on a box's Apps view, through the shared fake runner: `podman
 * exec` lists the captured apps or answers `command -v` (with /usr/bin/NAME,
 * or nothing for "nothing"), distrobox-export --bin writes and deletes
 * wrappers in a temporary "host" folder as distrobox does, and the host's
 * own PATH is searched for real. */
typedef struct
{
  KisteTestHost       host;
  GtkWindow          *window;
  KisteAppsPage      *page;
  KisteProgramsGroup *group;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *fake_export = NULL;
  GtkWidget *overlay;

  kiste_test_host_init (&fixture->host, "kiste-programs-XXXXXX");
  kiste_fake_runner_add (fixture->host.runner, "podman exec",
                         "case \"$*\" in\n"
                         "*'command -v'*)\n"
                         "  for a; do last=$a; done\n"
                         "  [ \"$last\" = nothing ] && exit 1\n"
                         "  echo \"/usr/bin/${last##*/}\";;\n"
                         "*) cat \"$KISTE_TEST_FIXTURES/apps-listing-debian.txt\";;\n"
                         "esac\n");
  kiste_fake_runner_add (fixture->host.runner, "sh -c", "exec sh \"$@\"");
  fake_export = g_strdup_printf ("while [ $# -gt 0 ]; do\n"
                                 "  case $1 in --bin) bin=$2; shift;; --export-path) dest=$2; shift;;"
                                 " --delete) delete=1;; esac\n"
                                 "  shift\n"
                                 "done\n"
                                 "[ \"$dest\" = '%s' ] || exit 2\n"
                                 "base=${bin##*/}\n"
                                 "if [ -n \"$delete\" ]; then rm -f \"$dest/$base\"; else\n"
                                 "  printf '#!/bin/sh\\n# distrobox_binary\\n# name: fixture-a\\n"
                                 "exec \"/usr/bin/distrobox-enter\"  -n fixture-a  --  '\\''%%s'\\''  \"$@\"\\n'"
                                 " \"$bin\" > \"$dest/$base\"\n"
                                 "fi\n",
                                 fixture->host.bin);
  kiste_fake_runner_add (fixture->host.runner, "distrobox enter", fake_export);

  fixture->page = kiste_apps_page_new (fixture->host.manager);
  overlay = adw_toast_overlay_new ();
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), GTK_WIDGET (fixture->page));
  fixture->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fixture->window, 640, 900);
  adw_window_set_content (ADW_WINDOW (fixture->window), overlay);
  gtk_window_present (fixture->window);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  fixture->group = KISTE_PROGRAMS_GROUP (kiste_test_find_widget (GTK_WIDGET (fixture->page),
                                                                 KISTE_TYPE_PROGRAMS_GROUP, NULL));
  g_assert_nonnull (fixture->group);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  kiste_test_host_clear (&fixture->host);
}

static GtkStack *
page_stack (Fixture *fixture)
{
  return GTK_STACK (adw_bin_get_child (ADW_BIN (fixture->page)));
}

static gboolean
list_shown (gpointer data)
{
  Fixture *fixture = data;

  return g_strcmp0 (gtk_stack_get_visible_child_name (page_stack (fixture)), "list") == 0;
}

static void
show_box (Fixture *fixture)
{
  KisteBox *box = kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->host.manager), "fixture-a");

  kiste_apps_page_set_box (fixture->page, box);
  g_assert_true (kiste_test_wait_for (list_shown, fixture, 5000));
}

static GtkWidget *
entry_row (Fixture *fixture)
{
  GtkWidget *row = kiste_test_find_widget (GTK_WIDGET (fixture->group), ADW_TYPE_ENTRY_ROW, NULL);

  g_assert_nonnull (row);
  return row;
}

static GtkWidget *
export_button (Fixture *fixture)
{
  GtkWidget *button = kiste_test_find_widget (GTK_WIDGET (fixture->group), GTK_TYPE_BUTTON, "Export Program");

  g_assert_nonnull (button);
  return button;
}

/* The message under the field, NULL when hidden */
static const char *
message (Fixture *fixture)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (fixture->group));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, "caption"))
      return gtk_widget_get_visible (child) ? gtk_label_get_text (GTK_LABEL (child)) : NULL;

  g_assert_not_reached ();
}

static gboolean
message_shown (gpointer data)
{
  return message (data) != NULL;
}

static gboolean
bin_file_is (Fixture    *fixture,
             const char *name)
{
  g_autofree char *path = g_build_filename (fixture->host.bin, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
tool_exported (gpointer data)
{
  return bin_file_is (data, "kiste-test-tool") &&
         kiste_test_find_widget (GTK_WIDGET (((Fixture *) data)->group), GTK_TYPE_BUTTON,
                                 "Remove kiste-test-tool") != NULL;
}

static gboolean
tool_removed (gpointer data)
{
  return !bin_file_is (data, "kiste-test-tool") &&
         kiste_test_find_widget (GTK_WIDGET (((Fixture *) data)->group), GTK_TYPE_BUTTON,
                                 "Remove kiste-test-tool") == NULL;
}

/* A name is looked up in the box, exported with distrobox-export --bin
 * PATH, listed, and removed with --delete */
static void
test_export_and_remove (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *expected = NULL;
  GtkWidget *remove;

  show_box (fixture);
  gtk_editable_set_text (GTK_EDITABLE (entry_row (fixture)), "kiste-test-tool");
  g_assert_true (gtk_widget_get_sensitive (export_button (fixture)));
  g_signal_emit_by_name (export_button (fixture), "clicked");
  g_assert_true (kiste_test_wait_for (tool_exported, fixture, 5000));

  expected = g_strdup_printf ("distrobox enter --name fixture-a --no-tty -- distrobox-export --bin "
                              "/usr/bin/kiste-test-tool --export-path %s", fixture->host.bin);
  g_assert_nonnull (kiste_fake_runner_find (fixture->host.runner, expected));
  g_assert_null (message (fixture));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry_row (fixture))), ==, "");
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-programs");

  remove = kiste_test_find_widget (GTK_WIDGET (fixture->group), GTK_TYPE_BUTTON, "Remove kiste-test-tool");
  g_signal_emit_by_name (remove, "clicked");
  g_assert_true (kiste_test_wait_for (tool_removed, fixture, 5000));
  g_assert_nonnull (kiste_fake_runner_find (fixture->host.runner, "distrobox enter --name fixture-a --no-tty -- "
                                                             "distrobox-export --bin /usr/bin/kiste-test-tool"));
}

/* What cannot be a program is said at the field while typing, and nothing
 * runs; a program the box does not have is said after Export */
static void
test_validation (Fixture       *fixture,
                 gconstpointer  data)
{
  guint n;

  show_box (fixture);
  n = kiste_fake_runner_get_commands (fixture->host.runner)->len;

  gtk_editable_set_text (GTK_EDITABLE (entry_row (fixture)), "bin/tool");
  g_assert_nonnull (message (fixture));
  g_assert_nonnull (strstr (message (fixture), "“/”"));
  g_assert_true (gtk_widget_has_css_class (entry_row (fixture), "error"));
  g_signal_emit_by_name (export_button (fixture), "clicked");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->host.runner)->len, ==, n);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-programs-invalid");

  gtk_editable_set_text (GTK_EDITABLE (entry_row (fixture)), "nothing");
  g_assert_null (message (fixture));
  g_signal_emit_by_name (export_button (fixture), "clicked");
  g_assert_true (kiste_test_wait_for (message_shown, fixture, 5000));
  g_assert_nonnull (strstr (message (fixture), "no program “nothing”"));
  g_assert_null (kiste_fake_runner_find (fixture->host.runner, "distrobox enter"));
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

  return adw_window_get_visible_dialog (ADW_WINDOW (fixture->window)) != NULL;
}

static gboolean
sh_exported (gpointer data)
{
  return bin_file_is (data, "sh");
}

/* This computer has its own "sh": Kiste warns at the field and asks */
static void
test_host_conflict (Fixture       *fixture,
                    gconstpointer  data)
{
  AdwDialog *dialog;
  GtkWidget *button;

  show_box (fixture);
  gtk_editable_set_text (GTK_EDITABLE (entry_row (fixture)), "sh");
  g_signal_emit_by_name (export_button (fixture), "clicked");
  g_assert_true (kiste_test_wait_for (alert_shown, fixture, 5000));
  dialog = adw_window_get_visible_dialog (ADW_WINDOW (fixture->window));
  g_assert_true (ADW_IS_ALERT_DIALOG (dialog));
  g_assert_nonnull (message (fixture));
  g_assert_nonnull (strstr (message (fixture), "its own “sh”"));
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog)), "/sh)"));
  g_assert_null (kiste_fake_runner_find (fixture->host.runner, "distrobox enter"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-programs-conflict");

  button = find_button_labelled (GTK_WIDGET (dialog), "_Export Anyway");
  g_assert_nonnull (button);
  g_signal_emit_by_name (button, "clicked");
  g_assert_true (kiste_test_wait_for (sh_exported, fixture, 5000));
}

static gboolean
empty_shown (gpointer data)
{
  Fixture *fixture = data;

  return g_strcmp0 (gtk_stack_get_visible_child_name (page_stack (fixture)), "empty") == 0;
}

/* A box without apps (a command-line box) has Programs too, under the
 * words on how to install an app */
static void
test_box_without_apps (Fixture       *fixture,
                       gconstpointer  data)
{
  KisteBox *box = kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->host.manager), "fixture-a");
  GtkWidget *empty;

  kiste_fake_runner_add (fixture->host.runner, "podman exec",
                         "case \"$*\" in *'command -v'*) echo /usr/bin/kiste-test-tool;; *) printf 'P\\nS\\nF\\nI\\nS\\nD\\nE\\n';; esac");
  kiste_apps_page_set_box (fixture->page, box);
  g_assert_true (kiste_test_wait_for (empty_shown, fixture, 5000));
  empty = gtk_stack_get_visible_child (page_stack (fixture));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (fixture->group), empty));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (fixture->group)));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "apps-page-programs-no-apps");

  gtk_editable_set_text (GTK_EDITABLE (entry_row (fixture)), "kiste-test-tool");
  g_signal_emit_by_name (export_button (fixture), "clicked");
  g_assert_true (kiste_test_wait_for (tool_exported, fixture, 5000));
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_init (&argc, &argv);
  kiste_register_resource ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/programs/export-and-remove", test_export_and_remove);
  ADD ("/kiste/programs/validation", test_validation);
  ADD ("/kiste/programs/host-conflict", test_host_conflict);
  ADD ("/kiste/programs/box-without-apps", test_box_without_apps);

#undef ADD

  return g_test_run ();
}
