/* test-manager.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-capabilities-private.h"
#include "kiste-box-store-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"
#include "kiste-manager.h"

/* The shared fake runner: every command is recorded and a harmless
 * stand-in runs: the captured listing for `ps`, `sleep` when a test asks
 * for a slow box, `true` otherwise. */
static void
set_slow (KisteFakeRunner *runner)
{
  kiste_fake_runner_set_default (runner, "sleep 0.3");
}

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--clone", "--unshare-ipc", NULL };
  KisteBoxStore *store;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  /* the details, read before anything goes through distrobox enter */
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);

  store = _kiste_manager_get_store (fixture->manager);
  kiste_test_merge_boxes (store, "ps-podman5.json", "/home/tester");
  g_assert_nonnull (kiste_box_store_find_by_name (store, "fixture-a"));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->manager);
  g_assert_finalize_object (fixture->runner);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Result;

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
  g_assert_cmpuint (i, <, kiste_fake_runner_get_commands (fixture->runner)->len);
  return g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), i);
}

static void
test_create_invalid_runs_nothing (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  Result r = { 0 };
  KisteTask *task;

  kiste_create_options_set_name (options, "x$(touch /tmp/pwned)");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  task = kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);

  g_assert_false (r.ok);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_FAILED);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);

  /* An existing name is refused too */
  r = (Result) { 0 };
  kiste_create_options_set_name (options, "fixture-a");
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);
}

static void
test_create_runs_distrobox (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  Result r = { 0 };
  KisteTask *task;

  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_IPC, TRUE);
  task = kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  g_assert_true (kiste_manager_is_busy (fixture->manager, "newbox"));
  g_assert_true (kiste_manager_get_task_for_box (fixture->manager, "newbox") == task);
  wait_result (&r);

  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_false (kiste_manager_is_busy (fixture->manager, "newbox"));
  g_assert_cmpuint (n_commands (fixture), >=, 1);
  g_assert_cmpstr (command (fixture, 0), ==,
                   "distrobox create --yes --name newbox --image localhost/kiste-debian:ready "
                   "--unshare-ipc --no-entry");
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_SUCCEEDED);
  g_assert_cmpuint (g_list_model_get_n_items (kiste_manager_get_tasks (fixture->manager)), ==, 1);
}

/* distrobox create evals words a shell would glob: it runs in an empty
 * folder of its own, gone afterwards */
static void
test_create_runs_in_empty_folder (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-cwd-XXXXXX", &error);
  g_autofree char *where = g_build_filename (dir, "where", NULL);
  g_autofree char *rule = g_strdup_printf ("{ pwd; ls -A | wc -l; } > '%s'", where);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "distrobox create", rule);
  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  g_assert_true (g_file_get_contents (where, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], g_get_user_cache_dir ()));
  g_assert_cmpstr (g_strstrip (lines[1]), ==, "0");
  g_assert_false (g_file_test (lines[0], G_FILE_TEST_EXISTS));
  g_unlink (where);
  g_rmdir (dir);
}

/* Home isolation on a released distrobox: its dry run, then the manager's
 * own create without the home's mounts, then the box's launcher */
static void
test_create_isolated_home (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--dry-run", "--clone", NULL };
  Result r = { 0 };
  const char *create;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_box_store_set_host_home (_kiste_manager_get_store (fixture->manager), "/home/kistetest");
  kiste_fake_runner_add (fixture->runner, "distrobox create",
                         "cat \"$KISTE_TEST_FIXTURES/dry-run-create-plain.txt\"");
  /* the new box, once made, is listed and its details read */
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "sed 's/\"isolated\"/\"newbox\"/' \"$KISTE_TEST_FIXTURES/ps-podman5-home-isolation.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "sed 's/\"isolated\"/\"newbox\"/' \"$KISTE_TEST_FIXTURES/inspect-podman5-home-isolation.json\"");
  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  kiste_create_options_set_add_to_menu (options, TRUE);
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  g_assert_cmpstr (command (fixture, 0), ==,
                   "distrobox create --yes --name newbox --image localhost/kiste-debian:ready "
                   "--no-entry --dry-run");
  create = command (fixture, 1);
  g_assert_true (g_str_has_prefix (create, "podman create "));
  g_assert_null (strstr (create, "/home/kistetest:/home/kistetest"));
  g_assert_null (strstr (create, "/home:/run/host/home"));
  g_assert_nonnull (strstr (create, "--mount type=tmpfs,destination=/run/host/home,notmpcopyup"));
  g_assert_nonnull (strstr (create, "--label distrobox.unshare_home=1"));
  g_assert_nonnull (strstr (create, "--env DISTROBOX_UNSHARE_HOME=1"));
  /* the box wants its launcher: listed, checked, then generate-entry with
   * an icon (without one distrobox goes through a file in /tmp) */
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "distrobox generate-entry"), ==,
                   "distrobox generate-entry newbox --icon utilities-terminal");
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container inspect"), ==, 1);
}

