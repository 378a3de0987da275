/* test-snapshots.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Snapshots and boxes made again: image names, argv, the engine's listings
 * read back (hostile ones too), the settings read from a box's create
 * command, the journal and what is left after a crash; then the manager's
 * operations on fake podman scripts, their order and what they do when a
 * step fails. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-image-model.h"
#include "kiste-journal.h"
#include "kiste-manager-private.h"
#include "kiste-manager-snapshots.h"
#include "kiste-recreate.h"
#include "kiste-snapshot.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"
#include "kiste-validate.h"

#define SNAP_A "localhost/kiste-snapshot:fixture-a-20261206-084012"
#define ID_A "2ae4df7abcf8"

/* fixture-a was made on a computer called vm: distrobox's default there */
static const char *
hostname_flag (void)
{
  return g_str_equal (g_get_host_name (), "vm") ? "" : "--hostname vm ";
}

/* Names */

static void
test_image_names (void)
{
  g_autoptr(GDateTime) time = g_date_time_new_utc (2026, 12, 6, 8, 40, 12);
  g_autoptr(GDateTime) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = kiste_snapshot_dup_image_name ("My_Box-2", time, &error);
  g_autofree char *bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "localhost/kiste-snapshot:My_Box-2-20261206-084012");
  g_assert_true (kiste_snapshot_parse_image_name (name, "My_Box-2", &parsed));
  g_assert_true (g_date_time_equal (parsed, time));
  /* the engine takes it as an image name */
  g_assert_true (kiste_validate_image (name, NULL));

  /* another box's, or a box whose name is a prefix */
  g_assert_false (kiste_snapshot_parse_image_name (name, "My_Box", NULL));
  g_assert_false (kiste_snapshot_parse_image_name (name, "my_box-2", NULL));
  g_assert_true (kiste_snapshot_is_snapshot_image (name));

  for (guint i = 0; i < 8; i++)
    {
      static const char * const not_snapshots[] = {
        "docker.io/library/debian:latest",
        "localhost/kiste-snapshot:fixture-a",
        "localhost/kiste-snapshot:fixture-a-2026120-084012",
        "localhost/kiste-snapshot:fixture-a-20261306-084012",
        "localhost/kiste-snapshotx:fixture-a-20261206-084012",
        "localhost/kiste-snapshot:-20261206-084012",
        "localhost/kiste-snapshot:$(id)-20261206-084012",
        "evil.example/kiste-snapshot:fixture-a-20261206-084012",
      };
      g_assert_false (kiste_snapshot_is_snapshot_image (not_snapshots[i]));
    }

  bad = kiste_snapshot_dup_image_name ("x;rm -rf ~", time, &error);
  g_assert_null (bad);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
}

static void
test_argv (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) commit = kiste_snapshot_commit_argv ("podman", "fixture-a", SNAP_A, "snapshot", TRUE, &error);
  g_auto(GStrv) list = kiste_snapshot_list_argv ("docker", "fixture-a", &error);
  g_auto(GStrv) rmi = kiste_snapshot_remove_argv ("podman", (const char * const[]) { SNAP_A, NULL }, &error);
  g_auto(GStrv) pull = kiste_recreate_pull_argv ("podman", "localhost:5000/kiste-e2e:latest", &error);
  g_auto(GStrv) rm = kiste_recreate_remove_argv ("docker", "fixture-a", &error);
  g_autofree char *commit_text = NULL;
  g_auto(GStrv) refused = NULL;

  g_assert_no_error (error);
  commit_text = g_strjoinv ("|", commit);
  g_assert_cmpstr (commit_text, ==,
                   "podman|commit|--pause=true"
                   "|--change=LABEL io.github.kiste.snapshot.box=fixture-a"
                   "|--change=LABEL io.github.kiste.snapshot.time=2026-12-06T08:40:12Z"
                   "|--change=LABEL io.github.kiste.snapshot.reason=snapshot"
                   "|fixture-a|" SNAP_A);
  g_assert_cmpstrv (list, ((const char * const[]) { "docker", "images", "--filter",
                                                    "label=io.github.kiste.snapshot.box=fixture-a",
                                                    "--format", "{{json .}}", NULL }));
  g_assert_cmpstrv (rmi, ((const char * const[]) { "podman", "rmi", SNAP_A, NULL }));
  g_assert_cmpstrv (pull, ((const char * const[]) { "podman", "pull", "localhost:5000/kiste-e2e:latest", NULL }));
  g_assert_cmpstrv (rm, ((const char * const[]) { "docker", "rm", "--force", "fixture-a", NULL }));

  /* nothing but a snapshot of the box is committed to or removed */
  refused = kiste_snapshot_commit_argv ("podman", "fixture-b", SNAP_A, "snapshot", TRUE, &error);
  g_assert_null (refused);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  refused = kiste_snapshot_remove_argv ("podman", (const char * const[]) { SNAP_A, "debian:latest", NULL },
                                       &error);
  g_assert_null (refused);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  refused = kiste_snapshot_remove_argv ("sh", (const char * const[]) { SNAP_A, NULL }, &error);
  g_assert_null (refused);
  g_clear_error (&error);
  refused = kiste_recreate_pull_argv ("podman", "--all-tags", &error);
  g_assert_null (refused);
  g_clear_error (&error);
  refused = kiste_recreate_remove_argv ("podman", "-a", &error);
  g_assert_null (refused);
  g_clear_error (&error);
}

