/* test-terminal-tab.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Terminal tabs with a real child on a real pty: the manager's argv runs,
 * and tests/fakes/terminal stands in for podman and distrobox (it prints
 * how it was called, then runs an interactive shell). */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "kiste-application-private.h"
#include "kiste-box-page.h"
#include "kiste-box-row.h"
#include "kiste-color-row.h"
#include "kiste-manager-private.h"
#include "kiste-terminal-tab.h"
#include "kiste-test-ui.h"
#include "kiste-window.h"

#define TIMEOUT_MS 10000

typedef struct
{
  KisteApplication *app;
  KisteManager     *manager;
  KisteWindow      *window;
  /* fixture-a is a temporary box, ps answers from this file */
  char             *ps_file;
  char             *inspect_file;
} Fixture;

static KisteApplication *app;

static gboolean
manager_loaded (gpointer data)
{
  Fixture *fixture = data;

  return kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->manager), "fixture-a") != NULL;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *path = NULL;

  fixture->app = g_object_ref (app);
  fixture->manager = kiste_test_manager_new (KISTE_TEST_WORLD_BOXES);
  path = g_strdup_printf ("%s/terminal:%s", g_getenv ("KISTE_TEST_FAKES"), g_getenv ("PATH"));
  kiste_runner_setenv (kiste_manager_get_runner (fixture->manager), "PATH", path);
  if (fixture->ps_file != NULL)
    {
      g_autofree char *quoted = g_shell_quote (fixture->ps_file);
      g_autofree char *script = g_strdup_printf ("cat %s", quoted);

      kiste_fake_runner_add (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)),
                             "podman ps", script);
    }
  if (fixture->inspect_file != NULL)
    {
      g_autofree char *quoted = g_shell_quote (fixture->inspect_file);
      g_autofree char *script = g_strdup_printf ("cat %s", quoted);

      kiste_fake_runner_add (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)),
                             "podman container inspect", script);
    }
  _kiste_application_set_manager (fixture->app, fixture->manager);

  g_settings_set_string (kiste_application_get_settings (fixture->app), "selected-box", "");
  fixture->window = kiste_window_new (fixture->app);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1100, 700);
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_true (kiste_test_wait_for (manager_loaded, fixture, TIMEOUT_MS));
}

/* inspect: box is an element of `podman container inspect` output, else
 * of `podman ps` */
typedef void (*BoxEdit) (JsonObject *box,
                         const char *name,
                         gboolean    inspect);

/* A fixture with each box changed by edit, in a temporary file */
static char *
write_edited (const char *fixture,
              gboolean    inspect,
              BoxEdit     edit)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), fixture, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  char *out;
  JsonArray *boxes;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  boxes = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (boxes); i++)
    {
      JsonObject *box = json_array_get_object_element (boxes, i);

      if (inspect)
        edit (box, json_object_get_string_member (box, "Name"), TRUE);
      else
        edit (box, json_array_get_string_element (json_object_get_array_member (box, "Names"), 0), FALSE);
    }
  text = json_to_string (json_parser_get_root (parser), FALSE);
  out = g_build_filename (g_get_tmp_dir (), "kiste-test-edited-XXXXXX.json", NULL);
  g_close (g_mkstemp (out), NULL);
  g_assert_true (g_file_set_contents (out, text, -1, &error));
  g_assert_no_error (error);
  return out;
}

/* The captured boxes, each changed by edit, as ps and inspect answer */
static void
fixture_setup_edited (Fixture       *fixture,
                      gconstpointer  data,
                      BoxEdit        edit)
{
  fixture->ps_file = write_edited ("ps-podman5.json", FALSE, edit);
  fixture->inspect_file = write_edited ("inspect-podman5.json", TRUE, edit);
  fixture_setup (fixture, data);
}

static void
label_temporary (JsonObject *box,
                 const char *name,
                 gboolean    inspect)
{
  JsonObject *labels = inspect ? json_object_get_object_member (json_object_get_object_member (box, "Config"),
                                                                "Labels")
                               : json_object_get_object_member (box, "Labels");

  if (g_str_equal (name, "fixture-a"))
    json_object_set_string_member (labels, KISTE_BOX_TEMPORARY_LABEL, "1");
}

/* The captured boxes, fixture-a labelled as a temporary box (Try an Image) */
static void
fixture_setup_temporary (Fixture       *fixture,
                         gconstpointer  data)
{
  fixture_setup_edited (fixture, data, label_temporary);
}

static void
make_fedora (JsonObject *box,
             const char *name,
             gboolean    inspect)
{
  if (g_str_equal (name, "fixture-c"))
    json_object_set_string_member (box, inspect ? "ImageName" : "Image",
                                   "registry.fedoraproject.org/fedora-toolbox:41");
}

/* The captured boxes, fixture-c a Fedora box (dnf, not apt) */
static void
fixture_setup_fedora (Fixture       *fixture,
                      gconstpointer  data)
{
  fixture_setup_edited (fixture, data, make_fedora);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
  kiste_test_flush_main_context ();
  g_clear_object (&fixture->manager);
  g_clear_object (&fixture->app);
  if (fixture->ps_file != NULL)
    g_unlink (fixture->ps_file);
  g_clear_pointer (&fixture->ps_file, g_free);
  if (fixture->inspect_file != NULL)
    g_unlink (fixture->inspect_file);
  g_clear_pointer (&fixture->inspect_file, g_free);
}

typedef struct
{
  KisteTerminalTab      *tab;
  KisteTerminalTabState  state;
  const char            *text;
} TabQuery;

static gboolean
tab_in_state (gpointer data)
{
  TabQuery *query = data;

  return kiste_terminal_tab_get_state (query->tab) == query->state;
}

static gboolean
tab_shows (gpointer data)
{
  TabQuery *query = data;
  g_autofree char *text = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (query->tab));

  return text != NULL && strstr (text, query->text) != NULL;
}

static void
wait_for_state (KisteTerminalTab      *tab,
                KisteTerminalTabState  state)
{
  TabQuery query = { tab, state, NULL };

  if (!kiste_test_wait_for (tab_in_state, &query, TIMEOUT_MS))
    {
      g_autofree char *text = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (tab));

      g_error ("tab in state %d, not %d; terminal shows:\n%s",
               kiste_terminal_tab_get_state (tab), state, g_strchomp (text));
    }
}

static void
wait_for_text (KisteTerminalTab *tab,
               const char       *needle)
{
  TabQuery query = { tab, 0, needle };

  if (!kiste_test_wait_for (tab_shows, &query, TIMEOUT_MS))
    {
      g_autofree char *text = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (tab));

      g_error ("terminal does not show “%s”:\n%s", needle, g_strchomp (text));
    }
}

static void
type (KisteTerminalTab *tab,
      const char       *text)
{
  vte_terminal_feed_child (VTE_TERMINAL (kiste_terminal_tab_get_terminal (tab)), text, -1);
}

static AdwBanner *
get_banner (KisteTerminalTab *tab)
{
  return ADW_BANNER (kiste_test_find_widget (GTK_WIDGET (tab), ADW_TYPE_BANNER, NULL));
}

