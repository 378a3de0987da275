/* kiste-box.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "kiste-box-state-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-validate.h"

G_DEFINE_FINAL_TYPE (KisteBox, kiste_box, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (KisteBoxState, kiste_box_state,
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_UNKNOWN, "unknown"),
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_CREATED, "created"),
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_RUNNING, "running"),
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_STOPPED, "stopped"),
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_PAUSED, "paused"),
                    G_DEFINE_ENUM_VALUE (KISTE_BOX_STATE_STOPPING, "stopping"))

G_DEFINE_ENUM_TYPE (KisteSharing, kiste_sharing,
                    G_DEFINE_ENUM_VALUE (KISTE_SHARING_UNKNOWN, "unknown"),
                    G_DEFINE_ENUM_VALUE (KISTE_SHARING_SHARED, "shared"),
                    G_DEFINE_ENUM_VALUE (KISTE_SHARING_UNSHARED, "unshared"))

G_DEFINE_ENUM_TYPE (KisteUnshare, kiste_unshare,
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_DEVSYS, "devsys"),
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_GROUPS, "groups"),
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_IPC, "ipc"),
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_NETNS, "netns"),
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_PROCESS, "process"),
                    G_DEFINE_ENUM_VALUE (KISTE_UNSHARE_HOME, "home"),
                    G_DEFINE_ENUM_VALUE (KISTE_N_UNSHARE, "n-unshare"))

static GParamSpec *properties[N_PROPS];

void
_kiste_box_notify (KisteBox *self,
                   guint     prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* The property of each unshare setting, indexed by KisteUnshare */
static const guint unshare_props[KISTE_N_UNSHARE] = {
  PROP_UNSHARE_DEVSYS,
  PROP_UNSHARE_GROUPS,
  PROP_UNSHARE_IPC,
  PROP_UNSHARE_NETNS,
  PROP_UNSHARE_PROCESS,
  PROP_UNSHARE_HOME,
};

GHashTable *
_kiste_box_labels_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

gboolean
_kiste_box_strv_equal0 (const char * const *a,
                        const char * const *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_strv_equal (a, b);
}

gboolean
_kiste_box_labels_equal (GHashTable *a,
                         GHashTable *b)
{
  GHashTableIter iter;
  gpointer key, value;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *other = g_hash_table_lookup (b, key);

      if (other == NULL || !g_str_equal (other, value))
        return FALSE;
    }

  return TRUE;
}

GHashTable *
_kiste_box_labels_copy (GHashTable *labels)
{
  GHashTable *copy = _kiste_box_labels_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, labels);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_strdup (value));

  return copy;
}

/* Setters that notify only on a real change and report whether there was one */

