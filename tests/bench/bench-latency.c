/* bench-latency.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How soon a box stopped or started on the command line shows in Kiste's
 * list: a watching box store (the list's model) against the real podman.
 *
 *   kiste-bench-latency --box NAME [--runs N] [--output FILE]
 *
 * Run as the user whose rootless podman is measured, with the box
 * existing (the other boxes of the user are listed too: the result line
 * says how many). Each round runs `podman stop -t 1 NAME`, then
 * `podman start NAME`, as a user would on the command line, and times
 * from each command's start and from its exit until the store's box says
 * so, and from the change itself (when podman says the box's process
 * started or ended, by the wall clock). Medians are printed; the box is
 * left as it was found. */

#include "config.h"

#include <stdlib.h>

#include "bench-common.h"
#include "kiste-box-store.h"

static void
watch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, &error))
    {
      g_printerr ("Cannot list the boxes: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
  bench_done = TRUE;
}

typedef struct
{
  gboolean exited;
  gint64   exit_time;
} Command;

static void
command_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Command *command = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (object), result, &error))
    {
      g_printerr ("A podman command failed: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
  command->exit_time = g_get_monotonic_time ();
  command->exited = TRUE;
}

static gboolean
is_running (KisteBox *box)
{
  return kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING;
}

/* When podman says the box's process started or ended (µs, wall clock) */
static gint64
changed_at (const char *name,
            gboolean    start)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const char *format = start ? "{{.State.StartedAt.UnixNano}}" : "{{.State.FinishedAt.UnixNano}}";

  subprocess = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                                 "podman", "inspect", "--type", "container", "--format", format, name, NULL);
  if (subprocess == NULL ||
      !g_subprocess_communicate_utf8 (subprocess, NULL, NULL, &out, NULL, &error) ||
      !g_subprocess_get_successful (subprocess))
    {
      g_printerr ("Cannot inspect the box: %s\n", error ? error->message : "podman inspect failed");
      exit (EXIT_FAILURE);
    }

  return g_ascii_strtoll (out, NULL, 10) / 1000;
}

/* Runs `podman VERB -- NAME` without waiting for it, then waits until the
 * box's state in the store is what the command makes it and the command
 * has exited; the times in ms from the command's start, from its exit and
 * from the change */
static void
measure (KisteBoxStore *store,
         const char    *name,
         gboolean       start,
         double        *from_start,
         double        *from_exit,
         double        *from_change)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  Command command = { 0 };
  KisteBox *box = kiste_box_store_find_by_name (store, name);
  gint64 began;
  gint64 seen = 0;
  gint64 seen_real = 0;
  gint64 deadline;

  began = g_get_monotonic_time ();
  if (start)
    subprocess = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                                   "podman", "start", name, NULL);
  else
    subprocess = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                                   "podman", "stop", "-t", "1", name, NULL);
  if (subprocess == NULL)
    {
      g_printerr ("Cannot run podman: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
  g_subprocess_wait_check_async (subprocess, NULL, command_cb, &command);

  deadline = began + 60 * G_USEC_PER_SEC;
  while (seen == 0 || !command.exited)
    {
      g_main_context_iteration (NULL, TRUE);
      box = kiste_box_store_find_by_name (store, name);
      if (seen == 0 && box != NULL && is_running (box) == start)
        {
          seen = g_get_monotonic_time ();
          seen_real = g_get_real_time ();
        }
      if (g_get_monotonic_time () > deadline)
        {
          g_printerr ("The list did not show the box %s within a minute\n",
                      start ? "started" : "stopped");
          exit (EXIT_FAILURE);
        }
    }

  *from_start = (seen - began) / 1000.0;
  *from_exit = (seen - command.exit_time) / 1000.0;
  if (from_change != NULL)
    *from_change = (seen_real - changed_at (name, start)) / 1000.0;
}

/* Keeps the main loop turning now and then, so waiting is not blocked */
static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteRunner) runner = NULL;
  g_autoptr(KisteBoxStore) store = NULL;
  g_autoptr(GArray) stop_start = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) stop_exit = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) start_start = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) start_exit = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) stop_change = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) start_change = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *line = NULL;
  gboolean was_running;
  KisteBox *box;
  int runs = 7;
  GOptionEntry entries[] = {
    { "box", 'b', 0, G_OPTION_ARG_STRING, &box_name, "The box to stop and start", "NAME" },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Stops and starts to time", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Append the result line to FILE", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("- from a podman stop or start on the command line to the list");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || box_name == NULL || runs < 1)
    {
      g_printerr ("%s\n", error ? error->message : "--box NAME is needed; --runs must be positive");
      return EXIT_FAILURE;
    }

  runner = kiste_runner_new ();
  store = kiste_box_store_new (runner);
  kiste_box_store_watch_async (store, NULL, watch_cb, NULL);
  while (!bench_done)
    g_main_context_iteration (NULL, TRUE);
  g_timeout_add (100, tick_cb, NULL);

  box = kiste_box_store_find_by_name (store, box_name);
  if (box == NULL)
    {
      g_printerr ("There is no box named %s\n", box_name);
      return EXIT_FAILURE;
    }
  was_running = is_running (box);

  /* from a running box: stop, then start */
  if (!was_running)
    {
      double ignored_start;
      double ignored_exit;

      measure (store, box_name, TRUE, &ignored_start, &ignored_exit, NULL);
    }

  for (int i = 0; i < runs; i++)
    {
      double from_start;
      double from_exit;
      double from_change;

      measure (store, box_name, FALSE, &from_start, &from_exit, &from_change);
      g_array_append_val (stop_start, from_start);
      g_array_append_val (stop_exit, from_exit);
      g_array_append_val (stop_change, from_change);
      measure (store, box_name, TRUE, &from_start, &from_exit, &from_change);
      g_array_append_val (start_start, from_start);
      g_array_append_val (start_exit, from_exit);
      g_array_append_val (start_change, from_change);
    }

  if (!was_running)
    {
      double ignored_start;
      double ignored_exit;

      measure (store, box_name, FALSE, &ignored_start, &ignored_exit, NULL);
    }

  line = g_strdup_printf ("latency boxes %u  stop: %.0f ms from the command, %.0f after it exited, "
                          "%.0f after the box ended  start: %.0f ms from the command, %.0f after it "
                          "exited, %.0f after the box started  (medians of %d)\n",
                          g_list_model_get_n_items (G_LIST_MODEL (store)),
                          bench_median (stop_start), bench_median (stop_exit), bench_median (stop_change),
                          bench_median (start_start), bench_median (start_exit), bench_median (start_change),
                          runs);
  g_print ("%s", line);

  if (output != NULL && !bench_append_line (output, NULL, line))
    return EXIT_FAILURE;

  kiste_box_store_stop_watching (store);
  return EXIT_SUCCESS;
}
