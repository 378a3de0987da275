/* kiste-task-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-task-row.h"

/* The output shows the newest lines only */
#define MAX_OUTPUT_LINES 2000
/* Lines come in bursts: lay the output out at most this often */
#define OUTPUT_UPDATE_MS 100
/* More lines than fit in the output's maximum height */
#define OUTPUT_MANY_LINES 10

struct _KisteTaskRow
{
  GtkListBoxRow      parent_instance;

  KisteTask         *task;
  GBinding          *cancel_binding;
  guint              output_update_id;
  guint              scrollbar_idle_id;
  guint              cancel_requested : 1;
  guint              follow_output : 1;

  /* Template widgets */
  AdwSpinner        *spinner;
  GtkImage          *state_image;
  GtkLabel          *title_label;
  GtkLabel          *time_label;
  GtkLabel          *status_label;
  GtkButton         *cancel_button;
  GtkProgressBar    *progress_bar;
  GtkExpander       *output_expander;
  GtkScrolledWindow *output_scroller;
  GtkLabel          *output_label;
};

G_DEFINE_FINAL_TYPE (KisteTaskRow, kiste_task_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  PROP_0,
  PROP_TASK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KisteTaskRow *
kiste_task_row_new (KisteTask *task)
{
  g_return_val_if_fail (KISTE_IS_TASK (task), NULL);

  return g_object_new (KISTE_TYPE_TASK_ROW,
                       "task", task,
                       NULL);
}

/**
 * kiste_task_row_get_task:
 *
 * Returns: (transfer none): the task the row shows
 */
KisteTask *
kiste_task_row_get_task (KisteTaskRow *self)
{
  g_return_val_if_fail (KISTE_IS_TASK_ROW (self), NULL);

  return self->task;
}

static void
kiste_task_row_show_output (KisteTaskRow *self)
{
  const char *output = kiste_task_get_output (self->task);
  const char *start = output;
  gsize len = strlen (output);
  g_autofree char *text = NULL;
  guint newlines = 0;

  g_clear_handle_id (&self->output_update_id, g_source_remove);

  /* Lines are joined, so the output does not end in an empty line */
  if (len > 0 && output[len - 1] == '\n')
    len--;

  for (const char *p = output + len; p > output; p--)
    {
      if (p[-1] == '\n' && ++newlines == MAX_OUTPUT_LINES)
        {
          start = p;
          break;
        }
    }

  text = g_strndup (start, output + len - start);
  gtk_label_set_text (self->output_label, text);
  /* Long output needs the scrollbar anyway: no frame at full height first */
  if (newlines >= OUTPUT_MANY_LINES)
    gtk_scrolled_window_set_policy (self->output_scroller, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_visible (GTK_WIDGET (self->output_expander), len > 0);
}

static gboolean
kiste_task_row_output_timeout_cb (gpointer data)
{
  KisteTaskRow *self = data;

  self->output_update_id = 0;
  kiste_task_row_show_output (self);
  return G_SOURCE_REMOVE;
}

static void
kiste_task_row_line_cb (KisteTaskRow *self,
                        const char   *line,
                        KisteTask    *task)
{
  if (!gtk_widget_get_visible (GTK_WIDGET (self->output_expander)))
    kiste_task_row_show_output (self);
  else if (self->output_update_id == 0)
    self->output_update_id = g_timeout_add (OUTPUT_UPDATE_MS, kiste_task_row_output_timeout_cb, self);
}

/* Stay at the newest line while people leave the output scrolled there */
static void
kiste_task_row_output_scrolled_cb (KisteTaskRow  *self,
                                   GtkAdjustment *adj)
{
  self->follow_output = gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj)
                        >= gtk_adjustment_get_upper (adj) - 1;
}

/* A scrollbar has a minimum length, which would pad short output with
 * empty space: only have one when the output is taller than the view */
static gboolean
kiste_task_row_scrollbar_idle_cb (gpointer data)
{
  KisteTaskRow *self = data;
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->output_scroller);
  gboolean scroll;

  self->scrollbar_idle_id = 0;
  scroll = gtk_adjustment_get_upper (adj) > gtk_scrolled_window_get_max_content_height (self->output_scroller);
  gtk_scrolled_window_set_policy (self->output_scroller,
                                  GTK_POLICY_NEVER,
                                  scroll ? GTK_POLICY_AUTOMATIC : GTK_POLICY_NEVER);
  return G_SOURCE_REMOVE;
}

