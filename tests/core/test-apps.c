/* test-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-apps.h"
#include "kiste-runner-private.h"
#include "kiste-commands.h"
#include "kiste-error.h"

static char *
dup_fixture_path (const char *first,
                  ...)
{
  const char *dir = g_getenv ("KISTE_TEST_FIXTURES");
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  va_list args;

  g_assert_nonnull (dir);
  g_ptr_array_add (parts, (gpointer) dir);

  va_start (args, first);
  for (const char *s = first; s != NULL; s = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) s);
  va_end (args);
  g_ptr_array_add (parts, NULL);

  return g_build_filenamev ((char **) parts->pdata);
}

static char *
load_fixture (const char *name)
{
  g_autofree char *path = dup_fixture_path (name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static char *
load_exported (const char *subdir,
               const char *name)
{
  g_autofree char *path = dup_fixture_path ("exported-host", subdir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static char *
join_ids (GPtrArray *apps)
{
  g_autoptr(GString) str = g_string_new (NULL);

  for (guint i = 0; i < apps->len; i++)
    {
      if (i > 0)
        g_string_append_c (str, '|');
      g_string_append (str, kiste_desktop_app_get_id (g_ptr_array_index (apps, i)));
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static KisteDesktopApp *
find_app (GPtrArray  *apps,
          const char *id)
{
  for (guint i = 0; i < apps->len; i++)
    {
      KisteDesktopApp *app = g_ptr_array_index (apps, i);

      if (g_str_equal (kiste_desktop_app_get_id (app), id))
        return app;
    }

  g_error ("No app %s", id);
  return NULL;
}

/* Captured from a Debian box by the listing script; see the file names in
 * the assertions for what the box had (and two PNG icons, and the XPM of
 * python3.11.desktop). */
static void
test_parse_listing_fixture (void)
{
  g_autofree char *output = load_fixture ("apps-listing-debian.txt");
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ids = NULL;
  KisteDesktopApp *app;
  const char * const *categories;

  apps = kiste_apps_parse_listing (output, "C", &error);
  g_assert_no_error (error);
  g_assert_nonnull (apps);

  /* Most important folder first; the /usr/local xperf.desktop shadows the
   * /usr one; broken, Hidden, NoDisplay and Type=Link files are left out. */
  ids = join_ids (apps);
  g_assert_cmpstr (ids, ==,
                   "user-notes.desktop|linked-editor.desktop|local-editor.desktop|"
                   "my tool.desktop|xperf.desktop|org.example.Editor.desktop|"
                   "org.example.Viewer.desktop");

  app = find_app (apps, "org.example.Editor.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_path (app), ==,
                   "/usr/share/applications/org.example.Editor.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_name (app), ==, "Example Editor");
  g_assert_cmpstr (kiste_desktop_app_get_comment (app), ==, "Edit text files");
  g_assert_cmpstr (kiste_desktop_app_get_icon (app), ==, "org.example.Editor");
  g_assert_cmpstr (kiste_desktop_app_get_exec (app), ==, "example-editor --new-window %F");
  categories = kiste_desktop_app_get_categories (app);
  g_assert_cmpuint (g_strv_length ((char **) categories), ==, 3);
  g_assert_cmpstr (categories[0], ==, "GTK");
  g_assert_cmpstr (categories[2], ==, "TextEditor");
  g_assert_false (kiste_desktop_app_get_exported (app));

  app = find_app (apps, "xperf.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_path (app), ==, "/usr/local/share/applications/xperf.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_name (app), ==, "X11 Perf (local)");

  app = find_app (apps, "my tool.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_path (app), ==, "/usr/local/share/applications/my tool.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_exec (app), ==, "\"/opt/my tool/bin/tool\" %f");
  g_assert_null (kiste_desktop_app_get_comment (app));

  app = find_app (apps, "org.example.Viewer.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_name (app), ==, "Ünïcödé Viewer");
  g_assert_cmpstr (kiste_desktop_app_get_icon (app), ==, "/usr/share/pixmaps/viewer.png");
  /* icons by path and by theme name: PNG files of the box */
  g_assert_cmpuint (g_bytes_get_size (kiste_desktop_app_get_icon_data (app)), ==, 474);
  g_assert_cmpmem (g_bytes_get_data (kiste_desktop_app_get_icon_data (app), NULL), 4, "\x89PNG", 4);
  app = find_app (apps, "org.example.Editor.desktop");
  g_assert_cmpuint (g_bytes_get_size (kiste_desktop_app_get_icon_data (app)), ==, 5479);

  app = find_app (apps, "user-notes.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_path (app), ==,
                   "/srv/boxhome/.local/share/applications/user-notes.desktop");

  /* A symbolic link is listed under its own name */
  app = find_app (apps, "linked-editor.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_name (app), ==, "Example Editor");
}

static void
test_parse_listing_locale (void)
{
  g_autofree char *output = load_fixture ("apps-listing-debian.txt");
  g_autoptr(GPtrArray) de = kiste_apps_parse_listing (output, "de_DE.UTF-8", NULL);
  g_autoptr(GPtrArray) ja = kiste_apps_parse_listing (output, "ja", NULL);
  g_autoptr(GPtrArray) fr = kiste_apps_parse_listing (output, "fr_FR", NULL);

  g_assert_nonnull (de);
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (de, "org.example.Editor.desktop")), ==,
                   "Beispiel-Editor");
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (de, "user-notes.desktop")), ==, "Notizen");
  /* No German name: the untranslated one */
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (de, "local-editor.desktop")), ==,
                   "Local Build Editor");
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (ja, "org.example.Editor.desktop")), ==,
                   "例エディタ");
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (fr, "org.example.Viewer.desktop")), ==,
                   "Visionneuse Ünïcödé");
}

static void
test_parse_listing_bad (void)
{
  static const char * const bad[] = {
    "",                                           /* nothing at all */
    "hello\n",                                    /* not ours */
    "P\nL2EuZAA=\nS\n1\nF\nWw==\n",                 /* cut short: no icons, no E */
    "P\nL2EuZAA=\nS\nF\nI\nS\nD\nE\n",           /* a path without a size */
    "P\nS\n1\nF\nWw==\nI\nS\nD\nE\n",             /* a size without a path */
    "P\nL2EuZA==\nS\n0\nF\nI\nS\nD\nE\n",        /* unterminated path */
    "P\nL2EuZA\nS\nF\nI\nS\nD\nE\n",             /* base64 cut short */
    "P\nL2E*ZAA=\nS\nF\nI\nS\nD\nE\n",           /* not base64 */
    "P\n 2f 61 00\nS\nF\nI\nS\nD\nE\n",           /* not base64 (od's hexadecimal) */
    "P\nL2EA\nS\n2\nF\nWw==\nI\nS\nD\nE\n",      /* a file shorter than its size */
    "P\nL2EA\nS\n1\nF\nW1s=\nI\nS\nD\nE\n",      /* a file longer than its size */
    "P\nL2EA\nS\n-1\nF\nI\nS\nD\nE\n",           /* not a size */
    "P\nL2EA\nS\n1x\nF\nWw==\nI\nS\nD\nE\n",     /* not a size */
    "P\nF\nS\nI\nS\nD\nE\n",                       /* sections out of order */
    "P\nS\nF\nI\nS\nD\nE\ntrailing\n",            /* text after the end */
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) apps = kiste_apps_parse_listing (bad[i], NULL, &error);

      if (apps != NULL)
        g_error ("Listing %u was accepted", i);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    }
}

static void
test_parse_listing_empty (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) apps = kiste_apps_parse_listing ("P\nS\nF\nI\nS\nD\nE\n", NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (apps->len, ==, 0);
}

