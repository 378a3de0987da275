/* kiste-test-util.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "kiste-test-util.h"

void
kiste_test_remove_tree (const char *path)
{
  GStatBuf buf;

  g_assert_cmpint (g_lstat (path, &buf), ==, 0);
  if (S_ISDIR (buf.st_mode))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          kiste_test_remove_tree (child);
        }
      g_assert_cmpint (g_rmdir (path), ==, 0);
    }
  else
    {
      g_assert_cmpint (g_unlink (path), ==, 0);
    }
}
