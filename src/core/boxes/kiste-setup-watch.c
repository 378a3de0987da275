/* kiste-setup-watch.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-setup-watch-private.h"
#include "kiste-start-monitor.h"

#define DEFAULT_DELAY_MS 1000

/* A box found running that started longer ago than this is taken as set
 * up: following every running box's log at start-up would cost two
 * processes per box. A first setup that installs packages can take
 * minutes, so the margin is wide. */
#define RECENT_START_SECONDS (30 * 60)

struct _KisteSetupWatch
{
  GObject                  parent_instance;

  KisteRunner             *runner;
  KisteBoxStore           *store;
  KisteSetupWatchSkipFunc  skip_func;
  gpointer                 skip_data;
  guint                    delay_ms;
  /* box id → Follow, while its log is read */
  GHashTable              *follows;
  /* ids of running boxes whose setup is known to be over */
  GHashTable              *done;
};

G_DEFINE_FINAL_TYPE (KisteSetupWatch, kiste_setup_watch, G_TYPE_OBJECT)

typedef struct
{
  KisteSetupWatch   *self;     /* not a reference: the watch ends its follows */
  KisteBox          *box;
  KisteStartMonitor *monitor;
  GCancellable      *cancellable;
  guint              delay_id;
} Follow;

static void
follow_free (Follow *follow)
{
  g_cancellable_cancel (follow->cancellable);
  g_clear_handle_id (&follow->delay_id, g_source_remove);
  kiste_box_set_setting_up (follow->box, FALSE);
  g_clear_object (&follow->box);
  g_clear_object (&follow->monitor);
  g_clear_object (&follow->cancellable);
  g_free (follow);
}

static gboolean
follow_delay_cb (gpointer user_data)
{
  Follow *follow = user_data;

  follow->delay_id = 0;
  kiste_box_set_setting_up (follow->box, TRUE);
  return G_SOURCE_REMOVE;
}

static void
follow_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  KisteSetupWatch *self = user_data;
  g_autoptr(GError) error = NULL;
  KisteStartMonitor *monitor = KISTE_START_MONITOR (object);
  GHashTableIter iter;
  gpointer key;
  gpointer value;

  /* cancelled: the follow is gone, and maybe the watch with it */
  kiste_start_monitor_start_finish (monitor, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_debug ("Following the setup of a box ended: %s", error->message);

  /* Done, failed or timed out: either way nothing more to wait for */
  g_hash_table_iter_init (&iter, self->follows);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      Follow *follow = value;

      if (follow->monitor == monitor)
        {
          g_hash_table_add (self->done, g_strdup (key));
          g_hash_table_iter_remove (&iter);
          break;
        }
    }
}

static void
kiste_setup_watch_follow (KisteSetupWatch *self,
                          KisteBox        *box)
{
  Follow *follow = g_new0 (Follow, 1);

  follow->self = self;
  follow->box = g_object_ref (box);
  follow->cancellable = g_cancellable_new ();
  follow->monitor = kiste_start_monitor_new (self->runner, kiste_box_get_name (box),
                                             kiste_box_get_engine (box));
  kiste_start_monitor_set_follow_only (follow->monitor, TRUE);
  kiste_start_monitor_set_init (follow->monitor, kiste_box_get_init (box));
  follow->delay_id = g_timeout_add (self->delay_ms, follow_delay_cb, follow);
  g_hash_table_insert (self->follows, g_strdup (kiste_box_get_id (box)), follow);

  /* no reference: the watch cancels its follows when it goes */
  kiste_start_monitor_start_async (follow->monitor, follow->cancellable,
                                   follow_done_cb, self);
}

static gboolean
started_long_ago (KisteBox *box)
{
  gint64 started = kiste_box_get_started (box);

  return started > 0 && g_get_real_time () / G_USEC_PER_SEC - started > RECENT_START_SECONDS;
}

/* @seen_starting: the box was seen to start (a state change, or one of our
 * operations), rather than found running in the list */
static void
kiste_setup_watch_check_box (KisteSetupWatch *self,
                             KisteBox        *box,
                             gboolean         seen_starting)
{
  const char *id = kiste_box_get_id (box);

  if (id == NULL)
    return;

  if (kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING)
    {
      /* the next start has a setup of its own */
      g_hash_table_remove (self->follows, id);
      g_hash_table_remove (self->done, id);
      kiste_box_set_setting_up (box, FALSE);
      return;
    }

  /* only a live list (the app's), not one filled by hand */
  if (!kiste_box_store_get_watching (self->store))
    return;
  if (g_hash_table_contains (self->follows, id) || g_hash_table_contains (self->done, id))
    return;
  if (self->skip_func != NULL && self->skip_func (kiste_box_get_ref (box), self->skip_data))
    return;
  /* distrobox-init's steps: Toolbx's own setup is waited for by toolbox
   * (and by Kiste's start, which goes through it) */
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    return;
  if (!seen_starting && started_long_ago (box))
    {
      g_hash_table_add (self->done, g_strdup (id));
      return;
    }

  kiste_setup_watch_follow (self, box);
}

