/* test-manager.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-capabilities-private.h"
#include "kiste-box-store-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
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
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--clone", "--unshare-ipc", NULL };
  KisteBoxStore *store;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                      "1.8.2.5", "podman", flags);

  /* The boxes of a captured `podman ps`, without running it */
  store = kiste_manager_get_store (fixture->manager);
  kiste_box_store_set_host_home (store, "/home/tester");
  g_assert_true (g_file_get_contents (path, &json, NULL, &error));
  g_assert_true (_kiste_box_store_parse (store, json, &boxes, &error));
  g_assert_no_error (error);
  _kiste_box_store_merge (store, boxes);
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

  kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                      "1.8.2.5", "podman", flags);
  kiste_box_store_set_host_home (kiste_manager_get_store (fixture->manager), "/home/kistetest");
  kiste_fake_runner_add (fixture->runner, "distrobox create",
                         "cat \"$KISTE_TEST_FIXTURES/dry-run-create-plain.txt\"");
  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  kiste_create_options_set_add_to_menu (options, TRUE);
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  g_assert_cmpstr (command (fixture, 0), ==,
                   "distrobox create --yes --name newbox --image localhost/kiste-debian:ready --dry-run");
  create = command (fixture, 1);
  g_assert_true (g_str_has_prefix (create, "podman create "));
  g_assert_null (strstr (create, "/home/kistetest:/home/kistetest"));
  g_assert_null (strstr (create, "/home:/run/host/home"));
  g_assert_nonnull (strstr (create, "--mount type=tmpfs,destination=/run/host/home,notmpcopyup"));
  g_assert_nonnull (strstr (create, "--label distrobox.unshare_home=1"));
  g_assert_nonnull (strstr (create, "--env DISTROBOX_UNSHARE_HOME=1"));
  /* what distrobox create would do next, since the box wants its launcher */
  g_assert_cmpstr (command (fixture, 2), ==, "distrobox generate-entry newbox");
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

  kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
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
  g_assert_cmpuint (n_commands (fixture), ==, 3);
  g_assert_cmpstr (command (fixture, 0), ==, "distrobox rm --force fixture-b");
  g_assert_cmpstr (command (fixture, 1), ==, "rm -rf --one-file-system -- /home/tester/h2");
  /* The list learns of it before the operation ends */
  g_assert_true (g_str_has_prefix (command (fixture, 2), "podman ps"));
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

  r = (Result) { 0 };
  kiste_manager_clone_async (fixture->manager, "fixture-a", "fixture-a2", TRUE, NULL,
                             operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (command (fixture, 0), ==, "podman stop --time 10 fixture-a");
  g_assert_cmpstr (command (fixture, 1), ==,
                   "distrobox create --yes --no-entry --clone fixture-a --name fixture-a2");

  /* Bad new names start nothing */
  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, "fixture-c", "bad name", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  /* stop, clone, and the listing that learns of the clone */
  g_assert_cmpuint (n_commands (fixture), ==, 3);
  g_clear_error (&r.error);

  r = (Result) { 0 };
  kiste_manager_rename_async (fixture->manager, "fixture-c", "fixture-b", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (n_commands (fixture), ==, 3);
  g_clear_error (&r.error);
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
  g_assert_cmpstr (command (fixture, 0), ==,
                   "distrobox enter --name fixture-a --no-tty -- distrobox-export "
                   "--app /usr/share/applications/firefox.desktop");
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

  r->ok = kiste_manager_load_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
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
  Result r = { FALSE };
  guint runner_refs = G_OBJECT (fixture->runner)->ref_count;

  g_setenv ("DBX_CONTAINER_MANAGER", "podman", TRUE);
  help = g_strdup_printf ("while [ ! -e '%s' ]; do sleep 0.05; done; "
                          "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"", listed);
  ps = g_strdup_printf ("touch '%s'; cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"", listed);
  kiste_fake_runner_add (fixture->runner, "distrobox --version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (fixture->runner, "distrobox create --help", help);
  kiste_fake_runner_add (fixture->runner, "podman --version", "echo 'podman version 5.4.2'");
  kiste_fake_runner_add (fixture->runner, "docker", "exit 127");
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);

  kiste_manager_load_async (fixture->manager, NULL, NULL, load_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);

  /* one listing, and what help said is known */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  g_assert_true (kiste_capabilities_supports_create_flag (kiste_manager_get_capabilities (fixture->manager),
                                                          "--unshare-groups"));
  g_assert_true (kiste_box_store_get_watching (kiste_manager_get_store (fixture->manager)));

  /* the events stream lets go of the runner once it has ended */
  kiste_box_store_stop_watching (kiste_manager_get_store (fixture->manager));
  while (G_OBJECT (fixture->runner)->ref_count > runner_refs)
    g_main_context_iteration (NULL, TRUE);

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  g_unlink (listed);
  g_rmdir (dir);
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
  ADD ("/kiste/manager/create-isolated-home-clone-and-refusal", test_create_isolated_home_clone_and_refusal);
  ADD ("/kiste/manager/one-operation-per-box", test_one_operation_per_box);
  ADD ("/kiste/manager/delete-home", test_delete_home);
  ADD ("/kiste/manager/missing-box", test_missing_box);
  ADD ("/kiste/manager/clone-and-rename", test_clone_and_rename);
  ADD ("/kiste/manager/export-validates-path", test_export_validates_path);
  ADD ("/kiste/manager/cancel", test_cancel);
  ADD ("/kiste/manager/load-lists-before-help", test_load_lists_before_help);

#undef ADD

  return g_test_run ();
}
