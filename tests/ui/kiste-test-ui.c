/* kiste-test-ui.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-test-ui.h"

void
kiste_test_flush (GtkWidget *widget)
{
  GdkSurface *surface;

  g_assert_nonnull (gtk_widget_get_native (widget));
  surface = gtk_native_get_surface (gtk_widget_get_native (widget));

  /* Twice: a first frame may queue another layout */
  for (guint i = 0; i < 2; i++)
    {
      if (surface != NULL)
        gdk_surface_queue_render (surface);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (20 * 1000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  gdk_display_sync (gtk_widget_get_display (widget));
}

gboolean
kiste_test_wait_for (gboolean (*predicate) (gpointer data),
                     gpointer   data,
                     guint      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!predicate (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (5 * 1000);
    }
  return TRUE;
}

static gboolean
has_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  g_autofree char *mismatch = NULL;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return FALSE;
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                 GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                 label);
  return mismatch == NULL;
}

GtkWidget *
kiste_test_find_widget (GtkWidget  *root,
                        GType       type,
                        const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        {
          if (label == NULL || has_accessible_label (child, label))
            return child;
        }
      if ((found = kiste_test_find_widget (child, type, label)))
        return found;
    }
  return NULL;
}

void
kiste_test_screenshot (GtkWidget  *widget,
                       const char *name)
{
  const char *dir = g_getenv ("KISTE_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GskRenderer *renderer;
  int width;
  int height;

  if (dir == NULL)
    return;

  kiste_test_flush (widget);
  paintable = gtk_widget_paintable_new (widget);
  width = gdk_paintable_get_intrinsic_width (paintable);
  height = gdk_paintable_get_intrinsic_height (paintable);
  g_assert_cmpint (width, >, 0);

  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_mkdir_with_parents (dir, 0755);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}
