/* test-manager-autostart.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Starting a box at login, through the manager against the fake runner:
 * the host scripts run for real on a temporary units folder, systemctl is
 * a small script that links and unlinks as systemd would */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-autostart.h"
#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-runner-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"

#define UNIT "kiste-box-fixture-a.service"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *dir;
  char            *units;
  char            *path;
  char            *link;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *enable = NULL;
  g_autofree char *disable = NULL;
  g_autofree char *is_enabled = NULL;

  fixture->dir = g_dir_make_tmp ("kiste-test-autostart-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->units = g_build_filename (fixture->dir, "systemd", "user", NULL);
  fixture->path = g_build_filename (fixture->units, UNIT, NULL);
  fixture->link = g_build_filename (fixture->units, "default.target.wants", UNIT, NULL);

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  /* the host scripts run as they are; the engine is found at its place */
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "sh -c 'command -v", "echo /usr/bin/podman");
  /* systemctl --user VERB UNIT: $2 the verb, $3 the unit */
  kiste_fake_runner_add (fixture->runner, "systemctl --user show-environment", "echo HOME=/home/tester");
  kiste_fake_runner_add (fixture->runner, "systemctl --user daemon-reload", "exit 0");
  enable = g_strdup_printf ("w='%s/default.target.wants'; [ -f '%s'/\"$3\" ] || exit 1; "
                            "mkdir -p \"$w\" && ln -sf '%s'/\"$3\" \"$w/$3\"",
                            fixture->units, fixture->units, fixture->units);
  kiste_fake_runner_add (fixture->runner, "systemctl --user enable", enable);
  disable = g_strdup_printf ("rm -f '%s/default.target.wants'/\"$3\"", fixture->units);
  kiste_fake_runner_add (fixture->runner, "systemctl --user disable", disable);
  is_enabled = g_strdup_printf ("if [ -L '%s/default.target.wants'/\"$3\" ]; then echo enabled; "
                                "else echo disabled; exit 1; fi", fixture->units);
  kiste_fake_runner_add (fixture->runner, "systemctl --user is-enabled", is_enabled);

  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json", "/home/tester");
  _kiste_manager_set_units_dir (fixture->manager, fixture->units);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  kiste_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->units);
  g_free (fixture->path);
  g_free (fixture->link);
  g_clear_object (&fixture->manager);
  g_assert_finalize_object (fixture->runner);
}

typedef struct
{
  gboolean             done;
  gboolean             ok;
  KisteAutostartState  state;
  char                *reason;
  GError              *error;
} Result;

static void
result_clear (Result *r)
{
  g_clear_pointer (&r->reason, g_free);
  g_clear_error (&r->error);
  *r = (Result) { 0 };
}

static void
wait_result (Result *r)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
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
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Result *r = user_data;

  r->state = kiste_manager_get_autostart_finish (KISTE_MANAGER (object), result, &r->reason,
                                                 &r->error);
  r->done = TRUE;
}

static KisteAutostartState
get_state (Fixture  *fixture,
           char    **reason)
{
  Result r = { 0 };
  KisteAutostartState state;

  kiste_manager_get_autostart_async (fixture->manager, "fixture-a", NULL, get_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  state = r.state;
  if (reason != NULL)
    *reason = g_steal_pointer (&r.reason);
  result_clear (&r);
  return state;
}

static void
set_state (Fixture   *fixture,
           gboolean   enabled,
           GError   **error)
{
  Result r = { 0 };

  kiste_manager_set_autostart_async (fixture->manager, "fixture-a", enabled, NULL, operation_cb, &r);
  wait_result (&r);
  if (r.error != NULL)
    g_propagate_error (error, g_steal_pointer (&r.error));
  result_clear (&r);
}

static GPtrArray *
commands (Fixture *fixture)
{
  return kiste_fake_runner_get_commands (fixture->runner);
}

static void
clear_commands (Fixture *fixture)
{
  g_ptr_array_set_size (commands (fixture), 0);
}

static const char *
command (Fixture *fixture,
         guint    i)
{
  g_assert_cmpuint (i, <, commands (fixture)->len);
  return g_ptr_array_index (commands (fixture), i);
}

static void
assert_script (Fixture    *fixture,
               guint       i,
               const char *marker)
{
  g_autofree char *tail = g_strdup_printf (" sh %s '%s'", fixture->path, marker);

  g_assert_true (g_str_has_prefix (command (fixture, i), "sh -c "));
  g_assert_true (g_str_has_suffix (command (fixture, i), tail));
}

static void
test_no_user_manager (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fixture->runner, "systemctl --user show-environment",
                         "echo 'Failed to connect to user scope bus' >&2; exit 1");

  g_assert_cmpint (get_state (fixture, &reason), ==, KISTE_AUTOSTART_UNAVAILABLE);
  g_assert_nonnull (strstr (reason, "no systemd user manager"));
  g_assert_cmpuint (commands (fixture)->len, ==, 1);
  g_assert_cmpstr (command (fixture, 0), ==, "systemctl --user show-environment");

  /* turning it on says why and writes nothing */
  clear_commands (fixture);
  set_state (fixture, TRUE, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "no systemd user manager"));
  g_assert_cmpuint (commands (fixture)->len, ==, 1);
  g_assert_cmpstr (command (fixture, 0), ==, "systemctl --user show-environment");
  g_assert_false (g_file_test (fixture->units, G_FILE_TEST_EXISTS));

  /* no systemctl at all: the same */
  g_clear_pointer (&reason, g_free);
  kiste_fake_runner_add (fixture->runner, "systemctl --user show-environment", "exit 127");
  g_assert_cmpint (get_state (fixture, &reason), ==, KISTE_AUTOSTART_UNAVAILABLE);
  g_assert_nonnull (strstr (reason, "no systemd user manager"));
}

