/* kiste-task.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  KISTE_TASK_RUNNING,
  KISTE_TASK_SUCCEEDED,
  KISTE_TASK_FAILED,
  KISTE_TASK_CANCELLED,
} KisteTaskState;

#define KISTE_TYPE_TASK (kiste_task_get_type ())

G_DECLARE_FINAL_TYPE (KisteTask, kiste_task, KISTE, TASK, GObject)

/* One long operation as people see it: what it does, to which box, how far
 * it got, what it printed and how it ended. The manager makes them; the
 * window lists them. */
KisteTask      *kiste_task_new              (const char    *title,
                                             const char    *box_name,
                                             GCancellable  *cancellable);
const char     *kiste_task_get_title        (KisteTask     *self);
const char     *kiste_task_get_box_name     (KisteTask     *self);
KisteTaskState  kiste_task_get_state        (KisteTask     *self);
gboolean        kiste_task_get_running      (KisteTask     *self);
/* The current step ("Setting up sudo…"), or NULL */
const char     *kiste_task_get_step         (KisteTask     *self);
void            kiste_task_set_step         (KisteTask     *self,
                                             const char    *step);
/* 0..1, or -1 when progress cannot be measured */
double          kiste_task_get_fraction     (KisteTask     *self);
void            kiste_task_set_fraction     (KisteTask     *self,
                                             double         fraction);
/* A step that moves bytes: what (a step's words), done of total as the
 * fraction, and the step "WHAT: 1.2 GB of 3.4 GB, about 2 minutes left"
 * from the pace since this step began (a new what, or done 0) */
void            kiste_task_set_bytes        (KisteTask     *self,
                                             const char    *what,
                                             guint64        done,
                                             guint64        total);
/* "less than a minute left", "about 3 minutes left", "about 2 hours left" */
char           *kiste_task_format_time_left (guint64        seconds);
/* Everything the commands printed, one line after another */
const char     *kiste_task_get_output       (KisteTask     *self);
/* Adds a line as a terminal would have shown it at last: without escape
 * sequences, and of "\r" redraws the last; "line" gets the same text */
void            kiste_task_append_line      (KisteTask     *self,
                                             const char    *line);
const GError   *kiste_task_get_error        (KisteTask     *self);
/* What to tell people when the task ends well or badly; either may be NULL */
void            kiste_task_set_messages     (KisteTask     *self,
                                             const char    *done_message,
                                             const char    *failed_message);
const char     *kiste_task_get_done_message (KisteTask     *self);
const char     *kiste_task_get_failed_message (KisteTask   *self);
gboolean        kiste_task_get_cancellable_by_user (KisteTask *self);
void            kiste_task_set_cancellable_by_user (KisteTask *self,
                                                    gboolean   cancellable);
GCancellable   *kiste_task_get_cancellable  (KisteTask     *self);
void            kiste_task_cancel           (KisteTask     *self);
GDateTime      *kiste_task_get_started      (KisteTask     *self);
/* Ends the task; error NULL means success. Emits "finished" once. */
void            kiste_task_finish           (KisteTask     *self,
                                             const GError  *error);

G_END_DECLS
