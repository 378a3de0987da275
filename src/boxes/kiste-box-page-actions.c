/* kiste-box-page-actions.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What people do with the box on the page: start, stop, clone, rename,
 * delete, copy its command, see its log, open its
 * home. Each asks the manager; results show in the window's toasts. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-box-page-private.h"
#include "kiste-create-dialog.h"
#include "kiste-log-dialog.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-manager-snapshots.h"
#include "kiste-name-dialog.h"
#include "kiste-validate.h"

/* Action helpers */

void
_kiste_box_page_operation_done_cb (GObject      *object,
                                   GAsyncResult *result,
                                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The window toasts every task's outcome; see the top of this file */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Operation failed: %s", error->message);
}

/* What a confirmation dialog needs once people answered */
typedef struct
{
  KisteBoxPage   *self;
  /* its name for people, its ref for the manager (kiste_box_get_ref()) */
  char           *box_name;
  char           *ref;
  GtkCheckButton *remove_home;
  /* Delete: the box's snapshots, and whether they go too */
  GStrv           snapshots;
  GtkCheckButton *remove_snapshots;
} Confirm;

static Confirm *
confirm_new (KisteBoxPage *self)
{
  Confirm *confirm = g_new0 (Confirm, 1);

  confirm->self = g_object_ref (self);
  confirm->box_name = g_strdup (kiste_box_get_name (self->box));
  confirm->ref = g_strdup (kiste_box_get_ref (self->box));
  return confirm;
}

static void
confirm_free (Confirm *confirm)
{
  g_clear_object (&confirm->self);
  g_clear_pointer (&confirm->box_name, g_free);
  g_clear_pointer (&confirm->ref, g_free);
  g_clear_object (&confirm->remove_home);
  g_clear_pointer (&confirm->snapshots, g_strfreev);
  g_clear_object (&confirm->remove_snapshots);
  g_free (confirm);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Confirm, confirm_free)

/* NULL once the page is gone: then people's answer changes nothing */
static KisteManager *
confirm_get_manager (Confirm *confirm)
{
  return confirm->self->manager;
}

static AdwAlertDialog *
confirm_dialog_new (const char            *heading,
                    const char            *body,
                    const char            *response_id,
                    const char            *response_label,
                    AdwResponseAppearance  appearance)
{
  AdwAlertDialog *dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading, body));

  adw_alert_dialog_add_responses (dialog,
                                  "cancel", _("_Cancel"),
                                  response_id, response_label,
                                  NULL);
  adw_alert_dialog_set_response_appearance (dialog, response_id, appearance);
  adw_alert_dialog_set_default_response (dialog, "cancel");
  adw_alert_dialog_set_close_response (dialog, "cancel");
  return dialog;
}

/* Start, stop, restart, upgrade */

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL)
    return;
  kiste_manager_start_async (self->manager, kiste_box_get_ref (self->box),
                             NULL, _kiste_box_page_operation_done_cb, NULL);
}

static gboolean
kiste_box_page_should_confirm_stop (KisteBoxPage *self)
{
  /* Without the app's settings (tests) there is no question */
  return self->settings != NULL && g_settings_get_boolean (self->settings, "confirm-stop");
}

static void
stop_confirmed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager == NULL)
    return;
  if (g_str_equal (response, "stop"))
    kiste_manager_stop_async (manager, confirm->ref,
                              NULL, _kiste_box_page_operation_done_cb, NULL);
  else if (g_str_equal (response, "restart"))
    kiste_manager_restart_async (manager, confirm->ref,
                                 NULL, _kiste_box_page_operation_done_cb, NULL);
}