/* Listings */

static void
test_parse_podman (void)
{
  /* the newest first; an image of a stranger with the box's label and an
   * image of ours whose label names another box are left out */
  const char *output =
    "[{\"Id\":\"aaa111\",\"Names\":[\"localhost/kiste-snapshot:fixture-a-20261201-100000\"],"
    "  \"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"},\"Size\":1500000},"
    " {\"Id\":\"bbb222\",\"Names\":[\"localhost/kiste-snapshot:fixture-a-20261206-084012\"],"
    "  \"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"},\"Size\":2000000000},"
    " {\"Id\":\"ccc333\",\"Names\":[\"docker.io/evil/image:latest\"],"
    "  \"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"},\"Size\":1},"
    " {\"Id\":\"ddd444\",\"Names\":[\"localhost/kiste-snapshot:fixture-a-20261202-100000\"],"
    "  \"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-b\"}},"
    " {\"Id\":\"$(id)\",\"Names\":[\"localhost/kiste-snapshot:fixture-a-20261203-100000\"],"
    "  \"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"},\"Size\":\"big\"},"
    " 7, {\"Names\": 3}]";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) snapshots = kiste_snapshot_parse_list (output, "fixture-a", &error);
  KisteSnapshot *s;

  g_assert_no_error (error);
  g_assert_cmpuint (snapshots->len, ==, 3);
  s = g_ptr_array_index (snapshots, 0);
  g_assert_cmpstr (kiste_snapshot_get_image (s), ==, SNAP_A);
  g_assert_cmpstr (kiste_snapshot_get_id (s), ==, "bbb222");
  g_assert_cmpstr (kiste_snapshot_get_size_text (s), ==, "2.0\u00a0GB");
  g_assert_cmpstr (kiste_snapshot_get_box_name (s), ==, "fixture-a");
  s = g_ptr_array_index (snapshots, 1);
  g_assert_cmpstr (kiste_snapshot_get_image (s), ==, "localhost/kiste-snapshot:fixture-a-20261203-100000");
  g_assert_null (kiste_snapshot_get_id (s));
  g_assert_null (kiste_snapshot_get_size_text (s));
  s = g_ptr_array_index (snapshots, 2);
  g_assert_cmpint (g_date_time_get_day_of_month (kiste_snapshot_get_time (s)), ==, 1);
}

static void
test_parse_docker (void)
{
  const char *output =
    "{\"ID\":\"abc\",\"Repository\":\"localhost/kiste-snapshot\",\"Tag\":\"fixture-a-20261206-084012\",\"Size\":\"1.2GB\"}\n"
    "{\"ID\":\"def\",\"Repository\":\"localhost/other\",\"Tag\":\"fixture-a-20261206-084012\",\"Size\":\"1GB\"}\n"
    "{\"ID\":\"ghi\",\"Repository\":\"localhost/kiste-snapshot\",\"Tag\":\"fixture-a-20261205-084012\","
    "\"Size\":\"\\u001b[31mred and far too long\"}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) snapshots = kiste_snapshot_parse_list (output, "fixture-a", &error);
  g_autoptr(GPtrArray) none = kiste_snapshot_parse_list ("", "fixture-a", &error);
  g_autoptr(GPtrArray) bad = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (snapshots->len, ==, 2);
  g_assert_cmpstr (kiste_snapshot_get_size_text (g_ptr_array_index (snapshots, 0)), ==, "1.2GB");
  g_assert_null (kiste_snapshot_get_size_text (g_ptr_array_index (snapshots, 1)));
  g_assert_cmpuint (none->len, ==, 0);

  bad = kiste_snapshot_parse_list ("Error: cannot connect\n", "fixture-a", &error);
  g_assert_null (bad);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
}

