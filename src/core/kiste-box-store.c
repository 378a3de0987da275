/* kiste-box-store.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-box-store-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"

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

#define NOT_A_BOX ((gpointer) &not_a_box)
static const char not_a_box;

struct _KisteBoxStore
{
  GObject        parent_instance;

  KisteRunner   *runner;
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

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KisteBoxStore, kiste_box_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GParamSpec *properties[N_PROPS];

static void kiste_box_store_start_refresh (KisteBoxStore *self,
                                           gboolean       internal);

/* Callbacks of our own processes hold the store weakly, so dropping the
 * last reference ends the events stream instead of keeping it alive. */
static GWeakRef *
weak_ref_new (gpointer object)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, object);
  return ref;
}

static void
weak_ref_free (gpointer data)
{
  GWeakRef *ref = data;

  g_weak_ref_clear (ref);
  g_free (ref);
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

static const char *
kiste_box_store_get_manager (KisteBoxStore *self)
{
  const char *manager = kiste_runner_get_manager (self->runner);

  return manager != NULL ? manager : "podman";
}

static gboolean
kiste_box_store_is_docker (KisteBoxStore *self)
{
  return g_str_equal (kiste_box_store_get_manager (self), "docker");
}

static const char *
json_string_member (JsonObject *object,
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

/* Parsing: free of the store, so it can run in a worker thread */

static void
seen_value_unref (gpointer value)
{
  if (value != NOT_A_BOX)
    g_object_unref (value);
}

static guint
seen_key_hash (gconstpointer key)
{
  return ((const SeenKey *) key)->hash;
}

static gboolean
seen_key_equal (gconstpointer a,
                gconstpointer b)
{
  const SeenKey *x = a;
  const SeenKey *y = b;

  return x->hash == y->hash && x->len == y->len && memcmp (x->start, y->start, x->len) == 0;
}

static void
seen_clear (Seen *seen)
{
  g_hash_table_unref (seen->table);
  g_bytes_unref (seen->text);
  g_free (seen->keys);
  g_free (seen->host_home);
}

/* Takes keys, which point into text */
static Seen *
seen_new (GBytes     *text,
          SeenKey    *keys,
          const char *host_home)
{
  Seen *seen = g_rc_box_new0 (Seen);

  seen->table = g_hash_table_new_full (seen_key_hash, seen_key_equal, NULL, seen_value_unref);
  seen->text = g_bytes_ref (text);
  seen->keys = keys;
  seen->host_home = g_strdup (host_home);
  return seen;
}

/* Boxes may go with the last reference: only on the main thread */
static void
seen_release (Seen *seen)
{
  g_rc_box_release_full (seen, (GDestroyNotify) seen_clear);
}

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

static void
parse_input_free (ParseInput *input)
{
  g_free (input->manager);
  g_free (input->host_home);
  g_free (input->text);
  g_clear_pointer (&input->seen, seen_release);
  g_clear_pointer (&input->next_seen, seen_release);
  g_free (input);
}

static gboolean
add_if_box (const ParseInput  *input,
            JsonNode          *node,
            GPtrArray         *boxes,
            GError           **error)
{
  JsonObject *object;
  KisteBox *box;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The list of containers from %s contains something that is not a container."),
                   input->manager);
      return FALSE;
    }

  object = json_node_get_object (node);

  if (!kiste_box_ps_json_is_distrobox (object))
    return TRUE;

  if (!(box = kiste_box_new_from_ps_json (object, input->host_home, error)))
    return FALSE;

  g_ptr_array_add (boxes, box);
  return TRUE;
}

static void
set_unreadable_error (const ParseInput  *input,
                      GError            *parse_error,
                      GError           **error)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("Could not read the list of containers from %s: %s"),
               input->manager, parse_error->message);
}

/* Drops the whitespace between tokens, in place: podman indents its JSON,
 * and json-glib's scanner spends a quarter of its time on the indentation,
 * far more than this pass costs. */
static void
squeeze_json (char *text)
{
  const char *in = text;
  char *out = text;

  while (*in != '\0')
    {
      /* outside strings: copy up to whitespace or a string, skip whitespace */
      gsize n = strcspn (in, " \n\t\r\"");

      memmove (out, in, n);
      out += n;
      in += n;

      while (*in == ' ' || *in == '\n' || *in == '\t' || *in == '\r')
        in++;

      if (*in != '"')
        continue;

      /* a string, escapes included, copied whole */
      *out++ = *in++;
      for (;;)
        {
          n = strcspn (in, "\"\\");
          memmove (out, in, n);
          out += n;
          in += n;

          if (*in == '\\' && in[1] != '\0')
            {
              *out++ = *in++;
              *out++ = *in++;
            }
          else
            {
              if (*in == '"')
                *out++ = *in++;
              break;
            }
        }
    }

  *out = '\0';
}

