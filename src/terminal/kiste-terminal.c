/* kiste-terminal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-terminal.h"

/* PCRE2 option bits (pcre2.h is not needed for two numbers) */
#define KISTE_PCRE2_CASELESS  0x00000008u
#define KISTE_PCRE2_MULTILINE 0x00000400u

#define MIN_SCALE 0.5
#define MAX_SCALE 4.0
#define SCALE_STEP 1.1

/* Links people click: schemes followed by anything that is not space or
 * a closing quote/bracket at the end */
static const char url_pattern[] =
  "\\b(?:https?|ftp|file)://[^\\s<>\"'`]*[^\\s<>\"'`.,;:!?)\\]}]";

struct _KisteTerminal
{
  VteTerminal  parent_instance;

  GSettings   *settings;
  GSettings   *interface_settings;
  GdkRGBA      tint;
  char        *link;        /* under the pointer at the last right click */
  double       scale;
  guint        has_tint : 1;
};

G_DEFINE_FINAL_TYPE (KisteTerminal, kiste_terminal, VTE_TYPE_TERMINAL)

/* Our own palette: readable on both styles, the first 8 dim, the next 8 bright */
static const char * const light_palette[16] = {
  "#241f31", "#c01c28", "#2e8b3f", "#a86f00", "#1e62b8", "#8b3ea6", "#0f8a8a", "#c0bfbc",
  "#5e5c64", "#e01b24", "#33a049", "#c88800", "#3584e4", "#a452c4", "#1ea5a5", "#f6f5f4",
};
static const char * const dark_palette[16] = {
  "#241f31", "#ed333b", "#57e389", "#f8e45c", "#62a0ea", "#c061cb", "#5bc8af", "#deddda",
  "#77767b", "#f66151", "#8ff0a4", "#f9f06b", "#99c1f1", "#dc8add", "#93ddc2", "#ffffff",
};

static void
kiste_terminal_update_colors (KisteTerminal *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  gboolean dark = adw_style_manager_get_dark (style);
  const char * const *names = dark ? dark_palette : light_palette;
  GdkRGBA palette[16];
  GdkRGBA fg;
  GdkRGBA bg;

  for (guint i = 0; i < G_N_ELEMENTS (palette); i++)
    gdk_rgba_parse (&palette[i], names[i]);

  gdk_rgba_parse (&fg, dark ? "#ffffff" : "#1e1e1e");
  gdk_rgba_parse (&bg, dark ? "#1e1e1e" : "#ffffff");

  /* A box's colour mixed into the background, light enough to keep the
   * text readable */
  if (self->has_tint)
    {
      const float amount = 0.18f;

      bg.red = bg.red * (1 - amount) + self->tint.red * amount;
      bg.green = bg.green * (1 - amount) + self->tint.green * amount;
      bg.blue = bg.blue * (1 - amount) + self->tint.blue * amount;
    }

  vte_terminal_set_colors (VTE_TERMINAL (self), &fg, &bg, palette, G_N_ELEMENTS (palette));
}

static void
kiste_terminal_update_font (KisteTerminal *self)
{
  g_autofree char *name = NULL;
  g_autoptr(PangoFontDescription) desc = NULL;

  if (self->settings != NULL)
    name = g_settings_get_string (self->settings, "terminal-font");

  if ((name == NULL || name[0] == '\0') && self->interface_settings != NULL)
    {
      g_free (name);
      name = g_settings_get_string (self->interface_settings, "monospace-font-name");
    }

  if (name == NULL || name[0] == '\0')
    {
      g_free (name);
      name = g_strdup ("Monospace 11");
    }

  desc = pango_font_description_from_string (name);
  vte_terminal_set_font (VTE_TERMINAL (self), desc);
}

static void
kiste_terminal_update_scrollback (KisteTerminal *self)
{
  int lines = 10000;

  if (self->settings != NULL)
    lines = g_settings_get_int (self->settings, "terminal-scrollback-lines");

  /* -1 is unlimited, as in VTE */
  vte_terminal_set_scrollback_lines (VTE_TERMINAL (self), lines);
}

static void
kiste_terminal_settings_changed_cb (KisteTerminal *self,
                                    const char    *key)
{
  if (g_strcmp0 (key, "terminal-font") == 0 || g_strcmp0 (key, "monospace-font-name") == 0)
    kiste_terminal_update_font (self);
  else if (g_strcmp0 (key, "terminal-scrollback-lines") == 0)
    kiste_terminal_update_scrollback (self);
}

void
kiste_terminal_set_settings (KisteTerminal *self,
                             GSettings     *settings)
{
  g_return_if_fail (KISTE_IS_TERMINAL (self));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_func (self->settings, kiste_terminal_settings_changed_cb, self);
  g_set_object (&self->settings, settings);
  if (settings != NULL)
    g_signal_connect_object (settings, "changed",
                             G_CALLBACK (kiste_terminal_settings_changed_cb), self,
                             G_CONNECT_SWAPPED);

  kiste_terminal_update_font (self);
  kiste_terminal_update_scrollback (self);
}

