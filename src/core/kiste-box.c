/* kiste-box.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <unistd.h>

#include <glib/gi18n.h>

#include "kiste-box.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-validate.h"

#define ROOTLESS_MARKER      "/run/.distrobox.rootless"
#define DISTROBOX_EXPORT     "/usr/bin/distrobox-export"
#define LABEL_MANAGER        "manager"
#define LABEL_UNSHARE_GROUPS "distrobox.unshare_groups"
#define LABEL_UNSHARE_HOME   "distrobox.unshare_home"
#define LABEL_VERSION        "distrobox.version"

struct _KisteBox
{
  GObject        parent_instance;

  /* What ps (and inspect) say */
  char          *id;
  char          *name;
  char          *image;
  char          *status;
  char          *home;
  char          *user;
  char          *host_home;
  GHashTable    *labels;
  char         **mounts;          /* destinations; NULL while unknown */
  gint64         created;
  KisteBoxState  state;
  KisteSharing   home_hint;       /* docker ps: host home among the sources */

  /* What only inspect says */
  char          *log_driver;
  char         **environ;
  char         **create_command;
  KisteSharing   ipc_mode;
  KisteSharing   net_mode;
  KisteSharing   pid_mode;

  /* Derived from the above by kiste_box_derive() */
  char         **user_mounts;
  KisteSharing   unshare[KISTE_N_UNSHARE];
  KisteSharing   host_home_sharing;
  guint          distrobox_version;

  gboolean       init;
  gboolean       nvidia;
  gboolean       podman_shape;    /* listed by podman: mounts are destinations */
  gboolean       rootless;
  gboolean       custom_home;
  gboolean       has_details;

  /* The distribution another box told (a clone's source), static string */
  const char    *distro_origin;
  /* Runs, but distrobox-init has not finished its setup yet */
  gboolean       setting_up;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_IMAGE,
  PROP_STATE,
  PROP_STATUS,
  PROP_CREATED,
  PROP_LABELS,
  PROP_HOME,
  PROP_USER,
  PROP_CUSTOM_HOME,
  PROP_INIT,
  PROP_NVIDIA,
  PROP_MOUNTS,
  PROP_USER_MOUNTS,
  PROP_HOST_HOME_SHARING,
  PROP_UNSHARE_DEVSYS,
  PROP_UNSHARE_GROUPS,
  PROP_UNSHARE_IPC,
  PROP_UNSHARE_NETNS,
  PROP_UNSHARE_PROCESS,
  PROP_UNSHARE_HOME,
  PROP_ROOTLESS,
  PROP_DISTROBOX_VERSION,
  PROP_HAS_DETAILS,
  PROP_LOG_DRIVER,
  PROP_ENVIRON,
  PROP_CREATE_COMMAND,
  PROP_DISTRO_ID,
  PROP_SETTING_UP,
  N_PROPS
};

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

/* The property of each unshare setting, indexed by KisteUnshare */
static const guint unshare_props[KISTE_N_UNSHARE] = {
  PROP_UNSHARE_DEVSYS,
  PROP_UNSHARE_GROUPS,
  PROP_UNSHARE_IPC,
  PROP_UNSHARE_NETNS,
  PROP_UNSHARE_PROCESS,
  PROP_UNSHARE_HOME,
};

static GHashTable *
labels_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static gboolean
strv_equal0 (const char * const *a,
             const char * const *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_strv_equal (a, b);
}

static gboolean
labels_equal (GHashTable *a,
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

static GHashTable *
labels_copy (GHashTable *labels)
{
  GHashTable *copy = labels_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, labels);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_strdup (value));

  return copy;
}

/* Setters that notify only on a real change and report whether there was one */

