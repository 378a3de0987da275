/* kiste-package-file.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "kiste-box.h"

G_BEGIN_DECLS

/* A package file people can install into a box, by its name */
typedef enum
{
  KISTE_PACKAGE_NONE,
  KISTE_PACKAGE_DEB,      /* .deb: Debian, Ubuntu and their kin */
  KISTE_PACKAGE_RPM,      /* .rpm: Fedora, RHEL and its rebuilds, openSUSE */
  KISTE_PACKAGE_PACMAN,   /* .pkg.tar.zst, .pkg.tar.xz: Arch Linux, Manjaro */
  KISTE_PACKAGE_APK,      /* .apk: Alpine */
} KistePackageKind;

/* The kind of a file by the end of its name (case does not matter) */
KistePackageKind  kiste_package_file_kind_for_path   (const char  *path);
/* Whether a box of distribution distro_id (kiste-distro.h) installs kind */
gboolean          kiste_package_file_fits_distro     (KistePackageKind  kind,
                                                      const char       *distro_id);
/* Whether box installs kind, by its distribution */
gboolean          kiste_package_file_fits_box        (KistePackageKind  kind,
                                                      KisteBox         *box);
/* The MIME types of package files, for the desktop file and file choosers */
const char * const *kiste_package_file_mime_types    (void);

/* Where box sees host_path (absolute, on the host): the same path when
 * the box shares the host home (host_home) and the file lies in it, else
 * under /run/host, where distrobox mounts the host's folders. */
char             *kiste_package_file_dup_box_path    (KisteBox    *box,
                                                      const char  *host_path,
                                                      const char  *host_home);

/* Whether the host has the file the sandboxed app sees, from the host's
 * `stat -L -c '%s %Y' -- HOST_PATH` (host_stat; NULL when it failed) and
 * the app's own view of the file (sandbox_size and sandbox_mtime, or
 * sandbox_size < 0 when the app cannot see it, as a host path hidden from
 * the sandbox). KISTE_ERROR_NOT_FOUND, saying so, when the host has no
 * such file or another one than the app sees (a folder private to the
 * sandbox, such as its /tmp). */
gboolean          kiste_package_file_check_host_copy (const char  *host_path,
                                                      gint64       sandbox_size,
                                                      gint64       sandbox_mtime,
                                                      const char  *host_stat,
                                                      GError     **error);

/* The command that installs the file at box_path (as the box sees it) in
 * a box of distro_id, through sudo so it can ask for a password in a
 * terminal: `sudo apt-get install -y -- PATH` and the like. The path is
 * its own argv element and checked first (absolute, no quotes, $, ` or \,
 * which distrobox's shell would read); KISTE_ERROR_INVALID_INPUT when it is
 * bad or the file does not fit the box. */
char            **kiste_package_file_dup_install_argv (const char  *distro_id,
                                                       const char  *box_path,
                                                       GError     **error);

G_END_DECLS
