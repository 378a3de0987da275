/* bench-store.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How long one box store refresh takes next to a bare `podman ps` and
 * `distrobox list`, and how many processes a refresh starts.
 *
 *   kiste-bench-store real [OPTION…]
 *       the boxes of the user running it, through the real podman
 *   kiste-bench-store fake --boxes N --template PS.json [OPTION…]
 *       N boxes made from the boxes in a recorded `podman ps --format json`,
 *       replayed by a fake podman found first on PATH (distrobox list
 *       gets the same boxes in its own format)
 *
 * Runs are interleaved, in a rotating order, so a busy machine slows all
 * three alike; medians are printed, and ratios of times taken in the
 * same run. Besides: Kiste's own work (a refresh less the ps beside it in
 * the same round), a cold refresh (a new store: every box parsed and
 * added), the longest the main loop went without answering a 2 ms
 * timer during refreshes, and with --idle-seconds the processes a
 * watching store starts while nothing changes. --output appends the
 * result line to a file. */

#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "kiste-box-store-private.h"
#include "kiste-fake-runner.h"
#include "kiste-test-boxes.h"

/* The shared fake runner, running every command as it is: it counts the
 * processes a store starts */
static KisteFakeRunner *
bench_runner_new (void)
{
  KisteFakeRunner *runner = kiste_fake_runner_new ();

  kiste_fake_runner_set_default (runner, NULL);
  kiste_runner_set_manager (KISTE_RUNNER (runner), "podman");
  return runner;
}

static guint
bench_runner_spawned (KisteFakeRunner *runner)
{
  return kiste_fake_runner_get_commands (runner)->len;
}

/* Timing */

typedef struct
{
  GAsyncResult *result;
} Waiter;

static void
reload_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Waiter *waiter = user_data;

  waiter->result = g_object_ref (result);
}

/* The longest stall of each refresh timed */
static GArray *stalls;

/* Milliseconds for one refresh, from the call to the callback */
static double
time_store_refresh (KisteBoxStore *store)
{
  g_autoptr(GError) error = NULL;
  Waiter waiter = { NULL };
  gint64 start = g_get_monotonic_time ();
  double ms;

  /* the longest the main loop could not draw or take input */
  bench_stall_watch (G_PRIORITY_DEFAULT);

  kiste_box_store_reload_async (store, NULL, reload_cb, &waiter);
  while (waiter.result == NULL)
    g_main_context_iteration (NULL, TRUE);

  ms = (g_get_monotonic_time () - start) / 1000.0;
  if (stalls != NULL)
    {
      double stall = bench_stall_take_ms ();

      g_array_append_val (stalls, stall);
    }
  bench_stall_unwatch ();

  if (!kiste_box_store_reload_finish (store, waiter.result, &error))
    {
      g_printerr ("Refreshing the box store failed: %s\n", error->message);
      exit (EXIT_FAILURE);
    }

  g_object_unref (waiter.result);
  return ms;
}

/* Milliseconds for a command run to the end with its output read */
static double
time_command (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  gint64 start = g_get_monotonic_time ();
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH,
                     NULL, NULL, &out, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_printerr ("%s failed: %s\n%s", argv[0], error->message, err ? err : "");
      exit (EXIT_FAILURE);
    }

  return (g_get_monotonic_time () - start) / 1000.0;
}

static const char header_format[] = "%-6s %6s %9s %8s %8s %8s %9s %8s %8s %8s %8s %8s %10s %9s\n";

static char *
dup_header (void)
{
  return g_strdup_printf (header_format,
                          "run", "boxes", "store_ms", "ps_ms", "own_ms", "cold_ms", "list_ms", "store/ps",
                          "list/ps", "stall_ms", "stall_mx", "stall_cd", "procs/refr", "idle_procs");
}

typedef struct
{
  guint   runs;
  guint   list_runs;
  guint   cold_runs;
  guint   idle_seconds;
  char   *output;
} Options;

