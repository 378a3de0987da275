/* kiste-image-update.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Whether a box's image has a newer one: what skopeo inspect and the
 * engine's image inspect print, read as data from a stranger (bounded,
 * every member checked), and the commands that ask them. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "kiste-error.h"
#include "kiste-image-update.h"
#include "kiste-validate.h"

#define DIGEST_PREFIX "sha256:"
#define DIGEST_HEX_LENGTH 64
/* more digests for one image than any engine keeps */
#define MAX_DIGESTS 64

G_DEFINE_BOXED_TYPE (KisteImageUpdate, kiste_image_update, kiste_image_update_copy,
                     kiste_image_update_free)

KisteImageUpdate *
kiste_image_update_new (const char            *image,
                        KisteImageUpdateState  state)
{
  KisteImageUpdate *update = g_new0 (KisteImageUpdate, 1);

  update->image = g_strdup (image);
  update->state = state;
  return update;
}

KisteImageUpdate *
kiste_image_update_copy (const KisteImageUpdate *update)
{
  KisteImageUpdate *copy;

  g_return_val_if_fail (update != NULL, NULL);

  copy = kiste_image_update_new (update->image, update->state);
  copy->remote_digest = g_strdup (update->remote_digest);
  copy->created = update->created ? g_date_time_ref (update->created) : NULL;
  copy->outdated_ids = g_strdupv (update->outdated_ids);
  copy->message = g_strdup (update->message);
  return copy;
}

void
kiste_image_update_free (KisteImageUpdate *update)
{
  if (update == NULL)
    return;
  g_free (update->image);
  g_free (update->remote_digest);
  g_clear_pointer (&update->created, g_date_time_unref);
  g_strfreev (update->outdated_ids);
  g_free (update->message);
  g_free (update);
}

static gboolean
is_hex (const char *text,
        gsize       length)
{
  if (strlen (text) != length)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isxdigit (text[i]) || g_ascii_isupper (text[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_digest (const char *text)
{
  return text != NULL && g_str_has_prefix (text, DIGEST_PREFIX) &&
         is_hex (text + strlen (DIGEST_PREFIX), DIGEST_HEX_LENGTH);
}

/* An image id as both engines print it, without docker's sha256: */
static const char *
strip_id (const char *id)
{
  if (id != NULL && g_str_has_prefix (id, DIGEST_PREFIX))
    return id + strlen (DIGEST_PREFIX);
  return id;
}

gboolean
kiste_image_update_is_remote (const char *image)
{
  const char *slash;

  if (image == NULL || image[0] == '\0' || image[0] == '-')
    return FALSE;
  /* an image without a name shows as its id */
  if (is_hex (strip_id (image), DIGEST_HEX_LENGTH) || is_hex (image, 12))
    return FALSE;
  if (!kiste_validate_image (image, NULL))
    return FALSE;
  slash = strchr (image, '/');
  /* localhost/NAME is podman's name for what was made here; localhost:PORT
   * is a registry on this computer */
  if (slash != NULL && (gsize) (slash - image) == strlen ("localhost") &&
      g_str_has_prefix (image, "localhost"))
    return FALSE;
  return TRUE;
}

GStrv
kiste_image_update_remote_argv (const char *image,
                                guint       timeout_seconds)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) owned = builder;

  g_return_val_if_fail (kiste_image_update_is_remote (image), NULL);

  g_strv_builder_add (builder, "skopeo");
  g_strv_builder_take (builder, g_strdup_printf ("--command-timeout=%us", timeout_seconds));
  g_strv_builder_add_many (builder, "inspect", "--no-tags", NULL);
  g_strv_builder_take (builder, g_strconcat ("docker://", image, NULL));
  return g_strv_builder_end (builder);
}

GStrv
kiste_image_update_local_argv (const char         *engine,
                               const char * const *image_refs)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (engine != NULL, NULL);
  g_return_val_if_fail (image_refs != NULL && image_refs[0] != NULL, NULL);

  g_strv_builder_add_many (builder, engine, "image", "inspect", "--format", "json", "--", NULL);
  for (guint i = 0; image_refs[i] != NULL; i++)
    {
      g_return_val_if_fail (image_refs[i][0] != '-', NULL);
      g_strv_builder_add (builder, image_refs[i]);
    }
  return g_strv_builder_end (builder);
}

static JsonNode *
parse_bounded (const char  *output,
               GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;

  if (output == NULL || strlen (output) > KISTE_IMAGE_UPDATE_OUTPUT_LIMIT)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The answer about the image was too long."));
      return NULL;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, output, -1, NULL) ||
      json_parser_get_root (parser) == NULL)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The answer about the image could not be read."));
      return NULL;
    }
  return json_parser_steal_root (parser);
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

