/* test-german.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Kiste in German, with the catalog of the build (po/de.po): the main
 * window with the captured boxes, a box's details and apps, the menus, the
 * create dialog, the preferences and the keyboard shortcuts; the window
 * and the box's page also in the narrowest window, and the window without
 * boxes. Every label on screen is compared with the strings of the code
 * (the template the build extracts from po/POTFILES.in): one that is still
 * English where German was due fails the test and is named, and so does
 * German text cut off with an ellipsis or a button pushed out of the
 * window. Screenshots of each go to $KISTE_SCREENSHOT_DIR (german-*.png).
 *
 * The test runs with LANGUAGE=de, LC_ALL=de_DE.UTF-8 from a locale the build
 * makes (LOCPATH) and the catalogs in KISTE_TEST_LOCALEDIR; see
 * tests/meson.build. */

#include "config.h"

#include <glib/gi18n.h>
#include <libintl.h>
#include <locale.h>
#include <string.h>

#include "kiste-application-private.h"
#include "kiste-apps-page.h"
#include "kiste-box-page.h"
#include "kiste-manager-private.h"
#include "kiste-shortcuts-dialog.h"
#include "kiste-test-ui.h"
#include "kiste-window-private.h"

/* One message of the template */
typedef struct
{
  char     *context;
  char     *msgid;
  char     *plural;
  gboolean  c_format;
} Message;

static void
message_free (Message *message)
{
  g_free (message->context);
  g_free (message->msgid);
  g_free (message->plural);
  g_free (message);
}

typedef struct
{
  /* English texts of the code: msgid and msgid_plural */
  GHashTable *english;
  /* German texts of the catalog: every msgstr */
  GHashTable *german;
  /* English sentences with placeholders, as anchored patterns */
  GPtrArray  *patterns;
  /* their German, to count German made from them ("Box mit Debian
   * erstellen") */
  GPtrArray  *german_patterns;
  guint       n_messages;
  guint       n_translated;
} Catalog;

static Catalog catalog;
static KisteApplication *app;

/* The template */

/* before, then the text of the quoted PO string on line, its escapes undone */
static char *
append_po_string (const char *before,
                  const char *line)
{
  GString *out = g_string_new (before);
  const char *p = strchr (line, '"');

  g_assert_nonnull (p);
  for (p++; *p != '\0' && *p != '"'; p++)
    {
      if (*p != '\\')
        {
          g_string_append_c (out, *p);
          continue;
        }
      p++;
      g_assert_cmpint (*p, !=, '\0');
      g_string_append_c (out, *p == 'n' ? '\n' : *p == 't' ? '\t' : *p);
    }
  return g_string_free (out, FALSE);
}

static GPtrArray *
read_template (const char *path)
{
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func ((GDestroyNotify) message_free);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  Message *message = NULL;
  /* the field the quoted lines that follow continue */
  char **slot = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);

  for (guint i = 0; ; i++)
    {
      const char *line = lines[i];
      char *text;

      /* an empty line ends a message; the header has an empty msgid */
      if (line == NULL || line[0] == '\0')
        {
          if (message != NULL && message->msgid != NULL && message->msgid[0] != '\0')
            g_ptr_array_add (messages, g_steal_pointer (&message));
          g_clear_pointer (&message, message_free);
          slot = NULL;
          if (line == NULL)
            break;
          continue;
        }
      if (message == NULL)
        message = g_new0 (Message, 1);

      if (g_str_has_prefix (line, "#,"))
        {
          message->c_format = message->c_format || strstr (line, " c-format") != NULL;
          continue;
        }
      else if (line[0] == '#')
        continue;
      else if (g_str_has_prefix (line, "msgctxt "))
        slot = &message->context;
      else if (g_str_has_prefix (line, "msgid_plural "))
        slot = &message->plural;
      else if (g_str_has_prefix (line, "msgid "))
        slot = &message->msgid;
      else if (g_str_has_prefix (line, "msgstr"))
        {
          slot = NULL;
          continue;
        }
      else if (line[0] != '"' || slot == NULL)
        continue;
      else
        {
          text = append_po_string (*slot, line);
          g_free (*slot);
          *slot = text;
          continue;
        }

      g_free (*slot);
      *slot = append_po_string ("", line);
    }

  return g_steal_pointer (&messages);
}

/* "Could not start “%s”: %s" as ^Could not start “.+”: .+$, or NULL for a
 * sentence whose fixed parts have no letter ("%s · %s") */
