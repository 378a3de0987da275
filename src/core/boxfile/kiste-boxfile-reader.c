/* kiste-boxfile-reader.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box file reader, which checks every member of a stranger's file
 * against the index before anything uses it. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <nettle/sha2.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-error.h"
#include "kiste-validate.h"

#define CHUNK (256 * 1024)

/* Reading: the headers first, skipping over the data; then the small
 * members into memory and the large ones (the image, the home) copied
 * out side by side, each hashed as it is copied: the checksums are of the
 * very bytes Kiste keeps, whatever happens to the file meanwhile */

static gboolean
cut_off (GError **error)
{
  return kiste_set_invalid_input (error, _("The box file is cut off: it ends in the middle. "
                                           "It may not have been copied completely."));
}

static gboolean
read_at (int            fd,
         guchar        *buffer,
         gsize          length,
         guint64        offset,
         GError       **error)
{
  while (length > 0)
    {
      gssize n = pread (fd, buffer, length, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       _("Could not read the box file: %s"), g_strerror (saved));
          return FALSE;
        }
      if (n == 0)
        return cut_off (error);
      buffer += n;
      length -= n;
      offset += n;
    }
  return TRUE;
}

static guint64
limit_for (const char *name)
{
  if (g_str_equal (name, KISTE_BOXFILE_INDEX))
    return KISTE_BOXFILE_MAX_INDEX;
  if (g_str_equal (name, KISTE_BOXFILE_SETTINGS) || g_str_equal (name, KISTE_BOXFILE_APPS))
    return KISTE_BOXFILE_MAX_TEXT;
  return KISTE_BOXFILE_MAX_LARGE;
}

typedef struct
{
  char                      *name;
  guint64                    offset;
  guint64                    size;
  /* where a large member is copied to, or the small one's bytes */
  char                      *dest;
  GByteArray                *memory;
  /* "SIZE SHA256" once read */
  char                      *sum;
  int                        fd;
  KisteBoxfileProgressState *progress;
  GCancellable              *cancellable;
  GError                    *error;
} Member;

static void
member_free (Member *member)
{
  g_free (member->name);
  g_free (member->dest);
  g_clear_pointer (&member->memory, g_byte_array_unref);
  g_free (member->sum);
  g_clear_error (&member->error);
  g_free (member);
}

/* Every member's name, where its data is and how long: only the headers
 * are read. A member past the file's end is caught here already. */
static GPtrArray *
scan_members (int            fd,
              guint64        file_size,
              GCancellable  *cancellable,
              GError       **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) member_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint64 offset = 0;

  for (;;)
    {
      guchar block[KISTE_TAR_BLOCK];
      g_autofree char *name = NULL;
      guint64 size = 0;
      gboolean end = FALSE;
      Member *member;

      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !read_at (fd, block, sizeof block, offset, error) ||
          !_kiste_boxfile_tar_read_header (block, &name, &size, &end, error))
        return NULL;
      if (end)
        break;
      if (!_kiste_boxfile_is_known_member (name) && !g_str_equal (name, KISTE_BOXFILE_INDEX))
        {
          kiste_set_invalid_input (error, _("The box file holds an unknown member."));
          return NULL;
        }
      if (!g_hash_table_add (seen, g_strdup (name)))
        {
          kiste_set_invalid_input (error, _("The box file holds a member twice."));
          return NULL;
        }
      if (size > limit_for (name))
        {
          if (g_str_equal (name, KISTE_BOXFILE_INDEX))
            kiste_set_invalid_input (error, _("The box file’s index is too large."));
          else
            kiste_set_invalid_input (error, _("A member of the box file is too large."));
          return NULL;
        }
      offset += KISTE_TAR_BLOCK;
      member = g_new0 (Member, 1);
      member->name = g_steal_pointer (&name);
      member->offset = offset;
      member->size = size;
      g_ptr_array_add (members, member);
      offset += size + (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK;
      if (offset > file_size)
        {
          cut_off (error);
          return NULL;
        }
    }
  return g_steal_pointer (&members);
}

static gboolean
write_fd_all (int            fd,
              const guchar  *data,
              gsize          length,
              const char    *path,
              GError       **error)
{
  while (length > 0)
    {
      gssize n = write (fd, data, length);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                       g_strerror (saved));
          return FALSE;
        }
      data += n;
      length -= n;
    }
  return TRUE;
}

