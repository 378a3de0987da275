/* test-manager-queries.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager operations widgets use instead of commands: images, the
 * compatibility list, usage, the log, create-and-first-start and creating
 * a manifest's boxes. Against the shared fake runner and captured output. */

#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "kiste-capabilities-private.h"
#include "kiste-box-store-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-image-model.h"
#include "kiste-manager-private.h"
#include "kiste-test-util.h"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *state_dir;
} Fixture;

static char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
}

static char *
fixture_contents (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autofree char *json = fixture_contents ("ps-podman5.json");
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--clone", "--unshare-ipc", NULL };
  KisteBoxStore *store;

  fx->state_dir = g_dir_make_tmp ("kiste-test-queries-XXXXXX", &error);
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

  _kiste_manager_forget_compatible_images ();
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  gpointer runner = fx->runner;

  /* a first start's log reader ends a little after the start */
  g_clear_object (&fx->manager);
  g_object_add_weak_pointer (runner, &runner);
  g_object_unref (fx->runner);
  while (runner != NULL && g_get_monotonic_time () < deadline)
    {
      g_timeout_add_once (50, (GSourceOnceFunc) g_main_context_wakeup, NULL);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_null (runner);
  kiste_test_remove_tree (fx->state_dir);
  g_free (fx->state_dir);
}

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static void
store_result_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static void
assert_image (GPtrArray  *images,
              guint       index,
              const char *name,
              gboolean    downloaded)
{
  KisteImage *image;

  g_assert_cmpuint (index, <, images->len);
  image = g_ptr_array_index (images, index);
  g_assert_cmpstr (kiste_image_get_name (image), ==, name);
  g_assert_cmpint (kiste_image_get_downloaded (image), ==, downloaded);
}

/* Parsing ----------------------------------------------------------------- */

static void
test_parse_images (void)
{
  g_autofree char *podman = fixture_contents ("images-podman5.json");
  g_autofree char *docker = fixture_contents ("images-docker.txt");
  g_autoptr(GPtrArray) images = NULL;

  /* untagged left out, a name listed twice comes once */
  images = kiste_image_parse_list (podman);
  g_assert_cmpuint (images->len, ==, 3);
  assert_image (images, 0, "localhost/kiste-debian:ready", TRUE);
  assert_image (images, 1, "localhost/kiste-debian:bookworm", TRUE);
  assert_image (images, 2, "docker.io/library/debian:12", TRUE);
  g_clear_pointer (&images, g_ptr_array_unref);

  images = kiste_image_parse_list (docker);
  g_assert_cmpuint (images->len, ==, 2);
  assert_image (images, 0, "docker.io/library/ubuntu:24.04", TRUE);
  assert_image (images, 1, "quay.io/toolbx/arch-toolbox:latest", TRUE);
  g_clear_pointer (&images, g_ptr_array_unref);

  /* docker prints nothing without images; garbage is no image */
  images = kiste_image_parse_list ("");
  g_assert_cmpuint (images->len, ==, 0);
  g_clear_pointer (&images, g_ptr_array_unref);
  images = kiste_image_parse_list ("Error: something\n{\"Repository\": 3}\n[1, 2]");
  g_assert_cmpuint (images->len, ==, 0);
  g_clear_pointer (&images, g_ptr_array_unref);
  images = kiste_image_parse_list (NULL);
  g_assert_cmpuint (images->len, ==, 0);
  g_clear_pointer (&images, g_ptr_array_unref);

  images = kiste_image_parse_compatibility ("quay.io/toolbx/ubuntu-toolbox:24.04\n\n"
                                            "  docker.io/library/debian:12  \n"
                                            "-not an image\n");
  g_assert_cmpuint (images->len, ==, 2);
  assert_image (images, 0, "quay.io/toolbx/ubuntu-toolbox:24.04", FALSE);
  assert_image (images, 1, "docker.io/library/debian:12", FALSE);
}

static void
test_parse_stats (void)
{
  g_autofree char *podman = fixture_contents ("stats-podman5.json");
  g_autofree char *docker = fixture_contents ("stats-docker.txt");
  g_autoptr(KisteBoxStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  stats = kiste_box_stats_parse (podman, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stats->cpu, ==, "4.20%");
  g_assert_cmpstr (stats->memory_used, ==, "102.4kB");
  g_assert_cmpstr (stats->memory_limit, ==, "25.28GB");
  g_clear_pointer (&stats, kiste_box_stats_free);

  stats = kiste_box_stats_parse (docker, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stats->cpu, ==, "0.13%");
  g_assert_cmpstr (stats->memory_used, ==, "3.52MiB");
  g_assert_cmpstr (stats->memory_limit, ==, "7.63GiB");
  g_clear_pointer (&stats, kiste_box_stats_free);

  /* numbers instead of text, one memory figure, missing fields */
  stats = kiste_box_stats_parse ("[{\"cpu_percent\": 1.5, \"mem_usage\": \"12MB\"}]", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (stats->cpu, ==, "1.50%");
  g_assert_cmpstr (stats->memory_used, ==, "12MB");
  g_assert_null (stats->memory_limit);
  g_clear_pointer (&stats, kiste_box_stats_free);
  stats = kiste_box_stats_parse ("[{}]", &error);
  g_assert_no_error (error);
  g_assert_null (stats->cpu);
  g_assert_null (stats->memory_used);
  g_clear_pointer (&stats, kiste_box_stats_free);

  /* no sample at all */
  stats = kiste_box_stats_parse ("[]", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_null (stats);
  g_clear_error (&error);
  stats = kiste_box_stats_parse ("Error: no such container", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);
  stats = kiste_box_stats_parse ("", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
}

/* Images ------------------------------------------------------------------ */

static GPtrArray *
list_images (Fixture  *fx,
             GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_manager_list_images_async (fx->manager, NULL, store_result_cb, &result);
  return kiste_manager_query_finish (fx->manager, wait_for (&result), error);
}

static void
test_list_images (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GPtrArray) images = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fx->runner, "podman images", "cat \"$KISTE_TEST_FIXTURES/images-podman5.json\"");
  kiste_fake_runner_add (fx->runner, "docker images", "cat \"$KISTE_TEST_FIXTURES/images-docker.txt\"");

  images = list_images (fx, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "podman images"), ==, "podman images --format json");
  g_assert_cmpuint (images->len, ==, 3);
  assert_image (images, 0, "localhost/kiste-debian:ready", TRUE);
  g_clear_pointer (&images, g_ptr_array_unref);

  /* the engine in use decides the command and the format */
  kiste_runner_set_manager (KISTE_RUNNER (fx->runner), "docker");
  images = list_images (fx, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "docker images"), ==,
                   "docker images --format '{{json .}}'");
  g_assert_cmpuint (images->len, ==, 2);
  assert_image (images, 1, "quay.io/toolbx/arch-toolbox:latest", TRUE);
  g_clear_pointer (&images, g_ptr_array_unref);

  /* a failing engine is an error, not an empty list */
  kiste_fake_runner_add (fx->runner, "docker images", "echo 'Cannot connect to the Docker daemon' >&2; exit 1");
  images = list_images (fx, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "Cannot connect to the Docker daemon"));
  g_assert_null (images);
}

