/* kiste-window.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-box-page.h"
#include "kiste-box-row.h"
#include "kiste-create-dialog.h"
#include "kiste-error.h"
#include "kiste-lazy-menu.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-preferences-dialog.h"
#include "kiste-exported-dialog.h"
#include "kiste-task-list.h"
#include "kiste-window-private.h"


G_DEFINE_FINAL_TYPE (KisteWindow, kiste_window, ADW_TYPE_APPLICATION_WINDOW)

static void kiste_window_setup (KisteWindow      *self,
                                KisteApplication *application);


KisteWindow *
kiste_window_new (KisteApplication *application)
{
  KisteWindow *self;

  g_return_val_if_fail (KISTE_IS_APPLICATION (application), NULL);

  /* "application" is no construct property: set up once it is there */
  self = g_object_new (KISTE_TYPE_WINDOW,
                       "application", application,
                       NULL);
  kiste_window_setup (self, application);
  return self;
}

GListModel *
_kiste_window_get_boxes (KisteWindow *self)
{
  return G_LIST_MODEL (kiste_manager_get_boxes (self->manager));
}

/* How to install what is missing, for the distribution we run on */
static char *
dup_install_command (const char *package)
{
  g_autofree char *id = g_get_os_info (G_OS_INFO_KEY_ID);
  g_autofree char *like = g_get_os_info ("ID_LIKE");
  g_autofree char *ids = g_strjoin (" ", id ? id : "", like ? like : "", NULL);

  if (g_file_test ("/run/ostree-booted", G_FILE_TEST_EXISTS))
    return g_strdup_printf ("rpm-ostree install %s", package);
  if (strstr (ids, "fedora") || strstr (ids, "rhel") || strstr (ids, "centos"))
    return g_strdup_printf ("sudo dnf install %s", package);
  if (strstr (ids, "debian") || strstr (ids, "ubuntu"))
    return g_strdup_printf ("sudo apt install %s", package);
  if (strstr (ids, "arch"))
    return g_strdup_printf ("sudo pacman -S %s", package);
  if (strstr (ids, "suse"))
    return g_strdup_printf ("sudo zypper install %s", package);
  if (strstr (ids, "alpine"))
    return g_strdup_printf ("sudo apk add %s", package);
  return NULL;
}

/* A wait this long gets the loading page; the usual listing comes sooner */
#define LOADING_PAGE_DELAY_MS 500

static gboolean
kiste_window_loading_timeout_cb (gpointer user_data)
{
  KisteWindow *self = user_data;

  self->loading_timeout = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->loading_page), self->loading);
  return G_SOURCE_REMOVE;
}

/* The loading page is not shown at once: a spinner that appears for a
 * moment only flickers, and its frames took the CPU that the probes and
 * the listing needed (with a software renderer, a third of a core) */
static void
kiste_window_update_loading_page (KisteWindow *self)
{
  if (!self->loading)
    {
      g_clear_handle_id (&self->loading_timeout, g_source_remove);
      gtk_widget_set_visible (GTK_WIDGET (self->loading_page), FALSE);
    }
  else if (!gtk_widget_get_visible (GTK_WIDGET (self->loading_page)) && self->loading_timeout == 0)
    {
      self->loading_timeout = g_timeout_add (LOADING_PAGE_DELAY_MS, kiste_window_loading_timeout_cb, self);
    }
}