/* starting → running → exited → restart → running, with a real child */
static void
test_states (Fixture       *fixture,
             gconstpointer  data)
{
  KisteTerminalTab *tab;
  AdwBanner *banner;

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  g_assert_nonnull (tab);
  g_assert_cmpint (kiste_terminal_tab_get_state (tab), ==, KISTE_TERMINAL_TAB_STARTING);
  g_assert_cmpint (kiste_terminal_tab_get_exit_status (tab), ==, -1);
  g_assert_cmpstr (kiste_terminal_tab_get_title (tab), ==, "fixture-a");

  wait_for_state (tab, KISTE_TERMINAL_TAB_RUNNING);
  wait_for_text (tab, "KISTE-FAKE-SHELL");
  wait_for_text (tab, "fake$ ");
  /* The shell in the box, through whichever door the core chose */
  g_assert_nonnull (strstr (kiste_terminal_tab_get_command (tab), "fixture-a"));
  banner = get_banner (tab);
  g_assert_false (adw_banner_get_revealed (banner));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-running");

  /* What is typed reaches the shell, and its output the terminal */
  type (tab, "echo $((6 * 7))-answer\n");
  wait_for_text (tab, "42-answer");

  type (tab, "exit 3\n");
  wait_for_state (tab, KISTE_TERMINAL_TAB_EXITED);
  g_assert_cmpint (kiste_terminal_tab_get_exit_status (tab), ==, 3);
  g_assert_true (adw_banner_get_revealed (banner));
  g_assert_nonnull (strstr (adw_banner_get_title (banner), "3"));
  g_assert_cmpstr (adw_banner_get_button_label (banner), ==, "_Restart");
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-exited");

  /* Restart runs a new shell in the same tab */
  type (tab, "echo lost\n");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (tab), "tab.restart", NULL));
  g_assert_false (adw_banner_get_revealed (banner));
  wait_for_state (tab, KISTE_TERMINAL_TAB_RUNNING);
  g_assert_cmpint (kiste_terminal_tab_get_exit_status (tab), ==, -1);
  type (tab, "echo restarted-$((1+1))\n");
  wait_for_text (tab, "restarted-2");
}

static gboolean
page_count_is (gpointer data)
{
  gpointer *args = data;

  return adw_tab_view_get_n_pages (args[0]) == GPOINTER_TO_INT (args[1]);
}

static AdwDialog *
find_alert (GtkWidget  *window,
            const char *heading)
{
  GtkWidget *dialog = kiste_test_find_widget (window, ADW_TYPE_ALERT_DIALOG, NULL);

  if (dialog != NULL && g_strcmp0 (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (dialog)), heading) == 0)
    return ADW_DIALOG (dialog);
  return NULL;
}

static gboolean
alert_shown (gpointer data)
{
  return find_alert (data, "Close Terminal?") != NULL;
}

static gboolean
remove_alert_shown (gpointer data)
{
  return find_alert (data, "Remove Temporary Box?") != NULL;
}

static gboolean
window_alert_shown (gpointer data)
{
  return find_alert (data, "Close Window?") != NULL;
}

static gboolean
has_foreground (gpointer data)
{
  return kiste_terminal_tab_has_foreground_process (data);
}

static gboolean
no_foreground (gpointer data)
{
  return !kiste_terminal_tab_has_foreground_process (data);
}

/* Ctrl+C until the foreground program is gone, as people press it again: a
 * shell that has just started a program may not have handed it SIGINT yet */
static void
interrupt (KisteTerminalTab *tab)
{
  g_autofree char *text = NULL;

  for (guint i = 0; i < 10; i++)
    {
      type (tab, "\003");
      if (kiste_test_wait_for (no_foreground, tab, TIMEOUT_MS / 10))
        return;
    }

  text = kiste_terminal_dup_text (kiste_terminal_tab_get_terminal (tab));
  g_error ("a program still runs after Ctrl+C (tab state %d):\n%s",
           kiste_terminal_tab_get_state (tab), text);
}

static gboolean
end_shell_asked (gpointer data)
{
  Fixture *fixture = data;
  GPtrArray *commands = kiste_fake_runner_get_commands (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)));

  for (guint i = 0; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);

      if (g_str_has_prefix (command, "podman exec --user root fixture-a sh -c ") &&
          strstr (command, "KISTE_TERMINAL_ID=") != NULL)
        return TRUE;
    }

  return FALSE;
}

/* Closing asks while a program runs in the tab, and only then */
static void
test_close_confirmation (Fixture       *fixture,
                         gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteTerminalTab *tab;
  AdwTabPage *page;
  AdwDialog *alert;
  gpointer two[] = { view, GINT_TO_POINTER (2) };
  gpointer one[] = { view, GINT_TO_POINTER (1) };

  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  page = adw_tab_view_get_page (view, GTK_WIDGET (tab));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 2);

  /* A program in the foreground */
  type (tab, "sleep 60\n");
  g_assert_true (kiste_test_wait_for (has_foreground, tab, TIMEOUT_MS));
  adw_tab_view_close_page (view, page);
  g_assert_true (kiste_test_wait_for (alert_shown, fixture->window, TIMEOUT_MS));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 2);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-close-confirmation");

  /* Cancel keeps the tab and its program */
  alert = find_alert (GTK_WIDGET (fixture->window), "Close Terminal?");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");
  g_signal_emit_by_name (alert, "response", "cancel");
  adw_dialog_force_close (alert);
  kiste_test_flush_main_context ();
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 2);
  g_assert_true (kiste_terminal_tab_has_foreground_process (tab));

  /* Once the program ended, the tab closes without asking */
  interrupt (tab);
  adw_tab_view_close_page (view, page);
  g_assert_true (kiste_test_wait_for (page_count_is, one, TIMEOUT_MS));
  g_assert_null (find_alert (GTK_WIDGET (fixture->window), "Close Terminal?"));

  /* Quitting asks too, and the window stays */
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  type (tab, "sleep 60\n");
  g_assert_true (kiste_test_wait_for (has_foreground, tab, TIMEOUT_MS));
  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "quit", NULL);
  g_assert_true (kiste_test_wait_for (window_alert_shown, fixture->window, TIMEOUT_MS));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (fixture->window)));
  alert = find_alert (GTK_WIDGET (fixture->window), "Close Window?");
  g_signal_emit_by_name (alert, "response", "cancel");
  adw_dialog_force_close (alert);
  interrupt (tab);
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (tab)));
  g_assert_true (kiste_test_wait_for (page_count_is, one, TIMEOUT_MS));

  /* And with a program, "Close" closes */
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  type (tab, "sleep 60\n");
  g_assert_true (kiste_test_wait_for (has_foreground, tab, TIMEOUT_MS));
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (tab)));
  g_assert_true (kiste_test_wait_for (alert_shown, fixture->window, TIMEOUT_MS));
  g_assert_true (page_count_is (two));
  alert = find_alert (GTK_WIDGET (fixture->window), "Close Terminal?");
  g_signal_emit_by_name (alert, "response", "close");
  g_assert_true (kiste_test_wait_for (page_count_is, one, TIMEOUT_MS));

  /* and what the closed shell left in the box is ended there */
  g_assert_true (kiste_test_wait_for (end_shell_asked, fixture, TIMEOUT_MS));
}

/* The row of box fixture-a below widget, or NULL */
static KisteBoxRow *
find_row (GtkWidget *widget)
{
  KisteBox *box;

  if (KISTE_IS_BOX_ROW (widget) &&
      (box = kiste_box_row_get_box (KISTE_BOX_ROW (widget))) != NULL &&
      g_str_equal (kiste_box_get_name (box), "fixture-a"))
    return KISTE_BOX_ROW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      KisteBoxRow *row = find_row (child);

      if (row != NULL)
        return row;
    }

  return NULL;
}

static gboolean
row_counts (gpointer data)
{
  gpointer *args = data;
  KisteBoxRow *row = find_row (args[0]);

  return row != NULL && kiste_box_row_get_terminal_count (row) == GPOINTER_TO_UINT (args[1]);
}

