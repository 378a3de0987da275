/* kiste-box-page.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-application.h"
#include "kiste-apps.h"
#include "kiste-assemble.h"
#include "kiste-box-page.h"
#include "kiste-color-row.h"
#include "kiste-commands.h"
#include "kiste-create-dialog.h"
#include "kiste-distro.h"
#include "kiste-log-dialog.h"
#include "kiste-name-dialog.h"
#include "kiste-validate.h"

/* Usage is polled only while the page is visible and the box runs */
#define STATS_INTERVAL_SECONDS 5
#define STATS_TIMEOUT_MS (20 * 1000)

/* Operation results are not shown here: the window shows every task's
 * outcome as a toast already, and a second toast would repeat it. The page
 * toasts only what its own widgets fail at (clipboard, file launcher). */

struct _KisteBoxPage
{
  AdwBin                parent_instance;

  KisteManager         *manager;
  KisteBox             *box;
  /* The running operation of the box, followed for its progress */
  KisteTask            *task;
  /* KisteExportedFile of the box, NULL while unknown */
  GPtrArray            *exported;
  gboolean              exported_failed;
  GCancellable         *details_cancellable;
  GCancellable         *exported_cancellable;
  GCancellable         *delete_cancellable;
  GCancellable         *stats_cancellable;
  /* Cancelled when the page goes: exports, waits for details */
  GCancellable         *cancellable;
  /* Tests: where "Export Settings" writes, without asking */
  GFile                *export_file;
  guint                 stats_source;
  /* Stats failed for this box (cgroups v1, docker without stats…): do not
   * ask again every few seconds */
  gboolean              stats_failed;

  GtkStack             *stack;
  KisteColorRow        *color_row;
  GtkImage             *distro_image;
  GtkLabel             *name_label;
  GtkLabel             *image_label;
  GtkLabel             *state_label;
  GtkWidget            *busy_box;
  AdwSpinner           *busy_spinner;
  GtkLabel             *busy_title_label;
  GtkLabel             *busy_step_label;
  GtkButton            *cancel_button;
  GtkProgressBar       *busy_progress;
  GtkButton            *start_stop_button;
  AdwButtonContent     *start_stop_content;
  AdwActionRow         *image_row;
  AdwActionRow         *state_row;
  AdwActionRow         *created_row;
  AdwActionRow         *home_row;
  AdwActionRow         *init_row;
  AdwActionRow         *nvidia_row;
  AdwActionRow         *exported_row;
  AdwActionRow         *manager_row;
  AdwActionRow         *home_sharing_row;
  AdwActionRow         *devsys_row;
  AdwActionRow         *groups_row;
  AdwActionRow         *ipc_row;
  AdwActionRow         *netns_row;
  AdwActionRow         *process_row;
  AdwActionRow         *home_unshare_row;
  AdwPreferencesGroup  *resources_group;
  AdwActionRow         *cpu_row;
  AdwActionRow         *memory_row;
};

G_DEFINE_FINAL_TYPE (KisteBoxPage, kiste_box_page, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_BOX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *operation_actions[] = {
  "box.start", "box.stop", "box.restart", "box.upgrade",
  "box.clone", "box.clone-with-changes", "box.rename", "box.delete",
};

static const char style_css[] =
  ".kiste-box-icon {"
  "  padding: 12px;"
  "  border-radius: 14px;"
  "  background-color: color-mix(in srgb, currentColor 8%, transparent);"
  "}"
  ".kiste-status-pill {"
  "  padding: 2px 10px;"
  "  border-radius: 999px;"
  "  font-size: 0.9em;"
  "  font-weight: bold;"
  "  background-color: color-mix(in srgb, currentColor 10%, transparent);"
  "}"
  ".kiste-status-pill.running {"
  "  color: var(--success-color);"
  "  background-color: color-mix(in srgb, var(--success-color) 15%, transparent);"
  "}"
  ".kiste-status-pill.busy {"
  "  color: var(--accent-color);"
  "  background-color: color-mix(in srgb, var(--accent-bg-color) 15%, transparent);"
  "}"
  ".kiste-busy-card {"
  "  padding: 12px;"
  "}";

static void kiste_box_page_update_stats_polling (KisteBoxPage *self);

static void
ensure_style (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  g_autoptr(GtkCssProvider) provider = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "kiste-box-page-style"))
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_string (provider, style_css);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "kiste-box-page-style",
                          g_steal_pointer (&provider), g_object_unref);
}

static void
kiste_box_page_toast (KisteBoxPage *self,
                      const char   *title)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay == NULL)
    {
      g_debug ("No toast overlay for: %s", title);
      return;
    }
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (title));
}

static const char *
kiste_box_page_get_engine (KisteBoxPage *self)
{
  const char *manager = kiste_runner_get_manager (kiste_manager_get_runner (self->manager));

  return manager != NULL ? manager : "podman";
}

static GStrv
kiste_box_page_dup_box_names (KisteBoxPage *self)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_store (self->manager));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

static gboolean
kiste_box_page_is_busy (KisteBoxPage *self)
{
  return self->box != NULL && kiste_manager_is_busy (self->manager, kiste_box_get_name (self->box));
}

static gboolean
kiste_box_page_is_running (KisteBoxPage *self)
{
  return self->box != NULL && kiste_box_get_state (self->box) == KISTE_BOX_STATE_RUNNING;
}

/* Text */

static const char *
sharing_to_label (KisteSharing sharing)
{
  switch (sharing)
    {
    case KISTE_SHARING_SHARED:
      return _("Shared with the host");

    case KISTE_SHARING_UNSHARED:
      return _("Separate from the host");

    case KISTE_SHARING_UNKNOWN:
    default:
      return _("Unknown");
    }
}

