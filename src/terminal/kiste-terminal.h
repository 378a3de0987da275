/* kiste-terminal.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <vte/vte.h>

G_BEGIN_DECLS

#define KISTE_TYPE_TERMINAL (kiste_terminal_get_type ())

G_DECLARE_FINAL_TYPE (KisteTerminal, kiste_terminal, KISTE, TERMINAL, VteTerminal)

/* A VteTerminal set up as people expect of a GNOME terminal: the system's
 * monospace font (or the one chosen in the preferences), colours that
 * follow the light or dark style, clickable links, zoom, copy and paste
 * with a context menu, and the scrollback from the preferences.
 * Widget actions: term.copy, term.paste, term.select-all, term.zoom-in,
 * term.zoom-out, term.zoom-reset, term.open-link, term.copy-link. */
KisteTerminal *kiste_terminal_new                  (void);
/* The settings to follow (terminal-font, terminal-scrollback-lines) */
void           kiste_terminal_set_settings         (KisteTerminal *self,
                                                    GSettings     *settings);
/* A background tint (a box's colour), or NULL for the style's own */
void           kiste_terminal_set_tint             (KisteTerminal *self,
                                                    const GdkRGBA *tint);
/* The folder the shell reported (OSC 7) as a local path, or NULL */
char          *kiste_terminal_dup_current_directory (KisteTerminal *self);
/* Everything on screen and in the scrollback, as plain text */
char          *kiste_terminal_dup_text             (KisteTerminal *self);

G_END_DECLS