/* Settings */

static const char * const create_command[] = {
  "podman", "create", "--hostname", "devbox", "--name", "fixture-a", "--privileged",
  "--volume", "/tmp:/tmp:rslave",
  "--volume", "/usr/bin/distrobox-init:/usr/bin/entrypoint:ro",
  "--volume", "/home/tester/boxes/a:/home/tester/boxes/a:rslave",
  "--volume", "/home/tester:/home/tester:rslave",
  "--volume", "/etc:/run/host/etc:rslave",
  "--volume", "/dev/pts", "--volume", "/dev/null:/dev/ptmx",
  "--volume", "/run/user/1001:/run/user/1001:rslave",
  "--volume", "/etc/hosts:/etc/hosts:ro",
  "--volume", "/opt/tools:/tools", "--volume=/srv/data:/data:ro",
  "--volume", "/dev/null:/run/.distrobox.rootless:ro",
  "--entrypoint", "/usr/bin/entrypoint", "localhost/kiste-debian:ready",
  "--verbose", "--name", "tester", "--home", "/home/tester/boxes/a", "--init", "0",
  "--pre-init-hooks", "touch /pre", "--additional-packages", "git vim", "--", "touch /done",
  NULL,
};

static void
test_read_settings (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteRecreateSettings) settings =
    kiste_recreate_read_settings (create_command, "fixture-a", "/home/tester/boxes/a",
                                  "/home/tester", "myhost", &error);
  g_autoptr(KisteRecreateSettings) none = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) hostile = NULL;

  g_assert_no_error (error);
  g_assert_cmpstrv (settings->volumes, ((const char * const[]) { "/opt/tools:/tools", "/srv/data:/data:ro", NULL }));
  g_assert_cmpstr (settings->hostname, ==, "devbox");
  g_assert_cmpstr (settings->additional_packages, ==, "git vim");
  g_assert_cmpstr (settings->pre_init_hooks, ==, "touch /pre");
  g_assert_cmpstr (settings->init_hooks, ==, "touch /done");

  /* distrobox's own hostname needs no flag */
  g_clear_pointer (&settings, kiste_recreate_settings_free);
  settings = kiste_recreate_read_settings (create_command, "fixture-a", "/home/tester/boxes/a",
                                           "/home/tester", "devbox", &error);
  g_assert_no_error (error);
  g_assert_null (settings->hostname);

  /* docker keeps no create command */
  none = kiste_recreate_read_settings (NULL, "fixture-a", NULL, "/home/tester", "h", &error);
  g_assert_null (none);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* a volume no dialog would take is refused, nothing made of it */
  g_strv_builder_addv (builder, (const char **) create_command);
  hostile = g_strv_builder_end (builder);
  for (guint i = 0; hostile[i] != NULL; i++)
    if (g_str_equal (hostile[i], "/opt/tools:/tools"))
      g_set_str (&hostile[i], "/srv/x$(id):/x");
  none = kiste_recreate_read_settings ((const char * const *) hostile, "fixture-a", NULL,
                                       "/home/tester", "h", &error);
  g_assert_null (none);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
}

/* The journal */

static KisteCreateOptions *
journal_options (void)
{
  KisteCreateOptions *options = kiste_create_options_new ();

  kiste_create_options_set_name (options, "fixture-a");
  kiste_create_options_set_image (options, "localhost:5000/kiste-e2e:latest");
  kiste_create_options_set_home (options, "/home/tester/boxes/a");
  kiste_create_options_set_init (options, TRUE);
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_NETNS, TRUE);
  kiste_create_options_add_volume (options, "/opt/tools:/tools");
  kiste_create_options_add_additional_packages (options, "git vim");
  kiste_create_options_set_init_hooks (options, "touch /done");
  return options;
}

