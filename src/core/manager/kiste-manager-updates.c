/* kiste-manager-updates.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The update check: for each distinct image of the boxes, the digests the
 * engine keeps for the images the boxes were made from (image inspect),
 * then the registry's digest for the same name (skopeo inspect), a few
 * images at once. Nothing is pulled; no TLS flag is passed (a registry
 * that speaks plain HTTP is the user's own registries.conf's word). */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-updates.h"

#define LOCAL_TIMEOUT_MS (20 * 1000)
/* skopeo's own bound first, the runner's a little later */
#define REMOTE_TIMEOUT_MS ((KISTE_MANAGER_UPDATE_TIMEOUT_SECONDS + 5) * 1000)

typedef struct
{
  char      *key;
  char      *engine;
  char      *image;
  /* the image ids of its boxes, or its name for a box without one */
  GPtrArray *refs;
  GHashTable *local;
  KisteImageUpdate *update;
} Group;

typedef struct
{
  KisteManager *manager;
  GPtrArray    *groups;
  guint         next;
  guint         running;
  GError       *fatal;
} Check;

static void
group_free (Group *group)
{
  g_free (group->key);
  g_free (group->engine);
  g_free (group->image);
  g_ptr_array_unref (group->refs);
  g_clear_pointer (&group->local, g_hash_table_unref);
  kiste_image_update_free (group->update);
  g_free (group);
}

static void
check_free (Check *check)
{
  g_ptr_array_unref (check->groups);
  g_clear_error (&check->fatal);
  g_free (check);
}

static char *
make_key (const char *engine,
          const char *image)
{
  return g_strconcat (engine, "\n", image, NULL);
}

static const char *
box_engine (KisteManager *self,
            KisteBox     *box)
{
  const char *engine = kiste_box_get_engine (box);

  return engine != NULL ? engine : kiste_manager_get_engine (self);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *group_a = *(const Group **) a;
  const Group *group_b = *(const Group **) b;

  return g_strcmp0 (group_a->key, group_b->key);
}

static GPtrArray *
collect_groups (KisteManager *self)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (self));
  g_autoptr(GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);
      const char *image = kiste_box_get_image (box);
      const char *id = kiste_box_get_image_id (box);
      g_autofree char *key = NULL;
      Group *group;

      if (image == NULL || image[0] == '\0')
        continue;
      key = make_key (box_engine (self, box), image);
      group = g_hash_table_lookup (by_key, key);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->key = g_steal_pointer (&key);
          group->engine = g_strdup (box_engine (self, box));
          group->image = g_strdup (image);
          group->refs = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (by_key, group->key, group);
          g_ptr_array_add (groups, group);
        }
      /* an id that reads as an option is no id */
      if (id == NULL || id[0] == '\0' || id[0] == '-')
        id = image;
      if (!g_ptr_array_find_with_equal_func (group->refs, id, g_str_equal, NULL))
        g_ptr_array_add (group->refs, g_strdup (id));
    }
  g_ptr_array_sort (groups, compare_groups);
  return groups;
}

static void check_next (GTask *task);

static void
group_done (GTask *task,
            Group *group)
{
  Check *check = g_task_get_task_data (task);

  (void) group;
  check->running--;
  check_next (task);
}

static void
group_fail (Group                 *group,
            KisteImageUpdateState  state,
            const char            *message)
{
  group->update = kiste_image_update_new (group->image, state);
  group->update->message = g_strdup (message);
}

/* Whether error ends the whole check: nothing more can be asked */
static gboolean
take_fatal (Check  *check,
            GError *error)
{
  if (!g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;
  if (check->fatal == NULL)
    check->fatal = g_error_copy (error);
  return TRUE;
}

typedef struct
{
  GTask *task;
  Group *group;
} Request;

static void
remote_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autofree Request *request = user_data;
  g_autoptr(GTask) task = request->task;
  Check *check = g_task_get_task_data (task);
  Group *group = request->group;
  g_autofree char *output = NULL;
  g_autofree char *digest = NULL;
  g_autoptr(GDateTime) created = NULL;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      if (take_fatal (check, error))
        ;
      else if (g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT) ||
               kiste_image_update_classify_error (error->message) == KISTE_IMAGE_UPDATE_UNREACHABLE)
        group_fail (group, KISTE_IMAGE_UPDATE_UNREACHABLE, _("Could not reach the registry"));
      else if (strstr (error->message, "manifest unknown") != NULL ||
               strstr (error->message, "name unknown") != NULL)
        group_fail (group, KISTE_IMAGE_UPDATE_FAILED, _("The registry does not have this image"));
      else
        group_fail (group, KISTE_IMAGE_UPDATE_FAILED, _("The registry did not say"));
      group_done (task, group);
      return;
    }

  if (!kiste_image_update_parse_remote (output, &digest, &created, &error))
    {
      group_fail (group, KISTE_IMAGE_UPDATE_FAILED, error->message);
      group_done (task, group);
      return;
    }

  {
    g_auto(GStrv) outdated = kiste_image_update_find_outdated (group->local, digest);

    group->update = kiste_image_update_new (group->image,
                                            outdated[0] != NULL ? KISTE_IMAGE_UPDATE_NEWER
                                                                : KISTE_IMAGE_UPDATE_CURRENT);
    group->update->remote_digest = g_steal_pointer (&digest);
    group->update->created = g_steal_pointer (&created);
    group->update->outdated_ids = g_steal_pointer (&outdated);
  }
  group_done (task, group);
}

