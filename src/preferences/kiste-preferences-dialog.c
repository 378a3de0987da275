/* kiste-preferences-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-external-terminal.h"
#include "kiste-manager-terminal.h"
#include "kiste-preferences-dialog.h"

/* In the order of the combo row's items */
static const char * const manager_ids[] = { "auto", "podman", "docker" };

struct _KistePreferencesDialog
{
  AdwPreferencesDialog  parent_instance;

  KisteManager         *manager;
  GSettings            *settings;

  /* Template widgets */
  AdwSwitchRow         *confirm_stop_row;
  AdwSwitchRow         *check_updates_row;
  AdwComboRow          *external_row;
  /* "" (Kiste's tabs), then the terminal apps found, by row */
  GPtrArray            *terminal_ids;
  GCancellable         *cancellable;
  AdwSwitchRow         *system_font_row;
  AdwActionRow         *font_row;
  GtkFontDialogButton  *font_button;
  AdwSpinRow           *scrollback_row;
  AdwComboRow          *manager_row;
  AdwActionRow         *manager_info_row;
  AdwActionRow         *distrobox_row;
};

G_DEFINE_FINAL_TYPE (KistePreferencesDialog, kiste_preferences_dialog, ADW_TYPE_PREFERENCES_DIALOG)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KistePreferencesDialog *
kiste_preferences_dialog_new (KisteManager *manager,
                              GSettings    *settings)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (KISTE_TYPE_PREFERENCES_DIALOG,
                       "manager", manager,
                       "settings", settings,
                       NULL);
}

static gboolean
manager_get_mapping (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (manager_ids); i++)
    {
      if (g_str_equal (id, manager_ids[i]))
        {
          g_value_set_uint (value, i);
          return TRUE;
        }
    }

  g_value_set_uint (value, 0);
  return TRUE;
}

static GVariant *
manager_set_mapping (const GValue       *value,
                     const GVariantType *expected_type,
                     gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  /* Nothing selected while the model is replaced: keep the setting */
  if (selected >= G_N_ELEMENTS (manager_ids))
    return NULL;

  return g_variant_new_string (manager_ids[selected]);
}

/* "Podman 5.4.2"; the names are the projects' own, never translated */
static char *
dup_manager_label (KisteCapabilities *caps)
{
  const char *manager = kiste_capabilities_get_manager (caps);
  const char *version = kiste_capabilities_get_manager_version (caps);
  const char *name = manager;

  if (manager == NULL)
    return NULL;

  if (g_str_equal (manager, "podman"))
    name = "Podman";
  else if (g_str_equal (manager, "docker"))
    name = "Docker";

  if (version == NULL)
    return g_strdup (name);
  return g_strdup_printf ("%s %s", name, version);
}

static void
kiste_preferences_dialog_update_tools (KistePreferencesDialog *self)
{
  KisteCapabilities *caps = kiste_manager_get_capabilities (self->manager);
  gboolean loaded = kiste_capabilities_get_loaded (caps);
  g_autofree char *manager_label = NULL;
  g_autofree char *using_label = NULL;
  g_autofree char *own_label = NULL;
  const char *manager_text;
  const char *distrobox_text;
  gboolean can_choose;

  /* A choice only makes sense with both installed */
  can_choose = loaded &&
               kiste_capabilities_has_manager (caps, "podman") &&
               kiste_capabilities_has_manager (caps, "docker");

  if (!loaded)
    manager_text = _("Checking…");
  else if ((manager_label = dup_manager_label (caps)) != NULL)
    manager_text = manager_label;
  else if (kiste_capabilities_get_manager_problem (caps) != NULL)
    manager_text = kiste_capabilities_get_manager_problem (caps);
  else
    manager_text = _("Not found");

  if (!loaded)
    distrobox_text = _("Checking…");
  else if (kiste_capabilities_get_distrobox_version (caps) != NULL &&
           kiste_capabilities_get_distrobox_is_own (caps))
    /* Translators: the version of the copy of distrobox Kiste put in place */
    distrobox_text = own_label = g_strdup_printf (_("%s, Kiste’s own copy: this computer has none"),
                                                  kiste_capabilities_get_distrobox_version (caps));
  else if (kiste_capabilities_get_distrobox_version (caps) != NULL)
    distrobox_text = kiste_capabilities_get_distrobox_version (caps);
  else if (kiste_capabilities_get_distrobox_problem (caps) != NULL)
    distrobox_text = kiste_capabilities_get_distrobox_problem (caps);
  else
    distrobox_text = _("Not installed");

  gtk_widget_set_visible (GTK_WIDGET (self->manager_row), can_choose);
  gtk_widget_set_visible (GTK_WIDGET (self->manager_info_row), !can_choose);

  adw_action_row_set_subtitle (self->manager_info_row, manager_text);
  if (manager_label != NULL)
    /* Translators: the container manager in use and its version, "Using Podman 5.4.2" */
    using_label = g_strdup_printf (_("Using %s"), manager_label);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->manager_row),
                               using_label != NULL ? using_label : manager_text);

  adw_action_row_set_subtitle (self->distrobox_row, distrobox_text);
}