static gboolean
set_string (KisteBox    *self,
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

static gboolean
set_strv (KisteBox            *self,
          char              ***field,
          const char * const  *value,
          guint                prop)
{
  if (strv_equal0 ((const char * const *) *field, value))
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

static gboolean
set_state (KisteBox      *self,
           KisteBoxState  value)
{
  if (self->state == value)
    return FALSE;

  self->state = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  return TRUE;
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

static gboolean
set_bool (KisteBox *self,
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
static gboolean
is_host_home (const char *path,
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

/* From podman's create argv (inspect only): whether the host's homes stay
 * reachable at /run/host/home. A box that only carries the unshare_home
 * label, as the unmerged distrobox patch makes them, still binds them there;
 * Kiste's isolated boxes put an empty tmpfs in that place. */
static KisteSharing
run_host_home_sharing (char **create_command)
{
  gboolean bound = FALSE;

  if (create_command == NULL)
    return KISTE_SHARING_UNKNOWN;

  for (guint i = 0; create_command[i] != NULL; i++)
    {
      const char *arg = create_command[i];
      const char *spec = NULL;

      if ((g_str_equal (arg, "--volume") || g_str_equal (arg, "-v")) && create_command[i + 1] != NULL)
        spec = create_command[++i];
      else if (g_str_has_prefix (arg, "--volume="))
        spec = arg + strlen ("--volume=");

      if (spec != NULL &&
          (g_str_equal (spec, "/home:/run/host/home") || g_str_has_prefix (spec, "/home:/run/host/home:")))
        bound = TRUE;
    }

  return bound ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED;
}

/* The sources of the --volume options of podman's create argv, except
 * distrobox's own mirrors of the host under /run/host */
static GPtrArray *
volume_sources (const char * const *create_command)
{
  GPtrArray *sources = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; create_command != NULL && create_command[i] != NULL; i++)
    {
      const char *arg = create_command[i];
      const char *spec = NULL;
      g_auto(GStrv) parts = NULL;

      if ((g_str_equal (arg, "--volume") || g_str_equal (arg, "-v")) && create_command[i + 1] != NULL)
        spec = create_command[++i];
      else if (g_str_has_prefix (arg, "--volume="))
        spec = arg + strlen ("--volume=");
      if (spec == NULL)
        continue;

      parts = g_strsplit (spec, ":", 3);
      if (parts[0] == NULL || parts[1] == NULL || parts[0][0] != '/')
        continue;
      {
        g_autofree char *mirror = g_build_filename ("/run/host", parts[0], NULL);

        if (g_str_equal (parts[1], mirror))
          continue;
      }
      g_ptr_array_add (sources, g_strdup (parts[0]));
    }

  return sources;
}

/* a is b or a folder above it */
static gboolean
path_contains (const char *a,
               const char *b)
{
  gsize len = strlen (a);

  if (g_str_equal (a, "/"))
    return TRUE;
  return strncmp (a, b, len) == 0 && (b[len] == '\0' || b[len] == '/');
}

/* Whether a volume of the user's shows the whole home */
static gboolean
volumes_show_home (const char * const *create_command,
                   const char         *host_home)
{
  g_autoptr(GPtrArray) sources = NULL;

  if (host_home == NULL)
    return FALSE;

  sources = volume_sources (create_command);
  for (guint i = 0; i < sources->len; i++)
    if (path_contains (g_ptr_array_index (sources, i), host_home))
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
static gboolean
kiste_box_derive (KisteBox *self,
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

          if (is_host_home (dest, self->host_home))
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
      run_host_home_sharing (self->create_command) == KISTE_SHARING_SHARED ||
      volumes_show_home ((const char * const *) self->create_command, self->host_home))
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
                !is_host_home (self->home, self->host_home);

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

  changed |= set_strv (self, &self->user_mounts,
                       user_mounts ? (const char * const *) user_mounts->pdata : NULL,
                       PROP_USER_MOUNTS);
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    changed |= set_sharing (self, &self->unshare[i], unshare[i], unshare_props[i]);
  changed |= set_sharing (self, &self->host_home_sharing, host_home_sharing, PROP_HOST_HOME_SHARING);
  changed |= set_uint (self, &self->distrobox_version, distrobox_version, PROP_DISTROBOX_VERSION);
  changed |= set_bool (self, &self->rootless, rootless, PROP_ROOTLESS);
  changed |= set_bool (self, &self->custom_home, custom_home, PROP_CUSTOM_HOME);

  return changed;
}

static void
kiste_box_finalize (GObject *object)
{
  KisteBox *self = (KisteBox *) object;

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->image, g_free);
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
  self->labels = labels_new ();
  self->distrobox_version = 1;
}

/* JSON helpers: podman and docker disagree on case and on types, so every
 * member is checked before use. */

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

static JsonArray *
get_array (JsonObject *object,
           const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static gboolean
get_boolean (JsonObject *object,
             const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return FALSE;

  return json_node_get_boolean (node);
}

/* The strings of a JSON array, NULL-terminated; non-strings are skipped */
static char **
strv_from_array (JsonArray *array)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  guint n = json_array_get_length (array);
  char **ret;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }

  ret = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return ret;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Mounts as podman ≤ 5 prints them (destination strings) or as InspectMount
 * objects (newer podman's ps, and every inspect). Sorted, because the order
 * varies between ps and inspect and must not look like a change. */
static char **
mounts_from_array (JsonArray *array)
{
  g_autoptr(GPtrArray) dests = g_ptr_array_new ();
  guint n = json_array_get_length (array);
  char **ret;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *dest = NULL;

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        dest = json_node_get_string (node);
      else if (JSON_NODE_HOLDS_OBJECT (node))
        dest = get_string (json_node_get_object (node), "Destination");

      if (dest != NULL && dest[0] != '\0')
        g_ptr_array_add (dests, (gpointer) dest);
    }

  g_ptr_array_sort (dests, compare_strings);

  ret = g_new0 (char *, dests->len + 1);
  for (guint i = 0, j = 0; i < dests->len; i++)
    {
      if (j == 0 || !g_str_equal (ret[j - 1], g_ptr_array_index (dests, i)))
        ret[j++] = g_strdup (g_ptr_array_index (dests, i));
    }

  return ret;
}

static void
labels_add_object (GHashTable *labels,
                   JsonObject *object)
{
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &node))
    {
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_insert (labels, g_strdup (key), g_strdup (json_node_get_string (node)));
    }
}

/* docker's "k=v,k=v": a piece without '=' continues the previous value,
 * which keeps values with commas whole as long as no piece looks like k=v. */
static void
labels_add_docker_string (GHashTable *labels,
                          const char *text)
{
  g_auto(GStrv) pieces = NULL;
  g_autofree char *last_key = NULL;

  if (text == NULL || text[0] == '\0')
    return;

  pieces = g_strsplit (text, ",", -1);
  for (guint i = 0; pieces[i] != NULL; i++)
    {
      const char *eq = strchr (pieces[i], '=');

      if (eq != NULL && eq != pieces[i])
        {
          g_free (last_key);
          last_key = g_strndup (pieces[i], eq - pieces[i]);
          g_hash_table_replace (labels, g_strdup (last_key), g_strdup (eq + 1));
        }
      else if (last_key != NULL)
        {
          const char *prev = g_hash_table_lookup (labels, last_key);

          g_hash_table_replace (labels, g_strdup (last_key), g_strconcat (prev, ",", pieces[i], NULL));
        }
    }
}

static GHashTable *
labels_from_member (JsonObject *object,
                    const char *member)
{
  GHashTable *labels = labels_new ();
  JsonObject *as_object;
  const char *as_string;

  if ((as_object = get_object (object, member)))
    labels_add_object (labels, as_object);
  else if ((as_string = get_string (object, member)))
    labels_add_docker_string (labels, as_string);

  return labels;
}

static gboolean
labels_say_distrobox (GHashTable *labels)
{
  GHashTableIter iter;
  gpointer key;

  if (g_strcmp0 (g_hash_table_lookup (labels, LABEL_MANAGER), "distrobox") == 0)
    return TRUE;

  g_hash_table_iter_init (&iter, labels);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (g_str_has_prefix (key, "distrobox."))
        return TRUE;
    }

  return FALSE;
}

