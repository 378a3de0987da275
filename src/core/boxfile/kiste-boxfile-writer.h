/* kiste-boxfile-writer.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Writes a box file member by member, so a save can put each member in
 * while the next is still being made: the home while the box is
 * committed, then the image straight from the engine through a named
 * pipe. Everything goes into a hidden temporary file beside the chosen
 * one, renamed to it by kiste_boxfile_writer_close(); a writer dropped
 * before that removes it. One member is added at a time. */

#pragma once

#include <gio/gio.h>

#include "kiste-boxfile.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOXFILE_WRITER (kiste_boxfile_writer_get_type ())

G_DECLARE_FINAL_TYPE (KisteBoxfileWriter, kiste_boxfile_writer, KISTE, BOXFILE_WRITER, GObject)

KisteBoxfileWriter *kiste_boxfile_writer_new          (const char           *path,
                                                       GError              **error);

/* Copies what source holds, to its end, into the member name, computing
 * its SHA-256. source is a file, or a named pipe another process writes
 * into: the copy waits for that process, and cancelling is how to stop
 * the wait when it never comes. progress gets the member's bytes so far
 * (its total is not known: 0). */
gboolean            kiste_boxfile_writer_add          (KisteBoxfileWriter   *self,
                                                       const char           *name,
                                                       const char           *source,
                                                       KisteBoxfileProgress  progress,
                                                       gpointer              progress_data,
                                                       GCancellable         *cancellable,
                                                       GError              **error);
void                kiste_boxfile_writer_add_async    (KisteBoxfileWriter   *self,
                                                       const char           *name,
                                                       const char           *source,
                                                       KisteBoxfileProgress  progress,
                                                       gpointer              progress_data,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean            kiste_boxfile_writer_add_finish   (KisteBoxfileWriter   *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

/* The size of a member added, 0 for one that was not */
guint64             kiste_boxfile_writer_get_size     (KisteBoxfileWriter   *self,
                                                       const char           *name);

/* A process that ended without opening the named pipe at path leaves
 * its reader waiting: this opens and closes it, so the reader sees the
 * end. Nothing happens when nobody reads it any more. */
void                kiste_boxfile_writer_end_pipe     (const char           *path);

/* Adds boxfile's settings, its apps and the index, ends the archive,
 * makes sure it is on the disk and gives it its name. The image member
 * must have been added. */
gboolean            kiste_boxfile_writer_close        (KisteBoxfileWriter   *self,
                                                       const KisteBoxfile   *boxfile,
                                                       GCancellable         *cancellable,
                                                       GError              **error);
void                kiste_boxfile_writer_close_async  (KisteBoxfileWriter   *self,
                                                       const KisteBoxfile   *boxfile,
                                                       GCancellable         *cancellable,
                                                       GAsyncReadyCallback   callback,
                                                       gpointer              user_data);
gboolean            kiste_boxfile_writer_close_finish (KisteBoxfileWriter   *self,
                                                       GAsyncResult         *result,
                                                       GError              **error);

/* Removes the file being written now; a copy still running writes on
 * into nothing, and the writer cannot be closed any more */
void                kiste_boxfile_writer_abort        (KisteBoxfileWriter   *self);

G_END_DECLS
