/* test-autostart.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Starting a box at login: the unit's text from checked parts, the
 * commands around it, the host scripts run on a temporary folder, and the
 * unit checked by systemd-analyze verify */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-autostart.h"
#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-test-util.h"

static void
test_unit_name (void)
{
  const char *bad[] = { "", "-box", ".box", "a b", "a/b", "a%b", "a\nb", "a$b", "ä", NULL };
  g_autofree char *long_name = g_strnfill (238, 'a');
  g_autofree char *longest = g_strnfill (237, 'a');
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;

  name = kiste_autostart_dup_unit_name ("dbx-debian_12.1", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "kiste-box-dbx-debian_12.1.service");

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_assert_null (kiste_autostart_dup_unit_name (bad[i], &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_clear_error (&error);
    }
  g_assert_null (kiste_autostart_dup_unit_name (NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* systemd's limit of 255 characters */
  g_assert_null (kiste_autostart_dup_unit_name (long_name, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_clear_pointer (&name, g_free);
  name = kiste_autostart_dup_unit_name (longest, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (name), ==, 255);
}

static void
test_engine_path (void)
{
  const char *good[] = { "/usr/bin/podman", "/opt/c++/bin/docker", "/home/u/.local/bin/podman-5", NULL };
  const char *bad[] = { "podman", "", "/usr/local bin/podman", "/usr/bin/pod%man", "/usr/bin/po\tdman",
                        "/usr/bin/podman\n", "/usr/bin/\"podman\"", "/usr/bin/pod\\man",
                        "/usr/bin/pod;man", "/usr/bin/../bin/podman", "/usr//bin/podman",
                        "/usr/bin/", "/usr/bin/pod$man", NULL };

  for (guint i = 0; good[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (kiste_autostart_check_engine_path (good[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", bad[i]);
      g_assert_false (kiste_autostart_check_engine_path (bad[i], &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }
}

static void
test_unit_text (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *unit = kiste_autostart_build_unit ("dbx-fedora", "/usr/bin/podman", &error);
  g_autofree char *marker = kiste_autostart_dup_marker ("dbx-fedora");
  g_auto(GStrv) lines = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (marker, ==, "# Written by Kiste for the box dbx-fedora");
  g_assert_true (g_str_has_prefix (unit, "# Written by Kiste for the box dbx-fedora\n"));

  lines = g_strsplit (unit, "\n", -1);
  g_assert_true (g_strv_contains ((const char * const *) lines, "[Unit]"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "Description=Start the box dbx-fedora when you log in (Kiste)"));
  g_assert_true (g_strv_contains ((const char * const *) lines, "[Service]"));
  g_assert_true (g_strv_contains ((const char * const *) lines, "Type=oneshot"));
  g_assert_true (g_strv_contains ((const char * const *) lines, "RemainAfterExit=yes"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "ExecStart=/usr/bin/podman start dbx-fedora"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "ExecStop=/usr/bin/podman stop --time 10 dbx-fedora"));
  g_assert_true (g_strv_contains ((const char * const *) lines, "[Install]"));
  g_assert_true (g_strv_contains ((const char * const *) lines, "WantedBy=default.target"));
  g_assert_true (g_str_has_suffix (unit, "WantedBy=default.target\n"));
  /* no specifier anywhere */
  g_assert_null (strchr (unit, '%'));

  /* refused parts: nothing is built */
  g_assert_null (kiste_autostart_build_unit ("dbx fedora", "/usr/bin/podman", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (kiste_autostart_build_unit ("dbx-fedora", "/usr/my bin/podman", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (kiste_autostart_build_unit ("dbx-fedora", "/usr/bin/%h", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (kiste_autostart_build_unit ("dbx-fedora", "podman", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
}

static void
assert_argv (char       **argv,
             const char  *expected)
{
  g_autofree char *display = kiste_argv_to_display_string ((const char * const *) argv);

  g_assert_cmpstr (display, ==, expected);
  g_strfreev (argv);
}

static void
test_commands (void)
{
  assert_argv (kiste_autostart_check_manager_argv (), "systemctl --user show-environment");
  assert_argv (kiste_autostart_daemon_reload_argv (), "systemctl --user daemon-reload");
  assert_argv (kiste_autostart_enable_argv ("kiste-box-a.service", TRUE),
               "systemctl --user enable kiste-box-a.service");
  assert_argv (kiste_autostart_enable_argv ("kiste-box-a.service", FALSE),
               "systemctl --user disable kiste-box-a.service");
  assert_argv (kiste_autostart_is_enabled_argv ("kiste-box-a.service"),
               "systemctl --user is-enabled kiste-box-a.service");
  assert_argv (kiste_autostart_find_engine_argv ("docker"),
               "sh -c 'command -v -- \"$1\"' sh docker");
}

static void
test_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_assert_cmpint (kiste_autostart_parse_owner ("none\n"), ==, KISTE_AUTOSTART_OWNER_NONE);
  g_assert_cmpint (kiste_autostart_parse_owner ("kiste\n"), ==, KISTE_AUTOSTART_OWNER_KISTE);
  g_assert_cmpint (kiste_autostart_parse_owner ("other\n"), ==, KISTE_AUTOSTART_OWNER_OTHER);
  g_assert_cmpint (kiste_autostart_parse_owner (""), ==, KISTE_AUTOSTART_OWNER_OTHER);
  g_assert_cmpint (kiste_autostart_parse_owner (NULL), ==, KISTE_AUTOSTART_OWNER_OTHER);

  g_assert_true (kiste_autostart_parse_is_enabled ("enabled\n"));
  g_assert_false (kiste_autostart_parse_is_enabled ("disabled\n"));
  g_assert_false (kiste_autostart_parse_is_enabled ("enabled-runtime\n"));
  g_assert_false (kiste_autostart_parse_is_enabled ("not-found\n"));
  g_assert_false (kiste_autostart_parse_is_enabled (NULL));

  path = kiste_autostart_parse_engine_path ("/usr/bin/podman\n", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/usr/bin/podman");
  g_assert_null (kiste_autostart_parse_engine_path ("", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_clear_error (&error);
  /* a shell alias or function answers with its name */
  g_assert_null (kiste_autostart_parse_engine_path ("podman\n", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_null (kiste_autostart_parse_engine_path ("/home/me/my bin/podman\n", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
}

/* Runs argv here, as the runner would on the host */
static int
run (char  **argv,
     char  **out,
     char  **err)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, err, &status,
                               &error));
  g_assert_no_error (error);
  g_strfreev (argv);
  return g_spawn_check_wait_status (status, NULL) ? 0 : WEXITSTATUS (status);
}

static char *
read_owner (const char *path,
            const char *marker)
{
  g_autofree char *out = NULL;

  g_assert_cmpint (run (kiste_autostart_read_unit_argv (path, marker), &out, NULL), ==, 0);
  return g_strdup (g_strstrip (out));
}

static void
test_scripts (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("kiste-test-autostart-XXXXXX", &error);
  g_autofree char *units = g_build_filename (tmp, "systemd", "user", NULL);
  g_autofree char *path = g_build_filename (units, "kiste-box-a.service", NULL);
  g_autofree char *other = g_build_filename (units, "kiste-box-b.service", NULL);
  g_autofree char *wants = g_build_filename (units, "default.target.wants", NULL);
  g_autofree char *link = g_build_filename (wants, "kiste-box-a.service", NULL);
  g_autofree char *marker = kiste_autostart_dup_marker ("a");
  g_autofree char *marker_b = kiste_autostart_dup_marker ("b");
  g_autofree char *unit = kiste_autostart_build_unit ("a", "/usr/bin/podman", NULL);
  g_autofree char *unit2 = kiste_autostart_build_unit ("a", "/usr/local/bin/podman", NULL);
  g_autofree char *unit_b = kiste_autostart_build_unit ("b", "/usr/bin/podman", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *owner = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_assert_no_error (error);

  /* nothing there; written, with its folders */
  owner = read_owner (path, marker);
  g_assert_cmpstr (owner, ==, "none");
  g_assert_cmpint (run (kiste_autostart_write_unit_argv (path, unit, marker), NULL, NULL), ==, 0);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, unit);
  g_clear_pointer (&owner, g_free);
  owner = read_owner (path, marker);
  g_assert_cmpstr (owner, ==, "kiste");

  /* Kiste's own is replaced */
  g_assert_cmpint (run (kiste_autostart_write_unit_argv (path, unit2, marker), NULL, NULL), ==, 0);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, unit2);

  /* the user's own is never replaced nor removed */
  g_assert_true (g_file_set_contents (other, "[Unit]\nDescription=mine\n", -1, NULL));
  g_clear_pointer (&owner, g_free);
  owner = read_owner (other, marker_b);
  g_assert_cmpstr (owner, ==, "other");
  g_assert_cmpint (run (kiste_autostart_write_unit_argv (other, unit_b, marker_b), NULL, &err), ==, 3);
  g_assert_nonnull (strstr (err, "your own"));
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (other, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "[Unit]\nDescription=mine\n");
  g_assert_cmpint (run (kiste_autostart_remove_unit_argv (other, marker_b), &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_REGULAR));
  /* nor is another box's marker enough */
  g_assert_cmpint (run (kiste_autostart_remove_unit_argv (path, marker_b), NULL, NULL), ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));

  /* a link in its place is not Kiste's either */
  g_assert_cmpint (g_unlink (other), ==, 0);
  g_assert_cmpint (symlink (path, other), ==, 0);
  g_clear_pointer (&owner, g_free);
  owner = read_owner (other, marker);
  g_assert_cmpstr (owner, ==, "other");
  g_assert_cmpint (run (kiste_autostart_write_unit_argv (other, unit, marker), NULL, NULL), ==, 3);
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_SYMLINK));

  /* removed with its link in default.target.wants, as systemctl enable
   * made it */
  g_assert_cmpint (g_mkdir (wants, 0755), ==, 0);
  g_assert_cmpint (symlink (path, link), ==, 0);
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run (kiste_autostart_remove_unit_argv (path, marker), &out, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "removed\n");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (link, G_FILE_TEST_IS_SYMLINK));

  /* no temporary file left behind */
  dir = g_dir_open (units, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_false (g_str_has_prefix (name, ".kiste-"));

  kiste_test_remove_tree (tmp);
}

/* systemd's own check of the unit, in a user manager's terms */
static void
test_verify (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *analyze = g_find_program_in_path ("systemd-analyze");
  g_autofree char *engine = g_find_program_in_path ("podman");
  g_autofree char *tmp = NULL;
  g_autofree char *runtime = NULL;
  g_autofree char *path = NULL;
  g_autofree char *unit = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) env = NULL;
  int status = 0;

  if (analyze == NULL)
    {
      g_test_skip ("systemd-analyze is not installed");
      return;
    }

  tmp = g_dir_make_tmp ("kiste-test-verify-XXXXXX", &error);
  g_assert_no_error (error);
  runtime = g_build_filename (tmp, "runtime", NULL);
  g_assert_cmpint (g_mkdir (runtime, 0700), ==, 0);
  path = g_build_filename (tmp, "kiste-box-dbx-fedora.service", NULL);
  /* verify checks the program is there */
  unit = kiste_autostart_build_unit ("dbx-fedora", engine ? engine : "/bin/sh", &error);
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path, unit, -1, NULL));

  {
    /* the user manager verify pretends to be needs a runtime folder of
     * its own, not a running one */
    const char *argv[] = { analyze, "--user", "verify", "--man=no", path, NULL };

    env = g_get_environ ();
    env = g_environ_setenv (env, "XDG_RUNTIME_DIR", runtime, TRUE);
    env = g_environ_setenv (env, "SYSTEMD_LOG_LEVEL", "notice", TRUE);
    g_assert_true (g_spawn_sync (tmp, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                                 &status, &error));
    g_assert_no_error (error);
  }

  if (!g_spawn_check_wait_status (status, NULL) && strstr (err, "Failed to initialize manager") != NULL)
    {
      g_test_skip_printf ("systemd-analyze cannot act as a user manager here: %s", err);
      kiste_test_remove_tree (tmp);
      return;
    }
  g_test_message ("%s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  /* a key it does not know or a value it cannot read is only a warning */
  g_assert_cmpstr (err, ==, "");

  kiste_test_remove_tree (tmp);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/autostart/unit-name", test_unit_name);
  g_test_add_func ("/autostart/engine-path", test_engine_path);
  g_test_add_func ("/autostart/unit-text", test_unit_text);
  g_test_add_func ("/autostart/commands", test_commands);
  g_test_add_func ("/autostart/parse", test_parse);
  g_test_add_func ("/autostart/scripts", test_scripts);
  g_test_add_func ("/autostart/verify", test_verify);

  return g_test_run ();
}
