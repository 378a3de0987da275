/* kiste-commands.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-error.h"

#define DISTROBOX "distrobox"
#define TOOLBOX "toolbox"

/* Prints the .desktop files directly in the folders given as arguments and
 * the icons they name, for kiste_apps_parse_listing(): "P" and the files'
 * NUL-terminated paths, "S" and their sizes (one per line), "F" and their
 * bytes one after the other; then "I" and the icon names found (one per
 * line), "S" and the icon files' sizes, "D" and their bytes (each cut after
 * KISTE_LIST_APPS_ICON_MAX + 1, which marks it too big); then "E".
 * Bytes and names go as base64, which keeps anything intact through a text
 * pipe (and is ten times quicker than od's hexadecimal, and a third of its
 * size); base64, stat, cat and head are in coreutils and busybox alike.
 * The number of processes does not grow with the number of apps: a box
 * with a hundred apps spent seconds starting three per icon. The file list
 * is kept in "$@" so that every pass sees the same files. */
static const char list_apps_script[] =
  "n=$#\n"
  "for d in \"$@\"; do\n"
  "  for f in \"$d\"/*.desktop; do\n"
  "    [ -f \"$f\" ] && [ -r \"$f\" ] && set -- \"$@\" \"$f\"\n"
  "  done\n"
  "done\n"
  "shift \"$n\"\n"
  "echo P\n"
  "for f in \"$@\"; do printf '%s\\000' \"$f\"; done | base64\n"
  "echo S\n"
  "[ $# -eq 0 ] || stat -L -c %s -- \"$@\"\n"
  "echo F\n"
  "[ $# -eq 0 ] || head -q -c " G_STRINGIFY (KISTE_LIST_APPS_FILE_READ) " -- \"$@\" | base64\n"
  /* The box's own icon for each Icon= name: an absolute file, or the
   * hicolor theme's nearest to 48 px, or pixmaps */
  "names=\n"
  "[ $# -eq 0 ] || names=$(head -q -c " G_STRINGIFY (KISTE_LIST_APPS_FILE_READ) " -- \"$@\" 2>/dev/null | "
  "sed -n 's/^Icon=//p' | sort -u)\n"
  "set --\n"
  "found=\n"
  "while IFS= read -r i; do\n"
  "  p=\n"
  "  case $i in\n"
  "    '') continue;;\n"
  "    /*) [ -f \"$i\" ] && p=$i;;\n"
  "    *) for c in 48x48/apps/\"$i\".png 64x64/apps/\"$i\".png scalable/apps/\"$i\".svg \\\n"
  "                128x128/apps/\"$i\".png 256x256/apps/\"$i\".png 32x32/apps/\"$i\".png; do\n"
  "         [ -f \"/usr/share/icons/hicolor/$c\" ] && { p=/usr/share/icons/hicolor/$c; break; }\n"
  "       done\n"
  "       [ -n \"$p\" ] || for c in \"/usr/share/pixmaps/$i.png\" \"/usr/share/pixmaps/$i.svg\"; do\n"
  "         [ -f \"$c\" ] && { p=$c; break; }\n"
  "       done;;\n"
  "  esac\n"
  "  [ -n \"$p\" ] && [ -r \"$p\" ] || continue\n"
  "  found=$found$i'\n'\n"
  "  set -- \"$@\" \"$p\"\n"
  "done <<EOF\n"
  "$names\n"
  "EOF\n"
  "echo I\n"
  "printf '%s' \"$found\" | base64\n"
  "echo S\n"
  "[ $# -eq 0 ] || stat -L -c %s -- \"$@\"\n"
  "echo D\n"
  "[ $# -eq 0 ] || head -q -c " G_STRINGIFY (KISTE_LIST_APPS_ICON_READ) " -- \"$@\" | base64\n"
  "echo E\n";

static gboolean
is_usable_name (const char *name)
{
  return name != NULL && name[0] != '\0' && name[0] != '-';
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

char **
kiste_commands_start_argv (const char *manager,
                           const char *name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);

  return strv_new (manager, "start", name, NULL);
}

char **
kiste_commands_stop_argv (guint       distrobox_major,
                          const char *name)
{
  g_return_val_if_fail (is_usable_name (name), NULL);

  /* Without --yes distrobox asks before stopping. */
  return strv_new (DISTROBOX, "stop", "--yes", name, NULL);
}