static KisteBoxState
state_from_string (const char *state)
{
  if (state == NULL)
    return KISTE_BOX_STATE_UNKNOWN;

  if (g_ascii_strcasecmp (state, "running") == 0 ||
      g_ascii_strcasecmp (state, "restarting") == 0)
    return KISTE_BOX_STATE_RUNNING;

  if (g_ascii_strcasecmp (state, "created") == 0 ||
      g_ascii_strcasecmp (state, "configured") == 0 ||
      g_ascii_strcasecmp (state, "initialized") == 0)
    return KISTE_BOX_STATE_CREATED;

  if (g_ascii_strcasecmp (state, "exited") == 0 ||
      g_ascii_strcasecmp (state, "stopped") == 0 ||
      g_ascii_strcasecmp (state, "dead") == 0)
    return KISTE_BOX_STATE_STOPPED;

  if (g_ascii_strcasecmp (state, "paused") == 0)
    return KISTE_BOX_STATE_PAUSED;

  if (g_ascii_strcasecmp (state, "stopping") == 0)
    return KISTE_BOX_STATE_STOPPING;

  return KISTE_BOX_STATE_UNKNOWN;
}

/* Very old podman has no State, only the human Status text */
static KisteBoxState
state_from_status (const char *status)
{
  if (status == NULL)
    return KISTE_BOX_STATE_UNKNOWN;

  if (g_str_has_prefix (status, "Up"))
    return strstr (status, "(Paused)") ? KISTE_BOX_STATE_PAUSED : KISTE_BOX_STATE_RUNNING;
  if (g_str_has_prefix (status, "Exited"))
    return KISTE_BOX_STATE_STOPPED;
  if (g_str_has_prefix (status, "Created"))
    return KISTE_BOX_STATE_CREATED;
  if (g_str_has_prefix (status, "Stopping"))
    return KISTE_BOX_STATE_STOPPING;

  return KISTE_BOX_STATE_UNKNOWN;
}

