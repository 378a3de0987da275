/* kiste-exported-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-exported-dialog.h"
#include "kiste-manager-apps.h"

struct _KisteExportedDialog
{
  AdwDialog            parent_instance;

  KisteManager        *manager;
  GCancellable        *cancellable;
  /* KisteExportedFile as last read */
  GPtrArray           *files;
  /* rows added to the groups, to take them out again */
  GPtrArray           *rows;
  gboolean             watching;
  gboolean             cleaning;

  /* Template widgets */
  AdwBanner           *banner;
  GtkStack            *stack;
  AdwPreferencesGroup *stale_group;
  AdwPreferencesGroup *apps_group;
  AdwPreferencesGroup *programs_group;
  GtkButton           *clean_up_button;
};

G_DEFINE_FINAL_TYPE (KisteExportedDialog, kiste_exported_dialog, ADW_TYPE_DIALOG)

static void kiste_exported_dialog_refresh (KisteExportedDialog *self);

/* The box and the file's name; its whole path is the row's tooltip */
static char *
describe_file (KisteExportedFile *file)
{
  g_autofree char *basename = g_path_get_basename (file->path);

  switch (file->kind)
    {
    case KISTE_EXPORTED_APP:
      return g_strdup_printf (_("App of “%s” · %s"), file->box_name, basename);
    case KISTE_EXPORTED_BINARY:
      if (file->source != NULL)
        return g_strdup_printf (_("Runs %s in “%s” · %s"), file->source, file->box_name, basename);
      return g_strdup_printf (_("Program of “%s” · %s"), file->box_name, basename);
    case KISTE_EXPORTED_BOX_ENTRY:
      return g_strdup_printf (_("A terminal in “%s” · %s"), file->box_name, basename);
    default:
      return g_steal_pointer (&basename);
    }
}

static const char *
title_of (KisteExportedFile *file)
{
  if (file->name != NULL && file->name[0] != '\0')
    return file->name;
  return file->source != NULL ? file->source : file->path;
}

static void
kiste_exported_dialog_clear (KisteExportedDialog *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);
      GtkWidget *group = gtk_widget_get_ancestor (row, ADW_TYPE_PREFERENCES_GROUP);

      if (group != NULL)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (group), row);
    }
  g_ptr_array_set_size (self->rows, 0);
}

static void
kiste_exported_dialog_show (KisteExportedDialog *self)
{
  KisteBoxList *store = kiste_manager_get_boxes (self->manager);
  /* until the boxes are listed, no export is called left behind */
  gboolean trust_stale = kiste_box_list_get_loaded (store) && kiste_box_list_get_error (store) == NULL;
  guint n_stale = 0, n_apps = 0, n_programs = 0;

  kiste_exported_dialog_clear (self);

  for (guint i = 0; i < self->files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (self->files, i);
      g_autofree char *subtitle = describe_file (file);
      AdwPreferencesGroup *group;
      AdwActionRow *row = ADW_ACTION_ROW (adw_action_row_new ());

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title_of (file));
      adw_action_row_set_subtitle (row, subtitle);
      adw_action_row_set_subtitle_selectable (row, TRUE);
      adw_action_row_set_subtitle_lines (row, 2);
      gtk_widget_set_tooltip_text (GTK_WIDGET (row), file->path);

      if (file->stale && trust_stale)
        {
          GtkWidget *label = gtk_label_new (_("Box gone"));

          gtk_widget_add_css_class (label, "warning");
          gtk_widget_add_css_class (label, "caption");
          adw_action_row_add_suffix (row, label);
          group = self->stale_group;
          n_stale++;
        }
      else if (file->kind == KISTE_EXPORTED_BINARY)
        {
          group = self->programs_group;
          n_programs++;
        }
      else
        {
          group = self->apps_group;
          n_apps++;
        }

      adw_preferences_group_add (group, GTK_WIDGET (row));
      g_ptr_array_add (self->rows, row);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->stale_group), n_stale > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->apps_group), n_apps > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->programs_group), n_programs > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->clean_up_button), n_stale > 0 && !self->cleaning);
  gtk_stack_set_visible_child_name (self->stack, self->files->len > 0 ? "list" : "empty");
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(KisteExportedDialog) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  if (!(files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      adw_banner_set_title (self->banner, error->message);
      adw_banner_set_revealed (self->banner, TRUE);
      if (self->files == NULL)
        gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  g_clear_pointer (&self->files, g_ptr_array_unref);
  self->files = g_steal_pointer (&files);
  kiste_exported_dialog_show (self);
}

static void
kiste_exported_dialog_refresh (KisteExportedDialog *self)
{
  if (self->manager == NULL)
    return;

  /* the newest answer wins */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  kiste_manager_list_all_exported_async (self->manager, self->cancellable, list_cb, g_object_ref (self));
}

/* Clean Up */

static void
clean_up_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(KisteExportedDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  self->cleaning = FALSE;
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_autofree char *title = g_strdup_printf (_("Could not clean up: %s"), error->message);

      adw_banner_set_title (self->banner, title);
      adw_banner_set_revealed (self->banner, TRUE);
    }

  kiste_exported_dialog_refresh (self);
}

