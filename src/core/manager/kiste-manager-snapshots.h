/* kiste-manager-snapshots.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-journal.h"
#include "kiste-manager.h"
#include "kiste-snapshot.h"

G_BEGIN_DECLS

/* Snapshots of boxes (kiste-manager-snapshots.c) and boxes made again
 * (kiste-manager-recreate.c).
 * Each operation checks its input before any process starts, returns its
 * KisteTask (transfer none) and completes with
 * kiste_manager_operation_finish(). Toolboxes are refused: Toolbx makes
 * its boxes itself, with settings Kiste cannot read back.
 *
 * Making a box again is fail-safe: its settings are read and checked
 * first, a newer image is pulled, a journal is written (kiste-journal.h),
 * a snapshot of the box is taken, and only then is the box removed and
 * made again with the same name and settings. What it exported to the
 * host stays, its home folder is never touched. When anything fails after
 * the box went, the box is made again from the snapshot and the error says
 * what failed. People may cancel until the box is removed; from there the
 * operation finishes or restores, and the app waits for it. */

/* Commits the box into a snapshot image; a running box is paused only
 * while it is copied */
KisteTask *kiste_manager_take_snapshot_async      (KisteManager         *self,
                                                   const char           *box_ref,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* The box's snapshots; finish with kiste_manager_query_finish(): a
 * GPtrArray of KisteSnapshot, newest first */
void       kiste_manager_list_snapshots_async     (KisteManager         *self,
                                                   const char           *box_ref,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Removes snapshots of the box (images: kiste_snapshot_get_image()); the
 * box may be gone already */
KisteTask *kiste_manager_delete_snapshots_async   (KisteManager         *self,
                                                   const char           *box_ref,
                                                   const char * const   *images,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Makes the box again from its own image: pull first downloads it again
 * (a newer one under the same name); keep_snapshot keeps the snapshot
 * taken before, so the changes made in the box stay at hand */
KisteTask *kiste_manager_recreate_async           (KisteManager         *self,
                                                   const char           *box_ref,
                                                   gboolean              pull,
                                                   gboolean              keep_snapshot,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Makes the box again from one of its snapshots, as recreate does */
KisteTask *kiste_manager_restore_snapshot_async   (KisteManager         *self,
                                                   const char           *box_ref,
                                                   const char           *image,
                                                   gboolean              keep_snapshot,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* A new box new_name from one of box_ref's snapshots, with box_ref's
 * settings (its home folder too, as a clone) */
KisteTask *kiste_manager_create_from_snapshot_async (KisteManager       *self,
                                                   const char           *box_ref,
                                                   const char           *image,
                                                   const char           *new_name,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);

/* What operations killed half-way left behind: finish with
 * kiste_manager_query_finish(), a GPtrArray of KisteLeftover. Journals of
 * operations that left nothing to do are removed on the way. */
typedef struct
{
  KisteJournal       *journal;
  KisteLeftoverState  state;
} KisteLeftover;

void       kiste_leftover_free                    (KisteLeftover        *leftover);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteLeftover, kiste_leftover_free)

void       kiste_manager_find_leftovers_async     (KisteManager         *self,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
/* Finishes (finish TRUE) or undoes what the journal of engine's box_name
 * left, as kiste-journal.h says for each state; looks again first */
KisteTask *kiste_manager_resolve_leftover_async   (KisteManager         *self,
                                                   const char           *engine,
                                                   const char           *box_name,
                                                   gboolean              finish,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);

G_END_DECLS