gboolean
kiste_image_update_parse_remote (const char  *output,
                                 char       **digest,
                                 GDateTime  **created,
                                 GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *value;

  g_return_val_if_fail (digest != NULL && created != NULL, FALSE);
  *digest = NULL;
  *created = NULL;

  root = parse_bounded (output, error);
  if (root == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The answer about the image could not be read."));
      return FALSE;
    }
  object = json_node_get_object (root);
  value = get_string (object, "Digest");
  if (!is_digest (value))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The registry named no digest for the image."));
      return FALSE;
    }
  *digest = g_strdup (value);
  value = get_string (object, "Created");
  if (value != NULL && strlen (value) < 64)
    *created = g_date_time_new_from_iso8601 (value, NULL);
  return TRUE;
}

static void
add_digest (GPtrArray  *digests,
            const char *value)
{
  const char *at;

  if (value == NULL || digests->len >= MAX_DIGESTS)
    return;
  /* RepoDigests: NAME@sha256:… */
  at = strrchr (value, '@');
  if (at != NULL)
    value = at + 1;
  if (is_digest (value))
    g_ptr_array_add (digests, g_strdup (value));
}

GHashTable *
kiste_image_update_parse_local (const char  *output,
                                GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) local = NULL;
  JsonArray *array;

  root = parse_bounded (output, error);
  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                           _("The answer about the image could not be read."));
      return NULL;
    }

  local = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *repo_digests;
      const char *id;
      g_autoptr(GPtrArray) digests = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      object = json_node_get_object (node);
      id = strip_id (get_string (object, "Id"));
      if (id == NULL || !is_hex (id, DIGEST_HEX_LENGTH))
        continue;

      digests = g_ptr_array_new_with_free_func (g_free);
      add_digest (digests, get_string (object, "Digest"));
      repo_digests = json_object_get_member (object, "RepoDigests");
      if (repo_digests != NULL && JSON_NODE_HOLDS_ARRAY (repo_digests))
        {
          JsonArray *list = json_node_get_array (repo_digests);

          for (guint j = 0; j < json_array_get_length (list); j++)
            {
              JsonNode *item = json_array_get_element (list, j);

              if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
                add_digest (digests, json_node_get_string (item));
            }
        }
      g_ptr_array_add (digests, NULL);
      g_hash_table_replace (local, g_strdup (id),
                            g_ptr_array_free (g_steal_pointer (&digests), FALSE));
    }
  return g_steal_pointer (&local);
}

KisteImageUpdateState
kiste_image_update_classify_error (const char *stderr_text)
{
  static const char * const unreachable[] = {
    "connection refused",
    "no such host",
    "network is unreachable",
    "no route to host",
    "i/o timeout",
    "deadline exceeded",
    "timeout awaiting",
    "tls handshake timeout",
    "temporary failure in name resolution",
    "connection reset",
    "server misbehaving",
    "pinging container registry",
  };
  g_autofree char *lower = NULL;

  if (stderr_text == NULL)
    return KISTE_IMAGE_UPDATE_UNREACHABLE;
  lower = g_ascii_strdown (stderr_text, MIN (strlen (stderr_text), 64 * 1024));
  for (guint i = 0; i < G_N_ELEMENTS (unreachable); i++)
    if (strstr (lower, unreachable[i]) != NULL)
      return KISTE_IMAGE_UPDATE_UNREACHABLE;
  return KISTE_IMAGE_UPDATE_FAILED;
}

GStrv
kiste_image_update_find_outdated (GHashTable *local,
                                  const char *digest)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GList) ids = NULL;

  g_return_val_if_fail (local != NULL, NULL);

  ids = g_list_sort (g_hash_table_get_keys (local), (GCompareFunc) g_strcmp0);
  for (GList *l = ids; l != NULL; l = l->next)
    {
      const char * const *digests = g_hash_table_lookup (local, l->data);

      if (digest == NULL || !g_strv_contains (digests, digest))
        g_strv_builder_add (builder, l->data);
    }
  return g_strv_builder_end (builder);
}

gboolean
kiste_image_update_applies_to (const KisteImageUpdate *update,
                               const char             *image_id)
{
  g_return_val_if_fail (update != NULL, FALSE);

  if (update->state != KISTE_IMAGE_UPDATE_NEWER || update->outdated_ids == NULL)
    return FALSE;
  /* a box whose engine names no image id (docker's ps): its image's name
   * was asked about instead */
  if (image_id == NULL)
    return update->outdated_ids[0] != NULL;
  return g_strv_contains ((const char * const *) update->outdated_ids, strip_id (image_id));
}
