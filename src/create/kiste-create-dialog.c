/* kiste-create-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-assemble.h"
#include "kiste-create-dialog-private.h"
#include "kiste-create-flags.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-manager-create.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-manifest-dialog.h"
#include "kiste-validate.h"

G_DEFINE_FINAL_TYPE (KisteCreateDialog, kiste_create_dialog, ADW_TYPE_DIALOG)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_CAN_CREATE,
  N_PROPS
};

enum {
  CREATED,
  DISTROBOX_NEEDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];


static void
more_options_activated_cb (KisteCreateDialog *self)
{
  g_signal_emit (self, signals[DISTROBOX_NEEDED], 0);
}

KisteCreateDialog *
kiste_create_dialog_new (KisteManager *manager)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);

  return g_object_new (KISTE_TYPE_CREATE_DIALOG,
                       "manager", manager,
                       NULL);
}

KisteCreateOptions *
kiste_create_dialog_get_options (KisteCreateDialog *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), NULL);

  return self->options;
}

gboolean
kiste_create_dialog_get_can_create (KisteCreateDialog *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), FALSE);

  return self->can_create;
}

KisteCapabilities *
_kiste_create_dialog_get_caps (KisteCreateDialog *self)
{
  return kiste_manager_get_capabilities (self->manager);
}

/* The table of create flags decides, as for the command: before the probe
 * finished, what every distrobox has is assumed, home isolation never */
gboolean
_kiste_create_dialog_supports (KisteCreateDialog *self,
                               const char        *property)
{
  return kiste_create_flag_is_supported (kiste_create_flags_find (property),
                                         _kiste_create_dialog_get_caps (self));
}

char **
_kiste_create_dialog_dup_box_names (KisteCreateDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (self->manager));

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

void
_kiste_create_dialog_toast (KisteCreateDialog *self,
                            const char        *title)
{
  AdwToast *toast = adw_toast_new (title);

  /* what a command printed is text, not markup */
  adw_toast_set_use_markup (toast, FALSE);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Once disposed (its cancellable is cancelled then), late callbacks must
 * not touch the widgets */
gboolean
_kiste_create_dialog_is_gone (KisteCreateDialog *self)
{
  return g_cancellable_is_cancelled (self->cancellable);
}

const char *
_kiste_create_dialog_entry_text (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

void
_kiste_create_dialog_set_switch (KisteCreateDialog *self,
                                 AdwSwitchRow      *row,
                                 gboolean           active)
{
  self->updating++;
  adw_switch_row_set_active (row, active);
  self->updating--;
}

/* Images ------------------------------------------------------------------ */

static void
kiste_create_dialog_image_chosen_cb (KisteCreateDialog *self,
                                     const char        *image)
{
  gtk_editable_set_text (GTK_EDITABLE (self->image_row), image);
  gtk_widget_grab_focus (GTK_WIDGET (self->image_row));
}

/* Filling the form ------------------------------------------------------ */

void
kiste_create_dialog_set_options (KisteCreateDialog  *self,
                                 KisteCreateOptions *options)
{
  g_autoptr(KisteCreateOptions) copy = NULL;
  const char * const *volumes;
  const char *clone_source;

  g_return_if_fail (KISTE_IS_CREATE_DIALOG (self));
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (options));

  copy = kiste_create_options_copy (options);

  _kiste_create_dialog_bind_options (self, copy);

  /* prefilled values are people's own: no more suggestions over them */
  self->nvidia_guessed = FALSE;
  g_clear_pointer (&self->suggested_name, g_free);
  g_clear_pointer (&self->suggested_home, g_free);

  gtk_image_set_from_icon_name (self->image_icon,
                                kiste_distro_icon_name (kiste_distro_id_for_image (
                                  kiste_create_options_get_image (options))));

  clone_source = kiste_create_options_get_clone_source (options);
  gtk_widget_set_visible (GTK_WIDGET (self->image_row), clone_source == NULL || !clone_source[0]);
  gtk_widget_set_visible (GTK_WIDGET (self->clone_row), clone_source != NULL && clone_source[0]);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->clone_row), clone_source ? clone_source : "");
  if (gtk_widget_get_visible (GTK_WIDGET (self->clone_row)))
    adw_dialog_set_title (ADW_DIALOG (self), _("Clone Box"));

  while (self->volume_rows->len > 0)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->volume_rows, 0);

      adw_expander_row_remove (self->volumes_expander, row);
    }
  volumes = kiste_create_options_get_volumes (options);
  self->updating++;
  for (guint i = 0; volumes != NULL && volumes[i] != NULL; i++)
    _kiste_create_dialog_add_volume_row (self, volumes[i]);
  self->updating--;

  _kiste_create_dialog_changed (self);
}

