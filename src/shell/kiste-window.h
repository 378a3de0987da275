/* kiste-window.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-application.h"
#include "kiste-terminal-tab.h"

G_BEGIN_DECLS

#define KISTE_TYPE_WINDOW (kiste_window_get_type ())

G_DECLARE_FINAL_TYPE (KisteWindow, kiste_window, KISTE, WINDOW, AdwApplicationWindow)

KisteWindow *kiste_window_new        (KisteApplication *application);

/* Opens the create dialog filled in from a distrobox.ini file (what
 * "Import distrobox.ini…" and dropping a file do). Nothing in it runs. */
void         kiste_window_quit                    (KisteWindow          *self);
void         kiste_window_close_without_asking    (KisteWindow          *self);
void         kiste_window_import_file              (KisteWindow          *self,
                                                    GFile                *file);

/* Offers the boxes that can install the package file (a .deb, .rpm,
 * .pkg.tar.zst or .apk), then installs it in the chosen one in a tab */
/* Reads and checks a box file, then shows what it holds and makes its box
 * when people agree */
void              kiste_window_open_boxfile         (KisteWindow          *self,
                                                     GFile                *file);
void              kiste_window_install_package_file (KisteWindow          *self,
                                                     GFile                *file);
/* The same for a file dropped on box_name: that box alone if it can take
 * the file, else the boxes that can, saying why */
void              kiste_window_install_package_file_in (KisteWindow       *self,
                                                        GFile             *file,
                                                        const char        *box_name);
/* Opens a terminal tab with a shell in box_name, in cwd (NULL: the box
 * home), and selects it. The tab belongs to the window's tab view. */
KisteTerminalTab *kiste_window_open_terminal         (KisteWindow          *self,
                                                    const char           *box_name,
                                                    const char           *cwd);
AdwTabView       *kiste_window_get_tab_view          (KisteWindow          *self);

G_END_DECLS
