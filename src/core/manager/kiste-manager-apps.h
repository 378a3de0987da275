/* kiste-manager-apps.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-apps.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* The manager's apps and exports (kiste-manager-apps.c,
 * kiste-manager-exported.c): a box's apps,
 * adding them and its programs to the host, its own launcher, and what
 * boxes left on the host. */

/* The folder exported programs go to (~/.local/bin by default) */
const char         *kiste_manager_get_bin_dir           (KisteManager         *self);

/* Follows the host folders of exported launchers and wrappers with file
 * monitors (no polling) while at least one watch is held: the
 * "exported-changed" signal says something there changed. */
void                kiste_manager_watch_exported        (KisteManager         *self);
void                kiste_manager_unwatch_exported      (KisteManager         *self);

/* Starts the box when needed, lists its apps in one exec and marks those
 * exported on the host. kiste_manager_query_finish() gives a GPtrArray
 * of KisteDesktopApp. */
KisteTask          *kiste_manager_list_apps_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* desktop_path: absolute path of the .desktop file inside the box */
KisteTask          *kiste_manager_export_app_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *desktop_path,
                                                         gboolean              unexport,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* binary_path: absolute path of the program inside the box */
KisteTask          *kiste_manager_export_binary_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *binary_path,
                                                         gboolean              unexport,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* The box's own launcher in the host menu (a terminal in the box), from
 * `distrobox generate-entry`: whether it is there, and adding or removing
 * it (a KisteTask; finish with kiste_manager_operation_finish()). */
void                kiste_manager_get_box_entry_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_get_box_entry_finish  (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         gboolean             *present,
                                                         GError              **error);
KisteTask          *kiste_manager_set_box_entry_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         gboolean              present,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* What the box has exported on the host: a GPtrArray of KisteExportedFile
 * (kiste_manager_query_finish()) */
void                kiste_manager_list_exported_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* Where a running box finds program (a name or an absolute path, checked
 * with kiste_validate_program() first): kiste_manager_query_finish() gives the absolute path
 * inside the box, or KISTE_ERROR_NOT_FOUND. */
void                kiste_manager_resolve_program_async (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *program,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* A program of the host's PATH with program's basename, outside the folder
 * of exported programs: kiste_manager_query_finish() gives its path, or NULL without an error
 * when the host has none. */
void                kiste_manager_find_host_program_async (KisteManager       *self,
                                                           const char         *program,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
/* Everything every box exported on the host, stale ones (their box is not
 * in the list) marked: a GPtrArray of KisteExportedFile
 * (kiste_manager_query_finish()). Until the boxes
 * are listed, use kiste_box_store_get_loaded() before trusting stale. */
void                kiste_manager_list_all_exported_async (KisteManager       *self,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
/* Removes those of paths that, read again, are still distrobox's exports
 * of a box that is not there; refuses while the boxes are not listed. */
KisteTask          *kiste_manager_clean_up_exported_async (KisteManager       *self,
                                                           const char * const *paths,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);

G_END_DECLS
