/* kiste-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-error.h"
#include "kiste-runner.h"

#define DESKTOP_GROUP G_KEY_FILE_DESKTOP_GROUP

/* Wrappers are small shell scripts; anything bigger in ~/.local/bin is a
 * real program and not worth reading. */
#define MAX_WRAPPER_SIZE (64 * 1024)
#define MAX_LAUNCHER_SIZE (1024 * 1024)
#define HOST_READ_TIMEOUT_MS 15000

struct _KisteDesktopApp
{
  GObject   parent_instance;

  char     *id;
  char     *path;
  char     *name;
  char     *comment;
  char     *icon;
  char     *exec;
  char    **categories;
  GBytes   *icon_data;
  gboolean  exported;
};

G_DEFINE_FINAL_TYPE (KisteDesktopApp, kiste_desktop_app, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_PATH,
  PROP_NAME,
  PROP_COMMENT,
  PROP_ICON,
  PROP_EXEC,
  PROP_CATEGORIES,
  PROP_EXPORTED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kiste_desktop_app_finalize (GObject *object)
{
  KisteDesktopApp *self = (KisteDesktopApp *) object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->comment, g_free);
  g_clear_pointer (&self->icon, g_free);
  g_clear_pointer (&self->exec, g_free);
  g_clear_pointer (&self->categories, g_strfreev);
  g_clear_pointer (&self->icon_data, g_bytes_unref);

  G_OBJECT_CLASS (kiste_desktop_app_parent_class)->finalize (object);
}

static void
kiste_desktop_app_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KisteDesktopApp *self = KISTE_DESKTOP_APP (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_COMMENT:
      g_value_set_string (value, self->comment);
      break;

    case PROP_ICON:
      g_value_set_string (value, self->icon);
      break;

    case PROP_EXEC:
      g_value_set_string (value, self->exec);
      break;

    case PROP_CATEGORIES:
      g_value_set_boxed (value, self->categories);
      break;

    case PROP_EXPORTED:
      g_value_set_boolean (value, self->exported);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_desktop_app_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  KisteDesktopApp *self = KISTE_DESKTOP_APP (object);

  switch (prop_id)
    {
    case PROP_EXPORTED:
      kiste_desktop_app_set_exported (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_desktop_app_class_init (KisteDesktopAppClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_desktop_app_finalize;
  object_class->get_property = kiste_desktop_app_get_property;
  object_class->set_property = kiste_desktop_app_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_COMMENT] =
    g_param_spec_string ("comment", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_ICON] =
    g_param_spec_string ("icon", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_EXEC] =
    g_param_spec_string ("exec", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_CATEGORIES] =
    g_param_spec_boxed ("categories", NULL, NULL, G_TYPE_STRV,
                        (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_EXPORTED] =
    g_param_spec_boolean ("exported", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_desktop_app_init (KisteDesktopApp *self)
{
}

static gboolean
is_hidden_entry (GKeyFile *key_file)
{
  return g_key_file_get_boolean (key_file, DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_NO_DISPLAY, NULL) ||
         g_key_file_get_boolean (key_file, DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_HIDDEN, NULL);
}

static char *
dup_nonempty_string (GKeyFile   *key_file,
                     const char *key)
{
  g_autofree char *value = g_key_file_get_string (key_file, DESKTOP_GROUP, key, NULL);

  if (value == NULL || value[0] == '\0')
    return NULL;

  return g_steal_pointer (&value);
}

static char *
dup_nonempty_locale_string (GKeyFile   *key_file,
                            const char *key,
                            const char *locale)
{
  g_autofree char *value = g_key_file_get_locale_string (key_file, DESKTOP_GROUP, key, locale, NULL);

  if (value == NULL || value[0] == '\0')
    return NULL;

  return g_steal_pointer (&value);
}

static GKeyFile *
load_key_file (const char  *data,
               gsize        length,
               GError     **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();

  /* Every translation is kept so that a locale other than the process's
   * one can be asked for. */
  if (!g_key_file_load_from_data (key_file, data, length, G_KEY_FILE_KEEP_TRANSLATIONS, error))
    return NULL;

  if (!g_key_file_has_group (key_file, DESKTOP_GROUP))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
                   "No [%s] group", DESKTOP_GROUP);
      return NULL;
    }

  return g_steal_pointer (&key_file);
}

static KisteDesktopApp *
desktop_app_new_from_key_file (const char *path,
                               GKeyFile   *key_file,
                               const char *locale)
{
  g_autoptr(KisteDesktopApp) self = NULL;
  g_autofree char *type = NULL;
  g_autofree char *name = NULL;
  g_autofree char *exec = NULL;

  type = g_key_file_get_string (key_file, DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_TYPE, NULL);
  if (g_strcmp0 (type, G_KEY_FILE_DESKTOP_TYPE_APPLICATION) != 0 || is_hidden_entry (key_file))
    return NULL;

  name = dup_nonempty_locale_string (key_file, G_KEY_FILE_DESKTOP_KEY_NAME, locale);
  /* Without Exec distrobox has nothing to put behind its enter command. */
  exec = dup_nonempty_string (key_file, G_KEY_FILE_DESKTOP_KEY_EXEC);
  if (name == NULL || exec == NULL)
    return NULL;

  self = g_object_new (KISTE_TYPE_DESKTOP_APP, NULL);
  self->path = g_strdup (path);
  self->id = g_path_get_basename (path);
  self->name = g_steal_pointer (&name);
  self->exec = g_steal_pointer (&exec);
  self->comment = dup_nonempty_locale_string (key_file, G_KEY_FILE_DESKTOP_KEY_COMMENT, locale);
  self->icon = dup_nonempty_locale_string (key_file, G_KEY_FILE_DESKTOP_KEY_ICON, locale);
  self->categories = g_key_file_get_string_list (key_file, DESKTOP_GROUP,
                                                 G_KEY_FILE_DESKTOP_KEY_CATEGORIES, NULL, NULL);
  if (self->categories == NULL)
    self->categories = g_new0 (char *, 1);

  return g_steal_pointer (&self);
}

KisteDesktopApp *
kiste_desktop_app_new_from_data (const char  *path,
                                 const char  *data,
                                 gsize        length,
                                 const char  *locale,
                                 GError     **error)
{
  g_autoptr(GKeyFile) key_file = NULL;

  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  key_file = load_key_file (data != NULL ? data : "", length, error);
  if (key_file == NULL)
    return NULL;

  return desktop_app_new_from_key_file (path, key_file, locale);
}

const char *
kiste_desktop_app_get_id (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->id;
}

const char *
kiste_desktop_app_get_path (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->path;
}

const char *
kiste_desktop_app_get_name (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->name;
}

const char *
kiste_desktop_app_get_comment (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->comment;
}

const char *
kiste_desktop_app_get_icon (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->icon;
}

const char *
kiste_desktop_app_get_exec (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->exec;
}

const char * const *
kiste_desktop_app_get_categories (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return (const char * const *) self->categories;
}

gboolean
kiste_desktop_app_get_exported (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), FALSE);

  return self->exported;
}

void
kiste_desktop_app_set_exported (KisteDesktopApp *self,
                                gboolean         exported)
{
  g_return_if_fail (KISTE_IS_DESKTOP_APP (self));

  exported = !!exported;
  if (self->exported == exported)
    return;

  self->exported = exported;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPORTED]);
}

