/* test-runner.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>

#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-runner-private.h"

#define WATCHDOG_SECONDS 20

/* A runner as other tests use it: spawn is overridden to record argv and to
 * send the command to a fake script instead of the real tool. */

#define TEST_TYPE_RUNNER (test_runner_get_type ())
G_DECLARE_FINAL_TYPE (TestRunner, test_runner, TEST, RUNNER, KisteRunner)

struct _TestRunner
{
  KisteRunner  parent_instance;
  GPtrArray   *recorded;  /* of GStrv */
  char        *redirect;  /* program run in place of argv[0] */
};

G_DEFINE_FINAL_TYPE (TestRunner, test_runner, KISTE_TYPE_RUNNER)

static GSubprocess *
test_runner_spawn (KisteRunner         *runner,
                   const char * const  *argv,
                   GSubprocessFlags     flags,
                   GError             **error)
{
  TestRunner *self = TEST_RUNNER (runner);
  g_auto(GStrv) redirected = NULL;

  g_ptr_array_add (self->recorded, g_strdupv ((char **) argv));

  if (self->redirect == NULL)
    {
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT, "not redirected");
      return NULL;
    }

  redirected = g_strdupv ((char **) argv);
  g_free (redirected[0]);
  redirected[0] = g_strdup (self->redirect);

  return KISTE_RUNNER_CLASS (test_runner_parent_class)->spawn (runner,
                                                               (const char * const *) redirected,
                                                               flags, error);
}

static void
test_runner_finalize (GObject *object)
{
  TestRunner *self = TEST_RUNNER (object);

  g_clear_pointer (&self->recorded, g_ptr_array_unref);
  g_clear_pointer (&self->redirect, g_free);

  G_OBJECT_CLASS (test_runner_parent_class)->finalize (object);
}

static void
test_runner_class_init (TestRunnerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_runner_finalize;
  KISTE_RUNNER_CLASS (klass)->spawn = test_runner_spawn;
}

static void
test_runner_init (TestRunner *self)
{
  self->recorded = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

/* Fixture: a private main context drives every async call */

typedef struct
{
  GMainContext *context;
  GMainLoop    *loop;
  KisteRunner  *runner;
  GAsyncResult *result;
  char         *tmpdir;
  GPtrArray    *lines;
  guint         line_data_destroyed;
  GCancellable *cancel_on_line;
  char         *pidfile;
  GCancellable *cancel_on_pidfile;
} Fixture;

static char *
fake_path (const char *name)
{
  const char *dir = g_getenv ("KISTE_TEST_FAKES");

  g_assert_nonnull (dir);

  return g_build_filename (dir, name, NULL);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->context = g_main_context_new ();
  g_main_context_push_thread_default (fixture->context);
  fixture->loop = g_main_loop_new (fixture->context, FALSE);

  fixture->runner = kiste_runner_new ();
  kiste_runner_set_in_flatpak (fixture->runner, FALSE);
  kiste_runner_set_manager (fixture->runner, "podman");

  fixture->tmpdir = g_dir_make_tmp ("kiste-runner-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->pidfile = g_build_filename (fixture->tmpdir, "pids", NULL);
  fixture->lines = g_ptr_array_new_with_free_func (g_free);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_clear_object (&fixture->result);
  g_clear_object (&fixture->cancel_on_line);
  g_clear_object (&fixture->cancel_on_pidfile);

  /* Nothing may keep the runner alive once its operations are done */
  g_assert_finalize_object (g_steal_pointer (&fixture->runner));

  dir = g_dir_open (fixture->tmpdir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->tmpdir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fixture->tmpdir);

  g_clear_pointer (&fixture->tmpdir, g_free);
  g_clear_pointer (&fixture->pidfile, g_free);
  g_clear_pointer (&fixture->lines, g_ptr_array_unref);
  g_clear_pointer (&fixture->loop, g_main_loop_unref);
  g_main_context_pop_thread_default (fixture->context);
  g_clear_pointer (&fixture->context, g_main_context_unref);
}

static void
got_result_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Fixture *fixture = user_data;

  g_assert_null (fixture->result);
  fixture->result = g_object_ref (result);
  g_main_loop_quit (fixture->loop);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("The command did not come back within %d seconds", WATCHDOG_SECONDS);
  return G_SOURCE_REMOVE;
}

static void
wait_for_result (Fixture *fixture)
{
  g_autoptr(GSource) watchdog = g_timeout_source_new_seconds (WATCHDOG_SECONDS);

  g_source_set_callback (watchdog, watchdog_cb, NULL, NULL);
  g_source_attach (watchdog, fixture->context);

  if (fixture->result == NULL)
    g_main_loop_run (fixture->loop);

  g_source_destroy (watchdog);
  g_assert_nonnull (fixture->result);
}

static gboolean
run_command (Fixture             *fixture,
             const char * const  *argv,
             guint                timeout_ms,
             GCancellable        *cancellable,
             char               **stdout_buf,
             char               **stderr_buf,
             GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_runner_run_async (fixture->runner, argv, timeout_ms, cancellable, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);

  return kiste_runner_run_finish (fixture->runner, result, stdout_buf, stderr_buf, error);
}

static void
collect_line_cb (const char *line,
                 gboolean    is_stderr,
                 gpointer    user_data)
{
  Fixture *fixture = user_data;

  /* Lines must arrive on the caller's context, not some other thread's */
  g_assert_true (g_main_context_is_owner (fixture->context));

  g_ptr_array_add (fixture->lines, g_strconcat (is_stderr ? "err:" : "out:", line, NULL));

  if (fixture->cancel_on_line != NULL)
    g_cancellable_cancel (fixture->cancel_on_line);
}

static void
line_data_destroy_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  fixture->line_data_destroyed++;
}

static gboolean
stream_command (Fixture             *fixture,
                const char * const  *argv,
                guint                timeout_ms,
                GCancellable        *cancellable,
                GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_runner_stream_async (fixture->runner, argv, timeout_ms,
                             collect_line_cb, fixture, line_data_destroy_cb,
                             cancellable, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);

  return kiste_runner_stream_finish (fixture->runner, result, error);
}

