/* bench-terminal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A terminal printing a flood of output: Kiste's terminal (the widget of
 * its tabs, with its settings, colours and link matching) next to a plain
 * VteTerminal, in turns, in one run:
 *
 *   kiste-bench-terminal [--megabytes N] [--runs N] [--output FILE]
 *
 * Each run starts a window with the terminal, waits for its first frame,
 * then runs a command that prints N MB of text (base64 lines) and waits
 * for it to exit. Measured: the time until the command exited and the
 * longest the main loop went without answering a 2 ms timer of high
 * priority (a stall the user feels as a frozen window), and the longest
 * frame (updating, laying out and painting the window: VTE processes
 * what it read in the frame's update). Medians are printed, and the
 * ratios of Kiste's terminal to the plain one. KISTE_BENCH_TRACE set
 * prints each stall and frame over 10 ms on stderr. */

#include "config.h"

#include <adwaita.h>
#include <stdlib.h>
#include <vte/vte.h>

#include "bench-common.h"
#include "bench-frames.h"
#include "kiste-terminal.h"

typedef struct
{
  gboolean first_paint;
  gboolean exited;
  int      status;
} Run;

static void
after_paint_cb (GdkFrameClock *clock,
                Run           *run)
{
  run->first_paint = TRUE;
}

static void
child_exited_cb (VteTerminal *terminal,
                 int          status,
                 Run         *run)
{
  run->exited = TRUE;
  run->status = status;
}

static void
spawned_cb (VteTerminal *terminal,
            GPid         pid,
            GError      *error,
            gpointer     user_data)
{
  if (error != NULL)
    {
      g_printerr ("Cannot start the flood: %s\n", error->message);
      exit (EXIT_FAILURE);
    }
}

/* One flood through one terminal; the time in ms, the stall in
 * *stall_ms, the longest frame in *frame_ms */
static double
measure (gboolean   kiste,
         GSettings *settings,
         guint      megabytes,
         double    *stall_ms,
         double    *frame_ms)
{
  g_autofree char *script = NULL;
  GtkWidget *window;
  GtkWidget *terminal;
  Run run = { 0 };
  gint64 start;
  double elapsed;

  if (kiste)
    {
      terminal = GTK_WIDGET (kiste_terminal_new ());
      kiste_terminal_set_settings (KISTE_TERMINAL (terminal), settings);
    }
  else
    {
      terminal = vte_terminal_new ();
    }

  window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), terminal);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (after_paint_cb), &run);
  bench_frames_watch (window);
  while (!run.first_paint)
    g_main_context_iteration (NULL, TRUE);

  /* three bytes of random become four of base64, in lines of 76 */
  script = g_strdup_printf ("head -c %u /dev/urandom | base64", megabytes * 750000);
  g_signal_connect (terminal, "child-exited", G_CALLBACK (child_exited_cb), &run);

  bench_stall_watch (G_PRIORITY_HIGH);
  bench_frames_take_longest_ms ();
  start = g_get_monotonic_time ();
  if (g_getenv ("KISTE_BENCH_TRACE") != NULL)
    {
      bench_stall_trace (start);
      bench_frames_trace (start);
    }
  vte_terminal_spawn_async (VTE_TERMINAL (terminal), VTE_PTY_DEFAULT, NULL,
                            (char *[]) { (char *) "/bin/sh", (char *) "-c", script, NULL },
                            NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, -1, NULL,
                            spawned_cb, NULL);
  while (!run.exited)
    g_main_context_iteration (NULL, TRUE);
  elapsed = (g_get_monotonic_time () - start) / 1000.0;
  *stall_ms = bench_stall_take_ms ();
  *frame_ms = bench_frames_take_longest_ms ();
  bench_stall_unwatch ();
  bench_stall_trace (0);
  bench_frames_trace (0);

  if (run.status != 0)
    {
      g_printerr ("The flood command failed (status %d)\n", run.status);
      exit (EXIT_FAILURE);
    }

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  return elapsed;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = NULL;
  g_autoptr(GArray) vte_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) vte_stalls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste_stalls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) vte_frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste_frames = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *times[2];
  GArray *stalls[2];
  GArray *frames[2];
  g_autofree char *line = NULL;
  g_autofree char *output = NULL;
  int megabytes = 100;
  int runs = 3;
  double t[2];
  double s[2];
  double f[2];
  GOptionEntry entries[] = {
    { "megabytes", 'm', 0, G_OPTION_ARG_INT, &megabytes, "Megabytes of output per run", "N" },
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Runs of each terminal", "N" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Append the result line to FILE", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("- a flood of output through Kiste's terminal and a plain one");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || megabytes < 1 || runs < 1)
    {
      g_printerr ("%s\n", error ? error->message : "--megabytes and --runs must be positive");
      return EXIT_FAILURE;
    }

  adw_init ();
  settings = g_settings_new (APP_ID);

  times[0] = vte_times;
  times[1] = kiste_times;
  stalls[0] = vte_stalls;
  stalls[1] = kiste_stalls;
  frames[0] = vte_frames;
  frames[1] = kiste_frames;

  /* in turns, first one then the other, so load on the machine hits both */
  for (int i = 0; i < runs; i++)
    for (guint j = 0; j < 2; j++)
      {
        guint k = (i + j) % 2;
        double stall;
        double frame;
        double elapsed = measure (k == 1, settings, megabytes, &stall, &frame);

        g_array_append_val (times[k], elapsed);
        g_array_append_val (stalls[k], stall);
        g_array_append_val (frames[k], frame);
      }

  for (guint k = 0; k < 2; k++)
    {
      t[k] = bench_median (times[k]);
      s[k] = bench_median (stalls[k]);
      f[k] = bench_median (frames[k]);
    }

  line = g_strdup_printf ("terminal %4d MB  vte_ms %8.0f  kiste_ms %8.0f  kiste/vte %.2f  "
                          "stall_vte %6.1f  stall_kiste %6.1f  frame_vte %6.1f  frame_kiste %6.1f  "
                          "(ms, medians of %d)\n",
                          megabytes, t[0], t[1], t[1] / t[0], s[0], s[1], f[0], f[1], runs);
  g_print ("%s", line);

  if (output != NULL && !bench_append_line (output, NULL, line))
    return EXIT_FAILURE;

  return EXIT_SUCCESS;
}