static void
test_journal (void)
{
  g_autoptr(KisteCreateOptions) options = journal_options ();
  g_autoptr(KisteJournal) journal = kiste_journal_new ("podman", "fixture-a", ID_A, SNAP_A, options, TRUE);
  g_autofree char *json = kiste_journal_to_json (journal);
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteJournal) read = kiste_journal_parse (json, &error);
  g_autofree char *dir = g_dir_make_tmp ("kiste-journal-XXXXXX", NULL);
  g_autofree char *path = NULL;
  g_autofree char *wrong = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autofree char *tampered = NULL;
  g_autoptr(KisteJournal) refused = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (read->engine, ==, "podman");
  g_assert_cmpstr (read->box_name, ==, "fixture-a");
  g_assert_cmpstr (read->box_id, ==, ID_A);
  g_assert_cmpstr (read->snapshot, ==, SNAP_A);
  g_assert_true (read->keep_snapshot);
  g_assert_cmpstr (kiste_create_options_get_image (read->options), ==, "localhost:5000/kiste-e2e:latest");
  g_assert_cmpstr (kiste_create_options_get_home (read->options), ==, "/home/tester/boxes/a");
  g_assert_true (kiste_create_options_get_init (read->options));
  g_assert_true (kiste_create_options_get_unshare (read->options, KISTE_UNSHARE_NETNS));
  g_assert_false (kiste_create_options_get_unshare (read->options, KISTE_UNSHARE_IPC));
  g_assert_cmpstrv (kiste_create_options_get_volumes (read->options),
                    ((const char * const[]) { "/opt/tools:/tools", NULL }));
  g_assert_cmpstrv (kiste_create_options_get_additional_packages (read->options),
                    ((const char * const[]) { "git vim", NULL }));
  g_assert_cmpstr (kiste_create_options_get_init_hooks (read->options), ==, "touch /done");

  /* a snapshot of another box, an unknown engine: no journal */
  tampered = g_strdup (json);
  memcpy (strstr (tampered, "fixture-a-2026"), "fixture-b", 9);
  refused = kiste_journal_parse (tampered, &error);
  g_assert_null (refused);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);
  refused = kiste_journal_parse ("{\"version\": 1, \"engine\": \"sh\"}", &error);
  g_assert_null (refused);
  g_clear_error (&error);
  refused = kiste_journal_parse ("[]", &error);
  g_assert_null (refused);
  g_clear_error (&error);

  /* written, found, removed; a file that names another box is skipped */
  g_assert_true (kiste_journal_write (journal, dir, &error));
  g_assert_no_error (error);
  path = kiste_journal_dup_path (dir, "podman", "fixture-a");
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  wrong = g_build_filename (dir, "podman-fixture-b.json", NULL);
  g_assert_true (g_file_set_contents (wrong, json, -1, NULL));
  g_assert_true (g_file_set_contents (path + 0, json, -1, NULL));
  all = kiste_journal_load_all (dir);
  g_assert_cmpuint (all->len, ==, 1);
  g_assert_true (kiste_journal_remove (dir, "podman", "fixture-a", &error));
  g_assert_true (kiste_journal_remove (dir, "podman", "fixture-a", &error));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  kiste_test_remove_tree (dir);
}

static void
test_classify (void)
{
  g_autoptr(KisteCreateOptions) options = journal_options ();
  g_autoptr(KisteJournal) journal = kiste_journal_new ("podman", "fixture-a", ID_A, SNAP_A, options, FALSE);
  static const struct
  {
    gboolean            box;
    const char         *id;
    gboolean            snapshot;
    KisteLeftoverState  state;
  } cases[] = {
    /* killed while the snapshot was taken: the box untouched */
    { TRUE, ID_A, FALSE, KISTE_LEFTOVER_NONE },
    /* killed before the box was removed */
    { TRUE, ID_A, TRUE, KISTE_LEFTOVER_BOX_AND_SNAPSHOT },
    /* killed between the removal and the new box */
    { FALSE, NULL, TRUE, KISTE_LEFTOVER_SNAPSHOT_ONLY },
    /* killed after the new box, before the end */
    { TRUE, "ffff0000", TRUE, KISTE_LEFTOVER_NEW_BOX },
    /* the new box, its snapshot removed */
    { TRUE, "ffff0000", FALSE, KISTE_LEFTOVER_NONE },
    { FALSE, NULL, FALSE, KISTE_LEFTOVER_LOST },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (kiste_journal_classify (journal, cases[i].box, cases[i].id, cases[i].snapshot),
                     ==, cases[i].state);
}

/* The image chooser's downloaded images leave snapshots out */
static void
test_image_model (void)
{
  g_autoptr(KisteImageModel) model = kiste_image_model_new ();
  g_autoptr(GPtrArray) images = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (images, kiste_image_new ("localhost/kiste-debian:ready", TRUE));
  g_ptr_array_add (images, kiste_image_new (SNAP_A, TRUE));
  kiste_image_model_set_downloaded (model, images);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 1);
  g_assert_true (kiste_image_model_is_downloaded (model, SNAP_A));
  kiste_image_model_set_show_snapshots (model, TRUE);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
}

