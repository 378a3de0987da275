/* replay.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Runs a fuzz target over files instead of generated data, in ordinary
 * builds: every seed and every input that once crashed a target is
 * replayed by the core suite. Arguments are files, or folders whose files
 * (not hidden ones) are all read. */

#include "config.h"

#include <stdlib.h>

#include "kiste-fuzz.h"

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void
replay_file (const char *path,
             guint      *n_replayed)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree guint8 *copy = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }

  /* an exact copy, without the terminating NUL, so reading past the end
   * is caught */
  copy = g_memdup2 (contents, length);
  LLVMFuzzerTestOneInput (copy, length);
  g_print ("replayed %s (%" G_GSIZE_FORMAT " bytes)\n", path, length);
  (*n_replayed)++;
}

static void
replay_folder (const char *path,
               guint      *n_replayed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (dir == NULL)
    {
      g_printerr ("%s\n", error->message);
      exit (1);
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      if (name[0] != '.')
        g_ptr_array_add (names, g_build_filename (path, name, NULL));
    }
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    replay_file (g_ptr_array_index (names, i), n_replayed);
}

int
main (int   argc,
      char *argv[])
{
  guint n_replayed = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        replay_folder (argv[i], &n_replayed);
      else
        replay_file (argv[i], &n_replayed);
    }

  /* a replay of nothing would pass whatever the target does */
  if (n_replayed == 0)
    {
      g_printerr ("No inputs to replay\n");
      return 1;
    }

  g_print ("%u inputs replayed\n", n_replayed);
  return 0;
}