static void
test_enable_disable (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *marker = kiste_autostart_dup_marker ("fixture-a");
  g_autofree char *expected = kiste_autostart_build_unit ("fixture-a", "/usr/bin/podman", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (get_state (fixture, &reason), ==, KISTE_AUTOSTART_DISABLED);
  g_assert_null (reason);
  g_assert_cmpuint (commands (fixture)->len, ==, 2);
  g_assert_cmpstr (command (fixture, 0), ==, "systemctl --user show-environment");
  assert_script (fixture, 1, marker);

  /* on: the user manager, the engine on the host, the unit written,
   * reloaded and enabled */
  clear_commands (fixture);
  set_state (fixture, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (commands (fixture)->len, ==, 5);
  g_assert_cmpstr (command (fixture, 0), ==, "systemctl --user show-environment");
  g_assert_cmpstr (command (fixture, 1), ==, "sh -c 'command -v -- \"$1\"' sh podman");
  g_assert_true (g_str_has_prefix (command (fixture, 2), "sh -c "));
  g_assert_nonnull (strstr (command (fixture, 2), fixture->path));
  g_assert_true (g_str_has_suffix (command (fixture, 2), " '# Written by Kiste for the box fixture-a'"));
  g_assert_cmpstr (command (fixture, 3), ==, "systemctl --user daemon-reload");
  g_assert_cmpstr (command (fixture, 4), ==, "systemctl --user enable " UNIT);
  g_assert_true (g_file_get_contents (fixture->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, expected);
  g_assert_true (g_file_test (fixture->link, G_FILE_TEST_IS_SYMLINK));

  clear_commands (fixture);
  g_assert_cmpint (get_state (fixture, NULL), ==, KISTE_AUTOSTART_ENABLED);
  g_assert_cmpuint (commands (fixture)->len, ==, 3);
  g_assert_cmpstr (command (fixture, 2), ==, "systemctl --user is-enabled " UNIT);

  /* on again: Kiste's own unit is written anew */
  clear_commands (fixture);
  set_state (fixture, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (command (fixture, 4), ==, "systemctl --user enable " UNIT);

  /* off: disabled, removed, reloaded */
  clear_commands (fixture);
  set_state (fixture, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (commands (fixture)->len, ==, 4);
  assert_script (fixture, 0, marker);
  g_assert_cmpstr (command (fixture, 1), ==, "systemctl --user disable " UNIT);
  assert_script (fixture, 2, marker);
  g_assert_cmpstr (command (fixture, 3), ==, "systemctl --user daemon-reload");
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (fixture->link, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (get_state (fixture, NULL), ==, KISTE_AUTOSTART_DISABLED);

  /* off while there is nothing: nothing to do */
  clear_commands (fixture);
  set_state (fixture, FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (commands (fixture)->len, ==, 1);
}

static void
test_user_unit_left_alone (Fixture       *fixture,
                           gconstpointer  data)
{
  const char *mine = "[Unit]\nDescription=my own\n";
  g_autofree char *contents = NULL;
  g_autofree char *reason = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (fixture->units, 0755), ==, 0);
  g_assert_true (g_file_set_contents (fixture->path, mine, -1, NULL));

  /* not offered, and why */
  g_assert_cmpint (get_state (fixture, &reason), ==, KISTE_AUTOSTART_UNAVAILABLE);
  g_assert_nonnull (strstr (reason, UNIT));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "systemctl --user is-enabled"));

  /* never written over, never enabled */
  set_state (fixture, TRUE, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_null (kiste_fake_runner_find (fixture->runner, "systemctl --user enable"));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "systemctl --user daemon-reload"));
  g_assert_true (g_file_get_contents (fixture->path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, mine);
  g_clear_error (&error);

  /* never disabled nor removed */
  set_state (fixture, FALSE, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_assert_null (kiste_fake_runner_find (fixture->runner, "systemctl --user disable"));
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_REGULAR));

  /* nor when the box goes */
  g_clear_error (&error);
  {
    Result r = { 0 };

    kiste_manager_delete_async (fixture->manager, "fixture-a", FALSE, NULL, operation_cb, &r);
    wait_result (&r);
    g_assert_no_error (r.error);
  }
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_REGULAR));
}

static void
test_delete_removes_unit (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  Result r = { 0 };
  GPtrArray *all;
  guint rm_index = G_MAXUINT;
  guint unit_index = G_MAXUINT;

  set_state (fixture, TRUE, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_test (fixture->path, G_FILE_TEST_IS_REGULAR));

  clear_commands (fixture);
  kiste_manager_delete_async (fixture->manager, "fixture-a", FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  /* after the box is gone, its unit and its link go, and systemd learns */
  all = commands (fixture);
  for (guint i = 0; i < all->len; i++)
    {
      const char *c = g_ptr_array_index (all, i);

      if (g_str_has_prefix (c, "distrobox rm"))
        rm_index = i;
      else if (g_str_has_prefix (c, "sh -c ") && strstr (c, fixture->path) != NULL)
        unit_index = i;
    }
  g_assert_cmpuint (rm_index, <, unit_index);
  g_assert_cmpuint (unit_index, <, all->len);
  g_assert_cmpstr (command (fixture, unit_index + 1), ==, "systemctl --user daemon-reload");
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (fixture->link, G_FILE_TEST_IS_SYMLINK));
}

static void
test_rename_removes_unit (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  Result r = { 0 };
  KisteTask *task;
  gboolean said;

  set_state (fixture, TRUE, &error);
  g_assert_no_error (error);

  /* the unit names the old name: it goes, and the task says so */
  kiste_fake_runner_add (fixture->runner, "podman rename", "exit 0");
  task = kiste_manager_rename_async (fixture->manager, "fixture-a", "fixture-z", NULL, operation_cb, &r);
  g_object_ref (task);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_false (g_file_test (fixture->path, G_FILE_TEST_EXISTS));
  said = strstr (kiste_task_get_output (task), "no longer started") != NULL;
  g_assert_true (said);
  g_object_unref (task);
}

static void
test_bad_name (Fixture       *fixture,
               gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_set_autostart_async (fixture->manager, "no such box", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (commands (fixture)->len, ==, 0);
  result_clear (&r);

  /* a unit for a box that is not there would start nothing */
  kiste_manager_set_autostart_async (fixture->manager, "gone-box", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_cmpuint (commands (fixture)->len, ==, 0);
  result_clear (&r);

  kiste_manager_get_autostart_async (fixture->manager, "a%b", NULL, get_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (commands (fixture)->len, ==, 0);
  result_clear (&r);
}

/* From the Flatpak the unit goes into the host's config folder, which
 * Flatpak passes on as HOST_XDG_CONFIG_HOME */
static void
test_flatpak_host_folder (void)
{
  g_autoptr(KisteFakeRunner) runner = kiste_fake_runner_new ();
  g_autoptr(KisteManager) manager = NULL;
  const char *found;
  Result r = { 0 };

  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);

  kiste_runner_set_in_flatpak (KISTE_RUNNER (runner), TRUE);
  _kiste_runner_set_flatpak_spawn (KISTE_RUNNER (runner), spawn);
  kiste_fake_runner_add (runner, "systemctl --user show-environment", "exit 0");
  kiste_fake_runner_add (runner, "sh -c", "echo none");
  g_setenv ("HOST_XDG_CONFIG_HOME", "/host/config", TRUE);
  manager = kiste_manager_new (KISTE_RUNNER (runner));
  g_unsetenv ("HOST_XDG_CONFIG_HOME");

  kiste_manager_get_autostart_async (manager, "fixture-a", NULL, get_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpint (r.state, ==, KISTE_AUTOSTART_DISABLED);
  found = kiste_fake_runner_find (runner, "sh -c");
  g_assert_nonnull (found);
  g_assert_nonnull (strstr (found, " sh /host/config/systemd/user/kiste-box-fixture-a.service "));
  result_clear (&r);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/manager-autostart/no-user-manager", test_no_user_manager);
  ADD ("/manager-autostart/enable-disable", test_enable_disable);
  ADD ("/manager-autostart/user-unit-left-alone", test_user_unit_left_alone);
  ADD ("/manager-autostart/delete-removes-unit", test_delete_removes_unit);
  ADD ("/manager-autostart/rename-removes-unit", test_rename_removes_unit);
  ADD ("/manager-autostart/bad-name", test_bad_name);
  g_test_add_func ("/manager-autostart/flatpak-host-folder", test_flatpak_host_folder);

#undef ADD

  return g_test_run ();
}
