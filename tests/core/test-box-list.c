/* test-box-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-box-list.h"
#include "kiste-fake-runner.h"
#include "kiste-test-util.h"

/* Podman boxes and docker boxes through one fake runner whose engine is
 * podman: `podman ps` answers the podman 5 capture, `docker ps` docker's */
typedef struct
{
  KisteFakeRunner *runner;
  KisteBoxSource  *podman;
  KisteBoxSource  *docker;
  KisteBoxList    *list;
  GArray          *changes;
} Fixture;

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Fixture    *fixture)
{
  Change change = { position, removed, added };

  g_assert_cmpuint (g_list_model_get_n_items (model), ==,
                    g_list_model_get_n_items (G_LIST_MODEL (kiste_box_source_get_store (fixture->podman))) +
                    (kiste_box_list_find_source (fixture->list, "docker")
                     ? g_list_model_get_n_items (G_LIST_MODEL (kiste_box_source_get_store (fixture->docker)))
                     : 0));
  g_array_append_val (fixture->changes, change);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->runner = kiste_fake_runner_new ();
  kiste_runner_set_manager (KISTE_RUNNER (fixture->runner), "podman");
  kiste_fake_runner_add (fixture->runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "docker ps", "cat \"$KISTE_TEST_FIXTURES/docker-ps.txt\"");
  fixture->podman = kiste_box_source_new (KISTE_RUNNER (fixture->runner), NULL);
  fixture->docker = kiste_box_source_new (KISTE_RUNNER (fixture->runner), "docker");
  fixture->list = kiste_box_list_new (fixture->podman);
  fixture->changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_signal_connect (fixture->list, "items-changed", G_CALLBACK (items_changed_cb), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_assert_finalize_object (fixture->list);
  g_assert_finalize_object (fixture->docker);
  g_assert_finalize_object (fixture->podman);
  g_assert_finalize_object (fixture->runner);
  g_array_unref (fixture->changes);
}

static void
reloaded_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GError **error = user_data;

  if (!kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, error) && *error == NULL)
    g_assert_not_reached ();
  /* marks completion for the wait below */
  if (*error == NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "done");
}

static gboolean
is_set (gpointer data)
{
  return *(GError **) data != NULL;
}

static void
reload (Fixture *fixture)
{
  GError *error = NULL;

  kiste_box_list_reload_async (fixture->list, NULL, reloaded_cb, &error);
  g_assert_true (kiste_test_wait_for (is_set, &error, 10000));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);
}

/* The list holds every source's boxes, the first source's first, each
 * box knows its engine, and only the other engines' boxes carry it in
 * their ref */
static void
test_merge (Fixture       *fixture,
            gconstpointer  data)
{
  GListModel *model = G_LIST_MODEL (fixture->list);
  guint n_podman;
  guint n_docker;
  KisteBox *box;

  reload (fixture);
  n_podman = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_podman, >, 0);
  g_assert_false (kiste_box_list_get_several_engines (fixture->list));
  g_assert_true (kiste_box_list_get_loaded (fixture->list));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 0);

  kiste_box_list_add_source (fixture->list, fixture->docker);
  /* one of an engine that is there already is left out */
  kiste_box_list_add_source (fixture->list, fixture->podman);
  g_assert_cmpuint (kiste_box_list_get_sources (fixture->list)->len, ==, 2);
  reload (fixture);
  /* one ps per source */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman ps"), ==, 2);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker ps"), ==, 1);
  n_docker = g_list_model_get_n_items (model) - n_podman;
  g_assert_cmpuint (n_docker, >, 0);
  g_assert_true (kiste_box_list_get_several_engines (fixture->list));

  /* the docker boxes came after the podman ones, in one change */
  g_assert_cmpuint (fixture->changes->len, >=, 2);
  {
    Change last = g_array_index (fixture->changes, Change, fixture->changes->len - 1);

    g_assert_cmpuint (last.position, ==, n_podman);
    g_assert_cmpuint (last.removed, ==, 0);
    g_assert_cmpuint (last.added, ==, n_docker);
  }

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KisteBox) item = g_list_model_get_item (model, i);
      const char *engine = i < n_podman ? "podman" : "docker";

      g_assert_cmpstr (kiste_box_get_engine (item), ==, engine);
      if (i < n_podman)
        g_assert_cmpstr (kiste_box_get_ref (item), ==, kiste_box_get_name (item));
      else
        {
          g_autofree char *ref = g_strconcat ("docker/", kiste_box_get_name (item), NULL);

          g_assert_cmpstr (kiste_box_get_ref (item), ==, ref);
          g_assert_true (kiste_box_list_find (fixture->list, ref) == item);
          g_assert_true (kiste_box_list_get_source_for_box (fixture->list, item) == fixture->docker);
        }
    }

  /* a plain name finds the first source's box, else another's */
  box = kiste_box_list_find (fixture->list, "fixture-a");
  g_assert_nonnull (box);
  g_assert_cmpstr (kiste_box_get_engine (box), ==, "podman");
  box = kiste_box_list_find (fixture->list, "dbx-debian");
  g_assert_nonnull (box);
  g_assert_cmpstr (kiste_box_get_ref (box), ==, "docker/dbx-debian");
  g_assert_null (kiste_box_list_find (fixture->list, "docker/fixture-a"));
  g_assert_null (kiste_box_list_find (fixture->list, "lxc/dbx-debian"));
  g_assert_null (kiste_box_list_find (fixture->list, "nothing"));

  /* an engine that goes leaves with its boxes */
  kiste_box_list_remove_source (fixture->list, fixture->docker);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_podman);
  g_assert_false (kiste_box_list_get_several_engines (fixture->list));
  g_assert_null (kiste_box_list_find (fixture->list, "docker/dbx-debian"));
  /* never the first one */
  kiste_box_list_remove_source (fixture->list, fixture->podman);
  g_assert_cmpuint (kiste_box_list_get_sources (fixture->list)->len, ==, 1);
}

