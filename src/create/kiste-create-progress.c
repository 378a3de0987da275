/* kiste-create-progress.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-create-progress.h"
#include "kiste-distro.h"

#define PULSE_INTERVAL_MS 120

typedef enum
{
  STAGE_DOWNLOAD,
  STAGE_CREATE,
  STAGE_START,
  N_STAGES
} Stage;

typedef enum
{
  STAGE_STATE_PENDING,
  STAGE_STATE_ACTIVE,
  STAGE_STATE_DONE,
  STAGE_STATE_SKIPPED,
  STAGE_STATE_FAILED,
  STAGE_STATE_STOPPED,
} StageState;

struct _KisteCreateProgress
{
  AdwBin          parent_instance;

  KisteTask      *task;
  char           *name;
  Stage           stage;
  StageState      stage_states[N_STAGES];
  guint           pulse_id;
  /* The log stays at its newest line until people scroll up to read */
  gboolean        follow_log;
  double          log_value;
  GtkTextMark    *log_end;

  /* Template widgets */
  GtkImage       *icon;
  GtkLabel       *title;
  GtkLabel       *subtitle;
  AdwActionRow   *download_stage_row;
  AdwActionRow   *create_stage_row;
  AdwActionRow   *start_stage_row;
  GtkStack       *download_stage_icon;
  GtkStack       *create_stage_icon;
  GtkStack       *start_stage_icon;
  GtkWidget      *progress_area;
  GtkLabel       *stage_label;
  GtkProgressBar *progress_bar;
  GtkLabel       *step_label;
  GtkWidget      *failure_area;
  GtkLabel       *error_label;
  GtkButton      *delete_button;
  GtkButton      *retry_button;
  GtkScrolledWindow *log_scroller;
  GtkTextView    *log_view;
};

G_DEFINE_FINAL_TYPE (KisteCreateProgress, kiste_create_progress, ADW_TYPE_BIN)

enum {
  RETRY,
  DELETE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

KisteCreateProgress *
kiste_create_progress_new (void)
{
  return g_object_new (KISTE_TYPE_CREATE_PROGRESS, NULL);
}

static GtkStack *
stage_icon (KisteCreateProgress *self,
            Stage                stage)
{
  GtkStack *icons[N_STAGES] = { self->download_stage_icon, self->create_stage_icon,
                                self->start_stage_icon };

  return icons[stage];
}

static AdwActionRow *
stage_row (KisteCreateProgress *self,
           Stage                stage)
{
  AdwActionRow *rows[N_STAGES] = { self->download_stage_row, self->create_stage_row,
                                   self->start_stage_row };

  return rows[stage];
}

static void
set_stage_state (KisteCreateProgress *self,
                 Stage                stage,
                 StageState           state,
                 const char          *subtitle)
{
  const char *names[] = { "pending", "active", "done", "done", "failed", "stopped" };
  AdwActionRow *row = stage_row (self, stage);

  self->stage_states[stage] = state;
  gtk_stack_set_visible_child_name (stage_icon (self, stage), names[state]);
  adw_action_row_set_subtitle (row, subtitle ? subtitle : "");
  if (state == STAGE_STATE_PENDING)
    gtk_widget_add_css_class (GTK_WIDGET (row), "dim-label");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (row), "dim-label");
}

static gboolean
pulse_cb (gpointer user_data)
{
  KisteCreateProgress *self = user_data;

  gtk_progress_bar_pulse (self->progress_bar);
  return G_SOURCE_CONTINUE;
}

/* fraction < 0: unknown, the bar pulses */
static void
set_fraction (KisteCreateProgress *self,
              double               fraction)
{
  if (fraction < 0)
    {
      if (self->pulse_id == 0)
        self->pulse_id = g_timeout_add (PULSE_INTERVAL_MS, pulse_cb, self);
      return;
    }

  g_clear_handle_id (&self->pulse_id, g_source_remove);
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
}

static void
set_stage (KisteCreateProgress *self,
           Stage                stage)
{
  const char *labels[N_STAGES] = {
    N_("Downloading the image"),
    N_("Creating the box"),
    N_("Setting up the box on its first start"),
  };

  for (guint i = 0; i < stage; i++)
    if (self->stage_states[i] == STAGE_STATE_PENDING || self->stage_states[i] == STAGE_STATE_ACTIVE)
      set_stage_state (self, i, STAGE_STATE_DONE, NULL);

  self->stage = stage;
  set_stage_state (self, stage, STAGE_STATE_ACTIVE, NULL);
  gtk_label_set_text (self->stage_label, _(labels[stage]));
  gtk_label_set_text (self->step_label, "");
  set_fraction (self, -1);
}

