/* kiste-start-monitor-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The start monitor's state and the functions its files share:
 * kiste-start-monitor.c        the object, its properties and signals
 * kiste-start-monitor-parse.c  steps, log lines, inspect output
 * kiste-start-monitor-run.c    one start followed to its end */

#pragma once

#include "kiste-start-monitor-private.h"

G_BEGIN_DECLS

struct _KisteStartMonitor
{
  GObject       parent_instance;

  KisteRunner  *runner;
  char         *box_name;
  char         *manager;
  char         *step;
  double        fraction;
  /* Where the current step began and where the next one begins: output
   * within a step (the package manager's) moves the bar between them */
  double        step_start;
  double        step_end;
  guint         step_lines;
  guint         timeout_ms;
  guint         watch_interval_ms;
  guint         init : 1;
  guint         blind_start : 1;
  guint         follow_only : 1;

  /* The start being followed; NULL when idle. */
  GTask        *task;
  /* Cancels this run's processes without touching the caller's. */
  GCancellable *run_cancellable;
  GSource      *cancel_source;
  GSource      *timeout_source;
  GSource      *watch_source;
  GSource      *grace_source;
  GQueue        last_lines;
  /* Bumped when a run ends, so that late callbacks of it do nothing. */
  guint         generation;
  guint         state_pending : 1;
  guint         box_stopped : 1;
  guint         stream_ended : 1;
  /* Started without a log to follow: running is all there is to wait for. */
  guint         blind : 1;
};

/* kiste-start-monitor.c: setters that notify, signal emission */
void   _kiste_start_monitor_set_step           (KisteStartMonitor *self,
                                                const char        *step);
void   _kiste_start_monitor_set_fraction       (KisteStartMonitor *self,
                                                double             fraction);
void   _kiste_start_monitor_emit_line          (KisteStartMonitor *self,
                                                const char        *line);
void   _kiste_start_monitor_emit_warning       (KisteStartMonitor *self,
                                                const char        *text);

/* kiste-start-monitor-parse.c */
double _kiste_start_monitor_next_step_fraction (const char        *step,
                                                gboolean           init);

G_END_DECLS
