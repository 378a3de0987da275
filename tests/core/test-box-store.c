/* test-box-store.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-box-store-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"

#define HOST_HOME "/home/tester"
#define ID_A      "2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f"
#define ID_B      "82b085f991ce25fd3880f454f3688f629a679d5cbbbb7fc2a0e63f3822ca3953"
#define ID_C      "56f1d1b28a0a3ac88418e9e50ddb2dfa8f61a300589e33ec1c2ee9b69ffbcaf7"

static char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
}

static char *
fake_path (const char *name)
{
  return g_build_filename (g_getenv ("KISTE_TEST_FAKES"), name, NULL);
}

static char *
read_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

/* Fixture: a store on a recording runner, the podman 5 list behind ps */

typedef struct
{
  KisteFakeRunner *runner;
  const char      *engine;
  GHashTable      *fixtures; /* subcommand → fixture for STORE_FAKE_FIXTURE */
  GHashTable      *sleeps;   /* subcommand → STORE_FAKE_SLEEP */
  GHashTable      *scripts;  /* subcommand → fake script in tests/fakes */
  KisteBoxStore   *store;
  GArray          *changes;  /* Change */
} Fixture;

/* The shared fake runner answers "ENGINE SUBCOMMAND …" with a fake script
 * of tests/fakes, the fixture and delay for that subcommand in its
 * environment */
static void
fake_apply (Fixture    *fixture,
            const char *subcommand)
{
  g_autofree char *prefix = g_strdup_printf ("%s %s", fixture->engine, subcommand);
  g_autofree char *script_path = fake_path (g_hash_table_lookup (fixture->scripts, subcommand));
  g_autofree char *script = NULL;
  g_autoptr(GString) env = g_string_new (NULL);
  const char *value;

  if ((value = g_hash_table_lookup (fixture->fixtures, subcommand)))
    {
      g_autofree char *quoted = g_shell_quote (value);

      g_string_append_printf (env, "STORE_FAKE_FIXTURE=%s ", quoted);
    }
  if ((value = g_hash_table_lookup (fixture->sleeps, subcommand)))
    {
      g_autofree char *quoted = g_shell_quote (value);

      g_string_append_printf (env, "STORE_FAKE_SLEEP=%s ", quoted);
    }

  {
    g_autofree char *quoted = g_shell_quote (script_path);

    script = g_strdup_printf ("%sexec %s %s \"$@\"", env->str, quoted, fixture->engine);
  }
  kiste_fake_runner_add (fixture->runner, prefix, script);
}

/* What runs for a subcommand: a fake script and its fixture (may be NULL) */
static void
fake_set (Fixture    *fixture,
          const char *subcommand,
          const char *script,
          const char *name)
{
  g_hash_table_replace (fixture->scripts, g_strdup (subcommand), g_strdup (script));

  if (name != NULL && g_path_is_absolute (name))
    g_hash_table_replace (fixture->fixtures, g_strdup (subcommand), g_strdup (name));
  else if (name != NULL)
    g_hash_table_replace (fixture->fixtures, g_strdup (subcommand), fixture_path (name));
  else
    g_hash_table_remove (fixture->fixtures, subcommand);

  fake_apply (fixture, subcommand);
}

static void
fake_set_sleep (Fixture    *fixture,
                const char *subcommand,
                const char *seconds)
{
  if (seconds != NULL)
    g_hash_table_replace (fixture->sleeps, g_strdup (subcommand), g_strdup (seconds));
  else
    g_hash_table_remove (fixture->sleeps, subcommand);

  fake_apply (fixture, subcommand);
}

static guint
fake_count (Fixture    *fixture,
            const char *subcommand)
{
  g_autofree char *prefix = g_strdup_printf ("%s %s ", fixture->engine, subcommand);

  return kiste_fake_runner_count (fixture->runner, prefix);
}

static guint
n_spawned (Fixture *fixture)
{
  return kiste_fake_runner_get_commands (fixture->runner)->len;
}

/* Whether the last command of subcommand was argv */
static gboolean
fake_last_is (Fixture            *fixture,
              const char         *subcommand,
              const char * const *argv)
{
  g_autofree char *prefix = g_strdup_printf ("%s %s ", fixture->engine, subcommand);
  g_autofree char *expected = kiste_argv_to_display_string (argv);

  return g_strcmp0 (kiste_fake_runner_find (fixture->runner, prefix), expected) == 0;
}

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

