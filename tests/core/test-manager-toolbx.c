/* test-manager-toolbx.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Toolbx boxes through the manager against the fake runner: each
 * operation goes to toolbox (or the engine) with the box's name, Kiste
 * writes the launchers Toolbx has no export for, and what only distrobox
 * can do is refused before anything runs. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"

#define TOOLBOX_NAME "fedora-toolbox-41"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *dir;
  char            *applications;
  char            *bin;
} Fixture;

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Result;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", NULL };
  g_autoptr(GError) error = NULL;

  fixture->runner = kiste_fake_runner_new ();
  /* two distroboxes and a toolbox, among others */
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman-edge.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman-edge.json", "/home/u");

  fixture->dir = g_dir_make_tmp ("kiste-test-toolbx-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->applications = g_build_filename (fixture->dir, "applications", NULL);
  fixture->bin = g_build_filename (fixture->dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (fixture->applications, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (fixture->bin, 0700), ==, 0);
  _kiste_manager_set_host_dirs (fixture->manager, fixture->applications, fixture->bin);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  kiste_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->applications);
  g_free (fixture->bin);
  g_clear_object (&fixture->manager);
  g_assert_finalize_object (fixture->runner);
}

static void
operation_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
wait_result (Result *r)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
}

static guint
n_commands (Fixture *fixture)
{
  return kiste_fake_runner_get_commands (fixture->runner)->len;
}

static const char *
command (Fixture *fixture,
         guint    i)
{
  g_assert_cmpuint (i, <, n_commands (fixture));
  return g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), i);
}

static KisteBox *
find_box (Fixture    *fixture,
          const char *name)
{
  KisteBox *box = kiste_box_list_find (kiste_manager_get_boxes (fixture->manager), name);

  g_assert_nonnull (box);
  return box;
}

/* The listing: the toolbox beside the distroboxes, told apart */
static void
test_listed (Fixture       *fixture,
             gconstpointer  data)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (fixture->manager);

  g_assert_cmpint (kiste_box_get_tool (find_box (fixture, TOOLBOX_NAME)), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_cmpint (kiste_box_get_tool (find_box (fixture, "newpodman")), ==, KISTE_BOX_TOOL_DISTROBOX);
  g_assert_true (kiste_box_list_get_several_tools (boxes));
  g_assert_cmpstr (kiste_box_tool_to_label (KISTE_BOX_TOOL_TOOLBX), ==, "Toolbx");
}

/* Start: Toolbx starts a toolbox for a command and waits for its setup;
 * stop is the engine's; delete is toolbox rm */