gboolean
_kiste_box_set_string (KisteBox    *self,
                       char       **field,
                       const char  *value,
                       guint        prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;

  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

gboolean
_kiste_box_set_strv (KisteBox            *self,
                     char              ***field,
                     const char * const  *value,
                     guint                prop)
{
  if (_kiste_box_strv_equal0 ((const char * const *) *field, value))
    return FALSE;

  g_strfreev (*field);
  *field = g_strdupv ((char **) value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

static gboolean
set_uint (KisteBox *self,
          guint    *field,
          guint     value,
          guint     prop)
{
  if (*field == value)
    return FALSE;

  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

gboolean
_kiste_box_set_state (KisteBox      *self,
                      KisteBoxState  value)
{
  if (self->state == value)
    return FALSE;

  self->state = value;
  self->state_stamp++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  return TRUE;
}

guint
_kiste_box_get_state_stamp (KisteBox *self)
{
  return self->state_stamp;
}

static gboolean
set_sharing (KisteBox     *self,
             KisteSharing *field,
             KisteSharing  value,
             guint         prop)
{
  if (*field == value)
    return FALSE;

  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

gboolean
_kiste_box_set_bool (KisteBox *self,
                     gboolean *field,
                     gboolean  value,
                     guint     prop)
{
  value = !!value;

  if (*field == value)
    return FALSE;

  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

/* The host home as the box may see it: /home/u and /var/home/u are the same
 * directory on image-based systems, where distrobox binds whichever $HOME is. */
gboolean
_kiste_box_is_host_home (const char *path,
                         const char *host_home)
{
  if (path == NULL || host_home == NULL)
    return FALSE;

  if (g_str_equal (path, host_home))
    return TRUE;

  if (g_str_has_prefix (host_home, "/home/") &&
      g_str_has_prefix (path, "/var/home/") &&
      g_str_equal (path + strlen ("/var"), host_home))
    return TRUE;

  if (g_str_has_prefix (host_home, "/var/home/") &&
      g_str_has_prefix (path, "/home/") &&
      g_str_equal (path, host_home + strlen ("/var")))
    return TRUE;

  return FALSE;
}

static KisteSharing
sharing_from_label (GHashTable *labels,
                    const char *key)
{
  const char *value = g_hash_table_lookup (labels, key);

  if (value == NULL)
    return KISTE_SHARING_UNKNOWN;

  /* the label says whether the thing is *unshared* */
  if (g_str_equal (value, "1") || g_ascii_strcasecmp (value, "true") == 0)
    return KISTE_SHARING_UNSHARED;
  if (g_str_equal (value, "0") || g_ascii_strcasecmp (value, "false") == 0)
    return KISTE_SHARING_SHARED;

  return KISTE_SHARING_UNKNOWN;
}

/* Recomputes everything that follows from the raw facts, notifying what
 * changed unless the box is new and nobody can listen yet. */
gboolean
_kiste_box_derive (KisteBox *self,
                   gboolean  notify)
{
  g_autoptr(GPtrArray) user_mounts = NULL;
  KisteSharing unshare[KISTE_N_UNSHARE];
  KisteSharing host_home_sharing = KISTE_SHARING_UNKNOWN;
  KisteSharing from_label;
  gboolean has_dev = FALSE;
  gboolean has_marker = FALSE;
  gboolean rootless;
  gboolean custom_home;
  gboolean changed = FALSE;
  const char *version;
  guint distrobox_version = 1;

  if (self->mounts != NULL)
    {
      user_mounts = g_ptr_array_new ();
      host_home_sharing = KISTE_SHARING_UNSHARED;

      for (guint i = 0; self->mounts[i] != NULL; i++)
        {
          const char *dest = self->mounts[i];

          if (g_str_equal (dest, "/dev"))
            has_dev = TRUE;
          else if (g_str_equal (dest, ROOTLESS_MARKER))
            has_marker = TRUE;

          if (_kiste_box_is_host_home (dest, self->host_home))
            host_home_sharing = KISTE_SHARING_SHARED;

          if (!g_str_equal (dest, "/run/host") && !g_str_has_prefix (dest, "/run/host/"))
            g_ptr_array_add (user_mounts, (gpointer) dest);
        }

      g_ptr_array_add (user_mounts, NULL);
    }
  else
    {
      host_home_sharing = self->home_hint;
    }

  /* devsys: distrobox binds the host /dev unless --unshare-devsys */
  if (self->mounts != NULL)
    unshare[KISTE_UNSHARE_DEVSYS] = has_dev ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED;
  else
    unshare[KISTE_UNSHARE_DEVSYS] = KISTE_SHARING_UNKNOWN;

  /* groups: the label (1.7.0+); --init implies --unshare-groups */
  from_label = sharing_from_label (self->labels, LABEL_UNSHARE_GROUPS);
  if (from_label != KISTE_SHARING_UNKNOWN)
    unshare[KISTE_UNSHARE_GROUPS] = from_label;
  else if (self->init)
    unshare[KISTE_UNSHARE_GROUPS] = KISTE_SHARING_UNSHARED;
  else
    unshare[KISTE_UNSHARE_GROUPS] = KISTE_SHARING_UNKNOWN;

  /* namespaces: only inspect knows; --init implies --unshare-process */
  unshare[KISTE_UNSHARE_IPC] = self->ipc_mode;
  unshare[KISTE_UNSHARE_NETNS] = self->net_mode;
  if (self->pid_mode != KISTE_SHARING_UNKNOWN)
    unshare[KISTE_UNSHARE_PROCESS] = self->pid_mode;
  else if (self->init)
    unshare[KISTE_UNSHARE_PROCESS] = KISTE_SHARING_UNSHARED;
  else
    unshare[KISTE_UNSHARE_PROCESS] = KISTE_SHARING_UNKNOWN;

  /* home: shared whenever a mount shows it, at its path or (once inspect
   * has told) under /run/host, whatever a label claims; else the label,
   * else whether the host home is mounted */
  from_label = sharing_from_label (self->labels, LABEL_UNSHARE_HOME);
  if (host_home_sharing == KISTE_SHARING_SHARED ||
      _kiste_box_run_host_home_sharing ((const char * const *) self->create_command) == KISTE_SHARING_SHARED ||
      _kiste_box_volumes_show_home ((const char * const *) self->create_command, self->host_home))
    unshare[KISTE_UNSHARE_HOME] = KISTE_SHARING_SHARED;
  else
    unshare[KISTE_UNSHARE_HOME] = from_label != KISTE_SHARING_UNKNOWN ? from_label : host_home_sharing;

  version = g_hash_table_lookup (self->labels, LABEL_VERSION);
  if (version != NULL)
    {
      guint64 v = g_ascii_strtoull (version, NULL, 10);

      if (v >= 2 && v <= G_MAXUINT)
        distrobox_version = (guint) v;
    }

  rootless = has_marker || (self->podman_shape && geteuid () != 0);
  custom_home = self->home != NULL &&
                self->host_home != NULL &&
                !_kiste_box_is_host_home (self->home, self->host_home);

  if (!notify)
    {
      self->user_mounts = user_mounts ? g_strdupv ((char **) user_mounts->pdata) : NULL;
      memcpy (self->unshare, unshare, sizeof unshare);
      self->host_home_sharing = host_home_sharing;
      self->distrobox_version = distrobox_version;
      self->rootless = !!rootless;
      self->custom_home = !!custom_home;
      return TRUE;
    }

  changed |= _kiste_box_set_strv (self, &self->user_mounts,
                                  user_mounts ? (const char * const *) user_mounts->pdata : NULL,
                                  PROP_USER_MOUNTS);
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    changed |= set_sharing (self, &self->unshare[i], unshare[i], unshare_props[i]);
  changed |= set_sharing (self, &self->host_home_sharing, host_home_sharing, PROP_HOST_HOME_SHARING);
  changed |= set_uint (self, &self->distrobox_version, distrobox_version, PROP_DISTROBOX_VERSION);
  changed |= _kiste_box_set_bool (self, &self->rootless, rootless, PROP_ROOTLESS);
  changed |= _kiste_box_set_bool (self, &self->custom_home, custom_home, PROP_CUSTOM_HOME);

  return changed;
}

static void
kiste_box_finalize (GObject *object)
{
  KisteBox *self = (KisteBox *) object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->engine, g_free);
  g_clear_pointer (&self->ref, g_free);
  g_clear_pointer (&self->image, g_free);
  g_clear_pointer (&self->image_id, g_free);
  g_clear_pointer (&self->status, g_free);
  g_clear_pointer (&self->home, g_free);
  g_clear_pointer (&self->user, g_free);
  g_clear_pointer (&self->host_home, g_free);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->mounts, g_strfreev);
  g_clear_pointer (&self->log_driver, g_free);
  g_clear_pointer (&self->environ, g_strfreev);
  g_clear_pointer (&self->create_command, g_strfreev);
  g_clear_pointer (&self->user_mounts, g_strfreev);

  G_OBJECT_CLASS (kiste_box_parent_class)->finalize (object);
}

static void
kiste_box_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  KisteBox *self = KISTE_BOX (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_IMAGE:
      g_value_set_string (value, self->image);
      break;

    case PROP_DISTRO_ID:
      g_value_set_string (value, kiste_box_get_distro_id (self));
      break;

    case PROP_SETTING_UP:
      g_value_set_boolean (value, self->setting_up);
      break;

    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;

    case PROP_STATUS:
      g_value_set_string (value, self->status);
      break;

    case PROP_CREATED:
      g_value_set_int64 (value, self->created);
      break;

    case PROP_LABELS:
      g_value_set_boxed (value, self->labels);
      break;

    case PROP_HOME:
      g_value_set_string (value, self->home);
      break;

    case PROP_USER:
      g_value_set_string (value, self->user);
      break;

    case PROP_CUSTOM_HOME:
      g_value_set_boolean (value, self->custom_home);
      break;

    case PROP_INIT:
      g_value_set_boolean (value, self->init);
      break;

    case PROP_NVIDIA:
      g_value_set_boolean (value, self->nvidia);
      break;

    case PROP_MOUNTS:
      g_value_set_boxed (value, self->mounts);
      break;

    case PROP_USER_MOUNTS:
      g_value_set_boxed (value, self->user_mounts);
      break;

    case PROP_HOST_HOME_SHARING:
      g_value_set_enum (value, self->host_home_sharing);
      break;

    case PROP_UNSHARE_DEVSYS:
    case PROP_UNSHARE_GROUPS:
    case PROP_UNSHARE_IPC:
    case PROP_UNSHARE_NETNS:
    case PROP_UNSHARE_PROCESS:
    case PROP_UNSHARE_HOME:
      g_value_set_enum (value, self->unshare[prop_id - PROP_UNSHARE_DEVSYS]);
      break;

    case PROP_ROOTLESS:
      g_value_set_boolean (value, self->rootless);
      break;

    case PROP_DISTROBOX_VERSION:
      g_value_set_uint (value, self->distrobox_version);
      break;

    case PROP_HAS_DETAILS:
      g_value_set_boolean (value, self->has_details);
      break;

    case PROP_LOG_DRIVER:
      g_value_set_string (value, self->log_driver);
      break;

    case PROP_ENVIRON:
      g_value_set_boxed (value, self->environ);
      break;

    case PROP_CREATE_COMMAND:
      g_value_set_boxed (value, self->create_command);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
sharing_pspec (const char *name)
{
  return g_param_spec_enum (name, NULL, NULL,
                            KISTE_TYPE_SHARING, KISTE_SHARING_UNKNOWN,
                            G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
}

static void
kiste_box_class_init (KisteBoxClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = kiste_box_finalize;
  object_class->get_property = kiste_box_get_property;

  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_IMAGE] = g_param_spec_string ("image", NULL, NULL, NULL, flags);
  properties[PROP_STATE] = g_param_spec_enum ("state", NULL, NULL,
                                              KISTE_TYPE_BOX_STATE, KISTE_BOX_STATE_UNKNOWN, flags);
  properties[PROP_STATUS] = g_param_spec_string ("status", NULL, NULL, NULL, flags);
  properties[PROP_CREATED] = g_param_spec_int64 ("created", NULL, NULL, 0, G_MAXINT64, 0, flags);
  properties[PROP_LABELS] = g_param_spec_boxed ("labels", NULL, NULL, G_TYPE_HASH_TABLE, flags);
  properties[PROP_HOME] = g_param_spec_string ("home", NULL, NULL, NULL, flags);
  properties[PROP_USER] = g_param_spec_string ("user", NULL, NULL, NULL, flags);
  properties[PROP_CUSTOM_HOME] = g_param_spec_boolean ("custom-home", NULL, NULL, FALSE, flags);
  properties[PROP_INIT] = g_param_spec_boolean ("init", NULL, NULL, FALSE, flags);
  properties[PROP_NVIDIA] = g_param_spec_boolean ("nvidia", NULL, NULL, FALSE, flags);
  properties[PROP_MOUNTS] = g_param_spec_boxed ("mounts", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_USER_MOUNTS] = g_param_spec_boxed ("user-mounts", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_HOST_HOME_SHARING] = sharing_pspec ("host-home-sharing");
  properties[PROP_UNSHARE_DEVSYS] = sharing_pspec ("unshare-devsys");
  properties[PROP_UNSHARE_GROUPS] = sharing_pspec ("unshare-groups");
  properties[PROP_UNSHARE_IPC] = sharing_pspec ("unshare-ipc");
  properties[PROP_UNSHARE_NETNS] = sharing_pspec ("unshare-netns");
  properties[PROP_UNSHARE_PROCESS] = sharing_pspec ("unshare-process");
  properties[PROP_UNSHARE_HOME] = sharing_pspec ("unshare-home");
  properties[PROP_ROOTLESS] = g_param_spec_boolean ("rootless", NULL, NULL, FALSE, flags);
  properties[PROP_DISTROBOX_VERSION] = g_param_spec_uint ("distrobox-version", NULL, NULL,
                                                          1, G_MAXUINT, 1, flags);
  properties[PROP_HAS_DETAILS] = g_param_spec_boolean ("has-details", NULL, NULL, FALSE, flags);
  properties[PROP_LOG_DRIVER] = g_param_spec_string ("log-driver", NULL, NULL, NULL, flags);
  properties[PROP_ENVIRON] = g_param_spec_boxed ("environ", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_CREATE_COMMAND] = g_param_spec_boxed ("create-command", NULL, NULL, G_TYPE_STRV, flags);
  properties[PROP_DISTRO_ID] = g_param_spec_string ("distro-id", NULL, NULL, NULL, flags);
  properties[PROP_SETTING_UP] = g_param_spec_boolean ("setting-up", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_box_init (KisteBox *self)
{
  self->labels = _kiste_box_labels_new ();
  self->distrobox_version = 1;
}


const char *
kiste_box_get_id (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->id;
}

const char *
kiste_box_get_name (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->name;
}

const char *
kiste_box_get_engine (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->engine;
}

const char *
kiste_box_get_ref (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->ref != NULL ? self->ref : self->name;
}

void
_kiste_box_set_engine (KisteBox   *self,
                       const char *engine)
{
  g_return_if_fail (KISTE_IS_BOX (self));

  g_set_str (&self->engine, engine);
}

void
_kiste_box_set_ref (KisteBox   *self,
                    const char *ref)
{
  g_return_if_fail (KISTE_IS_BOX (self));

  g_set_str (&self->ref, ref);
}

const char *
kiste_box_get_image (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->image;
}

const char *
kiste_box_get_image_id (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->image_id;
}

const char *
kiste_box_get_distro_id (KisteBox *self)
{
  const char *from_image;

  g_return_val_if_fail (KISTE_IS_BOX (self), KISTE_DISTRO_GENERIC);

  from_image = kiste_distro_id_for_image (self->image);
  if (g_str_equal (from_image, KISTE_DISTRO_GENERIC) && self->distro_origin != NULL)
    return self->distro_origin;
  return from_image;
}

void
kiste_box_set_distro_origin (KisteBox   *self,
                             const char *distro_id)
{
  const char *before;

  g_return_if_fail (KISTE_IS_BOX (self));

  if (distro_id != NULL && g_str_equal (distro_id, KISTE_DISTRO_GENERIC))
    distro_id = NULL;
  if (g_strcmp0 (self->distro_origin, distro_id) == 0)
    return;

  before = kiste_box_get_distro_id (self);
  /* ids are static strings of kiste-distro */
  self->distro_origin = distro_id;
  if (g_strcmp0 (before, kiste_box_get_distro_id (self)) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISTRO_ID]);
}

gboolean
kiste_box_get_setting_up (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->setting_up && self->state == KISTE_BOX_STATE_RUNNING;
}

void
kiste_box_set_setting_up (KisteBox *self,
                          gboolean  setting_up)
{
  g_return_if_fail (KISTE_IS_BOX (self));

  setting_up = !!setting_up;
  if (self->setting_up == setting_up)
    return;
  self->setting_up = setting_up;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTING_UP]);
}

const char *
kiste_box_get_state_label (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  if (kiste_box_get_setting_up (self))
    /* TRANSLATORS: state of a box that runs but is still setting itself up */
    return _("Setting up");
  return kiste_box_state_to_label (self->state);
}

KisteBoxState
kiste_box_get_state (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), KISTE_BOX_STATE_UNKNOWN);

  return self->state;
}

const char *
kiste_box_get_status (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->status;
}

gint64
kiste_box_get_created (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), 0);

  return self->created;
}

