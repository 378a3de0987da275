/* kiste-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-commands.h"
#include "kiste-enter.h"

/* Host variables distrobox 1.x does not forward: a line of `printenv`
 * matching ^(CONTAINER_ID|FPATH|HOST|HOSTNAME|HOME|PATH|PROFILEREAD|PWD|
 * SHELL|XDG_SEAT|XDG_VTNR|XDG_.*_DIRS|^_). These are prefixes, as in its
 * grep: HOSTTYPE and PATHEXT stay on the host too. */
static const char * const skipped_prefixes[] = {
  "CONTAINER_ID", "FPATH", "HOST", "HOME", "PATH", "PROFILEREAD", "PWD", "SHELL",
  "XDG_SEAT", "XDG_VTNR", "_",
};

static gboolean
is_forwarded (const char *entry)
{
  /* distrobox drops lines with quotes, backticks or dollars: its own
   * command line would break on them */
  if (strpbrk (entry, "\"`$") != NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (skipped_prefixes); i++)
    {
      if (g_str_has_prefix (entry, skipped_prefixes[i]))
        return FALSE;
    }

  if (g_str_has_prefix (entry, "XDG_") && strstr (entry + 4, "_DIRS") != NULL)
    return FALSE;

  return TRUE;
}

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

static const char *
get_box_home (KisteBox *box)
{
  const char *home = kiste_box_getenv (box, "HOME");

  /* distrobox reads HOME from inspect; the init command has the same
   * value, and ps knows that before the details are loaded */
  if (home == NULL || home[0] == '\0')
    home = kiste_box_get_home (box);

  return home;
}

static gboolean
get_unshare_groups (KisteBox *box,
                    gboolean *unshare_groups)
{
  const char *label = kiste_box_get_label (box, "distrobox.unshare_groups");

  if (label == NULL || label[0] == '\0' || g_str_equal (label, "0"))
    *unshare_groups = FALSE;
  else if (g_str_equal (label, "1"))
    *unshare_groups = TRUE;
  else
    return FALSE;

  return TRUE;
}

const char *
kiste_enter_check_direct (KisteBox           *box,
                          const char         *manager,
                          guint               distrobox_major,
                          const char * const *environ)
{
  const char *home;
  const char *path;
  gboolean unshare_groups;

  g_return_val_if_fail (KISTE_IS_BOX (box), "no box");

  if (distrobox_major != 1)
    return "only distrobox 1.x is known";
  if (g_strcmp0 (manager, "podman") != 0)
    return "only podman is known";
  if (kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING)
    return "the box is not running";
  if (g_strcmp0 (kiste_box_get_label (box, "manager"), "distrobox") != 0)
    return "the box has no manager=distrobox label";
  if (kiste_box_get_distrobox_version (box) != 1)
    return "the box was made by another distrobox version";
  if (!kiste_box_get_rootless (box))
    return "the box is not rootless";
  if (!get_unshare_groups (box, &unshare_groups))
    return "unknown distrobox.unshare_groups label";

  home = get_box_home (box);
  if (home == NULL || !g_path_is_absolute (home))
    return "the box home is unknown";

  if (!is_plain_user (g_environ_getenv ((char **) environ, "USER")))
    return "USER is missing or unusual";

  path = g_environ_getenv ((char **) environ, "PATH");
  if (path == NULL || path[0] == '\0')
    return "PATH is missing";

  /* These change the argv in ways not built here */
  if (g_environ_getenv ((char **) environ, "DBX_CONTAINER_CLEAN_PATH") != NULL)
    return "DBX_CONTAINER_CLEAN_PATH is set";
  if (g_environ_getenv ((char **) environ, "DBX_SKIP_WORKDIR") != NULL)
    return "DBX_SKIP_WORKDIR is set";
  if (g_environ_getenv ((char **) environ, "DBX_CONTAINER_NAME") != NULL)
    return "DBX_CONTAINER_NAME is set";

  /* printenv would split such values into several lines */
  for (guint i = 0; environ != NULL && environ[i] != NULL; i++)
    {
      if (strchr (environ[i], '\n') != NULL)
        return "a variable has several lines";
    }

  return NULL;
}

gboolean
kiste_enter_keeps_workdir (KisteBox   *box,
                           const char *cwd,
                           const char *host_home)
{
  gboolean unshared_home;

  g_return_val_if_fail (KISTE_IS_BOX (box), FALSE);

  /* A folder that only exists in a sandbox or was deleted would leave the
   * shell in a missing directory */
  if (cwd == NULL || !g_path_is_absolute (cwd) || !g_file_test (cwd, G_FILE_TEST_IS_DIR))
    return FALSE;

  unshared_home = g_strcmp0 (kiste_box_get_label (box, "distrobox.unshare_home"), "1") == 0 ||
                  kiste_box_get_unshare (box, KISTE_UNSHARE_HOME) == KISTE_SHARING_UNSHARED;

  if (unshared_home && host_home != NULL)
    return kiste_commands_unshared_home_keeps_workdir (cwd, host_home,
                                                       kiste_box_get_user_mounts (box));

  return TRUE;
}

