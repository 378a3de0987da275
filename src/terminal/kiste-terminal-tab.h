/* kiste-terminal-tab.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"
#include "kiste-terminal.h"

G_BEGIN_DECLS

typedef enum
{
  KISTE_TERMINAL_TAB_STARTING,  /* the box starts or the shell is spawned */
  KISTE_TERMINAL_TAB_RUNNING,
  KISTE_TERMINAL_TAB_EXITED,    /* the shell ended: a banner offers Restart */
  KISTE_TERMINAL_TAB_FAILED,    /* it could not start: the error and the log */
} KisteTerminalTabState;

typedef enum
{
  KISTE_TERMINAL_TAB_BOX,       /* a shell in a box */
  KISTE_TERMINAL_TAB_HOST,      /* a shell on this computer */
} KisteTerminalTabKind;

#define KISTE_TYPE_TERMINAL_TAB (kiste_terminal_tab_get_type ())

G_DECLARE_FINAL_TYPE (KisteTerminalTab, kiste_terminal_tab, KISTE, TERMINAL_TAB, GtkWidget)

/* A tab with a shell in box_name (or on the host), starting in cwd (NULL:
 * the home folder). Nothing runs until kiste_terminal_tab_start().
 * Properties (read-only unless said): "box-name", "state", "title",
 * "icon" (GIcon), "needs-attention" (read-write: the bell sets it),
 * "exit-status". Widget actions: tab.restart, tab.find, tab.find-next,
 * tab.find-previous. */
KisteTerminalTab     *kiste_terminal_tab_new                 (KisteManager         *manager,
                                                              KisteTerminalTabKind  kind,
                                                              const char           *box_name,
                                                              const char           *cwd);
/* Installs the package file at path (on the host) in the box instead of
 * opening a shell; call before kiste_terminal_tab_start() */
void                  kiste_terminal_tab_set_package_path    (KisteTerminalTab     *self,
                                                              const char           *path);
/* Starts the box when needed, then the shell; again after it ended */
void                  kiste_terminal_tab_start               (KisteTerminalTab     *self);
/* Ends the shell for good (the tab closes): hangs up on it here and ends
 * what it left in the box */
void                  kiste_terminal_tab_terminate           (KisteTerminalTab     *self);
KisteTerminalTabState kiste_terminal_tab_get_state           (KisteTerminalTab     *self);
KisteTerminalTabKind  kiste_terminal_tab_get_kind            (KisteTerminalTab     *self);
const char           *kiste_terminal_tab_get_box_name        (KisteTerminalTab     *self);
const char           *kiste_terminal_tab_get_title           (KisteTerminalTab     *self);
GIcon                *kiste_terminal_tab_get_icon            (KisteTerminalTab     *self);
gboolean              kiste_terminal_tab_get_needs_attention (KisteTerminalTab     *self);
void                  kiste_terminal_tab_set_needs_attention (KisteTerminalTab     *self,
                                                              gboolean              needs_attention);
/* The exit status of the shell (WEXITSTATUS, or 128 + signal); -1 before */
int                   kiste_terminal_tab_get_exit_status     (KisteTerminalTab     *self);
/* The argv that runs, for people; NULL before it started */
const char           *kiste_terminal_tab_get_command         (KisteTerminalTab     *self);
/* TRUE while something other than the idle shell runs in the terminal:
 * a foreground process group that is not the shell's, or a command the
 * shell announced (VTE's shell integration) that has not ended */
gboolean              kiste_terminal_tab_has_foreground_process (KisteTerminalTab  *self);
/* The shell's folder (OSC 7), else the folder it started in */
char                 *kiste_terminal_tab_dup_directory       (KisteTerminalTab     *self);
KisteTerminal        *kiste_terminal_tab_get_terminal        (KisteTerminalTab     *self);
/* The box's colour as a tint of the terminal background, NULL for none */
void                  kiste_terminal_tab_set_tint            (KisteTerminalTab     *self,
                                                              const GdkRGBA        *tint);

G_END_DECLS
