/* kiste-window-try.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Try an Image: a temporary box (labelled, see kiste-box.h), a terminal tab
 * in it once it runs, and its removal after people agree when its last tab
 * closes, counted over every window of the app. Temporary boxes left by a
 * Kiste that quit or crashed are offered for removal once the list is first
 * shown. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-create-dialog.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-terminal-tab.h"
#include "kiste-window-private.h"

static void
kiste_window_tried_cb (KisteWindow *self,
                       const char  *name)
{
  _kiste_window_created_cb (self, name);
  kiste_window_open_terminal (self, name, NULL);
}

static void
kiste_window_try_image_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  KisteCreateDialog *dialog;

  /* distrobox's: Toolbx has no temporary boxes */
  if (!_kiste_window_check_distrobox (self, _("Trying an image needs distrobox, which this "
                                              "computer does not have.")))
    return;

  dialog = kiste_create_dialog_new (self->manager);
  kiste_create_dialog_set_temporary (dialog);
  g_signal_connect_object (dialog, "created", G_CALLBACK (kiste_window_tried_cb), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

static void
delete_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The window toasts every task's outcome */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Removing a temporary box failed: %s", error->message);
}

static void
remove_response_cb (AdwAlertDialog *dialog,
                    GAsyncResult   *result,
                    gpointer        user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  const char *response = adw_alert_dialog_choose_finish (dialog, result);
  GStrv names = g_object_get_data (G_OBJECT (dialog), "kiste-box-names");

  if (g_strcmp0 (response, "remove") == 0 && self->manager != NULL)
    {
      /* the manager is the app's: the removal goes on after this window */
      for (guint i = 0; names != NULL && names[i] != NULL; i++)
        kiste_manager_delete_async (self->manager, names[i], FALSE, NULL, delete_done_cb, NULL);
    }

  if (g_object_get_data (G_OBJECT (dialog), "kiste-then-close") != NULL)
    {
      self->temporary_close_asked = TRUE;
      kiste_window_quit (self);
    }
}

/* Asks whether to remove the temporary boxes names (Keep is the default);
 * then_close: the window closes after the answer */
static void
kiste_window_offer_removal (KisteWindow        *self,
                            const char * const *names,
                            gboolean            then_close)
{
  guint n = g_strv_length ((GStrv) names);
  AdwDialog *dialog;
  g_autofree char *body = NULL;
  g_autofree char *list = NULL;

  if (n == 0)
    return;

  if (n == 1)
    body = g_strdup_printf (_("“%s” was made to try an image. Removing it deletes everything "
                              "that was changed in it."), names[0]);
  else
    {
      list = g_strjoinv (", ", (GStrv) names);
      body = g_strdup_printf (_("Boxes made to try an image are still here: %s. Removing them "
                                "deletes everything that was changed in them."), list);
    }

  dialog = adw_alert_dialog_new (g_dngettext (GETTEXT_PACKAGE, "Remove Temporary Box?",
                                              "Remove Temporary Boxes?", n),
                                 body);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                  "keep", _("_Keep"),
                                  "remove", _("_Remove"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), "remove",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), "keep");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "keep");
  g_object_set_data_full (G_OBJECT (dialog), "kiste-box-names",
                          g_strdupv ((GStrv) names), (GDestroyNotify) g_strfreev);
  if (then_close)
    g_object_set_data (G_OBJECT (dialog), "kiste-then-close", GINT_TO_POINTER (TRUE));
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) remove_response_cb, g_object_ref (self));
}

/* The terminal tabs of box_name in every window of the app: tabs can be
 * dragged from one window into another */
static guint
kiste_window_count_app_terminals (KisteWindow *self,
                                  const char  *box_name)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  guint count = 0;
  gboolean seen_self = FALSE;

  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    {
      if (!KISTE_IS_WINDOW (l->data))
        continue;
      seen_self |= l->data == (gpointer) self;
      count += _kiste_window_get_terminal_count (KISTE_WINDOW (l->data), box_name);
    }

  /* a window on its way out may have left the application already */
  if (!seen_self)
    count += _kiste_window_get_terminal_count (self, box_name);

  return count;
}

void
_kiste_window_terminal_closing (KisteWindow *self,
                                GtkWidget   *child)
{
  KisteTerminalTab *tab;
  KisteBox *box;
  const char *name;
  const char *names[2] = { NULL, NULL };

  if (!KISTE_IS_TERMINAL_TAB (child))
    return;

  tab = KISTE_TERMINAL_TAB (child);
  if (kiste_terminal_tab_get_kind (tab) != KISTE_TERMINAL_TAB_BOX)
    return;

  name = kiste_terminal_tab_get_box_name (tab);
  box = kiste_box_list_find (kiste_manager_get_boxes (self->manager), name);
  /* Only the last tab of the box in the whole app asks (the closing one
   * still counts) */
  if (box == NULL || !kiste_box_get_temporary (box) ||
      kiste_window_count_app_terminals (self, name) > 1)
    return;

  names[0] = name;
  kiste_window_offer_removal (self, names, FALSE);
}

/* A window closing with the last tabs of temporary boxes while another
 * window stays asks first, as closing those tabs would; when the last
 * window goes, the next start asks */
gboolean
_kiste_window_confirm_temporary_close (KisteWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GListModel *boxes;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) names = NULL;
  gboolean other_window = FALSE;

  if (self->temporary_close_asked || self->manager == NULL)
    return FALSE;

  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    other_window |= l->data != (gpointer) self && KISTE_IS_WINDOW (l->data);
  if (!other_window)
    return FALSE;

  boxes = G_LIST_MODEL (kiste_manager_get_boxes (self->manager));
  builder = g_strv_builder_new ();
  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);
      const char *name = kiste_box_get_name (box);
      guint here = _kiste_window_get_terminal_count (self, name);

      if (kiste_box_get_temporary (box) && here > 0 &&
          kiste_window_count_app_terminals (self, name) == here)
        g_strv_builder_add (builder, name);
    }
  names = g_strv_builder_end (builder);
  if (names[0] == NULL)
    return FALSE;

  kiste_window_offer_removal (self, (const char * const *) names, TRUE);
  return TRUE;
}

void
_kiste_window_check_temporary_boxes (KisteWindow *self)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (self->manager));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;

  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->temporary_checked)
    return;
  self->temporary_checked = TRUE;

  /* A window made while another one is open (a tab dragged out) does not
   * know the other's tabs: that one looked already */
  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    {
      if (l->data != self && KISTE_IS_WINDOW (l->data))
        return;
    }

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      if (kiste_box_get_temporary (box) &&
          _kiste_window_get_terminal_count (self, kiste_box_get_name (box)) == 0)
        g_strv_builder_add (builder, kiste_box_get_name (box));
    }

  names = g_strv_builder_end (builder);
  kiste_window_offer_removal (self, (const char * const *) names, FALSE);
}

void
_kiste_window_class_try_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.try-image", NULL,
                                   kiste_window_try_image_action);
}
