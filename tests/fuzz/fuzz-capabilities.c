/* fuzz-capabilities.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the tools say about themselves: `--version` output, `distrobox
 * create --help`, distrobox's config files, and the ordering of version
 * strings (first line against the rest). */

#include "config.h"

#include <string.h>

#include "kiste-capabilities.h"
#include "kiste-fuzz.h"

static int
sign (int value)
{
  return (value > 0) - (value < 0);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *version = NULL;
  g_autofree char *any_version = NULL;
  g_autofree char *manager = NULL;
  g_auto(GStrv) flags = NULL;
  const char *rest;
  g_autofree char *first = NULL;

  kiste_fuzz_init ();

  version = kiste_capabilities_parse_version (text, "distrobox");
  any_version = kiste_capabilities_parse_version (text, NULL);
  if (version != NULL)
    kiste_capabilities_parse_major (version);
  kiste_capabilities_parse_major (text);

  flags = kiste_capabilities_parse_create_help (text);
  for (guint i = 0; flags != NULL && flags[i] != NULL; i++)
    {
      g_assert_true (g_str_has_prefix (flags[i], "--"));
      /* sorted, no duplicates */
      if (i > 0)
        g_assert_cmpint (strcmp (flags[i - 1], flags[i]), <, 0);
    }

  manager = kiste_capabilities_parse_config_manager (text);
  if (manager != NULL)
    g_assert_null (strpbrk (manager, "$`"));

  /* an ordering: antisymmetric and reflexive */
  rest = strchr (text, '\n');
  first = rest != NULL ? g_strndup (text, rest - text) : g_strdup (text);
  rest = rest != NULL ? rest + 1 : "";
  g_assert_cmpint (kiste_capabilities_compare_versions (first, first), ==, 0);
  g_assert_cmpint (sign (kiste_capabilities_compare_versions (first, rest)), ==,
                   -sign (kiste_capabilities_compare_versions (rest, first)));

  return 0;
}
