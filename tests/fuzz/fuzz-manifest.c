/* fuzz-manifest.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* distrobox.ini manifests (distrobox assemble): parsed, every box checked
 * and turned into its create command, and the manifest written back, which
 * must read again as the same boxes. */

#include "config.h"

#include "kiste-assemble.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;

  kiste_fuzz_init ();

  entries = kiste_assemble_parse ((const char *) data, size, &error);
  if (entries == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      return 0;
    }
  g_assert_no_error (error);

  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      g_autoptr(GError) invalid = NULL;
      g_autoptr(GError) refused = NULL;
      g_auto(GStrv) argv = NULL;
      gboolean valid;

      g_assert_nonnull (entry->section);
      g_assert_nonnull (entry->options);

      valid = kiste_create_options_validate (entry->options, NULL, &invalid);
      argv = kiste_create_options_to_argv (entry->options, NULL, &refused);
      g_assert ((argv != NULL) == (refused == NULL));
      /* no command for a box that does not pass the checks */
      if (!valid)
        g_assert_null (argv);
    }

  written = kiste_assemble_entries_to_data (entries, NULL);
  if (written != NULL)
    {
      again = kiste_assemble_parse (written, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (again->len, ==, entries->len);
    }

  return 0;
}
