/* kiste-autostart.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Starting a box at login: the text of the systemd user unit Kiste writes
 * for a box, built from checked parts only, the scripts that read, write
 * and remove it on the host, and the systemctl commands around it. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-autostart.h"
#include "kiste-error.h"

/* systemd's limit on a unit's name (UNIT_NAME_MAX) */
#define UNIT_NAME_MAX 255
#define UNIT_PREFIX "kiste-box-"
#define UNIT_SUFFIX ".service"

/* podman's rule for a container's name, which systemd accepts in a unit's
 * name as it is */
static gboolean
is_box_name (const char *name)
{
  if (name == NULL || !g_ascii_isalnum (name[0]))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != '-')
      return FALSE;
  return TRUE;
}

char *
kiste_autostart_dup_unit_name (const char  *box_name,
                               GError     **error)
{
  if (!is_box_name (box_name))
    {
      kiste_set_invalid_input (error, _("“%s” is not the name of a box."), box_name ? box_name : "");
      return NULL;
    }
  if (strlen (UNIT_PREFIX) + strlen (box_name) + strlen (UNIT_SUFFIX) > UNIT_NAME_MAX)
    {
      kiste_set_invalid_input (error, "%s",
                               _("The name of the box is too long to be started at login."));
      return NULL;
    }

  return g_strconcat (UNIT_PREFIX, box_name, UNIT_SUFFIX, NULL);
}

char *
kiste_autostart_dup_marker (const char *box_name)
{
  g_return_val_if_fail (is_box_name (box_name), NULL);

  return g_strconcat ("# Written by Kiste for the box ", box_name, NULL);
}

gboolean
kiste_autostart_check_engine_path (const char  *path,
                                   GError     **error)
{
  g_autofree char *canonical = NULL;

  if (path == NULL || !g_path_is_absolute (path))
    return kiste_set_invalid_input (error, _("“%s” is not the full path of a program."),
                                    path ? path : "");

  for (const char *p = path; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && strchr ("/_.+-", *p) == NULL)
      return kiste_set_invalid_input (error,
                                      _("The path of the container engine, “%s”, cannot go into a "
                                        "systemd unit as it is."),
                                      path);

  canonical = g_canonicalize_filename (path, "/");
  if (!g_str_equal (canonical, path) || g_str_has_suffix (path, "/"))
    return kiste_set_invalid_input (error, _("“%s” is not the full path of a program."), path);

  return TRUE;
}

char *
kiste_autostart_build_unit (const char  *box_name,
                            const char  *engine_path,
                            GError     **error)
{
  g_autofree char *unit_name = NULL;
  g_autofree char *marker = NULL;

  if (!(unit_name = kiste_autostart_dup_unit_name (box_name, error)) ||
      !kiste_autostart_check_engine_path (engine_path, error))
    return NULL;

  marker = kiste_autostart_dup_marker (box_name);

  /* Fixed text around checked parts: the name and the path hold no white
   * space, no quotes, no "\" and no "%" */
  return g_strdup_printf ("%s\n"
                          "# Kiste replaces or removes this file; rename it to keep changes of your own.\n"
                          "\n"
                          "[Unit]\n"
                          "Description=Start the box %s when you log in (Kiste)\n"
                          "\n"
                          "[Service]\n"
                          "Type=oneshot\n"
                          "RemainAfterExit=yes\n"
                          "ExecStart=%s start %s\n"
                          "ExecStop=%s stop --time %d %s\n"
                          "\n"
                          "[Install]\n"
                          "WantedBy=default.target\n",
                          marker,
                          box_name,
                          engine_path, box_name,
                          engine_path, KISTE_AUTOSTART_STOP_SECONDS, box_name);
}

static char **
strv_new (const char *first,
          ...) G_GNUC_NULL_TERMINATED;

static char **
strv_new (const char *first,
          ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  va_start (args, first);
  for (const char *s = first; s != NULL; s = va_arg (args, const char *))
    g_strv_builder_add (builder, s);
  va_end (args);

  return g_strv_builder_end (builder);
}

static gboolean
is_unit_name (const char *unit_name)
{
  return unit_name != NULL && g_str_has_prefix (unit_name, UNIT_PREFIX) &&
         g_str_has_suffix (unit_name, UNIT_SUFFIX) && strchr (unit_name, '/') == NULL;
}

char **
kiste_autostart_check_manager_argv (void)
{
  return strv_new ("systemctl", "--user", "show-environment", NULL);
}

char **
kiste_autostart_daemon_reload_argv (void)
{
  return strv_new ("systemctl", "--user", "daemon-reload", NULL);
}

char **
kiste_autostart_enable_argv (const char *unit_name,
                             gboolean    enable)
{
  g_return_val_if_fail (is_unit_name (unit_name), NULL);

  return strv_new ("systemctl", "--user", enable ? "enable" : "disable", unit_name, NULL);
}