char **
kiste_commands_engine_stop_argv (const char *manager,
                                 const char *name,
                                 guint       timeout_seconds)
{
  g_autofree char *timeout = NULL;

  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);

  timeout = g_strdup_printf ("%u", timeout_seconds);

  return strv_new (manager, "stop", "--time", timeout, name, NULL);
}

char **
kiste_commands_commit_argv (const char *manager,
                            const char *name,
                            const char *image)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (image != NULL && image[0] != '-', NULL);

  return strv_new (manager, "container", "commit", name, image, NULL);
}

char **
kiste_commands_save_image_argv (const char *manager,
                                const char *image,
                                const char *path)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (image != NULL && image[0] != '-', NULL);
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  if (g_str_equal (manager, "docker"))
    return strv_new (manager, "save", "-o", path, image, NULL);
  /* podman's own default, uncompressed: about twice as fast to save as a
   * compressed oci-archive, and written as it goes, so it can go
   * through a pipe */
  return strv_new (manager, "save", "--format", "docker-archive", "-o", path, image, NULL);
}

char **
kiste_commands_image_field_argv (const char *manager,
                                 const char *image,
                                 const char *format)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (image != NULL && image[0] != '-', NULL);
  g_return_val_if_fail (format != NULL, NULL);

  return strv_new (manager, "image", "inspect", "--format", format, image, NULL);
}

char **
kiste_commands_load_image_argv (const char *manager,
                                const char *path)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  return strv_new (manager, "load", "-i", path, NULL);
}

char **
kiste_commands_pull_archive_argv (const char *manager,
                                  const char *path)
{
  g_autofree char *source = NULL;

  g_return_val_if_fail (manager != NULL, NULL);
  /* the transport's reference ends the path at its first colon */
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path) && strchr (path, ':') == NULL,
                        NULL);

  source = g_strconcat ("docker-archive:", path, NULL);
  return strv_new (manager, "pull", "--quiet", source, NULL);
}

char **
kiste_commands_remove_image_argv (const char *manager,
                                  const char *image)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (image != NULL && image[0] != '-', NULL);

  return strv_new (manager, "rmi", image, NULL);
}

/* podman's user namespace, where the user is root and the box's
 * subordinate ids are mapped: a rootless box's files owned by them are
 * readable there */
static char **
in_user_namespace (const char *manager,
                   char      **argv)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) owned = argv;

  if (g_strcmp0 (manager, "podman") != 0)
    return g_steal_pointer (&owned);
  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, "podman", "unshare", NULL);
  g_strv_builder_addv (builder, (const char **) owned);
  return g_strv_builder_end (builder);
}

char **
kiste_commands_pack_home_argv (const char *manager,
                               const char *home,
                               const char *path)
{
  g_return_val_if_fail (home != NULL && g_path_is_absolute (home), NULL);
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  return in_user_namespace (manager,
                            strv_new ("tar", "--create", "--file", path, "--directory", home,
                                      "--one-file-system", "--sparse", ".", NULL));
}

char **
kiste_commands_home_size_argv (const char *manager,
                               const char *home)
{
  g_return_val_if_fail (home != NULL && g_path_is_absolute (home), NULL);

  return in_user_namespace (manager,
                            strv_new ("du", "--summarize", "--bytes", "--one-file-system", "--",
                                      home, NULL));
}

gboolean
kiste_commands_parse_home_size (const char *output,
                                guint64    *size)
{
  const char *p = output;
  guint64 value = 0;

  g_return_val_if_fail (size != NULL, FALSE);

  if (output == NULL || !g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (value > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      value = value * 10 + (guint64) (*p - '0');
    }
  if (*p != '\t')
    return FALSE;
  *size = value;
  return TRUE;
}

char **
kiste_commands_make_folder_argv (const char *folder)
{
  g_return_val_if_fail (folder != NULL && g_path_is_absolute (folder), NULL);

  return strv_new ("mkdir", "--mode=0700", "--", folder, NULL);
}

char **
kiste_commands_remove_new_folder_argv (const char *folder)
{
  g_return_val_if_fail (folder != NULL && g_path_is_absolute (folder), NULL);

  return strv_new ("rm", "--recursive", "--force", "--one-file-system", "--", folder, NULL);
}

char **
kiste_commands_unpack_home_argv (const char *path,
                                 const char *folder)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);
  g_return_val_if_fail (folder != NULL && g_path_is_absolute (folder), NULL);

  /* GNU tar refuses members with "..", strips a leading "/" and makes
   * links last; the files become the user's own */
  return strv_new ("tar", "--extract", "--file", path, "--directory", folder,
                   "--no-same-owner", "--no-same-permissions", "--keep-old-files", NULL);
}