/**
 * kiste_box_get_started:
 *
 * When the box last started, in seconds since 1970, as podman lists it or
 * inspect says; 0 while unknown (docker's list does not say).
 */
gint64
kiste_box_get_started (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), 0);

  return self->started;
}

/**
 * kiste_box_set_state:
 *
 * What an event of the container manager says, ahead of the next listing,
 * which sets every fact again.
 */
void
kiste_box_set_state (KisteBox      *self,
                     KisteBoxState  state)
{
  g_return_if_fail (KISTE_IS_BOX (self));

  _kiste_box_set_state (self, state);
}

GHashTable *
kiste_box_get_labels (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->labels;
}

gboolean
kiste_box_get_temporary (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return g_strcmp0 (g_hash_table_lookup (self->labels, KISTE_BOX_TEMPORARY_LABEL), "1") == 0;
}

KisteBoxTool
kiste_box_get_tool (KisteBox *self)
{
  GHashTableIter iter;
  gpointer key;

  g_return_val_if_fail (KISTE_IS_BOX (self), KISTE_BOX_TOOL_DISTROBOX);

  if (!g_hash_table_contains (self->labels, KISTE_BOX_TOOLBOX_LABEL) ||
      g_strcmp0 (g_hash_table_lookup (self->labels, "manager"), "distrobox") == 0)
    return KISTE_BOX_TOOL_DISTROBOX;

  g_hash_table_iter_init (&iter, self->labels);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (g_str_has_prefix (key, "distrobox."))
        return KISTE_BOX_TOOL_DISTROBOX;
    }

  return KISTE_BOX_TOOL_TOOLBX;
}