GBytes *
kiste_desktop_app_get_icon_data (KisteDesktopApp *self)
{
  g_return_val_if_fail (KISTE_IS_DESKTOP_APP (self), NULL);

  return self->icon_data;
}

void
kiste_desktop_app_set_icon_data (KisteDesktopApp *self,
                                 GBytes          *icon_data)
{
  g_return_if_fail (KISTE_IS_DESKTOP_APP (self));

  if (self->icon_data == icon_data)
    return;
  g_clear_pointer (&self->icon_data, g_bytes_unref);
  self->icon_data = icon_data ? g_bytes_ref (icon_data) : NULL;
}

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

      key_file = load_key_file ((const char *) bytes->data, bytes->len, &local_error);
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

      app = desktop_app_new_from_key_file (path, key_file, locale);
      if (app != NULL)
        {
          if (app->icon != NULL)
            kiste_desktop_app_set_icon_data (app, g_hash_table_lookup (icons, app->icon));
          g_ptr_array_add (apps, app);
        }
    }

  return g_steal_pointer (&apps);
}


/* Exported state */

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

typedef struct
{
  gsize start;
  gsize len;
} Token;

/* Splits text[0..len) at blanks, keeping offsets so that tokens can be
 * replaced in place. */
static GArray *
tokenize (const char *text,
          gsize       len)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  gsize i = 0;

  while (i < len)
    {
      Token token;

      while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
      if (i >= len)
        break;

      token.start = i;
      while (i < len && text[i] != ' ' && text[i] != '\t')
        i++;
      token.len = i - token.start;
      g_array_append_val (tokens, token);
    }

  return tokens;
}

static gboolean
token_equals (const char  *text,
              const Token *token,
              const char  *word)
{
  return token->len == strlen (word) && strncmp (text + token->start, word, token->len) == 0;
}

/* The program a token names, without quotes and folders. */
static gboolean
token_is_program (const char  *text,
                  const Token *token,
                  const char  *program)
{
  const char *s = text + token->start;
  gsize len = token->len;
  const char *slash;

  if (len >= 2 && (s[0] == '"' || s[0] == '\'') && s[len - 1] == s[0])
    {
      s++;
      len -= 2;
    }

  slash = g_strrstr_len (s, len, "/");
  if (slash != NULL)
    {
      len -= (gsize) (slash + 1 - s);
      s = slash + 1;
    }

  return len == strlen (program) && strncmp (s, program, len) == 0;
}

/* Index of the first argument of a distrobox enter call among tokens, or
 * -1 when there is none. */
static int
find_enter_arguments (const char *text,
                      GArray     *tokens)
{
  for (guint i = 0; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);

      if (token_is_program (text, token, "distrobox-enter"))
        return (int) i + 1;

      if (token_is_program (text, token, "distrobox") && i + 1 < tokens->len &&
          token_equals (text, &g_array_index (tokens, Token, i + 1), "enter"))
        return (int) i + 2;
    }

  return -1;
}

typedef struct
{
  gsize start;
  gsize len;
  const char *replacement;
} Edit;

/* Finds the box name of a distrobox enter call in text[0..len): every token
 * equal to box_name after -n or --name, or a --name=BOX token, before
 * "--". Adds the spans of the names to edits (may be NULL); returns
 * whether any was found. */
