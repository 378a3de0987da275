/* kiste-box-entry-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-box-entry-row.h"
#include "kiste-manager-apps.h"

struct _KisteBoxEntryRow
{
  AdwActionRow  parent_instance;

  KisteManager *manager;
  KisteBox     *box;
  GCancellable *cancellable;
  /* The switch moves because of what the host has, not because of people */
  gboolean      updating;
  gboolean      busy;

  GtkSwitch    *entry_switch;
};

G_DEFINE_FINAL_TYPE (KisteBoxEntryRow, kiste_box_entry_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_BOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kiste_box_entry_row_show (KisteBoxEntryRow *self,
                          gboolean          present)
{
  self->updating = TRUE;
  gtk_switch_set_active (self->entry_switch, present);
  self->updating = FALSE;
}

static void
get_entry_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteBoxEntryRow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean present = FALSE;

  if (!kiste_manager_get_box_entry_finish (KISTE_MANAGER (object), result, &present, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Cannot tell whether the box is in the menu: %s", error->message);
      return;
    }

  kiste_box_entry_row_show (self, present);
  gtk_widget_set_sensitive (GTK_WIDGET (self->entry_switch), !self->busy);
}

static void
kiste_box_entry_row_refresh (KisteBoxEntryRow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->manager == NULL || self->box == NULL ||
      kiste_box_get_tool (self->box) == KISTE_BOX_TOOL_TOOLBX)
    return;

  self->cancellable = g_cancellable_new ();
  kiste_manager_get_box_entry_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                     get_entry_cb, g_object_ref (self));
}

static void
set_entry_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteBoxEntryRow) self = user_data;
  g_autoptr(GError) error = NULL;

  self->busy = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->entry_switch), TRUE);
  /* The task's toast tells a failure, with its output */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("generate-entry failed: %s", error->message);
  kiste_box_entry_row_refresh (self);
}

static void
switch_active_cb (KisteBoxEntryRow *self)
{
  if (self->updating || self->manager == NULL || self->box == NULL)
    return;

  self->busy = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->entry_switch), FALSE);
  kiste_manager_set_box_entry_async (self->manager, kiste_box_get_ref (self->box),
                                     gtk_switch_get_active (self->entry_switch),
                                     NULL, set_entry_cb, g_object_ref (self));
}

void
kiste_box_entry_row_set_box (KisteBoxEntryRow *self,
                             KisteBox         *box)
{
  g_return_if_fail (KISTE_IS_BOX_ENTRY_ROW (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (!g_set_object (&self->box, box))
    return;

  /* the launcher is distrobox's (`distrobox generate-entry`): a toolbox
   * has none, and the row is not shown for it */
  gtk_widget_set_visible (GTK_WIDGET (self),
                          box == NULL || kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX);

  /* distrobox's launcher enters the box through the engine distrobox picks
   * itself: a box of another engine would not be found */
  if (box != NULL && self->manager != NULL)
    {
      KisteBoxList *boxes = kiste_manager_get_boxes (self->manager);
      KisteBoxSource *first = kiste_box_list_get_first_source (boxes);
      gboolean usable = kiste_box_list_get_source_for_box (boxes, box) == first;
      g_autofree char *why = NULL;

      if (!usable)
        why = g_strdup_printf (_("Only for boxes of %s, the engine distrobox uses by itself"),
                               kiste_box_source_get_title (first));
      gtk_widget_set_sensitive (GTK_WIDGET (self), usable);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                   usable ? _("A launcher that opens a terminal in the box") : why);
    }

  kiste_box_entry_row_show (self, FALSE);
  kiste_box_entry_row_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOX]);
}

static void
kiste_box_entry_row_set_manager (KisteBoxEntryRow *self,
                                 KisteManager     *manager)
{
  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  if (!g_set_object (&self->manager, manager))
    return;
  if (manager != NULL)
    g_signal_connect_object (manager, "exported-changed", G_CALLBACK (kiste_box_entry_row_refresh),
                             self, G_CONNECT_SWAPPED);
  kiste_box_entry_row_refresh (self);
}

static void
kiste_box_entry_row_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (kiste_box_entry_row_parent_class)->map (widget);

  /* It may have changed anywhere since */
  kiste_box_entry_row_refresh (KISTE_BOX_ENTRY_ROW (widget));
}

static void
kiste_box_entry_row_dispose (GObject *object)
{
  KisteBoxEntryRow *self = KISTE_BOX_ENTRY_ROW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  kiste_box_entry_row_set_manager (self, NULL);
  g_clear_object (&self->box);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_BOX_ENTRY_ROW);

  G_OBJECT_CLASS (kiste_box_entry_row_parent_class)->dispose (object);
}

static void
kiste_box_entry_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteBoxEntryRow *self = KISTE_BOX_ENTRY_ROW (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_BOX:
      g_value_set_object (value, self->box);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_entry_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteBoxEntryRow *self = KISTE_BOX_ENTRY_ROW (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      kiste_box_entry_row_set_manager (self, g_value_get_object (value));
      break;

    case PROP_BOX:
      kiste_box_entry_row_set_box (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_entry_row_class_init (KisteBoxEntryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_box_entry_row_dispose;
  object_class->get_property = kiste_box_entry_row_get_property;
  object_class->set_property = kiste_box_entry_row_set_property;
  widget_class->map = kiste_box_entry_row_map;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL, KISTE_TYPE_MANAGER,
                         (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOX] =
    g_param_spec_object ("box", NULL, NULL, KISTE_TYPE_BOX,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-box-entry-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteBoxEntryRow, entry_switch);
  gtk_widget_class_bind_template_callback (widget_class, switch_active_cb);
}

static void
kiste_box_entry_row_init (KisteBoxEntryRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

KisteBoxEntryRow *
kiste_box_entry_row_new (void)
{
  return g_object_new (KISTE_TYPE_BOX_ENTRY_ROW, NULL);
}