void
_kiste_window_update_state (KisteWindow *self)
{
  KisteCapabilities *caps = kiste_manager_get_capabilities (self->manager);
  guint n_boxes = g_list_model_get_n_items (_kiste_window_get_boxes (self));
  guint n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));

  kiste_window_update_loading_page (self);
  if (self->loading)
    {
      /* the list shows while it loads; the boxes come in place, and the
       * details side stays empty rather than asking for a choice */
      gtk_stack_set_visible_child_name (self->main_stack, "boxes");
      gtk_stack_set_visible_child_name (self->list_stack, "list");
      gtk_stack_set_visible_child_name (self->content_stack, "loading");
      return;
    }
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "loading") == 0 &&
      self->select_tick == 0 && self->select_idle == 0)
    gtk_stack_set_visible_child_name (self->content_stack,
                                      _kiste_window_get_selected_box (self) ? "box" : "none");

  if (g_error_matches (self->load_error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING))
    {
      gboolean no_distrobox = !kiste_capabilities_has_distrobox (caps);
      /* Toolbx without distrobox lacks podman, the one engine it uses */
      gboolean toolbx_only = no_distrobox && kiste_capabilities_has_toolbox (caps);
      g_autofree char *command = dup_install_command (no_distrobox && !toolbx_only ? "distrobox"
                                                                                   : "podman");
      g_autofree char *description = NULL;

      if (no_distrobox && !toolbx_only)
        adw_status_page_set_title (self->missing_page, _("No Distrobox or Toolbx Found"));
      else
        adw_status_page_set_title (self->missing_page, _("No Container Manager Found"));
      if (command == NULL)
        description = g_strdup (self->load_error->message);
      else if (toolbx_only)
        description = g_strdup (_("Toolbx needs podman to run boxes. "
                                  "Install podman with this command, then retry."));
      else if (no_distrobox)
        description = g_strdup (_("Kiste needs distrobox or Toolbx to create and run boxes. "
                                  "Install distrobox with this command, then retry."));
      else
        description = g_strdup (_("Kiste needs podman or docker to run boxes. "
                                  "Install podman with this command, then retry."));
      /* a description is markup: a command's error is text */
      {
        g_autofree char *escaped = g_markup_escape_text (description, -1);

        adw_status_page_set_description (self->missing_page, escaped);
      }
      gtk_label_set_label (self->install_label, command);
      gtk_widget_set_visible (self->install_box, command != NULL);
      _kiste_window_update_install_distrobox (self, no_distrobox);

      gtk_stack_set_visible_child_name (self->main_stack, "status");
      gtk_stack_set_visible_child_name (self->status_stack, "missing");
      return;
    }

  if (self->load_error != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (self->load_error->message, -1);

      adw_status_page_set_description (self->error_page, escaped);
      gtk_stack_set_visible_child_name (self->main_stack, "status");
      gtk_stack_set_visible_child_name (self->status_stack, "error");
      return;
    }

  if (n_boxes == 0)
    {
      /* a box made again may be all there was */
      _kiste_window_check_leftovers (self);
      _kiste_window_update_first_boxes (self);
      gtk_stack_set_visible_child_name (self->main_stack, "status");
      gtk_stack_set_visible_child_name (self->status_stack, "empty");
      return;
    }

  gtk_stack_set_visible_child_name (self->main_stack, "boxes");
  gtk_stack_set_visible_child_name (self->list_stack, n_shown > 0 ? "list" : "no-results");
  /* Once per window: temporary boxes a Kiste that quit left behind */
  _kiste_window_check_temporary_boxes (self);
  _kiste_window_check_leftovers (self);
}

KisteBox *
_kiste_window_get_selected_box (KisteWindow *self)
{
  return self->selection ? gtk_single_selection_get_selected_item (self->selection) : NULL;
}

/* The details' title is the selected box's name, also after a rename */
static void
kiste_window_shown_name_cb (KisteWindow *self)
{
  KisteBox *box = self->shown_box;

  /* nothing chosen, nothing to name: the page itself says so */
  adw_navigation_page_set_title (self->content_page, box ? kiste_box_get_name (box) : _("Details"));
  adw_header_bar_set_show_title (self->content_header, box != NULL);
  if (box != NULL && !self->loading)
    g_settings_set_string (self->settings, "selected-box", kiste_box_get_name (box));
}

static void kiste_window_load (KisteWindow *self);