/* Cloned: the source is committed first, as distrobox does, and the dry
 * run uses that image; an unknown dry run creates nothing */
static void
test_create_isolated_home_clone_and_refusal (Fixture       *fixture,
                                             gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--dry-run", "--clone", NULL };
  Result r = { 0 };

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_fake_runner_add (fixture->runner, "distrobox create", "echo 'sudo podman create'");
  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_clone_source (options, "fixture-a");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);

  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_nonnull (strstr (r.error->message, "Home isolation is not available"));
  g_assert_true (g_str_has_prefix (command (fixture, 0), "podman container commit fixture-a fixture-a:"));
  g_assert_true (g_str_has_prefix (command (fixture, 1),
                                   "distrobox create --yes --name newbox --image fixture-a:"));
  g_assert_true (g_str_has_suffix (command (fixture, 1), " --no-entry --dry-run"));
  /* nothing was created: the failure lists the boxes again, nothing else */
  for (guint i = 2; i < n_commands (fixture); i++)
    g_assert_true (g_str_has_prefix (command (fixture, i), "podman ps"));
  g_clear_error (&r.error);
}

/* distrobox upgrade enters the box, which evals the image's PATH on the
 * host: with shell syntax in it, nothing goes through distrobox */
/* A box without the user's home copies as one: the clone goes through the
 * same commit, dry run and create without the home's mounts */
static void
test_clone_isolated_home (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"),
                                            "ps-podman5-home-isolation.json", NULL);
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--dry-run", "--clone", NULL };
  KisteBoxStore *store = _kiste_manager_get_store (fixture->manager);
  Result r = { 0 };
  guint i;

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_box_store_set_host_home (store, "/home/kistetest");
  g_assert_true (g_file_get_contents (path, &json, NULL, &error));
  g_assert_true (_kiste_box_store_parse (store, json, &boxes, &error));
  g_assert_no_error (error);
  _kiste_box_store_merge (store, boxes);
  g_assert_cmpint (kiste_box_get_unshare (kiste_box_store_find_by_name (store, "isolated"), KISTE_UNSHARE_HOME),
                   ==, KISTE_SHARING_UNSHARED);
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5-home-isolation.json\"");
  kiste_fake_runner_add (fixture->runner, "distrobox create",
                         "cat \"$KISTE_TEST_FIXTURES/dry-run-create-plain.txt\"");

  kiste_manager_clone_async (fixture->manager, "isolated", "isolated-copy", FALSE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  for (i = 0; i < n_commands (fixture); i++)
    if (g_str_has_prefix (command (fixture, i), "podman container commit isolated isolated:"))
      break;
  g_assert_cmpuint (i, <, n_commands (fixture));
  g_assert_true (g_str_has_prefix (command (fixture, i + 1),
                                   "distrobox create --yes --name isolated-copy --image isolated:"));
  g_assert_true (g_str_has_suffix (command (fixture, i + 1), " --dry-run"));
  g_assert_true (g_str_has_prefix (command (fixture, i + 2), "podman create "));
  g_assert_nonnull (strstr (command (fixture, i + 2), "--label distrobox.unshare_home=1"));
}

static void
test_upgrade_refuses_hazard (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *source = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "inspect-podman5.json", NULL);
  g_autofree char *json = NULL;
  g_autofree char *hostile = NULL;
  g_autofree char *path = NULL;
  g_autofree char *rule = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) edited = NULL;
  Result r = { 0 };
  int fd;

  g_assert_true (g_file_get_contents (source, &json, NULL, &error));
  edited = g_string_new (json);
  /* every box's image gets a PATH that runs a command when eval'd */
  g_assert_cmpuint (g_string_replace (edited, "\"PATH=", "\"PATH=$(touch /tmp/kiste-pwned):", 0), >, 0);
  fd = g_file_open_tmp ("kiste-inspect-XXXXXX.json", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, edited->str, -1, &error));
  rule = g_strdup_printf ("cat '%s'", path);
  kiste_fake_runner_add (fixture->runner, "podman container inspect", rule);

  kiste_manager_upgrade_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_assert_nonnull (strstr (r.error->message, "PATH"));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container inspect"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  g_clear_error (&r.error);

  /* exporting goes through distrobox enter too, and so do the launchers
   * and wrappers it writes, and the box's own launcher */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/firefox.desktop", FALSE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_export_binary_async (fixture->manager, "fixture-a", "/usr/bin/htop", FALSE, NULL,
                                     operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_set_box_entry_async (fixture->manager, "fixture-a", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);

  /* taking an export out needs no distrobox enter: nothing exported here */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/firefox.desktop", TRUE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&r.error);

  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  g_unlink (path);
}

