/* bench-window.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Kiste's window with many boxes next to a minimal libadwaita window with
 * a VTE terminal, each started as a process of its own, in turns:
 *
 *   kiste-bench-window --boxes N --template PS.json --help-text HELP [--runs N] [--output FILE]
 *
 * For each: the first frame after the process started and the memory it
 * holds then (VmRSS, half a second after the first frame, or after the
 * list is filled); for Kiste also when the list was filled (the first
 * frame drawn with every box), the longest the main loop went without
 * answering a 2 ms timer from the first frame until half a second after
 * the list was filled, during refreshes (F5) of an unchanged list, and
 * while the list scrolls from top to bottom a page a frame; for
 * the minimal window how long its first frame took to lay out and paint
 * (min_frame: what drawing a new window takes on this machine, next to
 * which to read Kiste's stalls). podman and distrobox are fakes replaying
 * recorded output, first on PATH. Medians are printed, and the ratios of
 * Kiste to the minimal window measured in the same run. KISTE_BENCH_TRACE
 * set prints each stall and frame over 10 ms on stderr. */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <vte/vte.h>

#include "bench-common.h"
#include "bench-frames.h"
#include "kiste-application.h"
#include "kiste-box-store-private.h"
#include "kiste-manager-private.h"
#include "kiste-manager.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"
#include "kiste-window.h"

static long
read_rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "VmRSS:")) == NULL)
    return 0;

  return strtol (line + strlen ("VmRSS:"), NULL, 10);
}

static void
run_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (500);
    }
}

/* Children: one window each */

static gint64 first_paint;
static gint64 filled_paint;
static GListModel *boxes;
static guint expected;

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  gint64 now = g_get_monotonic_time ();

  if (first_paint == 0)
    first_paint = now;
  if (filled_paint == 0 && boxes != NULL && g_list_model_get_n_items (boxes) >= expected)
    filled_paint = now;
}

/* The list is filled once every box is in and a frame shows it */
static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  GtkWidget  *window)
{
  if (g_list_model_get_n_items (model) >= expected)
    gtk_widget_queue_draw (window);
}

/* With KISTE_BENCH_TRACE set, each stall and each frame over 10 ms on
 * stderr, the frame with its phases */
static void
watch_paints (GtkWidget *window)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (after_paint_cb), NULL);
  bench_frames_watch (window);

  if (g_getenv ("KISTE_BENCH_TRACE") != NULL)
    {
      gint64 now = g_get_monotonic_time ();

      bench_stall_trace (now);
      bench_frames_trace (now);
    }
}

static int
child_minimal (void)
{
  g_autoptr(AdwApplication) app = adw_application_new (NULL, G_APPLICATION_NON_UNIQUE);
  GtkWidget *window;
  GtkWidget *view;
  long rss;

  g_application_register (G_APPLICATION (app), NULL, NULL);
  window = adw_application_window_new (GTK_APPLICATION (app));
  view = adw_toolbar_view_new ();
  adw_toolbar_view_add_top_bar (ADW_TOOLBAR_VIEW (view), adw_header_bar_new ());
  adw_toolbar_view_set_content (ADW_TOOLBAR_VIEW (view), vte_terminal_new ());
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  watch_paints (window);

  while (first_paint == 0)
    g_main_context_iteration (NULL, TRUE);
  run_for (500);
  rss = read_rss_kb ();

  g_print ("minimal %" G_GINT64_FORMAT " 0 0 0 0 %ld %" G_GINT64_FORMAT "\n", first_paint, rss, bench_frames_get_first ());
  gtk_window_destroy (GTK_WINDOW (window));
  return EXIT_SUCCESS;
}

/* Scrolls a page a frame until the end of the list */
static gboolean
scroll_tick_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));
  double page = gtk_adjustment_get_page_size (adjustment);
  double value = gtk_adjustment_get_value (adjustment) + page;
  gboolean *done = user_data;

  gtk_adjustment_set_value (adjustment, value);
  if (value < gtk_adjustment_get_upper (adjustment) - page)
    return G_SOURCE_CONTINUE;

  *done = TRUE;
  return G_SOURCE_REMOVE;
}

