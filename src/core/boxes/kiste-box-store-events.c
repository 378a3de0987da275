/* kiste-box-store-events.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box store's events stream: which events ask for a refresh, and the
 * stream restarted with a growing delay when it ends. */

#include "config.h"

#include "kiste-box-store-state-private.h"

/* Events */

/* Events that leave `ps` output as it was */
static const char * const ignored_events[] = {
  "exec", "attach", "detach", "resize", "top", "export", "commit", "copy",
  "archive-path", "extract-to-dir", "mount", "unmount", "sync", NULL,
};

/* The state an event leaves a container in; UNKNOWN for the others */
static KisteBoxState
state_from_event (const char *status)
{
  if (status == NULL)
    return KISTE_BOX_STATE_UNKNOWN;
  if (g_str_equal (status, "start") || g_str_equal (status, "restart") ||
      g_str_equal (status, "unpause"))
    return KISTE_BOX_STATE_RUNNING;
  /* podman says died, docker die; both say stop once it stopped */
  if (g_str_equal (status, "died") || g_str_equal (status, "die") || g_str_equal (status, "stop"))
    return KISTE_BOX_STATE_STOPPED;
  if (g_str_equal (status, "pause"))
    return KISTE_BOX_STATE_PAUSED;
  return KISTE_BOX_STATE_UNKNOWN;
}

static gboolean
attributes_say_box (JsonObject *attributes)
{
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;

  if (g_strcmp0 (_kiste_box_store_json_string_member (attributes, "manager"), "distrobox") == 0 ||
      json_object_has_member (attributes, KISTE_BOX_TOOLBOX_LABEL))
    return TRUE;

  json_object_iter_init (&iter, attributes);
  while (json_object_iter_next (&iter, &key, &node))
    {
      if (g_str_has_prefix (key, "distrobox."))
        return TRUE;
    }

  return FALSE;
}

gboolean
_kiste_box_store_handle_event_line (KisteBoxStore *self,
                                    const char    *line)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  JsonObject *actor = NULL;
  JsonObject *attributes = NULL;
  JsonNode *node;
  const char *type;
  const char *status;
  const char *id;
  KisteBox *box;
  KisteBoxState state;

  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);
  g_return_val_if_fail (line != NULL, FALSE);

  if (!json_parser_load_from_data (parser, line, -1, &error) ||
      json_parser_get_root (parser) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_debug ("Ignoring an event line that is not a JSON object: %s", line);
      return FALSE;
    }

  object = json_node_get_object (json_parser_get_root (parser));

  /* podman: Type, Status, ID, Attributes; docker: Type, Action, Actor */
  type = _kiste_box_store_json_string_member (object, "Type");
  if (type != NULL && !g_str_equal (type, "container"))
    return FALSE;

  if (!(status = _kiste_box_store_json_string_member (object, "Status")) &&
      !(status = _kiste_box_store_json_string_member (object, "Action")))
    status = _kiste_box_store_json_string_member (object, "status");

  if (status != NULL)
    {
      for (guint i = 0; ignored_events[i] != NULL; i++)
        {
          if (g_str_has_prefix (status, ignored_events[i]))
            return FALSE;
        }
    }

  if ((node = json_object_get_member (object, "Actor")) && JSON_NODE_HOLDS_OBJECT (node))
    actor = json_node_get_object (node);

  if (!(id = _kiste_box_store_json_string_member (object, "ID")) &&
      !(id = _kiste_box_store_json_string_member (object, "id")) &&
      actor != NULL)
    id = _kiste_box_store_json_string_member (actor, "ID");

  if ((node = json_object_get_member (actor != NULL ? actor : object, "Attributes")) &&
      JSON_NODE_HOLDS_OBJECT (node))
    attributes = json_node_get_object (node);

  /* Someone else's container: the labels are in the attributes. Boxes
   * without labels (distrobox < 1.4) are known by id. */
  if (attributes != NULL &&
      !attributes_say_box (attributes) &&
      (id == NULL || kiste_box_store_find_by_id (self, id) == NULL))
    return FALSE;

  /* A known box's row follows a start or stop at once, without waiting
   * for the listing that brings the rest */
  if (id != NULL && (box = kiste_box_store_find_by_id (self, id)) != NULL &&
      (state = state_from_event (status)) != KISTE_BOX_STATE_UNKNOWN)
    {
      /* the running listing may have read the box before this */
      if (self->refreshing)
        g_hash_table_insert (self->event_states, g_strdup (id), GINT_TO_POINTER (state));
      if (state != kiste_box_get_state (box))
        {
          kiste_box_set_state (box, state);
          /* a listing that shows the box as before must not keep the event's word */
          g_clear_pointer (&self->seen, _kiste_box_store_seen_release);
        }
    }

  _kiste_box_store_schedule_refresh (self);
  return TRUE;
}

static void kiste_box_store_start_stream (KisteBoxStore *self);

typedef struct
{
  GWeakRef self;
  guint    generation;
} StreamData;

