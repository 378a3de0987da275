/* kiste-window-tools.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* When the host has no distrobox: the copy the Flatpak carries, offered on
 * the missing-tools page and put in place after asking; with Toolbx alone,
 * offered too where something needs distrobox (Try an Image, manifests). */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-window-private.h"

void
_kiste_window_update_install_distrobox (KisteWindow *self,
                                        gboolean     no_distrobox)
{
  const char *version = kiste_manager_get_bundled_distrobox_version (self->manager);
  g_autofree char *label = NULL;

  gtk_widget_set_visible (self->install_distrobox_button, no_distrobox && version != NULL);
  if (version == NULL)
    return;

  /* Translators: the version of distrobox that Kiste carries */
  label = g_strdup_printf (_("_Use Distrobox %s From Kiste…"), version);
  gtk_button_set_label (GTK_BUTTON (self->install_distrobox_button), label);
}

static void
installed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  AdwToast *toast;

  gtk_widget_set_sensitive (self->install_distrobox_button, TRUE);
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      toast = adw_toast_new (error->message);
      adw_toast_set_use_markup (toast, FALSE);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
      return;
    }

  toast = adw_toast_new (_("Distrobox is ready"));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.reload", NULL);
}

static void confirm_response_cb (AdwAlertDialog *dialog,
                                 GAsyncResult   *result,
                                 gpointer        user_data);

gboolean
_kiste_window_is_toolbx_only (KisteWindow *self)
{
  KisteCapabilities *caps = kiste_manager_get_capabilities (self->manager);

  return kiste_capabilities_get_loaded (caps) && !kiste_capabilities_has_distrobox (caps) &&
         kiste_capabilities_has_toolbox (caps);
}

gboolean
_kiste_window_check_distrobox (KisteWindow *self,
                               const char  *why)
{
  const char *version = kiste_manager_get_bundled_distrobox_version (self->manager);
  g_autofree char *body = NULL;
  AdwDialog *alert;

  if (!_kiste_window_is_toolbx_only (self))
    return TRUE;

  if (version != NULL)
    /* Translators: after what needs distrobox; %s is the version Kiste carries */
    body = g_strdup_printf (_("%s Kiste can use its own copy of distrobox %s, which changes "
                              "nothing else on this computer. Installing distrobox from your "
                              "system is still the better choice."),
                            why, version);
  else
    body = g_strdup_printf (_("%s Install distrobox from your system, then try again."), why);

  alert = adw_alert_dialog_new (_("Distrobox Is Needed"), body);
  if (version != NULL)
    {
      adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (alert),
                                      "cancel", _("_Cancel"),
                                      "install", _("_Use Kiste’s Copy"),
                                      NULL);
      adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), "install",
                                                ADW_RESPONSE_SUGGESTED);
      adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (alert), "install");
    }
  else
    adw_alert_dialog_add_response (ADW_ALERT_DIALOG (alert), "cancel", _("_Close"));
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");
  /* the same way to Kiste's copy as from the missing-tools page */
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (alert), GTK_WIDGET (self), self->cancellable,
                           (GAsyncReadyCallback) confirm_response_cb, g_object_ref (self));
  return FALSE;
}

void
_kiste_window_distrobox_needed_cb (KisteWindow *self)
{
  _kiste_window_check_distrobox (self, _("Isolation, a home folder of the box’s own and the other "
                                         "options of New Box need distrobox."));
}

static void
confirm_response_cb (AdwAlertDialog *dialog,
                     GAsyncResult   *result,
                     gpointer        user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  const char *response = adw_alert_dialog_choose_finish (dialog, result);

  if (g_strcmp0 (response, "install") != 0)
    return;

  gtk_widget_set_sensitive (self->install_distrobox_button, FALSE);
  kiste_manager_install_distrobox_async (self->manager, self->cancellable,
                                         installed_cb, g_object_ref (self));
}

static void
install_distrobox_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  const char *version = kiste_manager_get_bundled_distrobox_version (self->manager);
  g_autofree char *heading = NULL;
  AdwDialog *alert;

  if (version == NULL)
    return;

  heading = g_strdup_printf (_("Use Distrobox %s From Kiste?"), version);
  alert = adw_alert_dialog_new (heading,
                                _("Kiste puts its copy of distrobox in its own data folder and "
                                  "uses it while this computer has none. Nothing else on this "
                                  "computer changes. The distrobox command in a terminal is not "
                                  "affected; installing distrobox from your system is still the "
                                  "better choice."));
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (alert),
                                  "cancel", _("_Cancel"),
                                  "install", _("_Use Kiste’s Copy"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), "install",
                                            ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (alert), "install");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (alert), GTK_WIDGET (self), self->cancellable,
                           (GAsyncReadyCallback) confirm_response_cb, g_object_ref (self));
}

void
_kiste_window_class_tools_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.install-distrobox", NULL,
                                   install_distrobox_action);
}