static void
kiste_box_page_ask_stop (KisteBoxPage *self,
                         gboolean      restart)
{
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;
  const char *name = kiste_box_get_name (self->box);
  const char *ref = kiste_box_get_ref (self->box);

  if (!kiste_box_page_should_confirm_stop (self))
    {
      if (restart)
        kiste_manager_restart_async (self->manager, ref, NULL,
                                     _kiste_box_page_operation_done_cb, NULL);
      else
        kiste_manager_stop_async (self->manager, ref, NULL,
                                  _kiste_box_page_operation_done_cb, NULL);
      return;
    }

  if (restart)
    heading = g_strdup_printf (_("Restart “%s”?"), name);
  else
    heading = g_strdup_printf (_("Stop “%s”?"), name);
  dialog = confirm_dialog_new (heading,
                               _("Programs running in it will be closed."),
                               restart ? "restart" : "stop",
                               restart ? _("_Restart") : _("_Stop"),
                               ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, stop_confirmed_cb, confirm_new (self));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    kiste_box_page_ask_stop (self, FALSE);
}

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    kiste_box_page_ask_stop (self, TRUE);
}

static void
upgrade_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  /* The task collects the package manager's output; the task list shows it */
  if (self->box != NULL)
    kiste_manager_upgrade_async (self->manager, kiste_box_get_ref (self->box),
                                 NULL, _kiste_box_page_operation_done_cb, NULL);
}

/* Clone and rename */

static char *
suggest_clone_name (const char         *source,
                    const char * const *names)
{
  /* Translators: added to a box's name to suggest a name for its copy
   * ("debian-copy"); only ASCII letters, digits, "-" and "_" */
  const char *suffix = C_("box name", "copy");

  for (guint i = 1; i < 100; i++)
    {
      g_autofree char *candidate = NULL;

      if (i == 1)
        candidate = g_strdup_printf ("%s-%s", source, suffix);
      else
        candidate = g_strdup_printf ("%s-%s-%u", source, suffix, i);
      if (kiste_validate_name (candidate, names, NULL))
        return g_steal_pointer (&candidate);
    }
  return g_strdup ("");
}

static void
clone_named_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  KisteNameDialog *dialog = KISTE_NAME_DIALOG (object);
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (dialog), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager == NULL || !g_str_equal (response, KISTE_NAME_DIALOG_RESPONSE_ACCEPT))
    return;

  /* The question said a running source is stopped and started again */
  kiste_manager_clone_async (manager, confirm->ref,
                             kiste_name_dialog_get_name (dialog), TRUE,
                             NULL, _kiste_box_page_operation_done_cb, NULL);
}

/* What the copy takes over from box, in a sentence: distrobox itself
 * copies the image only */
static char *
describe_clone (KisteBox *box)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_autoptr(GPtrArray) kept = g_ptr_array_new_with_free_func (g_free);
  const char *home = kiste_create_options_get_home (options);
  static const struct
  {
    KisteUnshare what;
    const char  *label;
  } unshared[] = {
    { KISTE_UNSHARE_DEVSYS, N_("its own devices") },
    { KISTE_UNSHARE_GROUPS, N_("its own user groups") },
    { KISTE_UNSHARE_IPC, N_("its own shared memory") },
    { KISTE_UNSHARE_NETNS, N_("its own network") },
    { KISTE_UNSHARE_PROCESS, N_("its own processes") },
    { KISTE_UNSHARE_HOME, N_("no access to your home folder") },
  };
  g_autofree char *list = NULL;

  if (home != NULL && home[0] != '\0')
    g_ptr_array_add (kept, g_strdup_printf (_("the home folder %s, which both boxes use"), home));
  if (kiste_create_options_get_init (options))
    g_ptr_array_add (kept, g_strdup (_("an init system")));
  if (kiste_create_options_get_nvidia (options))
    g_ptr_array_add (kept, g_strdup (_("NVIDIA integration")));
  for (guint i = 0; i < G_N_ELEMENTS (unshared); i++)
    if (kiste_create_options_get_unshare (options, unshared[i].what))
      g_ptr_array_add (kept, g_strdup (_(unshared[i].label)));

  if (kept->len == 0)
    return g_strdup_printf (_("The copy starts with everything installed in “%s”, and shares "
                              "everything with this computer as it does."),
                            kiste_box_get_name (box));

  g_ptr_array_add (kept, NULL);
  /* Translators: joins the settings a copy keeps: "an init system, its own network" */
  list = g_strjoinv (_(", "), (char **) kept->pdata);
  return g_strdup_printf (_("The copy starts with everything installed in “%s” and keeps its "
                            "settings: %s."),
                          kiste_box_get_name (box), list);
}