static GPtrArray *
list_compatible (Fixture  *fx,
                 GError  **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_manager_list_compatible_images_async (fx->manager, NULL, store_result_cb, &result);
  return kiste_manager_query_finish (fx->manager, wait_for (&result), error);
}

static void
test_compatible_images (Fixture       *fx,
                        gconstpointer  data)
{
  g_autoptr(GPtrArray) images = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteManager) other = NULL;

  /* offline the first time: distrobox has no list to give */
  kiste_fake_runner_add (fx->runner, "distrobox create --compatibility",
                         "echo 'curl: (6) Could not resolve host: raw.githubusercontent.com' >&2; exit 1");
  images = list_compatible (fx, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_null (images);
  g_clear_error (&error);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create --compatibility"), ==, 1);

  /* online: read once */
  kiste_fake_runner_add (fx->runner, "distrobox create --compatibility",
                         "printf '%s\\n' quay.io/toolbx/ubuntu-toolbox:24.04 docker.io/library/debian:12");
  images = list_compatible (fx, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (images->len, ==, 2);
  assert_image (images, 0, "quay.io/toolbx/ubuntu-toolbox:24.04", FALSE);
  g_clear_pointer (&images, g_ptr_array_unref);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create --compatibility"), ==, 2);

  /* then kept, for this manager and every other in the run */
  images = list_compatible (fx, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (images->len, ==, 2);
  g_clear_pointer (&images, g_ptr_array_unref);
  other = kiste_manager_new (KISTE_RUNNER (fx->runner));
  {
    g_autoptr(GAsyncResult) result = NULL;

    kiste_manager_list_compatible_images_async (other, NULL, store_result_cb, &result);
    images = kiste_manager_query_finish (other, wait_for (&result), &error);
  }
  g_assert_no_error (error);
  g_assert_cmpuint (images->len, ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create --compatibility"), ==, 2);
}

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_image_model (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(KisteImageModel) model = kiste_image_model_new ();
  g_autoptr(KisteImageModel) offline = kiste_image_model_new ();
  g_autoptr(KisteImage) item = NULL;
  guint n_changes = 0;

  kiste_fake_runner_add (fx->runner, "podman images", "cat \"$KISTE_TEST_FIXTURES/images-podman5.json\"");
  kiste_fake_runner_add (fx->runner, "distrobox create --compatibility",
                         "printf '%s\\n' quay.io/toolbx/ubuntu-toolbox:24.04 docker.io/library/debian:12");
  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), &n_changes);

  g_assert_false (kiste_image_model_get_loaded (model));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);
  kiste_image_model_load (model, fx->manager, NULL);
  while (!kiste_image_model_get_loaded (model) || !kiste_image_model_get_has_compatible (model))
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_changes, ==, 2);

  /* downloaded first; a known image that is downloaded comes once */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  item = g_list_model_get_item (G_LIST_MODEL (model), 2);
  g_assert_cmpstr (kiste_image_get_name (item), ==, "docker.io/library/debian:12");
  g_assert_true (kiste_image_get_downloaded (item));
  g_clear_object (&item);
  item = g_list_model_get_item (G_LIST_MODEL (model), 3);
  g_assert_cmpstr (kiste_image_get_name (item), ==, "quay.io/toolbx/ubuntu-toolbox:24.04");
  g_assert_false (kiste_image_get_downloaded (item));
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 4));
  g_assert_true (kiste_image_model_is_downloaded (model, "docker.io/library/debian:12"));
  g_assert_false (kiste_image_model_is_downloaded (model, "quay.io/toolbx/ubuntu-toolbox:24.04"));
  g_assert_false (kiste_image_model_is_downloaded (model, NULL));

  /* offline the first time and the engine failing: loaded, nothing known */
  _kiste_manager_forget_compatible_images ();
  kiste_fake_runner_add (fx->runner, "distrobox create --compatibility", "exit 1");
  kiste_fake_runner_add (fx->runner, "podman images", "exit 125");
  kiste_image_model_load (offline, fx->manager, NULL);
  while (kiste_fake_runner_count (fx->runner, "distrobox create --compatibility") < 2 ||
         !kiste_image_model_get_loaded (offline))
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < 10; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (kiste_image_model_get_has_compatible (offline));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (offline)), ==, 0);
}

