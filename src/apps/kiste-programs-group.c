/* kiste-programs-group.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-manager-apps.h"
#include "kiste-programs-group.h"
#include "kiste-validate.h"

struct _KisteProgramsGroup
{
  GtkBox         parent_instance;

  KisteManager  *manager;
  KisteBox      *box;
  /* Listing and exporting for this box; cancelled when the box changes */
  GCancellable  *cancellable;
  /* The program being exported, NULL when none */
  char          *pending;

  /* Template widgets */
  GtkLabel      *description_label;
  AdwEntryRow   *entry_row;
  GtkButton     *export_button;
  GtkLabel      *message_label;
  GtkListBox    *list_box;
};

G_DEFINE_FINAL_TYPE (KisteProgramsGroup, kiste_programs_group, GTK_TYPE_BOX)

/* A path under the home folder as people write it: "~/…" */
static char *
dup_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize len = strlen (home);

  if (path != NULL && strncmp (path, home, len) == 0 && path[len] == '/')
    return g_strconcat ("~", path + len, NULL);
  return g_strdup (path);
}

/* The message under the field: an error, a warning or nothing */
static void
kiste_programs_group_show_message (KisteProgramsGroup *self,
                                   const char         *message,
                                   gboolean            is_error)
{
  GtkWidget *label = GTK_WIDGET (self->message_label);

  gtk_widget_remove_css_class (label, "error");
  gtk_widget_remove_css_class (label, "warning");
  gtk_widget_remove_css_class (GTK_WIDGET (self->entry_row), "error");

  if (message == NULL)
    {
      gtk_widget_set_visible (label, FALSE);
      gtk_accessible_reset_property (GTK_ACCESSIBLE (self->entry_row), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      return;
    }

  gtk_label_set_text (self->message_label, message);
  gtk_widget_add_css_class (label, is_error ? "error" : "warning");
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->entry_row), "error");
  gtk_widget_set_visible (label, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry_row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message, -1);
}

static void
kiste_programs_group_set_busy (KisteProgramsGroup *self,
                               const char         *program)
{
  g_set_str (&self->pending, program);
  gtk_widget_set_sensitive (GTK_WIDGET (self->entry_row), program == NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button),
                            program == NULL &&
                            *gtk_editable_get_text (GTK_EDITABLE (self->entry_row)) != '\0');
}

/* The exported programs */

typedef struct
{
  KisteProgramsGroup *self;
  char               *program;
  char               *name;
  gboolean            unexport;
} ProgramData;

static void
program_data_free (ProgramData *data)
{
  g_clear_object (&data->self);
  g_free (data->program);
  g_free (data->name);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ProgramData, program_data_free)

static void remove_clicked_cb (GtkButton          *button,
                               KisteProgramsGroup *self);

static void
kiste_programs_group_clear_rows (KisteProgramsGroup *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box))) &&
         GTK_IS_LIST_BOX_ROW (child))
    gtk_list_box_remove (self->list_box, child);
}

static void
list_exported_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(KisteProgramsGroup) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  if (!(files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Could not list exported programs: %s", error->message);
      return;
    }

  kiste_programs_group_clear_rows (self);
  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);
      g_autofree char *remove_name = NULL;
      g_autofree char *program = NULL;
      g_autofree char *display = NULL;
      AdwActionRow *row;
      GtkWidget *button;

      if (file->kind != KISTE_EXPORTED_BINARY)
        continue;

      program = file->source ? g_strdup (file->source) : g_build_filename ("/", file->name, NULL);
      row = ADW_ACTION_ROW (adw_action_row_new ());
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), file->name);
      /* what runs in the box, and the file on this computer */
      display = dup_display_path (file->path);
      adw_action_row_set_subtitle (row, display);
      if (file->source != NULL)
        {
          g_autofree char *subtitle = g_strdup_printf (_("Runs %s in the box · %s"), file->source, display);

          adw_action_row_set_subtitle (row, subtitle);
        }
      adw_action_row_set_subtitle_selectable (row, TRUE);

      button = gtk_button_new_with_mnemonic (_("_Remove"));
      gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
      remove_name = g_strdup_printf (_("Remove %s"), file->name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      remove_name, -1);
      gtk_widget_set_tooltip_text (button, remove_name);
      g_object_set_data_full (G_OBJECT (button), "kiste-program", g_steal_pointer (&program), g_free);
      g_object_set_data_full (G_OBJECT (button), "kiste-name", g_strdup (file->name), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (remove_clicked_cb), self);
      adw_action_row_add_suffix (row, button);

      gtk_list_box_append (self->list_box, GTK_WIDGET (row));
    }
}