/* RFC 3339 from inspect, or docker ps's "2024-01-01 10:00:00 +0100 CET" */
static gint64
parse_time (const char *text)
{
  g_autoptr(GDateTime) dt = NULL;

  if (text == NULL)
    return 0;

  dt = g_date_time_new_from_iso8601 (text, NULL);

  if (dt == NULL && strlen (text) >= 25 && text[10] == ' ' && text[19] == ' ' &&
      (text[20] == '+' || text[20] == '-'))
    {
      g_autofree char *iso = g_strdup_printf ("%.10sT%.8s%.3s:%.2s",
                                              text, text + 11, text + 20, text + 23);

      dt = g_date_time_new_from_iso8601 (iso, NULL);
    }

  if (dt == NULL)
    return 0;

  return MAX (0, g_date_time_to_unix (dt));
}

/* The init command is `--verbose --name USER --user UID --group GID
 * --home HOME --init 0|1 --nvidia 0|1 --pre-init-hooks … --additional-packages … -- HOOK`. */
static const char * const init_value_flags[] = {
  "--name", "--user", "--group", "--home", "--init", "--nvidia",
  "--pre-init-hooks", "--additional-packages", "--upgrade", NULL,
};

typedef struct
{
  char     *home;
  char     *user;
  gboolean  init;
  gboolean  nvidia;
  gboolean  found;
} InitArgs;

static void
init_args_clear (InitArgs *args)
{
  g_clear_pointer (&args->home, g_free);
  g_clear_pointer (&args->user, g_free);
}

static void
init_args_take (InitArgs   *args,
                const char *flag,
                const char *value)
{
  args->found = TRUE;

  if (g_str_equal (flag, "--home"))
    g_set_str (&args->home, value);
  else if (g_str_equal (flag, "--name"))
    g_set_str (&args->user, value);
  else if (g_str_equal (flag, "--init"))
    args->init = g_str_equal (value, "1") || g_str_equal (value, "true");
  else if (g_str_equal (flag, "--nvidia"))
    args->nvidia = g_str_equal (value, "1") || g_str_equal (value, "true");
}

/* Each value is the next element: exact, as podman gives argv as an array */
static void
parse_init_argv (const char * const *argv,
                 InitArgs           *args)
{
  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;

      if (g_strv_contains (init_value_flags, argv[i]) && argv[i + 1] != NULL)
        {
          init_args_take (args, argv[i], argv[i + 1]);
          i++;
        }
    }
}

/* docker ps joins argv with spaces (and quotes the whole): a value is every
 * word up to the next flag, so a home with a space survives. */
static void
parse_init_string (const char *command,
                   InitArgs   *args)
{
  g_autofree char *unquoted = NULL;
  g_auto(GStrv) words = NULL;
  gsize len;

  if (command == NULL)
    return;

  len = strlen (command);
  if (len >= 2 && command[0] == '"' && command[len - 1] == '"')
    {
      g_autofree char *inner = g_strndup (command + 1, len - 2);

      unquoted = g_strcompress (inner);
    }
  else
    {
      unquoted = g_strdup (command);
    }

  words = g_strsplit (unquoted, " ", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autoptr(GString) value = NULL;
      const char *flag = words[i];
      guint j;

      if (g_str_equal (flag, "--"))
        break;

      if (!g_strv_contains (init_value_flags, flag))
        continue;

      /* the inverse of docker's join: words back together with one space */
      value = g_string_new (NULL);
      for (j = i + 1; words[j] != NULL && !g_str_has_prefix (words[j], "--"); j++)
        {
          if (j > i + 1)
            g_string_append_c (value, ' ');
          g_string_append (value, words[j]);
        }

      init_args_take (args, flag, value->str);
      i = j - 1;
    }
}

