/* test-window.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-application-private.h"
#include "kiste-shortcuts-dialog.h"
#include "kiste-test-ui.h"
#include "kiste-window.h"

static KisteApplication *app;

static KisteWindow *
create_window (void)
{
  KisteWindow *window = kiste_window_new (app);

  gtk_window_present (GTK_WINDOW (window));
  kiste_test_flush (GTK_WIDGET (window));
  return window;
}

static void
test_window_skeleton (void)
{
  KisteWindow *window = create_window ();
  GtkWidget *menu_button;
  GtkWidget *status;
  GMenuModel *menu;
  g_autofree char *about_action = NULL;
  g_autofree char *shortcuts_action = NULL;

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Kiste");

  menu_button = kiste_test_find_widget (GTK_WIDGET (window), GTK_TYPE_MENU_BUTTON, "Main Menu");
  g_assert_nonnull (menu_button);
  g_assert_true (gtk_menu_button_get_primary (GTK_MENU_BUTTON (menu_button)));

  /* The primary menu is made when it first opens; it offers the shortcuts
   * and the about dialog */
  g_assert_null (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)));
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button));
  g_assert_nonnull (menu);
  g_assert_true (GTK_IS_POPOVER_MENU (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button))));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));
  menu = g_menu_model_get_item_link (menu, 0, G_MENU_LINK_SECTION);
  g_assert_nonnull (menu);
  g_object_unref (menu);
  menu = g_menu_model_get_item_link (gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (menu_button)),
                                     1, G_MENU_LINK_SECTION);
  g_assert_nonnull (menu);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 3);
  g_menu_model_get_item_attribute (menu, 1, G_MENU_ATTRIBUTE_ACTION, "s", &shortcuts_action);
  g_menu_model_get_item_attribute (menu, 2, G_MENU_ATTRIBUTE_ACTION, "s", &about_action);
  g_assert_cmpstr (shortcuts_action, ==, "app.shortcuts");
  g_assert_cmpstr (about_action, ==, "app.about");
  g_object_unref (menu);
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "shortcuts"));

  status = kiste_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE, "No Boxes");
  g_assert_nonnull (status);
  g_assert_true (kiste_test_wait_for ((gpointer) gtk_widget_get_mapped, status, 5000));
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==, "No Boxes");

  kiste_test_screenshot (GTK_WIDGET (window), "window-empty");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_state_saved (void)
{
  GSettings *settings = kiste_application_get_settings (app);
  KisteWindow *window;
  int width;
  int height;

  g_settings_set_int (settings, "window-width", 700);
  g_settings_set_int (settings, "window-height", 500);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  window = create_window ();
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 700);
  g_assert_cmpint (height, ==, 500);

  /* Closing saves the current size */
  gtk_window_set_default_size (GTK_WINDOW (window), 820, 610);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 820);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 610);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

}

/* A window that is not shown yet: maximizing it is a request GTK keeps
 * (the "maximized" property) until a window manager acts on it, so the
 * state goes in and out of the settings without one */
static KisteWindow *
create_hidden_window (void)
{
  KisteWindow *window = kiste_window_new (app);

  gtk_widget_realize (GTK_WIDGET (window));
  return window;
}

static gboolean
requested_maximized (KisteWindow *window)
{
  gboolean maximized = FALSE;

  g_object_get (window, "maximized", &maximized, NULL);
  return maximized;
}

static void
test_window_state_maximized (void)
{
  GSettings *settings = kiste_application_get_settings (app);
  KisteWindow *window;
  int width;
  int height;

  g_settings_set_int (settings, "window-width", 820);
  g_settings_set_int (settings, "window-height", 610);
  g_settings_set_boolean (settings, "window-maximized", FALSE);

  /* not maximized: not asked for */
  window = create_hidden_window ();
  g_assert_false (requested_maximized (window));

  /* A maximized window keeps the size it will be restored to: the size
   * it has while maximized is not saved */
  gtk_window_maximize (GTK_WINDOW (window));
  g_assert_true (requested_maximized (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 1900, 1000);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 820);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 610);

  /* the next window asks to be maximized, with the size to restore to */
  window = create_hidden_window ();
  g_assert_true (requested_maximized (window));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 820);
  g_assert_cmpint (height, ==, 610);

  /* unmaximized, its state and size are saved again */
  gtk_window_unmaximize (GTK_WINDOW (window));
  g_assert_false (requested_maximized (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 640);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 640);

  window = create_hidden_window ();
  g_assert_false (requested_maximized (window));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_shortcuts_dialog (void)
{
  KisteWindow *window = create_window ();
  KisteShortcutsDialog *dialog = kiste_shortcuts_dialog_new ();
  GtkWidget *group;

  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (window));
  kiste_test_flush (GTK_WIDGET (window));

  group = kiste_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_PREFERENCES_GROUP, NULL);
  g_assert_nonnull (group);
  g_assert_cmpstr (adw_preferences_group_get_title (ADW_PREFERENCES_GROUP (group)), ==, "Boxes");
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (dialog), ADW_TYPE_ACTION_ROW, NULL));

  kiste_test_screenshot (GTK_WIDGET (window), "shortcuts-dialog");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  {
    g_autoptr(KisteManager) manager = kiste_test_manager_new (KISTE_TEST_WORLD_EMPTY);

    _kiste_application_set_manager (app, manager);
  }
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  /* Emits startup, which loads the settings */
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/kiste/window/skeleton", test_window_skeleton);
  g_test_add_func ("/kiste/window/state-saved", test_window_state_saved);
  g_test_add_func ("/kiste/window/state-maximized", test_window_state_maximized);
  g_test_add_func ("/kiste/window/shortcuts-dialog", test_shortcuts_dialog);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return ret;
}
