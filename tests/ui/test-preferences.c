/* test-preferences.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-capabilities-private.h"
#include "kiste-fake-runner.h"
#include "kiste-preferences-dialog.h"
#include "kiste-resources.h"
#include "kiste-test-ui.h"

/* The shared fake runner answers the capability probes from captured
 * outputs; docker answers only when the test installed it. */
static void
install_docker (KisteFakeRunner *runner)
{
  kiste_fake_runner_add (runner, "docker", "cat \"$KISTE_TEST_FIXTURES/version-docker-28.2.2.txt\"");
}

typedef struct
{
  KisteFakeRunner        *runner;
  KisteManager           *manager;
  GSettings              *settings;
  AdwWindow              *window;
  KistePreferencesDialog *dialog;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *no_files[] = { NULL };

  fixture->runner = kiste_fake_runner_new ();
  kiste_runner_set_manager (KISTE_RUNNER (fixture->runner), NULL);
  kiste_fake_runner_set_default (fixture->runner, "exit 127");
  kiste_fake_runner_add (fixture->runner, "distrobox --version",
                         "cat \"$KISTE_TEST_FIXTURES/version-distrobox-1.8.2.5.txt\"");
  kiste_fake_runner_add (fixture->runner, "distrobox create",
                         "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"");
  kiste_fake_runner_add (fixture->runner, "podman",
                         "cat \"$KISTE_TEST_FIXTURES/version-podman-5.4.2.txt\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_config_files (kiste_manager_get_capabilities (fixture->manager), no_files);

  fixture->settings = g_settings_new (APP_ID);
  g_settings_reset (fixture->settings, "container-manager");
  g_settings_reset (fixture->settings, "confirm-stop");
  g_settings_reset (fixture->settings, "check-updates");

  fixture->window = ADW_WINDOW (adw_window_new ());
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 720, 600);
  adw_window_set_content (fixture->window, adw_status_page_new ());
  gtk_window_present (GTK_WINDOW (fixture->window));
}

static gboolean
dialog_gone (gpointer data)
{
  return ((Fixture *) data)->dialog == NULL;
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  if (fixture->dialog != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (fixture->dialog), (gpointer *) &fixture->dialog);
      adw_dialog_force_close (ADW_DIALOG (fixture->dialog));
      kiste_test_flush (GTK_WIDGET (fixture->window));
      /* a search it started may hold it until its command is cancelled:
       * on a loaded machine that takes more than a frame */
      g_assert_true (kiste_test_wait_for (dialog_gone, fixture, 5000));
    }
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (fixture->manager);
  g_assert_finalize_object (fixture->runner);
  g_clear_object (&fixture->settings);
}

static void
present_dialog (Fixture *fixture)
{
  fixture->dialog = kiste_preferences_dialog_new (fixture->manager, fixture->settings);
  adw_dialog_present (ADW_DIALOG (fixture->dialog), GTK_WIDGET (fixture->window));
  kiste_test_flush (GTK_WIDGET (fixture->window));
}

static void
refresh_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean *done = user_data;

  g_assert_true (kiste_capabilities_refresh_finish (KISTE_CAPABILITIES (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* Probes the fake tools as the window does on start */
static void
refresh (Fixture *fixture)
{
  gboolean done = FALSE;

  kiste_capabilities_refresh_async (kiste_manager_get_capabilities (fixture->manager),
                                    NULL, refresh_cb, &done);
  g_assert_true (kiste_test_wait_for (is_true, &done, 5000));
}

/* A row of exactly this type (a combo row is an action row too) and title */
static GtkWidget *
find_row_in (GtkWidget  *root,
             GType       type,
             const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_OBJECT_TYPE (child) == type)
        {
          g_autoptr(GString) plain = g_string_new (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)));

          /* Titles may carry a mnemonic */
          g_string_replace (plain, "_", "", 0);
          if (g_str_equal (plain->str, title))
            return child;
        }
      if ((found = find_row_in (child, type, title)))
        return found;
    }
  return NULL;
}

