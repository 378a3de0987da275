/* kiste-error.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-error.h"

G_DEFINE_QUARK (kiste-error-quark, kiste_error)

gboolean
kiste_set_invalid_input (GError     **error,
                         const char  *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT, message);

  return FALSE;
}