static gboolean
set_labels (KisteBox   *self,
            GHashTable *labels)
{
  if (labels_equal (self->labels, labels))
    return FALSE;

  g_hash_table_unref (self->labels);
  self->labels = labels_copy (labels);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LABELS]);
  return TRUE;
}

static const char *
first_name (JsonObject *object,
            char      **to_free)
{
  JsonArray *names;
  const char *name;

  *to_free = NULL;

  if ((names = get_array (object, "Names")) &&
      json_array_get_length (names) > 0 &&
      JSON_NODE_HOLDS_VALUE (json_array_get_element (names, 0)) &&
      json_node_get_value_type (json_array_get_element (names, 0)) == G_TYPE_STRING)
    name = json_array_get_string_element (names, 0);
  else if (!(name = get_string (object, "Names")))
    name = get_string (object, "Name");

  if (name == NULL)
    return NULL;

  /* docker: "/name" in inspect, "name,other/alias" with legacy links in ps */
  if (name[0] == '/')
    name++;
  if (strchr (name, ','))
    name = *to_free = g_strndup (name, strchr (name, ',') - name);

  return name;
}

gboolean
kiste_box_ps_json_is_distrobox (JsonObject *object)
{
  JsonObject *labels;
  JsonArray *mounts;
  const char *text;

  g_return_val_if_fail (object != NULL, FALSE);

  if (get_boolean (object, "IsInfra"))
    return FALSE;

  if ((labels = get_object (object, "Labels")))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *node;

      json_object_iter_init (&iter, labels);
      while (json_object_iter_next (&iter, &key, &node))
        {
          if (g_str_has_prefix (key, "distrobox."))
            return TRUE;
        }

      if (g_strcmp0 (get_string (labels, LABEL_MANAGER), "distrobox") == 0)
        return TRUE;
    }
  else if ((text = get_string (object, "Labels")))
    {
      g_autoptr(GHashTable) parsed = labels_new ();

      labels_add_docker_string (parsed, text);
      if (labels_say_distrobox (parsed))
        return TRUE;
    }

  /* boxes older than the manager label (distrobox < 1.4) */
  if ((mounts = get_array (object, "Mounts")))
    {
      for (guint i = 0; i < json_array_get_length (mounts); i++)
        {
          JsonNode *node = json_array_get_element (mounts, i);
          const char *dest = NULL;

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            dest = json_node_get_string (node);
          else if (JSON_NODE_HOLDS_OBJECT (node))
            dest = get_string (json_node_get_object (node), "Destination");

          if (g_strcmp0 (dest, DISTROBOX_EXPORT) == 0)
            return TRUE;
        }
    }
  /* docker ps lists mount sources: the host's own distrobox-export */
  else if ((text = get_string (object, "Mounts")))
    {
      g_auto(GStrv) sources = g_strsplit (text, ",", -1);

      for (guint i = 0; sources[i] != NULL; i++)
        {
          if (g_str_has_suffix (sources[i], "/distrobox-export"))
            return TRUE;
        }
    }

  return FALSE;
}