typedef struct
{
  SeenKey   key;
  gpointer  value;  /* a box (owned), NOT_A_BOX, or NULL before parsing */
} Slice;

static void
slice_clear (Slice *slice)
{
  if (slice->value != NULL)
    seen_value_unref (slice->value);
}

static char *
skip_space (char *p)
{
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
    p++;
  return p;
}

/* The texts of the objects in the JSON array starting at p, or FALSE for
 * anything else: the full parser then says what is wrong. Library calls
 * do the scanning; the text is left as it was. */
static gboolean
split_array (char   *p,
             GArray *slices)
{
  g_assert (*p == '[');
  p = skip_space (p + 1);

  if (*p == ']')
    return *skip_space (p + 1) == '\0';

  for (;;)
    {
      Slice slice = { { p, 0, 0 }, NULL };
      guint depth = 0;
      char saved;

      if (*p != '{')
        return FALSE;

      do
        {
          p += strcspn (p, "\"{}[]");
          switch (*p)
            {
            case '\0':
              return FALSE;

            case '"':
              /* to the closing quote, over escapes */
              for (p++;; p += 2)
                {
                  p += strcspn (p, "\"\\");
                  if (*p != '\\' || p[1] == '\0')
                    break;
                }
              if (*p == '\0')
                return FALSE;
              break;

            case '{':
            case '[':
              depth++;
              break;

            default:
              depth--;
              break;
            }
          p++;
        }
      while (depth > 0);

      slice.key.len = p - slice.key.start;
      saved = *p;
      *p = '\0';
      slice.key.hash = g_str_hash (slice.key.start);
      *p = saved;
      g_array_append_val (slices, slice);

      p = skip_space (p);
      if (*p == ',')
        p = skip_space (p + 1);
      else
        return *p == ']' && *skip_space (p + 1) == '\0';
    }
}

/* Each object's text either as it was last time or parsed alone (without
 * podman's indentation, which slows the parser); FALSE on anything wrong. */
static gboolean
parse_slices (ParseInput *input,
              JsonParser *parser,
              GArray     *slices,
              guint      *n_parsed)
{
  GHashTable *last = input->seen != NULL ? input->seen->table : NULL;
  g_autoptr(GString) scratch = g_string_new (NULL);

  for (guint i = 0; i < slices->len; i++)
    {
      Slice *slice = &g_array_index (slices, Slice, i);
      JsonObject *object;
      gpointer value;

      if (last != NULL && g_hash_table_lookup_extended (last, &slice->key, NULL, &value))
        {
          slice->value = value == NOT_A_BOX ? NOT_A_BOX : g_object_ref (value);
          continue;
        }

      (*n_parsed)++;
      g_string_truncate (scratch, 0);
      g_string_append_len (scratch, slice->key.start, slice->key.len);
      squeeze_json (scratch->str);

      if (!json_parser_load_from_data (parser, scratch->str, -1, NULL))
        return FALSE;

      object = json_node_get_object (json_parser_get_root (parser));
      if (!kiste_box_ps_json_is_distrobox (object))
        slice->value = NOT_A_BOX;
      else if (!(slice->value = kiste_box_new_from_ps_json (object, input->host_home, NULL)))
        return FALSE;
    }

  return TRUE;
}

/* podman's array, object by object; NULL if the full parser must say why not */
static GPtrArray *
parse_podman_array (ParseInput *input,
                    char       *p)
{
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (Slice));
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GBytes) text = NULL;
  SeenKey *keys;
  gsize size;
  Seen *next;

  g_array_set_clear_func (slices, (GDestroyNotify) slice_clear);

  input->n_parsed = 0;
  if (!split_array (p, slices) || !parse_slices (input, parser, slices, &input->n_parsed))
    return NULL;

  /* The text now belongs to the table, which points into it */
  size = (p - input->text) + strlen (p) + 1;
  text = g_bytes_new_take (g_steal_pointer (&input->text), size);
  keys = g_new (SeenKey, MAX (slices->len, 1));
  next = seen_new (text, keys, input->host_home);
  boxes = g_ptr_array_new_full (slices->len, g_object_unref);

  for (guint i = 0; i < slices->len; i++)
    {
      Slice *slice = &g_array_index (slices, Slice, i);

      keys[i] = slice->key;
      if (slice->value != NOT_A_BOX)
        g_ptr_array_add (boxes, g_object_ref (slice->value));
      g_hash_table_replace (next->table, &keys[i], g_steal_pointer (&slice->value));
    }

  g_clear_pointer (&input->next_seen, seen_release);
  input->next_seen = next;
  return g_steal_pointer (&boxes);
}

