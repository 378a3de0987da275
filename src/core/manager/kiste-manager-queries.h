/* kiste-manager-queries.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-stats.h"
#include "kiste-image.h"
#include "kiste-manager.h"

G_BEGIN_DECLS

/* Questions that change nothing (kiste-manager-queries.c): none is a
 * KisteTask; people do not follow them in the task list. Each finishes
 * with kiste_manager_query_finish(), the log with
 * kiste_manager_operation_finish(). */

/* The engine's local images: a GPtrArray of KisteImage, downloaded */
void                kiste_manager_list_images_async     (KisteManager         *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* distrobox's list of images known to work: a GPtrArray of KisteImage,
 * not downloaded. distrobox needs the network the first time and keeps
 * the list; once read, it is kept for the rest of the run. */
void                kiste_manager_list_compatible_images_async  (KisteManager         *self,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
/* One sample of a running box's processor and memory use */
void                kiste_manager_get_stats_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* The box's log since since (NULL: all of it), one line at a time to
 * line_func, in the order written (its stdout and stderr as one). follow
 * keeps reading new lines until cancelled; otherwise it ends with the log
 * (within a minute). */
void                kiste_manager_stream_log_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         GDateTime            *since,
                                                         gboolean              follow,
                                                         KisteLineFunc         line_func,
                                                         gpointer              line_data,
                                                         GDestroyNotify        line_data_destroy,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

G_END_DECLS
