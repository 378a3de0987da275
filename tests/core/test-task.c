/* test-task.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-task.h"

static void
count_cb (gpointer  instance,
          guint    *count)
{
  (*count)++;
}

static void
notify_count_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *count)
{
  (*count)++;
}

static void
line_cb (KisteTask  *task,
         const char *line,
         GString    *lines)
{
  g_string_append_printf (lines, "%s|", line);
}

static void
test_task_success (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Stopping", "box1", NULL);
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(GDateTime) before = g_date_time_new_now_utc ();
  guint finished = 0;
  guint step_notified = 0;
  guint fraction_notified = 0;

  g_signal_connect (task, "finished", G_CALLBACK (count_cb), &finished);
  g_signal_connect (task, "notify::step", G_CALLBACK (notify_count_cb), &step_notified);
  g_signal_connect (task, "notify::fraction", G_CALLBACK (notify_count_cb), &fraction_notified);
  g_signal_connect (task, "line", G_CALLBACK (line_cb), lines);
  g_assert_nonnull (kiste_task_get_started (task));
  g_assert_cmpint (g_date_time_difference (kiste_task_get_started (task), before), <=, G_USEC_PER_SEC);

  g_assert_cmpstr (kiste_task_get_title (task), ==, "Stopping");
  g_assert_cmpstr (kiste_task_get_box_name (task), ==, "box1");
  g_assert_true (kiste_task_get_running (task));
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, -1);

  kiste_task_set_step (task, "Setting up sudo...");
  kiste_task_set_step (task, "Setting up sudo...");
  kiste_task_set_fraction (task, 0.5);
  g_assert_cmpstr (kiste_task_get_step (task), ==, "Setting up sudo...");
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, 0.5);
  /* setting the same step again says nothing */
  g_assert_cmpuint (step_notified, ==, 1);
  g_assert_cmpuint (fraction_notified, ==, 1);
  kiste_task_append_line (task, "one");
  kiste_task_append_line (task, "two");
  g_assert_cmpstr (kiste_task_get_output (task), ==, "one\ntwo\n");
  g_assert_cmpstr (lines->str, ==, "one|two|");

  kiste_task_set_messages (task, "“box1” stopped", "Could not stop “box1”");
  g_assert_cmpstr (kiste_task_get_done_message (task), ==, "“box1” stopped");
  g_assert_cmpstr (kiste_task_get_failed_message (task), ==, "Could not stop “box1”");

  kiste_task_finish (task, NULL);
  kiste_task_finish (task, NULL);
  g_assert_cmpuint (finished, ==, 1);
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_SUCCEEDED);
  g_assert_false (kiste_task_get_running (task));
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, 1.0);
  g_assert_null (kiste_task_get_error (task));
}

