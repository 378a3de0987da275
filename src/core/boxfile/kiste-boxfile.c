/* kiste-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files: the index, the writer (through a temporary file beside the
 * chosen one) and the reader, which checks every member of a stranger's
 * file against the index before anything uses it. */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gio/gunixoutputstream.h>
#include <json-glib/json-glib.h>
#include <nettle/sha2.h>
#include <string.h>
#include <unistd.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-error.h"
#include "kiste-validate.h"

#define CHUNK (256 * 1024)
#define MAX_APP_ID 255

/* SHA-256 through nettle, which uses the processor's SHA instructions
 * where it has them: about five times GLib's speed on the large members */
static char *
sha256_finish (struct sha256_ctx *ctx)
{
  guint8 digest[SHA256_DIGEST_SIZE];
  char *hex = g_malloc (2 * SHA256_DIGEST_SIZE + 1);

  sha256_digest (ctx, sizeof digest, digest);
  for (guint i = 0; i < SHA256_DIGEST_SIZE; i++)
    {
      hex[2 * i] = "0123456789abcdef"[digest[i] >> 4];
      hex[2 * i + 1] = "0123456789abcdef"[digest[i] & 0xf];
    }
  hex[2 * SHA256_DIGEST_SIZE] = '\0';
  return hex;
}

G_DEFINE_BOXED_TYPE (KisteBoxfile, kiste_boxfile, kiste_boxfile_copy, kiste_boxfile_free)

KisteBoxfile *
kiste_boxfile_new (void)
{
  KisteBoxfile *self = g_new0 (KisteBoxfile, 1);

  self->format = KISTE_BOXFILE_FORMAT;
  return self;
}

KisteBoxfile *
kiste_boxfile_copy (const KisteBoxfile *self)
{
  KisteBoxfile *copy = g_new0 (KisteBoxfile, 1);

  copy->format = self->format;
  copy->name = g_strdup (self->name);
  copy->tool = g_strdup (self->tool);
  copy->engine = g_strdup (self->engine);
  copy->kiste_version = g_strdup (self->kiste_version);
  copy->image = g_strdup (self->image);
  copy->settings = g_strdup (self->settings);
  copy->apps = g_strdupv (self->apps);
  copy->image_path = g_strdup (self->image_path);
  copy->home_path = g_strdup (self->home_path);
  copy->image_size = self->image_size;
  copy->home_size = self->home_size;
  return copy;
}

void
kiste_boxfile_free (KisteBoxfile *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->tool);
  g_free (self->engine);
  g_free (self->kiste_version);
  g_free (self->image);
  g_free (self->settings);
  g_strfreev (self->apps);
  g_free (self->image_path);
  g_free (self->home_path);
  g_free (self);
}

static gboolean
is_app_id (const char *id)
{
  gsize len = strlen (id);

  if (len <= strlen (".desktop") || len > MAX_APP_ID || !g_str_has_suffix (id, ".desktop") ||
      id[0] == '.' || id[0] == '-')
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '-' && *p != '_')
      return FALSE;
  return TRUE;
}

gboolean
kiste_boxfile_check (const KisteBoxfile  *self,
                     GError             **error)
{
  g_autoptr(GError) local = NULL;

  if (self->name == NULL || !kiste_validate_existing_name (self->name, NULL, &local))
    return kiste_set_invalid_input (error, _("The box file names its box wrongly."));
  if (g_strcmp0 (self->tool, "distrobox") != 0 && g_strcmp0 (self->tool, "toolbx") != 0)
    return kiste_set_invalid_input (error, _("The box file is for a tool Kiste does not know."));
  if (g_strcmp0 (self->engine, "podman") != 0 && g_strcmp0 (self->engine, "docker") != 0)
    return kiste_set_invalid_input (error, _("The box file is for a container engine Kiste "
                                             "does not know."));
  if (self->image == NULL || !kiste_validate_image (self->image, &local) ||
      !g_str_has_prefix (self->image, KISTE_BOXFILE_IMAGE_PREFIX) ||
      self->image[strlen (KISTE_BOXFILE_IMAGE_PREFIX)] == '\0')
    return kiste_set_invalid_input (error, _("The box file names its image wrongly."));
  if (self->kiste_version != NULL &&
      (strlen (self->kiste_version) > 64 || !g_utf8_validate (self->kiste_version, -1, NULL)))
    return kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
  if (self->apps != NULL && g_strv_length (self->apps) > KISTE_BOXFILE_MAX_APPS)
    return kiste_set_invalid_input (error, _("The box file lists too many apps."));
  for (guint i = 0; self->apps != NULL && self->apps[i] != NULL; i++)
    if (!is_app_id (self->apps[i]))
      return kiste_set_invalid_input (error, _("The box file lists an app wrongly."));
  return TRUE;
}

