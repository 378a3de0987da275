/* test-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The direct exec of a shell against what real `distrobox enter --dry-run`
 * (1.8.2.5, podman 5.4.2) printed for the same boxes, folders and
 * environment: tests/e2e/capture-enter-fixtures made the fixtures. */

#define _GNU_SOURCE
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "kiste-enter.h"
#include "kiste-external-terminal.h"
#include "kiste-pty.h"

#define HOST_HOME "/home/kistetest"
#define ENTER_PATH "/usr/bin/distrobox-enter"

static char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
}

static char *
read_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

static char **
load_environ (void)
{
  g_autofree char *text = read_fixture ("enter-dry-run-env.txt");

  g_strchomp (text);
  return g_strsplit (text, "\n", -1);
}

/* The box of enter-ps-KIND.json, in state (podman made it "created") and
 * with the details of enter-inspect-KIND.json when with_details */
static KisteBox *
load_box (const char *kind,
          const char *state,
          gboolean    with_details)
{
  g_autofree char *ps_name = g_strdup_printf ("enter-ps-%s.json", kind);
  g_autofree char *ps = read_fixture (ps_name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *object;
  KisteBox *box;

  json_parser_load_from_data (parser, ps, -1, &error);
  g_assert_no_error (error);
  object = json_array_get_object_element (json_node_get_array (json_parser_get_root (parser)), 0);
  json_object_set_string_member (object, "State", state);

  box = kiste_box_new_from_ps_json (object, HOST_HOME, &error);
  g_assert_no_error (error);

  if (with_details)
    {
      g_autofree char *inspect_name = g_strdup_printf ("enter-inspect-%s.json", kind);
      g_autofree char *inspect = read_fixture (inspect_name);
      g_autoptr(JsonParser) iparser = json_parser_new ();
      JsonObject *iobject;

      json_parser_load_from_data (iparser, inspect, -1, &error);
      g_assert_no_error (error);
      iobject = json_array_get_object_element (json_node_get_array (json_parser_get_root (iparser)), 0);
      kiste_box_apply_inspect_json (box, iobject, &error);
      g_assert_no_error (error);
    }

  return box;
}

static int
cmp_strings (gconstpointer a,
             gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Splits an exec argv (without the program) into the options up to
 * DISTROBOX_ENTER_PATH, the forwarded host variables (sorted: distrobox
 * prints them in its shell's order) and the rest */
static void
split_argv (GPtrArray  *args,
            GPtrArray **head,
            GPtrArray **forwarded,
            GPtrArray **tail)
{
  guint i = 0;

  *head = g_ptr_array_new ();
  *forwarded = g_ptr_array_new ();
  *tail = g_ptr_array_new ();

  for (; i < args->len; i++)
    {
      const char *arg = g_ptr_array_index (args, i);

      g_ptr_array_add (*head, (gpointer) arg);
      if (g_str_has_prefix (arg, "--env=DISTROBOX_ENTER_PATH="))
        break;
    }
  for (i++; i < args->len; i++)
    {
      const char *arg = g_ptr_array_index (args, i);

      if (g_str_has_prefix (arg, "--env=PATH="))
        break;
      g_ptr_array_add (*forwarded, (gpointer) arg);
    }
  for (; i < args->len; i++)
    g_ptr_array_add (*tail, g_ptr_array_index (args, i));

  g_ptr_array_sort (*forwarded, cmp_strings);
}

static void
assert_same (GPtrArray  *ours,
             GPtrArray  *theirs,
             const char *what)
{
  for (guint i = 0; i < MAX (ours->len, theirs->len); i++)
    {
      const char *a = i < ours->len ? g_ptr_array_index (ours, i) : "(none)";
      const char *b = i < theirs->len ? g_ptr_array_index (theirs, i) : "(none)";

      if (g_strcmp0 (a, b) != 0)
        g_error ("%s, argument %u: ours “%s”, distrobox's “%s”", what, i, a, b);
    }
}

static void
check_against_dry_run (const char *kind,
                       const char *variant,
                       const char *cwd)
{
  g_autofree char *name = g_strdup_printf ("enter-dry-run-%s-%s.txt", kind, variant);
  g_autofree char *dry_run = read_fixture (name);
  g_autoptr(KisteBox) box = load_box (kind, "running", FALSE);
  g_auto(GStrv) env = load_environ ();
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) ours = g_ptr_array_new ();
  g_autoptr(GPtrArray) theirs = g_ptr_array_new ();
  g_autoptr(GPtrArray) ours_head = NULL, ours_fwd = NULL, ours_tail = NULL;
  g_autoptr(GPtrArray) their_head = NULL, their_fwd = NULL, their_tail = NULL;
  g_autoptr(GString) our_command = g_string_new (NULL);
  const char *box_name = kiste_box_get_name (box);
  const char *last;
  guint n_lines;
  guint i;

  g_assert_null (kiste_enter_check_direct (box, "podman", 1, (const char * const *) env));
  argv = kiste_enter_direct_argv (box, "podman", ENTER_PATH, (const char * const *) env, cwd, NULL, TRUE);
  g_assert_nonnull (argv);
  g_assert_cmpstr (argv[0], ==, "podman");

  /* distrobox prints the argv without the program, one a line; the last
   * line is the box name and the command, joined with spaces */
  g_strchomp (dry_run);
  lines = g_strsplit (dry_run, "\n", -1);
  n_lines = g_strv_length (lines);
  g_assert_cmpuint (n_lines, >, 10);
  for (i = 0; i + 1 < n_lines; i++)
    g_ptr_array_add (theirs, lines[i]);
  last = lines[n_lines - 1];
  g_assert_true (g_str_has_prefix (last, box_name));
  g_assert_cmpint (last[strlen (box_name)], ==, ' ');
  g_ptr_array_add (theirs, (gpointer) box_name);

  for (i = 1; argv[i] != NULL; i++)
    {
      g_ptr_array_add (ours, argv[i]);
      if (g_str_equal (argv[i], box_name))
        break;
    }
  g_assert_nonnull (argv[i]);
  for (i++; argv[i] != NULL; i++)
    {
      if (our_command->len > 0)
        g_string_append_c (our_command, ' ');
      g_string_append (our_command, argv[i]);
    }

  split_argv (ours, &ours_head, &ours_fwd, &ours_tail);
  split_argv (theirs, &their_head, &their_fwd, &their_tail);
  assert_same (ours_head, their_head, name);
  assert_same (ours_fwd, their_fwd, name);
  assert_same (ours_tail, their_tail, name);
  g_assert_cmpstr (our_command->str, ==, last + strlen (box_name) + 1);
}

static void
test_dry_run (gconstpointer data)
{
  const char *kind = data;

  check_against_dry_run (kind, "home", HOST_HOME "/work");
  check_against_dry_run (kind, "tmp", "/tmp");
  check_against_dry_run (kind, "noworkdir", NULL);
}

/* Entered for real, distrobox reads the box's own PATH and HOME from
 * inspect (the dry run stops before that) */
static void
test_box_path (void)
{
  g_autoptr(KisteBox) box = load_box ("plain", "running", TRUE);
  g_auto(GStrv) env = load_environ ();
  g_auto(GStrv) argv = NULL;

  argv = kiste_enter_direct_argv (box, "podman", ENTER_PATH, (const char * const *) env, NULL, NULL, TRUE);
  {
    g_autofree char *expected = kiste_enter_dup_box_path ("/usr/local/bin:/usr/bin:/bin",
                                                          "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    g_autofree char *arg = g_strconcat ("--env=PATH=", expected, NULL);

    g_assert_true (g_strv_contains ((const char * const *) argv, arg));
  }
  g_assert_true (g_strv_contains ((const char * const *) argv, "--workdir=" HOST_HOME));
}

static void
test_path_rule (void)
{
  /* Each checked by running distrobox-enter's own loops in sh */
  static const struct { const char *host, *box, *expected; } cases[] = {
    { "/usr/local/bin:/usr/bin:/bin", "/usr/local/bin:/usr/bin:/bin",
      "/usr/local/bin:/usr/bin:/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin" },
    { "/usr/local/bin:/usr/bin:/bin", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/usr/local/bin:/usr/bin:/sbin:/bin"
      ":/usr/local/sbin:/usr/sbin:/sbin" },
    { "/home/u/.local/bin:/usr/bin", "",
      "/home/u/.local/bin:/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin:/sbin:/bin" },
    { "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "/opt/x",
      "/usr/local/sbin:/usr/sbin:/usr/local/bin:/usr/bin:/sbin:/bin:/opt/x" },
    { "/opt/bin", "",
      "/opt/bin:/usr/local/sbin:/usr/sbin:/usr/local/bin:/usr/bin:/sbin:/bin" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = kiste_enter_dup_box_path (cases[i].host, cases[i].box);

      g_assert_cmpstr (path, ==, cases[i].expected);
    }
}

static void
test_workdir (void)
{
  static const struct { const char *cwd, *home, *expected; } cases[] = {
    { NULL, "/home/u", "/home/u" },
    { "/home/u", "/home/u", "/home/u" },
    { "/home/u/src", "/home/u", "/home/u/src" },
    { "/tmp", "/home/u", "/run/host/tmp" },
    /* distrobox's substring test, kept as it is */
    { "/mnt/home/u/x", "/home/u", "/mnt/home/u/x" },
    { "/home/u2", "/home/u", "/home/u2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *workdir = kiste_enter_dup_workdir (cases[i].cwd, cases[i].home);

      g_assert_cmpstr (workdir, ==, cases[i].expected);
    }
}

static void
test_refusals (void)
{
  g_autoptr(KisteBox) running = load_box ("plain", "running", FALSE);
  g_autoptr(KisteBox) stopped = load_box ("plain", "exited", FALSE);
  g_auto(GStrv) env = load_environ ();
  g_auto(GStrv) odd = NULL;

  g_assert_null (kiste_enter_check_direct (running, "podman", 1, (const char * const *) env));
  /* anything not understood goes through distrobox enter */
  g_assert_nonnull (kiste_enter_check_direct (stopped, "podman", 1, (const char * const *) env));
  g_assert_nonnull (kiste_enter_check_direct (running, "podman", 2, (const char * const *) env));
  g_assert_nonnull (kiste_enter_check_direct (running, "docker", 1, (const char * const *) env));

  odd = g_environ_setenv (g_strdupv (env), "DBX_CONTAINER_CLEAN_PATH", "1", TRUE);
  g_assert_nonnull (kiste_enter_check_direct (running, "podman", 1, (const char * const *) odd));
  g_strfreev (odd);
  odd = g_environ_setenv (g_strdupv (env), "BASH_FUNC_x%%", "() {\n echo\n}", TRUE);
  g_assert_nonnull (kiste_enter_check_direct (running, "podman", 1, (const char * const *) odd));
  g_strfreev (odd);
  odd = g_environ_setenv (g_strdupv (env), "USER", "it's", TRUE);
  g_assert_nonnull (kiste_enter_check_direct (running, "podman", 1, (const char * const *) odd));
  g_strfreev (odd);
  odd = g_environ_unsetenv (g_strdupv (env), "PATH");
  g_assert_nonnull (kiste_enter_check_direct (running, "podman", 1, (const char * const *) odd));
}

/* The host variables distrobox keeps back: prefixes, and any line with a
 * quote, backtick or dollar */
static void
test_forwarding (void)
{
  g_autoptr(KisteBox) box = load_box ("plain", "running", FALSE);
  g_auto(GStrv) env = load_environ ();
  g_auto(GStrv) argv = NULL;

  env = g_environ_setenv (env, "HOSTTYPE", "x86_64", TRUE);
  env = g_environ_setenv (env, "XDG_SESSION_DIRS", "a", TRUE);
  env = g_environ_setenv (env, "XDG_SESSION_TYPE", "wayland", TRUE);
  env = g_environ_setenv (env, "QUOTED", "a\"b", TRUE);
  env = g_environ_setenv (env, "PRICE", "$5", TRUE);
  env = g_environ_setenv (env, "_", "/usr/bin/env", TRUE);
  env = g_environ_setenv (env, "EDITOR", "vi", TRUE);

  argv = kiste_enter_direct_argv (box, "podman", ENTER_PATH, (const char * const *) env, NULL, NULL, TRUE);
  g_assert_false (g_strv_contains ((const char * const *) argv, "--env=HOSTTYPE=x86_64"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--env=XDG_SESSION_DIRS=a"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--env=XDG_SESSION_TYPE=wayland"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--env=QUOTED=a\"b"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--env=PRICE=$5"));
  g_assert_false (g_strv_contains ((const char * const *) argv, "--env=_=/usr/bin/env"));
  g_assert_true (g_strv_contains ((const char * const *) argv, "--env=EDITOR=vi"));
}

/* A box with its own home (seed 006): a folder in the host home is kept
 * only under one of the box's own mounts; elsewhere the shell starts in the
 * box home. Plain boxes keep every existing folder. */
static void
test_unshared_home_workdir (void)
{
  g_autofree char *ps = read_fixture ("enter-ps-plain.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *host_home = g_dir_make_tmp ("kiste-home-XXXXXX", &error);
  g_autofree char *inside = g_build_filename (host_home, "src", NULL);
  g_autofree char *mounted = g_build_filename (host_home, "shared", NULL);
  g_autofree char *below_mounted = g_build_filename (mounted, "deeper", NULL);
  g_autoptr(KisteBox) isolated = NULL;
  g_autoptr(KisteBox) plain = NULL;
  JsonObject *object;
  JsonObject *labels;
  JsonArray *mounts;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (inside, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (below_mounted, 0700), ==, 0);

  json_parser_load_from_data (parser, ps, -1, &error);
  g_assert_no_error (error);
  object = json_array_get_object_element (json_node_get_array (json_parser_get_root (parser)), 0);
  plain = kiste_box_new_from_ps_json (object, host_home, &error);
  g_assert_no_error (error);

  /* The box as Kiste's home isolation makes it: the label, and no mount
   * of the host home, only of one folder in it */
  labels = json_object_get_object_member (object, "Labels");
  json_object_set_string_member (labels, "distrobox.unshare_home", "1");
  mounts = json_array_new ();
  json_array_add_string_element (mounts, "/run/host/home");
  json_array_add_string_element (mounts, mounted);
  json_object_set_array_member (object, "Mounts", mounts);
  isolated = kiste_box_new_from_ps_json (object, host_home, &error);
  g_assert_no_error (error);

  g_assert_false (kiste_enter_keeps_workdir (isolated, inside, host_home));
  g_assert_false (kiste_enter_keeps_workdir (isolated, host_home, host_home));
  g_assert_true (kiste_enter_keeps_workdir (isolated, mounted, host_home));
  g_assert_true (kiste_enter_keeps_workdir (isolated, below_mounted, host_home));
  /* outside the host home the folder is at /run/host as for every box */
  g_assert_true (kiste_enter_keeps_workdir (isolated, "/usr", host_home));

  g_assert_true (kiste_enter_keeps_workdir (plain, inside, host_home));
  /* a folder that does not exist is never kept */
  g_assert_false (kiste_enter_keeps_workdir (plain, "/nonexistent-kiste-folder", host_home));
  g_assert_false (kiste_enter_keeps_workdir (plain, NULL, host_home));

  g_rmdir (below_mounted);
  g_rmdir (mounted);
  g_rmdir (inside);
  g_rmdir (host_home);
}

static void
default_hup (gpointer data)
{
  signal (SIGHUP, SIG_DFL);
}

/* Runs what the box would (argv from "sh" on) against two real processes,
 * one of terminal id and one of terminal other: only the first hangs up.
 * path_first: a folder of programs found before the system's */
static void
check_end_shell (char       **argv,
                 const char  *id,
                 const char  *other,
                 const char  *path_first)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocessLauncher) script_launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) ours = NULL;
  g_autoptr(GSubprocess) theirs = NULL;
  g_autoptr(GSubprocess) script = NULL;
  g_autoptr(GError) error = NULL;

  /* One process of this terminal, one of another; with hang-ups not
   * ignored, whatever the test runner does */
  g_subprocess_launcher_set_child_setup (launcher, default_hup, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, KISTE_TERMINAL_ID_VARIABLE, id, TRUE);
  ours = g_subprocess_launcher_spawn (launcher, &error, "sleep", "60", NULL);
  g_assert_no_error (error);
  g_subprocess_launcher_setenv (launcher, KISTE_TERMINAL_ID_VARIABLE, other, TRUE);
  theirs = g_subprocess_launcher_spawn (launcher, &error, "sleep", "60", NULL);
  g_assert_no_error (error);

  /* What runs in the box, here on this machine's /proc */
  if (path_first != NULL)
    {
      g_autofree char *path = g_strconcat (path_first, ":", g_getenv ("PATH"), NULL);

      g_subprocess_launcher_setenv (script_launcher, "PATH", path, TRUE);
    }
  script = g_subprocess_launcher_spawnv (script_launcher, (const char * const *) argv + 5, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (script, NULL, &error));
  g_assert_no_error (error);

  g_assert_true (g_subprocess_wait (ours, NULL, NULL));
  g_assert_true (g_subprocess_get_if_signaled (ours));
  g_assert_cmpint (g_subprocess_get_term_sig (ours), ==, SIGHUP);
  /* the other terminal's process is left alone */
  g_usleep (100 * 1000);
  g_assert_cmpint (kill ((pid_t) g_ascii_strtoll (g_subprocess_get_identifier (theirs), NULL, 10), 0), ==, 0);
  g_subprocess_force_exit (theirs);
  g_subprocess_wait (theirs, NULL, NULL);
}

/* A closed tab's shell is found by its id and hung up on: the script the
 * core runs in the box, run here against a real process */
static void
test_end_shell (void)
{
  g_autofree char *id = kiste_enter_new_terminal_id ();
  g_autofree char *other = kiste_enter_new_terminal_id ();
  g_autofree char *marker = g_strconcat (KISTE_TERMINAL_ID_VARIABLE "=", id, NULL);
  g_auto(GStrv) argv = NULL;

  g_assert_true (kiste_enter_is_terminal_id (id));
  g_assert_false (kiste_enter_is_terminal_id ("x; rm -rf /"));
  g_assert_false (kiste_enter_is_terminal_id (NULL));
  g_assert_null (kiste_enter_end_shell_argv ("podman", "box", "'$(reboot)'"));

  argv = kiste_enter_end_shell_argv ("podman", "box", id);
  g_assert_cmpstr (argv[0], ==, "podman");
  g_assert_cmpstr (argv[1], ==, "exec");
  g_assert_cmpstr (argv[2], ==, "--user");
  g_assert_cmpstr (argv[3], ==, "root");
  g_assert_cmpstr (argv[4], ==, "box");
  g_assert_cmpstr (argv[5], ==, "sh");
  g_assert_cmpstr (argv[6], ==, "-c");
  /* the id is an argument, never part of the script */
  g_assert_null (strstr (argv[7], id));
  g_assert_cmpstr (argv[8], ==, "sh");
  g_assert_cmpstr (argv[9], ==, marker);
  g_assert_null (argv[10]);

  check_end_shell (argv, id, other, NULL);
}

/* A grep without -z (as in some busybox builds): the script reads the
 * environments one by one instead, with the same result */
static void
test_end_shell_without_grep_z (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-test-grep-XXXXXX", &error);
  g_autofree char *real = g_find_program_in_path ("grep");
  g_autofree char *grep = NULL;
  g_autofree char *refused = NULL;
  g_autofree char *script = NULL;
  g_autofree char *id = kiste_enter_new_terminal_id ();
  g_autofree char *other = kiste_enter_new_terminal_id ();
  g_auto(GStrv) argv = kiste_enter_end_shell_argv ("podman", "box", id);

  g_assert_no_error (error);
  g_assert_nonnull (real);
  grep = g_build_filename (dir, "grep", NULL);
  refused = g_build_filename (dir, "refused", NULL);
  script = g_strdup_printf ("#!/bin/sh\n"
                            "for a; do case $a in -*z*) echo 'grep: invalid option -- z' >&2; : > '%s'; exit 2;; esac; done\n"
                            "exec %s \"$@\"\n", refused, real);
  g_assert_true (g_file_set_contents (grep, script, -1, &error));
  g_assert_cmpint (g_chmod (grep, 0755), ==, 0);

  check_end_shell (argv, id, other, dir);
  /* it was asked, and said no */
  g_assert_true (g_file_test (refused, G_FILE_TEST_EXISTS));

  g_unlink (refused);
  g_unlink (grep);
  g_rmdir (dir);
}

static gboolean
has_program (gpointer data)
{
  g_autofree char *program = kiste_pty_dup_foreground_program (data);

  return g_strcmp0 (program, "sleep") == 0;
}

/* A program in the foreground of a terminal, found by the terminal's id
 * in /proc; the shell alone is no program */
static void
test_foreground_program (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autofree char *id = kiste_enter_new_terminal_id ();
  g_autofree char *marker = g_strconcat (KISTE_TERMINAL_ID_VARIABLE "=", id, NULL);
  const char *env[] = { marker, NULL };
  const char *idle[] = { "sh", "-c", "read line", NULL };
  const char *busy[] = { "sh", "-c", "sleep 30; true", NULL };
  g_autoptr(GSubprocess) shell = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline;
  int master;

  g_assert_null (kiste_pty_dup_foreground_program (NULL));
  g_assert_null (kiste_pty_dup_foreground_program (id));

  master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);

  /* A shell waiting for input */
  shell = kiste_pty_spawn (runner, idle, NULL, master, env, &error);
  g_assert_no_error (error);
  g_usleep (300 * 1000);
  g_assert_null (kiste_pty_dup_foreground_program (id));
  g_subprocess_force_exit (shell);
  g_subprocess_wait (shell, NULL, NULL);
  g_clear_object (&shell);

  /* A shell running a program */
  shell = kiste_pty_spawn (runner, busy, NULL, master, env, &error);
  g_assert_no_error (error);
  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (!has_program (id) && g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  g_assert_true (has_program (id));

  kill (-(pid_t) g_ascii_strtoll (g_subprocess_get_identifier (shell), NULL, 10), SIGKILL);
  g_subprocess_wait (shell, NULL, NULL);
  close (master);
}

/* Each terminal app's way to run a command in a new window */
static void
test_external_terminals (void)
{
  static const struct { const char *id, *expected; } cases[] = {
    { "ptyxis", "ptyxis --new-window -- distrobox enter --name b" },
    /* Ptyxis' Flatpak runs commands on the host through its agent */
    { "flatpak:app.devsuite.Ptyxis",
      "flatpak run app.devsuite.Ptyxis --new-window -- distrobox enter --name b" },
    { "kgx", "kgx -- distrobox enter --name b" },
    /* Console's runs them in its sandbox */
    { "flatpak:org.gnome.Console",
      "flatpak run org.gnome.Console -- flatpak-spawn --host --watch-bus --env=TERM=xterm-256color "
      "--env=COLORTERM=truecolor distrobox enter --name b" },
    { "gnome-terminal", "gnome-terminal -- distrobox enter --name b" },
    { "konsole", "konsole -e distrobox enter --name b" },
    /* Konsole's runs them on the host, but only a path */
    { "flatpak:org.kde.konsole", "flatpak run org.kde.konsole -e /usr/bin/env distrobox enter --name b" },
    { "kitty", "kitty -- distrobox enter --name b" },
    { "alacritty", "alacritty -e distrobox enter --name b" },
    { "wezterm", "wezterm start -- distrobox enter --name b" },
    /* WezTerm's runs them on the host with flatpak-spawn */
    { "flatpak:org.wezfurlong.wezterm",
      "flatpak run org.wezfurlong.wezterm start -- distrobox enter --name b" },
    { "foot", "foot distrobox enter --name b" },
    { "xterm", "xterm -e distrobox enter --name b" },
  };
  const char *command[] = { "distrobox", "enter", "--name", "b", NULL };
  const char * const *ids = kiste_external_terminal_get_ids ();

  g_assert_cmpuint (g_strv_length ((char **) ids), ==, G_N_ELEMENTS (cases));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) argv = kiste_external_terminal_argv (cases[i].id, command);
      g_autofree char *joined = g_strjoinv (" ", argv);

      g_assert_cmpstr (ids[i], ==, cases[i].id);
      g_assert_nonnull (kiste_external_terminal_get_name (cases[i].id));
      g_assert_cmpstr (joined, ==, cases[i].expected);
    }
  g_assert_null (kiste_external_terminal_argv ("sh -c", command));
  g_assert_null (kiste_external_terminal_get_name ("nope"));
  g_assert_cmpstr (kiste_external_terminal_get_name ("flatpak:org.kde.konsole"), ==, "Konsole (Flatpak)");
  g_assert_cmpstr (kiste_external_terminal_get_flatpak_id ("flatpak:org.kde.konsole"), ==, "org.kde.konsole");
  g_assert_null (kiste_external_terminal_get_flatpak_id ("konsole"));
  g_assert_null (kiste_external_terminal_get_program ("flatpak:org.kde.konsole"));

  /* A command that is a path already needs no env for Konsole's Flatpak */
  {
    const char *path_command[] = { "/usr/bin/distrobox", "enter", "b", NULL };
    g_auto(GStrv) argv = kiste_external_terminal_argv ("flatpak:org.kde.konsole", path_command);
    g_autofree char *joined = g_strjoinv (" ", argv);

    g_assert_cmpstr (joined, ==, "flatpak run org.kde.konsole -e /usr/bin/distrobox enter b");
  }
}

static void
write_script (const char *dir,
              const char *name,
              const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_build_filename (dir, name, NULL);

  g_file_set_contents (file, text, -1, &error);
  g_assert_no_error (error);
  g_chmod (file, 0755);
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  const char *name;

  while (handle != NULL && (name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
}

/* Which terminals a host has: the detect script against a PATH with two
 * programs and a flatpak that answers what a real one printed for these
 * installed apps (tests/fixtures/flatpak-terminals: Ptyxis in the system
 * installation, and in the user's with its permission to run commands on
 * the host taken away by `flatpak override`; GNOME Console, allowed;
 * Konsole, not allowed; WezTerm, allowed, in the system installation; an
 * app that is no terminal) */
static void
test_detect_terminals (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kiste-terms-XXXXXX", &error);
  g_autofree char *fixtures = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "flatpak-terminals", NULL);
  g_autofree char *fake_flatpak = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) args = kiste_external_terminal_detect_args ();
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) found = NULL;
  g_auto(GStrv) unusable = NULL;
  int status = 0;

  g_assert_no_error (error);
  write_script (dir, "xterm", "#!/bin/sh\n");
  write_script (dir, "kgx", "#!/bin/sh\n");
  /* flatpak list --app --columns=application,installation and
   * flatpak info --INSTALLATION --show-permissions ID */
  fake_flatpak = g_strdup_printf ("#!/bin/sh\n"
                                  "case \"$1 $2\" in\n"
                                  "  'list --app') exec /bin/cat '%s/list' ;;\n"
                                  "  'info --user'|'info --system') exec /bin/cat \"%s/info-$4-${2#--}\" ;;\n"
                                  "esac\n"
                                  "exit 1\n", fixtures, fixtures);
  write_script (dir, "flatpak", fake_flatpak);

  g_strv_builder_add_many (builder, "/bin/sh", "-c", kiste_external_terminal_get_detect_script (),
                           "sh", NULL);
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);
  env = g_environ_setenv (g_get_environ (), "PATH", dir, TRUE);

  g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  found = kiste_external_terminal_parse_detected (out, &unusable);
  /* in the order they are offered; Ptyxis' Flatpak is the user's, which
   * flatpak run prefers, and may not run commands on the host */
  g_assert_cmpuint (g_strv_length (found), ==, 4);
  g_assert_cmpstr (found[0], ==, "kgx");
  g_assert_cmpstr (found[1], ==, "flatpak:org.gnome.Console");
  g_assert_cmpstr (found[2], ==, "flatpak:org.wezfurlong.wezterm");
  g_assert_cmpstr (found[3], ==, "xterm");
  g_assert_cmpuint (g_strv_length (unusable), ==, 2);
  g_assert_cmpstr (unusable[0], ==, "flatpak:app.devsuite.Ptyxis");
  g_assert_cmpstr (unusable[1], ==, "flatpak:org.kde.konsole");

  /* A host without flatpak: the programs only */
  {
    g_autofree char *file = g_build_filename (dir, "flatpak", NULL);
    g_autofree char *only_programs = NULL;
    g_auto(GStrv) programs = NULL;
    g_auto(GStrv) none = NULL;

    g_unlink (file);
    g_spawn_sync (NULL, argv, env, G_SPAWN_DEFAULT, NULL, NULL, &only_programs, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    programs = kiste_external_terminal_parse_detected (only_programs, &none);
    g_assert_cmpuint (g_strv_length (programs), ==, 2);
    g_assert_cmpstr (programs[0], ==, "kgx");
    g_assert_cmpstr (programs[1], ==, "xterm");
    g_assert_cmpuint (g_strv_length (none), ==, 0);
  }

  remove_dir (dir);
}

/* Output the parser must not be fooled by */
static void
test_parse_detected_terminals (void)
{
  static const char output[] =
    /* a program that is no terminal of ours, an unknown line */
    "program\tsh\n"
    "something else\n"
    /* an installation of another name; the permission given through
     * ownership; a permissions line before any app is ignored */
    "flatpak\torg.kde.konsole\tsteamos\n"
    "permissions\t[Session Bus Policy]\n"
    "permissions\torg.freedesktop.Flatpak=own\n"
    /* a broken keyfile cannot allow anything */
    "flatpak\torg.wezfurlong.wezterm\tuser\n"
    "permissions\t[Session Bus Policy\n"
    "permissions\torg.freedesktop.Flatpak=talk\n"
    /* "talk" for another name */
    "flatpak\torg.gnome.Console\tuser\n"
    "permissions\t[Session Bus Policy]\n"
    "permissions\torg.freedesktop.Flatpak.Foo=talk\n"
    "flatpak\tbroken\n";
  g_auto(GStrv) unusable = NULL;
  g_auto(GStrv) found = kiste_external_terminal_parse_detected (output, &unusable);
  g_auto(GStrv) nothing = kiste_external_terminal_parse_detected (NULL, NULL);

  g_assert_cmpuint (g_strv_length (found), ==, 1);
  g_assert_cmpstr (found[0], ==, "flatpak:org.kde.konsole");
  g_assert_cmpuint (g_strv_length (unusable), ==, 2);
  g_assert_cmpstr (unusable[0], ==, "flatpak:org.gnome.Console");
  g_assert_cmpstr (unusable[1], ==, "flatpak:org.wezfurlong.wezterm");
  g_assert_cmpuint (g_strv_length (nothing), ==, 0);

  /* What the script printed on a host with xterm and the Flatpaks of the
   * detect test, with the real flatpak */
  {
    g_autofree char *captured = read_fixture ("detect-terminals.txt");
    g_auto(GStrv) unusable_captured = NULL;
    g_auto(GStrv) found_captured = kiste_external_terminal_parse_detected (captured, &unusable_captured);
    g_autofree char *joined = g_strjoinv (" ", found_captured);
    g_autofree char *joined_unusable = g_strjoinv (" ", unusable_captured);

    g_assert_cmpstr (joined, ==, "flatpak:org.gnome.Console flatpak:org.wezfurlong.wezterm xterm");
    g_assert_cmpstr (joined_unusable, ==, "flatpak:app.devsuite.Ptyxis flatpak:org.kde.konsole");
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/enter/dry-run/plain", "plain", test_dry_run);
  g_test_add_data_func ("/enter/dry-run/unshared-groups", "groups", test_dry_run);
  g_test_add_data_func ("/enter/dry-run/init", "init", test_dry_run);
  g_test_add_func ("/enter/box-path", test_box_path);
  g_test_add_func ("/enter/path-rule", test_path_rule);
  g_test_add_func ("/enter/workdir", test_workdir);
  g_test_add_func ("/enter/refusals", test_refusals);
  g_test_add_func ("/enter/forwarding", test_forwarding);
  g_test_add_func ("/enter/unshared-home-workdir", test_unshared_home_workdir);
  g_test_add_func ("/enter/end-shell", test_end_shell);
  g_test_add_func ("/enter/end-shell/without-grep-z", test_end_shell_without_grep_z);
  g_test_add_func ("/enter/foreground-program", test_foreground_program);
  g_test_add_func ("/enter/external-terminals", test_external_terminals);
  g_test_add_func ("/enter/detect-terminals", test_detect_terminals);
  g_test_add_func ("/enter/parse-detected-terminals", test_parse_detected_terminals);

  return g_test_run ();
}
