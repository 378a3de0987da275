/* kiste-autostart.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Starting a box at login: the systemd user unit Kiste writes for it and
 * the commands around it. Nothing here starts a process; the builders
 * return argv arrays (free with g_strfreev()) for a KisteRunner, and the
 * unit is made of checked parts only.
 *
 * The unit is `kiste-box-NAME.service` in the host's
 * `$XDG_CONFIG_HOME/systemd/user/`: a oneshot that runs `ENGINE start NAME`
 * at login and `ENGINE stop --time 10 NAME` at logout. Its first line is
 * the marker (kiste_autostart_dup_marker()): a file of that name without
 * it is the user's own and is never replaced nor removed. */

/* Seconds the engine waits for the box at logout before it kills it */
#define KISTE_AUTOSTART_STOP_SECONDS 10

/* Whether a box starts at login (kiste_manager_get_autostart_async()) */
typedef enum
{
  /* no systemd user manager, or a unit of the user's own of that name */
  KISTE_AUTOSTART_UNAVAILABLE,
  KISTE_AUTOSTART_DISABLED,
  KISTE_AUTOSTART_ENABLED,
} KisteAutostartState;

/* Who owns the unit file that is there (kiste_autostart_parse_owner()) */
typedef enum
{
  KISTE_AUTOSTART_OWNER_NONE,
  KISTE_AUTOSTART_OWNER_KISTE,
  KISTE_AUTOSTART_OWNER_OTHER,
} KisteAutostartOwner;

/* `kiste-box-NAME.service`, or NULL with KISTE_ERROR_INVALID_INPUT when
 * box_name is no box name (kiste_validate_existing_name()) or the unit's
 * name would be too long for systemd */
char      *kiste_autostart_dup_unit_name        (const char  *box_name,
                                                 GError     **error);
/* `# Written by Kiste for the box NAME`: the unit's first line */
char      *kiste_autostart_dup_marker           (const char  *box_name);
/* Whether path can go into the unit as its program: absolute, normalised,
 * and made of letters, digits and "/_.+-" only (no white space, quotes,
 * backslashes or "%", which systemd would read as a specifier) */
gboolean   kiste_autostart_check_engine_path    (const char  *path,
                                                 GError     **error);
/* The unit's text for box_name, its engine run as engine_path */
char      *kiste_autostart_build_unit           (const char  *box_name,
                                                 const char  *engine_path,
                                                 GError     **error);

/* `systemctl --user show-environment`: succeeds only where the session
 * has a systemd user manager */
char     **kiste_autostart_check_manager_argv   (void);
/* `systemctl --user daemon-reload` */
char     **kiste_autostart_daemon_reload_argv   (void);
/* `systemctl --user enable UNIT`, or `disable` */
char     **kiste_autostart_enable_argv          (const char  *unit_name,
                                                 gboolean     enable);
/* `systemctl --user is-enabled UNIT`: prints its state, and fails unless
 * enabled */
char     **kiste_autostart_is_enabled_argv      (const char  *unit_name);
/* `sh -c 'command -v "$1"' sh ENGINE`: the engine's path on the host */
char     **kiste_autostart_find_engine_argv     (const char  *engine);
/* Prints `none`, `kiste` (a regular file whose first line is marker) or
 * `other` for the file at path */
char     **kiste_autostart_read_unit_argv       (const char  *path,
                                                 const char  *marker);
/* Writes contents to path through a fresh temporary file in its folder,
 * moved over the name in one step; only over Kiste's own unit (its first
 * line is marker), else it fails and leaves the file alone */
char     **kiste_autostart_write_unit_argv      (const char  *path,
                                                 const char  *contents,
                                                 const char  *marker);
/* Removes the file at path when it is Kiste's own unit (first line
 * marker), and its link in default.target.wants when that points at it;
 * prints `removed` when it did */
char     **kiste_autostart_remove_unit_argv     (const char  *path,
                                                 const char  *marker);

/* What kiste_autostart_read_unit_argv() printed */
KisteAutostartOwner kiste_autostart_parse_owner (const char  *output);
/* Whether `systemctl is-enabled` printed `enabled` */
gboolean   kiste_autostart_parse_is_enabled     (const char  *output);
/* The engine's path from what kiste_autostart_find_engine_argv()
 * printed, checked (kiste_autostart_check_engine_path()) */
char      *kiste_autostart_parse_engine_path    (const char  *output,
                                                 GError     **error);

G_END_DECLS