static void
record_items_changed (GListModel *model,
                      guint       position,
                      guint       removed,
                      guint       added,
                      GArray     *changes)
{
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *manager = data;

  fixture->runner = kiste_fake_runner_new ();
  kiste_runner_set_manager (KISTE_RUNNER (fixture->runner), manager);
  /* anything the store should not run fails loudly */
  kiste_fake_runner_set_default (fixture->runner, "echo \"unexpected: $*\" >&2; exit 99");
  fixture->engine = g_strcmp0 (manager, "docker") == 0 ? "docker" : "podman";
  fixture->fixtures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->sleeps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fixture->scripts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  fake_set (fixture, "ps", "store-cat",
                   g_strcmp0 (manager, "docker") == 0 ? "docker-ps.txt" : "ps-podman5.json");
  fake_set (fixture, "container", "store-cat",
                   g_strcmp0 (manager, "docker") == 0 ? "inspect-docker.json" : "inspect-podman5.json");
  fake_set (fixture, "events", "store-events", "events-podman5.txt");

  fixture->store = kiste_box_store_new (KISTE_RUNNER (fixture->runner));
  kiste_box_store_set_host_home (fixture->store, HOST_HOME);
  /* quick enough for tests, slow enough to see coalescing */
  _kiste_box_store_set_timings (fixture->store, 60, 50, 0, 10000);

  fixture->changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_signal_connect (fixture->store, "items-changed", G_CALLBACK (record_items_changed), fixture->changes);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_finalize_object (fixture->store);
  g_clear_object (&fixture->runner);
  g_clear_pointer (&fixture->fixtures, g_hash_table_unref);
  g_clear_pointer (&fixture->sleeps, g_hash_table_unref);
  g_clear_pointer (&fixture->scripts, g_hash_table_unref);
  g_clear_pointer (&fixture->changes, g_array_unref);
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop for ms milliseconds */
static void
run_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until condition holds; fails after ten seconds */
static void
run_until (Condition condition,
           gpointer  data)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add (10000, timeout_cb, &timed_out);

  while (!condition (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  g_assert_false (timed_out);
  g_source_remove (id);
}

typedef struct
{
  GAsyncResult *result;
} Waiter;

static void
store_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
}

static gboolean
waiter_done (gpointer data)
{
  return ((Waiter *) data)->result != NULL;
}

static gboolean
reload (KisteBoxStore  *store,
        GError        **error)
{
  Waiter waiter = { NULL };
  gboolean ret;

  kiste_box_store_reload_async (store, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  ret = kiste_box_store_reload_finish (store, waiter.result, error);
  g_object_unref (waiter.result);

  return ret;
}

static gboolean
store_idle (gpointer data)
{
  return !kiste_box_store_get_refreshing (data);
}

/* Boxes built from short JSON for the merge tests */
static KisteBox *
make_box (const char *id,
          const char *name,
          const char *status)
{
  g_autofree char *json = g_strdup_printf ("{\"Id\": \"%s\", \"Names\": [\"%s\"],"
                                           " \"Labels\": {\"manager\": \"distrobox\"},"
                                           " \"Mounts\": [\"/dev\"], \"State\": \"running\","
                                           " \"Status\": \"%s\"}", id, name, status);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  box = kiste_box_new_from_ps_json (json_node_get_object (node), HOST_HOME, &error);
  g_assert_no_error (error);
  return box;
}

static GPtrArray *
make_boxes (const char *spec)
{
  GPtrArray *boxes = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) names = g_strsplit (spec, " ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *id = NULL;
      const char *status = "Up";
      g_auto(GStrv) parts = g_strsplit (names[i], ":", 2);

      if (parts[0] == NULL || parts[0][0] == '\0')
        continue;
      if (parts[1] != NULL)
        status = parts[1];

      id = g_strdup_printf ("id-%s", parts[0]);
      g_ptr_array_add (boxes, make_box (id, parts[0], status));
    }

  return boxes;
}

static char *
dup_names (GListModel *model)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (model, i);

      if (i > 0)
        g_string_append_c (names, ' ');
      g_string_append (names, kiste_box_get_name (box));
    }

  return g_string_free (names, FALSE);
}

static gboolean
item_is (GListModel *model,
         guint       position,
         KisteBox   *box)
{
  g_autoptr(KisteBox) item = g_list_model_get_item (model, position);

  return item == box;
}

static void
assert_changes (GArray *changes,
                ...)
{
  va_list args;
  guint n = 0;
  int position;

  va_start (args, changes);
  while ((position = va_arg (args, int)) >= 0)
    {
      guint removed = va_arg (args, guint);
      guint added = va_arg (args, guint);
      Change *change;

      g_assert_cmpuint (n, <, changes->len);
      change = &g_array_index (changes, Change, n);
      g_assert_cmpuint (change->position, ==, (guint) position);
      g_assert_cmpuint (change->removed, ==, removed);
      g_assert_cmpuint (change->added, ==, added);
      n++;
    }
  va_end (args);

  g_assert_cmpuint (changes->len, ==, n);
  g_array_set_size (changes, 0);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              GPtrArray  *names)
{
  g_ptr_array_add (names, g_strdup (pspec->name));
}

/* Parsing */