/* Not knowing is refusing: a box whose details cannot be read is not
 * entered through distrobox */
static void
test_unknown_details_refused (Fixture       *fixture,
                              gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "echo 'Error: inspect failed' >&2; exit 125");

  kiste_manager_upgrade_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/firefox.desktop", FALSE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
  g_clear_error (&r.error);

  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container inspect"), ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
}

static void
test_one_operation_per_box (Fixture       *fixture,
                            gconstpointer  data)
{
  Result first = { 0 };
  Result second = { 0 };
  Result other = { 0 };

  set_slow (fixture->runner);
  kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &first);
  kiste_manager_upgrade_async (fixture->manager, "fixture-a", NULL, operation_cb, &second);
  /* A different box runs side by side */
  kiste_manager_stop_async (fixture->manager, "fixture-c", NULL, operation_cb, &other);

  wait_result (&second);
  g_assert_error (second.error, KISTE_ERROR, KISTE_ERROR_BUSY);
  g_assert_true (kiste_manager_is_busy (fixture->manager, "fixture-a"));
  g_assert_true (kiste_manager_is_busy (fixture->manager, "fixture-c"));
  g_clear_error (&second.error);

  wait_result (&first);
  wait_result (&other);
  g_assert_no_error (first.error);
  g_assert_no_error (other.error);
  g_assert_false (kiste_manager_is_busy (fixture->manager, "fixture-a"));

  /* Only the two stops ran, with the engine's bounded stop */
  g_assert_cmpuint (n_commands (fixture), ==, 2);
  g_assert_cmpstr (command (fixture, 0), ==, "podman stop --time 10 fixture-a");
  g_assert_cmpstr (command (fixture, 1), ==, "podman stop --time 10 fixture-c");
}

static void
test_delete_home (Fixture       *fixture,
                  gconstpointer  data)
{
  Result r = { 0 };

  /* fixture-a uses the host home: there is no home of its own to delete */
  kiste_manager_delete_async (fixture->manager, "fixture-a", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);

  /* fixture-b has /home/tester/h2: removed after distrobox rm */
  r = (Result) { 0 };
  kiste_manager_delete_async (fixture->manager, "fixture-b", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpuint (n_commands (fixture), ==, 4);
  g_assert_cmpstr (command (fixture, 0), ==, "distrobox rm --force fixture-b");
  /* its unit that started it at login, when Kiste's (nothing here) */
  g_assert_true (g_str_has_prefix (command (fixture, 1), "sh -c "));
  g_assert_true (g_str_has_suffix (command (fixture, 1),
                                   "/systemd/user/kiste-box-fixture-b.service "
                                   "'# Written by Kiste for the box fixture-b'"));
  /* through the script that follows no link a box put on the way */
  g_assert_true (g_str_has_prefix (command (fixture, 2), "sh -c "));
  g_assert_true (g_str_has_suffix (command (fixture, 2), " sh /home/tester/h2"));
  /* The list learns of it before the operation ends */
  g_assert_true (g_str_has_prefix (command (fixture, 3), "podman ps"));
}

static void
test_missing_box (Fixture       *fixture,
                  gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_delete_async (fixture->manager, "no-such-box", FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);
}

static void
test_clone_and_rename (Fixture       *fixture,
                       gconstpointer  data)
{
  Result r = { 0 };

  /* A running source must be stopped first, and only when asked */
  kiste_manager_clone_async (fixture->manager, "fixture-a", "fixture-a2", FALSE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_BUSY);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);

  /* Bad new names start nothing */
  r = (Result) { 0 };
  kiste_manager_clone_async (fixture->manager, "fixture-a", "fixture-b", TRUE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, "fixture-c", "bad name", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, "fixture-c", "fixture-b", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);
}

/* The flags of the released distrobox */
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

static gboolean
has_command (Fixture    *fixture,
             const char *prefix)
{
  return kiste_fake_runner_find (fixture->runner, prefix) != NULL;
}

/* distrobox create --clone copies the image, not the options: the copy of
 * a box with its own home, init and namespaces gets them as flags */