/* The boxes in ps output. The parser goes to garbage, so that freeing its
 * tree can wait until the boxes are on their way. */
static GPtrArray *
parse_ps_output (ParseInput  *input,
                 GPtrArray   *garbage,
                 GError     **error)
{
  g_autoptr(GPtrArray) boxes = g_ptr_array_new_with_free_func (g_object_unref);
  JsonParser *parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  char *p = input->text;

  g_ptr_array_add (garbage, parser);

  while (p != NULL && g_ascii_isspace (*p))
    p++;

  /* docker prints nothing at all when there are no containers */
  if (p == NULL || *p == '\0')
    return g_steal_pointer (&boxes);

  if (*p == '[')
    {
      JsonArray *array;
      GPtrArray *fast;

      if ((fast = parse_podman_array (input, p)))
        return fast;

      squeeze_json (p);

      if (!json_parser_load_from_data (parser, p, -1, &parse_error))
        {
          set_unreadable_error (input, parse_error, error);
          return NULL;
        }

      if (json_parser_get_root (parser) == NULL ||
          !JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
        goto not_a_list;

      array = json_node_get_array (json_parser_get_root (parser));
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          if (!add_if_box (input, json_array_get_element (array, i), boxes, error))
            return NULL;
        }
    }
  else if (*p == '{' && g_str_equal (input->manager, "docker"))
    {
      g_auto(GStrv) lines = g_strsplit (p, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_strstrip (lines[i]);
          if (lines[i][0] == '\0')
            continue;

          if (!json_parser_load_from_data (parser, lines[i], -1, &parse_error))
            {
              set_unreadable_error (input, parse_error, error);
              return NULL;
            }

          if (!add_if_box (input, json_parser_get_root (parser), boxes, error))
            return NULL;
        }
    }
  else
    {
      goto not_a_list;
    }

  return g_steal_pointer (&boxes);

not_a_list:
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("%s printed something that is not a list of containers."),
               input->manager);
  return NULL;
}

static ParseInput *
kiste_box_store_dup_parse_input (KisteBoxStore *self,
                                 char          *text,
                                 gboolean       use_seen)
{
  ParseInput *input = g_new0 (ParseInput, 1);

  input->manager = g_strdup (kiste_box_store_get_manager (self));
  input->host_home = g_strdup (self->host_home);
  input->text = text;
  input->details_serial = self->details_serial;
  if (use_seen && self->seen != NULL && g_strcmp0 (self->seen->host_home, self->host_home) == 0)
    input->seen = g_rc_box_acquire (self->seen);

  return input;
}

/* After merging: the item that took a fresh box's facts now stands for
 * that box's text. Texts of duplicate ids keep the box that lost. */
static void
kiste_box_store_keep_seen (KisteBoxStore *self,
                           GPtrArray     *boxes,
                           ParseInput    *input)
{
  g_autoptr(GHashTable) first = NULL;
  g_autoptr(GHashTable) items = NULL;
  Seen *next = input != NULL ? g_steal_pointer (&input->next_seen) : NULL;
  GHashTableIter iter;
  gpointer value;

  g_clear_pointer (&self->seen, seen_release);

  /* Nothing parsed: every box came from the last table, already fixed up */
  if (next != NULL && input->n_parsed == 0 && input->details_serial == self->details_serial &&
      g_strcmp0 (next->host_home, self->host_home) == 0)
    {
      self->seen = next;
      return;
    }

  /* details applied meanwhile may have changed what an item says */
  if (next == NULL ||
      input->details_serial != self->details_serial ||
      g_strcmp0 (next->host_home, self->host_home) != 0)
    {
      g_clear_pointer (&next, seen_release);
      return;
    }

  first = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < boxes->len; i++)
    {
      KisteBox *box = g_ptr_array_index (boxes, i);

      if (!g_hash_table_contains (first, kiste_box_get_id (box)))
        g_hash_table_insert (first, (gpointer) kiste_box_get_id (box), box);
    }

  items = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->items->len; i++)
    {
      KisteBox *item = g_ptr_array_index (self->items, i);

      g_hash_table_insert (items, (gpointer) kiste_box_get_id (item), item);
    }

  g_hash_table_iter_init (&iter, next->table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      KisteBox *item;

      if (value == NOT_A_BOX || g_hash_table_lookup (first, kiste_box_get_id (value)) != value)
        continue;

      item = g_hash_table_lookup (items, kiste_box_get_id (value));
      if (item != NULL && item != value)
        g_hash_table_iter_replace (&iter, g_object_ref (item));
    }

  self->seen = next;
}