/* distrobox.ini ------------------------------------------------------------- */

static void
apply_assemble_entry (KisteCreateDialog  *self,
                      KisteAssembleEntry *entry)
{
  g_autoptr(GStrvBuilder) notes = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;
  g_autofree char *toast = NULL;

  if (entry->error != NULL)
    g_strv_builder_add (notes, entry->error);
  for (guint i = 0; entry->warnings != NULL && entry->warnings[i] != NULL; i++)
    g_strv_builder_add (notes, entry->warnings[i]);
  if ((entry->exported_apps != NULL && entry->exported_apps[0] != NULL) ||
      (entry->exported_bins != NULL && entry->exported_bins[0] != NULL))
    g_strv_builder_add (notes, _("Apps and programs to export are left out: export them once "
                                 "the box is ready."));
  all = g_strv_builder_end (notes);

  g_clear_pointer (&self->notice, g_free);
  if (all[0] != NULL)
    self->notice = g_strjoinv (" ", all);

  kiste_create_dialog_set_options (self, entry->options);

  toast = g_strdup_printf (_("Settings of “%s” filled in"), entry->section);
  _kiste_create_dialog_toast (self, toast);
}

static void
create_all_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* the task list and the window's toast say what failed */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Creating the boxes of a manifest stopped: %s", error->message);
}

/* Creates every box of the manifest, or none when one is wrong */
static gboolean
kiste_create_dialog_create_all (KisteCreateDialog *self,
                                GPtrArray         *entries)
{
  g_autoptr(GPtrArray) problems = kiste_manager_check_entries (self->manager, entries);

  for (guint i = 0; i < problems->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char *problem = g_ptr_array_index (problems, i);

      if (problem != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("“%s” cannot be created: %s"),
                                                      entry->section, problem);

          _kiste_create_dialog_toast (self, message);
          return FALSE;
        }
    }

  kiste_manager_create_all_async (self->manager, entries, NULL, create_all_cb, NULL);
  return TRUE;
}

static void
manifest_entry_chosen_cb (KisteCreateDialog  *self,
                          KisteAssembleEntry *entry)
{
  if (!_kiste_create_dialog_is_gone (self))
    apply_assemble_entry (self, entry);
}

static void
manifest_create_all_cb (KisteCreateDialog *self,
                        GPtrArray         *entries)
{
  /* the boxes are followed in the task list from here */
  if (!_kiste_create_dialog_is_gone (self) && kiste_create_dialog_create_all (self, entries))
    adw_dialog_close (ADW_DIALOG (self));
}

static void
choose_assemble_entry (KisteCreateDialog *self,
                       GPtrArray         *entries)
{
  g_autoptr(GPtrArray) problems = kiste_manager_check_entries (self->manager, entries);
  KisteManifestDialog *chooser = kiste_manifest_dialog_new (entries, problems);

  g_signal_connect_object (chooser, "entry-chosen", G_CALLBACK (manifest_entry_chosen_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (chooser, "create-all", G_CALLBACK (manifest_create_all_cb),
                           self, G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (chooser), GTK_WIDGET (self));
}

gboolean
kiste_create_dialog_import_assemble (KisteCreateDialog  *self,
                                     const char         *data,
                                     gssize              length,
                                     GError            **error)
{
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (!(entries = kiste_assemble_parse_for_distrobox (data, length, _kiste_create_dialog_get_caps (self),
                                                     error)))
    return FALSE;

  if (entries->len == 0)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file describes no box."));
      return FALSE;
    }

  if (self->state != STATE_FORM)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BUSY,
                           _("A box is being created. Import once it is done."));
      return FALSE;
    }

  if (entries->len == 1)
    apply_assemble_entry (self, g_ptr_array_index (entries, 0));
  else
    choose_assemble_entry (self, entries);

  return TRUE;
}

static void
assemble_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (_kiste_create_dialog_is_gone (self))
    return;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error) ||
      !kiste_create_dialog_import_assemble (self, contents, length, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _kiste_create_dialog_toast (self, error->message);
    }
}