static GRegex *
pattern_for (const char *format)
{
  g_autoptr(GString) pattern = g_string_new ("^");
  g_autoptr(GError) error = NULL;
  gboolean has_letter = FALSE;
  GRegex *regex;

  for (const char *p = format; *p != '\0'; )
    {
      if (*p == '%' && p[1] == '%')
        {
          g_string_append (pattern, "%");
          p += 2;
        }
      else if (*p == '%')
        {
          /* %s, %u, %ld, %.12s, %1$s, %c */
          p++;
          while (*p != '\0' && strchr ("0123456789$.-+ #lhzj", *p) != NULL)
            p++;
          if (*p != '\0')
            p++;
          g_string_append (pattern, ".+?");
        }
      else
        {
          const char *next = g_utf8_next_char (p);
          g_autofree char *character = g_strndup (p, next - p);
          g_autofree char *escaped = g_regex_escape_string (character, -1);

          has_letter = has_letter || g_ascii_isalpha (*p);
          g_string_append (pattern, escaped);
          p = next;
        }
    }
  g_string_append (pattern, "$");

  if (!has_letter)
    return NULL;
  regex = g_regex_new (pattern->str, G_REGEX_DOTALL, 0, &error);
  g_assert_no_error (error);
  return regex;
}

static void
add_german (const char *text)
{
  g_hash_table_add (catalog.german, g_strdup (text));
}

/* Reads the template and asks the catalog for each of its messages */
static void
load_catalog (void)
{
  const char *template = g_getenv ("KISTE_TEST_TEMPLATE");
  g_autoptr(GPtrArray) messages = NULL;

  g_assert_nonnull (template);
  messages = read_template (template);
  catalog.english = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  catalog.german = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  catalog.patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);
  catalog.german_patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_regex_unref);

  for (guint i = 0; i < messages->len; i++)
    {
      Message *message = g_ptr_array_index (messages, i);
      gboolean translated;

      /* gettext answers with the very pointer it was given when it has no
       * translation, and with one into the catalog when it has one, even
       * one spelled the same */
      if (message->plural != NULL)
        {
          const char *one = dngettext (GETTEXT_PACKAGE, message->msgid, message->plural, 1);
          const char *many = dngettext (GETTEXT_PACKAGE, message->msgid, message->plural, 2);

          translated = one != message->msgid && many != message->plural;
          if (one != message->msgid)
            add_german (one);
          if (many != message->plural)
            add_german (many);
          g_hash_table_add (catalog.english, g_strdup (message->plural));
        }
      else
        {
          g_autofree char *key = message->context != NULL
                                 ? g_strconcat (message->context, "\004", message->msgid, NULL)
                                 : g_strdup (message->msgid);
          const char *text = dgettext (GETTEXT_PACKAGE, key);

          translated = text != key;
          if (translated)
            add_german (text);
          if (translated && message->c_format)
            {
              GRegex *regex = pattern_for (text);

              if (regex != NULL)
                g_ptr_array_add (catalog.german_patterns, regex);
            }
        }
      g_hash_table_add (catalog.english, g_strdup (message->msgid));
      catalog.n_messages++;
      catalog.n_translated += translated;

      if (message->c_format)
        {
          GRegex *regex = pattern_for (message->msgid);

          if (regex != NULL)
            g_ptr_array_add (catalog.patterns, regex);
          if (message->plural != NULL && (regex = pattern_for (message->plural)) != NULL)
            g_ptr_array_add (catalog.patterns, regex);
        }
    }
  g_test_message ("%u of %u messages of the template are translated",
                  catalog.n_translated, catalog.n_messages);
}

/* What a label says in English, or NULL when it is not English: the text
 * of the code itself or one of its sentences, and not also the German of
 * some message (the German of "Terminal" is "Terminal") */
static const char *
english_match (const char *text)
{
  if (g_hash_table_contains (catalog.german, text))
    return NULL;
  if (g_hash_table_contains (catalog.english, text))
    return text;
  for (guint i = 0; i < catalog.patterns->len; i++)
    {
      GRegex *regex = g_ptr_array_index (catalog.patterns, i);

      if (g_regex_match (regex, text, 0, NULL))
        return g_regex_get_pattern (regex);
    }
  return NULL;
}

/* Whether text is German of the catalog, as it is or made from one of its
 * sentences with placeholders */