static gboolean
find_enter_names (const char *text,
                  gsize       len,
                  const char *box_name,
                  const char *replacement,
                  GArray     *edits)
{
  g_autoptr(GArray) tokens = tokenize (text, len);
  g_autofree char *long_form = g_strconcat ("--name=", box_name, NULL);
  gboolean found = FALSE;
  int first;

  first = find_enter_arguments (text, tokens);
  if (first < 0)
    return FALSE;

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);

      /* What follows "--" is the app's own command line. */
      if (token_equals (text, token, "--"))
        break;

      if ((token_equals (text, token, "-n") || token_equals (text, token, "--name")) &&
          i + 1 < tokens->len &&
          token_equals (text, &g_array_index (tokens, Token, i + 1), box_name))
        {
          const Token *value = &g_array_index (tokens, Token, i + 1);
          Edit edit = { value->start, value->len, replacement };

          if (edits != NULL)
            g_array_append_val (edits, edit);
          found = TRUE;
          i++;
        }
      else if (token_equals (text, token, long_form))
        {
          Edit edit = { token->start + strlen ("--name="), strlen (box_name), replacement };

          if (edits != NULL)
            g_array_append_val (edits, edit);
          found = TRUE;
        }
    }

  return found;
}

/* Calls func on every line of contents (without its "\n"). */
typedef gboolean (*LineFunc) (const char *line,
                              gsize       len,
                              gpointer    data);

static gboolean
foreach_line (const char *contents,
              LineFunc    func,
              gpointer    data)
{
  const char *p = contents;

  while (*p != '\0')
    {
      const char *nl = strchr (p, '\n');
      gsize len = nl != NULL ? (gsize) (nl - p) : strlen (p);

      if (func (p, len, data))
        return TRUE;

      if (nl == NULL)
        break;
      p = nl + 1;
    }

  return FALSE;
}

static gboolean
line_has_prefix (const char *line,
                 gsize       len,
                 const char *prefix)
{
  gsize plen = strlen (prefix);

  return len >= plen && strncmp (line, prefix, plen) == 0;
}

static gboolean
exec_line_enters_box (const char *line,
                      gsize       len,
                      gpointer    data)
{
  const char *box_name = data;

  if (!line_has_prefix (line, len, "Exec="))
    return FALSE;

  return find_enter_names (line + 5, len - 5, box_name, NULL, NULL);
}

gboolean
kiste_apps_desktop_enters_box (const char *contents,
                               const char *box_name)
{
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', FALSE);

  return foreach_line (contents, exec_line_enters_box, (gpointer) box_name);
}

/* The line without trailing blanks and "\r" equals text. */
static gboolean
line_equals_trimmed (const char *line,
                     gsize       len,
                     const char *text)
{
  while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
    len--;

  return len == strlen (text) && strncmp (line, text, len) == 0;
}

static gboolean
is_marker_line (const char *line,
                gsize       len,
                gpointer    data)
{
  return line_equals_trimmed (line, len, "# distrobox_binary");
}

typedef struct
{
  const char *expected;
} NameLine;

static gboolean
is_name_line (const char *line,
              gsize       len,
              gpointer    data)
{
  NameLine *name_line = data;

  return line_equals_trimmed (line, len, name_line->expected);
}

gboolean
kiste_apps_wrapper_names_box (const char *contents,
                              const char *box_name)
{
  g_autofree char *expected = NULL;
  NameLine name_line;

  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', FALSE);

  if (!g_str_has_prefix (contents, "#!"))
    return FALSE;

  expected = g_strconcat ("# name: ", box_name, NULL);
  name_line.expected = expected;

  return foreach_line (contents, is_marker_line, NULL) &&
         foreach_line (contents, is_name_line, &name_line);
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

KisteExportedFile *
kiste_apps_parse_exported_launcher (const char *path,
                                    const char *contents,
                                    const char *box_name)
{
  g_autoptr(GKeyFile) key_file = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *name = NULL;
  g_autofree char *label = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', NULL);

  basename = g_path_get_basename (path);
  if (!kiste_apps_is_launcher_candidate (basename, box_name) ||
      !kiste_apps_desktop_enters_box (contents, box_name))
    return NULL;

  key_file = load_key_file (contents, strlen (contents), NULL);
  if (key_file != NULL)
    name = g_key_file_get_string (key_file, DESKTOP_GROUP, G_KEY_FILE_DESKTOP_KEY_NAME, NULL);

  label = g_strdup_printf (" (on %s)", box_name);
  if (name != NULL && g_str_has_suffix (name, label))
    name[strlen (name) - strlen (label)] = '\0';

  return exported_file_new (KISTE_EXPORTED_APP, path,
                            basename + strlen (box_name) + 1,
                            name, box_name);
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

  if (!find_enter_names (line, len, ws->box_name, NULL, NULL))
    return FALSE;

  tokens = tokenize (line, len);
  first = find_enter_arguments (line, tokens);

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      const char *rest;
      const char *open;
      const char *close;
      gsize rest_len;

      if (!token_equals (line, token, "--"))
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

  foreach_line (contents, find_wrapper_source, &ws);
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

      kiste_desktop_app_set_exported (app, g_hash_table_contains (ids, app->id));
    }
}

typedef struct
{
  /* NULL: every box's */
  char  *box_name;
  char  *applications_dir;
  char  *bin_dir;
  char **box_names;
} ListExported;

static void
list_exported_free (ListExported *state)
{
  g_strfreev (state->box_names);
  g_free (state->box_name);
  g_free (state->applications_dir);
  g_free (state->bin_dir);
  g_free (state);
}

