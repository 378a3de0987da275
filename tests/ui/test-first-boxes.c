/* test-first-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The first run: a window without boxes offers the first boxes for the
 * computer's os-release, each naming its image, and each opens the create
 * dialog (or Try an Image) filled in; a box made that way gets a terminal
 * tab. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-application-private.h"
#include "kiste-create-dialog.h"
#include "kiste-terminal-tab.h"
#include "kiste-test-ui.h"
#include "kiste-window-private.h"

#define TIMEOUT_MS 10000

static const char debian_13[] =
  "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\n"
  "NAME=\"Debian GNU/Linux\"\n"
  "VERSION_ID=\"13\"\n"
  "VERSION=\"13 (trixie)\"\n"
  "VERSION_CODENAME=trixie\n"
  "ID=debian\n";

static const char fedora_42[] =
  "NAME=\"Fedora Linux\"\n"
  "VERSION=\"42 (Workstation Edition)\"\n"
  "ID=fedora\n"
  "VERSION_ID=42\n"
  "VARIANT_ID=workstation\n";

typedef struct
{
  KisteApplication *app;
  KisteManager     *manager;
  KisteWindow      *window;
  char             *dir;
} Fixture;

static KisteApplication *app;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("kiste-test-first-boxes-XXXXXX", &error);
  g_assert_no_error (error);

  fx->app = g_object_ref (app);
  fx->manager = kiste_test_manager_new (data != NULL ? GPOINTER_TO_INT (data) : KISTE_TEST_WORLD_EMPTY);
  /* a terminal tab runs the stand-ins for podman and distrobox */
  path = g_strdup_printf ("%s/terminal:%s", g_getenv ("KISTE_TEST_FAKES"), g_getenv ("PATH"));
  kiste_runner_setenv (kiste_manager_get_runner (fx->manager), "PATH", path);
  _kiste_application_set_manager (fx->app, fx->manager);

  fx->window = kiste_window_new (fx->app);
  gtk_window_set_default_size (GTK_WINDOW (fx->window), 900, 700);
  gtk_window_present (GTK_WINDOW (fx->window));
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (fx->window));
  kiste_test_flush_main_context ();
  g_clear_object (&fx->manager);
  g_clear_object (&fx->app);
  kiste_test_remove_tree (fx->dir);
  g_clear_pointer (&fx->dir, g_free);
}

/* The window reads os-release text from a file of the test's */
static void
set_os_release (Fixture    *fx,
                const char *contents)
{
  g_autofree char *path = g_build_filename (fx->dir, "os-release", NULL);
  g_autoptr(GError) error = NULL;

  if (contents != NULL)
    {
      g_file_set_contents (path, contents, -1, &error);
      g_assert_no_error (error);
    }
  else
    g_unlink (path);
  _kiste_window_set_os_release_path (fx->window, path);
}

static gboolean
empty_page_shown (gpointer data)
{
  Fixture *fx = data;
  GtkWidget *page = kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_STATUS_PAGE, "No Boxes");

  return page != NULL && gtk_widget_get_mapped (page);
}

static GtkWidget *
wait_for_empty_page (Fixture *fx)
{
  g_assert_true (kiste_test_wait_for (empty_page_shown, fx, TIMEOUT_MS));
  kiste_test_flush (GTK_WIDGET (fx->window));
  return kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_STATUS_PAGE, "No Boxes");
}

/* The button named label on page, and the image it says it uses */
static GtkWidget *
find_start (GtkWidget  *page,
            const char *label,
            const char *image)
{
  GtkWidget *button = kiste_test_find_widget (page, GTK_TYPE_BUTTON, label);
  GtkWidget *caption;

  if (button == NULL)
    g_error ("no button “%s” on the empty page", label);
  g_assert_true (gtk_widget_get_mapped (button));
  g_assert_true (gtk_widget_has_css_class (button, "pill"));
  gtk_test_accessible_assert_role (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_ROLE_BUTTON);

  /* the image under it, which screen readers say with the button */
  caption = gtk_widget_get_next_sibling (button);
  g_assert_true (GTK_IS_LABEL (caption));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (caption)), ==, image);
  g_assert_true (gtk_widget_get_mapped (caption));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, image);
  return button;
}

static guint
count_buttons (GtkWidget *root)
{
  guint n = GTK_IS_BUTTON (root) ? 1 : 0;

  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_buttons (child);
  return n;
}

/* Debian 13: a Debian box of that release first, suggested, then Fedora,
 * then Arch Linux to try */
static void
test_first_boxes_debian (Fixture       *fx,
                         gconstpointer  data)
{
  GtkWidget *page;
  GtkWidget *debian;
  GtkWidget *fedora;
  GtkWidget *arch;

  set_os_release (fx, debian_13);
  page = wait_for_empty_page (fx);

  debian = find_start (page, "Create Debian Box", "docker.io/library/debian:13");
  fedora = find_start (page, "Create Fedora Box", "registry.fedoraproject.org/fedora-toolbox:latest");
  arch = find_start (page, "Try Arch Linux", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpuint (count_buttons (page), ==, 3);

  g_assert_true (gtk_widget_has_css_class (debian, "suggested-action"));
  g_assert_false (gtk_widget_has_css_class (fedora, "suggested-action"));
  g_assert_false (gtk_widget_has_css_class (arch, "suggested-action"));

  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run");

  /* on a phone's width the images are cut in the middle, not the page */
  gtk_window_set_default_size (GTK_WINDOW (fx->window), 360, 640);
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fx->window)), <=, 400);
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-narrow");
}

