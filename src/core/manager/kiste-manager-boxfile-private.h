/* kiste-manager-boxfile-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What Save to File (kiste-manager-boxfile-save.c) and Open Box File
 * (kiste-manager-boxfile.c) share */

#pragma once

#include "kiste-manager.h"

G_BEGIN_DECLS

/* Saving or loading a large box takes long; one that never ends must not
 * keep its command for ever */
#define SAVE_TIMEOUT_MS (3 * 60 * 60 * 1000)

/* Removes what a box file left in a folder of Kiste's cache (made by
 * kiste_manager_make_boxfile_folder()), then the folder */
void _kiste_manager_remove_boxfile_folder (const char         *folder);

/* Runs argv, an image's removal, in the background as best effort; the
 * app waits for it before it ends */
void _kiste_manager_remove_boxfile_image  (KisteManager       *self,
                                           const char * const *argv);

/* Tests: Save to File through files in the cache instead of pipes, as
 * on a file system without them */
void _kiste_manager_boxfile_set_pipes_for_testing (gboolean allowed);

G_END_DECLS
