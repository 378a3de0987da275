/* kiste-apps-exported.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What boxes export to the host: exported launchers and wrappers read
 * as KisteExportedFile, those of one box or of every box (with those
 * left behind marked), and apps marked as exported. */

#include "config.h"

#include <string.h>

#include "kiste-apps-private.h"

G_DEFINE_BOXED_TYPE (KisteExportedFile, kiste_exported_file,
                     kiste_exported_file_copy, kiste_exported_file_free)

static KisteExportedFile *
exported_file_new (KisteExportedKind  kind,
                   const char        *path,
                   const char        *source,
                   const char        *name,
                   const char        *box_name)
{
  KisteExportedFile *self = g_new0 (KisteExportedFile, 1);

  self->kind = kind;
  self->path = g_strdup (path);
  self->source = g_strdup (source);
  self->name = g_strdup (name);
  self->box_name = g_strdup (box_name);

  return self;
}

KisteExportedFile *
kiste_exported_file_copy (const KisteExportedFile *self)
{
  KisteExportedFile *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = exported_file_new (self->kind, self->path, self->source, self->name, self->box_name);
  copy->stale = self->stale;
  copy->unsafe_icon = self->unsafe_icon;
  return copy;
}

void
kiste_exported_file_free (KisteExportedFile *self)
{
  if (self == NULL)
    return;

  g_free (self->path);
  g_free (self->source);
  g_free (self->name);
  g_free (self->box_name);
  g_free (self);
}

gboolean
kiste_apps_is_launcher_candidate (const char *basename,
                                  const char *box_name)
{
  gsize name_len;

  g_return_val_if_fail (basename != NULL, FALSE);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', FALSE);

  name_len = strlen (box_name);

  return strncmp (basename, box_name, name_len) == 0 &&
         basename[name_len] == '-' &&
         g_str_has_suffix (basename + name_len + 1, ".desktop") &&
         strlen (basename + name_len + 1) > strlen (".desktop");
}

/* What distrobox rm makes of a launcher's icon before it runs `find
 * ~/.local/share/icons -name "ICON.*" -delete`: the rest of the first line
 * holding "Icon=" (grep -o), up to the next "=" (cut) */
static gboolean
rm_icon_is_plain (const char *contents)
{
  const char *icon = strstr (contents, "Icon=");
  g_autofree char *value = NULL;
  gsize len;

  if (icon == NULL)
    return FALSE;
  icon += strlen ("Icon=");
  len = strcspn (icon, "=\n");
  value = g_strndup (icon, len);
  return kiste_apps_is_icon_name (value);
}

KisteExportedFile *
kiste_apps_parse_exported_launcher (const char *path,
                                    const char *contents,
                                    const char *box_name)
{
  g_autoptr(GKeyFile) key_file = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;
  KisteExportedFile *file;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', NULL);

  basename = g_path_get_basename (path);
  if (!kiste_apps_is_launcher_candidate (basename, box_name) ||
      !kiste_apps_desktop_enters_box (contents, box_name))
    return NULL;

  key_file = _kiste_apps_load_key_file (contents, strlen (contents), NULL);
  if (key_file != NULL)
    name = g_key_file_get_string (key_file, DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, NULL);

  label = g_strdup_printf (" (on %s)", box_name);
  if (name != NULL && g_str_has_suffix (name, label))
    name[strlen (name) - strlen (label)] = '\0';

  file = exported_file_new (KISTE_EXPORTED_APP, path, basename + strlen (box_name) + 1, name, box_name);
  file->unsafe_icon = !rm_icon_is_plain (contents);
  return file;
}

typedef struct
{
  const char *box_name;
  char       *source;
} WrapperSource;

/* The program is the first single-quoted word after "--" on the line that
 * runs distrobox enter: `exec "…/distrobox-enter" -n BOX -- 'PROGRAM' "$@"`
 * (also behind sudo or `sh -l -c "'PROGRAM' …"`). */
static gboolean
find_wrapper_source (const char *line,
                     gsize       len,
                     gpointer    data)
{
  WrapperSource *ws = data;
  g_autoptr(GArray) tokens = NULL;
  int first;

  if (!_kiste_apps_find_enter_names (line, len, ws->box_name, NULL, NULL))
    return FALSE;

  tokens = _kiste_apps_tokenize (line, len);
  first = _kiste_apps_find_enter_arguments (line, tokens);

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      const char *rest;
      const char *open;
      const char *close;
      gsize rest_len;

      if (!_kiste_apps_token_equals (line, token, "--"))
        continue;

      rest = line + token->start + token->len;
      rest_len = len - (token->start + token->len);
      open = memchr (rest, '\'', rest_len);
      if (open == NULL)
        return FALSE;
      close = memchr (open + 1, '\'', rest_len - (gsize) (open + 1 - rest));
      if (close == NULL || close == open + 1)
        return FALSE;

      ws->source = g_strndup (open + 1, (gsize) (close - open - 1));
      return TRUE;
    }

  return FALSE;
}

KisteExportedFile *
kiste_apps_parse_exported_wrapper (const char *path,
                                   const char *contents,
                                   const char *box_name)
{
  WrapperSource ws = { box_name, NULL };
  g_autofree char *basename = NULL;
  g_autofree char *source = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', NULL);

  if (!kiste_apps_wrapper_names_box (contents, box_name))
    return NULL;

  _kiste_apps_foreach_line (contents, find_wrapper_source, &ws);
  source = ws.source;
  if (source != NULL && (!g_path_is_absolute (source) || !g_utf8_validate (source, -1, NULL)))
    g_clear_pointer (&source, g_free);

  basename = g_path_get_basename (path);

  return exported_file_new (KISTE_EXPORTED_BINARY, path, source, basename, box_name);
}