static void
test_store_parse_podman5 (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *text = read_fixture ("ps-podman5.json");
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *expected[] = { "fixture-a", "fixture-b", "fixture-c", "fixture-apx", "fixture-clash" };

  g_assert_true (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (boxes->len, ==, G_N_ELEMENTS (expected));

  for (guint i = 0; i < boxes->len; i++)
    g_assert_cmpstr (kiste_box_get_name (g_ptr_array_index (boxes, i)), ==, expected[i]);

  g_assert_cmpstr (kiste_box_get_status (g_ptr_array_index (boxes, 0)), ==, "Up 3 seconds");

  /* the store's host home reached the boxes */
  g_assert_true (kiste_box_has_custom_home (g_ptr_array_index (boxes, 1)));
  g_assert_false (kiste_box_has_custom_home (g_ptr_array_index (boxes, 0)));
}

static void
test_store_parse_spacing (Fixture       *fixture,
                          gconstpointer  data)
{
  /* whitespace inside strings and escapes survive, between tokens not */
  const char *text =
    " \n [ {\"Id\" :\t\"i d\" ,\n \"Names\" : [ \"spaced\" ], \"Image\" : \"a \\\" b\",\r\n"
    "   \"Labels\": {\"manager\" : \"distrobox\"},\n"
    "   \"Status\": \"Up\\t 2  hours \\\\ \", \"Mounts\": [ \"/a b\" ] } ] \n";
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  g_assert_true (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (boxes->len, ==, 1);

  box = g_ptr_array_index (boxes, 0);
  g_assert_cmpstr (kiste_box_get_id (box), ==, "i d");
  g_assert_cmpstr (kiste_box_get_name (box), ==, "spaced");
  g_assert_cmpstr (kiste_box_get_image (box), ==, "a \" b");
  g_assert_cmpstr (kiste_box_get_status (box), ==, "Up\t 2  hours \\ ");
  g_assert_cmpstr (kiste_box_get_mounts (box)[0], ==, "/a b");
}

static void
test_store_parse_edge (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *text = read_fixture ("ps-podman-edge.json");
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  const char *expected[] = { "oldbox", "newpodman", "oldpodman", "isolated", "fedora-toolbox-41" };

  /* infra containers are left out; a toolbox is listed as Toolbx's, and
   * a box made from a Toolbx image is distrobox's */
  g_assert_true (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (boxes->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < boxes->len; i++)
    {
      KisteBox *box = g_ptr_array_index (boxes, i);

      g_assert_cmpstr (kiste_box_get_name (box), ==, expected[i]);
      g_assert_cmpint (kiste_box_get_tool (box), ==,
                       i == 4 ? KISTE_BOX_TOOL_TOOLBX : KISTE_BOX_TOOL_DISTROBOX);
    }
}

static void
test_store_parse_docker (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *text = read_fixture ("docker-ps.txt");
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GError) error = NULL;
  const char *expected[] = { "dbx-debian", "legacy", "apx-pico" };

  g_assert_true (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (boxes->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < boxes->len; i++)
    g_assert_cmpstr (kiste_box_get_name (g_ptr_array_index (boxes, i)), ==, expected[i]);

  /* docker prints nothing when there are no containers */
  g_assert_true (_kiste_box_store_parse (fixture->store, "", &none, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_store_parse_bad (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *files[] = { "ps-garbage.json", "ps-truncated.json", "ps-not-array.json" };
  const char *texts[] = {
    "[{\"Id\": \"x\", \"Names\": [\"x\"], \"Labels\": {\"manager\": \"distrobox\"}}, 42]",
    "[{\"Names\": [\"noid\"], \"Labels\": {\"manager\": \"distrobox\"}}]",
    "{}",
    "null",
  };
  g_autoptr(GPtrArray) empty = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *text = read_fixture (files[i]);
      GPtrArray *boxes = NULL;

      g_assert_false (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (boxes);
      g_clear_error (&error);
    }

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      GPtrArray *boxes = NULL;

      g_assert_false (_kiste_box_store_parse (fixture->store, texts[i], &boxes, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (boxes);
      g_clear_error (&error);
    }

  g_assert_true (_kiste_box_store_parse (fixture->store, "[]\n", &empty, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (empty->len, ==, 0);
}

static void
test_store_parse_docker_bad_line (Fixture       *fixture,
                                  gconstpointer  data)
{
  g_autofree char *good = read_fixture ("docker-ps.txt");
  g_autofree char *text = g_strconcat (good, "{\"ID\": \"trunc", NULL);
  GPtrArray *boxes = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_false (_kiste_box_store_parse (fixture->store, text, &boxes, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_null (boxes);
}

/* Merging */

static void
merge (Fixture    *fixture,
       const char *spec)
{
  g_autoptr(GPtrArray) boxes = make_boxes (spec);

  _kiste_box_store_merge (fixture->store, boxes);
}

/* A clone's image ("localhost/<source>:<date>") names no distribution: the
 * list learns it from the source box, also for copies of copies */
static KisteBox *
make_box_with_image (const char *name,
                     const char *image)
{
  g_autofree char *json = g_strdup_printf ("{\"Id\": \"id-%s\", \"Names\": [\"%s\"],"
                                           " \"Image\": \"%s\","
                                           " \"Labels\": {\"manager\": \"distrobox\"},"
                                           " \"Mounts\": [\"/dev\"], \"State\": \"exited\"}",
                                           name, name, image);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  KisteBox *box = kiste_box_new_from_ps_json (json_node_get_object (node), HOST_HOME, &error);

  g_assert_no_error (error);
  return box;
}

static void
test_store_clone_distro (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GPtrArray) boxes = g_ptr_array_new_with_free_func (g_object_unref);
  KisteBox *copy;
  KisteBox *copy2;

  /* copies listed before their sources, and a name with capitals */
  g_ptr_array_add (boxes, make_box_with_image ("copy2", "localhost/copy:2026-12-05"));
  g_ptr_array_add (boxes, make_box_with_image ("copy", "localhost/dev-box:2026-12-04"));
  g_ptr_array_add (boxes, make_box_with_image ("Dev-Box", "docker.io/library/debian:12"));
  g_ptr_array_add (boxes, make_box_with_image ("other", "localhost/unknown:2026-12-04"));
  _kiste_box_store_merge (fixture->store, boxes);

  copy = kiste_box_store_find_by_name (fixture->store, "copy");
  copy2 = kiste_box_store_find_by_name (fixture->store, "copy2");
  g_assert_cmpstr (kiste_box_get_distro_id (copy), ==, "debian");
  g_assert_cmpstr (kiste_box_get_distro_id (copy2), ==, "debian");
  g_assert_cmpstr (kiste_box_get_distro_id (kiste_box_store_find_by_name (fixture->store, "other")), ==,
                   KISTE_DISTRO_GENERIC);

  /* the source gone, the copies remember */
  g_clear_pointer (&boxes, g_ptr_array_unref);
  boxes = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (boxes, make_box_with_image ("copy2", "localhost/copy:2026-12-05"));
  g_ptr_array_add (boxes, make_box_with_image ("copy", "localhost/dev-box:2026-12-04"));
  _kiste_box_store_merge (fixture->store, boxes);
  g_assert_cmpstr (kiste_box_get_distro_id (copy), ==, "debian");
}

static void
test_store_merge (Fixture       *fixture,
                  gconstpointer  data)
{
  GListModel *model = G_LIST_MODEL (fixture->store);
  g_autoptr(GPtrArray) notified = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) store_notified = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *names = NULL;
  KisteBox *c;
  KisteBox *a;

  g_signal_connect (fixture->store, "notify::n-items", G_CALLBACK (count_notify), store_notified);

  /* the first list: one addition, sorted by name */
  merge (fixture, "c b a");
  assert_changes (fixture->changes, 0, 0, 3, -1);
  g_assert_cmpuint (store_notified->len, ==, 1);
  names = dup_names (model);
  g_assert_cmpstr (names, ==, "a b c");
  g_clear_pointer (&names, g_free);

  a = kiste_box_store_find_by_name (fixture->store, "a");
  c = kiste_box_store_find_by_name (fixture->store, "c");
  g_assert_true (kiste_box_store_find_by_id (fixture->store, "id-c") == c);
  g_signal_connect (c, "notify", G_CALLBACK (count_notify), notified);

  /* the same list again (new objects): no signal at all */
  merge (fixture, "a b c");
  assert_changes (fixture->changes, -1);
  g_assert_cmpuint (notified->len, ==, 0);
  g_assert_cmpuint (store_notified->len, ==, 1);
  g_assert_true (kiste_box_store_find_by_name (fixture->store, "a") == a);

  /* a removal in the middle */
  merge (fixture, "a c");
  assert_changes (fixture->changes, 1, 1, 0, -1);
  g_assert_true (item_is (model, 1, c));
  g_assert_cmpuint (notified->len, ==, 0);

  /* an update in place (notify only) and an addition at the end */
  merge (fixture, "d a c:Exited");
  assert_changes (fixture->changes, 2, 0, 1, -1);
  g_assert_cmpuint (notified->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (notified, 0), ==, "status");
  g_assert_cmpstr (kiste_box_get_status (c), ==, "Exited");
  g_assert_true (kiste_box_store_find_by_name (fixture->store, "c") == c);
  names = dup_names (model);
  g_assert_cmpstr (names, ==, "a c d");
  g_clear_pointer (&names, g_free);

  /* neighbours removed together are one change */
  merge (fixture, "d");
  assert_changes (fixture->changes, 0, 2, 0, -1);

  /* removals far apart, reported from the end */
  merge (fixture, "d e f g h");
  assert_changes (fixture->changes, 1, 0, 4, -1);
  merge (fixture, "e g");
  assert_changes (fixture->changes, 4, 1, 0, 2, 1, 0, 0, 1, 0, -1);
  names = dup_names (model);
  g_assert_cmpstr (names, ==, "e g");
  g_clear_pointer (&names, g_free);

  /* duplicate ids: the first wins */
  merge (fixture, "e g g");
  assert_changes (fixture->changes, -1);

  merge (fixture, "");
  assert_changes (fixture->changes, 0, 2, 0, -1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_null (g_list_model_get_item (model, 0));
  g_assert_true (g_list_model_get_item_type (model) == KISTE_TYPE_BOX);
}

/* Reloading through the runner */

static void
test_store_new_runs_nothing (Fixture       *fixture,
                             gconstpointer  data)
{
  g_assert_cmpuint (n_spawned (fixture), ==, 0);
  g_assert_cmpuint (_kiste_box_store_get_spawn_count (fixture->store), ==, 0);
  g_assert_false (kiste_box_store_get_loaded (fixture->store));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 0);
  g_assert_true (kiste_box_store_get_runner (fixture->store) == KISTE_RUNNER (fixture->runner));
}

static void
test_store_reload (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const ps_argv[] = { "podman", "ps", "-a", "--no-trunc", "--format", "json", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) store_notified = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (fixture->store, "notify::loaded", G_CALLBACK (count_notify), store_notified);

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);

  g_assert_true (kiste_box_store_get_loaded (fixture->store));
  g_assert_cmpuint (store_notified->len, ==, 1);
  g_assert_null (kiste_box_store_get_error (fixture->store));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 5);
  assert_changes (fixture->changes, 0, 0, 5, -1);

  /* exactly one process, exactly this argv */
  g_assert_cmpuint (n_spawned (fixture), ==, 1);
  g_assert_true (fake_last_is (fixture, "ps", ps_argv));
  g_assert_cmpuint (_kiste_box_store_get_refresh_count (fixture->store), ==, 1);
  g_assert_cmpuint (_kiste_box_store_get_spawn_count (fixture->store), ==, 1);

  g_assert_nonnull (kiste_box_store_find_by_name (fixture->store, "fixture-b"));
  g_assert_nonnull (kiste_box_store_find_by_id (fixture->store, ID_C));
  g_assert_null (kiste_box_store_find_by_name (fixture->store, "fixture-toolbox"));
  g_assert_null (kiste_box_store_find_by_name (fixture->store, "fixture-plain"));

  /* the same output again: one more process, nothing changed */
  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_spawned (fixture), ==, 2);
  assert_changes (fixture->changes, -1);
  g_assert_cmpuint (store_notified->len, ==, 1);
}

static void
test_store_reload_docker (Fixture       *fixture,
                          gconstpointer  data)
{
  const char * const ps_argv[] = { "docker", "ps", "-a", "--no-trunc", "--format", "{{json .}}", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *names = NULL;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_true (fake_last_is (fixture, "ps", ps_argv));

  names = dup_names (G_LIST_MODEL (fixture->store));
  g_assert_cmpstr (names, ==, "apx-pico dbx-debian legacy");
}

static void
test_store_reload_shared (Fixture       *fixture,
                          gconstpointer  data)
{
  Waiter first = { NULL }, second = { NULL }, third = { NULL };
  g_autoptr(GError) error = NULL;

  fake_set_sleep (fixture, "ps", "0.2");

  kiste_box_store_reload_async (fixture->store, NULL, store_done_cb, &first);
  g_assert_true (kiste_box_store_get_refreshing (fixture->store));
  /* these two started during the first: they share the next refresh */
  kiste_box_store_reload_async (fixture->store, NULL, store_done_cb, &second);
  kiste_box_store_reload_async (fixture->store, NULL, store_done_cb, &third);
  g_assert_cmpuint (n_spawned (fixture), ==, 1);

  run_until (waiter_done, &first);
  g_assert_null (second.result);
  run_until (waiter_done, &second);
  run_until (waiter_done, &third);

  g_assert_true (kiste_box_store_reload_finish (fixture->store, first.result, &error));
  g_assert_true (kiste_box_store_reload_finish (fixture->store, second.result, &error));
  g_assert_true (kiste_box_store_reload_finish (fixture->store, third.result, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);

  g_object_unref (first.result);
  g_object_unref (second.result);
  g_object_unref (third.result);
}

/* n copies of the boxes in the podman 5 fixture, named bench-0001…,
 * leaving out the one named skip */
static char *
write_many_boxes (const char *dir,
                  guint       n,
                  const char *skip)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonArray) out = json_array_new ();
  g_autoptr(JsonNode) out_node = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = read_fixture ("ps-podman5.json");
  g_autofree char *path = g_build_filename (dir, skip ? "ps-skip.json" : "ps-many.json", NULL);
  g_autofree char *json = NULL;
  JsonArray *templates;

  root = json_from_string (text, &error);
  g_assert_no_error (error);
  templates = json_node_get_array (root);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *template = json_array_get_object_element (templates, i % 3);
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), template);
      g_autofree char *copy_text = json_to_string (node, FALSE);
      g_autoptr(JsonNode) copy_node = json_from_string (copy_text, NULL);
      JsonObject *copy = json_node_get_object (copy_node);
      g_autofree char *name = g_strdup_printf ("bench-%04u", i + 1);
      g_autofree char *id = g_compute_checksum_for_string (G_CHECKSUM_SHA256, name, -1);
      JsonArray *names;

      if (g_strcmp0 (name, skip) == 0)
        continue;

      names = json_array_new ();
      json_array_add_string_element (names, name);
      json_object_set_array_member (copy, "Names", names);
      json_object_set_string_member (copy, "Id", id);
      json_array_add_object_element (out, json_object_ref (copy));
    }

  out_node = json_node_init_array (json_node_alloc (), out);
  json = json_to_string (out_node, TRUE);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static void
test_store_reload_large (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-store-XXXXXX", NULL);
  g_autofree char *many = write_many_boxes (dir, 300, NULL);
  g_autofree char *fewer = write_many_boxes (dir, 300, "bench-0150");
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBox) first = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) parsed = NULL;
  KisteBox *last;
  gsize size = 0;

  /* big enough to be parsed in a worker thread */
  g_assert_true (g_file_get_contents (many, &contents, &size, NULL));
  g_assert_cmpuint (size, >, 128 * 1024);

  g_assert_true (_kiste_box_store_parse (fixture->store, contents, &parsed, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (parsed->len, ==, 300);
  for (guint i = 0; i < parsed->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("bench-%04u", i + 1);

      g_assert_cmpstr (kiste_box_get_name (g_ptr_array_index (parsed, i)), ==, name);
    }

  fake_set (fixture, "ps", "store-cat", many);
  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 300);
  assert_changes (fixture->changes, 0, 0, 300, -1);
  first = g_list_model_get_item (G_LIST_MODEL (fixture->store), 0);
  g_assert_cmpstr (kiste_box_get_name (first), ==, "bench-0001");
  last = kiste_box_store_find_by_name (fixture->store, "bench-0300");
  g_assert_true (kiste_box_has_custom_home (kiste_box_store_find_by_name (fixture->store, "bench-0002")));

  fake_set (fixture, "ps", "store-cat", fewer);
  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  assert_changes (fixture->changes, 149, 1, 0, -1);
  g_assert_true (item_is (G_LIST_MODEL (fixture->store), 0, first));
  g_assert_true (item_is (G_LIST_MODEL (fixture->store), 298, last));
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);

  g_unlink (many);
  g_unlink (fewer);
  g_rmdir (dir);
}

/* A refresh parses only what changed since the last one: unchanged boxes
 * keep their objects untouched, a changed one is updated, even when the
 * same text comes back after a change. */
static void
test_store_reload_unchanged (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-store-XXXXXX", NULL);
  g_autofree char *stopped = g_build_filename (dir, "ps-stopped.json", NULL);
  g_autofree char *original = NULL;
  g_autofree char *original_path = fixture_path ("ps-podman5.json");
  g_autoptr(GString) changed = NULL;
  g_autoptr(GPtrArray) notified_a = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notified_b = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  KisteBox *a;
  KisteBox *b;

  g_assert_true (g_file_get_contents (original_path, &original, NULL, NULL));
  changed = g_string_new (original);
  g_assert_cmpuint (g_string_replace (changed, "\"State\": \"running\"", "\"State\": \"exited\"", 1), ==, 1);
  g_assert_true (g_file_set_contents (stopped, changed->str, -1, NULL));

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_array_set_size (fixture->changes, 0);
  a = kiste_box_store_find_by_name (fixture->store, "fixture-a");
  b = kiste_box_store_find_by_name (fixture->store, "fixture-b");
  g_assert_cmpint (kiste_box_get_state (a), ==, KISTE_BOX_STATE_RUNNING);
  g_signal_connect (a, "notify", G_CALLBACK (count_notify), notified_a);
  g_signal_connect (b, "notify", G_CALLBACK (count_notify), notified_b);

  for (guint round = 0; round < 2; round++)
    {
      fake_set (fixture, "ps", "store-cat", stopped);
      g_assert_true (reload (fixture->store, &error));
      g_assert_no_error (error);
      g_assert_cmpint (kiste_box_get_state (a), ==, KISTE_BOX_STATE_STOPPED);
      g_assert_true (kiste_box_store_find_by_name (fixture->store, "fixture-a") == a);

      /* the same text again: nothing to notify */
      g_ptr_array_set_size (notified_a, 0);
      g_assert_true (reload (fixture->store, &error));
      g_assert_cmpuint (notified_a->len, ==, 0);

      fake_set (fixture, "ps", "store-cat", "ps-podman5.json");
      g_assert_true (reload (fixture->store, &error));
      g_assert_no_error (error);
      g_assert_cmpint (kiste_box_get_state (a), ==, KISTE_BOX_STATE_RUNNING);
    }

  g_assert_cmpuint (notified_b->len, ==, 0);
  assert_changes (fixture->changes, -1);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 7);

  g_unlink (stopped);
  g_rmdir (dir);
}

/* Faults */

static void
assert_fault_keeps_list (Fixture    *fixture,
                         const char *script,
                         int         code,
                         const char *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) store_notified = g_ptr_array_new_with_free_func (g_free);
  const GError *store_error;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_array_set_size (fixture->changes, 0);

  g_signal_connect (fixture->store, "notify::error", G_CALLBACK (count_notify), store_notified);

  fake_set (fixture, "ps", script, NULL);
  g_assert_false (reload (fixture->store, &error));
  g_assert_error (error, KISTE_ERROR, code);
  if (message_part != NULL)
    g_assert_nonnull (strstr (error->message, message_part));

  /* the last list stays, the error is exposed */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 5);
  assert_changes (fixture->changes, -1);
  g_assert_true (kiste_box_store_get_loaded (fixture->store));
  store_error = kiste_box_store_get_error (fixture->store);
  g_assert_nonnull (store_error);
  g_assert_error ((GError *) store_error, KISTE_ERROR, code);
  g_assert_cmpuint (store_notified->len, ==, 1);

  /* a good refresh clears it */
  g_clear_error (&error);
  fake_set (fixture, "ps", "store-cat", "ps-podman5.json");
  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_null (kiste_box_store_get_error (fixture->store));
  g_assert_cmpuint (store_notified->len, ==, 2);
}