static GPtrArray *
lines_with_prefix (Fixture    *fixture,
                   const char *prefix)
{
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < fixture->lines->len; i++)
    {
      const char *line = g_ptr_array_index (fixture->lines, i);

      if (g_str_has_prefix (line, prefix))
        g_ptr_array_add (found, (gpointer) (line + strlen (prefix)));
    }
  g_ptr_array_add (found, NULL);

  return found;
}

/* Processes */

static gboolean
pid_is_gone (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  const char *paren;

  if (kill (pid, 0) != 0 && errno == ESRCH)
    return TRUE;

  /* A killed grandchild may linger as a zombie until its new parent reaps it */
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return TRUE;

  paren = strrchr (contents, ')');
  return paren != NULL && paren[1] == ' ' && paren[2] == 'Z';
}

static void
assert_pid_gone_soon (pid_t pid)
{
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  g_assert_cmpint (pid, >, 1);

  while (!pid_is_gone (pid) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);

  g_assert_true (pid_is_gone (pid));
}

static void
read_pids (const char *pidfile,
           pid_t      *shell_pid,
           pid_t      *child_pid)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) parts = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (pidfile, &contents, NULL, &error);
  g_assert_no_error (error);

  parts = g_strsplit (g_strstrip (contents), " ", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);

  *shell_pid = (pid_t) g_ascii_strtoll (parts[0], NULL, 10);
  *child_pid = (pid_t) g_ascii_strtoll (parts[1], NULL, 10);
}

static gboolean
cancel_when_pidfile_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  if (!g_file_test (fixture->pidfile, G_FILE_TEST_EXISTS))
    return G_SOURCE_CONTINUE;

  g_cancellable_cancel (fixture->cancel_on_pidfile);
  return G_SOURCE_REMOVE;
}

static GHashTable *
parse_env_output (const char *output)
{
  GHashTable *env = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *eq = strchr (lines[i], '=');

      if (eq != NULL)
        g_hash_table_insert (env, g_strndup (lines[i], eq - lines[i]), g_strdup (eq + 1));
    }

  return env;
}

/* Tests that change our own environment run in a fresh process where
 * nothing has started a thread yet: setenv() is not safe after that. */
static gboolean
in_fresh_process (void)
{
  if (g_test_subprocess ())
    return TRUE;

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();

  return FALSE;
}

/* Tests */

