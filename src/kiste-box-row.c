/* kiste-box-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-box-row.h"
#include "kiste-distro.h"

struct _KisteBoxRow
{
  GtkWidget   parent_instance;

  KisteBox   *box;
  KisteTask  *task;
  gulong      notify_handler;

  /* Template widgets */
  GtkWidget  *content;
  GtkImage   *icon;
  GtkLabel   *name_label;
  GtkLabel   *image_label;
  GtkLabel   *state_label;
  AdwSpinner *spinner;
};

G_DEFINE_FINAL_TYPE (KisteBoxRow, kiste_box_row, GTK_TYPE_WIDGET)

KisteBoxRow *
kiste_box_row_new (void)
{
  return g_object_new (KISTE_TYPE_BOX_ROW, NULL);
}

KisteBox *
kiste_box_row_get_box (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), NULL);
  return self->box;
}

char *
kiste_box_row_dup_accessible_label (KisteBox  *box,
                                    KisteTask *task)
{
  const char *state = task ? kiste_task_get_title (task)
                           : kiste_box_state_to_label (kiste_box_get_state (box));

  /* Translators: a box in the list as a screen reader says it: "NAME, STATE" */
  return g_strdup_printf (_("%s, %s"), kiste_box_get_name (box), state);
}

static void
kiste_box_row_update (KisteBoxRow *self)
{
  KisteBoxState state;
  const char *image;

  if (self->box == NULL)
    return;

  state = kiste_box_get_state (self->box);
  image = kiste_box_get_image (self->box);

  gtk_label_set_label (self->name_label, kiste_box_get_name (self->box));
  gtk_label_set_label (self->image_label, image);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->image_label), image);
  gtk_image_set_from_icon_name (self->icon,
                                kiste_distro_icon_name (kiste_distro_id_for_image (image)));

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), self->task != NULL);
  if (self->task != NULL)
    gtk_label_set_label (self->state_label, kiste_task_get_title (self->task));
  else
    gtk_label_set_label (self->state_label, kiste_box_state_to_label (state));

  if (state == KISTE_BOX_STATE_RUNNING && self->task == NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "success");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), "success");
}

void
kiste_box_row_set_box (KisteBoxRow *self,
                       KisteBox    *box)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;

  if (self->box != NULL)
    g_clear_signal_handler (&self->notify_handler, self->box);
  g_set_object (&self->box, box);
  if (box != NULL)
    self->notify_handler = g_signal_connect_object (box, "notify",
                                                    G_CALLBACK (kiste_box_row_update), self,
                                                    G_CONNECT_SWAPPED);
  kiste_box_row_update (self);
}

void
kiste_box_row_set_task (KisteBoxRow *self,
                        KisteTask   *task)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (g_set_object (&self->task, task))
    kiste_box_row_update (self);
}

static void
kiste_box_row_dispose (GObject *object)
{
  KisteBoxRow *self = KISTE_BOX_ROW (object);

  kiste_box_row_set_box (self, NULL);
  g_clear_object (&self->task);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_BOX_ROW);

  G_OBJECT_CLASS (kiste_box_row_parent_class)->dispose (object);
}

static void
kiste_box_row_class_init (KisteBoxRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_box_row_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-box-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, content);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, icon);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, image_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, state_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, spinner);
}

static void
kiste_box_row_init (KisteBoxRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
