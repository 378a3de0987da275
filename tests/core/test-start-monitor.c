/* test-start-monitor.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include <glib/gstdio.h>

#include "kiste-error.h"
#include "kiste-start-monitor-private.h"

static char *
dup_fixture_path (const char *name)
{
  const char *dir = g_getenv ("KISTE_TEST_FIXTURES");

  g_assert_nonnull (dir);

  return g_build_filename (dir, name, NULL);
}

static char **
load_fixture_lines (const char *name)
{
  g_autofree char *path = dup_fixture_path (name);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  /* No empty last element for the final newline */
  if (len > 0 && contents[len - 1] == '\n')
    contents[len - 1] = '\0';

  return g_strsplit (contents, "\n", -1);
}


/* Parsing */

static void
test_parse_line (void)
{
  static const struct {
    const char         *line;
    KisteStartLineKind  kind;
    const char         *text;
  } cases[] = {
    { "distrobox: Installing basic packages...", KISTE_START_LINE_STEP, "Installing basic packages…" },
    { "distrobox: Setting up sudo...\r", KISTE_START_LINE_STEP, "Setting up sudo…" },
    { "distrobox: Setting up existing user - shell...", KISTE_START_LINE_STEP, "Updating the user…" },
    { "distrobox: Frobnicating the widgets...", KISTE_START_LINE_STEP, "Frobnicating the widgets…" },
    { "distrobox:Something", KISTE_START_LINE_STEP, "Something" },
    { "Warning: Cannot bind mount /var/home to /run/host/home", KISTE_START_LINE_WARNING,
      "Warning: Cannot bind mount /var/home to /run/host/home" },
    /* A warning that quotes an error stays a warning */
    { "Warning: Hard copy failed. Error: cp: cannot stat", KISTE_START_LINE_WARNING,
      "Warning: Hard copy failed. Error: cp: cannot stat" },
    { "Error: An error occurred  ", KISTE_START_LINE_ERROR, "Error: An error occurred" },
    { "Error: could not find a supported package manager.", KISTE_START_LINE_ERROR,
      "Error: could not find a supported package manager." },
    { "container_setup_done", KISTE_START_LINE_DONE, NULL },
    /* The shell trace of the init script, even when it mentions markers */
    { "+ printf distrobox: Setting up sudo...\\n", KISTE_START_LINE_TRACE, NULL },
    { "+ printf Error: An error occurred\\n", KISTE_START_LINE_TRACE, NULL },
    { "++ printf container_setup_done\\n", KISTE_START_LINE_TRACE, NULL },
    /* Only at the start of a line, as distrobox enter reads them */
    { "  Error: indented", KISTE_START_LINE_OTHER, NULL },
    { "E: Unable to locate package foo", KISTE_START_LINE_OTHER, NULL },
    { "Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]", KISTE_START_LINE_OTHER, NULL },
    { "", KISTE_START_LINE_OTHER, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = NULL;
      KisteStartLineKind kind = (KisteStartLineKind) -1;

      kiste_start_monitor_parse_line (cases[i].line, &kind, &text);
      if (kind != cases[i].kind)
        g_error ("“%s”: kind %d, expected %d", cases[i].line, kind, cases[i].kind);
      g_assert_cmpstr (text, ==, cases[i].text);
    }

  /* Out values are optional */
  kiste_start_monitor_parse_line ("distrobox: Adding user...", NULL, NULL);
}

typedef struct
{
  guint      n_trace;
  guint      n_other;
  guint      n_warnings;
  GPtrArray *steps;
  GPtrArray *errors;
  int        done_at;
} LogSummary;

static void
summarize_fixture (const char *name,
                   LogSummary *summary)
{
  g_auto(GStrv) lines = load_fixture_lines (name);

  memset (summary, 0, sizeof *summary);
  summary->steps = g_ptr_array_new_with_free_func (g_free);
  summary->errors = g_ptr_array_new_with_free_func (g_free);
  summary->done_at = -1;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *text = NULL;
      KisteStartLineKind kind;

      kiste_start_monitor_parse_line (lines[i], &kind, &text);

      switch (kind)
        {
        case KISTE_START_LINE_TRACE:
          summary->n_trace++;
          break;
        case KISTE_START_LINE_OTHER:
          summary->n_other++;
          break;
        case KISTE_START_LINE_WARNING:
          summary->n_warnings++;
          break;
        case KISTE_START_LINE_STEP:
          g_ptr_array_add (summary->steps, g_steal_pointer (&text));
          break;
        case KISTE_START_LINE_ERROR:
          g_ptr_array_add (summary->errors, g_steal_pointer (&text));
          break;
        case KISTE_START_LINE_DONE:
          g_assert_cmpint (summary->done_at, ==, -1);
          summary->done_at = (int) i;
          break;
        default:
          g_assert_not_reached ();
        }

      g_free (text);
    }
}

