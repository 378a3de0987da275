/* kiste-boxfile-writer.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box file writer. A member of unknown size (a pipe's) gets a blank
 * header first and its real one, written in place, once its end is
 * known. While it writes, the writer asks the kernel to start putting
 * what it wrote on the disk, so the sync at the end has little left to
 * wait for. */

/* sync_file_range() */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile-writer.h"
#include "kiste-error.h"

#define CHUNK (1024 * 1024)
/* how much is written before the kernel is asked to start writing it out */
#define SYNC_STEP (32 * 1024 * 1024)

struct _KisteBoxfileWriter
{
  GObject     parent_instance;

  char       *path;
  char       *temporary;
  int         fd;
  guint64     offset;
  guint64     synced;
  /* name → "SIZE SHA256" */
  GHashTable *members;
  gboolean    closed;
};

G_DEFINE_FINAL_TYPE (KisteBoxfileWriter, kiste_boxfile_writer, G_TYPE_OBJECT)

static const guchar zeros[KISTE_TAR_BLOCK];

static gboolean
fail_errno (GError     **error,
            int          saved,
            const char  *path)
{
  g_autofree char *base = g_path_get_basename (path);

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Could not write “%s”: %s"),
               base, g_strerror (saved));
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
        return fail_errno (error, errno, self->path);
      p += n;
      length -= n;
      self->offset += n;
    }

#ifdef SYNC_FILE_RANGE_WRITE
  if (self->offset - self->synced >= SYNC_STEP)
    {
      sync_file_range (self->fd, self->synced, self->offset - self->synced, SYNC_FILE_RANGE_WRITE);
      self->synced = self->offset;
    }
#endif
  return TRUE;
}

