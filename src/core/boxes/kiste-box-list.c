/* kiste-box-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-box-list.h"
#include "kiste-box-private.h"

struct _KisteBoxList
{
  GObject     parent_instance;

  /* KisteBoxSource, the first one first */
  GPtrArray  *sources;
  guint       several_engines : 1;
  guint       several_tools : 1;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KisteBoxList, kiste_box_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_LOADED,
  PROP_REFRESHING,
  PROP_WATCHING,
  PROP_ERROR,
  PROP_SEVERAL_ENGINES,
  PROP_SEVERAL_TOOLS,
  PROP_N_ITEMS,
  PROP_ITEM_TYPE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static KisteBoxStore *
store_at (KisteBoxList *self,
          guint         i)
{
  return kiste_box_source_get_store (g_ptr_array_index (self->sources, i));
}

static KisteBoxStore *
first_store (KisteBoxList *self)
{
  return store_at (self, 0);
}

/* Where the boxes of the source at index start in the list */
static guint
offset_of (KisteBoxList *self,
           guint         index)
{
  guint offset = 0;

  for (guint i = 0; i < index; i++)
    offset += g_list_model_get_n_items (G_LIST_MODEL (store_at (self, i)));
  return offset;
}

static GType
kiste_box_list_get_item_type (GListModel *model)
{
  return KISTE_TYPE_BOX;
}

static guint
kiste_box_list_get_n_items (GListModel *model)
{
  KisteBoxList *self = KISTE_BOX_LIST (model);

  return offset_of (self, self->sources->len);
}

static gpointer
kiste_box_list_get_item (GListModel *model,
                         guint       position)
{
  KisteBoxList *self = KISTE_BOX_LIST (model);

  for (guint i = 0; i < self->sources->len; i++)
    {
      GListModel *store = G_LIST_MODEL (store_at (self, i));
      guint n = g_list_model_get_n_items (store);

      if (position < n)
        return g_list_model_get_item (store, position);
      position -= n;
    }
  return NULL;
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = kiste_box_list_get_item_type;
  iface->get_n_items = kiste_box_list_get_n_items;
  iface->get_item = kiste_box_list_get_item;
}

/* Whether boxes of both tools are listed */
static gboolean
has_several_tools (KisteBoxList *self)
{
  gboolean seen[2] = { FALSE, FALSE };

  for (guint i = 0; i < self->sources->len; i++)
    {
      GListModel *store = G_LIST_MODEL (store_at (self, i));
      guint n = g_list_model_get_n_items (store);

      for (guint j = 0; j < n; j++)
        {
          g_autoptr(KisteBox) box = g_list_model_get_item (store, j);

          seen[kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX] = TRUE;
          if (seen[0] && seen[1])
            return TRUE;
        }
    }
  return FALSE;
}

static void
update_several (KisteBoxList *self)
{
  guint with_boxes = 0;
  gboolean several;

  for (guint i = 0; i < self->sources->len; i++)
    if (g_list_model_get_n_items (G_LIST_MODEL (store_at (self, i))) > 0)
      with_boxes++;

  several = with_boxes > 1;
  if (several != self->several_engines)
    {
      self->several_engines = several;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEVERAL_ENGINES]);
    }

  several = has_several_tools (self);
  if (several != self->several_tools)
    {
      self->several_tools = several;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEVERAL_TOOLS]);
    }
}

/* Boxes of any source but the first are named with their engine */
static void
name_boxes (KisteBoxList   *self,
            KisteBoxSource *source,
            guint           position,
            guint           n)
{
  GListModel *store = G_LIST_MODEL (kiste_box_source_get_store (source));

  if (source == g_ptr_array_index (self->sources, 0))
    return;

  for (guint i = position; i < position + n; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (store, i);
      g_autofree char *ref = g_strconcat (kiste_box_source_get_engine (source), "/",
                                          kiste_box_get_name (box), NULL);

      _kiste_box_set_ref (box, ref);
    }
}

