/* test-box-page.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "kiste-capabilities-private.h"
#include "kiste-application.h"
#include "kiste-assemble.h"
#include "kiste-box-page-private.h"
#include "kiste-commands.h"
#include "kiste-create-dialog.h"
#include "kiste-log-dialog.h"
#include "kiste-manager-private.h"
#include "kiste-name-dialog.h"
#include "kiste-autostart-row.h"
#include "kiste-box-entry-row.h"
#include "kiste-programs-group.h"
#include "kiste-fake-runner.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"
#include "kiste-test-util.h"

/* The shared fake runner answers like podman would from captured output:
 * inspect, stats (tests/fixtures/stats-podman5.json, rootful podman
 * 5.4.2) and logs (a first start's log as distrobox colours it);
 * operations run `exit 0`, or `sleep` to keep a box busy. */
static void
set_slow (KisteFakeRunner *runner)
{
  kiste_fake_runner_set_default (runner, "sleep 2");
  kiste_fake_runner_add (runner, "podman logs", "sleep 2");
}

static void
set_stats_fail (KisteFakeRunner *runner)
{
  kiste_fake_runner_add (runner, "podman stats",
                         "echo 'Error: stats is not supported in rootless mode without cgroups v2' >&2; "
                         "exit 125");
}

static KisteApplication *app;

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *host_dir;
  /* The host's systemd user units, in host_dir */
  char            *units;
  /* The user's home as the captured boxes know it */
  char            *host_home;
  /* The commands the fixture ran to list the boxes */
  guint            n_listing_commands;
  GtkWindow       *window;
  KisteBoxPage    *page;
} Fixture;

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *applications = NULL;
  g_autofree char *bin = NULL;
  g_autoptr(GError) error = NULL;
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--clone", NULL };
  KisteBoxStore *store;
  GtkWidget *toolbar;
  GtkWidget *overlay;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman stats",
                         "cat \"$KISTE_TEST_FIXTURES/stats-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman logs",
                         "cat \"$KISTE_TEST_FIXTURES/logs-colored.txt\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);

  /* fixture-a exported one app and one program to the "host" */
  fixture->host_dir = g_dir_make_tmp ("kiste-box-page-XXXXXX", &error);
  g_assert_no_error (error);
  applications = g_build_filename (fixture->host_dir, "applications", NULL);
  bin = g_build_filename (fixture->host_dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (applications, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (bin, 0700), ==, 0);
  write_file (applications, "fixture-a-org.example.Viewer.desktop",
              "[Desktop Entry]\nType=Application\nName=Viewer (on fixture-a)\n"
              "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   viewer %u\n");
  write_file (bin, "x11perf",
              "#!/bin/sh\n# distrobox_binary\n# name: fixture-a\n"
              "if [ -z \"${CONTAINER_ID}\" ]; then\n"
              "\texec \"/usr/bin/distrobox-enter\"  -n fixture-a  --  '/usr/bin/x11perf'  \"$@\"\n"
              "else\n\texec  '/usr/bin/x11perf' \"$@\"\nfi\n");
  _kiste_manager_set_host_dirs (fixture->manager, applications, bin);

  /* a session with a systemd user manager: the unit's scripts run on the
   * "host", systemctl links and unlinks as systemd would */
  fixture->units = g_build_filename (fixture->host_dir, "systemd", "user", NULL);
  _kiste_manager_set_units_dir (fixture->manager, fixture->units);
  kiste_fake_runner_add (fixture->runner, "sh -c 'is_ours", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "sh -c 'command -v", "echo /usr/bin/podman");
  {
    g_autofree char *enable = g_strdup_printf ("mkdir -p '%s/default.target.wants' && "
                                               "ln -sf '%s'/\"$3\" '%s/default.target.wants'/\"$3\"",
                                               fixture->units, fixture->units, fixture->units);
    g_autofree char *disable = g_strdup_printf ("rm -f '%s/default.target.wants'/\"$3\"", fixture->units);
    g_autofree char *is_enabled = g_strdup_printf ("if [ -L '%s/default.target.wants'/\"$3\" ]; then "
                                                   "echo enabled; else echo disabled; exit 1; fi",
                                                   fixture->units);

    kiste_fake_runner_add (fixture->runner, "systemctl --user enable", enable);
    kiste_fake_runner_add (fixture->runner, "systemctl --user disable", disable);
    kiste_fake_runner_add (fixture->runner, "systemctl --user is-enabled", is_enabled);
  }

  /* fixture-a was made with the host home: learn it, then list the boxes
   * as that user's */
  store = _kiste_manager_get_store (fixture->manager);
  kiste_test_serve_boxes (store, "ps-podman5.json", NULL);
  g_assert_nonnull (kiste_box_store_find_by_name (store, "fixture-a"));
  fixture->host_home = g_strdup (kiste_box_get_home (kiste_box_store_find_by_name (store, "fixture-a")));
  g_assert_nonnull (fixture->host_home);
  kiste_test_serve_boxes (store, "ps-podman5.json", fixture->host_home);
  fixture->n_listing_commands = kiste_fake_runner_get_commands (fixture->runner)->len;

  /* The page in a window like the main window's content */
  fixture->page = kiste_box_page_new (fixture->manager, kiste_application_get_settings (app));
  overlay = adw_toast_overlay_new ();
  adw_toast_overlay_set_child (ADW_TOAST_OVERLAY (overlay), GTK_WIDGET (fixture->page));
  toolbar = adw_toolbar_view_new ();
  adw_toolbar_view_add_top_bar (ADW_TOOLBAR_VIEW (toolbar), adw_header_bar_new ());
  adw_toolbar_view_set_content (ADW_TOOLBAR_VIEW (toolbar), overlay);
  fixture->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fixture->window, 720, 800);
  adw_window_set_content (ADW_WINDOW (fixture->window), toolbar);
  gtk_window_present (fixture->window);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  g_settings_set_boolean (kiste_application_get_settings (app), "confirm-stop", FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  g_clear_object (&fixture->manager);

  /* Cancelled reads (usage, details) let go of the runner once their
   * processes are reaped; anything else holding it is a leak */
  kiste_test_unref_and_wait ((gpointer *) &fixture->runner);

  /* tests rename and write files there */
  kiste_test_remove_tree (fixture->host_dir);
  g_assert_false (g_file_test (fixture->host_dir, G_FILE_TEST_EXISTS));
  g_free (fixture->host_dir);
  g_free (fixture->host_home);
  g_free (fixture->units);
}

/* Helpers */

static KisteBox *
find_box (Fixture    *fixture,
          const char *name)
{
  KisteBox *box = kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->manager), name);

  g_assert_nonnull (box);
  return box;
}

static AdwActionRow *
find_row (GtkWidget  *root,
          const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found;

      if (ADW_IS_ACTION_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return ADW_ACTION_ROW (child);
      if ((found = find_row (child, title)))
        return found;
    }
  return NULL;
}

static const char *
row_subtitle (Fixture    *fixture,
              const char *title)
{
  AdwActionRow *row = find_row (GTK_WIDGET (fixture->page), title);

  g_assert_nonnull (row);
  return adw_action_row_get_subtitle (row);
}

static GtkButton *
find_button (GtkWidget  *root,
             const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkButton *found;

      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), label) == 0)
        return GTK_BUTTON (child);
      if ((found = find_button (child, label)))
        return found;
    }
  return NULL;
}

static void
click (GtkWidget  *root,
       const char *label)
{
  GtkButton *button = find_button (root, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (GTK_WIDGET (button)));
  g_signal_emit_by_name (button, "clicked");
}

typedef struct
{
  Fixture    *fixture;
  GType       type;
  const char *heading;
  GtkWidget  *found;
} DialogQuery;