static void
kiste_task_row_output_grown_cb (KisteTaskRow  *self,
                                GParamSpec    *pspec,
                                GtkAdjustment *adj)
{
  /* Not while being allocated */
  if (self->scrollbar_idle_id == 0)
    self->scrollbar_idle_id = g_idle_add (kiste_task_row_scrollbar_idle_cb, self);

  if (self->follow_output)
    gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
}

/* "Stopping · fedora" while it runs; once done, what came of it:
 * "“fedora” stopped", "Could not stop “fedora”" */
static void
kiste_task_row_update_title (KisteTaskRow *self)
{
  g_autofree char *title = NULL;
  const char *outcome = NULL;

  switch (kiste_task_get_state (self->task))
    {
    case KISTE_TASK_SUCCEEDED:
      outcome = kiste_task_get_done_message (self->task);
      break;

    case KISTE_TASK_FAILED:
      outcome = kiste_task_get_failed_message (self->task);
      break;

    case KISTE_TASK_RUNNING:
    case KISTE_TASK_CANCELLED:
    default:
      break;
    }

  if (outcome != NULL)
    title = g_strdup (outcome);
  else if (kiste_task_get_box_name (self->task) != NULL)
    /* Translators: a task and the box it works on, "Stopping · fedora" */
    title = g_strdup_printf (_("%s · %s"), kiste_task_get_title (self->task),
                             kiste_task_get_box_name (self->task));
  else
    title = g_strdup (kiste_task_get_title (self->task));

  gtk_label_set_text (self->title_label, title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);
}

static void
kiste_task_row_update (KisteTaskRow *self)
{
  KisteTaskState state = kiste_task_get_state (self->task);
  double fraction = kiste_task_get_fraction (self->task);
  const char *icon_name = NULL;
  const char *state_label = NULL;
  const char *status = NULL;
  const GError *error = NULL;

  gtk_widget_remove_css_class (GTK_WIDGET (self->state_image), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_image), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->state_image), "dim-label");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_label_set_selectable (self->status_label, FALSE);

  switch (state)
    {
    case KISTE_TASK_RUNNING:
      if (self->cancel_requested)
        status = _("Cancelling…");
      else if (kiste_task_get_step (self->task) != NULL)
        status = kiste_task_get_step (self->task);
      else
        status = _("Working…");
      break;

    case KISTE_TASK_SUCCEEDED:
      icon_name = "object-select-symbolic";
      state_label = status = _("Done");
      /* the title says what was done */
      if (kiste_task_get_done_message (self->task) != NULL)
        status = NULL;
      gtk_widget_add_css_class (GTK_WIDGET (self->state_image), "success");
      break;

    case KISTE_TASK_FAILED:
      icon_name = "dialog-error-symbolic";
      state_label = _("Failed");
      error = kiste_task_get_error (self->task);
      status = error != NULL ? error->message : state_label;
      gtk_widget_add_css_class (GTK_WIDGET (self->state_image), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
      /* People copy error messages into searches and bug reports */
      gtk_label_set_selectable (self->status_label, TRUE);
      break;

    case KISTE_TASK_CANCELLED:
      icon_name = "process-stop-symbolic";
      state_label = status = _("Cancelled");
      gtk_widget_add_css_class (GTK_WIDGET (self->state_image), "dim-label");
      break;

    default:
      g_assert_not_reached ();
    }

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), state == KISTE_TASK_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->state_image), state != KISTE_TASK_RUNNING);
  if (icon_name != NULL)
    {
      gtk_image_set_from_icon_name (self->state_image, icon_name);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self->state_image),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, state_label,
                                      -1);
    }

  gtk_label_set_text (self->status_label, status ? status : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), status != NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, status ? status : state_label,
                                  -1);
  kiste_task_row_update_title (self);

  /* Progress that cannot be measured is the spinner's job */
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar),
                          state == KISTE_TASK_RUNNING && fraction >= 0);
  if (fraction >= 0)
    gtk_progress_bar_set_fraction (self->progress_bar, fraction);

  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), !self->cancel_requested);
}