static void
store_items_changed_cb (GListModel   *store,
                        guint         position,
                        guint         removed,
                        guint         added,
                        KisteBoxList *self)
{
  for (guint i = 0; i < self->sources->len; i++)
    {
      KisteBoxSource *source = g_ptr_array_index (self->sources, i);

      if (G_LIST_MODEL (kiste_box_source_get_store (source)) != store)
        continue;

      name_boxes (self, source, position, added);
      g_list_model_items_changed (G_LIST_MODEL (self), offset_of (self, i) + position, removed, added);
      if (removed != added)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
      update_several (self);
      return;
    }
}

static void
store_notify_cb (KisteBoxStore *store,
                 GParamSpec    *pspec,
                 KisteBoxList  *self)
{
  const char *name = g_param_spec_get_name (pspec);

  /* the list says what its first source says, except refreshing */
  if (g_str_equal (name, "refreshing"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFRESHING]);
  else if (store != first_store (self))
    return;
  else if (g_str_equal (name, "loaded"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  else if (g_str_equal (name, "error"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
  else if (g_str_equal (name, "watching"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATCHING]);
}

static void
connect_source (KisteBoxList   *self,
                KisteBoxSource *source)
{
  KisteBoxStore *store = kiste_box_source_get_store (source);

  g_signal_connect_object (store, "items-changed", G_CALLBACK (store_items_changed_cb), self, 0);
  g_signal_connect_object (store, "notify", G_CALLBACK (store_notify_cb), self, 0);
}

KisteBoxList *
kiste_box_list_new (KisteBoxSource *first)
{
  KisteBoxList *self;

  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (first), NULL);

  self = g_object_new (KISTE_TYPE_BOX_LIST, NULL);
  g_ptr_array_add (self->sources, g_object_ref (first));
  connect_source (self, first);
  return self;
}

void
kiste_box_list_add_source (KisteBoxList   *self,
                           KisteBoxSource *source)
{
  KisteBoxStore *store;
  guint position;
  guint n;

  g_return_if_fail (KISTE_IS_BOX_LIST (self));
  g_return_if_fail (KISTE_IS_BOX_SOURCE (source));

  if (kiste_box_list_find_source (self, kiste_box_source_get_engine (source)) != NULL)
    return;

  store = kiste_box_source_get_store (source);
  position = kiste_box_list_get_n_items (G_LIST_MODEL (self));
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_ptr_array_add (self->sources, g_object_ref (source));
  connect_source (self, source);
  name_boxes (self, source, 0, n);

  if (kiste_box_store_get_watching (first_store (self)))
    kiste_box_store_start_watching (store);

  if (n > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
      update_several (self);
    }
}

void
kiste_box_list_remove_source (KisteBoxList   *self,
                              KisteBoxSource *source)
{
  g_autoptr(KisteBoxSource) held = NULL;
  KisteBoxStore *store;
  guint index;
  guint position;
  guint n;

  g_return_if_fail (KISTE_IS_BOX_LIST (self));
  g_return_if_fail (KISTE_IS_BOX_SOURCE (source));

  /* the first source stays: the list is its */
  if (!g_ptr_array_find (self->sources, source, &index) || index == 0)
    return;

  store = kiste_box_source_get_store (source);
  position = offset_of (self, index);
  n = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_signal_handlers_disconnect_by_data (store, self);
  kiste_box_store_stop_watching (store);
  held = g_ptr_array_steal_index (self->sources, index);

  if (n > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, n, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
      update_several (self);
    }
}

GPtrArray *
kiste_box_list_get_sources (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);

  return self->sources;
}

KisteBoxSource *
kiste_box_list_get_first_source (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);

  return g_ptr_array_index (self->sources, 0);
}

KisteBoxSource *
kiste_box_list_find_source (KisteBoxList *self,
                            const char   *engine)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);

  for (guint i = 0; engine != NULL && i < self->sources->len; i++)
    {
      KisteBoxSource *source = g_ptr_array_index (self->sources, i);

      if (g_strcmp0 (kiste_box_source_get_engine (source), engine) == 0)
        return source;
    }
  return NULL;
}

KisteBoxSource *
kiste_box_list_get_source_for_box (KisteBoxList *self,
                                   KisteBox     *box)
{
  KisteBoxSource *source;

  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  source = kiste_box_list_find_source (self, kiste_box_get_engine (box));
  return source != NULL ? source : kiste_box_list_get_first_source (self);
}