static gboolean
dialog_shown (gpointer data)
{
  DialogQuery *query = data;

  query->found = kiste_test_find_widget (GTK_WIDGET (query->fixture->window), query->type, NULL);
  if (query->found != NULL && query->heading != NULL &&
      g_strcmp0 (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (query->found)), query->heading) != 0)
    query->found = NULL;
  return query->found != NULL;
}

static GtkWidget *
wait_for_dialog (Fixture    *fixture,
                 GType       type,
                 const char *heading)
{
  DialogQuery query = { fixture, type, heading, NULL };

  g_assert_true (kiste_test_wait_for (dialog_shown, &query, 3000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  return query.found;
}

static gboolean
no_dialog (gpointer data)
{
  Fixture *fixture = data;

  return kiste_test_find_widget (GTK_WIDGET (fixture->window), ADW_TYPE_DIALOG, NULL) == NULL;
}

static void
wait_for_no_dialog (Fixture *fixture)
{
  g_assert_true (kiste_test_wait_for (no_dialog, fixture, 3000));
}

/* Widget actions have no public getter: buttons bound to them inside the
 * page are sensitive exactly when the action is enabled. */
static const char *all_actions[] = {
  "box.start", "box.stop", "box.restart", "box.upgrade", "box.clone", "box.rename",
  "box.delete", "box.copy-enter-command", "box.view-log", "box.open-home",
  "box.clone-with-changes", "box.export-settings", "box.open-terminal",
};

static void
add_probes (Fixture *fixture)
{
  GtkWidget *menu_button = kiste_test_find_widget (GTK_WIDGET (fixture->page),
                                                   GTK_TYPE_MENU_BUTTON, "More Actions");
  GtkWidget *box;

  g_assert_nonnull (menu_button);
  box = gtk_widget_get_parent (menu_button);
  for (guint i = 0; i < G_N_ELEMENTS (all_actions); i++)
    {
      GtkWidget *probe = gtk_button_new ();

      gtk_widget_set_name (probe, all_actions[i]);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (probe), all_actions[i]);
      gtk_widget_set_visible (probe, FALSE);
      adw_wrap_box_append (ADW_WRAP_BOX (box), probe);
    }
}

static gboolean
action_enabled (Fixture    *fixture,
                const char *action)
{
  GtkWidget *menu_button = kiste_test_find_widget (GTK_WIDGET (fixture->page),
                                                   GTK_TYPE_MENU_BUTTON, "More Actions");

  for (GtkWidget *child = gtk_widget_get_first_child (gtk_widget_get_parent (menu_button));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (g_strcmp0 (gtk_widget_get_name (child), action) == 0)
      return gtk_widget_get_sensitive (child);

  g_assert_not_reached ();
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
          g_strcmp0 (gtk_label_get_label (GTK_LABEL (child)), text) == 0)
        return child;
      if ((found = find_label (child, text)))
        return found;
    }
  return NULL;
}

/* Through the start/stop button, which follows the state */
static gboolean
action_enabled_now (Fixture    *fixture,
                    const char *action)
{
  GtkWidget *button = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON,
                                              g_str_equal (action, "box.start") ? "Start" : "Stop");

  g_assert_nonnull (button);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, action);
  return gtk_widget_is_sensitive (button);
}

static guint
count_commands (Fixture    *fixture,
                const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < kiste_fake_runner_get_commands (fixture->runner)->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), i), prefix))
      n++;
  return n;
}

typedef struct
{
  Fixture    *fixture;
  const char *prefix;
  guint       n;
} CommandQuery;

static gboolean
command_ran (gpointer data)
{
  CommandQuery *query = data;

  return count_commands (query->fixture, query->prefix) >= query->n;
}

/* Answers to dialogs arrive from the main loop */
static void
wait_for_command (Fixture    *fixture,
                  const char *prefix)
{
  CommandQuery query = { fixture, prefix, 1 };

  kiste_test_wait_for (command_ran, &query, 3000);
  g_assert_cmpuint (count_commands (fixture, prefix), ==, 1);
}

static gboolean
has_details (gpointer data)
{
  return kiste_box_get_has_details (data);
}

typedef struct
{
  Fixture    *fixture;
  const char *title;
  const char *subtitle;
} RowQuery;

static gboolean
row_says (gpointer data)
{
  RowQuery *query = data;
  AdwActionRow *row = find_row (GTK_WIDGET (query->fixture->page), query->title);

  return row != NULL && g_strcmp0 (adw_action_row_get_subtitle (row), query->subtitle) == 0;
}

static void
wait_for_row (Fixture    *fixture,
              const char *title,
              const char *subtitle)
{
  RowQuery query = { fixture, title, subtitle };

  if (!kiste_test_wait_for (row_says, &query, 3000))
    g_assert_cmpstr (row_subtitle (fixture, title), ==, subtitle);
}

static gboolean
manager_idle (gpointer data)
{
  Fixture *fixture = data;
  GListModel *tasks = kiste_manager_get_tasks (fixture->manager);

  for (guint i = 0; i < g_list_model_get_n_items (tasks); i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (tasks, i);

      if (kiste_task_get_running (task))
        return FALSE;
    }
  return TRUE;
}

static void
scroll_to_end (Fixture *fixture)
{
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_PREFERENCES_PAGE, NULL);
  GtkWidget *scrolled;
  GtkAdjustment *adjustment;

  g_assert_nonnull (page);
  scrolled = kiste_test_find_widget (page, GTK_TYPE_SCROLLED_WINDOW, NULL);
  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  gtk_adjustment_set_value (adjustment,
                            gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment));
  kiste_test_flush (GTK_WIDGET (fixture->window));
}

/* Tests */

static void
test_empty (Fixture       *fixture,
            gconstpointer  data)
{
  GtkWidget *status = kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_STATUS_PAGE, NULL);

  add_probes (fixture);
  g_assert_null (kiste_box_page_get_box (fixture->page));
  g_assert_nonnull (status);
  g_assert_true (gtk_widget_get_mapped (status));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "No Box Selected");
  for (guint i = 0; i < G_N_ELEMENTS (all_actions); i++)
    g_assert_false (action_enabled (fixture, all_actions[i]));
  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, fixture->n_listing_commands);
}

