/* kiste-image.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "kiste-image.h"
#include "kiste-validate.h"

struct _KisteImage
{
  GObject   parent_instance;
  char     *name;
  gboolean  downloaded;
};

G_DEFINE_FINAL_TYPE (KisteImage, kiste_image, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_DOWNLOADED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KisteImage *
kiste_image_new (const char *name,
                 gboolean    downloaded)
{
  g_return_val_if_fail (name != NULL, NULL);

  return g_object_new (KISTE_TYPE_IMAGE,
                       "name", name,
                       "downloaded", downloaded,
                       NULL);
}

const char *
kiste_image_get_name (KisteImage *self)
{
  g_return_val_if_fail (KISTE_IS_IMAGE (self), NULL);
  return self->name;
}

gboolean
kiste_image_get_downloaded (KisteImage *self)
{
  g_return_val_if_fail (KISTE_IS_IMAGE (self), FALSE);
  return self->downloaded;
}

static void
add_image_name (GPtrArray  *images,
                const char *name)
{
  if (name == NULL || strstr (name, "<none>") != NULL || !kiste_validate_image (name, NULL))
    return;
  for (guint i = 0; i < images->len; i++)
    if (g_str_equal (kiste_image_get_name (g_ptr_array_index (images, i)), name))
      return;
  g_ptr_array_add (images, kiste_image_new (name, TRUE));
}

static void
add_image_object (GPtrArray  *images,
                  JsonObject *object)
{
  const char *members[] = { "Names", "RepoTags" };

  for (guint m = 0; m < G_N_ELEMENTS (members); m++)
    {
      JsonNode *node = json_object_get_member (object, members[m]);
      JsonArray *array;

      if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
        continue;
      array = json_node_get_array (node);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING)
            add_image_name (images, json_node_get_string (element));
        }
      return;
    }

  if (json_object_has_member (object, "Repository"))
    {
      const char *repository = json_object_get_string_member_with_default (object, "Repository", NULL);
      const char *tag = json_object_get_string_member_with_default (object, "Tag", NULL);
      g_autofree char *name = NULL;

      if (repository == NULL)
        return;
      name = tag && tag[0] ? g_strdup_printf ("%s:%s", repository, tag) : g_strdup (repository);
      add_image_name (images, name);
    }
}

GPtrArray *
kiste_image_parse_list (const char *output)
{
  g_autoptr(GPtrArray) images = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;

  if (output == NULL)
    return g_steal_pointer (&images);

  if (json_parser_load_from_data (parser, output, -1, NULL) &&
      json_parser_get_root (parser) != NULL &&
      JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      JsonArray *array = json_node_get_array (json_parser_get_root (parser));

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_OBJECT (element))
            add_image_object (images, json_node_get_object (element));
        }
      return g_steal_pointer (&images);
    }

  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) line_parser = json_parser_new ();

      if (g_strstrip (lines[i])[0] != '{' ||
          !json_parser_load_from_data (line_parser, lines[i], -1, NULL) ||
          json_parser_get_root (line_parser) == NULL ||
          !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (line_parser)))
        continue;
      add_image_object (images, json_node_get_object (json_parser_get_root (line_parser)));
    }

  return g_steal_pointer (&images);
}

GPtrArray *
kiste_image_parse_compatibility (const char *output)
{
  g_autoptr(GPtrArray) images = g_ptr_array_new_with_free_func (g_object_unref);
  g_auto(GStrv) lines = g_strsplit (output ? output : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);

      if (line[0] != '\0' && kiste_validate_image (line, NULL))
        g_ptr_array_add (images, kiste_image_new (line, FALSE));
    }

  return g_steal_pointer (&images);
}

static void
kiste_image_finalize (GObject *object)
{
  KisteImage *self = KISTE_IMAGE (object);

  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (kiste_image_parent_class)->finalize (object);
}

static void
kiste_image_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KisteImage *self = KISTE_IMAGE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_DOWNLOADED:
      g_value_set_boolean (value, self->downloaded);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_image_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  KisteImage *self = KISTE_IMAGE (object);

  switch (prop_id)
    {
    case PROP_NAME:
      self->name = g_value_dup_string (value);
      break;

    case PROP_DOWNLOADED:
      self->downloaded = g_value_get_boolean (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_image_class_init (KisteImageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_image_finalize;
  object_class->get_property = kiste_image_get_property;
  object_class->set_property = kiste_image_set_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_DOWNLOADED] =
    g_param_spec_boolean ("downloaded", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_image_init (KisteImage *self)
{
}