KisteBoxSource *
kiste_box_list_parse_ref (KisteBoxList  *self,
                          const char    *ref,
                          const char   **name)
{
  const char *slash;

  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);
  g_return_val_if_fail (ref != NULL, NULL);

  /* box names never hold a slash (podman's and docker's rules) */
  if ((slash = strchr (ref, '/')) != NULL)
    {
      g_autofree char *engine = g_strndup (ref, slash - ref);

      if (name != NULL)
        *name = slash + 1;
      return kiste_box_list_find_source (self, engine);
    }

  if (name != NULL)
    *name = ref;
  return kiste_box_list_get_first_source (self);
}

KisteBox *
kiste_box_list_find (KisteBoxList *self,
                     const char   *ref)
{
  KisteBoxSource *source;
  const char *name = NULL;

  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);
  g_return_val_if_fail (ref != NULL, NULL);

  source = kiste_box_list_parse_ref (self, ref, &name);
  if (source == NULL)
    return NULL;
  if (strchr (ref, '/') != NULL)
    return kiste_box_store_find_by_name (kiste_box_source_get_store (source), name);

  /* a plain name: the first source's box, else the only other one */
  for (guint i = 0; i < self->sources->len; i++)
    {
      KisteBox *box = kiste_box_store_find_by_name (store_at (self, i), name);

      if (box != NULL)
        return box;
    }
  return NULL;
}

/* Waiting for every store */

typedef struct
{
  guint   pending;
  GError *error;
} Gather;

static void
gather_free (Gather *gather)
{
  g_clear_error (&gather->error);
  g_free (gather);
}

/* One store is done; the task ends with the last. The first store's error
 * (or, for details, the first error) is the list's. */
static void
gather_done (GTask   *task,
             GError  *error,
             gboolean counts)
{
  Gather *gather = g_task_get_task_data (task);

  if (error != NULL && counts && gather->error == NULL)
    gather->error = error;
  else
    g_clear_error (&error);

  if (--gather->pending > 0)
    return;

  if (gather->error != NULL)
    g_task_return_error (task, g_steal_pointer (&gather->error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
reload_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteBoxList *self = g_task_get_source_object (task);
  GError *error = NULL;

  kiste_box_store_reload_finish (KISTE_BOX_STORE (object), result, &error);
  if (error != NULL && KISTE_BOX_STORE (object) != first_store (self))
    g_debug ("Listing the %s boxes failed: %s", kiste_box_store_get_engine (KISTE_BOX_STORE (object)),
             error->message);
  gather_done (task, error, KISTE_BOX_STORE (object) == first_store (self));
}

void
kiste_box_list_reload_async (KisteBoxList        *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Gather *gather;

  g_return_if_fail (KISTE_IS_BOX_LIST (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_list_reload_async);
  gather = g_new0 (Gather, 1);
  gather->pending = self->sources->len;
  g_task_set_task_data (task, gather, (GDestroyNotify) gather_free);

  for (guint i = 0; i < self->sources->len; i++)
    kiste_box_store_reload_async (store_at (self, i), cancellable, reload_cb, g_object_ref (task));
}

gboolean
kiste_box_list_reload_finish (KisteBoxList  *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
details_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, &error);
  gather_done (task, error, TRUE);
}

void
kiste_box_list_load_details_async (KisteBoxList        *self,
                                   KisteBox * const    *boxes,
                                   guint                n_boxes,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) groups = NULL;
  Gather *gather;

  g_return_if_fail (KISTE_IS_BOX_LIST (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_box_list_load_details_async);

  /* the boxes of each source, in the order of the sources */
  groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < self->sources->len; i++)
    g_ptr_array_add (groups, g_ptr_array_new ());
  for (guint i = 0; i < n_boxes; i++)
    {
      KisteBoxSource *source = kiste_box_list_get_source_for_box (self, boxes[i]);
      guint index = 0;

      g_ptr_array_find (self->sources, source, &index);
      g_ptr_array_add (g_ptr_array_index (groups, index), boxes[i]);
    }

  gather = g_new0 (Gather, 1);
  /* one for this function, so no store finishes the task early */
  gather->pending = 1;
  g_task_set_task_data (task, gather, (GDestroyNotify) gather_free);

  for (guint i = 0; i < self->sources->len; i++)
    {
      GPtrArray *group = g_ptr_array_index (groups, i);

      if (group->len == 0)
        continue;
      gather->pending++;
      kiste_box_store_load_details_async (store_at (self, i), (KisteBox * const *) group->pdata,
                                          group->len, cancellable, details_cb, g_object_ref (task));
    }
  gather_done (task, NULL, FALSE);
}

gboolean
kiste_box_list_load_details_finish (KisteBoxList  *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
kiste_box_list_stop_watching (KisteBoxList *self)
{
  g_return_if_fail (KISTE_IS_BOX_LIST (self));

  for (guint i = 0; i < self->sources->len; i++)
    kiste_box_store_stop_watching (store_at (self, i));
}

gboolean
kiste_box_list_get_loaded (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), FALSE);

  return kiste_box_store_get_loaded (first_store (self));
}