static void
test_running_box (Fixture       *fixture,
                  gconstpointer  data)
{
  KisteBox *box = find_box (fixture, "fixture-a");
  g_autofree char *sentence = NULL;
  GtkWidget *start_stop;
  AdwActionRow *home_sharing;

  add_probes (fixture);
  kiste_box_page_set_box (fixture->page, box);
  g_assert_true (kiste_box_page_get_box (fixture->page) == box);

  g_assert_cmpstr (row_subtitle (fixture, "Image"), ==, "localhost/kiste-debian:ready");
  g_assert_cmpstr (row_subtitle (fixture, "State"), ==, "Running");
  g_assert_cmpstr (row_subtitle (fixture, "Home Folder"), ==, "Your home folder");
  g_assert_cmpstr (row_subtitle (fixture, "Init System"), ==, "No");
  g_assert_cmpstr (row_subtitle (fixture, "NVIDIA Integration"), ==, "No");
  g_assert_cmpstr (row_subtitle (fixture, "Container Manager"), ==, "Podman");
  g_assert_true (g_str_has_suffix (row_subtitle (fixture, "Created"), ")"));

  /* Before the details, only ps's facts are known */
  g_assert_cmpstr (row_subtitle (fixture, "Devices and /sys"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "User Groups"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "Shared Memory (IPC)"), ==, "Unknown");
  g_assert_cmpstr (row_subtitle (fixture, "Network"), ==, "Unknown");
  g_assert_cmpstr (row_subtitle (fixture, "Processes"), ==, "Unknown");

  /* Setting the box loads its details: one inspect */
  g_assert_true (kiste_test_wait_for (has_details, box, 3000));
  g_assert_cmpuint (count_commands (fixture, "podman container inspect --format json "), ==, 1);
  g_assert_cmpstr (row_subtitle (fixture, "Shared Memory (IPC)"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "Network"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "Processes"), ==, "Shared with the host");

  sentence = g_strdup_printf ("Your home folder %s is shared with this box", fixture->host_home);
  home_sharing = find_row (GTK_WIDGET (fixture->page), sentence);
  g_assert_nonnull (home_sharing);
  g_assert_cmpstr (adw_action_row_get_subtitle (home_sharing), ==,
                   "Programs in the box can read and change your files");

  wait_for_row (fixture, "Exported Apps and Programs", "1 app and 1 program");

  /* Running: stop, not start */
  g_assert_false (action_enabled (fixture, "box.start"));
  g_assert_true (action_enabled (fixture, "box.stop"));
  g_assert_true (action_enabled (fixture, "box.restart"));
  g_assert_true (action_enabled (fixture, "box.upgrade"));
  g_assert_true (action_enabled (fixture, "box.clone"));
  g_assert_true (action_enabled (fixture, "box.rename"));
  g_assert_true (action_enabled (fixture, "box.delete"));
  g_assert_true (action_enabled (fixture, "box.copy-enter-command"));
  g_assert_true (action_enabled (fixture, "box.view-log"));
  g_assert_true (action_enabled (fixture, "box.open-home"));

  start_stop = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON, "Stop");
  g_assert_nonnull (start_stop);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (start_stop)), ==, "box.stop");
  g_assert_true (gtk_widget_is_sensitive (start_stop));

  /* The resources of a running box while the page shows: one stats call */
  wait_for_row (fixture, "Processor", "4.20%");
  g_assert_cmpstr (row_subtitle (fixture, "Memory"), ==, "102.4kB of 25.28GB");
  g_assert_cmpuint (count_commands (fixture, "podman stats --no-stream --format json fixture-a"), ==, 1);

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-running");
  scroll_to_end (fixture);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-running-end");
}

/* Boxes from ps and inspect captures of a home-isolation world */
static void
add_isolation_boxes (Fixture *fixture)
{
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5-home-isolation.json\"");
  kiste_test_serve_boxes (_kiste_manager_get_store (fixture->manager),
                          "ps-podman5-home-isolation.json", "/home/kistetest");
}

/* The truth about the home: "not in this box" only when no mount shows
 * it, with what stays shared; the patch's shape still shows it */
static void
test_home_isolation (Fixture       *fixture,
                     gconstpointer  data)
{
  KisteBox *isolated;
  KisteBox *patched;
  AdwActionRow *row;

  add_isolation_boxes (fixture);
  isolated = find_box (fixture, "isolated");
  patched = find_box (fixture, "patched-shape");

  kiste_box_page_set_box (fixture->page, isolated);
  g_assert_true (kiste_test_wait_for (has_details, isolated, 3000));
  g_assert_cmpstr (row_subtitle (fixture, "Home Folder"), ==, "/home/kistetest");
  row = find_row (GTK_WIDGET (fixture->page), "Your home folder is not in this box");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "/tmp"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "/run/host"));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (row), "Sudo in the box can undo this"));
  /* its home is inside the container: there is no folder here to open */
  add_probes (fixture);
  g_assert_false (action_enabled (fixture, "box.open-home"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  scroll_to_end (fixture);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-home-isolated");

  kiste_box_page_set_box (fixture->page, patched);
  g_assert_true (kiste_test_wait_for (has_details, patched, 3000));
  g_assert_null (find_row (GTK_WIDGET (fixture->page), "Your home folder is not in this box"));
  row = find_row (GTK_WIDGET (fixture->page),
                  "Your home folder /home/kistetest can still be reached in this box "
                  "through another folder, such as /run/host/home");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==,
                   "Programs in the box can read and change your files");
}

static void
test_custom_home_box (Fixture       *fixture,
                      gconstpointer  data)
{
  KisteBox *box = find_box (fixture, "fixture-b");
  g_autofree char *home = g_strdup_printf ("%s/h2", fixture->host_home);
  g_autofree char *sentence = NULL;
  GtkWidget *resources;

  add_probes (fixture);
  kiste_box_page_set_box (fixture->page, box);
  g_assert_true (kiste_test_wait_for (has_details, box, 3000));

  g_assert_cmpstr (row_subtitle (fixture, "State"), ==, "Created");
  g_assert_cmpstr (row_subtitle (fixture, "Home Folder"), ==, home);
  g_assert_cmpstr (row_subtitle (fixture, "Init System"), ==, "Yes");

  /* fixture-b: --init (groups and processes apart), --unshare-netns */
  g_assert_cmpstr (row_subtitle (fixture, "Devices and /sys"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "User Groups"), ==, "Separate from the host");
  g_assert_cmpstr (row_subtitle (fixture, "Shared Memory (IPC)"), ==, "Shared with the host");
  g_assert_cmpstr (row_subtitle (fixture, "Network"), ==, "Separate from the host");
  g_assert_cmpstr (row_subtitle (fixture, "Processes"), ==, "Separate from the host");

  /* Its own home, and still the host home mounted: say both */
  sentence = g_strdup_printf ("This box has its own home folder at %s, "
                              "but your home folder %s is still mounted in it",
                              home, fixture->host_home);
  g_assert_nonnull (find_row (GTK_WIDGET (fixture->page), sentence));

  wait_for_row (fixture, "Exported Apps and Programs", "None");

  /* Never started: start, not stop; no usage polled */
  g_assert_true (action_enabled (fixture, "box.start"));
  g_assert_false (action_enabled (fixture, "box.stop"));
  g_assert_false (action_enabled (fixture, "box.restart"));
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON, "Start"));
  resources = GTK_WIDGET (find_row (GTK_WIDGET (fixture->page), "Processor"));
  g_assert_false (gtk_widget_get_mapped (resources));
  g_assert_cmpuint (count_commands (fixture, "podman stats"), ==, 0);
}

static void
test_follows_box (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) stopped = NULL;
  KisteBox *box = find_box (fixture, "fixture-a");

  add_probes (fixture);
  kiste_box_page_set_box (fixture->page, box);
  g_assert_true (action_enabled (fixture, "box.stop"));
  /* the details (an inspect of the running box) are in before it stops,
   * not after, as on a slow machine */
  g_assert_true (kiste_test_wait_for (has_details, box, 3000));

  /* podman ps lists fixture-a exited: the store's same object notifies */
  g_assert_true (g_file_get_contents (path, &json, NULL, &error));
  stopped = g_string_new (json);
  g_assert_cmpuint (g_string_replace (stopped, "\"State\": \"running\"", "\"State\": \"exited\"", 1), ==, 1);
  kiste_test_serve_boxes_json (_kiste_manager_get_store (fixture->manager), stopped->str);
  g_assert_true (find_box (fixture, "fixture-a") == box);

  g_assert_cmpstr (row_subtitle (fixture, "State"), ==, "Stopped");
  g_assert_true (action_enabled (fixture, "box.start"));
  g_assert_false (action_enabled (fixture, "box.stop"));
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON, "Start"));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (find_row (GTK_WIDGET (fixture->page), "Processor"))));

  kiste_box_page_set_box (fixture->page, NULL);
  g_assert_false (action_enabled (fixture, "box.start"));
  g_assert_false (action_enabled (fixture, "box.copy-enter-command"));
}