char **
kiste_commands_restart_argv (const char *manager,
                             const char *name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);

  return strv_new (manager, "restart", name, NULL);
}

char **
kiste_commands_rm_argv (guint       distrobox_major,
                        const char *name,
                        gboolean    rm_home)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (is_usable_name (name), NULL);

  builder = g_strv_builder_new ();
  /* --force also stops a running box and answers every prompt. No "--"
   * before the name: distrobox rm drops names that follow it. */
  g_strv_builder_add_many (builder, DISTROBOX, "rm", "--force", NULL);
  if (rm_home)
    g_strv_builder_add (builder, "--rm-home");
  g_strv_builder_add (builder, name);

  return g_strv_builder_end (builder);
}

char **
kiste_commands_toolbox_rm_argv (const char *name)
{
  const char *argv[] = { TOOLBOX, "rm", "--force", name, NULL };

  g_return_val_if_fail (is_usable_name (name), NULL);
  return g_strdupv ((char **) argv);
}

char **
kiste_commands_toolbox_run_argv (const char         *name,
                                 const char * const *command)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (command != NULL && command[0] != NULL, NULL);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, TOOLBOX, "run", "--container", name, "--", NULL);
  g_strv_builder_addv (builder, (const char **) command);
  return g_strv_builder_end (builder);
}

char **
kiste_commands_upgrade_argv (guint       distrobox_major,
                             const char *name)
{
  g_return_val_if_fail (is_usable_name (name), NULL);

  /* distrobox 1 has no --yes here and would refuse it. */
  if (distrobox_major >= 2)
    return strv_new (DISTROBOX, "upgrade", "--yes", name, NULL);

  return strv_new (DISTROBOX, "upgrade", name, NULL);
}

char **
kiste_commands_clone_argv (guint       distrobox_major,
                           const char *source,
                           const char *new_name)
{
  g_return_val_if_fail (is_usable_name (source), NULL);
  g_return_val_if_fail (is_usable_name (new_name), NULL);

  return strv_new (DISTROBOX, "create", "--yes", "--no-entry",
                   "--clone", source, "--name", new_name, NULL);
}

char **
kiste_commands_rename_argv (const char *manager,
                            const char *old_name,
                            const char *new_name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (old_name), NULL);
  g_return_val_if_fail (is_usable_name (new_name), NULL);

  return strv_new (manager, "rename", old_name, new_name, NULL);
}

/* path equals dir or lies below it; both absolute, dir without a trailing
 * slash except for "/" itself. */