static void
test_parse_ref (Fixture       *fixture,
                gconstpointer  data)
{
  const char *name = NULL;

  kiste_box_list_add_source (fixture->list, fixture->docker);
  g_assert_true (kiste_box_list_parse_ref (fixture->list, "box", &name) == fixture->podman);
  g_assert_cmpstr (name, ==, "box");
  g_assert_true (kiste_box_list_parse_ref (fixture->list, "docker/box", &name) == fixture->docker);
  g_assert_cmpstr (name, ==, "box");
  g_assert_true (kiste_box_list_parse_ref (fixture->list, "podman/box", &name) == fixture->podman);
  g_assert_null (kiste_box_list_parse_ref (fixture->list, "lxc/box", &name));
}

/* distrobox is told the engine of a box of another engine than the
 * runner's; the engine's own commands need not */
static void
test_dup_argv (Fixture       *fixture,
               gconstpointer  data)
{
  const char *stop[] = { "distrobox", "stop", "--yes", "web", NULL };
  const char *engine_stop[] = { "docker", "stop", "web", NULL };
  const char *export[] = { "/usr/bin/distrobox-export", "--app", "x", NULL };
  g_auto(GStrv) docker_stop = kiste_box_source_dup_argv (fixture->docker, stop);
  g_auto(GStrv) podman_stop = kiste_box_source_dup_argv (fixture->podman, stop);
  g_auto(GStrv) docker_engine_stop = kiste_box_source_dup_argv (fixture->docker, engine_stop);
  g_auto(GStrv) docker_export = kiste_box_source_dup_argv (fixture->docker, export);
  g_autofree char *docker_stop_text = kiste_argv_to_display_string ((const char * const *) docker_stop);
  g_autofree char *podman_stop_text = kiste_argv_to_display_string ((const char * const *) podman_stop);
  g_autofree char *engine_text = kiste_argv_to_display_string ((const char * const *) docker_engine_stop);
  g_autofree char *export_text = kiste_argv_to_display_string ((const char * const *) docker_export);

  g_assert_cmpstr (docker_stop_text, ==, "env DBX_CONTAINER_MANAGER=docker distrobox stop --yes web");
  g_assert_cmpstr (podman_stop_text, ==, "distrobox stop --yes web");
  g_assert_cmpstr (engine_text, ==, "docker stop web");
  g_assert_cmpstr (export_text, ==, "env DBX_CONTAINER_MANAGER=docker /usr/bin/distrobox-export --app x");
  g_assert_cmpstr (kiste_box_source_get_title (fixture->docker), ==, "Docker");
  g_assert_cmpstr (kiste_box_source_get_title (fixture->podman), ==, "Podman");

  /* when docker is the runner's engine, podman's boxes are the others */
  kiste_runner_set_manager (KISTE_RUNNER (fixture->runner), "docker");
  {
    g_autoptr(KisteBoxSource) podman = kiste_box_source_new (KISTE_RUNNER (fixture->runner), "podman");
    g_auto(GStrv) argv = kiste_box_source_dup_argv (podman, stop);
    g_auto(GStrv) same = kiste_box_source_dup_argv (fixture->docker, stop);

    g_assert_cmpstr (argv[0], ==, "env");
    g_assert_cmpstr (argv[1], ==, "DBX_CONTAINER_MANAGER=podman");
    g_assert_cmpstr (same[0], ==, "distrobox");
  }
}

static void
details_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;

  kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, error);
  if (*error == NULL)
    *error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_EXISTS, "done");
}

/* One inspect per engine, each for its own boxes */
static void
test_details (Fixture       *fixture,
              gconstpointer  data)
{
  KisteBox *boxes[3];
  GError *error = NULL;
  const char *inspect;

  kiste_box_list_add_source (fixture->list, fixture->docker);
  reload (fixture);
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  boxes[0] = kiste_box_list_find (fixture->list, "fixture-a");
  boxes[1] = kiste_box_list_find (fixture->list, "docker/dbx-debian");
  boxes[2] = kiste_box_list_find (fixture->list, "fixture-b");

  kiste_box_list_load_details_async (fixture->list, boxes, G_N_ELEMENTS (boxes), NULL, details_cb, &error);
  g_assert_true (kiste_test_wait_for (is_set, &error, 10000));
  g_clear_error (&error);

  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container inspect"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker container inspect"), ==, 1);
  inspect = kiste_fake_runner_find (fixture->runner, "docker container inspect");
  g_assert_nonnull (g_strrstr (inspect, kiste_box_get_id (boxes[1])));
  g_assert_null (g_strrstr (inspect, kiste_box_get_id (boxes[0])));
  g_assert_true (kiste_box_get_has_details (boxes[0]));

  /* nothing to ask: done without a process */
  kiste_box_list_load_details_async (fixture->list, boxes, 0, NULL, details_cb, &error);
  g_assert_true (kiste_test_wait_for (is_set, &error, 10000));
  g_clear_error (&error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container inspect"), ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/kiste/box-list/merge", test_merge);
  ADD ("/kiste/box-list/parse-ref", test_parse_ref);
  ADD ("/kiste/box-list/dup-argv", test_dup_argv);
  ADD ("/kiste/box-list/details", test_details);
#undef ADD

  return g_test_run ();
}