static void
test_store_fault_exit125 (Fixture       *fixture,
                          gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-exit125", KISTE_ERROR_COMMAND_FAILED, "database is locked");
}

static void
test_store_fault_exit126 (Fixture       *fixture,
                          gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-exit126", KISTE_ERROR_COMMAND_FAILED, "permission denied");
}

static void
test_store_fault_truncated (Fixture       *fixture,
                            gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-truncated", KISTE_ERROR_BAD_OUTPUT, NULL);
}

/* 10 MB of noise: refused as such, nothing of it kept */
static void
test_store_fault_flood (Fixture       *fixture,
                        gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-flood", KISTE_ERROR_BAD_OUTPUT, NULL);
}

static void
test_store_fault_exit127 (Fixture       *fixture,
                          gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-exit127", KISTE_ERROR_TOOL_MISSING, NULL);
}

static void
test_store_fault_missing_program (Fixture       *fixture,
                                  gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-no-such-program", KISTE_ERROR_TOOL_MISSING, NULL);
}

static void
test_store_fault_garbage (Fixture       *fixture,
                          gconstpointer  data)
{
  assert_fault_keeps_list (fixture, "store-garbage", KISTE_ERROR_BAD_OUTPUT, NULL);
}

static void
test_store_fault_timeout (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 start;

  _kiste_box_store_set_timings (fixture->store, 0, 0, 0, 300);
  fake_set (fixture, "ps", "store-hang", NULL);

  start = g_get_monotonic_time ();
  g_assert_false (reload (fixture->store, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  g_assert_false (kiste_box_store_get_refreshing (fixture->store));
  g_assert_false (kiste_box_store_get_loaded (fixture->store));
  g_assert_error ((GError *) kiste_box_store_get_error (fixture->store), KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
}

static gboolean
cancel_cb (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static gboolean
subprocess_gone (gpointer data)
{
  /* the identifier goes once the process has been reaped */
  return g_subprocess_get_identifier (data) == NULL;
}

static void
test_store_fault_cancel (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Waiter waiter = { NULL };
  gint64 start;

  fake_set (fixture, "ps", "store-hang", NULL);

  start = g_get_monotonic_time ();
  kiste_box_store_reload_async (fixture->store, cancellable, store_done_cb, &waiter);
  g_timeout_add (100, cancel_cb, cancellable);
  run_until (waiter_done, &waiter);

  g_assert_false (kiste_box_store_reload_finish (fixture->store, waiter.result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
  g_clear_object (&waiter.result);

  /* nobody else waited: the hanging process is stopped, no error shown */
  run_until (store_idle, fixture->store);
  run_until (subprocess_gone, kiste_fake_runner_get_subprocess (fixture->runner, 0));
  g_assert_null (kiste_box_store_get_error (fixture->store));
}

/* Events */

static void
test_store_event_filter (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-podman5.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);
  g_autoptr(GError) error = NULL;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);

  /* stop, died, cleanup, init, start of a box; create and remove of a
   * container without labels; exec and exec_died of a box */
  g_assert_cmpuint (g_strv_length (lines), ==, 10);
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[4]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[5]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[6]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[7]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[8]));

  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, "Error: something"));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, "{\"Type\": \"image\", \"Status\": \"pull\"}"));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, "[1, 2]"));

  /* no labels but a box we know (distrobox < 1.4) */
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store,
                                                     "{\"ID\": \"" ID_B "\", \"Status\": \"start\","
                                                     " \"Type\": \"container\", \"Attributes\": {}}"));
  /* no attributes at all: cannot tell, so refresh */
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store,
                                                     "{\"ID\": \"0123\", \"Status\": \"remove\","
                                                     " \"Type\": \"container\"}"));
}