const char *
kiste_box_tool_to_label (KisteBoxTool tool)
{
  switch (tool)
    {
    case KISTE_BOX_TOOL_TOOLBX:
      /* the project's own spelling */
      return _("Toolbx");
    case KISTE_BOX_TOOL_DISTROBOX:
    default:
      return _("Distrobox");
    }
}

const char *
kiste_box_get_label (KisteBox   *self,
                     const char *key)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  return g_hash_table_lookup (self->labels, key);
}

const char *
kiste_box_get_home (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->home;
}

gboolean
kiste_box_has_custom_home (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->custom_home;
}

gboolean
kiste_box_get_init (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->init;
}

gboolean
kiste_box_get_nvidia (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->nvidia;
}

const char * const *
kiste_box_get_mounts (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return (const char * const *) self->mounts;
}

KisteSharing
kiste_box_get_host_home_sharing (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), KISTE_SHARING_UNKNOWN);

  return self->host_home_sharing;
}

KisteSharing
kiste_box_get_unshare (KisteBox     *self,
                       KisteUnshare  what)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), KISTE_SHARING_UNKNOWN);
  g_return_val_if_fail (what < KISTE_N_UNSHARE, KISTE_SHARING_UNKNOWN);

  return self->unshare[what];
}

gboolean
kiste_box_get_rootless (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->rootless;
}

