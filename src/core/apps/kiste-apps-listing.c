/* kiste-apps-listing.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The listing of a box's apps: the desktop files and icons its script
 * prints (as base64) turned into desktop apps. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps-private.h"
#include "kiste-commands.h"
#include "kiste-error.h"

/* One line of base64 as the base64 program prints it */
static gboolean
is_base64_line (const char *line)
{
  for (const char *p = line; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '+' && *p != '/' && *p != '=')
        return FALSE;
    }
  return TRUE;
}

static gboolean
set_bad_listing (GError     **error,
                 const char  *detail)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               /* Translators: %s says what was wrong with the list a script
                * in the box printed: "cut short", "not base64" */
               _("The list of the box’s apps could not be read (%s)."),
               detail);
  return FALSE;
}

/* The script's sections, in the order it prints them */
typedef enum {
  SECTION_PATHS,
  SECTION_FILE_SIZES,
  SECTION_FILES,
  SECTION_ICON_NAMES,
  SECTION_ICON_SIZES,
  SECTION_ICONS,
  N_SECTIONS
} Section;

static const char section_markers[N_SECTIONS + 1] = "PSFISDE";

typedef struct {
  GString    *text[N_SECTIONS];    /* the base64 sections as read */
  GByteArray *bytes[N_SECTIONS];   /* and decoded */
  GArray     *file_sizes;          /* guint64 */
  GArray     *icon_sizes;          /* guint64 */
} Listing;

static void
listing_clear (Listing *listing)
{
  for (guint i = 0; i < N_SECTIONS; i++)
    {
      if (listing->text[i] != NULL)
        g_string_free (g_steal_pointer (&listing->text[i]), TRUE);
      g_clear_pointer (&listing->bytes[i], g_byte_array_unref);
    }
  g_clear_pointer (&listing->file_sizes, g_array_unref);
  g_clear_pointer (&listing->icon_sizes, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Listing, listing_clear)

static gboolean
append_size_line (GArray     *sizes,
                  const char *line)
{
  guint64 size;

  if (!g_ascii_string_to_unsigned (line, 10, 0, G_MAXINT64, &size, NULL))
    return FALSE;
  g_array_append_val (sizes, size);
  return TRUE;
}

/* Reads the script's output into its sections. */
static gboolean
read_sections (const char  *output,
               Listing     *listing,
               GError     **error)
{
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);
  int section = -1;   /* before "P" */

  for (guint i = 0; i < N_SECTIONS; i++)
    listing->text[i] = g_string_new (NULL);
  listing->file_sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  listing->icon_sizes = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (line[0] == '\0')
        continue;

      if (section == N_SECTIONS)
        return set_bad_listing (error, _("text after the end"));

      /* The next marker moves on; sections never come back */
      if (line[0] == section_markers[section + 1] && line[1] == '\0')
        {
          section++;
          continue;
        }
      if (section < 0)
        return set_bad_listing (error, _("no start marker"));
      /* base64 lines come in fours, sizes are digits */
      if (g_ascii_isupper (line[0]) && line[1] == '\0')
        return set_bad_listing (error, _("a section out of order"));

      if (section == SECTION_FILE_SIZES || section == SECTION_ICON_SIZES)
        {
          GArray *sizes = section == SECTION_FILE_SIZES ? listing->file_sizes : listing->icon_sizes;

          if (!append_size_line (sizes, line))
            return set_bad_listing (error, _("not a size"));
        }
      else if (is_base64_line (line))
        {
          g_string_append (listing->text[section], line);
        }
      else
        {
          return set_bad_listing (error, _("not base64"));
        }
    }

  if (section != N_SECTIONS)
    return set_bad_listing (error, _("cut short"));

  for (guint i = 0; i < N_SECTIONS; i++)
    {
      gsize len = 0;
      guchar *data;

      if (listing->text[i]->len % 4 != 0)
        return set_bad_listing (error, _("base64 cut short"));
      data = g_base64_decode (listing->text[i]->str, &len);
      listing->bytes[i] = g_byte_array_new_take (data, len);
    }

  return TRUE;
}

