/* kiste-box-store-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box store's state and the functions its files share:
 * kiste-box-store.c         the list, refreshing, the GObject
 * kiste-box-store-parse.c   ps output into boxes (in a worker thread), merging
 * kiste-box-store-events.c  the events stream and its restarts
 * kiste-box-store-details.c inspect, for the details of boxes */

#pragma once

#include <json-glib/json-glib.h>

#include "kiste-box-store-private.h"

G_BEGIN_DECLS

/* Long enough to fold the burst of events one `distrobox create` or
 * `stop` causes into one refresh, short enough to feel immediate. */
#define DEFAULT_REFRESH_DELAY_MS  75
#define DEFAULT_RESTART_DELAY_MS  1000
#define MAX_RESTART_DELAY_MS      60000
#define DEFAULT_MAX_RESTARTS      8
/* A stream that lived this long was healthy: its death starts a new count */
#define STREAM_STABLE_US          (30 * G_USEC_PER_SEC)
/* Rootless podman can take seconds on its first call after boot */
#define DEFAULT_TIMEOUT_MS        30000
/* About 100 boxes of podman's JSON */
#define PARSE_IN_THREAD_BYTES     (128 * 1024)

/* What each container's text in the last podman ps stood for: a box, or
 * NOT_A_BOX. A refresh parses only the texts that changed, so an
 * unchanged list of a thousand boxes costs a scan, not a JSON tree.
 * Never changed once made (a thread may read it); keys point into text. */
typedef struct
{
  const char *start;
  gsize       len;
  guint       hash;
} SeenKey;

typedef struct
{
  GHashTable *table;    /* SeenKey → box or NOT_A_BOX */
  GBytes     *text;
  SeenKey    *keys;
  char       *host_home;
} Seen;


typedef struct
{
  char      *manager;
  char      *host_home;
  char      *text;
  Seen      *seen;       /* the last refresh's, read only */
  Seen      *next_seen;  /* this one's, when ps printed a podman array */
  guint      n_parsed;   /* texts not seen last time */
  guint      details_serial;
} ParseInput;

struct _KisteBoxStore
{
  GObject        parent_instance;

  KisteRunner   *runner;
  /* The engine listed; NULL: the runner's */
  char          *engine;
  char          *host_home;
  GPtrArray     *items;
  GError        *error;
  Seen          *seen;
  guint          details_serial;
  /* id → state that events set while a refresh was running: its ps may
   * predate them */
  GHashTable    *event_states;

  /* Reload tasks waiting for the running refresh, and for the next one */
  GQueue         current_waiters;
  GQueue         next_waiters;

  GCancellable  *refresh_cancellable;
  GCancellable  *watch_cancellable;
  GSource       *delay_source;
  GSource       *restart_source;

  gint64         stream_started_us;
  guint          stream_generation;
  guint          stream_failures;

  guint          refresh_delay_ms;
  guint          restart_delay_ms;
  guint          max_restarts;
  guint          timeout_ms;

  guint          refresh_count;
  guint          spawn_count;

  guint          loaded : 1;
  guint          refreshing : 1;
  guint          refresh_internal : 1; /* started for events, not for a caller */
  guint          queued : 1;           /* events arrived during the refresh */
  guint          watching : 1;
};

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_ENGINE,
  PROP_HOST_HOME,
  PROP_LOADED,
  PROP_REFRESHING,
  PROP_WATCHING,
  PROP_ERROR,
  PROP_REFRESH_COUNT,
  PROP_SPAWN_COUNT,
  PROP_N_ITEMS,
  PROP_ITEM_TYPE,
  N_PROPS
};

/* kiste-box-store.c */
void        _kiste_box_store_notify             (KisteBoxStore  *self,
                                                 guint           prop_id);
GWeakRef   *_kiste_box_store_weak_ref_new       (gpointer        object);
void        _kiste_box_store_weak_ref_free      (gpointer        data);
void        _kiste_box_store_clear_source       (GSource       **source);
const char *_kiste_box_store_get_manager        (KisteBoxStore  *self);
gboolean    _kiste_box_store_is_docker          (KisteBoxStore  *self);
const char *_kiste_box_store_json_string_member (JsonObject     *object,
                                                 const char     *member);
/* A refresh for events: soon, shared with whatever else asks meanwhile */
void        _kiste_box_store_schedule_refresh   (KisteBoxStore  *self);
void        _kiste_box_store_start_refresh      (KisteBoxStore  *self,
                                                 gboolean        internal);

/* kiste-box-store-parse.c */
void        _kiste_box_store_seen_release       (Seen           *seen);
ParseInput *_kiste_box_store_dup_parse_input    (KisteBoxStore  *self,
                                                 char           *text,
                                                 gboolean        use_seen);
void        _kiste_box_store_parse_input_free   (ParseInput     *input);
GPtrArray  *_kiste_box_store_parse_ps_output    (ParseInput     *input,
                                                 GPtrArray      *garbage,
                                                 GError        **error);
void        _kiste_box_store_keep_seen          (KisteBoxStore  *self,
                                                 GPtrArray      *boxes,
                                                 ParseInput     *input);
void        _kiste_box_store_forget_seen        (KisteBoxStore  *self,
                                                 GPtrArray      *boxes);

G_END_DECLS
