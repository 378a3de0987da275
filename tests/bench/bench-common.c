/* bench-common.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-common.h"
#include "kiste-manager.h"

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

double
bench_median_of (double *values,
                 guint   n)
{
  if (n == 0)
    return 0.0;

  qsort (values, n, sizeof (double), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double
bench_median (GArray *values)
{
  return bench_median_of ((double *) (gpointer) values->data, values->len);
}

static gint64 last_ping;
static gint64 longest_gap;
static guint ping_id;
static gint64 trace_from;

static gboolean
ping_cb (gpointer user_data)
{
  gint64 now = g_get_monotonic_time ();

  if (trace_from != 0 && now - last_ping > 10000)
    g_printerr ("stall %7.1f ms at %7.1f ms\n", (now - last_ping) / 1000.0, (last_ping - trace_from) / 1000.0);
  longest_gap = MAX (longest_gap, now - last_ping);
  last_ping = now;
  return G_SOURCE_CONTINUE;
}

void
bench_stall_watch (int priority)
{
  bench_stall_reset ();
  if (ping_id == 0)
    ping_id = g_timeout_add_full (priority, 2, ping_cb, NULL, NULL);
}

void
bench_stall_unwatch (void)
{
  g_clear_handle_id (&ping_id, g_source_remove);
}

void
bench_stall_trace (gint64 from)
{
  trace_from = from;
}

void
bench_stall_reset (void)
{
  last_ping = g_get_monotonic_time ();
  longest_gap = 0;
}

double
bench_stall_take_ms (void)
{
  ping_cb (NULL);
  return MAX (0, longest_gap - 2000) / 1000.0;
}

gboolean
bench_append_line (const char *path,
                   const char *header,
                   const char *line)
{
  FILE *file = fopen (path, "a");

  if (file == NULL)
    {
      g_printerr ("Cannot write %s\n", path);
      return FALSE;
    }
  if (header != NULL && ftell (file) == 0)
    fputs (header, file);
  fputs (line, file);
  fclose (file);
  return TRUE;
}

void
bench_spawn (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s", argv[0], error->message);
}

void
bench_spawn_quietly (const char * const *argv)
{
  g_spawn_sync (NULL, (char **) argv, NULL,
                G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL | G_SPAWN_STDOUT_TO_DEV_NULL |
                G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, NULL, NULL);
}

gboolean bench_done;

void
bench_run_until_done (void)
{
  bench_done = FALSE;
  while (!bench_done)
    g_main_context_iteration (NULL, TRUE);
}

void
bench_operation_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GError **error = user_data;

  kiste_manager_operation_finish (KISTE_MANAGER (object), result, error);
  bench_done = TRUE;
}