static gboolean
box_running (gpointer data)
{
  return kiste_box_get_state (data) == KISTE_BOX_STATE_RUNNING;
}

/* A box's row follows a stop at once; a listing that ran before the
 * event does not take it back, the one after it has the last word */
/* Lists the fixture's boxes; fixture-a, which runs */
static KisteBox *
reload_running_box (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  box = kiste_box_store_find_by_id (fixture->store, ID_A);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);
  return box;
}

static void
test_store_event_state (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-podman5.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);
  g_autoptr(GError) error = NULL;
  Waiter waiter = { NULL };
  KisteBox *box = reload_running_box (fixture);

  /* stop: no listing needed to show it; the listing it asks for (the
   * fixture says running) follows */
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);
  run_until (box_running, box);

  /* the fixture's ps still says running: a listing started before the
   * start event, finishing after it, keeps the event's word */
  fake_set_sleep (fixture, "ps", "0.3");
  kiste_box_store_reload_async (fixture->store, NULL, store_done_cb, &waiter);
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[1]));
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);
  run_until (waiter_done, &waiter);
  g_assert_true (kiste_box_store_reload_finish (fixture->store, waiter.result, NULL));
  g_clear_object (&waiter.result);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);

  /* the listing the event asked for says running, and is believed */
  run_until (box_running, box);
  run_until (store_idle, fixture->store);
  g_assert_cmpuint (fake_count (fixture, "ps"), >=, 3);

  /* start and pause move it too */
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[4]));
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store,
                                                     "{\"ID\": \"" ID_A "\", \"Status\": \"pause\","
                                                     " \"Type\": \"container\", \"Attributes\": {}}"));
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_PAUSED);
  run_until (store_idle, fixture->store);
}