gboolean
kiste_box_list_get_watching (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), FALSE);

  return kiste_box_store_get_watching (first_store (self));
}

const GError *
kiste_box_list_get_error (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);

  return kiste_box_store_get_error (first_store (self));
}

static gboolean
kiste_box_list_get_refreshing (KisteBoxList *self)
{
  for (guint i = 0; i < self->sources->len; i++)
    if (kiste_box_store_get_refreshing (store_at (self, i)))
      return TRUE;
  return FALSE;
}

gboolean
kiste_box_list_get_several_tools (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), FALSE);

  return self->several_tools;
}

gboolean
kiste_box_list_get_several_engines (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), FALSE);

  return self->several_engines;
}

const char *
kiste_box_list_get_host_home (KisteBoxList *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_LIST (self), NULL);

  return kiste_box_store_get_host_home (first_store (self));
}

static void
kiste_box_list_dispose (GObject *object)
{
  KisteBoxList *self = KISTE_BOX_LIST (object);

  for (guint i = 0; self->sources != NULL && i < self->sources->len; i++)
    g_signal_handlers_disconnect_by_data (store_at (self, i), self);
  g_clear_pointer (&self->sources, g_ptr_array_unref);

  G_OBJECT_CLASS (kiste_box_list_parent_class)->dispose (object);
}

static void
kiste_box_list_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KisteBoxList *self = KISTE_BOX_LIST (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, kiste_box_list_get_loaded (self));
      break;

    case PROP_REFRESHING:
      g_value_set_boolean (value, kiste_box_list_get_refreshing (self));
      break;

    case PROP_WATCHING:
      g_value_set_boolean (value, kiste_box_list_get_watching (self));
      break;

    case PROP_ERROR:
      g_value_set_boxed (value, kiste_box_list_get_error (self));
      break;

    case PROP_SEVERAL_ENGINES:
      g_value_set_boolean (value, self->several_engines);
      break;

    case PROP_SEVERAL_TOOLS:
      g_value_set_boolean (value, self->several_tools);
      break;

    case PROP_N_ITEMS:
      g_value_set_uint (value, kiste_box_list_get_n_items (G_LIST_MODEL (self)));
      break;

    case PROP_ITEM_TYPE:
      g_value_set_gtype (value, KISTE_TYPE_BOX);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_list_class_init (KisteBoxListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = kiste_box_list_dispose;
  object_class->get_property = kiste_box_list_get_property;

  properties[PROP_LOADED] = g_param_spec_boolean ("loaded", NULL, NULL, FALSE, ro);
  properties[PROP_REFRESHING] = g_param_spec_boolean ("refreshing", NULL, NULL, FALSE, ro);
  properties[PROP_WATCHING] = g_param_spec_boolean ("watching", NULL, NULL, FALSE, ro);
  properties[PROP_ERROR] = g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR, ro);
  properties[PROP_SEVERAL_ENGINES] = g_param_spec_boolean ("several-engines", NULL, NULL, FALSE, ro);
  properties[PROP_SEVERAL_TOOLS] = g_param_spec_boolean ("several-tools", NULL, NULL, FALSE, ro);
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0, ro);
  properties[PROP_ITEM_TYPE] = g_param_spec_gtype ("item-type", NULL, NULL, KISTE_TYPE_BOX, ro);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_box_list_init (KisteBoxList *self)
{
  self->sources = g_ptr_array_new_with_free_func (g_object_unref);
}
