/* kiste-window-terminals.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* KisteWindow's terminal tabs: beside the pinned tab with the selected
 * box's details, one tab per shell, kept while other boxes are selected. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-color-row.h"
#include "kiste-distro.h"
#include "kiste-manager-terminal.h"
#include "kiste-terminal-tab.h"
#include "kiste-window-private.h"

static AdwTabPage *kiste_window_create_tab_cb (KisteWindow *self);

/* Terminal tabs: beside the details tab, one per shell, kept while other
 * boxes are selected */

void
_kiste_window_update_details_tab (KisteWindow *self)
{
  KisteBox *box = _kiste_window_get_selected_box (self);
  g_autoptr(GIcon) icon = NULL;

  if (self->details_page == NULL)
    return;

  icon = g_themed_icon_new (box ? kiste_distro_icon_name (kiste_box_get_distro_id (box))
                                : "io.github.kiste.Kiste-symbolic");
  adw_tab_page_set_title (self->details_page, box ? kiste_box_get_name (box) : _("Box"));
  adw_tab_page_set_tooltip (self->details_page, _("Details"));
  adw_tab_page_set_icon (self->details_page, icon);
}

static gboolean
state_to_loading (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  g_value_set_boolean (to, g_value_get_int (from) == KISTE_TERMINAL_TAB_STARTING);
  return TRUE;
}

static void
kiste_window_tab_state_cb (KisteTerminalTab *tab,
                           GParamSpec       *pspec,
                           AdwTabPage       *page)
{
  /* An ended shell shows in the tab, not only inside it */
  if (kiste_terminal_tab_get_state (tab) == KISTE_TERMINAL_TAB_EXITED ||
      kiste_terminal_tab_get_state (tab) == KISTE_TERMINAL_TAB_FAILED)
    {
      g_autoptr(GIcon) icon = g_themed_icon_new ("process-stop-symbolic");

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, _("The shell has ended"));
    }
  else
    {
      adw_tab_page_set_indicator_icon (page, NULL);
    }
}

static AdwTabPage *
kiste_window_add_tab (KisteWindow      *self,
                      KisteTerminalTab *tab,
                      AdwTabPage       *after)
{
  AdwTabPage *page;

  if (after != NULL)
    page = adw_tab_view_add_page (self->tab_view, GTK_WIDGET (tab), after);
  else
    page = adw_tab_view_append (self->tab_view, GTK_WIDGET (tab));

  kiste_terminal_set_settings (kiste_terminal_tab_get_terminal (tab), self->settings);
  adw_tab_view_set_selected_page (self->tab_view, page);
  adw_navigation_split_view_set_show_content (self->split_view, TRUE);
  kiste_terminal_tab_start (tab);

  return page;
}

