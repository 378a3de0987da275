/* kiste-box-store.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-box-private.h"
#include "kiste-box-store-state-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KisteBoxStore, kiste_box_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GParamSpec *properties[N_PROPS];

void
_kiste_box_store_notify (KisteBoxStore *self,
                         guint          prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}


/* Callbacks of our own processes hold the store weakly, so dropping the
 * last reference ends the events stream instead of keeping it alive. */
GWeakRef *
_kiste_box_store_weak_ref_new (gpointer object)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, object);
  return ref;
}

void
_kiste_box_store_weak_ref_free (gpointer data)
{
  GWeakRef *ref = data;

  g_weak_ref_clear (ref);
  g_free (ref);
}

void
_kiste_box_store_clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

const char *
_kiste_box_store_get_manager (KisteBoxStore *self)
{
  const char *manager = self->engine ? self->engine : kiste_runner_get_manager (self->runner);

  return manager != NULL ? manager : "podman";
}

const char *
kiste_box_store_get_engine (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);

  return _kiste_box_store_get_manager (self);
}

gboolean
_kiste_box_store_is_docker (KisteBoxStore *self)
{
  return g_str_equal (_kiste_box_store_get_manager (self), "docker");
}

const char *
_kiste_box_store_json_string_member (JsonObject *object,
                                     const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

/* GListModel */

static GType
kiste_box_store_get_item_type (GListModel *model)
{
  return KISTE_TYPE_BOX;
}

static guint
kiste_box_store_get_n_items (GListModel *model)
{
  return KISTE_BOX_STORE (model)->items->len;
}

static gpointer
kiste_box_store_get_item (GListModel *model,
                          guint       position)
{
  KisteBoxStore *self = KISTE_BOX_STORE (model);

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = kiste_box_store_get_item_type;
  iface->get_n_items = kiste_box_store_get_n_items;
  iface->get_item = kiste_box_store_get_item;
}

/* Refreshing */

static gboolean
kiste_box_store_delay_cb (gpointer user_data)
{
  KisteBoxStore *self = user_data;

  g_clear_pointer (&self->delay_source, g_source_unref);
  _kiste_box_store_start_refresh (self, TRUE);

  return G_SOURCE_REMOVE;
}

/* A refresh for events: soon, shared with whatever else asks meanwhile */
void
_kiste_box_store_schedule_refresh (KisteBoxStore *self)
{
  if (self->refreshing)
    {
      self->queued = TRUE;
      return;
    }

  if (self->delay_source != NULL)
    return;

  self->delay_source = g_timeout_source_new (self->refresh_delay_ms);
  g_source_set_callback (self->delay_source, kiste_box_store_delay_cb, self, NULL);
  g_source_set_static_name (self->delay_source, "[kiste] box store refresh delay");
  g_source_attach (self->delay_source, g_main_context_get_thread_default ());
}

static void
complete_waiters (GQueue       *waiters,
                  const GError *error)
{
  GTask *task;

  while ((task = g_queue_pop_head (waiters)))
    {
      /* drops the cancel watch */
      g_task_set_task_data (task, NULL, NULL);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);

      g_object_unref (task);
    }
}

static void
kiste_box_store_finish_refresh (KisteBoxStore *self,
                                GPtrArray     *boxes,
                                ParseInput    *input,
                                const GError  *error)
{
  GQueue waiters = G_QUEUE_INIT;

  self->refreshing = FALSE;

  /* Taken before merging: handlers of items-changed may reload again */
  waiters = self->current_waiters;
  g_queue_init (&self->current_waiters);

  g_object_freeze_notify (G_OBJECT (self));

  if (error == NULL)
    {
      GHashTableIter iter;
      gpointer id;
      gpointer state;

      _kiste_box_store_merge (self, boxes);
      _kiste_box_store_keep_seen (self, boxes, input);

      /* what events said since this ps ran stays until the next one */
      g_hash_table_iter_init (&iter, self->event_states);
      while (g_hash_table_iter_next (&iter, &id, &state))
        {
          KisteBox *box = kiste_box_store_find_by_id (self, id);

          if (box != NULL)
            kiste_box_set_state (box, GPOINTER_TO_INT (state));
        }
      /* the next listing parses afresh: its text may match this one */
      if (g_hash_table_size (self->event_states) > 0)
        g_clear_pointer (&self->seen, _kiste_box_store_seen_release);

      if (self->error != NULL)
        {
          g_clear_error (&self->error);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
        }

      if (!self->loaded)
        {
          self->loaded = TRUE;
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
        }
    }
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_debug ("Refreshing the box list failed: %s", error->message);
      g_clear_error (&self->error);
      self->error = g_error_copy (error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
    }

  /* applied above: the refresh those events queued follows */
  g_hash_table_remove_all (self->event_states);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);

  g_object_thaw_notify (G_OBJECT (self));

  complete_waiters (&waiters, error);

  /* Unless a callback above already started one */
  if (!self->refreshing)
    {
      if (self->next_waiters.length > 0)
        _kiste_box_store_start_refresh (self, FALSE);
      else if (self->queued)
        {
          self->queued = FALSE;
          _kiste_box_store_schedule_refresh (self);
        }
    }
}