static void
assemble_chosen_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (_kiste_create_dialog_is_gone (self))
    return;

  if (!(file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED))
        _kiste_create_dialog_toast (self, error->message);
      return;
    }

  /* a manifest is only read here, never run */
  g_file_load_contents_async (file, self->cancellable, assemble_loaded_cb, g_object_ref (self));
}

static void
kiste_create_dialog_import_cb (KisteCreateDialog *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) manifests = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) everything = gtk_file_filter_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  gtk_file_filter_set_name (manifests, _("distrobox Manifests"));
  gtk_file_filter_add_pattern (manifests, "*.ini");
  gtk_file_filter_set_name (everything, _("All Files"));
  gtk_file_filter_add_pattern (everything, "*");
  g_list_store_append (filters, manifests);
  g_list_store_append (filters, everything);

  gtk_file_dialog_set_title (dialog, _("Import Settings from distrobox.ini"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, manifests);
  gtk_file_dialog_open (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                        self->cancellable, assemble_chosen_cb, g_object_ref (self));
}

static void
kiste_create_dialog_banner_clicked_cb (KisteCreateDialog *self)
{
  g_clear_pointer (&self->notice, g_free);
  _kiste_create_dialog_validate (self);
}

/* Progress ---------------------------------------------------------------- */

static void
set_state (KisteCreateDialog *self,
           DialogState        state)
{
  self->state = state;

  adw_dialog_set_can_close (ADW_DIALOG (self), state != STATE_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->create_button), state == STATE_FORM);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), TRUE);
  gtk_button_set_label (self->cancel_button, state == STATE_FAILED ? _("_Close") : _("_Cancel"));
  gtk_stack_set_visible_child_name (self->stack, state == STATE_FORM ? "form" : "progress");

  if (state != STATE_RUNNING)
    kiste_create_progress_stop (self->progress);

  switch (state)
    {
    case STATE_FORM:
      /* A prefilled clone is a copy, not a new box */
      if (self->temporary)
        adw_dialog_set_title (ADW_DIALOG (self), _("Try an Image"));
      else
        adw_dialog_set_title (ADW_DIALOG (self),
                              gtk_widget_get_visible (GTK_WIDGET (self->clone_row)) ? _("Clone Box")
                                                                                    : _("New Box"));
      adw_dialog_set_default_widget (ADW_DIALOG (self), GTK_WIDGET (self->create_button));
      break;

    case STATE_RUNNING:
      adw_dialog_set_title (ADW_DIALOG (self),
                            self->temporary ? _("Creating Temporary Box") : _("Creating Box"));
      adw_dialog_set_default_widget (ADW_DIALOG (self), NULL);
      break;

    case STATE_FAILED:
      adw_dialog_set_default_widget (ADW_DIALOG (self), kiste_create_progress_get_retry_button (self->progress));
      break;

    default:
      g_assert_not_reached ();
    }

  _kiste_create_dialog_set_can_create (self, self->can_create);
}

static void
kiste_create_dialog_succeeded (KisteCreateDialog *self)
{
  g_autofree char *name = g_strdup (self->running_name);

  kiste_create_progress_succeeded (self->progress);
  set_state (self, STATE_FORM);

  g_signal_emit (self, signals[CREATED], 0, name);
  adw_dialog_close (ADW_DIALOG (self));
}

/* The manager lists the boxes again before a create fails, so the list
 * says whether a box was left behind */
static void
show_failure (KisteCreateDialog *self,
              const GError      *error)
{
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean exists = kiste_box_list_find (kiste_manager_get_boxes (self->manager),
                                         self->running_name) != NULL;

  set_state (self, STATE_FAILED);
  kiste_create_progress_failed (self->progress, error, exists);
  adw_dialog_set_title (ADW_DIALOG (self), cancelled ? _("Creation Stopped") : _("Creation Failed"));
  gtk_widget_grab_focus (kiste_create_progress_get_retry_button (self->progress));
}

static void
created_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (_kiste_create_dialog_is_gone (self))
    return;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      if (self->state == STATE_RUNNING)
        show_failure (self, error);
      return;
    }

  if (self->state == STATE_RUNNING)
    kiste_create_dialog_succeeded (self);
}

static void
creation_step_cb (KisteTask         *task,
                  KisteCreationStep  step,
                  gpointer           user_data)
{
  KisteCreateDialog *self = user_data;

  if (_kiste_create_dialog_is_gone (self) || self->state != STATE_RUNNING)
    return;

  kiste_create_progress_follow (self->progress, task, step);
}

