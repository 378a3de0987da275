/* kiste-task.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-runner.h"
#include "kiste-task.h"

/* Output beyond this is dropped from the front: an upgrade can print a lot */
#define MAX_OUTPUT (256 * 1024)

struct _KisteTask
{
  GObject         parent_instance;

  char           *title;
  char           *box_name;
  char           *step;
  char           *done_message;
  char           *failed_message;
  GString        *output;
  GError         *error;
  GCancellable   *cancellable;
  GDateTime      *started;
  double          fraction;
  /* kiste_task_set_bytes(): the step's words and when it began */
  char           *bytes_what;
  gint64          bytes_started;
  KisteTaskState  state;
  guint           cancellable_by_user : 1;
};

G_DEFINE_FINAL_TYPE (KisteTask, kiste_task, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_BOX_NAME,
  PROP_STATE,
  PROP_RUNNING,
  PROP_STEP,
  PROP_FRACTION,
  PROP_CANCELLABLE_BY_USER,
  N_PROPS
};

enum {
  LINE,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

KisteTask *
kiste_task_new (const char   *title,
                const char   *box_name,
                GCancellable *cancellable)
{
  KisteTask *self;

  g_return_val_if_fail (title != NULL, NULL);

  self = g_object_new (KISTE_TYPE_TASK, NULL);
  self->title = g_strdup (title);
  self->box_name = g_strdup (box_name);
  self->cancellable = cancellable ? g_object_ref (cancellable) : g_cancellable_new ();
  return self;
}

const char *
kiste_task_get_title (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->title;
}

const char *
kiste_task_get_box_name (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->box_name;
}

KisteTaskState
kiste_task_get_state (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), KISTE_TASK_FAILED);
  return self->state;
}

gboolean
kiste_task_get_running (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), FALSE);
  return self->state == KISTE_TASK_RUNNING;
}

const char *
kiste_task_get_step (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->step;
}

void
kiste_task_set_step (KisteTask  *self,
                     const char *step)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  if (g_set_str (&self->step, step))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

char *
kiste_task_format_time_left (guint64 seconds)
{
  guint64 minutes = (seconds + 30) / 60;
  guint64 hours = (seconds + 1800) / 3600;

  if (seconds < 60)
    return g_strdup (_("less than a minute left"));
  if (minutes < 60)
    return g_strdup_printf (ngettext ("about %u minute left", "about %u minutes left",
                                      (gulong) minutes), (guint) minutes);
  hours = MIN (hours, 999);
  return g_strdup_printf (ngettext ("about %u hour left", "about %u hours left", (gulong) hours),
                          (guint) hours);
}

void
kiste_task_set_bytes (KisteTask  *self,
                      const char *what,
                      guint64     done,
                      guint64     total)
{
  g_autofree char *done_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *step = NULL;
  gint64 now = g_get_monotonic_time ();
  gint64 elapsed;

  g_return_if_fail (KISTE_IS_TASK (self));
  g_return_if_fail (what != NULL);

  if (done == 0 || g_strcmp0 (self->bytes_what, what) != 0)
    {
      g_set_str (&self->bytes_what, what);
      self->bytes_started = now;
    }
  done = MIN (done, total);
  elapsed = now - self->bytes_started;
  done_text = g_format_size (done);
  total_text = g_format_size (total);
  /* the pace says something once it has run for a moment */
  if (done > 0 && done < total && elapsed >= 2 * G_USEC_PER_SEC)
    {
      guint64 left = (guint64) ((double) elapsed / G_USEC_PER_SEC * (double) (total - done) /
                                (double) done);
      g_autofree char *left_text = kiste_task_format_time_left (left);

      /* Translators: a step, the bytes done of all, and the time left */
      step = g_strdup_printf (_("%s: %s of %s, %s"), what, done_text, total_text, left_text);
    }
  else
    /* Translators: a step and the bytes done of all */
    step = g_strdup_printf (_("%s: %s of %s"), what, done_text, total_text);
  kiste_task_set_step (self, step);
  kiste_task_set_fraction (self, total > 0 ? (double) done / (double) total : -1);
}

double
kiste_task_get_fraction (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), -1);
  return self->fraction;
}

void
kiste_task_set_fraction (KisteTask *self,
                         double     fraction)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  if (fraction >= 0)
    fraction = CLAMP (fraction, 0.0, 1.0);
  else
    fraction = -1;

  if (self->fraction != fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
}

const char *
kiste_task_get_output (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->output->str;
}

