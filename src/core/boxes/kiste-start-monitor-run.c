/* kiste-start-monitor-run.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* One start followed to its end: the box started (or not, when only
 * following), its log streamed line by line, its state polled, the
 * timeout, cancelling, and the error it ends with. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-start-monitor-state-private.h"

/* Queries of the box's state that take longer are skipped, not fatal. */
#define STATE_TIMEOUT_MS          (15 * 1000)
/* After the box is seen stopped, its last log lines may still be on their
 * way; an "Error:" among them explains more than "it stopped". */
#define DEATH_GRACE_MS            1500
#define N_LAST_LINES              8
/* Output lines after which a step has gone half its way: a first start's
 * package phase prints about a thousand */
#define STEP_HALF_LINES           150

static gboolean
state_is_alive (const char *state)
{
  /* "paused" is odd during a start but not the end of it. */
  return g_strcmp0 (state, "running") == 0 ||
         g_strcmp0 (state, "paused") == 0 ||
         g_strcmp0 (state, "restarting") == 0;
}

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
remember_line (KisteStartMonitor *self,
               const char        *line)
{
  g_queue_push_tail (&self->last_lines, g_strdup (line));
  while (self->last_lines.length > N_LAST_LINES)
    g_free (g_queue_pop_head (&self->last_lines));
}

static char *
dup_last_lines (KisteStartMonitor *self)
{
  g_autoptr(GString) str = g_string_new (NULL);

  for (GList *l = self->last_lines.head; l != NULL; l = l->next)
    {
      if (str->len > 0)
        g_string_append_c (str, '\n');
      g_string_append (str, l->data);
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* Ends the current run: takes error (NULL for success). */
static void
complete (KisteStartMonitor *self,
          GError            *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  self->generation++;

  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  g_clear_object (&self->run_cancellable);
  clear_source (&self->cancel_source);
  clear_source (&self->timeout_source);
  clear_source (&self->watch_source);
  clear_source (&self->grace_source);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  _kiste_start_monitor_set_fraction (self, 1.0);
  g_task_return_boolean (task, TRUE);
}

static void
complete_stopped (KisteStartMonitor *self)
{
  g_autofree char *last = dup_last_lines (self);

  if (last[0] == '\0')
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                 _("The box “%s” stopped during its first start."),
                                 self->box_name));
  else
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                 _("The box “%s” stopped during its first start. Its last messages were:\n%s"),
                                 self->box_name, last));
}

/* A callback's tie to the run it belongs to. */
typedef struct
{
  KisteStartMonitor *self;
  guint              generation;
} RunRef;

static RunRef *
run_ref_new (KisteStartMonitor *self)
{
  RunRef *ref = g_new0 (RunRef, 1);

  ref->self = g_object_ref (self);
  ref->generation = self->generation;

  return ref;
}

static void
run_ref_free (RunRef *ref)
{
  g_clear_object (&ref->self);
  g_free (ref);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RunRef, run_ref_free)

static gboolean
run_ref_is_current (RunRef *ref)
{
  return ref->self->task != NULL && ref->self->generation == ref->generation;
}

static GSource *
add_timeout (KisteStartMonitor *self,
             guint              interval_ms,
             GSourceFunc        func)
{
  GSource *source = g_timeout_source_new (interval_ms);

  g_source_set_callback (source, func, run_ref_new (self), (GDestroyNotify) run_ref_free);
  g_source_attach (source, g_main_context_get_thread_default ());

  return source;
}

static gboolean
grace_cb (gpointer data)
{
  RunRef *ref = data;

  if (run_ref_is_current (ref))
    {
      g_clear_pointer (&ref->self->grace_source, g_source_unref);
      complete_stopped (ref->self);
    }

  return G_SOURCE_REMOVE;
}

static void
box_stopped (KisteStartMonitor *self)
{
  if (self->stream_ended)
    {
      complete_stopped (self);
      return;
    }

  /* Give the log a moment to deliver an "Error:" line. */
  if (!self->box_stopped)
    {
      self->box_stopped = TRUE;
      clear_source (&self->watch_source);
      self->grace_source = add_timeout (self, DEATH_GRACE_MS, grace_cb);
    }
}

static void
state_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error))
    {
      if (!run_ref_is_current (ref))
        return;

      self->state_pending = FALSE;

      /* A slow podman is no reason to give up; a box that is gone is. */
      if (g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT))
        return;

      g_debug ("State of %s unknown: %s", self->box_name, error->message);
      box_stopped (self);
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  self->state_pending = FALSE;
  g_strstrip (stdout_buf);

  if (!state_is_alive (stdout_buf))
    {
      box_stopped (self);
      return;
    }

  if (self->blind)
    {
      complete (self, NULL);
      return;
    }

  /* The log ended while the box still runs: nothing more will come. */
  if (self->stream_ended)
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                 _("The log of the box “%s” ended before its setup was done."),
                                 self->box_name));
}