/* Boxes about to take inspect output no longer say what their ps text
 * says; the table may be in a thread's hands, so it is copied, not changed. */
static void
kiste_box_store_forget_seen (KisteBoxStore *self,
                             GPtrArray     *boxes)
{
  Seen *next;
  SeenKey *keys;
  GHashTableIter iter;
  gpointer key;
  gpointer value;
  guint n = 0;

  self->details_serial++;

  if (self->seen == NULL)
    return;

  keys = g_new (SeenKey, MAX (g_hash_table_size (self->seen->table), 1));
  next = seen_new (self->seen->text, keys, self->seen->host_home);
  g_hash_table_iter_init (&iter, self->seen->table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (value != NOT_A_BOX && g_ptr_array_find (boxes, value, NULL))
        continue;

      keys[n] = *(SeenKey *) key;
      g_hash_table_insert (next->table, &keys[n++], value == NOT_A_BOX ? NOT_A_BOX : g_object_ref (value));
    }

  seen_release (self->seen);
  self->seen = next;
}

gboolean
_kiste_box_store_parse (KisteBoxStore  *self,
                        const char     *text,
                        GPtrArray     **boxes_out,
                        GError        **error)
{
  g_autoptr(GPtrArray) garbage = g_ptr_array_new_with_free_func (g_object_unref);
  ParseInput *input;
  GPtrArray *boxes;

  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);
  g_return_val_if_fail (boxes_out != NULL, FALSE);

  input = kiste_box_store_dup_parse_input (self, g_strdup (text), FALSE);
  boxes = parse_ps_output (input, garbage, error);
  parse_input_free (input);

  *boxes_out = boxes;
  return boxes != NULL;
}

/* Merging */

static int
compare_box_names (gconstpointer a,
                   gconstpointer b)
{
  KisteBox *box_a = *(KisteBox * const *) a;
  KisteBox *box_b = *(KisteBox * const *) b;

  return g_strcmp0 (kiste_box_get_name (box_a), kiste_box_get_name (box_b));
}

/* The box whose copy has image: distrobox create --clone commits the
 * source to "localhost/<lowercase name>:<date>" (docker: no "localhost/") */
static KisteBox *
kiste_box_store_find_clone_source (KisteBoxStore *self,
                                   const char    *image)
{
  g_autofree char *repository = NULL;
  const char *colon;

  if (image == NULL)
    return NULL;
  if (g_str_has_prefix (image, "localhost/"))
    image += strlen ("localhost/");
  if (strchr (image, '/') != NULL || (colon = strrchr (image, ':')) == NULL)
    return NULL;
  repository = g_strndup (image, colon - image);

  for (guint i = 0; i < self->items->len; i++)
    {
      KisteBox *box = g_ptr_array_index (self->items, i);
      g_autofree char *lower = g_ascii_strdown (kiste_box_get_name (box), -1);

      if (g_str_equal (lower, repository))
        return box;
    }
  return NULL;
}

/* A clone's image name says nothing of its distribution; its source's
 * does. Twice, for copies of copies. */
static void
kiste_box_store_learn_distros (KisteBoxStore *self)
{
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->items->len; i++)
      {
        KisteBox *box = g_ptr_array_index (self->items, i);
        KisteBox *source;

        if (!g_str_equal (kiste_box_get_distro_id (box), KISTE_DISTRO_GENERIC))
          continue;
        source = kiste_box_store_find_clone_source (self, kiste_box_get_image (box));
        if (source != NULL && source != box)
          kiste_box_set_distro_origin (box, kiste_box_get_distro_id (source));
      }
}

