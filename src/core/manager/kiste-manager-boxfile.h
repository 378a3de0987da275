/* kiste-manager-boxfile.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-boxfile.h"
#include "kiste-manager-create.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* Box files (kiste-manager-boxfile.c): a box saved to one file with its
 * image, settings and exported apps, and a box made again from one. Both
 * complete with kiste_manager_operation_finish(). */

/* Commits the box into an image, saves the image into a folder of Kiste's
 * cache (which the host sees at the same path), lists its exported apps
 * and writes the box file to path through a temporary file beside it; the
 * committed image and the folder are removed afterwards. with_home packs
 * the box's own home folder into the file too (a box with the user's home
 * is refused). Not for a toolbox. Returns the task (transfer none), or
 * NULL when the box is busy. */
KisteTask          *kiste_manager_save_boxfile_async    (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *path,
                                                         gboolean              with_home,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

/* The size in bytes of a box's own home folder (du on the host; in
 * podman's user namespace for a podman box, whose files may belong to its
 * subordinate ids), for the question whether to save it:
 * kiste_manager_query_finish() gives a guint64 * to g_free() */
void                kiste_manager_get_home_size_async   (KisteManager         *self,
                                                         const char           *engine,
                                                         const char           *home,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* A new folder of Kiste's cache to read a box file into: the host sees it
 * at the same path, so the engine can load the image from there */
char               *kiste_manager_make_boxfile_folder   (KisteManager         *self,
                                                         GError              **error);

/* Reads and checks the box file at path as a task people can follow and
 * cancel (the bytes checked, the time left): every member against its
 * checksum in the index (kiste_boxfile_read()), then the names in its
 * image archive (kiste_boxfile_check_image_archive()). Its image and home
 * are copied out into a new folder of Kiste's cache, the folder of the
 * result's image_path, which the caller removes once done; nothing is left
 * when it fails. */
KisteTask          *kiste_manager_read_boxfile_async    (KisteManager         *self,
                                                         const char           *path,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteBoxfile       *kiste_manager_read_boxfile_finish   (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* Why boxfile (read and verified) cannot be opened on this computer as
 * name (its engine missing, the name taken or wrong), or NULL */
char               *kiste_manager_check_boxfile         (KisteManager         *self,
                                                         const KisteBoxfile   *boxfile,
                                                         const char           *name);

/* Makes the box of boxfile again as name, on the engine the file names:
 * the names inside its image archive are checked again, the engine loads
 * its image, the box is created from its settings with that image and
 * started, and the apps it had exported are exported again. task_func
 * follows the steps' tasks, as for kiste_manager_create_and_start_async().
 * With home_folder, the home the file holds is unpacked into that new
 * folder (which must not exist yet) and becomes the box's home; the folder
 * is removed again when the unpack or the load fails. Without, the box
 * gets the home its settings name. Checks everything before any process
 * starts. */
void                kiste_manager_open_boxfile_async    (KisteManager         *self,
                                                         const KisteBoxfile   *boxfile,
                                                         const char           *name,
                                                         const char           *home_folder,
                                                         KisteCreationTaskFunc task_func,
                                                         gpointer              task_data,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

G_END_DECLS
