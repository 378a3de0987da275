/* kiste-manager.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-box-list.h"
#include "kiste-capabilities.h"
#include "kiste-runner.h"
#include "kiste-task.h"

G_BEGIN_DECLS

#define KISTE_TYPE_MANAGER (kiste_manager_get_type ())

G_DECLARE_FINAL_TYPE (KisteManager, kiste_manager, KISTE, MANAGER, GObject)

/* The one door to podman, docker and distrobox: it owns the runner, the
 * capabilities and the live box store, and runs every operation as a
 * KisteTask, one at a time per box. This header holds what every user of
 * the manager needs; its operations are declared by domain in
 * kiste-manager-lifecycle.h, -create.h, -apps.h, -terminal.h and
 * -queries.h. */
KisteManager       *kiste_manager_new                   (KisteRunner          *runner);
/* For the core only: widgets ask the manager, never the runner */
KisteRunner        *kiste_manager_get_runner            (KisteManager         *self);
KisteCapabilities  *kiste_manager_get_capabilities      (KisteManager         *self);
/* Every box of every engine the computer has (kiste-box-list.h) */
KisteBoxList       *kiste_manager_get_boxes             (KisteManager         *self);
void                kiste_manager_shutdown              (KisteManager         *self);
/* "cleaning-up": TRUE while work runs that must end before the app does
 * (a closed terminal's shell being ended in its box); the app holds on
 * while it is set */
gboolean            kiste_manager_get_cleaning_up       (KisteManager         *self);
/* The container engine commands go to ("podman", "docker"): the one in
 * use, else the one found, else podman */
const char         *kiste_manager_get_engine            (KisteManager         *self);
gboolean            kiste_manager_get_in_flatpak        (KisteManager         *self);

/* The Flatpak's own distrobox, for hosts without one (installing it
 * finishes with kiste_manager_operation_finish()) */
const char         *kiste_manager_get_bundled_distrobox_version (KisteManager   *self);
char               *kiste_manager_dup_own_distrobox_version     (KisteManager   *self);
void                kiste_manager_install_distrobox_async       (KisteManager        *self,
                                                                 GCancellable        *cancellable,
                                                                 GAsyncReadyCallback  callback,
                                                                 gpointer             user_data);
/* Every task, running and finished, oldest first (a GListModel of KisteTask) */
GListModel         *kiste_manager_get_tasks             (KisteManager         *self);
/* Drops the finished tasks from the list; running ones stay */
void                kiste_manager_clear_finished_tasks  (KisteManager         *self);
/* The running task of the box, or NULL */
KisteTask          *kiste_manager_get_task_for_box      (KisteManager         *self,
                                                         const char           *box_name);
gboolean            kiste_manager_is_busy               (KisteManager         *self,
                                                         const char           *box_name);

/* Probes distrobox and the container managers, picks the manager
 * (preferred: "podman", "docker", or NULL/"auto" for distrobox's own
 * choice), lists the boxes and starts following changes.
 * KISTE_ERROR_TOOL_MISSING when distrobox or a manager is missing.
 * Finish with kiste_manager_operation_finish(). */
void                kiste_manager_load_async            (KisteManager         *self,
                                                         const char           *preferred,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

/* Finishes every call whose answer is done or failed: the operations
 * returning a KisteTask (except list_apps), load, and the others whose
 * comment says so */
gboolean            kiste_manager_operation_finish      (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* Finishes every call with an answer (list_apps and the questions of
 * kiste-manager-queries.h and -apps.h): (transfer full) the answer, of
 * the type the call's comment names, or NULL with error set */
gpointer            kiste_manager_query_finish          (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

G_END_DECLS
