/* kiste-snapshots-group.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's snapshots on its details, and the questions before a box is made
 * again from its image or from a snapshot. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-manager-snapshots.h"
#include "kiste-name-dialog.h"
#include "kiste-snapshots-group.h"

struct _KisteSnapshotsGroup
{
  AdwPreferencesGroup  parent_instance;

  KisteManager        *manager;
  KisteBox            *box;
  GPtrArray           *snapshots;
  GCancellable        *cancellable;
  /* the box's task was running at the last busy-changed */
  gboolean             was_busy;

  GtkListBox          *list;
  /* the list's last row, always there */
  AdwButtonRow        *take_row;
};

G_DEFINE_FINAL_TYPE (KisteSnapshotsGroup, kiste_snapshots_group, ADW_TYPE_PREFERENCES_GROUP)

static void
operation_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* the window toasts every task's outcome */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Operation failed: %s", error->message);
}

/* When a snapshot was taken, for people */
static char *
format_time (GDateTime *time)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (time);

  /* TRANSLATORS: when a snapshot was taken, see g_date_time_format() */
  return g_date_time_format (local, _("%-d %B %Y, %H:%M"));
}

static gboolean
is_busy (KisteSnapshotsGroup *self)
{
  return self->box == NULL || self->manager == NULL ||
         kiste_manager_is_busy (self->manager, kiste_box_get_ref (self->box));
}

/* The box's image is this snapshot: the engine keeps it while the box is
 * there */
static gboolean
is_in_use (KisteSnapshotsGroup *self,
           KisteSnapshot       *snapshot)
{
  return self->box != NULL &&
         g_strcmp0 (kiste_box_get_image (self->box), kiste_snapshot_get_image (snapshot)) == 0;
}

/* Questions */

typedef struct
{
  KisteSnapshotsGroup *self;
  char                *ref;
  char                *box_name;
  char                *image;
  GtkCheckButton      *keep;
  gboolean             update;
} Ask;

static Ask *
ask_new (KisteSnapshotsGroup *self,
         KisteSnapshot       *snapshot)
{
  Ask *ask = g_new0 (Ask, 1);

  ask->self = g_object_ref (self);
  ask->ref = g_strdup (kiste_box_get_ref (self->box));
  ask->box_name = g_strdup (kiste_box_get_name (self->box));
  ask->image = snapshot ? g_strdup (kiste_snapshot_get_image (snapshot)) : NULL;
  return ask;
}

static void
ask_free (Ask *ask)
{
  g_clear_object (&ask->self);
  g_free (ask->ref);
  g_free (ask->box_name);
  g_free (ask->image);
  g_clear_object (&ask->keep);
  g_free (ask);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Ask, ask_free)

static AdwAlertDialog *
dialog_new (const char            *heading,
            const char            *body,
            const char            *response_label,
            AdwResponseAppearance  appearance)
{
  AdwAlertDialog *dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading, body));

  adw_alert_dialog_add_responses (dialog, "cancel", _("_Cancel"), "go", response_label, NULL);
  adw_alert_dialog_set_response_appearance (dialog, "go", appearance);
  adw_alert_dialog_set_default_response (dialog, "cancel");
  adw_alert_dialog_set_close_response (dialog, "cancel");
  return dialog;
}

static void
add_keep_check (AdwAlertDialog *dialog,
                Ask            *ask)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Keep a snapshot of the box as it is now"));
  GtkWidget *check = gtk_check_button_new ();

  /* a narrow dialog breaks the line rather than the layout */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), check);
  gtk_check_button_set_child (GTK_CHECK_BUTTON (check), label);
  gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  ask->keep = GTK_CHECK_BUTTON (g_object_ref (check));
  adw_alert_dialog_set_extra_child (dialog, check);
}

/* What making the box again keeps and what it does not, in sentences */
static char *
describe_kept (KisteBox *box)
{
  const char *not_kept = _("Not kept: changes made inside the box outside its home folder, such as "
                           "installed packages and edited settings, unless you keep a snapshot.");

  /* the folder's path, a long word, is on the box's details */
  if (kiste_box_has_custom_home (box))
    return g_strdup_printf (_("Kept: its own home folder with everything in it, its apps and programs "
                              "in the menu, and its settings.\n\n%s"), not_kept);
  if (kiste_box_get_unshare (box, KISTE_UNSHARE_HOME) == KISTE_SHARING_UNSHARED)
    return g_strdup (_("Kept: its apps and programs in the menu, and its settings.\n\n"
                       "Not kept: its home, which is inside the box, and every other change made "
                       "inside the box, unless you keep a snapshot."));
  return g_strdup_printf (_("Kept: your home folder, which the box shares, its apps and programs in "
                            "the menu, and its settings.\n\n%s"), not_kept);
}