/* The manager on fake podman scripts */

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *journal_dir;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--clone", "--volume",
                          "--hostname", "--additional-packages", "--init-hooks", "--pre-init-hooks",
                          "--home", "--init", NULL };

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman images", "echo '[]'");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json", "/home/tester");
  fixture->journal_dir = g_dir_make_tmp ("kiste-journal-XXXXXX", NULL);
  _kiste_manager_set_journal_dir (fixture->manager, fixture->journal_dir);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->manager);
  g_assert_finalize_object (fixture->runner);
  kiste_test_remove_tree (fixture->journal_dir);
  g_free (fixture->journal_dir);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  gpointer  answer;
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
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Result *r = user_data;

  r->answer = kiste_manager_query_finish (KISTE_MANAGER (object), result, &r->error);
  r->ok = r->answer != NULL;
  r->done = TRUE;
}

static void
wait_result (Result *r)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
}

/* The commands that changed something, in order, as one string */
static char *
changes (Fixture *fixture)
{
  GPtrArray *commands = kiste_fake_runner_get_commands (fixture->runner);
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < commands->len; i++)
    {
      const char *c = g_ptr_array_index (commands, i);

      if (g_str_has_prefix (c, "podman ps") || g_str_has_prefix (c, "podman container inspect") ||
          g_str_has_prefix (c, "podman images"))
        continue;
      if (out->len > 0)
        g_string_append (out, "\n");
      g_string_append (out, c);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static gboolean
journal_exists (Fixture *fixture)
{
  g_autofree char *path = kiste_journal_dup_path (fixture->journal_dir, "podman", "fixture-a");

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static void
test_take_and_delete (Fixture       *fixture,
                      gconstpointer  data)
{
  Result r = { 0 };
  const char *commit;

  kiste_manager_take_snapshot_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  commit = kiste_fake_runner_find (fixture->runner, "podman commit");
  g_assert_nonnull (commit);
  g_assert_true (g_str_has_prefix (commit, "podman commit --pause=true "));
  g_assert_true (strstr (commit, " fixture-a localhost/kiste-snapshot:fixture-a-") != NULL);

  r = (Result) { 0 };
  kiste_manager_delete_snapshots_async (fixture->manager, "fixture-a",
                                        (const char * const[]) { SNAP_A, NULL }, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman rmi"), ==, "podman rmi " SNAP_A);

  /* another box's snapshot is not this box's to delete */
  r = (Result) { 0 };
  kiste_manager_delete_snapshots_async (fixture->manager, "fixture-b",
                                        (const char * const[]) { SNAP_A, NULL }, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 1);
}

static void
test_list (Fixture       *fixture,
           gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(GPtrArray) snapshots = NULL;

  kiste_fake_runner_add (fixture->runner, "podman images",
                         "echo '[{\"Id\":\"bbb\",\"Names\":[\"" SNAP_A "\"],\"Size\":1000}]'");
  kiste_manager_list_snapshots_async (fixture->manager, "fixture-a", NULL, query_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  snapshots = r.answer;
  g_assert_cmpuint (snapshots->len, ==, 1);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman images"), ==,
                   "podman images --filter label=io.github.kiste.snapshot.box=fixture-a --format json");
}

/* The snapshot's name in a recorded commit */
static char *
committed_snapshot (Fixture *fixture)
{
  const char *commit = kiste_fake_runner_find (fixture->runner, "podman commit");

  g_assert_nonnull (commit);
  return g_strdup (strrchr (commit, ' ') + 1);
}

static void
test_recreate (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *done = NULL;
  g_autofree char *snapshot = NULL;
  KisteTask *task;
  Result r = { 0 };

  task = kiste_manager_recreate_async (fixture->manager, "fixture-a", TRUE, FALSE, NULL, operation_cb, &r);
  g_assert_true (kiste_task_get_cancellable_by_user (task));
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);

  snapshot = committed_snapshot (fixture);
  done = changes (fixture);
  /* pulled, snapshot, removed (not with distrobox rm: the exports stay),
   * made with the same settings, the snapshot removed */
  {
    /* the time label is the snapshot's own */
    g_autoptr(GDateTime) time = NULL;
    g_autofree char *iso = NULL;
    g_autofree char *with_time = NULL;

    g_assert_true (kiste_snapshot_parse_image_name (snapshot, "fixture-a", &time));
    iso = g_date_time_format_iso8601 (time);
    with_time = g_strdup_printf ("podman pull localhost/kiste-debian:ready\n"
                                 "podman commit --pause=true "
                                 "'--change=LABEL io.github.kiste.snapshot.box=fixture-a' "
                                 "'--change=LABEL io.github.kiste.snapshot.time=%s' "
                                 "'--change=LABEL io.github.kiste.snapshot.reason=recreate' fixture-a %s\n"
                                 "podman rm --force fixture-a\n"
                                 "distrobox create --yes --name fixture-a --image localhost/kiste-debian:ready "
                                 "%s--no-entry\n"
                                 "podman rmi %s",
                                 iso, snapshot, hostname_flag (), snapshot);
    g_assert_cmpstr (done, ==, with_time);
  }
  g_assert_false (journal_exists (fixture));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_SUCCEEDED);
}

/* The journal is on disk while the snapshot is taken */
static void
test_recreate_journal_before_commit (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *rule = NULL;
  g_autofree char *seen = g_build_filename (fixture->journal_dir, "seen", NULL);
  Result r = { 0 };

  rule = g_strdup_printf ("test -f '%s/podman-fixture-a.json' && touch '%s'", fixture->journal_dir, seen);
  kiste_fake_runner_add (fixture->runner, "podman commit", rule);
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, TRUE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (g_file_test (seen, G_FILE_TEST_EXISTS));
  /* kept: no rmi */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman pull"), ==, 0);
  g_assert_false (journal_exists (fixture));
}

/* A pull that fails changes nothing */
static void
test_recreate_pull_fails (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *done = NULL;
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman pull", "echo 'Error: manifest unknown' >&2; exit 125");
  kiste_manager_recreate_async (fixture->manager, "fixture-a", TRUE, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  done = changes (fixture);
  g_assert_cmpstr (done, ==, "podman pull localhost/kiste-debian:ready");
  g_assert_false (journal_exists (fixture));
}

/* Rootless podman on cgroups v1 cannot pause a box: it is copied while it
 * runs, once; any other failure is not retried */
static void
test_commit_cannot_pause (Fixture       *fixture,
                          gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman commit --pause=true",
                         "echo 'Error: can not pause containers on rootless containers with cgroup V1: "
                         "this container does not have a cgroup' >&2; exit 125");
  kiste_manager_take_snapshot_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit --pause=true"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit --pause=false"), ==, 1);

  /* the engine is known not to pause: later commits do not try */
  r = (Result) { 0 };
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit --pause=true"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit --pause=false"), ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rm --force fixture-a"), ==, 1);

  /* no space is no reason to copy a running box */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "podman commit", "echo 'Error: no space left on device' >&2; exit 125");
  kiste_manager_take_snapshot_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit"), ==, 4);
}