static void
check_state (KisteStartMonitor *self)
{
  g_auto(GStrv) argv = NULL;

  if (self->state_pending)
    return;

  self->state_pending = TRUE;
  argv = kiste_commands_state_argv (self->manager, self->box_name);
  kiste_runner_run_async (self->runner, (const char * const *) argv, STATE_TIMEOUT_MS,
                          self->run_cancellable, state_cb, run_ref_new (self));
}

static gboolean
watch_cb (gpointer data)
{
  RunRef *ref = data;

  if (!run_ref_is_current (ref))
    return G_SOURCE_REMOVE;

  check_state (ref->self);

  return G_SOURCE_CONTINUE;
}

static gboolean
timeout_cb (gpointer data)
{
  RunRef *ref = data;
  KisteStartMonitor *self = ref->self;
  g_autofree char *last = NULL;
  g_autofree char *message = NULL;

  if (!run_ref_is_current (ref))
    return G_SOURCE_REMOVE;

  g_clear_pointer (&self->timeout_source, g_source_unref);

  if (self->timeout_ms >= 60000 && self->timeout_ms % 60000 == 0)
    {
      guint minutes = self->timeout_ms / 60000;

      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The box “%s” did not finish its setup within %u minute.",
                                              "The box “%s” did not finish its setup within %u minutes.",
                                              minutes),
                                 self->box_name, minutes);
    }
  else
    {
      guint seconds = MAX (1, (self->timeout_ms + 999) / 1000);

      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The box “%s” did not finish its setup within %u second.",
                                              "The box “%s” did not finish its setup within %u seconds.",
                                              seconds),
                                 self->box_name, seconds);
    }

  last = dup_last_lines (self);
  if (last[0] != '\0')
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_TIMED_OUT,
                                 /* Translators: a message, then the last lines of a log */
                                 _("%s Its last messages were:\n%s"), message, last));
  else
    complete (self, g_error_new_literal (KISTE_ERROR, KISTE_ERROR_TIMED_OUT, message));

  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      data)
{
  RunRef *ref = data;

  if (run_ref_is_current (ref))
    {
      g_clear_pointer (&ref->self->cancel_source, g_source_unref);
      /* Only the following stops; the box goes on starting. */
      complete (ref->self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                _("Following the start was cancelled.")));
    }

  return G_SOURCE_REMOVE;
}

static void
line_cb (const char *line,
         gboolean    is_stderr,
         gpointer    user_data)
{
  RunRef *ref = user_data;
  g_autoptr(KisteStartMonitor) self = g_object_ref (ref->self);
  g_autofree char *text = NULL;
  KisteStartLineKind kind;

  if (!run_ref_is_current (ref))
    return;

  _kiste_start_monitor_emit_line (self, line);
  if (!run_ref_is_current (ref))
    return;

  kiste_start_monitor_parse_line (line, &kind, &text);

  /* Trace lines included: they show the command the setup was running. */
  if (line[0] != '\0')
    remember_line (self, line);

  switch (kind)
    {
    case KISTE_START_LINE_STEP:
      {
        const char *step = strchr (line, ':') + 1;
        g_autofree char *marker = g_strstrip (g_strdup (step));
        double fraction = kiste_start_monitor_step_fraction (marker, self->init);

        /* Fraction first, so that a step handler sees both up to date */
        if (fraction > self->fraction)
          _kiste_start_monitor_set_fraction (self, fraction);
        self->step_start = self->fraction;
        self->step_end = MAX (self->fraction, _kiste_start_monitor_next_step_fraction (marker, self->init));
        self->step_lines = 0;
        _kiste_start_monitor_set_step (self, text);
      }
      break;

    case KISTE_START_LINE_OTHER:
    case KISTE_START_LINE_TRACE:
      /* Work inside a step: closer to the next one with every line, never
       * quite there, in steps the bar shows */
      if (self->step_end > self->step_start)
        {
          double lines = ++self->step_lines;
          double share = lines / (lines + STEP_HALF_LINES);
          double fraction = self->step_start + (self->step_end - self->step_start) * 0.95 * share;

          if (fraction - self->fraction >= 0.002)
            _kiste_start_monitor_set_fraction (self, fraction);
        }
      break;

    case KISTE_START_LINE_WARNING:
      _kiste_start_monitor_emit_warning (self, text);
      break;

    case KISTE_START_LINE_ERROR:
      complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                   _("The setup of the box “%s” failed: %s"),
                                   self->box_name, text));
      break;

    case KISTE_START_LINE_DONE:
      complete (self, NULL);
      break;

    default:
      break;
    }
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;

  kiste_runner_stream_finish (KISTE_RUNNER (object), result, &error);

  if (!run_ref_is_current (ref))
    return;

  if (error != NULL)
    g_debug ("Following the log of %s ended: %s", self->box_name, error->message);

  /* `logs --follow` ends when the box stops. */
  self->stream_ended = TRUE;
  if (self->box_stopped)
    {
      clear_source (&self->grace_source);
      complete_stopped (self);
      return;
    }

  /* Ask once more whatever a pending query says. */
  self->state_pending = FALSE;
  check_state (self);
}