static void
test_lifecycle (Fixture       *fixture,
                gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_start_async (fixture->manager, TOOLBOX_NAME, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (command (fixture, 0), ==, "toolbox run --container " TOOLBOX_NAME " -- true");
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman logs"), ==, 0);

  r = (Result) { 0 };
  kiste_manager_stop_async (fixture->manager, TOOLBOX_NAME, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman stop --time 10 " TOOLBOX_NAME));

  r = (Result) { 0 };
  kiste_manager_delete_async (fixture->manager, TOOLBOX_NAME, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "toolbox rm --force " TOOLBOX_NAME));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
}

/* Deleting a toolbox takes Kiste's launchers of it along; a launcher of
 * another toolbox stays */
static void
test_delete_takes_launchers (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *own = g_build_filename (fixture->applications, TOOLBOX_NAME "-org.gnome.Maps.desktop", NULL);
  g_autofree char *other = g_build_filename (fixture->applications, "other-tb-org.gnome.Maps.desktop", NULL);
  Result r = { 0 };

  g_assert_true (g_file_set_contents (own, "[Desktop Entry]\nType=Application\nName=Maps\nIcon=org.gnome.Maps\n"
                                      "Exec=/usr/bin/toolbox run --container " TOOLBOX_NAME " -- gnome-maps\n",
                                      -1, NULL));
  g_assert_true (g_file_set_contents (other, "[Desktop Entry]\nType=Application\nName=Maps\nIcon=org.gnome.Maps\n"
                                      "Exec=/usr/bin/toolbox run --container other-tb -- gnome-maps\n",
                                      -1, NULL));
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");

  kiste_manager_delete_async (fixture->manager, TOOLBOX_NAME, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_false (g_file_test (own, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));
}

/* Add to Menu: Kiste writes the launcher from the app's entry as the box
 * holds it, running the host's toolbox */
static void
test_export_app (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *launcher = g_build_filename (fixture->applications,
                                                TOOLBOX_NAME "-org.gnome.Maps.desktop", NULL);
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *exec = NULL;
  g_autofree char *icon = NULL;
  g_auto(GStrv) argv = NULL;
  Result r = { 0 };
  const char *expected[] = { "/usr/bin/toolbox", "run", "--container", TOOLBOX_NAME, "--",
                             "gnome-maps", "%U", NULL };

  /* running, so that nothing starts it first */
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "sed 's/\"exited\"/\"running\"/' \"$KISTE_TEST_FIXTURES/ps-podman-edge.json\"");
  kiste_fake_runner_add (fixture->runner, "podman exec",
                         "printf '[Desktop Entry]\\nType=Application\\nName=Maps\\n"
                         "Exec=gnome-maps %%U\\nIcon=/usr/share/icons/hicolor/scalable/apps/org.gnome.Maps.svg\\n"
                         "MimeType=x-scheme-handler/geo;\\nTryExec=/tmp/x\\n'");
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "sh -c 'command -v toolbox'", "echo /usr/bin/toolbox");
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");
  kiste_box_store_reload_async (_kiste_manager_get_store (fixture->manager), NULL, NULL, NULL);
  while (kiste_box_get_state (find_box (fixture, TOOLBOX_NAME)) != KISTE_BOX_STATE_RUNNING)
    g_main_context_iteration (NULL, TRUE);

  kiste_manager_export_app_async (fixture->manager, TOOLBOX_NAME, "/usr/share/applications/org.gnome.Maps.desktop",
                                  FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman exec --user "));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "toolbox"), ==, 0);

  g_assert_true (g_key_file_load_from_file (file, launcher, G_KEY_FILE_NONE, NULL));
  exec = g_key_file_get_string (file, "Desktop Entry", "Exec", NULL);
  g_assert_true (g_shell_parse_argv (exec, NULL, &argv, NULL));
  g_assert_cmpuint (g_strv_length (argv), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (argv[i], ==, expected[i]);
  icon = g_key_file_get_string (file, "Desktop Entry", "Icon", NULL);
  g_assert_cmpstr (icon, ==, "org.gnome.Maps");
  g_assert_false (g_key_file_has_key (file, "Desktop Entry", "MimeType", NULL));
  g_assert_false (g_key_file_has_key (file, "Desktop Entry", "TryExec", NULL));

  /* taken out: the file goes, nothing runs in the box */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, TOOLBOX_NAME, "/usr/share/applications/org.gnome.Maps.desktop",
                                  TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_false (g_file_test (launcher, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "toolbox"), ==, 0);
}

/* Launch and the command people may copy: toolbox run */
static void
test_launch_command (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(KisteDesktopApp) app = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *command_line = NULL;
  g_auto(GStrv) enter = NULL;
  g_autofree char *enter_text = NULL;
  g_auto(GStrv) shell = NULL;
  g_autofree char *shell_text = NULL;
  const char *ls[] = { "ls", "-l", NULL };

  static const char entry[] = "[Desktop Entry]\nType=Application\nName=Maps\nExec=gnome-maps %U\n";

  app = kiste_desktop_app_new_from_data ("/usr/share/applications/org.gnome.Maps.desktop",
                                         entry, sizeof entry - 1, "C", &error);
  g_assert_no_error (error);
  command_line = kiste_manager_dup_launch_command (fixture->manager, TOOLBOX_NAME, app, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (command_line, ==, "toolbox run --container " TOOLBOX_NAME " -- gnome-maps");

  /* the terminal's way in, and a command in it */
  shell = kiste_manager_dup_enter_argv (fixture->manager, find_box (fixture, TOOLBOX_NAME), NULL, NULL);
  shell_text = kiste_argv_to_display_string ((const char * const *) shell);
  g_assert_cmpstr (shell_text, ==, "toolbox enter --container " TOOLBOX_NAME);
  enter = kiste_manager_dup_enter_argv (fixture->manager, find_box (fixture, TOOLBOX_NAME), "/tmp", ls);
  enter_text = kiste_argv_to_display_string ((const char * const *) enter);
  g_assert_cmpstr (enter_text, ==, "toolbox run --container " TOOLBOX_NAME " -- ls -l");
}

/* The terminal of the user's choice enters with toolbox enter, whatever
 * the box's settings say: Toolbx evaluates none of them on this computer */
static void
test_external_terminal (Fixture       *fixture,
                        gconstpointer  data)
{
  Result r = { 0 };

  /* settings that could not be read stop a distrobox, not a toolbox */
  kiste_fake_runner_add (fixture->runner, "podman container inspect", "exit 125");
  kiste_fake_runner_add (fixture->runner, "kgx", "exit 0");
  kiste_manager_open_external_terminal_async (fixture->manager, "kgx", TOOLBOX_NAME, NULL, NULL,
                                              operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner,
                                            "kgx -- toolbox enter --container " TOOLBOX_NAME));

  r = (Result) { 0 };
  kiste_manager_open_external_terminal_async (fixture->manager, "kgx", "newpodman", NULL, NULL,
                                              operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);
}

/* What only distrobox does is refused before anything runs */
static void
test_refused (Fixture       *fixture,
              gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_clone_async (fixture->manager, TOOLBOX_NAME, "copy", FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (r.error->message, "Toolbx"));
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, TOOLBOX_NAME, "renamed", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_upgrade_async (fixture->manager, TOOLBOX_NAME, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_set_box_entry_async (fixture->manager, TOOLBOX_NAME, TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_export_binary_async (fixture->manager, TOOLBOX_NAME, "/usr/bin/htop", FALSE, NULL,
                                     operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  g_assert_cmpuint (n_commands (fixture), ==, 0);
}

/* Create with Toolbx: its name and image, nothing Toolbx lacks */
static void
test_create (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  Result r = { 0 };

  kiste_create_options_set_tool (options, KISTE_BOX_TOOL_TOOLBX);
  kiste_create_options_set_name (options, "tb-new");
  kiste_create_options_set_image (options, "registry.fedoraproject.org/fedora-toolbox:42");
  kiste_create_options_set_init (options, TRUE);
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (r.error->message, "init"));
  g_clear_error (&r.error);
  g_assert_cmpuint (n_commands (fixture), ==, 0);

  kiste_create_options_set_init (options, FALSE);
  r = (Result) { 0 };
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (command (fixture, 0), ==,
                   "toolbox create --assumeyes --image registry.fedoraproject.org/fedora-toolbox:42 tb-new");
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/manager-toolbx/listed", test_listed);
  ADD ("/kiste/manager-toolbx/lifecycle", test_lifecycle);
  ADD ("/kiste/manager-toolbx/delete-takes-launchers", test_delete_takes_launchers);
  ADD ("/kiste/manager-toolbx/export-app", test_export_app);
  ADD ("/kiste/manager-toolbx/launch-command", test_launch_command);
  ADD ("/kiste/manager-toolbx/refused", test_refused);
  ADD ("/kiste/manager-toolbx/external-terminal", test_external_terminal);
  ADD ("/kiste/manager-toolbx/create", test_create);

#undef ADD

  return g_test_run ();
}