KisteTerminalTab *
kiste_window_open_terminal (KisteWindow *self,
                            const char  *box_name,
                            const char  *cwd)
{
  KisteTerminalTab *tab;

  g_return_val_if_fail (KISTE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (box_name != NULL, NULL);

  tab = kiste_terminal_tab_new (self->manager, KISTE_TERMINAL_TAB_BOX, box_name, cwd);
  kiste_window_add_tab (self, tab, NULL);
  return tab;
}

KisteTerminalTab *
_kiste_window_open_install_tab (KisteWindow *self,
                                const char  *box_name,
                                const char  *package_path)
{
  KisteTerminalTab *tab;

  tab = kiste_terminal_tab_new (self->manager, KISTE_TERMINAL_TAB_BOX, box_name, NULL);
  kiste_terminal_tab_set_package_path (tab, package_path);
  kiste_window_add_tab (self, tab, NULL);
  return tab;
}

AdwTabView *
kiste_window_get_tab_view (KisteWindow *self)
{
  g_return_val_if_fail (KISTE_IS_WINDOW (self), NULL);
  return self->tab_view;
}

static KisteTerminalTab *
kiste_window_get_selected_tab (KisteWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  GtkWidget *child = page ? adw_tab_page_get_child (page) : NULL;

  return KISTE_IS_TERMINAL_TAB (child) ? KISTE_TERMINAL_TAB (child) : NULL;
}

static void
external_terminal_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  AdwDialog *alert;

  if (kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* the reason is often a few sentences: more than a toast holds */
  alert = adw_alert_dialog_new (_("Terminal Not Opened"), error->message);
  adw_alert_dialog_add_response (ADW_ALERT_DIALOG (alert), "close", _("_Close"));
  adw_dialog_present (alert, GTK_WIDGET (self));
}

static void
kiste_window_open_terminal_action (GtkWidget  *widget,
                                   const char *action_name,
                                   GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  const char *name = parameter ? g_variant_get_string (parameter, NULL) : "";
  KisteBox *box;

  if (name[0] == '\0')
    {
      /* Ctrl+T in a terminal tab: the tab's box; elsewhere the selected one */
      KisteTerminalTab *tab = kiste_window_get_selected_tab (self);

      if (tab != NULL && kiste_terminal_tab_get_kind (tab) == KISTE_TERMINAL_TAB_BOX)
        name = kiste_terminal_tab_get_box_name (tab);
      else if ((box = _kiste_window_get_selected_box (self)) != NULL)
        name = kiste_box_get_ref (box);
      else
        return;
    }

  /* The user's own terminal app, when chosen */
  {
    g_autofree char *external = g_settings_get_string (self->settings, "external-terminal");

    if (external[0] != '\0')
      {
        kiste_manager_open_external_terminal_async (self->manager, external, name, NULL,
                                                    self->cancellable, external_terminal_cb,
                                                    g_object_ref (self));
        return;
      }
  }

  kiste_window_open_terminal (self, name, NULL);
}

static void
kiste_window_new_tab_here_action (GtkWidget  *widget,
                                  const char *action_name,
                                  GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteTerminalTab *tab = kiste_window_get_selected_tab (self);
  g_autofree char *dir = NULL;
  KisteTerminalTab *new_tab;

  if (tab == NULL)
    {
      gtk_widget_activate_action (widget, "win.open-terminal", "s", "");
      return;
    }

  dir = kiste_terminal_tab_dup_directory (tab);
  new_tab = kiste_terminal_tab_new (self->manager, kiste_terminal_tab_get_kind (tab),
                                    kiste_terminal_tab_get_box_name (tab), dir);
  kiste_window_add_tab (self, new_tab,
                        adw_tab_view_get_page (self->tab_view, GTK_WIDGET (tab)));
}

static void
kiste_window_host_terminal_here_action (GtkWidget  *widget,
                                        const char *action_name,
                                        GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteTerminalTab *tab = kiste_window_get_selected_tab (self);
  g_autofree char *dir = tab ? kiste_terminal_tab_dup_directory (tab) : NULL;

  kiste_window_add_tab (self,
                        kiste_terminal_tab_new (self->manager, KISTE_TERMINAL_TAB_HOST, NULL, dir),
                        NULL);
}

static void
kiste_window_tab_overview_action (GtkWidget  *widget,
                                  const char *action_name,
                                  GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);

  if (self->tab_overview == NULL)
    {
      g_autoptr(AdwToolbarView) toolbar = g_object_ref (self->content_toolbar);

      self->tab_overview = ADW_TAB_OVERVIEW (adw_tab_overview_new ());
      adw_navigation_page_set_child (self->content_page, NULL);
      adw_tab_overview_set_child (self->tab_overview, GTK_WIDGET (toolbar));
      adw_tab_overview_set_view (self->tab_overview, self->tab_view);
      adw_tab_overview_set_enable_new_tab (self->tab_overview, TRUE);
      g_signal_connect_object (self->tab_overview, "create-tab",
                               G_CALLBACK (kiste_window_create_tab_cb), self, G_CONNECT_SWAPPED);
      adw_navigation_page_set_child (self->content_page, GTK_WIDGET (self->tab_overview));
    }

  adw_tab_overview_set_open (self->tab_overview, !adw_tab_overview_get_open (self->tab_overview));
}

static void
kiste_window_close_tab_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteTerminalTab *tab = kiste_window_get_selected_tab (self);

  if (tab != NULL)
    adw_tab_view_close_page (self->tab_view,
                             adw_tab_view_get_page (self->tab_view, GTK_WIDGET (tab)));
}

static AdwTabPage *
kiste_window_create_tab_cb (KisteWindow *self)
{
  KisteBox *box = _kiste_window_get_selected_box (self);
  KisteTerminalTab *tab;

  /* The overview's "New Tab": a shell in the selected box, or the host */
  if (box != NULL)
    tab = kiste_terminal_tab_new (self->manager, KISTE_TERMINAL_TAB_BOX, kiste_box_get_name (box), NULL);
  else
    tab = kiste_terminal_tab_new (self->manager, KISTE_TERMINAL_TAB_HOST, NULL, NULL);

  return kiste_window_add_tab (self, tab, NULL);
}