static char *
format_created (gint64 created)
{
  g_autoptr(GDateTime) then = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *relative = NULL;
  gint64 seconds;

  if (created <= 0 || !(then = g_date_time_new_from_unix_utc (created)))
    return g_strdup (_("Unknown"));

  local = g_date_time_to_local (then);
  now = g_date_time_new_now_local ();
  seconds = g_date_time_difference (now, local) / G_TIME_SPAN_SECOND;

  if (seconds < 60)
    relative = g_strdup (_("Just now"));
  else if (seconds < 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d minute ago", "%d minutes ago",
                                             seconds / 60),
                                (int) (seconds / 60));
  else if (seconds < 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d hour ago", "%d hours ago",
                                             seconds / 3600),
                                (int) (seconds / 3600));
  else if (seconds < 30 * 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d day ago", "%d days ago",
                                             seconds / 86400),
                                (int) (seconds / 86400));
  else if (seconds < 365 * 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d month ago", "%d months ago",
                                             seconds / (30 * 86400)),
                                (int) (seconds / (30 * 86400)));
  else
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d year ago", "%d years ago",
                                             seconds / (365 * 86400)),
                                (int) (seconds / (365 * 86400)));

  /* Translators: when a box was created, see g_date_time_format() */
  absolute = g_date_time_format (local, _("%B %-d, %Y, %H:%M"));

  /* Translators: "3 days ago (December 1, 2026, 14:05)" */
  return g_strdup_printf (_("%s (%s)"), relative, absolute);
}

static const char *
engine_display_name (const char *engine)
{
  if (g_strcmp0 (engine, "podman") == 0)
    return "Podman";
  if (g_strcmp0 (engine, "docker") == 0)
    return "Docker";
  return engine;
}

/* "2 apps and 1 program", or NULL for none */
static char *
format_exported (GPtrArray *exported)
{
  g_autofree char *apps = NULL;
  g_autofree char *programs = NULL;
  guint n_apps = 0;
  guint n_programs = 0;

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);

      if (file->kind == KISTE_EXPORTED_APP)
        n_apps++;
      else
        n_programs++;
    }

  if (n_apps > 0)
    apps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u app", "%u apps", n_apps), n_apps);
  if (n_programs > 0)
    programs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u program", "%u programs", n_programs),
                                n_programs);

  if (apps != NULL && programs != NULL)
    /* Translators: "2 apps and 1 program" */
    return g_strdup_printf (_("%s and %s"), apps, programs);
  if (apps != NULL)
    return g_steal_pointer (&apps);
  return g_steal_pointer (&programs);
}

/* Names of the exported files of one kind, comma-separated, or NULL */
static char *
join_exported_names (GPtrArray         *exported,
                     KisteExportedKind  kind)
{
  g_autoptr(GString) names = NULL;

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);
      g_autofree char *basename = NULL;
      const char *name = file->name;

      if (file->kind != kind)
        continue;
      if (name == NULL || name[0] == '\0')
        name = basename = g_path_get_basename (file->path);

      if (names == NULL)
        names = g_string_new (NULL);
      else
        /* Translators: between the names in a list: "Viewer, x11perf" */
        g_string_append (names, _(", "));
      g_string_append (names, name);
    }

  return names ? g_string_free_and_steal (g_steal_pointer (&names)) : NULL;
}

/* Showing the box */

static void
kiste_box_page_update_actions (KisteBoxPage *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean has_box = self->box != NULL;
  gboolean idle = has_box && !kiste_box_page_is_busy (self);
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
  gtk_widget_action_set_enabled (widget, "box.upgrade", idle);
  gtk_widget_action_set_enabled (widget, "box.clone", idle);
  gtk_widget_action_set_enabled (widget, "box.clone-with-changes", idle);
  gtk_widget_action_set_enabled (widget, "box.rename", idle);
  gtk_widget_action_set_enabled (widget, "box.delete", idle);
  gtk_widget_action_set_enabled (widget, "box.copy-enter-command", has_box);
  gtk_widget_action_set_enabled (widget, "box.open-terminal", has_box);
  gtk_widget_action_set_enabled (widget, "box.view-log", has_box);
  gtk_widget_action_set_enabled (widget, "box.export-settings", has_box);
  gtk_widget_action_set_enabled (widget, "box.open-home",
                                 has_box && kiste_box_get_home (self->box) != NULL);

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

  adw_action_row_set_subtitle (self->state_row, state_label);
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
    task = kiste_manager_get_task_for_box (self->manager, kiste_box_get_name (self->box));

  kiste_box_page_set_task (self, task);
  kiste_box_page_update_task (self);
  if (self->box != NULL)
    kiste_box_page_update_state (self);
  kiste_box_page_update_actions (self);
}

static void
kiste_box_page_update_exported_row (KisteBoxPage *self)
{
  g_autofree char *text = NULL;

  if (self->exported != NULL)
    text = format_exported (self->exported);

  if (text != NULL)
    adw_action_row_set_subtitle (self->exported_row, text);
  else if (self->exported != NULL)
    adw_action_row_set_subtitle (self->exported_row, _("None"));
  else if (self->exported_failed)
    adw_action_row_set_subtitle (self->exported_row, _("Unknown"));
  else
    adw_action_row_set_subtitle (self->exported_row, "…");
}

static void
kiste_box_page_update_isolation (KisteBoxPage *self)
{
  struct {
    AdwActionRow *row;
    KisteUnshare  what;
  } rows[] = {
    { self->devsys_row, KISTE_UNSHARE_DEVSYS },
    { self->groups_row, KISTE_UNSHARE_GROUPS },
    { self->ipc_row, KISTE_UNSHARE_IPC },
    { self->netns_row, KISTE_UNSHARE_NETNS },
    { self->process_row, KISTE_UNSHARE_PROCESS },
    { self->home_unshare_row, KISTE_UNSHARE_HOME },
  };
  KisteBoxStore *store = kiste_manager_get_store (self->manager);
  const char *host_home = kiste_box_store_get_host_home (store);
  const char *home = kiste_box_get_home (self->box);
  gboolean custom = kiste_box_has_custom_home (self->box);
  g_autofree char *sentence = NULL;
  const char *consequence = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    adw_action_row_set_subtitle (rows[i].row,
                                 sharing_to_label (kiste_box_get_unshare (self->box, rows[i].what)));

  switch (kiste_box_get_host_home_sharing (self->box))
    {
    case KISTE_SHARING_SHARED:
      if (custom)
        sentence = g_strdup_printf (_("This box has its own home folder at %s, but your home "
                                      "folder %s is still mounted in it"),
                                    home, host_home);
      else
        sentence = g_strdup_printf (_("Your home folder %s is shared with this box"), host_home);
      consequence = _("Programs in the box can read and change your files");
      break;

    case KISTE_SHARING_UNSHARED:
      if (custom)
        sentence = g_strdup_printf (_("Your home folder is not shared with this box: it has its "
                                      "own at %s"),
                                    home);
      else
        sentence = g_strdup (_("Your home folder is not shared with this box"));
      break;

    case KISTE_SHARING_UNKNOWN:
    default:
      sentence = g_strdup (_("Whether your home folder is shared with this box is not known yet"));
      break;
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->home_sharing_row), sentence);
  adw_action_row_set_subtitle (self->home_sharing_row, consequence);
}