static char *
join_ptr_array (GPtrArray *array)
{
  g_ptr_array_add (array, NULL);
  return g_strjoinv ("|", (char **) array->pdata);
}

/* A first start from a bare debootstrap image: apt output and all. */
static void
test_parse_fixture_debian (void)
{
  g_auto(GStrv) lines = load_fixture_lines ("logs-first-start-debian.txt");
  g_autofree char *steps = NULL;
  LogSummary summary;

  summarize_fixture ("logs-first-start-debian.txt", &summary);
  steps = join_ptr_array (summary.steps);

  g_assert_cmpstr (steps, ==,
                   "Installing basic packages…|Setting up terminal devices…|"
                   "Setting up read-only mounts…|Setting up read-write mounts…|"
                   "Connecting the host’s sockets…|Adding the host’s themes, icons and fonts…|"
                   "Setting up the shell profile…|Setting up sudo…|Setting up the user’s groups…|"
                   "Updating the user…|Updating the user…|Checking the user’s access…");
  g_assert_cmpuint (summary.errors->len, ==, 0);
  g_assert_cmpuint (summary.n_warnings, ==, 0);
  /* The capture ran on for a moment after it */
  g_assert_cmpint (summary.done_at, ==, (int) g_strv_length (lines) - 2);
  g_assert_cmpstr (lines[summary.done_at + 1], ==, "+ set +x");
  g_assert_cmpuint (summary.n_trace, >, 500);
  /* apt's output */
  g_assert_cmpuint (summary.n_other, >, 100);

  g_ptr_array_unref (summary.steps);
  g_ptr_array_unref (summary.errors);
}

/* A box made from an image that had its first start already */
static void
test_parse_fixture_ready (void)
{
  g_autofree char *steps = NULL;
  LogSummary summary;

  summarize_fixture ("logs-first-start-ready.txt", &summary);
  steps = join_ptr_array (summary.steps);

  g_assert_cmpstr (steps, ==,
                   "Installing basic packages…|Setting up terminal devices…|"
                   "Setting up read-only mounts…|Setting up read-write mounts…|"
                   "Connecting the host’s sockets…|Adding the host’s themes, icons and fonts…|"
                   "Setting up the shell profile…|Setting up sudo…|Setting up the user’s groups…");
  g_assert_cmpint (summary.done_at, >, 0);
  g_assert_cmpuint (summary.errors->len, ==, 0);

  g_ptr_array_unref (summary.steps);
  g_ptr_array_unref (summary.errors);
}

/* A box created with --init-hooks false */
static void
test_parse_fixture_error (void)
{
  g_autofree char *errors = NULL;
  LogSummary summary;

  summarize_fixture ("logs-first-start-error.txt", &summary);
  errors = join_ptr_array (summary.errors);

  g_assert_cmpstr (errors, ==, "Error: An error occurred");
  g_assert_cmpint (summary.done_at, ==, -1);
  g_assert_cmpstr (g_ptr_array_index (summary.steps, summary.steps->len - 1), ==,
                   "Running the init hooks…");

  g_ptr_array_unref (summary.steps);
  g_ptr_array_unref (summary.errors);
}

