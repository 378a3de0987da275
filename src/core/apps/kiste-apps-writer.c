/* kiste-apps-writer.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A launcher for the host's app menu written by Kiste itself, from an
 * app's desktop entry as the box holds it. The box wrote that entry, so
 * nothing of it is copied: each key Kiste keeps is read, checked and
 * written again, and Exec= is rebuilt around the command that enters the
 * box. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-error.h"

#define MAX_TEXT_CHARS   512
#define MAX_ICON_NAME    255
#define MAX_CATEGORIES   32
#define MAX_EXEC_ARGS    256
#define MAX_ARG_BYTES    4096
/* The Icon Naming Specification's icon for a program */
#define FALLBACK_ICON    "application-x-executable"

static gboolean
is_clean_text (const char *text,
               gsize       max_chars)
{
  if (text == NULL || !g_utf8_validate (text, -1, NULL) || g_utf8_strlen (text, -1) > (glong) max_chars)
    return FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0x2028 || c == 0x2029)
        return FALSE;
    }

  return TRUE;
}

static gboolean
is_token (const char *text,
          gsize       max_bytes,
          const char *extra)
{
  gsize len = text ? strlen (text) : 0;

  if (len == 0 || len > max_bytes || !g_ascii_isalnum (text[0]))
    return FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr (extra, *p) == NULL)
        return FALSE;
    }

  return TRUE;
}

gboolean
kiste_apps_is_icon_name (const char *icon)
{
  /* a name the host's icon theme looks up: no path, no glob, no "." alone
   * (distrobox rm deletes ~/.local/share/icons/…/ICON.* for its launchers) */
  return is_token (icon, MAX_ICON_NAME, "._+-");
}

/* The name a host icon theme may know for Icon=: a plain name as it is, a
 * path inside the box as its file name without the extension */
static char *
dup_icon_name (const char *icon)
{
  g_autofree char *base = NULL;
  char *dot;

  if (icon == NULL)
    return NULL;
  if (!g_path_is_absolute (icon))
    return kiste_apps_is_icon_name (icon) ? g_strdup (icon) : NULL;

  base = g_path_get_basename (icon);
  if ((dot = strrchr (base, '.')) != NULL && dot != base)
    *dot = '\0';
  return kiste_apps_is_icon_name (base) ? g_steal_pointer (&base) : NULL;
}

/* The Desktop Entry Specification's quoting of one argument of Exec= (the
 * key file's own escaping of "\" comes on top, from GKeyFile) */
static void
append_exec_arg (GString    *exec,
                 const char *arg)
{
  static const char reserved[] = " \t\n\"'\\><~|&;$*?#()`";
  gboolean quote = arg[0] == '\0' || strpbrk (arg, reserved) != NULL;

  if (exec->len > 0)
    g_string_append_c (exec, ' ');
  if (quote)
    g_string_append_c (exec, '"');
  for (const char *p = arg; *p != '\0'; p++)
    {
      if (quote && strchr ("\"`$\\", *p) != NULL)
        g_string_append_c (exec, '\\');
      if (*p == '%')
        g_string_append_c (exec, '%');
      g_string_append_c (exec, *p);
    }
  if (quote)
    g_string_append_c (exec, '"');
}

/* The app's argv without field codes, and the first file or URL code it
 * takes ("%f", "%F", "%u", "%U") to pass on, or NULL */
