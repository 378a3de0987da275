/* kiste-volume-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-validate.h"
#include "kiste-volume-row.h"

struct _KisteVolumeRow
{
  AdwPreferencesRow  parent_instance;

  GtkEntry          *host_entry;
  GtkEntry          *box_entry;
  GtkButton         *choose_button;
  GtkSwitch         *read_only_switch;
  GtkButton         *remove_button;
  GtkLabel          *error_label;

  /* options of a prefilled spec other than "ro" (e.g. "z", "rslave") */
  char             **extra_options;
  gboolean           updating;
};

G_DEFINE_FINAL_TYPE (KisteVolumeRow, kiste_volume_row, ADW_TYPE_PREFERENCES_ROW)

enum {
  PROP_0,
  PROP_HOST_PATH,
  PROP_BOX_PATH,
  PROP_READ_ONLY,
  N_PROPS
};

enum {
  CHANGED,
  REMOVE,
  CHOOSE_HOST_FOLDER,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

KisteVolumeRow *
kiste_volume_row_new (void)
{
  return g_object_new (KISTE_TYPE_VOLUME_ROW, NULL);
}

const char *
kiste_volume_row_get_host_path (KisteVolumeRow *self)
{
  g_return_val_if_fail (KISTE_IS_VOLUME_ROW (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->host_entry));
}

void
kiste_volume_row_set_host_path (KisteVolumeRow *self,
                                const char     *host_path)
{
  g_return_if_fail (KISTE_IS_VOLUME_ROW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->host_entry), host_path ? host_path : "");
}

const char *
kiste_volume_row_get_box_path (KisteVolumeRow *self)
{
  g_return_val_if_fail (KISTE_IS_VOLUME_ROW (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->box_entry));
}

void
kiste_volume_row_set_box_path (KisteVolumeRow *self,
                               const char     *box_path)
{
  g_return_if_fail (KISTE_IS_VOLUME_ROW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->box_entry), box_path ? box_path : "");
}

gboolean
kiste_volume_row_get_read_only (KisteVolumeRow *self)
{
  g_return_val_if_fail (KISTE_IS_VOLUME_ROW (self), FALSE);

  return gtk_switch_get_active (self->read_only_switch);
}

void
kiste_volume_row_set_read_only (KisteVolumeRow *self,
                                gboolean        read_only)
{
  g_return_if_fail (KISTE_IS_VOLUME_ROW (self));

  gtk_switch_set_active (self->read_only_switch, read_only);
}

void
kiste_volume_row_set_spec (KisteVolumeRow *self,
                           const char     *spec)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GStrvBuilder) extra = g_strv_builder_new ();
  gboolean read_only = FALSE;

  g_return_if_fail (KISTE_IS_VOLUME_ROW (self));

  parts = g_strsplit (spec ? spec : "", ":", 3);
  if (parts[0] != NULL && parts[1] != NULL && parts[2] != NULL)
    {
      g_auto(GStrv) options = g_strsplit (parts[2], ",", -1);

      for (guint i = 0; options[i] != NULL; i++)
        {
          if (g_str_equal (options[i], "ro"))
            read_only = TRUE;
          else
            g_strv_builder_add (extra, options[i]);
        }
    }

  /* one "changed" for the whole spec */
  self->updating = TRUE;
  g_clear_pointer (&self->extra_options, g_strfreev);
  self->extra_options = g_strv_builder_end (extra);
  kiste_volume_row_set_host_path (self, parts[0]);
  kiste_volume_row_set_box_path (self, parts[0] ? parts[1] : NULL);
  kiste_volume_row_set_read_only (self, read_only);
  self->updating = FALSE;

  g_signal_emit (self, signals[CHANGED], 0);
}

char *
kiste_volume_row_dup_spec (KisteVolumeRow *self)
{
  g_autoptr(GString) spec = NULL;
  g_autofree char *expanded = NULL;
  const char *host;
  const char *box;
  gboolean first = TRUE;

  g_return_val_if_fail (KISTE_IS_VOLUME_ROW (self), NULL);

  host = kiste_volume_row_get_host_path (self);
  box = kiste_volume_row_get_box_path (self);

  if (host[0] == '\0' && box[0] == '\0')
    return NULL;

  /* "~/data" as people type it */
  expanded = kiste_validate_expand_home (host, NULL);
  spec = g_string_new (expanded);
  if (box[0] == '\0')
    return g_string_free_and_steal (g_steal_pointer (&spec));

  g_string_append_printf (spec, ":%s", box);

  for (guint i = 0; self->extra_options != NULL && self->extra_options[i] != NULL; i++)
    {
      /* a read-only switch wins over a prefilled "rw" */
      if (kiste_volume_row_get_read_only (self) && g_str_equal (self->extra_options[i], "rw"))
        continue;
      g_string_append_c (spec, first ? ':' : ',');
      g_string_append (spec, self->extra_options[i]);
      first = FALSE;
    }
  if (kiste_volume_row_get_read_only (self))
    g_string_append (spec, first ? ":ro" : ",ro");

  return g_string_free_and_steal (g_steal_pointer (&spec));
}

