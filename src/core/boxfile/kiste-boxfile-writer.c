/* kiste-boxfile-writer.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box file written member by member while the engine and tar make
 * them: each large member is read from a named pipe (or a finished file)
 * straight into the temporary file beside the chosen one, hashed on the
 * way, behind a header written again with its size once it ended. The
 * settings, the apps and the index come last; only then is the file
 * renamed to the chosen name. Anything else removes it. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <nettle/sha2.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-error.h"

#define CHUNK (1024 * 1024)

/* Where progress goes: shared with the calls on their way there, so a
 * writer freed meanwhile leaves them something to call */
typedef struct
{
  KisteBoxfileProgress  func;
  gpointer              data;
  GDestroyNotify        destroy;
  GMainContext         *context;
} Target;

static void
target_clear (Target *target)
{
  if (target->destroy != NULL)
    target->destroy (target->data);
  g_main_context_unref (target->context);
}

struct _KisteBoxfileWriter
{
  /* the chosen name, its folder's temporary one and the file's end */
  char                 *path;
  char                 *base;
  char                 *temp;
  int                   fd;
  guint64               end;
  /* name → "SIZE SHA256" of every member written */
  GHashTable           *members;
  Target               *target;
  /* written by one worker at a time, read on the caller's context */
  guint64               done;
  guint64               shown;
  gboolean              busy;
  gboolean              finished;
};

void
kiste_boxfile_writer_free (KisteBoxfileWriter *self)
{
  if (self == NULL)
    return;
  g_return_if_fail (!self->busy);

  if (self->fd >= 0)
    close (self->fd);
  /* never renamed: a half-written file goes */
  if (!self->finished && self->temp != NULL)
    g_unlink (self->temp);
  g_free (self->path);
  g_free (self->base);
  g_free (self->temp);
  g_clear_pointer (&self->members, g_hash_table_unref);
  g_atomic_rc_box_release_full (self->target, (GDestroyNotify) target_clear);
  g_free (self);
}

KisteBoxfileWriter *
kiste_boxfile_writer_new (const char            *path,
                          KisteBoxfileProgress   progress,
                          gpointer               progress_data,
                          GDestroyNotify         progress_destroy,
                          GError               **error)
{
  g_autofree char *dir = NULL;
  KisteBoxfileWriter *self;
  int saved;

  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  self = g_new0 (KisteBoxfileWriter, 1);
  self->fd = -1;
  self->path = g_strdup (path);
  self->base = g_path_get_basename (path);
  self->members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->target = g_atomic_rc_box_new0 (Target);
  self->target->func = progress;
  self->target->data = progress_data;
  self->target->destroy = progress_destroy;
  self->target->context = g_main_context_ref_thread_default ();
  dir = g_path_get_dirname (path);
  /* a hidden name beside the chosen one: the rename at the end stays in
   * one folder, and nothing ever has the chosen name half written */
  self->temp = g_strdup_printf ("%s/.%s.XXXXXX.part", dir, self->base);
  if ((self->fd = g_mkstemp_full (self->temp, O_RDWR | O_CLOEXEC, 0644)) >= 0)
    return self;

  saved = errno;
  g_clear_pointer (&self->temp, g_free);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("Could not write in “%s”: %s"), dir, g_strerror (saved));
  kiste_boxfile_writer_free (self);
  return NULL;
}

static gboolean
write_error (KisteBoxfileWriter  *self,
             int                  saved,
             GError             **error)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
               _("Could not write “%s”: %s"), self->base, g_strerror (saved));
  return FALSE;
}

