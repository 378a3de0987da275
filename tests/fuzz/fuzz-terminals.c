/* fuzz-terminals.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the host says about its terminal apps: the output of the detect
 * script, programs and Flatpaks with their permissions. */

#include "config.h"

#include "kiste-external-terminal.h"
#include "kiste-fuzz.h"

static int
position (const char *id)
{
  const char * const *ids = kiste_external_terminal_get_ids ();

  for (int i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], id))
      return i;

  return -1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) unusable = NULL;
  g_auto(GStrv) found = NULL;
  int last = -1;

  kiste_fuzz_init ();

  found = kiste_external_terminal_parse_detected (text, &unusable);
  g_assert_nonnull (found);
  g_assert_nonnull (unusable);

  /* known ids only, in the order they are offered, each once */
  for (guint i = 0; found[i] != NULL; i++)
    {
      int at = position (found[i]);

      g_assert_cmpint (at, >, last);
      last = at;
      g_assert_nonnull (kiste_external_terminal_get_name (found[i]));
    }
  /* only Flatpaks are unusable, and never also usable */
  for (guint i = 0; unusable[i] != NULL; i++)
    {
      g_assert_nonnull (kiste_external_terminal_get_flatpak_id (unusable[i]));
      g_assert_false (g_strv_contains ((const char * const *) found, unusable[i]));
    }

  return 0;
}
