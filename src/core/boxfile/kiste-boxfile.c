/* kiste-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files: what a box file holds, checked, and its index, built and
 * parsed (the reader is kiste-boxfile-reader.c, the writer
 * kiste-boxfile-writer.c). */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <nettle/sha2.h>
#include <string.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-error.h"
#include "kiste-validate.h"

#define MAX_APP_ID 255

char *
_kiste_boxfile_sha256_finish (struct sha256_ctx *ctx)
{
  guint8 digest[SHA256_DIGEST_SIZE];
  char *hex = g_malloc (2 * SHA256_DIGEST_SIZE + 1);

  sha256_digest (ctx, sizeof digest, digest);
  for (guint i = 0; i < SHA256_DIGEST_SIZE; i++)
    {
      hex[2 * i] = "0123456789abcdef"[digest[i] >> 4];
      hex[2 * i + 1] = "0123456789abcdef"[digest[i] & 0xf];
    }
  hex[2 * SHA256_DIGEST_SIZE] = '\0';
  return hex;
}

G_DEFINE_BOXED_TYPE (KisteBoxfile, kiste_boxfile, kiste_boxfile_copy, kiste_boxfile_free)

KisteBoxfile *
kiste_boxfile_new (void)
{
  KisteBoxfile *self = g_new0 (KisteBoxfile, 1);

  self->format = KISTE_BOXFILE_FORMAT;
  return self;
}

KisteBoxfile *
kiste_boxfile_copy (const KisteBoxfile *self)
{
  KisteBoxfile *copy = g_new0 (KisteBoxfile, 1);

  copy->format = self->format;
  copy->name = g_strdup (self->name);
  copy->tool = g_strdup (self->tool);
  copy->engine = g_strdup (self->engine);
  copy->kiste_version = g_strdup (self->kiste_version);
  copy->image = g_strdup (self->image);
  copy->settings = g_strdup (self->settings);
  copy->apps = g_strdupv (self->apps);
  copy->image_path = g_strdup (self->image_path);
  copy->home_path = g_strdup (self->home_path);
  copy->image_size = self->image_size;
  copy->home_size = self->home_size;
  return copy;
}

void
kiste_boxfile_free (KisteBoxfile *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->tool);
  g_free (self->engine);
  g_free (self->kiste_version);
  g_free (self->image);
  g_free (self->settings);
  g_strfreev (self->apps);
  g_free (self->image_path);
  g_free (self->home_path);
  g_free (self);
}

static gboolean
is_app_id (const char *id)
{
  gsize len = strlen (id);

  if (len <= strlen (".desktop") || len > MAX_APP_ID || !g_str_has_suffix (id, ".desktop") ||
      id[0] == '.' || id[0] == '-')
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_')
      return FALSE;
  return TRUE;
}

gboolean
kiste_boxfile_check (const KisteBoxfile  *self,
                     GError             **error)
{
  g_autoptr(GError) local = NULL;

  if (self->name == NULL || !kiste_validate_existing_name (self->name, NULL, &local))
    return kiste_set_invalid_input (error, _("The box file names its box wrongly."));
  if (g_strcmp0 (self->tool, "distrobox") != 0 && g_strcmp0 (self->tool, "toolbx") != 0)
    return kiste_set_invalid_input (error, _("The box file is for a tool Kiste does not know."));
  if (g_strcmp0 (self->engine, "podman") != 0 && g_strcmp0 (self->engine, "docker") != 0)
    return kiste_set_invalid_input (error, _("The box file is for a container engine Kiste "
                                             "does not know."));
  if (self->image == NULL || !kiste_validate_image (self->image, &local) ||
      !g_str_has_prefix (self->image, KISTE_BOXFILE_IMAGE_PREFIX) ||
      self->image[strlen (KISTE_BOXFILE_IMAGE_PREFIX)] == '\0')
    return kiste_set_invalid_input (error, _("The box file names its image wrongly."));
  if (self->kiste_version != NULL &&
      (strlen (self->kiste_version) > 64 || !g_utf8_validate (self->kiste_version, -1, NULL)))
    return kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
  if (self->apps != NULL && g_strv_length (self->apps) > KISTE_BOXFILE_MAX_APPS)
    return kiste_set_invalid_input (error, _("The box file lists too many apps."));
  for (guint i = 0; self->apps != NULL && self->apps[i] != NULL; i++)
    if (!is_app_id (self->apps[i]))
      return kiste_set_invalid_input (error, _("The box file lists an app wrongly."));
  return TRUE;
}

