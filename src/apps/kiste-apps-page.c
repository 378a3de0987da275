/* kiste-apps-page.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-app-row.h"
#include "kiste-apps-page.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-terminal.h"
#include "kiste-programs-group.h"

struct _KisteAppsPage
{
  AdwBin         parent_instance;

  KisteManager  *manager;
  KisteBox      *box;
  /* KisteDesktopApp of the box, NULL until listed */
  GPtrArray     *apps;
  /* Listing and following the box; cancelled when the box changes */
  GCancellable  *cancellable;
  /* desktop ids with an export or removal running */
  GHashTable    *busy_ids;
  /* Icon= value → GdkTexture made from the box's icon file, for the box */
  GHashTable    *icons;
  gboolean       watching;

  /* Template widgets */
  GtkStack       *stack;
  AdwStatusPage  *error_page;
  AdwBanner      *banner;
  GtkSearchEntry *search_entry;
  GtkListBox     *list_box;
  KisteProgramsGroup *programs_group;
  GtkBox         *list_content;
  GtkBox         *empty_box;
};

G_DEFINE_FINAL_TYPE (KisteAppsPage, kiste_apps_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_BOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static KisteDesktopApp *
kiste_apps_page_find_app (KisteAppsPage *self,
                          const char    *id)
{
  if (self->apps == NULL || id == NULL)
    return NULL;

  for (guint i = 0; i < self->apps->len; i++)
    {
      KisteDesktopApp *app = g_ptr_array_index (self->apps, i);

      if (g_strcmp0 (kiste_desktop_app_get_id (app), id) == 0)
        return app;
    }

  return NULL;
}

static KisteAppRow *
kiste_apps_page_find_row (KisteAppsPage *self,
                          const char    *id)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->list_box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (KISTE_IS_APP_ROW (child) &&
          g_strcmp0 (kiste_desktop_app_get_id (kiste_app_row_get_app (KISTE_APP_ROW (child))), id) == 0)
        return KISTE_APP_ROW (child);
    }

  return NULL;
}

static void
kiste_apps_page_toast (KisteAppsPage *self,
                       const char    *title)
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
  adw_toast_set_use_markup (toast, FALSE);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}

/* The app's icon: the box's own icon file when the listing brought it,
 * else a host icon of that name, else the generic one */
static GdkPaintable *
kiste_apps_page_load_icon (KisteAppsPage   *self,
                           KisteDesktopApp *app)
{
  GBytes *bytes = kiste_desktop_app_get_icon_data (app);
  const char *icon = kiste_desktop_app_get_icon (app);
  GtkIconTheme *theme;

  if (bytes != NULL && icon != NULL)
    {
      g_autoptr(GError) error = NULL;
      GdkTexture *texture = g_hash_table_lookup (self->icons, icon);

      if (texture == NULL && (texture = gdk_texture_new_from_bytes (bytes, &error)))
        g_hash_table_insert (self->icons, g_strdup (icon), texture);
      if (texture != NULL)
        return GDK_PAINTABLE (g_object_ref (texture));
      g_debug ("Icon of %s unreadable: %s", kiste_desktop_app_get_id (app), error->message);
    }

  theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (self)));
  if (icon != NULL && !g_path_is_absolute (icon) && gtk_icon_theme_has_icon (theme, icon))
    return GDK_PAINTABLE (gtk_icon_theme_lookup_icon (theme, icon, NULL, 32,
                                                      gtk_widget_get_scale_factor (GTK_WIDGET (self)),
                                                      gtk_widget_get_direction (GTK_WIDGET (self)),
                                                      0));

  return NULL;
}

static int
compare_apps_by_name (gconstpointer a,
                      gconstpointer b)
{
  KisteDesktopApp *app_a = *(KisteDesktopApp **) a;
  KisteDesktopApp *app_b = *(KisteDesktopApp **) b;

  return g_utf8_collate (kiste_desktop_app_get_name (app_a), kiste_desktop_app_get_name (app_b));
}