static void
test_busy (Fixture       *fixture,
           gconstpointer  data)
{
  const char *operations[] = {
    "box.start", "box.stop", "box.restart", "box.upgrade", "box.clone", "box.rename", "box.delete",
  };
  KisteBox *box = find_box (fixture, "fixture-a");
  GtkWidget *busy_title;
  GtkWidget *stop_button;
  GtkWidget *pill;
  graphene_point_t idle_at;
  graphene_point_t busy_at;

  add_probes (fixture);
  kiste_box_page_set_box (fixture->page, box);
  g_assert_true (kiste_test_wait_for (has_details, box, 3000));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  stop_button = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON, "Stop");
  g_assert_nonnull (stop_button);
  g_assert_true (gtk_widget_compute_point (stop_button, GTK_WIDGET (fixture->window),
                                           &GRAPHENE_POINT_INIT (0, 0), &idle_at));

  /* A slow stop keeps the box busy */
  set_slow (fixture->runner);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.stop", NULL));
  g_assert_true (kiste_manager_is_busy (fixture->manager, "fixture-a"));
  g_assert_cmpuint (count_commands (fixture, "podman stop --time 10 fixture-a"), ==, 1);

  for (guint i = 0; i < G_N_ELEMENTS (operations); i++)
    g_assert_false (action_enabled (fixture, operations[i]));
  /* Looking is still fine */
  g_assert_true (action_enabled (fixture, "box.copy-enter-command"));
  g_assert_true (action_enabled (fixture, "box.view-log"));

  busy_title = GTK_WIDGET (kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_SPINNER, "Working"));
  g_assert_nonnull (busy_title);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_true (gtk_widget_get_mapped (busy_title));
  g_assert_nonnull (find_button (GTK_WIDGET (fixture->page), "_Cancel"));

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-busy");

  /* Nothing moves when it starts, and the page says one thing about the box */
  g_assert_true (gtk_widget_compute_point (stop_button, GTK_WIDGET (fixture->window),
                                           &GRAPHENE_POINT_INIT (0, 0), &busy_at));
  g_assert_cmpfloat (busy_at.y, ==, idle_at.y);
  pill = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_LABEL, "Stopping…");
  g_assert_nonnull (pill);
  g_assert_cmpstr (row_subtitle (fixture, "State"), ==, "Stopping…");

  /* A second stop while busy does nothing at all */
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.stop", NULL);
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 1);

  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  g_assert_false (kiste_manager_is_busy (fixture->manager, "fixture-a"));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (gtk_widget_get_parent (busy_title))));
  g_assert_true (action_enabled (fixture, "box.stop"));
  g_assert_true (action_enabled (fixture, "box.delete"));
}

static void
test_start_progress (Fixture       *fixture,
                     gconstpointer  data)
{
  KisteBox *box = find_box (fixture, "fixture-b");
  GtkWidget *progress;
  GtkWidget *spinner;
  GtkButton *cancel;
  KisteTask *task;

  kiste_box_page_set_box (fixture->page, box);
  set_slow (fixture->runner);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.start", NULL));
  task = kiste_manager_get_task_for_box (fixture->manager, "fixture-b");
  g_assert_nonnull (task);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  /* A first start measures its progress and may be cancelled */
  progress = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_PROGRESS_BAR, "Progress");
  spinner = kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_SPINNER, "Working");
  cancel = GTK_BUTTON (kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_BUTTON, "Cancel Operation"));
  g_assert_true (gtk_widget_get_mapped (progress));
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (cancel)));
  g_assert_true (kiste_task_get_cancellable_by_user (task));

  /* A step and a fraction from the task show at once */
  kiste_task_set_step (task, "Installing basic packages");
  kiste_task_set_fraction (task, 0.4);
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), 0.4, 0.001);
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->page), "Installing basic packages"));
  g_assert_nonnull (find_label (GTK_WIDGET (fixture->page), "Starting…"));

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-starting");

  g_signal_emit_by_name (cancel, "clicked");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_CANCELLED);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_false (gtk_widget_get_mapped (progress));
  g_assert_true (action_enabled_now (fixture, "box.start"));
}

static void
test_confirm_stop (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *dialog;

  g_settings_set_boolean (kiste_application_get_settings (app), "confirm-stop", TRUE);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));

  /* Asked first; cancelling stops nothing */
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.stop", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Stop “fixture-a”?");
  g_assert_cmpstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog)), ==,
                   "Programs running in it will be closed.");
  click (dialog, "_Cancel");
  wait_for_no_dialog (fixture);
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);

  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.stop", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Stop “fixture-a”?");
  click (dialog, "_Stop");
  wait_for_no_dialog (fixture);
  wait_for_command (fixture, "podman stop --time 10 fixture-a");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
}

static guint
count_commands_ending (Fixture    *fixture,
                       const char *suffix)
{
  GPtrArray *commands = kiste_fake_runner_get_commands (fixture->runner);
  guint n = 0;

  for (guint i = 0; i < commands->len; i++)
    if (g_str_has_suffix (g_ptr_array_index (commands, i), suffix))
      n++;
  return n;
}

/* Save to File on a box with its own home: whether to save that too,
 * with its size measured in podman's user namespace; off unless turned on */
static void
test_save_home_question (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *home = g_strdup_printf ("%s/h2", fixture->host_home);
  g_autofree char *du = g_strdup_printf ("podman unshare du --summarize --bytes "
                                         "--one-file-system -- %s", home);
  GtkWidget *dialog;
  AdwSwitchRow *row;

  kiste_fake_runner_add (fixture->runner, "podman unshare du", "printf '8700\\t%s\\n' \"$7\"");
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.save-to-file", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Save “fixture-b” to a File");
  g_assert_cmpuint (count_commands (fixture, du), ==, 1);
  row = ADW_SWITCH_ROW (kiste_test_find_widget (dialog, ADW_TYPE_SWITCH_ROW, NULL));
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==,
                   "Save Its Home Folder Too");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "8.7\302\240kB");
  g_assert_false (adw_switch_row_get_active (row));
  kiste_test_flush (dialog);
  kiste_test_screenshot (gtk_widget_get_ancestor (GTK_WIDGET (fixture->page), GTK_TYPE_WINDOW),
                         "box-page-save-home");
  click (dialog, "_Cancel");
  wait_for_no_dialog (fixture);
  g_assert_cmpuint (count_commands (fixture, "podman container commit"), ==, 0);
}

static void
test_delete_dialog (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *home = g_strdup_printf ("%s/h2", fixture->host_home);
  g_autofree char *check_label = g_strdup_printf ("Also delete its home folder %s", home);
  /* the script that follows no link on the way, given the folder */
  g_autofree char *rm_home = g_strdup_printf (" sh %s", home);
  GtkWidget *dialog;
  GtkWidget *check;
  const char *body;

  /* fixture-a: the host home, so nothing to offer about it */
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.delete", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Delete “fixture-a”?");
  body = adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog));
  g_assert_nonnull (strstr (body, "1 app and 1 program"));
  g_assert_nonnull (strstr (body, "Viewer, x11perf"));
  g_assert_nonnull (strstr (body, "Files in your home folder are kept."));
  g_assert_null (adw_alert_dialog_get_extra_child (ADW_ALERT_DIALOG (dialog)));
  g_assert_null (kiste_test_find_widget (dialog, GTK_TYPE_CHECK_BUTTON, NULL));
  g_assert_cmpint (adw_alert_dialog_get_response_appearance (ADW_ALERT_DIALOG (dialog), "delete"),
                   ==, ADW_RESPONSE_DESTRUCTIVE);
  click (dialog, "_Cancel");
  wait_for_no_dialog (fixture);
  g_assert_cmpuint (count_commands (fixture, "distrobox rm"), ==, 0);

  /* fixture-b: its own home, kept unless people tick the box */
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.delete", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Delete “fixture-b”?");
  body = adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog));
  g_assert_null (strstr (body, "exported"));
  /* the folder is named once: at the choice, on a line of its own */
  g_assert_nonnull (strstr (body, "Its own home folder is kept"));
  g_assert_null (strstr (body, home));
  check = kiste_test_find_widget (dialog, GTK_TYPE_CHECK_BUTTON,
                                  check_label);
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_get_mapped (check));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (check)));
  {
    GtkWidget *path = kiste_test_find_widget (check, GTK_TYPE_LABEL, NULL);

    while (path != NULL && g_strcmp0 (gtk_label_get_label (GTK_LABEL (path)), home) != 0)
      path = gtk_widget_get_next_sibling (path);
    g_assert_nonnull (path);
  }

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-delete-dialog");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  click (dialog, "_Delete");
  wait_for_no_dialog (fixture);
  wait_for_command (fixture, "distrobox rm --force fixture-b");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  g_assert_cmpuint (count_commands_ending (fixture, rm_home), ==, 1);
}