/* The files' paths and contents, split by the paths' NULs and the sizes */
static gboolean
split_files (Listing    *listing,
             GPtrArray  *paths,
             GPtrArray  *contents,
             GError    **error)
{
  GByteArray *path_bytes = listing->bytes[SECTION_PATHS];
  GByteArray *data = listing->bytes[SECTION_FILES];
  gsize start = 0;
  gsize offset = 0;

  for (gsize i = 0; i < path_bytes->len; i++)
    {
      if (path_bytes->data[i] == '\0')
        {
          g_ptr_array_add (paths, g_strndup ((const char *) path_bytes->data + start, i - start));
          start = i + 1;
        }
    }

  if (start != path_bytes->len)
    return set_bad_listing (error, _("unterminated file name"));

  if (paths->len != listing->file_sizes->len)
    return set_bad_listing (error, _("file count mismatch"));

  for (guint i = 0; i < listing->file_sizes->len; i++)
    {
      guint64 size = g_array_index (listing->file_sizes, guint64, i);
      /* the script reads a file up to one byte past the largest kept */
      guint64 read = MIN (size, KISTE_LIST_APPS_FILE_READ);
      GByteArray *bytes;

      if (read > data->len - offset)
        return set_bad_listing (error, _("a file shorter than its size"));
      /* too big to be a launcher: an empty one, which is skipped */
      bytes = g_byte_array_sized_new (size <= KISTE_LIST_APPS_FILE_MAX ? read : 0);
      if (size <= KISTE_LIST_APPS_FILE_MAX)
        g_byte_array_append (bytes, data->data + offset, read);
      g_ptr_array_add (contents, bytes);
      offset += read;
    }

  /* A file that changed while it was read */
  if (offset != data->len)
    return set_bad_listing (error, _("a file longer than its size"));

  return TRUE;
}

/* Icon= value → its file's bytes; a file too big or empty is no icon */
static GHashTable *
split_icons (Listing  *listing,
             GError  **error)
{
  g_autoptr(GHashTable) icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_bytes_unref);
  GByteArray *names = listing->bytes[SECTION_ICON_NAMES];
  GByteArray *data = listing->bytes[SECTION_ICONS];
  gsize start = 0;
  gsize offset = 0;
  guint n = 0;

  if (names->len > 0 && names->data[names->len - 1] != '\n')
    {
      set_bad_listing (error, _("unterminated icon name"));
      return NULL;
    }

  for (gsize i = 0; i < names->len; i++)
    {
      const char *name = (const char *) names->data + start;
      gsize name_len = i - start;
      guint64 size;
      guint64 read;

      if (names->data[i] != '\n')
        continue;
      start = i + 1;

      if (n >= listing->icon_sizes->len)
        {
          set_bad_listing (error, _("an icon without a size"));
          return NULL;
        }
      size = g_array_index (listing->icon_sizes, guint64, n++);
      read = MIN (size, KISTE_LIST_APPS_ICON_READ);
      if (read > data->len - offset)
        {
          set_bad_listing (error, _("an icon shorter than its size"));
          return NULL;
        }

      if (size > 0 && size <= KISTE_LIST_APPS_ICON_MAX && name_len > 0 &&
          memchr (name, '\0', name_len) == NULL && g_utf8_validate (name, name_len, NULL))
        g_hash_table_insert (icons, g_strndup (name, name_len),
                             g_bytes_new (data->data + offset, read));
      offset += read;
    }

  if (n != listing->icon_sizes->len)
    {
      set_bad_listing (error, _("an icon size without a name"));
      return NULL;
    }
  if (offset != data->len)
    {
      set_bad_listing (error, _("an icon longer than its size"));
      return NULL;
    }

  return g_steal_pointer (&icons);
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
  g_auto(Listing) listing = { 0 };
  g_autoptr(GHashTable) icons = NULL;

  g_return_val_if_fail (output != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!read_sections (output, &listing, error) ||
      !split_files (&listing, paths, contents, error) ||
      !(icons = split_icons (&listing, error)))
    return NULL;

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