#define MAX_LOAD_OUTPUT (64 * 1024)
#define MAX_LOADED_NAMES 16

gboolean
kiste_boxfile_check_loaded (const char  *output,
                            const char  *image,
                            GError     **error)
{
  g_auto(GStrv) lines = NULL;
  guint found = 0;

  g_return_val_if_fail (image != NULL, FALSE);

  if (output == NULL || strlen (output) > MAX_LOAD_OUTPUT || !g_utf8_validate (output, -1, NULL))
    goto bad;
  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *rest;
      g_auto(GStrv) names = NULL;

      if (!g_str_has_prefix (line, "Loaded image"))
        continue;
      if (g_str_has_prefix (line, "Loaded image: "))
        rest = line + strlen ("Loaded image: ");
      else if (g_str_has_prefix (line, "Loaded image(s): "))
        rest = line + strlen ("Loaded image(s): ");
      else
        goto bad;
      names = g_strsplit (rest, ",", MAX_LOADED_NAMES + 1);
      if (g_strv_length (names) > MAX_LOADED_NAMES)
        goto bad;
      for (guint j = 0; names[j] != NULL; j++)
        {
          if (!kiste_validate_image (names[j], NULL) || !g_str_equal (names[j], image))
            goto bad;
          if (++found > MAX_LOADED_NAMES)
            goto bad;
        }
    }
  if (found > 0)
    return TRUE;

bad:
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("The box file’s image did not load as “%s”, the name its index gives."), image);
  return FALSE;
}

/* The index */

char *
kiste_boxfile_build_index (const KisteBoxfile *self,
                           GHashTable         *members)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GList) names = g_list_sort (g_hash_table_get_keys (members),
                                        (GCompareFunc) g_strcmp0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_int_value (builder, self->format);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, self->name);
  json_builder_set_member_name (builder, "tool");
  json_builder_add_string_value (builder, self->tool);
  json_builder_set_member_name (builder, "engine");
  json_builder_add_string_value (builder, self->engine);
  json_builder_set_member_name (builder, "kiste-version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_set_member_name (builder, "image");
  json_builder_add_string_value (builder, self->image);
  json_builder_set_member_name (builder, "members");
  json_builder_begin_object (builder);
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *value = g_hash_table_lookup (members, l->data);
      const char *space = strchr (value, ' ');

      json_builder_set_member_name (builder, l->data);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, g_ascii_strtoll (value, NULL, 10));
      json_builder_set_member_name (builder, "sha256");
      json_builder_add_string_value (builder, space + 1);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
get_int (JsonObject *object,
         const char *member,
         gint64     *value)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  *value = json_node_get_int (node);
  return TRUE;
}

static gboolean
is_sha256 (const char *hex)
{
  if (hex == NULL || strlen (hex) != 64)
    return FALSE;
  for (const char *p = hex; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p) && !(*p >= 'a' && *p <= 'f'))
      return FALSE;
  return TRUE;
}

static gboolean
is_known_member (const char *name)
{
  return g_str_equal (name, KISTE_BOXFILE_IMAGE) || g_str_equal (name, KISTE_BOXFILE_SETTINGS) ||
         g_str_equal (name, KISTE_BOXFILE_APPS) || g_str_equal (name, KISTE_BOXFILE_HOME);
}