static void
kiste_create_dialog_start (KisteCreateDialog *self)
{
  g_autoptr(KisteCreateOptions) options = NULL;
  const char *image;
  const char *clone_source;
  gboolean image_local;

  _kiste_create_dialog_validate (self);
  if (!self->can_create || self->state != STATE_FORM)
    return;

  options = kiste_create_options_copy (self->options);
  g_free (self->running_name);
  self->running_name = g_strdup (kiste_create_options_get_name (options));
  image = kiste_create_options_get_image (options);
  clone_source = kiste_create_options_get_clone_source (options);

  g_clear_object (&self->run_cancellable);
  self->run_cancellable = g_cancellable_new ();

  /* a clone copies a box; it needs no image */
  image_local = (clone_source != NULL && clone_source[0]) ||
                kiste_image_chooser_is_downloaded (self->image_chooser, image);
  kiste_create_progress_begin (self->progress, options, image_local);
  set_state (self, STATE_RUNNING);

  kiste_manager_create_and_start_async (self->manager, options,
                                        creation_step_cb, g_object_ref (self), g_object_unref,
                                        self->run_cancellable, created_cb, g_object_ref (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel_button));
}

void
kiste_create_dialog_set_temporary (KisteCreateDialog *self)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(KisteCreateOptions) options = NULL;
  g_autofree char *name = NULL;

  g_return_if_fail (KISTE_IS_CREATE_DIALOG (self));

  names = _kiste_create_dialog_dup_box_names (self);
  name = kiste_create_options_dup_temporary_name ((const char * const *) names);
  options = kiste_create_options_copy (self->options);
  kiste_create_options_set_name (options, name);
  kiste_create_options_set_temporary (options, TRUE);
  kiste_create_options_set_add_to_menu (options, FALSE);

  self->temporary = TRUE;
  kiste_create_dialog_set_options (self, options);

  /* The name is Kiste's; a home folder of its own or a launcher would
   * outlive the box */
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->name_row),
                                                   ADW_TYPE_PREFERENCES_GROUP), FALSE);
  gtk_widget_set_visible (gtk_widget_get_ancestor (GTK_WIDGET (self->home_switch_row),
                                                   ADW_TYPE_PREFERENCES_GROUP), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->menu_row), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->import_row), FALSE);
  gtk_button_set_label (self->create_button, _("_Try"));
  set_state (self, STATE_FORM);
}

/* Buttons ---------------------------------------------------------------- */

static void
kiste_create_dialog_create_clicked_cb (KisteCreateDialog *self)
{
  kiste_create_dialog_start (self);
}