/* One question: the name, with what the copy keeps and what happens to a
 * running box */
static void
kiste_box_page_ask_clone_name (KisteBoxPage *self,
                               KisteBox     *box)
{
  g_auto(GStrv) names = _kiste_box_page_dup_box_names (self);
  g_autofree char *heading = NULL;
  g_autofree char *kept = describe_clone (box);
  g_autofree char *body = NULL;
  g_autofree char *suggestion = NULL;
  KisteNameDialog *dialog;
  Confirm *confirm;

  /* the page may show another box by now */
  confirm = g_new0 (Confirm, 1);
  confirm->self = g_object_ref (self);
  confirm->box_name = g_strdup (kiste_box_get_name (box));
  confirm->ref = g_strdup (kiste_box_get_ref (box));

  heading = g_strdup_printf (_("Clone “%s”"), confirm->box_name);
  if (kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING)
    body = g_strdup_printf (_("%s It is stopped while it is copied, which closes the programs "
                              "running in it, and started again afterwards."),
                            kept);
  else
    body = g_steal_pointer (&kept);
  suggestion = suggest_clone_name (confirm->box_name, (const char * const *) names);
  dialog = kiste_name_dialog_new (heading, body, _("_Clone"), suggestion, NULL,
                                  (const char * const *) names);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           clone_named_cb, confirm);
}

/* Recreate and Update Box: the snapshots group asks */
static void
recreate_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  kiste_snapshots_group_ask_recreate (self->snapshots_group, g_str_equal (action_name, "box.update"));
}

static void
take_snapshot_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  kiste_snapshots_group_take (self->snapshots_group);
}


static void
clone_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  /* the namespaces come from its details: read first when missing */
  if (self->box != NULL)
    _kiste_box_page_with_details (self, kiste_box_get_ref (self->box),
                                 kiste_box_page_ask_clone_name);
}

static void
rename_named_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  KisteNameDialog *dialog = KISTE_NAME_DIALOG (object);
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (dialog), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager != NULL && g_str_equal (response, KISTE_NAME_DIALOG_RESPONSE_ACCEPT))
    kiste_manager_rename_async (manager, confirm->ref,
                                kiste_name_dialog_get_name (dialog),
                                NULL, _kiste_box_page_operation_done_cb, NULL);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_auto(GStrv) names = NULL;
  g_autofree char *heading = NULL;
  KisteNameDialog *dialog;
  const char *name;

  if (self->box == NULL)
    return;

  name = kiste_box_get_name (self->box);
  names = _kiste_box_page_dup_box_names (self);
  heading = g_strdup_printf (_("Rename “%s”"), name);
  dialog = kiste_name_dialog_new (heading,
                                  _("Exported apps and programs follow the new name."),
                                  _("_Rename"), name, name,
                                  (const char * const *) names);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           rename_named_cb, confirm_new (self));
}

/* Clone with changes and export settings: both start from what is known
 * of the box, so its details (namespaces) are read first when missing */

typedef struct
{
  KisteBoxPage *self;
  char         *box_name;
  WithBoxFunc   func;
} WithBox;

static void
with_box_free (WithBox *with)
{
  g_clear_object (&with->self);
  g_free (with->box_name);
  g_free (with);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WithBox, with_box_free)

static void
with_box_run (WithBox *with)
{
  KisteBox *box;

  /* the page is gone, or the box is */
  if (with->self->manager == NULL)
    return;
  box = kiste_box_list_find (kiste_manager_get_boxes (with->self->manager), with->box_name);
  if (box != NULL)
    with->func (with->self, box);
}

static void
with_box_details_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(WithBox) with = user_data;
  g_autoptr(GError) error = NULL;

  /* without details the namespaces stay unknown, hence shared: still useful */
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_debug ("Could not load the details of a box: %s", error->message);
    }
  with_box_run (with);
}