static void
test_clone_keeps_settings (Fixture       *fixture,
                           gconstpointer  data)
{
  Result r = { 0 };
  const char *create;

  set_full_capabilities (fixture);
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");

  /* fixture-b: stopped, home /home/tester/h2, init, own network and processes */
  kiste_manager_clone_async (fixture->manager, "fixture-b", "fixture-b2", FALSE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  create = kiste_fake_runner_find (fixture->runner, "distrobox create");
  g_assert_nonnull (create);
  g_assert_true (g_str_has_prefix (create, "distrobox create --yes --name fixture-b2 --clone fixture-b "));
  g_assert_nonnull (strstr (create, " --home /home/tester/h2"));
  g_assert_nonnull (strstr (create, " --init"));
  g_assert_nonnull (strstr (create, " --unshare-netns"));
  g_assert_nonnull (strstr (create, " --no-entry"));
  g_assert_false (has_command (fixture, "podman stop"));
  g_assert_false (has_command (fixture, "podman start"));

  /* fixture-c: separate shared memory and processes */
  r = (Result) { 0 };
  kiste_manager_clone_async (fixture->manager, "fixture-c", "fixture-c2", FALSE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  create = kiste_fake_runner_find (fixture->runner, "distrobox create");
  g_assert_true (g_str_has_prefix (create, "distrobox create --yes --name fixture-c2 --clone fixture-c "));
  g_assert_nonnull (strstr (create, " --unshare-ipc"));
  g_assert_nonnull (strstr (create, " --unshare-process"));
  g_assert_null (strstr (create, " --home"));
}

static guint
index_of (Fixture    *fixture,
          const char *prefix)
{
  GPtrArray *commands = kiste_fake_runner_get_commands (fixture->runner);

  for (guint i = 0; i < commands->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (commands, i), prefix))
      return i;
  g_error ("no command “%s”", prefix);
  return 0;
}

/* A running source is stopped for the copy, then runs again */
static void
test_clone_running_restarts (Fixture       *fixture,
                             gconstpointer  data)
{
  Result r = { 0 };

  set_full_capabilities (fixture);
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman logs",
                         "cat \"$KISTE_TEST_FIXTURES/logs-first-start-ready.txt\"");

  kiste_manager_clone_async (fixture->manager, "fixture-a", "fixture-a2", TRUE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpuint (index_of (fixture, "podman stop --time 10 fixture-a"), <,
                    index_of (fixture, "distrobox create --yes --name fixture-a2 --clone fixture-a"));
  g_assert_cmpuint (index_of (fixture, "distrobox create"), <,
                    index_of (fixture, "podman logs"));

  /* a failed copy still starts the source again, and fails */
  kiste_fake_runner_add (fixture->runner, "distrobox create", "echo 'Error: no space' >&2; exit 125");
  r = (Result) { 0 };
  kiste_manager_clone_async (fixture->manager, "fixture-a", "fixture-a3", TRUE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman logs"), ==, 2);
  g_clear_error (&r.error);

  /* the log followers end once their processes are reaped */
  {
    gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;

    while (g_get_monotonic_time () < until)
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (10 * 1000);
  }
}

/* Clearing the finished tasks keeps the running ones, in order */
static void
test_clear_finished (Fixture       *fixture,
                     gconstpointer  data)
{
  GListModel *tasks = kiste_manager_get_tasks (fixture->manager);
  Result r = { 0 };
  Result running = { 0 };
  KisteTask *upgrade;
  g_autoptr(KisteTask) left = NULL;

  kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  kiste_fake_runner_add (fixture->runner, "distrobox upgrade", "exec sleep 30");
  upgrade = kiste_manager_upgrade_async (fixture->manager, "fixture-c", NULL, operation_cb, &running);
  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, "fixture-b", "bad name", NULL, operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpuint (g_list_model_get_n_items (tasks), ==, 3);

  kiste_manager_clear_finished_tasks (fixture->manager);
  g_assert_cmpuint (g_list_model_get_n_items (tasks), ==, 1);
  left = g_list_model_get_item (tasks, 0);
  g_assert_true (left == upgrade);

  kiste_task_cancel (upgrade);
  wait_result (&running);
  g_clear_error (&running.error);
  kiste_manager_clear_finished_tasks (fixture->manager);
  g_assert_cmpuint (g_list_model_get_n_items (tasks), ==, 0);
}

static void
end_shell_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* Ending a closed terminal's shell keeps the manager "cleaning-up", which
 * the app holds on for, until the command in the box is done */
static void
test_end_shell_cleaning_up (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *id = g_uuid_string_random ();
  Result first = { 0 };
  Result second = { 0 };
  Result r = { 0 };
  guint notified = 0;

  g_signal_connect (fixture->manager, "notify::cleaning-up", G_CALLBACK (count_notify_cb), &notified);
  kiste_fake_runner_add (fixture->runner, "podman exec --user root", "sleep 0.2");

  kiste_manager_end_shell_async (fixture->manager, "fixture-a", id, NULL, end_shell_cb, &first);
  g_assert_true (kiste_manager_get_cleaning_up (fixture->manager));
  kiste_manager_end_shell_async (fixture->manager, "fixture-a", id, NULL, end_shell_cb, &second);
  g_assert_cmpuint (notified, ==, 1);
  wait_result (&first);
  wait_result (&second);
  g_assert_no_error (first.error);
  g_assert_no_error (second.error);
  g_assert_false (kiste_manager_get_cleaning_up (fixture->manager));
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman exec --user root fixture-a sh -c"), ==, 2);

  /* nothing to clean up for a stopped box or a foreign id */
  kiste_manager_end_shell_async (fixture->manager, "fixture-b", id, NULL, end_shell_cb, &r);
  g_assert_false (kiste_manager_get_cleaning_up (fixture->manager));
  wait_result (&r);
  g_assert_no_error (r.error);
  r = (Result) { 0 };
  kiste_manager_end_shell_async (fixture->manager, "fixture-a", "$(reboot)", NULL, end_shell_cb, &r);
  g_assert_false (kiste_manager_get_cleaning_up (fixture->manager));
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman exec"), ==, 2);
}

static void
test_export_validates_path (Fixture       *fixture,
                            gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_export_app_async (fixture->manager, "fixture-a", "firefox.desktop", FALSE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (n_commands (fixture), ==, 0);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/firefox.desktop", FALSE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  /* the box's details first: distrobox enter evals its image's PATH */
  g_assert_true (g_str_has_prefix (command (fixture, 0), "podman container inspect"));
  g_assert_cmpstr (command (fixture, n_commands (fixture) - 1), ==,
                   "distrobox enter --name fixture-a --no-tty -- distrobox-export "
                   "--app /usr/share/applications/firefox.desktop");
}

static void
write_launcher (const char *dir,
                const char *name,
                const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static gboolean
launcher_exists (const char *dir,
                 const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Removing an app from the menu runs distrobox-export --delete, which in
 * distrobox 1.8 also deletes ~/.local/share/applications/<id>: the fake
 * does the same. The user's own launcher of that name survives, also when
 * distrobox fails; a launcher of distrobox's of that name is not kept. */
static void
test_unexport_keeps_user_launcher (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-unexport-XXXXXX", &error);
  g_autofree char *bin = NULL;
  g_autofree char *fake_export = NULL;
  g_autofree char *user = NULL;
  const char *ours = "[Desktop Entry]\nName=Maps (on fixture-a)\n"
                     "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   gnome-maps  %U \n";
  const char *mine = "[Desktop Entry]\nType=Application\nName=My Maps\nExec=gnome-maps --mine\n";
  Result r = { 0 };

  g_assert_no_error (error);
  bin = g_build_filename (dir, "bin", NULL);
  _kiste_manager_set_host_dirs (fixture->manager, dir, bin);

  /* distrobox-export --app PATH --delete as 1.8.2.5 does it */
  fake_export = g_strdup_printf ("while [ $# -gt 0 ]; do [ \"$1\" = --app ] && app=$2; shift; done\n"
                                 "base=${app##*/}\n"
                                 "rm -f '%s/fixture-a-'\"$base\" '%s/'\"$base\"\n",
                                 dir, dir);
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");
  kiste_fake_runner_add (fixture->runner, "distrobox enter", fake_export);

  write_launcher (dir, "fixture-a-org.gnome.Maps.desktop", ours);
  write_launcher (dir, "org.gnome.Maps.desktop", mine);

  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/org.gnome.Maps.desktop", TRUE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner,
                                            "distrobox enter --name fixture-a --no-tty -- distrobox-export "
                                            "--app /usr/share/applications/org.gnome.Maps.desktop --delete"));
  g_assert_false (launcher_exists (dir, "fixture-a-org.gnome.Maps.desktop"));
  user = g_build_filename (dir, "org.gnome.Maps.desktop", NULL);
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (user, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, mine);
  }
  g_assert_false (launcher_exists (dir, ".org.gnome.Maps.desktop.kiste-kept"));

  /* distrobox fails (the app is gone from the box): our launcher still goes,
   * the user's stays, the failure is in the task's output */
  kiste_fake_runner_add (fixture->runner, "distrobox enter",
                         "echo 'Error: cannot find any desktop file' >&2; exit 127");
  write_launcher (dir, "fixture-a-org.gnome.Maps.desktop", ours);
  r = (Result) { 0 };
  {
    KisteTask *task = kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                                      "/usr/share/applications/org.gnome.Maps.desktop",
                                                      TRUE, NULL, operation_cb, &r);

    g_object_ref (task);
    wait_result (&r);
    g_assert_no_error (r.error);
    g_assert_nonnull (strstr (kiste_task_get_output (task), "cannot find any desktop file"));
    g_object_unref (task);
  }
  g_assert_false (launcher_exists (dir, "fixture-a-org.gnome.Maps.desktop"));
  g_assert_true (launcher_exists (dir, "org.gnome.Maps.desktop"));

  /* Not exported: nothing runs */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "fixture-a",
                                  "/usr/share/applications/org.gnome.Maps.desktop", TRUE, NULL,
                                  operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&r.error);

  g_assert_cmpint (g_unlink (user), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result r = { 0 };
  KisteTask *task;

  set_slow (fixture->runner);
  task = kiste_manager_upgrade_async (fixture->manager, "fixture-a", cancellable,
                                      operation_cb, &r);
  g_assert_true (kiste_task_get_cancellable_by_user (task));
  kiste_task_cancel (task);
  wait_result (&r);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_CANCELLED);
  g_assert_false (kiste_manager_is_busy (fixture->manager, "fixture-a"));
  g_clear_error (&r.error);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

/* The probes' answers the load tests share; help_script is how
 * `distrobox create --help` answers (NULL: at once) */
static void
add_probe_answers (KisteFakeRunner *runner,
                   const char      *help_script)
{
  kiste_fake_runner_add (runner, "distrobox --version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (runner, "distrobox create --help",
                         help_script != NULL ? help_script
                                             : "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"");
  kiste_fake_runner_add (runner, "podman --version", "echo 'podman version 5.4.2'");
}

static void
load_and_wait (Fixture    *fixture,
               const char *preferred)
{
  Result r = { FALSE };

  kiste_manager_load_async (fixture->manager, preferred, NULL, load_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
}

/* The events stream lets go of the runner once it has ended */
static void
stop_watching (Fixture *fixture,
               guint    runner_refs)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (fixture->manager);
  GPtrArray *sources = kiste_box_list_get_sources (boxes);

  /* the sources of other engines hold the runner too */
  while (sources->len > 1)
    kiste_box_list_remove_source (boxes, g_ptr_array_index (sources, sources->len - 1));
  kiste_box_list_stop_watching (boxes);
  while (G_OBJECT (fixture->runner)->ref_count > runner_refs)
    g_main_context_iteration (NULL, TRUE);
}

/* The first listing starts once distrobox and podman have answered, not
 * after `distrobox create --help`: here that waits for the listing, and
 * the load could not finish if the listing waited for it. */
static void
test_load_lists_before_help (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-manager-XXXXXX", NULL);
  g_autofree char *listed = g_build_filename (dir, "listed", NULL);
  g_autofree char *help = NULL;
  g_autofree char *ps = NULL;
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;

  g_setenv ("DBX_CONTAINER_MANAGER", "podman", TRUE);
  help = g_strdup_printf ("while [ ! -e '%s' ]; do sleep 0.05; done; "
                          "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"", listed);
  ps = g_strdup_printf ("touch '%s'; cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"", listed);
  add_probe_answers (fixture->runner, help);
  kiste_fake_runner_add (fixture->runner, "docker", "exit 127");
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);

  load_and_wait (fixture, NULL);

  /* one listing, and what help said is known */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  g_assert_true (kiste_capabilities_supports_create_flag (kiste_manager_get_capabilities (fixture->manager),
                                                          "--unshare-groups"));
  g_assert_true (kiste_box_store_get_watching (_kiste_manager_get_store (fixture->manager)));

  stop_watching (fixture, runner_refs);

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  g_unlink (listed);
  g_rmdir (dir);
}

/* With podman there, docker's answer cannot change the manager to list
 * with: the listing does not wait for it (docker's CLI is slow to start).
 * Docker answers here only once the listing has begun. */
static void
test_load_lists_before_docker (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-manager-XXXXXX", NULL);
  g_autofree char *listed = g_build_filename (dir, "listed", NULL);
  g_autofree char *saw = g_build_filename (dir, "docker-saw-listing", NULL);
  g_autofree char *docker = NULL;
  g_autofree char *ps = NULL;
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  docker = g_strdup_printf ("i=0; while [ ! -e '%s' ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; "
                            "[ -e '%s' ] && touch '%s'; echo 'Docker version 28.2.2, build e6534b4'",
                            listed, listed, saw);
  ps = g_strdup_printf ("touch '%s'; cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"", listed);
  add_probe_answers (fixture->runner, NULL);
  kiste_fake_runner_add (fixture->runner, "docker --version", docker);
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);

  load_and_wait (fixture, NULL);

  g_assert_true (g_file_test (saw, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  g_assert_true (kiste_capabilities_has_manager (kiste_manager_get_capabilities (fixture->manager), "docker"));

  stop_watching (fixture, runner_refs);
  g_unlink (saw);
  g_unlink (listed);
  g_rmdir (dir);
}

/* Docker asked for: its answer decides between it and podman, so the
 * listing waits for it however slow, and lists once, with docker */
static gboolean
several_engines (gpointer data)
{
  return kiste_box_list_get_several_engines (data);
}

static gboolean
list_loaded (gpointer data)
{
  return kiste_box_list_get_loaded (data);
}

static gboolean
one_source (gpointer data)
{
  return kiste_box_list_get_sources (data)->len == 1;
}

/* Docker beside podman: its boxes join the list from one ps and one
 * events stream of their own, and every operation on one of them goes to
 * docker, or to distrobox told to use docker */
static void
test_load_other_engine (Fixture       *fixture,
                        gconstpointer  data)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (fixture->manager);
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;
  g_auto(GStrv) enter = NULL;
  g_autofree char *enter_text = NULL;
  Result r = { 0 };
  KisteBox *box;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  add_probe_answers (fixture->runner, NULL);
  kiste_fake_runner_add (fixture->runner, "docker --version", "echo 'Docker version 28.2.2, build e6534b4'");
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "docker events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "docker ps", "cat \"$KISTE_TEST_FIXTURES/docker-ps.txt\"");

  load_and_wait (fixture, NULL);
  g_assert_true (kiste_test_wait_for (several_engines, boxes, 10000));
  g_assert_cmpuint (kiste_box_list_get_sources (boxes)->len, ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker events"), ==, 1);

  box = kiste_box_list_find (boxes, "docker/dbx-debian");
  g_assert_nonnull (box);
  g_assert_cmpstr (kiste_box_get_engine (box), ==, "docker");
  g_assert_nonnull (kiste_box_list_find (boxes, "fixture-a"));

  /* the engine's own stop, on docker */
  kiste_manager_stop_async (fixture->manager, "docker/dbx-debian", NULL, operation_cb, &r);
  g_assert_true (kiste_manager_is_busy (fixture->manager, "docker/dbx-debian"));
  g_assert_false (kiste_manager_is_busy (fixture->manager, "fixture-a"));
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "docker stop --time 10 dbx-debian"));

  /* distrobox is told the engine */
  kiste_fake_runner_add (fixture->runner, "env DBX_CONTAINER_MANAGER=docker distrobox rm", "exit 0");
  r = (Result) { 0 };
  kiste_manager_delete_async (fixture->manager, "docker/dbx-debian", FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "env DBX_CONTAINER_MANAGER=docker distrobox rm"));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "distrobox rm"));

  enter = kiste_manager_dup_enter_argv (fixture->manager, box, NULL, NULL);
  enter_text = kiste_argv_to_display_string ((const char * const *) enter);
  g_assert_true (g_str_has_prefix (enter_text, "env DBX_CONTAINER_MANAGER=docker distrobox enter"));

  /* distrobox's own launchers and wrappers would name no engine */
  r = (Result) { 0 };
  kiste_manager_export_binary_async (fixture->manager, "docker/dbx-debian", "/usr/bin/htop", FALSE, NULL,
                                     operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (r.error->message, "Docker"));
  g_clear_error (&r.error);
  r = (Result) { 0 };
  kiste_manager_set_box_entry_async (fixture->manager, "docker/dbx-debian", TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  /* the source holds the runner too */
  kiste_box_list_remove_source (boxes, kiste_box_list_find_source (boxes, "docker"));
  stop_watching (fixture, runner_refs);
}