static gboolean
path_is_within (const char *path,
                const char *dir)
{
  gsize len = strlen (dir);

  if (len == 1 && dir[0] == '/')
    return path[0] == '/';

  return strncmp (path, dir, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

static char *
dup_without_trailing_slashes (const char *path)
{
  char *copy = g_strdup (path);
  gsize len = strlen (copy);

  while (len > 1 && copy[len - 1] == '/')
    copy[--len] = '\0';

  return copy;
}

gboolean
kiste_commands_unshared_home_keeps_workdir (const char         *cwd,
                                            const char         *host_home,
                                            const char * const *mounts)
{
  g_autofree char *home = NULL;

  g_return_val_if_fail (cwd != NULL, FALSE);
  g_return_val_if_fail (host_home != NULL, FALSE);

  /* Outside the host home distrobox finds the folder under /run/host as for
   * every box; only the host home is missing from such a box. */
  home = dup_without_trailing_slashes (host_home);
  if (!path_is_within (cwd, home))
    return TRUE;

  for (guint i = 0; mounts != NULL && mounts[i] != NULL; i++)
    {
      g_autofree char *dest = NULL;

      if (mounts[i][0] != '/')
        continue;

      dest = dup_without_trailing_slashes (mounts[i]);

      /* The host's root is always at /run/host, which says nothing about
       * cwd existing at the same path inside the box. */
      if (path_is_within (dest, "/run/host"))
        continue;

      if (path_is_within (cwd, dest))
        return TRUE;
    }

  return FALSE;
}

static gboolean
box_has_unshared_home (KisteBox *box)
{
  if (g_strcmp0 (kiste_box_get_label (box, "distrobox.unshare_home"), "1") == 0)
    return TRUE;

  return kiste_box_get_unshare (box, KISTE_UNSHARE_HOME) == KISTE_SHARING_UNSHARED;
}

char **
kiste_commands_enter_argv (KisteBox           *box,
                           guint               distrobox_major,
                           const char         *cwd,
                           const char * const *command)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *name;
  gboolean keep_workdir;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  name = kiste_box_get_name (box);
  g_return_val_if_fail (is_usable_name (name), NULL);

  /* A folder that only exists in a sandbox or was deleted would leave
   * distrobox in a missing directory. */
  keep_workdir = cwd != NULL && g_path_is_absolute (cwd) &&
                 g_file_test (cwd, G_FILE_TEST_IS_DIR);

  if (keep_workdir && box_has_unshared_home (box))
    keep_workdir = kiste_commands_unshared_home_keeps_workdir (cwd,
                                                               g_get_home_dir (),
                                                               kiste_box_get_user_mounts (box));

  builder = g_strv_builder_new ();
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    {
      /* Toolbx keeps the folder it is started in where the box has it,
       * else starts in the home: it has no option for either */
      if (command != NULL && command[0] != NULL)
        return kiste_commands_toolbox_run_argv (name, command);
      g_strv_builder_add_many (builder, TOOLBOX, "enter", "--container", name, NULL);
      return g_strv_builder_end (builder);
    }

  g_strv_builder_add_many (builder, DISTROBOX, "enter", "--name", name, NULL);
  if (!keep_workdir)
    g_strv_builder_add (builder, "--no-workdir");

  if (command != NULL && command[0] != NULL)
    {
      g_strv_builder_add (builder, "--");
      g_strv_builder_addv (builder, (const char **) command);
    }

  return g_strv_builder_end (builder);
}

static gboolean
has_control_chars (const char *s)
{
  for (const char *p = s; *p != '\0'; p++)
    {
      if ((guchar) *p < 0x20 || *p == 0x7f)
        return TRUE;
    }

  return FALSE;
}

static gboolean
check_box_path (const char  *path,
                const char  *what,
                GError     **error)
{
  if (path == NULL || !g_path_is_absolute (path) || has_control_chars (path) ||
      !g_utf8_validate (path, -1, NULL))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   /* Translators: %s is e.g. "The application file" */
                   _("%s must be an absolute path without control characters."),
                   what);
      return FALSE;
    }

  return TRUE;
}

static void
add_export_prefix (GStrvBuilder *builder,
                   const char   *name)
{
  /* --no-tty: no terminal here, and distrobox must not wait for one. */
  g_strv_builder_add_many (builder, DISTROBOX, "enter", "--name", name, "--no-tty",
                           "--", "distrobox-export", NULL);
}

char **
kiste_commands_export_app_argv (const char  *name,
                                const char  *desktop_path,
                                gboolean     delete,
                                GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_box_path (desktop_path, _("The application file"), error))
    return NULL;

  if (!g_str_has_suffix (desktop_path, ".desktop"))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("“%s” is not an application file (.desktop)."), desktop_path);
      return NULL;
    }

  builder = g_strv_builder_new ();
  add_export_prefix (builder, name);
  g_strv_builder_add_many (builder, "--app", desktop_path, NULL);
  if (delete)
    g_strv_builder_add (builder, "--delete");

  return g_strv_builder_end (builder);
}

char **
kiste_commands_export_bin_argv (const char  *name,
                                const char  *binary_path,
                                const char  *export_path,
                                gboolean     delete,
                                GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_box_path (binary_path, _("The program"), error) ||
      !check_box_path (export_path, _("The folder for exported programs"), error))
    return NULL;

  builder = g_strv_builder_new ();
  add_export_prefix (builder, name);
  g_strv_builder_add_many (builder, "--bin", binary_path, "--export-path", export_path, NULL);
  if (delete)
    g_strv_builder_add (builder, "--delete");

  return g_strv_builder_end (builder);
}