/* box_name NULL: any launcher may be some box's */
static gboolean
is_launcher_candidate_of (const char *basename,
                          const char *box_name)
{
  if (box_name == NULL)
    return g_str_has_suffix (basename, ".desktop");

  return kiste_apps_is_launcher_candidate (basename, box_name);
}

static GPtrArray *
list_exported_match (ListExported *state,
                     GHashTable   *applications,
                     GHashTable   *binaries)
{
  if (state->box_name == NULL)
    return kiste_apps_match_all_exported (state->applications_dir, applications,
                                          state->bin_dir, binaries,
                                          (const char * const *) state->box_names);

  return kiste_apps_match_exported (state->box_name,
                                    state->applications_dir, applications,
                                    state->bin_dir, binaries);
}

/* basename → contents of the files in dir that may matter; NULL with no
 * error when dir does not exist. */
static GHashTable *
read_candidates (const char    *dir,
                 const char    *box_name,
                 gboolean       binaries,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GHashTable) files = NULL;
  g_autoptr(GError) local_error = NULL;

  enumerator = g_file_enumerate_children (file,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NONE,
                                          cancellable, &local_error);
  if (enumerator == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
          g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
        return NULL;

      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (;;)
    {
      GFileInfo *info = NULL;
      const char *name;
      g_autoptr(GFile) child = NULL;
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, error))
        return NULL;
      if (info == NULL)
        break;

      /* Symbolic links are followed: both distrobox and menus do. */
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR &&
          g_file_info_get_file_type (info) != G_FILE_TYPE_SYMBOLIC_LINK)
        continue;

      name = g_file_info_get_name (info);
      if (binaries ? g_file_info_get_size (info) > MAX_WRAPPER_SIZE
                   : (!is_launcher_candidate_of (name, box_name) ||
                      g_file_info_get_size (info) > MAX_LAUNCHER_SIZE))
        continue;

      child = g_file_enumerator_get_child (enumerator, info);
      if (!g_file_load_contents (child, cancellable, &contents, &length, NULL, &local_error))
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }

          /* Vanished or unreadable files are not the box's. */
          g_clear_error (&local_error);
          continue;
        }

      if (memchr (contents, '\0', length) != NULL || !g_utf8_validate (contents, length, NULL))
        continue;

      g_hash_table_insert (files, g_strdup (name), g_steal_pointer (&contents));
    }

  return g_steal_pointer (&files);
}

static void
list_exported_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  ListExported *state = task_data;
  g_autoptr(GHashTable) applications = NULL;
  g_autoptr(GHashTable) binaries = NULL;
  GError *error = NULL;

  if (state->applications_dir != NULL)
    {
      applications = read_candidates (state->applications_dir, state->box_name, FALSE,
                                      cancellable, &error);
      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  if (state->bin_dir != NULL)
    {
      binaries = read_candidates (state->bin_dir, state->box_name, TRUE, cancellable, &error);
      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_task_return_pointer (task, list_exported_match (state, applications, binaries),
                         (GDestroyNotify) g_ptr_array_unref);
}

/* In the Flatpak sandbox the host's launchers and wrappers are out of
 * sight: one host process prints, for each folder, "dir PATH", then for each
 * small regular file "file NAME" and its contents in base64 on one line.
 * The script is constant; the folders are its arguments. */
static const char host_read_script[] =
  "for dir in \"$@\"; do\n"
  "  printf 'dir %s\\n' \"$dir\"\n"
  "  for f in \"$dir\"/*; do\n"
  "    test -f \"$f\" || continue\n"
  "    test \"$(wc -c < \"$f\")\" -le 1048576 || continue\n"  /* MAX_LAUNCHER_SIZE */
  "    printf 'file %s\\n' \"${f##*/}\"\n"
  "    base64 < \"$f\" | tr -d '\\n'; echo\n"
  "  done\n"
  "done\n";

/* Turns the host script's output into what read_candidates() gives */
static void
parse_host_listing (const char  *output,
                    ListExported *state,
                    GHashTable  **applications,
                    GHashTable  **binaries)
{
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);
  GHashTable *current = NULL;
  gboolean is_bin = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "dir "))
        {
          const char *dir = line + strlen ("dir ");

          current = NULL;
          if (g_strcmp0 (dir, state->applications_dir) == 0)
            {
              *applications = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              current = *applications;
              is_bin = FALSE;
            }
          else if (g_strcmp0 (dir, state->bin_dir) == 0)
            {
              *binaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              current = *binaries;
              is_bin = TRUE;
            }
        }
      else if (g_str_has_prefix (line, "file ") && current != NULL && lines[i + 1] != NULL)
        {
          const char *name = line + strlen ("file ");
          g_autofree guchar *contents = NULL;
          gsize length = 0;

          i++;
          if (strchr (name, '/') != NULL ||
              (is_bin ? FALSE : !is_launcher_candidate_of (name, state->box_name)))
            continue;

          contents = g_base64_decode (lines[i], &length);
          if (length > (is_bin ? MAX_WRAPPER_SIZE : MAX_LAUNCHER_SIZE) ||
              memchr (contents, '\0', length) != NULL ||
              !g_utf8_validate ((const char *) contents, length, NULL))
            continue;

          g_hash_table_insert (current, g_strdup (name), g_strndup ((const char *) contents, length));
        }
    }
}

