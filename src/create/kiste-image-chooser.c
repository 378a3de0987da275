/* kiste-image-chooser.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-distro.h"
#include "kiste-image-chooser.h"
#include "kiste-image-model.h"
#include "kiste-snapshot.h"

struct _KisteImageChooser
{
  AdwBin           parent_instance;

  KisteImageModel *model;
  GtkStringFilter *filter;

  /* Template widgets (the button is the bin's child: AdwBin unparents it) */
  GtkPopover      *popover;
  GtkSearchEntry  *search;
  GtkListBox      *list;
  GtkCheckButton  *show_snapshots;
  GtkLabel        *status;
};

G_DEFINE_FINAL_TYPE (KisteImageChooser, kiste_image_chooser, ADW_TYPE_BIN)

enum {
  IMAGE_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  KisteImage *image = item;
  const char *name = kiste_image_get_name (image);
  const char *distro = kiste_distro_id_for_image (name);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  if (kiste_snapshot_is_snapshot_image (name))
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("A box's snapshot"));
  else
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                 kiste_image_get_downloaded (image) ? _("Downloaded")
                                                                    : _("Known to work with distrobox"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);

  icon = gtk_image_new_from_icon_name (kiste_distro_icon_name (distro));
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, kiste_distro_display_name (distro),
                                  -1);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  g_object_set_data_full (G_OBJECT (row), "image", g_strdup (name), g_free);
  return row;
}

static void
update_status (KisteImageChooser *self)
{
  if (!kiste_image_model_get_loaded (self->model))
    gtk_label_set_text (self->status, _("Looking for images…"));
  else if (!kiste_image_model_get_has_compatible (self->model))
    gtk_label_set_text (self->status,
                        _("Only images on this computer are listed: the list of images known "
                          "to work with distrobox needs a network connection the first time."));
  else
    gtk_label_set_text (self->status, "");
  gtk_widget_set_visible (GTK_WIDGET (self->status), gtk_label_get_text (self->status)[0] != '\0');
  /* only offered when there is a snapshot to show */
  gtk_widget_set_visible (GTK_WIDGET (self->show_snapshots),
                          kiste_image_model_get_n_snapshots (self->model) > 0);
}

static void
kiste_image_chooser_show_snapshots_cb (KisteImageChooser *self)
{
  kiste_image_model_set_show_snapshots (self->model,
                                        gtk_check_button_get_active (self->show_snapshots));
}

void
kiste_image_chooser_load (KisteImageChooser *self,
                          KisteManager      *manager,
                          GCancellable      *cancellable)
{
  g_return_if_fail (KISTE_IS_IMAGE_CHOOSER (self));
  g_return_if_fail (KISTE_IS_MANAGER (manager));

  kiste_image_model_load (self->model, manager, cancellable);
}

gboolean
kiste_image_chooser_is_downloaded (KisteImageChooser *self,
                                   const char        *image)
{
  g_return_val_if_fail (KISTE_IS_IMAGE_CHOOSER (self), FALSE);

  return kiste_image_model_is_downloaded (self->model, image);
}

static void
choose (KisteImageChooser *self,
        const char        *image)
{
  gtk_popover_popdown (self->popover);
  g_signal_emit (self, signals[IMAGE_CHOSEN], 0, image);
}

static void
kiste_image_chooser_popover_show_cb (KisteImageChooser *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->search));
}

static void
kiste_image_chooser_search_changed_cb (KisteImageChooser *self)
{
  gtk_string_filter_set_search (self->filter, gtk_editable_get_text (GTK_EDITABLE (self->search)));
}

static void
kiste_image_chooser_row_activated_cb (KisteImageChooser *self,
                                      GtkListBoxRow     *row)
{
  choose (self, g_object_get_data (G_OBJECT (row), "image"));
}

/* Enter picks the first match */
static void
kiste_image_chooser_search_activate_cb (KisteImageChooser *self)
{
  GtkListBoxRow *first = gtk_list_box_get_row_at_index (self->list, 0);

  kiste_image_chooser_search_changed_cb (self);
  if (first != NULL)
    choose (self, g_object_get_data (G_OBJECT (first), "image"));
}

static void
kiste_image_chooser_dispose (GObject *object)
{
  KisteImageChooser *self = KISTE_IMAGE_CHOOSER (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_IMAGE_CHOOSER);
  g_clear_object (&self->model);
  g_clear_object (&self->filter);

  G_OBJECT_CLASS (kiste_image_chooser_parent_class)->dispose (object);
}

static void
kiste_image_chooser_class_init (KisteImageChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_image_chooser_dispose;

  /**
   * KisteImageChooser::image-chosen:
   * @image: the name of the chosen image
   */
  signals[IMAGE_CHOSEN] =
    g_signal_new ("image-chosen",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-image-chooser.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteImageChooser, popover);
  gtk_widget_class_bind_template_child (widget_class, KisteImageChooser, search);
  gtk_widget_class_bind_template_child (widget_class, KisteImageChooser, list);
  gtk_widget_class_bind_template_child (widget_class, KisteImageChooser, show_snapshots);
  gtk_widget_class_bind_template_child (widget_class, KisteImageChooser, status);
  gtk_widget_class_bind_template_callback (widget_class, kiste_image_chooser_show_snapshots_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_image_chooser_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_image_chooser_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_image_chooser_search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_image_chooser_row_activated_cb);
}

static void
kiste_image_chooser_init (KisteImageChooser *self)
{
  g_autoptr(GtkFilterListModel) filtered = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* the search matches any part of the name, ignoring case */
  self->model = kiste_image_model_new ();
  self->filter = gtk_string_filter_new (gtk_property_expression_new (KISTE_TYPE_IMAGE, NULL, "name"));
  filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->model)),
                                        g_object_ref (GTK_FILTER (self->filter)));
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (filtered), create_row, NULL, NULL);
  g_signal_connect_object (self->model, "notify::loaded",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::has-compatible",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "items-changed",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  update_status (self);
}
