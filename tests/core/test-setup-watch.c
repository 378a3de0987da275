/* test-setup-watch.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "kiste-fake-runner.h"
#include "kiste-setup-watch-private.h"

/* A live list with one running box (fx-first, started elsewhere) and one
 * stopped; the running one's log holds its setup's first lines and then
 * container_setup_done once the test creates the marker file. */
typedef struct
{
  KisteFakeRunner *runner;
  KisteBoxStore   *store;
  KisteSetupWatch *watch;
  char            *dir;
  char            *marker;
  char            *ps_path;
  gboolean         busy;
} Fixture;

static const char ps_json[] =
  "[{\"Id\": \"id-first\", \"Names\": [\"fx-first\"], \"Image\": \"docker.io/library/debian:12\","
  "  \"State\": \"running\", \"Labels\": {\"manager\": \"distrobox\"}, \"Mounts\": [\"/dev\"]},"
  " {\"Id\": \"id-other\", \"Names\": [\"fx-other\"], \"Image\": \"docker.io/library/debian:12\","
  "  \"State\": \"exited\", \"Labels\": {\"manager\": \"distrobox\"}, \"Mounts\": [\"/dev\"]}]";

static gboolean
skip_busy (const char *box_name,
           gpointer    user_data)
{
  Fixture *fixture = user_data;

  return fixture->busy;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *ps = NULL;
  g_autofree char *logs = NULL;

  fixture->dir = g_dir_make_tmp ("kiste-setup-watch-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->marker = g_build_filename (fixture->dir, "done", NULL);
  fixture->ps_path = g_build_filename (fixture->dir, "ps.json", NULL);
  g_assert_true (g_file_set_contents (fixture->ps_path, ps_json, -1, NULL));

  ps = g_strdup_printf ("cat '%s'", fixture->ps_path);
  logs = g_strdup_printf ("printf 'distrobox: Installing basic packages...\\nGet:1 http://deb.debian.org\\n'; "
                          "while [ ! -e '%s' ]; do sleep 0.05; done; "
                          "printf 'distrobox: Setting up devpts mounts...\\ncontainer_setup_done\\n'; "
                          "exec sleep 600",
                          fixture->marker);

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps", ps);
  kiste_fake_runner_add (fixture->runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/logs-inspect-running.json\"");
  kiste_fake_runner_add (fixture->runner, "podman logs", logs);

  fixture->store = kiste_box_store_new (KISTE_RUNNER (fixture->runner));
  fixture->watch = kiste_setup_watch_new (KISTE_RUNNER (fixture->runner), fixture->store);
  _kiste_setup_watch_set_delay (fixture->watch, 50);
  kiste_setup_watch_set_skip_func (fixture->watch, skip_busy, fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

  kiste_box_store_stop_watching (fixture->store);
  g_clear_object (&fixture->watch);
  g_clear_object (&fixture->store);

  /* cancelled commands let go of the runner once reaped */
  g_object_add_weak_pointer (G_OBJECT (fixture->runner), (gpointer *) &fixture->runner);
  g_object_unref (fixture->runner);
  while (fixture->runner != NULL && g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (10 * 1000);
  g_assert_null (fixture->runner);

  g_unlink (fixture->marker);
  g_unlink (fixture->ps_path);
  g_rmdir (fixture->dir);
  g_free (fixture->ps_path);
  g_free (fixture->marker);
  g_free (fixture->dir);
}

static void
watched_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
start_watching (Fixture *fixture)
{
  gboolean done = FALSE;

  kiste_box_store_watch_async (fixture->store, NULL, watched_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (kiste_box_store_find_by_name (fixture->store, "fx-first"));
}

static gboolean
wait_setting_up_ms (KisteBox *box,
                    gboolean  setting_up,
                    guint     timeout_ms)
{
  gint64 until = g_get_monotonic_time () + timeout_ms * 1000;

  while (kiste_box_get_setting_up (box) != setting_up)
    {
      if (g_get_monotonic_time () > until)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (5 * 1000);
    }
  return TRUE;
}

static gboolean
wait_setting_up (KisteBox *box,
                 gboolean  setting_up)
{
  return wait_setting_up_ms (box, setting_up, 5000);
}

/* A box started elsewhere says "Setting up" until its log says it is done */
static void
test_started_elsewhere (Fixture       *fixture,
                        gconstpointer  data)
{
  KisteBox *box;

  start_watching (fixture);
  box = kiste_box_store_find_by_name (fixture->store, "fx-first");
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);

  g_assert_true (wait_setting_up (box, TRUE));
  g_assert_cmpstr (kiste_box_get_state_label (box), ==, "Setting up");

  g_assert_true (g_file_set_contents (fixture->marker, "", 0, NULL));
  g_assert_true (wait_setting_up (box, FALSE));
  g_assert_cmpstr (kiste_box_get_state_label (box), ==, "Running");

  /* followed, never started; the stopped box not even looked at */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman logs"), ==, 1);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman start"), ==, 0);
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman container inspect fx-other"));
  g_assert_false (kiste_box_get_setting_up (kiste_box_store_find_by_name (fixture->store, "fx-other")));
}

/* A box one of our operations starts is that operation's to follow */
static void
test_skips_busy (Fixture       *fixture,
                 gconstpointer  data)
{
  KisteBox *box;

  fixture->busy = TRUE;
  start_watching (fixture);
  box = kiste_box_store_find_by_name (fixture->store, "fx-first");
  g_assert_false (wait_setting_up_ms (box, TRUE, 300));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman logs"), ==, 0);

  /* once it is done, a look: the setup still runs */
  fixture->busy = FALSE;
  kiste_setup_watch_check (fixture->watch, "fx-first");
  g_assert_true (wait_setting_up (box, TRUE));
}

static void
reloaded_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_assert_true (kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, NULL));
  *(gboolean *) user_data = TRUE;
}

