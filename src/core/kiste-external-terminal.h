/* kiste-external-terminal.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The terminal apps a box can be opened in instead of a tab, by id
 * ("ptyxis", "kgx", "gnome-terminal", "konsole", "kitty", "alacritty",
 * "wezterm", "foot", "xterm"), in the order they are offered. */
const char * const *kiste_external_terminal_get_ids     (void);
/* For people: "Ptyxis", "GNOME Console", …; NULL for an unknown id */
const char         *kiste_external_terminal_get_name    (const char         *id);
/* The program looked for on the host; NULL for an unknown id */
const char         *kiste_external_terminal_get_program (const char         *id);
/* The terminal's argv running command in a new window; NULL for an
 * unknown id */
char              **kiste_external_terminal_argv        (const char         *id,
                                                         const char * const *command);
/* The fixed script that prints which of its argument programs the host
 * has, one a line (`sh -c SCRIPT sh PROGRAM…`) */
const char         *kiste_external_terminal_get_detect_script (void);
/* The ids whose program appears in the output of the detect script */
char              **kiste_external_terminal_parse_detected (const char      *output);

G_END_DECLS