static void
kiste_apps_page_clear_rows (KisteAppsPage *self)
{
  gtk_list_box_remove_all (self->list_box);
}

static void
kiste_apps_page_show_apps (KisteAppsPage *self)
{
  kiste_apps_page_clear_rows (self);

  g_ptr_array_sort (self->apps, compare_apps_by_name);
  for (guint i = 0; i < self->apps->len; i++)
    {
      KisteDesktopApp *app = g_ptr_array_index (self->apps, i);
      KisteAppRow *row = kiste_app_row_new (app);
      g_autoptr(GdkPaintable) icon = kiste_apps_page_load_icon (self, app);
      const char *name = kiste_desktop_app_get_name (app);
      gboolean same_name = FALSE;

      /* Sorted by name: two apps of one name are neighbours */
      if (i > 0)
        same_name |= g_strcmp0 (name, kiste_desktop_app_get_name (g_ptr_array_index (self->apps, i - 1))) == 0;
      if (i + 1 < self->apps->len)
        same_name |= g_strcmp0 (name, kiste_desktop_app_get_name (g_ptr_array_index (self->apps, i + 1))) == 0;
      kiste_app_row_set_show_id (row, same_name);
      kiste_app_row_set_icon (row, icon);
      kiste_app_row_set_busy (row, g_hash_table_contains (self->busy_ids, kiste_desktop_app_get_id (app)));
      gtk_list_box_append (self->list_box, GTK_WIDGET (row));
    }

  /* Programs are there for a box without apps too */
  {
    GtkBox *target = self->apps->len > 0 ? self->list_content : self->empty_box;
    GtkWidget *group = GTK_WIDGET (self->programs_group);

    if (gtk_widget_get_parent (group) != GTK_WIDGET (target))
      {
        g_object_ref (group);
        gtk_box_remove (GTK_BOX (gtk_widget_get_parent (group)), group);
        gtk_box_append (target, group);
        g_object_unref (group);
      }
    kiste_programs_group_refresh (self->programs_group);
  }

  gtk_stack_set_visible_child_name (self->stack, self->apps->len > 0 ? "list" : "empty");
}

/* Listing */

static void
list_apps_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteAppsPage) self = user_data;
  g_autoptr(GPtrArray) apps = NULL;
  g_autoptr(GError) error = NULL;

  apps = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (apps == NULL)
    {
      /* a description is markup: what a box printed is text */
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_status_page_set_description (self->error_page, escaped);
      gtk_stack_set_visible_child_name (self->stack, "error");
      return;
    }

  g_clear_pointer (&self->apps, g_ptr_array_unref);
  self->apps = g_steal_pointer (&apps);
  kiste_apps_page_show_apps (self);
}

void
kiste_apps_page_reload (KisteAppsPage *self,
                        gboolean       start_box)
{
  g_return_if_fail (KISTE_IS_APPS_PAGE (self));

  if (self->box == NULL || self->manager == NULL)
    return;

  /* Listing runs in the box: a stopped box is started only when asked */
  if (kiste_box_get_state (self->box) != KISTE_BOX_STATE_RUNNING && !start_box)
    {
      gtk_stack_set_visible_child_name (self->stack, "stopped");
      return;
    }

  adw_banner_set_revealed (self->banner, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  kiste_manager_list_apps_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                 list_apps_cb, g_object_ref (self));
}

/* What is in the menu, kept current */

static void
list_exported_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(KisteAppsPage) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  files = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);
  if (files == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("Could not list exported files: %s", error->message);
      return;
    }

  if (self->apps != NULL)
    kiste_apps_mark_exported (self->apps, files);
}

static void
kiste_apps_page_refresh_exported (KisteAppsPage *self)
{
  if (self->box == NULL || self->apps == NULL)
    return;

  kiste_manager_list_exported_async (self->manager, kiste_box_get_ref (self->box), self->cancellable,
                                     list_exported_cb, g_object_ref (self));
}

