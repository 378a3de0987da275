/* kiste-window-install.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Install a Package File: a .deb, .rpm, .pkg.tar.zst or .apk dropped on
 * the window or opened with Kiste goes into a box whose package manager
 * takes it, chosen by people, in a terminal tab where sudo can ask. Dropped
 * on a box (its row or its page), it goes into that box if it can. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-package-file.h"
#include "kiste-terminal-tab.h"
#include "kiste-window-private.h"

static void
choose_box_cb (AdwAlertDialog *dialog,
               GAsyncResult   *result,
               gpointer        user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  const char *response = adw_alert_dialog_choose_finish (dialog, result);
  const char *path = g_object_get_data (G_OBJECT (dialog), "kiste-package-path");

  if (response == NULL || g_str_equal (response, "cancel") || self->manager == NULL)
    return;

  _kiste_window_open_install_tab (self, response, path);
}

static void
store_loaded_cb (KisteWindow   *self,
                 GParamSpec    *pspec,
                 KisteBoxList *store)
{
  GPtrArray *pending;

  if (!kiste_box_list_get_loaded (store))
    return;

  g_signal_handlers_disconnect_by_func (store, store_loaded_cb, self);
  pending = g_object_steal_data (G_OBJECT (self), "kiste-pending-packages");
  for (guint i = 0; pending != NULL && i < pending->len; i++)
    kiste_window_install_package_file (self, g_ptr_array_index (pending, i));
  g_clear_pointer (&pending, g_ptr_array_unref);
}

void
kiste_window_install_package_file (KisteWindow *self,
                                   GFile       *file)
{
  kiste_window_install_package_file_in (self, file, NULL);
}

/* The boxes that can take kind, in the dialog as responses; how many */
static guint
add_fitting_boxes (AdwAlertDialog   *dialog,
                   GListModel       *boxes,
                   KistePackageKind  kind)
{
  guint n_fitting = 0;

  /* stacked, the last response shows first: backwards, they read as the list */
  for (guint i = g_list_model_get_n_items (boxes); i > 0; i--)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i - 1);

      if (!kiste_package_file_fits_box (kind, box))
        continue;
      /* the box's name as it is: no mnemonic in it */
      adw_alert_dialog_add_response (dialog, kiste_box_get_name (box), kiste_box_get_name (box));
      n_fitting++;
    }

  return n_fitting;
}

/**
 * kiste_window_install_package_file_in:
 * @box_name: (nullable): the box the file was dropped on
 *
 * Offers to install @file. With @box_name (a drop on a box's row or page),
 * a box whose package manager takes the file is the only one offered; one
 * that does not is named as such, and the boxes that can are offered
 * instead. Without, every box that can take the file is offered.
 */
void
kiste_window_install_package_file_in (KisteWindow *self,
                                      GFile       *file,
                                      const char  *box_name)
{
  KisteBoxList *store;

  g_autofree char *path = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *body = NULL;
  KistePackageKind kind;
  KisteBox *target = NULL;
  AdwDialog *dialog;
  guint n_fitting = 0;

  g_return_if_fail (KISTE_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  /* Opened with Kiste: the boxes are not listed yet */
  store = kiste_manager_get_boxes (self->manager);
  if (!kiste_box_list_get_loaded (store))
    {
      GPtrArray *pending = g_object_get_data (G_OBJECT (self), "kiste-pending-packages");

      if (pending == NULL)
        {
          pending = g_ptr_array_new_with_free_func (g_object_unref);
          g_object_set_data_full (G_OBJECT (self), "kiste-pending-packages", pending,
                                  (GDestroyNotify) g_ptr_array_unref);
          g_signal_connect_object (store, "notify::loaded", G_CALLBACK (store_loaded_cb), self,
                                   G_CONNECT_SWAPPED);
        }
      g_ptr_array_add (pending, g_object_ref (file));
      return;
    }

  path = g_file_get_path (file);
  basename = g_file_get_basename (file);
  kind = kiste_package_file_kind_for_path (path);
  if (path == NULL || kind == KISTE_PACKAGE_NONE)
    {
      g_autofree char *title = g_strdup_printf (_("“%s” is not a package file Kiste can install"),
                                                basename ? basename : "");

      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
      return;
    }

  if (box_name != NULL)
    target = kiste_box_list_find (store, box_name);

  if (target != NULL && kiste_package_file_fits_box (kind, target))
    {
      /* Dropped on a box that takes it: that box, no choice to make */
      body = g_strdup_printf (_("“%s” will be installed in “%s”. Its package manager may ask for "
                                "your password."), basename, kiste_box_get_name (target));
      dialog = adw_alert_dialog_new (_("Install Package File?"), body);
      adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (dialog),
                                      "cancel", _("_Cancel"),
                                      kiste_box_get_name (target), _("_Install"),
                                      NULL);
      adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (dialog), kiste_box_get_name (target),
                                                ADW_RESPONSE_SUGGESTED);
      adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (dialog), kiste_box_get_name (target));
      n_fitting = 1;
    }
  else if (target != NULL)
    {
      /* Dropped on a box that cannot take it: say so, offer those that can */
      body = g_strdup_printf (_("“%s” cannot install “%s”: its package manager takes other files. "
                                "Choose a box that can. Its package manager may ask for your password."),
                              kiste_box_get_name (target), basename);
      dialog = adw_alert_dialog_new (_("Install in Another Box?"), body);
      adw_alert_dialog_add_response (ADW_ALERT_DIALOG (dialog), "cancel", _("_Cancel"));
      n_fitting = add_fitting_boxes (ADW_ALERT_DIALOG (dialog), G_LIST_MODEL (store), kind);
    }
  else
    {
      body = g_strdup_printf (_("Choose the box to install “%s” in. Its package manager may ask for "
                                "your password."), basename);
      dialog = adw_alert_dialog_new (_("Install Package File?"), body);
      adw_alert_dialog_add_response (ADW_ALERT_DIALOG (dialog), "cancel", _("_Cancel"));
      n_fitting = add_fitting_boxes (ADW_ALERT_DIALOG (dialog), G_LIST_MODEL (store), kind);
    }

  if (n_fitting == 0)
    {
      g_autofree char *title = NULL;

      if (target != NULL)
        title = g_strdup_printf (_("“%s” cannot install “%s”, and no other box can: their package "
                                   "managers take other files"),
                                 kiste_box_get_name (target), basename);
      else
        title = g_strdup_printf (_("No box can install “%s”: its package manager takes other files"),
                                 basename);

      g_object_ref_sink (dialog);
      g_object_unref (dialog);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
      return;
    }

  adw_alert_dialog_set_prefer_wide_layout (ADW_ALERT_DIALOG (dialog), FALSE);
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "kiste-package-path", g_steal_pointer (&path), g_free);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           (GAsyncReadyCallback) choose_box_cb, g_object_ref (self));
}