static void
kiste_task_row_finished_cb (KisteTaskRow *self,
                            KisteTask    *task)
{
  kiste_task_row_show_output (self);
  kiste_task_row_update (self);

  /* What went wrong is in the output: show it right away */
  if (kiste_task_get_state (task) == KISTE_TASK_FAILED)
    gtk_expander_set_expanded (self->output_expander, TRUE);
}

static void
kiste_task_row_cancel_clicked_cb (KisteTaskRow *self)
{
  self->cancel_requested = TRUE;
  kiste_task_cancel (self->task);
  kiste_task_row_update (self);
}

static void
kiste_task_row_set_task (KisteTaskRow *self,
                         KisteTask    *task)
{
  g_autofree char *time = NULL;
  GDateTime *started;

  g_assert (self->task == NULL);
  g_return_if_fail (KISTE_IS_TASK (task));

  self->task = g_object_ref (task);

  started = kiste_task_get_started (task);
  if (started != NULL)
    time = g_date_time_format (started, "%H:%M");
  gtk_label_set_text (self->time_label, time);
  gtk_widget_set_visible (GTK_WIDGET (self->time_label), time != NULL);

  self->cancel_binding = g_object_bind_property (task, "cancellable-by-user",
                                                 self->cancel_button, "visible",
                                                 G_BINDING_SYNC_CREATE);

  g_signal_connect_object (task, "notify::step",
                           G_CALLBACK (kiste_task_row_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (task, "notify::fraction",
                           G_CALLBACK (kiste_task_row_update), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (task, "line",
                           G_CALLBACK (kiste_task_row_line_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (task, "finished",
                           G_CALLBACK (kiste_task_row_finished_cb), self, G_CONNECT_SWAPPED);

  kiste_task_row_show_output (self);
  kiste_task_row_update (self);
  if (kiste_task_get_state (task) == KISTE_TASK_FAILED)
    gtk_expander_set_expanded (self->output_expander, TRUE);
}

static void
kiste_task_row_dispose (GObject *object)
{
  KisteTaskRow *self = KISTE_TASK_ROW (object);

  /* The task may outlive the row: no more updates to widgets being torn down */
  g_clear_pointer (&self->cancel_binding, g_binding_unbind);
  if (self->task != NULL)
    g_signal_handlers_disconnect_by_data (self->task, self);

  g_clear_handle_id (&self->output_update_id, g_source_remove);
  g_clear_handle_id (&self->scrollbar_idle_id, g_source_remove);

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_TASK_ROW);
  g_clear_object (&self->task);

  G_OBJECT_CLASS (kiste_task_row_parent_class)->dispose (object);
}

static void
kiste_task_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KisteTaskRow *self = KISTE_TASK_ROW (object);

  switch (prop_id)
    {
    case PROP_TASK:
      g_value_set_object (value, self->task);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_task_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  KisteTaskRow *self = KISTE_TASK_ROW (object);

  switch (prop_id)
    {
    case PROP_TASK:
      kiste_task_row_set_task (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_task_row_class_init (KisteTaskRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_task_row_dispose;
  object_class->get_property = kiste_task_row_get_property;
  object_class->set_property = kiste_task_row_set_property;

  properties[PROP_TASK] =
    g_param_spec_object ("task", NULL, NULL,
                         KISTE_TYPE_TASK,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-task-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, state_image);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, title_label);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, time_label);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, status_label);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, output_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, output_scroller);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskRow, output_label);
  gtk_widget_class_bind_template_callback (widget_class, kiste_task_row_cancel_clicked_cb);
}

static void
kiste_task_row_init (KisteTaskRow *self)
{
  GtkAdjustment *adj;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->follow_output = TRUE;
  adj = gtk_scrolled_window_get_vadjustment (self->output_scroller);
  g_signal_connect_object (adj, "value-changed",
                           G_CALLBACK (kiste_task_row_output_scrolled_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (adj, "notify::upper",
                           G_CALLBACK (kiste_task_row_output_grown_cb), self,
                           G_CONNECT_SWAPPED);
}