#define MAX_LOAD_OUTPUT (64 * 1024)
#define MAX_LOADED_NAMES 16

gboolean
kiste_boxfile_check_loaded (const char  *output,
                            const char  *image,
                            GError     **error)
{
  g_auto(GStrv) lines = NULL;
  guint found = 0;

  g_return_val_if_fail (image != NULL, FALSE);

  if (output == NULL || strlen (output) > MAX_LOAD_OUTPUT || !g_utf8_validate (output, -1, NULL))
    goto bad;
  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *rest;
      g_auto(GStrv) names = NULL;

      if (!g_str_has_prefix (line, "Loaded image"))
        continue;
      if (g_str_has_prefix (line, "Loaded image: "))
        rest = line + strlen ("Loaded image: ");
      else if (g_str_has_prefix (line, "Loaded image(s): "))
        rest = line + strlen ("Loaded image(s): ");
      else
        goto bad;
      names = g_strsplit (rest, ",", MAX_LOADED_NAMES + 1);
      if (g_strv_length (names) > MAX_LOADED_NAMES)
        goto bad;
      for (guint j = 0; names[j] != NULL; j++)
        {
          if (!kiste_validate_image (names[j], NULL) || !g_str_equal (names[j], image))
            goto bad;
          if (++found > MAX_LOADED_NAMES)
            goto bad;
        }
    }
  if (found > 0)
    return TRUE;

bad:
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("The box file’s image did not load as “%s”, the name its index gives."), image);
  return FALSE;
}

char *
kiste_boxfile_parse_image_id (const char  *output,
                              const char  *image,
                              const char  *expected,
                              GError     **error)
{
  g_auto(GStrv) lines = NULL;
  const char *id = NULL;

  g_return_val_if_fail (image != NULL, NULL);

  if (output == NULL || strlen (output) > MAX_LOAD_OUTPUT)
    goto bad;
  /* other lines are the engine's warnings */
  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      gsize j = 0;

      while (line[j] != '\0' && g_ascii_isxdigit (line[j]) && !g_ascii_isupper (line[j]))
        j++;
      if (j != 64 || line[j] != '\0')
        continue;
      if (id != NULL)
        goto bad;
      id = line;
    }
  if (id != NULL && (expected == NULL || g_str_equal (id, expected)))
    return g_strdup (id);

bad:
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("The box file’s image did not load as “%s”, the name its index gives."), image);
  return NULL;
}

/* The index */

char *
kiste_boxfile_build_index (const KisteBoxfile *self,
                           GHashTable         *members)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (members),
                                        (GCompareFunc) g_strcmp0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_int_value (builder, self->format);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "tool");
  json_builder_add_string_value (builder, self->tool);
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, self->engine);
  json_builder_set_member_name (builder, "kiste-version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_set_member_name (builder, "image");
  json_builder_add_string_value (builder, self->image);
  json_builder_set_member_name (builder, "members");
  json_builder_begin_object (builder);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *value = g_hash_table_lookup (members, l->data);
      const char *space = strchr (value, ' ');

      json_builder_set_member_name (builder, l->data);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, g_ascii_strtoll (value, NULL, 10));
      json_builder_set_member_name (builder, "sha256");
      json_builder_add_string_value (builder, space + 1);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
get_int (JsonObject *object,
         const char *member,
         gint64     *value)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
is_sha256 (const char *hex)
{
  if (hex == NULL || strlen (hex) != 64)
    return FALSE;
  for (const char *p = hex; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && !(*p >= 'a' && *p <= 'f'))
      return FALSE;
  return TRUE;
}

gboolean
_kiste_boxfile_is_known_member (const char *name)
{
  return g_str_equal (name, KISTE_BOXFILE_IMAGE) || g_str_equal (name, KISTE_BOXFILE_SETTINGS) ||
         g_str_equal (name, KISTE_BOXFILE_APPS) || g_str_equal (name, KISTE_BOXFILE_HOME);
}