/* A stock Silverblue: Toolbx and podman, no distrobox. The toolboxes are
 * listed, from the one ps; with neither tool the load fails as before. */
static void
test_load_toolbox_only (Fixture       *fixture,
                        gconstpointer  data)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (fixture->manager);
  KisteCapabilities *caps = kiste_manager_get_capabilities (fixture->manager);
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;
  Result r = { FALSE };
  KisteBox *box;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  kiste_fake_runner_add (fixture->runner, "distrobox", "exit 127");
  kiste_fake_runner_add (fixture->runner, "docker", "exit 127");
  kiste_fake_runner_add (fixture->runner, "podman --version", "echo 'podman version 5.4.2'");
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman-edge.json\"");

  /* neither: what is missing is said */
  kiste_fake_runner_add (fixture->runner, "toolbox", "exit 127");
  kiste_manager_load_async (fixture->manager, NULL, NULL, load_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_clear_error (&r.error);
  g_assert_false (kiste_capabilities_has_toolbox (caps));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 0);

  kiste_fake_runner_add (fixture->runner, "toolbox --version", "echo 'toolbox version 0.0.99.4'");
  load_and_wait (fixture, NULL);
  g_assert_false (kiste_capabilities_has_distrobox (caps));
  g_assert_true (kiste_capabilities_has_toolbox (caps));
  g_assert_cmpstr (kiste_capabilities_get_toolbox_version (caps), ==, "0.0.99.4");
  g_assert_true (kiste_test_wait_for (list_loaded, boxes, 10000));
  box = kiste_box_list_find (boxes, "fedora-toolbox-41");
  g_assert_nonnull (box);
  g_assert_cmpint (kiste_box_get_tool (box), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_true (kiste_box_list_get_several_tools (boxes));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  g_assert_cmpuint (kiste_box_list_get_sources (boxes)->len, ==, 1);

  stop_watching (fixture, runner_refs);
}