static void
box_state_cb (KisteBox        *box,
              GParamSpec      *pspec,
              KisteSetupWatch *self)
{
  kiste_setup_watch_check_box (self, box, TRUE);
}

static void
store_items_changed_cb (KisteSetupWatch *self,
                        guint            position,
                        guint            removed,
                        guint            added,
                        GListModel      *model)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (model, i);

      if (g_object_get_data (G_OBJECT (box), "kiste-setup-watch") != self)
        {
          g_object_set_data (G_OBJECT (box), "kiste-setup-watch", self);
          g_signal_connect_object (box, "notify::state", G_CALLBACK (box_state_cb), self, 0);
        }
      kiste_setup_watch_check_box (self, box, FALSE);
    }
}

/* Every box again once the list is live */
static void
store_watching_cb (KisteSetupWatch *self)
{
  store_items_changed_cb (self, 0, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                          G_LIST_MODEL (self->store));
}

KisteSetupWatch *
kiste_setup_watch_new (KisteRunner   *runner,
                       KisteBoxStore *store)
{
  KisteSetupWatch *self;

  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);
  g_return_val_if_fail (KISTE_IS_BOX_STORE (store), NULL);

  self = g_object_new (KISTE_TYPE_SETUP_WATCH, NULL);
  self->runner = g_object_ref (runner);
  self->store = g_object_ref (store);
  g_signal_connect_object (store, "items-changed", G_CALLBACK (store_items_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (store, "notify::watching", G_CALLBACK (store_watching_cb), self,
                           G_CONNECT_SWAPPED);
  store_watching_cb (self);
  return self;
}

void
kiste_setup_watch_set_skip_func (KisteSetupWatch         *self,
                                 KisteSetupWatchSkipFunc  func,
                                 gpointer                 user_data)
{
  g_return_if_fail (KISTE_IS_SETUP_WATCH (self));

  self->skip_func = func;
  self->skip_data = user_data;
}

void
_kiste_setup_watch_set_delay (KisteSetupWatch *self,
                              guint            delay_ms)
{
  g_return_if_fail (KISTE_IS_SETUP_WATCH (self));

  self->delay_ms = delay_ms;
}

void
kiste_setup_watch_check (KisteSetupWatch *self,
                         const char      *box_name)
{
  KisteBox *box;

  g_return_if_fail (KISTE_IS_SETUP_WATCH (self));

  if (box_name == NULL || (box = kiste_box_store_find_by_name (self->store, box_name)) == NULL)
    return;
  if (kiste_box_get_id (box) != NULL)
    g_hash_table_remove (self->done, kiste_box_get_id (box));
  kiste_setup_watch_check_box (self, box, TRUE);
}

void
kiste_setup_watch_stop (KisteSetupWatch *self)
{
  g_return_if_fail (KISTE_IS_SETUP_WATCH (self));

  g_hash_table_remove_all (self->follows);
}

static void
kiste_setup_watch_dispose (GObject *object)
{
  KisteSetupWatch *self = KISTE_SETUP_WATCH (object);

  if (self->follows != NULL)
    g_hash_table_remove_all (self->follows);
  g_clear_object (&self->store);
  g_clear_object (&self->runner);

  G_OBJECT_CLASS (kiste_setup_watch_parent_class)->dispose (object);
}

static void
kiste_setup_watch_finalize (GObject *object)
{
  KisteSetupWatch *self = KISTE_SETUP_WATCH (object);

  g_clear_pointer (&self->follows, g_hash_table_unref);
  g_clear_pointer (&self->done, g_hash_table_unref);

  G_OBJECT_CLASS (kiste_setup_watch_parent_class)->finalize (object);
}

static void
kiste_setup_watch_class_init (KisteSetupWatchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kiste_setup_watch_dispose;
  object_class->finalize = kiste_setup_watch_finalize;
}

static void
kiste_setup_watch_init (KisteSetupWatch *self)
{
  self->delay_ms = DEFAULT_DELAY_MS;
  self->follows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) follow_free);
  self->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}
