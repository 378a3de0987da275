/* kiste-shortcuts-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-shortcuts-dialog.h"

/* GtkShortcutsWindow is deprecated in GTK 4.18 and AdwShortcutsDialog needs
 * libadwaita 1.8, so the list is built from this table. */
typedef struct
{
  const char *group;
  const char *title;
  const char *accel;
} Shortcut;

static const Shortcut shortcuts[] = {
  { N_("Boxes"), N_("New Box"), "<Control>n" },
  { N_("Boxes"), N_("Search Boxes"), "<Control>f" },
  { N_("Boxes"), N_("Delete the Selected Box"), "Delete" },
  { N_("Boxes"), N_("Refresh"), "F5" },
  { N_("Boxes"), N_("Check for Updates"), "<Shift>F5" },
  { N_("Boxes"), N_("Everything Exported"), "<Control><Shift>e" },
  { N_("Terminals"), N_("Open a Terminal in the Box"), "<Control>t" },
  { N_("Terminals"), N_("New Tab in the Same Box and Folder"), "<Control><Shift>t" },
  { N_("Terminals"), N_("Close Tab"), "<Control><Shift>w" },
  { N_("Terminals"), N_("Show All Tabs"), "<Control><Shift>o" },
  { N_("Terminals"), N_("Copy"), "<Control><Shift>c" },
  { N_("Terminals"), N_("Paste"), "<Control><Shift>v" },
  { N_("Terminals"), N_("Find"), "<Control><Shift>f" },
  { N_("Terminals"), N_("Zoom In"), "<Control>plus" },
  { N_("Terminals"), N_("Zoom Out"), "<Control>minus" },
  { N_("Terminals"), N_("Normal Size"), "<Control>0" },
  { N_("General"), N_("Show Keyboard Shortcuts"), "<Control>question" },
  { N_("General"), N_("Main Menu"), "F10" },
  { N_("General"), N_("Preferences"), "<Control>comma" },
  { N_("General"), N_("Close Window"), "<Control>w" },
  { N_("General"), N_("Quit"), "<Control>q" },
};

struct _KisteShortcutsDialog
{
  AdwDialog            parent_instance;

  AdwPreferencesPage  *page;
};

G_DEFINE_FINAL_TYPE (KisteShortcutsDialog, kiste_shortcuts_dialog, ADW_TYPE_DIALOG)

KisteShortcutsDialog *
kiste_shortcuts_dialog_new (void)
{
  return g_object_new (KISTE_TYPE_SHORTCUTS_DIALOG, NULL);
}

static GtkWidget *
create_row (const Shortcut *shortcut)
{
  GtkWidget *row;
  GtkWidget *keys;
  guint key;
  GdkModifierType mods;
  g_autofree char *label = NULL;

  gtk_accelerator_parse (shortcut->accel, &key, &mods);
  label = gtk_accelerator_get_label (key, mods);

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _(shortcut->title));

  keys = gtk_label_new (label);
  gtk_widget_add_css_class (keys, "dim-label");
  gtk_widget_add_css_class (keys, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), keys);

  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, label,
                                  -1);
  return row;
}

static void
kiste_shortcuts_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_SHORTCUTS_DIALOG);

  G_OBJECT_CLASS (kiste_shortcuts_dialog_parent_class)->dispose (object);
}

static void
kiste_shortcuts_dialog_class_init (KisteShortcutsDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_shortcuts_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-shortcuts-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteShortcutsDialog, page);
}

static void
kiste_shortcuts_dialog_init (KisteShortcutsDialog *self)
{
  AdwPreferencesGroup *group = NULL;
  const char *group_name = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (shortcuts); i++)
    {
      if (group == NULL || g_strcmp0 (group_name, shortcuts[i].group) != 0)
        {
          group_name = shortcuts[i].group;
          group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
          adw_preferences_group_set_title (group, _(group_name));
          adw_preferences_page_add (self->page, group);
        }
      adw_preferences_group_add (group, create_row (&shortcuts[i]));
    }
}
