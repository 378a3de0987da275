/* kiste-manager-queries.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's read-only questions: images, the compatibility list, a
 * box's usage and its log. None of them is a KisteTask: they change
 * nothing, and people do not follow them in the task list. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-manager-private.h"

#define IMAGES_TIMEOUT_MS (30 * 1000)
#define COMPATIBILITY_TIMEOUT_MS (20 * 1000)
#define STATS_TIMEOUT_MS (20 * 1000)
#define LOGS_TIMEOUT_MS (60 * 1000)

/* distrobox's list of images known to work, once it was read: it needs the
 * network the first time and does not change while the app runs */
static GPtrArray *compatible_images;

void
_kiste_manager_forget_compatible_images (void)
{
  g_clear_pointer (&compatible_images, g_ptr_array_unref);
}

static gpointer
ref_image (gconstpointer image,
           gpointer      user_data)
{
  return g_object_ref ((gpointer) image);
}

static GPtrArray *
copy_images (GPtrArray *images)
{
  return g_ptr_array_copy (images, ref_image, NULL);
}

static gboolean
check_box_name (const char  *box_name,
                GError     **error)
{
  /* names come from the store; never let one read as an option */
  if (box_name == NULL || box_name[0] == '\0' || box_name[0] == '-')
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("This is not the name of a box."));
      return FALSE;
    }
  return TRUE;
}

/* The machinery of a question: run, parse, answer */

typedef struct
{
  GTask           *task;
  KisteQueryParse  parse;
  GDestroyNotify   free_result;
} Query;

static void
query_ran_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autofree Query *query = user_data;
  g_autoptr(GTask) task = query->task;
  g_autofree char *output = NULL;
  GError *error = NULL;
  gpointer answer;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  answer = query->parse (output, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, answer, query->free_result);
}

void
_kiste_manager_run_query (KisteManager        *self,
                          GTask               *task,
                          const char * const  *argv,
                          guint                timeout_ms,
                          KisteQueryParse      parse,
                          GDestroyNotify       free_result)
{
  Query *query = g_new0 (Query, 1);

  query->task = task;
  query->parse = parse;
  query->free_result = free_result;
  kiste_runner_run_async (kiste_manager_get_runner (self), argv, timeout_ms,
                          g_task_get_cancellable (task), query_ran_cb, query);
}

/* Images */

static gpointer
parse_images (const char  *output,
              GError     **error)
{
  return kiste_image_parse_list (output);
}

void
kiste_manager_list_images_async (KisteManager        *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_list_images_async);

  argv = kiste_commands_images_argv (kiste_manager_get_engine (self));
  _kiste_manager_run_query (self, task, (const char * const *) argv, IMAGES_TIMEOUT_MS,
                            parse_images, (GDestroyNotify) g_ptr_array_unref);
}

static gpointer
parse_compatibility (const char  *output,
                     GError     **error)
{
  /* a caller that was quicker may have filled it meanwhile */
  if (compatible_images == NULL)
    compatible_images = kiste_image_parse_compatibility (output);
  return copy_images (compatible_images);
}

void
kiste_manager_list_compatible_images_async (KisteManager        *self,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  GTask *task;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_list_compatible_images_async);

  if (compatible_images != NULL)
    {
      g_task_return_pointer (task, copy_images (compatible_images), (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }

  argv = kiste_commands_compatibility_argv ();
  _kiste_manager_run_query (self, task, (const char * const *) argv, COMPATIBILITY_TIMEOUT_MS,
                            parse_compatibility, (GDestroyNotify) g_ptr_array_unref);
}

/* Usage */

static gpointer
parse_stats (const char  *output,
             GError     **error)
{
  return kiste_box_stats_parse (output, error);
}

void
kiste_manager_get_stats_async (KisteManager        *self,
                               const char          *box_name,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  GError *error = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_get_stats_async);

  if (!check_box_name (box_name, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  {
    KisteBoxSource *source = NULL;
    const char *name = _kiste_manager_resolve_box (self, box_name, &source);

    argv = kiste_commands_stats_argv (kiste_box_source_get_engine (source), name);
  }
  _kiste_manager_run_query (self, task, (const char * const *) argv, STATS_TIMEOUT_MS,
                            parse_stats, (GDestroyNotify) kiste_box_stats_free);
}

/* The log */

static void
log_streamed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_stream_finish (KISTE_RUNNER (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_manager_stream_log_async (KisteManager        *self,
                                const char          *box_name,
                                GDateTime           *since,
                                gboolean             follow,
                                KisteLineFunc        line_func,
                                gpointer             line_data,
                                GDestroyNotify       line_data_destroy,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) start = NULL;
  g_autofree char *since_text = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (line_func != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_stream_log_async);

  if (!check_box_name (box_name, &error))
    {
      if (line_data_destroy != NULL)
        line_data_destroy (line_data);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* the engines want a start; the epoch's first second means all of it */
  start = since ? g_date_time_ref (since) : g_date_time_new_from_unix_utc (1);
  since_text = kiste_commands_format_since (start);
  {
    KisteBoxSource *source = NULL;
    const char *name = _kiste_manager_resolve_box (self, box_name, &source);

    argv = kiste_commands_logs_argv (kiste_box_source_get_engine (source), name, since_text, follow);
  }
  /* the box's stdout and stderr, as podman logs writes them, in order */
  kiste_runner_stream_merged_async (kiste_manager_get_runner (self), (const char * const *) argv,
                                    follow ? 0 : LOGS_TIMEOUT_MS,
                                    line_func, line_data, line_data_destroy,
                                    cancellable, log_streamed_cb, g_steal_pointer (&task));
}