static void
kiste_box_page_update (KisteBoxPage *self)
{
  KisteBoxStore *store;
  const char *image;
  const char *home;
  g_autofree char *created = NULL;

  if (self->box == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      kiste_box_page_update_busy (self);
      return;
    }

  store = kiste_manager_get_store (self->manager);
  image = kiste_box_get_image (self->box);
  home = kiste_box_get_home (self->box);

  gtk_stack_set_visible_child_name (self->stack, "box");

  gtk_image_set_from_icon_name (self->distro_image,
                                kiste_distro_icon_name (kiste_distro_id_for_image (image)));
  gtk_label_set_label (self->name_label, kiste_box_get_name (self->box));
  gtk_label_set_label (self->image_label, image ? image : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->image_label), image);

  adw_action_row_set_subtitle (self->image_row, image ? image : _("Unknown"));

  created = format_created (kiste_box_get_created (self->box));
  adw_action_row_set_subtitle (self->created_row, created);

  if (home == NULL)
    adw_action_row_set_subtitle (self->home_row, _("Unknown"));
  else if (!kiste_box_has_custom_home (self->box) &&
           g_strcmp0 (home, kiste_box_store_get_host_home (store)) == 0)
    adw_action_row_set_subtitle (self->home_row, _("Your home folder"));
  else
    adw_action_row_set_subtitle (self->home_row, home);

  adw_action_row_set_subtitle (self->init_row, kiste_box_get_init (self->box) ? _("Yes") : _("No"));
  adw_action_row_set_subtitle (self->nvidia_row, kiste_box_get_nvidia (self->box) ? _("Yes") : _("No"));
  adw_action_row_set_subtitle (self->manager_row,
                               engine_display_name (kiste_box_page_get_engine (self)));

  kiste_box_page_update_exported_row (self);
  kiste_box_page_update_isolation (self);
  kiste_box_page_update_busy (self);
  kiste_box_page_update_stats_polling (self);
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

  files = kiste_manager_list_exported_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_pointer (&self->exported, g_ptr_array_unref);
  self->exported = g_steal_pointer (&files);
  self->exported_failed = error != NULL;
  if (error != NULL)
    g_debug ("Could not list exported files: %s", error->message);

  if (self->box != NULL)
    kiste_box_page_update_exported_row (self);
}

static void
kiste_box_page_load_exported (KisteBoxPage *self)
{
  g_cancellable_cancel (self->exported_cancellable);
  g_clear_object (&self->exported_cancellable);
  g_clear_pointer (&self->exported, g_ptr_array_unref);
  self->exported_failed = FALSE;

  if (self->box == NULL)
    return;

  self->exported_cancellable = g_cancellable_new ();
  kiste_manager_list_exported_async (self->manager, kiste_box_get_name (self->box),
                                     self->exported_cancellable, exported_cb, g_object_ref (self));
}

static void
details_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The box notifies what the details changed; the page follows it */
  if (!kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, &error) &&
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
  kiste_box_store_load_details_async (kiste_manager_get_store (self->manager),
                                      &self->box, 1,
                                      self->details_cancellable, details_cb, NULL);
}

/* Resources: `podman stats`, only while visible and running */

typedef struct
{
  KisteBoxPage *self;
  GCancellable *cancellable;
} StatsRequest;

static void
stats_request_free (StatsRequest *request)
{
  g_clear_object (&request->self);
  g_clear_object (&request->cancellable);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StatsRequest, stats_request_free)

static char *
dup_member_text (JsonObject  *object,
                 const char  *podman_key,
                 const char  *docker_key)
{
  JsonNode *node = NULL;

  if (json_object_has_member (object, podman_key))
    node = json_object_get_member (object, podman_key);
  else if (json_object_has_member (object, docker_key))
    node = json_object_get_member (object, docker_key);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strstrip (g_strdup (json_node_get_string (node)));
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE ||
      json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%.2f%%", json_node_get_double (node));
  return NULL;
}

/* podman: a JSON array of objects with "cpu_percent", "mem_usage"
 * ("102.4kB / 25.28GB"); docker: JSON lines with "CPUPerc", "MemUsage". */
static gboolean
parse_stats (const char  *output,
             char       **cpu,
             char       **memory,
             GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *usage = NULL;
  JsonObject *object = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, output, -1, NULL))
    {
      lines = g_strsplit (output, "\n", 2);
      if (lines[0] == NULL || !json_parser_load_from_data (parser, lines[0], -1, error))
        {
          if (error != NULL && *error == NULL)
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("No usage was reported"));
          return FALSE;
        }
    }

  root = json_parser_get_root (parser);
  if (root != NULL && JSON_NODE_HOLDS_ARRAY (root) &&
      json_array_get_length (json_node_get_array (root)) > 0)
    root = json_array_get_element (json_node_get_array (root), 0);
  if (root != NULL && JSON_NODE_HOLDS_OBJECT (root))
    object = json_node_get_object (root);

  if (object == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("No usage was reported"));
      return FALSE;
    }

  *cpu = dup_member_text (object, "cpu_percent", "CPUPerc");
  usage = dup_member_text (object, "mem_usage", "MemUsage");

  if (usage != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (usage, "/", 2);

      if (g_strv_length (parts) == 2)
        /* Translators: memory in use of the memory available: "102.4kB of 25.28GB" */
        *memory = g_strdup_printf (_("%s of %s"), g_strstrip (parts[0]), g_strstrip (parts[1]));
      else
        *memory = g_steal_pointer (&usage);
    }
  else
    *memory = NULL;

  return TRUE;
}