static void
exported_changed_cb (KisteAppsPage *self)
{
  kiste_apps_page_refresh_exported (self);
  if (self->apps != NULL)
    kiste_programs_group_refresh (self->programs_group);
}

/* Adding and removing */

typedef struct
{
  KisteAppsPage *self;
  char          *id;
  char          *name;
  gboolean       unexport;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_object (&data->self);
  g_free (data->id);
  g_free (data->name);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportData, export_data_free)

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(ExportData) data = user_data;
  KisteAppsPage *self = data->self;
  g_autoptr(GError) error = NULL;
  KisteAppRow *row;

  g_hash_table_remove (self->busy_ids, data->id);
  if ((row = kiste_apps_page_find_row (self, data->id)))
    kiste_app_row_set_busy (row, FALSE);

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_autofree char *title = NULL;

      /* The whole output is in the task; the banner says what failed */
      title = g_strdup_printf (data->unexport ? _("Could not remove “%s” from the menu: %s")
                                              : _("Could not add “%s” to the menu: %s"),
                               data->name, error->message);
      adw_banner_set_title (self->banner, title);
      adw_banner_set_revealed (self->banner, TRUE);
    }

  /* The file monitor tells too, but not from the Flatpak sandbox */
  kiste_apps_page_refresh_exported (self);
}

static void
kiste_apps_page_export (KisteAppsPage *self,
                        const char    *id,
                        gboolean       unexport)
{
  KisteDesktopApp *app = kiste_apps_page_find_app (self, id);
  ExportData *data;
  KisteAppRow *row;

  if (app == NULL || self->box == NULL || g_hash_table_contains (self->busy_ids, id))
    return;

  g_hash_table_add (self->busy_ids, g_strdup (id));
  if ((row = kiste_apps_page_find_row (self, id)))
    kiste_app_row_set_busy (row, TRUE);
  adw_banner_set_revealed (self->banner, FALSE);

  data = g_new0 (ExportData, 1);
  data->self = g_object_ref (self);
  data->id = g_strdup (id);
  data->name = g_strdup (kiste_desktop_app_get_name (app));
  data->unexport = unexport;
  kiste_manager_export_app_async (self->manager, kiste_box_get_ref (self->box),
                                  kiste_desktop_app_get_path (app), unexport,
                                  NULL, export_cb, data);
}

static void
add_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  kiste_apps_page_export (KISTE_APPS_PAGE (widget), g_variant_get_string (parameter, NULL), FALSE);
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  kiste_apps_page_export (KISTE_APPS_PAGE (widget), g_variant_get_string (parameter, NULL), TRUE);
}

typedef struct
{
  KisteAppsPage *self;
  char          *name;
} LaunchData;

static void
launch_data_free (LaunchData *data)
{
  g_object_unref (data->self);
  g_free (data->name);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LaunchData, launch_data_free)

static void
launch_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LaunchData) data = user_data;
  g_autofree char *heading = NULL;
  g_autoptr(GError) error = NULL;
  AdwDialog *alert;

  if (kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* the reason is often a few sentences: more than a toast holds */
  heading = g_strdup_printf (_("“%s” Not Started"), data->name);
  alert = adw_alert_dialog_new (heading, error->message);
  adw_alert_dialog_add_response (ADW_ALERT_DIALOG (alert), "close", _("_Close"));
  adw_dialog_present (alert, GTK_WIDGET (data->self));
}

static void
launch_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (widget);
  KisteDesktopApp *app = kiste_apps_page_find_app (self, g_variant_get_string (parameter, NULL));
  g_autofree char *message = NULL;
  LaunchData *data;

  if (app == NULL)
    return;

  data = g_new0 (LaunchData, 1);
  data->self = g_object_ref (self);
  data->name = g_strdup (kiste_desktop_app_get_name (app));
  kiste_manager_launch_app_async (self->manager, kiste_box_get_ref (self->box), app, self->cancellable,
                                  launch_cb, data);
  message = g_strdup_printf (_("Starting “%s”…"), kiste_desktop_app_get_name (app));
  kiste_apps_page_toast (self, message);
}