static void
close_page_response_cb (AdwAlertDialog *dialog,
                        GAsyncResult   *result,
                        gpointer        user_data)
{
  g_autoptr(AdwTabPage) page = user_data;
  const char *response = adw_alert_dialog_choose_finish (dialog, result);
  GtkWidget *view = gtk_widget_get_ancestor (adw_tab_page_get_child (page), ADW_TYPE_TAB_VIEW);

  if (view == NULL)
    return;

  if (g_strcmp0 (response, "close") == 0 && KISTE_IS_TERMINAL_TAB (adw_tab_page_get_child (page)))
    {
      GtkWidget *window = gtk_widget_get_ancestor (view, KISTE_TYPE_WINDOW);

      kiste_terminal_tab_terminate (KISTE_TERMINAL_TAB (adw_tab_page_get_child (page)));
      if (window != NULL)
        _kiste_window_terminal_closing (KISTE_WINDOW (window), adw_tab_page_get_child (page));
    }
  adw_tab_view_close_page_finish (ADW_TAB_VIEW (view), page, g_strcmp0 (response, "close") == 0);
}

static gboolean
kiste_window_close_page_cb (KisteWindow *self,
                            AdwTabPage  *page)
{
  GtkWidget *child = adw_tab_page_get_child (page);
  AdwDialog *dialog;

  /* The details stay */
  if (page == self->details_page)
    {
      adw_tab_view_close_page_finish (self->tab_view, page, FALSE);
      return GDK_EVENT_STOP;
    }

  if (!KISTE_IS_TERMINAL_TAB (child))
    return GDK_EVENT_PROPAGATE;

  if (!kiste_terminal_tab_has_foreground_process (KISTE_TERMINAL_TAB (child)))
    {
      kiste_terminal_tab_terminate (KISTE_TERMINAL_TAB (child));
      _kiste_window_terminal_closing (self, child);
      return GDK_EVENT_PROPAGATE;
    }

  dialog = adw_alert_dialog_new (_("Close Terminal?"),
                                 _("A program is still running in this terminal. Closing it ends the program."));
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                  "cancel", _("_Cancel"),
                                  "close", _("C_lose"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "close",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) close_page_response_cb, g_object_ref (page));

  return GDK_EVENT_STOP;
}

static AdwTabView *
kiste_window_create_window_cb (KisteWindow *self)
{
  KisteApplication *app = KISTE_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  KisteWindow *window;

  if (app == NULL)
    return NULL;

  /* A tab dragged out of the window gets one of its own */
  window = kiste_window_new (app);
  gtk_window_present (GTK_WINDOW (window));
  return window->tab_view;
}

static void
kiste_window_count_terminal (KisteWindow *self,
                             AdwTabPage  *page,
                             int          delta)
{
  GtkWidget *child = adw_tab_page_get_child (page);
  const char *name;
  guint count;

  if (!KISTE_IS_TERMINAL_TAB (child) ||
      kiste_terminal_tab_get_kind (KISTE_TERMINAL_TAB (child)) != KISTE_TERMINAL_TAB_BOX)
    return;

  name = kiste_terminal_tab_get_box_name (KISTE_TERMINAL_TAB (child));
  count = GPOINTER_TO_UINT (g_hash_table_lookup (self->terminal_counts, name));
  count = delta > 0 ? count + 1 : (count > 0 ? count - 1 : 0);
  if (count > 0)
    g_hash_table_replace (self->terminal_counts, g_strdup (name), GUINT_TO_POINTER (count));
  else
    g_hash_table_remove (self->terminal_counts, name);

  _kiste_window_update_rows_for (self, name);
}

/* A box's colour tints its terminal tabs */
static void
kiste_window_apply_tint (KisteWindow      *self,
                         KisteTerminalTab *tab)
{
  GdkRGBA color;

  if (kiste_terminal_tab_get_kind (tab) == KISTE_TERMINAL_TAB_BOX &&
      kiste_box_color_lookup (self->settings, kiste_terminal_tab_get_box_name (tab), &color))
    kiste_terminal_tab_set_tint (tab, &color);
  else
    kiste_terminal_tab_set_tint (tab, NULL);
}

static void
kiste_window_box_colors_changed_cb (KisteWindow *self)
{
  int n = adw_tab_view_get_n_pages (self->tab_view);

  for (int i = 0; i < n; i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (KISTE_IS_TERMINAL_TAB (child))
        kiste_window_apply_tint (self, KISTE_TERMINAL_TAB (child));
    }
}

/* The pinned details tab alone needs no tab bar */
static void
kiste_window_update_tab_bar (KisteWindow *self)
{
  /* pages also leave while the window goes */
  if (self->tab_view == NULL || self->tab_bar == NULL || self->tab_button == NULL)
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->tab_bar),
                          adw_tab_view_get_n_pages (self->tab_view) > 1);
  gtk_widget_set_visible (self->tab_button, adw_tab_view_get_n_pages (self->tab_view) > 1);
}