static void
clean_up_response_cb (AdwAlertDialog *dialog,
                      GAsyncResult   *result,
                      gpointer        user_data)
{
  g_autoptr(KisteExportedDialog) self = user_data;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) paths = NULL;

  if (g_strcmp0 (adw_alert_dialog_choose_finish (dialog, result), "clean-up") != 0 ||
      self->manager == NULL || self->files == NULL)
    return;

  for (guint i = 0; i < self->files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (self->files, i);

      if (file->stale)
        g_strv_builder_add (builder, file->path);
    }
  paths = g_strv_builder_end (builder);

  self->cleaning = TRUE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->clean_up_button), FALSE);
  adw_banner_set_revealed (self->banner, FALSE);
  kiste_manager_clean_up_exported_async (self->manager, (const char * const *) paths, NULL,
                                         clean_up_cb, g_object_ref (self));
}

static void
clean_up_clicked_cb (KisteExportedDialog *self)
{
  g_autoptr(GString) names = g_string_new (NULL);
  AdwDialog *dialog;
  GtkWidget *label;
  guint n = 0;

  if (self->files == NULL)
    return;

  for (guint i = 0; i < self->files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (self->files, i);

      if (!file->stale)
        continue;
      /* file names only, the folders are always the same two */
      if (n++ < 8)
        {
          g_autofree char *basename = g_path_get_basename (file->path);

          g_string_append_printf (names, "%s%s", names->len > 0 ? "\n" : "", basename);
        }
    }
  if (n == 0)
    return;
  if (n > 8)
    g_string_append_printf (names, ngettext ("\nand %u more", "\nand %u more", n - 8), n - 8);

  dialog = adw_alert_dialog_new (ngettext ("Remove Leftover?",
                                           "Remove Leftovers?", n),
                                 ngettext ("This file starts a box that is gone. Your own launchers "
                                           "and scripts are not touched.",
                                           "These files start boxes that are gone. Your own launchers "
                                           "and scripts are not touched.", n));
  /* a long file name is one word: it may break anywhere */
  label = gtk_label_new (names->str);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (label, "caption");
  adw_alert_dialog_set_extra_child (ADW_ALERT_DIALOG (dialog), label);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                  "cancel", _("_Cancel"),
                                  "clean-up", _("_Clean Up"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "clean-up",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) clean_up_response_cb, g_object_ref (self));
}

static void
banner_clicked_cb (KisteExportedDialog *self)
{
  adw_banner_set_revealed (self->banner, FALSE);
}

/* Following the host's folders and the boxes */

static void
changed_cb (KisteExportedDialog *self)
{
  kiste_exported_dialog_refresh (self);
}

static void
kiste_exported_dialog_closed (AdwDialog *dialog)
{
  KisteExportedDialog *self = KISTE_EXPORTED_DIALOG (dialog);

  if (self->manager != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->manager, self);
      g_signal_handlers_disconnect_by_data (kiste_manager_get_boxes (self->manager), self);
      if (self->watching)
        kiste_manager_unwatch_exported (self->manager);
      self->watching = FALSE;
    }
  g_cancellable_cancel (self->cancellable);

  ADW_DIALOG_CLASS (kiste_exported_dialog_parent_class)->closed (dialog);
}

static void
kiste_exported_dialog_dispose (GObject *object)
{
  KisteExportedDialog *self = KISTE_EXPORTED_DIALOG (object);

  if (self->manager != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->manager, self);
      g_signal_handlers_disconnect_by_data (kiste_manager_get_boxes (self->manager), self);
      if (self->watching)
        kiste_manager_unwatch_exported (self->manager);
      self->watching = FALSE;
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->manager);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_EXPORTED_DIALOG);

  G_OBJECT_CLASS (kiste_exported_dialog_parent_class)->dispose (object);
}

static void
kiste_exported_dialog_class_init (KisteExportedDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  AdwDialogClass *dialog_class = ADW_DIALOG_CLASS (klass);

  object_class->dispose = kiste_exported_dialog_dispose;
  dialog_class->closed = kiste_exported_dialog_closed;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-exported-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, banner);
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, stale_group);
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, apps_group);
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, programs_group);
  gtk_widget_class_bind_template_child (widget_class, KisteExportedDialog, clean_up_button);
  gtk_widget_class_bind_template_callback (widget_class, clean_up_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, banner_clicked_cb);
}

static void
kiste_exported_dialog_init (KisteExportedDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* the button's own label would otherwise name it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->clean_up_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Clean Up Exports Left Behind"), -1);
  self->rows = g_ptr_array_new ();
  self->cancellable = g_cancellable_new ();
}

KisteExportedDialog *
kiste_exported_dialog_new (KisteManager *manager)
{
  KisteExportedDialog *self;
  KisteBoxList *store;

  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);

  self = g_object_new (KISTE_TYPE_EXPORTED_DIALOG, NULL);
  self->manager = g_object_ref (manager);
  store = kiste_manager_get_boxes (manager);

  /* no polling: the host's folders through file monitors, the boxes
   * through the store */
  g_signal_connect_object (manager, "exported-changed", G_CALLBACK (changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (store, "items-changed", G_CALLBACK (changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (store, "notify::loaded", G_CALLBACK (changed_cb), self, G_CONNECT_SWAPPED);
  kiste_manager_watch_exported (manager);
  self->watching = TRUE;

  kiste_exported_dialog_refresh (self);
  return self;
}
