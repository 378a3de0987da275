/* kiste-box-page.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-apps-page.h"
#include "kiste-autostart-row.h"
#include "kiste-box-entry-row.h"
#include "kiste-box-page-private.h"
#include "kiste-lazy-menu.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-updates.h"

/* Operation results are not shown here: the window shows every task's
 * outcome as a toast already, and a second toast would repeat it. The page
 * toasts only what its own widgets fail at (clipboard, file launcher). */


G_DEFINE_FINAL_TYPE (KisteBoxPage, kiste_box_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_SETTINGS,
  PROP_BOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *operation_actions[] = {
  "box.start", "box.stop", "box.restart", "box.upgrade",
  "box.clone", "box.clone-with-changes", "box.rename", "box.delete", "box.save-to-file",
  "box.recreate", "box.update", "box.take-snapshot",
};

void
_kiste_box_page_toast (KisteBoxPage *self,
                       const char   *title)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  AdwToast *toast;

  if (overlay == NULL)
    {
      g_debug ("No toast overlay for: %s", title);
      return;
    }
  toast = adw_toast_new (title);
  /* what a command printed is text, not markup */
  adw_toast_set_use_markup (toast, FALSE);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}

GStrv
_kiste_box_page_dup_box_names (KisteBoxPage *self)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (self->manager));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

gboolean
_kiste_box_page_is_busy (KisteBoxPage *self)
{
  return self->box != NULL && kiste_manager_is_busy (self->manager, kiste_box_get_ref (self->box));
}

gboolean
_kiste_box_page_is_running (KisteBoxPage *self)
{
  return self->box != NULL && kiste_box_get_state (self->box) == KISTE_BOX_STATE_RUNNING;
}

gboolean
_kiste_box_page_is_toolbox (KisteBoxPage *self)
{
  return self->box != NULL && kiste_box_get_tool (self->box) == KISTE_BOX_TOOL_TOOLBX;
}

/* Showing the box */

/* A toolbox's menu leaves out what Toolbx cannot do; made when it first
 * opens */
static void
kiste_box_page_update_menu (KisteBoxPage *self)
{
  GMenuModel *menu = _kiste_box_page_is_toolbox (self) ? self->toolbox_menu : self->box_menu;

  if (menu == self->shown_menu)
    return;

  self->shown_menu = menu;
  if (gtk_menu_button_get_menu_model (self->menu_button) != NULL)
    gtk_menu_button_set_menu_model (self->menu_button, menu);
  else
    kiste_lazy_menu_attach (self->menu_button, menu);
}

static void
kiste_box_page_update_actions (KisteBoxPage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_box = self->box != NULL;
  gboolean idle = has_box && !_kiste_box_page_is_busy (self);
  /* what only distrobox does: for a toolbox, off as well as out of the menu */
  gboolean distrobox = has_box && !_kiste_box_page_is_toolbox (self);
  KisteBoxState state = has_box ? kiste_box_get_state (self->box) : KISTE_BOX_STATE_UNKNOWN;
  gboolean can_start = FALSE;
  gboolean can_stop = FALSE;
  gboolean shows_stop;

  switch (state)
    {
    case KISTE_BOX_STATE_CREATED:
    case KISTE_BOX_STATE_STOPPED:
      can_start = TRUE;
      break;

    case KISTE_BOX_STATE_RUNNING:
    case KISTE_BOX_STATE_PAUSED:
      can_stop = TRUE;
      break;

    case KISTE_BOX_STATE_STOPPING:
    case KISTE_BOX_STATE_UNKNOWN:
    default:
      break;
    }

  /* One operation at a time per box: everything waits while one runs */
  gtk_widget_action_set_enabled (widget, "box.start", idle && can_start);
  gtk_widget_action_set_enabled (widget, "box.stop", idle && can_stop);
  gtk_widget_action_set_enabled (widget, "box.restart", idle && state == KISTE_BOX_STATE_RUNNING);
  gtk_widget_action_set_enabled (widget, "box.upgrade", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.clone", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.clone-with-changes", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.rename", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.recreate", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.take-snapshot", idle && distrobox);
  gtk_widget_action_set_enabled (widget, "box.update",
                                 idle && distrobox && kiste_manager_box_has_newer_image (self->manager, self->box));
  gtk_widget_action_set_enabled (widget, "box.delete", idle);
  gtk_widget_action_set_enabled (widget, "box.copy-enter-command", has_box);
  gtk_widget_action_set_enabled (widget, "box.open-terminal", has_box);
  gtk_widget_action_set_enabled (widget, "box.view-log", has_box);
  gtk_widget_action_set_enabled (widget, "box.export-settings", distrobox);
  gtk_widget_action_set_enabled (widget, "box.save-to-file", idle && distrobox);
  /* a box without the home keeps its own inside the container, unless
   * it has a separate home folder on this computer */
  gtk_widget_action_set_enabled (widget, "box.open-home",
                                 has_box && kiste_box_get_home (self->box) != NULL &&
                                 (kiste_box_has_custom_home (self->box) ||
                                  kiste_box_get_unshare (self->box, KISTE_UNSHARE_HOME) != KISTE_SHARING_UNSHARED));

  /* One button that starts or stops, whichever makes sense now */
  shows_stop = state == KISTE_BOX_STATE_RUNNING ||
               state == KISTE_BOX_STATE_PAUSED ||
               state == KISTE_BOX_STATE_STOPPING;
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->start_stop_button),
                                  shows_stop ? "box.stop" : "box.start");
  adw_button_content_set_icon_name (self->start_stop_content,
                                    shows_stop ? "media-playback-stop-symbolic"
                                               : "media-playback-start-symbolic");
  adw_button_content_set_label (self->start_stop_content, shows_stop ? _("_Stop") : _("_Start"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->start_stop_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  shows_stop ? _("Stop") : _("Start"),
                                  -1);
  if (shows_stop)
    gtk_widget_remove_css_class (GTK_WIDGET (self->start_stop_button), "suggested-action");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->start_stop_button), "suggested-action");
}