static void
test_step_fractions (void)
{
  static const char * const order[] = {
    "Executing pre-init hooks...",
    "Installing basic packages...",
    "Setting up devpts mounts...",
    "Setting up read-only mounts...",
    "Setting up read-write mounts...",
    "Setting up host's sockets integration...",
    "Setting up host's nvidia integration...",
    "Integrating host's themes, icons, fonts...",
    "Setting up distrobox profile...",
    "Setting up sudo...",
    "Setting up user groups...",
    "Setting up kerberos integration...",
    "Setting up user's group list...",
    "Adding user...",
    "Setting up user home...",
    "Ensuring user's access...",
    "Setting up skel...",
    "Executing init hooks...",
  };
  double last = 0.0;
  double last_init = 0.0;
  double init_setup;
  double init_firing;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      double f = kiste_start_monitor_step_fraction (order[i], FALSE);
      double fi = kiste_start_monitor_step_fraction (order[i], TRUE);

      if (!(f > last && f < 1.0))
        g_error ("%s: %f after %f", order[i], f, last);
      if (!(fi > last_init && fi < f))
        g_error ("%s with init: %f after %f", order[i], fi, last_init);
      last = f;
      last_init = fi;
    }

  /* The package phase gets most of the bar */
  g_assert_cmpfloat (kiste_start_monitor_step_fraction ("Setting up devpts mounts...", FALSE) -
                     kiste_start_monitor_step_fraction ("Installing basic packages...", FALSE), >, 0.5);

  init_setup = kiste_start_monitor_step_fraction ("Setting up init system...", TRUE);
  init_firing = kiste_start_monitor_step_fraction ("Firing up init system...", TRUE);
  g_assert_cmpfloat (init_setup, >, last_init);
  g_assert_cmpfloat (init_firing, >, init_setup);
  g_assert_cmpfloat (init_firing, <, 1.0);

  g_assert_cmpfloat (kiste_start_monitor_step_fraction ("Setting up existing user - GID...", FALSE), ==,
                     kiste_start_monitor_step_fraction ("Adding user...", FALSE));
  g_assert_cmpfloat (kiste_start_monitor_step_fraction ("Frobnicating...", FALSE), <, 0.0);
  g_assert_cmpfloat (kiste_start_monitor_step_fraction ("Installing basic packages", FALSE), <, 0.0);
}

static void
test_log_drivers (void)
{
  g_assert_true (kiste_start_monitor_log_driver_is_readable ("k8s-file"));
  g_assert_true (kiste_start_monitor_log_driver_is_readable ("json-file"));
  g_assert_true (kiste_start_monitor_log_driver_is_readable ("local"));
  g_assert_true (kiste_start_monitor_log_driver_is_readable (NULL));
  g_assert_false (kiste_start_monitor_log_driver_is_readable ("journald"));
  g_assert_false (kiste_start_monitor_log_driver_is_readable ("none"));
  g_assert_false (kiste_start_monitor_log_driver_is_readable ("passthrough"));
}

