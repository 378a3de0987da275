/* kiste-color-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-color-row.h"

/* GNOME's palette, as in the accent colours */
static const struct
{
  const char *name;
  const char *label;
  const char *rgb;
} palette[] = {
  { "blue", N_("Blue"), "#3584e4" },
  { "teal", N_("Teal"), "#2190a4" },
  { "green", N_("Green"), "#3a944a" },
  { "yellow", N_("Yellow"), "#c88800" },
  { "orange", N_("Orange"), "#ed5b00" },
  { "red", N_("Red"), "#e62d42" },
  { "pink", N_("Pink"), "#d56199" },
  { "purple", N_("Purple"), "#9141ac" },
  { "slate", N_("Slate"), "#6f8396" },
};

struct _KisteColorRow
{
  AdwActionRow  parent_instance;

  GSettings    *settings;
  char         *box_name;
  GPtrArray    *buttons;
  guint         updating : 1;

  /* Template widgets */
  GtkBox       *swatches;
};

G_DEFINE_FINAL_TYPE (KisteColorRow, kiste_color_row, ADW_TYPE_ACTION_ROW)

static GtkCssProvider *swatch_css;

gboolean
kiste_box_color_lookup (GSettings  *settings,
                        const char *box_name,
                        GdkRGBA    *color)
{
  g_autoptr(GVariant) colors = NULL;
  const char *name = NULL;

  if (settings == NULL || box_name == NULL)
    return FALSE;

  colors = g_settings_get_value (settings, "box-colors");
  if (!g_variant_lookup (colors, box_name, "&s", &name))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    {
      if (g_str_equal (palette[i].name, name))
        return gdk_rgba_parse (color, palette[i].rgb);
    }

  return FALSE;
}

void
kiste_box_color_set (GSettings  *settings,
                     const char *box_name,
                     const char *color)
{
  g_autoptr(GVariant) old = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key;
  const char *value;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (box_name != NULL);

  old = g_settings_get_value (settings, "box-colors");
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    {
      if (!g_str_equal (key, box_name))
        g_variant_builder_add (&builder, "{ss}", key, value);
    }
  if (color != NULL && color[0] != '\0')
    g_variant_builder_add (&builder, "{ss}", box_name, color);

  g_settings_set_value (settings, "box-colors", g_variant_builder_end (&builder));
}

static void
kiste_color_row_update (KisteColorRow *self)
{
  g_autoptr(GVariant) colors = NULL;
  const char *chosen = "";

  if (self->settings != NULL && self->box_name != NULL)
    {
      colors = g_settings_get_value (self->settings, "box-colors");
      if (!g_variant_lookup (colors, self->box_name, "&s", &chosen))
        chosen = "";
    }

  self->updating = TRUE;
  for (guint i = 0; i < self->buttons->len; i++)
    {
      GtkToggleButton *button = g_ptr_array_index (self->buttons, i);
      const char *name = g_object_get_data (G_OBJECT (button), "kiste-color");

      gtk_toggle_button_set_active (button, g_str_equal (name, chosen));
    }
  self->updating = FALSE;
}

static void
swatch_toggled_cb (GtkToggleButton *button,
                   KisteColorRow   *self)
{
  if (self->updating || !gtk_toggle_button_get_active (button) ||
      self->settings == NULL || self->box_name == NULL)
    return;

  kiste_box_color_set (self->settings, self->box_name,
                       g_object_get_data (G_OBJECT (button), "kiste-color"));
}

static GtkWidget *
create_swatch (KisteColorRow *self,
               const char    *name,
               const char    *label,
               const char    *rgb,
               GtkToggleButton *group)
{
  GtkWidget *button = gtk_toggle_button_new ();

  g_object_set_data_full (G_OBJECT (button), "kiste-color", g_strdup (name), g_free);
  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_add_css_class (button, "kiste-swatch");
  gtk_widget_add_css_class (button, "circular");
  if (rgb != NULL)
    gtk_widget_add_css_class (button, name);
  else
    gtk_button_set_icon_name (GTK_BUTTON (button), "action-unavailable-symbolic");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  if (group != NULL)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), group);
  g_signal_connect_object (button, "toggled", G_CALLBACK (swatch_toggled_cb), self, 0);

  return button;
}

void
kiste_color_row_set_settings (KisteColorRow *self,
                              GSettings     *settings)
{
  g_return_if_fail (KISTE_IS_COLOR_ROW (self));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, kiste_color_row_update, self);
  g_set_object (&self->settings, settings);
  if (settings != NULL)
    g_signal_connect_object (settings, "changed::box-colors",
                             G_CALLBACK (kiste_color_row_update), self, G_CONNECT_SWAPPED);
  kiste_color_row_update (self);
}

void
kiste_color_row_set_box_name (KisteColorRow *self,
                              const char    *box_name)
{
  g_return_if_fail (KISTE_IS_COLOR_ROW (self));

  if (g_set_str (&self->box_name, box_name))
    kiste_color_row_update (self);
}

static void
kiste_color_row_dispose (GObject *object)
{
  KisteColorRow *self = KISTE_COLOR_ROW (object);

  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_COLOR_ROW);

  G_OBJECT_CLASS (kiste_color_row_parent_class)->dispose (object);
}

static void
kiste_color_row_finalize (GObject *object)
{
  KisteColorRow *self = KISTE_COLOR_ROW (object);

  g_clear_pointer (&self->buttons, g_ptr_array_unref);
  g_free (self->box_name);

  G_OBJECT_CLASS (kiste_color_row_parent_class)->finalize (object);
}

static void
kiste_color_row_class_init (KisteColorRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_color_row_dispose;
  object_class->finalize = kiste_color_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-color-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteColorRow, swatches);
}

static void
kiste_color_row_init (KisteColorRow *self)
{
  GtkWidget *none;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->buttons = g_ptr_array_new ();

  if (swatch_css == NULL)
    {
      g_autoptr(GString) css = g_string_new (".kiste-swatch { min-width: 20px; min-height: 20px; padding: 0; }\n"
                                             ".kiste-swatch:checked { outline: 2px solid @accent_color; outline-offset: 1px; }\n");

      for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
        g_string_append_printf (css, ".kiste-swatch.%s { background: %s; }\n",
                                palette[i].name, palette[i].rgb);
      swatch_css = gtk_css_provider_new ();
      gtk_css_provider_load_from_string (swatch_css, css->str);
      gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                                  GTK_STYLE_PROVIDER (swatch_css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    }

  none = create_swatch (self, "", _("No Colour"), NULL, NULL);
  g_ptr_array_add (self->buttons, none);
  gtk_box_append (self->swatches, none);
  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    {
      GtkWidget *button = create_swatch (self, palette[i].name, _(palette[i].label),
                                         palette[i].rgb, GTK_TOGGLE_BUTTON (none));

      g_ptr_array_add (self->buttons, button);
      gtk_box_append (self->swatches, button);
    }
}