/* Usage ------------------------------------------------------------------- */

static KisteBoxStats *
get_stats (Fixture     *fx,
           const char  *name,
           GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_manager_get_stats_async (fx->manager, name, NULL, store_result_cb, &result);
  return kiste_manager_query_finish (fx->manager, wait_for (&result), error);
}

static void
test_stats (Fixture       *fx,
            gconstpointer  data)
{
  g_autoptr(KisteBoxStats) stats = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fx->runner, "podman stats", "cat \"$KISTE_TEST_FIXTURES/stats-podman5.json\"");
  stats = get_stats (fx, "fixture-a", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "podman stats"), ==,
                   "podman stats --no-stream --format json fixture-a");
  g_assert_cmpstr (stats->cpu, ==, "4.20%");
  g_assert_cmpstr (stats->memory_limit, ==, "25.28GB");
  g_clear_pointer (&stats, kiste_box_stats_free);

  /* podman's reason stays in the message for people */
  kiste_fake_runner_add (fx->runner, "podman stats",
                         "echo 'Error: stats is not supported in rootless mode without cgroups v2' >&2; exit 125");
  stats = get_stats (fx, "fixture-a", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "cgroups v2"));
  g_assert_null (stats);
  g_clear_error (&error);

  /* output without a sample */
  kiste_fake_runner_add (fx->runner, "podman stats", "echo '[]'");
  stats = get_stats (fx, "fixture-a", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);

  /* a name that would read as an option never reaches podman */
  stats = get_stats (fx, "--all", &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_null (stats);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "podman stats"), ==, 3);
}