static gboolean
keep_checked (Ask *ask)
{
  return ask->keep != NULL && gtk_check_button_get_active (ask->keep);
}

static void
recreate_answered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(Ask) ask = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = ask->self->manager;

  if (manager == NULL || !g_str_equal (response, "go"))
    return;
  /* no cancellable of the page's: the box must end up made again or
   * restored even when the page goes */
  if (ask->image != NULL)
    kiste_manager_restore_snapshot_async (manager, ask->ref, ask->image, keep_checked (ask),
                                          NULL, operation_done_cb, NULL);
  else
    kiste_manager_recreate_async (manager, ask->ref, ask->update, keep_checked (ask),
                                  NULL, operation_done_cb, NULL);
}

void
kiste_snapshots_group_ask_recreate (KisteSnapshotsGroup *self,
                                    gboolean             update)
{
  g_autofree char *heading = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;
  Ask *ask;

  g_return_if_fail (KISTE_IS_SNAPSHOTS_GROUP (self));

  if (self->box == NULL || self->manager == NULL)
    return;

  ask = ask_new (self, NULL);
  ask->update = update;
  kept = describe_kept (self->box);
  if (update)
    {
      heading = g_strdup_printf (_("Update “%s”?"), ask->box_name);
      body = g_strdup_printf (_("The newer image is downloaded and the box is made again from it, with the "
                                "same name and settings. A snapshot is taken first: if anything fails, the "
                                "box is restored from it. Any terminal open in the box is closed.\n\n%s"), kept);
    }
  else
    {
      heading = g_strdup_printf (_("Recreate “%s”?"), ask->box_name);
      body = g_strdup_printf (_("The box is made again from its image, with the same name and settings. A "
                                "snapshot is taken first: if anything fails, the box is restored from it. "
                                "Any terminal open in the box is closed.\n\n%s"), kept);
    }
  dialog = dialog_new (heading, body, update ? _("_Update") : _("_Recreate"), ADW_RESPONSE_DESTRUCTIVE);
  add_keep_check (dialog, ask);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, recreate_answered_cb, ask);
}

static void
ask_restore (KisteSnapshotsGroup *self,
             KisteSnapshot       *snapshot)
{
  g_autofree char *when = format_time (kiste_snapshot_get_time (snapshot));
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;
  Ask *ask = ask_new (self, snapshot);

  heading = g_strdup_printf (_("Restore “%s”?"), ask->box_name);
  body = g_strdup_printf (_("The box is made again from its snapshot of %s, with the same name and "
                            "settings. Its home folder stays as it is, and any terminal open in the box "
                            "is closed.\n\nChanges made inside the box "
                            "since then, outside its home folder, are lost unless you keep a snapshot."),
                          when);
  dialog = dialog_new (heading, body, _("_Restore"), ADW_RESPONSE_DESTRUCTIVE);
  add_keep_check (dialog, ask);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, recreate_answered_cb, ask);
}

static void
delete_answered_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(Ask) ask = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = ask->self->manager;

  if (manager != NULL && g_str_equal (response, "go"))
    kiste_manager_delete_snapshots_async (manager, ask->ref, (const char * const[]) { ask->image, NULL },
                                          NULL, operation_done_cb, NULL);
}

static void
ask_delete (KisteSnapshotsGroup *self,
            KisteSnapshot       *snapshot)
{
  g_autofree char *when = format_time (kiste_snapshot_get_time (snapshot));
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;
  Ask *ask = ask_new (self, snapshot);

  body = g_strdup_printf (_("The snapshot of “%s” of %s is deleted. The box itself stays as it is."),
                          ask->box_name, when);
  dialog = dialog_new (_("Delete the Snapshot?"), body, _("_Delete"), ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, delete_answered_cb, ask);
}

