/* fuzz-inspect.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a box's details and first start are read from: `podman container
 * inspect` / `docker container inspect` output, applied to a listed box the
 * way the store does, read again for the start monitor, and the box's log
 * line by line. */

#include "config.h"

#include "kiste-box.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"
#include "kiste-start-monitor.h"

static const char listed[] =
  "{\"Id\":\"2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f\","
  "\"Names\":[\"fixture-a\"],\"Image\":\"localhost/kiste-debian:ready\",\"State\":\"running\","
  "\"Labels\":{\"manager\":\"distrobox\",\"distrobox.unshare_home\":\"1\"}}";

static void
apply (JsonNode *node)
{
  g_autoptr(JsonNode) ps = json_from_string (listed, NULL);
  g_autoptr(KisteBox) box = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) enter = NULL;
  const char * const *environ_;
  JsonNode *id;

  /* the store applies details to the box with the same id */
  if (!JSON_NODE_HOLDS_OBJECT (node) ||
      (id = json_object_get_member (json_node_get_object (node), "Id")) == NULL ||
      !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING ||
      json_node_get_string (id)[0] == '\0')
    return;

  json_object_set_string_member (json_node_get_object (ps), "Id", json_node_get_string (id));
  box = kiste_box_new_from_ps_json (json_node_get_object (ps), "/home/tester", NULL);
  g_assert_nonnull (box);

  if (!kiste_box_apply_inspect_json (box, json_node_get_object (node), &error))
    {
      g_assert_nonnull (error);
      return;
    }

  environ_ = kiste_box_get_environ (box);
  for (guint i = 0; environ_ != NULL && environ_[i] != NULL; i++)
    g_assert_nonnull (environ_[i]);
  kiste_box_getenv (box, "PATH");
  kiste_box_get_create_command (box);
  kiste_box_get_log_driver (box);
  kiste_box_get_user_mounts (box);

  /* the workdir rule reads the mounts inspect gave */
  enter = kiste_commands_enter_argv (box, 1, "/home/tester/src", NULL);
  g_assert_nonnull (enter);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *status = NULL;
  g_autofree char *started_at = NULL;
  g_autofree char *log_driver = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  kiste_fuzz_init ();

  if ((root = json_from_string (text, NULL)) != NULL)
    {
      if (JSON_NODE_HOLDS_ARRAY (root))
        {
          JsonArray *array = json_node_get_array (root);

          for (guint i = 0; i < json_array_get_length (array) && i < 8; i++)
            apply (json_array_get_element (array, i));
        }
      else
        {
          apply (root);
        }
    }

  if (kiste_start_monitor_parse_inspect (text, &status, &started_at, &log_driver, &error))
    kiste_start_monitor_log_driver_is_readable (log_driver);
  else
    g_assert_nonnull (error);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      KisteStartLineKind kind;
      g_autofree char *step = NULL;

      kiste_start_monitor_parse_line (lines[i], &kind, &step);
      if (kind == KISTE_START_LINE_STEP && step != NULL)
        kiste_start_monitor_step_fraction (step, TRUE);
    }

  return 0;
}
