/* test-file.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kiste-file.h"
#include "kiste-test-util.h"

static const char old_contents[] = "[earlier]\nimage=alpine\n";
static const char new_contents[] = "[fixture-a]\nimage=registry.fedoraproject.org/fedora-toolbox:42\n";

/* The names in dir, sorted, joined by spaces */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (handle);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort_values (names, (GCompareFunc) g_strcmp0);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

static char *
read_file (const char *path)
{
  char *contents = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  return contents;
}

static void
test_replace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "box.ini", NULL);
  g_autofree char *target = g_build_filename (dir, "target.ini", NULL);
  g_autofree char *link = g_build_filename (dir, "link.ini", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) link_file = g_file_new_for_path (link);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *names = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *written = NULL;

  /* a new file, then over an old one */
  g_assert_true (kiste_file_replace (file, old_contents, strlen (old_contents), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (kiste_file_replace (file, new_contents, strlen (new_contents), NULL, &error));
  g_assert_no_error (error);
  contents = read_file (path);
  g_assert_cmpstr (contents, ==, new_contents);

  /* a link becomes a file of its own; what it pointed to stays */
  g_assert_true (g_file_set_contents (target, old_contents, -1, NULL));
  g_assert_cmpint (symlink ("target.ini", link), ==, 0);
  g_assert_true (kiste_file_replace (link_file, new_contents, strlen (new_contents), NULL, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  kept = read_file (target);
  written = read_file (link);
  g_assert_cmpstr (kept, ==, old_contents);
  g_assert_cmpstr (written, ==, new_contents);

  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "box.ini link.ini target.ini");
  kiste_test_remove_tree (dir);
}

static struct rlimit saved_limit;
static void (*saved_handler) (int);

/* Files may grow to 16 bytes: writing more fails as on a full disk */
static void
limit_file_size (void)
{
  struct rlimit tiny;

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved_limit), ==, 0);
  tiny = saved_limit;
  tiny.rlim_cur = 16;
  saved_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &tiny), ==, 0);
}

static void
unlimit_file_size (void)
{
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved_limit), ==, 0);
  signal (SIGXFSZ, saved_handler);
}

static void
replaced_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (kiste_file_replace_finish (G_FILE (object), result, error));
}

static void
run_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

static gboolean
is_set (gpointer data)
{
  return *(GError **) data != NULL;
}

/* A write that fails leaves the old contents and no temporary file, also
 * once everything of the write is freed */
static void
test_replace_fails (gconstpointer data)
{
  gboolean async = GPOINTER_TO_INT (data);
  g_autofree char *dir = g_dir_make_tmp ("kiste-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "box.ini", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *names = NULL;

  g_assert_true (g_file_set_contents (path, old_contents, -1, NULL));

  limit_file_size ();
  if (async)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (new_contents, strlen (new_contents));

      kiste_file_replace_async (file, bytes, NULL, replaced_cb, &error);
      g_assert_true (kiste_test_wait_for (is_set, &error, 5000));
    }
  else
    g_assert_false (kiste_file_replace (file, new_contents, strlen (new_contents), NULL, &error));
  /* GIO moved a stream's partial file into place when it was finalized */
  run_for (100);
  unlimit_file_size ();

  g_assert_nonnull (error);
  g_assert_true (error->domain == G_IO_ERROR);
  contents = read_file (path);
  g_assert_cmpstr (contents, ==, old_contents);
  names = list_dir (dir);
  g_assert_cmpstr (names, ==, "box.ini");
  kiste_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file/replace", test_replace);
  g_test_add_data_func ("/file/replace-fails", GINT_TO_POINTER (FALSE), test_replace_fails);
  g_test_add_data_func ("/file/replace-fails-async", GINT_TO_POINTER (TRUE), test_replace_fails);

  return g_test_run ();
}
