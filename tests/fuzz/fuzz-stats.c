/* fuzz-stats.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A running box's use of the computer: `podman stats --format json` (one
 * JSON array) or `docker stats --format '{{json .}}'` (JSON lines). */

#include "config.h"

#include <string.h>

#include "kiste-box-stats.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

/* What the details page shows as it is */
static void
check_figure (const char *figure)
{
  if (figure == NULL)
    return;

  g_assert_true (g_utf8_validate (figure, -1, NULL));
  if (figure[0] != '\0')
    {
      g_assert_false (g_ascii_isspace (figure[0]));
      g_assert_false (g_ascii_isspace (figure[strlen (figure) - 1]));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* valid UTF-8, as the runner hands output over */
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autoptr(KisteBoxStats) stats = NULL;
  g_autoptr(KisteBoxStats) copy = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fuzz_init ();

  stats = kiste_box_stats_parse (text, &error);
  if (stats == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      return 0;
    }
  g_assert_no_error (error);

  check_figure (stats->cpu);
  check_figure (stats->memory_used);
  check_figure (stats->memory_limit);
  /* a limit is the second of two figures */
  if (stats->memory_limit != NULL)
    g_assert_nonnull (stats->memory_used);

  copy = kiste_box_stats_copy (stats);
  g_assert_cmpstr (copy->cpu, ==, stats->cpu);
  g_assert_cmpstr (copy->memory_used, ==, stats->memory_used);
  g_assert_cmpstr (copy->memory_limit, ==, stats->memory_limit);

  return 0;
}