/* Terminal: the font as "Family Size" ("" for the system's), the
 * scrollback as a number of lines */

static gboolean
system_font_get_mapping (GValue   *value,
                         GVariant *variant,
                         gpointer  user_data)
{
  g_value_set_boolean (value, g_variant_get_string (variant, NULL)[0] == '\0');
  return TRUE;
}

static GVariant *
system_font_set_mapping (const GValue       *value,
                         const GVariantType *type,
                         gpointer            user_data)
{
  KistePreferencesDialog *self = user_data;
  g_autofree char *font = NULL;
  PangoFontDescription *desc;

  if (g_value_get_boolean (value))
    return g_variant_new_string ("");

  /* Turning the system font off starts from the button's font */
  desc = gtk_font_dialog_button_get_font_desc (self->font_button);
  font = desc ? pango_font_description_to_string (desc) : g_strdup ("Monospace 11");
  return g_variant_new_string (font);
}

static gboolean
font_get_mapping (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char *font = g_variant_get_string (variant, NULL);

  g_value_take_boxed (value, pango_font_description_from_string (font[0] ? font : "Monospace 11"));
  return TRUE;
}

static GVariant *
font_set_mapping (const GValue       *value,
                  const GVariantType *type,
                  gpointer            user_data)
{
  KistePreferencesDialog *self = user_data;
  PangoFontDescription *desc = g_value_get_boxed (value);
  g_autofree char *font = NULL;

  /* The system font stays chosen until the switch says otherwise */
  if (adw_switch_row_get_active (self->system_font_row) || desc == NULL)
    return NULL;

  font = pango_font_description_to_string (desc);
  return g_variant_new_string (font);
}

static gboolean
lines_get_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  g_value_set_double (value, MAX (g_variant_get_int32 (variant), 0));
  return TRUE;
}

static GVariant *
lines_set_mapping (const GValue       *value,
                   const GVariantType *type,
                   gpointer            user_data)
{
  return g_variant_new_int32 ((gint32) g_value_get_double (value));
}

/* Where Open Terminal opens boxes: the terminal apps this computer has */

static void
external_selected_cb (KistePreferencesDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->external_row);

  if (self->terminal_ids == NULL || selected >= self->terminal_ids->len)
    return;

  g_settings_set_string (self->settings, "external-terminal",
                         g_ptr_array_index (self->terminal_ids, selected));
}