static void
test_rename (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *dialog;
  GtkWidget *entry;

  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.rename", NULL);
  dialog = wait_for_dialog (fixture, KISTE_TYPE_NAME_DIALOG, "Rename “fixture-a”");
  entry = kiste_test_find_widget (dialog, ADW_TYPE_ENTRY_ROW, "Name");
  g_assert_nonnull (entry);

  /* The same name is no change: nothing to accept, nothing to complain about */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "fixture-a");
  g_assert_false (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (dialog), "accept"));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  gtk_editable_set_text (GTK_EDITABLE (entry), "fixture-z");
  g_assert_true (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (dialog), "accept"));
  click (dialog, "_Rename");
  wait_for_no_dialog (fixture);
  wait_for_command (fixture, "podman rename fixture-a fixture-z");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
}

static void set_full_capabilities (Fixture *fixture);

static void
test_clone_running (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *dialog;
  const char *body;

  g_autofree char *stopped = g_build_filename (fixture->host_dir, "stopped", NULL);
  g_autofree char *stop = g_strdup_printf ("touch '%s'", stopped);
  g_autofree char *start = g_strdup_printf ("rm -f '%s'", stopped);
  g_autofree char *inspect = g_strdup_printf ("if [ -e '%s' ]; then "
                                              "sed 's/\"Status\": \"running\"/\"Status\": \"exited\"/' "
                                              "\"$KISTE_TEST_FIXTURES/inspect-podman5.json\"; "
                                              "else cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"; fi",
                                              stopped);

  /* podman as the box sees it: stopped after a stop, until a start */
  kiste_fake_runner_add (fixture->runner, "podman stop", stop);
  kiste_fake_runner_add (fixture->runner, "podman start", start);
  kiste_fake_runner_add (fixture->runner, "podman container inspect", inspect);
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman logs",
                         "cat \"$KISTE_TEST_FIXTURES/logs-first-start-ready.txt\"");
  set_full_capabilities (fixture);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.clone", NULL);

  /* A running box: one question, which says it is stopped and started again */
  dialog = wait_for_dialog (fixture, KISTE_TYPE_NAME_DIALOG, "Clone “fixture-a”");
  body = adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog));
  g_assert_nonnull (strstr (body, "stopped while it is copied"));
  g_assert_nonnull (strstr (body, "started again"));
  g_assert_cmpstr (kiste_name_dialog_get_name (KISTE_NAME_DIALOG (dialog)), ==, "fixture-a-copy");
  g_assert_true (kiste_name_dialog_get_valid (KISTE_NAME_DIALOG (dialog)));
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);

  click (dialog, "_Clone");
  wait_for_no_dialog (fixture);
  wait_for_command (fixture, "podman stop --time 10 fixture-a");
  wait_for_command (fixture, "distrobox create --yes --name fixture-a-copy --clone fixture-a");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  /* no second question came */
  g_assert_true (no_dialog (fixture));
  /* and the source was started again */
  g_assert_cmpuint (count_commands (fixture, "podman start fixture-a"), ==, 1);
  g_assert_false (g_file_test (stopped, G_FILE_TEST_EXISTS));
}

/* The copy keeps the source's settings, and the question says which */
static void
test_clone_keeps_settings (Fixture       *fixture,
                           gconstpointer  data)
{
  GtkWidget *dialog;
  const char *body;

  set_full_capabilities (fixture);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-c"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.clone", NULL);
  dialog = wait_for_dialog (fixture, KISTE_TYPE_NAME_DIALOG, "Clone “fixture-c”");
  body = adw_alert_dialog_get_body (ADW_ALERT_DIALOG (dialog));
  g_assert_nonnull (strstr (body, "its own shared memory"));
  g_assert_nonnull (strstr (body, "its own processes"));
  g_assert_null (strstr (body, "stopped"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-clone-dialog");

  click (dialog, "_Clone");
  wait_for_no_dialog (fixture);
  wait_for_command (fixture, "distrobox create --yes --name fixture-c-copy --clone fixture-c");
  g_assert_true (kiste_test_wait_for (manager_idle, fixture, 5000));
  {
    const char *create = kiste_fake_runner_find (fixture->runner, "distrobox create");

    g_assert_nonnull (strstr (create, "--unshare-ipc"));
    g_assert_nonnull (strstr (create, "--unshare-process"));
  }
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);
}

/* The flags of the released distrobox, so the create dialog keeps what it
 * is given */
static void
set_full_capabilities (Fixture *fixture)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"),
                                            "help-distrobox-1.8.2.5.txt", NULL);
  g_autofree char *help = NULL;
  g_auto(GStrv) flags = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &help, NULL, &error));
  g_assert_no_error (error);
  flags = kiste_capabilities_parse_create_help (help);
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", (const char * const *) flags);
}

static void
test_clone_with_changes_running (Fixture       *fixture,
                                 gconstpointer  data)
{
  GtkWidget *dialog;
  KisteCreateOptions *options;

  set_full_capabilities (fixture);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  g_assert_true (kiste_test_wait_for ((gpointer) kiste_box_get_has_details,
                                      find_box (fixture, "fixture-a"), 3000));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.clone-with-changes", NULL);

  /* distrobox clones stopped boxes only: asked first, stopped, then the form */
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Stop “fixture-a” to Clone It?");
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-clone-with-changes-stop");
  click (dialog, "_Stop and Continue");
  wait_for_command (fixture, "podman stop --time 10 fixture-a");
  dialog = wait_for_dialog (fixture, KISTE_TYPE_CREATE_DIALOG, NULL);

  options = kiste_create_dialog_get_options (KISTE_CREATE_DIALOG (dialog));
  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "fixture-a-copy");
  g_assert_cmpstr (kiste_create_options_get_clone_source (options), ==, "fixture-a");
  g_assert_null (kiste_create_options_get_home (options));
  g_assert_false (kiste_create_options_get_init (options));
  g_assert_true (kiste_create_dialog_get_can_create (KISTE_CREATE_DIALOG (dialog)));
  /* nothing is created before people press Create */
  g_assert_cmpuint (count_commands (fixture, "distrobox create --yes"), ==, 0);
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

static void
test_clone_with_changes_cancel (Fixture       *fixture,
                                gconstpointer  data)
{
  GtkWidget *dialog;

  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.clone-with-changes", NULL);
  dialog = wait_for_dialog (fixture, ADW_TYPE_ALERT_DIALOG, "Stop “fixture-a” to Clone It?");
  click (dialog, "_Cancel");
  wait_for_no_dialog (fixture);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);
  g_assert_null (kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_CREATE_DIALOG, NULL));
}