static void
kiste_box_page_update_state (KisteBoxPage *self)
{
  GtkWidget *pill = GTK_WIDGET (self->state_label);
  KisteBoxState state = kiste_box_get_state (self->box);
  const char *state_label = kiste_box_state_to_label (state);
  g_autofree char *busy_label = NULL;

  gtk_widget_remove_css_class (pill, "running");
  gtk_widget_remove_css_class (pill, "busy");

  if (self->task != NULL)
    {
      /* Translators: the state of a box while an operation runs: "Starting…" */
      busy_label = g_strdup_printf (_("%s…"), kiste_task_get_title (self->task));
      gtk_label_set_label (self->state_label, busy_label);
      gtk_widget_add_css_class (pill, "busy");
    }
  else if (kiste_box_get_setting_up (self->box))
    {
      /* started elsewhere, still in its first steps */
      busy_label = g_strdup_printf (_("%s…"), kiste_box_get_state_label (self->box));
      gtk_label_set_label (self->state_label, busy_label);
      gtk_widget_add_css_class (pill, "busy");
    }
  else
    {
      gtk_label_set_label (self->state_label, state_label);
      if (state == KISTE_BOX_STATE_RUNNING)
        gtk_widget_add_css_class (pill, "running");
      else if (state == KISTE_BOX_STATE_STOPPING)
        gtk_widget_add_css_class (pill, "busy");
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (pill),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  gtk_label_get_label (self->state_label),
                                  -1);

  /* one truth: the row says what the badge says */
  adw_action_row_set_subtitle (self->state_row, gtk_label_get_label (self->state_label));
}

static void
kiste_box_page_update_task (KisteBoxPage *self)
{
  g_autofree char *title = NULL;
  const char *step;
  double fraction;

  gtk_widget_set_visible (self->busy_box, self->task != NULL);
  if (self->task == NULL)
    return;

  title = g_strdup_printf (_("%s…"), kiste_task_get_title (self->task));
  gtk_label_set_label (self->busy_title_label, title);

  step = kiste_task_get_step (self->task);
  gtk_label_set_label (self->busy_step_label, step ? step : "");
  gtk_widget_set_visible (GTK_WIDGET (self->busy_step_label), step != NULL && step[0] != '\0');

  /* A bar when the operation can tell how far it got, a spinner otherwise */
  fraction = kiste_task_get_fraction (self->task);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_progress), fraction >= 0);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), fraction < 0);
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->busy_progress, fraction);

  gtk_widget_set_visible (GTK_WIDGET (self->cancel_button),
                          kiste_task_get_running (self->task) &&
                          kiste_task_get_cancellable_by_user (self->task));
}

