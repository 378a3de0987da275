/* kiste-journal.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-create-options.h"

G_BEGIN_DECLS

/* The journal of one box being made again: written before the box's
 * snapshot is taken and removed once the new box stands, so that when
 * Kiste is killed half-way its next start finds what was left (the box
 * without its snapshot, the snapshot without its box, the new box beside
 * the snapshot) and can finish or undo it. One file per box, JSON, written
 * through a temporary file (kiste_file_replace()). What a file says is
 * checked again when it is read: it may be damaged. */

typedef struct
{
  char               *engine;
  char               *box_name;
  /* the old box's container id */
  char               *box_id;
  /* the snapshot taken before the old box went */
  char               *snapshot;
  /* what the box is made again from, with these options */
  KisteCreateOptions *options;
  /* the snapshot stays once the new box stands */
  gboolean            keep_snapshot;
  /* when it began (Unix time) */
  gint64              started;
} KisteJournal;

/* What is left of an operation its journal names */
typedef enum
{
  /* the old box and no snapshot (or the new box and no snapshot): the box
   * is as it should be; the journal only goes */
  KISTE_LEFTOVER_NONE,
  /* the old box and its snapshot: finish makes the box again, undo
   * removes the snapshot (unless it was to be kept) */
  KISTE_LEFTOVER_BOX_AND_SNAPSHOT,
  /* the snapshot without its box: finish makes the box from the image,
   * undo makes it from the snapshot */
  KISTE_LEFTOVER_SNAPSHOT_ONLY,
  /* the new box beside the snapshot: finish removes the snapshot (unless
   * it was to be kept), undo makes the box from the snapshot again */
  KISTE_LEFTOVER_NEW_BOX,
  /* neither box nor snapshot: nothing can be done */
  KISTE_LEFTOVER_LOST,
} KisteLeftoverState;

/* At most this many journals are read, each at most this long */
#define KISTE_JOURNAL_MAX_FILES 64
#define KISTE_JOURNAL_MAX_SIZE  (64 * 1024)

KisteJournal       *kiste_journal_new        (const char          *engine,
                                              const char          *box_name,
                                              const char          *box_id,
                                              const char          *snapshot,
                                              KisteCreateOptions  *options,
                                              gboolean             keep_snapshot);
void                kiste_journal_free       (KisteJournal        *journal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteJournal, kiste_journal_free)

char               *kiste_journal_to_json    (KisteJournal        *journal);
/* KISTE_ERROR_BAD_OUTPUT when data is no journal Kiste wrote, or names
 * anything a box, an engine or a snapshot may not be called */
KisteJournal       *kiste_journal_parse      (const char          *data,
                                              GError             **error);

/* DIR/ENGINE-NAME.json */
char               *kiste_journal_dup_path   (const char          *dir,
                                              const char          *engine,
                                              const char          *box_name);
gboolean            kiste_journal_write      (KisteJournal        *journal,
                                              const char          *dir,
                                              GError             **error);
/* TRUE also when there was none */
gboolean            kiste_journal_remove     (const char          *dir,
                                              const char          *engine,
                                              const char          *box_name,
                                              GError             **error);
/* Every journal in dir that reads (KisteJournal), oldest first; damaged
 * files are left where they are and skipped */
GPtrArray          *kiste_journal_load_all   (const char          *dir);

/* What is left, from what is there now: whether a box of the name exists
 * and its id, whether the snapshot exists */
KisteLeftoverState  kiste_journal_classify   (KisteJournal        *journal,
                                              gboolean             box_exists,
                                              const char          *box_id,
                                              gboolean             snapshot_exists);

G_END_DECLS
