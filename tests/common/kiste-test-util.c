/* kiste-test-util.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib-object.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "kiste-test-util.h"

gboolean
kiste_test_wait_for (gboolean (*predicate) (gpointer data),
                     gpointer   data,
                     guint      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!predicate (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (5 * 1000);
    }
  return TRUE;
}

static gboolean
is_null (gpointer data)
{
  return *(gpointer *) data == NULL;
}

void
kiste_test_unref_and_wait (gpointer *object_ptr)
{
  gpointer object = g_steal_pointer (object_ptr);

  g_assert_true (G_IS_OBJECT (object));
  g_object_add_weak_pointer (object, &object);
  g_object_unref (object);
  g_assert_true (kiste_test_wait_for (is_null, &object, 5000));
}

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