static gboolean
kiste_window_load_idle_cb (gpointer user_data)
{
  KisteWindow *self = user_data;

  self->load_idle = 0;
  kiste_window_load (self);
  return G_SOURCE_REMOVE;
}

/* The details page is not seen before the boxes are listed: it is made
 * when the first boxes arrive (or after the window's first frame when
 * the list was there before the window), in two idles (one builds it, the next
 * puts it in the window, where GTK styles and measures it: together they
 * kept the window from answering for 30-50 ms), or at once when needed
 * sooner. NULL once the window is disposed. */
static KisteBoxPage *
kiste_window_ensure_box_page (KisteWindow *self)
{
  g_clear_handle_id (&self->page_idle, g_source_remove);
  if (self->box_page == NULL && self->page_bin != NULL)
    {
      g_autoptr(KisteBoxPage) page = NULL;

      if (self->made_page != NULL)
        page = g_steal_pointer (&self->made_page);
      else
        page = g_object_ref_sink (kiste_box_page_new (self->manager, self->settings));
      self->box_page = page;
      adw_bin_set_child (self->page_bin, GTK_WIDGET (page));
    }

  return self->box_page;
}

static gboolean
kiste_window_page_idle_cb (gpointer user_data)
{
  KisteWindow *self = user_data;

  if (self->made_page == NULL)
    {
      self->made_page = g_object_ref_sink (kiste_box_page_new (self->manager, self->settings));
      return G_SOURCE_CONTINUE;
    }

  self->page_idle = 0;
  kiste_window_ensure_box_page (self);
  return G_SOURCE_REMOVE;
}

/* Runs as the first frame starts; the idles after its paint */
static gboolean
kiste_window_first_tick_cb (GtkWidget     *widget,
                            GdkFrameClock *frame_clock,
                            gpointer       user_data)
{
  KisteWindow *self = KISTE_WINDOW (widget);

  if (self->load_waits && self->load_idle == 0)
    self->load_idle = g_idle_add (kiste_window_load_idle_cb, self);
  else if (self->box_page == NULL && self->page_idle == 0)
    self->page_idle = g_idle_add (kiste_window_page_idle_cb, self);
  return G_SOURCE_REMOVE;
}

static void
kiste_window_selection_changed_cb (KisteWindow *self)
{
  KisteBox *box = _kiste_window_get_selected_box (self);
  KisteBoxPage *page;

  if (self->shown_box != box)
    {
      if (self->shown_box != NULL)
        g_signal_handlers_disconnect_by_func (self->shown_box, kiste_window_shown_name_cb, self);
      g_set_object (&self->shown_box, box);
      if (box != NULL)
        g_signal_connect_object (box, "notify::name", G_CALLBACK (kiste_window_shown_name_cb), self,
                                 G_CONNECT_SWAPPED);
    }

  if ((page = kiste_window_ensure_box_page (self)) != NULL)
    kiste_box_page_set_box (page, box);
  /* that frame lays out and paints the whole page: no rows with it */
  if (box != NULL && self->growth_tick != 0 &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "box") != 0)
    self->growth_paused = TRUE;
  gtk_stack_set_visible_child_name (self->content_stack, box ? "box" : "none");
  kiste_window_shown_name_cb (self);
  _kiste_window_update_details_tab (self);
  if (self->details_page != NULL)
    adw_tab_view_set_selected_page (self->tab_view, self->details_page);
}

/* Loading */

static void
kiste_window_items_changed_cb (KisteWindow *self)
{
  /* boxes have come: their details will be wanted */
  if (self->box_page == NULL && self->page_idle == 0 && self->page_bin != NULL)
    self->page_idle = g_idle_add (kiste_window_page_idle_cb, self);
  _kiste_window_grow_list (self);
  _kiste_window_update_state (self);
}

