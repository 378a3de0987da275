/* kiste-boxfile-image.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The names inside a box file's image archive, checked before the engine
 * loads it. podman and docker tag what they load with the names the
 * archive itself gives: an OCI index's annotations, docker's manifest.json
 * RepoTags and its older repositories file. A crafted archive could name
 * one of the user's own images and retag it; only the one name of the box
 * file's index may be there.
 *
 * The archive is the engine's tar: its headers are walked with the data
 * skipped (plain, GNU and pax headers), and only those three small files
 * are read, each within a bound. */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-error.h"

/* Bounds of what is read of the archive */
#define MAX_MEMBERS      200000
#define MAX_EXTENDED     (64 * 1024)
#define MAX_NAMES_FILE   (1024 * 1024)
#define MAX_MANIFESTS    16

#define NAME_FIELD 100
#define SIZE_OFFSET 124
#define SIZE_FIELD 12
#define CHECKSUM_OFFSET 148
#define TYPE_OFFSET 156
#define MAGIC_OFFSET 257
#define PREFIX_OFFSET 345
#define PREFIX_FIELD 155

#define REF_NAME "org.opencontainers.image.ref.name"
#define CONTAINERD_NAME "io.containerd.image.name"

static gboolean
refuse (GError     **error,
        const char  *why)
{
  return kiste_set_invalid_input (error, _("The box file’s image cannot be loaded safely: %s"),
                                  why);
}

static gboolean
header_checksum_ok (const guchar block[KISTE_TAR_BLOCK])
{
  guint64 sum = 0;
  guint64 stored = 0;
  gsize i = 0;
  gboolean digits = FALSE;

  for (guint j = 0; j < KISTE_TAR_BLOCK; j++)
    sum += (j >= CHECKSUM_OFFSET && j < CHECKSUM_OFFSET + 8) ? ' ' : block[j];
  while (i < 8 && block[CHECKSUM_OFFSET + i] == ' ')
    i++;
  for (; i < 8 && block[CHECKSUM_OFFSET + i] >= '0' && block[CHECKSUM_OFFSET + i] <= '7'; i++)
    {
      stored = (stored << 3) | (guint64) (block[CHECKSUM_OFFSET + i] - '0');
      digits = TRUE;
    }
  return digits && stored == sum;
}

static gboolean
read_size (const guchar *field,
           guint64      *size)
{
  guint64 result = 0;
  gsize i = 0;
  gboolean digits = FALSE;

  if (field[0] == 0x80)
    {
      for (i = 1; i < SIZE_FIELD - 8; i++)
        if (field[i] != 0)
          return FALSE;
      for (i = SIZE_FIELD - 8; i < SIZE_FIELD; i++)
        result = (result << 8) | field[i];
      *size = result;
      return result <= G_MAXINT64;
    }
  while (i < SIZE_FIELD && field[i] == ' ')
    i++;
  for (; i < SIZE_FIELD && field[i] >= '0' && field[i] <= '7'; i++)
    {
      result = (result << 3) | (guint64) (field[i] - '0');
      digits = TRUE;
    }
  for (; i < SIZE_FIELD; i++)
    if (field[i] != ' ' && field[i] != '\0')
      return FALSE;
  *size = result;
  return digits;
}

/* The archive's path of a member without "./" and "/" in front: what the
 * engines look the files up by */
static char *
normalize_path (const char *path)
{
  while (TRUE)
    {
      if (path[0] == '/')
        path++;
      else if (path[0] == '.' && path[1] == '/')
        path += 2;
      else
        break;
    }
  return g_strdup (path);
}

static gboolean
is_names_file (const char *path)
{
  return g_str_equal (path, "index.json") || g_str_equal (path, "manifest.json") ||
         g_str_equal (path, "repositories");
}

/* The "path" record of a pax extended header, or NULL; FALSE when the
 * header cannot be read */
static gboolean
pax_path (const guchar  *data,
          gsize          length,
          char         **path)
{
  gsize at = 0;

  while (at < length)
    {
      guint64 record = 0;
      gsize i = at;
      const guchar *equals;
      const guchar *key;

      for (; i < length && g_ascii_isdigit (data[i]); i++)
        {
          record = record * 10 + (data[i] - '0');
          if (record > length)
            return FALSE;
        }
      if (i == at || i >= length || data[i] != ' ' || record < 4 || at + record > length ||
          data[at + record - 1] != '\n')
        return FALSE;
      key = data + i + 1;
      equals = memchr (key, '=', data + at + record - 1 - key);
      if (equals == NULL)
        return FALSE;
      if (equals - key == 4 && memcmp (key, "path", 4) == 0)
        {
          const guchar *value = equals + 1;
          gsize value_len = data + at + record - 1 - value;

          if (memchr (value, '\0', value_len) != NULL)
            return FALSE;
          g_free (*path);
          *path = g_strndup ((const char *) value, value_len);
        }
      at += record;
    }
  return TRUE;
}

