/* kiste-apps-listing.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The listing of a box's apps: the desktop files and icons its script
 * prints (as `od` hexadecimal) turned into desktop apps. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps-private.h"
#include "kiste-error.h"

/* Appends the bytes of one line of `od -An -v -tx1` ("  5b 44 65") to buf. */
static gboolean
append_hex_line (GByteArray *buf,
                 const char *line)
{
  const char *p = line;

  for (;;)
    {
      int hi, lo;
      guint8 byte;

      while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
      if (*p == '\0')
        return TRUE;

      hi = g_ascii_xdigit_value (p[0]);
      lo = hi >= 0 ? g_ascii_xdigit_value (p[1]) : -1;
      if (hi < 0 || lo < 0 || (p[2] != '\0' && p[2] != ' ' && p[2] != '\t' && p[2] != '\r'))
        return FALSE;

      byte = (guint8) (hi * 16 + lo);
      g_byte_array_append (buf, &byte, 1);
      p += 2;
    }
}

static gboolean
set_bad_listing (GError     **error,
                 const char  *detail)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("The list of the box’s apps could not be read (%s)."),
               detail);
  return FALSE;
}

/* Splits the script's output into file paths and the matching contents. */
static gboolean
split_listing (const char  *output,
               GPtrArray   *paths,
               GPtrArray   *contents,
               GPtrArray   *icon_names,
               GPtrArray   *icon_data,
               GError     **error)
{
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);
  g_autoptr(GByteArray) path_bytes = g_byte_array_new ();
  GByteArray *current = NULL;
  gboolean seen_start = FALSE;
  gboolean seen_end = FALSE;
  gsize start = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (seen_end)
        {
          if (line[0] != '\0')
            return set_bad_listing (error, "text after the end");
          continue;
        }

      if (!seen_start)
        {
          if (line[0] == '\0')
            continue;
          if (strcmp (line, "P") != 0)
            return set_bad_listing (error, "no start marker");
          seen_start = TRUE;
          current = path_bytes;
        }
      else if (strcmp (line, "F") == 0)
        {
          if (icon_names->len > 0)
            return set_bad_listing (error, "a file after the icons");
          current = g_byte_array_new ();
          g_ptr_array_add (contents, current);
        }
      else if (strcmp (line, "I") == 0)
        {
          if (icon_names->len != icon_data->len)
            return set_bad_listing (error, "an icon without data");
          current = g_byte_array_new ();
          g_ptr_array_add (icon_names, current);
        }
      else if (strcmp (line, "D") == 0)
        {
          if (icon_names->len != icon_data->len + 1)
            return set_bad_listing (error, "icon data without a name");
          current = g_byte_array_new ();
          g_ptr_array_add (icon_data, current);
        }
      else if (strcmp (line, "E") == 0)
        {
          seen_end = TRUE;
        }
      else if (!append_hex_line (current, line))
        {
          return set_bad_listing (error, "not hexadecimal");
        }
    }

  if (!seen_start || !seen_end)
    return set_bad_listing (error, "cut short");

  for (gsize i = 0; i < path_bytes->len; i++)
    {
      if (path_bytes->data[i] == '\0')
        {
          g_ptr_array_add (paths, g_strndup ((const char *) path_bytes->data + start, i - start));
          start = i + 1;
        }
    }

  if (start != path_bytes->len)
    return set_bad_listing (error, "unterminated file name");

  if (paths->len != contents->len)
    return set_bad_listing (error, "file count mismatch");

  if (icon_names->len != icon_data->len)
    return set_bad_listing (error, "an icon without data");

  return TRUE;
}

/* Icon= value → its file's bytes, from the listing's icon records */
static GHashTable *
collect_icons (GPtrArray *icon_names,
               GPtrArray *icon_data)
{
  GHashTable *icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < icon_names->len; i++)
    {
      GByteArray *name = g_ptr_array_index (icon_names, i);
      GByteArray *data = g_ptr_array_index (icon_data, i);

      /* "NAME\0", valid UTF-8; empty files are no icons */
      if (name->len < 2 || name->data[name->len - 1] != '\0' ||
          memchr (name->data, '\0', name->len - 1) != NULL ||
          !g_utf8_validate ((const char *) name->data, name->len - 1, NULL) ||
          data->len == 0)
        continue;

      g_hash_table_insert (icons, g_strdup ((const char *) name->data),
                           g_bytes_new (data->data, data->len));
    }

  return icons;
}

GPtrArray *
kiste_apps_parse_listing (const char  *output,
                          const char  *locale,
                          GError     **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) contents = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GPtrArray) apps = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) seen_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) icon_names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GPtrArray) icon_data = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  g_autoptr(GHashTable) icons = NULL;

  g_return_val_if_fail (output != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!split_listing (output, paths, contents, icon_names, icon_data, error))
    return NULL;
  icons = collect_icons (icon_names, icon_data);

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      GByteArray *bytes = g_ptr_array_index (contents, i);
      g_autoptr(GKeyFile) key_file = NULL;
      g_autoptr(GError) local_error = NULL;
      g_autofree char *id = NULL;
      KisteDesktopApp *app;

      /* Properties and the UI need UTF-8; such a name is a broken file. */
      if (!g_path_is_absolute (path) || !g_utf8_validate (path, -1, NULL))
        continue;

      key_file = _kiste_apps_load_key_file ((const char *) bytes->data, bytes->len, &local_error);
      if (key_file == NULL)
        {
          g_debug ("Skipping %s: %s", path, local_error->message);
          continue;
        }

      /* The first file with an id shadows the later ones, as in XDG_DATA_DIRS,
       * even when it hides the app. */
      id = g_path_get_basename (path);
      if (g_hash_table_contains (seen_ids, id))
        continue;
      g_hash_table_add (seen_ids, g_steal_pointer (&id));

      app = _kiste_desktop_app_new_from_key_file (path, key_file, locale);
      if (app != NULL)
        {
          if (kiste_desktop_app_get_icon (app) != NULL)
            kiste_desktop_app_set_icon_data (app,
                                             g_hash_table_lookup (icons, kiste_desktop_app_get_icon (app)));
          g_ptr_array_add (apps, app);
        }
    }

  return g_steal_pointer (&apps);
}
