/* kiste-box-stats.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "kiste-box-stats.h"
#include "kiste-error.h"

G_DEFINE_BOXED_TYPE (KisteBoxStats, kiste_box_stats, kiste_box_stats_copy, kiste_box_stats_free)

KisteBoxStats *
kiste_box_stats_copy (const KisteBoxStats *stats)
{
  KisteBoxStats *copy;

  g_return_val_if_fail (stats != NULL, NULL);

  copy = g_new0 (KisteBoxStats, 1);
  copy->cpu = g_strdup (stats->cpu);
  copy->memory_used = g_strdup (stats->memory_used);
  copy->memory_limit = g_strdup (stats->memory_limit);
  return copy;
}

void
kiste_box_stats_free (KisteBoxStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->cpu);
  g_free (stats->memory_used);
  g_free (stats->memory_limit);
  g_free (stats);
}

static char *
dup_member_text (JsonObject *object,
                 const char *podman_key,
                 const char *docker_key)
{
  JsonNode *node = NULL;

  if (json_object_has_member (object, podman_key))
    node = json_object_get_member (object, podman_key);
  else if (json_object_has_member (object, docker_key))
    node = json_object_get_member (object, docker_key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strstrip (g_strdup (json_node_get_string (node)));
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE ||
      json_node_get_value_type (node) == G_TYPE_INT64)
    /* Translators: a processor's use, "4.20%" */
    return g_strdup_printf (_("%.2f%%"), json_node_get_double (node));
  return NULL;
}

KisteBoxStats *
kiste_box_stats_parse (const char  *output,
                       GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KisteBoxStats) stats = NULL;
  g_autofree char *usage = NULL;
  JsonObject *object = NULL;
  JsonNode *root;

  if (output == NULL ||
      !json_parser_load_from_data (parser, output, -1, NULL))
    {
      /* docker: the first line is the sample */
      g_auto(GStrv) lines = g_strsplit (output ? output : "", "\n", 2);

      if (lines[0] == NULL || !json_parser_load_from_data (parser, lines[0], -1, NULL))
        {
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT, _("No usage was reported"));
          return NULL;
        }
    }

  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root) &&
      json_array_get_length (json_node_get_array (root)) > 0)
    root = json_array_get_element (json_node_get_array (root), 0);
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    object = json_node_get_object (root);

  if (object == NULL)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT, _("No usage was reported"));
      return NULL;
    }

  stats = g_new0 (KisteBoxStats, 1);
  stats->cpu = dup_member_text (object, "cpu_percent", "CPUPerc");
  usage = dup_member_text (object, "mem_usage", "MemUsage");

  if (usage != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (usage, "/", 2);

      if (g_strv_length (parts) == 2)
        {
          stats->memory_used = g_strdup (g_strstrip (parts[0]));
          stats->memory_limit = g_strdup (g_strstrip (parts[1]));
        }
      else
        stats->memory_used = g_steal_pointer (&usage);
    }

  return g_steal_pointer (&stats);
}
