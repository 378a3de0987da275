/* kiste-task-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-task-list.h"
#include "kiste-task-row.h"

struct _KisteTaskList
{
  AdwBin         parent_instance;

  KisteManager  *manager;
  GListModel    *tasks;
  guint          n_rows;
  guint          busy : 1;

  /* Template widgets; the stack is the bin's child, not bound: AdwBin
   * unparents its child itself, after the template was torn down */
  GtkStack      *stack;
  GtkListBox    *list_box;
  GtkButton     *clear_button;
};

G_DEFINE_FINAL_TYPE (KisteTaskList, kiste_task_list, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KisteTaskList *
kiste_task_list_new (KisteManager *manager)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);

  return g_object_new (KISTE_TYPE_TASK_LIST,
                       "manager", manager,
                       NULL);
}

gboolean
kiste_task_list_get_busy (KisteTaskList *self)
{
  g_return_val_if_fail (KISTE_IS_TASK_LIST (self), FALSE);

  return self->busy;
}

static void
kiste_task_list_update_busy (KisteTaskList *self)
{
  gboolean busy = FALSE;
  gboolean finished = FALSE;
  guint n = g_list_model_get_n_items (self->tasks);

  for (guint i = 0; i < n && !(busy && finished); i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (self->tasks, i);

      if (kiste_task_get_running (task))
        busy = TRUE;
      else
        finished = TRUE;
    }

  /* there while something finished: the list does not jump for it */
  if (self->clear_button != NULL)
    gtk_widget_set_sensitive (GTK_WIDGET (self->clear_button), finished);

  if (self->busy != busy)
    {
      self->busy = busy;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
    }
}

static void
kiste_task_list_update_page (KisteTaskList *self)
{
  gtk_stack_set_visible_child_name (self->stack, self->n_rows > 0 ? "tasks" : "empty");
}

/* The manager lists tasks oldest first; rows go the other way round, so
 * model position p of n items is row n - 1 - p. */
static void
kiste_task_list_items_changed_cb (KisteTaskList *self,
                                  guint          position,
                                  guint          removed,
                                  guint          added,
                                  GListModel    *model)
{
  guint row_index;

  g_assert (position + removed <= self->n_rows);

  row_index = self->n_rows - position - removed;
  for (guint i = 0; i < removed; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->list_box, row_index);
      KisteTask *task = kiste_task_row_get_task (KISTE_TASK_ROW (row));

      g_signal_handlers_disconnect_by_func (task, kiste_task_list_update_busy, self);
      gtk_list_box_remove (self->list_box, GTK_WIDGET (row));
    }
  self->n_rows -= removed;

  for (guint i = added; i > 0; i--)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (model, position + i - 1);

      g_signal_connect_object (task, "notify::running",
                               G_CALLBACK (kiste_task_list_update_busy), self,
                               G_CONNECT_SWAPPED);
      gtk_list_box_insert (self->list_box, GTK_WIDGET (kiste_task_row_new (task)), row_index++);
    }
  self->n_rows += added;

  kiste_task_list_update_page (self);
  kiste_task_list_update_busy (self);
}

static void
kiste_task_list_clear_clicked_cb (KisteTaskList *self)
{
  kiste_manager_clear_finished_tasks (self->manager);
}

static void
kiste_task_list_set_manager (KisteTaskList *self,
                             KisteManager  *manager)
{
  g_assert (self->manager == NULL);
  g_return_if_fail (KISTE_IS_MANAGER (manager));

  self->manager = g_object_ref (manager);
  self->tasks = g_object_ref (kiste_manager_get_tasks (manager));

  g_signal_connect_object (self->tasks, "items-changed",
                           G_CALLBACK (kiste_task_list_items_changed_cb), self,
                           G_CONNECT_SWAPPED);
  kiste_task_list_items_changed_cb (self, 0, 0, g_list_model_get_n_items (self->tasks), self->tasks);
}

static void
kiste_task_list_dispose (GObject *object)
{
  KisteTaskList *self = KISTE_TASK_LIST (object);

  if (self->tasks != NULL)
    {
      guint n = g_list_model_get_n_items (self->tasks);

      g_signal_handlers_disconnect_by_data (self->tasks, self);
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(KisteTask) task = g_list_model_get_item (self->tasks, i);

          g_signal_handlers_disconnect_by_data (task, self);
        }
    }

  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_TASK_LIST);
  self->stack = NULL;
  self->clear_button = NULL;
  g_clear_object (&self->tasks);
  g_clear_object (&self->manager);

  G_OBJECT_CLASS (kiste_task_list_parent_class)->dispose (object);
}

static void
kiste_task_list_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KisteTaskList *self = KISTE_TASK_LIST (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_task_list_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KisteTaskList *self = KISTE_TASK_LIST (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      kiste_task_list_set_manager (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_task_list_class_init (KisteTaskListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_task_list_dispose;
  object_class->get_property = kiste_task_list_get_property;
  object_class->set_property = kiste_task_list_set_property;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL,
                         KISTE_TYPE_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-task-list.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteTaskList, list_box);
  gtk_widget_class_bind_template_child (widget_class, KisteTaskList, clear_button);
  gtk_widget_class_bind_template_callback (widget_class, kiste_task_list_clear_clicked_cb);

  g_type_ensure (KISTE_TYPE_TASK_ROW);
}

static void
kiste_task_list_init (KisteTaskList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));
}
