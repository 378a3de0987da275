/* test-bundled-distrobox.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/stat.h>

#include <glib/gstdio.h>

#include "kiste-bundled-distrobox.h"
#include "kiste-error.h"
#include "kiste-test-util.h"

static void
write_script (const char *dir,
              const char *name,
              const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

static char *
make_bundle (const char *version_line)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("kiste-bundle-XXXXXX", &error);

  g_assert_no_error (error);
  write_script (dir, "distrobox", version_line);
  write_script (dir, "distrobox-enter", "#!/bin/sh\necho enter\n");
  write_script (dir, "distrobox-create", "#!/bin/sh\necho create\n");
  write_script (dir, "README.md", "not a script\n");
  return dir;
}

static void
test_version (void)
{
  struct {
    const char *script;
    const char *expected;
  } cases[] = {
    { "#!/bin/sh\n# distrobox\nversion=\"1.8.2.5\"\n", "1.8.2.5" },
    { "#!/bin/sh\nversion=\"2.0.0-rc.4\"\nversion=\"9\"\n", "2.0.0-rc.4" },
    { "#!/bin/sh\nversion=\"$(id)\"\n", NULL },
    { "#!/bin/sh\nversion=\"1.8\n", NULL },
    { "#!/bin/sh\nversion=\"\"\n", NULL },
    { "#!/bin/sh\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *dir = make_bundle (cases[i].script);
      g_autofree char *version = kiste_bundled_distrobox_dup_version (dir);

      g_assert_cmpstr (version, ==, cases[i].expected);
      kiste_test_remove_tree (dir);
    }

  /* a folder without the script */
  g_assert_null (kiste_bundled_distrobox_dup_version ("/nonexistent/kiste"));
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Wait;

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->ok = kiste_bundled_distrobox_install_finish (result, &wait->error);
  wait->done = TRUE;
}

static gboolean
install (const char  *source,
         const char  *target,
         GError     **error)
{
  Wait wait = { 0 };

  kiste_bundled_distrobox_install_async (source, target, NULL, wait_cb, &wait);
  while (!wait.done)
    g_main_context_iteration (NULL, TRUE);
  if (wait.error != NULL)
    g_propagate_error (error, wait.error);
  return wait.ok;
}

static void
test_install (void)
{
  g_autofree char *bundle = make_bundle ("#!/bin/sh\nversion=\"1.8.2.5\"\n");
  g_autofree char *newer = make_bundle ("#!/bin/sh\nversion=\"1.8.2.6\"\n");
  g_autofree char *empty = make_bundle ("#!/bin/sh\n");
  g_autoptr(GError) error = NULL;
  g_autofree char *data = g_dir_make_tmp ("kiste-data-XXXXXX", &error);
  g_autofree char *target = g_build_filename (data, "kiste", "distrobox", NULL);
  g_autofree char *enter = g_build_filename (target, "distrobox-enter", NULL);
  g_autofree char *readme = g_build_filename (target, "README.md", NULL);
  g_autofree char *version = NULL;
  struct stat st;

  g_assert_no_error (error);

  /* the scripts only, runnable; the parent folder is made */
  g_assert_true (install (bundle, target, &error));
  g_assert_no_error (error);
  version = kiste_bundled_distrobox_dup_version (target);
  g_assert_cmpstr (version, ==, "1.8.2.5");
  g_assert_cmpint (g_stat (enter, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0755);
  g_assert_false (g_file_test (readme, G_FILE_TEST_EXISTS));

  /* a newer copy replaces it */
  g_assert_true (install (newer, target, &error));
  g_assert_no_error (error);
  g_clear_pointer (&version, g_free);
  version = kiste_bundled_distrobox_dup_version (target);
  g_assert_cmpstr (version, ==, "1.8.2.6");

  /* a bundle without a version is refused, and the copy in place stays */
  g_assert_false (install (empty, target, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_clear_error (&error);
  g_clear_pointer (&version, g_free);
  version = kiste_bundled_distrobox_dup_version (target);
  g_assert_cmpstr (version, ==, "1.8.2.6");

  /* removed: nothing of it is left */
  g_assert_true (kiste_bundled_distrobox_remove (target, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
  /* removing twice is fine */
  g_assert_true (kiste_bundled_distrobox_remove (target, &error));

  kiste_test_remove_tree (bundle);
  kiste_test_remove_tree (newer);
  kiste_test_remove_tree (empty);
  kiste_test_remove_tree (data);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kiste/bundled-distrobox/version", test_version);
  g_test_add_func ("/kiste/bundled-distrobox/install", test_install);

  return g_test_run ();
}