static void kiste_box_page_fetch_stats (KisteBoxPage *self);

static gboolean
stats_timeout_cb (gpointer user_data)
{
  KisteBoxPage *self = user_data;

  self->stats_source = 0;
  kiste_box_page_update_stats_polling (self);
  return G_SOURCE_REMOVE;
}

static void
stats_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StatsRequest) request = user_data;
  KisteBoxPage *self = request->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;
  g_autofree char *cpu = NULL;
  g_autofree char *memory = NULL;

  kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error);

  /* Left over from a box or a visibility that changed since */
  if (request->cancellable != self->stats_cancellable ||
      g_cancellable_is_cancelled (request->cancellable))
    return;
  g_clear_object (&self->stats_cancellable);

  if (error == NULL)
    parse_stats (stdout_buf, &cpu, &memory, &error);

  if (error != NULL)
    {
      g_autofree char *description = NULL;

      g_debug ("No usage for the box: %s", error->message);
      self->stats_failed = TRUE;
      /* Rootless podman's usual reason gets plain words; others as they are */
      if (strstr (error->message, "cgroups v2") != NULL)
        description = g_strdup (_("Usage cannot be measured: rootless podman needs a system "
                                  "with cgroups v2 for it."));
      else
        /* Translators: %s says why, from podman */
        description = g_strdup_printf (_("Usage cannot be measured: %s"), error->message);
      adw_preferences_group_set_description (self->resources_group, description);
      adw_action_row_set_subtitle (self->cpu_row, _("Not available"));
      adw_action_row_set_subtitle (self->memory_row, _("Not available"));
      return;
    }

  adw_preferences_group_set_description (self->resources_group, NULL);
  adw_action_row_set_subtitle (self->cpu_row, cpu ? cpu : _("Unknown"));
  adw_action_row_set_subtitle (self->memory_row, memory ? memory : _("Unknown"));

  self->stats_source = g_timeout_add_seconds (STATS_INTERVAL_SECONDS, stats_timeout_cb, self);
}

static gboolean
kiste_box_page_wants_stats (KisteBoxPage *self)
{
  return self->box != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (self)) &&
         kiste_box_page_is_running (self) &&
         !self->stats_failed;
}

static void
kiste_box_page_stop_stats (KisteBoxPage *self)
{
  g_clear_handle_id (&self->stats_source, g_source_remove);
  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
}

static void
kiste_box_page_fetch_stats (KisteBoxPage *self)
{
  const char *name = kiste_box_get_name (self->box);
  g_auto(GStrv) argv = NULL;
  StatsRequest *request;

  /* Box names come from the store; never let one read as an option */
  if (name == NULL || name[0] == '\0' || name[0] == '-')
    return;

  argv = kiste_commands_stats_argv (kiste_box_page_get_engine (self), name);

  self->stats_cancellable = g_cancellable_new ();
  request = g_new0 (StatsRequest, 1);
  request->self = g_object_ref (self);
  request->cancellable = g_object_ref (self->stats_cancellable);

  kiste_runner_run_async (kiste_manager_get_runner (self->manager),
                          (const char * const *) argv, STATS_TIMEOUT_MS,
                          self->stats_cancellable, stats_cb, request);
}

static void
kiste_box_page_update_stats_polling (KisteBoxPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->resources_group), kiste_box_page_is_running (self));

  if (!kiste_box_page_wants_stats (self))
    {
      kiste_box_page_stop_stats (self);
      return;
    }

  /* Already waiting for the next round or for an answer */
  if (self->stats_source != 0 || self->stats_cancellable != NULL)
    return;

  kiste_box_page_fetch_stats (self);
}

static void
kiste_box_page_reset_stats (KisteBoxPage *self)
{
  kiste_box_page_stop_stats (self);
  self->stats_failed = FALSE;
  adw_preferences_group_set_description (self->resources_group, NULL);
  adw_action_row_set_subtitle (self->cpu_row, "…");
  adw_action_row_set_subtitle (self->memory_row, "…");
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
      if (!kiste_box_page_is_running (self))
        kiste_box_page_reset_stats (self);
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

/* Action helpers */

static void
operation_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* The window toasts every task's outcome; see the top of this file */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Operation failed: %s", error->message);
}

/* What a confirmation dialog needs once people answered */
typedef struct
{
  KisteBoxPage   *self;
  char           *box_name;
  GtkCheckButton *remove_home;
} Confirm;

static Confirm *
confirm_new (KisteBoxPage *self)
{
  Confirm *confirm = g_new0 (Confirm, 1);

  confirm->self = g_object_ref (self);
  confirm->box_name = g_strdup (kiste_box_get_name (self->box));
  return confirm;
}

static void
confirm_free (Confirm *confirm)
{
  g_clear_object (&confirm->self);
  g_clear_pointer (&confirm->box_name, g_free);
  g_clear_object (&confirm->remove_home);
  g_free (confirm);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Confirm, confirm_free)

/* NULL once the page is gone: then people's answer changes nothing */
static KisteManager *
confirm_get_manager (Confirm *confirm)
{
  return confirm->self->manager;
}

static AdwAlertDialog *
confirm_dialog_new (const char            *heading,
                    const char            *body,
                    const char            *response_id,
                    const char            *response_label,
                    AdwResponseAppearance  appearance)
{
  AdwAlertDialog *dialog = ADW_ALERT_DIALOG (adw_alert_dialog_new (heading, body));

  adw_alert_dialog_add_responses (dialog,
                                  "cancel", _("_Cancel"),
                                  response_id, response_label,
                                  NULL);
  adw_alert_dialog_set_response_appearance (dialog, response_id, appearance);
  adw_alert_dialog_set_default_response (dialog, "cancel");
  adw_alert_dialog_set_close_response (dialog, "cancel");
  return dialog;
}

