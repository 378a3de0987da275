/* test-core-integration.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The core against real rootless podman and distrobox, run as an ordinary
 * user by run-e2e: one box's whole life through KisteManager, and the store
 * following changes made with the CLI. */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-apps.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-create.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-manager-private.h"
#include "kiste-manager.h"

#define BOX "kiste-e2e-core"
#define ISOLATED_BOX "kiste-e2e-core-nohome"
#define IMAGE "localhost/kiste-debian:ready"
#define APP_PATH "/usr/share/applications/kiste-test-clock.desktop"

static KisteManager *manager;

typedef struct
{
  gboolean      done;
  GAsyncResult *result;
} Wait;

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  wait->done = TRUE;
}

static GAsyncResult *
wait_for_result (Wait *wait)
{
  while (!wait->done)
    g_main_context_iteration (NULL, TRUE);
  return wait->result;
}

static gboolean
timeout_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until predicate holds; returns the time it took in µs, or -1 */
static gint64
wait_until (gboolean (*predicate) (void),
            guint      timeout_ms)
{
  gint64 start = g_get_monotonic_time ();
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (timeout_ms, timeout_cb, &timed_out);

  while (!predicate () && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);
  return timed_out ? -1 : g_get_monotonic_time () - start;
}

static KisteBox *
find_box (void)
{
  return kiste_box_store_find_by_name (_kiste_manager_get_store (manager), BOX);
}

static gboolean
box_listed (void)
{
  return find_box () != NULL;
}

static gboolean
box_gone (void)
{
  return find_box () == NULL;
}

static gboolean
box_running (void)
{
  KisteBox *box = find_box ();

  return box != NULL && kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING;
}

static gboolean
box_stopped (void)
{
  KisteBox *box = find_box ();

  return box != NULL && kiste_box_get_state (box) == KISTE_BOX_STATE_STOPPED;
}

static void
finish_operation (Wait *wait)
{
  g_autoptr(GError) error = NULL;

  gboolean ok = kiste_manager_operation_finish (manager, wait_for_result (wait), &error);

  /* the message first: it says what went wrong */
  g_assert_no_error (error);
  g_assert_true (ok);
  g_clear_object (&wait->result);
}

/* Runs argv to completion outside the manager, like a person at the CLI */
static void
run_cli (const char * const *argv)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  Wait wait = { 0 };

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check_async (process, NULL, wait_cb, &wait);
  g_assert_true (g_subprocess_wait_check_finish (process, wait_for_result (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
}

/* Runs argv outside the manager and returns what it printed */
static char *
run_cli_output (const char * const *argv)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (process));
  return out;
}

static char *
launcher_path (void)
{
  return g_build_filename (g_get_user_data_dir (), "applications",
                           BOX "-kiste-test-clock.desktop", NULL);
}

static void
test_load (void)
{
  g_autoptr(GError) error = NULL;
  Wait wait = { 0 };

  kiste_manager_load_async (manager, NULL, NULL, wait_cb, &wait);
  g_assert_true (kiste_manager_operation_finish (manager, wait_for_result (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);

  g_assert_true (kiste_box_store_get_loaded (_kiste_manager_get_store (manager)));
  g_assert_true (kiste_box_store_get_watching (_kiste_manager_get_store (manager)));
  g_assert_cmpstr (kiste_runner_get_manager (kiste_manager_get_runner (manager)), ==, "podman");
  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (kiste_manager_get_capabilities (manager)),
                   ==, "1.8.2.5");
}

static void
test_create (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  KisteTask *task;
  KisteBox *box;
  Wait wait = { 0 };

  kiste_create_options_set_name (options, BOX);
  kiste_create_options_set_image (options, IMAGE);
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_IPC, TRUE);

  task = kiste_manager_create_async (manager, options, NULL, wait_cb, &wait);
  g_assert_nonnull (task);
  g_assert_true (kiste_manager_is_busy (manager, BOX));
  finish_operation (&wait);
  g_assert_false (kiste_manager_is_busy (manager, BOX));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_SUCCEEDED);
  g_assert_nonnull (strstr (kiste_task_get_output (task), "distrobox create"));

  g_assert_cmpint (wait_until (box_listed, 5000), >=, 0);
  box = find_box ();
  g_assert_cmpstr (kiste_box_get_image (box), ==, IMAGE);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_CREATED);
  g_assert_cmpint (kiste_box_get_host_home_sharing (box), ==, KISTE_SHARING_SHARED);
}