/* A snapshot that fails: the box is never removed */
static void
test_recreate_commit_fails (Fixture       *fixture,
                            gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman commit", "echo 'Error: no space left' >&2; exit 125");
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_true (strstr (r.error->message, "no space left") != NULL);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rm "), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  g_assert_false (journal_exists (fixture));
}

/* A create that fails: the box is made again from the snapshot */
static void
test_recreate_create_fails_restores (Fixture       *fixture,
                                     gconstpointer  data)
{
  g_autofree char *snapshot = NULL;
  g_autofree char *restore = NULL;
  GPtrArray *commands = kiste_fake_runner_get_commands (fixture->runner);
  const char *last;
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "distrobox create --yes --name fixture-a --image localhost/kiste-debian",
                         "echo 'Error: image is broken' >&2; exit 1");
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_true (strstr (r.error->message, "restored from its snapshot") != NULL);
  g_assert_true (strstr (r.error->message, "image is broken") != NULL);
  g_clear_error (&r.error);

  snapshot = committed_snapshot (fixture);
  restore = g_strdup_printf ("distrobox create --yes --name fixture-a --image %s %s--no-entry",
                             snapshot, hostname_flag ());
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "distrobox create"), ==, restore);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rm --force fixture-a"), ==, 2);
  /* the snapshot stays; the journal goes */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 0);
  g_assert_false (journal_exists (fixture));
  last = g_ptr_array_index (commands, commands->len - 1);
  g_assert_true (g_str_has_prefix (last, "podman ps"));
}

/* Neither works: the journal stays for the next start */
static void
test_recreate_restore_fails (Fixture       *fixture,
                             gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "distrobox create", "echo 'Error: disk full' >&2; exit 1");
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_true (strstr (r.error->message, "failed too") != NULL);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox create"), ==, 2);
  g_assert_true (journal_exists (fixture));
}