static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  g_autoptr(GPtrArray) garbage = g_ptr_array_new_with_free_func (g_object_unref);
  GError *error = NULL;
  GPtrArray *boxes = _kiste_box_store_parse_ps_output (task_data, garbage, &error);

  if (boxes != NULL)
    g_task_return_pointer (task, boxes, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);

  /* the JSON tree is freed here, while the main thread merges */
}

static void
kiste_box_store_parsed_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(KisteBoxStore) self = g_weak_ref_get (ref);
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;
  ParseInput *input = g_task_get_task_data (G_TASK (result));

  _kiste_box_store_weak_ref_free (ref);

  boxes = g_task_propagate_pointer (G_TASK (result), &error);
  if (self != NULL)
    kiste_box_store_finish_refresh (self, boxes, input, error);

  /* boxes in the tables are let go here, never in the worker thread */
  g_clear_pointer (&input->seen, _kiste_box_store_seen_release);
  g_clear_pointer (&input->next_seen, _kiste_box_store_seen_release);
}

static void
kiste_box_store_refresh_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(KisteBoxStore) self = g_weak_ref_get (ref);
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GPtrArray) garbage = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;
  ParseInput *input;
  gsize length;

  _kiste_box_store_weak_ref_free (ref);

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error) ||
      self == NULL)
    {
      if (self != NULL)
        kiste_box_store_finish_refresh (self, NULL, NULL, error);
      return;
    }

  length = strlen (stdout_buf);
  input = _kiste_box_store_dup_parse_input (self, g_steal_pointer (&stdout_buf), TRUE);

  /* Hundreds of new boxes take tens of milliseconds to parse: not on the
   * thread that draws the window. */
  if (length >= PARSE_IN_THREAD_BYTES)
    {
      /* No source object: the worker thread may drop the task last, and
       * the store must never be finalized there. */
      g_autoptr(GTask) task = g_task_new (NULL, self->refresh_cancellable,
                                          kiste_box_store_parsed_cb,
                                          _kiste_box_store_weak_ref_new (self));

      g_task_set_source_tag (task, kiste_box_store_refresh_cb);
      g_task_set_task_data (task, input, (GDestroyNotify) _kiste_box_store_parse_input_free);
      g_task_run_in_thread (task, parse_thread);
      return;
    }

  garbage = g_ptr_array_new_with_free_func (g_object_unref);
  boxes = _kiste_box_store_parse_ps_output (input, garbage, &error);
  kiste_box_store_finish_refresh (self, boxes, input, error);
  _kiste_box_store_parse_input_free (input);
}

static char **
kiste_box_store_dup_ps_argv (KisteBoxStore *self)
{
  const char *manager = _kiste_box_store_get_manager (self);
  const char *format = _kiste_box_store_is_docker (self) ? "{{json .}}" : "json";
  const char * const argv[] = { manager, "ps", "-a", "--no-trunc", "--format", format, NULL };

  return g_strdupv ((char **) argv);
}

void
_kiste_box_store_start_refresh (KisteBoxStore *self,
                                gboolean       internal)
{
  g_auto(GStrv) argv = kiste_box_store_dup_ps_argv (self);
  GTask *task;

  _kiste_box_store_clear_source (&self->delay_source);

  while ((task = g_queue_pop_head (&self->next_waiters)))
    g_queue_push_tail (&self->current_waiters, task);

  self->refreshing = TRUE;
  self->refresh_internal = !!internal;
  self->queued = FALSE;
  self->refresh_count++;
  self->spawn_count++;

  g_clear_object (&self->refresh_cancellable);
  self->refresh_cancellable = g_cancellable_new ();

  kiste_runner_run_async (self->runner, (const char * const *) argv, self->timeout_ms,
                          self->refresh_cancellable,
                          kiste_box_store_refresh_cb, _kiste_box_store_weak_ref_new (self));

  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESH_COUNT]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPAWN_COUNT]);
  g_object_thaw_notify (G_OBJECT (self));
}