static void
test_task_failure_and_cancel (void)
{
  g_autoptr(KisteTask) failed = kiste_task_new ("Upgrading", "box1", NULL);
  g_autoptr(KisteTask) cancelled = kiste_task_new ("Upgrading", "box2", NULL);
  g_autoptr(GError) error = g_error_new_literal (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED, "boom");
  g_autoptr(GError) cancel = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");

  kiste_task_set_cancellable_by_user (cancelled, TRUE);
  g_assert_true (kiste_task_get_cancellable_by_user (cancelled));
  kiste_task_cancel (cancelled);
  g_assert_true (g_cancellable_is_cancelled (kiste_task_get_cancellable (cancelled)));
  kiste_task_finish (cancelled, cancel);
  g_assert_cmpint (kiste_task_get_state (cancelled), ==, KISTE_TASK_CANCELLED);
  g_assert_false (kiste_task_get_cancellable_by_user (cancelled));

  kiste_task_finish (failed, error);
  g_assert_cmpint (kiste_task_get_state (failed), ==, KISTE_TASK_FAILED);
  g_assert_error (kiste_task_get_error (failed), KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  /* A finished task cannot be cancelled any more */
  kiste_task_cancel (failed);
  g_assert_false (g_cancellable_is_cancelled (kiste_task_get_cancellable (failed)));
}

static void
test_task_output_bounded (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Upgrading", "box1", NULL);
  g_autofree char *line = g_strnfill (999, 'x');
  const char *output;

  for (guint i = 0; i < 1000; i++)
    kiste_task_append_line (task, line);
  kiste_task_append_line (task, "last line");

  output = kiste_task_get_output (task);
  g_assert_cmpuint (strlen (output), <=, 256 * 1024);
  g_assert_true (g_str_has_suffix (output, "\nlast line\n"));
  /* Cut at a line boundary */
  g_assert_cmpint (output[0], ==, 'x');
  g_assert_cmpint (strchr (output, '\n') - output, ==, 999);
}

static void
collect_line_cb (KisteTask  *task,
                 const char *line,
                 GPtrArray  *lines)
{
  g_ptr_array_add (lines, g_strdup (line));
}

/* Output as people read it: no escape codes, a redrawn line's last state */
static void
test_task_output_clean (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Creating", "fedora", NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (task, "line", G_CALLBACK (collect_line_cb), lines);
  kiste_task_append_line (task, "\033[1m\033[32mCreating 'fedora'\033[0m\t [ OK ]");
  kiste_task_append_line (task, "Copying blob 10%\rCopying blob 50%\rCopying blob done\r");
  kiste_task_append_line (task, "\033]0;title\007plain");

  g_assert_cmpstr (kiste_task_get_output (task), ==,
                   "Creating 'fedora'\t [ OK ]\nCopying blob done\nplain\n");
  g_assert_cmpuint (lines->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "Creating 'fedora'\t [ OK ]");
  g_assert_cmpstr (g_ptr_array_index (lines, 1), ==, "Copying blob done");
}

static void
test_task_bytes (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Saving to a file", "arch", NULL);
  g_autofree char *minute = kiste_task_format_time_left (30);
  g_autofree char *minutes = kiste_task_format_time_left (150);
  g_autofree char *hours = kiste_task_format_time_left (2 * 3600 + 60);

  g_assert_cmpstr (minute, ==, "less than a minute left");
  g_assert_cmpstr (minutes, ==, "about 3 minutes left");
  g_assert_cmpstr (hours, ==, "about 2 hours left");

  kiste_task_set_bytes (task, "Writing the file", 0, 4 * 1000 * 1000);
  g_assert_cmpstr (kiste_task_get_step (task), ==, "Writing the file: 0 bytes of 4.0\302\240MB");
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, 0);
  /* no pace yet after a moment: no time left */
  kiste_task_set_bytes (task, "Writing the file", 1000 * 1000, 4 * 1000 * 1000);
  g_assert_cmpstr (kiste_task_get_step (task), ==, "Writing the file: 1.0\302\240MB of 4.0\302\240MB");
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, 0.25);
  /* a quarter in two seconds: about six more */
  g_usleep (2100 * 1000);
  kiste_task_set_bytes (task, "Writing the file", 1000 * 1000, 4 * 1000 * 1000);
  g_assert_cmpstr (kiste_task_get_step (task), ==,
                   "Writing the file: 1.0\302\240MB of 4.0\302\240MB, less than a minute left");
  /* another step starts its own pace */
  kiste_task_set_bytes (task, "Checking the file", 1000 * 1000, 4 * 1000 * 1000);
  g_assert_cmpstr (kiste_task_get_step (task), ==, "Checking the file: 1.0\302\240MB of 4.0\302\240MB");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kiste/task/success", test_task_success);
  g_test_add_func ("/kiste/task/failure-and-cancel", test_task_failure_and_cancel);
  g_test_add_func ("/kiste/task/output-bounded", test_task_output_bounded);
  g_test_add_func ("/kiste/task/output-clean", test_task_output_clean);
  g_test_add_func ("/kiste/task/bytes", test_task_bytes);

  return g_test_run ();
}