static void
kiste_create_dialog_cancel_clicked_cb (KisteCreateDialog *self)
{
  if (self->state != STATE_RUNNING)
    {
      adw_dialog_close (ADW_DIALOG (self));
      return;
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
  kiste_create_progress_stopping (self->progress);
  g_cancellable_cancel (self->run_cancellable);
  if (kiste_create_progress_get_task (self->progress) != NULL)
    kiste_task_cancel (kiste_create_progress_get_task (self->progress));
}

static void
kiste_create_dialog_close_attempt_cb (KisteCreateDialog *self)
{
  if (self->state == STATE_RUNNING)
    _kiste_create_dialog_toast (self, _("The box is still being created. Press Cancel to stop."));
}

static void
kiste_create_dialog_retry_cb (KisteCreateDialog *self)
{
  set_state (self, STATE_FORM);
  _kiste_create_dialog_changed (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (_kiste_create_dialog_is_gone (self))
    return;

  kiste_create_progress_set_deleting (self->progress, FALSE);

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _kiste_create_dialog_toast (self, error->message);
      return;
    }

  kiste_create_progress_deleted (self->progress);
  _kiste_create_dialog_toast (self, _("Box deleted"));
}

static void
delete_response_cb (AdwAlertDialog    *alert,
                    const char        *response,
                    KisteCreateDialog *self)
{
  if (!g_str_equal (response, "delete"))
    return;

  kiste_create_progress_set_deleting (self->progress, TRUE);
  /* no cancellable: closing the dialog must not stop a deletion half-way */
  kiste_manager_delete_async (self->manager, self->running_name, FALSE, NULL,
                              delete_cb, g_object_ref (self));
}

static void
kiste_create_dialog_delete_cb (KisteCreateDialog *self)
{
  AdwDialog *alert;

  alert = adw_alert_dialog_new (NULL, NULL);
  adw_alert_dialog_format_heading (ADW_ALERT_DIALOG (alert), _("Delete “%s”?"), self->running_name);
  adw_alert_dialog_set_body (ADW_ALERT_DIALOG (alert),
                             _("The box and everything installed in it are removed. Files in "
                               "its home folder are kept."));
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (alert),
                                  "cancel", _("_Cancel"),
                                  "delete", _("_Delete"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), "delete",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (alert), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");
  g_signal_connect_object (alert, "response", G_CALLBACK (delete_response_cb), self, 0);
  adw_dialog_present (alert, GTK_WIDGET (self));
}

static void
kiste_create_dialog_copy_command_cb (KisteCreateDialog *self)
{
  if (self->command == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->command);
  _kiste_create_dialog_toast (self, _("Command copied"));
}

/* GObject ------------------------------------------------------------------ */

static void
store_changed_cb (KisteCreateDialog *self)
{
  if (self->state == STATE_FORM)
    _kiste_create_dialog_validate (self);
}

static void
kiste_create_dialog_constructed (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);
  g_autoptr(KisteCreateOptions) options = NULL;

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->constructed (object);

  g_assert (KISTE_IS_MANAGER (self->manager));

  /* the rows' bindings ask the manager what the flags imply */
  options = kiste_create_options_new ();
  _kiste_create_dialog_bind_options (self, options);

  g_signal_connect_object (kiste_manager_get_boxes (self->manager), "items-changed",
                           G_CALLBACK (store_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (_kiste_create_dialog_get_caps (self), "notify::loaded",
                           G_CALLBACK (_kiste_create_dialog_changed), self, G_CONNECT_SWAPPED);

  /* graphics drivers are a good guess, not a rule */
  self->nvidia_found = g_file_test ("/proc/driver/nvidia", G_FILE_TEST_EXISTS) ||
                       g_file_test ("/dev/nvidia0", G_FILE_TEST_EXISTS);
  if (self->nvidia_found && _kiste_create_dialog_supports (self, "nvidia"))
    {
      self->updating++;
      kiste_create_options_set_nvidia (self->options, TRUE);
      self->updating--;
      self->nvidia_guessed = TRUE;
    }

  kiste_image_chooser_load (self->image_chooser, self->manager, self->cancellable);
  _kiste_create_dialog_changed (self);
}

gboolean
_kiste_create_dialog_is_toolbx (KisteCreateDialog *self)
{
  return kiste_create_options_get_tool (self->options) == KISTE_BOX_TOOL_TOOLBX;
}

/* Whatever still runs for this dialog stops; late results are dropped */
static void
kiste_create_dialog_stop_everything (KisteCreateDialog *self)
{
  g_cancellable_cancel (self->cancellable);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  if (self->progress != NULL)
    {
      KisteTask *task = kiste_create_progress_get_task (self->progress);

      if (task != NULL && kiste_task_get_running (task))
        kiste_task_cancel (task);
      kiste_create_progress_stop (self->progress);
    }
}

/* Closing stops what still runs for the dialog. While a box is being
 * created only a forced close gets here: its window went away. */
static void
kiste_create_dialog_closed (AdwDialog *dialog)
{
  kiste_create_dialog_stop_everything (KISTE_CREATE_DIALOG (dialog));

  if (ADW_DIALOG_CLASS (kiste_create_dialog_parent_class)->closed)
    ADW_DIALOG_CLASS (kiste_create_dialog_parent_class)->closed (dialog);
}

static void
kiste_create_dialog_dispose (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  kiste_create_dialog_stop_everything (self);

  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_CREATE_DIALOG);

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->dispose (object);
}

static void
kiste_create_dialog_finalize (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  g_clear_object (&self->manager);
  for (guint i = 0; i < self->bindings->len; i++)
    g_binding_unbind (g_ptr_array_index (self->bindings, i));
  g_clear_pointer (&self->bindings, g_ptr_array_unref);
  g_clear_object (&self->options);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_cancellable);
  g_clear_pointer (&self->volume_rows, g_ptr_array_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->running_name, g_free);
  g_clear_pointer (&self->suggested_name, g_free);
  g_clear_pointer (&self->suggested_home, g_free);
  g_clear_pointer (&self->notice, g_free);

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->finalize (object);
}