KisteBoxfile *
kiste_boxfile_parse_index (const char  *data,
                           gsize        length,
                           GHashTable **members,
                           GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KisteBoxfile) self = kiste_boxfile_new ();
  g_autoptr(GHashTable) table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonNode *root;
  JsonObject *object;
  JsonNode *list;
  g_autoptr(GList) names = NULL;
  gint64 format = 0;

  if (length > KISTE_BOXFILE_MAX_INDEX)
    {
      kiste_set_invalid_input (error, _("The box file’s index is too large."));
      return NULL;
    }
  if (!g_utf8_validate_len (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, NULL) ||
      !(root = json_parser_get_root (parser)) || !JSON_NODE_HOLDS_OBJECT (root))
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  object = json_node_get_object (root);
  if (!get_int (object, "format", &format) || format < 1)
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  if (format > KISTE_BOXFILE_FORMAT)
    {
      kiste_set_invalid_input (error, _("The box file was made by a newer Kiste (format %d). "
                                        "Update Kiste to open it."), (int) MIN (format, 9999));
      return NULL;
    }
  self->format = format;
  self->name = g_strdup (get_string (object, "name"));
  self->tool = g_strdup (get_string (object, "tool"));
  self->engine = g_strdup (get_string (object, "engine"));
  self->kiste_version = g_strdup (get_string (object, "kiste-version"));
  self->image = g_strdup (get_string (object, "image"));

  list = json_object_get_member (object, "members");
  if (list == NULL || !JSON_NODE_HOLDS_OBJECT (list))
    {
      kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
      return NULL;
    }
  names = json_object_get_members (json_node_get_object (list));
  for (GList *l = names; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (json_node_get_object (list), l->data);
      JsonObject *member;
      const char *sha;
      gint64 size = -1;

      if (!is_known_member (l->data) || !JSON_NODE_HOLDS_OBJECT (node))
        {
          kiste_set_invalid_input (error, _("The box file’s index lists an unknown member."));
          return NULL;
        }
      member = json_node_get_object (node);
      sha = get_string (member, "sha256");
      if (!get_int (member, "size", &size) || size < 0 || !is_sha256 (sha))
        {
          kiste_set_invalid_input (error, _("The box file’s index cannot be read."));
          return NULL;
        }
      g_hash_table_replace (table, g_strdup (l->data),
                            g_strdup_printf ("%" G_GINT64_FORMAT " %s", size, sha));
    }
  if (!g_hash_table_contains (table, KISTE_BOXFILE_IMAGE) ||
      !g_hash_table_contains (table, KISTE_BOXFILE_SETTINGS))
    {
      kiste_set_invalid_input (error, _("The box file is incomplete: it has no image or no "
                                        "settings."));
      return NULL;
    }
  if (!kiste_boxfile_check (self, error))
    return NULL;

  if (members != NULL)
    *members = g_steal_pointer (&table);
  return g_steal_pointer (&self);
}

/* Progress from a worker thread, shown on the caller's main context */

typedef struct
{
  KisteBoxfileProgress  func;
  gpointer              data;
  GMainContext         *context;
  guint64               total;
  guint64               done;
  guint64               shown;
} Progress;

typedef struct
{
  KisteBoxfileProgress func;
  gpointer             data;
  guint64              done;
  guint64              total;
} ProgressCall;

static gboolean
progress_call (gpointer user_data)
{
  ProgressCall *call = user_data;

  call->func (call->done, call->total, call->data);
  return G_SOURCE_REMOVE;
}

static void
progress_add (Progress *progress,
              guint64   bytes)
{
  ProgressCall *call;

  progress->done += bytes;
  if (progress->func == NULL ||
      (progress->done - progress->shown < progress->total / 200 + 1 &&
       progress->done < progress->total))
    return;
  progress->shown = progress->done;
  call = g_new (ProgressCall, 1);
  call->func = progress->func;
  call->data = progress->data;
  call->done = progress->done;
  call->total = progress->total;
  if (progress->context != NULL)
    g_main_context_invoke_full (progress->context, G_PRIORITY_DEFAULT, progress_call, call, g_free);
  else
    {
      progress_call (call);
      g_free (call);
    }
}

