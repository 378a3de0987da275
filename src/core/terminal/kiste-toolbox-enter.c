/* kiste-toolbox-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-enter.h"
#include "kiste-toolbox-enter.h"

/* What Toolbx forwards from its own environment, in its order (sorted):
 * src/cmd/run.go's list of variables, those that are set */
static const char * const forwarded[] = {
  "COLORTERM", "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS", "DESKTOP_SESSION",
  "DISPLAY", "LANG", "SHELL", "SSH_AUTH_SOCK", "TERM", "TOOLBOX_PATH", "USER", "VTE_VERSION",
  "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_CURRENT_DESKTOP", "XDG_DATA_DIRS", "XDG_MENU_PREFIX",
  "XDG_RUNTIME_DIR", "XDG_SEAT", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP", "XDG_SESSION_ID",
  "XDG_SESSION_TYPE", "XDG_VTNR",
};

/* Shells every image Toolbx supports has; for another one Toolbx asks the
 * box first, and falls back to bash: that stays with toolbox enter */
static const char * const known_shells[] = { "/bin/bash", "/usr/bin/bash", "/bin/sh", "/usr/bin/sh" };

/* Folders every image has where the shell may start as it is */
static const char * const image_folders[] = { "/", "/tmp", "/var/tmp", "/usr", "/etc", "/opt", "/srv" };

/* What Toolbx mounts from the host at the same path, besides the home */
static const char * const host_mounts[] = { "/media", "/mnt", "/run/media" };

static gboolean
is_plain_user (const char *user)
{
  if (user == NULL || user[0] == '\0' || user[0] == '-')
    return FALSE;

  for (const char *p = user; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("._-", *p) == NULL)
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_under (const char *path,
          const char *folder)
{
  gsize len = strlen (folder);

  return strncmp (path, folder, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

const char *
kiste_toolbox_check_direct (KisteBox           *box,
                            const char         *manager,
                            const char * const *environ)
{
  const char *shell;
  const char *home;

  g_return_val_if_fail (KISTE_IS_BOX (box), "no box");

  if (kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX)
    return "the box is not a toolbox";
  if (g_strcmp0 (manager, "podman") != 0)
    return "Toolbx runs on podman only";
  /* toolbox waits for the box's setup after starting it; a start through
   * the manager has done that */
  if (kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING)
    return "the box is not running";
  if (!is_plain_user (kiste_box_get_user (box)))
    return "the box's user is unknown or unusual";

  home = kiste_box_get_home (box);
  if (home == NULL || !g_path_is_absolute (home))
    return "the box home is unknown";

  shell = g_environ_getenv ((char **) environ, "SHELL");
  if (shell == NULL)
    return "SHELL is missing";
  if (!g_strv_contains (known_shells, shell))
    return "SHELL may be missing in the box";

  for (guint i = 0; environ != NULL && environ[i] != NULL; i++)
    {
      if (strchr (environ[i], '\n') != NULL)
        return "a variable has several lines";
    }

  return NULL;
}

char *
kiste_toolbox_dup_workdir (KisteBox   *box,
                           const char *cwd)
{
  const char *home;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  home = kiste_box_get_home (box);
  g_return_val_if_fail (home != NULL, NULL);

  if (cwd == NULL || !g_path_is_absolute (cwd) || strstr (cwd, "/../") != NULL ||
      g_str_has_suffix (cwd, "/.."))
    return g_strdup (home);

  if (g_strv_contains (image_folders, cwd) || is_under (cwd, home))
    return g_strdup (cwd);

  for (guint i = 0; i < G_N_ELEMENTS (host_mounts); i++)
    {
      if (is_under (cwd, host_mounts[i]))
        return g_strdup (cwd);
    }

  /* Toolbx finds it missing in the box and says "Using HOME instead" */
  return g_strdup (home);
}

char **
kiste_toolbox_direct_argv (KisteBox           *box,
                           const char         *manager,
                           const char * const *environ,
                           const char         *workdir,
                           const char * const *command,
                           gboolean            tty)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *terminal_id;
  const char *name;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (workdir != NULL, NULL);

  name = kiste_box_get_name (box);
  g_return_val_if_fail (name != NULL && name[0] != '-', NULL);
  g_return_val_if_fail (is_plain_user (kiste_box_get_user (box)), NULL);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, manager, "--log-level", "error", "exec", "--detach-keys", "", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (forwarded); i++)
    {
      const char *value = g_environ_getenv ((char **) environ, forwarded[i]);

      if (value != NULL)
        g_strv_builder_take (builder, g_strdup_printf ("--env=%s=%s", forwarded[i], value));
    }
  /* ours, to find the shell of a closed tab in the box */
  if ((terminal_id = g_environ_getenv ((char **) environ, KISTE_TERMINAL_ID_VARIABLE)) != NULL &&
      kiste_enter_is_terminal_id (terminal_id))
    g_strv_builder_take (builder, g_strdup_printf ("--env=%s=%s", KISTE_TERMINAL_ID_VARIABLE, terminal_id));

  g_strv_builder_add_many (builder, "--interactive", "--preserve-fds", "0", NULL);
  if (tty)
    g_strv_builder_add (builder, "--tty");
  g_strv_builder_add_many (builder, "--user", kiste_box_get_user (box), "--workdir", workdir, name,
                           "capsh", "--caps=", "--", NULL);

  /* enter runs the shell as a login shell; run runs the command in one */
  if (command == NULL || command[0] == NULL)
    {
      g_return_val_if_fail (g_environ_getenv ((char **) environ, "SHELL") != NULL, NULL);
      g_strv_builder_add_many (builder, "-c", "exec \"$@\"", "bash",
                               g_environ_getenv ((char **) environ, "SHELL"), "-l", NULL);
    }
  else
    {
      g_strv_builder_add_many (builder, "--login", "-c", "exec \"$@\"", "bash", NULL);
      g_strv_builder_addv (builder, (const char **) command);
    }

  return g_strv_builder_end (builder);
}