/* Flatpak terminals installed that cannot open a box, and why */
static void
kiste_preferences_dialog_show_unusable (KistePreferencesDialog *self,
                                        const char * const     *unusable)
{
  g_autoptr(GString) subtitle = NULL;

  if (unusable == NULL || unusable[0] == NULL)
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->external_row),
                                   _("Open Terminal uses Kiste’s tabs or a terminal app of this computer"));
      return;
    }

  subtitle = g_string_new (_("Open Terminal uses Kiste’s tabs or a terminal app of this computer"));
  for (guint i = 0; unusable[i] != NULL; i++)
    {
      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a terminal app, "Konsole (Flatpak)" */
      g_string_append_printf (subtitle, _("%s cannot open boxes: it may not run commands on this computer"),
                              kiste_external_terminal_get_name (unusable[i]));
    }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->external_row), subtitle->str);
}

static void
kiste_preferences_dialog_fill_terminals (KistePreferencesDialog *self,
                                         const char * const     *found)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  g_autofree char *chosen = g_settings_get_string (self->settings, "external-terminal");
  guint selected = 0;

  g_clear_pointer (&self->terminal_ids, g_ptr_array_unref);
  self->terminal_ids = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->terminal_ids, g_strdup (""));
  gtk_string_list_append (names, _("Kiste"));

  for (guint i = 0; found != NULL && found[i] != NULL; i++)
    {
      g_ptr_array_add (self->terminal_ids, g_strdup (found[i]));
      gtk_string_list_append (names, kiste_external_terminal_get_name (found[i]));
    }
  /* A choice made on another computer stays visible */
  if (chosen[0] != '\0' && kiste_external_terminal_get_name (chosen) != NULL &&
      !g_strv_contains (found ? found : (const char * const[]) { NULL }, chosen))
    {
      g_ptr_array_add (self->terminal_ids, g_strdup (chosen));
      gtk_string_list_append (names, kiste_external_terminal_get_name (chosen));
    }

  for (guint i = 0; i < self->terminal_ids->len; i++)
    if (g_str_equal (g_ptr_array_index (self->terminal_ids, i), chosen))
      selected = i;

  g_signal_handlers_block_by_func (self->external_row, external_selected_cb, self);
  adw_combo_row_set_model (self->external_row, G_LIST_MODEL (names));
  adw_combo_row_set_selected (self->external_row, selected);
  g_signal_handlers_unblock_by_func (self->external_row, external_selected_cb, self);
}

static void
detect_terminals_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(KistePreferencesDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) found = NULL;
  g_auto(GStrv) unusable = NULL;

  found = kiste_manager_detect_terminals_finish (KISTE_MANAGER (object), result, &unusable, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_debug ("Could not look for terminal apps: %s", error->message);

  kiste_preferences_dialog_fill_terminals (self, (const char * const *) found);
  kiste_preferences_dialog_show_unusable (self, (const char * const *) unusable);
}