char **
kiste_autostart_is_enabled_argv (const char *unit_name)
{
  g_return_val_if_fail (is_unit_name (unit_name), NULL);

  return strv_new ("systemctl", "--user", "is-enabled", unit_name, NULL);
}

char **
kiste_autostart_find_engine_argv (const char *engine)
{
  g_return_val_if_fail (engine != NULL && engine[0] != '\0' && engine[0] != '-', NULL);
  g_return_val_if_fail (strchr (engine, '/') == NULL, NULL);

  return strv_new ("sh", "-c", "command -v -- \"$1\"", "sh", engine, NULL);
}

/* The scripts are constant; the path, the marker and the contents are
 * their arguments, never part of them. A unit is Kiste's when it is a
 * regular file (no link) whose first line is the marker. */
#define IS_OURS \
  "is_ours () { [ -f \"$1\" ] && [ ! -L \"$1\" ] && IFS= read -r l < \"$1\" && [ \"$l\" = \"$2\" ]; }\n"

static const char read_unit_script[] =
  IS_OURS
  "if [ ! -e \"$1\" ] && [ ! -L \"$1\" ]; then echo none\n"
  "elif is_ours \"$1\" \"$2\"; then echo kiste\n"
  "else echo other\n"
  "fi\n";

/* A new unit goes in with mv -n, so that a file made meanwhile stays; a
 * unit of Kiste's is replaced in one step */
static const char write_unit_script[] =
  IS_OURS
  "set -e\n"
  "d=${1%/*}\n"
  "if [ -e \"$1\" ] || [ -L \"$1\" ]; then\n"
  "  if ! is_ours \"$1\" \"$3\"; then\n"
  "    echo \"${1##*/} is a unit of your own: Kiste leaves it alone\" >&2; exit 3\n"
  "  fi\n"
  "  replace=1\n"
  "fi\n"
  "mkdir -p -- \"$d\"\n"
  "t=$(mktemp -- \"$d/.kiste-XXXXXXXX\")\n"
  "trap 'rm -f -- \"$t\"' EXIT\n"
  "printf '%s' \"$2\" > \"$t\"\n"
  "chmod 644 -- \"$t\"\n"
  "if [ -n \"${replace:-}\" ]; then\n"
  "  mv -f -T -- \"$t\" \"$1\"\n"
  "else\n"
  "  mv -n -T -- \"$t\" \"$1\"\n"
  "fi\n"
  "if [ -e \"$t\" ]; then echo \"${1##*/} is in the way\" >&2; exit 3; fi\n";

static const char remove_unit_script[] =
  IS_OURS
  "is_ours \"$1\" \"$2\" || exit 0\n"
  "w=\"${1%/*}/default.target.wants/${1##*/}\"\n"
  "if [ -L \"$w\" ] && [ \"$(readlink -- \"$w\")\" = \"$1\" ]; then rm -f -- \"$w\"; fi\n"
  "rm -f -- \"$1\"\n"
  "echo removed\n";

char **
kiste_autostart_read_unit_argv (const char *path,
                                const char *marker)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);
  g_return_val_if_fail (marker != NULL, NULL);

  return strv_new ("sh", "-c", read_unit_script, "sh", path, marker, NULL);
}

char **
kiste_autostart_write_unit_argv (const char *path,
                                 const char *contents,
                                 const char *marker)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (marker != NULL && g_str_has_prefix (contents, marker), NULL);

  return strv_new ("sh", "-c", write_unit_script, "sh", path, contents, marker, NULL);
}

char **
kiste_autostart_remove_unit_argv (const char *path,
                                  const char *marker)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);
  g_return_val_if_fail (marker != NULL, NULL);

  return strv_new ("sh", "-c", remove_unit_script, "sh", path, marker, NULL);
}

/* The first line, without white space around it */
static char *
dup_first_line (const char *output)
{
  const char *text = output ? output : "";
  g_autofree char *line = g_strndup (text, strcspn (text, "\n"));

  return g_strdup (g_strstrip (line));
}

KisteAutostartOwner
kiste_autostart_parse_owner (const char *output)
{
  g_autofree char *line = dup_first_line (output);

  if (g_str_equal (line, "none"))
    return KISTE_AUTOSTART_OWNER_NONE;
  if (g_str_equal (line, "kiste"))
    return KISTE_AUTOSTART_OWNER_KISTE;
  /* anything else: not ours to touch */
  return KISTE_AUTOSTART_OWNER_OTHER;
}

gboolean
kiste_autostart_parse_is_enabled (const char *output)
{
  g_autofree char *line = dup_first_line (output);

  return g_str_equal (line, "enabled");
}

char *
kiste_autostart_parse_engine_path (const char  *output,
                                   GError     **error)
{
  g_autofree char *line = dup_first_line (output);

  if (line[0] == '\0')
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                           _("The container engine was not found on this computer."));
      return NULL;
    }
  if (!kiste_autostart_check_engine_path (line, error))
    return NULL;

  return g_steal_pointer (&line);
}