/* Writing */

static const guchar zeros[KISTE_TAR_BLOCK];

static gboolean
write_padding (GOutputStream  *out,
               guint64         size,
               GCancellable   *cancellable,
               GError        **error)
{
  gsize pad = (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK;

  return g_output_stream_write_all (out, zeros, pad, NULL, cancellable, error);
}

static gboolean
write_bytes_member (GOutputStream  *out,
                    GHashTable     *members,
                    const char     *name,
                    const char     *data,
                    gsize           length,
                    Progress       *progress,
                    GCancellable   *cancellable,
                    GError        **error)
{
  guchar block[KISTE_TAR_BLOCK];
  struct sha256_ctx ctx;
  g_autofree char *sha = NULL;

  sha256_init (&ctx);
  sha256_update (&ctx, length, (const guint8 *) data);
  sha = sha256_finish (&ctx);
  _kiste_boxfile_tar_header (block, name, length);
  if (!g_output_stream_write_all (out, block, sizeof block, NULL, cancellable, error) ||
      !g_output_stream_write_all (out, data, length, NULL, cancellable, error) ||
      !write_padding (out, length, cancellable, error))
    return FALSE;
  if (members != NULL)
    g_hash_table_replace (members, g_strdup (name),
                          g_strdup_printf ("%" G_GSIZE_FORMAT " %s", length, sha));
  progress_add (progress, length);
  return TRUE;
}

static gboolean
write_file_member (GOutputStream  *out,
                   GHashTable     *members,
                   const char     *name,
                   const char     *path,
                   Progress       *progress,
                   GCancellable   *cancellable,
                   GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree guchar *buffer = g_malloc (CHUNK);
  g_autofree char *sha = NULL;
  guchar block[KISTE_TAR_BLOCK];
  struct sha256_ctx ctx;
  guint64 size, copied = 0;

  if (!(in = g_file_read (file, cancellable, error)) ||
      !(info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                               cancellable, error)))
    return FALSE;
  size = g_file_info_get_size (info);
  sha256_init (&ctx);
  _kiste_boxfile_tar_header (block, name, size);
  if (!g_output_stream_write_all (out, block, sizeof block, NULL, cancellable, error))
    return FALSE;
  while (copied < size)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buffer, MIN (CHUNK, size - copied),
                                      cancellable, error);

      if (n < 0)
        return FALSE;
      if (n == 0)
        {
          g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                       _("“%s” became shorter while it was written."), name);
          return FALSE;
        }
      sha256_update (&ctx, n, buffer);
      if (!g_output_stream_write_all (out, buffer, n, NULL, cancellable, error))
        return FALSE;
      copied += n;
      progress_add (progress, n);
    }
  if (!write_padding (out, size, cancellable, error))
    return FALSE;
  sha = sha256_finish (&ctx);
  g_hash_table_replace (members, g_strdup (name),
                        g_strdup_printf ("%" G_GUINT64_FORMAT " %s", size, sha));
  return TRUE;
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  return path != NULL && g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

static gboolean
write_members (const KisteBoxfile  *self,
               GOutputStream       *out,
               Progress            *progress,
               GCancellable        *cancellable,
               GError             **error)
{
  g_autoptr(GHashTable) members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *apps = NULL;
  g_autofree char *index = NULL;

  if (self->apps != NULL && self->apps[0] != NULL)
    {
      g_autofree char *lines = g_strjoinv ("\n", self->apps);

      apps = g_strconcat (lines, "\n", NULL);
    }
  else
    apps = g_strdup ("");
  if (!write_file_member (out, members, KISTE_BOXFILE_IMAGE, self->image_path, progress,
                          cancellable, error) ||
      !write_bytes_member (out, members, KISTE_BOXFILE_SETTINGS, self->settings,
                           strlen (self->settings), progress, cancellable, error) ||
      !write_bytes_member (out, members, KISTE_BOXFILE_APPS, apps, strlen (apps), progress,
                           cancellable, error))
    return FALSE;
  if (self->home_path != NULL &&
      !write_file_member (out, members, KISTE_BOXFILE_HOME, self->home_path, progress,
                          cancellable, error))
    return FALSE;

  index = kiste_boxfile_build_index (self, members);
  return write_bytes_member (out, NULL, KISTE_BOXFILE_INDEX, index, strlen (index), progress,
                             cancellable, error) &&
         g_output_stream_write_all (out, zeros, sizeof zeros, NULL, cancellable, error) &&
         g_output_stream_write_all (out, zeros, sizeof zeros, NULL, cancellable, error);
}