void
kiste_task_append_line (KisteTask  *self,
                        const char *raw)
{
  g_autofree char *stripped = NULL;
  g_auto(GStrv) segments = NULL;
  const char *line = "";

  g_return_if_fail (KISTE_IS_TASK (self));
  g_return_if_fail (raw != NULL);

  /* as people last saw it on a terminal: no colour codes, and of a line
   * that redraws itself with "\r" only its last state */
  stripped = kiste_strip_terminal_escapes (raw);
  segments = g_strsplit (stripped, "\r", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    if (segments[i][0] != '\0')
      line = segments[i];

  g_string_append (self->output, line);
  g_string_append_c (self->output, '\n');

  if (self->output->len > MAX_OUTPUT)
    {
      const char *cut = strchr (self->output->str + (self->output->len - MAX_OUTPUT), '\n');

      if (cut != NULL)
        g_string_erase (self->output, 0, cut + 1 - self->output->str);
    }

  g_signal_emit (self, signals[LINE], 0, line);
}

const GError *
kiste_task_get_error (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->error;
}

void
kiste_task_set_messages (KisteTask  *self,
                         const char *done_message,
                         const char *failed_message)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  g_set_str (&self->done_message, done_message);
  g_set_str (&self->failed_message, failed_message);
}

const char *
kiste_task_get_done_message (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->done_message;
}

const char *
kiste_task_get_failed_message (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->failed_message;
}

gboolean
kiste_task_get_cancellable_by_user (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), FALSE);
  return self->cancellable_by_user && self->state == KISTE_TASK_RUNNING;
}

void
kiste_task_set_cancellable_by_user (KisteTask *self,
                                    gboolean   cancellable)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  cancellable = !!cancellable;
  if (self->cancellable_by_user != cancellable)
    {
      self->cancellable_by_user = cancellable;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLABLE_BY_USER]);
    }
}

GCancellable *
kiste_task_get_cancellable (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->cancellable;
}

void
kiste_task_cancel (KisteTask *self)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  if (self->state == KISTE_TASK_RUNNING)
    g_cancellable_cancel (self->cancellable);
}

GDateTime *
kiste_task_get_started (KisteTask *self)
{
  g_return_val_if_fail (KISTE_IS_TASK (self), NULL);
  return self->started;
}

void
kiste_task_finish (KisteTask    *self,
                   const GError *error)
{
  g_return_if_fail (KISTE_IS_TASK (self));

  if (self->state != KISTE_TASK_RUNNING)
    return;

  if (error == NULL)
    {
      self->state = KISTE_TASK_SUCCEEDED;
      if (self->fraction >= 0)
        kiste_task_set_fraction (self, 1.0);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    self->state = KISTE_TASK_CANCELLED;
  else
    {
      self->state = KISTE_TASK_FAILED;
      self->error = g_error_copy (error);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CANCELLABLE_BY_USER]);
  g_signal_emit (self, signals[FINISHED], 0);
}

static void
kiste_task_finalize (GObject *object)
{
  KisteTask *self = KISTE_TASK (object);

  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->box_name, g_free);
  g_clear_pointer (&self->step, g_free);
  g_clear_pointer (&self->bytes_what, g_free);
  g_clear_pointer (&self->done_message, g_free);
  g_clear_pointer (&self->failed_message, g_free);
  g_string_free (self->output, TRUE);
  g_clear_error (&self->error);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->started, g_date_time_unref);

  G_OBJECT_CLASS (kiste_task_parent_class)->finalize (object);
}

static void
kiste_task_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  KisteTask *self = KISTE_TASK (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;

    case PROP_BOX_NAME:
      g_value_set_string (value, self->box_name);
      break;

    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    case PROP_RUNNING:
      g_value_set_boolean (value, kiste_task_get_running (self));
      break;

    case PROP_STEP:
      g_value_set_string (value, self->step);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_CANCELLABLE_BY_USER:
      g_value_set_boolean (value, kiste_task_get_cancellable_by_user (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_task_class_init (KisteTaskClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_task_finalize;
  object_class->get_property = kiste_task_get_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BOX_NAME] =
    g_param_spec_string ("box-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      KISTE_TASK_RUNNING, KISTE_TASK_CANCELLED, KISTE_TASK_RUNNING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STEP] =
    g_param_spec_string ("step", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, -1, 1, -1,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CANCELLABLE_BY_USER] =
    g_param_spec_boolean ("cancellable-by-user", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[LINE] =
    g_signal_new ("line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[FINISHED] =
    g_signal_new ("finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
kiste_task_init (KisteTask *self)
{
  self->output = g_string_new (NULL);
  self->fraction = -1;
  self->started = g_date_time_new_now_local ();
}
