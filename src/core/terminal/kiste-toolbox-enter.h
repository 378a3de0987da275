/* kiste-toolbox-enter.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "kiste-box.h"

G_BEGIN_DECLS

/* Entering a toolbox without toolbox in between.
 *
 * For a running toolbox that is understood, the argv `toolbox enter` and
 * `toolbox run` (0.0.99) end up running is built here directly:
 * `podman --log-level error exec --detach-keys "" --env=… --interactive
 * --preserve-fds 0 [--tty] --user USER --workdir DIR NAME capsh --caps= --
 * …`. It must stay equal to what `toolbox --log-level debug enter` runs for
 * the same box and environment (the tests compare them on captured
 * calls), with one variable more: the terminal's id, so that a closed
 * tab's shell can be ended. Anything not understood falls back to
 * `toolbox enter`: kiste_toolbox_check_direct() says why. */

/* NULL when box can be entered directly, else a short reason for logs (not
 * translated). environ is the environment toolbox would run with. */
const char  *kiste_toolbox_check_direct (KisteBox            *box,
                                         const char          *manager,
                                         const char * const  *environ);

/* The folder the shell starts in, as Toolbx picks it: cwd where the box
 * has that folder (the home and what Toolbx mounts from the host, and the
 * folders every image has), else the box home; the home for NULL */
char        *kiste_toolbox_dup_workdir  (KisteBox            *box,
                                         const char          *cwd);

/* The direct exec argv, in workdir (kiste_toolbox_dup_workdir()). command
 * NULL means the login shell ($SHELL -l, as `toolbox enter`), else the
 * command as `toolbox run` runs it; tty FALSE runs it without a terminal
 * (an app started from the menu). KISTE_TERMINAL_ID_VARIABLE goes along
 * when environ has it. Check with kiste_toolbox_check_direct() first. */
char       **kiste_toolbox_direct_argv  (KisteBox            *box,
                                         const char          *manager,
                                         const char * const  *environ,
                                         const char          *workdir,
                                         const char * const  *command,
                                         gboolean             tty);

G_END_DECLS