/* The longest stall while the list scrolls through every box */
static double
time_scroll (GtkWidget *window)
{
  GtkWidget *list_view = kiste_test_find_widget (window, GTK_TYPE_LIST_VIEW, "Boxes");
  gboolean done = FALSE;

  if (list_view == NULL)
    {
      g_printerr ("The window has no list of boxes\n");
      exit (EXIT_FAILURE);
    }

  bench_stall_reset ();
  gtk_widget_add_tick_callback (list_view, scroll_tick_cb, &done, NULL);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  run_for (100);
  return bench_stall_take_ms ();
}

static int
child_kiste (guint n_boxes,
             guint refreshes)
{
  g_autoptr(KisteApplication) app = kiste_application_new ();
  g_autoptr(GArray) stalls = g_array_new (FALSE, FALSE, sizeof (double));
  KisteBoxStore *store;
  KisteWindow *window;
  double start_stall;
  double refresh_stall = 0.0;
  double scroll_stall;
  long rss;

  bench_stall_watch (G_PRIORITY_DEFAULT);

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  g_application_hold (G_APPLICATION (app));

  store = _kiste_manager_get_store (kiste_application_get_manager (app));
  boxes = G_LIST_MODEL (store);
  expected = n_boxes;

  window = kiste_window_new (app);
  g_signal_connect_object (store, "items-changed", G_CALLBACK (items_changed_cb), window, G_CONNECT_DEFAULT);
  gtk_window_present (GTK_WINDOW (window));
  watch_paints (GTK_WIDGET (window));

  /* the stall counted is the one the list causes, after the first frame */
  while (first_paint == 0)
    g_main_context_iteration (NULL, TRUE);
  bench_stall_reset ();
  while (filled_paint == 0)
    g_main_context_iteration (NULL, TRUE);
  run_for (500);
  start_stall = bench_stall_take_ms ();
  rss = read_rss_kb ();

  for (guint i = 0; i < refreshes; i++)
    {
      guint count = _kiste_box_store_get_refresh_count (store);

      bench_stall_reset ();
      gtk_widget_activate_action (GTK_WIDGET (window), "win.reload", NULL);
      while (_kiste_box_store_get_refresh_count (store) == count || kiste_box_store_get_refreshing (store))
        g_main_context_iteration (NULL, TRUE);
      run_for (100);
      refresh_stall = bench_stall_take_ms ();
      g_array_append_val (stalls, refresh_stall);
    }

  for (guint i = 0; i < stalls->len; i++)
    refresh_stall = MAX (refresh_stall, g_array_index (stalls, double, i));

  scroll_stall = time_scroll (GTK_WIDGET (window));

  g_print ("kiste %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %.1f %.1f %.1f %ld %" G_GINT64_FORMAT "\n",
           first_paint, filled_paint, start_stall, refresh_stall, scroll_stall, rss, bench_frames_get_first ());

  gtk_window_destroy (GTK_WINDOW (window));
  g_application_release (G_APPLICATION (app));
  return EXIT_SUCCESS;
}

/* The driver */

static const char fake_podman[] =
  "#!/bin/sh\n"
  "dir=$(dirname \"$0\")\n"
  "case \"$1\" in\n"
  "  --version) echo 'podman version 5.4.2' ;;\n"
  "  ps) exec cat \"$dir/ps.json\" ;;\n"
  "  events) exec sleep 100000 ;;\n"
  "  *) echo '[]' ;;\n"
  "esac\n";

static const char fake_distrobox[] =
  "#!/bin/sh\n"
  "dir=$(dirname \"$0\")\n"
  "case \"$1\" in\n"
  "  --version) echo 'distrobox: 1.8.2.5' ;;\n"
  "  create) exec cat \"$dir/help.txt\" ;;\n"
  "esac\n";