/* Start, stop, restart, upgrade */

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL)
    return;
  kiste_manager_start_async (self->manager, kiste_box_get_name (self->box),
                             NULL, operation_done_cb, NULL);
}

static gboolean
kiste_box_page_should_confirm_stop (void)
{
  GApplication *app = g_application_get_default ();
  GSettings *settings;

  /* Without our application (tests, other hosts) there is no setting */
  if (!KISTE_IS_APPLICATION (app))
    return FALSE;
  settings = kiste_application_get_settings (KISTE_APPLICATION (app));
  return settings != NULL && g_settings_get_boolean (settings, "confirm-stop");
}

static void
stop_confirmed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager == NULL)
    return;
  if (g_str_equal (response, "stop"))
    kiste_manager_stop_async (manager, confirm->box_name,
                              NULL, operation_done_cb, NULL);
  else if (g_str_equal (response, "restart"))
    kiste_manager_restart_async (manager, confirm->box_name,
                                 NULL, operation_done_cb, NULL);
}

static void
kiste_box_page_ask_stop (KisteBoxPage *self,
                         gboolean      restart)
{
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;
  const char *name = kiste_box_get_name (self->box);

  if (!kiste_box_page_should_confirm_stop ())
    {
      if (restart)
        kiste_manager_restart_async (self->manager, name, NULL, operation_done_cb, NULL);
      else
        kiste_manager_stop_async (self->manager, name, NULL, operation_done_cb, NULL);
      return;
    }

  if (restart)
    heading = g_strdup_printf (_("Restart “%s”?"), name);
  else
    heading = g_strdup_printf (_("Stop “%s”?"), name);
  dialog = confirm_dialog_new (heading,
                               _("Programs running in it will be closed."),
                               restart ? "restart" : "stop",
                               restart ? _("_Restart") : _("_Stop"),
                               ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, stop_confirmed_cb, confirm_new (self));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    kiste_box_page_ask_stop (self, FALSE);
}

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    kiste_box_page_ask_stop (self, TRUE);
}

static void
upgrade_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  /* The task collects the package manager's output; the task list shows it */
  if (self->box != NULL)
    kiste_manager_upgrade_async (self->manager, kiste_box_get_name (self->box),
                                 NULL, operation_done_cb, NULL);
}

/* Clone and rename */

static char *
suggest_clone_name (const char         *source,
                    const char * const *names)
{
  /* Translators: added to a box's name to suggest a name for its copy
   * ("debian-copy"); only ASCII letters, digits, "-" and "_" */
  const char *suffix = C_("box name", "copy");

  for (guint i = 1; i < 100; i++)
    {
      g_autofree char *candidate = NULL;

      if (i == 1)
        candidate = g_strdup_printf ("%s-%s", source, suffix);
      else
        candidate = g_strdup_printf ("%s-%s-%u", source, suffix, i);
      if (kiste_validate_name (candidate, names, NULL))
        return g_steal_pointer (&candidate);
    }
  return g_strdup ("");
}

static void
clone_named_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  KisteNameDialog *dialog = KISTE_NAME_DIALOG (object);
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (dialog), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager == NULL || !g_str_equal (response, KISTE_NAME_DIALOG_RESPONSE_ACCEPT))
    return;

  /* People agreed to stop a running source before naming the copy */
  kiste_manager_clone_async (manager, confirm->box_name,
                             kiste_name_dialog_get_name (dialog), TRUE,
                             NULL, operation_done_cb, NULL);
}

static void
kiste_box_page_ask_clone_name (KisteBoxPage *self,
                               Confirm      *confirm)
{
  g_auto(GStrv) names = kiste_box_page_dup_box_names (self);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  g_autofree char *suggestion = NULL;
  KisteNameDialog *dialog;

  heading = g_strdup_printf (_("Clone “%s”"), confirm->box_name);
  body = g_strdup_printf (_("The copy starts with everything installed in “%s”."), confirm->box_name);
  suggestion = suggest_clone_name (confirm->box_name, (const char * const *) names);
  dialog = kiste_name_dialog_new (heading, body, _("_Clone"), suggestion, NULL,
                                  (const char * const *) names);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           clone_named_cb, confirm);
}

static void
clone_stop_confirmed_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  Confirm *owned;

  if (confirm_get_manager (confirm) == NULL || !g_str_equal (response, "continue"))
    return;
  owned = g_steal_pointer (&confirm);
  kiste_box_page_ask_clone_name (owned->self, owned);
}

static void
clone_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;

  if (self->box == NULL)
    return;

  if (!kiste_box_page_is_running (self))
    {
      kiste_box_page_ask_clone_name (self, confirm_new (self));
      return;
    }

  heading = g_strdup_printf (_("Stop “%s” to Clone It?"), kiste_box_get_name (self->box));
  dialog = confirm_dialog_new (heading,
                               _("The box must be stopped to clone it. It is stopped once you "
                                 "choose a name for the copy; programs running in it will be closed."),
                               "continue", _("C_ontinue"),
                               ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, clone_stop_confirmed_cb, confirm_new (self));
}

static void
rename_named_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  KisteNameDialog *dialog = KISTE_NAME_DIALOG (object);
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (dialog), result);
  KisteManager *manager = confirm_get_manager (confirm);

  if (manager != NULL && g_str_equal (response, KISTE_NAME_DIALOG_RESPONSE_ACCEPT))
    kiste_manager_rename_async (manager, confirm->box_name,
                                kiste_name_dialog_get_name (dialog),
                                NULL, operation_done_cb, NULL);
}

static void
rename_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_auto(GStrv) names = NULL;
  g_autofree char *heading = NULL;
  KisteNameDialog *dialog;
  const char *name;

  if (self->box == NULL)
    return;

  name = kiste_box_get_name (self->box);
  names = kiste_box_page_dup_box_names (self);
  heading = g_strdup_printf (_("Rename “%s”"), name);
  dialog = kiste_name_dialog_new (heading,
                                  _("Exported apps and programs follow the new name."),
                                  _("_Rename"), name, name,
                                  (const char * const *) names);
  adw_alert_dialog_choose (ADW_ALERT_DIALOG (dialog), GTK_WIDGET (self), NULL,
                           rename_named_cb, confirm_new (self));
}