static void
test_parse_inspect (void)
{
  static const struct {
    const char *fixture;
    const char *status;
    const char *started_at;
    const char *driver;
  } cases[] = {
    { "logs-inspect-running.json", "running", "2026-12-03T06:47:35.906041964Z", "k8s-file" },
    { "logs-inspect-exited.json", "exited", "2026-12-03T06:59:24.128767239Z", "k8s-file" },
    { "inspect-docker.json", "running", "2024-01-01T09:00:05.5Z", "json-file" },
  };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = dup_fixture_path (cases[i].fixture);
      g_autofree char *json = NULL;
      g_autofree char *status = NULL;
      g_autofree char *started_at = NULL;
      g_autofree char *driver = NULL;

      g_file_get_contents (path, &json, NULL, &error);
      g_assert_no_error (error);

      g_assert_true (kiste_start_monitor_parse_inspect (json, &status, &started_at, &driver, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (status, ==, cases[i].status);
      g_assert_cmpstr (started_at, ==, cases[i].started_at);
      g_assert_cmpstr (driver, ==, cases[i].driver);
    }

  g_assert_false (kiste_start_monitor_parse_inspect ("[]", NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);
  g_assert_false (kiste_start_monitor_parse_inspect ("Error: no such container", NULL, NULL, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);

  {
    g_autofree char *status = NULL;
    g_autofree char *driver = NULL;

    g_assert_true (kiste_start_monitor_parse_inspect ("[{\"State\": {\"Status\": 3}}]", &status, NULL,
                                                      &driver, &error));
    g_assert_no_error (error);
    g_assert_null (status);
    g_assert_null (driver);
  }
}


/* The monitor against tests/fakes/ops-podman.sh */

typedef struct
{
  KisteRunner       *runner;
  KisteStartMonitor *monitor;
  char              *state_dir;
  GCancellable      *cancellable;
  GPtrArray         *steps;
  GArray            *fractions;
  GPtrArray         *warnings;
  GPtrArray         *lines;
  guint              cancel_after_lines;
  gboolean           finished;
  gboolean           ok;
  GError            *error;
  gint64             started_us;
  gint64             finished_us;
} Fixture;

static void
on_step (GObject    *object,
         GParamSpec *pspec,
         gpointer    user_data)
{
  Fixture *fx = user_data;

  g_ptr_array_add (fx->steps, g_strdup (kiste_start_monitor_get_step (KISTE_START_MONITOR (object))));
}

static void
on_fraction (GObject    *object,
             GParamSpec *pspec,
             gpointer    user_data)
{
  Fixture *fx = user_data;
  double fraction = kiste_start_monitor_get_fraction (KISTE_START_MONITOR (object));

  g_array_append_val (fx->fractions, fraction);
}

static void
on_warning (KisteStartMonitor *monitor,
            const char        *text,
            gpointer           user_data)
{
  Fixture *fx = user_data;

  g_ptr_array_add (fx->warnings, g_strdup (text));
}

static void
on_line (KisteStartMonitor *monitor,
         const char        *line,
         gpointer           user_data)
{
  Fixture *fx = user_data;

  g_ptr_array_add (fx->lines, g_strdup (line));

  if (fx->cancel_after_lines > 0 && fx->lines->len == fx->cancel_after_lines)
    g_cancellable_cancel (fx->cancellable);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *fake = NULL;
  const char *fakes = g_getenv ("KISTE_TEST_FAKES");

  g_assert_nonnull (fakes);
  fake = g_build_filename (fakes, "ops-podman.sh", NULL);

  fx->state_dir = g_dir_make_tmp ("kiste-test-start-XXXXXX", &error);
  g_assert_no_error (error);

  fx->runner = kiste_runner_new ();
  kiste_runner_set_in_flatpak (fx->runner, FALSE);
  kiste_runner_set_manager (fx->runner, "podman");
  kiste_runner_setenv (fx->runner, "KISTE_FAKE_STATE", fx->state_dir);

  fx->monitor = kiste_start_monitor_new (fx->runner, "fx-first", fake);
  g_assert_cmpuint (kiste_start_monitor_get_timeout (fx->monitor), ==, 10 * 60 * 1000);
  /* Short enough that a missed ending fails here, not in meson's timeout */
  kiste_start_monitor_set_timeout (fx->monitor, 20 * 1000);
  _kiste_start_monitor_set_watch_interval (fx->monitor, 100);

  fx->cancellable = g_cancellable_new ();
  fx->steps = g_ptr_array_new_with_free_func (g_free);
  fx->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  fx->warnings = g_ptr_array_new_with_free_func (g_free);
  fx->lines = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (fx->monitor, "notify::step", G_CALLBACK (on_step), fx);
  g_signal_connect (fx->monitor, "notify::fraction", G_CALLBACK (on_fraction), fx);
  g_signal_connect (fx->monitor, "warning", G_CALLBACK (on_warning), fx);
  g_signal_connect (fx->monitor, "line", G_CALLBACK (on_line), fx);
}

static char *
read_state (Fixture    *fx,
            const char *name)
{
  g_autofree char *path = g_build_filename (fx->state_dir, name, NULL);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;

  return contents;
}

static void
write_state (Fixture    *fx,
             const char *name,
             const char *contents)
{
  g_autofree char *path = g_build_filename (fx->state_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static gboolean
process_exists (pid_t pid)
{
  return kill (pid, 0) == 0 || errno != ESRCH;
}

/* The logs process must not outlive the monitor's run. */
static void
assert_logs_process_gone (Fixture *fx)
{
  g_autofree char *pid_text = read_state (fx, "logs.pid");
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  pid_t pid;

  if (pid_text == NULL)
    return;

  pid = (pid_t) g_ascii_strtoll (pid_text, NULL, 10);
  g_assert_cmpint (pid, >, 1);

  while (process_exists (pid) && g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }

  g_assert_false (process_exists (pid));
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  const char *names[] = { "status", "calls", "logs.pid" };
  gpointer weak_monitor = fx->monitor;
  gint64 deadline;

  assert_logs_process_gone (fx);

  g_object_add_weak_pointer (G_OBJECT (fx->monitor), &weak_monitor);
  g_clear_object (&fx->monitor);

  /* Finished commands still hold the monitor until their callbacks ran. */
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (weak_monitor != NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (weak_monitor);

  g_clear_object (&fx->runner);
  g_clear_object (&fx->cancellable);
  g_clear_pointer (&fx->steps, g_ptr_array_unref);
  g_clear_pointer (&fx->fractions, g_array_unref);
  g_clear_pointer (&fx->warnings, g_ptr_array_unref);
  g_clear_pointer (&fx->lines, g_ptr_array_unref);
  g_clear_error (&fx->error);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (fx->state_dir, names[i], NULL);

      g_unlink (path);
    }
  g_assert_cmpint (g_rmdir (fx->state_dir), ==, 0);
  g_clear_pointer (&fx->state_dir, g_free);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Fixture *fx = user_data;

  fx->ok = kiste_start_monitor_start_finish (KISTE_START_MONITOR (object), result, &fx->error);
  fx->finished = TRUE;
  fx->finished_us = g_get_monotonic_time ();
}

static void
run_monitor (Fixture    *fx,
             const char *scenario)
{
  kiste_runner_setenv (fx->runner, "KISTE_FAKE_SCENARIO", scenario);

  fx->started_us = g_get_monotonic_time ();
  kiste_start_monitor_start_async (fx->monitor, fx->cancellable, start_cb, fx);

  while (!fx->finished)
    g_main_context_iteration (NULL, TRUE);
}

static double
elapsed_seconds (Fixture *fx)
{
  return (fx->finished_us - fx->started_us) / (double) G_USEC_PER_SEC;
}

static char **
dup_calls (Fixture *fx)
{
  g_autofree char *calls = read_state (fx, "calls");

  g_assert_nonnull (calls);
  g_strchomp (calls);

  return g_strsplit (calls, "\n", -1);
}

static gboolean
calls_contain_prefix (char       **calls,
                      const char  *prefix)
{
  for (guint i = 0; calls[i] != NULL; i++)
    {
      if (g_str_has_prefix (calls[i], prefix))
        return TRUE;
    }

  return FALSE;
}

static void
test_monitor_progress (Fixture       *fx,
                       gconstpointer  data)
{
  g_auto(GStrv) fixture_lines = load_fixture_lines ("logs-first-start-debian.txt");
  g_auto(GStrv) calls = NULL;
  g_autofree char *steps = NULL;
  g_autoptr(GDateTime) since = NULL;
  g_autoptr(GDateTime) before = g_date_time_new_now_utc ();
  g_autoptr(GDateTime) after = NULL;
  g_auto(GStrv) logs_call = NULL;
  double last = -1.0;

  run_monitor (fx, "progress");
  after = g_date_time_new_now_utc ();

  g_assert_no_error (fx->error);
  g_assert_true (fx->ok);

  /* Every line up to container_setup_done went to the log view */
  g_assert_true (g_strv_contains ((const char * const *) fixture_lines, "container_setup_done"));
  g_assert_cmpuint (fx->lines->len, ==, g_strv_length (fixture_lines) - 1);
  for (guint i = 0; i < fx->lines->len; i++)
    g_assert_cmpstr (g_ptr_array_index (fx->lines, i), ==, fixture_lines[i]);
  g_assert_cmpstr (g_ptr_array_index (fx->lines, fx->lines->len - 1), ==, "container_setup_done");

  steps = join_ptr_array (fx->steps);
  g_assert_cmpstr (steps, ==,
                   "Starting…|Installing basic packages…|Setting up terminal devices…|"
                   "Setting up read-only mounts…|Setting up read-write mounts…|"
                   "Connecting the host’s sockets…|Adding the host’s themes, icons and fonts…|"
                   "Setting up the shell profile…|Setting up sudo…|Setting up the user’s groups…|"
                   "Updating the user…|Checking the user’s access…");

  g_assert_cmpuint (fx->fractions->len, >=, 10);
  for (guint i = 0; i < fx->fractions->len; i++)
    {
      double f = g_array_index (fx->fractions, double, i);

      g_assert_cmpfloat (f, >, last);
      last = f;
    }
  g_assert_cmpfloat (last, ==, 1.0);
  g_assert_cmpfloat (kiste_start_monitor_get_fraction (fx->monitor), ==, 1.0);

  /* The package phase moves the bar as apt prints, rather than sitting at
   * its start and jumping at its end */
  {
    double start = kiste_start_monitor_step_fraction ("Installing basic packages...", FALSE);
    double end = kiste_start_monitor_step_fraction ("Setting up devpts mounts...", FALSE);
    guint within = 0;
    double highest = 0;

    for (guint i = 0; i < fx->fractions->len; i++)
      {
        double f = g_array_index (fx->fractions, double, i);

        if (f > start && f < end)
          {
            within++;
            highest = MAX (highest, f);
          }
      }
    g_assert_cmpuint (within, >=, 50);
    g_assert_cmpfloat (highest, >, start + (end - start) / 2);
  }

  /* inspect, start, then logs since a moment before the start */
  calls = dup_calls (fx);
  g_assert_cmpstr (calls[0], ==, "container|inspect|fx-first");
  g_assert_cmpstr (calls[1], ==, "start|fx-first");
  logs_call = g_strsplit (calls[2], "|", -1);
  g_assert_cmpuint (g_strv_length (logs_call), ==, 5);
  g_assert_cmpstr (logs_call[0], ==, "logs");
  g_assert_cmpstr (logs_call[1], ==, "--follow");
  g_assert_cmpstr (logs_call[2], ==, "--since");
  g_assert_cmpstr (logs_call[4], ==, "fx-first");
  g_assert_true (g_regex_match_simple ("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}\\+00:00$",
                                       logs_call[3], 0, 0));
  since = g_date_time_new_from_iso8601 (logs_call[3], NULL);
  g_assert_nonnull (since);
  g_assert_cmpint (g_date_time_difference (since, before), >=, 0);
  g_assert_cmpint (g_date_time_difference (after, since), >=, 0);
}

static void
test_monitor_error_line (Fixture       *fx,
                         gconstpointer  data)
{
  run_monitor (fx, "error");

  g_assert_false (fx->ok);
  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (fx->error->message, "fx-first"));
  g_assert_nonnull (strstr (fx->error->message, "Error: An error occurred"));
  /* The line itself, not the box stopping afterwards */
  g_assert_null (strstr (fx->error->message, "stopped"));
  g_assert_cmpfloat (elapsed_seconds (fx), <, 5.0);
  g_assert_cmpstr (g_ptr_array_index (fx->steps, fx->steps->len - 1), ==, "Running the init hooks…");
  g_assert_cmpfloat (kiste_start_monitor_get_fraction (fx->monitor), <, 1.0);
}

static void
test_monitor_dies (Fixture       *fx,
                   gconstpointer  data)
{
  g_auto(GStrv) fixture_lines = load_fixture_lines ("logs-first-start-debian.txt");
  const char *last = fixture_lines[599];

  run_monitor (fx, "dies");

  g_assert_false (fx->ok);
  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (fx->error->message, "stopped during its first start"));
  /* The last lines of its log tell why */
  g_assert_nonnull (last);
  g_assert_nonnull (strstr (fx->error->message, last));
  g_assert_cmpuint (fx->lines->len, ==, 600);
  /* The end of the log is news enough: no grace period */
  g_assert_cmpfloat (elapsed_seconds (fx), <, 5.0);
}

static void
test_monitor_dies_quietly (Fixture       *fx,
                           gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  run_monitor (fx, "dies-quietly");

  g_assert_false (fx->ok);
  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (fx->error->message, "stopped during its first start"));
  g_assert_cmpfloat (elapsed_seconds (fx), <, 8.0);

  /* Found by asking for the state, while logs still ran */
  calls = dup_calls (fx);
  g_assert_true (calls_contain_prefix (calls, "inspect|--type|container|--format|{{.State.Status}}|fx-first"));
}

static void
test_monitor_timeout (Fixture       *fx,
                      gconstpointer  data)
{
  /* long enough for the fake's first lines to arrive on a slow machine */
  kiste_start_monitor_set_timeout (fx->monitor, 1000);
  run_monitor (fx, "hang");

  g_assert_false (fx->ok);
  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (fx->error->message, "did not finish its setup within 1 second."));
  /* with what it was doing when time ran out */
  g_assert_nonnull (strstr (fx->error->message, "Its last messages were:"));
  {
    g_auto(GStrv) fixture_lines = load_fixture_lines ("logs-first-start-debian.txt");

    g_assert_true (g_str_has_suffix (fx->error->message, fixture_lines[1]));
  }
  g_assert_cmpfloat (elapsed_seconds (fx), >=, 0.95);
  g_assert_cmpfloat (elapsed_seconds (fx), <, 5.0);
}

static void
test_monitor_cancel (Fixture       *fx,
                     gconstpointer  data)
{
  g_autofree char *status = NULL;
  g_auto(GStrv) calls = NULL;

  fx->cancel_after_lines = 1;
  run_monitor (fx, "hang");

  g_assert_false (fx->ok);
  g_assert_error (fx->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpfloat (elapsed_seconds (fx), <, 5.0);

  /* The box itself was left alone */
  status = read_state (fx, "status");
  g_assert_cmpstr (status, ==, "running\n");
  calls = dup_calls (fx);
  g_assert_false (calls_contain_prefix (calls, "stop"));
  g_assert_false (calls_contain_prefix (calls, "kill"));
}

static void
test_monitor_cancelled_before (Fixture       *fx,
                               gconstpointer  data)
{
  g_cancellable_cancel (fx->cancellable);
  run_monitor (fx, "progress");

  g_assert_error (fx->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (read_state (fx, "calls"));
}

static void
test_monitor_warning (Fixture       *fx,
                      gconstpointer  data)
{
  run_monitor (fx, "warning");

  g_assert_no_error (fx->error);
  g_assert_cmpuint (fx->warnings->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fx->warnings, 0), ==,
                   "Warning: Cannot bind mount /var/home to /run/host/home");
  g_assert_cmpuint (fx->lines->len, ==, 5);
}

static void
test_monitor_start_fails (Fixture       *fx,
                          gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  run_monitor (fx, "start-fails");

  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (fx->error->message, "unable to start container process"));
  calls = dup_calls (fx);
  g_assert_false (calls_contain_prefix (calls, "logs"));
}

static void
test_monitor_no_such_box (Fixture       *fx,
                          gconstpointer  data)
{
  kiste_runner_setenv (fx->runner, "KISTE_FAKE_BOX", "another-box");
  run_monitor (fx, "progress");

  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (fx->error->message, "no such container"));
}

