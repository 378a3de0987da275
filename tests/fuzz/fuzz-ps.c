/* fuzz-ps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* `podman ps` and `docker ps` output: parsed as both managers print it,
 * merged into a list twice (new boxes, then updates in place) and emptied,
 * and every box read the way the window and the create dialog read it. */

#include "config.h"

#include "kiste-box-store-private.h"
#include "kiste-commands.h"
#include "kiste-create-options.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

static void
read_box (KisteBox *box)
{
  g_autoptr(KisteCreateOptions) options = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) enter = NULL;
  g_autoptr(GError) error = NULL;
  const char * const command[] = { "true", NULL };

  g_assert_nonnull (kiste_box_get_id (box));
  g_assert_nonnull (kiste_box_get_name (box));
  kiste_box_get_image (box);
  kiste_box_get_status (box);
  kiste_box_get_home (box);
  kiste_box_has_custom_home (box);
  kiste_box_get_user (box);
  kiste_box_get_mounts (box);
  kiste_box_get_user_mounts (box);
  kiste_box_get_rootless (box);
  kiste_box_get_host_home_sharing (box);
  kiste_box_state_to_string (kiste_box_get_state (box));

  enter = kiste_commands_enter_argv (box, kiste_box_get_distrobox_version (box), "/home/tester/src", command);
  g_assert_nonnull (enter);

  /* clone with changes starts from what the box says about itself */
  options = kiste_create_options_new_from_box (box);
  argv = kiste_create_options_to_argv (options, NULL, &error);
  g_assert ((argv != NULL) == (error == NULL));
}

static void
parse_as (const char *manager,
          const char *text)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteBoxStore) store = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  kiste_runner_set_manager (runner, manager);
  store = kiste_box_store_new (runner);
  kiste_box_store_set_host_home (store, "/home/tester");

  if (!_kiste_box_store_parse (store, text, &boxes, &error))
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (boxes);
      return;
    }
  g_assert_no_error (error);

  _kiste_box_store_merge (store, boxes);
  g_assert_true (_kiste_box_store_parse (store, text, &again, NULL));
  _kiste_box_store_merge (store, again);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), <=, boxes->len);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (G_LIST_MODEL (store), i);

      read_box (box);
    }

  _kiste_box_store_merge (store, none);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);

  kiste_fuzz_init ();

  parse_as ("podman", text);
  parse_as ("docker", text);

  return 0;
}
