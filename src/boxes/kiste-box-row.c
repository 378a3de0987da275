/* kiste-box-row.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-box-row.h"
#include "kiste-distro.h"
#include "kiste-image-update.h"

struct _KisteBoxRow
{
  GtkWidget   parent_instance;

  KisteBox   *box;
  KisteTask  *task;
  gulong      notify_handler;

  /* Template widgets */
  GtkImage   *icon;
  GtkWidget  *labels;
  GtkLabel   *name_label;
  GtkLabel   *image_label;
  GtkWidget  *state_box;
  GtkLabel   *state_label;

  /* Made when first shown */
  AdwSpinner *spinner;
  GtkWidget  *terminals_box;
  GtkLabel   *terminals_label;
  GtkLabel   *engine_label;
  GtkLabel   *tool_label;
  GtkLabel   *update_label;
  GtkPopover *context_menu;
  guint       n_terminals;
  char       *engine;
  char       *tool;
  char       *update;
  char       *update_tooltip;
};

G_DEFINE_FINAL_TYPE (KisteBoxRow, kiste_box_row, GTK_TYPE_WIDGET)

KisteBoxRow *
kiste_box_row_new (void)
{
  return g_object_new (KISTE_TYPE_BOX_ROW, NULL);
}

KisteBox *
kiste_box_row_get_box (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), NULL);
  return self->box;
}

char *
kiste_box_row_dup_accessible_label (KisteBox   *box,
                                    KisteTask  *task,
                                    const char *engine,
                                    const char *tool)
{
  const char *state = task ? kiste_task_get_title (task) : kiste_box_get_state_label (box);

  if (engine != NULL && tool != NULL)
    /* Translators: a box in the list as a screen reader says it, with the
     * container engine it lives in and the tool it was made with:
     * "NAME, ENGINE, TOOL, STATE" */
    return g_strdup_printf (_("%s, %s, %s, %s"), kiste_box_get_name (box), engine, tool, state);
  if (tool != NULL)
    /* Translators: a box in the list as a screen reader says it, with the
     * tool it was made with: "NAME, TOOL, STATE" ("fedora, Toolbx, Running") */
    return g_strdup_printf (_("%s, %s, %s"), kiste_box_get_name (box), tool, state);
  if (engine != NULL)
    /* Translators: a box in the list as a screen reader says it, with the
     * container engine it lives in: "NAME, ENGINE, STATE" */
    return g_strdup_printf (_("%s, %s, %s"), kiste_box_get_name (box), engine, state);
  /* Translators: a box in the list as a screen reader says it: "NAME, STATE" */
  return g_strdup_printf (_("%s, %s"), kiste_box_get_name (box), state);
}

static gboolean
image_query_tooltip_cb (GtkLabel   *label,
                        int         x,
                        int         y,
                        gboolean    keyboard,
                        GtkTooltip *tooltip)
{
  const char *image = g_object_get_data (G_OBJECT (label), "kiste-image");

  /* nothing left out: nothing to add */
  if (image == NULL ||
      (g_strcmp0 (gtk_label_get_label (label), image) == 0 &&
       !pango_layout_is_ellipsized (gtk_label_get_layout (label))))
    return FALSE;

  gtk_tooltip_set_text (tooltip, image);
  return TRUE;
}

void
kiste_box_row_show_image (GtkLabel   *label,
                          const char *image)
{
  const char *slash;
  const char *shown;

  g_return_if_fail (GTK_IS_LABEL (label));

  /* the repository's last part and the tag: what people pulled */
  shown = image != NULL ? image : "";
  if ((slash = strrchr (shown, '/')) != NULL && slash[1] != '\0')
    shown = slash + 1;

  gtk_label_set_label (label, shown);
  gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
  g_object_set_data_full (G_OBJECT (label), "kiste-image", g_strdup (image), g_free);
  if (!gtk_widget_get_has_tooltip (GTK_WIDGET (label)))
    {
      gtk_widget_set_has_tooltip (GTK_WIDGET (label), TRUE);
      g_signal_connect (label, "query-tooltip", G_CALLBACK (image_query_tooltip_cb), NULL);
    }
}