static gboolean
read_all (GInputStream  *in,
          guchar        *buffer,
          gsize          length,
          GCancellable  *cancellable,
          GError       **error)
{
  gsize got = 0;

  if (!g_input_stream_read_all (in, buffer, length, &got, cancellable, error))
    return FALSE;
  if (got != length)
    return refuse (error, _("its archive is cut off."));
  return TRUE;
}

static gboolean
skip_data (GInputStream  *in,
           guint64        size,
           GCancellable  *cancellable,
           GError       **error)
{
  guint64 padded = size + (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK;

  if (padded == 0)
    return TRUE;
  if (padded > G_MAXINT64 ||
      !g_seekable_seek (G_SEEKABLE (in), (goffset) padded, G_SEEK_CUR, cancellable, error))
    return FALSE;
  return TRUE;
}

/* Reads size bytes (at most limit) and the padding after them */
static GBytes *
read_data (GInputStream  *in,
           guint64        size,
           gsize          limit,
           GCancellable  *cancellable,
           GError       **error)
{
  g_autofree guchar *buffer = NULL;
  gsize pad = (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK;

  if (size > limit)
    {
      refuse (error, _("a file in its archive is too large."));
      return NULL;
    }
  buffer = g_malloc (size + pad + 1);
  if (!read_all (in, buffer, size + pad, cancellable, error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&buffer), size);
}

/* Every name in one of the three files, added to names; FALSE when the
 * file cannot be read as what it should be */
static gboolean
collect_names (const char *path,
               GBytes     *bytes,
               GPtrArray  *names,
               GPtrArray  *ref_names)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize length = 0;
  const char *data = g_bytes_get_data (bytes, &length);
  JsonNode *root;

  if (length == 0 || !g_utf8_validate_len (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, NULL) ||
      !(root = json_parser_get_root (parser)))
    return FALSE;

  if (g_str_equal (path, "index.json"))
    {
      JsonObject *object;
      JsonNode *manifests;
      JsonArray *array;

      if (!JSON_NODE_HOLDS_OBJECT (root))
        return FALSE;
      object = json_node_get_object (root);
      manifests = json_object_get_member (object, "manifests");
      if (manifests == NULL || !JSON_NODE_HOLDS_ARRAY (manifests))
        return FALSE;
      array = json_node_get_array (manifests);
      if (json_array_get_length (array) == 0 || json_array_get_length (array) > MAX_MANIFESTS)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          JsonNode *annotations;
          JsonObject *map;
          g_autoptr(GList) keys = NULL;

          if (!JSON_NODE_HOLDS_OBJECT (entry))
            return FALSE;
          annotations = json_object_get_member (json_node_get_object (entry), "annotations");
          if (annotations == NULL || JSON_NODE_HOLDS_NULL (annotations))
            continue;
          if (!JSON_NODE_HOLDS_OBJECT (annotations))
            return FALSE;
          map = json_node_get_object (annotations);
          keys = json_object_get_members (map);
          for (GList *l = keys; l != NULL; l = l->next)
            {
              JsonNode *value = json_object_get_member (map, l->data);
              gboolean is_ref = g_str_equal (l->data, REF_NAME);

              if (!is_ref && !g_str_equal (l->data, CONTAINERD_NAME))
                continue;
              if (!JSON_NODE_HOLDS_VALUE (value) ||
                  json_node_get_value_type (value) != G_TYPE_STRING)
                return FALSE;
              g_ptr_array_add (is_ref ? ref_names : names,
                               g_strdup (json_node_get_string (value)));
            }
        }
      return TRUE;
    }

  if (g_str_equal (path, "manifest.json"))
    {
      JsonArray *array;

      if (!JSON_NODE_HOLDS_ARRAY (root))
        return FALSE;
      array = json_node_get_array (root);
      if (json_array_get_length (array) == 0 || json_array_get_length (array) > MAX_MANIFESTS)
        return FALSE;
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *entry = json_array_get_element (array, i);
          JsonNode *tags;
          JsonArray *list;

          if (!JSON_NODE_HOLDS_OBJECT (entry))
            return FALSE;
          tags = json_object_get_member (json_node_get_object (entry), "RepoTags");
          if (tags == NULL || JSON_NODE_HOLDS_NULL (tags))
            continue;
          if (!JSON_NODE_HOLDS_ARRAY (tags))
            return FALSE;
          list = json_node_get_array (tags);
          if (json_array_get_length (list) > MAX_MANIFESTS)
            return FALSE;
          for (guint j = 0; j < json_array_get_length (list); j++)
            {
              JsonNode *tag = json_array_get_element (list, j);

              if (!JSON_NODE_HOLDS_VALUE (tag) || json_node_get_value_type (tag) != G_TYPE_STRING)
                return FALSE;
              g_ptr_array_add (names, g_strdup (json_node_get_string (tag)));
            }
        }
      return TRUE;
    }

  /* repositories: { "REPO": { "TAG": "ID" } } */
  {
    JsonObject *object;
    g_autoptr(GList) repos = NULL;

    if (!JSON_NODE_HOLDS_OBJECT (root))
      return FALSE;
    object = json_node_get_object (root);
    repos = json_object_get_members (object);
    if (g_list_length (repos) > MAX_MANIFESTS)
      return FALSE;
    for (GList *l = repos; l != NULL; l = l->next)
      {
        JsonNode *node = json_object_get_member (object, l->data);
        g_autoptr(GList) tags = NULL;

        if (!JSON_NODE_HOLDS_OBJECT (node))
          return FALSE;
        tags = json_object_get_members (json_node_get_object (node));
        if (g_list_length (tags) > MAX_MANIFESTS)
          return FALSE;
        for (GList *t = tags; t != NULL; t = t->next)
          g_ptr_array_add (names, g_strdup_printf ("%s:%s", (const char *) l->data,
                                                   (const char *) t->data));
      }
    return TRUE;
  }
}

