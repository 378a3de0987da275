/* kiste-window-first-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The first run: with no boxes, the empty page offers a box of the
 * computer's own distribution, one of another common distribution and one
 * to try, each naming its image. A start opens the create dialog (or Try
 * an Image) filled in with that image; once the box is made, a terminal
 * tab opens in it. With Toolbx alone, only boxes of Toolbx's own images
 * are offered, none to try (Toolbx has no temporary boxes). */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-create-dialog.h"
#include "kiste-distro.h"
#include "kiste-first-boxes.h"
#include "kiste-window-private.h"

/* The box is made and started: its shell, where people go on */
static void
first_box_created_cb (KisteWindow *self,
                      const char  *name)
{
  _kiste_window_created_cb (self, name);
  kiste_window_open_terminal (self, name, NULL);
}

static void
kiste_window_first_box_action (GtkWidget  *widget,
                               const char *action_name,
                               GVariant   *parameter)
{
  KisteWindow *self = KISTE_WINDOW (widget);
  guint index = g_variant_get_uint32 (parameter);
  KisteCreateDialog *dialog;
  KisteFirstBox *box;

  if (self->first_boxes == NULL || index >= self->first_boxes->len)
    return;

  box = g_ptr_array_index (self->first_boxes, index);
  dialog = kiste_create_dialog_new (self->manager);
  if (box->kind == KISTE_FIRST_BOX_TRY)
    kiste_create_dialog_set_temporary (dialog);
  if (self->first_boxes_toolbx)
    kiste_create_options_set_tool (kiste_create_dialog_get_options (dialog), KISTE_BOX_TOOL_TOOLBX);
  /* as if typed: the name follows the image */
  kiste_create_options_set_image (kiste_create_dialog_get_options (dialog), box->image);
  g_signal_connect_object (dialog, "created", G_CALLBACK (first_box_created_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "distrobox-needed", G_CALLBACK (_kiste_window_distrobox_needed_cb), self,
                           G_CONNECT_SWAPPED);
  adw_dialog_present (ADW_DIALOG (dialog), widget);
}

static GtkWidget *
first_box_widget_new (KisteFirstBox *box,
                      guint          index)
{
  const char *distro = kiste_distro_display_name (box->distro_id);
  GtkWidget *start;
  GtkWidget *button;
  GtkWidget *content;
  GtkWidget *image;
  g_autofree char *label = NULL;

  if (box->kind == KISTE_FIRST_BOX_TRY)
    /* Translators: a button that makes a temporary box: "Try Arch Linux" */
    label = g_strdup_printf (_("Try %s"), distro);
  else
    /* Translators: a button that makes a box: "Create Debian Box" */
    label = g_strdup_printf (_("Create %s Box"), distro);

  content = adw_button_content_new ();
  adw_button_content_set_icon_name (ADW_BUTTON_CONTENT (content), kiste_distro_icon_name (box->distro_id));
  adw_button_content_set_label (ADW_BUTTON_CONTENT (content), label);

  button = gtk_button_new ();
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_widget_add_css_class (button, "pill");
  /* the best one */
  if (index == 0)
    gtk_widget_add_css_class (button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.first-box");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "u", index);

  /* the image it is made from, as people would type it */
  image = gtk_label_new (box->image);
  gtk_label_set_ellipsize (GTK_LABEL (image), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_max_width_chars (GTK_LABEL (image), 40);
  gtk_widget_add_css_class (image, "caption");
  gtk_widget_add_css_class (image, "dim-label");

  /* the image is said with the button */
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, box->image,
                                  -1);

  start = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (start), button);
  gtk_box_append (GTK_BOX (start), image);
  return start;
}

/* Whether Toolbx runs image: its own images, made for it ("fedora-toolbox",
 * "arch-toolbox", "ubi9/toolbox"); others lack what its entry point needs */
static gboolean
image_is_toolbx (const char *image)
{
  const char *slash = strrchr (image, '/');
  g_autofree char *repository = g_strdup (slash != NULL ? slash + 1 : image);
  char *end = strpbrk (repository, ":@");

  if (end != NULL)
    *end = '\0';
  return g_str_has_suffix (repository, "toolbox");
}

/* Toolbx alone: the boxes of Toolbx's images, none to try, then others
 * of Toolbx's images up to three */
static void
keep_toolbx_boxes (GPtrArray *boxes)
{
  static const char * const toolbx_distros[] = { "fedora", "arch", "rhel" };

  for (guint i = boxes->len; i > 0; i--)
    {
      KisteFirstBox *box = g_ptr_array_index (boxes, i - 1);

      if (!image_is_toolbx (box->image))
        g_ptr_array_remove_index (boxes, i - 1);
      else if (box->kind == KISTE_FIRST_BOX_TRY)
        box->kind = KISTE_FIRST_BOX_OTHER;
    }

  for (guint d = 0; d < G_N_ELEMENTS (toolbx_distros) && boxes->len < 3; d++)
    {
      gboolean offered = FALSE;
      KisteFirstBox *box;

      for (guint i = 0; i < boxes->len; i++)
        offered |= g_strcmp0 (((KisteFirstBox *) g_ptr_array_index (boxes, i))->distro_id,
                              toolbx_distros[d]) == 0;
      if (offered)
        continue;
      box = g_new0 (KisteFirstBox, 1);
      box->kind = KISTE_FIRST_BOX_OTHER;
      box->distro_id = toolbx_distros[d];
      box->image = kiste_first_boxes_image_for_distro (toolbx_distros[d], NULL);
      g_ptr_array_add (boxes, box);
    }
}

/* The first boxes for this computer, read once and when the os-release to
 * read changes, or whether only Toolbx makes boxes */
void
_kiste_window_update_first_boxes (KisteWindow *self)
{
  GtkWidget *child;
  const char *path;
  gboolean toolbx;

  if (self->manager == NULL)
    return;
  toolbx = _kiste_window_is_toolbx_only (self);
  if (self->first_boxes != NULL && toolbx == self->first_boxes_toolbx)
    return;

  g_clear_pointer (&self->first_boxes, g_ptr_array_unref);
  self->first_boxes_toolbx = toolbx;
  path = self->os_release_path;
  if (path == NULL)
    path = kiste_first_boxes_os_release_path (kiste_manager_get_in_flatpak (self->manager));
  self->first_boxes = kiste_first_boxes_load (path);
  if (toolbx)
    keep_toolbx_boxes (self->first_boxes);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->first_boxes_box))) != NULL)
    gtk_box_remove (self->first_boxes_box, child);
  for (guint i = 0; i < self->first_boxes->len; i++)
    gtk_box_append (self->first_boxes_box,
                    first_box_widget_new (g_ptr_array_index (self->first_boxes, i), i));
}

void
_kiste_window_set_os_release_path (KisteWindow *self,
                                   const char  *path)
{
  g_return_if_fail (KISTE_IS_WINDOW (self));

  g_set_str (&self->os_release_path, path);
  g_clear_pointer (&self->first_boxes, g_ptr_array_unref);
  _kiste_window_update_first_boxes (self);
}

void
_kiste_window_class_first_boxes_init (KisteWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_bind_template_child (widget_class, KisteWindow, first_boxes_box);
  gtk_widget_class_install_action (widget_class, "win.first-box", "u", kiste_window_first_box_action);
}