/* The log ----------------------------------------------------------------- */

static void
collect_line_cb (const char *line,
                 gboolean    is_stderr,
                 gpointer    user_data)
{
  g_ptr_array_add (user_data, g_strdup (line));
}

static void
test_stream_log (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GDateTime) since = g_date_time_new_utc (2026, 1, 2, 3, 4, 5.5);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fx->runner, "podman logs --since",
                         "printf 'first line\\nsecond line\\n'; echo 'a warning' >&2");
  kiste_manager_stream_log_async (fx->manager, "fixture-a", since, FALSE,
                                  collect_line_cb, g_ptr_array_ref (lines),
                                  (GDestroyNotify) g_ptr_array_unref,
                                  NULL, store_result_cb, &result);
  g_assert_true (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "podman logs"), ==,
                   "podman logs --since 2026-01-02T03:04:05.500000000+00:00 fixture-a");
  /* stdout and stderr, as the engine interleaves them */
  g_assert_cmpuint (lines->len, ==, 3);
  g_assert_true (g_ptr_array_find_with_equal_func (lines, "first line", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (lines, "second line", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (lines, "a warning", g_str_equal, NULL));
  g_clear_object (&result);
  g_ptr_array_set_size (lines, 0);

  /* following: lines as they come, until cancelled */
  kiste_fake_runner_add (fx->runner, "podman logs --follow",
                         "echo 'ready'; exec sleep 600");
  kiste_manager_stream_log_async (fx->manager, "fixture-a", NULL, TRUE,
                                  collect_line_cb, g_ptr_array_ref (lines),
                                  (GDestroyNotify) g_ptr_array_unref,
                                  cancellable, store_result_cb, &result);
  while (lines->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "ready");
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "podman logs"), ==,
                   "podman logs --follow --since 1970-01-01T00:00:01.000000000+00:00 fixture-a");
  g_assert_null (result);
  g_cancellable_cancel (cancellable);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_clear_object (&result);

  /* a failing engine says why */
  kiste_fake_runner_add (fx->runner, "podman logs --since",
                         "echo 'Error: no container with name or ID \"fixture-a\" found' >&2; exit 125");
  kiste_manager_stream_log_async (fx->manager, "fixture-a", since, FALSE,
                                  collect_line_cb, g_ptr_array_ref (lines),
                                  (GDestroyNotify) g_ptr_array_unref,
                                  NULL, store_result_cb, &result);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "no container"));
}

/* Create and first start -------------------------------------------------- */