void
kiste_programs_group_refresh (KisteProgramsGroup *self)
{
  g_return_if_fail (KISTE_IS_PROGRAMS_GROUP (self));

  /* programs are exported by distrobox-export: a toolbox has none */
  if (self->manager == NULL || self->box == NULL ||
      kiste_box_get_tool (self->box) == KISTE_BOX_TOOL_TOOLBX)
    return;

  kiste_manager_list_exported_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                     list_exported_cb, g_object_ref (self));
}

/* Export and remove */

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(ProgramData) data = user_data;
  KisteProgramsGroup *self = data->self;
  g_autoptr(GError) error = NULL;

  if (!data->unexport)
    kiste_programs_group_set_busy (self, NULL);

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_autofree char *message = NULL;

      /* the command's output is in the task */
      message = g_strdup_printf (data->unexport ? _("Could not remove “%s”: %s")
                                                : _("Could not export “%s”: %s"),
                                 data->name, error->message);
      kiste_programs_group_show_message (self, message, TRUE);
    }
  else if (!data->unexport)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->entry_row), "");
    }

  /* the file monitor tells too, but not from the Flatpak sandbox */
  kiste_programs_group_refresh (self);
}

static void
kiste_programs_group_export (KisteProgramsGroup *self,
                             const char         *program)
{
  ProgramData *data = g_new0 (ProgramData, 1);

  data->self = g_object_ref (self);
  data->program = g_strdup (program);
  data->name = g_path_get_basename (program);
  kiste_manager_export_binary_async (self->manager, kiste_box_get_ref (self->box), program, FALSE,
                                     NULL, export_cb, data);
}

static void
conflict_response_cb (AdwAlertDialog *dialog,
                      GAsyncResult   *result,
                      gpointer        user_data)
{
  g_autoptr(ProgramData) data = user_data;
  const char *response = adw_alert_dialog_choose_finish (dialog, result);

  if (g_strcmp0 (response, "export") == 0 && data->self->box != NULL)
    {
      kiste_programs_group_export (data->self, data->program);
      return;
    }

  kiste_programs_group_set_busy (data->self, NULL);
}

static void
find_host_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(ProgramData) data = user_data;
  KisteProgramsGroup *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *host_path = NULL;
  g_autofree char *warning = NULL;
  g_autofree char *heading = NULL;
  g_autofree char *bin_dir = NULL;
  AdwDialog *dialog;

  host_path = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_debug ("Could not look for %s on this computer: %s", data->name, error->message);

  if (host_path == NULL)
    {
      kiste_programs_group_export (self, data->program);
      return;
    }

  bin_dir = dup_display_path (kiste_manager_get_bin_dir (self->manager));
  warning = g_strdup_printf (_("This computer has its own “%s” (%s). In a terminal, whichever of "
                               "the two comes first in PATH runs; the exported one goes to %s."),
                             data->name, host_path, bin_dir);
  kiste_programs_group_show_message (self, warning, FALSE);

  heading = g_strdup_printf (_("“%s” Is Also on This Computer"), data->name);
  dialog = adw_alert_dialog_new (heading, warning);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                  "cancel", _("_Cancel"),
                                  "export", _("_Export Anyway"),
                                  NULL);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) conflict_response_cb, g_steal_pointer (&data));
}

static void
resolve_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(ProgramData) data = user_data;
  KisteProgramsGroup *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (!(path = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      kiste_programs_group_set_busy (self, NULL);
      kiste_programs_group_show_message (self, error->message, TRUE);
      return;
    }

  g_set_str (&data->program, path);
  g_free (data->name);
  data->name = g_path_get_basename (path);
  kiste_manager_find_host_program_async (self->manager, path, self->cancellable, find_host_cb,
                                         g_steal_pointer (&data));
}

static void
kiste_programs_group_start_export (KisteProgramsGroup *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  ProgramData *data;

  if (self->manager == NULL || self->box == NULL || self->pending != NULL)
    return;

  text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry_row))));
  if (!kiste_validate_program (text, &error))
    {
      kiste_programs_group_show_message (self, error->message, TRUE);
      return;
    }

  kiste_programs_group_show_message (self, NULL, FALSE);
  kiste_programs_group_set_busy (self, text);

  data = g_new0 (ProgramData, 1);
  data->self = g_object_ref (self);
  data->program = g_strdup (text);
  data->name = g_strdup (text);
  kiste_manager_resolve_program_async (self->manager, kiste_box_get_ref (self->box), text,
                                       self->cancellable, resolve_cb, data);
}