/* Ctrl+T opens the box's shell, Ctrl+Shift+T another in the same folder;
 * rows count the tabs of their box */
static void
test_shortcuts_and_count (Fixture       *fixture,
                          gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  g_autofree char *cwd = g_dir_make_tmp ("kiste-tab-XXXXXX", NULL);
  KisteTerminalTab *tab;
  KisteTerminalTab *second;
  gpointer count_two[] = { fixture->window, GUINT_TO_POINTER (2) };
  gpointer count_none[] = { fixture->window, GUINT_TO_POINTER (0) };

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", cwd);
  wait_for_text (tab, "fake$ ");

  /* The same box and folder */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.new-tab-here", NULL));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 3);
  second = KISTE_TERMINAL_TAB (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)));
  g_assert_true (second != tab);
  g_assert_cmpstr (kiste_terminal_tab_get_box_name (second), ==, "fixture-a");
  wait_for_text (second, "fake$ ");
  g_assert_true (kiste_test_wait_for (row_counts, count_two, TIMEOUT_MS));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-two-tabs");

  /* The row's count follows closing */
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (second)));
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (tab)));
  g_assert_true (kiste_test_wait_for (row_counts, count_none, TIMEOUT_MS));

  g_rmdir (cwd);
}

static gboolean
icon_is_bytes (gpointer data)
{
  return G_IS_BYTES_ICON (kiste_terminal_tab_get_icon (data));
}

static gboolean
icon_is_themed (gpointer data)
{
  return G_IS_THEMED_ICON (kiste_terminal_tab_get_icon (data));
}

/* A box's colour reaches its tabs (their icon) and goes again */
static void
test_box_color (Fixture       *fixture,
                gconstpointer  data)
{
  GSettings *settings = kiste_application_get_settings (fixture->app);
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteTerminalTab *tab;
  AdwTabPage *page;
  GBytes *bytes;
  g_autofree char *svg = NULL;
  GdkRGBA color;

  kiste_box_color_set (settings, "fixture-a", NULL);
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  page = adw_tab_view_get_page (view, GTK_WIDGET (tab));
  g_assert_true (G_IS_THEMED_ICON (kiste_terminal_tab_get_icon (tab)));

  kiste_box_color_set (settings, "fixture-a", "purple");
  g_assert_true (kiste_box_color_lookup (settings, "fixture-a", &color));
  g_assert_false (kiste_box_color_lookup (settings, "fixture-b", &color));
  g_assert_true (kiste_test_wait_for (icon_is_bytes, tab, TIMEOUT_MS));
  bytes = g_bytes_icon_get_bytes (G_BYTES_ICON (kiste_terminal_tab_get_icon (tab)));
  svg = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_assert_nonnull (strstr (svg, "#9141ac"));
  /* the page in the tab bar shows it */
  g_assert_true (adw_tab_page_get_icon (page) == kiste_terminal_tab_get_icon (tab));
  wait_for_text (tab, "fake$ ");
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-box-color");

  /* A new tab of the box gets it at once */
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  g_assert_true (G_IS_BYTES_ICON (kiste_terminal_tab_get_icon (tab)));

  kiste_box_color_set (settings, "fixture-a", "");
  g_assert_true (kiste_test_wait_for (icon_is_themed, tab, TIMEOUT_MS));
}

/* From a box tab, a host shell in the same folder without /run/host; a
 * folder this computer lacks opens the home folder and says so */
static void
test_host_terminal_here (Fixture       *fixture,
                         gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  g_autofree char *dir = g_dir_make_tmp ("kiste-host-XXXXXX", NULL);
  g_autofree char *in_box = g_strconcat ("/run/host", dir, NULL);
  g_autofree char *pwd_line = NULL;
  g_autofree char *real = NULL;
  KisteTerminalTab *tab;
  KisteTerminalTab *host;
  g_autofree char *shell = NULL;
  AdwBanner *banner;

  /* The user's $SHELL, here one without the machine's startup files */
  shell = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "terminal", "host-shell", NULL);
  kiste_runner_setenv (kiste_manager_get_runner (fixture->manager), "SHELL", shell);

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", in_box);
  wait_for_text (tab, "fake$ ");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.host-terminal-here", NULL));
  host = KISTE_TERMINAL_TAB (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)));
  g_assert_true (host != tab);
  g_assert_cmpint (kiste_terminal_tab_get_kind (host), ==, KISTE_TERMINAL_TAB_HOST);
  wait_for_state (host, KISTE_TERMINAL_TAB_RUNNING);
  wait_for_text (host, "KISTE-HOST-SHELL");
  wait_for_text (host, "host$ ");
  real = realpath (dir, NULL);
  pwd_line = g_strdup_printf ("host-pwd=%s", real);
  type (host, "echo host-pwd=$(pwd -P)\n");
  wait_for_text (host, pwd_line);
  g_assert_false (adw_banner_get_revealed (get_banner (host)));

  /* A folder only the box has */
  host = kiste_terminal_tab_new (kiste_application_get_manager (fixture->app),
                                 KISTE_TERMINAL_TAB_HOST, NULL, "/run/host/nonexistent-kiste-dir");
  gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.close-tab", NULL);
  adw_tab_view_append (view, GTK_WIDGET (host));
  kiste_terminal_tab_start (host);
  wait_for_state (host, KISTE_TERMINAL_TAB_RUNNING);
  banner = get_banner (host);
  g_assert_true (adw_banner_get_revealed (banner));
  g_assert_nonnull (strstr (adw_banner_get_title (banner), "/run/host/nonexistent-kiste-dir"));

  g_rmdir (dir);
}

/* The terminal follows the font and scrollback settings live */
static void
test_settings (Fixture       *fixture,
               gconstpointer  data)
{
  GSettings *settings = kiste_application_get_settings (fixture->app);
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  VteTerminal *terminal = VTE_TERMINAL (kiste_terminal_tab_get_terminal (tab));

  g_settings_set_int (settings, "terminal-scrollback-lines", 1234);
  g_assert_cmpint (vte_terminal_get_scrollback_lines (terminal), ==, 1234);
  g_settings_set_string (settings, "terminal-font", "Monospace 17");
  g_assert_cmpint (pango_font_description_get_size (vte_terminal_get_font (terminal)), ==,
                   17 * PANGO_SCALE);
  g_settings_reset (settings, "terminal-font");
  g_settings_reset (settings, "terminal-scrollback-lines");
  g_assert_cmpint (vte_terminal_get_scrollback_lines (terminal), ==, 10000);

  /* Zoom */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (terminal), "term.zoom-in", NULL));
  g_assert_cmpfloat (vte_terminal_get_font_scale (terminal), >, 1.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (terminal), "term.zoom-reset", NULL));
  g_assert_cmpfloat (vte_terminal_get_font_scale (terminal), ==, 1.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (terminal), "term.zoom-out", NULL));
  g_assert_cmpfloat (vte_terminal_get_font_scale (terminal), <, 1.0);
}

static gboolean
tab_settled (gpointer data)
{
  KisteTerminalTabState state = kiste_terminal_tab_get_state (data);

  return state == KISTE_TERMINAL_TAB_FAILED || state == KISTE_TERMINAL_TAB_RUNNING;
}