/* Another computer, other boxes; without os-release, two common ones */
static void
test_first_boxes_other_hosts (Fixture       *fx,
                              gconstpointer  data)
{
  GtkWidget *page;

  set_os_release (fx, fedora_42);
  page = wait_for_empty_page (fx);
  g_assert_true (gtk_widget_has_css_class (find_start (page, "Create Fedora Box",
                                                       "registry.fedoraproject.org/fedora-toolbox:42"),
                                           "suggested-action"));
  find_start (page, "Create Ubuntu Box", "docker.io/library/ubuntu:latest");
  find_start (page, "Try Arch Linux", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpuint (count_buttons (page), ==, 3);

  set_os_release (fx, NULL);
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_true (gtk_widget_has_css_class (find_start (page, "Create Fedora Box",
                                                       "registry.fedoraproject.org/fedora-toolbox:latest"),
                                           "suggested-action"));
  find_start (page, "Create Ubuntu Box", "docker.io/library/ubuntu:latest");
  find_start (page, "Try Arch Linux", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpuint (count_buttons (page), ==, 3);
}

static gboolean
dialog_shown (gpointer data)
{
  Fixture *fx = data;

  return adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fx->window)) != NULL;
}

/* A button activated as by the keyboard clicks once its press is shown */
static KisteCreateDialog *
wait_for_create_dialog (Fixture *fx)
{
  AdwDialog *dialog;

  g_assert_true (kiste_test_wait_for (dialog_shown, fx, TIMEOUT_MS));
  kiste_test_flush (GTK_WIDGET (fx->window));
  dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fx->window));
  g_assert_true (KISTE_IS_CREATE_DIALOG (dialog));
  return KISTE_CREATE_DIALOG (dialog);
}

static gboolean
entry_shows (GtkWidget  *root,
             const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (ADW_IS_ENTRY_ROW (child) && gtk_widget_get_visible (child) &&
          g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (child)), text) == 0)
        return TRUE;
      if (entry_shows (child, text))
        return TRUE;
    }
  return FALSE;
}

static KisteTerminalTab *
find_terminal_tab (Fixture    *fx,
                   const char *box_name)
{
  AdwTabView *tabs = kiste_window_get_tab_view (fx->window);

  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (tabs, i));

      if (KISTE_IS_TERMINAL_TAB (child) &&
          g_strcmp0 (kiste_terminal_tab_get_box_name (KISTE_TERMINAL_TAB (child)), box_name) == 0)
        return KISTE_TERMINAL_TAB (child);
    }
  return NULL;
}

/* The box of the computer's distribution: one click to the create dialog
 * with its image and a name from it; once made, a terminal in it */
static void
test_first_boxes_create (Fixture       *fx,
                         gconstpointer  data)
{
  KisteCreateDialog *dialog;
  KisteCreateOptions *options;
  KisteTerminalTab *tab;
  GtkWidget *page;

  set_os_release (fx, debian_13);
  page = wait_for_empty_page (fx);
  g_assert_true (gtk_widget_activate (find_start (page, "Create Debian Box", "docker.io/library/debian:13")));

  dialog = wait_for_create_dialog (fx);
  options = kiste_create_dialog_get_options (dialog);
  g_assert_cmpstr (adw_dialog_get_title (ADW_DIALOG (dialog)), ==, "New Box");
  g_assert_cmpstr (kiste_create_options_get_image (options), ==, "docker.io/library/debian:13");
  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "debian-13");
  g_assert_false (kiste_create_options_get_temporary (options));
  /* people see what will be made */
  g_assert_true (entry_shows (GTK_WIDGET (dialog), "docker.io/library/debian:13"));
  g_assert_true (entry_shows (GTK_WIDGET (dialog), "debian-13"));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-create");

  /* made and started: the window opens its shell */
  g_signal_emit_by_name (dialog, "created", "debian-13");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  tab = find_terminal_tab (fx, "debian-13");
  g_assert_nonnull (tab);
  g_assert_true (adw_tab_view_get_selected_page (kiste_window_get_tab_view (fx->window)) ==
                 adw_tab_view_get_page (kiste_window_get_tab_view (fx->window), GTK_WIDGET (tab)));
}

