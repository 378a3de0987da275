/* kiste-package-file.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-package-file.h"
#include "kiste-validate.h"

/* Which package manager each distribution of kiste-distro.h uses */
static const struct
{
  const char       *distro_id;
  KistePackageKind  kind;
  const char       *program;   /* how its files are installed */
} families[] = {
  { "debian",    KISTE_PACKAGE_DEB,    "apt-get" },
  { "ubuntu",    KISTE_PACKAGE_DEB,    "apt-get" },
  { "kali",      KISTE_PACKAGE_DEB,    "apt-get" },
  { "mint",      KISTE_PACKAGE_DEB,    "apt-get" },
  { "fedora",    KISTE_PACKAGE_RPM,    "dnf" },
  { "centos",    KISTE_PACKAGE_RPM,    "dnf" },
  { "almalinux", KISTE_PACKAGE_RPM,    "dnf" },
  { "rocky",     KISTE_PACKAGE_RPM,    "dnf" },
  { "rhel",      KISTE_PACKAGE_RPM,    "dnf" },
  { "amazon",    KISTE_PACKAGE_RPM,    "dnf" },
  { "opensuse",  KISTE_PACKAGE_RPM,    "zypper" },
  { "arch",      KISTE_PACKAGE_PACMAN, "pacman" },
  { "manjaro",   KISTE_PACKAGE_PACMAN, "pacman" },
  { "alpine",    KISTE_PACKAGE_APK,    "apk" },
};

static const struct
{
  const char       *suffix;
  KistePackageKind  kind;
} suffixes[] = {
  { ".deb", KISTE_PACKAGE_DEB },
  { ".rpm", KISTE_PACKAGE_RPM },
  { ".pkg.tar.zst", KISTE_PACKAGE_PACMAN },
  { ".pkg.tar.xz", KISTE_PACKAGE_PACMAN },
  { ".apk", KISTE_PACKAGE_APK },
};

KistePackageKind
kiste_package_file_kind_for_path (const char *path)
{
  g_autofree char *lower = NULL;
  g_autofree char *base = NULL;

  if (path == NULL || path[0] == '\0')
    return KISTE_PACKAGE_NONE;

  base = g_path_get_basename (path);
  lower = g_ascii_strdown (base, -1);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      /* a name, not only the suffix */
      if (g_str_has_suffix (lower, suffixes[i].suffix) &&
          strlen (lower) > strlen (suffixes[i].suffix))
        return suffixes[i].kind;
    }

  return KISTE_PACKAGE_NONE;
}

static const char *
program_for (const char       *distro_id,
             KistePackageKind  kind)
{
  for (guint i = 0; distro_id != NULL && i < G_N_ELEMENTS (families); i++)
    {
      if (g_str_equal (families[i].distro_id, distro_id))
        return families[i].kind == kind ? families[i].program : NULL;
    }

  return NULL;
}

gboolean
kiste_package_file_fits_distro (KistePackageKind  kind,
                                const char       *distro_id)
{
  return kind != KISTE_PACKAGE_NONE && program_for (distro_id, kind) != NULL;
}

gboolean
kiste_package_file_fits_box (KistePackageKind  kind,
                             KisteBox         *box)
{
  g_return_val_if_fail (KISTE_IS_BOX (box), FALSE);

  return kiste_package_file_fits_distro (kind, kiste_box_get_distro_id (box));
}

const char * const *
kiste_package_file_mime_types (void)
{
  static const char * const types[] = {
    "application/vnd.debian.binary-package",
    "application/x-deb",
    "application/x-rpm",
    "application/x-redhat-package-manager",
    "application/x-alpine-package",
    "application/x-zstd-compressed-tar",
    NULL
  };

  return types;
}

char *
kiste_package_file_dup_box_path (KisteBox   *box,
                                 const char *host_path,
                                 const char *host_home)
{
  g_autofree char *canonical = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);
  g_return_val_if_fail (host_path != NULL && g_path_is_absolute (host_path), NULL);

  canonical = g_canonicalize_filename (host_path, "/");
  if (host_home != NULL && host_home[0] == '/' &&
      kiste_box_get_host_home_sharing (box) == KISTE_SHARING_SHARED)
    {
      g_autofree char *home = g_canonicalize_filename (host_home, "/");
      g_autofree char *prefix = g_str_has_suffix (home, "/") ? g_strdup (home)
                                                             : g_strconcat (home, "/", NULL);

      if (g_str_has_prefix (canonical, prefix))
        return g_steal_pointer (&canonical);
    }

  return g_strconcat ("/run/host", canonical, NULL);
}

char **
kiste_package_file_dup_install_argv (const char  *distro_id,
                                     const char  *box_path,
                                     GError     **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  KistePackageKind kind;
  const char *program;

  if (!kiste_validate_absolute_path (_("The package file"), box_path, error))
    return NULL;

  kind = kiste_package_file_kind_for_path (box_path);
  program = program_for (distro_id, kind);
  if (kind == KISTE_PACKAGE_NONE || program == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("“%s” cannot be installed in this box: its package manager takes other files."),
                   box_path);
      return NULL;
    }

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, "sudo", program, NULL);
  if (g_str_equal (program, "apt-get"))
    g_strv_builder_add_many (builder, "install", "-y", "--", NULL);
  else if (g_str_equal (program, "dnf"))
    g_strv_builder_add_many (builder, "install", "-y", "--", NULL);
  else if (g_str_equal (program, "zypper"))
    g_strv_builder_add_many (builder, "--non-interactive", "install", "--allow-unsigned-rpm", NULL);
  else if (g_str_equal (program, "pacman"))
    g_strv_builder_add_many (builder, "-U", "--noconfirm", "--", NULL);
  else
    g_strv_builder_add_many (builder, "add", "--allow-untrusted", "--", NULL);
  g_strv_builder_add (builder, box_path);

  return g_strv_builder_end (builder);
}

gboolean
kiste_package_file_check_host_copy (const char  *host_path,
                                    gint64       sandbox_size,
                                    gint64       sandbox_mtime,
                                    const char  *host_stat,
                                    GError     **error)
{
  g_auto(GStrv) fields = NULL;
  g_autofree char *line = NULL;
  gint64 size = -1;
  gint64 mtime = -1;
  g_autofree char *name = NULL;

  g_return_val_if_fail (host_path != NULL, FALSE);

  name = g_path_get_basename (host_path);
  if (host_stat != NULL)
    {
      line = g_strstrip (g_strdup (host_stat));
      fields = g_strsplit (line, " ", -1);
      if (g_strv_length (fields) == 2 &&
          g_ascii_string_to_signed (fields[0], 10, 0, G_MAXINT64, &size, NULL) &&
          g_ascii_string_to_signed (fields[1], 10, G_MININT64, G_MAXINT64, &mtime, NULL))
        {
          /* hidden from the sandbox, or the same file on both sides */
          if (sandbox_size < 0 || (size == sandbox_size && mtime == sandbox_mtime))
            return TRUE;
        }
    }

  if (sandbox_size >= 0)
    g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                 _("“%s” is only inside Kiste’s sandbox, where boxes cannot read it (%s is not that "
                   "file on the host). Save it in your home folder or Downloads and open it from there."),
                 name, host_path);
  else
    g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                 _("The package file %s does not exist on the host."), host_path);

  return FALSE;
}