static gboolean
is_german (const char *text)
{
  if (g_hash_table_contains (catalog.german, text))
    return TRUE;
  for (guint i = 0; i < catalog.german_patterns->len; i++)
    {
      if (g_regex_match (g_ptr_array_index (catalog.german_patterns, i), text, 0, NULL))
        return TRUE;
    }
  return FALSE;
}

/* Walking the widgets */

typedef struct
{
  GPtrArray *english;
  /* German of the catalog, cut off with an ellipsis */
  GPtrArray *cut;
  guint      n_labels;
  guint      n_german;
} Walk;

static void
walk_widget (GtkWidget *widget,
             Walk      *walk)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget))
    {
      /* as written in the code: with its mnemonic, or with markup */
      const char *label = gtk_label_get_label (GTK_LABEL (widget));
      const char *text = gtk_label_get_text (GTK_LABEL (widget));

      if (text != NULL && text[0] != '\0')
        {
          const char *match = english_match (label);

          if (match == NULL && g_strcmp0 (label, text) != 0)
            match = english_match (text);
          walk->n_labels++;
          if (match != NULL)
            g_ptr_array_add (walk->english,
                             g_strdup_printf ("%s “%s” (%s)",
                                              G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget)),
                                              text, match));
          else if (is_german (label) || is_german (text))
            {
              walk->n_german++;
              if (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
                g_ptr_array_add (walk->cut, g_strdup_printf ("%s “%s”",
                                                             G_OBJECT_TYPE_NAME (gtk_widget_get_parent (widget)),
                                                             text));
            }
        }
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    walk_widget (child, walk);
}

/* Every mapped label under root; fails naming each one still in English
 * or German but cut off with an ellipsis, and when fewer than min_german
 * come from the German catalog (the walk saw nothing, or the catalog was
 * not loaded) */
static void
assert_german (GtkWidget  *root,
               const char *what,
               guint       min_german)
{
  g_autoptr(GPtrArray) english = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) cut = g_ptr_array_new_with_free_func (g_free);
  Walk walk = { english, cut, 0, 0 };

  kiste_test_flush (root);
  walk_widget (root, &walk);
  g_test_message ("%s: %u labels, %u of them German from the catalog", what, walk.n_labels, walk.n_german);

  for (guint i = 0; i < english->len; i++)
    g_test_message ("%s: still English: %s", what, (const char *) g_ptr_array_index (english, i));
  for (guint i = 0; i < cut->len; i++)
    g_test_message ("%s: cut off: %s", what, (const char *) g_ptr_array_index (cut, i));
  if (english->len > 0)
    g_test_fail_printf ("%s shows %u English text%s, the first: %s", what, english->len,
                        english->len == 1 ? "" : "s", (const char *) g_ptr_array_index (english, 0));
  if (cut->len > 0)
    g_test_fail_printf ("%s cuts off %u German text%s, the first: %s", what, cut->len,
                        cut->len == 1 ? "" : "s", (const char *) g_ptr_array_index (cut, 0));
  g_assert_cmpuint (walk.n_german, >=, min_german);
}

/* Every visible button lies inside the window: none is pushed out by
 * longer words */
static void
assert_buttons_inside (GtkWidget *root,
                       GtkWidget *window)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_mapped (child) || !gtk_widget_get_child_visible (child))
        continue;

      if (GTK_IS_BUTTON (child) || GTK_IS_MENU_BUTTON (child))
        {
          graphene_rect_t bounds;

          g_assert_true (gtk_widget_compute_bounds (child, window, &bounds));
          if (bounds.origin.x < -0.5 ||
              bounds.origin.x + bounds.size.width > gtk_widget_get_width (window) + 0.5)
            g_test_fail_printf ("%s “%s” lies outside the window: x %.0f, width %.0f of %d",
                                G_OBJECT_TYPE_NAME (child),
                                gtk_widget_get_tooltip_text (child) ? gtk_widget_get_tooltip_text (child) : "",
                                bounds.origin.x, bounds.size.width, gtk_widget_get_width (window));
        }
      assert_buttons_inside (child, window);
    }
}

/* Tests */

static void
test_setup (void)
{
  /* the locale the build made, the catalog of the build */
  g_assert_cmpstr (setlocale (LC_MESSAGES, NULL), ==, "de_DE.UTF-8");
  g_assert_cmpstr (g_getenv ("LANGUAGE"), ==, "de");
  g_assert_cmpuint (catalog.n_messages, >, 500);
  g_assert_cmpstr (_("New Box"), ==, "Neue Box");
}