static void
append_log (KisteCreateProgress *self,
            const char          *line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->log_view);
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  if (gtk_text_buffer_get_char_count (buffer) > 0)
    gtk_text_buffer_insert (buffer, &end, "\n", 1);
  gtk_text_buffer_insert (buffer, &end, line, -1);

  /* the view scrolls once it has laid the new lines out */
  if (self->follow_log)
    gtk_text_view_scroll_to_mark (self->log_view, self->log_end, 0.0, TRUE, 0.0, 1.0);
}

/* People scrolling up stop the following, scrolling to the end starts it;
 * the view moving on its own while it lays out new lines does neither */
static void
log_scrolled_cb (KisteCreateProgress *self,
                 GtkAdjustment       *adjustment)
{
  double value = gtk_adjustment_get_value (adjustment);
  /* the view scrolls its last line to the bottom, above its margin */
  double end = gtk_adjustment_get_upper (adjustment) - gtk_text_view_get_bottom_margin (self->log_view) - 1;

  if (value + gtk_adjustment_get_page_size (adjustment) >= end)
    self->follow_log = TRUE;
  else if (value < self->log_value - 1)
    self->follow_log = FALSE;
  self->log_value = value;
}

static void
task_line_cb (KisteTask           *task,
              const char          *line,
              KisteCreateProgress *self)
{
  append_log (self, line);

  if (self->stage == STAGE_START)
    return;

  /* the first line is the command itself */
  if (g_str_has_prefix (line, "distrobox create"))
    return;

  if (g_str_has_prefix (line, "Trying to pull") ||
      g_str_has_prefix (line, "Getting image source signatures") ||
      g_str_has_prefix (line, "Copying blob") ||
      g_str_has_prefix (line, "Copying config") ||
      (g_str_has_prefix (line, "Image ") && strstr (line, "not found") != NULL))
    {
      if (self->stage != STAGE_DOWNLOAD)
        set_stage (self, STAGE_DOWNLOAD);
    }
  else if (g_str_has_prefix (line, "Creating '") || g_str_has_prefix (line, "Creating \""))
    {
      if (self->stage != STAGE_CREATE)
        set_stage (self, STAGE_CREATE);
    }

  if (line[0] != '\0')
    gtk_label_set_text (self->step_label, line);
}

static void
task_progress_cb (KisteTask           *task,
                  GParamSpec          *pspec,
                  KisteCreateProgress *self)
{
  const char *step = kiste_task_get_step (task);

  if (self->stage != STAGE_START)
    return;

  if (step != NULL)
    {
      gtk_label_set_text (self->step_label, step);
      adw_action_row_set_subtitle (self->start_stage_row, step);
    }
  set_fraction (self, kiste_task_get_fraction (task));
}

static void
follow_task (KisteCreateProgress *self,
             KisteTask           *task)
{
  if (self->task != NULL)
    g_signal_handlers_disconnect_by_data (self->task, self);
  g_set_object (&self->task, task);
  if (task == NULL)
    return;

  g_signal_connect_object (task, "line", G_CALLBACK (task_line_cb), self, 0);
  g_signal_connect_object (task, "notify::step", G_CALLBACK (task_progress_cb), self, 0);
  g_signal_connect_object (task, "notify::fraction", G_CALLBACK (task_progress_cb), self, 0);
}