/* Clone with changes and export settings: both start from what is known
 * of the box, so its details (namespaces) are read first when missing */

typedef void (*WithBoxFunc) (KisteBoxPage *self,
                             KisteBox     *box);

typedef struct
{
  KisteBoxPage *self;
  char         *box_name;
  WithBoxFunc   func;
} WithBox;

static void
with_box_free (WithBox *with)
{
  g_clear_object (&with->self);
  g_free (with->box_name);
  g_free (with);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (WithBox, with_box_free)

static void
with_box_run (WithBox *with)
{
  KisteBox *box;

  /* the page is gone, or the box is */
  if (with->self->manager == NULL)
    return;
  box = kiste_box_store_find_by_name (kiste_manager_get_store (with->self->manager), with->box_name);
  if (box != NULL)
    with->func (with->self, box);
}

static void
with_box_details_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(WithBox) with = user_data;
  g_autoptr(GError) error = NULL;

  /* without details the namespaces stay unknown, hence shared: still useful */
  if (!kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_debug ("Could not load the details of a box: %s", error->message);
    }
  with_box_run (with);
}

/* Calls func with the box named box_name once its details are there */
static void
kiste_box_page_with_details (KisteBoxPage *self,
                             const char   *box_name,
                             WithBoxFunc   func)
{
  g_autoptr(WithBox) with = g_new0 (WithBox, 1);
  KisteBox *box;

  with->self = g_object_ref (self);
  with->box_name = g_strdup (box_name);
  with->func = func;

  box = kiste_box_store_find_by_name (kiste_manager_get_store (self->manager), box_name);
  if (box == NULL)
    return;
  if (kiste_box_get_has_details (box))
    {
      with_box_run (with);
      return;
    }

  kiste_box_store_load_details_async (kiste_manager_get_store (self->manager), &box, 1,
                                      self->cancellable, with_box_details_cb,
                                      g_steal_pointer (&with));
}

static void
kiste_box_page_open_clone_dialog (KisteBoxPage *self,
                                  KisteBox     *box)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_auto(GStrv) names = kiste_box_page_dup_box_names (self);
  g_autofree char *suggestion = NULL;
  KisteCreateDialog *dialog;

  /* "-copy" in people's language, and free */
  suggestion = suggest_clone_name (kiste_box_get_name (box), (const char * const *) names);
  kiste_create_options_set_name (options, suggestion);

  dialog = kiste_create_dialog_new (self->manager);
  kiste_create_dialog_set_options (dialog, options);
  adw_dialog_present (ADW_DIALOG (dialog), GTK_WIDGET (self));
}

static void
clone_changes_stopped_cb (GObject      *object,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  g_autoptr(GError) error = NULL;

  /* A failed stop is shown by the window like every task's outcome */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_debug ("Could not stop the box to clone it: %s", error->message);
      return;
    }
  if (confirm_get_manager (confirm) == NULL)
    return;
  kiste_box_page_with_details (confirm->self, confirm->box_name, kiste_box_page_open_clone_dialog);
}

static void
clone_changes_confirmed_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);
  const char *box_name;

  if (manager == NULL || !g_str_equal (response, "stop"))
    return;

  /* distrobox copies stopped boxes only: stop it now, so the dialog's
   * Create works as it says */
  box_name = confirm->box_name;
  kiste_manager_stop_async (manager, box_name, NULL,
                            clone_changes_stopped_cb, g_steal_pointer (&confirm));
}

static void
clone_with_changes_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autofree char *heading = NULL;
  AdwAlertDialog *dialog;

  if (self->box == NULL)
    return;

  if (!kiste_box_page_is_running (self))
    {
      kiste_box_page_with_details (self, kiste_box_get_name (self->box),
                                   kiste_box_page_open_clone_dialog);
      return;
    }

  heading = g_strdup_printf (_("Stop “%s” to Clone It?"), kiste_box_get_name (self->box));
  dialog = confirm_dialog_new (heading,
                               _("The box must be stopped to clone it. Kiste stops it now, "
                                 "then you choose the settings of the copy. Programs running in "
                                 "it will be closed."),
                               "stop", _("_Stop and Continue"),
                               ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, clone_changes_confirmed_cb,
                           confirm_new (self));
}

typedef struct
{
  KisteBoxPage *self;
  GFile        *file;
} ExportData;

static void
export_data_free (ExportData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->file);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportData, export_data_free)

static void
export_written_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(ExportData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  g_autofree char *basename = g_file_get_basename (data->file);

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      message = g_strdup_printf (_("Could not save the settings: %s"), error->message);
    }
  else
    message = g_strdup_printf (_("Settings saved as “%s”"), basename);

  kiste_box_page_toast (data->self, message);
}

/* The box as a distrobox.ini section: made from its image, not a copy */
static char *
dup_box_manifest (KisteBox  *box,
                  GError   **error)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (box);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();

  kiste_create_options_set_name (options, kiste_box_get_name (box));
  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, kiste_box_get_image (box));
  g_ptr_array_add (list, options);
  return kiste_assemble_to_data (list, error);
}

static void
kiste_box_page_write_settings (KisteBoxPage *self,
                               KisteBox     *box,
                               GFile        *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *manifest = NULL;
  g_autoptr(GBytes) bytes = NULL;
  ExportData *data;

  if (!(manifest = dup_box_manifest (box, &error)))
    {
      g_autofree char *message = g_strdup_printf (_("Could not save the settings: %s"),
                                                  error->message);

      kiste_box_page_toast (self, message);
      return;
    }

  bytes = g_bytes_new_take (manifest, strlen (manifest));
  manifest = NULL;
  data = g_new0 (ExportData, 1);
  data->self = g_object_ref (self);
  data->file = g_object_ref (file);
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION,
                                       self->cancellable, export_written_cb, data);
}