static GtkWidget *
find_row (Fixture    *fixture,
          GType       type,
          const char *title)
{
  GtkWidget *row = find_row_in (GTK_WIDGET (fixture->dialog), type, title);

  g_assert_nonnull (row);
  return row;
}

static const char *
row_subtitle (GtkWidget *row)
{
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
}

static void
test_one_manager (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *combo;
  GtkWidget *info;
  GtkWidget *distrobox;

  refresh (fixture);
  present_dialog (fixture);

  /* Only podman: nothing to choose, just what is used */
  combo = find_row (fixture, ADW_TYPE_COMBO_ROW, "Container Manager");
  info = find_row (fixture, ADW_TYPE_ACTION_ROW, "Container Manager");
  g_assert_false (gtk_widget_get_visible (combo));
  g_assert_true (gtk_widget_get_visible (info));
  g_assert_cmpstr (row_subtitle (info), ==, "Podman 5.4.2");
  distrobox = find_row (fixture, ADW_TYPE_ACTION_ROW, "Distrobox");
  g_assert_true (gtk_widget_get_visible (distrobox));
  g_assert_cmpstr (row_subtitle (distrobox), ==, "1.8.2.5");

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "preferences-one-manager");

  /* What the capabilities say later shows at once */
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "docker", NULL);
  g_assert_false (gtk_widget_get_visible (combo));
  g_assert_cmpstr (row_subtitle (info), ==, "Docker");
}

static void
test_both_managers (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *combo;
  char *value;

  install_docker (fixture->runner);
  refresh (fixture);
  present_dialog (fixture);

  combo = find_row (fixture, ADW_TYPE_COMBO_ROW, "Container Manager");
  g_assert_true (gtk_widget_get_visible (combo));
  /* distrobox's own order: podman first */
  g_assert_cmpstr (row_subtitle (combo), ==, "Using Podman 5.4.2");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (combo)), ==, 0);
  g_assert_cmpstr (row_subtitle (find_row (fixture, ADW_TYPE_ACTION_ROW, "Distrobox")), ==, "1.8.2.5");

  kiste_test_screenshot (GTK_WIDGET (fixture->window), "preferences");

  /* Setting → combo */
  g_settings_set_string (fixture->settings, "container-manager", "docker");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (combo)), ==, 2);
  g_settings_set_string (fixture->settings, "container-manager", "podman");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (combo)), ==, 1);

  /* Combo → setting */
  adw_combo_row_set_selected (ADW_COMBO_ROW (combo), 0);
  value = g_settings_get_string (fixture->settings, "container-manager");
  g_assert_cmpstr (value, ==, "auto");
  g_free (value);
  adw_combo_row_set_selected (ADW_COMBO_ROW (combo), 2);
  value = g_settings_get_string (fixture->settings, "container-manager");
  g_assert_cmpstr (value, ==, "docker");
  g_free (value);
}

static void
test_confirm_stop (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *row;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  present_dialog (fixture);

  row = find_row (fixture, ADW_TYPE_SWITCH_ROW, "Ask Before Stopping a Box");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row)));

  /* Toggling the switch writes the setting */
  adw_switch_row_set_active (ADW_SWITCH_ROW (row), FALSE);
  g_assert_false (g_settings_get_boolean (fixture->settings, "confirm-stop"));

  /* And the setting moves the switch */
  g_settings_set_boolean (fixture->settings, "confirm-stop", TRUE);
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row)));
  g_settings_set_boolean (fixture->settings, "confirm-stop", FALSE);
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (row)));
}

/* The daily update check: off until people turn it on */
static void
test_check_updates (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *row;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  present_dialog (fixture);

  row = find_row (fixture, ADW_TYPE_SWITCH_ROW, "Check for Newer Images Daily");
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (row)));
  adw_switch_row_set_active (ADW_SWITCH_ROW (row), TRUE);
  g_assert_true (g_settings_get_boolean (fixture->settings, "check-updates"));
  g_settings_set_boolean (fixture->settings, "check-updates", FALSE);
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (row)));
}