/* Already running: follow its log since it started; it finished long ago,
 * so the monitor finishes at once, without a start. */
static void
test_monitor_running (Fixture       *fx,
                      gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  write_state (fx, "status", "running\n");
  run_monitor (fx, "progress");

  g_assert_no_error (fx->error);
  g_assert_true (fx->ok);
  calls = dup_calls (fx);
  g_assert_cmpstr (calls[0], ==, "container|inspect|fx-first");
  g_assert_cmpstr (calls[1], ==, "logs|--follow|--since|2026-12-03T06:47:35.906041964Z|fx-first");
  g_assert_false (calls_contain_prefix (calls, "start"));
  g_assert_cmpstr (g_ptr_array_index (fx->steps, 1), ==, "Waiting for the box’s setup…");
}

static void
test_monitor_journald (Fixture       *fx,
                       gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  kiste_runner_setenv (fx->runner, "KISTE_FAKE_LOG_DRIVER", "journald");
  run_monitor (fx, "progress");

  /* Refused before anything started, saying what to do */
  g_assert_error (fx->error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_nonnull (strstr (fx->error->message, "journald"));
  g_assert_nonnull (strstr (fx->error->message, "k8s-file"));
  calls = dup_calls (fx);
  g_assert_cmpuint (g_strv_length (calls), ==, 1);
}

static void
test_monitor_journald_blind (Fixture       *fx,
                             gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  kiste_runner_setenv (fx->runner, "KISTE_FAKE_LOG_DRIVER", "journald");
  kiste_start_monitor_set_blind_start (fx->monitor, TRUE);
  run_monitor (fx, "progress");

  g_assert_no_error (fx->error);
  g_assert_true (fx->ok);
  g_assert_cmpuint (fx->warnings->len, ==, 1);
  calls = dup_calls (fx);
  g_assert_true (calls_contain_prefix (calls, "start|fx-first"));
  g_assert_false (calls_contain_prefix (calls, "logs"));
}

static void
test_monitor_journald_running (Fixture       *fx,
                               gconstpointer  data)
{
  g_auto(GStrv) calls = NULL;

  write_state (fx, "status", "running\n");
  kiste_runner_setenv (fx->runner, "KISTE_FAKE_LOG_DRIVER", "journald");
  run_monitor (fx, "progress");

  /* Nothing to wait for, as with distrobox enter */
  g_assert_no_error (fx->error);
  calls = dup_calls (fx);
  g_assert_cmpuint (g_strv_length (calls), ==, 1);
}

static void
busy_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (kiste_start_monitor_start_finish (KISTE_START_MONITOR (object), result, error));
}

