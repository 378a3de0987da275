/* kiste-enter.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "kiste-box.h"

G_BEGIN_DECLS

/* Entering a box without distrobox's script in between.
 *
 * For a running box whose labels and details are understood, the argv
 * `distrobox enter` (1.x) would end up exec'ing is built here directly:
 * `MANAGER exec --interactive --detach-keys= --user=… --tty --workdir=…
 * --env=… NAME COMMAND…`. It must stay equal to what
 * `distrobox enter --dry-run` prints for the same box and environment
 * (the tests compare them on captured output). Anything not understood
 * falls back to `distrobox enter`: kiste_enter_check_direct() says why. */

/* NULL when box can be entered directly, else a short reason for logs (not
 * translated). environ is the environment distrobox would run with. */
const char  *kiste_enter_check_direct    (KisteBox            *box,
                                          const char          *manager,
                                          guint                distrobox_major,
                                          const char * const  *environ);

/* Whether a shell opened with cwd keeps it as its working directory: cwd
 * is an existing absolute folder and, for boxes with an unshared home, it
 * lies outside the host home or under one of the box's own mounts. */
gboolean     kiste_enter_keeps_workdir   (KisteBox            *box,
                                          const char          *cwd,
                                          const char          *host_home);

/* The folder the shell starts in inside the box, as distrobox picks it:
 * the box home when cwd is NULL, cwd when it contains the box home,
 * otherwise the host folder through /run/host. */
char        *kiste_enter_dup_workdir     (const char          *cwd,
                                          const char          *box_home);

/* PATH as distrobox 1.x gives it to the box: the host PATH, then the
 * box's own PATH (box_path, from its configuration) and the standard
 * program folders the host PATH lacks, /usr/local before /usr. */
char        *kiste_enter_dup_box_path    (const char          *host_path,
                                          const char          *box_path);

/* The direct exec argv. cwd NULL means the box home (--no-workdir);
 * command NULL means the user's login shell; enter_path is the absolute
 * path of distrobox-enter on the host (distrobox-export writes it into
 * exported launchers); tty FALSE is distrobox enter without a terminal
 * (an app started from the menu). Check with kiste_enter_check_direct()
 * first. */
char       **kiste_enter_direct_argv     (KisteBox            *box,
                                          const char          *manager,
                                          const char          *enter_path,
                                          const char * const  *environ,
                                          const char          *cwd,
                                          const char * const  *command,
                                          gboolean             tty);

/* The variable a terminal's processes carry into the box, so that they
 * can be found again: podman keeps an exec session running when its
 * client goes (closing the terminal, SIGHUP, SIGTERM), so a closed tab
 * must end its shell in the box itself. */
#define KISTE_TERMINAL_ID_VARIABLE "KISTE_TERMINAL_ID"

/* A new terminal id (a random UUID) */
char        *kiste_enter_new_terminal_id (void);
/* TRUE for what kiste_enter_new_terminal_id() makes */
gboolean     kiste_enter_is_terminal_id  (const char          *id);

/* `MANAGER exec --user root NAME sh -c SCRIPT sh KISTE_TERMINAL_ID=ID`:
 * hangs up on every process in the box (or seen from it) whose
 * environment holds the terminal id. NULL for an invalid id. */
char       **kiste_enter_end_shell_argv  (const char          *manager,
                                          const char          *name,
                                          const char          *terminal_id);

G_END_DECLS