static void
copy_command_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (widget);
  KisteDesktopApp *app = kiste_apps_page_find_app (self, g_variant_get_string (parameter, NULL));
  g_autoptr(GError) error = NULL;
  g_autofree char *command = NULL;

  if (app == NULL)
    return;

  command = kiste_manager_dup_launch_command (self->manager, kiste_box_get_ref (self->box), app, &error);
  if (command == NULL)
    {
      kiste_apps_page_toast (self, error->message);
      return;
    }

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), command);
  kiste_apps_page_toast (self, _("Command copied"));
}

static void
list_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  kiste_apps_page_reload (KISTE_APPS_PAGE (widget), TRUE);
}

/* Search */

static gboolean
filter_row (GtkListBoxRow *row,
            gpointer       user_data)
{
  KisteAppsPage *self = user_data;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  KisteDesktopApp *app;
  g_autofree char *needle = NULL;
  const char *fields[3];

  if (text == NULL || text[0] == '\0' || !KISTE_IS_APP_ROW (row))
    return TRUE;

  app = kiste_app_row_get_app (KISTE_APP_ROW (row));
  needle = g_utf8_casefold (text, -1);
  fields[0] = kiste_desktop_app_get_name (app);
  fields[1] = kiste_desktop_app_get_comment (app);
  fields[2] = kiste_desktop_app_get_id (app);

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *haystack = fields[i] ? g_utf8_casefold (fields[i], -1) : NULL;

      if (haystack != NULL && strstr (haystack, needle) != NULL)
        return TRUE;
    }

  return FALSE;
}

static void
search_changed_cb (KisteAppsPage *self)
{
  gtk_list_box_invalidate_filter (self->list_box);
}

static void
banner_clicked_cb (KisteAppsPage *self)
{
  adw_banner_set_revealed (self->banner, FALSE);
}

/* The box */

static void
box_state_cb (KisteAppsPage *self)
{
  /* A box that was started elsewhere can be listed now */
  if (self->apps == NULL && gtk_widget_get_mapped (GTK_WIDGET (self)) &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "stopped") == 0 &&
      kiste_box_get_state (self->box) == KISTE_BOX_STATE_RUNNING)
    kiste_apps_page_reload (self, FALSE);
}

void
kiste_apps_page_set_box (KisteAppsPage *self,
                         KisteBox      *box)
{
  g_return_if_fail (KISTE_IS_APPS_PAGE (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;

  if (self->box != NULL)
    g_signal_handlers_disconnect_by_data (self->box, self);
  g_set_object (&self->box, box);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_clear_pointer (&self->apps, g_ptr_array_unref);
  g_hash_table_remove_all (self->busy_ids);
  g_hash_table_remove_all (self->icons);
  kiste_apps_page_clear_rows (self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  adw_banner_set_revealed (self->banner, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "stopped");
  kiste_programs_group_set_box (self->programs_group, box);

  if (box != NULL)
    {
      g_signal_connect_object (box, "notify::state", G_CALLBACK (box_state_cb), self, G_CONNECT_SWAPPED);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        kiste_apps_page_reload (self, FALSE);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BOX]);
}

KisteBox *
kiste_apps_page_get_box (KisteAppsPage *self)
{
  g_return_val_if_fail (KISTE_IS_APPS_PAGE (self), NULL);

  return self->box;
}

static void
kiste_apps_page_set_manager (KisteAppsPage *self,
                             KisteManager  *manager)
{
  if (self->manager == manager)
    return;

  if (self->manager != NULL)
    {
      if (self->watching)
        kiste_manager_unwatch_exported (self->manager);
      self->watching = FALSE;
      g_signal_handlers_disconnect_by_data (self->manager, self);
    }
  g_set_object (&self->manager, manager);
  kiste_programs_group_set_manager (self->programs_group, manager);
  if (manager != NULL)
    {
      g_signal_connect_object (manager, "exported-changed", G_CALLBACK (exported_changed_cb), self,
                               G_CONNECT_SWAPPED);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        {
          kiste_manager_watch_exported (manager);
          self->watching = TRUE;
        }
    }
}

/* GObject and GtkWidget */

static void
kiste_apps_page_map (GtkWidget *widget)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (widget);

  GTK_WIDGET_CLASS (kiste_apps_page_parent_class)->map (widget);

  if (self->manager == NULL)
    return;

  if (!self->watching)
    {
      kiste_manager_watch_exported (self->manager);
      self->watching = TRUE;
    }

  /* Shown for the first time for this box: list, or catch up with the menu */
  if (self->apps == NULL)
    {
      if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "loading") != 0)
        kiste_apps_page_reload (self, FALSE);
    }
  else
    kiste_apps_page_refresh_exported (self);
}