static void
test_new_from_data (void)
{
  static const struct {
    const char *data;
    gboolean    app;
  } cases[] = {
    { "[Desktop Entry]\nType=Application\nName=A\nExec=a\n", TRUE },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=a\nNoDisplay=true\n", FALSE },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=a\nHidden=true\n", FALSE },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=a\nNoDisplay=false\n", TRUE },
    { "[Desktop Entry]\nType=Link\nName=A\nURL=https://example.org\n", FALSE },
    { "[Desktop Entry]\nName=A\nExec=a\n", FALSE },
    { "[Desktop Entry]\nType=Application\nExec=a\n", FALSE },
    { "[Desktop Entry]\nType=Application\nName=A\n", FALSE },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=\n", FALSE },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteDesktopApp) broken = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(KisteDesktopApp) app = NULL;

      app = kiste_desktop_app_new_from_data ("/usr/share/applications/a.desktop",
                                             cases[i].data, strlen (cases[i].data), NULL, &error);
      g_assert_no_error (error);
      if ((app != NULL) != cases[i].app)
        g_error ("Case %u: expected %s", i, cases[i].app ? "an app" : "no app");
    }

  broken = kiste_desktop_app_new_from_data ("/usr/share/applications/b.desktop",
                                            "not a key file\n", 15, NULL, &error);
  g_assert_null (broken);
  g_assert_nonnull (error);
  g_clear_error (&error);

  broken = kiste_desktop_app_new_from_data ("/usr/share/applications/c.desktop",
                                            "[Other]\nName=x\n", 15, NULL, &error);
  g_assert_null (broken);
  g_assert_nonnull (error);
}

static void
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

/* The script itself, run by this machine's sh, on files with awkward
 * names. */
static void
test_script_roundtrip (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kiste-test-apps-XXXXXX", &error);
  g_autofree char *home_apps = NULL;
  g_autofree char *usr_apps = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *subdir = NULL;
  g_autofree char *link_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *errors = NULL;
  g_autofree char *ids = NULL;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *rm_command = NULL;
  int status = 0;

  g_assert_no_error (error);

  home_apps = g_build_filename (root, "home apps", NULL);
  usr_apps = g_build_filename (root, "usr", NULL);
  missing = g_build_filename (root, "missing", NULL);
  subdir = g_build_filename (usr_apps, "folder.desktop", NULL);
  link_path = g_build_filename (usr_apps, "dangling.desktop", NULL);
  g_assert_cmpint (g_mkdir_with_parents (home_apps, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (subdir, 0700), ==, 0);

  write_file (home_apps, "a b.desktop",
              "[Desktop Entry]\nType=Application\nName=Space\nExec=space\n");
  write_file (home_apps, "line\nbreak.desktop",
              "[Desktop Entry]\nType=Application\nName=Newline\nExec=nl\n");
  write_file (home_apps, "dup.desktop",
              "[Desktop Entry]\nType=Application\nName=Home Dup\nExec=dup\nHidden=true\n");
  write_file (usr_apps, "dup.desktop",
              "[Desktop Entry]\nType=Application\nName=Usr Dup\nExec=dup\n");
  write_file (usr_apps, "$(touch pwned).desktop",
              "[Desktop Entry]\nType=Application\nName=Dollar\nExec=\"x\" 'y' %U\n");
  write_file (usr_apps, "empty.desktop", "");
  write_file (usr_apps, "notes.txt", "[Desktop Entry]\nType=Application\nName=No\nExec=no\n");
  {
    /* Many od lines for one file */
    g_autoptr(GString) big = g_string_new ("[Desktop Entry]\nType=Application\nName=Big\nExec=big\n");

    for (guint i = 0; i < 200; i++)
      g_string_append_printf (big, "X-Padding-%u=%u\n", i, i * 7);
    write_file (usr_apps, "big.desktop", big->str);
  }
  g_assert_cmpint (symlink ("/nonexistent/target.desktop", link_path), ==, 0);
  {
    /* a box's 100 GB sparse file and a link to /dev/zero: neither is read
     * whole, and neither is an app */
    g_autofree char *huge = g_build_filename (usr_apps, "huge.desktop", NULL);
    g_autofree char *zero = g_build_filename (usr_apps, "zero.desktop", NULL);
    int fd = open (huge, O_WRONLY | O_CREAT, 0644);

    g_assert_cmpint (fd, >=, 0);
    g_assert_cmpint (write (fd, "[Desktop Entry]\nType=Application\nName=Huge\nExec=huge\n", 53), ==, 53);
    g_assert_cmpint (ftruncate (fd, (off_t) 100 * 1024 * 1024 * 1024), ==, 0);
    close (fd);
    g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  }

  g_ptr_array_add (argv, (gpointer) "/bin/sh");
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) kiste_commands_get_list_apps_script ());
  g_ptr_array_add (argv, (gpointer) "sh");
  g_ptr_array_add (argv, home_apps);
  g_ptr_array_add (argv, missing);
  g_ptr_array_add (argv, usr_apps);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (root, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &output, &errors, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (errors, ==, "");
  g_assert_cmpuint (strlen (output), <, 2 * 1024 * 1024);

  apps = kiste_apps_parse_listing (output, NULL, &error);
  g_assert_no_error (error);
  ids = join_ids (apps);
  /* The home's hidden dup.desktop hides the /usr one too */
  g_assert_cmpstr (ids, ==, "a b.desktop|line\nbreak.desktop|$(touch pwned).desktop|big.desktop");
  g_assert_cmpstr (kiste_desktop_app_get_exec (find_app (apps, "$(touch pwned).desktop")), ==,
                   "\"x\" 'y' %U");
  g_assert_cmpstr (kiste_desktop_app_get_name (find_app (apps, "big.desktop")), ==, "Big");

  {
    g_autofree char *pwned = g_build_filename (root, "pwned", NULL);

    g_assert_false (g_file_test (pwned, G_FILE_TEST_EXISTS));
  }

  rm_command = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_true (g_spawn_command_line_sync (rm_command, NULL, NULL, NULL, NULL));
}

/* envp: NULL for this process's environment */
static char *
run_listing_script (const char         *root,
                    const char         *dir,
                    const char * const *envp)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;
  g_autofree char *errors = NULL;
  int status = 0;
  const char *argv[] = { "/bin/sh", "-c", kiste_commands_get_list_apps_script (), "sh", dir, NULL };

  g_spawn_sync (root, (char **) argv, (char **) envp, G_SPAWN_DEFAULT, NULL, NULL,
                &output, &errors, &status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (status, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (errors, ==, "");

  return g_steal_pointer (&output);
}

/* Icons come in the same exec: an absolute Icon= file, none for a name the
 * box has no file for, none for a file too big; one record per name */
static void
test_script_icons (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kiste-test-icons-XXXXXX", &error);
  g_autofree char *apps_dir = NULL;
  g_autofree char *icon_path = NULL;
  g_autofree char *big_path = NULL;
  g_autofree char *output = NULL;
  g_autofree char *rm_command = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GString) big = g_string_new (NULL);
  const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R' };
  GBytes *bytes;

  g_assert_no_error (error);
  apps_dir = g_build_filename (root, "applications", NULL);
  g_assert_cmpint (g_mkdir (apps_dir, 0700), ==, 0);
  icon_path = g_build_filename (root, "my icon.png", NULL);
  g_assert_true (g_file_set_contents (icon_path, (const char *) png, sizeof png, &error));
  big_path = g_build_filename (root, "big.png", NULL);
  for (guint i = 0; i < 600 * 1024 / 8; i++)
    g_string_append (big, "01234567");
  g_assert_true (g_file_set_contents (big_path, big->str, big->len, &error));

  contents = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Own\nExec=own\nIcon=%s\n", icon_path);
  write_file (apps_dir, "own.desktop", contents);
  g_free (contents);
  contents = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Twin\nExec=twin\nIcon=%s\n", icon_path);
  write_file (apps_dir, "twin.desktop", contents);
  g_free (contents);
  contents = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Big\nExec=big\nIcon=%s\n", big_path);
  write_file (apps_dir, "big.desktop", contents);
  write_file (apps_dir, "missing.desktop",
              "[Desktop Entry]\nType=Application\nName=Missing\nExec=m\nIcon=kiste-test-no-such-icon\n");
  write_file (apps_dir, "none.desktop", "[Desktop Entry]\nType=Application\nName=None\nExec=n\n");

  output = run_listing_script (root, apps_dir, NULL);
  /* One record for the two apps sharing an icon */
  g_assert_nonnull (strstr (output, "\nI\n"));
  g_assert_null (strstr (strstr (output, "\nI\n") + 1, "\nI\n"));

  apps = kiste_apps_parse_listing (output, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (apps->len, ==, 5);
  bytes = kiste_desktop_app_get_icon_data (find_app (apps, "own.desktop"));
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), png, sizeof png);
  g_assert_true (kiste_desktop_app_get_icon_data (find_app (apps, "twin.desktop")) == bytes);
  g_assert_null (kiste_desktop_app_get_icon_data (find_app (apps, "big.desktop")));
  g_assert_null (kiste_desktop_app_get_icon_data (find_app (apps, "missing.desktop")));
  g_assert_null (kiste_desktop_app_get_icon_data (find_app (apps, "none.desktop")));

  rm_command = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_true (g_spawn_command_line_sync (rm_command, NULL, NULL, NULL, NULL));
}