/* Calls func with the box named box_name once its details are there */
void
_kiste_box_page_with_details (KisteBoxPage *self,
                              const char   *box_name,
                              WithBoxFunc   func)
{
  g_autoptr(WithBox) with = g_new0 (WithBox, 1);
  KisteBox *box;

  with->self = g_object_ref (self);
  with->box_name = g_strdup (box_name);
  with->func = func;

  box = kiste_box_list_find (kiste_manager_get_boxes (self->manager), box_name);
  if (box == NULL)
    return;
  if (kiste_box_get_has_details (box))
    {
      with_box_run (with);
      return;
    }

  kiste_box_list_load_details_async (kiste_manager_get_boxes (self->manager), &box, 1,
                                     self->cancellable, with_box_details_cb,
                                     g_steal_pointer (&with));
}

static void
kiste_box_page_open_clone_dialog (KisteBoxPage *self,
                                  KisteBox     *box)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_auto(GStrv) names = _kiste_box_page_dup_box_names (self);
  g_autofree char *suggestion = NULL;
  KisteCreateDialog *dialog;

  /* "-copy" in people's language, and free */
  suggestion = suggest_clone_name (kiste_box_get_name (box), (const char * const *) names);
  kiste_create_options_set_name (options, suggestion);

  dialog = kiste_create_dialog_new (self->manager);
  kiste_create_dialog_set_options (dialog, options);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
}

static void
clone_changes_stopped_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  g_autoptr(GError) error = NULL;

  /* A failed stop is shown by the window like every task's outcome */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_debug ("Could not stop the box to clone it: %s", error->message);
      return;
    }
  if (confirm_get_manager (confirm) == NULL)
    return;
  _kiste_box_page_with_details (confirm->self, confirm->ref, kiste_box_page_open_clone_dialog);
}

static void
clone_changes_confirmed_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);
  const char *box_name;

  if (manager == NULL || !g_str_equal (response, "stop"))
    return;

  /* distrobox copies stopped boxes only: stop it now, so the dialog's
   * Create works as it says */
  box_name = confirm->ref;
  kiste_manager_stop_async (manager, box_name, NULL,
                            clone_changes_stopped_cb, g_steal_pointer (&confirm));
}

static void
clone_with_changes_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;

  if (self->box == NULL)
    return;

  if (!_kiste_box_page_is_running (self))
    {
      _kiste_box_page_with_details (self, kiste_box_get_ref (self->box),
                                   kiste_box_page_open_clone_dialog);
      return;
    }

  heading = g_strdup_printf (_("Stop “%s” to Clone It?"), kiste_box_get_name (self->box));
  dialog = confirm_dialog_new (heading,
                               _("The box must be stopped to clone it. Kiste stops it now, "
                                 "then you choose the settings of the copy. Programs running in "
                                 "it will be closed."),
                               "stop", _("_Stop and Continue"),
                               ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, clone_changes_confirmed_cb,
                           confirm_new (self));
}

/* Delete */

/* The snapshots go once the box is gone: a box made from one keeps it */
static void
deleted_remove_snapshots_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_debug ("Operation failed: %s", error->message);
      return;
    }
  kiste_manager_delete_snapshots_async (KISTE_MANAGER (object), confirm->ref,
                                        (const char * const *) confirm->snapshots,
                                        NULL, _kiste_box_page_operation_done_cb, NULL);
}

static void
delete_confirmed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);
  gboolean remove_home;

  if (manager == NULL || !g_str_equal (response, "delete"))
    return;

  remove_home = confirm->remove_home != NULL && gtk_check_button_get_active (confirm->remove_home);
  if (confirm->remove_snapshots != NULL && gtk_check_button_get_active (confirm->remove_snapshots))
    {
      Confirm *then = g_steal_pointer (&confirm);

      kiste_manager_delete_async (manager, then->ref, remove_home,
                                  NULL, deleted_remove_snapshots_cb, then);
    }
  else
    kiste_manager_delete_async (manager, confirm->ref, remove_home,
                                NULL, _kiste_box_page_operation_done_cb, NULL);
}