static gboolean
write_all (KisteBoxfileWriter  *self,
           const void          *data,
           gsize                length,
           GError             **error)
{
  const guchar *p = data;

  while (length > 0)
    {
      gssize n = write (self->fd, p, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return write_error (self, errno, error);
      p += n;
      length -= n;
      self->end += n;
    }
  return TRUE;
}

static gboolean
write_at (KisteBoxfileWriter  *self,
          guint64              offset,
          const guchar        *data,
          gsize                length,
          GError             **error)
{
  while (length > 0)
    {
      gssize n = pwrite (self->fd, data, length, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return write_error (self, errno, error);
      data += n;
      length -= n;
      offset += n;
    }
  return TRUE;
}

static const guchar zeros[KISTE_TAR_BLOCK];

static gboolean
write_padding (KisteBoxfileWriter  *self,
               guint64              size,
               GError             **error)
{
  return write_all (self, zeros, (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK,
                    error);
}

static void
add_member (KisteBoxfileWriter *self,
            const char         *name,
            guint64             size,
            struct sha256_ctx  *ctx)
{
  g_autofree char *sha = _kiste_boxfile_sha256_finish (ctx);

  g_hash_table_replace (self->members, g_strdup (name),
                        g_strdup_printf ("%" G_GUINT64_FORMAT " %s", size, sha));
}

/* Progress from the worker, shown on the caller's context */

typedef struct
{
  Target  *target;
  guint64  done;
} ProgressCall;

static gboolean
progress_call (gpointer user_data)
{
  ProgressCall *call = user_data;

  call->target->func (call->done, 0, call->target->data);
  return G_SOURCE_REMOVE;
}

static void
progress_call_free (ProgressCall *call)
{
  g_atomic_rc_box_release_full (call->target, (GDestroyNotify) target_clear);
  g_free (call);
}

/* bytes more written; every 16 MiB and at a member's end, the count */
static void
progress_add (KisteBoxfileWriter *self,
              guint64             bytes,
              gboolean            now)
{
  ProgressCall *call;

  self->done += bytes;
  if (self->target->func == NULL || (!now && self->done - self->shown < 16 * 1024 * 1024))
    return;
  self->shown = self->done;
  call = g_new (ProgressCall, 1);
  call->target = g_atomic_rc_box_acquire (self->target);
  call->done = self->done;
  g_main_context_invoke_full (self->target->context, G_PRIORITY_DEFAULT, progress_call, call,
                              (GDestroyNotify) progress_call_free);
}

/* One large member, from source until its writer closed it */

typedef struct
{
  char         *name;
  char         *source;
  GCancellable *ended;
} AddJob;

static void
add_job_free (AddJob *job)
{
  g_free (job->name);
  g_free (job->source);
  g_clear_object (&job->ended);
  g_free (job);
}

/* Reads what is there, setting *eof at the end (no writer left). Once
 * writing failed (*failed, a full disk), the rest is read and dropped:
 * a producer must never wait for a reader that went away. FALSE when
 * reading failed. */
static gboolean
read_some (KisteBoxfileWriter  *self,
           int                  in,
           guchar              *buffer,
           struct sha256_ctx   *ctx,
           guint64             *size,
           gboolean            *eof,
           GError             **failed,
           GError             **error)
{
  for (;;)
    {
      gssize n = read (in, buffer, CHUNK);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        return TRUE;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read what goes into “%s”: %s"), self->base,
                       g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        {
          *eof = TRUE;
          return TRUE;
        }
      if (*failed != NULL)
        continue;
      sha256_update (ctx, n, buffer);
      if (write_all (self, buffer, n, failed))
        {
          *size += n;
          progress_add (self, n, FALSE);
        }
    }
}

static gboolean
add_from (KisteBoxfileWriter  *self,
          AddJob              *job,
          int                  in,
          GCancellable        *cancellable,
          GError             **error)
{
  g_autofree guchar *buffer = g_malloc (CHUNK);
  guchar block[KISTE_TAR_BLOCK];
  guint64 start = self->end;
  guint64 size = 0;
  struct sha256_ctx ctx;
  gboolean eof = FALSE;
  gboolean ended = FALSE;
  GError *failed = NULL;

  sha256_init (&ctx);
  /* a header without a size for now: written again at the end */
  _kiste_boxfile_tar_header (block, job->name, 0);
  write_all (self, block, sizeof block, &failed);

  while (!eof)
    {
      struct pollfd fds[3] = { { in, POLLIN, 0 }, { -1, POLLIN, 0 }, { -1, POLLIN, 0 } };

      fds[1].fd = g_cancellable_get_fd (cancellable);
      fds[2].fd = ended ? -1 : g_cancellable_get_fd (job->ended);
      if (poll (fds, G_N_ELEMENTS (fds), -1) < 0 && errno != EINTR)
        {
          g_clear_error (&failed);
          return write_error (self, errno, error);
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_clear_error (&failed);
          return FALSE;
        }
      /* the producer is gone: what it wrote is all in the pipe, and a
       * pipe nobody opened reads as empty */
      if (g_cancellable_is_cancelled (job->ended))
        ended = TRUE;
      /* a pipe opened before its producer polls as nothing until then */
      if ((fds[0].revents != 0 || ended) &&
          !read_some (self, in, buffer, &ctx, &size, &eof, &failed, error))
        {
          g_clear_error (&failed);
          return FALSE;
        }
    }
  if (failed != NULL)
    {
      g_propagate_error (error, failed);
      return FALSE;
    }
  if (size == 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("Nothing was written for “%s”."), job->name);
      return FALSE;
    }
  if (!write_padding (self, size, error))
    return FALSE;
  _kiste_boxfile_tar_header (block, job->name, size);
  if (!write_at (self, start, block, sizeof block, error))
    return FALSE;
  add_member (self, job->name, size, &ctx);
  progress_add (self, 0, TRUE);
  return TRUE;
}

static void
add_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  KisteBoxfileWriter *self = g_object_get_data (G_OBJECT (task), "kiste-writer");
  AddJob *job = task_data;
  GError *error = NULL;
  gboolean ok;
  int in;

  /* never blocks, also on a pipe its producer has not opened yet */
  if ((in = g_open (job->source, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)) < 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               _("Could not read what goes into “%s”: %s"), self->base,
                               g_strerror (saved));
      return;
    }
  ok = add_from (self, job, in, cancellable, &error);
  close (in);
  g_cancellable_release_fd (cancellable);
  g_cancellable_release_fd (job->ended);
  if (!ok)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_boxfile_writer_add_async (KisteBoxfileWriter  *self,
                                const char          *name,
                                const char          *source,
                                GCancellable        *ended,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  AddJob *job;

  g_return_if_fail (self != NULL && !self->busy && !self->finished);
  g_return_if_fail (name != NULL && source != NULL);
  g_return_if_fail (G_IS_CANCELLABLE (ended) && G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_boxfile_writer_add_async);
  /* the writer's owner frees it only once this ended */
  g_object_set_data (G_OBJECT (task), "kiste-writer", self);
  job = g_new0 (AddJob, 1);
  job->name = g_strdup (name);
  job->source = g_strdup (source);
  job->ended = g_object_ref (ended);
  g_task_set_task_data (task, job, (GDestroyNotify) add_job_free);
  /* the cancellable ends the read, not only the wait for it */
  g_task_set_return_on_cancel (task, FALSE);
  self->busy = TRUE;
  g_task_run_in_thread (task, add_thread);
}

gboolean
kiste_boxfile_writer_add_finish (KisteBoxfileWriter  *self,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  self->busy = FALSE;
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The small members, the index, the end of the archive, then the name */

static gboolean
write_bytes_member (KisteBoxfileWriter  *self,
                    const char          *name,
                    const char          *data,
                    gsize                length,
                    gboolean             listed,
                    GError             **error)
{
  guchar block[KISTE_TAR_BLOCK];
  struct sha256_ctx ctx;

  _kiste_boxfile_tar_header (block, name, length);
  if (!write_all (self, block, sizeof block, error) ||
      !write_all (self, data, length, error) ||
      !write_padding (self, length, error))
    return FALSE;
  if (listed)
    {
      sha256_init (&ctx);
      sha256_update (&ctx, length, (const guint8 *) data);
      add_member (self, name, length, &ctx);
    }
  return TRUE;
}

static gboolean
finish (KisteBoxfileWriter  *self,
        const KisteBoxfile  *boxfile,
        GCancellable        *cancellable,
        GError             **error)
{
  g_autofree char *apps = NULL;
  g_autofree char *index = NULL;

  if (!kiste_boxfile_check (boxfile, error))
    return FALSE;
  if (!g_hash_table_contains (self->members, KISTE_BOXFILE_IMAGE))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("Nothing was written for “%s”."), KISTE_BOXFILE_IMAGE);
      return FALSE;
    }
  if (boxfile->apps != NULL && boxfile->apps[0] != NULL)
    {
      g_autofree char *lines = g_strjoinv ("\n", boxfile->apps);

      apps = g_strconcat (lines, "\n", NULL);
    }
  else
    apps = g_strdup ("");

  if (!write_bytes_member (self, KISTE_BOXFILE_SETTINGS, boxfile->settings,
                           strlen (boxfile->settings), TRUE, error) ||
      !write_bytes_member (self, KISTE_BOXFILE_APPS, apps, strlen (apps), TRUE, error))
    return FALSE;
  index = kiste_boxfile_build_index (boxfile, self->members);
  if (!write_bytes_member (self, KISTE_BOXFILE_INDEX, index, strlen (index), FALSE, error) ||
      !write_all (self, zeros, sizeof zeros, error) ||
      !write_all (self, zeros, sizeof zeros, error))
    return FALSE;
  if (fsync (self->fd) != 0)
    return write_error (self, errno, error);
  if (close (self->fd) != 0)
    {
      self->fd = -1;
      return write_error (self, errno, error);
    }
  self->fd = -1;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (g_rename (self->temp, self->path) != 0)
    return write_error (self, errno, error);
  self->finished = TRUE;
  return TRUE;
}

static void
finish_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KisteBoxfileWriter *self = g_object_get_data (G_OBJECT (task), "kiste-writer");
  GError *error = NULL;

  if (!finish (self, task_data, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_boxfile_writer_finish_async (KisteBoxfileWriter  *self,
                                   const KisteBoxfile  *boxfile,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (self != NULL && !self->busy && !self->finished);
  g_return_if_fail (boxfile != NULL && boxfile->settings != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_boxfile_writer_finish_async);
  g_object_set_data (G_OBJECT (task), "kiste-writer", self);
  g_task_set_task_data (task, kiste_boxfile_copy (boxfile), (GDestroyNotify) kiste_boxfile_free);
  self->busy = TRUE;
  g_task_run_in_thread (task, finish_thread);
}

gboolean
kiste_boxfile_writer_finish_finish (KisteBoxfileWriter  *self,
                                    GAsyncResult        *result,
                                    GError             **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  self->busy = FALSE;
  return g_task_propagate_boolean (G_TASK (result), error);
}