static void
list_exported_host_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListExported *state = g_task_get_task_data (task);
  g_autoptr(GHashTable) applications = NULL;
  g_autoptr(GHashTable) binaries = NULL;
  g_autofree char *output = NULL;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* a folder that does not exist lists as empty, as it does here */
  parse_host_listing (output, state, &applications, &binaries);
  g_task_return_pointer (task, list_exported_match (state, applications, binaries),
                         (GDestroyNotify) g_ptr_array_unref);
}

static void list_exported_start (KisteRunner *runner,
                                 GTask       *task_in);

/**
 * kiste_apps_list_exported_async:
 * @runner: (nullable): runs commands on the host; when it runs them from the
 *   Flatpak sandbox the folders are read on the host through it
 *
 * Lists what box_name has exported into applications_dir and bin_dir.
 */
void
kiste_apps_list_exported_async (KisteRunner         *runner,
                                const char          *box_name,
                                const char          *applications_dir,
                                const char          *bin_dir,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListExported *state;

  g_return_if_fail (box_name != NULL && box_name[0] != '\0');
  g_return_if_fail (applications_dir == NULL || g_path_is_absolute (applications_dir));
  g_return_if_fail (bin_dir == NULL || g_path_is_absolute (bin_dir));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  state = g_new0 (ListExported, 1);
  state->box_name = g_strdup (box_name);
  state->applications_dir = g_strdup (applications_dir);
  state->bin_dir = g_strdup (bin_dir);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_list_exported_async);
  g_task_set_task_data (task, state, (GDestroyNotify) list_exported_free);
  list_exported_start (runner, g_steal_pointer (&task));
}

static void
list_exported_start (KisteRunner *runner,
                     GTask       *task_in)
{
  g_autoptr(GTask) task = task_in;
  ListExported *state = g_task_get_task_data (task);
  const char *applications_dir = state->applications_dir;
  const char *bin_dir = state->bin_dir;
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (runner != NULL && kiste_runner_get_in_flatpak (runner))
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) argv = NULL;

      g_strv_builder_add_many (builder, "sh", "-c", host_read_script, "sh", NULL);
      if (applications_dir != NULL)
        g_strv_builder_add (builder, applications_dir);
      if (bin_dir != NULL)
        g_strv_builder_add (builder, bin_dir);
      argv = g_strv_builder_end (builder);

      kiste_runner_run_async (runner, (const char * const *) argv, HOST_READ_TIMEOUT_MS, cancellable,
                              list_exported_host_cb, g_steal_pointer (&task));
      return;
    }

  g_task_run_in_thread (task, list_exported_thread);
}

GPtrArray *
kiste_apps_list_exported_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_apps_list_exported_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Everything exported, by every box */

typedef struct
{
  char *box_name;
} WrapperBox;

static gboolean
find_wrapper_box (const char *line,
                  gsize       len,
                  gpointer    data)
{
  WrapperBox *wb = data;
  const char *value;
  gsize value_len;

  if (len < strlen ("# name: ") || strncmp (line, "# name: ", strlen ("# name: ")) != 0)
    return FALSE;

  value = line + strlen ("# name: ");
  value_len = len - strlen ("# name: ");
  while (value_len > 0 && (value[value_len - 1] == ' ' || value[value_len - 1] == '\t' ||
                           value[value_len - 1] == '\r'))
    value_len--;
  if (value_len == 0)
    return FALSE;

  wb->box_name = g_strndup (value, value_len);
  return TRUE;
}

char *
kiste_apps_dup_wrapper_box (const char *contents)
{
  WrapperBox wb = { NULL };

  g_return_val_if_fail (contents != NULL, NULL);

  if (!g_str_has_prefix (contents, "#!") || !foreach_line (contents, is_marker_line, NULL))
    return NULL;

  foreach_line (contents, find_wrapper_box, &wb);
  return wb.box_name;
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

/**
 * kiste_apps_list_all_exported_async:
 * @runner: (nullable): as for kiste_apps_list_exported_async()
 * @box_names: (nullable): the boxes there are
 */
void
kiste_apps_list_all_exported_async (KisteRunner         *runner,
                                    const char          *applications_dir,
                                    const char          *bin_dir,
                                    const char * const  *box_names,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListExported *state;

  g_return_if_fail (applications_dir == NULL || g_path_is_absolute (applications_dir));
  g_return_if_fail (bin_dir == NULL || g_path_is_absolute (bin_dir));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  state = g_new0 (ListExported, 1);
  state->applications_dir = g_strdup (applications_dir);
  state->bin_dir = g_strdup (bin_dir);
  state->box_names = g_strdupv ((char **) box_names);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_list_all_exported_async);
  g_task_set_task_data (task, state, (GDestroyNotify) list_exported_free);
  list_exported_start (runner, g_steal_pointer (&task));
}

GPtrArray *
kiste_apps_list_all_exported_finish (GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_apps_list_all_exported_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Programs */

char *
kiste_apps_parse_resolved_program (const char  *output,
                                   const char  *program,
                                   GError     **error)
{
  g_autofree char *line = NULL;
  const char *end;

  g_return_val_if_fail (program != NULL, NULL);

  if (output != NULL)
    {
      end = strchr (output, '\n');
      line = end ? g_strndup (output, (gsize) (end - output)) : g_strdup (output);
      g_strstrip (line);
    }

  if (line == NULL || !g_path_is_absolute (line) || !g_utf8_validate (line, -1, NULL))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("The box has no program “%s”."), program);
      return NULL;
    }

  return g_steal_pointer (&line);
}