/* A stopped box whose start fails: the tab says why and keeps the log */
static void
test_start_fails (Fixture       *fixture,
                  gconstpointer  data)
{
  KisteTerminalTab *tab;
  AdwBanner *banner;

  tab = kiste_window_open_terminal (fixture->window, "fixture-b", NULL);
  g_assert_cmpint (kiste_terminal_tab_get_state (tab), ==, KISTE_TERMINAL_TAB_STARTING);
  g_assert_true (kiste_test_wait_for (tab_settled, tab, 60000));
  g_assert_cmpint (kiste_terminal_tab_get_state (tab), ==, KISTE_TERMINAL_TAB_FAILED);
  banner = get_banner (tab);
  g_assert_true (adw_banner_get_revealed (banner));
  g_assert_cmpstr (adw_banner_get_button_label (banner), ==, "_Try Again");
  /* the message is in the terminal too, where it can be copied */
  wait_for_text (tab, adw_banner_get_title (banner));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-failed");
}

/* Moves tab out of the fixture's window as a drop outside it does: the
 * tab view asks for a new window, and the tab goes there after its pinned
 * details tab. Returns that window; its tab view in other_view. */
static GtkWidget *
move_to_new_window (Fixture           *fixture,
                    KisteTerminalTab  *tab,
                    AdwTabView       **other_view)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  AdwTabView *new_view = NULL;
  GtkWidget *window;

  g_signal_emit_by_name (view, "create-window", &new_view);
  g_assert_true (ADW_IS_TAB_VIEW (new_view));
  window = GTK_WIDGET (gtk_widget_get_root (GTK_WIDGET (new_view)));
  g_assert_true (KISTE_IS_WINDOW (window));
  g_assert_true (window != GTK_WIDGET (fixture->window));

  adw_tab_view_transfer_page (view, adw_tab_view_get_page (view, GTK_WIDGET (tab)), new_view, 1);
  g_assert_nonnull (adw_tab_view_get_page (new_view, GTK_WIDGET (tab)));

  if (other_view != NULL)
    *other_view = new_view;
  return window;
}

/* A tab dragged out gets a window of its own, keeps its shell, and can
 * come back; each window counts the tabs it has */
static void
test_move_to_window (Fixture       *fixture,
                     gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  AdwTabView *other_view = NULL;
  GtkWidget *other_window;
  KisteTerminalTab *tab;
  AdwTabPage *page;
  gpointer here_one[] = { fixture->window, GUINT_TO_POINTER (1) };
  gpointer here_none[] = { fixture->window, GUINT_TO_POINTER (0) };
  gpointer there_one[] = { NULL, GUINT_TO_POINTER (1) };
  gpointer there_none[] = { NULL, GUINT_TO_POINTER (0) };

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  g_assert_true (kiste_test_wait_for (row_counts, here_one, TIMEOUT_MS));

  other_window = move_to_new_window (fixture, tab, &other_view);
  there_one[0] = there_none[0] = other_window;
  page = adw_tab_view_get_page (other_view, GTK_WIDGET (tab));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);
  g_assert_true (kiste_test_wait_for (row_counts, here_none, TIMEOUT_MS));
  g_assert_true (kiste_test_wait_for (row_counts, there_one, TIMEOUT_MS));
  g_assert_cmpstr (adw_tab_page_get_title (page), ==, kiste_terminal_tab_get_title (tab));

  /* The same shell, in the other window */
  g_assert_cmpint (kiste_terminal_tab_get_state (tab), ==, KISTE_TERMINAL_TAB_RUNNING);
  type (tab, "echo moved-$((2+3))\n");
  wait_for_text (tab, "moved-5");

  /* and back */
  adw_tab_view_transfer_page (other_view, page, view, 1);
  g_assert_true (kiste_test_wait_for (row_counts, here_one, TIMEOUT_MS));
  g_assert_true (kiste_test_wait_for (row_counts, there_none, TIMEOUT_MS));
  type (tab, "echo back-$((3+4))\n");
  wait_for_text (tab, "back-7");

  gtk_window_destroy (GTK_WINDOW (other_window));
}

/* Ctrl+Shift+O's overview shows every tab, and its New Tab opens a shell
 * in the selected box */
static void
test_overview (Fixture       *fixture,
               gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  AdwTabOverview *overview;
  AdwTabPage *page = NULL;
  KisteTerminalTab *tab;

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.tab-overview", NULL));
  overview = ADW_TAB_OVERVIEW (kiste_test_find_widget (GTK_WIDGET (fixture->window),
                                                       ADW_TYPE_TAB_OVERVIEW, NULL));
  g_assert_nonnull (overview);
  g_assert_true (adw_tab_overview_get_open (overview));
  g_assert_true (adw_tab_overview_get_view (overview) == view);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-overview");

  /* its New Tab: a shell in the selected box */
  g_signal_emit_by_name (overview, "create-tab", &page);
  g_assert_nonnull (page);
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 3);
  g_assert_true (KISTE_IS_TERMINAL_TAB (adw_tab_page_get_child (page)));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.tab-overview", NULL));
  g_assert_false (adw_tab_overview_get_open (overview));
}

static void
read_text_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

static gboolean
pointer_set (gpointer data)
{
  return *(char **) data != NULL;
}

/* Copy (and select all) from the terminal's actions; the bell marks the tab */
static void
test_copy_and_bell (Fixture       *fixture,
                    gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  GtkWidget *terminal = GTK_WIDGET (kiste_terminal_tab_get_terminal (tab));
  g_autofree char *copied = NULL;
  AdwTabPage *page;

  wait_for_text (tab, "fake$ ");
  type (tab, "echo copy-$((20+1))\n");
  wait_for_text (tab, "copy-21");

  g_assert_true (gtk_widget_activate_action (terminal, "term.select-all", NULL));
  g_assert_true (vte_terminal_get_has_selection (VTE_TERMINAL (terminal)));
  g_assert_true (gtk_widget_activate_action (terminal, "term.copy", NULL));
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (terminal), NULL, read_text_cb, &copied);
  g_assert_true (kiste_test_wait_for (pointer_set, &copied, TIMEOUT_MS));
  g_assert_nonnull (strstr (copied, "copy-21"));

  /* A bell in a tab that is not on screen marks it */
  page = adw_tab_view_get_page (view, GTK_WIDGET (tab));
  adw_tab_view_set_selected_page (view, adw_tab_view_get_nth_page (view, 0));
  g_assert_false (adw_tab_page_get_needs_attention (page));
  type (tab, "printf '\\a'\n");
  g_assert_true (kiste_test_wait_for ((gpointer) kiste_terminal_tab_get_needs_attention, tab, TIMEOUT_MS));
  g_assert_true (adw_tab_page_get_needs_attention (page));
  /* and looking at it clears the mark */
  adw_tab_view_set_selected_page (view, page);
  g_assert_false (kiste_terminal_tab_get_needs_attention (tab));
}

static gboolean
command_asked (Fixture    *fixture,
               const char *command)
{
  GPtrArray *commands = kiste_fake_runner_get_commands (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)));

  for (guint i = 0; i < commands->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (commands, i), command))
        return TRUE;
    }

  return FALSE;
}

static gboolean
xterm_asked (gpointer data)
{
  return command_asked (data, "xterm -e distrobox enter --name fixture-a --no-workdir");
}

static gboolean
flatpak_ptyxis_asked (gpointer data)
{
  return command_asked (data, "flatpak run app.devsuite.Ptyxis --new-window -- "
                              "distrobox enter --name fixture-a --no-workdir");
}

static gboolean
box_removed (gpointer data)
{
  Fixture *fixture = data;
  GPtrArray *commands = kiste_fake_runner_get_commands (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)));

  for (guint i = 0; i < commands->len; i++)
    {
      if (g_str_has_prefix (g_ptr_array_index (commands, i), "distrobox rm --force") &&
          g_str_has_suffix (g_ptr_array_index (commands, i), " fixture-a"))
        return TRUE;
    }

  return FALSE;
}