/* A small member, into memory */
static gboolean
read_small_member (Member  *member,
                   GError **error)
{
  g_autofree char *sha = NULL;
  struct sha256_ctx checksum;

  member->memory = g_byte_array_sized_new (member->size);
  g_byte_array_set_size (member->memory, member->size);
  if (!read_at (member->fd, member->memory->data, member->size, member->offset, error))
    return FALSE;
  sha256_init (&checksum);
  sha256_update (&checksum, member->size, member->memory->data);
  sha = _kiste_boxfile_sha256_finish (&checksum);
  member->sum = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", member->size, sha);
  _kiste_boxfile_progress_add (member->progress, member->size);
  return TRUE;
}

/* A large member is copied by a thread of its own while the caller
 * hashes each chunk once it is written: the copy and the hash run side
 * by side, on the same bytes */

#define RING 4

typedef struct
{
  guchar *data;
  gsize   length;
} Chunk;

typedef struct
{
  Member      *member;
  int          out;
  /* chunks written, in order, for the hash; one of no length ends */
  GAsyncQueue *written;
  /* chunks the hash is done with */
  GAsyncQueue *free;
  GError      *error;
} Copy;

static Chunk end_of_copy;

static gpointer
copy_thread (gpointer data)
{
  Copy *copy = data;
  Member *member = copy->member;
  guint64 done = 0;

  while (done < member->size)
    {
      Chunk *chunk = g_async_queue_pop (copy->free);
      gsize n = MIN (CHUNK, member->size - done);

      if (g_cancellable_set_error_if_cancelled (member->cancellable, &copy->error) ||
          !read_at (member->fd, chunk->data, n, member->offset + done, &copy->error) ||
          !write_fd_all (copy->out, chunk->data, n, member->dest, &copy->error))
        {
          g_async_queue_push (copy->free, chunk);
          break;
        }
      chunk->length = n;
      done += n;
      g_async_queue_push (copy->written, chunk);
    }
  g_async_queue_push (copy->written, &end_of_copy);
  return NULL;
}