char **
kiste_commands_generate_entry_argv (const char *name,
                                    gboolean    delete)
{
  g_return_val_if_fail (is_usable_name (name), NULL);

  if (delete)
    return strv_new (DISTROBOX, "generate-entry", name, "--delete", NULL);
  /* Always an icon: without one distrobox copies the box's os-release to
   * /tmp/NAME.os-release, a name any box sharing /tmp can take first */
  return strv_new (DISTROBOX, "generate-entry", name, "--icon", KISTE_BOX_ENTRY_ICON, NULL);
}

char **
kiste_commands_launch_app_argv (const char         *name,
                                const char * const *app_argv)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (app_argv != NULL && app_argv[0] != NULL, NULL);

  builder = g_strv_builder_new ();
  /* What the exported launcher runs, without the files it may be given */
  g_strv_builder_add_many (builder, DISTROBOX, "enter", "--name", name, "--", NULL);
  g_strv_builder_addv (builder, (const char **) app_argv);

  return g_strv_builder_end (builder);
}

const char *
kiste_commands_get_list_apps_script (void)
{
  return list_apps_script;
}

char **
kiste_commands_resolve_program_argv (const char *manager,
                                     const char *name,
                                     const char *user,
                                     const char *program)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (user != NULL && user[0] != '\0', NULL);
  g_return_val_if_fail (program != NULL && program[0] != '\0' && program[0] != '-', NULL);

  return strv_new (manager, "exec", "--user", user, name,
                   "sh", "-c", "command -v -- \"$1\"", "sh", program, NULL);
}

/* set -f: the unquoted $PATH is split at ":" but never globbed */
static const char find_host_program_script[] =
  "set -f; IFS=:\n"
  "for d in $PATH; do\n"
  "  [ -n \"$d\" ] && [ \"$d\" != \"$2\" ] || continue\n"
  "  if [ -f \"$d/$1\" ] && [ -x \"$d/$1\" ]; then printf '%s\\n' \"$d/$1\"; exit 0; fi\n"
  "done\n";

char **
kiste_commands_host_stat_argv (const char *path)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  return strv_new ("stat", "-L", "-c", "%s %Y", "--", path, NULL);
}

char **
kiste_commands_find_host_program_argv (const char *program,
                                       const char *skip_dir)
{
  g_return_val_if_fail (program != NULL && program[0] != '\0', NULL);
  g_return_val_if_fail (strchr (program, '/') == NULL, NULL);

  return strv_new ("sh", "-c", find_host_program_script, "sh", program,
                   skip_dir ? skip_dir : "", NULL);
}

char **
kiste_commands_list_apps_argv (const char         *manager,
                               const char         *name,
                               const char         *user,
                               const char * const *dirs)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (user != NULL && user[0] != '\0', NULL);
  g_return_val_if_fail (dirs != NULL, NULL);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, manager, "exec", "--user", user, name,
                           "sh", "-c", list_apps_script, "sh", NULL);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      /* Relative paths would depend on exec's working directory and could
       * look like options to the script's loop. */
      g_return_val_if_fail (g_path_is_absolute (dirs[i]), NULL);
      g_strv_builder_add (builder, dirs[i]);
    }

  return g_strv_builder_end (builder);
}

char **
kiste_commands_dup_app_dirs (KisteBox *box)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  const char *home;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  builder = g_strv_builder_new ();

  /* A box sharing the host home would list the host's own apps, including
   * the ones exported from boxes. */
  home = kiste_box_get_home (box);
  if (home != NULL && g_path_is_absolute (home) && kiste_box_has_custom_home (box))
    g_strv_builder_take (builder, g_build_filename (home, ".local", "share", "applications", NULL));

  g_strv_builder_add_many (builder,
                           "/usr/local/share/applications",
                           "/usr/share/applications",
                           NULL);

  return g_strv_builder_end (builder);
}

char **
kiste_commands_state_argv (const char *manager,
                           const char *name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);

  return strv_new (manager, "inspect", "--type", "container",
                   "--format", "{{.State.Status}}", name, NULL);
}