static void
answer_alert (Fixture    *fixture,
              const char *response)
{
  AdwDialog *alert = find_alert (GTK_WIDGET (fixture->window), "Remove Temporary Box?");

  g_assert_nonnull (alert);
  g_signal_emit_by_name (alert, "response", response);
  adw_dialog_force_close (alert);
  kiste_test_flush_main_context ();
}

/* A temporary box (Try an Image): found at the start and offered for
 * removal; Keep keeps it. Its last tab closing asks again, Remove removes
 * it; a tab that is not the last closes without asking. */
static void
test_temporary (Fixture       *fixture,
                gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteTerminalTab *first;
  KisteTerminalTab *second;
  gpointer two[] = { view, GINT_TO_POINTER (2) };
  gpointer one[] = { view, GINT_TO_POINTER (1) };

  g_assert_true (kiste_test_wait_for (remove_alert_shown, fixture->window, TIMEOUT_MS));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "temporary-box-left-behind");
  answer_alert (fixture, "keep");
  g_assert_false (box_removed (fixture));

  first = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  second = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (first, "fake$ ");
  wait_for_text (second, "fake$ ");

  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (second)));
  g_assert_true (kiste_test_wait_for (page_count_is, two, TIMEOUT_MS));
  kiste_test_flush_main_context ();
  g_assert_null (find_alert (GTK_WIDGET (fixture->window), "Remove Temporary Box?"));

  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (first)));
  g_assert_true (kiste_test_wait_for (page_count_is, one, TIMEOUT_MS));
  g_assert_true (kiste_test_wait_for (remove_alert_shown, fixture->window, TIMEOUT_MS));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "temporary-box-remove");
  answer_alert (fixture, "remove");
  g_assert_true (kiste_test_wait_for (box_removed, fixture, TIMEOUT_MS));
}

/* Tabs of a temporary box in two windows (one dragged out): closing the
 * first asks nothing, in neither window; the last one, in the other window,
 * asks there */
static void
test_temporary_two_windows (Fixture       *fixture,
                            gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  AdwTabView *other_view = NULL;
  GtkWidget *other_window;
  KisteTerminalTab *first;
  KisteTerminalTab *second;
  AdwDialog *alert;
  gpointer one[] = { view, GINT_TO_POINTER (1) };
  gpointer other_one[] = { NULL, GINT_TO_POINTER (1) };

  g_assert_true (kiste_test_wait_for (remove_alert_shown, fixture->window, TIMEOUT_MS));
  answer_alert (fixture, "keep");

  first = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  second = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (first, "fake$ ");
  wait_for_text (second, "fake$ ");

  /* the second tab dragged into a window of its own */
  other_window = move_to_new_window (fixture, second, &other_view);
  other_one[0] = other_view;

  /* each window has one tab of the box: not the last one */
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (first)));
  g_assert_true (kiste_test_wait_for (page_count_is, one, TIMEOUT_MS));
  kiste_test_flush_main_context ();
  g_assert_null (find_alert (GTK_WIDGET (fixture->window), "Remove Temporary Box?"));
  g_assert_null (find_alert (other_window, "Remove Temporary Box?"));

  /* the box's last tab, wherever it is */
  adw_tab_view_close_page (other_view, adw_tab_view_get_page (other_view, GTK_WIDGET (second)));
  g_assert_true (kiste_test_wait_for (page_count_is, other_one, TIMEOUT_MS));
  g_assert_true (kiste_test_wait_for (remove_alert_shown, other_window, TIMEOUT_MS));
  g_assert_null (find_alert (GTK_WIDGET (fixture->window), "Remove Temporary Box?"));
  kiste_test_screenshot (other_window, "temporary-box-remove-other-window");
  alert = find_alert (other_window, "Remove Temporary Box?");
  g_signal_emit_by_name (alert, "response", "remove");
  adw_dialog_force_close (alert);
  g_assert_true (kiste_test_wait_for (box_removed, fixture, TIMEOUT_MS));

  gtk_window_destroy (GTK_WINDOW (other_window));
}

static gboolean
window_gone (gpointer data)
{
  GWeakRef *ref = data;
  g_autoptr(GObject) window = g_weak_ref_get (ref);

  return window == NULL || !gtk_widget_get_visible (GTK_WIDGET (window));
}

/* A window that closes with the last tab of a temporary box, while another
 * window stays, asks first; Keep keeps the box, and the window closes */
static void
test_temporary_window_close (Fixture       *fixture,
                             gconstpointer  data)
{
  GtkWidget *other_window;
  KisteTerminalTab *tab;
  AdwDialog *alert;
  GWeakRef ref;

  g_assert_true (kiste_test_wait_for (remove_alert_shown, fixture->window, TIMEOUT_MS));
  answer_alert (fixture, "keep");

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  other_window = move_to_new_window (fixture, tab, NULL);

  gtk_window_close (GTK_WINDOW (other_window));
  g_assert_true (kiste_test_wait_for (remove_alert_shown, other_window, TIMEOUT_MS));
  g_assert_true (gtk_widget_get_visible (other_window));
  g_assert_null (find_alert (GTK_WIDGET (fixture->window), "Remove Temporary Box?"));

  g_weak_ref_init (&ref, other_window);
  alert = find_alert (other_window, "Remove Temporary Box?");
  g_signal_emit_by_name (alert, "response", "keep");
  adw_dialog_force_close (alert);
  g_assert_true (kiste_test_wait_for (window_gone, &ref, TIMEOUT_MS));
  g_weak_ref_clear (&ref);

  g_assert_nonnull (kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->manager), "fixture-a"));
  g_assert_cmpuint (kiste_fake_runner_count (KISTE_FAKE_RUNNER (kiste_manager_get_runner (fixture->manager)),
                                             "distrobox rm"), ==, 0);
}

static gboolean
install_alert_shown (gpointer data)
{
  return find_alert (data, "Install Package File?") != NULL;
}

static gboolean
install_alert_shown_other (gpointer data)
{
  return find_alert (data, "Install in Another Box?") != NULL;
}

static KisteTerminalTab *
selected_tab (AdwTabView *view)
{
  GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_selected_page (view));

  return KISTE_IS_TERMINAL_TAB (child) ? KISTE_TERMINAL_TAB (child) : NULL;
}

/* A package file: the boxes whose package manager takes it are offered,
 * the chosen one installs it in a tab, as the box sees the file */
static void
test_install_package (Fixture       *fixture,
                      gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-package-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "hello_1.0_all.deb", NULL);
  g_autofree char *expected = g_strdup_printf ("sudo apt-get install -y -- /run/host%s", path);
  g_autofree char *text_path = g_build_filename (dir, "notes.txt", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) text_file = g_file_new_for_path (text_path);
  gpointer two[] = { view, GINT_TO_POINTER (2) };
  AdwDialog *alert;
  KisteTerminalTab *tab;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, "!<arch>\n", -1, &error));

  /* not a package: nothing is offered */
  kiste_window_install_package_file (fixture->window, text_file);
  kiste_test_flush_main_context ();
  g_assert_false (install_alert_shown (fixture->window));

  kiste_window_install_package_file (fixture->window, file);
  g_assert_true (kiste_test_wait_for (install_alert_shown, fixture->window, TIMEOUT_MS));
  alert = find_alert (GTK_WIDGET (fixture->window), "Install Package File?");
  /* the captured boxes are all Debian */
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-a"));
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-b"));
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "cancel"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "install-package-choose-box");
  g_signal_emit_by_name (alert, "response", "fixture-a");
  adw_dialog_force_close (alert);

  g_assert_true (kiste_test_wait_for (page_count_is, two, TIMEOUT_MS));
  tab = selected_tab (view);
  g_assert_nonnull (tab);
  g_assert_cmpstr (kiste_terminal_tab_get_box_name (tab), ==, "fixture-a");
  wait_for_text (tab, expected);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "install-package-tab");

  g_unlink (path);
  g_rmdir (dir);
}