/* An engine that cannot be asked (its daemon refuses the user) shows no
 * boxes and leaves the list, and nothing of it runs on */
static void
test_load_other_engine_unreachable (Fixture       *fixture,
                                    gconstpointer  data)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (fixture->manager);
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  add_probe_answers (fixture->runner, NULL);
  kiste_fake_runner_add (fixture->runner, "docker --version", "echo 'Docker version 28.2.2, build e6534b4'");
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "docker events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "docker ps",
                         "echo 'permission denied while trying to connect to the Docker daemon socket' >&2; "
                         "exit 1");

  load_and_wait (fixture, NULL);
  g_assert_true (kiste_test_wait_for (one_source, boxes, 10000));
  g_assert_false (kiste_box_list_get_several_engines (boxes));
  g_assert_null (kiste_box_list_find (boxes, "docker/dbx-debian"));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 1);

  stop_watching (fixture, runner_refs);
}

static void
test_load_waits_for_docker_asked_for (Fixture       *fixture,
                                      gconstpointer  data)
{
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  add_probe_answers (fixture->runner, NULL);
  kiste_fake_runner_add (fixture->runner, "docker --version", "sleep 0.3; echo 'Docker version 28.2.2, build e6534b4'");
  kiste_fake_runner_add (fixture->runner, "docker events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "docker ps", "true");
  kiste_fake_runner_add (fixture->runner, "podman", "echo 'podman must not list' >&2; exit 1");

  load_and_wait (fixture, "docker");

  /* docker lists first; podman only as the other engine, once the probes
   * are in, and here it cannot list, so it leaves the list */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 1);
  g_assert_cmpstr (kiste_manager_get_engine (fixture->manager), ==, "docker");
  g_assert_true (kiste_test_wait_for (one_source, kiste_manager_get_boxes (fixture->manager), 10000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), <=, 1);
  if (kiste_fake_runner_count (fixture->runner, "podman ps") == 1)
    g_assert_cmpuint (index_of (fixture, "docker ps"), <, index_of (fixture, "podman ps"));

  stop_watching (fixture, runner_refs);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/manager/create-invalid-runs-nothing", test_create_invalid_runs_nothing);
  ADD ("/kiste/manager/create-runs-distrobox", test_create_runs_distrobox);
  ADD ("/kiste/manager/create-isolated-home", test_create_isolated_home);
  ADD ("/kiste/manager/create-runs-in-empty-folder", test_create_runs_in_empty_folder);
  ADD ("/kiste/manager/create-isolated-home-clone-and-refusal", test_create_isolated_home_clone_and_refusal);
  ADD ("/kiste/manager/one-operation-per-box", test_one_operation_per_box);
  ADD ("/kiste/manager/upgrade-refuses-hazard", test_upgrade_refuses_hazard);
  ADD ("/kiste/manager/unknown-details-refused", test_unknown_details_refused);
  ADD ("/kiste/manager/delete-home", test_delete_home);
  ADD ("/kiste/manager/missing-box", test_missing_box);
  ADD ("/kiste/manager/clone-and-rename", test_clone_and_rename);
  ADD ("/kiste/manager/clone-keeps-settings", test_clone_keeps_settings);
  ADD ("/kiste/manager/clone-isolated-home", test_clone_isolated_home);
  ADD ("/kiste/manager/clear-finished", test_clear_finished);
  ADD ("/kiste/manager/clone-running-restarts", test_clone_running_restarts);
  ADD ("/kiste/manager/end-shell-cleaning-up", test_end_shell_cleaning_up);
  ADD ("/kiste/manager/export-validates-path", test_export_validates_path);
  ADD ("/kiste/manager/unexport-keeps-user-launcher", test_unexport_keeps_user_launcher);
  ADD ("/kiste/manager/cancel", test_cancel);
  ADD ("/kiste/manager/load-lists-before-help", test_load_lists_before_help);
  ADD ("/kiste/manager/load-other-engine", test_load_other_engine);
  ADD ("/kiste/manager/load-other-engine-unreachable", test_load_other_engine_unreachable);
  ADD ("/kiste/manager/load-toolbox-only", test_load_toolbox_only);
  ADD ("/kiste/manager/load-lists-before-docker", test_load_lists_before_docker);
  ADD ("/kiste/manager/load-waits-for-docker-asked-for", test_load_waits_for_docker_asked_for);

#undef ADD

  return g_test_run ();
}