/* The terminal's font and scrollback */
static void
test_terminal (Fixture       *fixture,
               gconstpointer  data)
{
  GtkWidget *system_row;
  GtkWidget *lines_row;
  g_autofree char *font = NULL;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  g_settings_reset (fixture->settings, "terminal-font");
  g_settings_reset (fixture->settings, "terminal-scrollback-lines");
  present_dialog (fixture);

  system_row = find_row (fixture, ADW_TYPE_SWITCH_ROW, "Use the System Font");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (system_row)));

  /* Off: a font of its own, which the setting keeps */
  adw_switch_row_set_active (ADW_SWITCH_ROW (system_row), FALSE);
  font = g_settings_get_string (fixture->settings, "terminal-font");
  g_assert_cmpstr (font, !=, "");
  g_settings_set_string (fixture->settings, "terminal-font", "Monospace 17");
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (system_row)));
  g_settings_set_string (fixture->settings, "terminal-font", "");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (system_row)));

  lines_row = find_row (fixture, ADW_TYPE_SPIN_ROW, "Scrollback Lines");
  g_assert_cmpfloat (adw_spin_row_get_value (ADW_SPIN_ROW (lines_row)), ==, 10000);
  adw_spin_row_set_value (ADW_SPIN_ROW (lines_row), 2500);
  g_assert_cmpint (g_settings_get_int (fixture->settings, "terminal-scrollback-lines"), ==, 2500);
}

static gboolean
detection_done (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *row = find_row (fixture, ADW_TYPE_COMBO_ROW, "Open Boxes In");
  GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (row));

  /* Kiste, and the chosen app, which this computer lacks */
  return model != NULL && g_list_model_get_n_items (model) == 2;
}

/* Where Open Terminal opens boxes */
static void
test_external_terminal (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *row;
  GListModel *model;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  g_settings_set_string (fixture->settings, "external-terminal", "xterm");
  present_dialog (fixture);

  g_assert_true (kiste_test_wait_for (detection_done, fixture, 10000));
  row = find_row (fixture, ADW_TYPE_COMBO_ROW, "Open Boxes In");
  model = adw_combo_row_get_model (ADW_COMBO_ROW (row));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 0), ==, "Kiste");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==, "XTerm");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (row)), ==, 1);

  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 0);
  {
    g_autofree char *chosen = g_settings_get_string (fixture->settings, "external-terminal");

    g_assert_cmpstr (chosen, ==, "");
  }
}

static gboolean
flatpaks_found (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *row = find_row (fixture, ADW_TYPE_COMBO_ROW, "Open Boxes In");
  GListModel *model = adw_combo_row_get_model (ADW_COMBO_ROW (row));

  return model != NULL && g_list_model_get_n_items (model) == 3;
}

/* Terminals installed as Flatpaks: the one that may run commands on the
 * host is offered, the other is named with the reason it is not */
static void
test_flatpak_terminals (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *row;
  GListModel *model;
  const char *subtitle;

  kiste_fake_runner_add (fixture->runner, "sh -c",
                         "printf 'program\\txterm\\n"
                         "flatpak\\torg.gnome.Console\\tuser\\n"
                         "permissions\\t[Session Bus Policy]\\n"
                         "permissions\\torg.freedesktop.Flatpak=talk\\n"
                         "flatpak\\torg.kde.konsole\\tsystem\\n"
                         "permissions\\t[Context]\\n"
                         "permissions\\tshared=ipc;\\n'");
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  present_dialog (fixture);

  g_assert_true (kiste_test_wait_for (flatpaks_found, fixture, 10000));
  row = find_row (fixture, ADW_TYPE_COMBO_ROW, "Open Boxes In");
  model = adw_combo_row_get_model (ADW_COMBO_ROW (row));
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 0), ==, "Kiste");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 1), ==, "GNOME Console (Flatpak)");
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (model), 2), ==, "XTerm");
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
  g_assert_nonnull (strstr (subtitle, "Konsole (Flatpak) cannot open boxes"));
  g_assert_null (strstr (subtitle, "GNOME Console"));

  adw_combo_row_set_selected (ADW_COMBO_ROW (row), 1);
  {
    g_autofree char *chosen = g_settings_get_string (fixture->settings, "external-terminal");

    g_assert_cmpstr (chosen, ==, "flatpak:org.gnome.Console");
  }
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/* Closing the dialog stops a search for terminal apps that hangs: the
 * dialog and its process go at once, not when the search gives up. */