void
kiste_create_progress_begin (KisteCreateProgress *self,
                             KisteCreateOptions  *options,
                             gboolean             image_local)
{
  g_autofree char *title = NULL;
  const char *image;
  const char *clone_source;

  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (options));

  kiste_create_progress_stop (self);
  g_set_str (&self->name, kiste_create_options_get_name (options));
  image = kiste_create_options_get_image (options);
  clone_source = kiste_create_options_get_clone_source (options);

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->log_view), "", 0);
  self->follow_log = TRUE;
  self->log_value = 0;

  title = g_strdup_printf (_("Creating “%s”"), self->name);
  gtk_label_set_text (self->title, title);
  if (clone_source != NULL && clone_source[0])
    {
      g_autofree char *subtitle = g_strdup_printf (_("A copy of %s"), clone_source);

      gtk_label_set_text (self->subtitle, subtitle);
    }
  else
    gtk_label_set_text (self->subtitle, image);
  gtk_image_set_from_icon_name (self->icon, kiste_distro_icon_name (kiste_distro_id_for_image (image)));
  gtk_widget_remove_css_class (GTK_WIDGET (self->icon), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->icon), "warning");
  gtk_widget_add_css_class (GTK_WIDGET (self->icon), "dim-label");
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (self->progress_area, TRUE);
  gtk_widget_set_visible (self->failure_area, FALSE);

  for (guint i = 0; i < N_STAGES; i++)
    set_stage_state (self, i, STAGE_STATE_PENDING, NULL);

  /* a pull shows up in the output; an image known here needs none */
  if (image_local && !kiste_create_options_get_pull (options))
    {
      set_stage_state (self, STAGE_DOWNLOAD, STAGE_STATE_SKIPPED,
                       _("The image is on this computer already"));
      set_stage (self, STAGE_CREATE);
    }
  else
    set_stage (self, STAGE_DOWNLOAD);
}

void
kiste_create_progress_follow (KisteCreateProgress *self,
                              KisteTask           *task,
                              KisteCreationStep    step)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));
  g_return_if_fail (KISTE_IS_TASK (task));

  if (step == KISTE_CREATION_STEP_CREATE)
    {
      const char *output = kiste_task_get_output (task);

      follow_task (self, task);

      /* lines printed before we connected */
      if (output != NULL && output[0] != '\0')
        {
          g_auto(GStrv) lines = g_strsplit (output, "\n", -1);

          for (guint i = 0; lines[i] != NULL; i++)
            if (lines[i][0] != '\0')
              task_line_cb (task, lines[i], self);
        }
      return;
    }

  set_stage_state (self, STAGE_CREATE, STAGE_STATE_DONE, NULL);
  if (self->stage_states[STAGE_DOWNLOAD] == STAGE_STATE_PENDING)
    set_stage_state (self, STAGE_DOWNLOAD, STAGE_STATE_SKIPPED,
                     _("The image was on this computer already"));

  set_stage (self, STAGE_START);
  append_log (self, "");
  follow_task (self, task);
}

KisteTask *
kiste_create_progress_get_task (KisteCreateProgress *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_PROGRESS (self), NULL);
  return self->task;
}

void
kiste_create_progress_stopping (KisteCreateProgress *self)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));
  gtk_label_set_text (self->step_label, _("Stopping…"));
}

void
kiste_create_progress_succeeded (KisteCreateProgress *self)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));

  set_stage_state (self, STAGE_START, STAGE_STATE_DONE, NULL);
  gtk_progress_bar_set_fraction (self->progress_bar, 1);
  kiste_create_progress_stop (self);
}

void
kiste_create_progress_failed (KisteCreateProgress *self,
                              const GError        *error,
                              gboolean             box_exists)
{
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_autofree char *title = NULL;
  const char *message;

  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));
  g_return_if_fail (error != NULL);

  kiste_create_progress_stop (self);
  gtk_widget_set_visible (self->progress_area, FALSE);
  gtk_widget_set_visible (self->failure_area, TRUE);

  /* the stage that was running, or the one that was about to */
  for (guint i = 0; i < N_STAGES; i++)
    {
      if (self->stage_states[i] == STAGE_STATE_ACTIVE || self->stage_states[i] == STAGE_STATE_PENDING)
        {
          set_stage_state (self, i, cancelled ? STAGE_STATE_STOPPED : STAGE_STATE_FAILED, NULL);
          break;
        }
    }

  if (cancelled)
    {
      title = g_strdup (_("Creation Stopped"));
      if (self->stage == STAGE_START && box_exists)
        message = _("The box exists, but its first setup did not finish. It continues the next "
                    "time the box starts.");
      else if (box_exists)
        message = _("The box was created before it stopped.");
      else
        message = _("No box was created.");
    }
  else
    {
      title = g_strdup_printf (_("Could Not Create “%s”"), self->name);
      message = error->message;
    }

  gtk_label_set_text (self->title, title);
  gtk_label_set_text (self->error_label, message);
  gtk_widget_set_visible (GTK_WIDGET (self->delete_button), box_exists);
  gtk_image_set_from_icon_name (self->icon, cancelled ? "process-stop-symbolic" : "dialog-error-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->icon), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->icon), cancelled ? "warning" : "error");
}