/* The box to try: Try an Image with its image, a temporary box */
static void
test_first_boxes_try (Fixture       *fx,
                      gconstpointer  data)
{
  KisteCreateDialog *dialog;
  KisteCreateOptions *options;
  GtkWidget *page;

  set_os_release (fx, debian_13);
  page = wait_for_empty_page (fx);
  g_assert_true (gtk_widget_activate (find_start (page, "Try Arch Linux", "quay.io/toolbx/arch-toolbox:latest")));

  dialog = wait_for_create_dialog (fx);
  options = kiste_create_dialog_get_options (dialog);
  g_assert_cmpstr (adw_dialog_get_title (ADW_DIALOG (dialog)), ==, "Try an Image");
  g_assert_cmpstr (kiste_create_options_get_image (options), ==, "quay.io/toolbx/arch-toolbox:latest");
  g_assert_true (kiste_create_options_get_temporary (options));
  g_assert_true (entry_shows (GTK_WIDGET (dialog), "quay.io/toolbx/arch-toolbox:latest"));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-try");
  adw_dialog_force_close (ADW_DIALOG (dialog));
}

static gboolean
alert_shown (gpointer data)
{
  Fixture *fx = data;

  return ADW_IS_ALERT_DIALOG (adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fx->window)));
}

/* Fedora Silverblue: Toolbx and podman, no distrobox. The first boxes are
 * of Toolbx's images, none to try; the create dialog makes them with
 * Toolbx. Trying an image asks for distrobox. */
static void
test_first_boxes_toolbx (Fixture       *fx,
                         gconstpointer  data)
{
  g_auto(GStrv) names = g_new0 (char *, 1);
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  KisteCreateDialog *dialog;
  KisteCreateOptions *options;
  const char * const *argv;
  GtkWidget *page;
  AdwDialog *alert;

  set_os_release (fx, fedora_42);
  page = wait_for_empty_page (fx);
  g_assert_true (gtk_widget_has_css_class (find_start (page, "Create Fedora Box",
                                                       "registry.fedoraproject.org/fedora-toolbox:42"),
                                           "suggested-action"));
  find_start (page, "Create Arch Linux Box", "quay.io/toolbx/arch-toolbox:latest");
  find_start (page, "Create Red Hat Enterprise Linux Box", "registry.access.redhat.com/ubi9/toolbox");
  g_assert_null (kiste_test_find_widget (page, GTK_TYPE_BUTTON, "Try Arch Linux"));
  g_assert_null (kiste_test_find_widget (page, GTK_TYPE_BUTTON, "Create Ubuntu Box"));
  g_assert_cmpuint (count_buttons (page), ==, 3);
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-toolbx");

  g_assert_true (gtk_widget_activate (find_start (page, "Create Fedora Box",
                                                  "registry.fedoraproject.org/fedora-toolbox:42")));
  dialog = wait_for_create_dialog (fx);
  options = kiste_create_dialog_get_options (dialog);
  g_assert_cmpint (kiste_create_options_get_tool (options), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_cmpstr (kiste_create_options_get_image (options), ==, "registry.fedoraproject.org/fedora-toolbox:42");
  g_assert_cmpstr (kiste_create_options_get_name (options), ==, "fedora-toolbox-42");
  g_assert_true (kiste_create_dialog_get_can_create (dialog));
  plan = kiste_create_options_plan (options, (const char * const *) names,
                                    kiste_manager_get_capabilities (fx->manager), "podman", &error);
  g_assert_no_error (error);
  argv = kiste_create_plan_get_argv (plan);
  g_assert_cmpstr (argv[0], ==, "toolbox");
  g_assert_cmpstr (argv[4], ==, "registry.fedoraproject.org/fedora-toolbox:42");
  g_assert_cmpstr (argv[5], ==, "fedora-toolbox-42");
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-toolbx-create");
  adw_dialog_force_close (ADW_DIALOG (dialog));
  kiste_test_flush (GTK_WIDGET (fx->window));

  /* Try an Image is distrobox's: it says so, and offers no dialog */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.try-image", NULL));
  g_assert_true (kiste_test_wait_for (alert_shown, fx, TIMEOUT_MS));
  alert = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (fx->window));
  g_assert_cmpstr (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert)), ==, "Distrobox Is Needed");
  g_assert_nonnull (strstr (adw_alert_dialog_get_body (ADW_ALERT_DIALOG (alert)), "Trying an image"));
  kiste_test_flush (GTK_WIDGET (fx->window));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "first-run-toolbx-try");
  adw_dialog_force_close (alert);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* a terminal tab is made: VTE 0.80 connects to its own deprecated
   * window-title-changed signal, which G_ENABLE_DIAGNOSTIC makes fatal */
  g_setenv ("G_ENABLE_DIAGNOSTIC", "0", TRUE);
  kiste_test_init (&argc, &argv);

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

#define ADD(path, func) \
  g_test_add ("/kiste/first-boxes/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("debian", test_first_boxes_debian);
  ADD ("other-hosts", test_first_boxes_other_hosts);
  ADD ("create", test_first_boxes_create);
  ADD ("try", test_first_boxes_try);
#undef ADD
  g_test_add ("/kiste/first-boxes/toolbx", Fixture, GINT_TO_POINTER (KISTE_TEST_WORLD_TOOLBX_EMPTY),
              fixture_setup, test_first_boxes_toolbx, fixture_teardown);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  return ret;
}
