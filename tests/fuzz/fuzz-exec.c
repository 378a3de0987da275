/* fuzz-exec.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's app command lines: every line an Exec= value, turned into the
 * argv that launches the app in its box; and the whole input as what
 * `command -v` printed inside the box. */

#include "config.h"

#include <string.h>

#include "kiste-apps.h"
#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

static void
read_exec (const char *exec)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = kiste_apps_dup_exec_argv (exec, &error);
  g_auto(GStrv) launch = NULL;
  /* what the app's desktop file gives is text */
  gboolean text = g_utf8_validate (exec, -1, NULL);
  guint n;

  if (argv == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      if (text)
        g_assert_true (g_utf8_validate (error->message, -1, NULL));
      return;
    }
  g_assert_no_error (error);

  /* a program to run */
  g_assert_nonnull (argv[0]);
  g_assert_cmpstr (argv[0], !=, "");
  n = g_strv_length (argv);
  for (guint i = 0; i < n; i++)
    {
      if (text)
        g_assert_true (g_utf8_validate (argv[i], -1, NULL));
    }

  /* run in its box as it is */
  launch = kiste_commands_launch_app_argv ("fx-apps", (const char * const *) argv);
  g_assert_nonnull (launch);
  g_assert_cmpuint (g_strv_length (launch), >=, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (launch[g_strv_length (launch) - n + i], ==, argv[i]);
  g_assert_cmpstr (launch[g_strv_length (launch) - n - 1], ==, "--");
}

static void
read_resolved_program (const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = kiste_apps_parse_resolved_program (output, "example-editor", &error);

  if (path == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
      return;
    }

  g_assert_no_error (error);
  g_assert_true (g_path_is_absolute (path));
  g_assert_true (g_utf8_validate (path, -1, NULL));
  /* the first line, without the blanks around it */
  g_assert_null (strchr (path, '\n'));
  g_assert_false (g_ascii_isspace (path[strlen (path) - 1]));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) lines = NULL;

  kiste_fuzz_init ();

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    read_exec (lines[i]);

  read_resolved_program (text);

  return 0;
}