static void
test_monitor_busy (Fixture       *fx,
                   gconstpointer  data)
{
  GError *busy_error = NULL;

  kiste_runner_setenv (fx->runner, "KISTE_FAKE_SCENARIO", "warning");
  fx->started_us = g_get_monotonic_time ();
  kiste_start_monitor_start_async (fx->monitor, NULL, start_cb, fx);
  kiste_start_monitor_start_async (fx->monitor, NULL, busy_cb, &busy_error);

  while (!fx->finished || busy_error == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (busy_error, KISTE_ERROR, KISTE_ERROR_BUSY);
  g_clear_error (&busy_error);
  g_assert_no_error (fx->error);

  /* Idle again: a second start works (the box now runs) */
  fx->finished = FALSE;
  run_monitor (fx, "warning");
  g_assert_no_error (fx->error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/start-monitor/parse/line", test_parse_line);
  g_test_add_func ("/start-monitor/parse/fixture-debian", test_parse_fixture_debian);
  g_test_add_func ("/start-monitor/parse/fixture-ready", test_parse_fixture_ready);
  g_test_add_func ("/start-monitor/parse/fixture-error", test_parse_fixture_error);
  g_test_add_func ("/start-monitor/parse/fractions", test_step_fractions);
  g_test_add_func ("/start-monitor/parse/log-drivers", test_log_drivers);
  g_test_add_func ("/start-monitor/parse/inspect", test_parse_inspect);

#define ADD(path, func) \
  g_test_add ("/start-monitor/run/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("progress", test_monitor_progress);
  ADD ("error-line", test_monitor_error_line);
  ADD ("dies", test_monitor_dies);
  ADD ("dies-quietly", test_monitor_dies_quietly);
  ADD ("timeout", test_monitor_timeout);
  ADD ("cancel", test_monitor_cancel);
  ADD ("cancelled-before", test_monitor_cancelled_before);
  ADD ("warning", test_monitor_warning);
  ADD ("start-fails", test_monitor_start_fails);
  ADD ("no-such-box", test_monitor_no_such_box);
  ADD ("running", test_monitor_running);
  ADD ("journald", test_monitor_journald);
  ADD ("journald-blind", test_monitor_journald_blind);
  ADD ("journald-running", test_monitor_journald_running);
  ADD ("busy", test_monitor_busy);

#undef ADD

  return g_test_run ();
}