static void
local_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Request *request = user_data;
  GTask *task = request->task;
  Check *check = g_task_get_task_data (task);
  Group *group = request->group;
  g_autofree char *output = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error) ||
      (group->local = kiste_image_update_parse_local (output, &error)) == NULL)
    {
      if (!take_fatal (check, error))
        group_fail (group, KISTE_IMAGE_UPDATE_FAILED, _("The engine does not know this image"));
      g_free (request);
      group_done (task, group);
      g_object_unref (task);
      return;
    }

  argv = kiste_image_update_remote_argv (group->image, KISTE_MANAGER_UPDATE_TIMEOUT_SECONDS);
  kiste_runner_run_async (kiste_manager_get_runner (check->manager), (const char * const *) argv,
                          check->manager->update_timeout_ms ? check->manager->update_timeout_ms
                                                            : REMOTE_TIMEOUT_MS,
                          g_task_get_cancellable (task), remote_cb, request);
}

static void
check_finish (GTask *task)
{
  Check *check = g_task_get_task_data (task);
  KisteManager *self = check->manager;
  GPtrArray *answer;

  self->checking_updates = FALSE;
  if (check->fatal != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&check->fatal));
      return;
    }

  answer = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_image_update_free);
  g_hash_table_remove_all (self->image_updates);
  for (guint i = 0; i < check->groups->len; i++)
    {
      Group *group = g_ptr_array_index (check->groups, i);

      if (group->update == NULL)
        continue;
      g_hash_table_replace (self->image_updates, g_strdup (group->key),
                            kiste_image_update_copy (group->update));
      g_ptr_array_add (answer, g_steal_pointer (&group->update));
    }
  g_signal_emit_by_name (self, "image-updates-changed");
  g_task_return_pointer (task, answer, (GDestroyNotify) g_ptr_array_unref);
}

static void
check_next (GTask *task)
{
  Check *check = g_task_get_task_data (task);

  while (check->fatal == NULL && check->running < KISTE_MANAGER_UPDATE_REQUESTS &&
         check->next < check->groups->len)
    {
      Group *group = g_ptr_array_index (check->groups, check->next++);
      Request *request;
      g_auto(GStrv) argv = NULL;

      if (!kiste_image_update_is_remote (group->image))
        {
          group->update = kiste_image_update_new (group->image, KISTE_IMAGE_UPDATE_LOCAL);
          continue;
        }

      g_ptr_array_add (group->refs, NULL);
      argv = kiste_image_update_local_argv (group->engine, (const char * const *) group->refs->pdata);
      g_ptr_array_remove_index (group->refs, group->refs->len - 1);

      request = g_new0 (Request, 1);
      request->task = g_object_ref (task);
      request->group = group;
      check->running++;
      kiste_runner_run_async (kiste_manager_get_runner (check->manager), (const char * const *) argv,
                              LOCAL_TIMEOUT_MS, g_task_get_cancellable (task), local_cb, request);
    }

  if (check->running == 0)
    check_finish (task);
}

void
kiste_manager_check_updates_async (KisteManager        *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Check *check;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_check_updates_async);

  if (self->checking_updates)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BUSY,
                               _("Kiste is checking for updates already."));
      return;
    }

  check = g_new0 (Check, 1);
  check->manager = self;
  check->groups = collect_groups (self);
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);
  self->checking_updates = TRUE;
  check_next (task);
}

void
_kiste_manager_set_update_timeout (KisteManager *self,
                                   guint         timeout_ms)
{
  g_return_if_fail (KISTE_IS_MANAGER (self));

  self->update_timeout_ms = timeout_ms;
}

const KisteImageUpdate *
kiste_manager_get_image_update (KisteManager *self,
                                KisteBox     *box)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  if (kiste_box_get_image (box) == NULL)
    return NULL;
  key = make_key (box_engine (self, box), kiste_box_get_image (box));
  return g_hash_table_lookup (self->image_updates, key);
}

gboolean
kiste_manager_box_has_newer_image (KisteManager *self,
                                   KisteBox     *box)
{
  const KisteImageUpdate *update = kiste_manager_get_image_update (self, box);

  return update != NULL && kiste_image_update_applies_to (update, kiste_box_get_image_id (box));
}