KisteBox *
kiste_box_new_from_ps_json (JsonObject  *object,
                            const char  *host_home,
                            GError     **error)
{
  g_autoptr(KisteBox) self = NULL;
  g_autoptr(GHashTable) labels = NULL;
  g_autofree char *name_copy = NULL;
  InitArgs args = { 0 };
  const char *id;
  const char *name;
  const char *state;
  const char *mount_list;
  const char *command;
  JsonArray *array;
  JsonNode *created;

  g_return_val_if_fail (object != NULL, NULL);

  if (!(id = get_string (object, "Id")) && !(id = get_string (object, "ID")))
    id = NULL;

  if (id == NULL || id[0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed a container without an ID."));
      return NULL;
    }

  name = first_name (object, &name_copy);
  if (name == NULL || name[0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed container %.12s without a name."), id);
      return NULL;
    }

  /* podman and docker allow no other names; one such as "-x" or "$(…)"
   * could not be passed on to distrobox safely */
  if (!kiste_validate_existing_name (name, NULL, NULL))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed container %.12s with a name it does not allow."), id);
      return NULL;
    }

  self = g_object_new (KISTE_TYPE_BOX, NULL);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->host_home = g_strdup (host_home);
  self->image = g_strdup (get_string (object, "Image"));
  self->status = g_strdup (get_string (object, "Status"));
  /* docker lines carry Names as a plain string */
  self->podman_shape = get_array (object, "Names") != NULL;

  state = get_string (object, "State");
  self->state = state ? state_from_string (state) : state_from_status (self->status);

  created = json_object_get_member (object, "Created");
  if (created != NULL && JSON_NODE_HOLDS_VALUE (created) &&
      json_node_get_value_type (created) == G_TYPE_INT64)
    self->created = MAX (0, json_node_get_int (created));
  else if (created != NULL && JSON_NODE_HOLDS_VALUE (created) &&
           json_node_get_value_type (created) == G_TYPE_STRING)
    self->created = parse_time (json_node_get_string (created));
  else
    self->created = parse_time (get_string (object, "CreatedAt"));

  labels = labels_from_member (object, "Labels");
  g_hash_table_unref (self->labels);
  self->labels = g_steal_pointer (&labels);

  if ((array = get_array (object, "Mounts")))
    {
      self->mounts = mounts_from_array (array);
    }
  else if ((mount_list = get_string (object, "Mounts")))
    {
      g_auto(GStrv) sources = g_strsplit (mount_list, ",", -1);

      /* distrobox binds $HOME at the same path: the source tells */
      for (guint i = 0; sources[i] != NULL; i++)
        {
          if (is_host_home (sources[i], host_home))
            self->home_hint = KISTE_SHARING_SHARED;
        }
    }
  else if (self->podman_shape)
    {
      /* podman prints null for a container without mounts */
      self->mounts = g_new0 (char *, 1);
    }

  if ((array = get_array (object, "Command")))
    {
      g_auto(GStrv) argv = strv_from_array (array);

      parse_init_argv ((const char * const *) argv, &args);
    }
  else if ((command = get_string (object, "Command")))
    {
      parse_init_string (command, &args);
    }

  self->home = g_steal_pointer (&args.home);
  self->user = g_steal_pointer (&args.user);
  self->init = !!args.init;
  self->nvidia = !!args.nvidia;
  init_args_clear (&args);

  kiste_box_derive (self, FALSE);

  return g_steal_pointer (&self);
}

static KisteSharing
sharing_from_mode (JsonObject *host_config,
                   const char *member)
{
  const char *mode;

  if (!json_object_has_member (host_config, member))
    return KISTE_SHARING_UNKNOWN;

  /* docker leaves PidMode "" for a private namespace */
  mode = get_string (host_config, member);
  if (mode == NULL)
    return KISTE_SHARING_UNKNOWN;

  return g_str_equal (mode, "host") ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED;
}

/* Whether update_from() would change nothing: the common case of a
 * refresh, answered without touching notifications. */
static gboolean
kiste_box_same_facts (KisteBox *self,
                      KisteBox *other)
{
  if (!(g_strcmp0 (self->id, other->id) == 0 &&
        g_strcmp0 (self->name, other->name) == 0 &&
        g_strcmp0 (self->image, other->image) == 0 &&
        g_strcmp0 (self->status, other->status) == 0 &&
        g_strcmp0 (self->home, other->home) == 0 &&
        g_strcmp0 (self->user, other->user) == 0 &&
        g_strcmp0 (self->host_home, other->host_home) == 0 &&
        self->created == other->created &&
        self->state == other->state &&
        self->init == other->init &&
        self->nvidia == other->nvidia &&
        self->podman_shape == other->podman_shape &&
        self->home_hint == other->home_hint &&
        labels_equal (self->labels, other->labels)))
    return FALSE;

  if ((other->mounts != NULL || other->has_details) &&
      !strv_equal0 ((const char * const *) self->mounts, (const char * const *) other->mounts))
    return FALSE;

  if (other->has_details &&
      !(self->has_details &&
        self->ipc_mode == other->ipc_mode &&
        self->net_mode == other->net_mode &&
        self->pid_mode == other->pid_mode &&
        g_strcmp0 (self->log_driver, other->log_driver) == 0 &&
        strv_equal0 ((const char * const *) self->environ, (const char * const *) other->environ) &&
        strv_equal0 ((const char * const *) self->create_command,
                     (const char * const *) other->create_command)))
    return FALSE;

  return TRUE;
}

gboolean
kiste_box_update_from (KisteBox *self,
                       KisteBox *other)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);
  g_return_val_if_fail (KISTE_IS_BOX (other), FALSE);

  if (self == other || kiste_box_same_facts (self, other))
    return FALSE;

  g_object_freeze_notify (G_OBJECT (self));

  changed |= set_string (self, &self->id, other->id, PROP_ID);
  changed |= set_string (self, &self->name, other->name, PROP_NAME);
  changed |= set_string (self, &self->image, other->image, PROP_IMAGE);
  changed |= set_string (self, &self->status, other->status, PROP_STATUS);
  changed |= set_state (self, other->state);
  if (self->created != other->created)
    {
      self->created = other->created;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CREATED]);
      changed = TRUE;
    }
  changed |= set_labels (self, other->labels);
  changed |= set_string (self, &self->home, other->home, PROP_HOME);
  changed |= set_string (self, &self->user, other->user, PROP_USER);
  changed |= set_bool (self, &self->init, other->init, PROP_INIT);
  changed |= set_bool (self, &self->nvidia, other->nvidia, PROP_NVIDIA);

  /* Not notified: inputs of kiste_box_derive(), which notifies the results */
  g_set_str (&self->host_home, other->host_home);
  self->podman_shape = other->podman_shape;
  self->home_hint = other->home_hint;

  /* A container's mounts and namespaces never change, so what only the
   * details know survives a refresh from ps (docker's ps lacks mounts). */
  if (other->mounts != NULL || other->has_details)
    changed |= set_strv (self, &self->mounts, (const char * const *) other->mounts, PROP_MOUNTS);

  if (other->has_details)
    {
      changed |= set_string (self, &self->log_driver, other->log_driver, PROP_LOG_DRIVER);
      changed |= set_strv (self, &self->environ, (const char * const *) other->environ, PROP_ENVIRON);
      changed |= set_strv (self, &self->create_command,
                           (const char * const *) other->create_command, PROP_CREATE_COMMAND);
      self->ipc_mode = other->ipc_mode;
      self->net_mode = other->net_mode;
      self->pid_mode = other->pid_mode;
      changed |= set_bool (self, &self->has_details, TRUE, PROP_HAS_DETAILS);
    }

  changed |= kiste_box_derive (self, TRUE);

  g_object_thaw_notify (G_OBJECT (self));

  return changed;
}

