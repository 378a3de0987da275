/* kiste-snapshot.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Snapshots of boxes: their image names, the engine's commit, listing and
 * removal as argv, and the listing read back. What the engine prints about
 * images is data from whoever made them: only names Kiste gives its own
 * snapshots count. */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "kiste-error.h"
#include "kiste-snapshot.h"
#include "kiste-validate.h"

/* "-YYYYMMDD-HHMMSS" after the box's name in the tag */
#define TIME_SUFFIX_LENGTH 16

struct _KisteSnapshot
{
  GObject    parent_instance;

  char      *image;
  char      *box_name;
  char      *id;
  GDateTime *time;
  char      *size_text;
};

G_DEFINE_FINAL_TYPE (KisteSnapshot, kiste_snapshot, G_TYPE_OBJECT)

static void
kiste_snapshot_finalize (GObject *object)
{
  KisteSnapshot *self = KISTE_SNAPSHOT (object);

  g_free (self->image);
  g_free (self->box_name);
  g_free (self->id);
  g_clear_pointer (&self->time, g_date_time_unref);
  g_free (self->size_text);

  G_OBJECT_CLASS (kiste_snapshot_parent_class)->finalize (object);
}

static void
kiste_snapshot_class_init (KisteSnapshotClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kiste_snapshot_finalize;
}

static void
kiste_snapshot_init (KisteSnapshot *self)
{
}

const char *
kiste_snapshot_get_image (KisteSnapshot *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOT (self), NULL);
  return self->image;
}

const char *
kiste_snapshot_get_box_name (KisteSnapshot *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOT (self), NULL);
  return self->box_name;
}

const char *
kiste_snapshot_get_id (KisteSnapshot *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOT (self), NULL);
  return self->id;
}

GDateTime *
kiste_snapshot_get_time (KisteSnapshot *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOT (self), NULL);
  return self->time;
}

const char *
kiste_snapshot_get_size_text (KisteSnapshot *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOT (self), NULL);
  return self->size_text;
}

static GStrv argv_new (const char *first,
                       ...) G_GNUC_NULL_TERMINATED;

static GStrv
argv_new (const char *first,
          ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  va_start (args, first);
  for (const char *s = first; s != NULL; s = va_arg (args, const char *))
    g_strv_builder_add (builder, s);
  va_end (args);
  return g_strv_builder_end (builder);
}

static gboolean
check_box_name (const char  *box_name,
                GError     **error)
{
  return kiste_validate_name (box_name, NULL, error);
}

char *
kiste_snapshot_dup_image_name (const char  *box_name,
                               GDateTime   *time,
                               GError     **error)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autofree char *stamp = NULL;

  g_return_val_if_fail (time != NULL, NULL);

  if (!check_box_name (box_name, error))
    return NULL;

  utc = g_date_time_to_utc (time);
  stamp = g_date_time_format (utc, "%Y%m%d-%H%M%S");
  return g_strdup_printf (KISTE_SNAPSHOT_REPOSITORY ":%s-%s", box_name, stamp);
}

static gboolean
all_digits (const char *s,
            gsize       n)
{
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

/* TAG is NAME-YYYYMMDD-HHMMSS: the name and the time, or FALSE */
static gboolean
split_tag (const char  *image,
           char       **box_name,
           GDateTime  **time)
{
  const char *tag;
  const char *stamp;
  gsize len;
  g_autofree char *name = NULL;
  g_autoptr(GDateTime) parsed = NULL;
  int fields[6];

  if (image == NULL || !g_str_has_prefix (image, KISTE_SNAPSHOT_REPOSITORY ":"))
    return FALSE;
  tag = image + strlen (KISTE_SNAPSHOT_REPOSITORY ":");
  len = strlen (tag);
  if (len <= TIME_SUFFIX_LENGTH || len > 128)
    return FALSE;

  stamp = tag + len - TIME_SUFFIX_LENGTH;
  if (stamp[0] != '-' || !all_digits (stamp + 1, 8) || stamp[9] != '-' || !all_digits (stamp + 10, 6))
    return FALSE;

  name = g_strndup (tag, stamp - tag);
  if (!check_box_name (name, NULL))
    return FALSE;

  if (sscanf (stamp, "-%4d%2d%2d-%2d%2d%2d", &fields[0], &fields[1], &fields[2],
              &fields[3], &fields[4], &fields[5]) != 6)
    return FALSE;
  parsed = g_date_time_new_utc (fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]);
  if (parsed == NULL)
    return FALSE;

  if (box_name != NULL)
    *box_name = g_steal_pointer (&name);
  if (time != NULL)
    *time = g_steal_pointer (&parsed);
  return TRUE;
}

