/* kiste-window-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The window's list of boxes: sorted by name, filtered by the search, a
 * few more rows each frame while many boxes come in; each row with its
 * box's busy state and open terminals, a drop target for package files.
 * Activating a row shows the box's details. */

#include "config.h"

#include <string.h>

#include "kiste-box-row.h"
#include "kiste-manager-updates.h"
#include "kiste-window-private.h"

/* The list shows the first ROWS_PER_FRAME boxes, then as many more each
 * frame, until GTK's list view has made all the rows it keeps (about 200),
 * then every box. Making and measuring those 200 rows took a quarter of a
 * second in one go when 1,000 boxes came in; 24 a frame took 15-20 ms. */
#define LIST_VIEW_ROWS 200

static gboolean
kiste_window_growth_tick_cb (GtkWidget     *widget,
                             GdkFrameClock *clock,
                             gpointer       user_data)
{
  KisteWindow *self = KISTE_WINDOW (user_data);
  guint size = gtk_slice_list_model_get_size (self->slice);

  if (self->growth_paused)
    {
      self->growth_paused = FALSE;
      return G_SOURCE_CONTINUE;
    }

  gtk_slice_list_model_set_size (self->slice, size < LIST_VIEW_ROWS ? size + ROWS_PER_FRAME : G_MAXUINT);
  if (gtk_slice_list_model_get_size (self->slice) == G_MAXUINT ||
      g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) <= gtk_slice_list_model_get_size (self->slice))
    {
      self->growth_tick = 0;
      return G_SOURCE_REMOVE;
    }

  return G_SOURCE_CONTINUE;
}

/* Only while boxes are left out: a tick callback keeps frames coming */
void
_kiste_window_grow_list (KisteWindow *self)
{
  guint size = gtk_slice_list_model_get_size (self->slice);

  if (self->growth_tick == 0 && self->select_idle == 0 && size != G_MAXUINT &&
      g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) > size)
    {
      /* the next frame makes the first rows: the tick adds none to it */
      self->growth_paused = TRUE;
      self->growth_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->list_view),
                                                        kiste_window_growth_tick_cb, self, NULL);
    }
}

/* Makes the list show position of the filtered boxes at once */
static void
kiste_window_reveal (KisteWindow *self,
                     guint        position)
{
  if (position >= gtk_slice_list_model_get_size (self->slice))
    gtk_slice_list_model_set_size (self->slice, G_MAXUINT);
}

void
_kiste_window_select_by_name (KisteWindow *self,
                             const char  *name)
{
  GListModel *model = G_LIST_MODEL (self->filter_model);
  guint n = g_list_model_get_n_items (model);

  if (name == NULL || *name == '\0')
    return;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (model, i);

      if (g_strcmp0 (kiste_box_get_name (box), name) == 0)
        {
          kiste_window_reveal (self, i);
          gtk_single_selection_set_selected (self->selection, i);
          return;
        }
    }
}

static void
kiste_window_list_activate_cb (KisteWindow *self,
                               guint        position)
{
  gtk_single_selection_set_selected (self->selection, position);
  adw_navigation_split_view_set_show_content (self->split_view, TRUE);
}

static gboolean
kiste_window_filter_func (gpointer item,
                          gpointer user_data)
{
  KisteWindow *self = user_data;
  KisteBox *box = item;
  g_autofree char *name = NULL;
  g_autofree char *image = NULL;

  if (self->search_text == NULL || *self->search_text == '\0')
    return TRUE;

  name = g_utf8_casefold (kiste_box_get_name (box), -1);
  image = g_utf8_casefold (kiste_box_get_image (box) ? kiste_box_get_image (box) : "", -1);
  if (strstr (name, self->search_text) != NULL || strstr (image, self->search_text) != NULL)
    return TRUE;

  /* "toolbx" and "toolbox" find the toolboxes among distroboxes */
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX &&
      kiste_box_list_get_several_tools (kiste_manager_get_boxes (self->manager)) &&
      (g_str_equal (self->search_text, "toolbx") || g_str_equal (self->search_text, "toolbox")))
    return TRUE;

  /* "docker" finds the boxes of docker, once there are two engines */
  return kiste_box_list_get_several_engines (kiste_manager_get_boxes (self->manager)) &&
         kiste_box_get_engine (box) != NULL &&
         g_str_equal (kiste_box_get_engine (box), self->search_text);
}

static void
kiste_window_search_changed_cb (KisteWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *folded = g_utf8_casefold (text, -1);

  g_free (self->search_text);
  self->search_text = g_steal_pointer (&folded);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  _kiste_window_update_state (self);
}

