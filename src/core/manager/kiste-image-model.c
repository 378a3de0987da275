/* kiste-image-model.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-image-model.h"
#include "kiste-snapshot.h"

struct _KisteImageModel
{
  GObject    parent_instance;
  GPtrArray *downloaded;
  gboolean   show_snapshots;
  GPtrArray *compatible;
  /* what the model shows: downloaded, then compatible ones not downloaded */
  GPtrArray *items;
  guint      loaded : 1;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KisteImageModel, kiste_image_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

enum {
  PROP_0,
  PROP_LOADED,
  PROP_HAS_COMPATIBLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
kiste_image_model_get_item_type (GListModel *model)
{
  return KISTE_TYPE_IMAGE;
}

static guint
kiste_image_model_get_n_items (GListModel *model)
{
  return KISTE_IMAGE_MODEL (model)->items->len;
}

static gpointer
kiste_image_model_get_item (GListModel *model,
                            guint       position)
{
  KisteImageModel *self = KISTE_IMAGE_MODEL (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = kiste_image_model_get_item_type;
  iface->get_n_items = kiste_image_model_get_n_items;
  iface->get_item = kiste_image_model_get_item;
}

KisteImageModel *
kiste_image_model_new (void)
{
  return g_object_new (KISTE_TYPE_IMAGE_MODEL, NULL);
}

static gboolean
contains (GPtrArray  *images,
          const char *name)
{
  for (guint i = 0; images != NULL && i < images->len; i++)
    if (g_strcmp0 (kiste_image_get_name (g_ptr_array_index (images, i)), name) == 0)
      return TRUE;
  return FALSE;
}

gboolean
kiste_image_model_is_downloaded (KisteImageModel *self,
                                 const char      *name)
{
  g_return_val_if_fail (KISTE_IS_IMAGE_MODEL (self), FALSE);
  return name != NULL && contains (self->downloaded, name);
}

static void
rebuild (KisteImageModel *self)
{
  guint removed = self->items->len;

  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; self->downloaded != NULL && i < self->downloaded->len; i++)
    {
      KisteImage *image = g_ptr_array_index (self->downloaded, i);

      /* snapshots are boxes' own, made from their pages */
      if (self->show_snapshots || !kiste_snapshot_is_snapshot_image (kiste_image_get_name (image)))
        g_ptr_array_add (self->items, g_object_ref (image));
    }
  for (guint i = 0; self->compatible != NULL && i < self->compatible->len; i++)
    {
      KisteImage *image = g_ptr_array_index (self->compatible, i);

      if (!contains (self->downloaded, kiste_image_get_name (image)))
        g_ptr_array_add (self->items, g_object_ref (image));
    }

  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->items->len);
}

void
kiste_image_model_set_downloaded (KisteImageModel *self,
                                  GPtrArray       *images)
{
  g_return_if_fail (KISTE_IS_IMAGE_MODEL (self));

  g_clear_pointer (&self->downloaded, g_ptr_array_unref);
  self->downloaded = images ? g_ptr_array_ref (images) : NULL;
  rebuild (self);
  if (!self->loaded)
    {
      self->loaded = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }
}

void
kiste_image_model_set_show_snapshots (KisteImageModel *self,
                                      gboolean         show)
{
  g_return_if_fail (KISTE_IS_IMAGE_MODEL (self));

  if (self->show_snapshots == !!show)
    return;
  self->show_snapshots = !!show;
  rebuild (self);
}

guint
kiste_image_model_get_n_snapshots (KisteImageModel *self)
{
  guint n = 0;

  g_return_val_if_fail (KISTE_IS_IMAGE_MODEL (self), 0);

  for (guint i = 0; self->downloaded != NULL && i < self->downloaded->len; i++)
    if (kiste_snapshot_is_snapshot_image (kiste_image_get_name (g_ptr_array_index (self->downloaded, i))))
      n++;
  return n;
}

void
kiste_image_model_set_compatible (KisteImageModel *self,
                                  GPtrArray       *images)
{
  gboolean had = FALSE;

  g_return_if_fail (KISTE_IS_IMAGE_MODEL (self));

  had = self->compatible != NULL;
  g_clear_pointer (&self->compatible, g_ptr_array_unref);
  self->compatible = images ? g_ptr_array_ref (images) : NULL;
  rebuild (self);
  if (had != (self->compatible != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_COMPATIBLE]);
}

gboolean
kiste_image_model_get_loaded (KisteImageModel *self)
{
  g_return_val_if_fail (KISTE_IS_IMAGE_MODEL (self), FALSE);
  return self->loaded;
}

gboolean
kiste_image_model_get_has_compatible (KisteImageModel *self)
{
  g_return_val_if_fail (KISTE_IS_IMAGE_MODEL (self), FALSE);
  return self->compatible != NULL;
}

static void
downloaded_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(KisteImageModel) self = user_data;
  g_autoptr(GPtrArray) images = NULL;
  g_autoptr(GError) error = NULL;

  if (!(images = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      /* the known images and a typed name still work */
      g_debug ("Could not list images: %s", error->message);
    }
  kiste_image_model_set_downloaded (self, images);
}

static void
compatible_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(KisteImageModel) self = user_data;
  g_autoptr(GPtrArray) images = NULL;
  g_autoptr(GError) error = NULL;

  /* without a network the first time, there is no list: say nothing */
  if (!(images = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No compatibility list: %s", error->message);
      return;
    }
  kiste_image_model_set_compatible (self, images);
}

void
kiste_image_model_load (KisteImageModel *self,
                        KisteManager    *manager,
                        GCancellable    *cancellable)
{
  g_return_if_fail (KISTE_IS_IMAGE_MODEL (self));
  g_return_if_fail (KISTE_IS_MANAGER (manager));

  kiste_manager_list_images_async (manager, cancellable, downloaded_cb, g_object_ref (self));
  kiste_manager_list_compatible_images_async (manager, cancellable, compatible_cb, g_object_ref (self));
}

static void
kiste_image_model_finalize (GObject *object)
{
  KisteImageModel *self = KISTE_IMAGE_MODEL (object);

  g_clear_pointer (&self->downloaded, g_ptr_array_unref);
  g_clear_pointer (&self->compatible, g_ptr_array_unref);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (kiste_image_model_parent_class)->finalize (object);
}

static void
kiste_image_model_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KisteImageModel *self = KISTE_IMAGE_MODEL (object);

  switch (prop_id)
    {
    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    case PROP_HAS_COMPATIBLE:
      g_value_set_boolean (value, self->compatible != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_image_model_class_init (KisteImageModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_image_model_finalize;
  object_class->get_property = kiste_image_model_get_property;

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_HAS_COMPATIBLE] =
    g_param_spec_boolean ("has-compatible", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_image_model_init (KisteImageModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}