static void
kiste_box_row_show_spinner (KisteBoxRow *self,
                            gboolean     shown)
{
  if (self->spinner == NULL && !shown)
    return;

  if (self->spinner == NULL)
    {
      self->spinner = ADW_SPINNER (adw_spinner_new ());
      gtk_widget_set_size_request (GTK_WIDGET (self->spinner), 12, 12);
      gtk_box_prepend (GTK_BOX (self->state_box), GTK_WIDGET (self->spinner));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), shown);
}

static void
kiste_box_row_show_terminals (KisteBoxRow *self)
{
  g_autofree char *count = NULL;
  g_autofree char *tooltip = NULL;

  if (self->terminals_box == NULL && self->n_terminals == 0)
    return;

  if (self->terminals_box == NULL)
    {
      GtkWidget *image = g_object_new (GTK_TYPE_IMAGE,
                                       "icon-name", "utilities-terminal-symbolic",
                                       "pixel-size", 12,
                                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION,
                                       NULL);

      gtk_widget_add_css_class (image, "dim-label");
      self->terminals_label = GTK_LABEL (gtk_label_new (NULL));
      gtk_widget_add_css_class (GTK_WIDGET (self->terminals_label), "caption");
      gtk_widget_add_css_class (GTK_WIDGET (self->terminals_label), "dim-label");
      self->terminals_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 3);
      gtk_box_append (GTK_BOX (self->terminals_box), image);
      gtk_box_append (GTK_BOX (self->terminals_box), GTK_WIDGET (self->terminals_label));
      gtk_box_append (GTK_BOX (self->state_box), self->terminals_box);
    }

  if (self->n_terminals > 0)
    {
      count = g_strdup_printf ("%u", self->n_terminals);
      tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "%u terminal open",
                                              "%u terminals open",
                                              self->n_terminals),
                                 self->n_terminals);
      gtk_label_set_label (self->terminals_label, count);
      gtk_widget_set_tooltip_text (self->terminals_box, tooltip);
    }
  gtk_widget_set_visible (self->terminals_box, self->n_terminals > 0);
}

/* A dim caption after the state, made when first needed */
static GtkLabel *
kiste_box_row_add_caption (KisteBoxRow *self)
{
  GtkLabel *label = GTK_LABEL (gtk_label_new (NULL));

  gtk_widget_add_css_class (GTK_WIDGET (label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
  gtk_box_append (GTK_BOX (self->state_box), GTK_WIDGET (label));
  return label;
}

/* The engine's name, after the state: among boxes of several engines */
static void
kiste_box_row_show_engine (KisteBoxRow *self)
{
  if (self->engine_label == NULL && self->engine == NULL)
    return;

  if (self->engine_label == NULL)
    self->engine_label = kiste_box_row_add_caption (self);

  if (self->engine != NULL)
    {
      g_autofree char *tooltip = g_strdup_printf (_("A box of %s"), self->engine);

      gtk_label_set_label (self->engine_label, self->engine);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->engine_label), tooltip);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->engine_label), self->engine != NULL);
}

/* The tool's name, after the engine: a toolbox among distroboxes */
static void
kiste_box_row_show_tool (KisteBoxRow *self)
{
  if (self->tool_label == NULL && self->tool == NULL)
    return;

  if (self->tool_label == NULL)
    self->tool_label = kiste_box_row_add_caption (self);

  if (self->tool != NULL)
    {
      /* Translators: the tooltip of a row's "Toolbx" */
      g_autofree char *tooltip = g_strdup_printf (_("Made with %s"), self->tool);

      gtk_label_set_label (self->tool_label, self->tool);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->tool_label), tooltip);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->tool_label), self->tool != NULL);
}

/* "Newer image available", after the tool */
static void
kiste_box_row_show_update (KisteBoxRow *self)
{
  if (self->update_label == NULL && self->update == NULL)
    return;

  if (self->update_label == NULL)
    {
      self->update_label = kiste_box_row_add_caption (self);
      /* the state keeps its room; the note gives way */
      gtk_label_set_ellipsize (self->update_label, PANGO_ELLIPSIZE_END);
      gtk_widget_remove_css_class (GTK_WIDGET (self->update_label), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->update_label), "accent");
    }

  if (self->update != NULL)
    {
      gtk_label_set_label (self->update_label, self->update);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->update_label), self->update_tooltip);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->update_label), self->update != NULL);
}