static KisteBoxRow *
find_row_named (GtkWidget  *widget,
                const char *name)
{
  KisteBox *box;

  if (KISTE_IS_BOX_ROW (widget) &&
      (box = kiste_box_row_get_box (KISTE_BOX_ROW (widget))) != NULL &&
      g_str_equal (kiste_box_get_name (box), name))
    return KISTE_BOX_ROW (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      KisteBoxRow *row = find_row_named (child, name);

      if (row != NULL)
        return row;
    }

  return NULL;
}

/* Drops file on widget the way a drag from a file manager ends: its own
 * drop target, asked whether it takes a file list, gets one in "drop" */
static void
drop_file (GtkWidget *widget,
           GFile     *file)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr(GdkContentFormats) formats = gdk_content_formats_new_for_gtype (GDK_TYPE_FILE_LIST);
  g_auto(GValue) value = G_VALUE_INIT;
  g_autoptr(GSList) files = g_slist_prepend (NULL, file);
  GtkDropTarget *target = NULL;
  gboolean dropped = FALSE;

  for (guint i = 0; target == NULL && i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  g_assert_true (gdk_content_formats_match (gtk_drop_target_get_formats (target), formats));
  g_assert_true (gtk_drop_target_get_actions (target) & GDK_ACTION_COPY);

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &dropped);
  g_assert_true (dropped);
}

static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if ((GTK_IS_LABEL (child) && gtk_widget_get_mapped (child) &&
           g_str_equal (gtk_label_get_text (GTK_LABEL (child)), text)) ||
          has_label (child, text))
        return TRUE;
    }

  return FALSE;
}

static gboolean
toast_shown (gpointer data)
{
  gpointer *args = data;

  return has_label (args[0], args[1]);
}

/* Selects box_name in the list, as a click on its row does */
static void
select_box (KisteWindow *window,
            const char  *box_name)
{
  GtkListView *list = GTK_LIST_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (find_row_named (GTK_WIDGET (window), box_name)),
                                                              GTK_TYPE_LIST_VIEW));
  GtkSelectionModel *model = gtk_list_view_get_model (list);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (G_LIST_MODEL (model), i);

      if (g_str_equal (kiste_box_get_name (box), box_name))
        gtk_selection_model_select_item (model, i, TRUE);
    }
  kiste_test_flush (GTK_WIDGET (window));
}

/* The names of the rows below widget the list shows as selected */
static void
collect_selected_rows (GtkWidget *widget,
                       GString   *names)
{
  KisteBox *box;

  if (KISTE_IS_BOX_ROW (widget) &&
      (box = kiste_box_row_get_box (KISTE_BOX_ROW (widget))) != NULL &&
      (gtk_widget_get_state_flags (gtk_widget_get_parent (widget)) & GTK_STATE_FLAG_SELECTED) != 0)
    g_string_append_printf (names, "%s%s", names->len > 0 ? " " : "", kiste_box_get_name (box));

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_selected_rows (child, names);
}

/* window's list and details agree on box_name: its selection, the row
 * shown as selected, and the details of that box */
static void
assert_window_shows_box (GtkWidget  *window,
                         const char *box_name)
{
  GtkWidget *list = kiste_test_find_widget (window, GTK_TYPE_LIST_VIEW, "Boxes");
  GtkSingleSelection *selection;
  g_autoptr(GString) rows = g_string_new (NULL);
  KisteBox *selected;
  GtkWidget *page;
  GtkWidget *stack;

  g_assert_nonnull (list);
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), !=, GTK_INVALID_LIST_POSITION);
  selected = gtk_single_selection_get_selected_item (selection);
  g_assert_cmpstr (kiste_box_get_name (selected), ==, box_name);

  kiste_test_flush (window);
  collect_selected_rows (list, rows);
  g_assert_cmpstr (rows->str, ==, box_name);

  page = kiste_test_find_widget (window, KISTE_TYPE_BOX_PAGE, NULL);
  g_assert_nonnull (page);
  stack = gtk_widget_get_ancestor (page, GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "box");
  g_assert_true (kiste_box_page_get_box (KISTE_BOX_PAGE (page)) == selected);
}

/* A window made for a dragged-out tab starts as the first window did: the
 * box the settings remember (or the first one) selected in its list and
 * shown in its details, never a selected row beside "No Box Selected" */
static void
test_new_window_selection (Fixture       *fixture,
                           gconstpointer  data)
{
  GSettings *settings = kiste_application_get_settings (fixture->app);
  AdwTabView *other_view = NULL;
  GtkWidget *other_window;
  KisteTerminalTab *tab;
  g_autofree char *remembered = NULL;

  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  select_box (fixture->window, "fixture-c");
  remembered = g_settings_get_string (settings, "selected-box");
  g_assert_cmpstr (remembered, ==, "fixture-c");

  other_window = move_to_new_window (fixture, tab, &other_view);
  assert_window_shows_box (other_window, "fixture-c");
  adw_tab_view_set_selected_page (other_view, adw_tab_view_get_nth_page (other_view, 0));
  kiste_test_screenshot (other_window, "terminal-new-window");
  gtk_window_destroy (GTK_WINDOW (other_window));

  /* a remembered box that is gone: the first one */
  g_settings_set_string (settings, "selected-box", "fixture-gone");
  tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  other_window = move_to_new_window (fixture, tab, NULL);
  assert_window_shows_box (other_window, "fixture-a");
  gtk_window_destroy (GTK_WINDOW (other_window));
}

/* A package file dropped on a box's row is for that box: no choosing when
 * it takes the file, and when it does not, it says so and offers the boxes
 * that do (fixture-c is a Fedora box here). Dropped on the box page, the shown box's. */