static gboolean
write_padding (KisteBoxfileWriter  *self,
               guint64              size,
               GError             **error)
{
  return write_all (self, zeros, (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK,
                    error);
}

KisteBoxfileWriter *
kiste_boxfile_writer_new (const char  *path,
                          GError     **error)
{
  g_autoptr(KisteBoxfileWriter) self = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (KISTE_TYPE_BOXFILE_WRITER, NULL);
  self->path = g_strdup (path);
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  /* a hidden name beside the chosen one: the rename at the end stays in
   * one folder, and nothing ever has the chosen name half written */
  self->temporary = g_strdup_printf ("%s/.%s.XXXXXX.part", dir, base);
  if ((self->fd = g_mkstemp_full (self->temporary, O_WRONLY | O_CLOEXEC, 0644)) < 0)
    {
      int saved = errno;

      g_clear_pointer (&self->temporary, g_free);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not write in “%s”: %s"), dir, g_strerror (saved));
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* Waits until source has something to read, its writer left, or the wait
 * is cancelled. A pipe opened before any writer came does not report
 * the end until one came and left. */
static gboolean
wait_readable (int            fd,
               GCancellable  *cancellable,
               GError       **error)
{
  GPollFD fds[2] = { { fd, G_IO_IN, 0 } };
  guint n = 1;

  if (cancellable != NULL && g_cancellable_make_pollfd (cancellable, &fds[1]))
    n = 2;
  while (g_poll (fds, n, -1) < 0 && errno == EINTR)
    ;
  if (n == 2)
    g_cancellable_release_fd (cancellable);
  return !g_cancellable_set_error_if_cancelled (cancellable, error);
}

static gboolean
add_member (KisteBoxfileWriter        *self,
            const char                *name,
            const char                *source,
            KisteBoxfileProgressState *progress,
            GCancellable              *cancellable,
            GError                   **error)
{
  g_autofree guchar *buffer = NULL;
  g_autofree char *sha = NULL;
  guchar block[KISTE_TAR_BLOCK];
  struct sha256_ctx ctx;
  struct stat st;
  guint64 header_at = self->offset;
  guint64 size = 0;
  gboolean pipe;
  int in;

  if (self->closed)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The file is no longer written."));
      return FALSE;
    }

  /* not blocking: a pipe's writer may not have come yet */
  if ((in = g_open (source, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Could not read “%s”: %s"),
                   source, g_strerror (saved));
      return FALSE;
    }
  pipe = fstat (in, &st) == 0 && S_ISFIFO (st.st_mode);
#ifdef F_SETPIPE_SZ
  /* fewer, larger reads and writes on either side (best effort: the
   * system may allow less) */
  if (pipe)
    fcntl (in, F_SETPIPE_SZ, CHUNK);
#endif

  buffer = g_malloc (CHUNK);
  sha256_init (&ctx);
  if (!write_all (self, zeros, sizeof zeros, error))
    goto fail;
  for (;;)
    {
      gssize n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          (pipe && !wait_readable (in, cancellable, error)))
        goto fail;
      n = read (in, buffer, CHUNK);
      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read “%s”: %s"), source, g_strerror (saved));
          goto fail;
        }
      if (n == 0)
        break;
      sha256_update (&ctx, n, buffer);
      if (!write_all (self, buffer, n, error))
        goto fail;
      size += n;
      _kiste_boxfile_progress_add (progress, n);
    }
  close (in);
  in = -1;
  if (!write_padding (self, size, error))
    return FALSE;

  /* the real header, where the blank one is */
  _kiste_boxfile_tar_header (block, name, size);
  if (pwrite (self->fd, block, sizeof block, header_at) != sizeof block)
    return fail_errno (error, errno, self->path);
  sha = _kiste_boxfile_sha256_finish (&ctx);
  g_hash_table_replace (self->members, g_strdup (name),
                        g_strdup_printf ("%" G_GUINT64_FORMAT " %s", size, sha));
  return TRUE;

fail:
  if (in >= 0)
    close (in);
  return FALSE;
}

gboolean
kiste_boxfile_writer_add (KisteBoxfileWriter    *self,
                          const char            *name,
                          const char            *source,
                          KisteBoxfileProgress   progress,
                          gpointer               progress_data,
                          GCancellable          *cancellable,
                          GError               **error)
{
  KisteBoxfileProgressState state = { progress, progress_data, NULL, 0, 0, 0 };

  g_return_val_if_fail (KISTE_IS_BOXFILE_WRITER (self), FALSE);
  g_return_val_if_fail (name != NULL && source != NULL, FALSE);

  return add_member (self, name, source, &state, cancellable, error);
}

typedef struct
{
  char                      *name;
  char                      *source;
  KisteBoxfileProgressState  progress;
  KisteBoxfile              *boxfile;
} Job;

static void
job_free (Job *job)
{
  g_free (job->name);
  g_free (job->source);
  g_clear_pointer (&job->progress.context, g_main_context_unref);
  kiste_boxfile_free (job->boxfile);
  g_free (job);
}

static void
add_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (!add_member (source_object, job->name, job->source, &job->progress, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_boxfile_writer_add_async (KisteBoxfileWriter   *self,
                                const char           *name,
                                const char           *source,
                                KisteBoxfileProgress  progress,
                                gpointer              progress_data,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (KISTE_IS_BOXFILE_WRITER (self));
  g_return_if_fail (name != NULL && source != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_boxfile_writer_add_async);
  job = g_new0 (Job, 1);
  job->name = g_strdup (name);
  job->source = g_strdup (source);
  job->progress.func = progress;
  job->progress.data = progress_data;
  job->progress.context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, add_thread);
}

gboolean
kiste_boxfile_writer_add_finish (KisteBoxfileWriter  *self,
                                 GAsyncResult        *result,
                                 GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint64
kiste_boxfile_writer_get_size (KisteBoxfileWriter *self,
                               const char         *name)
{
  const char *member;

  g_return_val_if_fail (KISTE_IS_BOXFILE_WRITER (self), 0);

  member = g_hash_table_lookup (self->members, name);
  return member != NULL ? g_ascii_strtoull (member, NULL, 10) : 0;
}

void
kiste_boxfile_writer_end_pipe (const char *path)
{
  /* not blocking: with no reader left this fails at once */
  int fd = g_open (path, O_WRONLY | O_NONBLOCK | O_CLOEXEC, 0);

  if (fd >= 0)
    close (fd);
}

static gboolean
add_bytes (KisteBoxfileWriter  *self,
           GHashTable          *members,
           const char          *name,
           const char          *data,
           GError             **error)
{
  gsize length = strlen (data);
  guchar block[KISTE_TAR_BLOCK];
  struct sha256_ctx ctx;
  g_autofree char *sha = NULL;

  sha256_init (&ctx);
  sha256_update (&ctx, length, (const guint8 *) data);
  sha = _kiste_boxfile_sha256_finish (&ctx);
  _kiste_boxfile_tar_header (block, name, length);
  if (!write_all (self, block, sizeof block, error) ||
      !write_all (self, data, length, error) ||
      !write_padding (self, length, error))
    return FALSE;
  if (members != NULL)
    g_hash_table_replace (members, g_strdup (name),
                          g_strdup_printf ("%" G_GSIZE_FORMAT " %s", length, sha));
  return TRUE;
}

gboolean
kiste_boxfile_writer_close (KisteBoxfileWriter  *self,
                            const KisteBoxfile  *boxfile,
                            GCancellable        *cancellable,
                            GError             **error)
{
  g_autofree char *apps = NULL;
  g_autofree char *index = NULL;

  g_return_val_if_fail (KISTE_IS_BOXFILE_WRITER (self), FALSE);
  g_return_val_if_fail (boxfile != NULL && boxfile->settings != NULL, FALSE);

  if (self->closed)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The file is no longer written."));
      return FALSE;
    }
  if (!kiste_boxfile_check (boxfile, error))
    return FALSE;
  if (kiste_boxfile_writer_get_size (self, KISTE_BOXFILE_IMAGE) == 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container engine saved no image."));
      return FALSE;
    }

  if (boxfile->apps != NULL && boxfile->apps[0] != NULL)
    {
      g_autofree char *lines = g_strjoinv ("\n", boxfile->apps);

      apps = g_strconcat (lines, "\n", NULL);
    }
  else
    apps = g_strdup ("");
  if (!add_bytes (self, self->members, KISTE_BOXFILE_SETTINGS, boxfile->settings, error) ||
      !add_bytes (self, self->members, KISTE_BOXFILE_APPS, apps, error))
    return FALSE;
  index = kiste_boxfile_build_index (boxfile, self->members);
  if (!add_bytes (self, NULL, KISTE_BOXFILE_INDEX, index, error) ||
      !write_all (self, zeros, sizeof zeros, error) ||
      !write_all (self, zeros, sizeof zeros, error) ||
      g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* on the disk before it has its name: a crash never leaves a file
   * under the chosen name that is not whole */
  if (fsync (self->fd) != 0)
    return fail_errno (error, errno, self->path);
  if (close (self->fd) != 0)
    {
      self->fd = -1;
      return fail_errno (error, errno, self->path);
    }
  self->fd = -1;
  if (g_rename (self->temporary, self->path) != 0)
    return fail_errno (error, errno, self->path);
  self->closed = TRUE;
  return TRUE;
}

static void
close_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (!kiste_boxfile_writer_close (source_object, job->boxfile, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_boxfile_writer_close_async (KisteBoxfileWriter  *self,
                                  const KisteBoxfile  *boxfile,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_if_fail (KISTE_IS_BOXFILE_WRITER (self));
  g_return_if_fail (boxfile != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_boxfile_writer_close_async);
  job = g_new0 (Job, 1);
  job->boxfile = kiste_boxfile_copy (boxfile);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, close_thread);
}

gboolean
kiste_boxfile_writer_close_finish (KisteBoxfileWriter  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
kiste_boxfile_writer_abort (KisteBoxfileWriter *self)
{
  g_return_if_fail (KISTE_IS_BOXFILE_WRITER (self));

  if (!self->closed && self->temporary != NULL)
    g_unlink (self->temporary);
  g_clear_pointer (&self->temporary, g_free);
  self->closed = TRUE;
}

/* The whole file at once, from the files in image_path and home_path */
gboolean
kiste_boxfile_write (const KisteBoxfile    *self,
                     const char            *path,
                     KisteBoxfileProgress   progress,
                     gpointer               progress_data,
                     GCancellable          *cancellable,
                     GError               **error)
{
  g_autoptr(KisteBoxfileWriter) writer = NULL;

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  g_return_val_if_fail (self->image_path != NULL && self->settings != NULL, FALSE);

  if (!kiste_boxfile_check (self, error) ||
      !(writer = kiste_boxfile_writer_new (path, error)) ||
      !kiste_boxfile_writer_add (writer, KISTE_BOXFILE_IMAGE, self->image_path, progress,
                                 progress_data, cancellable, error) ||
      (self->home_path != NULL &&
       !kiste_boxfile_writer_add (writer, KISTE_BOXFILE_HOME, self->home_path, progress,
                                  progress_data, cancellable, error)))
    return FALSE;
  return kiste_boxfile_writer_close (writer, self, cancellable, error);
}

/* GObject */

static void
kiste_boxfile_writer_finalize (GObject *object)
{
  KisteBoxfileWriter *self = KISTE_BOXFILE_WRITER (object);

  if (self->fd >= 0)
    close (self->fd);
  /* never closed: the half-written file goes */
  if (!self->closed && self->temporary != NULL)
    g_unlink (self->temporary);
  g_free (self->path);
  g_free (self->temporary);
  g_hash_table_unref (self->members);

  G_OBJECT_CLASS (kiste_boxfile_writer_parent_class)->finalize (object);
}

static void
kiste_boxfile_writer_class_init (KisteBoxfileWriterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kiste_boxfile_writer_finalize;
}

static void
kiste_boxfile_writer_init (KisteBoxfileWriter *self)
{
  self->fd = -1;
  self->members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}