void
kiste_terminal_set_tint (KisteTerminal *self,
                         const GdkRGBA *tint)
{
  g_return_if_fail (KISTE_IS_TERMINAL (self));

  self->has_tint = tint != NULL;
  if (tint != NULL)
    self->tint = *tint;
  kiste_terminal_update_colors (self);
}

char *
kiste_terminal_dup_current_directory (KisteTerminal *self)
{
  g_autoptr(GUri) uri = NULL;

  g_return_val_if_fail (KISTE_IS_TERMINAL (self), NULL);

  uri = vte_terminal_ref_termprop_uri (VTE_TERMINAL (self), VTE_TERMPROP_CURRENT_DIRECTORY_URI);
  if (uri == NULL || g_strcmp0 (g_uri_get_scheme (uri), "file") != 0)
    return NULL;

  /* A shell in a box names the box's host name: the path is what counts */
  return g_strdup (g_uri_get_path (uri));
}

char *
kiste_terminal_dup_text (KisteTerminal *self)
{
  VteTerminal *terminal = VTE_TERMINAL (self);
  long rows = vte_terminal_get_row_count (terminal);
  long cols = vte_terminal_get_column_count (terminal);
  long cursor_row = 0;
  GtkAdjustment *vadj;
  long first;

  g_return_val_if_fail (KISTE_IS_TERMINAL (self), NULL);

  vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self));
  first = vadj ? (long) gtk_adjustment_get_lower (vadj) : 0;
  vte_terminal_get_cursor_position (terminal, NULL, &cursor_row);

  return vte_terminal_get_text_range_format (terminal, VTE_FORMAT_TEXT, first, 0,
                                             MAX (cursor_row, first + rows), cols, NULL);
}

/* Zoom */

static void
kiste_terminal_set_scale (KisteTerminal *self,
                          double         scale)
{
  self->scale = CLAMP (scale, MIN_SCALE, MAX_SCALE);
  vte_terminal_set_font_scale (VTE_TERMINAL (self), self->scale);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.zoom-in", self->scale < MAX_SCALE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.zoom-out", self->scale > MIN_SCALE);
}

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KisteTerminal *self = KISTE_TERMINAL (widget);

  if (g_str_equal (action_name, "term.zoom-in"))
    kiste_terminal_set_scale (self, self->scale * SCALE_STEP);
  else if (g_str_equal (action_name, "term.zoom-out"))
    kiste_terminal_set_scale (self, self->scale / SCALE_STEP);
  else
    kiste_terminal_set_scale (self, 1.0);
}

/* Clipboard */

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  if (vte_terminal_get_has_selection (VTE_TERMINAL (widget)))
    vte_terminal_copy_clipboard_format (VTE_TERMINAL (widget), VTE_FORMAT_TEXT);
}

static void
paste_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  vte_terminal_paste_clipboard (VTE_TERMINAL (widget));
}

static void
select_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  vte_terminal_select_all (VTE_TERMINAL (widget));
}

static void
kiste_terminal_selection_changed (VteTerminal *terminal)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (terminal), "term.copy",
                                 vte_terminal_get_has_selection (terminal));

  if (VTE_TERMINAL_CLASS (kiste_terminal_parent_class)->selection_changed)
    VTE_TERMINAL_CLASS (kiste_terminal_parent_class)->selection_changed (terminal);
}

/* Links */

static char *
link_at (KisteTerminal *self,
         double         x,
         double         y)
{
  char *link = vte_terminal_check_hyperlink_at (VTE_TERMINAL (self), x, y);

  if (link == NULL)
    link = vte_terminal_check_match_at (VTE_TERMINAL (self), x, y, NULL);

  return link;
}

static void
kiste_terminal_open_uri (KisteTerminal *self,
                         const char    *uri)
{
  g_autoptr(GtkUriLauncher) launcher = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (uri == NULL)
    return;

  launcher = gtk_uri_launcher_new (uri);
  gtk_uri_launcher_launch (launcher, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                           NULL, NULL, NULL);
}

static void
open_link_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KisteTerminal *self = KISTE_TERMINAL (widget);

  kiste_terminal_open_uri (self, self->link);
}

static void
copy_link_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  KisteTerminal *self = KISTE_TERMINAL (widget);

  if (self->link != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->link);
}

static void
kiste_terminal_setup_context_menu (VteTerminal           *terminal,
                                   const VteEventContext *context)
{
  KisteTerminal *self = KISTE_TERMINAL (terminal);
  double x;
  double y;

  g_clear_pointer (&self->link, g_free);
  if (context != NULL && vte_event_context_get_coordinates (context, &x, &y))
    self->link = link_at (self, x, y);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.open-link", self->link != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.copy-link", self->link != NULL);

  if (VTE_TERMINAL_CLASS (kiste_terminal_parent_class)->setup_context_menu)
    VTE_TERMINAL_CLASS (kiste_terminal_parent_class)->setup_context_menu (terminal, context);
}