static void
test_close_while_searching (Fixture       *fixture,
                            gconstpointer  data)
{
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sleep 60");
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", NULL);
  present_dialog (fixture);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "sh -c"), ==, 1);

  g_object_add_weak_pointer (G_OBJECT (fixture->dialog), (gpointer *) &fixture->dialog);
  adw_dialog_close (ADW_DIALOG (fixture->dialog));
  /* well before the search would give up (10 s) */
  g_assert_true (kiste_test_wait_for (is_null, &fixture->dialog, 5000));
}

static void
test_tools_missing (Fixture       *fixture,
                    gconstpointer  data)
{
  KisteCapabilities *caps = kiste_manager_get_capabilities (fixture->manager);
  GtkWidget *distrobox;
  GtkWidget *combo;
  GtkWidget *info;

  /* Not probed yet */
  present_dialog (fixture);
  distrobox = find_row (fixture, ADW_TYPE_ACTION_ROW, "Distrobox");
  combo = find_row (fixture, ADW_TYPE_COMBO_ROW, "Container Manager");
  info = find_row (fixture, ADW_TYPE_ACTION_ROW, "Container Manager");
  g_assert_cmpstr (row_subtitle (distrobox), ==, "Checking…");
  g_assert_cmpstr (row_subtitle (info), ==, "Checking…");
  g_assert_false (gtk_widget_get_visible (combo));

  /* Probed: nothing there, and the rows say why */
  _kiste_capabilities_set_for_testing (caps, NULL, NULL, NULL);
  g_assert_cmpstr (row_subtitle (distrobox), ==, kiste_capabilities_get_distrobox_problem (caps));
  g_assert_nonnull (kiste_capabilities_get_manager_problem (caps));
  g_assert_false (gtk_widget_get_visible (combo));
  g_assert_true (gtk_widget_get_visible (info));
  g_assert_cmpstr (row_subtitle (info), ==, kiste_capabilities_get_manager_problem (caps));
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_catch_crashes ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  kiste_register_resource ();

  /* The probes must see only the fake tools' answers */
  g_unsetenv ("DBX_CONTAINER_MANAGER");

  g_test_add ("/kiste/preferences/one-manager", Fixture, NULL,
              fixture_setup, test_one_manager, fixture_teardown);
  g_test_add ("/kiste/preferences/both-managers", Fixture, NULL,
              fixture_setup, test_both_managers, fixture_teardown);
  g_test_add ("/kiste/preferences/confirm-stop", Fixture, NULL,
              fixture_setup, test_confirm_stop, fixture_teardown);
  g_test_add ("/kiste/preferences/check-updates", Fixture, NULL,
              fixture_setup, test_check_updates, fixture_teardown);
  g_test_add ("/kiste/preferences/terminal", Fixture, NULL,
              fixture_setup, test_terminal, fixture_teardown);
  g_test_add ("/kiste/preferences/external-terminal", Fixture, NULL,
              fixture_setup, test_external_terminal, fixture_teardown);
  g_test_add ("/kiste/preferences/flatpak-terminals", Fixture, NULL,
              fixture_setup, test_flatpak_terminals, fixture_teardown);
  g_test_add ("/kiste/preferences/close-while-searching", Fixture, NULL,
              fixture_setup, test_close_while_searching, fixture_teardown);
  g_test_add ("/kiste/preferences/tools-missing", Fixture, NULL,
              fixture_setup, test_tools_missing, fixture_teardown);

  return g_test_run ();
}
