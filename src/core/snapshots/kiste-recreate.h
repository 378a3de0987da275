/* kiste-recreate.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box.h"
#include "kiste-create-options.h"

G_BEGIN_DECLS

/* A box made again from an image (a newer one of its own, or a snapshot):
 * the create options that give it every setting Kiste can read of the box,
 * and the engine's commands around it. Nothing here starts a process. */

/* The settings a box was made with, from its details (podman's record of
 * its create command): the home folder, the volumes of the user's own,
 * init, NVIDIA, the unshare switches and home isolation, the hostname when
 * it is not distrobox's default, the additional packages and both kinds
 * of hooks. Each value is checked as the create dialog checks it. */
typedef struct
{
  GStrv  volumes;
  char  *hostname;
  char  *additional_packages;
  char  *pre_init_hooks;
  char  *init_hooks;
} KisteRecreateSettings;

void                   kiste_recreate_settings_free  (KisteRecreateSettings *settings);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteRecreateSettings, kiste_recreate_settings_free)

/* Reads podman's create argv (kiste_box_get_create_command()) of a box of
 * box_name whose home is box_home and whose user's home on the host is
 * host_home. FALSE with KISTE_ERROR_NOT_FOUND when there is none (docker
 * keeps none), KISTE_ERROR_INVALID_INPUT when a value fails its check. */
KisteRecreateSettings *kiste_recreate_read_settings  (const char * const    *create_command,
                                                      const char            *box_name,
                                                      const char            *box_home,
                                                      const char            *host_home,
                                                      const char            *host_name,
                                                      GError               **error);

/* The options of box (its details read) made again from image with the
 * same name: kiste_create_options_new_from_box() plus the settings above,
 * no launcher of the box (the old one stays in the menu) */
KisteCreateOptions    *kiste_recreate_options_new    (KisteBox              *box,
                                                      const char            *image,
                                                      const char            *host_home,
                                                      GError               **error);

/* `ENGINE pull IMAGE`, for a registry's image */
GStrv                  kiste_recreate_pull_argv      (const char            *engine,
                                                      const char            *image,
                                                      GError               **error);
/* `ENGINE rm --force NAME`: the box goes, and what it exported to the host
 * (launchers and programs naming the box) stays for the box of the same
 * name; distrobox rm would remove them */
GStrv                  kiste_recreate_remove_argv    (const char            *engine,
                                                      const char            *box_name,
                                                      GError               **error);

G_END_DECLS