void
kiste_create_progress_set_deleting (KisteCreateProgress *self,
                                    gboolean             deleting)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));

  gtk_widget_set_sensitive (GTK_WIDGET (self->delete_button), !deleting);
  gtk_widget_set_sensitive (GTK_WIDGET (self->retry_button), !deleting);
}

void
kiste_create_progress_deleted (KisteCreateProgress *self)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));

  kiste_create_progress_set_deleting (self, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->delete_button), FALSE);
}

void
kiste_create_progress_stop (KisteCreateProgress *self)
{
  g_return_if_fail (KISTE_IS_CREATE_PROGRESS (self));

  follow_task (self, NULL);
  g_clear_handle_id (&self->pulse_id, g_source_remove);
}

GtkWidget *
kiste_create_progress_get_retry_button (KisteCreateProgress *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_PROGRESS (self), NULL);
  return GTK_WIDGET (self->retry_button);
}

static void
kiste_create_progress_retry_clicked_cb (KisteCreateProgress *self)
{
  g_signal_emit (self, signals[RETRY], 0);
}

static void
kiste_create_progress_delete_clicked_cb (KisteCreateProgress *self)
{
  g_signal_emit (self, signals[DELETE], 0);
}

/* The icons say the state to screen readers too */
static GtkWidget *
stage_icon_new (const char *icon_name,
                const char *css_class,
                const char *label)
{
  GtkWidget *icon = icon_name ? gtk_image_new_from_icon_name (icon_name) : adw_spinner_new ();

  if (css_class != NULL)
    gtk_widget_add_css_class (icon, css_class);
  gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  return icon;
}

static void
fill_stage_icons (GtkStack *stack)
{
  gtk_stack_add_named (stack, stage_icon_new ("radio-symbolic", "dim-label", _("Waiting")), "pending");
  gtk_stack_add_named (stack, stage_icon_new (NULL, NULL, _("In progress")), "active");
  gtk_stack_add_named (stack, stage_icon_new ("emblem-ok-symbolic", "success", _("Done")), "done");
  gtk_stack_add_named (stack, stage_icon_new ("dialog-error-symbolic", "error", _("Failed")), "failed");
  gtk_stack_add_named (stack, stage_icon_new ("process-stop-symbolic", "warning", _("Stopped")), "stopped");
}

static void
kiste_create_progress_dispose (GObject *object)
{
  KisteCreateProgress *self = KISTE_CREATE_PROGRESS (object);

  kiste_create_progress_stop (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_CREATE_PROGRESS);

  G_OBJECT_CLASS (kiste_create_progress_parent_class)->dispose (object);
}

static void
kiste_create_progress_finalize (GObject *object)
{
  KisteCreateProgress *self = KISTE_CREATE_PROGRESS (object);

  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (kiste_create_progress_parent_class)->finalize (object);
}

static void
kiste_create_progress_class_init (KisteCreateProgressClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_create_progress_dispose;
  object_class->finalize = kiste_create_progress_finalize;

  /**
   * KisteCreateProgress::retry:
   *
   * People want to change the settings and try again.
   */
  signals[RETRY] =
    g_signal_new ("retry",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
  /**
   * KisteCreateProgress::delete:
   *
   * People want the box that was left behind deleted.
   */
  signals[DELETE] =
    g_signal_new ("delete",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-create-progress.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, title);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, subtitle);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, download_stage_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, create_stage_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, start_stage_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, download_stage_icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, create_stage_icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, start_stage_icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, progress_area);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, stage_label);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, step_label);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, failure_area);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, error_label);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, delete_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, retry_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, log_scroller);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateProgress, log_view);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_progress_retry_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_progress_delete_clicked_cb);
}

static void
kiste_create_progress_init (KisteCreateProgress *self)
{
  GtkAdjustment *adjustment;
  GtkTextBuffer *buffer;
  GtkTextIter end;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->follow_log = TRUE;
  adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  g_signal_connect_object (adjustment, "value-changed", G_CALLBACK (log_scrolled_cb), self,
                           G_CONNECT_SWAPPED);
  /* right gravity: text added at the end goes before it */
  buffer = gtk_text_view_get_buffer (self->log_view);
  gtk_text_buffer_get_end_iter (buffer, &end);
  self->log_end = gtk_text_buffer_create_mark (buffer, NULL, &end, FALSE);

  fill_stage_icons (self->download_stage_icon);
  fill_stage_icons (self->create_stage_icon);
  fill_stage_icons (self->start_stage_icon);
}