static char **
parse_exec (const char  *exec,
            const char **field_code,
            GError     **error)
{
  g_auto(GStrv) parsed = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;

  *field_code = NULL;
  if (exec == NULL || !is_clean_text (exec, MAX_EXEC_ARGS * 16) ||
      !g_shell_parse_argv (exec, NULL, &parsed, NULL) ||
      g_strv_length (parsed) > MAX_EXEC_ARGS)
    goto bad;

  for (guint i = 0; parsed[i] != NULL; i++)
    {
      const char *arg = parsed[i];
      GString *clean;

      if (arg[0] == '%' && arg[1] != '\0' && arg[2] == '\0' && arg[1] != '%')
        {
          static const char * const codes[] = { "%f", "%F", "%u", "%U" };

          for (guint k = 0; k < G_N_ELEMENTS (codes) && *field_code == NULL; k++)
            if (arg[1] == codes[k][1])
              *field_code = codes[k];
          continue;
        }

      if (strlen (arg) > MAX_ARG_BYTES || !is_clean_text (arg, MAX_ARG_BYTES))
        goto bad;

      /* a code inside an argument is dropped (the whole character after
       * the "%", however many bytes), "%%" is a "%" */
      clean = g_string_new (NULL);
      for (const char *p = arg; *p != '\0'; p = g_utf8_next_char (p))
        {
          if (*p != '%')
            g_string_append_unichar (clean, g_utf8_get_char (p));
          else if (p[1] != '\0')
            {
              if (p[1] == '%')
                g_string_append_c (clean, '%');
              p++;
            }
        }

      /* the program: a word, never an option of what runs it */
      if (n == 0 && (clean->len == 0 || clean->str[0] == '-'))
        {
          g_string_free (clean, TRUE);
          goto bad;
        }
      g_strv_builder_take (builder, g_string_free (clean, FALSE));
      n++;
    }

  if (n > 0)
    return g_strv_builder_end (builder);

bad:
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("The app’s command line cannot be used in a launcher."));
  return NULL;
}

/* Name, GenericName, Comment and their translations, as clean text */
static void
copy_text_key (GKeyFile   *from,
               GKeyFile   *to,
               const char *key,
               const char *suffix)
{
  g_auto(GStrv) keys = g_key_file_get_keys (from, G_KEY_FILE_DESKTOP_GROUP, NULL, NULL);
  gsize key_len = strlen (key);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = NULL;
      g_autofree char *with_suffix = NULL;

      /* the key itself, or the key with a locale: Name[de_DE@euro] */
      if (!g_str_equal (keys[i], key))
        {
          g_autofree char *locale = NULL;
          gsize len = strlen (keys[i]);

          if (strncmp (keys[i], key, key_len) != 0 || keys[i][key_len] != '[' ||
              keys[i][len - 1] != ']')
            continue;
          locale = g_strndup (keys[i] + key_len + 1, len - key_len - 2);
          if (!is_token (locale, 64, "_@.-"))
            continue;
        }

      value = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, keys[i], NULL);
      if (value == NULL || !is_clean_text (value, MAX_TEXT_CHARS))
        continue;

      with_suffix = g_strconcat (value, suffix, NULL);
      g_key_file_set_string (to, G_KEY_FILE_DESKTOP_GROUP, keys[i], with_suffix);
    }
}

/**
 * kiste_apps_build_host_launcher:
 * @desktop_id: the app's desktop file name in the box ("org.gnome.Maps.desktop")
 * @contents: that file, as read from the box
 * @length: its length in bytes
 * @enter_argv: the host command that runs a command in the box, ending
 *   where the app's argv goes (`/usr/bin/distrobox enter -n BOX --`)
 * @label: appended to every Name ("" for none)
 * @error: why the app cannot have such a launcher
 *
 * Writes the launcher from a few keys of the app's entry, each checked:
 * Name, GenericName and Comment (with their translations) as clean text,
 * Icon as a theme icon name (a path in the box becomes its file name; a
 * program's icon when there is none to use),
 * Categories as words, Terminal and StartupNotify as booleans,
 * StartupWMClass as a word, and Exec as @enter_argv followed by the app's
 * own argv and the file or URL code it takes. Everything else (Path,
 * TryExec, DBusActivatable, MimeType, actions, translated Exec) is left
 * out: none of it may run or open anything on this computer.
 *
 * Returns: (transfer full): the launcher's text, or %NULL
 */
