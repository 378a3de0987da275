/* bench-frames.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "bench-frames.h"

static const char *phase_names[] = { "flush-events", "update", "layout", "paint", "after-paint" };
static gint64 phase_start[G_N_ELEMENTS (phase_names)];
static gint64 first_length;
static gint64 longest;
static gint64 trace_from;

static gboolean
phase_hook_cb (GSignalInvocationHint *hint,
               guint                  n_values,
               const GValue          *values,
               gpointer               phase)
{
  phase_start[GPOINTER_TO_UINT (phase)] = g_get_monotonic_time ();
  return TRUE;
}

static void
after_paint_cb (GdkFrameClock *clock,
                gpointer       user_data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 start = 0;

  for (guint i = 0; i < G_N_ELEMENTS (phase_names) && start == 0; i++)
    start = phase_start[i];
  if (start == 0)
    return;

  if (first_length == 0)
    first_length = now - start;
  longest = MAX (longest, now - start);

  if (trace_from != 0 && now - start > 10000)
    {
      g_autoptr(GString) line = g_string_new (NULL);

      g_string_printf (line, "frame %7.1f ms at %7.1f ms:", (now - start) / 1000.0, (start - trace_from) / 1000.0);
      for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
        {
          gint64 end = now;

          if (phase_start[i] == 0)
            continue;
          for (guint j = i + 1; j < G_N_ELEMENTS (phase_names) && end == now; j++)
            end = phase_start[j] != 0 ? phase_start[j] : now;
          g_string_append_printf (line, " %s %.1f", phase_names[i], (end - phase_start[i]) / 1000.0);
        }
      g_printerr ("%s\n", line->str);
    }
  memset (phase_start, 0, sizeof phase_start);
}

void
bench_frames_watch (GtkWidget *widget)
{
  static gboolean hooked;

  if (!hooked)
    {
      for (guint i = 0; i < G_N_ELEMENTS (phase_names); i++)
        g_signal_add_emission_hook (g_signal_lookup (phase_names[i], GDK_TYPE_FRAME_CLOCK), 0,
                                    phase_hook_cb, GUINT_TO_POINTER (i), NULL);
      hooked = TRUE;
    }
  g_signal_connect (gtk_widget_get_frame_clock (widget), "after-paint", G_CALLBACK (after_paint_cb), NULL);
}

gint64
bench_frames_get_first (void)
{
  return first_length;
}

double
bench_frames_take_longest_ms (void)
{
  double ms = longest / 1000.0;

  longest = 0;
  return ms;
}

void
bench_frames_trace (gint64 from)
{
  trace_from = from;
}