static void
kiste_window_page_attached_cb (KisteWindow *self,
                               AdwTabPage  *page,
                               int          position)
{
  GtkWidget *child = adw_tab_page_get_child (page);
  GPtrArray *bindings;

  kiste_window_update_tab_bar (self);

  if (!KISTE_IS_TERMINAL_TAB (child))
    return;

  /* The page follows its tab, in whichever window it is; a page moved to
   * another window is bound again there */
  bindings = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (bindings, g_object_bind_property (child, "title", page, "title",
                                                     G_BINDING_SYNC_CREATE));
  g_ptr_array_add (bindings, g_object_bind_property (child, "title", page, "tooltip",
                                                     G_BINDING_SYNC_CREATE));
  g_ptr_array_add (bindings, g_object_bind_property (child, "icon", page, "icon",
                                                     G_BINDING_SYNC_CREATE));
  g_ptr_array_add (bindings, g_object_bind_property (child, "needs-attention",
                                                     page, "needs-attention",
                                                     G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL));
  g_ptr_array_add (bindings, g_object_bind_property_full (child, "state", page, "loading",
                                                          G_BINDING_SYNC_CREATE,
                                                          state_to_loading, NULL, NULL, NULL));
  /* Our own references: unbinding later must not touch freed bindings */
  for (guint i = 0; i < bindings->len; i++)
    g_object_ref (g_ptr_array_index (bindings, i));
  g_object_set_data_full (G_OBJECT (page), "kiste-bindings", bindings,
                          (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (child, "notify::state", G_CALLBACK (kiste_window_tab_state_cb), page, 0);
  kiste_window_tab_state_cb (KISTE_TERMINAL_TAB (child), NULL, page);
  if (self->settings != NULL)
    kiste_window_apply_tint (self, KISTE_TERMINAL_TAB (child));

  kiste_window_count_terminal (self, page, +1);
}

static void
kiste_window_page_detached_cb (KisteWindow *self,
                               AdwTabPage  *page,
                               int          position)
{
  GtkWidget *child = adw_tab_page_get_child (page);

  kiste_window_update_tab_bar (self);
  if (KISTE_IS_TERMINAL_TAB (child))
    {
      GPtrArray *bindings = g_object_get_data (G_OBJECT (page), "kiste-bindings");

      g_signal_handlers_disconnect_by_func (child, kiste_window_tab_state_cb, page);
      for (guint i = 0; bindings != NULL && i < bindings->len; i++)
        g_binding_unbind (g_ptr_array_index (bindings, i));
      g_object_set_data (G_OBJECT (page), "kiste-bindings", NULL);
    }

  kiste_window_count_terminal (self, page, -1);
}

/* The header names what is on screen: the box of the details, or the tab */
static void
kiste_window_update_content_title (KisteWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);
  KisteBox *box = _kiste_window_get_selected_box (self);

  if (page != NULL && page != self->details_page)
    adw_navigation_page_set_title (self->content_page, adw_tab_page_get_title (page));
  else
    adw_navigation_page_set_title (self->content_page, box ? kiste_box_get_name (box) : _("Box"));
}

static void
kiste_window_selected_page_cb (KisteWindow *self)
{
  AdwTabPage *page;
  int n;

  if (self->tab_view == NULL)
    return;

  page = adw_tab_view_get_selected_page (self->tab_view);
  n = adw_tab_view_get_n_pages (self->tab_view);

  /* Only the selected page's title matters to the header */
  for (int i = 0; i < n; i++)
    g_signal_handlers_disconnect_by_func (adw_tab_view_get_nth_page (self->tab_view, i),
                                          kiste_window_update_content_title, self);
  if (page != NULL)
    {
      adw_tab_page_set_needs_attention (page, FALSE);
      g_signal_connect_object (page, "notify::title",
                               G_CALLBACK (kiste_window_update_content_title), self,
                               G_CONNECT_SWAPPED);
    }
  kiste_window_update_content_title (self);
}

/* TRUE when a tab of this window runs a program that closing would end */
static gboolean
kiste_window_has_running_programs (KisteWindow *self)
{
  int n = adw_tab_view_get_n_pages (self->tab_view);

  for (int i = 0; i < n; i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (KISTE_IS_TERMINAL_TAB (child) &&
          kiste_terminal_tab_has_foreground_process (KISTE_TERMINAL_TAB (child)))
        return TRUE;
    }

  return FALSE;
}

static void
close_window_response_cb (AdwAlertDialog *dialog,
                          GAsyncResult   *result,
                          gpointer        user_data)
{
  g_autoptr(KisteWindow) self = user_data;

  if (g_strcmp0 (adw_alert_dialog_choose_finish (dialog, result), "close") == 0)
    {
      self->close_confirmed = TRUE;
      kiste_window_quit (self);
    }
}

/**
 * kiste_window_close_without_asking:
 *
 * Closes the window even while programs run in its terminals, for a quit
 * nobody is there to confirm (SIGTERM, SIGINT). The shells still end in
 * their boxes, as on any close.
 */
void
kiste_window_close_without_asking (KisteWindow *self)
{
  g_return_if_fail (KISTE_IS_WINDOW (self));

  self->close_confirmed = TRUE;
  self->temporary_close_asked = TRUE;
  _kiste_window_close_now (self);
}

gboolean
_kiste_window_confirm_close (KisteWindow *self)
{
  AdwDialog *dialog;

  if (self->close_confirmed || !kiste_window_has_running_programs (self))
    return FALSE;

  dialog = adw_alert_dialog_new (_("Close Window?"),
                                 _("Programs are still running in terminals of this window. Closing the window ends them."));
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                  "cancel", _("_Cancel"),
                                  "close", _("C_lose Window"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "close",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) close_window_response_cb, g_object_ref (self));
  return TRUE;
}


