/* kiste-error.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KISTE_ERROR (kiste_error_quark ())

typedef enum
{
  KISTE_ERROR_TOOL_MISSING,   /* podman, docker or distrobox is not installed */
  KISTE_ERROR_COMMAND_FAILED, /* a command exited with a non-zero status */
  KISTE_ERROR_INVALID_INPUT,  /* validation refused a value; nothing was run */
  KISTE_ERROR_NOT_FOUND,      /* the box, image or file does not exist */
  KISTE_ERROR_BUSY,           /* another operation on the same box is running */
  KISTE_ERROR_TIMED_OUT,      /* a command did not finish in time */
  KISTE_ERROR_BAD_OUTPUT,     /* a command printed something we cannot read */
  KISTE_ERROR_UNSAFE,         /* it would let a box run something on this computer; nothing ran */
} KisteError;

GQuark   kiste_error_quark       (void);

/* Sets KISTE_ERROR_INVALID_INPUT with a message for people (printf-like,
 * nothing else is added) and returns FALSE, for checks to return it */
gboolean kiste_set_invalid_input (GError     **error,
                                  const char  *format,
                                  ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