/* Puts into dir a wrapper for each of the tools that notes its name in
 * log_path and runs the real one: what comes first on PATH is counted */
static void
write_counting_tools (const char         *dir,
                      const char * const *tools,
                      const char         *log_path)
{
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0700);
  for (guint i = 0; tools[i] != NULL; i++)
    {
      g_autofree char *real = g_find_program_in_path (tools[i]);
      g_autofree char *wrapper = g_build_filename (dir, tools[i], NULL);
      g_autofree char *script = NULL;

      g_assert_nonnull (real);
      script = g_strdup_printf ("#!/bin/sh\necho %s >> '%s'\nexec %s \"$@\"\n", tools[i], log_path, real);
      g_assert_true (g_file_set_contents (wrapper, script, -1, &error));
      g_assert_cmpint (g_chmod (wrapper, 0755), ==, 0);
    }
}

static guint
count_lines (const char *path)
{
  g_autofree char *text = NULL;
  guint count = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; *p != '\0'; p++)
    count += *p == '\n';
  return count;
}

/* How many programs the script starts for a folder of n apps, each with
 * an icon file of its own: every program it runs is a wrapper that counts */
static guint
count_script_programs (const char *root,
                       guint       n)
{
  static const char * const tools[] = { "base64", "od", "stat", "cat", "head", "sed", "sort", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *apps_dir = g_strdup_printf ("%s/apps-%u", root, n);
  g_autofree char *bin_dir = g_build_filename (root, "bin", NULL);
  g_autofree char *log_path = g_strdup_printf ("%s/programs-%u", root, n);
  g_autofree char *path_env = g_strdup_printf ("PATH=%s", bin_dir);
  g_autofree char *output = NULL;
  g_autoptr(GPtrArray) apps = NULL;
  const char *envp[] = { path_env, NULL };

  write_counting_tools (bin_dir, tools, log_path);

  g_assert_cmpint (g_mkdir (apps_dir, 0700), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *icon = g_strdup_printf ("%s/icon-%u.png", apps_dir, i);
      g_autofree char *name = g_strdup_printf ("app-%u.desktop", i);
      g_autofree char *contents = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=App %u\n"
                                                   "Exec=app\nIcon=%s\n", i, icon);

      g_assert_true (g_file_set_contents (icon, "\x89PNG", 4, &error));
      write_file (apps_dir, name, contents);
    }

  output = run_listing_script (root, apps_dir, envp);

  /* and the listing is whole */
  apps = kiste_apps_parse_listing (output, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (apps->len, ==, n);
  for (guint i = 0; i < apps->len; i++)
    g_assert_nonnull (kiste_desktop_app_get_icon_data (g_ptr_array_index (apps, i)));

  return count_lines (log_path);
}

/* count (root, many) programs for many files, as many as for one */
static void
assert_programs_do_not_grow (guint (*count) (const char *root, guint n),
                             guint   many)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kiste-test-apps-XXXXXX", &error);
  g_autofree char *rm_command = NULL;
  guint one;

  g_assert_no_error (error);
  one = count (root, 1);
  g_assert_cmpuint (one, >, 0);
  g_assert_cmpuint (count (root, many), ==, one);

  rm_command = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_true (g_spawn_command_line_sync (rm_command, NULL, NULL, NULL, NULL));
}

/* A box with many apps costs no more processes than one with one app */
static void
test_script_processes (void)
{
  assert_programs_do_not_grow (count_script_programs, 60);
}

static void
test_parse_listing_bad_icons (void)
{
  static const char * const bad[] = {
    "P\nS\nF\nI\nYQo=\nS\nD\nE\n",               /* an icon without a size */
    "P\nS\nF\nI\nS\n1\nD\nYQ==\nE\n",             /* a size without a name */
    "P\nS\nF\nI\nYQ==\nS\n1\nD\nYQ==\nE\n",       /* an unterminated name */
    "P\nS\nF\nI\nYQo=\nS\n2\nD\nYQ==\nE\n",       /* an icon shorter than its size */
    "P\nS\nF\nI\nYQo=\nS\n1\nD\nYWI=\nE\n",       /* an icon longer than its size */
    "P\nS\nF\nI\nS\nD\nF\nE\n",                   /* a file after the icons */
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) apps = kiste_apps_parse_listing (bad[i], NULL, &error);

      if (apps != NULL)
        g_error ("Listing %u was accepted", i);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    }
}