/* Whether boxes holds exactly the objects of items: what a refresh of an
 * unchanged list gives, and a merge of it would change nothing */
static gboolean
same_objects (GPtrArray *items,
              GPtrArray *boxes)
{
  g_autoptr(GHashTable) left = NULL;

  if (items->len != boxes->len)
    return FALSE;

  left = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < items->len; i++)
    g_hash_table_add (left, g_ptr_array_index (items, i));

  for (guint i = 0; i < boxes->len; i++)
    {
      if (!g_hash_table_remove (left, g_ptr_array_index (boxes, i)))
        return FALSE;
    }

  return g_hash_table_size (left) == 0;
}

void
_kiste_box_store_merge (KisteBoxStore *self,
                        GPtrArray     *boxes)
{
  g_autoptr(GHashTable) incoming = NULL;
  g_autoptr(GHashTable) kept = NULL;
  g_autoptr(GPtrArray) added = NULL;
  guint old_len;
  guint i;

  g_return_if_fail (KISTE_IS_BOX_STORE (self));
  g_return_if_fail (boxes != NULL);

  if (same_objects (self->items, boxes))
    return;

  old_len = self->items->len;
  incoming = g_hash_table_new (g_str_hash, g_str_equal);
  kept = g_hash_table_new (g_str_hash, g_str_equal);
  added = g_ptr_array_new_with_free_func (g_object_unref);

  for (i = 0; i < boxes->len; i++)
    {
      KisteBox *box = g_ptr_array_index (boxes, i);

      /* the first of duplicate ids wins */
      if (!g_hash_table_contains (incoming, kiste_box_get_id (box)))
        g_hash_table_insert (incoming, (gpointer) kiste_box_get_id (box), box);
    }

  /* Removals, from the end so earlier positions stay valid; neighbours
   * removed together are one items-changed. */
  i = self->items->len;
  while (i > 0)
    {
      guint end;

      i--;
      if (g_hash_table_contains (incoming, kiste_box_get_id (g_ptr_array_index (self->items, i))))
        continue;

      end = i + 1;
      while (i > 0 &&
             !g_hash_table_contains (incoming, kiste_box_get_id (g_ptr_array_index (self->items, i - 1))))
        i--;

      g_ptr_array_remove_range (self->items, i, end - i);
      g_list_model_items_changed (G_LIST_MODEL (self), i, end - i, 0);
    }

  /* Updates in place: properties notify, positions stay */
  for (i = 0; i < self->items->len; i++)
    {
      KisteBox *box = g_ptr_array_index (self->items, i);
      KisteBox *fresh = g_hash_table_lookup (incoming, kiste_box_get_id (box));

      g_hash_table_add (kept, (gpointer) kiste_box_get_id (box));
      kiste_box_update_from (box, fresh);
    }

  for (i = 0; i < boxes->len; i++)
    {
      KisteBox *box = g_ptr_array_index (boxes, i);

      if (g_hash_table_contains (kept, kiste_box_get_id (box)) ||
          g_hash_table_lookup (incoming, kiste_box_get_id (box)) != box)
        continue;

      g_ptr_array_add (added, g_object_ref (box));
    }

  if (added->len > 0)
    {
      guint position = self->items->len;

      g_ptr_array_sort (added, compare_box_names);
      for (i = 0; i < added->len; i++)
        g_ptr_array_add (self->items, g_object_ref (g_ptr_array_index (added, i)));

      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, added->len);
    }

  kiste_box_store_learn_distros (self);

  if (self->items->len != old_len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

/* Refreshing */

static gboolean
kiste_box_store_delay_cb (gpointer user_data)
{
  KisteBoxStore *self = user_data;

  g_clear_pointer (&self->delay_source, g_source_unref);
  kiste_box_store_start_refresh (self, TRUE);

  return G_SOURCE_REMOVE;
}

/* A refresh for events: soon, shared with whatever else asks meanwhile */
static void
kiste_box_store_schedule_refresh (KisteBoxStore *self)
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
  /* emptied below, once applied: the refresh queued by those events follows */

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
      kiste_box_store_keep_seen (self, boxes, input);

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
        g_clear_pointer (&self->seen, seen_release);

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

  g_hash_table_remove_all (self->event_states);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);

  g_object_thaw_notify (G_OBJECT (self));

  complete_waiters (&waiters, error);

  /* Unless a callback above already started one */
  if (!self->refreshing)
    {
      if (self->next_waiters.length > 0)
        kiste_box_store_start_refresh (self, FALSE);
      else if (self->queued)
        {
          self->queued = FALSE;
          kiste_box_store_schedule_refresh (self);
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
  GPtrArray *boxes = parse_ps_output (task_data, garbage, &error);

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

  weak_ref_free (ref);

  boxes = g_task_propagate_pointer (G_TASK (result), &error);
  if (self != NULL)
    kiste_box_store_finish_refresh (self, boxes, input, error);

  /* boxes in the tables are let go here, never in the worker thread */
  g_clear_pointer (&input->seen, seen_release);
  g_clear_pointer (&input->next_seen, seen_release);
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

  weak_ref_free (ref);

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error) ||
      self == NULL)
    {
      if (self != NULL)
        kiste_box_store_finish_refresh (self, NULL, NULL, error);
      return;
    }

  length = strlen (stdout_buf);
  input = kiste_box_store_dup_parse_input (self, g_steal_pointer (&stdout_buf), TRUE);

  /* Hundreds of new boxes take tens of milliseconds to parse: not on the
   * thread that draws the window. */
  if (length >= PARSE_IN_THREAD_BYTES)
    {
      /* No source object: the worker thread may drop the task last, and
       * the store must never be finalized there. */
      g_autoptr(GTask) task = g_task_new (NULL, self->refresh_cancellable,
                                          kiste_box_store_parsed_cb, weak_ref_new (self));

      g_task_set_source_tag (task, kiste_box_store_refresh_cb);
      g_task_set_task_data (task, input, (GDestroyNotify) parse_input_free);
      g_task_run_in_thread (task, parse_thread);
      return;
    }

  garbage = g_ptr_array_new_with_free_func (g_object_unref);
  boxes = parse_ps_output (input, garbage, &error);
  kiste_box_store_finish_refresh (self, boxes, input, error);
  parse_input_free (input);
}