static void
test_clone_with_changes_stopped (Fixture       *fixture,
                                 gconstpointer  data)
{
  GtkWidget *dialog;
  KisteCreateOptions *options;
  g_autofree char *home = NULL;

  set_full_capabilities (fixture);
  home = g_build_filename (fixture->host_home, "h2", NULL);

  /* straight away, with the details (its own network) read first */
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.clone-with-changes", NULL);
  dialog = wait_for_dialog (fixture, KISTE_TYPE_CREATE_DIALOG, NULL);
  g_assert_cmpuint (count_commands (fixture, "podman stop"), ==, 0);

  options = kiste_create_dialog_get_options (KISTE_CREATE_DIALOG (dialog));
  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "fixture-b-copy");
  g_assert_cmpstr (kiste_create_options_get_clone_source (options), ==, "fixture-b");
  g_assert_cmpstr (kiste_create_options_get_home (options), ==, home);
  g_assert_true (kiste_create_options_get_init (options));
  g_assert_true (kiste_create_options_get_unshare (options, KISTE_UNSHARE_NETNS));
  g_assert_false (kiste_create_options_get_unshare (options, KISTE_UNSHARE_IPC));
  g_assert_null (kiste_create_options_get_hostname (options));
  g_assert_true (kiste_create_dialog_get_can_create (KISTE_CREATE_DIALOG (dialog)));

  /* the form shows it: a copy, not an image */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_row (dialog, "Copy Of"))));
  g_assert_cmpstr (adw_action_row_get_subtitle (find_row (dialog, "Copy Of")), ==, "fixture-b");
  kiste_test_screenshot (dialog, "box-page-clone-with-changes");
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

static gboolean
toast_with (gpointer data)
{
  Fixture *fixture = ((gpointer *) data)[0];
  const char *text = ((gpointer *) data)[1];

  return find_label (GTK_WIDGET (fixture->window), text) != NULL;
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
          g_str_has_prefix (gtk_label_get_label (GTK_LABEL (child)), prefix))
        return TRUE;
      if (has_label_prefix (child, prefix))
        return TRUE;
    }
  return FALSE;
}

static gboolean
toast_failed (gpointer data)
{
  Fixture *fixture = data;

  return has_label_prefix (GTK_WIDGET (fixture->window), "Could not save the settings: ");
}

static void
test_export_settings (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->host_dir, "fixture-b.ini", NULL);
  g_autofree char *home = g_build_filename (fixture->host_home, "h2", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gpointer saved[] = { fixture, (gpointer) "Settings saved as “fixture-b.ini”" };
  KisteAssembleEntry *entry;

  _kiste_box_page_set_export_file_for_testing (fixture->page, file);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.export-settings", NULL);
  g_assert_true (kiste_test_wait_for (file_exists, path, 3000));
  g_assert_true (kiste_test_wait_for (toast_with, saved, 3000));

  /* what was written reads back as the box: its image, not a copy of it */
  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strstr (contents, "clone="));
  entries = kiste_assemble_parse (contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = g_ptr_array_index (entries, 0);
  g_assert_null (entry->error);
  g_assert_cmpstr (entry->section, ==, "fixture-b");
  g_assert_cmpstr (kiste_create_options_get_name (entry->options), ==, "fixture-b");
  g_assert_cmpstr (kiste_create_options_get_image (entry->options), ==, "localhost/kiste-debian:ready");
  g_assert_null (kiste_create_options_get_clone_source (entry->options));
  g_assert_cmpstr (kiste_create_options_get_home (entry->options), ==, home);
  g_assert_null (kiste_create_options_get_hostname (entry->options));
  g_assert_true (kiste_create_options_get_init (entry->options));
  g_assert_true (kiste_create_options_get_unshare (entry->options, KISTE_UNSHARE_NETNS));
  g_assert_true (kiste_create_options_get_unshare (entry->options, KISTE_UNSHARE_GROUPS));
  g_assert_false (kiste_create_options_get_unshare (entry->options, KISTE_UNSHARE_IPC));
  g_assert_false (kiste_create_options_get_nvidia (entry->options));
  /* nothing ran for it */
  g_assert_cmpuint (g_list_model_get_n_items (kiste_manager_get_tasks (fixture->manager)), ==, 0);

  g_unlink (path);
}

static void
test_export_settings_fails (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *bad_path = g_build_filename (fixture->host_dir, "missing", "x.ini", NULL);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad_path);

  /* a folder that is not there: said, not thrown away */
  _kiste_box_page_set_export_file_for_testing (fixture->page, bad_file);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.export-settings", NULL);
  g_assert_true (kiste_test_wait_for (toast_failed, fixture, 3000));
  g_assert_false (g_file_test (bad_path, G_FILE_TEST_EXISTS));
}

/* The disk fills up while the settings are written (a file size limit
 * stands in for it): said, and the file that was there is still whole */
static void
test_export_settings_disk_full (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->host_dir, "kept.ini", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *contents = NULL;
  struct rlimit saved;
  struct rlimit tiny;
  void (*saved_handler) (int);

  g_assert_true (g_file_set_contents (path, "[earlier]\nimage=alpine\n", -1, NULL));
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  tiny = saved;
  tiny.rlim_cur = 16;
  saved_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tiny), ==, 0);

  _kiste_box_page_set_export_file_for_testing (fixture->page, file);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.export-settings", NULL);
  g_assert_true (kiste_test_wait_for (toast_failed, fixture, 3000));

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, saved_handler);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[earlier]\nimage=alpine\n");
  g_unlink (path);
}

static void
test_name_dialog (Fixture       *fixture,
                  gconstpointer  data)
{
  const char *names[] = { "fixture-a", "fixture-b", NULL };
  KisteNameDialog *dialog;
  GtkWidget *entry;
  GtkWidget *error_label;
  int start;
  int end;

  dialog = kiste_name_dialog_new ("Clone “fixture-a”", NULL, "_Clone", "fixture-a-copy", NULL, names);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (fixture->window));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  entry = kiste_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_ENTRY_ROW, "Name");
  g_assert_nonnull (entry);
  /* Typing replaces the suggestion */
  g_assert_true (gtk_editable_get_selection_bounds (GTK_EDITABLE (entry), &start, &end));
  g_assert_cmpint (start, ==, 0);
  g_assert_cmpint (end, ==, strlen ("fixture-a-copy"));
  g_assert_true (kiste_name_dialog_get_valid (dialog));
  g_assert_true (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (dialog), "accept"));
  g_assert_cmpstr (adw_alert_dialog_get_response_label (ADW_ALERT_DIALOG (dialog), "accept"), ==, "_Clone");

  /* Taken, dotted, empty: refused, with the validator's reason */
  gtk_editable_set_text (GTK_EDITABLE (entry), "fixture-b");
  g_assert_false (kiste_name_dialog_get_valid (dialog));
  g_assert_false (adw_alert_dialog_get_response_enabled (ADW_ALERT_DIALOG (dialog), "accept"));
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  error_label = NULL;
  for (GtkWidget *w = gtk_widget_get_next_sibling (gtk_widget_get_ancestor (entry, GTK_TYPE_LIST_BOX));
       w != NULL; w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_LABEL (w))
      error_label = w;
  g_assert_nonnull (error_label);
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (error_label)), "taken"));

  gtk_editable_set_text (GTK_EDITABLE (entry), "my.box");
  g_assert_false (kiste_name_dialog_get_valid (dialog));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (error_label)), "“.”"));

  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_false (kiste_name_dialog_get_valid (dialog));

  /* Blanks around a pasted name do not count */
  gtk_editable_set_text (GTK_EDITABLE (entry), "  new-box ");
  g_assert_true (kiste_name_dialog_get_valid (dialog));
  g_assert_cmpstr (kiste_name_dialog_get_name (dialog), ==, "new-box");
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  adw_dialog_force_close (ADW_DIALOG (dialog));
}

static GtkWidget *
find_label_text (GtkWidget  *root,
                 const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), text) == 0)
        return child;
      if ((found = find_label_text (child, text)))
        return found;
    }
  return NULL;
}