char **
kiste_commands_inspect_argv (const char *manager,
                             const char *name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);

  return strv_new (manager, "container", "inspect", name, NULL);
}

char **
kiste_commands_logs_argv (const char *manager,
                          const char *name,
                          const char *since,
                          gboolean    follow)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (is_usable_name (name), NULL);
  g_return_val_if_fail (since != NULL && since[0] != '\0' && since[0] != '-', NULL);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, manager, "logs", NULL);
  if (follow)
    g_strv_builder_add (builder, "--follow");
  g_strv_builder_add_many (builder, "--since", since, name, NULL);

  return g_strv_builder_end (builder);
}

char *
kiste_commands_format_since (GDateTime *time)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autofree char *seconds = NULL;

  g_return_val_if_fail (time != NULL, NULL);

  utc = g_date_time_to_utc (time);
  seconds = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%S");

  /* GDateTime stops at microseconds; pad to the nanoseconds distrobox uses. */
  return g_strdup_printf ("%s.%06d000+00:00", seconds, g_date_time_get_microsecond (utc));
}

/* Counts the parts of a normalised absolute path: "/" 0, "/a/b" 2. Returns
 * -1 when the path has empty, "." or ".." parts. */
static int
count_components (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path + 1, "/", -1);
  int n = 0;

  if (path[1] == '\0')
    return 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
        return -1;
      n++;
    }

  return n;
}

static gboolean
is_system_path (const char *path,
                int         depth)
{
  /* Everything in these belongs to the system. */
  static const char * const system_trees[] = {
    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
    "/proc", "/sbin", "/sys", "/usr", "/nix", "/gnu", "/efi", "/snap",
  };
  /* Below these only deeper folders can belong to a box: /var/home/bob is a
   * user's home, /run/media/bob/disk a mounted drive. */
  static const struct { const char *dir; int min_depth; } shallow[] = {
    { "/home", 3 }, { "/var/home", 4 }, { "/var/mnt", 3 }, { "/var/srv", 3 },
    { "/var/tmp", 3 }, { "/var/opt", 3 }, { "/run/media", 5 }, { "/mnt", 2 },
    { "/media", 2 }, { "/opt", 2 }, { "/srv", 2 }, { "/tmp", 2 }, { "/root", 2 },
  };

  /* A folder directly under / is never one box's. */
  if (depth <= 1)
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (system_trees); i++)
    {
      if (path_is_within (path, system_trees[i]))
        return TRUE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (shallow); i++)
    {
      if (path_is_within (path, shallow[i].dir))
        return depth < shallow[i].min_depth;
    }

  /* The rest of /var and /run is the system's state. */
  if (path_is_within (path, "/var") || path_is_within (path, "/run"))
    return TRUE;

  return FALSE;
}

static gboolean
is_well_known_home_folder (const char *path,
                           const char *home)
{
  static const char * const folders[] = {
    "Desktop", "Documents", "Downloads", "Music", "Pictures", "Public",
    "Templates", "Videos", ".cache", ".config", ".gnupg", ".local",
    ".local/bin", ".local/share", ".local/share/applications",
    ".local/share/containers", ".local/share/icons", ".local/state",
    ".ssh", ".var", ".var/app",
  };
  gsize len = strlen (home);

  if (strncmp (path, home, len) != 0 || path[len] != '/')
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      if (strcmp (path + len + 1, folders[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

gboolean
kiste_commands_check_home_removable (const char  *path,
                                     const char  *host_home,
                                     GError     **error)
{
  g_autofree char *norm = NULL;
  g_autofree char *home = NULL;
  int depth;

  g_return_val_if_fail (host_home != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (path == NULL || !g_path_is_absolute (path) || has_control_chars (path))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder “%s” is not an absolute path, so it was not deleted."),
                   path != NULL ? path : "");
      return FALSE;
    }

  norm = dup_without_trailing_slashes (path);
  depth = count_components (norm);
  if (depth < 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder “%s” contains “.”, “..” or “//”, so it was not deleted."),
                   path);
      return FALSE;
    }

  if (depth == 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder is “/”, which is never deleted."));
      return FALSE;
    }

  home = dup_without_trailing_slashes (host_home);
  if (g_path_is_absolute (home) && path_is_within (home, norm))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder “%s” is your own home folder or contains it, so it was not deleted."),
                   norm);
      return FALSE;
    }

  if (g_path_is_absolute (home) && is_well_known_home_folder (norm, home))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder “%s” is one of your own folders, so it was not deleted."),
                   norm);
      return FALSE;
    }

  /* The user's own home may live under a "system" path (/var/home/USER on
   * ostree systems); folders inside it are fine. */
  if (!(g_path_is_absolute (home) && path_is_within (norm, home)) &&
      is_system_path (norm, depth))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("The box’s home folder “%s” is a system folder, so it was not deleted."),
                   norm);
      return FALSE;
    }

  return TRUE;
}