guint
kiste_box_get_distrobox_version (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), 1);

  return self->distrobox_version;
}

gboolean
kiste_box_get_has_details (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return self->has_details;
}

const char *
kiste_box_get_log_driver (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->log_driver;
}

const char * const *
kiste_box_get_user_mounts (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return (const char * const *) self->user_mounts;
}

const char *
kiste_box_get_user (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->user;
}

const char * const *
kiste_box_get_environ (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return (const char * const *) self->environ;
}

const char *
kiste_box_getenv (KisteBox   *self,
                  const char *variable)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);
  g_return_val_if_fail (variable != NULL, NULL);

  if (self->environ == NULL)
    return NULL;

  return g_environ_getenv (self->environ, variable);
}

const char * const *
kiste_box_get_create_command (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return (const char * const *) self->create_command;
}

const char *
kiste_box_state_to_string (KisteBoxState state)
{
  switch (state)
    {
    case KISTE_BOX_STATE_CREATED:
      return "created";

    case KISTE_BOX_STATE_RUNNING:
      return "running";

    case KISTE_BOX_STATE_STOPPED:
      return "stopped";

    case KISTE_BOX_STATE_PAUSED:
      return "paused";

    case KISTE_BOX_STATE_STOPPING:
      return "stopping";

    case KISTE_BOX_STATE_UNKNOWN:
    default:
      return "unknown";
    }
}

const char *
kiste_box_state_to_label (KisteBoxState state)
{
  switch (state)
    {
    case KISTE_BOX_STATE_CREATED:
      /* TRANSLATORS: state of a box that was never started */
      return _("Created");

    case KISTE_BOX_STATE_RUNNING:
      return _("Running");

    case KISTE_BOX_STATE_STOPPED:
      return _("Stopped");

    case KISTE_BOX_STATE_PAUSED:
      return _("Paused");

    case KISTE_BOX_STATE_STOPPING:
      return _("Stopping");

    case KISTE_BOX_STATE_UNKNOWN:
    default:
      return _("Unknown");
    }
}
