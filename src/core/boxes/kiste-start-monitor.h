/* kiste-start-monitor.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-runner.h"

G_BEGIN_DECLS

/* Starts a box and follows its setup the way distrobox enter does: the box's
 * log (`podman logs --follow --since TS`) from `podman start` on, until the
 * init script prints container_setup_done. */

typedef enum
{
  KISTE_START_LINE_OTHER,   /* package manager output and the like */
  KISTE_START_LINE_TRACE,   /* "+ …": the init script's shell trace */
  KISTE_START_LINE_STEP,    /* "distrobox: <step>" */
  KISTE_START_LINE_WARNING, /* "Warning: …" */
  KISTE_START_LINE_ERROR,   /* "Error: …": the setup failed */
  KISTE_START_LINE_DONE,    /* "container_setup_done": the box is ready */
} KisteStartLineKind;

#define KISTE_TYPE_START_MONITOR (kiste_start_monitor_get_type ())

G_DECLARE_FINAL_TYPE (KisteStartMonitor, kiste_start_monitor, KISTE, START_MONITOR, GObject)

/* manager NULL means the runner's (kiste_runner_get_manager()). */
KisteStartMonitor *kiste_start_monitor_new                (KisteRunner         *runner,
                                                           const char          *box_name,
                                                           const char          *manager);

/* The current step for people ("Installing basic packages…") */
const char        *kiste_start_monitor_get_step           (KisteStartMonitor   *self);
/* 0 to 1, from the position of the last step among distrobox's known ones */
double             kiste_start_monitor_get_fraction       (KisteStartMonitor   *self);

/* Initful boxes (distrobox create --init) have two more steps; set from
 * kiste_box_get_init() before starting. */
void               kiste_start_monitor_set_init           (KisteStartMonitor   *self,
                                                           gboolean             init);

/* Overall limit in milliseconds, 0 for none. Default 10 minutes. */
guint              kiste_start_monitor_get_timeout        (KisteStartMonitor   *self);
void               kiste_start_monitor_set_timeout        (KisteStartMonitor   *self,
                                                           guint                timeout_ms);

/* For boxes whose log driver keeps `logs` empty (journald, none): FALSE
 * (the default) fails up front with KISTE_ERROR_BAD_OUTPUT explaining why;
 * TRUE starts the box anyway and finishes once it runs, without progress. */
void               kiste_start_monitor_set_blind_start    (KisteStartMonitor   *self,
                                                           gboolean             blind_start);

/* TRUE: never start the box; follow the setup of one that runs (started
 * elsewhere), and finish at once for one that does not run */
void               kiste_start_monitor_set_follow_only    (KisteStartMonitor   *self,
                                                           gboolean             follow_only);

/* Starts the box (unless it already runs) and finishes once its setup is
 * done; at once for a running box whose setup finished. Errors:
 * KISTE_ERROR_COMMAND_FAILED for an "Error:" line (the message holds it) or
 * a box that stopped on the way (with the last lines of its log),
 * KISTE_ERROR_TIMED_OUT, KISTE_ERROR_BAD_OUTPUT for a log that cannot be
 * read, G_IO_ERROR_CANCELLED. Cancelling stops following the log; the box
 * keeps running. KISTE_ERROR_BUSY while another start is being followed. */
void               kiste_start_monitor_start_async        (KisteStartMonitor   *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean           kiste_start_monitor_start_finish       (KisteStartMonitor   *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);

/* Classifies one log line. step_text (may be NULL) receives, for a step,
 * the step for people (translated for known steps), for a warning or error
 * the line without trailing blanks, else NULL. */
void               kiste_start_monitor_parse_line         (const char          *line,
                                                           KisteStartLineKind  *kind,
                                                           char               **step_text);

/* The fraction of the setup done when a step line (the text after
 * "distrobox: ") appears, or -1 for a step not in distrobox's list. */
double             kiste_start_monitor_step_fraction      (const char          *step,
                                                           gboolean             init);

/* FALSE for log drivers after which `logs` stays empty (journald, none,
 * passthrough); unknown or NULL drivers are assumed readable. */
gboolean           kiste_start_monitor_log_driver_is_readable (const char      *log_driver);

/* Reads `MANAGER container inspect NAME` output (podman or docker). Each
 * out value may be NULL; absent fields give NULL strings. */
gboolean           kiste_start_monitor_parse_inspect      (const char          *json,
                                                           char               **status,
                                                           char               **started_at,
                                                           char               **log_driver,
                                                           GError             **error);

G_END_DECLS