/* The name as docker writes it in an OCI index's ref.name: the tag alone */
static const char *
image_tag (const char *image)
{
  const char *slash = strrchr (image, '/');
  const char *colon = strrchr (slash ? slash : image, ':');

  return colon ? colon + 1 : NULL;
}

static gboolean
check_names (GPtrArray   *names,
             GPtrArray   *ref_names,
             const char  *engine,
             const char  *image,
             GError     **error)
{
  const char *tag = image_tag (image);

  for (guint i = 0; i < names->len; i++)
    if (!g_str_equal (g_ptr_array_index (names, i), image))
      return refuse (error, _("its archive names another image."));
  for (guint i = 0; i < ref_names->len; i++)
    {
      const char *name = g_ptr_array_index (ref_names, i);

      /* docker writes the tag alone there, beside containerd's whole
       * name; docker never reads a name from it, podman would */
      if (g_str_equal (name, image) ||
          (g_strcmp0 (engine, "docker") == 0 && tag != NULL && g_str_equal (name, tag) &&
           names->len > 0))
        continue;
      return refuse (error, _("its archive names another image."));
    }
  if (names->len + ref_names->len == 0)
    return refuse (error, _("its archive names no image."));
  return TRUE;
}

gboolean
kiste_boxfile_check_image_archive (const char    *path,
                                   const char    *engine,
                                   const char    *image,
                                   gboolean      *docker_archive,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) ref_names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *long_name = NULL;
  g_autofree char *pax_name = NULL;
  GInputStream *in;
  guint members = 0;

  g_return_val_if_fail (path != NULL && image != NULL, FALSE);

  file = g_file_new_for_path (path);
  if (!(stream = g_file_read (file, cancellable, error)))
    return FALSE;
  in = G_INPUT_STREAM (stream);

  for (;;)
    {
      guchar block[KISTE_TAR_BLOCK];
      g_autofree char *member = NULL;
      g_autofree char *normalized = NULL;
      guint64 size = 0;
      gboolean zero = TRUE;
      guchar type;

      if (!read_all (in, block, sizeof block, cancellable, error))
        return FALSE;
      for (guint i = 0; i < KISTE_TAR_BLOCK && zero; i++)
        zero = block[i] == 0;
      if (zero)
        break;
      if (++members > MAX_MEMBERS)
        return refuse (error, _("its archive holds too many files."));
      if (!header_checksum_ok (block) || !read_size (block + SIZE_OFFSET, &size))
        return refuse (error, _("its archive is damaged."));
      type = block[TYPE_OFFSET];

      /* headers that name or describe the next member */
      if (type == 'L' || type == 'x' || type == 'g')
        {
          g_autoptr(GBytes) data = read_data (in, size, MAX_EXTENDED, cancellable, error);
          gsize length = 0;
          const guchar *bytes;

          if (data == NULL)
            return FALSE;
          bytes = g_bytes_get_data (data, &length);
          if (type == 'L')
            {
              g_free (long_name);
              long_name = g_strndup ((const char *) bytes, length);
            }
          else
            {
              g_autofree char *global_path = NULL;

              if (!pax_path (bytes, length, type == 'x' ? &pax_name : &global_path))
                return refuse (error, _("its archive is damaged."));
              /* a path for every member that follows: never the engines' */
              if (global_path != NULL)
                return refuse (error, _("its archive is damaged."));
            }
          continue;
        }

      if (pax_name != NULL)
        member = g_steal_pointer (&pax_name);
      else if (long_name != NULL)
        member = g_steal_pointer (&long_name);
      else
        {
          char name[NAME_FIELD + 1];
          char prefix[PREFIX_FIELD + 1];

          memcpy (name, block, NAME_FIELD);
          name[NAME_FIELD] = '\0';
          /* ustar's prefix; GNU's header keeps other fields there */
          if (memcmp (block + MAGIC_OFFSET, "ustar\0", 6) == 0 && block[PREFIX_OFFSET] != '\0')
            {
              memcpy (prefix, block + PREFIX_OFFSET, PREFIX_FIELD);
              prefix[PREFIX_FIELD] = '\0';
              member = g_strconcat (prefix, "/", name, NULL);
            }
          else
            member = g_strdup (name);
        }
      g_clear_pointer (&pax_name, g_free);
      g_clear_pointer (&long_name, g_free);

      normalized = normalize_path (member);
      if (!is_names_file (normalized))
        {
          if (!skip_data (in, size, cancellable, error))
            return FALSE;
          continue;
        }

      /* what the engines read the names from: once, a plain file */
      if (type != '0' && type != '\0')
        return refuse (error, _("its archive holds a link where the image’s names should be."));
      if (!g_hash_table_add (seen, g_strdup (normalized)))
        return refuse (error, _("its archive holds the image’s names twice."));
      {
        g_autoptr(GBytes) data = read_data (in, size, MAX_NAMES_FILE, cancellable, error);

        if (data == NULL)
          return FALSE;
        if (!collect_names (normalized, data, names, ref_names))
          return refuse (error, _("the image’s names in its archive cannot be read."));
      }
    }

  if (!g_hash_table_contains (seen, "index.json") && !g_hash_table_contains (seen, "manifest.json"))
    return refuse (error, _("its archive is not an image the engines know."));
  if (!check_names (names, ref_names, engine, image, error))
    return FALSE;
  /* podman loads an archive with an OCI index as an OCI archive */
  if (docker_archive != NULL)
    *docker_archive = !g_hash_table_contains (seen, "index.json");
  return TRUE;
}

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  char **args = task_data;
  GError *error = NULL;
  gboolean docker_archive = FALSE;

  if (!kiste_boxfile_check_image_archive (args[0], args[1][0] ? args[1] : NULL, args[2],
                                          &docker_archive, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_int (task, docker_archive ? 1 : 0);
}

void
kiste_boxfile_check_image_archive_async (const char          *path,
                                         const char          *engine,
                                         const char          *image,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  char **args = g_new0 (char *, 4);

  g_return_if_fail (path != NULL && image != NULL);

  args[0] = g_strdup (path);
  args[1] = g_strdup (engine != NULL ? engine : "");
  args[2] = g_strdup (image);
  g_task_set_source_tag (task, kiste_boxfile_check_image_archive_async);
  g_task_set_task_data (task, args, (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, check_thread);
}

gboolean
kiste_boxfile_check_image_archive_finish (GAsyncResult  *result,
                                          gboolean      *docker_archive,
                                          GError       **error)
{
  gssize kind = g_task_propagate_int (G_TASK (result), error);

  if (kind < 0)
    return FALSE;
  if (docker_archive != NULL)
    *docker_archive = kind == 1;
  return TRUE;
}
