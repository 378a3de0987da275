/* test-image-update.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The update check's readers and commands, on what skopeo and podman
 * printed against a local registry (tests/fixtures/skopeo-*), and the
 * check itself through the manager on the fake runner. */

#include "config.h"

#include "kiste-box-store-private.h"
#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-image-update.h"
#include "kiste-manager-private.h"
#include "kiste-manager-updates.h"
#include "kiste-test-util.h"

#define DIGEST_A "sha256:95dcd726f0bc46c41b961779748973cc33f0117b1f6b8d8fffb875c57a5598a9"
#define DIGEST_PUSHED "sha256:fbdc06e2ce94807abc87981ba1359f602118a586b12d73763254440778df1b02"
#define ID_A "5142e146fe0d5d1c526605b39b05f5cae82d3c5e57e48182136b0e265eeed54e"

static char *
fixture_contents (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

static void
test_is_remote (void)
{
  g_assert_true (kiste_image_update_is_remote ("registry.fedoraproject.org/fedora-toolbox:42"));
  g_assert_true (kiste_image_update_is_remote ("docker.io/library/debian:12"));
  g_assert_true (kiste_image_update_is_remote ("localhost:5000/kiste/test:latest"));
  g_assert_true (kiste_image_update_is_remote ("127.0.0.1:5000/kiste/test:latest"));
  g_assert_true (kiste_image_update_is_remote ("debian:12"));
  g_assert_false (kiste_image_update_is_remote ("localhost/kiste-debian:ready"));
  g_assert_false (kiste_image_update_is_remote (ID_A));
  g_assert_false (kiste_image_update_is_remote ("sha256:" ID_A));
  g_assert_false (kiste_image_update_is_remote ("5142e146fe0d"));
  g_assert_false (kiste_image_update_is_remote ("--debug"));
  g_assert_false (kiste_image_update_is_remote ("quay.io/x y"));
  g_assert_false (kiste_image_update_is_remote (""));
  g_assert_false (kiste_image_update_is_remote (NULL));
}

static void
test_argv (void)
{
  g_auto(GStrv) remote = kiste_image_update_remote_argv ("localhost:5000/kiste/test:latest", 30);
  g_autofree char *remote_text = g_strjoinv (" ", remote);
  const char *refs[] = { ID_A, "localhost:5000/kiste/test:latest", NULL };
  g_auto(GStrv) local = kiste_image_update_local_argv ("podman", refs);
  g_autofree char *local_text = g_strjoinv (" ", local);

  /* no TLS flag: which registries speak plain HTTP is registries.conf's */
  g_assert_cmpstr (remote_text, ==,
                   "skopeo --command-timeout=30s inspect --no-tags docker://localhost:5000/kiste/test:latest");
  g_assert_cmpstr (local_text, ==,
                   "podman image inspect --format json -- " ID_A " localhost:5000/kiste/test:latest");
}

static void
test_parse_remote (void)
{
  g_autofree char *output = fixture_contents ("skopeo-inspect.json");
  g_autofree char *digest = NULL;
  g_autoptr(GDateTime) created = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *long_output = NULL;
  const char *bad[] = {
    "", "[]", "null", "{\"Digest\": 1}", "{\"Digest\": \"sha256:abc\"}",
    "{\"Digest\": \"md5:" ID_A "\"}", "{", "{\"Created\": \"2026-01-01T00:00:00Z\"}",
  };

  g_assert_true (kiste_image_update_parse_remote (output, &digest, &created, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (digest, ==, DIGEST_A);
  g_assert_nonnull (created);
  g_assert_cmpint (g_date_time_get_year (created), ==, 2026);
  g_assert_cmpint (g_date_time_get_month (created), ==, 12);
  g_assert_cmpint (g_date_time_get_day_of_month (created), ==, 6);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *bad_digest = NULL;
      g_autoptr(GDateTime) bad_created = NULL;
      g_autoptr(GError) bad_error = NULL;

      g_assert_false (kiste_image_update_parse_remote (bad[i], &bad_digest, &bad_created, &bad_error));
      g_assert_error (bad_error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (bad_digest);
    }

  /* a created time that is no time is left out, the digest kept */
  {
    g_autofree char *odd_digest = NULL;
    g_autoptr(GDateTime) odd_created = NULL;

    g_assert_true (kiste_image_update_parse_remote ("{\"Digest\": \"" DIGEST_A "\", \"Created\": \"soon\"}",
                                                    &odd_digest, &odd_created, NULL));
    g_assert_cmpstr (odd_digest, ==, DIGEST_A);
    g_assert_null (odd_created);
  }

  /* bounded */
  long_output = g_strnfill (KISTE_IMAGE_UPDATE_OUTPUT_LIMIT + 1, ' ');
  g_clear_pointer (&digest, g_free);
  g_clear_pointer (&created, g_date_time_unref);
  g_clear_error (&error);
  g_assert_false (kiste_image_update_parse_remote (long_output, &digest, &created, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
}

static void
test_parse_local (void)
{
  g_autofree char *output = fixture_contents ("podman-image-inspect-pulled.json");
  g_autoptr(GHashTable) local = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *digests;
  g_auto(GStrv) none = NULL;
  g_auto(GStrv) all = NULL;

  local = kiste_image_update_parse_local (output, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (local), ==, 1);
  digests = g_hash_table_lookup (local, ID_A);
  g_assert_nonnull (digests);
  /* the registry's digest after a pull, and the one of the local copy */
  g_assert_true (g_strv_contains (digests, DIGEST_A));
  g_assert_true (g_strv_contains (digests, DIGEST_PUSHED));

  none = kiste_image_update_find_outdated (local, DIGEST_A);
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  all = kiste_image_update_find_outdated (local, "sha256:" ID_A);
  g_assert_cmpuint (g_strv_length (all), ==, 1);
  g_assert_cmpstr (all[0], ==, ID_A);

  /* docker's ids carry sha256:, digests that are no digests are left out */
  g_clear_pointer (&local, g_hash_table_unref);
  local = kiste_image_update_parse_local ("[{\"Id\": \"sha256:" ID_A "\", \"Digest\": \"x\","
                                          " \"RepoDigests\": [\"a@sha256:1\", 3, \"b@" DIGEST_A "\"]},"
                                          " {\"Id\": \"short\"}, 7]", &error);
  g_assert_no_error (error);
  digests = g_hash_table_lookup (local, ID_A);
  g_assert_cmpuint (g_strv_length ((GStrv) digests), ==, 1);
  g_assert_cmpstr (digests[0], ==, DIGEST_A);
  g_assert_cmpuint (g_hash_table_size (local), ==, 1);

  g_assert_null (kiste_image_update_parse_local ("{}", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
}

static void
test_classify (void)
{
  struct { const char *fixture; KisteImageUpdateState state; } cases[] = {
    { "skopeo-error-unknown.txt", KISTE_IMAGE_UPDATE_FAILED },
    { "skopeo-error-refused.txt", KISTE_IMAGE_UPDATE_UNREACHABLE },
    { "skopeo-error-timeout.txt", KISTE_IMAGE_UPDATE_UNREACHABLE },
    { "skopeo-error-nohost.txt", KISTE_IMAGE_UPDATE_UNREACHABLE },
    { "skopeo-error-tls.txt", KISTE_IMAGE_UPDATE_UNREACHABLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = fixture_contents (cases[i].fixture);

      g_assert_cmpint (kiste_image_update_classify_error (text), ==, cases[i].state);
    }
}

static void
test_applies_to (void)
{
  g_autoptr(KisteImageUpdate) update = kiste_image_update_new ("quay.io/a/b:1", KISTE_IMAGE_UPDATE_NEWER);
  g_autoptr(KisteImageUpdate) copy = NULL;
  const char *outdated[] = { ID_A, NULL };

  update->outdated_ids = g_strdupv ((GStrv) outdated);
  copy = kiste_image_update_copy (update);
  g_assert_true (kiste_image_update_applies_to (copy, ID_A));
  g_assert_true (kiste_image_update_applies_to (copy, "sha256:" ID_A));
  g_assert_false (kiste_image_update_applies_to (copy, "b" ID_A));
  g_assert_true (kiste_image_update_applies_to (copy, NULL));
  copy->state = KISTE_IMAGE_UPDATE_CURRENT;
  g_assert_false (kiste_image_update_applies_to (copy, ID_A));
}

/* The check through the manager */

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *state_dir;
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autofree char *json = fixture_contents ("ps-updates.json");
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *flags[] = { "--name", "--image", NULL };
  KisteBoxStore *store;

  fx->state_dir = g_dir_make_tmp ("kiste-test-updates-XXXXXX", &error);
  g_assert_no_error (error);
  fx->runner = kiste_fake_runner_new ();
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_FAKE_STATE", fx->state_dir);
  fx->manager = kiste_manager_new (KISTE_RUNNER (fx->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fx->manager),
                                       "1.8.2.5", "podman", flags);
  store = _kiste_manager_get_store (fx->manager);
  kiste_box_store_set_host_home (store, "/home/tester");
  g_assert_true (_kiste_box_store_parse (store, json, &boxes, &error));
  g_assert_no_error (error);
  _kiste_box_store_merge (store, boxes);

  /* every local image is known by the digest sha256:ID */
  kiste_fake_runner_add (fx->runner, "podman image inspect",
                         "shift 4; sep='['; for id in \"$@\"; do"
                         " printf '%s{\"Id\":\"%s\",\"Digest\":\"sha256:%s\"}' \"$sep\" \"$id\" \"$id\"; sep=,;"
                         " done; echo ']'");
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_clear_object (&fx->manager);
  kiste_test_unref_and_wait ((gpointer *) &fx->runner);
  kiste_test_remove_tree (fx->state_dir);
  g_free (fx->state_dir);
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GPtrArray *
run_check (Fixture  *fx,
           GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_manager_check_updates_async (fx->manager, NULL, store_result_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_manager_query_finish (fx->manager, result, error);
}

static const KisteImageUpdate *
find_update (GPtrArray  *updates,
             const char *image)
{
  for (guint i = 0; i < updates->len; i++)
    {
      const KisteImageUpdate *update = g_ptr_array_index (updates, i);

      if (g_str_equal (update->image, image))
        return update;
    }
  g_assert_not_reached ();
}

static KisteBox *
find_box (Fixture    *fx,
          const char *name)
{
  return kiste_box_list_find (kiste_manager_get_boxes (fx->manager), name);
}

/* skopeo's answers: one image current for one of its two boxes, one newer,
 * one registry refusing, one taking too long, one unknown */
#define SKOPEO_SCRIPT \
  "d=\"$KISTE_FAKE_STATE\"; mkdir \"$d/run.$$\"; ls -d \"$d\"/run.* | wc -l >> \"$d/running\"; sleep 0.2; " \
  "rmdir \"$d/run.$$\"; case \"$4\" in " \
  "*/one:latest) echo '{\"Digest\":\"sha256:" "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1" "\"}';; " \
  "*/two:latest) echo '{\"Digest\":\"sha256:" "0000000000000000000000000000000000000000000000000000000000000000" "\"," \
  "\"Created\":\"2026-11-30T08:00:00Z\"}';; " \
  "*/three:1) echo 'time=\"x\" level=fatal msg=\"pinging container registry: dial tcp: connect: connection refused\"' >&2; exit 1;; " \
  "*/four:1) sleep 30;; " \
  "*) echo 'level=fatal msg=\"manifest unknown: manifest unknown\"' >&2; exit 1;; esac"

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
test_check (Fixture       *fx,
            gconstpointer  data)
{
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *running = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) counts = NULL;
  const KisteImageUpdate *update;
  guint max_running = 0;
  guint changed = 0;

  kiste_fake_runner_add (fx->runner, "skopeo", SKOPEO_SCRIPT);
  _kiste_manager_set_update_timeout (fx->manager, 1500);
  g_signal_connect_swapped (fx->manager, "image-updates-changed", G_CALLBACK (count_cb), &changed);

  g_assert_null (kiste_manager_get_image_update (fx->manager, find_box (fx, "fixture-a")));
  updates = run_check (fx, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 1);

  /* one request per distinct image, none for the local one, nothing pulled */
  g_assert_cmpuint (updates->len, ==, 6);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "skopeo"), ==, 5);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "podman image inspect"), ==, 5);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "podman pull"), ==, 0);
  g_assert_nonnull (kiste_fake_runner_find (fx->runner, "podman image inspect --format json -- "
                                            "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1 "
                                            "a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2"));

  /* at most four at once, and more than one */
  path = g_build_filename (fx->state_dir, "running", NULL);
  g_assert_true (g_file_get_contents (path, &running, NULL, NULL));
  counts = g_strsplit (running, "\n", -1);
  for (guint i = 0; counts[i] != NULL; i++)
    max_running = MAX (max_running, (guint) g_ascii_strtoull (counts[i], NULL, 10));
  g_assert_cmpuint (max_running, >=, 2);
  g_assert_cmpuint (max_running, <=, KISTE_MANAGER_UPDATE_REQUESTS);

  update = find_update (updates, "registry.example.org/kiste/one:latest");
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_NEWER);
  g_assert_false (kiste_manager_box_has_newer_image (fx->manager, find_box (fx, "fixture-a")));
  g_assert_true (kiste_manager_box_has_newer_image (fx->manager, find_box (fx, "fixture-b")));

  update = find_update (updates, "registry.example.org/kiste/two:latest");
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_NEWER);
  g_assert_nonnull (update->created);
  g_assert_cmpint (g_date_time_get_day_of_month (update->created), ==, 30);
  g_assert_true (kiste_manager_box_has_newer_image (fx->manager, find_box (fx, "fixture-c")));

  update = find_update (updates, "registry.example.org/kiste/three:1");
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_UNREACHABLE);
  update = find_update (updates, "registry.example.org/kiste/four:1");
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_UNREACHABLE);
  update = find_update (updates, "registry.example.org/kiste/five:1");
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_FAILED);
  g_assert_false (kiste_manager_box_has_newer_image (fx->manager, find_box (fx, "fixture-five")));

  update = kiste_manager_get_image_update (fx->manager, find_box (fx, "fixture-local"));
  g_assert_nonnull (update);
  g_assert_cmpint (update->state, ==, KISTE_IMAGE_UPDATE_LOCAL);
}