static void
new_box_named_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(Ask) ask = user_data;
  KisteNameDialog *dialog = KISTE_NAME_DIALOG (object);
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (dialog), result);
  KisteManager *manager = ask->self->manager;

  if (manager != NULL && g_str_equal (response, KISTE_NAME_DIALOG_RESPONSE_ACCEPT))
    kiste_manager_create_from_snapshot_async (manager, ask->ref, ask->image,
                                              kiste_name_dialog_get_name (dialog),
                                              NULL, operation_done_cb, NULL);
}

static GStrv
dup_box_names (KisteSnapshotsGroup *self)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (self->manager));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = g_list_model_get_n_items (boxes);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

static void
ask_new_box (KisteSnapshotsGroup *self,
             KisteSnapshot       *snapshot)
{
  g_autofree char *when = format_time (kiste_snapshot_get_time (snapshot));
  g_autofree char *body = NULL;
  g_autofree char *suggestion = NULL;
  g_auto(GStrv) names = dup_box_names (self);
  KisteNameDialog *dialog;
  Ask *ask = ask_new (self, snapshot);

  suggestion = g_strdup_printf ("%s-snapshot", ask->box_name);
  for (guint i = 2; g_strv_contains ((const char * const *) names, suggestion) && i < 100; i++)
    {
      g_free (suggestion);
      suggestion = g_strdup_printf ("%s-snapshot-%u", ask->box_name, i);
    }
  body = g_strdup_printf (_("A new box is made from the snapshot of “%s” of %s, with its settings and "
                            "its home folder."), ask->box_name, when);
  dialog = kiste_name_dialog_new (_("New Box From Snapshot"), body, _("_Create"), suggestion, NULL,
                                  (const char * const *) names);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL, new_box_named_cb, ask);
}

/* Rows */

typedef void (*SnapshotFunc) (KisteSnapshotsGroup *self,
                              KisteSnapshot       *snapshot);

static void
row_button_clicked_cb (GtkButton *button,
                       gpointer   user_data)
{
  KisteSnapshotsGroup *self = user_data;
  KisteSnapshot *snapshot = g_object_get_data (G_OBJECT (button), "snapshot");
  SnapshotFunc func = g_object_get_data (G_OBJECT (button), "func");

  if (snapshot != NULL && func != NULL && !is_busy (self))
    func (self, snapshot);
}

static GtkWidget *
row_button (KisteSnapshotsGroup *self,
            KisteSnapshot       *snapshot,
            const char          *icon_name,
            const char          *label,
            SnapshotFunc         func)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data_full (G_OBJECT (button), "snapshot", g_object_ref (snapshot), g_object_unref);
  g_object_set_data (G_OBJECT (button), "func", func);
  g_signal_connect (button, "clicked", G_CALLBACK (row_button_clicked_cb), self);
  return button;
}

static GtkWidget *
snapshot_row_new (KisteSnapshotsGroup *self,
                  KisteSnapshot       *snapshot)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *when = format_time (kiste_snapshot_get_time (snapshot));
  const char *size = kiste_snapshot_get_size_text (snapshot);
  g_autofree char *subtitle = NULL;
  gboolean in_use = is_in_use (self, snapshot);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), when);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (in_use)
    subtitle = g_strdup_printf ("%s · %s", size ? size : _("Size unknown"), _("The box is made from it"));
  else
    subtitle = g_strdup (size ? size : _("Size unknown"));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);

  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             row_button (self, snapshot, "edit-undo-symbolic", _("Restore…"), ask_restore));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             row_button (self, snapshot, "list-add-symbolic", _("New Box From Snapshot…"),
                                         ask_new_box));
  /* the engine keeps the image of a box */
  if (!in_use)
    adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                               row_button (self, snapshot, "user-trash-symbolic", _("Delete…"), ask_delete));
  return row;
}

/* Every row but Take Snapshot */
static void
clear_rows (KisteSnapshotsGroup *self)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list));

  while (child != NULL)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      if (child != GTK_WIDGET (self->take_row))
        gtk_list_box_remove (self->list, child);
      child = next;
    }
}

/* Rows go above Take Snapshot */
static void
add_row (KisteSnapshotsGroup *self,
         GtkWidget           *row)
{
  gtk_list_box_insert (self->list, row, gtk_list_box_row_get_index (GTK_LIST_BOX_ROW (self->take_row)));
}