static gboolean
set_done_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static void
run_main_loop_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Processes a watching store starts while nothing changes */
static int
count_idle_spawns (guint seconds)
{
  g_autoptr(KisteFakeRunner) runner = bench_runner_new ();
  g_autoptr(KisteBoxStore) store = NULL;
  Waiter waiter = { NULL };
  guint before;

  store = kiste_box_store_new (KISTE_RUNNER (runner));

  kiste_box_store_watch_async (store, NULL, reload_cb, &waiter);
  while (waiter.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (waiter.result);

  /* the listing that watching starts with may still settle */
  run_main_loop_for (1000);
  before = bench_runner_spawned (runner);
  run_main_loop_for (seconds * 1000);

  kiste_box_store_stop_watching (store);
  return (int) (bench_runner_spawned (runner) - before);
}

/* Milliseconds for the first refresh of a new store */
static double
time_cold_refresh (void)
{
  g_autoptr(KisteFakeRunner) runner = bench_runner_new ();
  g_autoptr(KisteBoxStore) store = NULL;

  store = kiste_box_store_new (KISTE_RUNNER (runner));

  return time_store_refresh (store);
}

static void
measure (const char    *label,
         const Options *options)
{
  guint runs = options->runs;
  guint list_runs = options->list_runs;
  const char * const ps_argv[] = { "podman", "ps", "-a", "--no-trunc", "--format", "json", NULL };
  const char * const list_argv[] = { "distrobox", "list", "--no-color", NULL };
  g_autoptr(KisteFakeRunner) runner = bench_runner_new ();
  g_autoptr(KisteBoxStore) store = NULL;
  g_autoptr(GArray) store_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ps_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) list_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) own_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) cold_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *line = NULL;
  g_autofree char *header = dup_header ();
  int idle_procs = -1;
  char idle[16] = "-";
  double stall_median;
  double cold_stall;
  double stall_max;
  g_autofree char *distrobox = g_find_program_in_path ("distrobox");
  guint spawned_before;
  guint refreshes_before;
  double store_median, ps_median, list_median = 0.0;

  store = kiste_box_store_new (KISTE_RUNNER (runner));

  /* distrobox list and our runner ask for the same engine */
  g_setenv ("DBX_CONTAINER_MANAGER", "podman", TRUE);

  /* warm caches; the first refresh also builds every box */
  time_store_refresh (store);
  time_command (ps_argv);

  spawned_before = bench_runner_spawned (runner);
  refreshes_before = _kiste_box_store_get_refresh_count (store);

  stalls = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < runs; i++)
    {
      double round_store = 0.0;
      double round_ps = 0.0;

      /* who goes first changes each round: no order favours anyone */
      for (guint j = 0; j < 3; j++)
        {
          double ms;

          switch ((i + j) % 3)
            {
            case 0:
              ms = round_store = time_store_refresh (store);
              g_array_append_val (store_ms, ms);
              break;

            case 1:
              ms = round_ps = time_command (ps_argv);
              g_array_append_val (ps_ms, ms);
              break;

            case 2:
            default:
              if (distrobox != NULL && i < list_runs)
                {
                  ms = time_command (list_argv);
                  g_array_append_val (list_ms, ms);
                }
              break;
            }
        }

      round_store -= round_ps;
      g_array_append_val (own_ms, round_store);
    }

  /* a busy machine stalls anyone now and then: the median refresh's
   * longest stall, and the longest of all */
  stall_median = bench_median (stalls);
  stall_max = stalls->len > 0 ? g_array_index (stalls, double, stalls->len - 1) : 0.0;
  g_array_set_size (stalls, 0);

  for (guint i = 0; i < options->cold_runs; i++)
    {
      double ms = time_cold_refresh ();

      g_array_append_val (cold_ms, ms);
    }

  cold_stall = bench_median (stalls);
  g_clear_pointer (&stalls, g_array_unref);

  if (options->idle_seconds > 0)
    {
      idle_procs = count_idle_spawns (options->idle_seconds);
      g_snprintf (idle, sizeof idle, "%d", idle_procs);
    }

  store_median = bench_median (store_ms);
  ps_median = bench_median (ps_ms);
  if (distrobox != NULL)
    list_median = bench_median (list_ms);

  line = g_strdup_printf ("%-6s %6u %9.1f %8.1f %8.1f %8.1f %9.1f %8.2f %8.2f %8.1f %8.1f %8.1f %10.2f %9s\n",
                          label,
                          g_list_model_get_n_items (G_LIST_MODEL (store)),
                          store_median,
                          ps_median,
                          bench_median (own_ms),
                          bench_median (cold_ms),
                          list_median,
                          store_median / ps_median,
                          list_median / ps_median,
                          stall_median,
                          stall_max,
                          cold_stall,
                          (double) (bench_runner_spawned (runner) - spawned_before) /
                          (double) (_kiste_box_store_get_refresh_count (store) - refreshes_before),
                          idle);
  g_print ("%s", line);

  /* a header for each new file */
  if (options->output != NULL && !bench_append_line (options->output, header, line))
    exit (EXIT_FAILURE);
}

/* The fake podman */

static const char fake_podman[] =
  "#!/bin/sh\n"
  "# Replays recorded ps output: JSON for us, distrobox list's own format for it.\n"
  "dir=$(dirname \"$0\")\n"
  "for arg in \"$@\"; do\n"
  "  case \"$arg\" in\n"
  "    json) exec cat \"$dir/ps.json\" ;;\n"
  "    events) exec sleep 100000 ;;\n"
  "    *'{{.ID}}'*) exec cat \"$dir/list.txt\" ;;\n"
  "  esac\n"
  "done\n"
  "exit 0\n";

/* Go's fmt of a map[string]string: map[k:v k:v], keys sorted */
static void
append_go_labels (GString    *out,
                  JsonObject *labels)
{
  g_autoptr(GList) keys = labels ? json_object_get_members (labels) : NULL;

  keys = g_list_sort (keys, (GCompareFunc) strcmp);
  g_string_append (out, "map[");
  for (GList *l = keys; l != NULL; l = l->next)
    {
      if (l != keys)
        g_string_append_c (out, ' ');
      g_string_append_printf (out, "%s:%s", (const char *) l->data,
                              json_object_get_string_member_with_default (labels, l->data, ""));
    }
  g_string_append_c (out, ']');
}

