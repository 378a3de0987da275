/* kiste-box-store-details.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's details: one inspect for many boxes, applied only where the box
 * did not change state while it ran. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-box-private.h"
#include "kiste-box-store-state-private.h"
#include "kiste-error.h"

typedef struct
{
  GPtrArray *boxes;
  guint     *state_stamps;  /* each box's when inspect started */
} DetailsData;

static void
details_data_free (DetailsData *data)
{
  g_ptr_array_unref (data->boxes);
  g_free (data->state_stamps);
  g_free (data);
}

static void
kiste_box_store_details_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteBoxStore *self = g_task_get_source_object (task);
  DetailsData *data = g_task_get_task_data (task);
  GPtrArray *boxes = data->boxes;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) apply_error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *stdout_buf = NULL;
  g_autofree gboolean *applied = g_new0 (gboolean, boxes->len);
  gboolean parsed = FALSE;

  if (self != NULL)
    _kiste_box_store_forget_seen (self, boxes);

  kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error);

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Even when one box is gone (exit 125), the others are printed */
  if (stdout_buf != NULL &&
      json_parser_load_from_data (parser, stdout_buf, -1, NULL) &&
      json_parser_get_root (parser) != NULL &&
      JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
    {
      JsonArray *array = json_node_get_array (json_parser_get_root (parser));

      parsed = TRUE;

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *node = json_array_get_element (array, i);
          JsonObject *element;
          const char *id;

          if (!JSON_NODE_HOLDS_OBJECT (node))
            continue;

          element = json_node_get_object (node);
          if (!(id = _kiste_box_store_json_string_member (element, "Id")))
            continue;

          for (guint j = 0; j < boxes->len; j++)
            {
              KisteBox *box = g_ptr_array_index (boxes, j);

              if (applied[j] || !g_str_equal (kiste_box_get_id (box), id))
                continue;

              if (_kiste_box_apply_inspect (box, element, data->state_stamps[j],
                                            apply_error ? NULL : &apply_error))
                applied[j] = TRUE;
            }
        }
    }

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!parsed)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                               _("Could not read the details of the boxes from %s."),
                               _kiste_box_store_get_manager (self));
      return;
    }

  if (apply_error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&apply_error));
      return;
    }

  for (guint j = 0; j < boxes->len; j++)
    {
      if (!applied[j])
        {
          g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                                   _("The box “%s” no longer exists."),
                                   kiste_box_get_name (g_ptr_array_index (boxes, j)));
          return;
        }
    }

  g_task_return_boolean (task, TRUE);
}

void
kiste_box_store_load_details_async (KisteBoxStore        *self,
                                    KisteBox * const     *boxes,
                                    guint                 n_boxes,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) argv = NULL;
  DetailsData *data;

  g_return_if_fail (KISTE_IS_BOX_STORE (self));
  g_return_if_fail (boxes != NULL || n_boxes == 0);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  for (guint i = 0; i < n_boxes; i++)
    g_return_if_fail (KISTE_IS_BOX (boxes[i]));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_store_load_details_async);

  if (n_boxes == 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  data = g_new0 (DetailsData, 1);
  data->boxes = g_ptr_array_new_full (n_boxes, g_object_unref);
  data->state_stamps = g_new (guint, n_boxes);
  g_task_set_task_data (task, data, (GDestroyNotify) details_data_free);

  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder, _kiste_box_store_get_manager (self), "container", "inspect", NULL);
  /* docker prints a JSON array by default; its --format json means lines */
  if (!_kiste_box_store_is_docker (self))
    g_strv_builder_add_many (builder, "--format", "json", NULL);

  for (guint i = 0; i < n_boxes; i++)
    {
      g_ptr_array_add (data->boxes, g_object_ref (boxes[i]));
      data->state_stamps[i] = _kiste_box_get_state_stamp (boxes[i]);
      /* ids: a name could have changed since the list was read */
      g_strv_builder_add (builder, kiste_box_get_id (boxes[i]));
    }

  argv = g_strv_builder_end (builder);

  self->spawn_count++;
  kiste_runner_run_async (self->runner, (const char * const *) argv, self->timeout_ms,
                          cancellable, kiste_box_store_details_cb, g_steal_pointer (&task));
  _kiste_box_store_notify (self, PROP_SPAWN_COUNT);
}

gboolean
kiste_box_store_load_details_finish (KisteBoxStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (KISTE_IS_BOX_STORE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_box_store_load_details_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