/* The listing after the create: the captured boxes and "newbox", stopped */
static void
write_ps_after (Fixture *fx)
{
  g_autofree char *path = fixture_path ("ps-podman5.json");
  g_autofree char *after = g_build_filename (fx->state_dir, "ps-after.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonArray) names = json_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonArray *boxes;
  JsonNode *copy;
  JsonObject *box;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  boxes = json_node_get_array (json_parser_get_root (parser));
  copy = json_node_copy (json_array_get_element (boxes, 0));
  box = json_node_get_object (copy);
  json_array_add_string_element (names, "newbox");
  json_object_set_array_member (box, "Names", json_array_ref (names));
  json_object_set_string_member (box, "Id", "4e3f00aa5c9b2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7");
  json_object_set_string_member (box, "State", "exited");
  json_array_add_element (boxes, copy);
  text = json_to_string (json_parser_get_root (parser), FALSE);
  g_assert_true (g_file_set_contents (after, text, -1, &error));
  g_assert_no_error (error);
}

static void
fake_box_world (Fixture    *fx,
                const char *create_script)
{
  write_ps_after (fx);
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_FAKE_BOX", "newbox");
  kiste_fake_runner_add (fx->runner, "podman ", "exec \"$KISTE_TEST_FAKES/ops-podman.sh\" \"$@\"");
  kiste_fake_runner_add (fx->runner, "podman ps",
                         "if [ -e \"$KISTE_FAKE_STATE/created\" ]; then cat \"$KISTE_FAKE_STATE/ps-after.json\"; "
                         "else cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"; fi");
  kiste_fake_runner_add (fx->runner, "distrobox create", create_script);
}

typedef struct
{
  GPtrArray *tasks;
  GArray    *steps;
} Followed;

static void
follow_cb (KisteTask         *task,
           KisteCreationStep  step,
           gpointer           user_data)
{
  Followed *followed = user_data;

  g_ptr_array_add (followed->tasks, g_object_ref (task));
  g_array_append_val (followed->steps, step);
}

static KisteCreateOptions *
new_options (const char *name)
{
  KisteCreateOptions *options = kiste_create_options_new ();

  kiste_create_options_set_name (options, name);
  kiste_create_options_set_image (options, "docker.io/library/debian:12");
  return options;
}

static void
test_create_and_start (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = new_options ("newbox");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Followed followed = {
    g_ptr_array_new_with_free_func (g_object_unref),
    g_array_new (FALSE, FALSE, sizeof (KisteCreationStep)),
  };
  KisteTask *create_task;
  KisteTask *start_task;

  fake_box_world (fx, "echo \"Creating 'newbox' using image docker.io/library/debian:12\"; "
                      "touch \"$KISTE_FAKE_STATE/created\"");

  create_task = kiste_manager_create_and_start_async (fx->manager, options, follow_cb, &followed, NULL,
                                                      NULL, store_result_cb, &result);
  g_assert_nonnull (create_task);
  /* the create is followed from its first line */
  g_assert_cmpuint (followed.tasks->len, ==, 1);
  g_assert_true (g_ptr_array_index (followed.tasks, 0) == create_task);
  g_assert_cmpint (g_array_index (followed.steps, KisteCreationStep, 0), ==, KISTE_CREATION_STEP_CREATE);

  g_assert_true (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_no_error (error);

  /* then the first start, with its progress, on the box the list now has */
  g_assert_cmpuint (followed.tasks->len, ==, 2);
  g_assert_cmpint (g_array_index (followed.steps, KisteCreationStep, 1), ==, KISTE_CREATION_STEP_FIRST_START);
  start_task = g_ptr_array_index (followed.tasks, 1);
  g_assert_cmpint (kiste_task_get_state (create_task), ==, KISTE_TASK_SUCCEEDED);
  g_assert_cmpint (kiste_task_get_state (start_task), ==, KISTE_TASK_SUCCEEDED);
  g_assert_cmpstr (kiste_task_get_box_name (start_task), ==, "newbox");
  g_assert_cmpfloat (kiste_task_get_fraction (start_task), ==, 1.0);
  g_assert_nonnull (kiste_box_store_find_by_name (_kiste_manager_get_store (fx->manager), "newbox"));
  g_assert_nonnull (kiste_fake_runner_find (fx->runner, "distrobox create --yes --name newbox --image docker.io/library/debian:12 --no-entry"));
  g_assert_nonnull (kiste_fake_runner_find (fx->runner, "podman start newbox"));

  g_ptr_array_unref (followed.tasks);
  g_array_unref (followed.steps);
}

static void
test_create_and_start_fails (Fixture       *fx,
                             gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = new_options ("newbox");
  g_autoptr(KisteCreateOptions) taken = new_options ("fixture-a");
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  Followed followed = {
    g_ptr_array_new_with_free_func (g_object_unref),
    g_array_new (FALSE, FALSE, sizeof (KisteCreationStep)),
  };

  fake_box_world (fx, "echo 'Error: crun: cannot stat /proc/self/fd/5: OCI permission denied' >&2; exit 125");

  kiste_manager_create_and_start_async (fx->manager, options, follow_cb, &followed, NULL,
                                        NULL, store_result_cb, &result);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "OCI permission denied"));
  g_clear_error (&error);
  g_clear_object (&result);
  /* no first start after a failed create */
  g_assert_cmpuint (followed.tasks->len, ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "podman start"), ==, 0);

  /* bad input: the task says so, nothing runs */
  kiste_manager_create_and_start_async (fx->manager, taken, follow_cb, &followed, NULL,
                                        NULL, store_result_cb, &result);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create"), ==, 1);

  g_ptr_array_unref (followed.tasks);
  g_array_unref (followed.steps);
}

