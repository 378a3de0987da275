/* kiste-application.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>

#include "kiste-application-private.h"
#include "kiste-resources.h"
#include "kiste-shortcuts-dialog.h"
#include "kiste-window.h"

struct _KisteApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  KisteManager   *manager;
  guint           signal_sources[3];
  /* Held while the manager is "cleaning-up" */
  gboolean        held;
};

G_DEFINE_FINAL_TYPE (KisteApplication, kiste_application, ADW_TYPE_APPLICATION)

KisteApplication *
kiste_application_new (void)
{
  return g_object_new (KISTE_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "resource-base-path", RESOURCE_PATH,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}

/**
 * kiste_application_get_settings:
 *
 * Returns: (transfer none): the application's settings
 */
GSettings *
kiste_application_get_settings (KisteApplication *self)
{
  g_return_val_if_fail (KISTE_IS_APPLICATION (self), NULL);

  return self->settings;
}

/**
 * kiste_application_get_manager:
 *
 * Returns: (transfer none): the manager every window shares
 */
KisteManager *
kiste_application_get_manager (KisteApplication *self)
{
  g_return_val_if_fail (KISTE_IS_APPLICATION (self), NULL);

  if (self->manager == NULL)
    {
      g_autoptr(KisteManager) manager = kiste_manager_new (NULL);

      _kiste_application_set_manager (self, manager);
    }
  return self->manager;
}

/* A closed terminal's shell is ended in its box after its window is gone:
 * the app waits for that */
static void
kiste_application_set_held (KisteApplication *self,
                            gboolean          held)
{
  if (self->held == held)
    return;
  self->held = held;
  if (held)
    g_application_hold (G_APPLICATION (self));
  else
    g_application_release (G_APPLICATION (self));
}

static void
kiste_application_cleaning_up_cb (KisteApplication *self)
{
  kiste_application_set_held (self, kiste_manager_get_cleaning_up (self->manager));
}

void
_kiste_application_set_manager (KisteApplication *self,
                                KisteManager     *manager)
{
  g_return_if_fail (KISTE_IS_APPLICATION (self));
  g_return_if_fail (KISTE_IS_MANAGER (manager));

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_func (self->manager, kiste_application_cleaning_up_cb, self);
  g_set_object (&self->manager, manager);
  g_signal_connect_object (manager, "notify::cleaning-up",
                           G_CALLBACK (kiste_application_cleaning_up_cb), self,
                           G_CONNECT_SWAPPED);
  kiste_application_cleaning_up_cb (self);
}

static void
kiste_application_activate (GApplication *app)
{
  GtkWindow *window;

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (kiste_window_new (KISTE_APPLICATION (app)));

  gtk_window_present (window);
}

/* "Open With Kiste": a box file is read, checked and previewed
 * (kiste_window_open_boxfile()); a package file is offered to the boxes
 * that can install it (kiste_window_install_package_file()) */
static void
kiste_application_open (GApplication  *app,
                        GFile        **files,
                        int            n_files,
                        const char    *hint)
{
  GtkWindow *window;

  window = gtk_application_get_active_window (GTK_APPLICATION (app));
  if (window == NULL)
    window = GTK_WINDOW (kiste_window_new (KISTE_APPLICATION (app)));

  gtk_window_present (window);
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_file_get_basename (files[i]);

      if (name != NULL && g_str_has_suffix (name, ".kistebox"))
        kiste_window_open_boxfile (KISTE_WINDOW (window), files[i]);
      else
        kiste_window_install_package_file (KISTE_WINDOW (window), files[i]);
    }
}

/* SIGTERM from a session ending, SIGINT from a terminal: quit as Ctrl+Q
 * would, so windows save their state and every command ends with the app,
 * but without asking: nobody may be there to answer. */
static gboolean
kiste_application_quit_signal_cb (gpointer user_data)
{
  KisteApplication *self = user_data;

  g_action_group_activate_action (G_ACTION_GROUP (self), "terminate", NULL);

  return G_SOURCE_CONTINUE;
}

