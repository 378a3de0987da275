/* kiste-test-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-box-store-private.h"
#include "kiste-fake-runner.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"

static void
reloaded_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, &error);
  g_assert_no_error (error);
  *done = TRUE;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

/* ps answers with script, then one reload through it */
static void
serve (KisteBoxStore *store,
       const char    *script)
{
  KisteRunner *runner = kiste_box_store_get_runner (store);
  gboolean done = FALSE;

  g_assert_true (KISTE_IS_FAKE_RUNNER (runner));
  kiste_fake_runner_add (KISTE_FAKE_RUNNER (runner), "podman ps", script);
  kiste_box_store_reload_async (store, NULL, reloaded_cb, &done);
  g_assert_true (kiste_test_wait_for (is_true, &done, 10000));
  g_assert_true (kiste_box_store_get_loaded (store));
}

void
kiste_test_serve_boxes (KisteBoxStore *store,
                        const char    *ps_fixture,
                        const char    *host_home)
{
  g_autofree char *quoted = g_shell_quote (ps_fixture);
  g_autofree char *script = g_path_is_absolute (ps_fixture)
                            ? g_strdup_printf ("cat %s", quoted)
                            : g_strdup_printf ("cat \"$KISTE_TEST_FIXTURES\"/%s", quoted);

  if (host_home != NULL)
    kiste_box_store_set_host_home (store, host_home);
  serve (store, script);
}

void
kiste_test_serve_boxes_json (KisteBoxStore *store,
                             const char    *json)
{
  g_autofree char *quoted = g_shell_quote (json);
  g_autofree char *script = g_strdup_printf ("printf '%%s' %s", quoted);

  serve (store, script);
}

void
kiste_test_merge_boxes (KisteBoxStore *store,
                        const char    *ps_fixture,
                        const char    *host_home)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), ps_fixture, NULL);
  g_autofree char *json = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GError) error = NULL;

  kiste_box_store_set_host_home (store, host_home);
  g_assert_true (g_file_get_contents (path, &json, NULL, &error));
  g_assert_true (_kiste_box_store_parse (store, json, &boxes, &error));
  g_assert_no_error (error);
  _kiste_box_store_merge (store, boxes);
}

JsonArray *
kiste_test_dup_many_boxes (const char *template_path,
                           const char *prefix,
                           guint       n_boxes)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) templates = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *out = json_array_new ();
  JsonArray *array;

  g_assert_true (json_parser_load_from_file (parser, template_path, &error));
  g_assert_no_error (error);

  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);

      /* boxes of either tool, in the template's order */
      if (kiste_box_ps_json_is_distrobox (object) || kiste_box_ps_json_is_toolbox (object))
        g_ptr_array_add (templates, object);
    }
  g_assert_cmpuint (templates->len, >, 0);

  for (guint i = 0; i < n_boxes; i++)
    {
      JsonObject *template = g_ptr_array_index (templates, i % templates->len);
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), template);
      /* json_node_copy() would share the object: a deep copy */
      g_autofree char *text = json_to_string (node, FALSE);
      g_autoptr(JsonNode) parsed = json_from_string (text, NULL);
      g_autoptr(JsonArray) names = json_array_new ();
      g_autofree char *name = g_strdup_printf ("%s-%04u", prefix, i + 1);
      g_autofree char *id = g_compute_checksum_for_string (G_CHECKSUM_SHA256, name, -1);
      JsonObject *copy = json_node_get_object (parsed);

      json_array_add_string_element (names, name);
      json_object_set_string_member (copy, "Id", id);
      json_object_set_array_member (copy, "Names", g_steal_pointer (&names));
      json_array_add_object_element (out, json_object_ref (copy));
    }

  return out;
}