static char *
format_delete_body (KisteBox  *box,
                    GPtrArray *exported)
{
  g_autoptr(GString) body = g_string_new (NULL);

  g_string_append (body, _("The box and everything installed in it will be deleted. This cannot be undone."));

  if (exported != NULL && exported->len > 0)
    {
      g_autofree char *apps = _kiste_box_page_join_exported_names (exported, KISTE_EXPORTED_APP);
      g_autofree char *programs = _kiste_box_page_join_exported_names (exported, KISTE_EXPORTED_BINARY);
      g_autofree char *counts = _kiste_box_page_format_exported (exported);
      g_autofree char *names = NULL;

      if (apps != NULL && programs != NULL)
        names = g_strconcat (apps, _(", "), programs, NULL);
      else
        names = g_strdup (apps ? apps : programs);

      g_string_append (body, "\n\n");
      /* Translators: "Removed with it: 2 apps and 1 program it exported (Viewer, Editor, x11perf)." */
      g_string_append_printf (body, _("Removed with it: %s it exported (%s)."), counts, names);
    }

  g_string_append (body, "\n\n");
  /* the folder is named once, below, where it can be chosen */
  if (kiste_box_has_custom_home (box))
    g_string_append (body, _("Its own home folder is kept unless you choose otherwise below."));
  else
    g_string_append (body, _("Files in your home folder are kept."));

  return g_string_free_and_steal (g_steal_pointer (&body));
}

static void
kiste_box_page_ask_delete (KisteBoxPage *self,
                           GPtrArray    *exported)
{
  Confirm *confirm = confirm_new (self);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;
  GPtrArray *snapshots;
  GtkWidget *extra;

  heading = g_strdup_printf (_("Delete “%s”?"), confirm->box_name);
  body = format_delete_body (self->box, exported);
  dialog = confirm_dialog_new (heading, body, "delete", _("_Delete"), ADW_RESPONSE_DESTRUCTIVE);
  extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  if (kiste_box_has_custom_home (self->box))
    {
      const char *home = kiste_box_get_home (self->box);
      g_autofree char *label_text = NULL;
      GtkWidget *check;
      GtkWidget *box;
      GtkWidget *label;
      GtkWidget *path;

      label_text = g_strdup_printf (_("Also delete its home folder %s"), home);
      label = gtk_label_new (_("Also delete its home folder"));
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* the path on a line of its own, broken only where it must be */
      path = gtk_label_new (home);
      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_wrap (GTK_LABEL (path), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (path), PANGO_WRAP_CHAR);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (path), GTK_NATURAL_WRAP_NONE);
      gtk_widget_add_css_class (path, "caption");
      gtk_widget_add_css_class (path, "monospace");
      box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), path);

      check = gtk_check_button_new ();
      gtk_check_button_set_child (GTK_CHECK_BUTTON (check), box);
      gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label_text,
                                      -1);
      gtk_box_append (GTK_BOX (extra), check);
      confirm->remove_home = GTK_CHECK_BUTTON (g_object_ref (check));
    }

  /* its snapshots, which would stay behind as images */
  snapshots = kiste_snapshots_group_get_snapshots (self->snapshots_group);
  if (snapshots != NULL && snapshots->len > 0)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_autofree char *label = NULL;
      GtkWidget *check;

      for (guint i = 0; i < snapshots->len; i++)
        g_strv_builder_add (builder, kiste_snapshot_get_image (g_ptr_array_index (snapshots, i)));
      confirm->snapshots = g_strv_builder_end (builder);
      label = g_strdup_printf (ngettext ("Also delete its snapshot", "Also delete its %u snapshots",
                                         snapshots->len), snapshots->len);
      check = gtk_check_button_new_with_label (label);
      gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (extra), check);
      confirm->remove_snapshots = GTK_CHECK_BUTTON (g_object_ref (check));
    }

  if (gtk_widget_get_first_child (extra) != NULL)
    adw_alert_dialog_set_extra_child (dialog, extra);
  else
    {
      g_object_ref_sink (extra);
      g_object_unref (extra);
    }

  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, delete_confirmed_cb, confirm);
}