typedef struct
{
  KisteBoxPage *self;
  char         *box_name;
} ExportChoice;

static void
export_choice_free (ExportChoice *choice)
{
  g_clear_object (&choice->self);
  g_free (choice->box_name);
  g_free (choice);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ExportChoice, export_choice_free)

static void
export_file_chosen_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(ExportChoice) choice = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  if (!(file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) &&
          !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        kiste_box_page_toast (choice->self, error->message);
      return;
    }

  if (choice->self->manager == NULL)
    return;
  box = kiste_box_store_find_by_name (kiste_manager_get_store (choice->self->manager),
                                      choice->box_name);
  if (box != NULL)
    kiste_box_page_write_settings (choice->self, box, file);
}

static void
kiste_box_page_export_settings (KisteBoxPage *self,
                                KisteBox     *box)
{
  g_autoptr(GtkFileDialog) dialog = NULL;
  g_autoptr(GListStore) filters = NULL;
  g_autoptr(GtkFileFilter) manifests = NULL;
  g_autofree char *initial_name = NULL;
  ExportChoice *choice;
  GtkRoot *root;

  if (self->export_file != NULL)
    {
      kiste_box_page_write_settings (self, box, self->export_file);
      return;
    }

  manifests = gtk_file_filter_new ();
  gtk_file_filter_set_name (manifests, _("distrobox Manifests"));
  gtk_file_filter_add_pattern (manifests, "*.ini");
  filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_list_store_append (filters, manifests);

  initial_name = g_strdup_printf ("%s.ini", kiste_box_get_name (box));
  dialog = gtk_file_dialog_new ();
  gtk_file_dialog_set_title (dialog, _("Export Settings"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_initial_name (dialog, initial_name);

  choice = g_new0 (ExportChoice, 1);
  choice->self = g_object_ref (self);
  choice->box_name = g_strdup (kiste_box_get_name (box));
  root = gtk_widget_get_root (GTK_WIDGET (self));
  gtk_file_dialog_save (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                        self->cancellable, export_file_chosen_cb, choice);
}

static void
export_settings_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box != NULL)
    kiste_box_page_with_details (self, kiste_box_get_name (self->box),
                                 kiste_box_page_export_settings);
}

/* Delete */

static void
delete_confirmed_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(Confirm) confirm = user_data;
  const char *response = adw_alert_dialog_choose_finish (ADW_ALERT_DIALOG (object), result);
  KisteManager *manager = confirm_get_manager (confirm);
  gboolean remove_home;

  if (manager == NULL || !g_str_equal (response, "delete"))
    return;

  remove_home = confirm->remove_home != NULL && gtk_check_button_get_active (confirm->remove_home);
  kiste_manager_delete_async (manager, confirm->box_name, remove_home,
                              NULL, operation_done_cb, NULL);
}

static char *
format_delete_body (KisteBox  *box,
                    GPtrArray *exported)
{
  g_autoptr(GString) body = g_string_new (NULL);

  g_string_append (body, _("The box and everything installed in it will be deleted. This cannot be undone."));

  if (exported != NULL && exported->len > 0)
    {
      g_autofree char *apps = join_exported_names (exported, KISTE_EXPORTED_APP);
      g_autofree char *programs = join_exported_names (exported, KISTE_EXPORTED_BINARY);
      g_autofree char *counts = format_exported (exported);
      g_autofree char *names = NULL;

      if (apps != NULL && programs != NULL)
        names = g_strconcat (apps, _(", "), programs, NULL);
      else
        names = g_strdup (apps ? apps : programs);

      g_string_append (body, "\n\n");
      /* Translators: "Removed with it: 2 apps and 1 program it exported (Viewer, Editor, x11perf)." */
      g_string_append_printf (body, _("Removed with it: %s it exported (%s)."), counts, names);
    }

  g_string_append (body, "\n\n");
  if (kiste_box_has_custom_home (box))
    g_string_append_printf (body, _("Its own home folder %s is kept unless you choose otherwise below."),
                            kiste_box_get_home (box));
  else
    g_string_append (body, _("Files in your home folder are kept."));

  return g_string_free_and_steal (g_steal_pointer (&body));
}

static void
kiste_box_page_ask_delete (KisteBoxPage *self,
                           GPtrArray    *exported)
{
  Confirm *confirm = confirm_new (self);
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  AdwAlertDialog *dialog;

  heading = g_strdup_printf (_("Delete “%s”?"), confirm->box_name);
  body = format_delete_body (self->box, exported);
  dialog = confirm_dialog_new (heading, body, "delete", _("_Delete"), ADW_RESPONSE_DESTRUCTIVE);

  if (kiste_box_has_custom_home (self->box))
    {
      g_autofree char *label_text = NULL;
      GtkWidget *check;
      GtkWidget *label;

      label_text = g_strdup_printf (_("Also delete the custom home folder %s"),
                                    kiste_box_get_home (self->box));
      label = gtk_label_new (label_text);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (label), 0);

      check = gtk_check_button_new ();
      gtk_check_button_set_child (GTK_CHECK_BUTTON (check), label);
      gtk_widget_set_halign (check, GTK_ALIGN_CENTER);
      gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, label_text,
                                      -1);
      adw_alert_dialog_set_extra_child (dialog, check);
      confirm->remove_home = GTK_CHECK_BUTTON (g_object_ref (check));
    }

  adw_alert_dialog_choose (dialog, GTK_WIDGET (self), NULL, delete_confirmed_cb, confirm);
}

static void
delete_exported_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  files = kiste_manager_list_exported_finish (KISTE_MANAGER (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->delete_cancellable);

  if (self->box == NULL || kiste_box_page_is_busy (self))
    return;

  /* Without the list the dialog still names the box, just not the files */
  if (error != NULL)
    g_debug ("Could not list exported files: %s", error->message);
  kiste_box_page_ask_delete (self, files);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL || self->delete_cancellable != NULL)
    return;

  /* Name exactly what goes: list the exported files fresh */
  self->delete_cancellable = g_cancellable_new ();
  kiste_manager_list_exported_async (self->manager, kiste_box_get_name (self->box),
                                     self->delete_cancellable, delete_exported_cb,
                                     g_object_ref (self));
}