static void
test_store_event_filter_docker (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-docker.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);

  /* create of a box, exec_start, start of someone's nginx, die of a box */
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[1]));
  g_assert_false (_kiste_box_store_handle_event_line (fixture->store, lines[2]));
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[3]));
}

static void
test_store_coalesce (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-podman5.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);
  g_autoptr(GError) error = NULL;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 1);

  /* ten events in a burst: exactly one more refresh */
  for (guint i = 0; i < 10; i++)
    g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[i % 5]));

  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 1);
  run_for (400);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);
  g_assert_false (kiste_box_store_get_refreshing (fixture->store));

  /* nothing more happens while idle: no polling */
  run_for (300);
  g_assert_cmpuint (n_spawned (fixture), ==, 2);
}

static gboolean
store_refreshing (gpointer data)
{
  return kiste_box_store_get_refreshing (data);
}

static void
test_store_coalesce_during_refresh (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-podman5.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);
  g_autoptr(GError) error = NULL;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);

  fake_set_sleep (fixture, "ps", "0.3");

  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  run_until (store_refreshing, fixture->store);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);

  /* events during the refresh queue exactly one more */
  for (guint i = 0; i < 10; i++)
    g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[i % 5]));

  run_until (store_idle, fixture->store);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);
  run_until (store_refreshing, fixture->store);
  run_until (store_idle, fixture->store);
  run_for (300);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 3);
}