char *
kiste_enter_dup_workdir (const char *cwd,
                         const char *box_home)
{
  g_return_val_if_fail (box_home != NULL, NULL);

  if (cwd == NULL)
    return g_strdup (box_home);

  /* distrobox's own test: the box home anywhere in the path keeps it */
  if (strstr (cwd, box_home) != NULL)
    return g_strdup (cwd);

  return g_strconcat ("/run/host", cwd, NULL);
}

/* A component of a colon-separated list equals item, as distrobox's
 * grep -E "(:|^)ITEM(:|$)" */
static gboolean
list_has (const char *list,
          const char *item)
{
  g_auto(GStrv) parts = g_strsplit (list, ":", -1);

  return g_strv_contains ((const char * const *) parts, item);
}

/* Splits like the shell with IFS=":": a trailing empty field is dropped */
static char **
split_fields (const char *list)
{
  char **parts = g_strsplit (list, ":", -1);
  guint n = g_strv_length (parts);

  if (n > 0 && parts[n - 1][0] == '\0')
    g_clear_pointer (&parts[n - 1], g_free);

  return parts;
}

static void
append_field (GString    *s,
              const char *field)
{
  /* ${r:+${r}:}${p} */
  if (s->len > 0)
    g_string_append_c (s, ':');
  g_string_append (s, field);
}

char *
kiste_enter_dup_box_path (const char *host_path,
                          const char *box_path)
{
  static const char * const standard[] = {
    "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin",
  };
  g_autoptr(GString) paths = g_string_new (box_path);
  g_autoptr(GString) reordered = g_string_new (NULL);
  g_autofree char *joined = NULL;
  g_auto(GStrv) fields = NULL;

  g_return_val_if_fail (host_path != NULL, NULL);

  /* The box's PATH, the standard folders the host PATH lacks, and the
   * host PATH before both */
  for (guint i = 0; i < G_N_ELEMENTS (standard); i++)
    {
      if (!list_has (host_path, standard[i]))
        append_field (paths, standard[i]);
    }

  if (paths->len > 0)
    joined = g_strconcat (host_path, ":", paths->str, NULL);
  else
    joined = g_strdup (host_path);

  fields = split_fields (joined);
  for (guint i = 0; fields[i] != NULL; i++)
    {
      const char *p = fields[i];

      if (g_str_equal (p, "/usr/local/bin") || g_str_equal (p, "/usr/local/sbin"))
        continue;
      if (g_str_equal (p, "/usr/bin"))
        append_field (reordered, "/usr/local/bin");
      else if (g_str_equal (p, "/usr/sbin"))
        append_field (reordered, "/usr/local/sbin");

      /* append_field would add a separator for an empty first field, which
       * the shell's ${r:+…} does not */
      if (p[0] == '\0' && reordered->len == 0)
        continue;
      append_field (reordered, p);
    }

  if (!list_has (reordered->str, "/usr/local/bin"))
    g_string_prepend (reordered, reordered->len ? "/usr/local/bin:" : "/usr/local/bin");
  if (!list_has (reordered->str, "/usr/local/sbin"))
    g_string_prepend (reordered, reordered->len ? "/usr/local/sbin:" : "/usr/local/sbin");

  return g_strdup (reordered->str);
}

/* XDG_DATA_DIRS and XDG_CONFIG_DIRS: the host's value plus the standard
 * folders it lacks */
static char *
dup_with_standard (const char         *value,
                   const char * const *standard)
{
  g_autoptr(GString) s = g_string_new (value);

  for (guint i = 0; standard[i] != NULL; i++)
    {
      if (s->len == 0)
        g_string_assign (s, standard[i]);
      else if (!list_has (s->str, standard[i]))
        g_string_append_printf (s, ":%s", standard[i]);
    }

  return g_strdup (s->str);
}