guint
_kiste_window_get_terminal_count (KisteWindow *self,
                                  const char  *box_name)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->terminal_counts, box_name));
}

void
_kiste_window_terminate_terminals (KisteWindow *self)
{
  if (self->tab_view == NULL)
    return;

  for (int i = 0; i < adw_tab_view_get_n_pages (self->tab_view); i++)
    {
      GtkWidget *child = adw_tab_page_get_child (adw_tab_view_get_nth_page (self->tab_view, i));

      if (KISTE_IS_TERMINAL_TAB (child))
        kiste_terminal_tab_terminate (KISTE_TERMINAL_TAB (child));
    }
}

void
_kiste_window_terminals_setup (KisteWindow *self)
{
  g_signal_connect_object (self->settings, "changed::box-colors",
                           G_CALLBACK (kiste_window_box_colors_changed_cb), self, G_CONNECT_SWAPPED);
}

void
_kiste_window_terminals_init (KisteWindow *self)
{
  GtkEventController *controller;
  GtkShortcut *shortcut;

  self->details_page = adw_tab_view_get_page (self->tab_view, GTK_WIDGET (self->content_stack));
  adw_tab_view_set_page_pinned (self->tab_view, self->details_page, TRUE);
  _kiste_window_update_details_tab (self);

  /* Before a terminal sees them: these keys are the window's */
  controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  {
    static const struct { guint key; GdkModifierType mods; const char *action; const char *arg; } keys[] = {
      { GDK_KEY_t, GDK_CONTROL_MASK, "win.open-terminal", "" },
      { GDK_KEY_T, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.new-tab-here", NULL },
      { GDK_KEY_t, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.new-tab-here", NULL },
      { GDK_KEY_O, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.tab-overview", NULL },
      { GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.tab-overview", NULL },
      { GDK_KEY_W, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.close-tab", NULL },
      { GDK_KEY_w, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.close-tab", NULL },
    };

    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      {
        GtkShortcutAction *action = gtk_named_action_new (keys[i].action);

        shortcut = gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, keys[i].mods), action);
        if (keys[i].arg != NULL)
          gtk_shortcut_set_arguments (shortcut, g_variant_new_string (keys[i].arg));
        gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller), shortcut);
      }
  }
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
_kiste_window_class_terminals_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_child (widget_class, KisteWindow, content_toolbar);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, tab_button);
  gtk_widget_class_bind_template_child (widget_class, KisteWindow, tab_view);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_close_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_create_window_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_page_attached_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_page_detached_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_selected_page_cb);
  gtk_widget_class_install_action (widget_class, "win.open-terminal", "s",
                                   kiste_window_open_terminal_action);
  gtk_widget_class_install_action (widget_class, "win.new-tab-here", NULL,
                                   kiste_window_new_tab_here_action);
  gtk_widget_class_install_action (widget_class, "win.host-terminal-here", NULL,
                                   kiste_window_host_terminal_here_action);
  gtk_widget_class_install_action (widget_class, "win.tab-overview", NULL,
                                   kiste_window_tab_overview_action);
  gtk_widget_class_install_action (widget_class, "win.close-tab", NULL,
                                   kiste_window_close_tab_action);

  g_type_ensure (KISTE_TYPE_TERMINAL_TAB);
}
