/* test-manager-exports.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Programs of a box and everything exported across boxes, through the
 * manager against the fake runner */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *dir;
  char            *applications;
  char            *bin;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", NULL };
  g_autoptr(GError) error = NULL;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  /* the details, read before anything goes through distrobox enter */
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json", "/home/tester");

  fixture->dir = g_dir_make_tmp ("kiste-test-exports-XXXXXX", &error);
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

typedef struct
{
  gboolean   done;
  gboolean   ok;
  char      *path;
  GPtrArray *files;
  GError    *error;
} Result;

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
resolve_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Result *r = user_data;

  r->path = kiste_manager_query_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
find_host_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->path = kiste_manager_query_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
list_all_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Result *r = user_data;

  r->files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
reload_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, &r->error);
  r->done = TRUE;
}

static void
copy_fixture (const char *kind,
              const char *name,
              const char *to_dir)
{
  g_autofree char *from = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "exported-all", kind, name, NULL);
  g_autofree char *to = g_build_filename (to_dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (from, &contents, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, -1, &error);
  g_assert_no_error (error);
}

static gboolean
exists_in (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* `command -v` inside the running box; its name is an argument of a
 * constant script */
static void
test_resolve_program (Fixture       *fixture,
                      gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman exec", "echo /usr/bin/htop");
  kiste_manager_resolve_program_async (fixture->manager, "fixture-a", "htop", NULL, resolve_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (r.path, ==, "/usr/bin/htop");
  g_clear_pointer (&r.path, g_free);
  {
    const char *command = kiste_fake_runner_find (fixture->runner, "podman exec --user ");

    g_assert_nonnull (command);
    g_assert_nonnull (strstr (command, " fixture-a sh -c "));
    g_assert_nonnull (strstr (command, "command -v -- "));
    g_assert_true (g_str_has_suffix (command, " sh htop"));
  }

  /* not there: command -v fails */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "podman exec", "exit 1");
  kiste_manager_resolve_program_async (fixture->manager, "fixture-a", "nothing", NULL, resolve_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (r.error->message, "nothing"));
  g_clear_error (&r.error);

  /* a builtin is no program to export */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "podman exec", "echo cd");
  kiste_manager_resolve_program_async (fixture->manager, "fixture-a", "cd", NULL, resolve_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&r.error);

  /* refused before anything runs; a stopped box is not started for it */
  {
    guint n = kiste_fake_runner_get_commands (fixture->runner)->len;

    r = (Result) { 0 };
    kiste_manager_resolve_program_async (fixture->manager, "fixture-a", "$(reboot)", NULL, resolve_cb, &r);
    wait_result (&r);
    g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_clear_error (&r.error);

    r = (Result) { 0 };
    kiste_manager_resolve_program_async (fixture->manager, "fixture-b", "htop", NULL, resolve_cb, &r);
    wait_result (&r);
    g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_clear_error (&r.error);
    g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, n);
  }
}

/* The host's own program of that name, found on the host's PATH outside
 * the folder of exported programs */