static void
task_notify_cb (KisteBoxPage *self)
{
  kiste_box_page_update_task (self);
  if (self->box != NULL)
    kiste_box_page_update_state (self);
}

static void
kiste_box_page_set_task (KisteBoxPage *self,
                         KisteTask    *task)
{
  if (self->task == task)
    return;

  if (self->task != NULL)
    g_signal_handlers_disconnect_by_data (self->task, self);
  g_set_object (&self->task, task);
  if (task != NULL)
    g_signal_connect_object (task, "notify", G_CALLBACK (task_notify_cb), self, G_CONNECT_SWAPPED);
}

static void
kiste_box_page_update_busy (KisteBoxPage *self)
{
  KisteTask *task = NULL;

  if (self->box != NULL)
    task = kiste_manager_get_task_for_box (self->manager, kiste_box_get_ref (self->box));

  kiste_box_page_set_task (self, task);
  kiste_box_page_update_task (self);
  if (self->box != NULL)
    kiste_box_page_update_state (self);
  kiste_box_page_update_actions (self);
}

static void
kiste_box_page_update (KisteBoxPage *self)
{
  if (self->box == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      kiste_box_page_update_busy (self);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "box");
  kiste_box_page_update_menu (self);
  _kiste_box_page_update_details (self);
  kiste_box_page_update_busy (self);
  _kiste_box_page_update_stats_polling (self);
}

/* Exported apps and details, loaded when a box is shown */

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_pointer (&self->exported, g_ptr_array_unref);
  self->exported = g_steal_pointer (&files);
  self->exported_failed = error != NULL;
  if (error != NULL)
    g_debug ("Could not list exported files: %s", error->message);

  if (self->box != NULL)
    _kiste_box_page_update_exported_row (self);
}

/* Forgets the exports of the previous box and stops listing them */
static void
kiste_box_page_drop_exported (KisteBoxPage *self)
{
  g_cancellable_cancel (self->exported_cancellable);
  g_clear_object (&self->exported_cancellable);
  g_clear_pointer (&self->exported, g_ptr_array_unref);
  self->exported_failed = FALSE;
}

static void
kiste_box_page_load_exported (KisteBoxPage *self)
{
  kiste_box_page_drop_exported (self);

  if (self->box == NULL)
    return;

  self->exported_cancellable = g_cancellable_new ();
  kiste_manager_list_exported_async (self->manager, kiste_box_get_ref (self->box),
                                     self->exported_cancellable, exported_cb, g_object_ref (self));
}

static void
details_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The box notifies what the details changed; the page follows it */
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Could not load the details of a box: %s", error->message);
}

static void
kiste_box_page_load_details (KisteBoxPage *self)
{
  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);

  if (self->box == NULL || kiste_box_get_has_details (self->box))
    return;

  self->details_cancellable = g_cancellable_new ();
  kiste_box_list_load_details_async (kiste_manager_get_boxes (self->manager),
                                     &self->box, 1,
                                     self->details_cancellable, details_cb, NULL);
}

static void
kiste_box_page_cancel_load (KisteBoxPage *self)
{
  g_clear_handle_id (&self->load_idle, g_source_remove);
  if (self->load_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->load_tick);
  self->load_tick = 0;
}

static gboolean
load_idle_cb (gpointer user_data)
{
  KisteBoxPage *self = user_data;

  self->load_idle = 0;
  kiste_box_page_load_details (self);
  kiste_box_page_load_exported (self);
  return G_SOURCE_REMOVE;
}

/* Runs as the frame that draws the page starts; the idle after its paint */
static gboolean
load_tick_cb (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  self->load_tick = 0;
  self->load_idle = g_idle_add (load_idle_cb, self);
  return G_SOURCE_REMOVE;
}

/* The details and exports of a newly set box load after the frame that
 * draws the page for it (in a window, the page waits until it is shown):
 * their commands, started with the page, took the CPU that frame needed.
 * What the previous box loaded is dropped now. */
static void
kiste_box_page_load (KisteBoxPage *self)
{
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (self));

  kiste_box_page_cancel_load (self);
  g_cancellable_cancel (self->details_cancellable);
  g_clear_object (&self->details_cancellable);
  kiste_box_page_drop_exported (self);

  if (self->box == NULL)
    return;

  if (native != NULL && gtk_widget_get_mapped (GTK_WIDGET (native)))
    self->load_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), load_tick_cb, NULL, NULL);
  else
    load_idle_cb (self);
}