/* Terminal, copy, log, home */

static void
open_terminal_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  /* The window owns the tabs */
  if (self->box != NULL)
    gtk_widget_activate_action (widget, "win.open-terminal", "s", kiste_box_get_name (self->box));
}

static void
copy_enter_command_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autofree char *quoted = NULL;
  g_autofree char *command = NULL;
  const char *name;
  gboolean plain = TRUE;

  if (self->box == NULL)
    return;

  name = kiste_box_get_name (self->box);
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_' && *p != '.')
      plain = FALSE;
  quoted = plain ? g_strdup (name) : g_shell_quote (name);

  command = g_strdup_printf ("distrobox enter %s", quoted);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), command);
  kiste_box_page_toast (self, _("Copied"));
}

static void
view_log_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);

  if (self->box == NULL)
    return;
  adw_dialog_present (ADW_DIALOG (kiste_log_dialog_new (self->manager, self->box)), widget);
}

static void
open_home_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(KisteBoxPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (gtk_file_launcher_launch_finish (GTK_FILE_LAUNCHER (object), result, &error))
    return;
  if (g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) ||
      g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_debug ("Could not open the home folder: %s", error->message);
  kiste_box_page_toast (self, _("Could not open the home folder"));
}

static void
open_home_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (widget);
  g_autoptr(GtkFileLauncher) launcher = NULL;
  g_autoptr(GFile) file = NULL;
  GtkRoot *root;
  const char *home;

  if (self->box == NULL || !(home = kiste_box_get_home (self->box)))
    return;

  file = g_file_new_for_path (home);
  launcher = gtk_file_launcher_new (file);
  root = gtk_widget_get_root (widget);
  gtk_file_launcher_launch (launcher, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                            NULL, open_home_cb, g_object_ref (self));
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

  kiste_box_page_update_stats_polling (KISTE_BOX_PAGE (widget));
}

static void
kiste_box_page_unmap (GtkWidget *widget)
{
  kiste_box_page_stop_stats (KISTE_BOX_PAGE (widget));

  GTK_WIDGET_CLASS (kiste_box_page_parent_class)->unmap (widget);
}

static void
kiste_box_page_constructed (GObject *object)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);
  GApplication *app = g_application_get_default ();

  G_OBJECT_CLASS (kiste_box_page_parent_class)->constructed (object);

  /* Built from a template: share the application's manager */
  if (self->manager == NULL && KISTE_IS_APPLICATION (app))
    self->manager = g_object_ref (kiste_application_get_manager (KISTE_APPLICATION (app)));
  g_return_if_fail (KISTE_IS_MANAGER (self->manager));

  g_signal_connect_object (self->manager, "busy-changed",
                           G_CALLBACK (busy_changed_cb), self, G_CONNECT_SWAPPED);
  if (KISTE_IS_APPLICATION (app))
    kiste_color_row_set_settings (self->color_row,
                                  kiste_application_get_settings (KISTE_APPLICATION (app)));
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

    case PROP_BOX:
      kiste_box_page_set_box (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_box_page_dispose (GObject *object)
{
  KisteBoxPage *self = KISTE_BOX_PAGE (object);

  kiste_box_page_stop_stats (self);
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

  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_BOX_PAGE);

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  g_clear_object (&self->manager);

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
  properties[PROP_BOX] =
    g_param_spec_object ("box", NULL, NULL, KISTE_TYPE_BOX,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (KISTE_TYPE_COLOR_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-box-page.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, color_row);
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
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, state_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, created_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, init_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, nvidia_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, exported_row);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxPage, manager_row);
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
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);

  gtk_widget_class_install_action (widget_class, "box.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "box.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "box.restart", NULL, restart_action);
  gtk_widget_class_install_action (widget_class, "box.upgrade", NULL, upgrade_action);
  gtk_widget_class_install_action (widget_class, "box.clone", NULL, clone_action);
  gtk_widget_class_install_action (widget_class, "box.clone-with-changes", NULL,
                                   clone_with_changes_action);
  gtk_widget_class_install_action (widget_class, "box.rename", NULL, rename_action);
  gtk_widget_class_install_action (widget_class, "box.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "box.open-terminal", NULL, open_terminal_action);
  gtk_widget_class_install_action (widget_class, "box.copy-enter-command", NULL,
                                   copy_enter_command_action);
  gtk_widget_class_install_action (widget_class, "box.view-log", NULL, view_log_action);
  gtk_widget_class_install_action (widget_class, "box.export-settings", NULL,
                                   export_settings_action);
  gtk_widget_class_install_action (widget_class, "box.open-home", NULL, open_home_action);
}

static void
kiste_box_page_init (KisteBoxPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The bin's own child: AdwBin unparents it, the template must not */
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));
  self->cancellable = g_cancellable_new ();
  ensure_style (GTK_WIDGET (self));

  for (guint i = 0; i < G_N_ELEMENTS (operation_actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), operation_actions[i], FALSE);
}

KisteBoxPage *
kiste_box_page_new (KisteManager *manager)
{
  g_return_val_if_fail (!manager || KISTE_IS_MANAGER (manager), NULL);

  return g_object_new (KISTE_TYPE_BOX_PAGE, "manager", manager, NULL);
}

KisteManager *
kiste_box_page_get_manager (KisteBoxPage *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_PAGE (self), NULL);

  return self->manager;
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
  kiste_box_page_reset_stats (self);

  kiste_color_row_set_box_name (self->color_row, box ? kiste_box_get_name (box) : NULL);

  if (self->manager != NULL)
    {
      kiste_box_page_load_details (self);
      kiste_box_page_load_exported (self);
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
kiste_box_page_set_export_file_for_testing (KisteBoxPage *self,
                                            GFile        *file)
{
  g_return_if_fail (KISTE_IS_BOX_PAGE (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  g_set_object (&self->export_file, file);
}