static void
update_list_item (GtkListItem  *item,
                  KisteManager *manager)
{
  KisteBoxRow *row = KISTE_BOX_ROW (gtk_list_item_get_child (item));
  KisteBox *box = gtk_list_item_get_item (item);
  KisteBoxList *boxes = kiste_manager_get_boxes (manager);
  const char *engine = NULL;
  const char *tool = NULL;
  KisteWindow *self;
  KisteTask *task;
  g_autofree char *label = NULL;

  if (box == NULL)
    return;

  /* which engine, once there are boxes of more than one */
  if (kiste_box_list_get_several_engines (boxes))
    engine = kiste_box_source_get_title (kiste_box_list_get_source_for_box (boxes, box));
  kiste_box_row_set_engine (row, engine);
  /* a toolbox says so among distroboxes */
  if (kiste_box_list_get_several_tools (boxes) && kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    tool = kiste_box_tool_to_label (KISTE_BOX_TOOL_TOOLBX);
  kiste_box_row_set_tool (row, tool);
  /* what the last update check found */
  {
    const KisteImageUpdate *update = kiste_manager_get_image_update (manager, box);
    gboolean newer = kiste_manager_box_has_newer_image (manager, box);
    g_autofree char *text = kiste_box_row_dup_update_text (update, kiste_box_get_image (box),
                                                           newer, FALSE);
    g_autofree char *tooltip = newer ? kiste_box_row_dup_update_text (update, kiste_box_get_image (box),
                                                                      TRUE, TRUE)
                                     : NULL;

    kiste_box_row_set_update (row, text, tooltip);
    /* and to a screen reader, without changing what the row is called */
    gtk_list_item_set_accessible_description (item, tooltip != NULL ? tooltip : "");
  }

  task = kiste_manager_get_task_for_box (manager, kiste_box_get_ref (box));
  kiste_box_row_set_task (row, task);
  if ((self = g_object_get_data (G_OBJECT (item), "kiste-window")) != NULL)
    kiste_box_row_set_terminal_count (row, _kiste_window_get_terminal_count (self,
                                                                            kiste_box_get_ref (box)));
  label = kiste_box_row_dup_accessible_label (box, task, engine, tool);
  gtk_list_item_set_accessible_label (item, label);
}

static void
list_item_state_cb (GtkListItem *item)
{
  KisteWindow *self = g_object_get_data (G_OBJECT (item), "kiste-window");

  if (self != NULL)
    update_list_item (item, self->manager);
}

typedef struct
{
  char *name;
  char *key;
} SortKey;

static void
sort_key_free (gpointer data)
{
  SortKey *sort_key = data;

  g_free (sort_key->name);
  g_free (sort_key->key);
  g_free (sort_key);
}

/* The name's collation key, made once for each name the box has: folding
 * and collating both names in every comparison took 20,000 of each to
 * sort 1,000 boxes */
static const char *
get_sort_key (KisteBox *box)
{
  static GQuark quark;
  const char *name = kiste_box_get_name (box);
  SortKey *sort_key;

  if G_UNLIKELY (quark == 0)
    quark = g_quark_from_static_string ("kiste-window-sort-key");

  sort_key = g_object_get_qdata (G_OBJECT (box), quark);
  if (sort_key == NULL || g_strcmp0 (sort_key->name, name) != 0)
    {
      g_autofree char *folded = g_utf8_casefold (name != NULL ? name : "", -1);

      sort_key = g_new0 (SortKey, 1);
      sort_key->name = g_strdup (name);
      sort_key->key = g_utf8_collate_key (folded, -1);
      g_object_set_qdata_full (G_OBJECT (box), quark, sort_key, sort_key_free);
    }

  return sort_key->key;
}

/* By name, ignoring case. Not a GtkStringSorter: the sort list model keeps
 * its keys, and a renamed box would stay where its old name was. */
static int
compare_box_names (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  int result = strcmp (get_sort_key ((KisteBox *) a), get_sort_key ((KisteBox *) b));

  return result < 0 ? GTK_ORDERING_SMALLER : result > 0 ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* A renamed box moves to its place in the sorted list */
static void
list_item_name_cb (GtkListItem *item)
{
  KisteWindow *self = g_object_get_data (G_OBJECT (item), "kiste-window");
  GtkSortListModel *sorted;

  if (self == NULL || self->filter_model == NULL)
    return;
  sorted = GTK_SORT_LIST_MODEL (gtk_filter_list_model_get_model (self->filter_model));
  gtk_sorter_changed (gtk_sort_list_model_get_sorter (sorted), GTK_SORTER_CHANGE_DIFFERENT);
  update_list_item (item, self->manager);
}

/* Folded to one column, a click on a row opens its details: the list only
 * selects on a click and activates on a double click or Enter. Nothing
 * claims a single click, so this sees it before the row is selected. */
static void
row_released_cb (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 GtkListItem     *item)
{
  KisteWindow *self = g_object_get_data (G_OBJECT (item), "kiste-window");
  guint position = gtk_list_item_get_position (item);

  if (self == NULL || n_press != 1 || position == GTK_INVALID_LIST_POSITION ||
      !adw_navigation_split_view_get_collapsed (self->split_view))
    return;

  kiste_window_list_activate_cb (self, position);
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  KisteWindow              *self)
{
  GtkWidget *row = GTK_WIDGET (kiste_box_row_new ());
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect_object (click, "released", G_CALLBACK (row_released_cb), item, 0);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (click));
  /* a package file dropped on the row is for its box */
  _kiste_window_add_drop_target (self, row);

  gtk_list_item_set_child (item, row);
  g_object_set_data (G_OBJECT (item), "kiste-window", self);
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 KisteWindow              *self)
{
  KisteBox *box = gtk_list_item_get_item (item);

  kiste_box_row_set_box (KISTE_BOX_ROW (gtk_list_item_get_child (item)), box);
  g_signal_connect_object (box, "notify::state", G_CALLBACK (list_item_state_cb), item,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (box, "notify::name", G_CALLBACK (list_item_name_cb), item,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (box, "notify::setting-up", G_CALLBACK (list_item_state_cb), item,
                           G_CONNECT_SWAPPED);
  update_list_item (item, self->manager);
  g_ptr_array_add (self->bound_rows, item);
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   KisteWindow              *self)
{
  KisteBox *box = gtk_list_item_get_item (item);

  g_signal_handlers_disconnect_by_func (box, list_item_state_cb, item);
  g_signal_handlers_disconnect_by_func (box, list_item_name_cb, item);
  kiste_box_row_set_box (KISTE_BOX_ROW (gtk_list_item_get_child (item)), NULL);
  kiste_box_row_set_task (KISTE_BOX_ROW (gtk_list_item_get_child (item)), NULL);
  g_ptr_array_remove_fast (self->bound_rows, item);
}

/* Every bound row asks again: a renamed box's task ends under its old name,
 * which no row shows any more */
static void
kiste_window_busy_changed_cb (KisteWindow  *self,
                              const char   *box_name,
                              KisteManager *manager)
{
  for (guint i = 0; i < self->bound_rows->len; i++)
    update_list_item (g_ptr_array_index (self->bound_rows, i), manager);
}

void
_kiste_window_update_rows_for (KisteWindow *self,
                               const char  *box_ref)
{
  for (guint i = 0; i < self->bound_rows->len; i++)
    {
      GtkListItem *item = g_ptr_array_index (self->bound_rows, i);
      KisteBox *box = gtk_list_item_get_item (item);

      if (box != NULL && g_strcmp0 (kiste_box_get_ref (box), box_ref) == 0)
        update_list_item (item, self->manager);
    }
}

/* Rows name the engine once there are boxes of more than one, and a
 * toolbox's tool once there are distroboxes too */
static void
kiste_window_several_changed_cb (KisteWindow *self)
{
  for (guint i = 0; i < self->bound_rows->len; i++)
    update_list_item (g_ptr_array_index (self->bound_rows, i), self->manager);
}

/* Boxes sorted by name, filtered by the search, one selected, and the
 * rows that show them */
void
_kiste_window_list_setup (KisteWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GtkSortListModel) sort_model = NULL;
  g_autoptr(GtkCustomSorter) sorter = NULL;

  sorter = gtk_custom_sorter_new (compare_box_names, NULL, NULL);
  sort_model = gtk_sort_list_model_new (g_object_ref (_kiste_window_get_boxes (self)),
                                        GTK_SORTER (g_steal_pointer (&sorter)));
  self->filter = gtk_custom_filter_new (kiste_window_filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (G_LIST_MODEL (g_steal_pointer (&sort_model)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  self->slice = gtk_slice_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)), 0, ROWS_PER_FRAME);
  /* Autoselect goes before the boxes come: in a window opened once the
   * list had loaded, it selected the first row before anyone listened, and
   * the details said that no box was selected */
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->slice));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect_object (factory, "setup", G_CALLBACK (factory_setup_cb), self, 0);
  g_signal_connect_object (factory, "bind", G_CALLBACK (factory_bind_cb), self, 0);
  g_signal_connect_object (factory, "unbind", G_CALLBACK (factory_unbind_cb), self, 0);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  g_signal_connect_object (self->manager, "busy-changed",
                           G_CALLBACK (kiste_window_busy_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->manager, "image-updates-changed",
                           G_CALLBACK (kiste_window_several_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (kiste_manager_get_boxes (self->manager), "notify::several-engines",
                           G_CALLBACK (kiste_window_several_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (kiste_manager_get_boxes (self->manager), "notify::several-tools",
                           G_CALLBACK (kiste_window_several_changed_cb), self, G_CONNECT_SWAPPED);
}

void
_kiste_window_class_list_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_callback (widget_class, kiste_window_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_window_list_activate_cb);
}
