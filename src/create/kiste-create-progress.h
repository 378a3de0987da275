/* kiste-create-progress.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager-create.h"

G_BEGIN_DECLS

#define KISTE_TYPE_CREATE_PROGRESS (kiste_create_progress_get_type ())

G_DECLARE_FINAL_TYPE (KisteCreateProgress, kiste_create_progress, KISTE, CREATE_PROGRESS, AdwBin)

/* The way of one box to being ready: download, create, first start, each
 * with its state, the current step, a progress bar and the output; on a
 * failure what went wrong, with "retry" and "delete" (the box that was
 * left behind) for the dialog to act on. It only shows: the dialog starts
 * and stops the creation. */
KisteCreateProgress *kiste_create_progress_new          (void);

/* Starts over for a box made from options; with image_local the download
 * is skipped unless the options ask for a pull */
void                 kiste_create_progress_begin        (KisteCreateProgress *self,
                                                         KisteCreateOptions  *options,
                                                         gboolean             image_local);
/* Follows the task of a step of kiste_manager_create_and_start_async() */
void                 kiste_create_progress_follow       (KisteCreateProgress *self,
                                                         KisteTask           *task,
                                                         KisteCreationStep    step);
/* The followed task, or NULL */
KisteTask           *kiste_create_progress_get_task     (KisteCreateProgress *self);
/* People asked to stop */
void                 kiste_create_progress_stopping     (KisteCreateProgress *self);
void                 kiste_create_progress_succeeded    (KisteCreateProgress *self);
/* What stopped it; box_exists: a box was left behind (Delete Box shows) */
void                 kiste_create_progress_failed       (KisteCreateProgress *self,
                                                         const GError        *error,
                                                         gboolean             box_exists);
/* While the box left behind is being deleted, and once it is */
void                 kiste_create_progress_set_deleting (KisteCreateProgress *self,
                                                         gboolean             deleting);
void                 kiste_create_progress_deleted      (KisteCreateProgress *self);
/* Lets go of the task and stops animating */
void                 kiste_create_progress_stop         (KisteCreateProgress *self);
/* For the dialog's default widget and focus after a failure */
GtkWidget           *kiste_create_progress_get_retry_button (KisteCreateProgress *self);

G_END_DECLS