static void
kiste_application_startup (GApplication *app)
{
  KisteApplication *self = KISTE_APPLICATION (app);
  static const int quit_signals[] = { SIGTERM, SIGINT, SIGHUP };

  G_APPLICATION_CLASS (kiste_application_parent_class)->startup (app);

  self->settings = g_settings_new (APP_ID);

  for (guint i = 0; i < G_N_ELEMENTS (quit_signals); i++)
    self->signal_sources[i] = g_unix_signal_add (quit_signals[i],
                                                 kiste_application_quit_signal_cb,
                                                 self);
}

static void
kiste_application_shutdown (GApplication *app)
{
  KisteApplication *self = KISTE_APPLICATION (app);

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_sources); i++)
    g_clear_handle_id (&self->signal_sources[i], g_source_remove);

  if (self->manager != NULL)
    kiste_manager_shutdown (self->manager);

  G_APPLICATION_CLASS (kiste_application_parent_class)->shutdown (app);
}

static void
kiste_application_quit_action (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  KisteApplication *self = user_data;
  GList *windows;

  /* Close windows first so each saves its state. A window with programs
   * running in its terminals asks first, and a closed terminal ends its
   * shell in the box while the app holds on: the app ends with its last
   * window and hold, never with g_application_quit() over them. */
  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (const GList *l = windows; l != NULL; l = l->next)
    {
      if (KISTE_IS_WINDOW (l->data))
        kiste_window_quit (KISTE_WINDOW (l->data));
      else
        gtk_window_close (GTK_WINDOW (l->data));
    }

  if (windows == NULL)
    g_application_quit (G_APPLICATION (self));
  g_list_free (windows);
}

/* Like quit, without the question about programs running in terminals */
static void
kiste_application_terminate_action (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       user_data)
{
  KisteApplication *self = user_data;
  GList *windows;

  windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (self)));
  for (const GList *l = windows; l != NULL; l = l->next)
    {
      if (KISTE_IS_WINDOW (l->data))
        kiste_window_close_without_asking (KISTE_WINDOW (l->data));
      else
        gtk_window_close (GTK_WINDOW (l->data));
    }

  if (windows == NULL)
    g_application_quit (G_APPLICATION (self));
  g_list_free (windows);
}

static void
kiste_application_about_action (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data)
{
  KisteApplication *self = user_data;
  static const char *developers[] = { "The Kiste authors", NULL };
  AdwDialog *dialog;

  dialog = g_object_new (ADW_TYPE_ABOUT_DIALOG,
                         "application-name", _("Kiste"),
                         "application-icon", APP_ID,
                         "developer-name", _("The Kiste authors"),
                         "version", PACKAGE_VERSION,
                         "website", "https://github.com/kiste/kiste",
                         "issue-url", "https://github.com/kiste/kiste/issues",
                         "comments", _("Create and manage Distrobox boxes: run software from any "
                                       "Linux distribution, integrated with your desktop."),
                         "copyright", "© 2026 The Kiste authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         /* Translators: Replace "translator-credits" with your name(s) */
                         "translator-credits", _("translator-credits"),
                         NULL);

  adw_dialog_present (dialog,
                      GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (self))));
}

static void
kiste_application_shortcuts_action (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       user_data)
{
  KisteApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  adw_dialog_present (ADW_DIALOG (kiste_shortcuts_dialog_new ()), GTK_WIDGET (window));
}

static const GActionEntry app_actions[] = {
  { "quit", kiste_application_quit_action },
  { "terminate", kiste_application_terminate_action },
  { "about", kiste_application_about_action },
  { "shortcuts", kiste_application_shortcuts_action },
};

static void
kiste_application_dispose (GObject *object)
{
  KisteApplication *self = KISTE_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->manager);

  G_OBJECT_CLASS (kiste_application_parent_class)->dispose (object);
}

static void
kiste_application_class_init (KisteApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = kiste_application_dispose;

  /* Once per process: the templates and icons live in our resource bundle */
  kiste_register_resource ();

  app_class->activate = kiste_application_activate;
  app_class->open = kiste_application_open;
  app_class->startup = kiste_application_startup;
  app_class->shutdown = kiste_application_shutdown;
}

static void
kiste_application_init (KisteApplication *self)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *shortcuts_accels[] = { "<Control>question", NULL };

  g_action_map_add_action_entries (G_ACTION_MAP (self),
                                   app_actions,
                                   G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.shortcuts", shortcuts_accels);
  /* Ctrl+W closes the window from the window itself (KisteWindow): in a
   * terminal it deletes a word */
}
