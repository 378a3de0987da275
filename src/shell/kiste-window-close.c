/* kiste-window-close.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Closing the window and quitting: its size saved, whatever dialog is open
 * closed with it, Ctrl+Q in every dialog. Whether to ask first is
 * kiste-window-terminals.c's and kiste-window-try.c's. */

#include "config.h"

#include "kiste-window-private.h"

/* The window's size, saved when it closes and restored when it opens */

void
_kiste_window_restore_state (KisteWindow *self)
{
  int width = g_settings_get_int (self->settings, "window-width");
  int height = g_settings_get_int (self->settings, "window-height");

  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

void
_kiste_window_save_state (KisteWindow *self)
{
  int width;
  int height;
  gboolean maximized = gtk_window_is_maximized (GTK_WINDOW (self));

  g_settings_delay (self->settings);
  /* A maximized window's size is not the one to restore to */
  if (!maximized)
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized", maximized);
  g_settings_apply (self->settings);
}

/* Closes the window at once, saving its state, with whatever is open on
 * it: a dialog left open would take a close for itself (it closes instead
 * of the window) and keep the app running, also at logout, when nobody is
 * there to close it */
void
_kiste_window_close_now (KisteWindow *self)
{
  AdwDialog *dialog;
  AdwDialog *last = NULL;

  while ((dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (self))) != NULL &&
         dialog != last)
    {
      adw_dialog_force_close (dialog);
      last = dialog;
    }

  _kiste_window_save_state (self);
  g_cancellable_cancel (self->cancellable);
  gtk_window_destroy (GTK_WINDOW (self));
}

/**
 * kiste_window_quit:
 *
 * Closes the window for a quit (Ctrl+Q): asks first only while programs
 * run in its terminals or its temporary boxes would be left, then closes
 * it with whatever dialog is open on it.
 */
void
kiste_window_quit (KisteWindow *self)
{
  g_return_if_fail (KISTE_IS_WINDOW (self));

  if (_kiste_window_confirm_close (self) || _kiste_window_confirm_temporary_close (self))
    return;

  _kiste_window_close_now (self);
}

static void
kiste_window_dialogs_changed_cb (GListModel  *dialogs,
                                 guint        position,
                                 guint        removed,
                                 guint        added,
                                 KisteWindow *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(AdwDialog) dialog = g_list_model_get_item (dialogs, i);
      GtkEventController *controller;

      if (g_object_get_data (G_OBJECT (dialog), "kiste-quit-shortcut") != NULL)
        continue;
      controller = gtk_shortcut_controller_new ();
      gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                            gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_q, GDK_CONTROL_MASK),
                                                              gtk_named_action_new ("app.quit")));
      gtk_widget_add_controller (GTK_WIDGET (dialog), controller);
      g_object_set_data (G_OBJECT (dialog), "kiste-quit-shortcut", controller);
    }
}

void
_kiste_window_close_init (KisteWindow *self)
{
  /* Ctrl+Q quits whatever is open: the keys of a dialog stay in it, so
   * each dialog gets the shortcut too */
  g_signal_connect_object (adw_application_window_get_dialogs (ADW_APPLICATION_WINDOW (self)),
                           "items-changed", G_CALLBACK (kiste_window_dialogs_changed_cb), self, 0);
}