static void
count_step_cb (KisteTask  *task,
               GParamSpec *pspec,
               GPtrArray  *steps)
{
  const char *step = kiste_task_get_step (task);

  if (step != NULL && (steps->len == 0 ||
                       g_strcmp0 (g_ptr_array_index (steps, steps->len - 1), step) != 0))
    g_ptr_array_add (steps, g_strdup (step));
}

static void
test_start_with_progress (void)
{
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (g_free);
  KisteTask *task;
  Wait wait = { 0 };

  task = kiste_manager_start_async (manager, BOX, NULL, wait_cb, &wait);
  g_signal_connect (task, "notify::step", G_CALLBACK (count_step_cb), steps);
  finish_operation (&wait);

  /* The first start goes through distrobox-init's steps, in order */
  for (guint i = 0; i < steps->len; i++)
    g_test_message ("step: %s", (char *) g_ptr_array_index (steps, i));
  g_assert_cmpuint (steps->len, >=, 3);
  g_assert_true (g_ptr_array_find_with_equal_func (steps, "Setting up sudo",
                                                   (GEqualFunc) g_str_has_prefix, NULL));
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, 1.0);
  g_assert_cmpint (wait_until (box_running, 5000), >=, 0);
}

static void
test_apps_export (void)
{
  const char *make_app[] = {
    "podman", "exec", "--user", "root", BOX, "sh", "-c",
    "mkdir -p /usr/share/applications && printf '%s\\n' '[Desktop Entry]' 'Type=Application' "
    "'Name=Kiste Test Clock' 'Exec=xclock' 'Icon=xclock' > " APP_PATH,
    NULL
  };
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GPtrArray) exported = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *launcher = launcher_path ();
  KisteDesktopApp *clock = NULL;
  Wait wait = { 0 };

  run_cli (make_app);

  kiste_manager_list_apps_async (manager, BOX, NULL, wait_cb, &wait);
  apps = kiste_manager_query_finish (manager, wait_for_result (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  for (guint i = 0; i < apps->len; i++)
    if (g_strcmp0 (kiste_desktop_app_get_path (g_ptr_array_index (apps, i)), APP_PATH) == 0)
      clock = g_ptr_array_index (apps, i);
  g_assert_nonnull (clock);
  g_assert_cmpstr (kiste_desktop_app_get_name (clock), ==, "Kiste Test Clock");
  g_assert_false (kiste_desktop_app_get_exported (clock));

  /* Export: distrobox-export writes the launcher on the host */
  wait = (Wait) { 0 };
  kiste_manager_export_app_async (manager, BOX, APP_PATH, FALSE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_true (g_file_test (launcher, G_FILE_TEST_EXISTS));

  wait = (Wait) { 0 };
  kiste_manager_list_exported_async (manager, BOX, NULL, wait_cb, &wait);
  exported = kiste_manager_query_finish (manager, wait_for_result (&wait), &error);
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpuint (exported->len, ==, 1);
  g_assert_cmpstr (((KisteExportedFile *) g_ptr_array_index (exported, 0))->path, ==, launcher);

  /* Unexport removes exactly that launcher */
  wait = (Wait) { 0 };
  kiste_manager_export_app_async (manager, BOX, APP_PATH, TRUE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_false (g_file_test (launcher, G_FILE_TEST_EXISTS));
}

#define COPY BOX "-copy"

static gboolean
copy_listed (void)
{
  return kiste_box_store_find_by_name (_kiste_manager_get_store (manager), COPY) != NULL;
}

static gboolean
copy_gone (void)
{
  return !copy_listed ();
}

/* distrobox create --clone copies the image, not the settings: the copy
 * of a running box with its own shared memory keeps it, and the source
 * runs again afterwards */
static void
test_clone (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *image = NULL;
  KisteBox *copy;
  Wait wait = { 0 };

  g_assert_cmpint (wait_until (box_running, 5000), >=, 0);
  kiste_manager_clone_async (manager, BOX, COPY, TRUE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_cmpint (wait_until (box_running, 5000), >=, 0);
  g_assert_cmpint (wait_until (copy_listed, 5000), >=, 0);

  copy = kiste_box_store_find_by_name (_kiste_manager_get_store (manager), COPY);
  image = g_strdup (kiste_box_get_image (copy));
  wait = (Wait) { 0 };
  kiste_box_store_load_details_async (_kiste_manager_get_store (manager), &copy, 1, NULL, wait_cb, &wait);
  g_assert_true (kiste_box_store_load_details_finish (_kiste_manager_get_store (manager),
                                                      wait_for_result (&wait), &error));
  g_assert_no_error (error);
  g_clear_object (&wait.result);
  g_assert_cmpint (kiste_box_get_unshare (copy, KISTE_UNSHARE_IPC), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpstr (kiste_box_get_distro_id (copy), ==, "debian");

  wait = (Wait) { 0 };
  kiste_manager_delete_async (manager, COPY, FALSE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_cmpint (wait_until (copy_gone, 5000), >=, 0);
  {
    const char *rmi[] = { "podman", "rmi", image, NULL };

    run_cli (rmi);
  }
}

static void
test_stop (void)
{
  Wait wait = { 0 };

  kiste_manager_stop_async (manager, BOX, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_cmpint (wait_until (box_stopped, 5000), >=, 0);
}

static void
test_store_follows_cli (void)
{
  const char *start[] = { "podman", "start", BOX, NULL };
  const char *stop[] = { "podman", "stop", "--time", "2", BOX, NULL };
  gint64 took;

  run_cli (start);
  took = wait_until (box_running, 1000);
  g_test_message ("store saw the CLI start after %" G_GINT64_FORMAT " ms", took / 1000);
  g_assert_cmpint (took, >=, 0);

  run_cli (stop);
  took = wait_until (box_stopped, 1000);
  g_test_message ("store saw the CLI stop after %" G_GINT64_FORMAT " ms", took / 1000);
  g_assert_cmpint (took, >=, 0);
}

static void
test_delete (void)
{
  Wait wait = { 0 };

  kiste_manager_delete_async (manager, BOX, FALSE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_assert_cmpint (wait_until (box_gone, 5000), >=, 0);
}

static gboolean
isolated_box_listed (void)
{
  return kiste_box_store_find_by_name (_kiste_manager_get_store (manager), ISOLATED_BOX) != NULL;
}

/* Home isolation on a distrobox without --unshare-home: the box is made
 * from the dry run, and nothing of the home reaches it */
static void
test_isolated_home (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autofree char *marker = g_build_filename (g_get_home_dir (), "kiste-e2e-secret.txt", NULL);
  g_autofree char *mounts = NULL;
  g_autofree char *label = NULL;
  g_autofree char *inside = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  const char *inspect_mounts[] = { "podman", "inspect", "--format",
                                   "{{range .Mounts}}{{println .Destination}}{{end}}", ISOLATED_BOX, NULL };
  const char *inspect_label[] = { "podman", "inspect", "--format",
                                  "{{index .Config.Labels \"distrobox.unshare_home\"}}", ISOLATED_BOX, NULL };
  g_autofree char *script = NULL;
  const char *exec[] = { "podman", "exec", "--user", g_get_user_name (), ISOLATED_BOX,
                         "sh", "-c", NULL, NULL };
  KisteTask *task;
  KisteBox *box;
  Wait wait = { 0 };

  g_assert_true (g_file_set_contents (marker, "secret\n", -1, &error));
  g_assert_no_error (error);

  kiste_create_options_set_name (options, ISOLATED_BOX);
  kiste_create_options_set_image (options, IMAGE);
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  kiste_create_options_set_add_to_menu (options, FALSE);
  task = kiste_manager_create_async (manager, options, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_test_message ("%s", kiste_task_get_output (task));
  g_assert_nonnull (strstr (kiste_task_get_output (task), "--dry-run"));

  g_assert_cmpint (wait_until (isolated_box_listed, 5000), >=, 0);
  box = kiste_box_store_find_by_name (_kiste_manager_get_store (manager), ISOLATED_BOX);
  g_assert_cmpint (kiste_box_get_host_home_sharing (box), ==, KISTE_SHARING_UNSHARED);

  /* no mount at or above the home, and the label */
  mounts = run_cli_output (inspect_mounts);
  g_test_message ("mounts:\n%s", mounts);
  {
    g_auto(GStrv) lines = g_strsplit (mounts, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        const char *dest = lines[i];

        if (dest[0] == '\0')
          continue;
        g_assert_false (g_str_equal (dest, g_get_home_dir ()));
        g_assert_false (g_str_has_prefix (g_get_home_dir (), dest) &&
                        g_get_home_dir ()[strlen (dest)] == '/' && !g_str_equal (dest, "/run/host"));
      }
  }
  label = run_cli_output (inspect_label);
  g_assert_cmpstr (g_strstrip (label), ==, "1");

  wait = (Wait) { 0 };
  kiste_manager_start_async (manager, ISOLATED_BOX, NULL, wait_cb, &wait);
  finish_operation (&wait);

  /* inside: the home is the box's own, the marker is nowhere, and the
   * host's homes under /run/host are empty */
  script = g_strdup_printf ("stat -c '%%u %%a' \"$HOME\"; "
                            "test -e %s && echo at-its-path; "
                            "test -e /run/host%s && echo under-run-host; "
                            "ls -A /run/host/home | wc -l",
                            marker, marker);
  exec[7] = script;
  inside = run_cli_output (exec);
  expected = g_strdup_printf ("%u 755\n0\n", (guint) getuid ());
  g_assert_cmpstr (inside, ==, expected);

  /* its apps still reach the host's app menu: Kiste writes the launcher
   * itself, entering the box through this computer's distrobox */
  {
    const char *make_app[] = {
      "podman", "exec", "--user", "root", ISOLATED_BOX, "sh", "-c",
      "mkdir -p /usr/share/applications && printf '%s\\n' '[Desktop Entry]' 'Type=Application' "
      "'Name=Kiste Test Clock' 'Exec=xclock' 'Icon=xclock' > " APP_PATH,
      NULL
    };
    g_autofree char *launcher = g_build_filename (g_get_user_data_dir (), "applications",
                                                  ISOLATED_BOX "-kiste-test-clock.desktop", NULL);
    g_autofree char *contents = NULL;

    run_cli (make_app);
    wait = (Wait) { 0 };
    kiste_manager_export_app_async (manager, ISOLATED_BOX, APP_PATH, FALSE, NULL, wait_cb, &wait);
    finish_operation (&wait);
    g_assert_true (g_file_get_contents (launcher, &contents, NULL, NULL));
    g_test_message ("launcher on the host:\n%s", contents);
    {
      g_autofree char *distrobox = g_find_program_in_path ("distrobox");
      g_autofree char *exec_line = g_strdup_printf ("Exec=%s enter -n " ISOLATED_BOX " -- xclock\n", distrobox);

      g_assert_nonnull (strstr (contents, exec_line));
      g_assert_nonnull (strstr (contents, "Icon=xclock\n"));
    }

    wait = (Wait) { 0 };
    kiste_manager_export_app_async (manager, ISOLATED_BOX, APP_PATH, TRUE, NULL, wait_cb, &wait);
    finish_operation (&wait);
    g_assert_false (g_file_test (launcher, G_FILE_TEST_EXISTS));
  }

  wait = (Wait) { 0 };
  kiste_manager_delete_async (manager, ISOLATED_BOX, FALSE, NULL, wait_cb, &wait);
  finish_operation (&wait);
  g_unlink (marker);
}

static void
test_store_follows_cli_removal (void)
{
  const char *create[] = { "distrobox", "create", "--yes", "--no-entry",
                           "--image", IMAGE, "--name", BOX, NULL };
  const char *rm[] = { "podman", "rm", "--force", BOX, NULL };
  gint64 took;

  run_cli (create);
  took = wait_until (box_listed, 1000);
  g_test_message ("store saw the CLI create after %" G_GINT64_FORMAT " ms", took / 1000);
  g_assert_cmpint (took, >=, 0);

  run_cli (rm);
  took = wait_until (box_gone, 1000);
  g_test_message ("store saw the CLI removal after %" G_GINT64_FORMAT " ms", took / 1000);
  g_assert_cmpint (took, >=, 0);
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);

  manager = kiste_manager_new (NULL);

  /* One box's life, in order */
  g_test_add_func ("/kiste/e2e/core/load", test_load);
  g_test_add_func ("/kiste/e2e/core/create", test_create);
  g_test_add_func ("/kiste/e2e/core/start-with-progress", test_start_with_progress);
  g_test_add_func ("/kiste/e2e/core/clone", test_clone);
  g_test_add_func ("/kiste/e2e/core/apps-export", test_apps_export);
  g_test_add_func ("/kiste/e2e/core/stop", test_stop);
  g_test_add_func ("/kiste/e2e/core/store-follows-cli", test_store_follows_cli);
  g_test_add_func ("/kiste/e2e/core/delete", test_delete);
  g_test_add_func ("/kiste/e2e/core/store-follows-cli-removal", test_store_follows_cli_removal);
  g_test_add_func ("/kiste/e2e/core/isolated-home", test_isolated_home);

  ret = g_test_run ();

  g_clear_object (&manager);
  return ret;
}
