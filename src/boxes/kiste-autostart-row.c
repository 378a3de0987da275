/* kiste-autostart-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Start When I Log In on a box's details: the switch follows the real
 * state of the box's systemd user unit, read whenever the row is shown;
 * without a systemd user manager the row says so instead. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-autostart-row.h"
#include "kiste-manager-lifecycle.h"

struct _KisteAutostartRow
{
  AdwActionRow  parent_instance;

  KisteManager *manager;
  KisteBox     *box;
  GCancellable *cancellable;
  /* The switch moves because of what the host has, not because of people */
  gboolean      updating;
  gboolean      busy;

  GtkSwitch    *autostart_switch;
};

G_DEFINE_FINAL_TYPE (KisteAutostartRow, kiste_autostart_row, ADW_TYPE_ACTION_ROW)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_BOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kiste_autostart_row_show (KisteAutostartRow   *self,
                          KisteAutostartState  state,
                          const char          *reason)
{
  gboolean available = state != KISTE_AUTOSTART_UNAVAILABLE;

  self->updating = TRUE;
  gtk_switch_set_active (self->autostart_switch, state == KISTE_AUTOSTART_ENABLED);
  self->updating = FALSE;

  gtk_widget_set_visible (GTK_WIDGET (self->autostart_switch), available);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (self),
                                         available ? GTK_WIDGET (self->autostart_switch) : NULL);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                               available || reason == NULL
                                 ? _("Starts the box when you log in and stops it when you log out")
                                 : reason);
}

static void
get_autostart_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(KisteAutostartRow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  KisteAutostartState state;

  state = kiste_manager_get_autostart_finish (KISTE_MANAGER (object), result, &reason, &error);
  if (error != NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Cannot tell whether the box starts at login: %s", error->message);
      return;
    }

  kiste_autostart_row_show (self, state, reason);
  gtk_widget_set_sensitive (GTK_WIDGET (self->autostart_switch), !self->busy);
}

static void
kiste_autostart_row_refresh (KisteAutostartRow *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->manager == NULL || self->box == NULL)
    return;

  self->cancellable = g_cancellable_new ();
  kiste_manager_get_autostart_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                     get_autostart_cb, g_object_ref (self));
}

static void
set_autostart_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(KisteAutostartRow) self = user_data;
  g_autoptr(GError) error = NULL;

  self->busy = FALSE;
  /* The task's toast tells a failure; the switch goes back to what the
   * host has */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Starting at login not changed: %s", error->message);
  kiste_autostart_row_refresh (self);
}

static void
switch_active_cb (KisteAutostartRow *self)
{
  if (self->updating || self->manager == NULL || self->box == NULL)
    return;

  self->busy = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->autostart_switch), FALSE);
  kiste_manager_set_autostart_async (self->manager, kiste_box_get_ref (self->box),
                                     gtk_switch_get_active (self->autostart_switch),
                                     NULL, set_autostart_cb, g_object_ref (self));
}

void
kiste_autostart_row_set_box (KisteAutostartRow *self,
                             KisteBox          *box)
{
  g_return_if_fail (KISTE_IS_AUTOSTART_ROW (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (!g_set_object (&self->box, box))
    return;

  /* nothing to offer until the host has told */
  kiste_autostart_row_show (self, KISTE_AUTOSTART_DISABLED, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->autostart_switch), FALSE);
  kiste_autostart_row_refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOX]);
}

static void
kiste_autostart_row_set_manager (KisteAutostartRow *self,
                                 KisteManager      *manager)
{
  if (!g_set_object (&self->manager, manager))
    return;
  kiste_autostart_row_refresh (self);
}

static void
kiste_autostart_row_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (kiste_autostart_row_parent_class)->map (widget);

  /* It may have changed anywhere since */
  kiste_autostart_row_refresh (KISTE_AUTOSTART_ROW (widget));
}

static void
kiste_autostart_row_dispose (GObject *object)
{
  KisteAutostartRow *self = KISTE_AUTOSTART_ROW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->manager);
  g_clear_object (&self->box);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_AUTOSTART_ROW);

  G_OBJECT_CLASS (kiste_autostart_row_parent_class)->dispose (object);
}

static void
kiste_autostart_row_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteAutostartRow *self = KISTE_AUTOSTART_ROW (object);

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
kiste_autostart_row_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteAutostartRow *self = KISTE_AUTOSTART_ROW (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      kiste_autostart_row_set_manager (self, g_value_get_object (value));
      break;

    case PROP_BOX:
      kiste_autostart_row_set_box (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_autostart_row_class_init (KisteAutostartRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_autostart_row_dispose;
  object_class->get_property = kiste_autostart_row_get_property;
  object_class->set_property = kiste_autostart_row_set_property;
  widget_class->map = kiste_autostart_row_map;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL, KISTE_TYPE_MANAGER,
                         (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOX] =
    g_param_spec_object ("box", NULL, NULL, KISTE_TYPE_BOX,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-autostart-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteAutostartRow, autostart_switch);
  gtk_widget_class_bind_template_callback (widget_class, switch_active_cb);
}

static void
kiste_autostart_row_init (KisteAutostartRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

KisteAutostartRow *
kiste_autostart_row_new (void)
{
  return g_object_new (KISTE_TYPE_AUTOSTART_ROW, NULL);
}