static void
kiste_apps_page_unmap (GtkWidget *widget)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (widget);

  if (self->watching)
    kiste_manager_unwatch_exported (self->manager);
  self->watching = FALSE;

  GTK_WIDGET_CLASS (kiste_apps_page_parent_class)->unmap (widget);
}

static void
kiste_apps_page_dispose (GObject *object)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  kiste_apps_page_set_box (self, NULL);
  kiste_apps_page_set_manager (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_APPS_PAGE);

  G_OBJECT_CLASS (kiste_apps_page_parent_class)->dispose (object);
}

static void
kiste_apps_page_finalize (GObject *object)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->apps, g_ptr_array_unref);
  g_clear_pointer (&self->busy_ids, g_hash_table_unref);
  g_clear_pointer (&self->icons, g_hash_table_unref);

  G_OBJECT_CLASS (kiste_apps_page_parent_class)->finalize (object);
}

static void
kiste_apps_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_BOX:
      g_value_set_object (value, self->box);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_apps_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KisteAppsPage *self = KISTE_APPS_PAGE (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      kiste_apps_page_set_manager (self, g_value_get_object (value));
      break;

    case PROP_BOX:
      kiste_apps_page_set_box (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_apps_page_class_init (KisteAppsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_apps_page_dispose;
  object_class->finalize = kiste_apps_page_finalize;
  object_class->get_property = kiste_apps_page_get_property;
  object_class->set_property = kiste_apps_page_set_property;
  widget_class->map = kiste_apps_page_map;
  widget_class->unmap = kiste_apps_page_unmap;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL, KISTE_TYPE_MANAGER,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOX] =
    g_param_spec_object ("box", NULL, NULL, KISTE_TYPE_BOX,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-apps-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, error_page);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, banner);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, list_box);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, programs_group);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, list_content);
  gtk_widget_class_bind_template_child (widget_class, KisteAppsPage, empty_box);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, banner_clicked_cb);

  gtk_widget_class_install_action (widget_class, "apps.add", "s", add_action);
  gtk_widget_class_install_action (widget_class, "apps.remove", "s", remove_action);
  gtk_widget_class_install_action (widget_class, "apps.launch", "s", launch_action);
  gtk_widget_class_install_action (widget_class, "apps.copy-command", "s", copy_command_action);
  gtk_widget_class_install_action (widget_class, "apps.list", NULL, list_action);

  g_type_ensure (KISTE_TYPE_APP_ROW);
  g_type_ensure (KISTE_TYPE_PROGRAMS_GROUP);
}

static void
kiste_apps_page_init (KisteAppsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The bin's own child: AdwBin unparents it, the template must not */
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));
  self->busy_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->cancellable = g_cancellable_new ();
  gtk_list_box_set_filter_func (self->list_box, filter_row, self, NULL);
}

KisteAppsPage *
kiste_apps_page_new (KisteManager *manager)
{
  g_return_val_if_fail (!manager || KISTE_IS_MANAGER (manager), NULL);

  return g_object_new (KISTE_TYPE_APPS_PAGE, "manager", manager, NULL);
}