static char **
kiste_box_store_dup_ps_argv (KisteBoxStore *self)
{
  const char *manager = kiste_box_store_get_manager (self);
  const char *format = kiste_box_store_is_docker (self) ? "{{json .}}" : "json";
  const char * const argv[] = { manager, "ps", "-a", "--no-trunc", "--format", format, NULL };

  return g_strdupv ((char **) argv);
}

static void
kiste_box_store_start_refresh (KisteBoxStore *self,
                               gboolean       internal)
{
  g_auto(GStrv) argv = kiste_box_store_dup_ps_argv (self);
  GTask *task;

  clear_source (&self->delay_source);

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
                          kiste_box_store_refresh_cb, weak_ref_new (self));

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
    kiste_box_store_start_refresh (self, FALSE);
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
attributes_say_distrobox (JsonObject *attributes)
{
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;

  if (g_strcmp0 (json_string_member (attributes, "manager"), "distrobox") == 0)
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
  type = json_string_member (object, "Type");
  if (type != NULL && !g_str_equal (type, "container"))
    return FALSE;

  if (!(status = json_string_member (object, "Status")) &&
      !(status = json_string_member (object, "Action")))
    status = json_string_member (object, "status");

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

  if (!(id = json_string_member (object, "ID")) &&
      !(id = json_string_member (object, "id")) &&
      actor != NULL)
    id = json_string_member (actor, "ID");

  if ((node = json_object_get_member (actor != NULL ? actor : object, "Attributes")) &&
      JSON_NODE_HOLDS_OBJECT (node))
    attributes = json_node_get_object (node);

  /* Someone else's container: the labels are in the attributes. Boxes
   * without labels (distrobox < 1.4) are known by id. */
  if (attributes != NULL &&
      !attributes_say_distrobox (attributes) &&
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
          g_clear_pointer (&self->seen, seen_release);
        }
    }

  kiste_box_store_schedule_refresh (self);
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
  kiste_box_store_schedule_refresh (self);

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
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATCHING]);
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
  const char *manager = kiste_box_store_get_manager (self);
  const char *format = kiste_box_store_is_docker (self) ? "{{json .}}" : "json";
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
                             kiste_box_store_event_line_cb, weak_ref_new (self), weak_ref_free,
                             self->watch_cancellable,
                             kiste_box_store_stream_done_cb, data);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPAWN_COUNT]);
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
    kiste_box_store_start_refresh (self, TRUE);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATCHING]);
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
  clear_source (&self->restart_source);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATCHING]);
}