/* Renaming */

typedef struct
{
  const char *old_name;
  const char *new_name;
  char       *old_label;
  char       *new_label;
  char       *old_quoted;
  char       *new_quoted;
  GString    *out;
} Rewrite;

static int
compare_edits (gconstpointer a,
               gconstpointer b)
{
  const Edit *ea = a;
  const Edit *eb = b;

  return ea->start < eb->start ? -1 : ea->start > eb->start;
}

/* The wrapper's `[ "${CONTAINER_ID}" != "OLD" ]`: a "OLD" token right
 * after "!=" on a line testing CONTAINER_ID. */
static void
find_container_id_tests (const char *line,
                         gsize       len,
                         Rewrite    *rw,
                         GArray     *edits)
{
  g_autoptr(GArray) tokens = NULL;

  if (g_strstr_len (line, len, "CONTAINER_ID") == NULL)
    return;

  tokens = tokenize (line, len);
  for (guint i = 0; i + 1 < tokens->len; i++)
    {
      const Token *op = &g_array_index (tokens, Token, i);
      const Token *value = &g_array_index (tokens, Token, i + 1);

      if (token_equals (line, op, "!=") && token_equals (line, value, rw->old_quoted))
        {
          Edit edit = { value->start, value->len, rw->new_quoted };

          g_array_append_val (edits, edit);
        }
    }
}

static gboolean
rewrite_line (const char *line,
              gsize       len,
              gpointer    data)
{
  Rewrite *rw = data;
  g_autoptr(GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  g_autofree char *old_name_line = g_strconcat ("# name: ", rw->old_name, NULL);
  gsize label_len = strlen (rw->old_label);
  gsize body_len = len;
  gsize pos = 0;

  /* Lines keep their "\r" if the file had one. */
  if (body_len > 0 && line[body_len - 1] == '\r')
    body_len--;

  if (line_equals_trimmed (line, body_len, old_name_line))
    {
      Edit edit = { strlen ("# name: "), strlen (rw->old_name), rw->new_name };

      g_array_append_val (edits, edit);
    }
  else
    {
      gsize offset = line_has_prefix (line, body_len, "Exec=") ? strlen ("Exec=") : 0;
      gsize label_start = body_len - label_len;
      gsize scan_len = body_len;

      /* distrobox appends the label to every line containing "Name". */
      if (body_len >= label_len && strncmp (line + label_start, rw->old_label, label_len) == 0)
        {
          Edit edit = { label_start, label_len, rw->new_label };

          g_array_append_val (edits, edit);
          scan_len = label_start;
        }

      if (offset <= scan_len)
        {
          g_autoptr(GArray) name_edits = g_array_new (FALSE, FALSE, sizeof (Edit));

          find_enter_names (line + offset, scan_len - offset, rw->old_name, rw->new_name,
                            name_edits);
          for (guint i = 0; i < name_edits->len; i++)
            {
              Edit edit = g_array_index (name_edits, Edit, i);

              edit.start += offset;
              g_array_append_val (edits, edit);
            }
        }

      find_container_id_tests (line, scan_len, rw, edits);
    }

  g_array_sort (edits, compare_edits);

  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *edit = &g_array_index (edits, Edit, i);

      if (edit->start < pos)
        continue;

      g_string_append_len (rw->out, line + pos, edit->start - pos);
      g_string_append (rw->out, edit->replacement);
      pos = edit->start + edit->len;
    }

  g_string_append_len (rw->out, line + pos, len - pos);

  if (line[len] == '\n')
    g_string_append_c (rw->out, '\n');

  return FALSE;
}

char *
kiste_apps_rewrite_exported (const char *contents,
                             const char *old_name,
                             const char *new_name)
{
  Rewrite rw;

  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (old_name != NULL && old_name[0] != '\0', NULL);
  g_return_val_if_fail (new_name != NULL && new_name[0] != '\0', NULL);

  rw.old_name = old_name;
  rw.new_name = new_name;
  rw.old_label = g_strdup_printf (" (on %s)", old_name);
  rw.new_label = g_strdup_printf (" (on %s)", new_name);
  rw.old_quoted = g_strdup_printf ("\"%s\"", old_name);
  rw.new_quoted = g_strdup_printf ("\"%s\"", new_name);
  rw.out = g_string_sized_new (strlen (contents) + 64);

  foreach_line (contents, rewrite_line, &rw);

  g_free (rw.old_label);
  g_free (rw.new_label);
  g_free (rw.old_quoted);
  g_free (rw.new_quoted);

  return g_string_free (rw.out, FALSE);
}

char *
kiste_apps_dup_renamed_launcher_name (const char *basename,
                                      const char *old_name,
                                      const char *new_name)
{
  g_return_val_if_fail (basename != NULL, NULL);
  g_return_val_if_fail (old_name != NULL && old_name[0] != '\0', NULL);
  g_return_val_if_fail (new_name != NULL && new_name[0] != '\0', NULL);

  if (!kiste_apps_is_launcher_candidate (basename, old_name))
    return NULL;

  return g_strconcat (new_name, basename + strlen (old_name), NULL);
}


/* Launching, and the user's own launchers */