static gboolean
kiste_box_store_waiter_cancelled_cb (GCancellable *cancellable,
                                     gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(KisteBoxStore) self = g_object_ref (g_task_get_source_object (task));
  gboolean was_current;

  was_current = g_queue_remove (&self->current_waiters, task);
  if (!was_current)
    g_queue_remove (&self->next_waiters, task);

  g_task_set_task_data (task, NULL, NULL);
  g_task_return_error_if_cancelled (task);
  g_object_unref (task);

  /* Nobody wants this refresh any more: stop the process */
  if (was_current &&
      self->refreshing &&
      !self->refresh_internal &&
      self->current_waiters.length == 0)
    g_cancellable_cancel (self->refresh_cancellable);

  return G_SOURCE_REMOVE;
}

static void
destroy_source (gpointer data)
{
  GSource *source = data;

  g_source_destroy (source);
  g_source_unref (source);
}

/* Makes task wait for the running refresh (current) or the next one */
static void
kiste_box_store_add_waiter (KisteBoxStore *self,
                            GTask         *task,
                            gboolean       current)
{
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  if (cancellable != NULL)
    {
      GSource *source = g_cancellable_source_new (cancellable);

      /* The task owns the source, so the source never outlives the task */
      g_source_set_callback (source, G_SOURCE_FUNC (kiste_box_store_waiter_cancelled_cb), task, NULL);
      g_source_set_static_name (source, "[kiste] box store reload cancel");
      g_source_attach (source, g_main_context_get_thread_default ());
      g_task_set_task_data (task, source, destroy_source);
    }

  if (current && self->refreshing)
    {
      g_queue_push_tail (&self->current_waiters, task);
      return;
    }

  g_queue_push_tail (&self->next_waiters, task);

  if (!self->refreshing)
    _kiste_box_store_start_refresh (self, FALSE);
}

void
kiste_box_store_reload_async (KisteBoxStore       *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (KISTE_IS_BOX_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_store_reload_async);
  kiste_box_store_add_waiter (self, task, FALSE);
}

void
kiste_box_store_watch_async (KisteBoxStore       *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;
  gboolean was_refreshing;

  g_return_if_fail (KISTE_IS_BOX_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_store_reload_async);

  /* Starting to watch lists the boxes once the events stream is up; that
   * one listing is all we wait for */
  was_refreshing = self->refreshing;
  kiste_box_store_start_watching (self);
  kiste_box_store_add_waiter (self, task, self->refreshing && !was_refreshing);
}

gboolean
kiste_box_store_reload_finish (KisteBoxStore  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_box_store_reload_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Accessors */

KisteBox *
kiste_box_store_find_by_name (KisteBoxStore *self,
                              const char    *name)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < self->items->len; i++)
    {
      KisteBox *box = g_ptr_array_index (self->items, i);

      if (g_strcmp0 (kiste_box_get_name (box), name) == 0)
        return box;
    }

  return NULL;
}

KisteBox *
kiste_box_store_find_by_id (KisteBoxStore *self,
                            const char    *id)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < self->items->len; i++)
    {
      KisteBox *box = g_ptr_array_index (self->items, i);

      if (g_strcmp0 (kiste_box_get_id (box), id) == 0)
        return box;
    }

  return NULL;
}

KisteRunner *
kiste_box_store_get_runner (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);

  return self->runner;
}

const char *
kiste_box_store_get_host_home (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);

  return self->host_home;
}

void
kiste_box_store_set_host_home (KisteBoxStore *self,
                               const char    *host_home)
{
  g_return_if_fail (KISTE_IS_BOX_STORE (self));

  if (host_home == NULL)
    host_home = g_get_home_dir ();

  if (g_set_str (&self->host_home, host_home))
    {
      g_clear_pointer (&self->seen, _kiste_box_store_seen_release);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOST_HOME]);
    }
}

gboolean
kiste_box_store_get_loaded (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);

  return self->loaded;
}

gboolean
kiste_box_store_get_refreshing (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);

  return self->refreshing;
}

const GError *
kiste_box_store_get_error (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), NULL);

  return self->error;
}

guint
_kiste_box_store_get_refresh_count (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), 0);

  return self->refresh_count;
}

guint
_kiste_box_store_get_spawn_count (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), 0);

  return self->spawn_count;
}

void
_kiste_box_store_set_timings (KisteBoxStore *self,
                              guint          refresh_delay_ms,
                              guint          restart_delay_ms,
                              guint          max_restarts,
                              guint          timeout_ms)
{
  g_return_if_fail (KISTE_IS_BOX_STORE (self));

  if (refresh_delay_ms > 0)
    self->refresh_delay_ms = refresh_delay_ms;
  if (restart_delay_ms > 0)
    self->restart_delay_ms = restart_delay_ms;
  if (max_restarts > 0)
    self->max_restarts = max_restarts;
  if (timeout_ms > 0)
    self->timeout_ms = timeout_ms;
}

