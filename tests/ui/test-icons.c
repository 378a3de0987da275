/* test-icons.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-application.h"
#include "kiste-test-ui.h"

#define ICON_SIZE 64

/* Every icon Kiste draws is an SVG from its resource bundle. Without
 * gdk-pixbuf's SVG loader each one silently becomes GTK's broken-image mark,
 * so these tests render them and compare. */

static const char * const resource_icons[] = {
  RESOURCE_PATH "/icons/scalable/apps/io.github.kiste.Kiste.svg",
  RESOURCE_PATH "/icons/scalable/actions/kiste-distro-debian-symbolic.svg",
  RESOURCE_PATH "/icons/scalable/actions/kiste-distro-fedora-symbolic.svg",
};

static const char * const theme_icons[] = {
  "io.github.kiste.Kiste",
  "kiste-distro-debian-symbolic",
  "kiste-distro-arch-symbolic",
};

static KisteApplication *app;

static guint
count_visible_pixels (const guchar *data,
                      gsize         stride,
                      int           width,
                      int           height,
                      gboolean      has_alpha)
{
  guint n = 0;

  for (int y = 0; y < height; y++)
    {
      const guchar *row = data + y * stride;

      for (int x = 0; x < width; x++)
        {
          /* RGBA from gdk-pixbuf, premultiplied BGRA from GDK: alpha is
           * the fourth byte in both */
          if (!has_alpha || row[x * 4 + 3] > 16)
            n++;
        }
    }

  return n;
}

static void
test_svg_loader (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (resource_icons); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GdkPixbuf) pixbuf = NULL;
      guint visible;

      pixbuf = gdk_pixbuf_new_from_resource_at_scale (resource_icons[i], ICON_SIZE, ICON_SIZE,
                                                      TRUE, &error);
      g_assert_no_error (error);
      g_assert_nonnull (pixbuf);
      g_assert_cmpint (gdk_pixbuf_get_n_channels (pixbuf), ==, 4);

      visible = count_visible_pixels (gdk_pixbuf_read_pixels (pixbuf),
                                      gdk_pixbuf_get_rowstride (pixbuf),
                                      gdk_pixbuf_get_width (pixbuf),
                                      gdk_pixbuf_get_height (pixbuf),
                                      gdk_pixbuf_get_has_alpha (pixbuf));
      g_test_message ("%s: %u visible pixels", resource_icons[i], visible);
      /* a drawing, not an empty square */
      g_assert_cmpuint (visible, >, ICON_SIZE * ICON_SIZE / 20);
    }
}

static GBytes *
render_icon (const char *name,
             guint      *visible)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_autoptr(GtkIconPaintable) icon = NULL;
  g_autoptr(GskRenderer) renderer = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  GtkSnapshot *snapshot;
  gsize stride = ICON_SIZE * 4;
  guchar *data;

  icon = gtk_icon_theme_lookup_icon (theme, name, NULL, ICON_SIZE, 1, GTK_TEXT_DIR_NONE, 0);
  g_assert_nonnull (icon);

  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (GDK_PAINTABLE (icon), snapshot, ICON_SIZE, ICON_SIZE);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);

  renderer = gsk_cairo_renderer_new ();
  g_assert_true (gsk_renderer_realize_for_display (renderer, gdk_display_get_default (), &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, ICON_SIZE, ICON_SIZE));
  gsk_renderer_unrealize (renderer);

  data = g_malloc0 (stride * ICON_SIZE);
  gdk_texture_download (texture, data, stride);
  *visible = count_visible_pixels (data, stride, ICON_SIZE, ICON_SIZE, TRUE);

  return g_bytes_new_take (data, stride * ICON_SIZE);
}

static void
test_theme_icons (void)
{
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());
  g_autoptr(GBytes) missing = NULL;
  guint missing_visible;

  /* what GTK draws for an icon it cannot load */
  missing = render_icon ("image-missing", &missing_visible);

  for (guint i = 0; i < G_N_ELEMENTS (theme_icons); i++)
    {
      g_autoptr(GBytes) drawn = NULL;
      guint visible;

      g_assert_true (gtk_icon_theme_has_icon (theme, theme_icons[i]));

      drawn = render_icon (theme_icons[i], &visible);
      g_test_message ("%s: %u visible pixels", theme_icons[i], visible);
      g_assert_cmpuint (visible, >, ICON_SIZE * ICON_SIZE / 20);
      g_assert_false (g_bytes_equal (drawn, missing));
    }
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  kiste_test_init (&argc, &argv);

  /* The application adds its resource's icons to the icon theme */
  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));

  g_test_add_func ("/kiste/icons/svg-loader", test_svg_loader);
  g_test_add_func ("/kiste/icons/theme", test_theme_icons);

  ret = g_test_run ();

  g_clear_object (&app);
  return ret;
}