static gboolean
read_large_member (Member  *member,
                   GError **error)
{
  g_autoptr(GAsyncQueue) written = g_async_queue_new ();
  g_autoptr(GAsyncQueue) free_chunks = g_async_queue_new ();
  g_autofree char *sha = NULL;
  Chunk chunks[RING];
  struct sha256_ctx checksum;
  Copy copy = { member, -1, written, free_chunks, NULL };
  GThread *thread;
  Chunk *chunk;

  if ((copy.out = g_open (member->dest, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", member->dest,
                   g_strerror (saved));
      return FALSE;
    }
  for (guint i = 0; i < RING; i++)
    {
      chunks[i].data = g_malloc (CHUNK);
      g_async_queue_push (free_chunks, &chunks[i]);
    }
  sha256_init (&checksum);
  thread = g_thread_new ("kiste-boxfile-copy", copy_thread, &copy);
  while ((chunk = g_async_queue_pop (written)) != &end_of_copy)
    {
      sha256_update (&checksum, chunk->length, chunk->data);
      _kiste_boxfile_progress_add (member->progress, chunk->length);
      g_async_queue_push (free_chunks, chunk);
    }
  g_thread_join (thread);
  for (guint i = 0; i < RING; i++)
    g_free (chunks[i].data);

  if (close (copy.out) != 0 && copy.error == NULL)
    g_set_error (&copy.error, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", member->dest,
                 g_strerror (errno));
  if (copy.error != NULL)
    {
      g_propagate_error (error, copy.error);
      return FALSE;
    }
  sha = _kiste_boxfile_sha256_finish (&checksum);
  member->sum = g_strdup_printf ("%" G_GUINT64_FORMAT " %s", member->size, sha);
  return TRUE;
}

static gboolean
read_member (Member  *member,
             GError **error)
{
  if (member->dest == NULL)
    return read_small_member (member, error);
  return read_large_member (member, error);
}

static gpointer
read_member_thread (gpointer data)
{
  Member *member = data;

  /* one member failing stops the others */
  if (!read_member (member, &member->error))
    g_cancellable_cancel (member->cancellable);
  return NULL;
}

static void
cancel_local (GCancellable *cancellable,
              GCancellable *local)
{
  g_cancellable_cancel (local);
}

static void
remove_extracted (const char *extract_dir)
{
  g_autofree char *image = g_build_filename (extract_dir, KISTE_BOXFILE_IMAGE, NULL);
  g_autofree char *home = g_build_filename (extract_dir, KISTE_BOXFILE_HOME, NULL);

  g_unlink (image);
  g_unlink (home);
}

/* Every member read: the small ones here, each large one in a thread of
 * its own, so the home is copied while the image is */
static gboolean
read_all_members (GPtrArray     *members,
                  int            fd,
                  const char    *extract_dir,
                  GHashTable    *seen,
                  GHashTable    *texts,
                  KisteBoxfileProgressState *progress,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autoptr(GCancellable) local = g_cancellable_new ();
  GError *first = NULL;
  gulong id = 0;

  if (cancellable != NULL)
    id = g_cancellable_connect (cancellable, G_CALLBACK (cancel_local), local, NULL);
  for (guint i = 0; i < members->len; i++)
    {
      Member *member = g_ptr_array_index (members, i);

      member->fd = fd;
      member->progress = progress;
      member->cancellable = local;
      if (limit_for (member->name) == KISTE_BOXFILE_MAX_LARGE)
        {
          member->dest = g_build_filename (extract_dir, member->name, NULL);
          g_ptr_array_add (threads, g_thread_new ("kiste-boxfile-read", read_member_thread,
                                                  member));
        }
    }
  for (guint i = 0; i < members->len; i++)
    {
      Member *member = g_ptr_array_index (members, i);

      if (member->dest == NULL && !read_member (member, &member->error))
        g_cancellable_cancel (local);
    }
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
  if (id != 0)
    g_cancellable_disconnect (cancellable, id);

  /* the first failure that was not only stopped by another */
  for (guint i = 0; i < members->len; i++)
    {
      Member *member = g_ptr_array_index (members, i);

      if (member->error != NULL &&
          (first == NULL || g_error_matches (first, G_IO_ERROR, G_IO_ERROR_CANCELLED)) &&
          !(first != NULL && g_error_matches (member->error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
        {
          g_clear_error (&first);
          first = g_steal_pointer (&member->error);
        }
      if (member->sum != NULL)
        g_hash_table_replace (seen, g_strdup (member->name), g_strdup (member->sum));
      if (member->memory != NULL)
        g_hash_table_replace (texts, g_strdup (member->name), g_steal_pointer (&member->memory));
    }
  if (first == NULL)
    g_cancellable_set_error_if_cancelled (cancellable, &first);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

static KisteBoxfile *
read_members (const char                *path,
              const char                *extract_dir,
              KisteBoxfileProgressState *progress,
              GCancellable              *cancellable,
              GError                   **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_byte_array_unref);
  g_autoptr(GHashTable) members = NULL;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(KisteBoxfile) self = NULL;
  GByteArray *index;
  GByteArray *settings;
  GByteArray *apps;
  GHashTableIter iter;
  gpointer key, value;
  struct stat st;
  gboolean ok;
  int fd;

  if ((fd = g_open (path, O_RDONLY | O_CLOEXEC, 0)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not read the box file: %s"), g_strerror (saved));
      return NULL;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      kiste_set_invalid_input (error, _("This is not a box file: it is not a regular file."));
      return NULL;
    }
  progress->total = st.st_size;
  ok = (list = scan_members (fd, st.st_size, cancellable, error)) != NULL &&
       read_all_members (list, fd, extract_dir, seen, texts, progress, cancellable, error);
  close (fd);
  if (!ok)
    return NULL;

  if (!(index = g_hash_table_lookup (texts, KISTE_BOXFILE_INDEX)))
    {
      kiste_set_invalid_input (error, _("This is not a box file, or it is incomplete: it has "
                                        "no index."));
      return NULL;
    }
  if (!(self = kiste_boxfile_parse_index ((const char *) index->data, index->len, &members,
                                          error)))
    return NULL;

  g_hash_table_iter_init (&iter, seen);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *expected = g_hash_table_lookup (members, key);

      if (g_str_equal (key, KISTE_BOXFILE_INDEX))
        continue;
      if (expected == NULL || !g_str_equal (expected, value))
        {
          kiste_set_invalid_input (error, _("The box file was changed or damaged: “%s” does "
                                            "not match its checksum."), (const char *) key);
          return NULL;
        }
    }
  g_hash_table_iter_init (&iter, members);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (seen, key))
      {
        kiste_set_invalid_input (error, _("The box file is incomplete: “%s” is missing."),
                                 (const char *) key);
        return NULL;
      }

  settings = g_hash_table_lookup (texts, KISTE_BOXFILE_SETTINGS);
  if (!g_utf8_validate_len ((const char *) settings->data, settings->len, NULL) ||
      memchr (settings->data, '\0', settings->len) != NULL)
    {
      kiste_set_invalid_input (error, _("The box file’s settings cannot be read."));
      return NULL;
    }
  /* an empty member's array has no data: g_strndup (NULL, 0) is NULL */
  self->settings = g_strndup (settings->len > 0 ? (const char *) settings->data : "",
                              settings->len);
  if ((apps = g_hash_table_lookup (texts, KISTE_BOXFILE_APPS)) != NULL)
    {
      g_autofree char *text = g_strndup (apps->len > 0 ? (const char *) apps->data : "",
                                         apps->len);
      g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      if (strlen (text) != apps->len)
        {
          kiste_set_invalid_input (error, _("The box file lists an app wrongly."));
          return NULL;
        }
      for (guint i = 0; lines[i] != NULL && i <= KISTE_BOXFILE_MAX_APPS + 1; i++)
        if (lines[i][0] != '\0')
          g_strv_builder_add (builder, lines[i]);
      self->apps = g_strv_builder_end (builder);
    }
  else
    self->apps = g_new0 (char *, 1);
  if (!kiste_boxfile_check (self, error))
    return NULL;

  self->image_path = g_build_filename (extract_dir, KISTE_BOXFILE_IMAGE, NULL);
  self->image_size = g_ascii_strtoull (g_hash_table_lookup (members, KISTE_BOXFILE_IMAGE), NULL, 10);
  if (g_hash_table_contains (members, KISTE_BOXFILE_HOME))
    {
      self->home_path = g_build_filename (extract_dir, KISTE_BOXFILE_HOME, NULL);
      self->home_size = g_ascii_strtoull (g_hash_table_lookup (members, KISTE_BOXFILE_HOME),
                                          NULL, 10);
    }
  return g_steal_pointer (&self);
}

KisteBoxfile *
kiste_boxfile_read (const char            *path,
                    const char            *extract_dir,
                    KisteBoxfileProgress  progress,
                    gpointer               progress_data,
                    GCancellable          *cancellable,
                    GError               **error)
{
  KisteBoxfileProgressState state = { progress, progress_data, NULL, 0, 0, 0 };
  KisteBoxfile *self;

  g_return_val_if_fail (path != NULL && extract_dir != NULL, NULL);

  if (!(self = read_members (path, extract_dir, &state, cancellable, error)))
    remove_extracted (extract_dir);
  return self;
}

typedef struct
{
  char                      *path;
  char                      *extract_dir;
  KisteBoxfileProgressState  progress;
} Job;

static void
job_free (Job *job)
{
  g_free (job->path);
  g_free (job->extract_dir);
  g_clear_pointer (&job->progress.context, g_main_context_unref);
  g_free (job);
}

static Job *
job_new (const char           *path,
         const char           *extract_dir,
         KisteBoxfileProgress  progress,
         gpointer              progress_data)
{
  Job *job = g_new0 (Job, 1);

  job->path = g_strdup (path);
  job->extract_dir = g_strdup (extract_dir);
  job->progress.func = progress;
  job->progress.data = progress_data;
  job->progress.context = g_main_context_ref_thread_default ();
  return job;
}

static void
read_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  KisteBoxfile *self;

  if (!(self = read_members (job->path, job->extract_dir, &job->progress, cancellable, &error)))
    {
      remove_extracted (job->extract_dir);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, self, (GDestroyNotify) kiste_boxfile_free);
}

void
kiste_boxfile_read_async (const char           *path,
                          const char           *extract_dir,
                          KisteBoxfileProgress progress,
                          gpointer              progress_data,
                          GCancellable         *cancellable,
                          GAsyncReadyCallback   callback,
                          gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, kiste_boxfile_read_async);
  g_task_set_task_data (task, job_new (path, extract_dir, progress, progress_data),
                        (GDestroyNotify) job_free);
  g_task_run_in_thread (task, read_thread);
}

KisteBoxfile *
kiste_boxfile_read_finish (GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