static gboolean
exec_line_enters_any_box (const char *line,
                          gsize       len,
                          gpointer    data)
{
  g_autoptr(GArray) tokens = NULL;

  if (!line_has_prefix (line, len, "Exec="))
    return FALSE;

  tokens = tokenize (line + 5, len - 5);
  return find_enter_arguments (line + 5, tokens) >= 0;
}

gboolean
kiste_apps_is_distrobox_launcher (const char *contents)
{
  g_return_val_if_fail (contents != NULL, FALSE);

  return foreach_line (contents, exec_line_enters_any_box, NULL);
}

/* The field codes of the Desktop Entry Specification ("%f", "%U", …) stand
 * for files and URLs the launcher passes on; run without any, they go.
 * "%%" is a literal "%". */
static char *
strip_field_codes (const char *arg)
{
  GString *out = g_string_new (NULL);

  for (const char *p = arg; *p != '\0'; p++)
    {
      if (*p != '%')
        {
          g_string_append_c (out, *p);
          continue;
        }

      if (p[1] == '%')
        g_string_append_c (out, '%');
      if (p[1] != '\0')
        p++;
    }

  return g_string_free (out, FALSE);
}

char **
kiste_apps_dup_exec_argv (const char  *exec,
                          GError     **error)
{
  g_auto(GStrv) parsed = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GError) local_error = NULL;
  guint n = 0;

  g_return_val_if_fail (exec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_shell_parse_argv (exec, NULL, &parsed, &local_error))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The app’s command line “%s” cannot be read: %s"), exec, local_error->message);
      return NULL;
    }

  builder = g_strv_builder_new ();
  for (guint i = 0; parsed[i] != NULL; i++)
    {
      g_autofree char *arg = NULL;

      /* A whole argument that was only a field code disappears */
      if (parsed[i][0] == '%' && parsed[i][1] != '\0' && parsed[i][1] != '%' && parsed[i][2] == '\0')
        continue;

      arg = strip_field_codes (parsed[i]);
      g_strv_builder_take (builder, g_steal_pointer (&arg));
      n++;
    }

  if (n == 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The app’s command line “%s” runs nothing."), exec);
      return NULL;
    }

  return g_strv_builder_end (builder);
}

/* The user's launcher that distrobox-export --delete would remove:
 * distrobox 1.8 removes ~/.local/share/applications/<id> besides the box's
 * own BOX-<id>. It goes aside under a name no menu reads, and back after.
 * Both steps are host commands, so they work from the Flatpak sandbox too;
 * the scripts are constant, the paths their arguments. */
static const char read_launcher_script[] =
  "[ -f \"$1\" ] || exit 0\n"
  "test \"$(wc -c < \"$1\")\" -le 1048576 || { echo BIG; exit 0; }\n"  /* MAX_LAUNCHER_SIZE */
  "echo F\n"
  "base64 < \"$1\" | tr -d '\\n'; echo\n";

/* Never over a file that is there: a kept launcher of an earlier run that
 * was not restored, or a launcher made in the meantime */
static const char move_launcher_script[] =
  "if [ -e \"$2\" ] || [ -L \"$2\" ]; then\n"
  "  echo \"$2 is in the way\" >&2; exit 1\n"
  "fi\n"
  "exec mv -- \"$1\" \"$2\"\n";

#define HOST_FILE_TIMEOUT_MS 15000

char *
kiste_apps_dup_kept_launcher_path (const char *applications_dir,
                                   const char *desktop_id)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (applications_dir != NULL, NULL);
  g_return_val_if_fail (desktop_id != NULL, NULL);

  name = g_strconcat (".", desktop_id, ".kiste-kept", NULL);
  return g_build_filename (applications_dir, name, NULL);
}

static gboolean
check_desktop_id (const char  *desktop_id,
                  GError     **error)
{
  if (desktop_id == NULL || desktop_id[0] == '\0' || desktop_id[0] == '.' ||
      strchr (desktop_id, '/') != NULL || !g_str_has_suffix (desktop_id, ".desktop"))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("“%s” is not an application file name."), desktop_id ? desktop_id : "");
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  KisteRunner *runner;
  char        *path;
  char        *kept;
} KeepLauncher;

static void
keep_launcher_free (KeepLauncher *keep)
{
  g_clear_object (&keep->runner);
  g_free (keep->path);
  g_free (keep->kept);
  g_free (keep);
}

static void
keep_moved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeepLauncher *keep = g_task_get_task_data (task);
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_strdup (keep->kept), g_free);
}

static void
keep_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeepLauncher *keep = g_task_get_task_data (task);
  g_autofree char *output = NULL;
  g_autofree guchar *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;
  GError *error = NULL;
  const char *argv[] = { "sh", "-c", move_launcher_script, "sh", keep->path, keep->kept, NULL };

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  lines = g_strsplit (output, "\n", 3);
  if (lines[0] == NULL || lines[0][0] == '\0')
    {
      /* No such file: nothing to keep */
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  /* Too big to be read, or unreadable as text: not a launcher of
   * distrobox's, so it is the user's */
  if (g_strcmp0 (lines[0], "F") == 0 && lines[1] != NULL)
    {
      contents = g_base64_decode (lines[1], &length);
      if (memchr (contents, '\0', length) == NULL &&
          g_utf8_validate ((const char *) contents, length, NULL))
        {
          g_autofree char *text = g_strndup ((const char *) contents, length);

          if (kiste_apps_is_distrobox_launcher (text))
            {
              g_task_return_pointer (task, NULL, NULL);
              return;
            }
        }
    }

  kiste_runner_run_async (keep->runner, argv, HOST_FILE_TIMEOUT_MS, g_task_get_cancellable (task),
                          keep_moved_cb, g_object_ref (task));
}