/* The box chosen last time, or the first, unless one is chosen already */
static void
kiste_window_select_initial (KisteWindow *self)
{
  g_autofree char *selected = NULL;

  if (self->select_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->select_tick);
  self->select_tick = 0;
  g_clear_handle_id (&self->select_idle, g_source_remove);

  if (_kiste_window_get_selected_box (self) == NULL)
    {
      selected = g_settings_get_string (self->settings, "selected-box");
      _kiste_window_select_by_name (self, selected);
    }
  if (_kiste_window_get_selected_box (self) == NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->selection)) > 0 &&
      !adw_navigation_split_view_get_collapsed (self->split_view))
    gtk_single_selection_set_selected (self->selection, 0);

  _kiste_window_grow_list (self);
  _kiste_window_update_state (self);
}

static gboolean
kiste_window_select_idle_cb (gpointer user_data)
{
  KisteWindow *self = user_data;

  self->select_idle = 0;
  kiste_window_select_initial (self);
  return G_SOURCE_REMOVE;
}

/* Runs in the frame that makes the first rows; the idle after its paint */
static gboolean
kiste_window_select_tick_cb (GtkWidget     *widget,
                             GdkFrameClock *frame_clock,
                             gpointer       user_data)
{
  KisteWindow *self = KISTE_WINDOW (widget);

  self->select_tick = 0;
  if (self->select_idle == 0)
    {
      /* below the details page's idles: an iteration of the main loop
       * runs every idle ready at the highest priority, and the page's
       * build and the first selection in one kept the window from
       * answering for 35-55 ms */
      self->select_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE + 10, kiste_window_select_idle_cb,
                                           self, NULL);
    }
  /* No rows until then: frames that take longer than the frame interval
   * (as under a sanitizer) come back to back, and an idle would wait for
   * the whole list */
  if (self->growth_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->list_view), self->growth_tick);
  self->growth_tick = 0;
  return G_SOURCE_REMOVE;
}

static void
kiste_window_load_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self->loading = FALSE;
  g_clear_error (&self->load_error);
  self->load_error = g_steal_pointer (&error);

  /* Many rows on screen get a frame of their own before the first box's
   * details: one frame making both kept the window from answering */
  if (self->load_error == NULL && gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) > ROWS_PER_FRAME)
    {
      if (self->select_tick == 0 && self->select_idle == 0)
        self->select_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), kiste_window_select_tick_cb,
                                                          NULL, NULL);
      _kiste_window_update_state (self);
    }
  else
    kiste_window_select_initial (self);
}

static void
kiste_window_load (KisteWindow *self)
{
  g_autofree char *preferred = g_settings_get_string (self->settings, "container-manager");

  self->load_waits = FALSE;
  g_clear_handle_id (&self->load_idle, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  self->loading = TRUE;
  _kiste_window_update_state (self);

  kiste_manager_load_async (self->manager, preferred, self->cancellable,
                            kiste_window_load_cb, g_object_ref (self));
}

/* Tasks end with a toast, and a notification when we are in the background */

/* A task list is made when its popover first opens: the window starts
 * without the two it may never show */
static void
kiste_window_tasks_popover_show_cb (GtkPopover  *popover,
                                    KisteWindow *self)
{
  if (gtk_popover_get_child (popover) == NULL)
    gtk_popover_set_child (popover, GTK_WIDGET (kiste_task_list_new (self->manager)));
}

/* The tasks button of whichever header is on screen */
static void
show_tasks_cb (KisteWindow *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self->tasks_button)))
    gtk_menu_button_popup (self->tasks_button);
  else
    gtk_menu_button_popup (self->status_tasks_button);
}