/* Following the box and the manager */

static void
box_notify_cb (KisteBoxPage *self,
               GParamSpec   *pspec)
{
  const char *name = g_param_spec_get_name (pspec);

  if (g_str_equal (name, "name"))
    kiste_box_page_load_exported (self);
  if (g_str_equal (name, "state"))
    {
      /* A box that stopped and started again may be measurable now */
      if (!_kiste_box_page_is_running (self))
        _kiste_box_page_reset_stats (self);
    }

  kiste_box_page_update (self);
}

static void
busy_changed_cb (KisteBoxPage *self,
                 const char   *box_name)
{
  gboolean was_busy = self->task != NULL;

  if (self->box == NULL)
    return;
  /* A renamed box's task keeps the old name: follow it until it ends */
  if (!was_busy && g_strcmp0 (box_name, kiste_box_get_name (self->box)) != 0)
    return;

  kiste_box_page_update_busy (self);

  /* An operation may have exported, renamed or removed files */
  if (was_busy && self->task == NULL)
    kiste_box_page_load_exported (self);
}

static void
several_tools_cb (KisteBoxPage *self)
{
  if (self->box != NULL)
    _kiste_box_page_update_details (self);
}

static void
cancel_clicked_cb (KisteBoxPage *self)
{
  if (self->task != NULL)
    kiste_task_cancel (self->task);
}

/* GObject and GtkWidget */

static void
kiste_box_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (kiste_box_page_parent_class)->map (widget);

  _kiste_box_page_update_stats_polling (KISTE_BOX_PAGE (widget));
}

static void
kiste_box_page_unmap (GtkWidget *widget)
{
  _kiste_box_page_stop_stats (KISTE_BOX_PAGE (widget));

  GTK_WIDGET_CLASS (kiste_box_page_parent_class)->unmap (widget);
}

static void
image_updates_changed_cb (KisteBoxPage *self)
{
  if (self->box == NULL)
    return;
  _kiste_box_page_update_details (self);
  /* Update Box… is there while a newer image is */
  kiste_box_page_update_actions (self);
}

static void
kiste_box_page_constructed (GObject *object)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);

  G_OBJECT_CLASS (kiste_box_page_parent_class)->constructed (object);

  g_return_if_fail (KISTE_IS_MANAGER (self->manager));

  g_signal_connect_object (self->manager, "busy-changed",
                           G_CALLBACK (busy_changed_cb), self, G_CONNECT_SWAPPED);
  /* what the last update check found */
  g_signal_connect_object (self->manager, "image-updates-changed",
                           G_CALLBACK (image_updates_changed_cb), self, G_CONNECT_SWAPPED);
  /* the tool is named while both tools' boxes are listed */
  g_signal_connect_object (kiste_manager_get_boxes (self->manager), "notify::several-tools",
                           G_CALLBACK (several_tools_cb), self, G_CONNECT_SWAPPED);
  if (self->settings != NULL)
    kiste_color_row_set_settings (self->color_row, self->settings);
  kiste_snapshots_group_set_manager (self->snapshots_group, self->manager);
  kiste_box_page_update (self);
}

static void
kiste_box_page_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_BOX:
      g_value_set_object (value, self->box);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_page_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      self->manager = g_value_dup_object (value);
      break;

    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    case PROP_BOX:
      kiste_box_page_set_box (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The apps view is made when it is first shown: most boxes are looked at
 * without it, and it was a fifth of the time the page took to make */
static void
view_changed_cb (KisteBoxPage *self)
{
  if (self->apps_page != NULL ||
      g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "apps") != 0)
    return;

  self->apps_page = kiste_apps_page_new (self->manager);
  g_object_bind_property (self, "box", self->apps_page, "box", G_BINDING_SYNC_CREATE);
  adw_bin_set_child (self->apps_bin, GTK_WIDGET (self->apps_page));
}