static void
test_create_all (Fixture       *fx,
                 gconstpointer  data)
{
  /* no launchers: those come after each create (test-manager.c) */
  static const char manifest[] =
    "[one]\nimage=docker.io/library/debian:12\nentry=false\n\n"
    "[two]\nimage=docker.io/library/debian:12\nentry=false\n";
  static const char clashing[] =
    "[one]\nimage=docker.io/library/debian:12\n\n"
    "[fixture-a]\nimage=docker.io/library/debian:12\n\n"
    "[one]\nimage=docker.io/library/debian:12\n";
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *commands = kiste_fake_runner_get_commands (fx->runner);
  guint first;
  guint second;

  /* a box that exists, and a name twice: said per entry, nothing runs */
  entries = kiste_assemble_parse (clashing, -1, &error);
  g_assert_no_error (error);
  problems = kiste_manager_check_entries (fx->manager, entries);
  g_assert_cmpuint (problems->len, ==, 3);
  g_assert_null (g_ptr_array_index (problems, 0));
  g_assert_nonnull (g_ptr_array_index (problems, 1));
  g_assert_nonnull (g_ptr_array_index (problems, 2));
  kiste_manager_create_all_async (fx->manager, entries, NULL, store_result_cb, &result);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "fixture-a"));
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create"), ==, 0);
  g_clear_error (&error);
  g_clear_object (&result);
  g_clear_pointer (&entries, g_ptr_array_unref);
  g_clear_pointer (&problems, g_ptr_array_unref);

  /* one after another, in file order */
  entries = kiste_assemble_parse (manifest, -1, &error);
  g_assert_no_error (error);
  problems = kiste_manager_check_entries (fx->manager, entries);
  g_assert_null (g_ptr_array_index (problems, 0));
  g_assert_null (g_ptr_array_index (problems, 1));
  kiste_manager_create_all_async (fx->manager, entries, NULL, store_result_cb, &result);
  g_assert_true (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create"), ==, 2);
  g_assert_true (g_ptr_array_find_with_equal_func (commands, "distrobox create --yes --name one "
                                                   "--image docker.io/library/debian:12 --no-entry",
                                                   g_str_equal, &first));
  g_assert_true (g_ptr_array_find_with_equal_func (commands, "distrobox create --yes --name two "
                                                   "--image docker.io/library/debian:12 --no-entry",
                                                   g_str_equal, &second));
  g_assert_cmpuint (first, <, second);
  g_clear_object (&result);

  /* the first failure stops the rest */
  kiste_fake_runner_add (fx->runner, "distrobox create", "echo 'Error: no space left' >&2; exit 1");
  kiste_manager_create_all_async (fx->manager, entries, NULL, store_result_cb, &result);
  g_assert_false (kiste_manager_operation_finish (fx->manager, wait_for (&result), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create"), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager-queries/parse-images", test_parse_images);
  g_test_add_func ("/manager-queries/parse-stats", test_parse_stats);

#define ADD(path, func) \
  g_test_add ("/manager-queries/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("list-images", test_list_images);
  ADD ("compatible-images", test_compatible_images);
  ADD ("image-model", test_image_model);
  ADD ("stats", test_stats);
  ADD ("stream-log", test_stream_log);
  ADD ("create-and-start", test_create_and_start);
  ADD ("create-and-start-fails", test_create_and_start_fails);
  ADD ("create-all", test_create_all);

#undef ADD

  return g_test_run ();
}