static void
write_running (Fixture    *fixture,
               const char *state_first,
               gint64      started_first,
               gint64      started_other)
{
  g_autofree char *json = NULL;

  json = g_strdup_printf ("[{\"Id\": \"id-first\", \"Names\": [\"fx-first\"], \"Image\": \"debian:12\","
                          "  \"State\": \"%s\", \"StartedAt\": %" G_GINT64_FORMAT ","
                          "  \"Labels\": {\"manager\": \"distrobox\"}, \"Mounts\": [\"/dev\"]},"
                          " {\"Id\": \"id-other\", \"Names\": [\"fx-other\"], \"Image\": \"debian:12\","
                          "  \"State\": \"running\", \"StartedAt\": %" G_GINT64_FORMAT ","
                          "  \"Labels\": {\"manager\": \"distrobox\"}, \"Mounts\": [\"/dev\"]}]",
                          state_first, started_first, started_other);
  g_assert_true (g_file_set_contents (fixture->ps_path, json, -1, NULL));
}

static void
reload (Fixture *fixture)
{
  gboolean done = FALSE;

  kiste_box_store_reload_async (fixture->store, NULL, reloaded_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Until count logs are read (the log follows the box's inspect); then
 * no more for a moment */
static gboolean
wait_logs (Fixture *fixture,
           guint    count)
{
  gint64 until = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (kiste_fake_runner_count (fixture->runner, "podman logs") < count)
    {
      if (g_get_monotonic_time () > until)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (5 * 1000);
    }
  until = g_get_monotonic_time () + G_USEC_PER_SEC / 5;
  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (5 * 1000);
  return kiste_fake_runner_count (fixture->runner, "podman logs") == count;
}

/* Boxes found running that started long ago are set up: no process for
 * them at start-up; one that just started is followed, and so is an old
 * one once it is seen to start again. */
static void
test_long_running (Fixture       *fixture,
                   gconstpointer  data)
{
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  KisteBox *first;
  KisteBox *other;

  write_running (fixture, "running", now - 2 * 60 * 60, now - 5);
  start_watching (fixture);
  first = kiste_box_store_find_by_name (fixture->store, "fx-first");
  other = kiste_box_store_find_by_name (fixture->store, "fx-other");
  g_assert_cmpint (kiste_box_get_started (first), ==, now - 2 * 60 * 60);

  g_assert_true (wait_setting_up (other, TRUE));
  g_assert_true (wait_logs (fixture, 1));
  g_assert_false (kiste_box_get_setting_up (first));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "podman container inspect fx-first"));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman container inspect fx-other"));

  /* stopped and started again: its setup runs again */
  write_running (fixture, "exited", now - 2 * 60 * 60, now - 5);
  reload (fixture);
  g_assert_cmpint (kiste_box_get_state (first), ==, KISTE_BOX_STATE_STOPPED);
  write_running (fixture, "running", now, now - 5);
  reload (fixture);
  g_assert_true (wait_setting_up (first, TRUE));
  g_assert_true (wait_logs (fixture, 2));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman container inspect fx-first"));
}

/* Nothing happens for a list that is not live (filled by hand) */
static void
test_not_live (Fixture       *fixture,
               gconstpointer  data)
{
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 5;

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (5 * 1000);
  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/kiste/setup-watch/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("started-elsewhere", test_started_elsewhere);
  ADD ("skips-busy", test_skips_busy);
  ADD ("not-live", test_not_live);
  ADD ("long-running", test_long_running);

#undef ADD

  return g_test_run ();
}