/* Ctrl+click opens a link, as in other GNOME terminals */
static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  KisteTerminal   *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  g_autofree char *link = NULL;

  if (n_press != 1 || !(state & GDK_CONTROL_MASK))
    return;

  if ((link = link_at (self, x, y)) != NULL)
    {
      kiste_terminal_open_uri (self, link);
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    }
}

static void
kiste_terminal_add_link_matching (KisteTerminal *self)
{
  g_autoptr(GError) error = NULL;
  VteRegex *regex;
  int tag;

  regex = vte_regex_new_for_match (url_pattern, -1,
                                   VTE_REGEX_FLAGS_DEFAULT | KISTE_PCRE2_MULTILINE | KISTE_PCRE2_CASELESS,
                                   &error);
  if (regex == NULL)
    {
      g_critical ("Link pattern: %s", error->message);
      return;
    }

  tag = vte_terminal_match_add_regex (VTE_TERMINAL (self), regex, 0);
  vte_terminal_match_set_cursor_name (VTE_TERMINAL (self), tag, "pointer");
  vte_regex_unref (regex);
}

static GMenuModel *
create_context_menu (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) links = g_menu_new ();
  g_autoptr(GMenu) edit = g_menu_new ();
  g_autoptr(GMenu) view = g_menu_new ();

  g_menu_append (links, _("_Open Link"), "term.open-link");
  g_menu_append (links, _("Copy _Link Address"), "term.copy-link");
  g_menu_append (edit, _("_Copy"), "term.copy");
  g_menu_append (edit, _("_Paste"), "term.paste");
  g_menu_append (edit, _("Select _All"), "term.select-all");
  g_menu_append (view, _("_Find…"), "tab.find");
  g_menu_append (view, _("Zoom _In"), "term.zoom-in");
  g_menu_append (view, _("Zoom _Out"), "term.zoom-out");
  g_menu_append (view, _("_Normal Size"), "term.zoom-reset");

  g_menu_append_section (menu, NULL, G_MENU_MODEL (links));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (view));

  return G_MENU_MODEL (menu);
}

KisteTerminal *
kiste_terminal_new (void)
{
  return g_object_new (KISTE_TYPE_TERMINAL, NULL);
}

static void
kiste_terminal_dispose (GObject *object)
{
  KisteTerminal *self = KISTE_TERMINAL (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->interface_settings);
  g_clear_pointer (&self->link, g_free);

  G_OBJECT_CLASS (kiste_terminal_parent_class)->dispose (object);
}

static void
kiste_terminal_class_init (KisteTerminalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  VteTerminalClass *terminal_class = VTE_TERMINAL_CLASS (klass);

  object_class->dispose = kiste_terminal_dispose;
  terminal_class->selection_changed = kiste_terminal_selection_changed;
  terminal_class->setup_context_menu = kiste_terminal_setup_context_menu;

  gtk_widget_class_install_action (widget_class, "term.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "term.paste", NULL, paste_action);
  gtk_widget_class_install_action (widget_class, "term.select-all", NULL, select_all_action);
  gtk_widget_class_install_action (widget_class, "term.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "term.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "term.zoom-reset", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "term.open-link", NULL, open_link_action);
  gtk_widget_class_install_action (widget_class, "term.copy-link", NULL, copy_link_action);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TERMINAL);
}

static void
kiste_terminal_init (KisteTerminal *self)
{
  g_autoptr(GMenuModel) menu = create_context_menu ();
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  GtkGesture *click;

  self->scale = 1.0;

  /* The desktop's monospace font, when this system has GNOME's schema */
  if (source != NULL &&
      (schema = g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE)) != NULL &&
      g_settings_schema_has_key (schema, "monospace-font-name"))
    {
      self->interface_settings = g_settings_new ("org.gnome.desktop.interface");
      g_signal_connect_object (self->interface_settings, "changed::monospace-font-name",
                               G_CALLBACK (kiste_terminal_settings_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }

  vte_terminal_set_mouse_autohide (VTE_TERMINAL (self), TRUE);
  vte_terminal_set_allow_hyperlink (VTE_TERMINAL (self), TRUE);
  vte_terminal_set_audible_bell (VTE_TERMINAL (self), FALSE);
  vte_terminal_set_enable_fallback_scrolling (VTE_TERMINAL (self), TRUE);
  vte_terminal_set_context_menu_model (VTE_TERMINAL (self), menu);
  kiste_terminal_add_link_matching (self);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (click), GTK_PHASE_CAPTURE);
  g_signal_connect_object (click, "pressed", G_CALLBACK (click_pressed_cb), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (kiste_terminal_update_colors), self, G_CONNECT_SWAPPED);
  kiste_terminal_update_colors (self);
  kiste_terminal_update_font (self);
  kiste_terminal_update_scrollback (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.copy", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.open-link", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "term.copy-link", FALSE);
}