static GHashTable *
read_fixture_dir (const char *subdir)
{
  g_autofree char *path = dup_fixture_path ("exported-host", subdir, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (path, 0, &error);
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *name;

  g_assert_no_error (error);

  while ((name = g_dir_read_name (dir)))
    g_hash_table_insert (files, g_strdup (name), load_exported (subdir, name));

  return files;
}

static char *
describe_exported (GPtrArray *exported)
{
  g_autoptr(GString) str = g_string_new (NULL);

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);

      g_string_append_printf (str, "%s %s %s %s\n",
                              file->kind == KISTE_EXPORTED_APP ? "app" : "bin",
                              file->path,
                              file->source != NULL ? file->source : "-",
                              file->name != NULL ? file->name : "-");
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* Files distrobox-export 1.8.2.5 wrote for boxes fx-apps and fx-apps-dev:
 * one name is a prefix of the other. */
static void
test_match_exported_fixture (void)
{
  g_autoptr(GHashTable) applications = read_fixture_dir ("applications");
  g_autoptr(GHashTable) binaries = read_fixture_dir ("bin");
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GPtrArray) dev = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autofree char *apps_text = NULL;
  g_autofree char *dev_text = NULL;

  apps = kiste_apps_match_exported ("fx-apps", "/home/alice/.local/share/applications", applications,
                                    "/home/alice/.local/bin", binaries);
  apps_text = describe_exported (apps);
  g_assert_cmpstr (apps_text, ==,
                   "bin /home/alice/.local/bin/x11perf /usr/bin/x11perf x11perf\n"
                   "app /home/alice/.local/share/applications/fx-apps-org.example.Editor.desktop "
                   "org.example.Editor.desktop Example Editor\n"
                   "app /home/alice/.local/share/applications/fx-apps-org.example.Viewer.desktop "
                   "org.example.Viewer.desktop Ünïcödé Viewer\n"
                   "app /home/alice/.local/share/applications/fx-apps-xperf.desktop "
                   "xperf.desktop X11 Perf (local)\n");

  dev = kiste_apps_match_exported ("fx-apps-dev", "/home/alice/.local/share/applications", applications,
                                   "/home/alice/.local/bin", binaries);
  dev_text = describe_exported (dev);
  g_assert_cmpstr (dev_text, ==,
                   "bin /home/alice/.local/bin/x11perfcomp /usr/bin/x11perfcomp x11perfcomp\n"
                   "app /home/alice/.local/share/applications/fx-apps-dev-org.example.Editor.desktop "
                   "org.example.Editor.desktop Example Editor\n");

  none = kiste_apps_match_exported ("fx", "/a", applications, "/b", binaries);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_desktop_enters_box (void)
{
  static const struct {
    const char *contents;
    const char *box;
    gboolean    expected;
  } cases[] = {
    /* distrobox 1 */
    { "[Desktop Entry]\nExec=/usr/bin/distrobox-enter  -n arch  --   firefox  %u \n", "arch", TRUE },
    { "[Desktop Entry]\nExec=/usr/bin/distrobox-enter  -n arch  --   firefox  %u \n", "arch-dev", FALSE },
    { "[Desktop Entry]\nExec=/usr/bin/distrobox-enter  -n arch-dev  --   firefox  %u \n", "arch", FALSE },
    { "[Desktop Entry]\nExec=/usr/bin/distrobox-enter  -n arch-dev  --   firefox  %u \n", "arch-dev", TRUE },
    { "[Desktop Entry]\nExec=distrobox-enter  -n arch  --   firefox \n", "arch", TRUE },
    /* rootful */
    { "[Desktop Entry]\nExec=env SUDO_ASKPASS=\"/home/a/.local/bin/distrobox_sudo_askpass\" "
      "DBX_SUDO_PROGRAM=\"sudo --askpass\" /usr/bin/distrobox-enter --root -n arch  --   gimp \n",
      "arch", TRUE },
    /* distrobox 2 */
    { "[Desktop Entry]\nExec=distrobox enter -n arch -- firefox %u\n", "arch", TRUE },
    { "[Desktop Entry]\nExec=/usr/bin/distrobox enter -n arch -- firefox %u\n", "arch", TRUE },
    { "[Desktop Entry]\nExec=distrobox enter --name arch -- firefox\n", "arch", TRUE },
    { "[Desktop Entry]\nExec=distrobox enter --name=arch -- firefox\n", "arch", TRUE },
    { "[Desktop Entry]\nExec=distrobox enter -n arch.dev -- firefox\n", "arch", FALSE },
    /* only after "--": the app's own arguments */
    { "[Desktop Entry]\nExec=distrobox enter -n other -- tool -n arch\n", "arch", FALSE },
    /* in another group (an action) */
    { "[Desktop Entry]\nExec=firefox\n\n[Desktop Action new]\nExec=/usr/bin/distrobox-enter  -n arch  --   firefox --new \n",
      "arch", TRUE },
    /* not distrobox at all */
    { "[Desktop Entry]\nExec=toolbox run -n arch firefox\n", "arch", FALSE },
    { "[Desktop Entry]\nExec=firefox\nComment=distrobox-enter -n arch\n", "arch", FALSE },
    { "[Desktop Entry]\nExec=my-distrobox enter -n arch --\n", "arch", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (kiste_apps_desktop_enters_box (cases[i].contents, cases[i].box) != cases[i].expected)
        g_error ("Case %u (%s): expected %s", i, cases[i].box, cases[i].expected ? "TRUE" : "FALSE");
    }
}

static void
test_wrapper_names_box (void)
{
  g_autofree char *wrapper = load_exported ("bin", "x11perf");
  g_autofree char *dev_wrapper = load_exported ("bin", "x11perfcomp");

  g_assert_true (kiste_apps_wrapper_names_box (wrapper, "fx-apps"));
  g_assert_false (kiste_apps_wrapper_names_box (wrapper, "fx-apps-dev"));
  g_assert_false (kiste_apps_wrapper_names_box (wrapper, "fx"));
  g_assert_true (kiste_apps_wrapper_names_box (dev_wrapper, "fx-apps-dev"));
  g_assert_false (kiste_apps_wrapper_names_box (dev_wrapper, "fx-apps"));

  g_assert_false (kiste_apps_wrapper_names_box ("#!/bin/sh\n# name: fx-apps\nexec foo\n", "fx-apps"));
  g_assert_false (kiste_apps_wrapper_names_box ("# distrobox_binary\n# name: fx-apps\n", "fx-apps"));
  g_assert_true (kiste_apps_wrapper_names_box ("#!/bin/sh\r\n# distrobox_binary\r\n# name: fx-apps\r\n",
                                               "fx-apps"));
}

static void
test_launcher_candidates (void)
{
  g_assert_true (kiste_apps_is_launcher_candidate ("arch-firefox.desktop", "arch"));
  g_assert_true (kiste_apps_is_launcher_candidate ("arch-dev-firefox.desktop", "arch"));
  g_assert_true (kiste_apps_is_launcher_candidate ("arch-dev-firefox.desktop", "arch-dev"));
  g_assert_false (kiste_apps_is_launcher_candidate ("arch.desktop", "arch"));
  g_assert_false (kiste_apps_is_launcher_candidate ("arch-.desktop", "arch"));
  g_assert_false (kiste_apps_is_launcher_candidate ("archlinux-firefox.desktop", "arch"));
  g_assert_false (kiste_apps_is_launcher_candidate ("arch-firefox.desktop.bak", "arch"));
  g_assert_false (kiste_apps_is_launcher_candidate ("firefox.desktop", "arch"));
}

static void
test_rewrite_launcher (void)
{
  g_autofree char *original = load_exported ("applications", "fx-apps-org.example.Editor.desktop");
  g_autofree char *rewritten = kiste_apps_rewrite_exported (original, "fx-apps", "work");
  g_autofree char *back = kiste_apps_rewrite_exported (rewritten, "work", "fx-apps");
  g_auto(GStrv) old_lines = g_strsplit (original, "\n", -1);
  g_auto(GStrv) new_lines = g_strsplit (rewritten, "\n", -1);
  guint changed = 0;

  g_assert_null (strstr (rewritten, "fx-apps"));
  g_assert_nonnull (strstr (rewritten, "Name=Example Editor (on work)\n"));
  g_assert_nonnull (strstr (rewritten, "Name[ja]=例エディタ (on work)\n"));
  g_assert_nonnull (strstr (rewritten, "GenericName[de]=Texteditor (on work)\n"));
  g_assert_nonnull (strstr (rewritten,
                            "Exec=/usr/bin/distrobox-enter  -n work  --   example-editor --new-window  %F \n"));
  g_assert_nonnull (strstr (rewritten,
                            "Exec=/usr/bin/distrobox-enter  -n work  --   example-editor --new-window \n"));
  g_assert_nonnull (strstr (rewritten,
                            "StartupWMClass=/usr/share/applications/org.example.Editor.desktop\n"));

  /* Nothing but the names moved; spacing and line count are kept */
  g_assert_cmpuint (g_strv_length (old_lines), ==, g_strv_length (new_lines));
  for (guint i = 0; old_lines[i] != NULL; i++)
    {
      if (!g_str_equal (old_lines[i], new_lines[i]))
        changed++;
    }
  g_assert_cmpuint (changed, ==, 9);
  g_assert_cmpstr (back, ==, original);
}

static void
test_rewrite_prefix_clash (void)
{
  g_autofree char *dev = load_exported ("applications", "fx-apps-dev-org.example.Editor.desktop");
  g_autofree char *dev_wrapper = load_exported ("bin", "x11perfcomp");
  g_autofree char *a = kiste_apps_rewrite_exported (dev, "fx-apps", "work");
  g_autofree char *b = kiste_apps_rewrite_exported (dev_wrapper, "fx-apps", "work");

  /* Renaming fx-apps leaves fx-apps-dev's files alone */
  g_assert_cmpstr (a, ==, dev);
  g_assert_cmpstr (b, ==, dev_wrapper);
}

static void
test_rewrite_wrapper (void)
{
  g_autofree char *wrapper = load_exported ("bin", "x11perf");
  g_autofree char *rewritten = kiste_apps_rewrite_exported (wrapper, "fx-apps", "work");
  g_autofree char *expected = NULL;

  expected = g_strdup ("#!/bin/sh\n"
                       "# distrobox_binary\n"
                       "# name: work\n"
                       "if [ -z \"${CONTAINER_ID}\" ]; then\n"
                       "\texec \"/usr/bin/distrobox-enter\"  -n work  --  '/usr/bin/x11perf'  \"$@\"\n"
                       "elif [ -n \"${CONTAINER_ID}\" ] && [ \"${CONTAINER_ID}\" != \"work\" ]; then\n"
                       "\texec distrobox-host-exec '/home/kistetest/.local/bin/x11perf' \"$@\"\n"
                       "else\n"
                       "\texec  '/usr/bin/x11perf' \"$@\"\n"
                       "fi\n");
  g_assert_cmpstr (rewritten, ==, expected);
  g_assert_true (kiste_apps_wrapper_names_box (rewritten, "work"));
  g_assert_false (kiste_apps_wrapper_names_box (rewritten, "fx-apps"));
}

static void
test_rewrite_arguments_untouched (void)
{
  static const struct {
    const char *in;
    const char *out;
  } cases[] = {
    { "Exec=/usr/bin/distrobox-enter  -n arch  --   tool -n arch --name=arch  %u \n",
      "Exec=/usr/bin/distrobox-enter  -n box2  --   tool -n arch --name=arch  %u \n" },
    { "Exec=distrobox enter -n arch -- tool -n arch\n",
      "Exec=distrobox enter -n box2 -- tool -n arch\n" },
    { "Exec=distrobox enter --name=arch -- tool\n",
      "Exec=distrobox enter --name=box2 -- tool\n" },
    { "Exec=distrobox enter --name arch -- tool\n",
      "Exec=distrobox enter --name box2 -- tool\n" },
    /* lines without a distrobox enter call keep their -n */
    { "Exec=tool -n arch\nX-Other=-n arch\n", "Exec=tool -n arch\nX-Other=-n arch\n" },
    /* the label only at the end of a line */
    { "Name=Arch (on arch) tools\nName=Tools (on arch)\n", "Name=Arch (on arch) tools\nName=Tools (on box2)\n" },
    { "Name=Tools (on arch-dev)\n", "Name=Tools (on arch-dev)\n" },
    { "# name: arch-dev\n# name: arch\n", "# name: arch-dev\n# name: box2\n" },
    /* CRLF and a last line without a newline survive */
    { "Name=X (on arch)\r\nExec=distrobox enter -n arch -- x", "Name=X (on box2)\r\nExec=distrobox enter -n box2 -- x" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = kiste_apps_rewrite_exported (cases[i].in, "arch", "box2");

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

static void
test_renamed_launcher_name (void)
{
  g_autofree char *a = kiste_apps_dup_renamed_launcher_name ("fx-apps-org.example.Editor.desktop",
                                                             "fx-apps", "work");
  g_autofree char *b = kiste_apps_dup_renamed_launcher_name ("fx-apps-dev-org.example.Editor.desktop",
                                                             "fx-apps-dev", "work");
  g_autofree char *c = kiste_apps_dup_renamed_launcher_name ("org.example.Editor.desktop",
                                                             "fx-apps", "work");

  g_assert_cmpstr (a, ==, "work-org.example.Editor.desktop");
  g_assert_cmpstr (b, ==, "work-org.example.Editor.desktop");
  g_assert_null (c);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_mark_exported (void)
{
  g_autofree char *output = load_fixture ("apps-listing-debian.txt");
  g_autoptr(GPtrArray) apps = kiste_apps_parse_listing (output, "C", NULL);
  g_autoptr(GHashTable) applications = read_fixture_dir ("applications");
  g_autoptr(GPtrArray) exported = NULL;
  g_autoptr(GPtrArray) dev_exported = NULL;
  KisteDesktopApp *editor;
  guint notified = 0;

  g_assert_nonnull (apps);
  editor = find_app (apps, "org.example.Editor.desktop");
  g_signal_connect (editor, "notify::exported", G_CALLBACK (count_notify), &notified);

  exported = kiste_apps_match_exported ("fx-apps", "/h/apps", applications, NULL, NULL);
  kiste_apps_mark_exported (apps, exported);

  for (guint i = 0; i < apps->len; i++)
    {
      KisteDesktopApp *app = g_ptr_array_index (apps, i);
      const char *id = kiste_desktop_app_get_id (app);
      gboolean expected = g_str_equal (id, "org.example.Editor.desktop") ||
                          g_str_equal (id, "org.example.Viewer.desktop") ||
                          g_str_equal (id, "xperf.desktop");

      if (kiste_desktop_app_get_exported (app) != expected)
        g_error ("%s: exported should be %d", id, expected);
    }
  g_assert_cmpuint (notified, ==, 1);

  /* fx-apps-dev only has the editor */
  dev_exported = kiste_apps_match_exported ("fx-apps-dev", "/h/apps", applications, NULL, NULL);
  kiste_apps_mark_exported (apps, dev_exported);
  g_assert_true (kiste_desktop_app_get_exported (editor));
  g_assert_false (kiste_desktop_app_get_exported (find_app (apps, "org.example.Viewer.desktop")));
  g_assert_cmpuint (notified, ==, 1);

  kiste_desktop_app_set_exported (editor, FALSE);
  g_assert_cmpuint (notified, ==, 2);
}

static void
list_exported_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = kiste_apps_list_exported_finish (result, &error);
  g_assert_no_error (error);
}

static GPtrArray *
list_exported_with (KisteRunner *runner,
                    const char  *box,
                    const char  *applications_dir,
                    const char  *bin_dir)
{
  GPtrArray *result = NULL;

  kiste_apps_list_exported_async (runner, box, applications_dir, bin_dir, NULL, list_exported_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return result;
}

static GPtrArray *
list_exported (const char *box,
               const char *applications_dir,
               const char *bin_dir)
{
  return list_exported_with (NULL, box, applications_dir, bin_dir);
}

static void
test_list_exported_async (void)
{
  g_autofree char *applications_dir = dup_fixture_path ("exported-host", "applications", NULL);
  g_autofree char *bin_dir = dup_fixture_path ("exported-host", "bin", NULL);
  g_autoptr(GHashTable) applications = read_fixture_dir ("applications");
  g_autoptr(GHashTable) binaries = read_fixture_dir ("bin");
  g_autoptr(GPtrArray) from_files = list_exported ("fx-apps", applications_dir, bin_dir);
  g_autoptr(GPtrArray) from_tables = kiste_apps_match_exported ("fx-apps", applications_dir, applications,
                                                                bin_dir, binaries);
  g_autoptr(GPtrArray) missing = list_exported ("fx-apps", "/nonexistent/applications", "/nonexistent/bin");
  g_autofree char *a = describe_exported (from_files);
  g_autofree char *b = describe_exported (from_tables);

  g_assert_cmpuint (from_files->len, ==, 4);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (missing->len, ==, 0);
}

/* From the Flatpak sandbox the folders are read on the host: through the
 * runner's flatpak-spawn (here a stand-in that runs the command locally),
 * with the same result as reading them here */
static void
test_list_exported_from_sandbox (void)
{
  g_autofree char *applications_dir = dup_fixture_path ("exported-host", "applications", NULL);
  g_autofree char *bin_dir = dup_fixture_path ("exported-host", "bin", NULL);
  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(GPtrArray) local = list_exported ("fx-apps", applications_dir, bin_dir);
  g_autoptr(GPtrArray) host = NULL;
  g_autoptr(GPtrArray) missing = NULL;
  g_autofree char *a = describe_exported (local);
  g_autofree char *b = NULL;

  kiste_runner_set_in_flatpak (runner, TRUE);
  _kiste_runner_set_flatpak_spawn (runner, spawn);

  host = list_exported_with (runner, "fx-apps", applications_dir, bin_dir);
  b = describe_exported (host);
  g_assert_cmpuint (host->len, ==, 4);
  g_assert_cmpstr (a, ==, b);

  missing = list_exported_with (runner, "fx-apps", "/nonexistent/applications", "/nonexistent/bin");
  g_assert_cmpuint (missing->len, ==, 0);
}

/* How many programs the host read from the sandbox starts for n launchers
 * and n wrappers of a box: the host's tools are wrappers that count */
static guint
count_host_read_programs (const char *root,
                          guint       n)
{
  static const char * const tools[] = { "base64", "tr", "stat", "head", "cat", "wc", "od", "sed", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *applications_dir = g_strdup_printf ("%s/applications-%u", root, n);
  g_autofree char *bin_dir = g_strdup_printf ("%s/bin-%u", root, n);
  g_autofree char *tools_dir = g_build_filename (root, "tools", NULL);
  g_autofree char *log_path = g_strdup_printf ("%s/programs-%u", root, n);
  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);
  g_autofree char *launcher_path = dup_fixture_path ("exported-host", "applications",
                                                     "fx-apps-org.example.Editor.desktop", NULL);
  g_autofree char *launcher = NULL;
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *path = g_strdup_printf ("%s:%s", tools_dir, old_path);
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(GPtrArray) found = NULL;

  write_counting_tools (tools_dir, tools, log_path);

  g_assert_true (g_file_get_contents (launcher_path, &launcher, NULL, &error));
  g_assert_cmpint (g_mkdir (applications_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (bin_dir, 0700), ==, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("fx-apps-app%u.desktop", i);
      g_autofree char *program = g_strdup_printf ("tool%u", i);
      g_autofree char *wrapper = g_strdup_printf ("#!/bin/sh\n# distrobox_binary\n# name: fx-apps\n"
                                                  "exec \"/usr/bin/distrobox-enter\"  -n fx-apps  --  "
                                                  "'/usr/bin/tool%u'  \"$@\"\n", i);

      write_file (applications_dir, name, launcher);
      write_file (bin_dir, program, wrapper);
    }

  kiste_runner_set_in_flatpak (runner, TRUE);
  _kiste_runner_set_flatpak_spawn (runner, spawn);
  g_setenv ("PATH", path, TRUE);
  found = list_exported_with (runner, "fx-apps", applications_dir, bin_dir);
  g_setenv ("PATH", old_path, TRUE);
  /* every launcher and every wrapper, whole */
  g_assert_cmpuint (found->len, ==, 2 * n);

  return count_lines (log_path);
}

/* The sandbox reads a hundred launchers with no more host processes than one */
static void
test_list_exported_from_sandbox_processes (void)
{
  assert_programs_do_not_grow (count_host_read_programs, 100);
}

/* Everything exported: a box that is there (v1 launcher, wrapper, its own
 * entry), a deleted one (v2 launcher, wrapper), a renamed one, a rootful
 * one, and files of the user's that distrobox did not write */
static char *
describe_all_exported (GPtrArray  *files,
                       const char *dir)
{
  g_autoptr(GString) str = g_string_new (NULL);

  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);
      const char *kind = file->kind == KISTE_EXPORTED_APP ? "app" :
                         file->kind == KISTE_EXPORTED_BINARY ? "bin" : "entry";

      g_assert_true (g_str_has_prefix (file->path, dir));
      g_string_append_printf (str, "%s %s %s %s %s\n", kind, file->path + strlen (dir) + 1,
                              file->box_name, file->source ? file->source : "-",
                              file->stale ? "stale" : "ok");
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static void
list_all_exported_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GPtrArray **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = kiste_apps_list_all_exported_finish (result, &error);
  g_assert_no_error (error);
}

static GPtrArray *
list_all_exported_with (KisteRunner        *runner,
                        const char * const *boxes)
{
  g_autofree char *applications_dir = dup_fixture_path ("exported-all", "applications", NULL);
  g_autofree char *bin_dir = dup_fixture_path ("exported-all", "bin", NULL);
  GPtrArray *result = NULL;

  kiste_apps_list_all_exported_async (runner, applications_dir, bin_dir, boxes, NULL,
                                      list_all_exported_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return result;
}

static const char all_exported_expected[] =
  "app applications/fixture-a-org.example.Editor.desktop fixture-a org.example.Editor.desktop ok\n"
  "entry applications/fixture-b.desktop fixture-b - ok\n"
  "app applications/gone-org.example.Viewer.desktop gone org.example.Viewer.desktop stale\n"
  "app applications/oldname-org.example.Notes.desktop oldname org.example.Notes.desktop stale\n"
  "app applications/rootbox-org.example.Tool.desktop rootbox org.example.Tool.desktop ok\n"
  "bin bin/gonetool gone /usr/local/bin/gonetool stale\n"
  "bin bin/x11perf fixture-a /usr/bin/x11perf ok\n";

static void
test_all_exported (void)
{
  const char *boxes[] = { "fixture-a", "fixture-b", "newname", NULL };
  g_autofree char *dir = dup_fixture_path ("exported-all", NULL);
  g_autoptr(GPtrArray) files = list_all_exported_with (NULL, boxes);
  g_autofree char *text = describe_all_exported (files, dir);
  g_autoptr(GPtrArray) none = NULL;
  g_autofree char *none_text = NULL;

  g_assert_cmpstr (text, ==, all_exported_expected);

  /* no boxes at all: every export is left behind, but the rootful one */
  none = list_all_exported_with (NULL, NULL);
  none_text = describe_all_exported (none, dir);
  g_assert_nonnull (strstr (none_text, "fixture-a org.example.Editor.desktop stale"));
  g_assert_nonnull (strstr (none_text, "rootbox org.example.Tool.desktop ok"));
  g_assert_null (strstr (none_text, "org.example.Viewer.desktop fixture"));
  g_assert_null (strstr (none_text, "handmade"));
  g_assert_null (strstr (none_text, "mytool"));
}

static void
test_all_exported_from_sandbox (void)
{
  const char *boxes[] = { "fixture-a", "fixture-b", "newname", NULL };
  g_autofree char *dir = dup_fixture_path ("exported-all", NULL);
  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *text = NULL;

  kiste_runner_set_in_flatpak (runner, TRUE);
  _kiste_runner_set_flatpak_spawn (runner, spawn);
  files = list_all_exported_with (runner, boxes);
  text = describe_all_exported (files, dir);
  g_assert_cmpstr (text, ==, all_exported_expected);
}

static void
test_wrapper_box (void)
{
  g_autofree char *a = kiste_apps_dup_wrapper_box ("#!/bin/sh\n# distrobox_binary\n# name: arch-dev \nexec x\n");
  g_autofree char *b = kiste_apps_dup_wrapper_box ("#!/bin/sh\n# name: arch\nexec x\n");
  g_autofree char *c = kiste_apps_dup_wrapper_box ("# distrobox_binary\n# name: arch\n");
  g_autofree char *d = kiste_apps_dup_wrapper_box ("#!/bin/sh\n# distrobox_binary\n# name: \n");

  g_assert_cmpstr (a, ==, "arch-dev");
  g_assert_null (b);
  g_assert_null (c);
  g_assert_null (d);
}

static void
test_resolved_program (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = kiste_apps_parse_resolved_program ("/usr/bin/htop\n", "htop", &error);
  g_autofree char *none = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/usr/bin/htop");

  /* a builtin, an alias, nothing */
  none = kiste_apps_parse_resolved_program ("cd\n", "cd", &error);
  g_assert_null (none);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (kiste_apps_parse_resolved_program ("alias ll='ls -l'\n", "ll", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (kiste_apps_parse_resolved_program ("", "nope", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (kiste_apps_parse_resolved_program (NULL, "nope", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
}

static void
test_is_distrobox_launcher (void)
{
  static const struct {
    const char *contents;
    gboolean    distrobox;
  } cases[] = {
    /* distrobox 1.8's shape, with its double spaces */
    { "[Desktop Entry]\nName=Maps\nExec=/usr/bin/distrobox-enter  -n arch  --   gnome-maps  %U \n", TRUE },
    /* distrobox 2's shape */
    { "[Desktop Entry]\nName=Maps\nExec=distrobox enter -n arch -- gnome-maps %U\n", TRUE },
    { "[Desktop Entry]\nName=Maps\nExec=env SUDO_ASKPASS=x /usr/bin/distrobox-enter --root -n r -- x\n", TRUE },
    /* The user's own */
    { "[Desktop Entry]\nName=Maps\nExec=gnome-maps %U\n", FALSE },
    { "[Desktop Entry]\nName=Maps\nExec=my-distrobox-enter-notes\n", FALSE },
    { "[Desktop Entry]\nName=distrobox enter\nComment=distrobox-enter\nExec=true\n", FALSE },
    { "", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    if (kiste_apps_is_distrobox_launcher (cases[i].contents) != cases[i].distrobox)
      g_error ("Case %u: expected %s", i, cases[i].distrobox ? "distrobox's" : "the user's");
}

static void
test_entered_box (void)
{
  static const struct {
    const char *contents;
    const char *box;
  } cases[] = {
    { "[Desktop Entry]\nExec=/usr/bin/distrobox-enter  -n arch-dev  --   gnome-maps  %U \n", "arch-dev" },
    { "[Desktop Entry]\nExec=distrobox enter -n fedora.41 -- code --new-window\n", "fedora.41" },
    { "[Desktop Entry]\nExec=env SUDO_ASKPASS=x /usr/bin/distrobox-enter --root -n rootbox -- x\n", "rootbox" },
    { "[Desktop Entry]\nExec=distrobox enter --name=tw -- x\n", "tw" },
    /* distrobox generate-entry */
    { "[Desktop Entry]\nExec=/usr/bin/distrobox enter  ubuntu\nTerminal=true\n", "ubuntu" },
    /* the app's own -n after "--" is not the box */
    { "[Desktop Entry]\nExec=distrobox-enter -- app -n other\n", NULL },
    { "[Desktop Entry]\nExec=gnome-maps %U\n", NULL },
    /* Kiste's launchers of toolboxes */
    { "[Desktop Entry]\nExec=/usr/bin/toolbox run --container fedora-toolbox-42 -- gnome-maps %U\n",
      "fedora-toolbox-42" },
    { "[Desktop Entry]\nExec=toolbox run -c tb -- x\n", "tb" },
    { "[Desktop Entry]\nExec=toolbox run --container=tb2 x\n", "tb2" },
    /* the app's own --container is not the box */
    { "[Desktop Entry]\nExec=toolbox run -- app --container other\n", NULL },
    { "[Desktop Entry]\nExec=toolbox list --container x\n", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *box = kiste_apps_dup_entered_box (cases[i].contents);

      if (g_strcmp0 (box, cases[i].box) != 0)
        g_error ("Case %u: %s, expected %s", i, box, cases[i].box);
    }
}

static void
test_exec_argv (void)
{
  static const struct {
    const char *exec;
    const char *argv;  /* joined with "|", NULL for an error */
  } cases[] = {
    { "gnome-maps %U", "gnome-maps" },
    { "example-editor --new-window %F", "example-editor|--new-window" },
    { "\"/opt/my tool/bin/tool\" %f", "/opt/my tool/bin/tool" },
    { "sh -c 'echo \"a b\"; exit 0' %u", "sh|-c|echo \"a b\"; exit 0" },
    { "printf 100%% --file=%f", "printf|100%|--file=" },
    { "app %i %c %k", "app" },
    { "'unterminated", NULL },
    { "%U", NULL },
    { "%", NULL },
    { "%f%u --new", NULL },
    { "app %été", "app|été" },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = kiste_apps_dup_exec_argv (cases[i].exec, &error);
      g_autofree char *joined = argv ? g_strjoinv ("|", argv) : NULL;

      if (cases[i].argv == NULL)
        {
          g_assert_null (argv);
          g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
        }
      else
        {
          g_assert_no_error (error);
          g_assert_cmpstr (joined, ==, cases[i].argv);
        }
    }
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static char *
keep_launcher (KisteRunner  *runner,
               const char   *dir,
               const char   *id,
               GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_apps_keep_user_launcher_async (runner, dir, id, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_apps_keep_user_launcher_finish (result, error);
}

static gboolean
restore_launcher (KisteRunner  *runner,
                  const char   *kept,
                  const char   *dir,
                  const char   *id,
                  GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_apps_restore_user_launcher_async (runner, kept, dir, id, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_apps_restore_user_launcher_finish (result, error);
}

/* The user's launcher goes aside and comes back unchanged; distrobox's own
 * launchers and missing files are left alone; nothing is overwritten */
static void
check_keep_launcher (KisteRunner *runner)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-keep-XXXXXX", &error);
  g_autofree char *user_path = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *expected_kept = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *none = NULL;
  const char *user_launcher = "[Desktop Entry]\nType=Application\nName=My Maps\nExec=gnome-maps --mine %U\n";
  const char *others[] = { "box-org.gnome.Maps.desktop", "org.example.Exported.desktop" };

  g_assert_no_error (error);
  write_file (dir, "org.gnome.Maps.desktop", user_launcher);
  write_file (dir, "box-org.gnome.Maps.desktop",
              "[Desktop Entry]\nName=Maps (on box)\nExec=/usr/bin/distrobox-enter  -n box  --   gnome-maps  %U \n");
  write_file (dir, "org.example.Exported.desktop",
              "[Desktop Entry]\nName=Old\nExec=distrobox enter -n box -- old\n");
  user_path = g_build_filename (dir, "org.gnome.Maps.desktop", NULL);
  expected_kept = kiste_apps_dup_kept_launcher_path (dir, "org.gnome.Maps.desktop");

  kept = keep_launcher (runner, dir, "org.gnome.Maps.desktop", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kept, ==, expected_kept);
  g_assert_false (g_file_test (user_path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (kept, G_FILE_TEST_IS_REGULAR));
  /* Not a name menus read */
  g_assert_false (g_str_has_suffix (kept, ".desktop"));

  /* Kept once already: the second one is refused rather than overwriting */
  write_file (dir, "org.gnome.Maps.desktop", "[Desktop Entry]\nName=Another\nExec=x\n");
  none = keep_launcher (runner, dir, "org.gnome.Maps.desktop", &error);
  g_assert_null (none);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (g_unlink (user_path), ==, 0);

  g_assert_true (restore_launcher (runner, kept, dir, "org.gnome.Maps.desktop", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (user_path, &contents, NULL, &error));
  g_assert_cmpstr (contents, ==, user_launcher);
  g_assert_false (g_file_test (kept, G_FILE_TEST_EXISTS));

  /* distrobox's own launcher and no launcher at all: nothing to keep */
  g_assert_null (keep_launcher (runner, dir, "org.example.Exported.desktop", &error));
  g_assert_no_error (error);
  g_assert_null (keep_launcher (runner, dir, "org.example.Missing.desktop", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (user_path, G_FILE_TEST_EXISTS));

  /* Names that are no file name here */
  g_assert_null (keep_launcher (runner, dir, "../x.desktop", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  g_assert_cmpint (g_unlink (user_path), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      g_autofree char *path = g_build_filename (dir, others[i], NULL);

      g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
test_keep_launcher (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();

  check_keep_launcher (runner);
}

static void
test_keep_launcher_from_sandbox (void)
{
  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);
  g_autoptr(KisteRunner) runner = kiste_runner_new ();

  kiste_runner_set_in_flatpak (runner, TRUE);
  _kiste_runner_set_flatpak_spawn (runner, spawn);
  check_keep_launcher (runner);
}

/* The launcher Kiste writes for an app of a box: nothing of the box's
 * entry runs but the app's own argv, inside the box */
static char **
launcher_exec_argv (const char *launcher)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autofree char *exec = NULL;
  char **argv = NULL;

  g_assert_true (g_key_file_load_from_data (file, launcher, -1, G_KEY_FILE_NONE, NULL));
  exec = g_key_file_get_string (file, "Desktop Entry", "Exec", NULL);
  g_assert_nonnull (exec);
  g_assert_true (g_shell_parse_argv (exec, NULL, &argv, NULL));
  return argv;
}

static void
test_build_host_launcher (void)
{
  const char *enter[] = { "/usr/bin/distrobox", "enter", "-n", "dev", "--", NULL };
  const char *entry =
    "[Desktop Entry]\nType=Application\nName=Clock\nName[de]=Uhr\nName[de_DE@euro]=Uhr\n"
    "GenericName=Clock\nComment=Shows the time\nComment[fr]=L'heure\n"
    "Exec=xclock -title \"My Clock\" --rate=50%% %U\n"
    "Exec[de]=/tmp/evil\nTryExec=/tmp/evil\nPath=/tmp\nDBusActivatable=true\n"
    "MimeType=text/html;x-scheme-handler/https;\n"
    "Icon=/usr/share/icons/hicolor/48x48/apps/xclock.png\nTerminal=false\n"
    "Categories=Utility;Clock;bad cat;\nActions=new;\nX-Evil=1\n\n"
    "[Desktop Action new]\nName=New\nExec=rm -rf ~\n";
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *launcher = NULL;
  g_autofree char *name = NULL;
  g_autofree char *name_de = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *wm_class = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) groups = NULL;
  g_auto(GStrv) categories = NULL;
  const char *expected[] = { "/usr/bin/distrobox", "enter", "-n", "dev", "--", "xclock", "-title",
                             "My Clock", "--rate=50%", "%U", NULL };
  const char *allowed[] = { "Type", "Name", "Name[de]", "Name[de_DE@euro]", "GenericName", "Comment", "Comment[fr]",
                            "Exec", "Icon", "Categories", "Terminal", "StartupWMClass", NULL };

  launcher = kiste_apps_build_host_launcher ("org.x.Clock.desktop", entry, strlen (entry), enter,
                                             " (on dev)", &error);
  g_assert_no_error (error);
  g_assert_true (g_key_file_load_from_data (file, launcher, -1, G_KEY_FILE_KEEP_TRANSLATIONS, NULL));

  groups = g_key_file_get_groups (file, NULL);
  g_assert_cmpuint (g_strv_length (groups), ==, 1);
  keys = g_key_file_get_keys (file, "Desktop Entry", NULL, NULL);
  for (guint i = 0; keys[i] != NULL; i++)
    if (!g_strv_contains (allowed, keys[i]))
      g_error ("the launcher kept “%s”", keys[i]);
  g_assert_cmpuint (g_strv_length (keys), ==, g_strv_length ((char **) allowed));

  argv = launcher_exec_argv (launcher);
  /* the shell's parse of the Exec value: "%%" stays doubled there */
  g_assert_cmpuint (g_strv_length (argv), ==, g_strv_length ((char **) expected));
  for (guint i = 0; expected[i] != NULL; i++)
    {
      if (g_str_equal (expected[i], "--rate=50%"))
        g_assert_cmpstr (argv[i], ==, "--rate=50%%");
      else
        g_assert_cmpstr (argv[i], ==, expected[i]);
    }

  name = g_key_file_get_string (file, "Desktop Entry", "Name", NULL);
  name_de = g_key_file_get_locale_string (file, "Desktop Entry", "Name", "de", NULL);
  icon = g_key_file_get_string (file, "Desktop Entry", "Icon", NULL);
  wm_class = g_key_file_get_string (file, "Desktop Entry", "StartupWMClass", NULL);
  categories = g_key_file_get_string_list (file, "Desktop Entry", "Categories", NULL, NULL);
  g_assert_cmpstr (name, ==, "Clock (on dev)");
  g_assert_cmpstr (name_de, ==, "Uhr (on dev)");
  g_assert_cmpstr (icon, ==, "xclock");
  g_assert_cmpstr (wm_class, ==, "org.x.Clock");
  g_assert_cmpuint (g_strv_length (categories), ==, 2);
}

/* What a hostile entry tries does not pass: shell syntax is an argument
 * of the app, quoted; an icon that is a glob or a path elsewhere goes;
 * entries without a usable Exec or Name are refused */
static void
test_build_host_launcher_hostile (void)
{
  const char *enter[] = { "/usr/bin/distrobox", "enter", "-n", "dev", "--", NULL };
  const struct {
    const char *entry;
    const char *argv;    /* the app's part, "|"-joined; NULL: refused */
    const char *icon;
  } cases[] = {
    { "[Desktop Entry]\nType=Application\nName=A\nExec=/tmp/x/distrobox-enter -n dev -- /bin/true\n",
      "/tmp/x/distrobox-enter|-n|dev|--|/bin/true", "application-x-executable" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=sh -c \"$(id) `id`; rm -rf ~\"\nIcon=*\n",
      "sh|-c|$(id) `id`; rm -rf ~", "application-x-executable" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app\nIcon=../../x\n", "app", "application-x-executable" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app\nIcon=.\n", "app", "application-x-executable" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app\nIcon=org.x.App\n", "app", "org.x.App" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app\nIcon=/opt/x/y z.png\n", "app", "application-x-executable" },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=-rf /\n", NULL, NULL },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=%U\n", NULL, NULL },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app \"unterminated\n", NULL, NULL },
    { "[Desktop Entry]\nType=Application\nName=A\nExec=app\\nrm -rf ~\n", NULL, NULL },
    { "[Desktop Entry]\nType=Application\nExec=app\n", NULL, NULL },
    { "[Desktop Entry]\nType=Link\nName=A\nURL=https://example.com\n", NULL, NULL },
    { "not a key file", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *launcher = kiste_apps_build_host_launcher ("a.desktop", cases[i].entry,
                                                                  strlen (cases[i].entry), enter, "",
                                                                  &error);

      if (cases[i].argv == NULL)
        {
          if (launcher != NULL)
            g_error ("case %u: accepted %s", i, cases[i].entry);
          g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
        }
      else
        {
          g_autoptr(GKeyFile) file = g_key_file_new ();
          g_auto(GStrv) argv = NULL;
          g_autofree char *joined = NULL;
          g_autofree char *icon = NULL;

          g_assert_no_error (error);
          argv = launcher_exec_argv (launcher);
          g_assert_cmpstr (argv[0], ==, "/usr/bin/distrobox");
          g_assert_cmpstr (argv[4], ==, "--");
          joined = g_strjoinv ("|", argv + 5);
          g_assert_cmpstr (joined, ==, cases[i].argv);
          g_assert_true (g_key_file_load_from_data (file, launcher, -1, G_KEY_FILE_NONE, NULL));
          icon = g_key_file_get_string (file, "Desktop Entry", "Icon", NULL);
          g_assert_cmpstr (icon, ==, cases[i].icon);
        }
    }
}

static gboolean
write_launcher (KisteRunner  *runner,
                const char   *dir,
                const char   *name,
                const char   *contents,
                gboolean      replace,
                GError      **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_apps_write_host_launcher_async (runner, dir, name, contents, replace, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_apps_write_host_launcher_finish (result, error);
}

/* A new launcher never goes over a file that is there; replacing one
 * takes a regular file only, never what a symlink points to; no
 * temporary file is left */
static void
test_write_host_launcher (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-write-XXXXXX", &error);
  g_autofree char *apps = g_build_filename (dir, "applications", NULL);
  g_autofree char *target = g_build_filename (apps, "dev-a.desktop", NULL);
  g_autofree char *victim = g_build_filename (dir, "victim", NULL);
  g_autofree char *link = g_build_filename (apps, "dev-b.desktop", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *entry;
  guint n = 0;

  g_assert_no_error (error);
  g_assert_true (write_launcher (runner, apps, "dev-a.desktop", "one\n", FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "one\n");
  g_clear_pointer (&contents, g_free);

  /* there now: a new one is refused, a replacement goes in */
  g_assert_false (write_launcher (runner, apps, "dev-a.desktop", "two\n", FALSE, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "one\n");
  g_clear_pointer (&contents, g_free);
  g_assert_true (write_launcher (runner, apps, "dev-a.desktop", "three\n", TRUE, &error));
  g_assert_true (g_file_get_contents (target, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "three\n");
  g_clear_pointer (&contents, g_free);

  /* a symlink in the way: neither it nor its target is written */
  g_assert_true (g_file_set_contents (victim, "mine\n", -1, NULL));
  g_assert_cmpint (symlink (victim, link), ==, 0);
  g_assert_false (write_launcher (runner, apps, "dev-b.desktop", "evil\n", TRUE, &error));
  g_clear_error (&error);
  g_assert_true (g_file_get_contents (victim, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "mine\n");
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));

  /* not a launcher name */
  g_assert_false (write_launcher (runner, apps, "../x.desktop", "x", TRUE, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  listing = g_dir_open (apps, 0, NULL);
  while ((entry = g_dir_read_name (listing)) != NULL)
    {
      g_assert_false (g_str_has_prefix (entry, ".kiste-"));
      n++;
    }
  g_assert_cmpuint (n, ==, 2);

  g_unlink (link);
  g_unlink (target);
  g_unlink (victim);
  g_rmdir (apps);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/apps/listing/fixture", test_parse_listing_fixture);
  g_test_add_func ("/apps/listing/locale", test_parse_listing_locale);
  g_test_add_func ("/apps/listing/bad", test_parse_listing_bad);
  g_test_add_func ("/apps/listing/empty", test_parse_listing_empty);
  g_test_add_func ("/apps/listing/script", test_script_roundtrip);
  g_test_add_func ("/apps/listing/icons", test_script_icons);
  g_test_add_func ("/apps/listing/processes", test_script_processes);
  g_test_add_func ("/apps/listing/bad-icons", test_parse_listing_bad_icons);
  g_test_add_func ("/apps/desktop-app", test_new_from_data);
  g_test_add_func ("/apps/exported/fixture", test_match_exported_fixture);
  g_test_add_func ("/apps/exported/enters-box", test_desktop_enters_box);
  g_test_add_func ("/apps/exported/wrapper", test_wrapper_names_box);
  g_test_add_func ("/apps/exported/candidates", test_launcher_candidates);
  g_test_add_func ("/apps/exported/mark", test_mark_exported);
  g_test_add_func ("/apps/exported/async", test_list_exported_async);
  g_test_add_func ("/apps/exported/from-sandbox", test_list_exported_from_sandbox);
  g_test_add_func ("/apps/exported/from-sandbox/processes", test_list_exported_from_sandbox_processes);
  g_test_add_func ("/apps/exported/is-distrobox-launcher", test_is_distrobox_launcher);
  g_test_add_func ("/apps/exec-argv", test_exec_argv);
  g_test_add_func ("/apps/all-exported", test_all_exported);
  g_test_add_func ("/apps/all-exported/from-sandbox", test_all_exported_from_sandbox);
  g_test_add_func ("/apps/all-exported/wrapper-box", test_wrapper_box);
  g_test_add_func ("/apps/programs/resolved", test_resolved_program);
  g_test_add_func ("/apps/exported/entered-box", test_entered_box);
  g_test_add_func ("/apps/keep-launcher", test_keep_launcher);
  g_test_add_func ("/apps/keep-launcher/from-sandbox", test_keep_launcher_from_sandbox);
  g_test_add_func ("/apps/rename/launcher", test_rewrite_launcher);
  g_test_add_func ("/apps/rename/prefix-clash", test_rewrite_prefix_clash);
  g_test_add_func ("/apps/rename/wrapper", test_rewrite_wrapper);
  g_test_add_func ("/apps/rename/arguments", test_rewrite_arguments_untouched);
  g_test_add_func ("/apps/rename/launcher-name", test_renamed_launcher_name);
  g_test_add_func ("/apps/host-launcher/build", test_build_host_launcher);
  g_test_add_func ("/apps/host-launcher/hostile", test_build_host_launcher_hostile);
  g_test_add_func ("/apps/host-launcher/write", test_write_host_launcher);

  return g_test_run ();
}