static void
kiste_box_page_dispose (GObject *object)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);

  _kiste_box_page_stop_stats (self);
  kiste_box_page_cancel_load (self);
  g_cancellable_cancel (self->details_cancellable);
  g_cancellable_cancel (self->exported_cancellable);
  g_cancellable_cancel (self->delete_cancellable);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->details_cancellable);
  g_clear_object (&self->exported_cancellable);
  g_clear_object (&self->delete_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->export_file);

  kiste_box_page_set_task (self, NULL);
  if (self->box != NULL)
    g_signal_handlers_disconnect_by_data (self->box, self);
  g_clear_object (&self->box);
  g_clear_pointer (&self->exported, g_ptr_array_unref);

  /* taking the views apart must not make the apps view */
  g_signal_handlers_disconnect_by_func (self->view_stack, view_changed_cb, self);
  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_BOX_PAGE);
  self->apps_page = NULL;

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  g_clear_object (&self->manager);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (kiste_box_page_parent_class)->dispose (object);
}

static void
kiste_box_page_class_init (KisteBoxPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kiste_box_page_constructed;
  object_class->get_property = kiste_box_page_get_property;
  object_class->set_property = kiste_box_page_set_property;
  object_class->dispose = kiste_box_page_dispose;
  widget_class->map = kiste_box_page_map;
  widget_class->unmap = kiste_box_page_unmap;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL, KISTE_TYPE_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BOX] =
    g_param_spec_object ("box", NULL, NULL, KISTE_TYPE_BOX,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (KISTE_TYPE_COLOR_ROW);
  g_type_ensure (KISTE_TYPE_SNAPSHOTS_GROUP);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-box-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, color_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, snapshots_group);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, menu_button);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, box_menu);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, toolbox_menu);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, distro_image);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, image_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, state_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, busy_box);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, busy_spinner);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, busy_title_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, busy_step_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, busy_progress);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, start_stop_button);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, start_stop_content);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, image_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, update_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, state_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, created_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, init_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, nvidia_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, exported_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, manager_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, tool_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, home_sharing_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, devsys_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, groups_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, ipc_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, netns_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, process_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, home_unshare_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, resources_group);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, cpu_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, memory_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, apps_bin);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, view_changed_cb);

  _kiste_box_page_class_actions_init (widget_class);
  g_type_ensure (KISTE_TYPE_BOX_ENTRY_ROW);
  g_type_ensure (KISTE_TYPE_AUTOSTART_ROW);
}

static void
kiste_box_page_init (KisteBoxPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->shown_menu = self->box_menu;
  kiste_lazy_menu_attach (self->menu_button, self->box_menu);
  /* The bin's own child: AdwBin unparents it, the template must not */
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));
  self->cancellable = g_cancellable_new ();

  for (guint i = 0; i < G_N_ELEMENTS (operation_actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), operation_actions[i], FALSE);
}

KisteBoxPage *
kiste_box_page_new (KisteManager *manager,
                    GSettings    *settings)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);
  g_return_val_if_fail (!settings || G_IS_SETTINGS (settings), NULL);

  return g_object_new (KISTE_TYPE_BOX_PAGE, "manager", manager, "settings", settings, NULL);
}

void
kiste_box_page_set_box (KisteBoxPage *self,
                        KisteBox     *box)
{
  g_return_if_fail (KISTE_IS_BOX_PAGE (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;

  if (self->box != NULL)
    g_signal_handlers_disconnect_by_data (self->box, self);
  g_set_object (&self->box, box);
  if (box != NULL)
    g_signal_connect_object (box, "notify", G_CALLBACK (box_notify_cb), self, G_CONNECT_SWAPPED);

  /* Nothing of the previous box may arrive late and show up here */
  g_cancellable_cancel (self->delete_cancellable);
  g_clear_object (&self->delete_cancellable);
  _kiste_box_page_reset_stats (self);

  kiste_color_row_set_box_name (self->color_row, box ? kiste_box_get_name (box) : NULL);
  kiste_snapshots_group_set_box (self->snapshots_group, box);

  if (self->manager != NULL)
    {
      kiste_box_page_load (self);
      kiste_box_page_update (self);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOX]);
}

KisteBox *
kiste_box_page_get_box (KisteBoxPage *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_PAGE (self), NULL);

  return self->box;
}

void
_kiste_box_page_set_export_file_for_testing (KisteBoxPage *self,
                                             GFile        *file)
{
  g_return_if_fail (KISTE_IS_BOX_PAGE (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  g_set_object (&self->export_file, file);
}