char **
kiste_enter_direct_argv (KisteBox           *box,
                         const char         *manager,
                         const char         *enter_path,
                         const char * const *environ,
                         const char         *cwd,
                         const char * const *command,
                         gboolean            tty)
{
  static const char * const data_dirs[] = { "/usr/local/share", "/usr/share", NULL };
  static const char * const config_dirs[] = { "/etc/xdg", NULL };
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *workdir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *xdg_data = NULL;
  g_autofree char *xdg_config = NULL;
  g_autofree char *login = NULL;
  gboolean unshare_groups = FALSE;
  const char *name;
  const char *home;
  const char *user;
  const char *host_path;
  const char *box_path;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (enter_path != NULL, NULL);
  g_return_val_if_fail (environ != NULL, NULL);

  name = kiste_box_get_name (box);
  home = get_box_home (box);
  user = g_environ_getenv ((char **) environ, "USER");
  g_return_val_if_fail (name != NULL && name[0] != '-', NULL);
  g_return_val_if_fail (home != NULL, NULL);
  g_return_val_if_fail (is_plain_user (user), NULL);
  get_unshare_groups (box, &unshare_groups);

  workdir = kiste_enter_dup_workdir (cwd, home);
  host_path = g_environ_getenv ((char **) environ, "PATH");
  /* distrobox takes the box's PATH from inspect; without one the host's */
  box_path = kiste_box_get_environ (box) != NULL ? kiste_box_getenv (box, "PATH") : NULL;
  path = kiste_enter_dup_box_path (host_path, box_path ? box_path : host_path);
  xdg_data = dup_with_standard (g_environ_getenv ((char **) environ, "XDG_DATA_DIRS"), data_dirs);
  xdg_config = dup_with_standard (g_environ_getenv ((char **) environ, "XDG_CONFIG_DIRS"),
                                  config_dirs);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, manager, "exec", "--interactive", "--detach-keys=", NULL);
  /* Boxes with their own groups (and init boxes) are entered as root and
   * then through su, for a real login */
  g_strv_builder_take (builder, g_strconcat ("--user=", unshare_groups ? "root" : user, NULL));
  /* as distrobox does when its stdin or stdout is no terminal */
  if (tty)
    g_strv_builder_add (builder, "--tty");
  g_strv_builder_take (builder, g_strconcat ("--workdir=", workdir, NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=PWD=", workdir, NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=CONTAINER_ID=", name, NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=DISTROBOX_ENTER_PATH=", enter_path, NULL));

  for (guint i = 0; environ[i] != NULL; i++)
    {
      if (strchr (environ[i], '=') != NULL && is_forwarded (environ[i]))
        g_strv_builder_take (builder, g_strconcat ("--env=", environ[i], NULL));
    }

  g_strv_builder_take (builder, g_strconcat ("--env=PATH=", path, NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_DATA_DIRS=", xdg_data, NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_CACHE_HOME=", home, "/.cache", NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_CONFIG_HOME=", home, "/.config", NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_DATA_HOME=", home, "/.local/share", NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_STATE_HOME=", home, "/.local/state", NULL));
  g_strv_builder_take (builder, g_strconcat ("--env=XDG_CONFIG_DIRS=", xdg_config, NULL));
  g_strv_builder_add (builder, name);

  if (unshare_groups)
    {
      g_strv_builder_add_many (builder, "su", "-m", NULL);
      if (tty)
        g_strv_builder_add (builder, "--pty");
      g_strv_builder_add_many (builder, "-s", "/bin/sh", "-c", "\"$0\" \"$@\"", "--", user, NULL);
    }

  if (command != NULL && command[0] != NULL)
    {
      g_strv_builder_addv (builder, (const char **) command);
    }
  else
    {
      /* The user's login shell, looked up in the box */
      login = g_strdup_printf ("$(getent passwd '%s' | cut -f 7 -d :) -l", user);
      g_strv_builder_add_many (builder, "/bin/sh", "-c", login, NULL);
    }

  return g_strv_builder_end (builder);
}

/* Reads every process's environment it may and hangs up on those with the
 * line given as $1. Fixed text: the id arrives as an argument. A box sees
 * the host's processes (distrobox shares their namespace), hundreds on a
 * desktop: one grep reads them all, where two programs for each took
 * seconds. A grep without -z (some busybox builds) reads them one by one. */
static const char end_shell_script[] =
  "if printf 'x\\000' | grep -qxzF x 2>/dev/null; then\n"
  "  grep -lsxzF -e \"$1\" /proc/[0-9]*/environ\n"
  "else\n"
  "  for e in /proc/[0-9]*/environ; do\n"
  "    tr '\\000' '\\n' 2>/dev/null < \"$e\" | grep -qxF -e \"$1\" && printf '%s\\n' \"$e\"\n"
  "  done\n"
  "fi | while IFS= read -r e; do\n"
  "  p=${e#/proc/}; kill -HUP \"${p%/environ}\" 2>/dev/null\n"
  "done\n"
  "exit 0\n";

char *
kiste_enter_new_terminal_id (void)
{
  return g_uuid_string_random ();
}

gboolean
kiste_enter_is_terminal_id (const char *id)
{
  return id != NULL && g_uuid_string_is_valid (id);
}

char **
kiste_enter_end_shell_argv (const char *manager,
                            const char *name,
                            const char *terminal_id)
{
  g_autofree char *line = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (name != NULL && name[0] != '\0' && name[0] != '-', NULL);

  if (!kiste_enter_is_terminal_id (terminal_id))
    return NULL;

  line = g_strconcat (KISTE_TERMINAL_ID_VARIABLE "=", terminal_id, NULL);
  builder = g_strv_builder_new ();
  /* root of the box: the shell may have become root with sudo or su */
  g_strv_builder_add_many (builder, manager, "exec", "--user", "root", name,
                           "sh", "-c", end_shell_script, "sh", line, NULL);

  return g_strv_builder_end (builder);
}
