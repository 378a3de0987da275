/* kiste-manager-create.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-assemble.h"
#include "kiste-create-options.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* Creating boxes (kiste-manager-create.c): one from options, the whole
 * way to a ready box, and every box of a manifest. Each validates its
 * input before any process starts and completes with
 * kiste_manager_operation_finish(). */

KisteTask          *kiste_manager_create_async          (KisteManager         *self,
                                                         KisteCreateOptions   *options,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

/* Creates the box, then starts it for the first time: the whole way to a
 * ready box. task_func is called with each step's KisteTask as it starts
 * (first the create, then the first start) so people can follow both.
 * Returns the create task (transfer none), or NULL when it could not
 * begin; finish with kiste_manager_operation_finish(). */
typedef enum
{
  KISTE_CREATION_STEP_CREATE,
  KISTE_CREATION_STEP_FIRST_START,
} KisteCreationStep;

typedef void (*KisteCreationTaskFunc) (KisteTask         *task,
                                       KisteCreationStep  step,
                                       gpointer           user_data);

KisteTask          *kiste_manager_create_and_start_async (KisteManager          *self,
                                                          KisteCreateOptions    *options,
                                                          KisteCreationTaskFunc  task_func,
                                                          gpointer               task_data,
                                                          GDestroyNotify         task_data_destroy,
                                                          GCancellable          *cancellable,
                                                          GAsyncReadyCallback    callback,
                                                          gpointer               user_data);

/* Why each manifest entry (KisteAssembleEntry) cannot be created as
 * written, checked against the boxes there are and the entries before it:
 * a GPtrArray of messages, NULL where an entry is fine. */
GPtrArray          *kiste_manager_check_entries         (KisteManager         *self,
                                                         GPtrArray            *entries);
/* Creates every entry of a manifest in order, and starts those marked
 * start_now, one at a time; stops at the first failure. Nothing runs when
 * an entry cannot be created (KISTE_ERROR_INVALID_INPUT saying which).
 * Finish with kiste_manager_operation_finish(). */
void                kiste_manager_create_all_async      (KisteManager         *self,
                                                         GPtrArray            *entries,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

G_END_DECLS
