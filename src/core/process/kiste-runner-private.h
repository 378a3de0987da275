/* kiste-runner-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-runner.h"

G_BEGIN_DECLS

/* The part of stderr quoted in error messages: the last non-empty lines
 * (at most 5, about 1000 characters), without colour codes or the
 * overwritten parts of "\r" progress lines. NULL when nothing is left. */
char *_kiste_runner_format_stderr_tail (const char * const *lines);

/* How long a timed-out or cancelled command gets to exit after the polite
 * signal before it is killed. */
void  _kiste_runner_set_kill_grace     (KisteRunner        *self,
                                        guint               grace_ms);

/* The most a command run to the end may print, stdout and stderr
 * together; more stops it with KISTE_ERROR_BAD_OUTPUT. 0 restores
 * KISTE_RUNNER_OUTPUT_LIMIT. */
void  _kiste_runner_set_output_limit   (KisteRunner        *self,
                                        gsize               limit);

/* Program used in place of flatpak-spawn, so tests can run the sandbox
 * path against a fake. NULL restores the default. */
void  _kiste_runner_set_flatpak_spawn  (KisteRunner        *self,
                                        const char         *program);

G_END_DECLS
