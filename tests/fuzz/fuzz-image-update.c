/* fuzz-image-update.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The update check's readers: `skopeo inspect` (a registry's answer) and
 * the engine's `image inspect --format json`, and skopeo's errors. */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-fuzz.h"
#include "kiste-image-update.h"

static void
check_digest (const char *digest)
{
  g_assert_nonnull (digest);
  g_assert_true (g_str_has_prefix (digest, "sha256:"));
  g_assert_cmpuint (strlen (digest), ==, strlen ("sha256:") + 64);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* valid UTF-8, as the runner hands output over */
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autofree char *digest = NULL;
  g_autoptr(GDateTime) created = NULL;
  g_autoptr(GHashTable) local = NULL;
  g_autoptr(GError) error = NULL;
  KisteImageUpdateState state;

  kiste_fuzz_init ();

  if (kiste_image_update_parse_remote (text, &digest, &created, &error))
    {
      g_assert_no_error (error);
      check_digest (digest);
    }
  else
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (digest);
      g_assert_null (created);
    }
  g_clear_error (&error);

  local = kiste_image_update_parse_local (text, &error);
  if (local != NULL)
    {
      GHashTableIter iter;
      gpointer id, digests;
      g_auto(GStrv) outdated = kiste_image_update_find_outdated (local, digest);

      g_assert_no_error (error);
      g_hash_table_iter_init (&iter, local);
      while (g_hash_table_iter_next (&iter, &id, &digests))
        {
          g_assert_cmpuint (strlen (id), ==, 64);
          for (guint i = 0; ((char **) digests)[i] != NULL; i++)
            check_digest (((char **) digests)[i]);
        }
      g_assert_cmpuint (g_strv_length (outdated), <=, g_hash_table_size (local));
    }
  else
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);

  state = kiste_image_update_classify_error (text);
  g_assert_true (state == KISTE_IMAGE_UPDATE_UNREACHABLE || state == KISTE_IMAGE_UPDATE_FAILED);
  /* an image name from a box: asked about only when it reads as one */
  if (size < 256 && kiste_image_update_is_remote (text))
    {
      g_auto(GStrv) argv = kiste_image_update_remote_argv (text, 30);

      g_assert_cmpstr (argv[0], ==, "skopeo");
      g_assert_true (text[0] != '-');
    }

  return 0;
}