static void
delete_exported_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->delete_cancellable);

  if (self->box == NULL || _kiste_box_page_is_busy (self))
    return;

  /* Without the list the dialog still names the box, just not the files */
  if (error != NULL)
    g_debug ("Could not list exported files: %s", error->message);
  kiste_box_page_ask_delete (self, files);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL || self->delete_cancellable != NULL)
    return;

  /* Name exactly what goes: list the exported files fresh */
  self->delete_cancellable = g_cancellable_new ();
  kiste_manager_list_exported_async (self->manager, kiste_box_get_ref (self->box),
                                     self->delete_cancellable, delete_exported_cb,
                                     g_object_ref (self));
}

/* Terminal, copy, log, home */

static void
open_terminal_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  /* The window owns the tabs */
  if (self->box != NULL)
    gtk_widget_activate_action (widget, "win.open-terminal", "s", kiste_box_get_ref (self->box));
}

static void
copy_enter_command_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autofree char *quoted = NULL;
  g_autofree char *command = NULL;
  g_autofree char *message = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  gboolean plain = TRUE;

  if (self->box == NULL)
    return;

  /* people run what they copy: not for a box distrobox must not enter */
  if (!_kiste_box_page_is_toolbox (self) && !kiste_box_check_enter_safe (self->box, &error))
    {
      _kiste_box_page_toast (self, error->message);
      return;
    }

  name = kiste_box_get_name (self->box);
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      plain = FALSE;
  quoted = plain ? g_strdup (name) : g_shell_quote (name);

  if (_kiste_box_page_is_toolbox (self))
    command = g_strdup_printf ("toolbox enter %s", quoted);
  else
    command = g_strdup_printf ("distrobox enter %s", quoted);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), command);
  /* Translators: %s is the command, "distrobox enter fedora" */
  message = g_strdup_printf (_("“%s” copied"), command);
  _kiste_box_page_toast (self, message);
}

static void
view_log_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL)
    return;
  adw_dialog_present (ADW_DIALOG (kiste_log_dialog_new (self->manager, self->box)), widget);
}

static void
open_home_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (gtk_file_launcher_launch_finish (GTK_FILE_LAUNCHER (object), result, &error))
    return;
  if (g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) ||
      g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_debug ("Could not open the home folder: %s", error->message);
  _kiste_box_page_toast (self, _("Could not open the home folder"));
}

static void
open_home_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autoptr(GtkFileLauncher) launcher = NULL;
  g_autoptr(GFile) file = NULL;
  GtkRoot *root;
  const char *home;

  if (self->box == NULL || !(home = kiste_box_get_home (self->box)))
    return;

  file = g_file_new_for_path (home);
  launcher = gtk_file_launcher_new (file);
  root = gtk_widget_get_root (widget);
  gtk_file_launcher_launch (launcher, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                            NULL, open_home_cb, g_object_ref (self));
}

void
_kiste_box_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "box.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "box.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "box.restart", NULL, restart_action);
  gtk_widget_class_install_action (widget_class, "box.upgrade", NULL, upgrade_action);
  gtk_widget_class_install_action (widget_class, "box.clone", NULL, clone_action);
  gtk_widget_class_install_action (widget_class, "box.clone-with-changes", NULL,
                                   clone_with_changes_action);
  gtk_widget_class_install_action (widget_class, "box.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "box.recreate", NULL, recreate_action);
  gtk_widget_class_install_action (widget_class, "box.update", NULL, recreate_action);
  gtk_widget_class_install_action (widget_class, "box.take-snapshot", NULL, take_snapshot_action);
  gtk_widget_class_install_action (widget_class, "box.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "box.open-terminal", NULL, open_terminal_action);
  gtk_widget_class_install_action (widget_class, "box.copy-enter-command", NULL,
                                   copy_enter_command_action);
  gtk_widget_class_install_action (widget_class, "box.view-log", NULL, view_log_action);
  gtk_widget_class_install_action (widget_class, "box.open-home", NULL, open_home_action);
  _kiste_box_page_class_files_init (widget_class);
}
