/* kiste-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A desktop app inside a box (KisteDesktopApp) and the desktop entry it
 * is read from. */

#include "config.h"

#include "kiste-apps-private.h"

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

GKeyFile *
_kiste_apps_load_key_file (const char  *data,
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

KisteDesktopApp *
_kiste_desktop_app_new_from_key_file (const char *path,
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

  key_file = _kiste_apps_load_key_file (data != NULL ? data : "", length, error);
  if (key_file == NULL)
    return NULL;

  return _kiste_desktop_app_new_from_key_file (path, key_file, locale);
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