static void
test_display_string (void)
{
  static const struct {
    const char *argv[8];
    const char *expected;
  } cases[] = {
    { { "podman", "ps", "--all", "--format=json" }, "podman ps --all --format=json" },
    { { "distrobox", "create", "--name", "my box", "--image", "it's" },
      "distrobox create --name 'my box' --image 'it'\\''s'" },
    { { "echo", "$(rm -rf ~)", ";", "", "a|b", "*" }, "echo '$(rm -rf ~)' ';' '' 'a|b' '*'" },
    { { "distrobox", "enter", "Müller" }, "distrobox enter 'Müller'" },
    { { "x", "line\nbreak", "tab\there", "user@host:/a,b+c%d" },
      "x 'line\nbreak' 'tab\there' user@host:/a,b+c%d" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *display = kiste_argv_to_display_string (cases[i].argv);

      g_assert_cmpstr (display, ==, cases[i].expected);
    }

  {
    g_autofree char *empty = kiste_argv_to_display_string (NULL);

    g_assert_cmpstr (empty, ==, "");
  }
}

static void
test_stderr_tail (void)
{
  const char * const noisy[] = {
    "first", "", "   ", "pull 10%\rpull 100%\r", "\033[1;31mError:\033[0m red", "a", "b",
    "c", "", NULL,
  };
  const char * const short_one[] = { "x", "\033[31mError:\033[0m bad thing\r\n", NULL };
  const char * const blank[] = { "", "  ", "\r", "\033[0m", NULL };
  g_autofree char *long_line = g_strnfill (3000, 'x');
  g_autofree char *medium = g_strnfill (400, 'm');
  const char * const one_long[] = { "before", long_line, NULL };
  const char * const three_medium[] = { medium, medium, medium, NULL };
  g_autofree char *tail = NULL;
  g_auto(GStrv) parts = NULL;

  tail = _kiste_runner_format_stderr_tail (noisy);
  g_assert_cmpstr (tail, ==, "pull 100%\nError: red\na\nb\nc");
  g_clear_pointer (&tail, g_free);

  tail = _kiste_runner_format_stderr_tail (short_one);
  g_assert_cmpstr (tail, ==, "x\nError: bad thing");
  g_clear_pointer (&tail, g_free);

  g_assert_null (_kiste_runner_format_stderr_tail (blank));
  g_assert_null (_kiste_runner_format_stderr_tail (NULL));

  /* One line over the limit keeps its end */
  tail = _kiste_runner_format_stderr_tail (one_long);
  g_assert_true (g_str_has_prefix (tail, "…x"));
  g_assert_cmpint (g_utf8_strlen (tail, -1), ==, 1000);
  g_assert_null (strstr (tail, "before"));
  g_clear_pointer (&tail, g_free);

  /* Whole lines only, newest first, until the limit */
  tail = _kiste_runner_format_stderr_tail (three_medium);
  parts = g_strsplit (tail, "\n", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_assert_cmpstr (parts[0], ==, medium);
  g_assert_cmpstr (parts[1], ==, medium);
}

static void
test_run_success (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-args.sh");
  g_autofree char *hacked = g_build_filename (fixture->tmpdir, "HACKED", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = {
    script, "plain", "two words", "$(touch HACKED)", "; touch HACKED", "", "it's", NULL
  };
  gboolean ok;

  kiste_runner_set_cwd (fixture->runner, fixture->tmpdir);
  ok = run_command (fixture, argv, 5000, NULL, &out, &err, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpstr (out, ==, "plain\ntwo words\n$(touch HACKED)\n; touch HACKED\n\nit's\n");
  g_assert_cmpstr (err, ==, "6 arguments\n");
  g_assert_false (g_file_test (hacked, G_FILE_TEST_EXISTS));
}

static void
test_run_failed (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-fail.sh");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, "125", NULL };
  gboolean ok;

  ok = run_command (fixture, argv, 5000, NULL, &out, &err, &error);

  g_assert_false (ok);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "runner-fail.sh 125"));
  g_assert_nonnull (strstr (error->message, "failed (exit status 125)"));
  g_assert_true (g_str_has_suffix (error->message, "line 4\nline 5\nline 6\nline 7\nError: something broke"));
  g_assert_null (strstr (error->message, "line 3"));

  /* The output stays available for callers that want more than the message */
  g_assert_cmpstr (out, ==, "partial output\n");
  g_assert_true (g_str_has_prefix (err, "line 1\n"));
}

static void
test_run_exit_127 (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-fail.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, "127", NULL };

  g_assert_false (run_command (fixture, argv, 5000, NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“runner-fail.sh”"));
  g_assert_nonnull (strstr (error->message, "127"));
  g_assert_nonnull (strstr (error->message, "Error: something broke"));
}

static void
test_run_missing_program (Fixture       *fixture,
                          gconstpointer  data)
{
  const char *absolute[] = { "/nonexistent/kiste-no-such-tool", "ps", NULL };
  const char *in_path[] = { "kiste-no-such-tool-in-path", NULL };
  static char stale[] = "stale";
  char *out = stale;
  g_autoptr(GError) error = NULL;

  g_assert_false (run_command (fixture, absolute, 5000, NULL, &out, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "“kiste-no-such-tool”"));
  g_assert_null (out);
  g_clear_error (&error);

  g_assert_false (run_command (fixture, in_path, 5000, NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "“kiste-no-such-tool-in-path”"));
}

static void
test_run_process_setup (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  /* its pid, its process group, its folder, its open descriptors: ls
   * itself in its place lists them (and the one it reads them with, 3);
   * a pipeline would race with the shell's own pipes */
  const char *argv[] = {
    "sh", "-c",
    "read -r pid comm state ppid pgrp rest < /proc/$$/stat; "
    "echo \"$$ $pgrp\"; pwd; exec ls -m /proc/$$/fd",
    NULL
  };
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) ids = NULL;
  int leak;

  /* a descriptor without close-on-exec must not reach the command */
  leak = open ("/dev/null", O_RDONLY);
  g_assert_cmpint (leak, >, 2);

  kiste_runner_set_cwd (fixture->runner, fixture->tmpdir);
  g_assert_true (run_command (fixture, argv, 5000, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  close (leak);

  lines = g_strsplit (g_strchomp (out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  ids = g_strsplit (lines[0], " ", -1);
  g_assert_cmpuint (g_strv_length (ids), ==, 2);
  /* the leader of a group of its own */
  g_assert_cmpstr (ids[0], ==, ids[1]);
  g_assert_cmpint (atoi (ids[1]), !=, getpgrp ());
  g_assert_cmpstr (lines[1], ==, fixture->tmpdir);
  g_assert_cmpstr (lines[2], ==, "0, 1, 2, 3");
}

static void
test_run_missing_folder (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *gone = g_build_filename (fixture->tmpdir, "gone", NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "true", NULL };

  kiste_runner_set_cwd (fixture->runner, gone);
  g_assert_false (run_command (fixture, argv, 5000, NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, gone));
}

static void
test_run_timeout (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-hang.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  gint64 start = g_get_monotonic_time ();
  gint64 elapsed;
  pid_t shell_pid;
  pid_t child_pid;

  /* A long grace shows SIGTERM alone was enough, well before SIGKILL */
  _kiste_runner_set_kill_grace (fixture->runner, 5000);
  g_assert_false (run_command (fixture, argv, 200, NULL, NULL, NULL, &error));
  elapsed = g_get_monotonic_time () - start;

  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "did not finish within 1 second"));
  g_assert_cmpint (elapsed, >=, 200 * 1000);
  g_assert_cmpint (elapsed, <, 3 * G_USEC_PER_SEC);

  /* The script and the sleep it started are both gone */
  read_pids (fixture->pidfile, &shell_pid, &child_pid);
  assert_pid_gone_soon (shell_pid);
  assert_pid_gone_soon (child_pid);
}

static void
test_run_timeout_stubborn (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-stubborn.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  gint64 start = g_get_monotonic_time ();
  gint64 elapsed;
  pid_t shell_pid;
  pid_t child_pid;

  _kiste_runner_set_kill_grace (fixture->runner, 300);
  g_assert_false (run_command (fixture, argv, 200, NULL, NULL, NULL, &error));
  elapsed = g_get_monotonic_time () - start;

  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
  /* Ignoring SIGTERM only buys it the grace period */
  g_assert_cmpint (elapsed, >=, 500 * 1000);
  g_assert_cmpint (elapsed, <, 4 * G_USEC_PER_SEC);

  read_pids (fixture->pidfile, &shell_pid, &child_pid);
  assert_pid_gone_soon (shell_pid);
  assert_pid_gone_soon (child_pid);
}

static void
test_run_cancel (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-hang.sh");
  g_autoptr(GSource) poll = g_timeout_source_new (10);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  gint64 start = g_get_monotonic_time ();
  pid_t shell_pid;
  pid_t child_pid;

  fixture->cancel_on_pidfile = g_cancellable_new ();
  g_source_set_callback (poll, cancel_when_pidfile_cb, fixture, NULL);
  g_source_attach (poll, fixture->context);

  _kiste_runner_set_kill_grace (fixture->runner, 5000);
  g_assert_false (run_command (fixture, argv, 0, fixture->cancel_on_pidfile, NULL, NULL, &error));
  g_source_destroy (poll);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);

  read_pids (fixture->pidfile, &shell_pid, &child_pid);
  assert_pid_gone_soon (shell_pid);
  assert_pid_gone_soon (child_pid);
}

static void
test_run_cancelled_before (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(TestRunner) runner = g_object_new (TEST_TYPE_RUNNER, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "podman", "ps", NULL };

  g_cancellable_cancel (cancellable);
  kiste_runner_run_async (KISTE_RUNNER (runner), argv, 0, cancellable, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);

  g_assert_false (kiste_runner_run_finish (KISTE_RUNNER (runner), result, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (runner->recorded->len, ==, 0);
}

static void
test_run_stdin_is_null (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-cat.sh");
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, NULL };
  int saved_stdin;
  int fds[2];
  gboolean ok;

  /* Give ourselves a stdin that never ends: a command inheriting it would
   * hang until the timeout. */
  g_unix_open_pipe (fds, O_CLOEXEC, &error);
  g_assert_no_error (error);
  saved_stdin = dup (STDIN_FILENO);
  g_assert_cmpint (saved_stdin, >=, 0);
  g_assert_cmpint (dup2 (fds[0], STDIN_FILENO), ==, STDIN_FILENO);

  ok = run_command (fixture, argv, 3000, NULL, &out, NULL, &error);

  dup2 (saved_stdin, STDIN_FILENO);
  close (saved_stdin);
  close (fds[0]);
  close (fds[1]);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpstr (out, ==, "");
}

static void
test_run_background_holds_pipe (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-daemon.sh");
  g_autofree char *pid_text = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  gint64 start = g_get_monotonic_time ();
  gboolean ok;
  pid_t pid;

  ok = run_command (fixture, argv, 0, NULL, &out, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpstr (out, ==, "started\n");
  /* Not the 30 seconds the background sleep keeps stdout open */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);

  g_file_get_contents (fixture->pidfile, &pid_text, NULL, &error);
  g_assert_no_error (error);
  pid = (pid_t) g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (pid, >, 1);
  kill (pid, SIGKILL);
}

static void
test_stream_lines (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-stream.sh");
  g_autoptr(GPtrArray) out = NULL;
  g_autoptr(GPtrArray) err = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, NULL };
  const char * const expected_out[] = {
    "out 1", "progress 10%\rprogress 100%", "out 3", "no newline at end", NULL
  };
  const char * const expected_err[] = {
    "err 1", "err 2", "warn 0", "warn 1", "warn 2", "warn 3", "warn 4", "warn 5", "warn 6",
    "warn 7", NULL
  };

  g_assert_true (stream_command (fixture, argv, 5000, NULL, &error));
  g_assert_no_error (error);

  out = lines_with_prefix (fixture, "out:");
  err = lines_with_prefix (fixture, "err:");
  g_assert_cmpstrv ((const char * const *) out->pdata, expected_out);
  g_assert_cmpstrv ((const char * const *) err->pdata, expected_err);
  g_assert_cmpuint (fixture->lines->len, ==, 14);
  g_assert_cmpuint (fixture->line_data_destroyed, ==, 1);
}

/* Merged: one pipe, so the lines keep the order the command wrote them */
static void
test_stream_merged (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-stream.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, "3", NULL };
  const char * const expected[] = {
    "out:out 1", "out:err 1", "out:progress 10%\rprogress 100%", "out:err 2", "out:out 3",
    "out:warn 0", "out:warn 1", "out:warn 2", "out:warn 3", "out:warn 4", "out:warn 5",
    "out:warn 6", "out:warn 7", "out:no newline at end", NULL
  };

  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) all = NULL;

  kiste_runner_stream_merged_async (fixture->runner, argv, 5000,
                                    collect_line_cb, fixture, line_data_destroy_cb,
                                    NULL, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);
  g_assert_false (kiste_runner_stream_finish (fixture->runner, result, &error));
  all = lines_with_prefix (fixture, "");
  g_assert_cmpstrv ((const char * const *) all->pdata, expected);

  /* the message quotes the last lines, whichever stream they came on */
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_true (g_str_has_suffix (error->message, "warn 7\nno newline at end"));
}

static void
test_stream_failed (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-stream.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, "3", NULL };

  g_assert_false (stream_command (fixture, argv, 5000, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "(exit status 3)"));
  g_assert_true (g_str_has_suffix (error->message, "warn 3\nwarn 4\nwarn 5\nwarn 6\nwarn 7"));
  g_assert_null (strstr (error->message, "warn 2"));
  g_assert_null (strstr (error->message, "out 1"));

  /* Every line still reached the caller */
  g_assert_cmpuint (fixture->lines->len, ==, 14);
  g_assert_cmpuint (fixture->line_data_destroyed, ==, 1);
}