char *
kiste_apps_build_host_launcher (const char          *desktop_id,
                                const char          *contents,
                                gsize                length,
                                const char * const  *enter_argv,
                                const char          *label,
                                GError             **error)
{
  g_autoptr(GKeyFile) from = g_key_file_new ();
  g_autoptr(GKeyFile) to = g_key_file_new ();
  g_autoptr(GString) exec = g_string_new (NULL);
  g_autofree char *type = NULL;
  g_autofree char *exec_line = NULL;
  g_autofree char *icon = NULL;
  g_autofree char *icon_name = NULL;
  g_autofree char *wm_class = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) categories = NULL;
  const char *field_code = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (desktop_id != NULL, NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (enter_argv != NULL && enter_argv[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_key_file_load_from_data (from, contents, length, G_KEY_FILE_KEEP_TRANSLATIONS, NULL) ||
      !(type = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, "Type", NULL)) ||
      !g_str_equal (type, "Application"))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("“%s” is not an application launcher."), desktop_id);
      return NULL;
    }

  name = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, "Name", NULL);
  if (name == NULL || !is_clean_text (name, MAX_TEXT_CHARS) || name[0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("“%s” has no usable name."), desktop_id);
      return NULL;
    }

  exec_line = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, "Exec", NULL);
  if (!(argv = parse_exec (exec_line, &field_code, &local_error)))
    {
      g_propagate_error (error, local_error);
      return NULL;
    }

  for (guint i = 0; enter_argv[i] != NULL; i++)
    append_exec_arg (exec, enter_argv[i]);
  for (guint i = 0; argv[i] != NULL; i++)
    append_exec_arg (exec, argv[i]);
  if (field_code != NULL)
    g_string_append_printf (exec, " %s", field_code);

  g_key_file_set_string (to, G_KEY_FILE_DESKTOP_GROUP, "Type", "Application");

  /* Always one, and the first "Icon=" of the file: distrobox rm deletes
   * ~/.local/share/icons/…/ICON.* taking ICON from the first line that
   * holds "Icon=" anywhere (a name could), and a missing one as ".*" */
  icon = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, "Icon", NULL);
  if ((icon_name = dup_icon_name (icon)) == NULL)
    icon_name = g_strdup (FALLBACK_ICON);
  g_key_file_set_string (to, G_KEY_FILE_DESKTOP_GROUP, "Icon", icon_name);

  copy_text_key (from, to, "Name", label ? label : "");
  copy_text_key (from, to, "GenericName", "");
  copy_text_key (from, to, "Comment", "");
  g_key_file_set_string (to, G_KEY_FILE_DESKTOP_GROUP, "Exec", exec->str);


  categories = g_key_file_get_string_list (from, G_KEY_FILE_DESKTOP_GROUP, "Categories", NULL, NULL);
  if (categories != NULL)
    {
      g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
      g_auto(GStrv) list = NULL;
      guint n = 0;

      for (guint i = 0; categories[i] != NULL && n < MAX_CATEGORIES; i++)
        {
          if (is_token (categories[i], 64, "_-"))
            {
              g_strv_builder_add (kept, categories[i]);
              n++;
            }
        }
      list = g_strv_builder_end (kept);
      if (n > 0)
        g_key_file_set_string_list (to, G_KEY_FILE_DESKTOP_GROUP, "Categories",
                                    (const char * const *) list, n);
    }

  g_key_file_set_boolean (to, G_KEY_FILE_DESKTOP_GROUP, "Terminal",
                          g_key_file_get_boolean (from, G_KEY_FILE_DESKTOP_GROUP, "Terminal", NULL));
  if (g_key_file_has_key (from, G_KEY_FILE_DESKTOP_GROUP, "StartupNotify", NULL))
    g_key_file_set_boolean (to, G_KEY_FILE_DESKTOP_GROUP, "StartupNotify",
                            g_key_file_get_boolean (from, G_KEY_FILE_DESKTOP_GROUP, "StartupNotify", NULL));

  /* the window's class, so the desktop puts the app's windows with it */
  wm_class = g_key_file_get_string (from, G_KEY_FILE_DESKTOP_GROUP, "StartupWMClass", NULL);
  if (wm_class == NULL || !is_token (wm_class, 255, "._-"))
    {
      g_free (wm_class);
      wm_class = g_strdup (desktop_id);
      if (g_str_has_suffix (wm_class, ".desktop"))
        wm_class[strlen (wm_class) - strlen (".desktop")] = '\0';
      if (!is_token (wm_class, 255, "._-"))
        g_clear_pointer (&wm_class, g_free);
    }
  if (wm_class != NULL)
    g_key_file_set_string (to, G_KEY_FILE_DESKTOP_GROUP, "StartupWMClass", wm_class);

  return g_key_file_to_data (to, NULL, NULL);
}