/* GObject */

KisteBoxStore *
kiste_box_store_new (KisteRunner *runner)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);

  return g_object_new (KISTE_TYPE_BOX_STORE, "runner", runner, NULL);
}

KisteBoxStore *
kiste_box_store_new_for_engine (KisteRunner *runner,
                                const char  *engine)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);

  return g_object_new (KISTE_TYPE_BOX_STORE, "runner", runner, "engine", engine, NULL);
}

static void
kiste_box_store_dispose (GObject *object)
{
  KisteBoxStore *self = (KisteBoxStore *) object;

  self->watching = FALSE;
  self->stream_generation++;

  if (self->watch_cancellable != NULL)
    g_cancellable_cancel (self->watch_cancellable);
  if (self->refresh_cancellable != NULL)
    g_cancellable_cancel (self->refresh_cancellable);

  _kiste_box_store_clear_source (&self->delay_source);
  _kiste_box_store_clear_source (&self->restart_source);

  G_OBJECT_CLASS (kiste_box_store_parent_class)->dispose (object);
}

static void
kiste_box_store_finalize (GObject *object)
{
  KisteBoxStore *self = (KisteBoxStore *) object;

  g_clear_object (&self->runner);
  g_clear_pointer (&self->engine, g_free);
  g_clear_object (&self->watch_cancellable);
  g_clear_object (&self->refresh_cancellable);
  g_clear_pointer (&self->host_home, g_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->seen, _kiste_box_store_seen_release);
  g_clear_pointer (&self->event_states, g_hash_table_unref);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (kiste_box_store_parent_class)->finalize (object);
}

static void
kiste_box_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KisteBoxStore *self = KISTE_BOX_STORE (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;

    case PROP_ENGINE:
      g_value_set_string (value, _kiste_box_store_get_manager (self));
      break;

    case PROP_HOST_HOME:
      g_value_set_string (value, self->host_home);
      break;

    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    case PROP_REFRESHING:
      g_value_set_boolean (value, self->refreshing);
      break;

    case PROP_WATCHING:
      g_value_set_boolean (value, self->watching);
      break;

    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;

    case PROP_REFRESH_COUNT:
      g_value_set_uint (value, self->refresh_count);
      break;

    case PROP_SPAWN_COUNT:
      g_value_set_uint (value, self->spawn_count);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;

    case PROP_ITEM_TYPE:
      g_value_set_gtype (value, KISTE_TYPE_BOX);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KisteBoxStore *self = KISTE_BOX_STORE (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      break;

    case PROP_ENGINE:
      self->engine = g_value_dup_string (value);
      break;

    case PROP_HOST_HOME:
      kiste_box_store_set_host_home (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_store_constructed (GObject *object)
{
  KisteBoxStore *self = (KisteBoxStore *) object;

  G_OBJECT_CLASS (kiste_box_store_parent_class)->constructed (object);

  if (self->runner == NULL)
    self->runner = kiste_runner_new ();
}

static void
kiste_box_store_class_init (KisteBoxStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = kiste_box_store_constructed;
  object_class->dispose = kiste_box_store_dispose;
  object_class->finalize = kiste_box_store_finalize;
  object_class->get_property = kiste_box_store_get_property;
  object_class->set_property = kiste_box_store_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, KISTE_TYPE_RUNNER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ENGINE] =
    g_param_spec_string ("engine", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOST_HOME] =
    g_param_spec_string ("host-home", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADED] = g_param_spec_boolean ("loaded", NULL, NULL, FALSE, ro);
  properties[PROP_REFRESHING] = g_param_spec_boolean ("refreshing", NULL, NULL, FALSE, ro);
  properties[PROP_WATCHING] = g_param_spec_boolean ("watching", NULL, NULL, FALSE, ro);
  properties[PROP_ERROR] = g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);
  properties[PROP_REFRESH_COUNT] = g_param_spec_uint ("refresh-count", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_SPAWN_COUNT] = g_param_spec_uint ("spawn-count", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_ITEM_TYPE] = g_param_spec_gtype ("item-type", NULL, NULL, KISTE_TYPE_BOX, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_box_store_init (KisteBoxStore *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->event_states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->host_home = g_strdup (g_get_home_dir ());
  self->refresh_delay_ms = DEFAULT_REFRESH_DELAY_MS;
  self->restart_delay_ms = DEFAULT_RESTART_DELAY_MS;
  self->max_restarts = DEFAULT_MAX_RESTARTS;
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
  g_queue_init (&self->current_waiters);
  g_queue_init (&self->next_waiters);
}