gboolean
kiste_snapshot_parse_image_name (const char  *image,
                                 const char  *box_name,
                                 GDateTime  **time)
{
  g_autofree char *name = NULL;
  g_autoptr(GDateTime) parsed = NULL;

  if (!split_tag (image, &name, &parsed) || g_strcmp0 (name, box_name) != 0)
    return FALSE;
  if (time != NULL)
    *time = g_steal_pointer (&parsed);
  return TRUE;
}

gboolean
kiste_snapshot_is_snapshot_image (const char *image)
{
  return split_tag (image, NULL, NULL);
}

static gboolean
check_engine (const char  *engine,
              GError     **error)
{
  if (g_strcmp0 (engine, "podman") == 0 || g_strcmp0 (engine, "docker") == 0)
    return TRUE;
  return kiste_set_invalid_input (error, _("Snapshots need podman or docker."));
}

GStrv
kiste_snapshot_commit_argv (const char  *engine,
                            const char  *box_name,
                            const char  *image,
                            const char  *reason,
                            gboolean     pause,
                            GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *iso = NULL;

  if (!check_engine (engine, error) || !check_box_name (box_name, error))
    return NULL;
  if (!kiste_snapshot_parse_image_name (image, box_name, &time))
    {
      kiste_set_invalid_input (error, _("“%s” is not the name of a snapshot of “%s”."),
                               image ? image : "", box_name);
      return NULL;
    }
  if (g_strcmp0 (reason, "snapshot") != 0 && g_strcmp0 (reason, "recreate") != 0)
    {
      kiste_set_invalid_input (error, "Unknown reason for a snapshot");
      return NULL;
    }

  iso = g_date_time_format_iso8601 (time);
  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, engine, "commit", pause ? "--pause=true" : "--pause=false", NULL);
  g_strv_builder_take (builder, g_strdup_printf ("--change=LABEL %s=%s", KISTE_SNAPSHOT_LABEL_BOX, box_name));
  g_strv_builder_take (builder, g_strdup_printf ("--change=LABEL %s=%s", KISTE_SNAPSHOT_LABEL_TIME, iso));
  g_strv_builder_take (builder, g_strdup_printf ("--change=LABEL %s=%s", KISTE_SNAPSHOT_LABEL_REASON, reason));
  g_strv_builder_add_many (builder, box_name, image, NULL);
  return g_strv_builder_end (builder);
}

gboolean
kiste_snapshot_error_is_pause (const GError *error)
{
  g_autofree char *lower = NULL;

  if (error == NULL || !g_error_matches (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED))
    return FALSE;
  /* podman: "can not pause containers on rootless containers with cgroup
   * V1", "…pause is not supported…"; docker: "…cannot pause…" */
  lower = g_ascii_strdown (error->message, -1);
  return strstr (lower, "pause") != NULL &&
         (strstr (lower, "can not") != NULL || strstr (lower, "cannot") != NULL ||
          strstr (lower, "not supported") != NULL);
}

GStrv
kiste_snapshot_list_argv (const char  *engine,
                          const char  *box_name,
                          GError     **error)
{
  g_autofree char *filter = NULL;

  if (!check_engine (engine, error) || !check_box_name (box_name, error))
    return NULL;

  filter = g_strdup_printf ("label=%s=%s", KISTE_SNAPSHOT_LABEL_BOX, box_name);
  if (g_str_equal (engine, "docker"))
    return argv_new ("docker", "images", "--filter", filter, "--format", "{{json .}}", NULL);
  return argv_new ("podman", "images", "--filter", filter, "--format", "json", NULL);
}

GStrv
kiste_snapshot_remove_argv (const char          *engine,
                            const char * const  *images,
                            GError             **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  if (!check_engine (engine, error))
    return NULL;
  if (images == NULL || images[0] == NULL)
    {
      kiste_set_invalid_input (error, "No snapshot to remove");
      return NULL;
    }
  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, engine, "rmi", NULL);
  for (guint i = 0; images[i] != NULL; i++)
    {
      if (!kiste_snapshot_is_snapshot_image (images[i]))
        {
          kiste_set_invalid_input (error, _("“%s” is not the name of a snapshot."), images[i]);
          return NULL;
        }
      g_strv_builder_add (builder, images[i]);
    }
  return g_strv_builder_end (builder);
}

/* Listing */

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
add_snapshot (GPtrArray  *snapshots,
              const char *image,
              const char *box_name,
              const char *id,
              char       *size_text)
{
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *owned_size = size_text;
  KisteSnapshot *snapshot;

  if (snapshots->len >= KISTE_SNAPSHOT_LIST_LIMIT ||
      !kiste_snapshot_parse_image_name (image, box_name, &time))
    return;
  for (guint i = 0; i < snapshots->len; i++)
    if (g_str_equal (kiste_snapshot_get_image (g_ptr_array_index (snapshots, i)), image))
      return;

  snapshot = g_object_new (KISTE_TYPE_SNAPSHOT, NULL);
  snapshot->image = g_strdup (image);
  snapshot->box_name = g_strdup (box_name);
  /* an id is hex, maybe after "sha256:": anything else is left out */
  if (id != NULL && strlen (id) <= 80 && strspn (id, "sha256:0123456789abcdef") == strlen (id))
    snapshot->id = g_strdup (id);
  snapshot->time = g_steal_pointer (&time);
  snapshot->size_text = g_steal_pointer (&owned_size);
  g_ptr_array_add (snapshots, snapshot);
}