static void
stream_data_free (StreamData *data)
{
  g_weak_ref_clear (&data->self);
  g_free (data);
}

static void
kiste_box_store_event_line_cb (const char *line,
                               gboolean    is_stderr,
                               gpointer    user_data)
{
  g_autoptr(KisteBoxStore) self = g_weak_ref_get (user_data);

  if (self == NULL)
    return;

  /* rootless podman warns about cgroups on stderr: not events */
  if (is_stderr)
    {
      g_debug ("Events stream: %s", line);
      return;
    }

  _kiste_box_store_handle_event_line (self, line);
}

static gboolean
kiste_box_store_restart_cb (gpointer user_data)
{
  KisteBoxStore *self = user_data;

  g_clear_pointer (&self->restart_source, g_source_unref);

  kiste_box_store_start_stream (self);
  /* whatever happened while the stream was down */
  _kiste_box_store_schedule_refresh (self);

  return G_SOURCE_REMOVE;
}

static void
kiste_box_store_stream_done_cb (GObject      *object,
                                GAsyncResult *result,
                                gpointer      user_data)
{
  StreamData *data = user_data;
  g_autoptr(KisteBoxStore) self = g_weak_ref_get (&data->self);
  g_autoptr(GError) error = NULL;
  guint generation = data->generation;
  guint delay;

  stream_data_free (data);

  kiste_runner_stream_finish (KISTE_RUNNER (object), result, &error);

  if (self == NULL || !self->watching || generation != self->stream_generation)
    return;

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_debug ("The events stream ended: %s", error ? error->message : "no error");

  /* Lines are no proof of health: a stream that flaps after printing
   * some must back off too. */
  if (g_get_monotonic_time () - self->stream_started_us >= STREAM_STABLE_US)
    self->stream_failures = 0;

  self->stream_failures++;

  if (self->stream_failures > self->max_restarts)
    {
      g_debug ("Giving up on the events stream after %u failures", self->stream_failures);
      self->watching = FALSE;
      _kiste_box_store_notify (self, PROP_WATCHING);
      return;
    }

  delay = self->restart_delay_ms;
  for (guint i = 1; i < self->stream_failures && delay < MAX_RESTART_DELAY_MS; i++)
    delay *= 2;
  delay = MIN (delay, MAX_RESTART_DELAY_MS);

  self->restart_source = g_timeout_source_new (delay);
  g_source_set_callback (self->restart_source, kiste_box_store_restart_cb, self, NULL);
  g_source_set_static_name (self->restart_source, "[kiste] box store events restart");
  g_source_attach (self->restart_source, g_main_context_get_thread_default ());
}

static void
kiste_box_store_start_stream (KisteBoxStore *self)
{
  const char *manager = _kiste_box_store_get_manager (self);
  const char *format = _kiste_box_store_is_docker (self) ? "{{json .}}" : "json";
  const char * const argv[] = {
    manager, "events", "--format", format, "--filter", "type=container", NULL
  };
  StreamData *data;

  g_clear_object (&self->watch_cancellable);
  self->watch_cancellable = g_cancellable_new ();
  self->stream_started_us = g_get_monotonic_time ();
  self->spawn_count++;

  data = g_new0 (StreamData, 1);
  g_weak_ref_init (&data->self, self);
  data->generation = self->stream_generation;

  kiste_runner_stream_async (self->runner, argv, 0,
                             kiste_box_store_event_line_cb,
                             _kiste_box_store_weak_ref_new (self), _kiste_box_store_weak_ref_free,
                             self->watch_cancellable,
                             kiste_box_store_stream_done_cb, data);

  _kiste_box_store_notify (self, PROP_SPAWN_COUNT);
}

void
kiste_box_store_start_watching (KisteBoxStore *self)
{
  g_return_if_fail (KISTE_IS_BOX_STORE (self));

  if (self->watching)
    return;

  self->watching = TRUE;
  self->stream_failures = 0;
  self->stream_generation++;

  g_object_freeze_notify (G_OBJECT (self));

  kiste_box_store_start_stream (self);

  /* Changes made while nobody watched; a running refresh may predate the
   * stream, so it gets one more after it. */
  if (self->refreshing)
    self->queued = TRUE;
  else
    _kiste_box_store_start_refresh (self, TRUE);

  _kiste_box_store_notify (self, PROP_WATCHING);
  g_object_thaw_notify (G_OBJECT (self));
}

void
kiste_box_store_stop_watching (KisteBoxStore *self)
{
  g_return_if_fail (KISTE_IS_BOX_STORE (self));

  if (!self->watching)
    return;

  self->watching = FALSE;
  self->stream_generation++;
  g_cancellable_cancel (self->watch_cancellable);
  _kiste_box_store_clear_source (&self->restart_source);

  _kiste_box_store_notify (self, PROP_WATCHING);
}

gboolean
kiste_box_store_get_watching (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);

  return self->watching;
}