void
kiste_volume_row_set_error (KisteVolumeRow *self,
                            const char     *message)
{
  g_return_if_fail (KISTE_IS_VOLUME_ROW (self));

  if (message != NULL && message[0] != '\0')
    {
      gtk_label_set_text (self->error_label, message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (self), "error");
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                      -1);
      gtk_accessible_update_state (GTK_ACCESSIBLE (self->host_entry),
                                   GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE,
                                   -1);
      gtk_accessible_update_state (GTK_ACCESSIBLE (self->box_entry),
                                   GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE,
                                   -1);
    }
  else
    {
      gtk_label_set_text (self->error_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
      gtk_widget_remove_css_class (GTK_WIDGET (self), "error");
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      gtk_accessible_reset_state (GTK_ACCESSIBLE (self->host_entry), GTK_ACCESSIBLE_STATE_INVALID);
      gtk_accessible_reset_state (GTK_ACCESSIBLE (self->box_entry), GTK_ACCESSIBLE_STATE_INVALID);
    }
}

const char *
kiste_volume_row_get_error (KisteVolumeRow *self)
{
  g_return_val_if_fail (KISTE_IS_VOLUME_ROW (self), NULL);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->error_label)))
    return NULL;
  return gtk_label_get_text (self->error_label);
}

static void
kiste_volume_row_emit_changed (KisteVolumeRow *self,
                               GParamSpec     *pspec)
{
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  if (!self->updating)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
kiste_volume_row_host_changed_cb (KisteVolumeRow *self)
{
  kiste_volume_row_emit_changed (self, properties[PROP_HOST_PATH]);
}

static void
kiste_volume_row_box_changed_cb (KisteVolumeRow *self)
{
  kiste_volume_row_emit_changed (self, properties[PROP_BOX_PATH]);
}

static void
kiste_volume_row_read_only_cb (KisteVolumeRow *self)
{
  kiste_volume_row_emit_changed (self, properties[PROP_READ_ONLY]);
}

static void
kiste_volume_row_choose_cb (KisteVolumeRow *self)
{
  g_signal_emit (self, signals[CHOOSE_HOST_FOLDER], 0);
}

static void
kiste_volume_row_remove_cb (KisteVolumeRow *self)
{
  g_signal_emit (self, signals[REMOVE], 0);
}

/* Focusing the row means starting to type its folder */
static gboolean
kiste_volume_row_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (KISTE_VOLUME_ROW (widget)->host_entry));
}

static void
kiste_volume_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_VOLUME_ROW);

  G_OBJECT_CLASS (kiste_volume_row_parent_class)->dispose (object);
}

static void
kiste_volume_row_finalize (GObject *object)
{
  KisteVolumeRow *self = KISTE_VOLUME_ROW (object);

  g_clear_pointer (&self->extra_options, g_strfreev);

  G_OBJECT_CLASS (kiste_volume_row_parent_class)->finalize (object);
}

static void
kiste_volume_row_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  KisteVolumeRow *self = KISTE_VOLUME_ROW (object);

  switch (prop_id)
    {
    case PROP_HOST_PATH:
      g_value_set_string (value, kiste_volume_row_get_host_path (self));
      break;

    case PROP_BOX_PATH:
      g_value_set_string (value, kiste_volume_row_get_box_path (self));
      break;

    case PROP_READ_ONLY:
      g_value_set_boolean (value, kiste_volume_row_get_read_only (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_volume_row_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  KisteVolumeRow *self = KISTE_VOLUME_ROW (object);

  switch (prop_id)
    {
    case PROP_HOST_PATH:
      kiste_volume_row_set_host_path (self, g_value_get_string (value));
      break;

    case PROP_BOX_PATH:
      kiste_volume_row_set_box_path (self, g_value_get_string (value));
      break;

    case PROP_READ_ONLY:
      kiste_volume_row_set_read_only (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_volume_row_class_init (KisteVolumeRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_volume_row_dispose;
  object_class->finalize = kiste_volume_row_finalize;
  object_class->get_property = kiste_volume_row_get_property;
  object_class->set_property = kiste_volume_row_set_property;

  widget_class->grab_focus = kiste_volume_row_grab_focus;

  properties[PROP_HOST_PATH] =
    g_param_spec_string ("host-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BOX_PATH] =
    g_param_spec_string ("box-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[REMOVE] =
    g_signal_new ("remove",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  signals[CHOOSE_HOST_FOLDER] =
    g_signal_new ("choose-host-folder",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-volume-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, host_entry);
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, box_entry);
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, choose_button);
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, read_only_switch);
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, remove_button);
  gtk_widget_class_bind_template_child (widget_class, KisteVolumeRow, error_label);
  gtk_widget_class_bind_template_callback (widget_class, kiste_volume_row_host_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_volume_row_box_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_volume_row_read_only_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_volume_row_choose_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_volume_row_remove_cb);
}

static void
kiste_volume_row_init (KisteVolumeRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