static void
follow_log (KisteStartMonitor *self,
            const char        *since)
{
  g_auto(GStrv) argv = kiste_commands_logs_argv (self->manager, self->box_name, since, TRUE);

  /* podman logs writes the box's stdout and stderr to its own: one pipe
   * keeps init's trace and its steps in their order */
  kiste_runner_stream_merged_async (self->runner, (const char * const *) argv, 0,
                                    line_cb, run_ref_new (self), (GDestroyNotify) run_ref_free,
                                    self->run_cancellable, stream_cb, run_ref_new (self));

  if (self->watch_interval_ms > 0)
    self->watch_source = add_timeout (self, self->watch_interval_ms, watch_cb);
}

static void
blind_start_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (ref->self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  /* No log to follow: once it runs, that is all there is to know. */
  ref->self->blind = TRUE;
  ref->self->stream_ended = TRUE;
  check_state (ref->self);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  g_autoptr(GError) error = NULL;
  KisteStartMonitor *self = ref->self;
  const char *since;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  since = g_task_get_task_data (self->task);
  follow_log (self, since);
}

static void
start_box (KisteStartMonitor *self,
           GAsyncReadyCallback callback)
{
  g_auto(GStrv) argv = kiste_commands_start_argv (self->manager, self->box_name);

  kiste_runner_run_async (self->runner, (const char * const *) argv, 0,
                          self->run_cancellable, callback, run_ref_new (self));
}

static void
inspect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;
  g_autofree char *status = NULL;
  g_autofree char *started_at = NULL;
  g_autofree char *log_driver = NULL;
  gboolean running;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  if (!kiste_start_monitor_parse_inspect (stdout_buf, &status, &started_at, &log_driver, &error))
    {
      complete (self, g_steal_pointer (&error));
      return;
    }

  running = g_strcmp0 (status, "running") == 0;

  /* Following a box started elsewhere: one that does not run (or whose
   * log says nothing) has no setup to follow, and is never started here */
  if (self->follow_only && (!running || !kiste_start_monitor_log_driver_is_readable (log_driver)))
    {
      complete (self, NULL);
      return;
    }

  if (!kiste_start_monitor_log_driver_is_readable (log_driver))
    {
      /* As distrobox enter: a running box has nothing left to wait for. */
      if (running)
        {
          complete (self, NULL);
          return;
        }

      if (!self->blind_start)
        {
          complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                       _("The box “%s” writes its log to “%s”, where its start "
                                         "cannot be followed, so its first start could wait "
                                         "forever. Recreate it with the k8s-file log driver "
                                         "(--additional-flags \"--log-driver=k8s-file\"), or "
                                         "start it without following its progress."),
                                       self->box_name, log_driver));
          return;
        }

      _kiste_start_monitor_emit_warning (self,
                                     _("The progress of this start cannot be shown."));
      start_box (self, blind_start_cb);
      return;
    }

  if (running)
    {
      /* It may still be in its setup, or long done: its log since it was
       * started says which, at once in the second case. */
      if (started_at == NULL || started_at[0] == '\0' || started_at[0] == '-')
        {
          complete (self, NULL);
          return;
        }

      _kiste_start_monitor_set_step (self, _("Waiting for the box’s setup…"));
      follow_log (self, started_at);
      return;
    }

  start_box (self, start_cb);
}

void
kiste_start_monitor_start_async (KisteStartMonitor   *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_START_MONITOR (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_start_monitor_start_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BUSY,
                               _("The start of the box “%s” is already being followed."),
                               self->box_name);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* Taken before the start, so that the log holds all of this start and
   * nothing of an earlier one. */
  now = g_date_time_new_now_utc ();
  g_task_set_task_data (task, kiste_commands_format_since (now), g_free);

  self->task = g_steal_pointer (&task);
  self->run_cancellable = g_cancellable_new ();
  self->state_pending = FALSE;
  self->box_stopped = FALSE;
  self->stream_ended = FALSE;
  self->blind = FALSE;
  g_queue_clear_full (&self->last_lines, g_free);
  _kiste_start_monitor_set_step (self, _("Starting…"));
  _kiste_start_monitor_set_fraction (self, 0.0);
  self->step_start = self->step_end = 0.0;
  self->step_lines = 0;

  if (cancellable != NULL)
    {
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (cancelled_cb),
                             run_ref_new (self), (GDestroyNotify) run_ref_free);
      g_source_attach (self->cancel_source, g_main_context_get_thread_default ());
    }

  if (self->timeout_ms > 0)
    self->timeout_source = add_timeout (self, self->timeout_ms, timeout_cb);

  argv = kiste_commands_inspect_argv (self->manager, self->box_name);
  kiste_runner_run_async (self->runner, (const char * const *) argv, 0,
                          self->run_cancellable, inspect_cb, run_ref_new (self));
}

gboolean
kiste_start_monitor_start_finish (KisteStartMonitor  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_start_monitor_start_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