static void
kiste_box_row_update (KisteBoxRow *self)
{
  KisteBoxState state;
  const char *image;

  if (self->box == NULL)
    return;

  state = kiste_box_get_state (self->box);
  image = kiste_box_get_image (self->box);

  gtk_label_set_label (self->name_label, kiste_box_get_name (self->box));
  kiste_box_row_show_image (self->image_label, image);
  gtk_image_set_from_icon_name (self->icon,
                                kiste_distro_icon_name (kiste_box_get_distro_id (self->box)));

  kiste_box_row_show_spinner (self, self->task != NULL || kiste_box_get_setting_up (self->box));
  if (self->task != NULL)
    gtk_label_set_label (self->state_label, kiste_task_get_title (self->task));
  else
    gtk_label_set_label (self->state_label, kiste_box_get_state_label (self->box));

  kiste_box_row_show_terminals (self);
  kiste_box_row_show_engine (self);
  kiste_box_row_show_tool (self);
  kiste_box_row_show_update (self);

  if (state == KISTE_BOX_STATE_RUNNING && self->task == NULL && !kiste_box_get_setting_up (self->box))
    gtk_widget_add_css_class (GTK_WIDGET (self->state_label), "success");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->state_label), "success");
}

void
kiste_box_row_set_box (KisteBoxRow *self,
                       KisteBox    *box)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));
  g_return_if_fail (!box || KISTE_IS_BOX (box));

  if (self->box == box)
    return;

  if (self->box != NULL)
    g_clear_signal_handler (&self->notify_handler, self->box);
  g_set_object (&self->box, box);
  if (box != NULL)
    self->notify_handler = g_signal_connect_object (box, "notify",
                                                    G_CALLBACK (kiste_box_row_update), self,
                                                    G_CONNECT_SWAPPED);
  kiste_box_row_update (self);
}

void
kiste_box_row_set_task (KisteBoxRow *self,
                        KisteTask   *task)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (g_set_object (&self->task, task))
    kiste_box_row_update (self);
}

void
kiste_box_row_set_terminal_count (KisteBoxRow *self,
                                  guint        n_terminals)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (self->n_terminals != n_terminals)
    {
      self->n_terminals = n_terminals;
      kiste_box_row_update (self);
    }
}

guint
kiste_box_row_get_terminal_count (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), 0);
  return self->n_terminals;
}

void
kiste_box_row_set_engine (KisteBoxRow *self,
                          const char  *engine)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (g_set_str (&self->engine, engine))
    kiste_box_row_update (self);
}

const char *
kiste_box_row_get_engine (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), NULL);
  return self->engine;
}

void
kiste_box_row_set_tool (KisteBoxRow *self,
                        const char  *tool)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (g_set_str (&self->tool, tool))
    kiste_box_row_update (self);
}

const char *
kiste_box_row_get_tool (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), NULL);
  return self->tool;
}

void
kiste_box_row_set_update (KisteBoxRow *self,
                          const char  *update,
                          const char  *tooltip)
{
  g_return_if_fail (KISTE_IS_BOX_ROW (self));

  if (g_set_str (&self->update, update) | g_set_str (&self->update_tooltip, tooltip))
    kiste_box_row_update (self);
}

const char *
kiste_box_row_get_update (KisteBoxRow *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_ROW (self), NULL);
  return self->update;
}

char *
kiste_box_row_dup_update_text (const KisteImageUpdate *update,
                               const char             *image,
                               gboolean                newer,
                               gboolean                whole)
{
  if (newer)
    {
      g_autoptr(GDateTime) local = NULL;
      g_autofree char *date = NULL;

      if (!whole || update == NULL || update->created == NULL)
        return g_strdup (_("Newer image available"));
      local = g_date_time_to_local (update->created);
      /* Translators: the day a newer image was made, see g_date_time_format() */
      date = g_date_time_format (local, _("%B %-d, %Y"));
      /* Translators: %s is the date the newer image was made */
      return g_strdup_printf (_("Newer image available, made %s"), date);
    }
  if (!whole)
    return NULL;
  if (image != NULL && !kiste_image_update_is_remote (image))
    return g_strdup (_("Local image: no updates to check"));
  if (update == NULL)
    return g_strdup (_("Not checked yet"));
  switch (update->state)
    {
    case KISTE_IMAGE_UPDATE_CURRENT:
    case KISTE_IMAGE_UPDATE_NEWER:
      return g_strdup (_("Up to date"));
    case KISTE_IMAGE_UPDATE_LOCAL:
      return g_strdup (_("Local image: no updates to check"));
    case KISTE_IMAGE_UPDATE_UNREACHABLE:
      return g_strdup (_("Could not reach the registry"));
    case KISTE_IMAGE_UPDATE_FAILED:
    default:
      return g_strdup (update->message ? update->message : _("Could not check for updates"));
    }
}