/* The walk itself: an English label is found, a German one is not */
static void
test_checker (void)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *english = gtk_label_new ("Open Terminal");
  GtkWidget *sentence = gtk_label_new ("Could not run “fixture-a”: no such box");
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) cut = g_ptr_array_new_with_free_func (g_free);
  Walk walk = { found, cut, 0, 0 };

  gtk_box_append (GTK_BOX (box), gtk_label_new (_("Open Terminal")));
  gtk_box_append (GTK_BOX (box), gtk_label_new ("fixture-a"));
  gtk_box_append (GTK_BOX (box), english);
  gtk_box_append (GTK_BOX (box), sentence);
  gtk_window_set_child (window, box);
  gtk_window_present (window);
  kiste_test_flush (GTK_WIDGET (window));

  walk_widget (GTK_WIDGET (window), &walk);
  g_assert_cmpuint (found->len, ==, 2);
  g_assert_nonnull (strstr (g_ptr_array_index (found, 0), "“Open Terminal”"));
  g_assert_nonnull (strstr (g_ptr_array_index (found, 1), "“Could not run “fixture-a”: no such box”"));
  g_assert_cmpuint (walk.n_german, ==, 1);

  /* once German, nothing is found */
  g_ptr_array_set_size (found, 0);
  gtk_label_set_label (GTK_LABEL (english), _("Open Terminal"));
  gtk_label_set_label (GTK_LABEL (sentence), "„fixture-a“ konnte nicht ausgeführt werden: keine Box");
  walk.n_german = 0;
  walk_widget (GTK_WIDGET (window), &walk);
  g_assert_cmpuint (found->len, ==, 0);
  /* the sentence counts as German: made from the German of its message */
  g_assert_cmpuint (walk.n_german, ==, 3);

  gtk_window_destroy (window);
}

static gboolean
list_has_selection (gpointer data)
{
  KisteWindow *window = data;

  return gtk_widget_get_mapped (GTK_WIDGET (window->list_view)) &&
         gtk_single_selection_get_selected (window->selection) != GTK_INVALID_LIST_POSITION &&
         window->box_page != NULL && gtk_widget_get_mapped (GTK_WIDGET (window->box_page));
}

static gboolean
apps_listed (gpointer data)
{
  GtkStack *stack = GTK_STACK (adw_bin_get_child (ADW_BIN (data)));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "list") == 0;
}

static gboolean
split_collapsed (gpointer data)
{
  return adw_navigation_split_view_get_collapsed (data);
}

static gboolean
dialog_shown (gpointer data)
{
  KisteWindow *window = data;
  AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

static void
popup_and_check (GtkWidget  *window,
                 GtkWidget  *menu_button,
                 const char *what,
                 const char *screenshot,
                 guint       min_german)
{
  GtkPopover *popover;

  g_assert_nonnull (menu_button);
  gtk_menu_button_popup (GTK_MENU_BUTTON (menu_button));
  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button));
  g_assert_nonnull (popover);
  kiste_test_flush (window);
  assert_german (GTK_WIDGET (popover), what, min_german);
  kiste_test_screenshot (GTK_WIDGET (popover), screenshot);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (menu_button));
  kiste_test_flush (window);
}

static void
expand_all (GtkWidget *widget)
{
  if (ADW_IS_EXPANDER_ROW (widget) && gtk_widget_get_visible (widget))
    adw_expander_row_set_expanded (ADW_EXPANDER_ROW (widget), TRUE);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    expand_all (child);
}

/* Screenshots of shown (a window or dialog) as the first scrolled window
 * on screen under within scrolls from its top to its end: name-1.png,
 * name-2.png… */
static GtkWidget *
find_mapped_scrolled (GtkWidget *root)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (!gtk_widget_get_mapped (child))
        continue;
      if (GTK_IS_SCROLLED_WINDOW (child))
        return child;
      if ((found = find_mapped_scrolled (child)))
        return found;
    }
  return NULL;
}