static gboolean
write_with_progress (const KisteBoxfile  *self,
                     const char          *path,
                     Progress            *progress,
                     GCancellable        *cancellable,
                     GError             **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *template = NULL;
  g_autoptr(GOutputStream) out = NULL;
  g_autoptr(GError) local = NULL;
  int fd;

  if (!kiste_boxfile_check (self, error))
    return FALSE;
  g_return_val_if_fail (self->image_path != NULL && self->settings != NULL, FALSE);

  progress->total = file_size (self->image_path) + file_size (self->home_path) +
                    strlen (self->settings);
  /* a hidden name beside the chosen one: the rename at the end stays in
   * one folder, and nothing ever has the chosen name half written */
  template = g_strdup_printf ("%s/.%s.XXXXXX.part", dir, base);
  if ((fd = g_mkstemp_full (template, O_WRONLY | O_CLOEXEC, 0644)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not write in “%s”: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  out = g_unix_output_stream_new (fd, TRUE);
  if (write_members (self, out, progress, cancellable, &local) && fsync (fd) != 0)
    g_set_error (&local, G_IO_ERROR, g_io_error_from_errno (errno),
                 _("Could not write “%s”: %s"), base, g_strerror (errno));
  if (local != NULL ||
      !g_output_stream_close (out, NULL, &local) ||
      g_cancellable_set_error_if_cancelled (cancellable, &local))
    {
      g_output_stream_close (out, NULL, NULL);
      g_unlink (template);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (g_rename (template, path) != 0)
    {
      int saved = errno;

      g_unlink (template);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not write “%s”: %s"), base, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

gboolean
kiste_boxfile_write (const KisteBoxfile    *self,
                     const char            *path,
                     KisteBoxfileProgress   progress,
                     gpointer               progress_data,
                     GCancellable          *cancellable,
                     GError               **error)
{
  Progress state = { progress, progress_data, NULL, 0, 0, 0 };

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);
  return write_with_progress (self, path, &state, cancellable, error);
}

typedef struct
{
  KisteBoxfile *boxfile;
  char         *path;
  char         *extract_dir;
  Progress      progress;
} Job;

static void
job_free (Job *job)
{
  kiste_boxfile_free (job->boxfile);
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
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (!write_with_progress (job->boxfile, job->path, &job->progress, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_boxfile_write_async (const KisteBoxfile   *self,
                           const char           *path,
                           KisteBoxfileProgress  progress,
                           gpointer              progress_data,
                           GCancellable         *cancellable,
                           GAsyncReadyCallback   callback,
                           gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = job_new (path, NULL, progress, progress_data);

  g_task_set_source_tag (task, kiste_boxfile_write_async);
  job->boxfile = kiste_boxfile_copy (self);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, write_thread);
}

gboolean
kiste_boxfile_write_finish (GAsyncResult  *result,
                            GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Reading */

static gboolean
read_exactly (GInputStream  *in,
              guchar        *buffer,
              gsize          length,
              GCancellable  *cancellable,
              GError       **error)
{
  gsize got = 0;

  if (!g_input_stream_read_all (in, buffer, length, &got, cancellable, error))
    return FALSE;
  if (got != length)
    return kiste_set_invalid_input (error, _("The box file is cut off: it ends in the middle. "
                                             "It may not have been copied completely."));
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

/* Reads one member's data, hashing it, into memory or into out */
static gboolean
read_member (GInputStream       *in,
             guint64             size,
             GByteArray         *memory,
             GOutputStream      *out,
             struct sha256_ctx  *checksum,
             Progress           *progress,
             GCancellable       *cancellable,
             GError            **error)
{
  g_autofree guchar *buffer = g_malloc (CHUNK);
  guint64 left = size;
  guchar pad[KISTE_TAR_BLOCK];
  gsize pad_len = (KISTE_TAR_BLOCK - size % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK;

  while (left > 0)
    {
      gsize n = MIN (CHUNK, left);

      if (!read_exactly (in, buffer, n, cancellable, error))
        return FALSE;
      sha256_update (checksum, n, buffer);
      if (memory != NULL)
        g_byte_array_append (memory, buffer, n);
      else if (!g_output_stream_write_all (out, buffer, n, NULL, cancellable, error))
        return FALSE;
      left -= n;
      progress_add (progress, n);
    }
  return read_exactly (in, pad, pad_len, cancellable, error);
}

static void
remove_extracted (const char *extract_dir)
{
  g_autofree char *image = g_build_filename (extract_dir, KISTE_BOXFILE_IMAGE, NULL);
  g_autofree char *home = g_build_filename (extract_dir, KISTE_BOXFILE_HOME, NULL);

  g_unlink (image);
  g_unlink (home);
}

static KisteBoxfile *
read_members (const char     *path,
              const char     *extract_dir,
              Progress       *progress,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_byte_array_unref);
  g_autoptr(GHashTable) members = NULL;
  g_autoptr(KisteBoxfile) self = NULL;
  GByteArray *index;
  GByteArray *settings;
  GByteArray *apps;
  GHashTableIter iter;
  gpointer key, value;

  if (!(in = g_file_read (file, cancellable, error)) ||
      !(info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                               cancellable, error)))
    return NULL;
  progress->total = g_file_info_get_size (info);

  for (;;)
    {
      guchar block[KISTE_TAR_BLOCK];
      g_autofree char *name = NULL;
      g_autoptr(GByteArray) memory = NULL;
      g_autofree char *sha = NULL;
      struct sha256_ctx checksum;
      g_autoptr(GOutputStream) out = NULL;
      guint64 size = 0;
      gboolean end = FALSE;

      if (!read_exactly (G_INPUT_STREAM (in), block, sizeof block, cancellable, error) ||
          !_kiste_boxfile_tar_read_header (block, &name, &size, &end, error))
        return NULL;
      if (end)
        break;
      if (!is_known_member (name) && !g_str_equal (name, KISTE_BOXFILE_INDEX))
        {
          kiste_set_invalid_input (error, _("The box file holds an unknown member."));
          return NULL;
        }
      if (g_hash_table_contains (seen, name))
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
      if (limit_for (name) < KISTE_BOXFILE_MAX_LARGE)
        memory = g_byte_array_sized_new (size);
      else
        {
          g_autofree char *dest = g_build_filename (extract_dir, name, NULL);
          g_autoptr(GFile) dest_file = g_file_new_for_path (dest);

          if (!(out = G_OUTPUT_STREAM (g_file_create (dest_file, G_FILE_CREATE_PRIVATE,
                                                      cancellable, error))))
            return NULL;
        }
      sha256_init (&checksum);
      if (!read_member (G_INPUT_STREAM (in), size, memory, out, &checksum, progress,
                        cancellable, error) ||
          (out != NULL && !g_output_stream_close (out, cancellable, error)))
        return NULL;
      sha = sha256_finish (&checksum);
      g_hash_table_replace (seen, g_strdup (name),
                            g_strdup_printf ("%" G_GUINT64_FORMAT " %s", size, sha));
      if (memory != NULL)
        g_hash_table_replace (texts, g_strdup (name), g_steal_pointer (&memory));
    }

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
                    KisteBoxfileProgress   progress,
                    gpointer               progress_data,
                    GCancellable          *cancellable,
                    GError               **error)
{
  Progress state = { progress, progress_data, NULL, 0, 0, 0 };
  KisteBoxfile *self;

  g_return_val_if_fail (path != NULL && extract_dir != NULL, NULL);

  if (!(self = read_members (path, extract_dir, &state, cancellable, error)))
    remove_extracted (extract_dir);
  return self;
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
                          KisteBoxfileProgress  progress,
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