static void
test_install_package_drop (Fixture       *fixture,
                           gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-package-XXXXXX", &error);
  g_autofree char *deb = g_build_filename (dir, "hello_1.0_all.deb", NULL);
  g_autofree char *rpm = g_build_filename (dir, "hello-1.0.noarch.rpm", NULL);
  g_autofree char *apk = g_build_filename (dir, "hello-1.0.apk", NULL);
  g_autofree char *expected = g_strdup_printf ("sudo apt-get install -y -- /run/host%s", deb);
  g_autoptr(GFile) deb_file = g_file_new_for_path (deb);
  g_autoptr(GFile) rpm_file = g_file_new_for_path (rpm);
  g_autoptr(GFile) apk_file = g_file_new_for_path (apk);
  gpointer two[] = { view, GINT_TO_POINTER (2) };
  gpointer nobody[] = { fixture->window,
                        (gpointer) "“fixture-a” cannot install “hello-1.0.apk”, and no other box can: "
                        "their package managers take other files" };
  KisteBoxRow *row;
  GtkWidget *page;
  AdwDialog *alert;
  KisteTerminalTab *tab;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (deb, "!<arch>\n", -1, &error));
  g_assert_true (g_file_set_contents (rpm, "\xed\xab\xee\xdb", -1, &error));
  g_assert_true (g_file_set_contents (apk, "", -1, &error));

  /* a .deb on a Debian box: that box, nothing to choose */
  row = find_row_named (GTK_WIDGET (fixture->window), "fixture-a");
  g_assert_nonnull (row);
  drop_file (GTK_WIDGET (row), deb_file);
  g_assert_true (kiste_test_wait_for (install_alert_shown, fixture->window, TIMEOUT_MS));
  alert = find_alert (GTK_WIDGET (fixture->window), "Install Package File?");
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-a"));
  g_assert_cmpstr (adw_alert_dialog_get_response_label (ADW_ALERT_DIALOG (alert), "fixture-a"), ==,
                   "_Install");
  g_assert_cmpstr (adw_alert_dialog_get_default_response (ADW_ALERT_DIALOG (alert)), ==, "fixture-a");
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-b"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-c"));
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (alert)), "“fixture-a”"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "install-package-drop-on-row");
  g_signal_emit_by_name (alert, "response", "fixture-a");
  adw_dialog_force_close (alert);

  g_assert_true (kiste_test_wait_for (page_count_is, two, TIMEOUT_MS));
  tab = selected_tab (view);
  g_assert_nonnull (tab);
  g_assert_cmpstr (kiste_terminal_tab_get_box_name (tab), ==, "fixture-a");
  wait_for_text (tab, expected);
  adw_tab_view_close_page (view, adw_tab_view_get_page (view, GTK_WIDGET (tab)));

  /* an .rpm on a Debian box: said, and the Fedora box offered */
  drop_file (GTK_WIDGET (row), rpm_file);
  g_assert_true (kiste_test_wait_for (install_alert_shown_other, fixture->window, TIMEOUT_MS));
  alert = find_alert (GTK_WIDGET (fixture->window), "Install in Another Box?");
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (alert)),
                            "“fixture-a” cannot install “hello-1.0.noarch.rpm”"));
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-c"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-a"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-b"));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "install-package-drop-other-box");
  g_signal_emit_by_name (alert, "response", "cancel");
  adw_dialog_force_close (alert);
  kiste_test_flush_main_context ();

  /* an .apk nobody takes: a toast naming the box */
  drop_file (GTK_WIDGET (row), apk_file);
  g_assert_true (kiste_test_wait_for (toast_shown, nobody, TIMEOUT_MS));
  g_assert_false (install_alert_shown (fixture->window));

  /* on the box page: the shown box */
  select_box (fixture->window, "fixture-c");
  page = kiste_test_find_widget (GTK_WIDGET (fixture->window), KISTE_TYPE_BOX_PAGE, NULL);
  g_assert_nonnull (page);
  g_assert_true (gtk_widget_get_mapped (page));
  /* the target is around the page */
  drop_file (gtk_widget_get_parent (page), rpm_file);
  g_assert_true (kiste_test_wait_for (install_alert_shown, fixture->window, TIMEOUT_MS));
  alert = find_alert (GTK_WIDGET (fixture->window), "Install Package File?");
  g_assert_true (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-c"));
  g_assert_false (adw_alert_dialog_has_response (ADW_ALERT_DIALOG (alert), "fixture-a"));
  g_signal_emit_by_name (alert, "response", "cancel");
  adw_dialog_force_close (alert);
  kiste_test_flush_main_context ();

  g_unlink (deb);
  g_unlink (rpm);
  g_unlink (apk);
  g_rmdir (dir);
}

/* The action a key combination on the terminal runs, through its
 * shortcut controller (what Ctrl+Shift+V and the like do) */
static char *
dup_shortcut_action (GtkWidget       *terminal,
                     guint            keyval,
                     GdkModifierType  mods)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (terminal);
  g_autoptr(GtkShortcutTrigger) wanted = gtk_keyval_trigger_new (keyval, mods);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted) &&
              GTK_IS_NAMED_ACTION (action))
            return g_strdup (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
        }
    }

  return NULL;
}

static void
press (GtkWidget       *terminal,
       guint            keyval,
       GdkModifierType  mods)
{
  g_autofree char *action = dup_shortcut_action (terminal, keyval, mods);

  g_assert_nonnull (action);
  g_assert_true (gtk_widget_activate_action (terminal, action, NULL));
}

/* Ctrl+Shift+V puts the clipboard's text into the shell */
static void
test_paste (Fixture       *fixture,
            gconstpointer  data)
{
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  GtkWidget *terminal = GTK_WIDGET (kiste_terminal_tab_get_terminal (tab));

  wait_for_text (tab, "fake$ ");
  gdk_clipboard_set_text (gtk_widget_get_clipboard (terminal), "echo pasted-$((40+2))");
  press (terminal, GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  wait_for_text (tab, "echo pasted-$((40+2))");
  type (tab, "\n");
  wait_for_text (tab, "pasted-42");
}

/* A match is selected; until then Enter in the find bar looks again, as
 * people do, for output VTE had not taken in yet */
static gboolean
match_selected (gpointer data)
{
  GtkWidget *tab = data;
  GtkWidget *entry = kiste_test_find_widget (tab, GTK_TYPE_SEARCH_ENTRY, NULL);
  VteTerminal *terminal = VTE_TERMINAL (kiste_terminal_tab_get_terminal (KISTE_TERMINAL_TAB (tab)));

  if (vte_terminal_get_has_selection (terminal))
    return TRUE;

  g_signal_emit_by_name (entry, "activate");
  return FALSE;
}

static gboolean
search_bar_shown (gpointer data)
{
  GtkSearchBar *bar = GTK_SEARCH_BAR (kiste_test_find_widget (data, GTK_TYPE_SEARCH_BAR, NULL));

  return bar != NULL && gtk_search_bar_get_search_mode (bar);
}

/* Ctrl+Shift+F opens the find bar; what is typed there is found and
 * selected in the output */
static void
test_find (Fixture       *fixture,
           gconstpointer  data)
{
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  GtkWidget *terminal = GTK_WIDGET (kiste_terminal_tab_get_terminal (tab));
  GtkWidget *entry;
  g_autofree char *selected = NULL;

  wait_for_text (tab, "fake$ ");
  type (tab, "echo needle-$((6*7))\n");
  wait_for_text (tab, "needle-42");
  g_assert_false (vte_terminal_get_has_selection (VTE_TERMINAL (terminal)));

  press (terminal, GDK_KEY_f, GDK_CONTROL_MASK | GDK_SHIFT_MASK);
  g_assert_true (kiste_test_wait_for (search_bar_shown, tab, TIMEOUT_MS));
  entry = kiste_test_find_widget (GTK_WIDGET (tab), GTK_TYPE_SEARCH_ENTRY, NULL);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "NEEDLE-42");
  g_signal_emit_by_name (entry, "search-changed");

  g_assert_true (kiste_test_wait_for (match_selected, tab, TIMEOUT_MS));
  selected = vte_terminal_get_text_selected (VTE_TERMINAL (terminal), VTE_FORMAT_TEXT);
  g_assert_cmpstr (selected, ==, "needle-42");
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-find");
  /* VTE hands a selection to its PRIMARY clipboard, which it cannot while
   * the window goes */
  vte_terminal_unselect_all (VTE_TERMINAL (terminal));
}

/* A web address in the output is a link: the terminal's link pattern
 * matches it whole where it is printed */