static void
screenshots_scrolled (GtkWidget  *shown,
                      GtkWidget  *within,
                      const char *name)
{
  GtkWidget *scrolled = find_mapped_scrolled (within);
  GtkAdjustment *adjustment;
  double value = 0;

  g_assert_nonnull (scrolled);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  kiste_test_flush (shown);
  for (guint i = 1; ; i++)
    {
      g_autofree char *numbered = g_strdup_printf ("%s-%u", name, i);

      gtk_adjustment_set_value (adjustment, value);
      kiste_test_screenshot (shown, numbered);
      if (value + gtk_adjustment_get_page_size (adjustment) >= gtk_adjustment_get_upper (adjustment) || i == 10)
        break;
      value += gtk_adjustment_get_page_size (adjustment) * 0.8;
    }
  gtk_adjustment_set_value (adjustment, 0);
}

/* The window with boxes, the first box's page, its views and menus */
static void
test_window (void)
{
  g_autoptr(KisteManager) manager = kiste_test_manager_new (KISTE_TEST_WORLD_BOXES);
  KisteFakeRunner *runner = KISTE_FAKE_RUNNER (kiste_manager_get_runner (manager));
  KisteWindow *window;
  AdwViewStack *views;
  GtkWidget *more;

  /* podman's answers as captured: a box's details, its use, its apps */
  kiste_fake_runner_add (runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  kiste_fake_runner_add (runner, "podman stats", "cat \"$KISTE_TEST_FIXTURES/stats-podman5.json\"");
  kiste_fake_runner_add (runner, "podman exec", "cat \"$KISTE_TEST_FIXTURES/apps-listing-debian.txt\"");
  _kiste_application_set_manager (app, manager);
  g_settings_set_string (kiste_application_get_settings (app), "selected-box", "");
  window = kiste_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (kiste_test_wait_for (list_has_selection, window, 10000));

  assert_german (GTK_WIDGET (window), "the window with a box's details", 20);
  screenshots_scrolled (GTK_WIDGET (window),
                        kiste_test_find_widget (GTK_WIDGET (window->box_page), ADW_TYPE_PREFERENCES_PAGE, NULL),
                        "german-window");

  popup_and_check (GTK_WIDGET (window), GTK_WIDGET (window->menu_button), "the main menu", "german-main-menu", 10);
  popup_and_check (GTK_WIDGET (window), GTK_WIDGET (window->tasks_button), "the tasks", "german-tasks", 1);
  more = kiste_test_find_widget (GTK_WIDGET (window->box_page), GTK_TYPE_MENU_BUTTON, _("More Actions"));
  popup_and_check (GTK_WIDGET (window), more, "the box's menu", "german-box-menu", 8);

  /* the Apps view of the box */
  views = ADW_VIEW_STACK (kiste_test_find_widget (GTK_WIDGET (window->box_page), ADW_TYPE_VIEW_STACK, NULL));
  g_assert_nonnull (views);
  adw_view_stack_set_visible_child_name (views, "apps");
  g_assert_true (kiste_test_wait_for (apps_listed,
                                      kiste_test_find_widget (GTK_WIDGET (window->box_page),
                                                              KISTE_TYPE_APPS_PAGE, NULL),
                                      10000));
  assert_german (GTK_WIDGET (window), "the box's Apps view", 5);
  screenshots_scrolled (GTK_WIDGET (window),
                        kiste_test_find_widget (GTK_WIDGET (window->box_page), KISTE_TYPE_APPS_PAGE, NULL),
                        "german-window-apps");
  adw_view_stack_set_visible_child_name (views, "details");

  /* New Box: the create dialog, every part unfolded */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-box", NULL);
  g_assert_true (kiste_test_wait_for (dialog_shown, window, 5000));
  {
    AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));

    assert_german (GTK_WIDGET (dialog), "the create dialog", 15);
    expand_all (GTK_WIDGET (dialog));
    assert_german (GTK_WIDGET (dialog), "the create dialog, unfolded", 25);
    screenshots_scrolled (GTK_WIDGET (dialog), GTK_WIDGET (dialog), "german-create-dialog");
    adw_dialog_force_close (dialog);
  }
  kiste_test_flush (GTK_WIDGET (window));

  /* Preferences */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.preferences", NULL);
  g_assert_true (kiste_test_wait_for (dialog_shown, window, 5000));
  {
    AdwDialog *dialog = adw_application_window_get_visible_dialog (ADW_APPLICATION_WINDOW (window));

    assert_german (GTK_WIDGET (dialog), "the preferences", 8);
    screenshots_scrolled (GTK_WIDGET (dialog), GTK_WIDGET (dialog), "german-preferences");
    adw_dialog_force_close (dialog);
  }
  kiste_test_flush (GTK_WIDGET (window));

  /* Keyboard Shortcuts */
  {
    AdwDialog *dialog = ADW_DIALOG (kiste_shortcuts_dialog_new ());

    adw_dialog_present (dialog, GTK_WIDGET (window));
    g_assert_true (kiste_test_wait_for (dialog_shown, window, 5000));
    assert_german (GTK_WIDGET (dialog), "the keyboard shortcuts", 15);
    screenshots_scrolled (GTK_WIDGET (dialog), GTK_WIDGET (dialog), "german-shortcuts");
    adw_dialog_force_close (dialog);
  }
  kiste_test_flush (GTK_WIDGET (window));

  /* The narrowest window: the list, then the box's page alone */
  gtk_window_set_default_size (GTK_WINDOW (window), 360, 700);
  g_assert_true (kiste_test_wait_for (split_collapsed, window->split_view, 5000));
  assert_german (GTK_WIDGET (window), "the narrow list", 3);
  assert_buttons_inside (GTK_WIDGET (window), GTK_WIDGET (window));
  kiste_test_screenshot (GTK_WIDGET (window), "german-narrow-list");
  adw_navigation_split_view_set_show_content (window->split_view, TRUE);
  kiste_test_flush (GTK_WIDGET (window));
  assert_german (GTK_WIDGET (window), "the narrow box page", 20);
  assert_buttons_inside (GTK_WIDGET (window), GTK_WIDGET (window));
  screenshots_scrolled (GTK_WIDGET (window),
                        kiste_test_find_widget (GTK_WIDGET (window->box_page), ADW_TYPE_PREFERENCES_PAGE, NULL),
                        "german-narrow-details");
  adw_view_stack_set_visible_child_name (views, "apps");
  assert_german (GTK_WIDGET (window), "the narrow Apps view", 5);
  assert_buttons_inside (GTK_WIDGET (window), GTK_WIDGET (window));
  screenshots_scrolled (GTK_WIDGET (window),
                        kiste_test_find_widget (GTK_WIDGET (window->box_page), KISTE_TYPE_APPS_PAGE, NULL),
                        "german-narrow-apps");

  gtk_window_destroy (GTK_WINDOW (window));
  kiste_test_flush_main_context ();
}