static int
compare_exported_by_path (gconstpointer a,
                          gconstpointer b)
{
  const KisteExportedFile *fa = *(const KisteExportedFile * const *) a;
  const KisteExportedFile *fb = *(const KisteExportedFile * const *) b;

  return strcmp (fa->path, fb->path);
}

static void
match_dir (GPtrArray  *result,
           const char *box_name,
           const char *dir,
           GHashTable *files,
           gboolean    binaries)
{
  GHashTableIter iter;
  gpointer key, value;

  if (dir == NULL || files == NULL)
    return;

  g_hash_table_iter_init (&iter, files);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *basename = key;
      const char *contents = value;
      g_autofree char *path = NULL;
      KisteExportedFile *file;

      if (contents == NULL || strchr (basename, '/') != NULL)
        continue;

      path = g_build_filename (dir, basename, NULL);
      if (binaries)
        file = kiste_apps_parse_exported_wrapper (path, contents, box_name);
      else
        file = kiste_apps_parse_exported_launcher (path, contents, box_name);

      if (file != NULL)
        g_ptr_array_add (result, file);
    }
}

GPtrArray *
kiste_apps_match_exported (const char *box_name,
                           const char *applications_dir,
                           GHashTable *applications,
                           const char *bin_dir,
                           GHashTable *binaries)
{
  GPtrArray *result;

  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', NULL);

  result = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_exported_file_free);
  match_dir (result, box_name, applications_dir, applications, FALSE);
  match_dir (result, box_name, bin_dir, binaries, TRUE);
  g_ptr_array_sort (result, compare_exported_by_path);

  return result;
}

void
kiste_apps_mark_exported (GPtrArray *apps,
                          GPtrArray *exported)
{
  g_autoptr(GHashTable) ids = NULL;

  g_return_if_fail (apps != NULL);

  ids = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; exported != NULL && i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);

      if (file->kind == KISTE_EXPORTED_APP && file->source != NULL)
        g_hash_table_add (ids, file->source);
    }

  for (guint i = 0; i < apps->len; i++)
    {
      KisteDesktopApp *app = g_ptr_array_index (apps, i);

      kiste_desktop_app_set_exported (app, g_hash_table_contains (ids, kiste_desktop_app_get_id (app)));
    }
}

/* A box name as it may appear in a file name: no separators, no dot
 * files, no blanks */
static gboolean
is_plausible_box_name (const char *name)
{
  return name != NULL && name[0] != '\0' && name[0] != '.' && name[0] != '-' &&
         strpbrk (name, "/ \t\n") == NULL && g_utf8_validate (name, -1, NULL);
}

/* A rootful box (`--root`) is not among the boxes a rootless manager
 * lists: its exports are never called left behind */
static gboolean
is_stale (const char         *box_name,
          const char         *contents,
          const char * const *box_names)
{
  if (strstr (contents, "--root") != NULL)
    return FALSE;

  return box_names == NULL || !g_strv_contains (box_names, box_name);
}

GPtrArray *
kiste_apps_match_all_exported (const char         *applications_dir,
                               GHashTable         *applications,
                               const char         *bin_dir,
                               GHashTable         *binaries,
                               const char * const *box_names)
{
  GPtrArray *result = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_exported_file_free);
  GHashTableIter iter;
  gpointer key, value;

  if (applications_dir != NULL && applications != NULL)
    {
      g_hash_table_iter_init (&iter, applications);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *basename = key;
          const char *contents = value;
          g_autofree char *box = NULL;
          g_autofree char *path = NULL;
          g_autofree char *entry_name = NULL;
          KisteExportedFile *file = NULL;

          if (contents == NULL || strchr (basename, '/') != NULL ||
              !is_plausible_box_name (box = kiste_apps_dup_entered_box (contents)))
            continue;

          path = g_build_filename (applications_dir, basename, NULL);
          entry_name = g_strconcat (box, ".desktop", NULL);
          if (kiste_apps_is_launcher_candidate (basename, box))
            file = kiste_apps_parse_exported_launcher (path, contents, box);
          else if (strcmp (basename, entry_name) == 0)
            file = exported_file_new (KISTE_EXPORTED_BOX_ENTRY, path, NULL, box, box);

          if (file != NULL)
            {
              file->stale = is_stale (box, contents, box_names);
              g_ptr_array_add (result, file);
            }
        }
    }

  if (bin_dir != NULL && binaries != NULL)
    {
      g_hash_table_iter_init (&iter, binaries);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *basename = key;
          const char *contents = value;
          g_autofree char *box = NULL;
          g_autofree char *path = NULL;
          KisteExportedFile *file;

          if (contents == NULL || strchr (basename, '/') != NULL ||
              !is_plausible_box_name (box = kiste_apps_dup_wrapper_box (contents)))
            continue;

          path = g_build_filename (bin_dir, basename, NULL);
          if ((file = kiste_apps_parse_exported_wrapper (path, contents, box)))
            {
              file->stale = is_stale (box, contents, box_names);
              g_ptr_array_add (result, file);
            }
        }
    }

  g_ptr_array_sort (result, compare_exported_by_path);
  return result;
}