/* A detached copy of every fact, to apply inspect output to before merging
 * it back with kiste_box_update_from(), so notifications stay in one place. */
static KisteBox *
kiste_box_copy (KisteBox *self)
{
  KisteBox *copy = g_object_new (KISTE_TYPE_BOX, NULL);

  copy->id = g_strdup (self->id);
  copy->name = g_strdup (self->name);
  copy->image = g_strdup (self->image);
  copy->status = g_strdup (self->status);
  copy->home = g_strdup (self->home);
  copy->user = g_strdup (self->user);
  copy->host_home = g_strdup (self->host_home);
  g_hash_table_unref (copy->labels);
  copy->labels = labels_copy (self->labels);
  copy->mounts = g_strdupv (self->mounts);
  copy->created = self->created;
  copy->state = self->state;
  copy->home_hint = self->home_hint;
  copy->log_driver = g_strdup (self->log_driver);
  copy->environ = g_strdupv (self->environ);
  copy->create_command = g_strdupv (self->create_command);
  copy->ipc_mode = self->ipc_mode;
  copy->net_mode = self->net_mode;
  copy->pid_mode = self->pid_mode;
  copy->init = self->init;
  copy->nvidia = self->nvidia;
  copy->podman_shape = self->podman_shape;
  copy->has_details = self->has_details;

  return copy;
}