static void
test_store_watch (Fixture       *fixture,
                  gconstpointer  data)
{
  const char * const events_argv[] = {
    "podman", "events", "--format", "json", "--filter", "type=container", NULL
  };
  g_autoptr(GPtrArray) store_notified = g_ptr_array_new_with_free_func (g_free);
  GSubprocess *stream;

  g_signal_connect (fixture->store, "notify::watching", G_CALLBACK (count_notify), store_notified);

  kiste_box_store_start_watching (fixture->store);
  g_assert_true (kiste_box_store_get_watching (fixture->store));
  g_assert_cmpuint (store_notified->len, ==, 1);

  /* the stream and a refresh to catch up, without a separate reload */
  g_assert_cmpuint (fake_count (fixture, "events"), ==, 1);
  g_assert_true (fake_last_is (fixture, "events", events_argv));
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 1);
  stream = kiste_fake_runner_get_subprocess (fixture->runner, 0);

  /* the fixture's events (all at once) cost exactly one more refresh */
  run_for (600);
  g_assert_true (kiste_box_store_get_loaded (fixture->store));
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);
  g_assert_cmpuint (fake_count (fixture, "events"), ==, 1);
  g_assert_cmpuint (_kiste_box_store_get_spawn_count (fixture->store), ==, 3);

  /* starting twice does nothing */
  kiste_box_store_start_watching (fixture->store);
  g_assert_cmpuint (n_spawned (fixture), ==, 3);

  kiste_box_store_stop_watching (fixture->store);
  g_assert_false (kiste_box_store_get_watching (fixture->store));
  g_assert_cmpuint (store_notified->len, ==, 2);
  run_until (subprocess_gone, stream);

  run_for (300);
  g_assert_cmpuint (n_spawned (fixture), ==, 3);
}

static void
test_store_watch_docker (Fixture       *fixture,
                         gconstpointer  data)
{
  const char * const events_argv[] = {
    "docker", "events", "--format", "{{json .}}", "--filter", "type=container", NULL
  };

  fake_set (fixture, "events", "store-events", "events-docker.txt");
  kiste_box_store_start_watching (fixture->store);
  g_assert_true (fake_last_is (fixture, "events", events_argv));

  /* the create and the die of boxes: one refresh after the first */
  run_for (500);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->store)), ==, 3);

  kiste_box_store_stop_watching (fixture->store);
  run_until (subprocess_gone, kiste_fake_runner_get_subprocess (fixture->runner, 0));
}

static void
test_store_watch_restart (Fixture       *fixture,
                          gconstpointer  data)
{
  gint64 started[4] = { 0, };
  guint n = 0;

  /* a stream that dies after its events, every time: restarted with a
   * growing delay (50, 100, 200 ms) and given up after three restarts */
  fake_set (fixture, "events", "store-events-die", "events-podman5.txt");
  _kiste_box_store_set_timings (fixture->store, 0, 50, 3, 0);

  kiste_box_store_start_watching (fixture->store);
  run_for (1500);

  g_assert_cmpuint (fake_count (fixture, "events"), ==, 4);
  g_assert_false (kiste_box_store_get_watching (fixture->store));

  for (guint i = 0; i < n_spawned (fixture); i++)
    if (g_str_has_prefix (g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), i),
                          "podman events "))
      started[n++] = kiste_fake_runner_get_started (fixture->runner, i);

  g_assert_cmpint (started[1] - started[0], >=, 50 * 1000);
  g_assert_cmpint (started[2] - started[1], >=, 100 * 1000);
  g_assert_cmpint (started[3] - started[2], >=, 200 * 1000);

  /* restarts catch up with a refresh, shared with the events' own */
  g_assert_cmpuint (fake_count (fixture, "ps"), >=, 2);
  g_assert_cmpuint (fake_count (fixture, "ps"), <=, 2 * 4 + 1);

  /* nothing more after giving up */
  n = n_spawned (fixture);
  run_for (400);
  g_assert_cmpuint (n_spawned (fixture), ==, n);
}

static void
test_store_watch_dispose (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(KisteBoxStore) store = kiste_box_store_new (KISTE_RUNNER (fixture->runner));
  GSubprocess *stream;

  kiste_box_store_start_watching (store);
  stream = kiste_fake_runner_get_subprocess (fixture->runner, 0);
  g_assert_cmpstr (g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), 0), ==,
                   "podman events --format json --filter type=container");

  /* dropping the store ends the stream: callbacks hold it weakly */
  g_assert_finalize_object (g_steal_pointer (&store));
  run_until (subprocess_gone, stream);
}

/* Details */