static void
append_go_mounts (GString   *out,
                  JsonArray *mounts)
{
  g_string_append_c (out, '[');
  for (guint i = 0; mounts != NULL && i < json_array_get_length (mounts); i++)
    {
      JsonNode *node = json_array_get_element (mounts, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      if (JSON_NODE_HOLDS_VALUE (node))
        g_string_append (out, json_node_get_string (node));
    }
  g_string_append_c (out, ']');
}

static void
write_fake_manager (const char *dir,
                    const char *template_path,
                    guint       n_boxes)
{
  g_autoptr(JsonArray) out = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GString) list = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *script = g_build_filename (dir, "podman", NULL);
  g_autofree char *ps_path = g_build_filename (dir, "ps.json", NULL);
  g_autofree char *list_path = g_build_filename (dir, "list.txt", NULL);

  out = kiste_test_dup_many_boxes (template_path, "bench", n_boxes);
  for (guint i = 0; i < n_boxes; i++)
    {
      JsonObject *copy = json_array_get_object_element (out, i);
      const char *id = json_object_get_string_member (copy, "Id");
      const char *name = json_array_get_string_element (json_object_get_array_member (copy, "Names"), 0);

      g_string_append_printf (list, "%s|%s|%s|%s|", id,
                              json_object_get_string_member_with_default (copy, "Image", ""),
                              name,
                              json_object_get_string_member_with_default (copy, "Status", ""));
      append_go_labels (list, json_object_get_object_member (copy, "Labels"));
      append_go_mounts (list, json_object_get_array_member (copy, "Mounts"));
      g_string_append_c (list, '\n');
    }

  root = json_node_init_array (json_node_alloc (), out);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 4);

  if (!json_generator_to_file (generator, ps_path, &error) ||
      !g_file_set_contents (list_path, list->str, list->len, &error) ||
      !g_file_set_contents (script, fake_podman, -1, &error))
    {
      g_printerr ("Cannot write the fake manager: %s\n", error->message);
      exit (EXIT_FAILURE);
    }

  g_chmod (script, 0755);
}

static void
remove_dir (const char *dir)
{
  const char *names[] = { "podman", "ps.json", "list.txt" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_unlink (path);
    }

  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *template_path = NULL;
  g_autofree char *output = NULL;
  int runs = 15;
  int boxes = 1000;
  int list_runs = -1;
  int cold_runs = 5;
  int idle_seconds = 0;
  gboolean no_header = FALSE;
  Options options = { 0 };
  GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Timed refreshes per measurement", "N" },
    { "boxes", 'n', 0, G_OPTION_ARG_INT, &boxes, "Boxes for the fake manager", "N" },
    { "template", 't', 0, G_OPTION_ARG_FILENAME, &template_path, "Recorded podman ps JSON to copy boxes from", "FILE" },
    { "list-runs", 'l', 0, G_OPTION_ARG_INT, &list_runs, "Runs of distrobox list (default: --runs), which is slow with many boxes", "N" },
    { "cold-runs", 'c', 0, G_OPTION_ARG_INT, &cold_runs, "First refreshes of a new store (default 5)", "N" },
    { "idle-seconds", 'i', 0, G_OPTION_ARG_INT, &idle_seconds, "Count the processes a watching store starts in this time", "S" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Also append the result line to this file", "FILE" },
    { "no-header", 0, 0, G_OPTION_ARG_NONE, &no_header, "Print the result line only", NULL },
    { NULL }
  };

  context = g_option_context_new ("real|fake");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 || runs < 1 || boxes < 1 ||
      cold_runs < 0 || idle_seconds < 0)
    {
      g_printerr ("%s\n", error ? error->message : "Usage: kiste-bench-store real|fake [OPTION…]");
      return EXIT_FAILURE;
    }

  options.runs = runs;
  options.list_runs = list_runs < 0 ? runs : list_runs;
  options.cold_runs = cold_runs;
  options.idle_seconds = idle_seconds;
  options.output = output;

  if (g_str_equal (argv[1], "real"))
    {
      if (!no_header)
        {
          g_autofree char *header = dup_header ();

          g_print ("%s", header);
        }
      measure ("real", &options);
    }
  else if (g_str_equal (argv[1], "fake"))
    {
      g_autofree char *dir = g_dir_make_tmp ("kiste-bench-XXXXXX", &error);
      g_autofree char *path = NULL;

      if (dir == NULL || template_path == NULL)
        {
          g_printerr ("%s\n", error ? error->message : "fake needs --template");
          return EXIT_FAILURE;
        }

      write_fake_manager (dir, template_path, boxes);
      path = g_strconcat (dir, ":", g_getenv ("PATH"), NULL);
      g_setenv ("PATH", path, TRUE);

      if (!no_header)
        {
          g_autofree char *header = dup_header ();

          g_print ("%s", header);
        }
      measure ("fake", &options);
      remove_dir (dir);
    }
  else
    {
      g_printerr ("Unknown mode %s\n", argv[1]);
      return EXIT_FAILURE;
    }

  return EXIT_SUCCESS;
}