static gboolean
command_started (gpointer data)
{
  Fixture *fixture = data;

  return kiste_fake_runner_count (fixture->runner, "podman commit") > 0;
}

/* Cancelled while the snapshot is taken: the box stays */
static void
test_recreate_cancel (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman commit", "sleep 30");
  kiste_manager_recreate_async (fixture->manager, "fixture-a", FALSE, FALSE, cancellable, operation_cb, &r);
  g_assert_true (kiste_test_wait_for (command_started, fixture, 5000));
  g_cancellable_cancel (cancellable);
  wait_result (&r);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rm "), ==, 0);
  g_assert_false (journal_exists (fixture));
}

static void
test_restore_and_from_snapshot (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *expected = NULL;
  Result r = { 0 };

  kiste_manager_restore_snapshot_async (fixture->manager, "fixture-a", SNAP_A, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  expected = g_strdup_printf ("distrobox create --yes --name fixture-a --image " SNAP_A " %s--no-entry",
                              hostname_flag ());
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "distrobox create"), ==, expected);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit"), ==, 1);

  /* a snapshot of another box is refused before anything runs */
  r = (Result) { 0 };
  kiste_manager_restore_snapshot_async (fixture->manager, "fixture-b", SNAP_A, FALSE, NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman commit"), ==, 1);

  r = (Result) { 0 };
  kiste_manager_create_from_snapshot_async (fixture->manager, "fixture-a", SNAP_A, "fixture-a-old",
                                            NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_free (expected);
  expected = g_strdup_printf ("distrobox create --yes --name fixture-a-old --image " SNAP_A " %s--no-entry",
                              hostname_flag ());
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "distrobox create"), ==, expected);

  /* a taken name */
  r = (Result) { 0 };
  kiste_manager_create_from_snapshot_async (fixture->manager, "fixture-a", SNAP_A, "fixture-b",
                                            NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
}

/* Crash recovery: journals as a killed Kiste left them */

static void
write_journal (Fixture    *fixture,
               const char *box_id,
               const char *image)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(KisteJournal) journal = NULL;

  kiste_create_options_set_name (options, "fixture-a");
  kiste_create_options_set_image (options, image);
  journal = kiste_journal_new ("podman", "fixture-a", box_id, SNAP_A, options, FALSE);
  g_assert_true (kiste_journal_write (journal, fixture->journal_dir, NULL));
}

static const char *
full_id_a (Fixture *fixture)
{
  KisteBox *box = kiste_box_store_find_by_name (_kiste_manager_get_store (fixture->manager), "fixture-a");

  return kiste_box_get_id (box);
}

static void
serve_snapshot (Fixture *fixture)
{
  kiste_fake_runner_add (fixture->runner, "podman images",
                         "echo '[{\"Id\":\"bbb\",\"Names\":[\"" SNAP_A "\"],"
                         "\"Labels\":{\"io.github.kiste.snapshot.box\":\"fixture-a\"}}]'");
}

