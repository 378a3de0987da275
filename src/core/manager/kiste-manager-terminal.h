/* kiste-manager-terminal.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-apps.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* The manager's terminals (kiste-manager-terminal.c, kiste-manager-host.c):
 * shells in boxes and
 * on the host, package files, apps run as their launchers run them, and
 * the host's own terminal apps. Ending a shell, launching an app and
 * opening an external terminal finish with
 * kiste_manager_operation_finish(). */

/* argv to open a shell (command NULL) or run command in the box */
char              **kiste_manager_dup_enter_argv        (KisteManager         *self,
                                                         KisteBox             *box,
                                                         const char           *cwd,
                                                         const char * const   *command);

/* Terminals (kiste-manager-terminal.c). The argv of a shell in box: the
 * direct `podman exec` distrobox enter would run when the box is running
 * and understood (*direct set TRUE), else `distrobox enter`. environ is the
 * environment the terminal's process gets (kiste_pty_dup_environ()). */
char              **kiste_manager_dup_shell_argv        (KisteManager         *self,
                                                         KisteBox             *box,
                                                         const char           *cwd,
                                                         const char * const   *environ,
                                                         gboolean             *direct);
/* Opens a login shell in the box on the terminal whose master is pty_fd
 * (dup'ed: the caller keeps its own), starting the box first when it is
 * stopped (that start is a task of the box, with its progress). cwd is the
 * wanted working directory or NULL for the box home; extra_env the
 * terminal's variables (TERM, COLORTERM, VTE_VERSION). Finishes with the
 * running process, its argv for people in *display (may be NULL). */
void                kiste_manager_open_shell_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *cwd,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GSubprocess        *kiste_manager_open_shell_finish     (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         char                **display,
                                                         GError              **error);
/* Installs the package file at path (on the host, or in the Documents
 * portal: resolved to its host path first) in the box, on the terminal of
 * pty_fd, as open_shell does a shell: `sudo apt-get install -y -- PATH`
 * and the like (kiste-package-file.h), where sudo can ask for a password.
 * KISTE_ERROR_INVALID_INPUT before anything runs when the file does not
 * fit the box. Finishes with kiste_manager_open_shell_finish(). */
void                kiste_manager_install_package_async (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *path,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* Ends what a closed terminal left in the box: every process carrying
 * its KISTE_TERMINAL_ID (podman keeps exec sessions running after their
 * client is gone). A stopped or missing box has nothing left: success. */
void                kiste_manager_end_shell_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *terminal_id,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* External terminals (kiste-external-terminal.h): which ones the host
 * has, as a GStrv of ids in the order they are offered; *unusable (may be
 * NULL) gets the ids of Flatpak terminals installed that cannot open a box */
void                kiste_manager_detect_terminals_async (KisteManager        *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
char              **kiste_manager_detect_terminals_finish (KisteManager       *self,
                                                           GAsyncResult       *result,
                                                           char             ***unusable,
                                                           GError            **error);
/* Opens box_name in a new window of the terminal app terminal_id, through
 * `distrobox enter` (the terminal is not ours to watch): only for a box
 * whose details are read and safe to enter (kiste_box_check_enter_safe());
 * a toolbox through `toolbox enter`, which evaluates none of them */
void                kiste_manager_open_external_terminal_async  (KisteManager         *self,
                                                                 const char           *terminal_id,
                                                                 const char           *box_name,
                                                                 const char           *cwd,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
/* A shell on the host in cwd (the host home when cwd does not exist there)
 * on the terminal of pty_fd. *used_cwd gets the folder it starts in. */
GSubprocess        *kiste_manager_spawn_host_shell      (KisteManager         *self,
                                                         const char           *cwd,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         char                **used_cwd,
                                                         GError              **error);

/* An app of the box run as its exported launcher runs it, COMMAND its
 * Exec= without field codes. Launch starts it (a stopped box first) and
 * leaves it running: through the direct exec where the box is understood,
 * else `distrobox enter --name BOX -- COMMAND` once the box is known to be
 * safe to enter (kiste_box_check_enter_safe()). The command is that
 * distrobox enter, for people to copy; refused for a box that is not safe
 * to enter or whose details were not read. */
char               *kiste_manager_dup_launch_command    (KisteManager         *self,
                                                         const char           *box_name,
                                                         KisteDesktopApp      *app,
                                                         GError              **error);
void                kiste_manager_launch_app_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         KisteDesktopApp      *app,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

G_END_DECLS