static void
kiste_window_task_finished_cb (KisteWindow *self,
                               KisteTask   *task)
{
  KisteTaskState state = kiste_task_get_state (task);
  const char *message;
  AdwToast *toast;

  if (state == KISTE_TASK_CANCELLED)
    return;

  /* A box made again is a new box of the same name: the page its old one
   * had shows it again */
  if (state == KISTE_TASK_SUCCEEDED && _kiste_window_get_selected_box (self) == NULL &&
      !adw_navigation_split_view_get_collapsed (self->split_view))
    _kiste_window_select_by_name (self, kiste_task_get_box_name (task));

  message = state == KISTE_TASK_SUCCEEDED ? kiste_task_get_done_message (task)
                                          : kiste_task_get_failed_message (task);
  if (message == NULL)
    return;

  toast = adw_toast_new (message);
  /* what a command printed is text, not markup */
  adw_toast_set_use_markup (toast, FALSE);
  if (state == KISTE_TASK_FAILED)
    {
      adw_toast_set_button_label (toast, _("Details"));
      adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
      adw_toast_set_timeout (toast, 0);
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (show_tasks_cb), self,
                               G_CONNECT_SWAPPED);
    }
  adw_toast_overlay_add_toast (self->toast_overlay, toast);

  if (!gtk_window_is_active (GTK_WINDOW (self)))
    {
      g_autoptr(GNotification) notification = g_notification_new (message);
      GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
      const GError *error = kiste_task_get_error (task);

      if (error != NULL)
        g_notification_set_body (notification, error->message);
      if (app != NULL)
        g_application_send_notification (app, NULL, notification);
    }
}

static void
kiste_window_tasks_changed_cb (KisteWindow *self,
                               guint        position,
                               guint        removed,
                               guint        added,
                               GListModel  *tasks)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (tasks, i);

      if (kiste_task_get_running (task))
        g_signal_connect_object (task, "finished", G_CALLBACK (kiste_window_task_finished_cb),
                                 self, G_CONNECT_SWAPPED);
      else
        /* Refused at once (busy, bad input): it finished before we saw it */
        kiste_window_task_finished_cb (self, task);
    }
}

/* Actions */

void
_kiste_window_created_cb (KisteWindow *self,
                          const char  *name)
{
  _kiste_window_select_by_name (self, name);
}

static void
kiste_window_new_box_action (GtkWidget  *widget,
                             const char *action_name,
                             GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteCreateDialog *dialog = kiste_create_dialog_new (self->manager);

  g_signal_connect_object (dialog, "created", G_CALLBACK (_kiste_window_created_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "distrobox-needed", G_CALLBACK (_kiste_window_distrobox_needed_cb), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

static void
kiste_window_copy_install_command_action (GtkWidget  *widget,
                                          const char *action_name,
                                          GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget),
                          gtk_label_get_label (self->install_label));
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (_("Command copied")));
}

static void
kiste_window_refresh_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* as a load that failed: the error page, whose Retry looks again */
  g_clear_error (&self->load_error);
  self->load_error = g_steal_pointer (&error);
  _kiste_window_update_state (self);
}

static void
kiste_window_reload_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteBoxList *store = kiste_manager_get_boxes (self->manager);

  /* With the list on screen, F5 lists again (one process) and the list
   * stays; after a problem it looks for the tools again, as Retry. */
  if (!self->loading && self->load_error == NULL &&
      kiste_box_list_get_loaded (store) && kiste_box_list_get_watching (store))
    {
      kiste_box_list_reload_async (store, self->cancellable, kiste_window_refresh_cb,
                                   g_object_ref (self));
      return;
    }

  kiste_window_load (self);
}