static void
test_find_host_program (Fixture       *fixture,
                        gconstpointer  data)
{
  Result r = { 0 };
  g_autofree char *sh = g_find_program_in_path ("sh");

  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_manager_find_host_program_async (fixture->manager, "/usr/bin/sh", NULL, find_host_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (r.path);
  g_assert_true (g_str_has_suffix (r.path, "/sh"));
  g_clear_pointer (&r.path, g_free);

  r = (Result) { 0 };
  kiste_manager_find_host_program_async (fixture->manager, "kiste-no-such-program", NULL, find_host_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_null (r.path);
}

/* Removing a program runs distrobox-export --bin PROGRAM --delete; when
 * the box cannot, the wrapper found by its marker goes, and nothing else */
static void
test_unexport_program (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *fake_delete = NULL;
  g_autofree char *expected = NULL;
  Result r = { 0 };

  copy_fixture ("bin", "x11perf", fixture->bin);
  copy_fixture ("bin", "mytool", fixture->bin);
  fake_delete = g_strdup_printf ("rm -f '%s/x11perf'", fixture->bin);
  kiste_fake_runner_add (fixture->runner, "distrobox enter", fake_delete);
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");

  kiste_manager_export_binary_async (fixture->manager, "fixture-a", "/usr/bin/x11perf", TRUE, NULL,
                                     operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  expected = g_strdup_printf ("distrobox enter --name fixture-a --no-tty -- distrobox-export --bin "
                              "/usr/bin/x11perf --export-path %s --delete", fixture->bin);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, expected));
  g_assert_false (exists_in (fixture->bin, "x11perf"));
  g_assert_true (exists_in (fixture->bin, "mytool"));

  /* distrobox fails */
  copy_fixture ("bin", "x11perf", fixture->bin);
  kiste_fake_runner_add (fixture->runner, "distrobox enter", "echo 'Error: cannot find /usr/bin/x11perf' >&2; exit 127");
  r = (Result) { 0 };
  kiste_manager_export_binary_async (fixture->manager, "fixture-a", "/usr/bin/x11perf", TRUE, NULL,
                                     operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_false (exists_in (fixture->bin, "x11perf"));
  g_assert_true (exists_in (fixture->bin, "mytool"));
}

static void
set_up_exports (Fixture *fixture)
{
  copy_fixture ("applications", "fixture-a-org.example.Editor.desktop", fixture->applications);
  copy_fixture ("applications", "gone-org.example.Viewer.desktop", fixture->applications);
  copy_fixture ("applications", "org.example.Viewer.desktop", fixture->applications);
  copy_fixture ("applications", "oldname-org.example.Notes.desktop", fixture->applications);
  copy_fixture ("bin", "gonetool", fixture->bin);
  copy_fixture ("bin", "x11perf", fixture->bin);
  copy_fixture ("bin", "mytool", fixture->bin);
}

static void
test_list_all_exported (Fixture       *fixture,
                        gconstpointer  data)
{
  Result r = { 0 };
  guint n_stale = 0;

  set_up_exports (fixture);
  kiste_manager_list_all_exported_async (fixture->manager, NULL, list_all_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpuint (r.files->len, ==, 5);
  for (guint i = 0; i < r.files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (r.files, i);

      g_assert_cmpint (file->stale, ==, g_strcmp0 (file->box_name, "fixture-a") != 0);
      n_stale += file->stale;
    }
  g_assert_cmpuint (n_stale, ==, 3);
  g_ptr_array_unref (r.files);
}

/* Clean Up removes what, read again, is still left behind; never a box's
 * that is there, never the user's own file; nothing until the boxes are
 * listed */
static void
test_clean_up (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *gone = g_build_filename (fixture->applications, "gone-org.example.Viewer.desktop", NULL);
  g_autofree char *old = g_build_filename (fixture->applications, "oldname-org.example.Notes.desktop", NULL);
  g_autofree char *live = g_build_filename (fixture->applications, "fixture-a-org.example.Editor.desktop", NULL);
  g_autofree char *mine = g_build_filename (fixture->applications, "org.example.Viewer.desktop", NULL);
  g_autofree char *tool = g_build_filename (fixture->bin, "gonetool", NULL);
  g_autofree char *my_tool = g_build_filename (fixture->bin, "mytool", NULL);
  const char *paths[] = { gone, old, live, mine, tool, my_tool, NULL };
  Result r = { 0 };

  set_up_exports (fixture);
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");

  /* the store has not listed the boxes yet */
  kiste_manager_clean_up_exported_async (fixture->manager, paths, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_false (r.ok);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&r.error);
  g_assert_null (kiste_fake_runner_find (fixture->runner, "rm "));
  g_assert_true (g_file_test (gone, G_FILE_TEST_EXISTS));

  r = (Result) { 0 };
  kiste_box_store_reload_async (_kiste_manager_get_store (fixture->manager), NULL, reload_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  r = (Result) { 0 };
  kiste_manager_clean_up_exported_async (fixture->manager, paths, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_false (g_file_test (gone, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (old, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (tool, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (live, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (mine, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (my_tool, G_FILE_TEST_EXISTS));
  g_assert_true (exists_in (fixture->bin, "x11perf"));

  /* nothing left: nothing runs */
  r = (Result) { 0 };
  kiste_manager_clean_up_exported_async (fixture->manager, paths, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
}

/* A box without the home: Kiste writes the launcher itself from the
 * app's entry as the box holds it, entering through the host's own
 * distrobox; a program the box names (one it left in the shared /tmp) is
 * only ever an argument inside the box. Nothing goes over a file of the
 * user's; taking it out again runs nothing in the box. */
static void
test_export_isolated (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *launcher = g_build_filename (fixture->applications, "isolated-org.x.Clock.desktop", NULL);
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *exec = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) argv = NULL;
  Result r = { 0 };
  const char *expected[] = { "/usr/bin/distrobox", "enter", "-n", "isolated", "--",
                             "/tmp/kiste-evil/distrobox-enter", "-n", "isolated", "--", "/bin/true", NULL };

  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "sed 's/\"created\"/\"running\"/' \"$KISTE_TEST_FIXTURES/ps-podman5-home-isolation.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "sed 's/\"created\"/\"running\"/; s/\"Running\": false/\"Running\": true/' "
                         "\"$KISTE_TEST_FIXTURES/inspect-podman5-home-isolation.json\"");
  kiste_fake_runner_add (fixture->runner, "podman exec",
                         "printf '[Desktop Entry]\\nType=Application\\nName=Clock\\n"
                         "Exec=/tmp/kiste-evil/distrobox-enter -n isolated -- /bin/true\\n"
                         "TryExec=/tmp/kiste-evil/x\\nMimeType=text/html;\\nIcon=*\\n'");
  kiste_fake_runner_add (fixture->runner, "sh -c", "exec sh \"$@\"");
  kiste_fake_runner_add (fixture->runner, "sh -c 'command -v distrobox'", "echo /usr/bin/distrobox");
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");
  kiste_box_store_reload_async (_kiste_manager_get_store (fixture->manager), NULL, reload_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "isolated", "/usr/share/applications/org.x.Clock.desktop",
                                  FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman exec"), ==,
                   "podman exec --user kistetest isolated head -c 262144 -- "
                   "/usr/share/applications/org.x.Clock.desktop");

  g_assert_true (g_key_file_load_from_file (file, launcher, G_KEY_FILE_NONE, NULL));
  exec = g_key_file_get_string (file, "Desktop Entry", "Exec", NULL);
  g_assert_true (g_shell_parse_argv (exec, NULL, &argv, NULL));
  g_assert_cmpuint (g_strv_length (argv), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    g_assert_cmpstr (argv[i], ==, expected[i]);
  g_assert_false (g_key_file_has_key (file, "Desktop Entry", "TryExec", NULL));
  g_assert_false (g_key_file_has_key (file, "Desktop Entry", "MimeType", NULL));
  {
    /* "*" would be a pattern of icons to delete for distrobox rm */
    g_autofree char *icon = g_key_file_get_string (file, "Desktop Entry", "Icon", NULL);

    g_assert_cmpstr (icon, ==, "application-x-executable");
  }
  /* listed as the box's export */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);

  /* exported again: the box's own launcher is replaced */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "isolated", "/usr/share/applications/org.x.Clock.desktop",
                                  FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  /* taken out: the file goes, nothing runs in the box */
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "isolated", "/usr/share/applications/org.x.Clock.desktop",
                                  TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_false (g_file_test (launcher, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);

  /* a file of the user's with that name stays as it is */
  g_assert_true (g_file_set_contents (launcher, "[Desktop Entry]\nType=Application\nName=Mine\nExec=mine\n",
                                      -1, NULL));
  r = (Result) { 0 };
  kiste_manager_export_app_async (fixture->manager, "isolated", "/usr/share/applications/org.x.Clock.desktop",
                                  FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_true (g_file_get_contents (launcher, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[Desktop Entry]\nType=Application\nName=Mine\nExec=mine\n");
}

/* Before distrobox rm (which deletes ~/.local/share/icons/…/ICON.* for
 * each of the box's launchers) a launcher whose Icon= is a pattern, or
 * missing, goes; one with a plain icon name stays for distrobox */
static void
test_delete_unsafe_icons (Fixture       *fixture,
                          gconstpointer  data)
{
  const char *starred = "fixture-a-star.desktop";
  const char *none = "fixture-a-none.desktop";
  const char *plain = "fixture-a-plain.desktop";
  g_autofree char *starred_path = g_build_filename (fixture->applications, starred, NULL);
  g_autofree char *none_path = g_build_filename (fixture->applications, none, NULL);
  g_autofree char *plain_path = g_build_filename (fixture->applications, plain, NULL);
  g_autofree char *expected = NULL;
  GPtrArray *commands = kiste_fake_runner_get_commands (fixture->runner);
  guint rm_at = G_MAXUINT;
  guint distrobox_at = G_MAXUINT;
  Result r = { 0 };

  g_assert_true (g_file_set_contents (starred_path, "[Desktop Entry]\nName=S\nIcon=*\n"
                                      "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   s \n", -1, NULL));
  g_assert_true (g_file_set_contents (none_path, "[Desktop Entry]\nName=N\n"
                                      "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   n \n", -1, NULL));
  g_assert_true (g_file_set_contents (plain_path, "[Desktop Entry]\nName=P\nIcon=org.x.P\n"
                                      "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   p \n", -1, NULL));
  kiste_fake_runner_add (fixture->runner, "rm ", "exec rm \"$@\"");

  kiste_manager_delete_async (fixture->manager, "fixture-a", FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);

  g_assert_false (g_file_test (starred_path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (none_path, G_FILE_TEST_EXISTS));
  for (guint i = 0; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);

      if (g_str_has_prefix (command, "rm -f -- ") && rm_at == G_MAXUINT)
        {
          g_assert_nonnull (strstr (command, starred));
          g_assert_nonnull (strstr (command, none));
          g_assert_null (strstr (command, plain));
          rm_at = i;
        }
      else if (g_str_has_prefix (command, "distrobox rm"))
        distrobox_at = i;
    }
  g_assert_cmpuint (rm_at, <, distrobox_at);
  g_assert_cmpuint (distrobox_at, !=, G_MAXUINT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/manager-exports/resolve-program", test_resolve_program);
  ADD ("/manager-exports/find-host-program", test_find_host_program);
  ADD ("/manager-exports/unexport-program", test_unexport_program);
  ADD ("/manager-exports/list-all", test_list_all_exported);
  ADD ("/manager-exports/clean-up", test_clean_up);
  ADD ("/manager-exports/export-isolated", test_export_isolated);
  ADD ("/manager-exports/delete-unsafe-icons", test_delete_unsafe_icons);

#undef ADD

  return g_test_run ();
}
