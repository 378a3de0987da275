/* fuzz-snapshots.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What snapshots and boxes made again read: the engine's listing of a
 * box's snapshot images, a journal left in Kiste's state folder, and a
 * box's create command (one argument a line) read back as settings. */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-fuzz.h"
#include "kiste-journal.h"
#include "kiste-recreate.h"
#include "kiste-snapshot.h"
#include "kiste-validate.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(KisteJournal) journal = NULL;
  g_autoptr(KisteRecreateSettings) settings = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fuzz_init ();

  /* only the box's own snapshots, newest first, sizes short and plain */
  if ((snapshots = kiste_snapshot_parse_list (text, "fixture-a", &error)))
    {
      g_assert_cmpuint (snapshots->len, <=, KISTE_SNAPSHOT_LIST_LIMIT);
      for (guint i = 0; i < snapshots->len; i++)
        {
          KisteSnapshot *snapshot = g_ptr_array_index (snapshots, i);
          const char *size_text = kiste_snapshot_get_size_text (snapshot);

          g_assert_true (kiste_snapshot_parse_image_name (kiste_snapshot_get_image (snapshot), "fixture-a", NULL));
          if (i > 0)
            g_assert_cmpint (g_date_time_compare (kiste_snapshot_get_time (g_ptr_array_index (snapshots, i - 1)),
                                                  kiste_snapshot_get_time (snapshot)), >=, 0);
          if (size_text != NULL)
            g_assert_cmpuint (strlen (size_text), <=, 32);
        }
    }
  else
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);

  /* a journal reads back as it is written */
  if ((journal = kiste_journal_parse (text, &error)))
    {
      g_autofree char *json = kiste_journal_to_json (journal);
      g_autoptr(KisteJournal) again = kiste_journal_parse (json, NULL);

      g_assert_true (kiste_validate_name (journal->box_name, NULL, NULL));
      g_assert_true (kiste_snapshot_parse_image_name (journal->snapshot, journal->box_name, NULL));
      g_assert_nonnull (again);
      g_assert_cmpstr (again->box_name, ==, journal->box_name);
      g_assert_cmpstr (again->snapshot, ==, journal->snapshot);
      g_assert_cmpstr (kiste_create_options_get_image (again->options), ==,
                       kiste_create_options_get_image (journal->options));
    }
  else
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);

  /* settings only as the create dialog would take them */
  argv = g_strsplit (text, "\n", 4097);
  if ((settings = kiste_recreate_read_settings ((const char * const *) argv, "fixture-a", "/home/tester",
                                                "/home/tester", "host", &error)))
    {
      for (guint i = 0; settings->volumes[i] != NULL; i++)
        g_assert_true (kiste_validate_volume (settings->volumes[i], NULL));
      g_assert_true (settings->hostname == NULL || kiste_validate_hostname (settings->hostname, NULL));
      g_assert_true (settings->additional_packages == NULL ||
                     kiste_validate_packages (settings->additional_packages, NULL));
      g_assert_true (settings->init_hooks == NULL || kiste_validate_init_hooks (settings->init_hooks, NULL));
    }
  else
    g_assert_nonnull (error);

  return 0;
}