static void
write_file (const char *dir,
            const char *name,
            const char *contents,
            gssize      length,
            gboolean    executable)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  if (!g_file_set_contents (path, contents, length, &error))
    {
      g_printerr ("Cannot write %s: %s\n", path, error->message);
      exit (EXIT_FAILURE);
    }
  if (executable)
    g_chmod (path, 0755);
}

/* n boxes in podman's JSON, copied from the boxes in the template */
static char *
make_ps_json (const char *template_path,
              guint       n_boxes)
{
  g_autoptr(JsonArray) copies = kiste_test_dup_many_boxes (template_path, "bench", n_boxes);
  g_autoptr(JsonNode) root = json_node_init_array (json_node_alloc (), copies);

  return json_to_string (root, TRUE);
}

typedef struct
{
  double first_ms;
  double filled_ms;
  double start_stall;
  double refresh_stall;
  double scroll_stall;
  double rss_mb;
  double first_frame_ms;
} Sample;

static Sample
run_child (const char *self_path,
           const char *mode,
           guint       n_boxes,
           guint       refreshes)
{
  g_autofree char *boxes_arg = g_strdup_printf ("%u", n_boxes);
  g_autofree char *refreshes_arg = g_strdup_printf ("%u", refreshes);
  const char *argv[] = { self_path, "--child", mode, "--boxes", boxes_arg, "--refreshes", refreshes_arg, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  Sample sample = { 0 };
  gint64 start = g_get_monotonic_time ();
  gint64 first = 0, filled = 0, frame = 0;
  long rss = 0;
  char name[16];
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error) ||
      sscanf (out, "%15s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %lf %lf %lf %ld %" G_GINT64_FORMAT,
              name, &first, &filled, &sample.start_stall, &sample.refresh_stall, &sample.scroll_stall,
              &rss, &frame) != 8)
    {
      g_printerr ("The %s window failed: %s\n%s", mode, error ? error->message : "", out ? out : "");
      exit (EXIT_FAILURE);
    }

  sample.first_ms = (first - start) / 1000.0;
  sample.filled_ms = filled > 0 ? (filled - start) / 1000.0 : 0.0;
  sample.rss_mb = rss / 1024.0;
  sample.first_frame_ms = frame / 1000.0;
  return sample;
}

static double
median_of (Sample      *samples,
           guint        n,
           gsize        offset)
{
  g_autofree double *values = g_new (double, n);

  for (guint i = 0; i < n; i++)
    values[i] = G_STRUCT_MEMBER (double, &samples[i], offset);
  return bench_median_of (values, n);
}

#define MEDIAN(samples, n, member) median_of ((samples), (n), G_STRUCT_OFFSET (Sample, member))

