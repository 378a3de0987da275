/* kiste-distro.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Which distribution a box runs, as one short id: "debian", "ubuntu",
 * "fedora", "arch", "opensuse", "alpine", "centos", "almalinux", "rocky",
 * "rhel", "gentoo", "void", "nixos", "kali", "mint", "manjaro", "amazon", or
 * "generic" when it cannot be told. Every string returned here is static. */

#define KISTE_DISTRO_GENERIC "generic"

/* Guesses the distribution from an image reference such as
 * "registry.fedoraproject.org/fedora-toolbox:41" or
 * "quay.io/toolbx/ubuntu-toolbox@sha256:…". The registry host, tag and
 * digest are set aside, then the repository path is read from its last
 * component back; the tag ("python:3.12-alpine") and the registry host
 * ("registry.access.redhat.com/…") are asked only when the path says
 * nothing. Case does not matter. NULL, empty and unknown give "generic". */
const char *kiste_distro_id_for_image         (const char *image);

/* The distribution for the ID= value of /etc/os-release ("opensuse-leap",
 * "linuxmint", "amzn", …; quotes are tolerated). Unknown gives "generic". */
const char *kiste_distro_id_for_os_release_id (const char *id);

/* The symbolic icon for a distribution id, "kiste-distro-<id>-symbolic";
 * the generic one for "generic", unknown ids and NULL. */
const char *kiste_distro_icon_name            (const char *distro_id);

/* The name people know the distribution by ("Arch Linux"), or NULL for
 * "generic", unknown ids and NULL. */
const char *kiste_distro_display_name         (const char *distro_id);

G_END_DECLS
