/* fuzz-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files from strangers: the whole file read and checked
 * (kiste_boxfile_read()), its index alone, and the names inside an
 * engine's image archive (kiste_boxfile_check_image_archive()). The input
 * is each of them in turn. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "kiste-boxfile.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

#define SAVED "localhost/kiste-saved/arch:latest"

static char *dir;
static char *input;
static char *out;

static void
setup (void)
{
  if (dir != NULL)
    return;
  dir = g_dir_make_tmp ("kiste-fuzz-boxfile-XXXXXX", NULL);
  g_assert_nonnull (dir);
  input = g_build_filename (dir, "input", NULL);
  out = g_build_filename (dir, "out", NULL);
  g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
}

static void
check_failure (gboolean  ok,
               GError   *error)
{
  if (ok)
    g_assert_no_error (error);
  else
    g_assert_true (error != NULL &&
                   (error->domain == KISTE_ERROR || error->domain == G_IO_ERROR));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) boxfile = NULL;
  g_autoptr(KisteBoxfile) index = NULL;
  g_autoptr(GHashTable) members = NULL;
  const char *engines[] = { "podman", "docker" };
  gboolean ok;

  kiste_fuzz_init ();
  setup ();
  g_assert_true (g_file_set_contents (input, (const char *) data, size, NULL));

  /* the whole file: nothing unless every member matches the index */
  boxfile = kiste_boxfile_read (input, out, NULL, NULL, NULL, &error);
  check_failure (boxfile != NULL, error);
  if (boxfile != NULL)
    {
      g_assert_true (kiste_boxfile_check (boxfile, NULL));
      g_assert_true (g_str_has_prefix (boxfile->image, KISTE_BOXFILE_IMAGE_PREFIX));
      g_assert_true (g_file_test (boxfile->image_path, G_FILE_TEST_IS_REGULAR));
      g_assert_nonnull (boxfile->settings);
      g_assert_nonnull (boxfile->apps);
    }
  else
    {
      g_autofree char *image = g_build_filename (out, KISTE_BOXFILE_IMAGE, NULL);
      g_autofree char *home = g_build_filename (out, KISTE_BOXFILE_HOME, NULL);

      /* a refused file leaves nothing behind */
      g_assert_false (g_file_test (image, G_FILE_TEST_EXISTS));
      g_assert_false (g_file_test (home, G_FILE_TEST_EXISTS));
    }
  g_clear_error (&error);
  if (boxfile != NULL)
    {
      g_unlink (boxfile->image_path);
      if (boxfile->home_path != NULL)
        g_unlink (boxfile->home_path);
    }

  /* the index alone */
  index = kiste_boxfile_parse_index ((const char *) data, size, &members, &error);
  check_failure (index != NULL, error);
  if (index != NULL)
    {
      g_assert_true (kiste_boxfile_check (index, NULL));
      g_assert_true (g_hash_table_contains (members, KISTE_BOXFILE_IMAGE));
    }
  g_clear_error (&error);

  /* an engine's image archive: accepted only when it names SAVED alone */
  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      ok = kiste_boxfile_check_image_archive (input, engines[i], SAVED, NULL, NULL, &error);
      check_failure (ok, error);
      g_clear_error (&error);
    }
  return 0;
}
