/* fuzz-terminal-text.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a box prints for a terminal, colours and progress lines included:
 * its log and task output without escape sequences, and the end of a
 * command's stderr quoted in an error message. */

#include "config.h"

#include <string.h>

#include "kiste-fuzz.h"
#include "kiste-runner-private.h"
#include "kiste-runner.h"

/* As the runner quotes stderr: at most 5 lines, about 1000 characters */
#define TAIL_MAX_LINES 5
#define TAIL_MAX_CHARS 1000

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *stripped = NULL;
  g_autofree char *tail = NULL;
  g_auto(GStrv) lines = NULL;

  kiste_fuzz_init ();

  /* text for a label or a text view, with no escape left */
  stripped = kiste_strip_terminal_escapes (text);
  g_assert_true (g_utf8_validate (stripped, -1, NULL));
  g_assert_null (strchr (stripped, '\033'));
  if (strchr (text, '\033') == NULL && g_utf8_validate (text, -1, NULL))
    g_assert_cmpstr (stripped, ==, text);

  lines = g_strsplit (text, "\n", -1);
  tail = _kiste_runner_format_stderr_tail ((const char * const *) lines);
  if (tail != NULL)
    {
      guint n_lines = 1;

      g_assert_true (g_utf8_validate (tail, -1, NULL));
      g_assert_cmpstr (tail, !=, "");
      g_assert_null (strchr (tail, '\033'));
      g_assert_null (strchr (tail, '\r'));
      g_assert_cmpint (g_utf8_strlen (tail, -1), <=, TAIL_MAX_CHARS);
      for (const char *p = tail; (p = strchr (p, '\n')) != NULL; p++)
        n_lines++;
      g_assert_cmpuint (n_lines, <=, TAIL_MAX_LINES);
    }

  return 0;
}