static void
test_check_offline (Fixture       *fx,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *refused = NULL;
  guint unreachable = 0;

  refused = g_strdup_printf ("echo '%s' >&2; exit 1",
                             "level=fatal msg=\"dial tcp: lookup registry.example.org: no such host\"");
  kiste_fake_runner_add (fx->runner, "skopeo", refused);
  updates = run_check (fx, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < updates->len; i++)
    {
      const KisteImageUpdate *update = g_ptr_array_index (updates, i);

      if (update->state == KISTE_IMAGE_UPDATE_UNREACHABLE)
        {
          unreachable++;
          g_assert_nonnull (update->message);
        }
    }
  /* every remote image unreachable: the window says so once */
  g_assert_cmpuint (unreachable, ==, 5);
  g_assert_false (kiste_manager_box_has_newer_image (fx->manager, find_box (fx, "fixture-b")));
}

static void
test_check_no_skopeo (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fx->runner, "skopeo", "exit 127");
  updates = run_check (fx, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_null (updates);
  /* nothing more was asked once it was missing */
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "skopeo"), <=, KISTE_MANAGER_UPDATE_REQUESTS);
}

static void
test_check_busy (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GPtrArray) updates = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fx->runner, "skopeo", "echo '{\"Digest\":\"sha256:"
                         "a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\"}'");
  kiste_manager_check_updates_async (fx->manager, NULL, store_result_cb, &first);
  updates = run_check (fx, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BUSY);
  while (first == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_clear_pointer (&updates, g_ptr_array_unref);
  g_clear_error (&error);
  updates = kiste_manager_query_finish (fx->manager, first, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (updates->len, ==, 6);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/image-update/is-remote", test_is_remote);
  g_test_add_func ("/image-update/argv", test_argv);
  g_test_add_func ("/image-update/parse-remote", test_parse_remote);
  g_test_add_func ("/image-update/parse-local", test_parse_local);
  g_test_add_func ("/image-update/classify", test_classify);
  g_test_add_func ("/image-update/applies-to", test_applies_to);
#define ADD(path, func) \
  g_test_add ("/image-update/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("check", test_check);
  ADD ("check-offline", test_check_offline);
  ADD ("check-no-skopeo", test_check_no_skopeo);
  ADD ("check-busy", test_check_busy);
#undef ADD

  return g_test_run ();
}
