/* kiste-window-leftovers.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a Kiste that was killed while it made a box again left behind,
 * found once the boxes are listed: one question per box, to finish or
 * undo it, or to ask again at the next start. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-manager-snapshots.h"
#include "kiste-window-private.h"

typedef struct
{
  KisteWindow *self;
  GPtrArray   *leftovers;
  guint        next;
} Leftovers;

static void
leftovers_free (Leftovers *leftovers)
{
  g_clear_object (&leftovers->self);
  g_ptr_array_unref (leftovers->leftovers);
  g_free (leftovers);
}

static void ask_next (Leftovers *leftovers);

static void
resolved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* the window toasts the outcome */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Could not resolve what was left: %s", error->message);
}

static void
answered_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Leftovers *leftovers = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteLeftover *leftover = g_ptr_array_index (leftovers->leftovers, leftovers->next - 1);

  if (g_str_equal (response, "finish") || g_str_equal (response, "undo") || g_str_equal (response, "forget"))
    kiste_manager_resolve_leftover_async (leftovers->self->manager, leftover->journal->engine,
                                          leftover->journal->box_name, g_str_equal (response, "finish"),
                                          resolved_cb, NULL);
  ask_next (leftovers);
}

static void
ask_next (Leftovers *leftovers)
{
  KisteLeftover *leftover;
  const char *name;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;

  if (leftovers->next >= leftovers->leftovers->len ||
      !gtk_widget_get_mapped (GTK_WIDGET (leftovers->self)))
    {
      leftovers_free (leftovers);
      return;
    }

  leftover = g_ptr_array_index (leftovers->leftovers, leftovers->next++);
  name = leftover->journal->box_name;
  /* the name is in the body, which breaks long names; a heading does not */
  heading = g_strdup (_("A Box Was Not Finished"));
  switch (leftover->state)
    {
    case KISTE_LEFTOVER_BOX_AND_SNAPSHOT:
      body = g_strdup_printf (_("Kiste ended while it made “%s” again. The box is as it was, and a snapshot "
                                "of it was taken.\n\nFinish makes the box again now; Undo keeps it as it "
                                "is."), name);
      break;

    case KISTE_LEFTOVER_SNAPSHOT_ONLY:
      body = g_strdup_printf (_("Kiste ended while it made “%s” again: the box was removed, its snapshot "
                                "is there.\n\nFinish makes the box from its image; Undo restores it from "
                                "the snapshot."), name);
      break;

    case KISTE_LEFTOVER_NEW_BOX:
      body = g_strdup_printf (_("Kiste ended while it made “%s” again: the new box is there, and the "
                                "snapshot of the old one.\n\nFinish keeps the new box; Undo restores the "
                                "old one from the snapshot."), name);
      break;

    case KISTE_LEFTOVER_LOST:
    case KISTE_LEFTOVER_NONE:
    default:
      body = g_strdup_printf (_("Kiste ended while it made “%s” again, and neither the box nor its snapshot "
                                "is left. Nothing can be restored."), name);
      break;
    }

  dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading, body));
  if (leftover->state == KISTE_LEFTOVER_LOST || leftover->state == KISTE_LEFTOVER_NONE)
    {
      adw_alert_dialog_add_responses (dialog, "forget", _("_OK"), NULL);
      adw_alert_dialog_set_close_response (dialog, "forget");
    }
  else
    {
      adw_alert_dialog_add_responses (dialog,
                                      "later", _("_Ask Later"),
                                      "undo", _("_Undo"),
                                      "finish", _("_Finish"),
                                      NULL);
      adw_alert_dialog_set_response_appearance (dialog, "finish", ADW_RESPONSE_SUGGESTED);
      adw_alert_dialog_set_default_response (dialog, "later");
      adw_alert_dialog_set_close_response (dialog, "later");
    }
  adw_alert_dialog_choose (dialog, GTK_WIDGET (leftovers->self), NULL, answered_cb, leftovers);
}

static void
found_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(KisteWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  GPtrArray *found;
  Leftovers *leftovers;

  if (!(found = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error)))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Could not look for what was left: %s", error->message);
      return;
    }
  if (found->len == 0)
    {
      g_ptr_array_unref (found);
      return;
    }

  leftovers = g_new0 (Leftovers, 1);
  leftovers->self = g_object_ref (self);
  leftovers->leftovers = found;
  ask_next (leftovers);
}

void
_kiste_window_check_leftovers (KisteWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->leftovers_checked)
    return;
  self->leftovers_checked = TRUE;

  /* A window made while another one is open (a tab dragged out) may find
   * the journal of an operation this Kiste is running: the first window
   * looked already */
  for (GList *l = app ? gtk_application_get_windows (app) : NULL; l != NULL; l = l->next)
    {
      if (l->data != self && KISTE_IS_WINDOW (l->data))
        return;
    }
  kiste_manager_find_leftovers_async (self->manager, self->cancellable, found_cb, g_object_ref (self));
}