static void
kiste_preferences_dialog_constructed (GObject *object)
{
  KistePreferencesDialog *self = KISTE_PREFERENCES_DIALOG (object);
  KisteCapabilities *caps;

  G_OBJECT_CLASS (kiste_preferences_dialog_parent_class)->constructed (object);

  g_return_if_fail (self->manager != NULL);
  g_return_if_fail (self->settings != NULL);

  g_settings_bind (self->settings, "confirm-stop",
                   self->confirm_stop_row, "active",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "check-updates",
                   self->check_updates_row, "active",
                   G_SETTINGS_BIND_DEFAULT);
  kiste_preferences_dialog_fill_terminals (self, NULL);
  g_signal_connect_object (self->external_row, "notify::selected",
                           G_CALLBACK (external_selected_cb), self, G_CONNECT_SWAPPED);
  self->cancellable = g_cancellable_new ();
  kiste_manager_detect_terminals_async (self->manager, self->cancellable,
                                        detect_terminals_cb, g_object_ref (self));
  g_settings_bind_with_mapping (self->settings, "terminal-font",
                                self->font_button, "font-desc",
                                G_SETTINGS_BIND_DEFAULT,
                                font_get_mapping, font_set_mapping, self, NULL);
  g_settings_bind_with_mapping (self->settings, "terminal-font",
                                self->system_font_row, "active",
                                G_SETTINGS_BIND_DEFAULT,
                                system_font_get_mapping, system_font_set_mapping, self, NULL);
  g_object_bind_property (self->system_font_row, "active", self->font_row, "sensitive",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_settings_bind_with_mapping (self->settings, "terminal-scrollback-lines",
                                self->scrollback_row, "value",
                                G_SETTINGS_BIND_DEFAULT,
                                lines_get_mapping, lines_set_mapping, NULL, NULL);
  /* The window follows changed::container-manager and loads again */
  g_settings_bind_with_mapping (self->settings, "container-manager",
                                self->manager_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                manager_get_mapping, manager_set_mapping,
                                NULL, NULL);

  caps = kiste_manager_get_capabilities (self->manager);
  g_signal_connect_object (caps, "notify::loaded",
                           G_CALLBACK (kiste_preferences_dialog_update_tools), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (caps, "notify::manager",
                           G_CALLBACK (kiste_preferences_dialog_update_tools), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (caps, "notify::distrobox-version",
                           G_CALLBACK (kiste_preferences_dialog_update_tools), self,
                           G_CONNECT_SWAPPED);
  kiste_preferences_dialog_update_tools (self);
}

static void
kiste_preferences_dialog_dispose (GObject *object)
{
  KistePreferencesDialog *self = KISTE_PREFERENCES_DIALOG (object);

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (kiste_manager_get_capabilities (self->manager), self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->terminal_ids, g_ptr_array_unref);
  if (self->confirm_stop_row != NULL)
    g_settings_unbind (self->confirm_stop_row, "active");
  if (self->check_updates_row != NULL)
    g_settings_unbind (self->check_updates_row, "active");
  if (self->font_button != NULL)
    g_settings_unbind (self->font_button, "font-desc");
  if (self->system_font_row != NULL)
    g_settings_unbind (self->system_font_row, "active");
  if (self->scrollback_row != NULL)
    g_settings_unbind (self->scrollback_row, "value");
  if (self->manager_row != NULL)
    g_settings_unbind (self->manager_row, "selected");

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_PREFERENCES_DIALOG);
  g_clear_object (&self->manager);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (kiste_preferences_dialog_parent_class)->dispose (object);
}

/* A pending search holds the dialog, so dispose cannot be where it stops:
 * closing is. */
static void
kiste_preferences_dialog_closed (AdwDialog *dialog)
{
  KistePreferencesDialog *self = KISTE_PREFERENCES_DIALOG (dialog);

  g_cancellable_cancel (self->cancellable);

  if (ADW_DIALOG_CLASS (kiste_preferences_dialog_parent_class)->closed)
    ADW_DIALOG_CLASS (kiste_preferences_dialog_parent_class)->closed (dialog);
}

static void
kiste_preferences_dialog_get_property (GObject    *object,
                                       guint       prop_id,
                                       GValue     *value,
                                       GParamSpec *pspec)
{
  KistePreferencesDialog *self = KISTE_PREFERENCES_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_preferences_dialog_set_property (GObject      *object,
                                       guint         prop_id,
                                       const GValue *value,
                                       GParamSpec   *pspec)
{
  KistePreferencesDialog *self = KISTE_PREFERENCES_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      self->manager = g_value_dup_object (value);
      break;

    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_preferences_dialog_class_init (KistePreferencesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwDialogClass *dialog_class = ADW_DIALOG_CLASS (klass);

  object_class->constructed = kiste_preferences_dialog_constructed;
  object_class->dispose = kiste_preferences_dialog_dispose;
  object_class->get_property = kiste_preferences_dialog_get_property;
  object_class->set_property = kiste_preferences_dialog_set_property;
  dialog_class->closed = kiste_preferences_dialog_closed;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL,
                         KISTE_TYPE_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, confirm_stop_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, check_updates_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, external_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, system_font_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, font_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, font_button);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, scrollback_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, manager_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, manager_info_row);
  gtk_widget_class_bind_template_child (widget_class, KistePreferencesDialog, distrobox_row);
}

static void
kiste_preferences_dialog_init (KistePreferencesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