static const char header_format[] = "%-7s %6s %9s %9s %8s %9s %9s %8s %8s %9s %9s %9s %9s\n";

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *template_path = NULL;
  g_autofree char *help_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *child = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *json = NULL;
  g_autofree char *help = NULL;
  g_autofree char *self_path = NULL;
  g_autofree char *line = NULL;
  g_autofree char *header = NULL;
  g_autofree Sample *kiste = NULL;
  g_autofree Sample *minimal = NULL;
  int boxes_n = 1000;
  int runs = 5;
  int refreshes = 5;
  GOptionEntry entries[] = {
    { "boxes", 'n', 0, G_OPTION_ARG_INT, &boxes_n, "Boxes the fake podman lists", "N" },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Starts of each window", "N" },
    { "refreshes", 0, 0, G_OPTION_ARG_INT, &refreshes, "Refreshes per start of Kiste", "N" },
    { "template", 't', 0, G_OPTION_ARG_FILENAME, &template_path, "Recorded podman ps JSON to copy boxes from", "FILE" },
    { "help-text", 0, 0, G_OPTION_ARG_FILENAME, &help_path, "Recorded distrobox create --help", "FILE" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Also append the result line to this file", "FILE" },
    { "child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &child, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || boxes_n < 1 || runs < 1 || refreshes < 0)
    {
      g_printerr ("%s\n", error ? error->message : "Bad options");
      return EXIT_FAILURE;
    }

  if (g_strcmp0 (child, "minimal") == 0)
    {
      adw_init ();
      return child_minimal ();
    }
  if (g_strcmp0 (child, "kiste") == 0)
    {
      adw_init ();
      return child_kiste (boxes_n, refreshes);
    }

  if (template_path == NULL || help_path == NULL)
    {
      g_printerr ("--template and --help-text are needed\n");
      return EXIT_FAILURE;
    }

  if (!(dir = g_dir_make_tmp ("kiste-bench-window-XXXXXX", &error)) ||
      !g_file_get_contents (help_path, &help, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return EXIT_FAILURE;
    }

  json = make_ps_json (template_path, boxes_n);
  write_file (dir, "ps.json", json, -1, FALSE);
  write_file (dir, "help.txt", help, -1, FALSE);
  write_file (dir, "podman", fake_podman, -1, TRUE);
  write_file (dir, "distrobox", fake_distrobox, -1, TRUE);
  path = g_strconcat (dir, ":", g_getenv ("PATH"), NULL);
  g_setenv ("PATH", path, TRUE);
  g_unsetenv ("DBX_CONTAINER_MANAGER");

  self_path = g_file_read_link ("/proc/self/exe", NULL);
  kiste = g_new0 (Sample, runs);
  minimal = g_new0 (Sample, runs);

  /* in turns, so a busy machine slows both alike */
  for (int i = 0; i < runs; i++)
    {
      if (i % 2 == 0)
        {
          kiste[i] = run_child (self_path, "kiste", boxes_n, refreshes);
          minimal[i] = run_child (self_path, "minimal", boxes_n, 0);
        }
      else
        {
          minimal[i] = run_child (self_path, "minimal", boxes_n, 0);
          kiste[i] = run_child (self_path, "kiste", boxes_n, refreshes);
        }
    }

  {
    double k_first = MEDIAN (kiste, runs, first_ms);
    double m_first = MEDIAN (minimal, runs, first_ms);
    double k_rss = MEDIAN (kiste, runs, rss_mb);
    double m_rss = MEDIAN (minimal, runs, rss_mb);
    g_autofree double *after_first = g_new (double, runs);

    for (int i = 0; i < runs; i++)
      after_first[i] = kiste[i].filled_ms - kiste[i].first_ms;

    header = g_strdup_printf (header_format, "window", "boxes", "first_ms", "min_ms", "first/min",
                              "filled_ms", "fill-1st", "rss_mb", "rss/min", "stall_st", "stall_f5", "stall_scr", "min_frame");
    g_print ("%s", header);
    line = g_strdup_printf ("%-7s %6d %9.1f %9.1f %8.2f %9.1f %9.1f %8.1f %8.2f %9.1f %9.1f %9.1f %9.1f\n",
                            "kiste", boxes_n, k_first, m_first, k_first / m_first,
                            MEDIAN (kiste, runs, filled_ms), bench_median_of (after_first, runs),
                            k_rss, k_rss / m_rss,
                            MEDIAN (kiste, runs, start_stall), MEDIAN (kiste, runs, refresh_stall),
                            MEDIAN (kiste, runs, scroll_stall), MEDIAN (minimal, runs, first_frame_ms));
    g_print ("%s", line);
  }

  if (output != NULL && !bench_append_line (output, header, line))
    return EXIT_FAILURE;

  {
    const char *names[] = { "ps.json", "help.txt", "podman", "distrobox" };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *file = g_build_filename (dir, names[i], NULL);

        g_unlink (file);
      }
    g_rmdir (dir);
  }

  return EXIT_SUCCESS;
}