static void
show_message (KisteSnapshotsGroup *self,
              const char          *title,
              const char          *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (row, "dim-label");
  add_row (self, row);
}

static void
update_sensitive (KisteSnapshotsGroup *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->list), !is_busy (self));
}

static void
listed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  KisteSnapshotsGroup *self = user_data;
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(GError) error = NULL;

  snapshots = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  clear_rows (self);
  g_clear_pointer (&self->snapshots, g_ptr_array_unref);
  if (snapshots == NULL)
    {
      show_message (self, _("Could not list the snapshots"), error->message);
      return;
    }

  self->snapshots = g_ptr_array_ref (snapshots);
  if (snapshots->len == 0)
    show_message (self, _("No snapshots"),
                  _("A snapshot keeps the box as it is now, apart from its home folder."));
  for (guint i = 0; i < snapshots->len; i++)
    add_row (self, snapshot_row_new (self, g_ptr_array_index (snapshots, i)));
}

static void
reload (KisteSnapshotsGroup *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  update_sensitive (self);
  if (self->box == NULL || self->manager == NULL ||
      kiste_box_get_tool (self->box) == KISTE_BOX_TOOL_TOOLBX)
    {
      clear_rows (self);
      g_clear_pointer (&self->snapshots, g_ptr_array_unref);
      return;
    }

  self->cancellable = g_cancellable_new ();
  kiste_manager_list_snapshots_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                      listed_cb, self);
}

static void
busy_changed_cb (KisteSnapshotsGroup *self,
                 const char          *box_ref)
{
  gboolean busy;

  if (self->box == NULL)
    return;
  busy = is_busy (self);
  update_sensitive (self);
  /* what the box's operation did shows once it ended */
  if (self->was_busy && !busy)
    reload (self);
  self->was_busy = busy;
}

void
kiste_snapshots_group_take (KisteSnapshotsGroup *self)
{
  g_return_if_fail (KISTE_IS_SNAPSHOTS_GROUP (self));

  if (is_busy (self))
    return;
  kiste_manager_take_snapshot_async (self->manager, kiste_box_get_ref (self->box), NULL,
                                     operation_done_cb, NULL);
}

static void
kiste_snapshots_group_take_activated_cb (KisteSnapshotsGroup *self)
{
  kiste_snapshots_group_take (self);
}

void
kiste_snapshots_group_set_manager (KisteSnapshotsGroup *self,
                                   KisteManager        *manager)
{
  g_return_if_fail (KISTE_IS_SNAPSHOTS_GROUP (self));
  g_return_if_fail (!manager || KISTE_IS_MANAGER (manager));

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  g_set_object (&self->manager, manager);
  if (manager != NULL)
    g_signal_connect_object (manager, "busy-changed", G_CALLBACK (busy_changed_cb), self,
                             G_CONNECT_SWAPPED);
  reload (self);
}

void
kiste_snapshots_group_set_box (KisteSnapshotsGroup *self,
                               KisteBox            *box)
{
  g_return_if_fail (KISTE_IS_SNAPSHOTS_GROUP (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;
  g_set_object (&self->box, box);
  gtk_widget_set_visible (GTK_WIDGET (self), box != NULL && kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX);
  self->was_busy = is_busy (self);
  clear_rows (self);
  reload (self);
}

GPtrArray *
kiste_snapshots_group_get_snapshots (KisteSnapshotsGroup *self)
{
  g_return_val_if_fail (KISTE_IS_SNAPSHOTS_GROUP (self), NULL);
  return self->snapshots;
}

static void
kiste_snapshots_group_dispose (GObject *object)
{
  KisteSnapshotsGroup *self = KISTE_SNAPSHOTS_GROUP (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->manager);
  g_clear_object (&self->box);
  g_clear_pointer (&self->snapshots, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_SNAPSHOTS_GROUP);

  G_OBJECT_CLASS (kiste_snapshots_group_parent_class)->dispose (object);
}

static void
kiste_snapshots_group_class_init (KisteSnapshotsGroupClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_snapshots_group_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-snapshots-group.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteSnapshotsGroup, list);
  gtk_widget_class_bind_template_child (widget_class, KisteSnapshotsGroup, take_row);
  gtk_widget_class_bind_template_callback (widget_class, kiste_snapshots_group_take_activated_cb);
}

static void
kiste_snapshots_group_init (KisteSnapshotsGroup *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
