/* kiste-start-monitor.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* KisteStartMonitor: a box's start followed through distrobox-init's
 * steps; its properties, signals and settings. */

#include "config.h"

#include "kiste-start-monitor-state-private.h"

#define DEFAULT_TIMEOUT_MS        (10 * 60 * 1000)
#define DEFAULT_WATCH_INTERVAL_MS 1000

G_DEFINE_FINAL_TYPE (KisteStartMonitor, kiste_start_monitor, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_BOX_NAME,
  PROP_MANAGER,
  PROP_STEP,
  PROP_FRACTION,
  PROP_INIT,
  PROP_TIMEOUT,
  PROP_BLIND_START,
  N_PROPS
};

enum {
  SIGNAL_LINE,
  SIGNAL_WARNING,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

void
_kiste_start_monitor_set_step (KisteStartMonitor *self,
                               const char        *step)
{
  if (g_set_str (&self->step, step))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

void
_kiste_start_monitor_set_fraction (KisteStartMonitor *self,
                                   double             fraction)
{
  fraction = CLAMP (fraction, 0.0, 1.0);
  if (self->fraction == fraction)
    return;

  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

void
_kiste_start_monitor_emit_line (KisteStartMonitor *self,
                                const char        *line)
{
  g_signal_emit (self, signals[SIGNAL_LINE], 0, line);
}

void
_kiste_start_monitor_emit_warning (KisteStartMonitor *self,
                                   const char        *text)
{
  g_signal_emit (self, signals[SIGNAL_WARNING], 0, text);
}

KisteStartMonitor *
kiste_start_monitor_new (KisteRunner *runner,
                         const char  *box_name,
                         const char  *manager)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0' && box_name[0] != '-', NULL);

  return g_object_new (KISTE_TYPE_START_MONITOR,
                       "runner", runner,
                       "box-name", box_name,
                       "manager", manager,
                       NULL);
}

const char *
kiste_start_monitor_get_step (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), NULL);

  return self->step;
}

double
kiste_start_monitor_get_fraction (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), 0.0);

  return self->fraction;
}

void
kiste_start_monitor_set_init (KisteStartMonitor *self,
                              gboolean           init)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  init = !!init;
  if (self->init == init)
    return;

  self->init = init;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INIT]);
}

guint
kiste_start_monitor_get_timeout (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), 0);

  return self->timeout_ms;
}

void
kiste_start_monitor_set_timeout (KisteStartMonitor *self,
                                 guint              timeout_ms)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  if (self->timeout_ms == timeout_ms)
    return;

  self->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

void
_kiste_start_monitor_set_watch_interval (KisteStartMonitor *self,
                                         guint              interval_ms)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  self->watch_interval_ms = interval_ms;
}

void
kiste_start_monitor_set_follow_only (KisteStartMonitor *self,
                                     gboolean           follow_only)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  self->follow_only = !!follow_only;
}

void
kiste_start_monitor_set_blind_start (KisteStartMonitor *self,
                                     gboolean           blind_start)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  blind_start = !!blind_start;
  if (self->blind_start == blind_start)
    return;

  self->blind_start = blind_start;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLIND_START]);
}

static void
kiste_start_monitor_constructed (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->constructed (object);

  g_assert (self->runner != NULL);

  if (self->manager == NULL)
    self->manager = g_strdup (kiste_runner_get_manager (self->runner));
  if (self->manager == NULL)
    self->manager = g_strdup ("podman");
}

static void
kiste_start_monitor_dispose (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  g_clear_object (&self->runner);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->dispose (object);
}

static void
kiste_start_monitor_finalize (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  g_clear_object (&self->run_cancellable);
  g_clear_pointer (&self->box_name, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->step, g_free);
  g_queue_clear_full (&self->last_lines, g_free);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->finalize (object);
}

static void
kiste_start_monitor_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;

    case PROP_BOX_NAME:
      g_value_set_string (value, self->box_name);
      break;

    case PROP_MANAGER:
      g_value_set_string (value, self->manager);
      break;

    case PROP_STEP:
      g_value_set_string (value, self->step);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_INIT:
      g_value_set_boolean (value, self->init);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_ms);
      break;

    case PROP_BLIND_START:
      g_value_set_boolean (value, self->blind_start);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_start_monitor_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      break;

    case PROP_BOX_NAME:
      self->box_name = g_value_dup_string (value);
      break;

    case PROP_MANAGER:
      self->manager = g_value_dup_string (value);
      break;

    case PROP_INIT:
      kiste_start_monitor_set_init (self, g_value_get_boolean (value));
      break;

    case PROP_TIMEOUT:
      kiste_start_monitor_set_timeout (self, g_value_get_uint (value));
      break;

    case PROP_BLIND_START:
      kiste_start_monitor_set_blind_start (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_start_monitor_class_init (KisteStartMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = kiste_start_monitor_constructed;
  object_class->dispose = kiste_start_monitor_dispose;
  object_class->finalize = kiste_start_monitor_finalize;
  object_class->get_property = kiste_start_monitor_get_property;
  object_class->set_property = kiste_start_monitor_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, KISTE_TYPE_RUNNER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOX_NAME] =
    g_param_spec_string ("box-name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_MANAGER] =
    g_param_spec_string ("manager", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_STEP] =
    g_param_spec_string ("step", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_INIT] =
    g_param_spec_boolean ("init", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT, DEFAULT_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BLIND_START] =
    g_param_spec_boolean ("blind-start", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Every line of the box's log, for a log view. */
  signals[SIGNAL_LINE] =
    g_signal_new ("line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /* A "Warning: …" line, or a note from the monitor itself. */
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
kiste_start_monitor_init (KisteStartMonitor *self)
{
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
  self->watch_interval_ms = DEFAULT_WATCH_INTERVAL_MS;
  g_queue_init (&self->last_lines);
}
