/* fuzz-images.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The images to make a box from: `podman images --format json` (one JSON
 * array) or `docker images --format '{{json .}}'` (JSON lines), and
 * distrobox's list of images known to work (`distrobox create
 * --compatibility`, downloaded by distrobox), as the image model shows
 * them. */

#include "config.h"

#include "kiste-fuzz.h"
#include "kiste-image-model.h"
#include "kiste-image.h"
#include "kiste-validate.h"

static gboolean
has_name (GPtrArray  *images,
          const char *name)
{
  for (guint i = 0; i < images->len; i++)
    if (g_str_equal (kiste_image_get_name (g_ptr_array_index (images, i)), name))
      return TRUE;
  return FALSE;
}

/* Names a box can be made from: the create command takes them as they
 * are */
static void
check_images (GPtrArray *images,
              gboolean   downloaded)
{
  g_assert_nonnull (images);
  for (guint i = 0; i < images->len; i++)
    {
      KisteImage *image = g_ptr_array_index (images, i);
      const char *name = kiste_image_get_name (image);

      g_assert_true (KISTE_IS_IMAGE (image));
      g_assert_nonnull (name);
      g_assert_true (kiste_validate_image (name, NULL));
      g_assert_true (g_utf8_validate (name, -1, NULL));
      g_assert_true (kiste_image_get_downloaded (image) == downloaded);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* valid UTF-8, as the runner hands output over */
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autoptr(GPtrArray) downloaded = NULL;
  g_autoptr(GPtrArray) compatible = NULL;
  g_autoptr(KisteImageModel) model = NULL;
  guint n_items;
  guint n_shown = 0;

  kiste_fuzz_init ();

  downloaded = kiste_image_parse_list (text);
  check_images (downloaded, TRUE);
  /* each name once */
  for (guint i = 0; i < downloaded->len; i++)
    for (guint j = i + 1; j < downloaded->len; j++)
      g_assert_cmpstr (kiste_image_get_name (g_ptr_array_index (downloaded, i)), !=,
                       kiste_image_get_name (g_ptr_array_index (downloaded, j)));

  compatible = kiste_image_parse_compatibility (text);
  check_images (compatible, FALSE);

  /* downloaded ones first, then the known ones not downloaded */
  model = kiste_image_model_new ();
  kiste_image_model_set_compatible (model, compatible);
  kiste_image_model_set_downloaded (model, downloaded);
  g_assert_true (kiste_image_model_get_loaded (model));
  g_assert_true (kiste_image_model_get_has_compatible (model));
  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
  for (guint i = 0; i < compatible->len; i++)
    if (!has_name (downloaded, kiste_image_get_name (g_ptr_array_index (compatible, i))))
      n_shown++;
  g_assert_cmpuint (n_items, ==, downloaded->len + n_shown);
  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(KisteImage) image = g_list_model_get_item (G_LIST_MODEL (model), i);
      const char *name = kiste_image_get_name (image);

      g_assert_true (kiste_image_get_downloaded (image) == (i < downloaded->len));
      g_assert_true (kiste_image_model_is_downloaded (model, name) == (i < downloaded->len));
    }
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), n_items));

  return 0;
}