/* podman: {"Id", "Names": [...], "Labels": {...}, "Size": bytes} */
static void
add_podman_object (GPtrArray  *snapshots,
                   JsonObject *object,
                   const char *box_name)
{
  JsonNode *names = json_object_get_member (object, "Names");
  JsonNode *labels = json_object_get_member (object, "Labels");
  JsonNode *size = json_object_get_member (object, "Size");
  char *size_text = NULL;

  if (names == NULL || !JSON_NODE_HOLDS_ARRAY (names))
    return;
  /* the label, when podman shows it, must name the same box */
  if (labels != NULL && JSON_NODE_HOLDS_OBJECT (labels))
    {
      const char *label = member_string (json_node_get_object (labels), KISTE_SNAPSHOT_LABEL_BOX);

      if (g_strcmp0 (label, box_name) != 0)
        return;
    }
  if (size != NULL && JSON_NODE_HOLDS_VALUE (size) && json_node_get_value_type (size) == G_TYPE_INT64 &&
      json_node_get_int (size) > 0)
    size_text = g_format_size ((guint64) json_node_get_int (size));

  {
    JsonArray *array = json_node_get_array (names);
    guint n = MIN (json_array_get_length (array), 64);
    gboolean added = FALSE;

    for (guint i = 0; i < n && !added; i++)
      {
        JsonNode *node = json_array_get_element (array, i);
        guint before = snapshots->len;

        if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
          continue;
        add_snapshot (snapshots, json_node_get_string (node), box_name,
                      member_string (object, "Id"), g_strdup (size_text));
        added = snapshots->len > before;
      }
  }
  g_free (size_text);
}

/* docker: {"ID", "Repository", "Tag", "Size": "1.2GB"} */
static void
add_docker_object (GPtrArray  *snapshots,
                   JsonObject *object,
                   const char *box_name)
{
  const char *repository = member_string (object, "Repository");
  const char *tag = member_string (object, "Tag");
  const char *size = member_string (object, "Size");
  g_autofree char *image = NULL;
  char *size_text = NULL;

  if (repository == NULL || tag == NULL)
    return;
  image = g_strdup_printf ("%s:%s", repository, tag);
  /* docker's own words, if they are short and printable */
  if (size != NULL && strlen (size) <= 16 && g_utf8_validate (size, -1, NULL))
    {
      size_text = g_strdup (size);
      for (char *p = size_text; *p; p++)
        if (!g_ascii_isprint (*p))
          *p = ' ';
    }
  add_snapshot (snapshots, image, box_name, member_string (object, "ID"), size_text);
}

static int
compare_newest_first (gconstpointer a,
                      gconstpointer b)
{
  KisteSnapshot *sa = *(KisteSnapshot **) a;
  KisteSnapshot *sb = *(KisteSnapshot **) b;

  return g_date_time_compare (sb->time, sa->time);
}

GPtrArray *
kiste_snapshot_parse_list (const char  *output,
                           const char  *box_name,
                           GError     **error)
{
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (box_name != NULL, NULL);

  if (output == NULL)
    output = "";

  if (json_parser_load_from_data (parser, output, -1, NULL) &&
      json_parser_get_root (parser) != NULL &&
      JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      JsonArray *array = json_node_get_array (json_parser_get_root (parser));

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;
          /* json-glib reads docker's lines as an array too */
          if (json_object_has_member (json_node_get_object (node), "Names"))
            add_podman_object (snapshots, json_node_get_object (node), box_name);
          else
            add_docker_object (snapshots, json_node_get_object (node), box_name);
        }
    }
  else
    {
      /* docker prints nothing when there are none */
      lines = g_strsplit (output, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autoptr(JsonParser) line_parser = json_parser_new ();

          g_strstrip (lines[i]);
          if (lines[i][0] == '\0')
            continue;
          if (!json_parser_load_from_data (line_parser, lines[i], -1, NULL) ||
              json_parser_get_root (line_parser) == NULL ||
              !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (line_parser)))
            {
              g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("Could not read the list of snapshots."));
              return NULL;
            }
          add_docker_object (snapshots, json_node_get_object (json_parser_get_root (line_parser)), box_name);
        }
    }

  g_ptr_array_sort (snapshots, compare_newest_first);
  return g_steal_pointer (&snapshots);
}