static void
test_stream_timeout (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-hang.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  gint64 start = g_get_monotonic_time ();
  pid_t shell_pid;
  pid_t child_pid;

  _kiste_runner_set_kill_grace (fixture->runner, 5000);
  g_assert_false (stream_command (fixture, argv, 200, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);

  g_assert_cmpuint (fixture->lines->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (fixture->lines, 0), ==, "out:waiting");
  g_assert_cmpstr (g_ptr_array_index (fixture->lines, 1), ==, "out:still waiting");
  g_assert_cmpuint (fixture->line_data_destroyed, ==, 1);

  read_pids (fixture->pidfile, &shell_pid, &child_pid);
  assert_pid_gone_soon (shell_pid);
  assert_pid_gone_soon (child_pid);
}

static void
test_stream_cancel (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-hang.sh");
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, fixture->pidfile, NULL };
  pid_t shell_pid;
  pid_t child_pid;

  fixture->cancel_on_line = g_cancellable_new ();

  g_assert_false (stream_command (fixture, argv, 0, fixture->cancel_on_line, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* The second line was already on its way, but the caller gave up */
  g_assert_cmpuint (fixture->lines->len, ==, 1);
  g_assert_cmpuint (fixture->line_data_destroyed, ==, 1);

  read_pids (fixture->pidfile, &shell_pid, &child_pid);
  assert_pid_gone_soon (shell_pid);
  assert_pid_gone_soon (child_pid);
}

static const char * const leaky_variables[] = {
  "LD_PRELOAD", "LD_LIBRARY_PATH", "GTK_THEME", "GDK_BACKEND", "GSK_RENDERER", "GIO_USE_VFS",
  "G_MESSAGES_DEBUG", "G_DEBUG", "GSETTINGS_BACKEND", "ADW_DEBUG_COLOR_SCHEME", "FLATPAK_ID",
  "DESKTOP_STARTUP_ID", "XDG_ACTIVATION_TOKEN", "GI_TYPELIB_PATH", "OLDPWD",
};

static void
set_leaky_environment (void)
{
  g_setenv ("LD_PRELOAD", "/nonexistent/libkiste-preload.so", TRUE);
  g_setenv ("LD_LIBRARY_PATH", "/nonexistent/lib", TRUE);
  g_setenv ("GTK_THEME", "Adwaita:dark", TRUE);
  g_setenv ("GDK_BACKEND", "x11", TRUE);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  g_setenv ("GIO_USE_VFS", "local", TRUE);
  g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
  g_setenv ("G_DEBUG", "fatal-warnings", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("ADW_DEBUG_COLOR_SCHEME", "prefer-dark", TRUE);
  g_setenv ("FLATPAK_ID", "io.github.kiste.Kiste", TRUE);
  g_setenv ("DESKTOP_STARTUP_ID", "startup-id", TRUE);
  g_setenv ("XDG_ACTIVATION_TOKEN", "token", TRUE);
  g_setenv ("GI_TYPELIB_PATH", "/nonexistent/typelib", TRUE);
  g_setenv ("OLDPWD", "/nonexistent/old", TRUE);
  g_setenv ("PWD", "/nonexistent/pwd", TRUE);
  g_setenv ("GTK_IM_MODULE", "ibus", TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);
  g_setenv ("DBX_NON_INTERACTIVE", "0", TRUE);
  g_setenv ("KISTE_RUNNER_TEST_KEEP", "kept", TRUE);
  g_setenv ("KISTE_RUNNER_TEST_DROP", "dropped", TRUE);
}

static void
test_environment (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *script = fake_path ("runner-env.sh");
  g_autofree char *cwd = g_canonicalize_filename (fixture->tmpdir, NULL);
  g_autofree char *expected_cwd = NULL;
  g_autoptr(GHashTable) env = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) dup = NULL;
  g_autofree char *resolved = NULL;
  const char *argv[] = { script, NULL };
  gboolean ok;

  if (!in_fresh_process ())
    return;

  set_leaky_environment ();
  kiste_runner_setenv (fixture->runner, "DBX_VERBOSE", "1");
  kiste_runner_setenv (fixture->runner, "KISTE_RUNNER_TEST_DROP", NULL);
  kiste_runner_set_cwd (fixture->runner, fixture->tmpdir);

  ok = run_command (fixture, argv, 5000, NULL, &out, &err, &error);
  dup = kiste_runner_dup_environ (fixture->runner);

  g_assert_no_error (error);
  g_assert_true (ok);
  /* A leaked LD_PRELOAD would have made the loader complain */
  g_assert_cmpstr (err, ==, "");

  resolved = realpath (cwd, NULL);
  g_assert_nonnull (resolved);
  expected_cwd = g_strconcat ("cwd=", resolved, "\n", NULL);
  g_assert_true (g_str_has_prefix (out, expected_cwd));

  env = parse_env_output (out);
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_CONTAINER_MANAGER"), ==, "podman");
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_NON_INTERACTIVE"), ==, "1");
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_VERBOSE"), ==, "1");
  g_assert_cmpstr (g_hash_table_lookup (env, "KISTE_RUNNER_TEST_KEEP"), ==, "kept");
  g_assert_cmpstr (g_hash_table_lookup (env, "GTK_IM_MODULE"), ==, "ibus");
  g_assert_cmpstr (g_hash_table_lookup (env, "XDG_DATA_DIRS"), ==, "/usr/local/share:/usr/share");
  g_assert_cmpstr (g_hash_table_lookup (env, "HOME"), ==, g_get_home_dir ());
  g_assert_nonnull (g_hash_table_lookup (env, "PATH"));
  g_assert_false (g_hash_table_contains (env, "KISTE_RUNNER_TEST_DROP"));
  g_assert_cmpstr (g_hash_table_lookup (env, "PWD"), !=, "/nonexistent/pwd");
  for (guint i = 0; i < G_N_ELEMENTS (leaky_variables); i++)
    {
      g_test_message ("checking %s", leaky_variables[i]);
      g_assert_false (g_hash_table_contains (env, leaky_variables[i]));
      g_assert_null (g_environ_getenv (dup, leaky_variables[i]));
    }

  g_assert_cmpstr (g_environ_getenv (dup, "DBX_CONTAINER_MANAGER"), ==, "podman");
  g_assert_null (g_environ_getenv (dup, "PWD"));
}

static void
test_environment_no_manager (Fixture       *fixture,
                             gconstpointer  data)
{
  g_auto(GStrv) env = NULL;

  if (!in_fresh_process ())
    return;

  g_unsetenv ("DBX_CONTAINER_MANAGER");
  kiste_runner_set_manager (fixture->runner, NULL);
  env = kiste_runner_dup_environ (fixture->runner);

  g_assert_null (g_environ_getenv (env, "DBX_CONTAINER_MANAGER"));
  g_assert_cmpstr (g_environ_getenv (env, "DBX_NON_INTERACTIVE"), ==, "1");

  /* Whatever the caller adds wins over our defaults */
  kiste_runner_set_manager (fixture->runner, "docker");
  kiste_runner_setenv (fixture->runner, "DBX_NON_INTERACTIVE", "0");
  g_clear_pointer (&env, g_strfreev);
  env = kiste_runner_dup_environ (fixture->runner);
  g_assert_cmpstr (g_environ_getenv (env, "DBX_CONTAINER_MANAGER"), ==, "docker");
  g_assert_cmpstr (g_environ_getenv (env, "DBX_NON_INTERACTIVE"), ==, "0");
}

static void
test_native_argv (Fixture       *fixture,
                  gconstpointer  data)
{
  const char * const argv[] = { "distrobox", "list", "--no-color", NULL };
  g_auto(GStrv) built = NULL;

  built = kiste_runner_build_argv (fixture->runner, argv);
  g_assert_cmpstrv (built, argv);
}

static void
test_flatpak_argv (Fixture       *fixture,
                   gconstpointer  data)
{
  const char * const argv[] = { "distrobox", "create", "--name", "my box", NULL };
  const char * const expected[] = {
    "flatpak-spawn", "--host", "--watch-bus", "--directory=/home/someone/projects",
    "--env=DBX_CONTAINER_MANAGER=podman", "--env=DBX_NON_INTERACTIVE=1", "--env=DBX_VERBOSE=1",
    "--env=TERM=xterm-256color", "--env=DOCKER_HOST=unix:///run/user/1000/docker.sock",
    "distrobox", "create", "--name", "my box", NULL
  };
  g_autofree char *home_directory = g_strconcat ("--directory=", g_get_home_dir (), NULL);
  const char * const expected_plain[] = {
    "flatpak-spawn", "--host", "--watch-bus", home_directory,
    "--env=DBX_CONTAINER_MANAGER=podman", "--env=DBX_NON_INTERACTIVE=1", "--env=DBX_VERBOSE=1",
    "--env=DOCKER_HOST=unix:///run/user/1000/docker.sock", "distrobox", "create", "--name",
    "my box", NULL
  };
  g_auto(GStrv) built = NULL;

  if (!in_fresh_process ())
    return;

  g_setenv ("TERM", "xterm-256color", TRUE);
  g_setenv ("DOCKER_HOST", "unix:///run/user/1000/docker.sock", TRUE);
  g_unsetenv ("COLORTERM");
  g_unsetenv ("CONTAINER_HOST");
  g_unsetenv ("PODMAN_IGNORE_CGROUPSV1_WARNING");
  /* Sandbox-only settings stay in the sandbox */
  g_setenv ("GTK_THEME", "Adwaita:dark", TRUE);
  g_setenv ("KISTE_RUNNER_TEST_SANDBOX_ONLY", "1", TRUE);

  kiste_runner_set_in_flatpak (fixture->runner, TRUE);
  kiste_runner_set_cwd (fixture->runner, "/home/someone/projects");
  kiste_runner_setenv (fixture->runner, "DBX_VERBOSE", "1");

  built = kiste_runner_build_argv (fixture->runner, argv);
  g_assert_cmpstrv (built, expected);

  /* Default directory is home; a dropped variable is not forwarded either */
  kiste_runner_set_cwd (fixture->runner, NULL);
  kiste_runner_setenv (fixture->runner, "TERM", NULL);
  g_clear_pointer (&built, g_strfreev);
  built = kiste_runner_build_argv (fixture->runner, argv);
  g_assert_cmpstrv (built, expected_plain);
}

static void
test_flatpak_run (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *fake_spawn = fake_path ("runner-flatpak-spawn.sh");
  g_autofree char *script = fake_path ("runner-env.sh");
  g_autofree char *cwd = g_canonicalize_filename (fixture->tmpdir, NULL);
  g_autofree char *expected_cwd = NULL;
  g_autoptr(GHashTable) env = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { script, NULL };
  const char *missing[] = { "kiste-no-such-tool", "list", NULL };
  g_autofree char *resolved = NULL;
  gboolean ok;

  if (!in_fresh_process ())
    return;

  g_setenv ("KISTE_RUNNER_TEST_SANDBOX_ONLY", "1", TRUE);
  kiste_runner_set_in_flatpak (fixture->runner, TRUE);
  _kiste_runner_set_flatpak_spawn (fixture->runner, fake_spawn);
  kiste_runner_set_cwd (fixture->runner, fixture->tmpdir);
  kiste_runner_setenv (fixture->runner, "DBX_VERBOSE", "it's 1");

  ok = run_command (fixture, argv, 5000, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  resolved = realpath (cwd, NULL);
  g_assert_nonnull (resolved);
  expected_cwd = g_strconcat ("cwd=", resolved, "\n", NULL);
  g_assert_true (g_str_has_prefix (out, expected_cwd));

  env = parse_env_output (out);
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_CONTAINER_MANAGER"), ==, "podman");
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_NON_INTERACTIVE"), ==, "1");
  g_assert_cmpstr (g_hash_table_lookup (env, "DBX_VERBOSE"), ==, "it's 1");
  g_assert_false (g_hash_table_contains (env, "KISTE_RUNNER_TEST_SANDBOX_ONLY"));

  /* A program missing on the host is a missing tool, not a failed command */
  g_assert_false (run_command (fixture, missing, 5000, NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "“kiste-no-such-tool”"));
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  guint *count = user_data;

  (*count)++;
}

static void
test_properties (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autofree char *manager = NULL;
  guint manager_notifies = 0;
  guint flatpak_notifies = 0;
  gboolean in_flatpak;

  if (!in_fresh_process ())
    return;

  g_signal_connect (runner, "notify::manager", G_CALLBACK (notify_count_cb), &manager_notifies);
  g_signal_connect (runner, "notify::in-flatpak", G_CALLBACK (notify_count_cb), &flatpak_notifies);

  kiste_runner_set_manager (runner, "podman");
  kiste_runner_set_manager (runner, "podman");
  g_assert_cmpuint (manager_notifies, ==, 1);
  g_object_set (runner, "manager", "docker", NULL);
  g_assert_cmpuint (manager_notifies, ==, 2);
  g_object_get (runner, "manager", &manager, NULL);
  g_assert_cmpstr (manager, ==, "docker");
  kiste_runner_set_manager (runner, NULL);
  g_assert_null (kiste_runner_get_manager (runner));
  g_assert_cmpuint (manager_notifies, ==, 3);

  kiste_runner_set_in_flatpak (runner, TRUE);
  kiste_runner_set_in_flatpak (runner, TRUE);
  g_assert_cmpuint (flatpak_notifies, ==, 1);
  g_object_set (runner, "in-flatpak", FALSE, NULL);
  g_object_get (runner, "in-flatpak", &in_flatpak, NULL);
  g_assert_false (in_flatpak);
  g_assert_cmpuint (flatpak_notifies, ==, 2);

  g_assert_cmpstr (kiste_runner_get_cwd (runner), ==, g_get_home_dir ());
  kiste_runner_set_cwd (runner, "/srv");
  g_assert_cmpstr (kiste_runner_get_cwd (runner), ==, "/srv");

  g_setenv ("KISTE_FORCE_FLATPAK", "1", TRUE);
  {
    g_autoptr(KisteRunner) forced = kiste_runner_new ();

    g_assert_true (kiste_runner_get_in_flatpak (forced));
  }
  g_setenv ("KISTE_FORCE_FLATPAK", "0", TRUE);
  {
    g_autoptr(KisteRunner) forced = kiste_runner_new ();

    g_assert_false (kiste_runner_get_in_flatpak (forced));
  }
  g_unsetenv ("KISTE_FORCE_FLATPAK");
  {
    g_autoptr(KisteRunner) detected = kiste_runner_new ();

    g_assert_cmpint (kiste_runner_get_in_flatpak (detected), ==,
                     g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS));
  }
}

static void
test_fake_spawn (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(TestRunner) runner = g_object_new (TEST_TYPE_RUNNER, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  const char * const argv[] = { "podman", "ps", "--all", "--format", "json", NULL };
  const char * const missing[] = { "distrobox", "list", NULL };
  gboolean ok;

  runner->redirect = fake_path ("runner-args.sh");
  kiste_runner_set_in_flatpak (KISTE_RUNNER (runner), FALSE);

  kiste_runner_run_async (KISTE_RUNNER (runner), argv, 5000, NULL, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);
  ok = kiste_runner_run_finish (KISTE_RUNNER (runner), result, &out, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (runner->recorded->len, ==, 1);
  g_assert_cmpstrv (g_ptr_array_index (runner->recorded, 0), argv);
  g_assert_cmpstr (out, ==, "ps\n--all\n--format\njson\n");

  /* A fake that cannot run anything still maps to a readable error */
  g_clear_pointer (&runner->redirect, g_free);
  g_clear_object (&result);
  kiste_runner_run_async (KISTE_RUNNER (runner), missing, 5000, NULL, got_result_cb, fixture);
  wait_for_result (fixture);
  result = g_steal_pointer (&fixture->result);
  g_assert_false (kiste_runner_run_finish (KISTE_RUNNER (runner), result, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "“distrobox”"));
  g_assert_cmpuint (runner->recorded->len, ==, 2);
  g_assert_cmpstrv (g_ptr_array_index (runner->recorded, 1), missing);
}

/* Nothing the app started may outlive it */

static gboolean
process_gone (pid_t pid)
{
  g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *end;

  if (kill (pid, 0) != 0 && errno == ESRCH)
    return TRUE;
  /* a zombie waiting for whoever adopted it is gone too */
  if (!g_file_get_contents (stat_path, &stat, NULL, NULL))
    return TRUE;
  end = strrchr (stat, ')');
  return end != NULL && end[1] == ' ' && end[2] == 'Z';
}

static gboolean
wait_process_gone (pid_t pid,
                   guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!process_gone (pid))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      g_usleep (10 * 1000);
    }
  return TRUE;
}

static pid_t
read_pid_file (const char *path,
               guint       timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  for (;;)
    {
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL) && strchr (text, '\n') != NULL)
        return (pid_t) g_ascii_strtoll (text, NULL, 10);
      if (g_get_monotonic_time () > deadline)
        return 0;
      g_usleep (10 * 1000);
    }
}