static void
kiste_create_dialog_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_CAN_CREATE:
      g_value_set_boolean (value, self->can_create);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_create_dialog_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      self->manager = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_create_dialog_class_init (KisteCreateDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kiste_create_dialog_constructed;
  object_class->dispose = kiste_create_dialog_dispose;
  object_class->finalize = kiste_create_dialog_finalize;
  object_class->get_property = kiste_create_dialog_get_property;
  object_class->set_property = kiste_create_dialog_set_property;

  ADW_DIALOG_CLASS (klass)->closed = kiste_create_dialog_closed;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL,
                         KISTE_TYPE_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_CREATE] =
    g_param_spec_boolean ("can-create", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * KisteCreateDialog::created:
   * @box_name: the new box
   *
   * The box was created and has finished its first start.
   */
  signals[CREATED] =
    g_signal_new ("created",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * KisteCreateDialog::distrobox-needed:
   *
   * On a computer with Toolbx alone, people asked for what only distrobox
   * makes (isolation, a home of the box's own, …): the window offers a
   * distrobox.
   */
  signals[DISTROBOX_NEEDED] =
    g_signal_new ("distrobox-needed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  g_type_ensure (KISTE_TYPE_CREATE_PROGRESS);
  g_type_ensure (KISTE_TYPE_IMAGE_CHOOSER);
  g_type_ensure (KISTE_TYPE_VOLUME_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-create-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, banner);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, form_page);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, name_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_chooser);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, clone_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, tool_group);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, tool_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, more_options_row);
  gtk_widget_class_bind_template_callback (widget_class, more_options_activated_cb);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_group);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, isolation_group);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, advanced_group);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_switch_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_choose_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, unshare_all_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, devsys_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, groups_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, ipc_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, netns_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, process_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, unshare_home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, system_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, nvidia_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pull_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, menu_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, add_volume_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, setup_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, command_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, command_label);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, import_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, progress);

  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_close_attempt_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_create_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_image_chosen_cb);
  gtk_widget_class_bind_template_callback (widget_class, _kiste_create_dialog_home_choose_cb);
  gtk_widget_class_bind_template_callback (widget_class, _kiste_create_dialog_add_volume_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_copy_command_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_import_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_banner_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_delete_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_retry_cb);
}

static void
init_view (FieldView        *view,
           KisteCreateField  field,
           gpointer          input,
           GtkLabel         *label,
           gpointer          label_host,
           AdwExpanderRow   *expander)
{
  view->field = field;
  view->input = input;
  view->label = label;
  view->label_host = label_host ? label_host : GTK_WIDGET (label);
  view->expander = expander;
}

static void
kiste_create_dialog_init (KisteCreateDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->volume_rows = g_ptr_array_new ();
  self->bindings = g_ptr_array_new_with_free_func (g_object_unref);
  self->suggested_name = g_strdup ("");

  init_view (&self->views[VIEW_NAME], KISTE_CREATE_FIELD_NAME,
             self->name_row, self->name_error, NULL, NULL);
  init_view (&self->views[VIEW_IMAGE], KISTE_CREATE_FIELD_IMAGE,
             self->image_row, self->image_error, NULL, NULL);
  init_view (&self->views[VIEW_HOSTNAME], KISTE_CREATE_FIELD_HOSTNAME,
             self->hostname_row, self->hostname_error, self->hostname_error_row,
             self->system_expander);
  init_view (&self->views[VIEW_HOME], KISTE_CREATE_FIELD_HOME,
             self->home_row, self->home_error, NULL, NULL);
  init_view (&self->views[VIEW_VOLUMES], KISTE_CREATE_FIELD_VOLUMES,
             NULL, self->volumes_error, self->volumes_error_row, self->volumes_expander);
  init_view (&self->views[VIEW_PACKAGES], KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES,
             self->packages_row, self->packages_error, self->packages_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_INIT_HOOKS], KISTE_CREATE_FIELD_INIT_HOOKS,
             self->init_hooks_row, self->init_hooks_error, self->init_hooks_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_PRE_INIT_HOOKS], KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
             self->pre_init_hooks_row, self->pre_init_hooks_error, self->pre_init_hooks_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_PLATFORM], KISTE_CREATE_FIELD_PLATFORM,
             self->platform_row, self->platform_error, self->platform_error_row,
             self->system_expander);
}