/* The home's path is $1, as text; nothing of it is run. Every step is
 * taken from the folder reached so far (the shell's working folder, which
 * a rename elsewhere does not move), so a folder swapped for a link while
 * this runs is found by its device and inode, and nothing outside the
 * home is removed. The only links followed are the system's own right
 * under / (/home -> var/home on Fedora Atomic): root's, in a / nobody
 * else may change. */
static const char remove_home_script[] =
  "set -f\n"
  "fail () { printf '%s\\n' \"$*\" >&2; exit 3; }\n"
  "me=$(id -u)\n"
  "rest=${1#/}\n"
  "top=1\n"
  "cd / || exit 1\n"
  "while [ -n \"$rest\" ]; do\n"
  "  c=${rest%%/*}\n"
  "  case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac\n"
  "  [ -n \"$c\" ] || continue\n"
  /* already gone: nothing to remove */
  "  [ -e \"$c\" ] || [ -L \"$c\" ] || exit 0\n"
  "  info=$(stat -c '%f %d:%i %u' -- \"$c\") || exit 1\n"
  "  mode=${info%% *}; info=${info#* }; id=${info%% *}; owner=${info#* }\n"
  "  type=$(( 0x$mode & 0xF000 ))\n"
  "  if [ \"$type\" -eq $(( 0xA000 )) ]; then\n"
  "    [ -n \"$rest\" ] || fail \"$1 is a link, not a folder\"\n"
  "    here=$(stat -c '%u %a' .) || exit 1\n"
  "    perms=${here#* }\n"
  "    [ \"$top\" = 1 ] && [ \"$owner\" = 0 ] && [ \"${here%% *}\" = 0 ] && [ $(( 0$perms & 022 )) -eq 0 ] ||\n"
  "      fail \"$c on the way to $1 is a link someone other than the system may have made\"\n"
  "    cd -P -- \"$c\" || exit 1\n"
  "  elif [ \"$type\" -eq $(( 0x4000 )) ]; then\n"
  "    cd -P -- \"$c\" || exit 1\n"
  "    [ \"$(stat -c '%d:%i' .)\" = \"$id\" ] || fail \"$c on the way to $1 changed while it was checked\"\n"
  "  else\n"
  "    fail \"$c on the way to $1 is not a folder\"\n"
  "  fi\n"
  "  top=0\n"
  "done\n"
  "[ \"$owner\" = \"$me\" ] || fail \"$1 does not belong to you\"\n"
  "find . -mindepth 1 -maxdepth 1 -exec rm -rf --one-file-system -- {} + || exit 1\n"
  "cd .. || exit 1\n"
  "[ \"$(stat -c '%d:%i' -- \"$c\" 2>/dev/null)\" = \"$id\" ] && rmdir -- \"$c\"\n"
  "exit 0\n";

char **
kiste_commands_remove_home_argv (const char *path)
{
  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  return strv_new ("sh", "-c", remove_home_script, "sh", path, NULL);
}

char **
kiste_commands_images_argv (const char *manager)
{
  g_return_val_if_fail (manager != NULL, NULL);

  /* docker's --format json needs a newer CLI than the template does */
  if (g_str_equal (manager, "docker"))
    return strv_new ("docker", "images", "--format", "{{json .}}", NULL);
  return strv_new (manager, "images", "--format", "json", NULL);
}

char **
kiste_commands_compatibility_argv (void)
{
  return strv_new ("distrobox", "create", "--compatibility", NULL);
}

char **
kiste_commands_stats_argv (const char *manager,
                           const char *name)
{
  g_return_val_if_fail (manager != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return strv_new (manager, "stats", "--no-stream", "--format", "json", name, NULL);
}
