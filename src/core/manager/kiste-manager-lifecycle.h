/* kiste-manager-lifecycle.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-autostart.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* The manager's operations on a box's life (kiste-manager-lifecycle.c,
 * kiste-manager-clone.c). Each validates its input before any process
 * starts, returns its KisteTask (transfer none) so people can follow it,
 * and completes with kiste_manager_operation_finish(). */

KisteTask          *kiste_manager_start_async           (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_stop_async            (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_restart_async         (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* remove_home: also delete the box's custom home folder (never the host home) */
KisteTask          *kiste_manager_delete_async          (KisteManager         *self,
                                                         const char           *box_name,
                                                         gboolean              remove_home,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_upgrade_async         (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* The source must be stopped: stop_first stops it (after asking people) */
KisteTask          *kiste_manager_clone_async           (KisteManager         *self,
                                                         const char           *source,
                                                         const char           *new_name,
                                                         gboolean              stop_first,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_rename_async          (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *new_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

/* Starting a box at login (kiste-manager-autostart.c): a systemd user unit
 * on the host that starts the box at login and stops it at logout. The
 * state is KISTE_AUTOSTART_UNAVAILABLE with a reason for people when the
 * session has no systemd user manager or a unit of the user's own has the
 * name; finish with kiste_manager_get_autostart_finish(). */
void                kiste_manager_get_autostart_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteAutostartState kiste_manager_get_autostart_finish  (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         char                **reason,
                                                         GError              **error);
/* Writes, reloads and enables the box's unit, or disables and removes it;
 * never touches a unit of the user's own of that name */
KisteTask          *kiste_manager_set_autostart_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         gboolean              enabled,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

G_END_DECLS