gboolean
kiste_box_apply_inspect_json (KisteBox    *self,
                              JsonObject  *object,
                              GError     **error)
{
  g_autoptr(KisteBox) copy = NULL;
  g_autofree char *name_copy = NULL;
  InitArgs args = { 0 };
  JsonObject *config;
  JsonObject *host_config;
  JsonObject *state;
  JsonObject *log_config;
  JsonArray *array;
  const char *id;
  const char *name;
  const char *value;

  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);
  g_return_val_if_fail (object != NULL, FALSE);

  id = get_string (object, "Id");
  config = get_object (object, "Config");
  host_config = get_object (object, "HostConfig");

  if (id == NULL || config == NULL || host_config == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The details of box “%s” are incomplete."), self->name);
      return FALSE;
    }

  if (!g_str_equal (id, self->id))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The details of box “%s” belong to another container."), self->name);
      return FALSE;
    }

  copy = kiste_box_copy (self);

  if ((name = first_name (object, &name_copy)) && name[0] != '\0')
    g_set_str (&copy->name, name);

  /* podman's ImageName is what ps shows; docker only has Config.Image */
  if ((value = get_string (object, "ImageName")) || (value = get_string (config, "Image")))
    g_set_str (&copy->image, value);

  if ((value = get_string (object, "Created")) && parse_time (value) > 0)
    copy->created = parse_time (value);

  if ((state = get_object (object, "State")) && (value = get_string (state, "Status")))
    {
      KisteBoxState parsed = state_from_string (value);

      if (parsed != KISTE_BOX_STATE_UNKNOWN)
        copy->state = parsed;
    }

  g_hash_table_remove_all (copy->labels);
  if (get_object (config, "Labels"))
    labels_add_object (copy->labels, get_object (config, "Labels"));

  g_clear_pointer (&copy->environ, g_strfreev);
  if ((array = get_array (config, "Env")))
    copy->environ = strv_from_array (array);
  else
    copy->environ = g_new0 (char *, 1);

  g_clear_pointer (&copy->create_command, g_strfreev);
  if ((array = get_array (config, "CreateCommand")))
    copy->create_command = strv_from_array (array);

  if ((array = get_array (config, "Cmd")))
    {
      g_auto(GStrv) argv = strv_from_array (array);

      parse_init_argv ((const char * const *) argv, &args);
      if (args.found)
        {
          g_set_str (&copy->home, args.home);
          g_set_str (&copy->user, args.user);
          copy->init = !!args.init;
          copy->nvidia = !!args.nvidia;
        }
      init_args_clear (&args);
    }

  g_clear_pointer (&copy->mounts, g_strfreev);
  if ((array = get_array (object, "Mounts")))
    copy->mounts = mounts_from_array (array);
  else
    copy->mounts = g_new0 (char *, 1);

  copy->ipc_mode = sharing_from_mode (host_config, "IpcMode");
  copy->net_mode = sharing_from_mode (host_config, "NetworkMode");
  copy->pid_mode = sharing_from_mode (host_config, "PidMode");

  g_clear_pointer (&copy->log_driver, g_free);
  if ((log_config = get_object (host_config, "LogConfig")) &&
      (value = get_string (log_config, "Type")) && value[0] != '\0')
    copy->log_driver = g_strdup (value);

  copy->has_details = TRUE;

  kiste_box_update_from (self, copy);

  return TRUE;
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
kiste_box_get_image (KisteBox *self)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  return self->image;
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

/**
 * kiste_box_dup_enter_hazard:
 * @self: a box
 *
 * distrobox enter reads the image's PATH and HOME through podman's %q
 * format into a double-quoted shell string and evals it on the host, so a
 * "$(…)" or a backtick there runs as a command on this computer at every
 * enter. Such a box must not be entered through distrobox.
 *
 * Returns: (transfer full) (nullable): why, for people; NULL when the
 *   values are harmless or not known yet
 */
char *
kiste_box_dup_enter_hazard (KisteBox *self)
{
  static const char * const variables[] = { "PATH", "HOME" };

  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    {
      const char *value = kiste_box_getenv (self, variables[i]);

      if (value != NULL && strpbrk (value, "$`") != NULL)
        return g_strdup_printf (_("The image of “%s” sets %s to a value with “$” or “`”, which "
                                  "distrobox would run as a command on this computer. Kiste does not "
                                  "let distrobox enter this box."),
                                self->name, variables[i]);
    }

  return NULL;
}

/**
 * kiste_box_dup_home_volumes:
 * @self: a box
 *
 * Folders inside the user's home that the box's own volumes put in it (so
 * a box without the home still sees these), from its create command.
 *
 * Returns: (transfer full): the host paths, maybe empty; NULL when not known
 */
char **
kiste_box_dup_home_volumes (KisteBox *self)
{
  g_autoptr(GPtrArray) sources = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  if (self->create_command == NULL || self->host_home == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  sources = volume_sources ((const char * const *) self->create_command);
  for (guint i = 0; i < sources->len; i++)
    {
      const char *source = g_ptr_array_index (sources, i);

      if (!g_str_equal (source, self->host_home) && path_contains (self->host_home, source))
        g_strv_builder_add (builder, source);
    }
  return g_strv_builder_end (builder);
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
