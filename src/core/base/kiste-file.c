/* kiste-file.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-file.h"

gboolean
kiste_file_replace (GFile         *file,
                    const char    *data,
                    gsize          length,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GCancellable) discard = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, cancellable, error);
  if (out == NULL)
    return FALSE;

  if (g_output_stream_write_all (G_OUTPUT_STREAM (out), data, length, NULL, cancellable, error))
    return g_output_stream_close (G_OUTPUT_STREAM (out), cancellable, error);

  /* A close that is cancelled drops the temporary file instead of moving
   * it into place; without it, the stream's finalization would move it */
  discard = g_cancellable_new ();
  g_cancellable_cancel (discard);
  g_output_stream_close (G_OUTPUT_STREAM (out), discard, NULL);
  return FALSE;
}

static void
replace_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GBytes *bytes = task_data;
  GError *error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);

  if (kiste_file_replace (G_FILE (source_object), data ? data : "", length, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
kiste_file_replace_async (GFile               *file,
                          GBytes              *bytes,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (bytes != NULL);

  task = g_task_new (file, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_file_replace_async);
  g_task_set_task_data (task, g_bytes_ref (bytes), (GDestroyNotify) g_bytes_unref);
  g_task_run_in_thread (task, replace_thread);
}

gboolean
kiste_file_replace_finish (GFile         *file,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, file), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