static char *
dup_orphan_pid_file (pid_t test_pid)
{
  g_autofree char *name = g_strdup_printf ("kiste-runner-orphan-%d", (int) test_pid);

  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

static void
test_children_die_with_app (void)
{
  g_autofree char *pid_file = NULL;
  pid_t child;

  if (g_test_subprocess ())
    {
      g_autoptr(KisteRunner) runner = kiste_runner_new ();
      g_autofree char *script = NULL;
      const char *argv[] = { "sh", "-c", NULL, NULL };

      pid_file = dup_orphan_pid_file (getppid ());
      script = g_strdup_printf ("echo $$ > '%s.tmp' && mv '%s.tmp' '%s' && exec sleep 600",
                                pid_file, pid_file, pid_file);
      argv[2] = script;
      kiste_runner_set_in_flatpak (runner, FALSE);
      kiste_runner_stream_async (runner, argv, 0, NULL, NULL, NULL, NULL, NULL, NULL);
      while (!g_file_test (pid_file, G_FILE_TEST_EXISTS))
        g_main_context_iteration (NULL, TRUE);

      /* killed: no handler, no clean-up code runs */
      raise (SIGKILL);
      g_assert_not_reached ();
    }

  pid_file = dup_orphan_pid_file (getpid ());
  g_unlink (pid_file);
  g_test_trap_subprocess (NULL, 10 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();

  child = read_pid_file (pid_file, 5000);
  g_unlink (pid_file);
  g_assert_cmpint (child, >, 1);
  if (!wait_process_gone (child, 5000))
    {
      kill (child, SIGKILL);
      g_error ("process %d outlived the process that started it", (int) child);
    }
}

static void
test_terminate_all (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *script = NULL;
  g_autofree char *pid_file = g_build_filename (fixture->tmpdir, "grandchild", NULL);
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sh", "-c", NULL, NULL };
  pid_t grandchild;

  /* a grandchild in the background, as a distrobox script starts podman */
  script = g_strdup_printf ("sleep 600 & echo $! > '%s.tmp' && mv '%s.tmp' '%s'; wait",
                            pid_file, pid_file, pid_file);
  argv[2] = script;
  kiste_runner_stream_async (fixture->runner, argv, 0,
                             collect_line_cb, fixture, line_data_destroy_cb,
                             NULL, got_result_cb, fixture);

  grandchild = read_pid_file (pid_file, 5000);
  g_assert_cmpint (grandchild, >, 1);
  g_assert_false (process_gone (grandchild));

  g_assert_cmpuint (kiste_runner_terminate_all (), >=, 1);
  g_assert_true (wait_process_gone (grandchild, 5000));

  wait_for_result (fixture);
  g_assert_false (kiste_runner_stream_finish (fixture->runner, fixture->result, &error));
  g_assert_nonnull (error);
  g_clear_object (&fixture->result);

  /* nothing left to end */
  g_assert_cmpuint (kiste_runner_terminate_all (), ==, 0);
}

#define fixture_test(path, func) \
  g_test_add ((path), Fixture, NULL, fixture_setup, (func), fixture_teardown)

static void
test_strip_escapes (void)
{
  static const struct
  {
    const char *text;
    const char *plain;
  } table[] = {
    { "plain text", "plain text" },
    /* distrobox colours its setup messages */
    { "Setting up user's group list...\t\033[32m [ OK ]\033[0m", "Setting up user's group list...\t [ OK ]" },
    /* titles and the current folder (OSC), ended by BEL or ESC \\ */
    { "\033]0;box title\007$ ls", "$ ls" },
    { "\033]7;file://host/home/alex\033\\prompt", "prompt" },
    /* cursor movement, a two-byte escape, a cut-off sequence */
    { "a\033[2Kb\033=c\033[", "abc" },
    /* carriage returns stay: callers decide what they mean */
    { "50%\r100%", "50%\r100%" },
    /* bytes that are no UTF-8 become replacement characters */
    { "caf\xe9", "caf\xef\xbf\xbd" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autofree char *plain = kiste_strip_terminal_escapes (table[i].text);

      g_assert_cmpstr (plain, ==, table[i].plain);
    }
}

/* A command that prints without end (a box's cat of a sparse file, or its
 * own cat) is stopped once it printed more than the limit; what it printed
 * is not kept */
static void
test_run_output_limit (Fixture       *fixture,
                       gconstpointer  data)
{
  const char *argv[] = { "sh", "-c", "echo $$ > \"$1\"; exec cat /dev/zero", "sh", fixture->pidfile, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gint64 start = g_get_monotonic_time ();

  _kiste_runner_set_output_limit (fixture->runner, 1024 * 1024);
  g_assert_false (run_command (fixture, argv, 0, NULL, &out, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_nonnull (strstr (error->message, "printed more than 1 MB"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_assert_true (out == NULL || strlen (out) <= 2 * 1024 * 1024);

  g_assert_true (g_file_get_contents (fixture->pidfile, &contents, NULL, NULL));
  assert_pid_gone_soon ((pid_t) g_ascii_strtoll (contents, NULL, 10));

  /* stderr counts too; output below the limit is whole */
  g_clear_error (&error);
  g_clear_pointer (&out, g_free);
  {
    const char *err_argv[] = { "sh", "-c", "exec cat /dev/zero >&2", NULL };
    const char *fine_argv[] = { "sh", "-c", "head -c 1000000 /dev/zero | tr '\\0' x", NULL };

    g_assert_false (run_command (fixture, err_argv, 0, NULL, NULL, NULL, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    g_clear_error (&error);
    g_assert_true (run_command (fixture, fine_argv, 0, NULL, &out, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (strlen (out), ==, 1000000);
  }
}

/* A streamed line is handed on cut at the line limit; its rest goes, the
 * next line comes whole; a line without end never grows the buffer */
static void
test_stream_long_lines (Fixture       *fixture,
                        gconstpointer  data)
{
  const char *argv[] = { "sh", "-c",
                         "head -c 200000 /dev/zero | tr '\\0' x; echo; echo next; "
                         "head -c 300000 /dev/zero | tr '\\0' y", NULL };
  g_autoptr(GError) error = NULL;
  const char *first;
  const char *last;

  g_assert_true (stream_command (fixture, argv, 0, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->lines->len, ==, 3);
  first = g_ptr_array_index (fixture->lines, 0);
  last = g_ptr_array_index (fixture->lines, 2);
  /* "out:" and the line */
  g_assert_cmpuint (strlen (first), ==, 4 + KISTE_RUNNER_LINE_LIMIT);
  g_assert_cmpstr (g_ptr_array_index (fixture->lines, 1), ==, "out:next");
  g_assert_cmpuint (strlen (last), ==, 4 + KISTE_RUNNER_LINE_LIMIT);
  g_assert_true (g_str_has_prefix (last, "out:yyy"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/runner/display-string", test_display_string);
  g_test_add_func ("/runner/stderr-tail", test_stderr_tail);
  g_test_add_func ("/runner/properties", test_properties);
  fixture_test ("/runner/run/success", test_run_success);
  fixture_test ("/runner/run/failed", test_run_failed);
  fixture_test ("/runner/run/exit-127", test_run_exit_127);
  fixture_test ("/runner/run/missing-program", test_run_missing_program);
  fixture_test ("/runner/run/missing-folder", test_run_missing_folder);
  fixture_test ("/runner/run/process-setup", test_run_process_setup);
  fixture_test ("/runner/run/timeout", test_run_timeout);
  fixture_test ("/runner/run/timeout-stubborn", test_run_timeout_stubborn);
  fixture_test ("/runner/run/cancel", test_run_cancel);
  fixture_test ("/runner/run/cancelled-before", test_run_cancelled_before);
  fixture_test ("/runner/run/stdin-is-null", test_run_stdin_is_null);
  fixture_test ("/runner/run/background-holds-pipe", test_run_background_holds_pipe);
  fixture_test ("/runner/stream/lines", test_stream_lines);
  fixture_test ("/runner/stream/failed", test_stream_failed);
  fixture_test ("/runner/stream/merged", test_stream_merged);
  fixture_test ("/runner/stream/timeout", test_stream_timeout);
  fixture_test ("/runner/stream/cancel", test_stream_cancel);
  fixture_test ("/runner/run/output-limit", test_run_output_limit);
  fixture_test ("/runner/stream/long-lines", test_stream_long_lines);
  fixture_test ("/runner/environment", test_environment);
  fixture_test ("/runner/environment/no-manager", test_environment_no_manager);
  fixture_test ("/runner/argv/native", test_native_argv);
  fixture_test ("/runner/argv/flatpak", test_flatpak_argv);
  fixture_test ("/runner/flatpak/run", test_flatpak_run);
  fixture_test ("/runner/fake-spawn", test_fake_spawn);
  fixture_test ("/runner/terminate-all", test_terminate_all);
  g_test_add_func ("/runner/children-die-with-app", test_children_die_with_app);
  g_test_add_func ("/runner/strip-escapes", test_strip_escapes);

  return g_test_run ();
}
