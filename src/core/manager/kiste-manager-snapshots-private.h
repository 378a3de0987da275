/* kiste-manager-snapshots-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the manager's snapshot files share (kiste-manager-snapshots.c
 * defines it):
 * kiste-manager-snapshots.c  snapshots taken, listed, deleted; a new box
 *                            from one
 * kiste-manager-recreate.c   boxes made again (recreate, update, restore)
 *                            and what a killed operation left */

#pragma once

#include "kiste-manager-snapshots.h"

G_BEGIN_DECLS

/* A commit of a big box */
#define COMMIT_TIMEOUT_MS (60 * 60 * 1000)

/* The host's home folder: the box list's, or this process's */
const char *_kiste_manager_get_host_home           (KisteManager *self);

/* Fails the operation (taking task) unless the box is there and no
 * toolbox; returns the box */
KisteBox   *_kiste_manager_require_distrobox       (GTask        *task);

/* Whether a commit may pause the operation's box: FALSE, said in the task,
 * when its engine could not pause a box before */
gboolean    _kiste_manager_snapshot_may_pause      (GTask        *task);
/* After a failed commit (op->flag: it did not pause): whether it failed
 * only because the engine cannot pause the box. Then the error is
 * cleared, the engine is not asked to pause again, the task says so, and
 * the caller commits once more without pausing. */
gboolean    _kiste_manager_snapshot_retry_unpaused (GTask        *task);

/* Runs the listing of box_name's snapshots on engine (taking task), which
 * returns a GPtrArray of KisteSnapshot, newest first; sets the task's
 * data to the box's name */
void        _kiste_manager_list_snapshots_run      (KisteManager *self,
                                                    GTask        *task,
                                                    const char   *engine,
                                                    const char   *box_name);

G_END_DECLS