static void
test_copy_enter_command (Fixture       *fixture,
                         gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->page));
  g_auto(GValue) text = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;

  KisteBox *box = find_box (fixture, "fixture-b");

  /* copied only once the box is known to be safe to enter */
  kiste_box_page_set_box (fixture->page, box);
  g_assert_true (kiste_test_wait_for (has_details, box, 3000));
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.copy-enter-command", NULL);

  g_assert_true (gdk_clipboard_is_local (clipboard));
  g_value_init (&text, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (gdk_clipboard_get_content (clipboard), &text, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_value_get_string (&text), ==, "distrobox enter fixture-b");

  /* The toast says what was copied */
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_nonnull (find_label_text (GTK_WIDGET (fixture->window), "“distrobox enter fixture-b” copied"));

  /* Copying runs nothing and is no task */
  g_assert_cmpuint (g_list_model_get_n_items (kiste_manager_get_tasks (fixture->manager)), ==, 0);
}

/* Whether a menu, with its sections, has an item for action */
static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
      if (section != NULL && menu_has_action (section, action))
        return TRUE;
    }
  return FALSE;
}

/* A toolbox: the page says Toolbx made it and leaves out what Toolbx
 * cannot do (upgrade, copy, rename, a distrobox.ini, the box's own
 * launcher, exported programs), not just greys it out; what it can do
 * stays */
static void
test_toolbox (Fixture       *fixture,
              gconstpointer  data)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (fixture->page));
  g_auto(GValue) text = G_VALUE_INIT;
  g_autoptr(GError) error = NULL;
  KisteBox *box;
  GtkWidget *entry_row;
  GtkWidget *programs;
  GtkWidget *menu_button;
  AdwViewStack *views;

  kiste_test_serve_boxes (_kiste_manager_get_store (fixture->manager), "ps-toolbx-ui.json",
                          fixture->host_home);
  g_assert_true (kiste_box_list_get_several_tools (kiste_manager_get_boxes (fixture->manager)));
  box = find_box (fixture, "fedora-toolbox-42");
  g_assert_cmpint (kiste_box_get_tool (box), ==, KISTE_BOX_TOOL_TOOLBX);

  add_probes (fixture);
  kiste_box_page_set_box (fixture->page, box);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (find_row (GTK_WIDGET (fixture->page), "Made With"))));
  g_assert_cmpstr (row_subtitle (fixture, "Made With"), ==, "Toolbx");
  g_assert_cmpstr (row_subtitle (fixture, "Container Manager"), ==, "Podman");

  /* what Toolbx cannot do is off, and out of the menu */
  g_assert_true (action_enabled (fixture, "box.start"));
  g_assert_true (action_enabled (fixture, "box.delete"));
  g_assert_true (action_enabled (fixture, "box.copy-enter-command"));
  g_assert_true (action_enabled (fixture, "box.view-log"));
  g_assert_true (action_enabled (fixture, "box.open-terminal"));
  g_assert_false (action_enabled (fixture, "box.upgrade"));
  g_assert_false (action_enabled (fixture, "box.clone"));
  g_assert_false (action_enabled (fixture, "box.clone-with-changes"));
  g_assert_false (action_enabled (fixture, "box.rename"));
  g_assert_false (action_enabled (fixture, "box.export-settings"));

  menu_button = kiste_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_MENU_BUTTON, "More Actions");
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_true (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)) == fixture->page->toolbox_menu);
  g_assert_true (menu_has_action (fixture->page->toolbox_menu, "box.restart"));
  g_assert_true (menu_has_action (fixture->page->toolbox_menu, "box.delete"));
  g_assert_true (menu_has_action (fixture->page->toolbox_menu, "box.view-log"));
  g_assert_false (menu_has_action (fixture->page->toolbox_menu, "box.upgrade"));
  g_assert_false (menu_has_action (fixture->page->toolbox_menu, "box.clone"));
  g_assert_false (menu_has_action (fixture->page->toolbox_menu, "box.clone-with-changes"));
  g_assert_false (menu_has_action (fixture->page->toolbox_menu, "box.rename"));
  g_assert_false (menu_has_action (fixture->page->toolbox_menu, "box.export-settings"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-toolbox-menu");
  gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));

  /* no launcher of its own: distrobox generate-entry is distrobox's */
  entry_row = kiste_test_find_widget (GTK_WIDGET (fixture->page), KISTE_TYPE_BOX_ENTRY_ROW, NULL);
  g_assert_nonnull (entry_row);
  g_assert_false (gtk_widget_get_visible (entry_row));

  /* Toolbx's own command is what people copy */
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.copy-enter-command", NULL);
  g_value_init (&text, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (gdk_clipboard_get_content (clipboard), &text, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (g_value_get_string (&text), ==, "toolbox enter fedora-toolbox-42");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-toolbox");

  /* the Apps view has the apps, not the programs distrobox-export makes */
  views = ADW_VIEW_STACK (kiste_test_find_widget (GTK_WIDGET (fixture->page), ADW_TYPE_VIEW_STACK, NULL));
  adw_view_stack_set_visible_child_name (views, "apps");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  programs = kiste_test_find_widget (GTK_WIDGET (fixture->page), KISTE_TYPE_PROGRAMS_GROUP, NULL);
  g_assert_nonnull (programs);
  g_assert_false (gtk_widget_get_visible (programs));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-toolbox-apps");

  /* a distrobox among toolboxes says so, and keeps everything */
  adw_view_stack_set_visible_child_name (views, "details");
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpstr (row_subtitle (fixture, "Made With"), ==, "Distrobox");
  g_assert_true (gtk_widget_get_visible (entry_row));
  g_assert_true (action_enabled (fixture, "box.upgrade"));
  g_assert_true (action_enabled (fixture, "box.rename"));
  g_assert_true (action_enabled (fixture, "box.export-settings"));
  g_assert_true (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)) == fixture->page->box_menu);
  adw_view_stack_set_visible_child_name (views, "apps");
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_true (gtk_widget_get_visible (programs));
  adw_view_stack_set_visible_child_name (views, "details");

  /* distroboxes alone: no word on the tool */
  kiste_test_serve_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json",
                          fixture->host_home);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (find_row (GTK_WIDGET (fixture->page), "Made With"))));
}

/* Start When I Log In */

typedef struct
{
  GtkWidget *row;
  GtkSwitch *sw;
} AutostartProbe;

static void
autostart_probe (Fixture        *fixture,
                 AutostartProbe *probe)
{
  probe->row = kiste_test_find_widget (GTK_WIDGET (fixture->page), KISTE_TYPE_AUTOSTART_ROW, NULL);
  g_assert_nonnull (probe->row);
  probe->sw = GTK_SWITCH (kiste_test_find_widget (probe->row, GTK_TYPE_SWITCH, NULL));
  g_assert_nonnull (probe->sw);
}

static gboolean
switch_ready (gpointer data)
{
  AutostartProbe *probe = data;

  return gtk_widget_get_sensitive (GTK_WIDGET (probe->sw));
}

static gboolean
switch_gone (gpointer data)
{
  AutostartProbe *probe = data;

  return !gtk_widget_get_visible (GTK_WIDGET (probe->sw));
}