/* The row's context menu: what can be done with this box right here */
static void
kiste_box_row_show_menu (KisteBoxRow *self,
                         double       x,
                         double       y)
{
  g_autoptr(GMenu) menu = NULL;
  g_autoptr(GMenuItem) item = NULL;

  if (self->box == NULL)
    return;

  menu = g_menu_new ();
  item = g_menu_item_new (_("Open _Terminal"), NULL);
  g_menu_item_set_action_and_target_value (item, "win.open-terminal",
                                           g_variant_new_string (kiste_box_get_ref (self->box)));
  g_menu_append_item (menu, item);

  /* Made on first use: a popover menu costs more than the rest of the
   * row, and a list shows hundreds of rows at once */
  if (self->context_menu == NULL)
    {
      self->context_menu = GTK_POPOVER (gtk_popover_menu_new_from_model (NULL));
      gtk_popover_set_has_arrow (self->context_menu, FALSE);
      gtk_widget_set_halign (GTK_WIDGET (self->context_menu), GTK_ALIGN_START);
      gtk_widget_set_parent (GTK_WIDGET (self->context_menu), GTK_WIDGET (self));
    }

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), G_MENU_MODEL (menu));
  gtk_popover_set_pointing_to (self->context_menu, &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (self->context_menu);
}

static void
kiste_box_row_click_cb (GtkGestureClick *gesture,
                        int              n_press,
                        double           x,
                        double           y,
                        KisteBoxRow     *self)
{
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  kiste_box_row_show_menu (self, x, y);
}

static void
kiste_box_row_long_press_cb (GtkGestureLongPress *gesture,
                             double               x,
                             double               y,
                             KisteBoxRow         *self)
{
  kiste_box_row_show_menu (self, x, y);
}

static void
kiste_box_row_menu_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  KisteBoxRow *self = KISTE_BOX_ROW (widget);

  kiste_box_row_show_menu (self, gtk_widget_get_width (widget) / 2.0,
                           gtk_widget_get_height (widget) / 2.0);
}

static void
kiste_box_row_dispose (GObject *object)
{
  KisteBoxRow *self = KISTE_BOX_ROW (object);

  kiste_box_row_set_box (self, NULL);
  g_clear_object (&self->task);
  g_clear_pointer (&self->engine, g_free);
  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->update, g_free);
  g_clear_pointer (&self->update_tooltip, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_BOX_ROW);
  if (self->context_menu != NULL)
    gtk_widget_unparent (GTK_WIDGET (g_steal_pointer (&self->context_menu)));

  G_OBJECT_CLASS (kiste_box_row_parent_class)->dispose (object);
}

static void
kiste_box_row_class_init (KisteBoxRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_box_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_PATH "/ui/kiste-box-row.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, icon);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, labels);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, image_label);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, state_box);
  gtk_widget_class_bind_template_child (widget_class, KisteBoxRow, state_label);

  gtk_widget_class_install_action (widget_class, "row.menu", NULL, kiste_box_row_menu_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "row.menu", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Menu, 0, "row.menu", NULL);
}

static void
kiste_box_row_init (KisteBoxRow *self)
{
  GtkGesture *click;
  GtkGesture *long_press;

  gtk_widget_init_template (GTK_WIDGET (self));

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect_object (click, "pressed", G_CALLBACK (kiste_box_row_click_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  long_press = gtk_gesture_long_press_new ();
  gtk_gesture_single_set_touch_only (GTK_GESTURE_SINGLE (long_press), TRUE);
  g_signal_connect_object (long_press, "pressed", G_CALLBACK (kiste_box_row_long_press_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (long_press));
}