KisteBoxfile *
kiste_boxfile_parse_index (const char  *data,
                           gsize        length,
                           GHashTable **members,
                           GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KisteBoxfile) self = kiste_boxfile_new ();
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonNode *root;
  JsonObject *object;
  JsonNode *list;
  g_autoptr(GList) names = NULL;
  gint64 format = 0;

  if (length > KISTE_BOXFILE_MAX_INDEX)
    {
      kiste_set_invalid_input (error, _("The box file’s index is too large."));
      return NULL;
    }
  if (!g_utf8_validate_len (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, NULL) ||
      !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root))
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  object = json_node_get_object (root);
  if (!get_int (object, "format", &format) || format < 1)
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  if (format > KISTE_BOXFILE_FORMAT)
    {
      kiste_set_invalid_input (error, _("The box file was made by a newer Kiste (format %d). "
                                        "Update Kiste to open it."), (int) MIN (format, 9999));
      return NULL;
    }
  self->format = format;
  self->name = g_strdup (get_string (object, "name"));
  self->tool = g_strdup (get_string (object, "tool"));
  self->engine = g_strdup (get_string (object, "engine"));
  self->kiste_version = g_strdup (get_string (object, "kiste-version"));
  self->image = g_strdup (get_string (object, "image"));

  list = json_object_get_member (object, "members");
  if (list == NULL || !JSON_NODE_HOLDS_OBJECT (list))
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  names = json_object_get_members (json_node_get_object (list));
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (json_node_get_object (list), l->data);
      JsonObject *member;
      const char *sha;
      gint64 size = -1;

      if (!_kiste_boxfile_is_known_member (l->data) || !JSON_NODE_HOLDS_OBJECT (node))
        {
          kiste_set_invalid_input (error, _("The box file’s index lists an unknown member."));
          return NULL;
        }
      member = json_node_get_object (node);
      sha = get_string (member, "sha256");
      if (!get_int (member, "size", &size) || size < 0 || !is_sha256 (sha))
        {
          kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
          return NULL;
        }
      g_hash_table_replace (table, g_strdup (l->data),
                            g_strdup_printf ("%" G_GINT64_FORMAT " %s", size, sha));
    }
  if (!g_hash_table_contains (table, KISTE_BOXFILE_IMAGE) ||
      !g_hash_table_contains (table, KISTE_BOXFILE_SETTINGS))
    {
      kiste_set_invalid_input (error, _("The box file is incomplete: it has no image or no "
                                        "settings."));
      return NULL;
    }
  if (!kiste_boxfile_check (self, error))
    return NULL;

  if (members != NULL)
    *members = g_steal_pointer (&table);
  return g_steal_pointer (&self);
}

/* Progress from a worker thread */

typedef struct
{
  KisteBoxfileProgress func;
  gpointer             data;
  guint64              done;
  guint64              total;
} ProgressCall;

static gboolean
progress_call (gpointer user_data)
{
  ProgressCall *call = user_data;

  call->func (call->done, call->total, call->data);
  return G_SOURCE_REMOVE;
}

void
_kiste_boxfile_progress_add (KisteBoxfileProgressState *progress,
                             guint64                    bytes)
{
  ProgressCall *call;

  /* members read side by side share one progress */
  static GMutex lock;
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&lock);
  /* every half percent, or every 16 MiB of an unknown total */
  guint64 step = progress->total > 0 ? progress->total / 200 + 1 : 16 * 1024 * 1024;

  progress->done += bytes;
  if (progress->func == NULL ||
      (progress->done - progress->shown < step &&
       (progress->total == 0 || progress->done < progress->total)))
    return;
  progress->shown = progress->done;
  call = g_new (ProgressCall, 1);
  call->func = progress->func;
  call->data = progress->data;
  call->done = progress->done;
  call->total = progress->total;
  if (progress->context != NULL)
    g_main_context_invoke_full (progress->context, G_PRIORITY_DEFAULT, progress_call, call, g_free);
  else
    {
      progress_call (call);
      g_free (call);
    }
}
