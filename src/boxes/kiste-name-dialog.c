/* kiste-name-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-name-dialog.h"
#include "kiste-validate.h"

struct _KisteNameDialog
{
  AdwAlertDialog  parent_instance;

  AdwEntryRow    *entry_row;
  GtkLabel       *error_label;

  char           *name;
  char           *current_name;
  GStrv           existing_names;
  gboolean        valid;
  /* Errors show only once people typed: a fresh dialog is not wrong */
  gboolean        edited;
};

G_DEFINE_FINAL_TYPE (KisteNameDialog, kiste_name_dialog, ADW_TYPE_ALERT_DIALOG)

enum {
  PROP_0,
  PROP_NAME,
  PROP_VALID,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kiste_name_dialog_validate (KisteNameDialog *self)
{
  g_autoptr(GError) error = NULL;
  gboolean valid;
  gboolean show_error;

  valid = kiste_validate_name (self->name, (const char * const *) self->existing_names, &error);
  /* Keeping the name is no change, not a mistake */
  if (g_strcmp0 (self->name, self->current_name) == 0)
    {
      valid = FALSE;
      g_clear_error (&error);
    }

  show_error = error != NULL && self->edited;
  gtk_label_set_label (self->error_label, show_error ? error->message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), show_error);
  if (show_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->entry_row), "error");
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->entry_row),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               show_error ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE,
                               -1);

  adw_alert_dialog_set_response_enabled (ADW_ALERT_DIALOG (self),
                                         KISTE_NAME_DIALOG_RESPONSE_ACCEPT, valid);
  if (valid != self->valid)
    {
      self->valid = valid;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
    }
}

static void
entry_changed_cb (KisteNameDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry_row));
  g_autofree char *name = g_strstrip (g_strdup (text));

  self->edited = TRUE;
  if (g_set_str (&self->name, name))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
  kiste_name_dialog_validate (self);
}

static void
kiste_name_dialog_map (GtkWidget *widget)
{
  KisteNameDialog *self = KISTE_NAME_DIALOG (widget);

  GTK_WIDGET_CLASS (kiste_name_dialog_parent_class)->map (widget);

  /* Typing replaces the suggestion */
  gtk_editable_select_region (GTK_EDITABLE (self->entry_row), 0, -1);
}

static void
kiste_name_dialog_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KisteNameDialog *self = KISTE_NAME_DIALOG (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_name_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_NAME_DIALOG);

  G_OBJECT_CLASS (kiste_name_dialog_parent_class)->dispose (object);
}

static void
kiste_name_dialog_finalize (GObject *object)
{
  KisteNameDialog *self = KISTE_NAME_DIALOG (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->current_name, g_free);
  g_clear_pointer (&self->existing_names, g_strfreev);

  G_OBJECT_CLASS (kiste_name_dialog_parent_class)->finalize (object);
}

static void
kiste_name_dialog_class_init (KisteNameDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = kiste_name_dialog_get_property;
  object_class->dispose = kiste_name_dialog_dispose;
  object_class->finalize = kiste_name_dialog_finalize;
  widget_class->map = kiste_name_dialog_map;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-name-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteNameDialog, entry_row);
  gtk_widget_class_bind_template_child (widget_class, KisteNameDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
}

static void
kiste_name_dialog_init (KisteNameDialog *self)
{
  self->name = g_strdup ("");
  gtk_widget_init_template (GTK_WIDGET (self));
}

KisteNameDialog *
kiste_name_dialog_new (const char         *heading,
                       const char         *body,
                       const char         *accept_label,
                       const char         *suggested_name,
                       const char         *current_name,
                       const char * const *existing_names)
{
  KisteNameDialog *self;

  g_return_val_if_fail (heading != NULL, NULL);
  g_return_val_if_fail (accept_label != NULL, NULL);

  self = g_object_new (KISTE_TYPE_NAME_DIALOG,
                       "heading", heading,
                       "body", body ? body : "",
                       NULL);
  adw_alert_dialog_set_response_label (ADW_ALERT_DIALOG (self),
                                       KISTE_NAME_DIALOG_RESPONSE_ACCEPT, accept_label);
  self->current_name = g_strdup (current_name);
  self->existing_names = g_strdupv ((char **) existing_names);

  gtk_editable_set_text (GTK_EDITABLE (self->entry_row), suggested_name ? suggested_name : "");
  /* Setting the text is not typing */
  self->edited = FALSE;
  kiste_name_dialog_validate (self);

  return self;
}

const char *
kiste_name_dialog_get_name (KisteNameDialog *self)
{
  g_return_val_if_fail (KISTE_IS_NAME_DIALOG (self), NULL);

  return self->name;
}

gboolean
kiste_name_dialog_get_valid (KisteNameDialog *self)
{
  g_return_val_if_fail (KISTE_IS_NAME_DIALOG (self), FALSE);

  return self->valid;
}