static void
test_links (Fixture       *fixture,
            gconstpointer  data)
{
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  VteTerminal *terminal = VTE_TERMINAL (kiste_terminal_tab_get_terminal (tab));
  g_autofree char *match = NULL;
  g_autofree char *plain = NULL;
  int tag = -1;
  int row;
  glong width;
  glong height;

  wait_for_text (tab, "fake$ ");
  type (tab, "printf 'see %s now\\n' https://example.org/kiste?a=1\n");
  wait_for_text (tab, "see https://example.org/kiste?a=1 now");

  /* the output line starts with "see ": the link begins at column 4
   * (long lines above wrap, so the row is looked for); the terminal is
   * asked where the pointer would be */
  width = vte_terminal_get_char_width (terminal);
  height = vte_terminal_get_char_height (terminal);
  for (row = 0; match == NULL && row < vte_terminal_get_row_count (terminal); row++)
    match = vte_terminal_check_match_at (terminal, (7 + 0.5) * width, (row + 0.5) * height, &tag);
  g_assert_cmpstr (match, ==, "https://example.org/kiste?a=1");
  g_assert_cmpint (tag, >=, 0);
  row--;

  /* the word before it is no link */
  plain = vte_terminal_check_match_at (terminal, 1.5 * width, (row + 0.5) * height, &tag);
  g_assert_null (plain);
}

/* The terminal's colours follow the light and dark style */
static void
test_style_colors (Fixture       *fixture,
                   gconstpointer  data)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  KisteTerminalTab *tab = kiste_window_open_terminal (fixture->window, "fixture-a", NULL);
  VteTerminal *terminal = VTE_TERMINAL (kiste_terminal_tab_get_terminal (tab));
  GdkRGBA light;
  GdkRGBA dark;

  wait_for_text (tab, "fake$ ");
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  vte_terminal_get_color_background_for_draw (terminal, &light);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-light");

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  vte_terminal_get_color_background_for_draw (terminal, &dark);
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-dark");

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  kiste_test_flush (GTK_WIDGET (fixture->window));

  /* light: a light background; dark: a dark one */
  g_assert_cmpfloat (light.red + light.green + light.blue, >, 2.5);
  g_assert_cmpfloat (dark.red + dark.green + dark.blue, <, 0.5);
}

/* With a terminal app chosen, Open Terminal opens the box there */
static void
test_external_terminal (Fixture       *fixture,
                        gconstpointer  data)
{
  GSettings *settings = kiste_application_get_settings (fixture->app);
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);

  g_settings_set_string (settings, "external-terminal", "xterm");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-terminal",
                                             "s", "fixture-a"));
  g_assert_true (kiste_test_wait_for (xterm_asked, fixture, TIMEOUT_MS));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);

  /* A terminal installed as a Flatpak is started with flatpak run */
  g_settings_set_string (settings, "external-terminal", "flatpak:app.devsuite.Ptyxis");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.open-terminal",
                                             "s", "fixture-a"));
  g_assert_true (kiste_test_wait_for (flatpak_ptyxis_asked, fixture, TIMEOUT_MS));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);
  g_settings_reset (settings, "external-terminal");
}

static gboolean
popover_shown (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* A row's context menu opens a terminal in its box */
static void
test_row_menu (Fixture       *fixture,
               gconstpointer  data)
{
  AdwTabView *view = kiste_window_get_tab_view (fixture->window);
  KisteBoxRow *row = find_row (GTK_WIDGET (fixture->window));
  GtkWidget *popover;
  GMenuModel *model;
  g_autofree char *action = NULL;
  g_autoptr(GVariant) target = NULL;
  g_autofree char *label = NULL;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (row), "row.menu", NULL));
  popover = kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_POPOVER_MENU, NULL);
  g_assert_nonnull (popover);
  g_assert_true (kiste_test_wait_for (popover_shown, popover, TIMEOUT_MS));
  kiste_test_screenshot (GTK_WIDGET (fixture->window), "terminal-row-menu");

  model = gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (popover));
  g_assert_cmpint (g_menu_model_get_n_items (model), ==, 1);
  g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label);
  g_menu_model_get_item_attribute (model, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action);
  target = g_menu_model_get_item_attribute_value (model, 0, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
  g_assert_cmpstr (label, ==, "Open _Terminal");
  g_assert_cmpstr (action, ==, "win.open-terminal");
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, "fixture-a");

  /* what the item does, from the row */
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (row), action, target));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 2);
  g_assert_cmpstr (kiste_terminal_tab_get_box_name (KISTE_TERMINAL_TAB (adw_tab_page_get_child (adw_tab_view_get_selected_page (view)))),
                   ==, "fixture-a");
}

static gboolean
widget_hidden (gpointer data)
{
  return !gtk_widget_get_visible (data);
}

/* A quit nobody can answer (SIGTERM, SIGINT) closes without asking, even
 * while a program runs */
static void
test_terminate_without_asking (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(KisteWindow) window = g_object_ref (fixture->window);
  KisteTerminalTab *tab;

  tab = kiste_window_open_terminal (window, "fixture-a", NULL);
  wait_for_text (tab, "fake$ ");
  type (tab, "sleep 60\n");
  g_assert_true (kiste_test_wait_for (has_foreground, tab, TIMEOUT_MS));

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "terminate", NULL);
  g_assert_true (kiste_test_wait_for (widget_hidden, window, TIMEOUT_MS));
  g_assert_null (find_alert (GTK_WIDGET (window), "Close Window?"));

  /* the fixture's teardown wants a window of its own */
  fixture->window = kiste_window_new (fixture->app);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* VTE 0.80 connects to its own deprecated window-title-changed signal
   * when a terminal is made, which G_ENABLE_DIAGNOSTIC turns into a fatal
   * warning; GLib reads the variable on first use */
  g_setenv ("G_ENABLE_DIAGNOSTIC", "0", TRUE);
  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add ("/kiste/terminal-tab/states", Fixture, NULL,
              fixture_setup, test_states, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/close-confirmation", Fixture, NULL,
              fixture_setup, test_close_confirmation, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/terminate-without-asking", Fixture, NULL,
              fixture_setup, test_terminate_without_asking, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/shortcuts-and-count", Fixture, NULL,
              fixture_setup, test_shortcuts_and_count, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/box-color", Fixture, NULL,
              fixture_setup, test_box_color, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/host-terminal-here", Fixture, NULL,
              fixture_setup, test_host_terminal_here, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/settings", Fixture, NULL,
              fixture_setup, test_settings, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/start-fails", Fixture, NULL,
              fixture_setup, test_start_fails, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/move-to-window", Fixture, NULL,
              fixture_setup, test_move_to_window, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/new-window-selection", Fixture, NULL,
              fixture_setup, test_new_window_selection, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/overview", Fixture, NULL,
              fixture_setup, test_overview, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/copy-and-bell", Fixture, NULL,
              fixture_setup, test_copy_and_bell, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/external-terminal", Fixture, NULL,
              fixture_setup, test_external_terminal, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/row-menu", Fixture, NULL,
              fixture_setup, test_row_menu, fixture_teardown);

  g_test_add ("/kiste/terminal-tab/paste", Fixture, NULL,
              fixture_setup, test_paste, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/find", Fixture, NULL,
              fixture_setup, test_find, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/links", Fixture, NULL,
              fixture_setup, test_links, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/style-colors", Fixture, NULL,
              fixture_setup, test_style_colors, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/install-package", Fixture, NULL,
              fixture_setup, test_install_package, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/install-package-drop", Fixture, NULL,
              fixture_setup_fedora, test_install_package_drop, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/temporary", Fixture, NULL,
              fixture_setup_temporary, test_temporary, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/temporary-two-windows", Fixture, NULL,
              fixture_setup_temporary, test_temporary_two_windows, fixture_teardown);
  g_test_add ("/kiste/terminal-tab/temporary-window-close", Fixture, NULL,
              fixture_setup_temporary, test_temporary_window_close, fixture_teardown);

  ret = g_test_run ();
  g_clear_object (&app);
  return ret;
}