static void
remove_clicked_cb (GtkButton          *button,
                   KisteProgramsGroup *self)
{
  ProgramData *data;

  if (self->manager == NULL || self->box == NULL)
    return;

  gtk_widget_set_sensitive (GTK_WIDGET (button), FALSE);
  data = g_new0 (ProgramData, 1);
  data->self = g_object_ref (self);
  data->program = g_strdup (g_object_get_data (G_OBJECT (button), "kiste-program"));
  data->name = g_strdup (g_object_get_data (G_OBJECT (button), "kiste-name"));
  data->unexport = TRUE;
  kiste_manager_export_binary_async (self->manager, kiste_box_get_ref (self->box), data->program, TRUE,
                                     NULL, export_cb, data);
}

static void
entry_activated_cb (KisteProgramsGroup *self)
{
  kiste_programs_group_start_export (self);
}

static void
export_clicked_cb (KisteProgramsGroup *self)
{
  kiste_programs_group_start_export (self);
}

static void
entry_changed_cb (KisteProgramsGroup *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->entry_row));
  g_autoptr(GError) error = NULL;
  gboolean valid = text[0] != '\0' && kiste_validate_program (text, &error);

  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), self->pending == NULL && valid);

  /* what is wrong shows while typing; "not in the box" only after Export */
  if (error != NULL)
    kiste_programs_group_show_message (self, error->message, TRUE);
  else
    kiste_programs_group_show_message (self, NULL, FALSE);
}

/* Properties */

void
kiste_programs_group_set_manager (KisteProgramsGroup *self,
                                  KisteManager       *manager)
{
  g_autofree char *description = NULL;
  g_autofree char *bin_dir = NULL;

  g_return_if_fail (KISTE_IS_PROGRAMS_GROUP (self));
  g_return_if_fail (!manager || KISTE_IS_MANAGER (manager));

  g_set_object (&self->manager, manager);
  if (manager == NULL)
    return;

  bin_dir = dup_display_path (kiste_manager_get_bin_dir (manager));
  description = g_strdup_printf (_("Run a command-line program of the box from this computer’s "
                                   "terminals: exporting puts a small script of the same name into %s."),
                                 bin_dir ? bin_dir : "~/.local/bin");
  gtk_label_set_text (self->description_label, description);
}

void
kiste_programs_group_set_box (KisteProgramsGroup *self,
                              KisteBox           *box)
{
  g_return_if_fail (KISTE_IS_PROGRAMS_GROUP (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;

  g_set_object (&self->box, box);
  /* distrobox-export --bin is distrobox's: not shown for a toolbox */
  gtk_widget_set_visible (GTK_WIDGET (self),
                          box == NULL || kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->pending, g_free);
  kiste_programs_group_clear_rows (self);
  gtk_editable_set_text (GTK_EDITABLE (self->entry_row), "");
  kiste_programs_group_set_busy (self, NULL);
  kiste_programs_group_show_message (self, NULL, FALSE);
}

static void
kiste_programs_group_dispose (GObject *object)
{
  KisteProgramsGroup *self = KISTE_PROGRAMS_GROUP (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->box);
  g_clear_object (&self->manager);
  g_clear_pointer (&self->pending, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_PROGRAMS_GROUP);

  G_OBJECT_CLASS (kiste_programs_group_parent_class)->dispose (object);
}

static void
kiste_programs_group_class_init (KisteProgramsGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_programs_group_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-programs-group.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteProgramsGroup, description_label);
  gtk_widget_class_bind_template_child (widget_class, KisteProgramsGroup, entry_row);
  gtk_widget_class_bind_template_child (widget_class, KisteProgramsGroup, export_button);
  gtk_widget_class_bind_template_child (widget_class, KisteProgramsGroup, message_label);
  gtk_widget_class_bind_template_child (widget_class, KisteProgramsGroup, list_box);
  gtk_widget_class_bind_template_callback (widget_class, entry_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, export_clicked_cb);
}

static void
kiste_programs_group_init (KisteProgramsGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  /* the button's own label would otherwise name it */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->export_button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Export Program"), -1);
}