static void
test_store_details (Fixture       *fixture,
                    gconstpointer  data)
{
  const char * const inspect_argv[] = {
    "podman", "container", "inspect", "--format", "json", ID_A, ID_B, ID_C, NULL
  };
  g_autoptr(GError) error = NULL;
  KisteBox *boxes[3];
  Waiter waiter = { NULL };

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_array_set_size (fixture->changes, 0);

  boxes[0] = kiste_box_store_find_by_name (fixture->store, "fixture-a");
  boxes[1] = kiste_box_store_find_by_name (fixture->store, "fixture-b");
  boxes[2] = kiste_box_store_find_by_name (fixture->store, "fixture-c");
  g_assert_cmpint (kiste_box_get_unshare (boxes[1], KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNKNOWN);

  kiste_box_store_load_details_async (fixture->store, boxes, 3, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_true (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_no_error (error);
  g_clear_object (&waiter.result);

  /* one process for all three */
  g_assert_cmpuint (fake_count (fixture, "container"), ==, 1);
  g_assert_true (fake_last_is (fixture, "container", inspect_argv));

  for (guint i = 0; i < 3; i++)
    g_assert_true (kiste_box_get_has_details (boxes[i]));
  g_assert_cmpint (kiste_box_get_unshare (boxes[1], KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (boxes[2], KISTE_UNSHARE_IPC), ==, KISTE_SHARING_UNSHARED);
  assert_changes (fixture->changes, -1);

  /* a refresh keeps them */
  g_assert_true (reload (fixture->store, &error));
  g_assert_true (kiste_box_get_has_details (boxes[1]));
  g_assert_cmpint (kiste_box_get_unshare (boxes[1], KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNSHARED);
}

static void
test_store_details_stale_state (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *events = read_fixture ("events-podman5.txt");
  g_auto(GStrv) lines = g_strsplit (events, "\n", -1);
  g_autoptr(GError) error = NULL;
  Waiter waiter = { NULL };
  KisteBox *box = reload_running_box (fixture);

  /* inspect (which says running) starts, then the box stops; the listing
   * that stop asks for is slower than inspect */
  fake_set_sleep (fixture, "container", "0.3");
  fake_set_sleep (fixture, "ps", "2");
  kiste_box_store_load_details_async (fixture->store, &box, 1, NULL, store_done_cb, &waiter);
  g_assert_true (_kiste_box_store_handle_event_line (fixture->store, lines[0]));
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);

  run_until (waiter_done, &waiter);
  g_assert_true (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_no_error (error);
  g_clear_object (&waiter.result);

  /* the details arrive, the older state does not */
  g_assert_true (kiste_box_get_has_details (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), !=, KISTE_SHARING_UNKNOWN);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);
  g_assert_cmpuint (fake_count (fixture, "ps"), ==, 2);

  /* details read after it say running, and are believed */
  fake_set_sleep (fixture, "container", NULL);
  kiste_box_store_load_details_async (fixture->store, &box, 1, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_true (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_clear_object (&waiter.result);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);
  run_until (store_idle, fixture->store);
}

static void
test_store_details_missing (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  KisteBox *boxes[2];
  Waiter waiter = { NULL };

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);

  /* the inspect fixture has no fixture-apx */
  boxes[0] = kiste_box_store_find_by_name (fixture->store, "fixture-a");
  boxes[1] = kiste_box_store_find_by_name (fixture->store, "fixture-apx");
  kiste_box_store_load_details_async (fixture->store, boxes, 2, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_false (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_object (&waiter.result);
  g_clear_error (&error);

  /* what was there was still applied */
  g_assert_true (kiste_box_get_has_details (boxes[0]));
  g_assert_false (kiste_box_get_has_details (boxes[1]));

  /* a failing inspect */
  fake_set (fixture, "container", "store-exit125", NULL);
  kiste_box_store_load_details_async (fixture->store, boxes, 2, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_false (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_object (&waiter.result);
  g_clear_error (&error);

  fake_set (fixture, "container", "store-garbage", NULL);
  kiste_box_store_load_details_async (fixture->store, boxes, 2, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_false (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_object (&waiter.result);
}

static void
test_store_details_docker (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  KisteBox *box;
  Waiter waiter = { NULL };
  g_autofree char *inspect = NULL;

  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);

  box = kiste_box_store_find_by_name (fixture->store, "dbx-debian");
  g_assert_null (kiste_box_get_mounts (box));

  kiste_box_store_load_details_async (fixture->store, &box, 1, NULL, store_done_cb, &waiter);
  run_until (waiter_done, &waiter);
  g_assert_true (kiste_box_store_load_details_finish (fixture->store, waiter.result, &error));
  g_assert_no_error (error);
  g_clear_object (&waiter.result);

  /* docker prints an array without --format */
  inspect = g_strdup_printf ("docker container inspect %s", kiste_box_get_id (box));
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "docker container "), ==, inspect);

  g_assert_nonnull (kiste_box_get_mounts (box));
  g_assert_true (kiste_box_get_rootless (box));

  /* docker's ps knows no destinations: a refresh must not forget them */
  g_assert_true (reload (fixture->store, &error));
  g_assert_no_error (error);
  g_assert_true (kiste_box_store_find_by_name (fixture->store, "dbx-debian") == box);
  g_assert_nonnull (kiste_box_get_mounts (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_SHARED);
  g_assert_true (kiste_box_get_rootless (box));
}

#define store_test(path, manager, func) \
  g_test_add ((path), Fixture, (manager), fixture_setup, (func), fixture_teardown)

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  store_test ("/kiste/box-store/parse/podman5", "podman", test_store_parse_podman5);
  store_test ("/kiste/box-store/parse/edge", "podman", test_store_parse_edge);
  store_test ("/kiste/box-store/parse/spacing", "podman", test_store_parse_spacing);
  store_test ("/kiste/box-store/parse/docker", "docker", test_store_parse_docker);
  store_test ("/kiste/box-store/parse/bad", "podman", test_store_parse_bad);
  store_test ("/kiste/box-store/parse/docker-bad-line", "docker", test_store_parse_docker_bad_line);
  store_test ("/kiste/box-store/merge", "podman", test_store_merge);
  store_test ("/kiste/box-store/clone-distro", "podman", test_store_clone_distro);
  store_test ("/kiste/box-store/new-runs-nothing", "podman", test_store_new_runs_nothing);
  store_test ("/kiste/box-store/reload", "podman", test_store_reload);
  store_test ("/kiste/box-store/reload-default-manager", NULL, test_store_reload);
  store_test ("/kiste/box-store/reload-docker", "docker", test_store_reload_docker);
  store_test ("/kiste/box-store/reload-shared", "podman", test_store_reload_shared);
  store_test ("/kiste/box-store/reload-large", "podman", test_store_reload_large);
  store_test ("/kiste/box-store/reload-unchanged", "podman", test_store_reload_unchanged);
  store_test ("/kiste/box-store/fault/exit125", "podman", test_store_fault_exit125);
  store_test ("/kiste/box-store/fault/exit126", "podman", test_store_fault_exit126);
  store_test ("/kiste/box-store/fault/exit127", "podman", test_store_fault_exit127);
  store_test ("/kiste/box-store/fault/truncated", "podman", test_store_fault_truncated);
  store_test ("/kiste/box-store/fault/flood", "podman", test_store_fault_flood);
  store_test ("/kiste/box-store/fault/missing-program", "podman", test_store_fault_missing_program);
  store_test ("/kiste/box-store/fault/garbage", "podman", test_store_fault_garbage);
  store_test ("/kiste/box-store/fault/timeout", "podman", test_store_fault_timeout);
  store_test ("/kiste/box-store/fault/cancel", "podman", test_store_fault_cancel);
  store_test ("/kiste/box-store/events/filter", "podman", test_store_event_filter);
  store_test ("/kiste/box-store/events/filter-docker", "docker", test_store_event_filter_docker);
  store_test ("/kiste/box-store/events/state", "podman", test_store_event_state);
  store_test ("/kiste/box-store/events/coalesce", "podman", test_store_coalesce);
  store_test ("/kiste/box-store/events/coalesce-during-refresh", "podman", test_store_coalesce_during_refresh);
  store_test ("/kiste/box-store/watch/stream", "podman", test_store_watch);
  store_test ("/kiste/box-store/watch/docker", "docker", test_store_watch_docker);
  store_test ("/kiste/box-store/watch/restart", "podman", test_store_watch_restart);
  store_test ("/kiste/box-store/watch/dispose", "podman", test_store_watch_dispose);
  store_test ("/kiste/box-store/details/podman", "podman", test_store_details);
  store_test ("/kiste/box-store/details/stale-state", "podman", test_store_details_stale_state);
  store_test ("/kiste/box-store/details/missing", "podman", test_store_details_missing);
  store_test ("/kiste/box-store/details/docker", "docker", test_store_details_docker);

  return g_test_run ();
}
