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
  g_autofree char *script = g_strdup_printf ("cat \"$KISTE_TEST_FIXTURES\"/%s", quoted);

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