static KisteLeftoverState
find_one (Fixture *fixture)
{
  g_autoptr(GPtrArray) leftovers = NULL;
  Result r = { 0 };

  kiste_manager_find_leftovers_async (fixture->manager, NULL, query_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  leftovers = r.answer;
  if (leftovers->len == 0)
    return KISTE_LEFTOVER_NONE;
  g_assert_cmpuint (leftovers->len, ==, 1);
  return ((KisteLeftover *) g_ptr_array_index (leftovers, 0))->state;
}

static void
resolve (Fixture  *fixture,
         gboolean  finish)
{
  Result r = { 0 };

  kiste_manager_resolve_leftover_async (fixture->manager, "podman", "fixture-a", finish, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
}

static void
test_leftover_none (Fixture       *fixture,
                    gconstpointer  data)
{
  /* killed during the commit: the box is there, no snapshot; the journal
   * goes without a word */
  write_journal (fixture, full_id_a (fixture), "localhost/kiste-debian:ready");
  g_assert_cmpint (find_one (fixture), ==, KISTE_LEFTOVER_NONE);
  g_assert_false (journal_exists (fixture));
}

static void
test_leftover_box_and_snapshot (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *done = NULL;

  write_journal (fixture, full_id_a (fixture), "localhost/kiste-debian:ready");
  serve_snapshot (fixture);
  g_assert_cmpint (find_one (fixture), ==, KISTE_LEFTOVER_BOX_AND_SNAPSHOT);
  g_assert_true (journal_exists (fixture));

  /* undo: the snapshot goes, the box stays */
  resolve (fixture, FALSE);
  done = changes (fixture);
  g_assert_cmpstr (done, ==, "podman rmi " SNAP_A);
  g_assert_false (journal_exists (fixture));
}

static void
test_leftover_finish (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *done = NULL;

  write_journal (fixture, full_id_a (fixture), "localhost/kiste-debian:ready");
  serve_snapshot (fixture);
  resolve (fixture, TRUE);
  done = changes (fixture);
  g_assert_cmpstr (done, ==,
                   "podman rm --force fixture-a\n"
                   "distrobox create --yes --name fixture-a --image localhost/kiste-debian:ready --no-entry\n"
                   "podman rmi " SNAP_A);
  g_assert_false (journal_exists (fixture));
}

static void
test_leftover_snapshot_only (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *done = NULL;
  Result r = { 0 };

  /* a box whose old one is gone: another name in the journal */
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(KisteJournal) journal = NULL;
  g_autofree char *snapshot = g_strdup ("localhost/kiste-snapshot:gone-box-20261206-084012");

  kiste_create_options_set_name (options, "gone-box");
  kiste_create_options_set_image (options, "localhost/kiste-debian:ready");
  journal = kiste_journal_new ("podman", "gone-box", "1234", snapshot, options, FALSE);
  g_assert_true (kiste_journal_write (journal, fixture->journal_dir, NULL));
  kiste_fake_runner_add (fixture->runner, "podman images",
                         "echo '[{\"Id\":\"bbb\",\"Names\":[\"localhost/kiste-snapshot:gone-box-20261206-084012\"]}]'");

  {
    g_autoptr(GPtrArray) leftovers = NULL;

    kiste_manager_find_leftovers_async (fixture->manager, NULL, query_cb, &r);
    wait_result (&r);
    g_assert_no_error (r.error);
    leftovers = r.answer;
    g_assert_cmpuint (leftovers->len, ==, 1);
    g_assert_cmpint (((KisteLeftover *) g_ptr_array_index (leftovers, 0))->state, ==,
                     KISTE_LEFTOVER_SNAPSHOT_ONLY);
  }

  /* undo: the box made from its snapshot, which it needs */
  r = (Result) { 0 };
  kiste_manager_resolve_leftover_async (fixture->manager, "podman", "gone-box", FALSE, operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  done = changes (fixture);
  g_assert_cmpstr (done, ==,
                   "distrobox create --yes --name gone-box --image "
                   "localhost/kiste-snapshot:gone-box-20261206-084012 --no-entry");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/snapshots/image-names", test_image_names);
  g_test_add_func ("/snapshots/argv", test_argv);
  g_test_add_func ("/snapshots/parse-podman", test_parse_podman);
  g_test_add_func ("/snapshots/parse-docker", test_parse_docker);
  g_test_add_func ("/snapshots/read-settings", test_read_settings);
  g_test_add_func ("/snapshots/journal", test_journal);
  g_test_add_func ("/snapshots/classify", test_classify);
  g_test_add_func ("/snapshots/image-model", test_image_model);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/snapshots/manager/take-and-delete", test_take_and_delete);
  ADD ("/snapshots/manager/list", test_list);
  ADD ("/snapshots/manager/commit-cannot-pause", test_commit_cannot_pause);
  ADD ("/snapshots/manager/recreate", test_recreate);
  ADD ("/snapshots/manager/recreate-journal-first", test_recreate_journal_before_commit);
  ADD ("/snapshots/manager/recreate-pull-fails", test_recreate_pull_fails);
  ADD ("/snapshots/manager/recreate-commit-fails", test_recreate_commit_fails);
  ADD ("/snapshots/manager/recreate-create-fails", test_recreate_create_fails_restores);
  ADD ("/snapshots/manager/recreate-restore-fails", test_recreate_restore_fails);
  ADD ("/snapshots/manager/recreate-cancel", test_recreate_cancel);
  ADD ("/snapshots/manager/restore-and-from-snapshot", test_restore_and_from_snapshot);
  ADD ("/snapshots/leftovers/none", test_leftover_none);
  ADD ("/snapshots/leftovers/box-and-snapshot", test_leftover_box_and_snapshot);
  ADD ("/snapshots/leftovers/finish", test_leftover_finish);
  ADD ("/snapshots/leftovers/snapshot-only", test_leftover_snapshot_only);
#undef ADD

  return g_test_run ();
}
