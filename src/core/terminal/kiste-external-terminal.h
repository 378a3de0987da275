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
 * "wezterm", "foot", "xterm", and "flatpak:APP-ID" for the Flatpaks of
 * Ptyxis, GNOME Console, Konsole and WezTerm), in the order they are
 * offered. */
const char * const *kiste_external_terminal_get_ids     (void);
/* For people: "Ptyxis", "GNOME Console", "Ptyxis (Flatpak)", …; NULL for
 * an unknown id */
const char         *kiste_external_terminal_get_name    (const char         *id);
/* The program looked for on the host; NULL for a Flatpak or an unknown id */
const char         *kiste_external_terminal_get_program (const char         *id);
/* The Flatpak's app id; NULL for a native terminal or an unknown id */
const char         *kiste_external_terminal_get_flatpak_id (const char      *id);
/* The terminal's argv running command (on the host) in a new window;
 * NULL for an unknown id. A Flatpak is started with `flatpak run`, and
 * the command wrapped as that Flatpak needs to reach the host. */
char              **kiste_external_terminal_argv        (const char         *id,
                                                         const char * const *command);
/* The fixed script that prints which of its argument programs the host
 * has and which of its argument Flatpaks are installed, with their
 * permissions (`sh -c SCRIPT sh PROGRAM… -- APP-ID…`) */
const char         *kiste_external_terminal_get_detect_script (void);
/* The arguments for the detect script: PROGRAM… -- APP-ID… */
char              **kiste_external_terminal_detect_args (void);
/* The ids of the terminals the output of the detect script shows usable,
 * in the order they are offered. *unusable (may be NULL) gets the ids of
 * Flatpaks installed that cannot open a box: without permission to talk to
 * org.freedesktop.Flatpak they cannot start a command on the host. */
char              **kiste_external_terminal_parse_detected (const char   *output,
                                                             char       ***unusable);

G_END_DECLS