/* No boxes yet: the window's welcome, wide and narrow */
static void
test_empty_window (void)
{
  g_autoptr(KisteManager) manager = kiste_test_manager_new (KISTE_TEST_WORLD_EMPTY);
  KisteWindow *window;
  GtkWidget *status;

  _kiste_application_set_manager (app, manager);
  window = kiste_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  status = kiste_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE, _("No Boxes"));
  g_assert_nonnull (status);
  g_assert_true (kiste_test_wait_for ((gpointer) gtk_widget_get_mapped, status, 5000));

  assert_german (GTK_WIDGET (window), "the empty window", 4);
  kiste_test_screenshot (GTK_WIDGET (window), "german-empty");

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 700);
  kiste_test_flush (GTK_WIDGET (window));
  assert_german (GTK_WIDGET (window), "the narrow empty window", 4);
  assert_buttons_inside (GTK_WIDGET (window), GTK_WIDGET (window));
  kiste_test_screenshot (GTK_WIDGET (window), "german-empty-narrow");

  gtk_window_destroy (GTK_WINDOW (window));
  kiste_test_flush_main_context ();
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("KISTE_TEST_LOCALEDIR");
  int ret;

  /* as main.c does, with the build's catalogs */
  g_assert_nonnull (localedir);
  if (setlocale (LC_ALL, "") == NULL)
    g_error ("The locale %s is missing: the build makes it with localedef from the "
             "system's locale sources (package locales or glibc-locale-source)",
             g_getenv ("LC_ALL"));
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  kiste_test_init (&argc, &argv);
  load_catalog ();

  app = kiste_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/kiste/german/setup", test_setup);
  g_test_add_func ("/kiste/german/checker", test_checker);
  g_test_add_func ("/kiste/german/window", test_window);
  g_test_add_func ("/kiste/german/empty-window", test_empty_window);

  ret = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  g_clear_pointer (&catalog.english, g_hash_table_unref);
  g_clear_pointer (&catalog.german, g_hash_table_unref);
  g_clear_pointer (&catalog.patterns, g_ptr_array_unref);
  g_clear_pointer (&catalog.german_patterns, g_ptr_array_unref);
  return ret;
}