static void
kiste_window_search_action (GtkWidget  *widget,
                            const char *action_name,
                            GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);

  if (!gtk_widget_get_visible (GTK_WIDGET (self->split_view)) ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "boxes") != 0)
    return;

  gtk_search_bar_set_search_mode (self->search_bar, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
kiste_window_delete_box_action (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteBoxPage *page;

  if (_kiste_window_get_selected_box (self) != NULL && (page = kiste_window_ensure_box_page (self)))
    gtk_widget_activate_action (GTK_WIDGET (page), "box.delete", NULL);
}

static void
kiste_window_preferences_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KistePreferencesDialog *dialog = kiste_preferences_dialog_new (self->manager, self->settings);

  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

static void
kiste_window_exported_action (GtkWidget  *widget,
                              const char *action_name,
                              GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteExportedDialog *dialog = kiste_exported_dialog_new (self->manager);

  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

static void
kiste_window_upgrade_all_action (GtkWidget  *widget,
                                 const char *action_name,
                                 GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  GListModel *boxes = _kiste_window_get_boxes (self);
  guint n = g_list_model_get_n_items (boxes);

  /* Side by side: each box's package manager works on its own */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      kiste_manager_upgrade_async (self->manager, kiste_box_get_ref (box), NULL, NULL, NULL);
    }
  show_tasks_cb (self);
}

static void
kiste_window_settings_changed_cb (KisteWindow *self,
                                  const char  *key)
{
  if (g_strcmp0 (key, "container-manager") == 0)
    kiste_window_load (self);
}

static gboolean
kiste_window_close_request (GtkWindow *window)
{
  KisteWindow *self = KISTE_WINDOW (window);

  if (_kiste_window_confirm_close (self) || _kiste_window_confirm_temporary_close (self))
    return TRUE;

  _kiste_window_save_state (self);
  g_cancellable_cancel (self->cancellable);

  return GTK_WINDOW_CLASS (kiste_window_parent_class)->close_request (window);
}

static void
kiste_window_setup (KisteWindow      *self,
                    KisteApplication *app)
{
  GListModel *tasks;

  self->settings = g_object_ref (kiste_application_get_settings (app));
  self->manager = g_object_ref (kiste_application_get_manager (app));

  _kiste_window_restore_state (self);
  if (DEVELOPMENT_BUILD)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  _kiste_window_list_setup (self);
  g_signal_connect_object (self->selection, "notify::selected-item",
                           G_CALLBACK (kiste_window_selection_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (kiste_window_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (_kiste_window_get_boxes (self), "items-changed",
                           G_CALLBACK (kiste_window_items_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_widget_add_tick_callback (GTK_WIDGET (self), kiste_window_first_tick_cb, NULL, NULL);

  g_signal_connect_object (self->tasks_popover, "show",
                           G_CALLBACK (kiste_window_tasks_popover_show_cb), self, G_CONNECT_DEFAULT);
  g_signal_connect_object (self->status_tasks_popover, "show",
                           G_CALLBACK (kiste_window_tasks_popover_show_cb), self, G_CONNECT_DEFAULT);
  tasks = kiste_manager_get_tasks (self->manager);
  g_signal_connect_object (tasks, "items-changed",
                           G_CALLBACK (kiste_window_tasks_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_search_bar_set_key_capture_widget (self->search_bar, GTK_WIDGET (self->list_view));
  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (kiste_window_settings_changed_cb), self, G_CONNECT_SWAPPED);
  _kiste_window_terminals_setup (self);
  _kiste_window_updates_setup (self);

  /* A window opened once the list has loaded (a tab dragged out) picks
   * its box as the first one did when loading ended */
  if (kiste_box_list_get_loaded (kiste_manager_get_boxes (self->manager)))
    kiste_window_select_initial (self);
  else
    {
      /* The window shows that it loads and starts the listing once that
       * is painted: the probes and the listing are processes that took
       * the CPU the first frame needed (it came 1.4 times as late as a
       * minimal window's) */
      self->loading = TRUE;
      self->load_waits = TRUE;
      _kiste_window_update_state (self);
    }
}

static void
kiste_window_dispose (GObject *object)
{
  KisteWindow *self = KISTE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->import_cancellable);
  g_clear_handle_id (&self->page_idle, g_source_remove);
  g_clear_handle_id (&self->load_idle, g_source_remove);
  g_clear_handle_id (&self->loading_timeout, g_source_remove);
  g_clear_handle_id (&self->select_idle, g_source_remove);
  _kiste_window_updates_dispose (self);
  /* The shells go with their window */
  _kiste_window_terminate_terminals (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_WINDOW);
  self->box_page = NULL;
  g_clear_object (&self->made_page);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->import_cancellable);
  if (self->shown_box != NULL)
    g_signal_handlers_disconnect_by_func (self->shown_box, kiste_window_shown_name_cb, self);
  g_clear_object (&self->shown_box);
  g_clear_object (&self->selection);
  g_clear_object (&self->slice);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->manager);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (kiste_window_parent_class)->dispose (object);
}

static void
kiste_window_finalize (GObject *object)
{
  KisteWindow *self = KISTE_WINDOW (object);

  g_clear_pointer (&self->bound_rows, g_ptr_array_unref);
  g_clear_pointer (&self->terminal_counts, g_hash_table_unref);
  g_clear_pointer (&self->search_text, g_free);
  g_clear_pointer (&self->first_boxes, g_ptr_array_unref);
  g_clear_pointer (&self->os_release_path, g_free);
  g_clear_error (&self->load_error);

  G_OBJECT_CLASS (kiste_window_parent_class)->finalize (object);
}

static void
kiste_window_class_init (KisteWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = kiste_window_dispose;
  object_class->finalize = kiste_window_finalize;

  window_class->close_request = kiste_window_close_request;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, status_menu_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, primary_menu);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, status_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, missing_page);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, install_label);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, install_box);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, install_distrobox_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, split_view);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, search_bar);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, list_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, list_view);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, tasks_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, tasks_popover);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, status_tasks_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, status_tasks_popover);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, content_page);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, content_header);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, page_bin);

  gtk_widget_class_install_action (widget_class, "win.new-box", NULL, kiste_window_new_box_action);
  gtk_widget_class_install_action (widget_class, "win.reload", NULL, kiste_window_reload_action);
  gtk_widget_class_install_action (widget_class, "win.copy-install-command", NULL,
                                   kiste_window_copy_install_command_action);
  gtk_widget_class_install_action (widget_class, "win.search", NULL, kiste_window_search_action);
  gtk_widget_class_install_action (widget_class, "win.delete-box", NULL,
                                   kiste_window_delete_box_action);
  gtk_widget_class_install_action (widget_class, "win.preferences", NULL,
                                   kiste_window_preferences_action);
  gtk_widget_class_install_action (widget_class, "win.exported", NULL, kiste_window_exported_action);
  gtk_widget_class_install_action (widget_class, "win.upgrade-all", NULL,
                                   kiste_window_upgrade_all_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK, "win.new-box", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "win.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.reload", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_E, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.exported", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.exported", NULL);
  /* Bubbling: a focused terminal sees Ctrl+W first (delete a word) */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, GDK_CONTROL_MASK,
                                       "win.preferences", NULL);

  g_type_ensure (KISTE_TYPE_BOX_ROW);
  _kiste_window_class_list_init (klass);
  _kiste_window_class_first_boxes_init (klass);
  _kiste_window_class_terminals_init (klass);
  _kiste_window_class_tools_init (klass);
  _kiste_window_class_import_init (klass);
  _kiste_window_class_boxfile_init (klass);
  _kiste_window_class_try_init (klass);
  _kiste_window_class_updates_init (klass);
}

static void
kiste_window_init (KisteWindow *self)
{
  GtkEventController *controller;
  GtkShortcut *shortcut;

  self->bound_rows = g_ptr_array_new ();
  self->import_cancellable = g_cancellable_new ();
  self->terminal_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  kiste_lazy_menu_attach (self->menu_button, self->primary_menu);
  kiste_lazy_menu_attach (self->status_menu_button, self->primary_menu);

  _kiste_window_terminals_init (self);
  _kiste_window_import_init (self);

  /* Delete deletes the selected box only from the list: in a text field it
   * must keep deleting text */
  controller = gtk_shortcut_controller_new ();
  shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Delete, 0),
                               gtk_named_action_new ("win.delete-box"));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
  gtk_widget_add_controller (GTK_WIDGET (self->list_view), controller);

  _kiste_window_close_init (self);
}