static void
test_autostart (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->units, "kiste-box-fixture-a.service", NULL);
  AutostartProbe probe;

  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  autostart_probe (fixture, &probe);

  /* the real state, read when the page shows the box */
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_true (gtk_widget_get_visible (probe.row));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (probe.sw)));
  g_assert_false (gtk_switch_get_active (probe.sw));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (probe.row)), ==,
                   "Start When I Log In");
  g_assert_cmpstr (row_subtitle (fixture, "Start When I Log In"), ==,
                   "Starts the box when you log in and stops it when you log out");
  g_assert_true (kiste_test_find_widget (probe.row, GTK_TYPE_SWITCH, "Start the Box When I Log In") ==
                 GTK_WIDGET (probe.sw));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "systemctl --user show-environment"));

  /* on: the unit written and enabled */
  gtk_switch_set_active (probe.sw, TRUE);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (probe.sw)));
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_true (gtk_switch_get_active (probe.sw));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "systemctl --user enable"), ==,
                   "systemctl --user enable kiste-box-fixture-a.service");
  gtk_widget_grab_focus (GTK_WIDGET (probe.sw));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-autostart");

  /* shown again: still on */
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-b"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_false (gtk_switch_get_active (probe.sw));
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_true (gtk_switch_get_active (probe.sw));

  /* off: disabled and removed */
  gtk_switch_set_active (probe.sw, FALSE);
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_false (gtk_switch_get_active (probe.sw));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "systemctl --user disable"));

  /* a failure puts the switch back where the host is (the task's toast
   * tells why) */
  kiste_fake_runner_add (fixture->runner, "systemctl --user enable",
                         "echo 'Failed to enable unit' >&2; exit 1");
  gtk_switch_set_active (probe.sw, TRUE);
  g_assert_true (kiste_test_wait_for (switch_ready, &probe, 5000));
  g_assert_false (gtk_switch_get_active (probe.sw));
}

static void
test_autostart_unavailable (Fixture       *fixture,
                            gconstpointer  data)
{
  AutostartProbe probe;
  const char *subtitle;

  kiste_fake_runner_add (fixture->runner, "systemctl --user show-environment",
                         "echo 'Failed to connect to user scope bus' >&2; exit 1");
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  kiste_test_flush (GTK_WIDGET (fixture->window));
  autostart_probe (fixture, &probe);

  /* no switch, and the row says why */
  g_assert_true (kiste_test_wait_for (switch_gone, &probe, 5000));
  g_assert_true (gtk_widget_get_visible (probe.row));
  subtitle = row_subtitle (fixture, "Start When I Log In");
  g_assert_cmpstr (subtitle, ==,
                   "Your session has no systemd user manager, so boxes cannot be started when you log in.");
  /* nothing was written */
  g_assert_null (kiste_fake_runner_find (fixture->runner, "sh -c 'is_ours"));
  g_assert_false (g_file_test (fixture->units, G_FILE_TEST_EXISTS));
  gtk_widget_grab_focus (probe.row);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-autostart-unavailable");
}

static gboolean
log_loaded (gpointer data)
{
  return !kiste_log_dialog_get_loading (data);
}

static void
test_log_dialog (Fixture       *fixture,
                 gconstpointer  data)
{
  KisteBox *box = find_box (fixture, "fixture-a");
  g_autoptr(GDateTime) created = g_date_time_new_from_unix_utc (kiste_box_get_created (box));
  g_autofree char *since = kiste_commands_format_since (created);
  g_autofree char *logs = g_strdup_printf ("podman logs --since %s fixture-a", since);
  GtkWidget *dialog;
  g_autofree char *text = NULL;

  kiste_box_page_set_box (fixture->page, box);
  gtk_widget_activate_action (GTK_WIDGET (fixture->page), "box.view-log", NULL);
  dialog = wait_for_dialog (fixture, KISTE_TYPE_LOG_DIALOG, NULL);
  g_assert_true (kiste_test_wait_for (log_loaded, dialog, 3000));

  /* Everything since the box exists, colours and carriage returns removed */
  g_assert_cmpuint (count_commands (fixture, logs), ==, 1);
  text = kiste_log_dialog_dup_text (KISTE_LOG_DIALOG (dialog));
  g_assert_cmpstr (text, ==,
                   "+ printf distrobox: Installing basic packages...\\n\n"
                   "Setting up user's group list...\t [ OK ]\n"
                   "container_setup_done");
  g_assert_nonnull (kiste_test_find_widget (dialog, GTK_TYPE_TEXT_VIEW, "Log"));
  g_assert_true (gtk_widget_is_sensitive (kiste_test_find_widget (dialog, GTK_TYPE_BUTTON, "Copy Log")));

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "box-page-log-dialog");

  /* Reload reads it again */
  kiste_log_dialog_reload (KISTE_LOG_DIALOG (dialog));
  g_assert_true (kiste_test_wait_for (log_loaded, dialog, 3000));
  g_assert_cmpuint (count_commands (fixture, "podman logs"), ==, 2);
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

static gboolean
stats_counted (gpointer data)
{
  Fixture *fixture = data;

  return count_commands (fixture, "podman stats") >= 2;
}

static void
test_stats_polling (Fixture       *fixture,
                    gconstpointer  data)
{
  guint n;

  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_for_row (fixture, "Processor", "4.20%");

  /* Every few seconds while visible */
  g_assert_true (kiste_test_wait_for (stats_counted, fixture, 8000));

  /* Not at all while hidden */
  gtk_widget_set_visible (GTK_WIDGET (fixture->page), FALSE);
  n = count_commands (fixture, "podman stats");
  {
    gint64 until = g_get_monotonic_time () + 6 * G_USEC_PER_SEC;

    while (g_get_monotonic_time () < until)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10 * 1000);
  }
  g_assert_cmpuint (count_commands (fixture, "podman stats"), ==, n);

  /* Shown again: measured at once */
  gtk_widget_set_visible (GTK_WIDGET (fixture->page), TRUE);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  g_assert_cmpuint (count_commands (fixture, "podman stats"), ==, n + 1);
}

static void
test_stats_unavailable (Fixture       *fixture,
                        gconstpointer  data)
{
  AdwPreferencesGroup *group;

  set_stats_fail (fixture->runner);
  kiste_box_page_set_box (fixture->page, find_box (fixture, "fixture-a"));
  wait_for_row (fixture, "Processor", "Not available");
  g_assert_cmpstr (row_subtitle (fixture, "Memory"), ==, "Not available");

  group = ADW_PREFERENCES_GROUP (gtk_widget_get_ancestor (GTK_WIDGET (find_row (GTK_WIDGET (fixture->page),
                                                                                 "Processor")),
                                                          ADW_TYPE_PREFERENCES_GROUP));
  g_assert_nonnull (strstr (adw_preferences_group_get_description (group),
                            "rootless podman needs a system with cgroups v2"));
  g_assert_cmpuint (count_commands (fixture, "podman stats"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_catch_crashes ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  /* Dialogs close at once */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

#define ADD(path, func) \
  g_test_add ("/kiste/box-page/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("empty", test_empty);
  ADD ("running-box", test_running_box);
  ADD ("custom-home-box", test_custom_home_box);
  ADD ("save-home-question", test_save_home_question);
  ADD ("home-isolation", test_home_isolation);
  ADD ("follows-box", test_follows_box);
  ADD ("busy", test_busy);
  ADD ("start-progress", test_start_progress);
  ADD ("confirm-stop", test_confirm_stop);
  ADD ("delete-dialog", test_delete_dialog);
  ADD ("rename", test_rename);
  ADD ("clone-running", test_clone_running);
  ADD ("clone-keeps-settings", test_clone_keeps_settings);
  ADD ("clone-with-changes-running", test_clone_with_changes_running);
  ADD ("clone-with-changes-cancel", test_clone_with_changes_cancel);
  ADD ("clone-with-changes-stopped", test_clone_with_changes_stopped);
  ADD ("export-settings", test_export_settings);
  ADD ("export-settings-fails", test_export_settings_fails);
  ADD ("export-settings-disk-full", test_export_settings_disk_full);
  ADD ("copy-enter-command", test_copy_enter_command);
  ADD ("toolbox", test_toolbox);
  ADD ("autostart", test_autostart);
  ADD ("autostart-unavailable", test_autostart_unavailable);
  ADD ("log-dialog", test_log_dialog);
  ADD ("stats-polling", test_stats_polling);
  ADD ("stats-unavailable", test_stats_unavailable);
  ADD ("name-dialog", test_name_dialog);

#undef ADD

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return ret;
}
