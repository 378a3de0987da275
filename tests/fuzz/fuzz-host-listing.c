/* fuzz-host-listing.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* From the Flatpak sandbox, one host command reads the launcher and
 * wrapper folders (names, sizes and contents, which boxes with the home
 * write): its output, matched for one box and for all of them. */

#include "config.h"

#include <string.h>

#include "kiste-apps-private.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

#define APPLICATIONS_DIR "/home/tester/.local/share/applications"
#define BIN_DIR "/home/tester/.local/bin"

static const char * const box_names[] = { "fx-apps", "dev", NULL };

static void
check_files (GPtrArray  *files,
             GError     *error,
             const char *box_name)
{
  if (files == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }
  g_assert_no_error (error);

  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);
      g_autofree char *dir = g_path_get_dirname (file->path);
      g_autofree char *basename = g_path_get_basename (file->path);

      /* a file in one of the folders, nothing else */
      g_assert_true (g_str_equal (dir, file->kind == KISTE_EXPORTED_BINARY ? BIN_DIR : APPLICATIONS_DIR));
      g_assert_cmpstr (file->path + strlen (dir) + 1, ==, basename);
      g_assert_cmpstr (basename, !=, ".");
      g_assert_cmpstr (basename, !=, "..");
      g_assert_nonnull (file->box_name);
      g_assert_cmpstr (file->box_name, !=, "");
      g_assert_true (g_utf8_validate (file->box_name, -1, NULL));
      if (box_name != NULL)
        {
          g_assert_cmpstr (file->box_name, ==, box_name);
          g_assert_false (file->stale);
        }
      if (i > 0)
        g_assert_cmpint (strcmp (((KisteExportedFile *) g_ptr_array_index (files, i - 1))->path,
                                 file->path), <, 0);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* valid UTF-8, as the runner hands output over */
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) one = NULL;
  g_autoptr(GError) all_error = NULL;
  g_autoptr(GError) one_error = NULL;

  kiste_fuzz_init ();

  all = _kiste_apps_parse_host_listing (text, NULL, APPLICATIONS_DIR, BIN_DIR, box_names, &all_error);
  check_files (all, all_error, NULL);

  one = _kiste_apps_parse_host_listing (text, "fx-apps", APPLICATIONS_DIR, BIN_DIR, NULL, &one_error);
  check_files (one, one_error, "fx-apps");

  /* the same output reads or fails alike for both */
  g_assert_true ((all == NULL) == (one == NULL));

  return 0;
}