gboolean
kiste_box_store_get_watching (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);

  return self->watching;
}

/* Details */

static void
kiste_box_store_details_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteBoxStore *self = g_task_get_source_object (task);
  GPtrArray *boxes = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) apply_error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *stdout_buf = NULL;
  g_autofree gboolean *applied = g_new0 (gboolean, boxes->len);
  gboolean parsed = FALSE;

  if (self != NULL)
    kiste_box_store_forget_seen (self, boxes);

  kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error);

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Even when one box is gone (exit 125), the others are printed */
  if (stdout_buf != NULL &&
      json_parser_load_from_data (parser, stdout_buf, -1, NULL) &&
      json_parser_get_root (parser) != NULL &&
      JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      JsonArray *array = json_node_get_array (json_parser_get_root (parser));

      parsed = TRUE;

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);
          JsonObject *element;
          const char *id;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;

          element = json_node_get_object (node);
          if (!(id = json_string_member (element, "Id")))
            continue;

          for (guint j = 0; j < boxes->len; j++)
            {
              KisteBox *box = g_ptr_array_index (boxes, j);

              if (applied[j] || !g_str_equal (kiste_box_get_id (box), id))
                continue;

              if (kiste_box_apply_inspect_json (box, element, apply_error ? NULL : &apply_error))
                applied[j] = TRUE;
            }
        }
    }

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!parsed)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                               _("Could not read the details of the boxes from %s."),
                               kiste_box_store_get_manager (self));
      return;
    }

  if (apply_error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&apply_error));
      return;
    }

  for (guint j = 0; j < boxes->len; j++)
    {
      if (!applied[j])
        {
          g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                                   _("The box “%s” no longer exists."),
                                   kiste_box_get_name (g_ptr_array_index (boxes, j)));
          return;
        }
    }

  g_task_return_boolean (task, TRUE);
}

void
kiste_box_store_load_details_async (KisteBoxStore        *self,
                                    KisteBox * const     *boxes,
                                    guint                 n_boxes,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) argv = NULL;
  GPtrArray *requested;

  g_return_if_fail (KISTE_IS_BOX_STORE (self));
  g_return_if_fail (boxes != NULL || n_boxes == 0);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  for (guint i = 0; i < n_boxes; i++)
    g_return_if_fail (KISTE_IS_BOX (boxes[i]));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_store_load_details_async);

  if (n_boxes == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  requested = g_ptr_array_new_full (n_boxes, g_object_unref);
  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, kiste_box_store_get_manager (self), "container", "inspect", NULL);
  /* docker prints a JSON array by default; its --format json means lines */
  if (!kiste_box_store_is_docker (self))
    g_strv_builder_add_many (builder, "--format", "json", NULL);

  for (guint i = 0; i < n_boxes; i++)
    {
      g_ptr_array_add (requested, g_object_ref (boxes[i]));
      /* ids: a name could have changed since the list was read */
      g_strv_builder_add (builder, kiste_box_get_id (boxes[i]));
    }

  argv = g_strv_builder_end (builder);
  g_task_set_task_data (task, requested, (GDestroyNotify) g_ptr_array_unref);

  self->spawn_count++;
  kiste_runner_run_async (self->runner, (const char * const *) argv, self->timeout_ms,
                          cancellable, kiste_box_store_details_cb, g_steal_pointer (&task));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPAWN_COUNT]);
}

gboolean
kiste_box_store_load_details_finish (KisteBoxStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_box_store_load_details_async,
                        FALSE);

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
      g_clear_pointer (&self->seen, seen_release);
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
kiste_box_store_get_refresh_count (KisteBoxStore *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), 0);

  return self->refresh_count;
}

guint
kiste_box_store_get_spawn_count (KisteBoxStore *self)
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

  clear_source (&self->delay_source);
  clear_source (&self->restart_source);

  G_OBJECT_CLASS (kiste_box_store_parent_class)->dispose (object);
}

static void
kiste_box_store_finalize (GObject *object)
{
  KisteBoxStore *self = (KisteBoxStore *) object;

  g_clear_object (&self->runner);
  g_clear_object (&self->watch_cancellable);
  g_clear_object (&self->refresh_cancellable);
  g_clear_pointer (&self->host_home, g_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->seen, seen_release);
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