/**
 * kiste_apps_keep_user_launcher_async:
 *
 * Moves applications_dir/desktop_id aside when it is there and no launcher
 * of distrobox's (its Exec enters no box).
 */
void
kiste_apps_keep_user_launcher_async (KisteRunner         *runner,
                                     const char          *applications_dir,
                                     const char          *desktop_id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  KeepLauncher *keep;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_keep_user_launcher_async);

  if (!check_desktop_id (desktop_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  keep = g_new0 (KeepLauncher, 1);
  keep->runner = g_object_ref (runner);
  keep->path = g_build_filename (applications_dir, desktop_id, NULL);
  keep->kept = kiste_apps_dup_kept_launcher_path (applications_dir, desktop_id);
  g_task_set_task_data (task, keep, (GDestroyNotify) keep_launcher_free);

  {
    const char *argv[] = { "sh", "-c", read_launcher_script, "sh", keep->path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, cancellable,
                            keep_read_cb, g_steal_pointer (&task));
  }
}

char *
kiste_apps_keep_user_launcher_finish (GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
restore_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Not cancellable: a kept launcher always goes back */
void
kiste_apps_restore_user_launcher_async (KisteRunner         *runner,
                                        const char          *kept_path,
                                        const char          *applications_dir,
                                        const char          *desktop_id,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (kept_path != NULL && g_path_is_absolute (kept_path));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));

  task = g_task_new (NULL, NULL, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_restore_user_launcher_async);

  if (!check_desktop_id (desktop_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  path = g_build_filename (applications_dir, desktop_id, NULL);
  {
    const char *argv[] = { "sh", "-c", move_launcher_script, "sh", kept_path, path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, NULL,
                            restore_cb, g_steal_pointer (&task));
  }
}

gboolean
kiste_apps_restore_user_launcher_finish (GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The box's own launcher, from `distrobox generate-entry` */

static void
box_entry_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *output = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree guchar *contents = NULL;
  gsize length = 0;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  lines = g_strsplit (output, "\n", 3);
  if (g_strcmp0 (lines[0], "F") != 0 || lines[1] == NULL)
    {
      g_task_return_int (task, FALSE);
      return;
    }

  contents = g_base64_decode (lines[1], &length);
  if (memchr (contents, '\0', length) == NULL && g_utf8_validate ((const char *) contents, length, NULL))
    {
      g_autofree char *text = g_strndup ((const char *) contents, length);

      g_task_return_int (task, kiste_apps_is_distrobox_launcher (text));
      return;
    }

  g_task_return_int (task, FALSE);
}

void
kiste_apps_has_box_entry_async (KisteRunner         *runner,
                                const char          *applications_dir,
                                const char          *box_name,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));
  g_return_if_fail (box_name != NULL && box_name[0] != '\0' && strchr (box_name, '/') == NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_has_box_entry_async);
  name = g_strconcat (box_name, ".desktop", NULL);
  path = g_build_filename (applications_dir, name, NULL);

  {
    const char *argv[] = { "sh", "-c", read_launcher_script, "sh", path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, cancellable,
                            box_entry_read_cb, g_steal_pointer (&task));
  }
}

gboolean
kiste_apps_has_box_entry_finish (GAsyncResult  *result,
                                 gboolean      *present,
                                 GError       **error)
{
  GError *local_error = NULL;
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  value = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  if (present != NULL)
    *present = value != 0;
  return TRUE;
}

/* Which box a launcher enters, for launchers whose box may be gone */

typedef struct
{
  char *name;
} EnteredBox;

static gboolean
exec_line_names_box (const char *line,
                     gsize       len,
                     gpointer    data)
{
  EnteredBox *entered = data;
  g_autoptr(GArray) tokens = NULL;
  const char *text;
  int first;

  if (!line_has_prefix (line, len, "Exec="))
    return FALSE;

  text = line + 5;
  tokens = tokenize (text, len - 5);
  if ((first = find_enter_arguments (text, tokens)) < 0)
    return FALSE;

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      const char *start = text + token->start;

      if (token_equals (text, token, "--"))
        break;

      if ((token_equals (text, token, "-n") || token_equals (text, token, "--name")) &&
          i + 1 < tokens->len)
        {
          const Token *value = &g_array_index (tokens, Token, i + 1);

          entered->name = g_strndup (text + value->start, value->len);
          return TRUE;
        }
      if (token->len > strlen ("--name=") && strncmp (start, "--name=", strlen ("--name=")) == 0)
        {
          entered->name = g_strndup (start + strlen ("--name="), token->len - strlen ("--name="));
          return TRUE;
        }
      /* generate-entry's `distrobox enter NAME`: the first word that is no
       * option */
      if (start[0] != '-' && !token_equals (text, token, "--root") && !token_equals (text, token, "-r"))
        {
          entered->name = g_strndup (start, token->len);
          return TRUE;
        }
    }

  return FALSE;
}

char *
kiste_apps_dup_entered_box (const char *contents)
{
  EnteredBox entered = { NULL };

  g_return_val_if_fail (contents != NULL, NULL);

  foreach_line (contents, exec_line_names_box, &entered);
  return entered.name;
}
