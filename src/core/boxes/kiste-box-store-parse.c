/* kiste-box-store-parse.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box store's ps output into boxes, in a worker thread when it is
 * long, and the boxes merged into the list. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-box-private.h"
#include "kiste-box-store-state-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"

#define NOT_A_BOX ((gpointer) &not_a_box)
static const char not_a_box;

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
void
_kiste_box_store_seen_release (Seen *seen)
{
  g_rc_box_release_full (seen, (GDestroyNotify) seen_clear);
}


void
_kiste_box_store_parse_input_free (ParseInput *input)
{
  g_free (input->manager);
  g_free (input->host_home);
  g_free (input->text);
  g_clear_pointer (&input->seen, _kiste_box_store_seen_release);
  g_clear_pointer (&input->next_seen, _kiste_box_store_seen_release);
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

  if (!kiste_box_ps_json_is_distrobox (object) && !kiste_box_ps_json_is_toolbox (object))
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
      if (!kiste_box_ps_json_is_distrobox (object) && !kiste_box_ps_json_is_toolbox (object))
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

  g_clear_pointer (&input->next_seen, _kiste_box_store_seen_release);
  input->next_seen = next;
  return g_steal_pointer (&boxes);
}

/* The boxes in ps output. The parser goes to garbage, so that freeing its
 * tree can wait until the boxes are on their way. */
GPtrArray *
_kiste_box_store_parse_ps_output (ParseInput  *input,
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

ParseInput *
_kiste_box_store_dup_parse_input (KisteBoxStore *self,
                                  char          *text,
                                  gboolean       use_seen)
{
  ParseInput *input = g_new0 (ParseInput, 1);

  input->manager = g_strdup (_kiste_box_store_get_manager (self));
  input->host_home = g_strdup (self->host_home);
  input->text = text;
  input->details_serial = self->details_serial;
  if (use_seen && self->seen != NULL && g_strcmp0 (self->seen->host_home, self->host_home) == 0)
    input->seen = g_rc_box_acquire (self->seen);

  return input;
}

/* After merging: the item that took a fresh box's facts now stands for
 * that box's text. Texts of duplicate ids keep the box that lost. */
void
_kiste_box_store_keep_seen (KisteBoxStore *self,
                            GPtrArray     *boxes,
                            ParseInput    *input)
{
  g_autoptr(GHashTable) first = NULL;
  g_autoptr(GHashTable) items = NULL;
  Seen *next = input != NULL ? g_steal_pointer (&input->next_seen) : NULL;
  GHashTableIter iter;
  gpointer value;

  g_clear_pointer (&self->seen, _kiste_box_store_seen_release);

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
      g_clear_pointer (&next, _kiste_box_store_seen_release);
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
void
_kiste_box_store_forget_seen (KisteBoxStore *self,
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

  _kiste_box_store_seen_release (self->seen);
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

  input = _kiste_box_store_dup_parse_input (self, g_strdup (text), FALSE);
  boxes = _kiste_box_store_parse_ps_output (input, garbage, error);
  _kiste_box_store_parse_input_free (input);

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
        {
          KisteBox *box = g_ptr_array_index (added, i);

          _kiste_box_set_engine (box, _kiste_box_store_get_manager (self));
          g_ptr_array_add (self->items, g_object_ref (box));
        }

      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, added->len);
    }

  kiste_box_store_learn_distros (self);

  if (self->items->len != old_len)
    _kiste_box_store_notify (self, PROP_N_ITEMS);
}
