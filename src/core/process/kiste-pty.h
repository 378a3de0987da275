/* kiste-pty.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-runner.h"

G_BEGIN_DECLS

/* Runs a command on a terminal: the core's side of a terminal tab. The
 * caller owns the pseudo-terminal (VTE creates it); nothing here needs GTK.
 *
 * The child gets the pty's other end as stdin, stdout and stderr, a
 * session of its own and, natively, the pty as its controlling terminal.
 * In the Flatpak sandbox the host side (flatpak-spawn --host) claims the
 * terminal itself, so the sandboxed child must not (VTE_PTY_NO_CTTY). */

/* Opens the other end of the pseudo-terminal whose master is master_fd,
 * close-on-exec. -1 with error when it cannot. */
int          kiste_pty_open_peer (int                   master_fd,
                                  GError              **error);

/* The runner's environment with extra_env ("KEY=VALUE") on top: what the
 * terminal's process gets natively. */
char       **kiste_pty_dup_environ (KisteRunner        *runner,
                                    const char * const *extra_env);

/* Spawns argv through runner (its environment, the sandbox wrapping) on
 * the terminal of master_fd, in cwd (NULL: the runner's). extra_env
 * ("KEY=VALUE", may be NULL) goes on top of the runner's environment, and
 * across the sandbox (TERM, COLORTERM, VTE_VERSION). The program is looked
 * up in that environment's PATH. */
GSubprocess *kiste_pty_spawn     (KisteRunner          *runner,
                                  const char * const   *argv,
                                  const char           *cwd,
                                  int                   master_fd,
                                  const char * const   *extra_env,
                                  GError              **error);

/* The name of a program running in the foreground of a terminal whose
 * processes carry terminal_id (in KISTE_TERMINAL_ID), looked up in this
 * system's /proc: a shell in a box that shares our process namespace is
 * there too. Shells and the tools between terminal and shell (podman,
 * su) do not count. NULL when there is none or nothing can be seen. */
char        *kiste_pty_dup_foreground_program (const char *terminal_id);

G_END_DECLS
