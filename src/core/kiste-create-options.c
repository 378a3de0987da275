/* kiste-create-options.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-create-options.h"
#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-validate.h"

struct _KisteCreateOptions
{
  GObject   parent_instance;

  char     *name;
  char     *image;
  char     *clone_source;
  char     *home;
  char     *hostname;
  char     *platform;
  char     *init_hooks;
  char     *pre_init_hooks;
  char    **volumes;
  char    **additional_packages;

  gboolean  unshare[KISTE_N_UNSHARE];
  gboolean  unshare_all;
  gboolean  init;
  gboolean  nvidia;
  gboolean  pull;
  gboolean  add_to_menu;
  /* people asked for a home of the box's own (home says where) */
  gboolean  separate_home;

  /* notifies being dispatched: "changed" waits for the outermost */
  guint     dispatch_depth;
  /* a box to try an image in, removed when people are done with it */
  gboolean  temporary;
};

G_DEFINE_FINAL_TYPE (KisteCreateOptions, kiste_create_options, G_TYPE_OBJECT)

G_DEFINE_ENUM_TYPE (KisteCreateField, kiste_create_field,
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_NONE, "none"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_NAME, "name"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_IMAGE, "image"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_CLONE_SOURCE, "clone-source"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_HOSTNAME, "hostname"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_HOME, "home"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_VOLUMES, "volumes"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES, "additional-packages"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_INIT_HOOKS, "init-hooks"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_PRE_INIT_HOOKS, "pre-init-hooks"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_PLATFORM, "platform"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_DEVSYS, "unshare-devsys"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_GROUPS, "unshare-groups"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_IPC, "unshare-ipc"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_NETNS, "unshare-netns"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_PROCESS, "unshare-process"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_HOME, "unshare-home"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_UNSHARE_ALL, "unshare-all"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_INIT, "init"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_NVIDIA, "nvidia"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_PULL, "pull"),
  G_DEFINE_ENUM_VALUE (KISTE_CREATE_FIELD_ADD_TO_MENU, "add-to-menu"))

/* The unshare properties follow the order of KisteUnshare */
enum {
  PROP_0,
  PROP_NAME,
  PROP_IMAGE,
  PROP_CLONE_SOURCE,
  PROP_HOME,
  PROP_HOSTNAME,
  PROP_PLATFORM,
  PROP_INIT_HOOKS,
  PROP_PRE_INIT_HOOKS,
  PROP_VOLUMES,
  PROP_ADDITIONAL_PACKAGES,
  PROP_UNSHARE_DEVSYS,
  PROP_UNSHARE_GROUPS,
  PROP_UNSHARE_IPC,
  PROP_UNSHARE_NETNS,
  PROP_UNSHARE_PROCESS,
  PROP_UNSHARE_HOME,
  PROP_UNSHARE_ALL,
  PROP_INIT,
  PROP_NVIDIA,
  PROP_PULL,
  PROP_ADD_TO_MENU,
  PROP_SEPARATE_HOME,
  N_PROPS
};

G_STATIC_ASSERT (PROP_UNSHARE_HOME - PROP_UNSHARE_DEVSYS == KISTE_UNSHARE_HOME - KISTE_UNSHARE_DEVSYS);
G_STATIC_ASSERT (PROP_UNSHARE_HOME - PROP_UNSHARE_DEVSYS + 1 == KISTE_N_UNSHARE);

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Create flags for KisteUnshare values, in the order they are emitted */
static const struct
{
  KisteUnshare      what;
  const char       *flag;
  KisteCreateField  field;
} unshare_flags[] = {
  { KISTE_UNSHARE_DEVSYS, "--unshare-devsys", KISTE_CREATE_FIELD_UNSHARE_DEVSYS },
  { KISTE_UNSHARE_GROUPS, "--unshare-groups", KISTE_CREATE_FIELD_UNSHARE_GROUPS },
  { KISTE_UNSHARE_IPC, "--unshare-ipc", KISTE_CREATE_FIELD_UNSHARE_IPC },
  { KISTE_UNSHARE_NETNS, "--unshare-netns", KISTE_CREATE_FIELD_UNSHARE_NETNS },
  { KISTE_UNSHARE_PROCESS, "--unshare-process", KISTE_CREATE_FIELD_UNSHARE_PROCESS },
};

/* The order validate_full() checks fields in */
static const KisteCreateField checked_fields[] = {
  KISTE_CREATE_FIELD_NAME,
  KISTE_CREATE_FIELD_IMAGE,
  KISTE_CREATE_FIELD_CLONE_SOURCE,
  KISTE_CREATE_FIELD_HOSTNAME,
  KISTE_CREATE_FIELD_HOME,
  KISTE_CREATE_FIELD_VOLUMES,
  KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES,
  KISTE_CREATE_FIELD_INIT_HOOKS,
  KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
  KISTE_CREATE_FIELD_PLATFORM,
};

static gboolean
is_set (const char *str)
{
  return str != NULL && str[0] != '\0';
}

static void
kiste_create_options_finalize (GObject *object)
{
  KisteCreateOptions *self = (KisteCreateOptions *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->image, g_free);
  g_clear_pointer (&self->clone_source, g_free);
  g_clear_pointer (&self->home, g_free);
  g_clear_pointer (&self->hostname, g_free);
  g_clear_pointer (&self->platform, g_free);
  g_clear_pointer (&self->init_hooks, g_free);
  g_clear_pointer (&self->pre_init_hooks, g_free);
  g_clear_pointer (&self->volumes, g_strfreev);
  g_clear_pointer (&self->additional_packages, g_strfreev);

  G_OBJECT_CLASS (kiste_create_options_parent_class)->finalize (object);
}

static void
kiste_create_options_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  KisteCreateOptions *self = KISTE_CREATE_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;

    case PROP_IMAGE:
      g_value_set_string (value, self->image);
      break;

    case PROP_CLONE_SOURCE:
      g_value_set_string (value, self->clone_source);
      break;

    case PROP_HOME:
      g_value_set_string (value, self->home);
      break;

    case PROP_HOSTNAME:
      g_value_set_string (value, self->hostname);
      break;

    case PROP_PLATFORM:
      g_value_set_string (value, self->platform);
      break;

    case PROP_INIT_HOOKS:
      g_value_set_string (value, self->init_hooks);
      break;

    case PROP_PRE_INIT_HOOKS:
      g_value_set_string (value, self->pre_init_hooks);
      break;

    case PROP_VOLUMES:
      g_value_set_boxed (value, self->volumes);
      break;

    case PROP_ADDITIONAL_PACKAGES:
      g_value_set_boxed (value, self->additional_packages);
      break;

    case PROP_UNSHARE_DEVSYS:
    case PROP_UNSHARE_GROUPS:
    case PROP_UNSHARE_IPC:
    case PROP_UNSHARE_NETNS:
    case PROP_UNSHARE_PROCESS:
    case PROP_UNSHARE_HOME:
      g_value_set_boolean (value, self->unshare[prop_id - PROP_UNSHARE_DEVSYS]);
      break;

    case PROP_UNSHARE_ALL:
      g_value_set_boolean (value, self->unshare_all);
      break;

    case PROP_INIT:
      g_value_set_boolean (value, self->init);
      break;

    case PROP_NVIDIA:
      g_value_set_boolean (value, self->nvidia);
      break;

    case PROP_PULL:
      g_value_set_boolean (value, self->pull);
      break;

    case PROP_ADD_TO_MENU:
      g_value_set_boolean (value, self->add_to_menu);
      break;

    case PROP_SEPARATE_HOME:
      g_value_set_boolean (value, self->separate_home);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_create_options_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  KisteCreateOptions *self = KISTE_CREATE_OPTIONS (object);

  switch (prop_id)
    {
    case PROP_NAME:
      kiste_create_options_set_name (self, g_value_get_string (value));
      break;

    case PROP_IMAGE:
      kiste_create_options_set_image (self, g_value_get_string (value));
      break;

    case PROP_CLONE_SOURCE:
      kiste_create_options_set_clone_source (self, g_value_get_string (value));
      break;

    case PROP_HOME:
      kiste_create_options_set_home (self, g_value_get_string (value));
      break;

    case PROP_HOSTNAME:
      kiste_create_options_set_hostname (self, g_value_get_string (value));
      break;

    case PROP_PLATFORM:
      kiste_create_options_set_platform (self, g_value_get_string (value));
      break;

    case PROP_INIT_HOOKS:
      kiste_create_options_set_init_hooks (self, g_value_get_string (value));
      break;

    case PROP_PRE_INIT_HOOKS:
      kiste_create_options_set_pre_init_hooks (self, g_value_get_string (value));
      break;

    case PROP_VOLUMES:
      kiste_create_options_set_volumes (self, g_value_get_boxed (value));
      break;

    case PROP_ADDITIONAL_PACKAGES:
      kiste_create_options_set_additional_packages (self, g_value_get_boxed (value));
      break;

    case PROP_UNSHARE_DEVSYS:
    case PROP_UNSHARE_GROUPS:
    case PROP_UNSHARE_IPC:
    case PROP_UNSHARE_NETNS:
    case PROP_UNSHARE_PROCESS:
    case PROP_UNSHARE_HOME:
      kiste_create_options_set_unshare (self, prop_id - PROP_UNSHARE_DEVSYS,
                                        g_value_get_boolean (value));
      break;

    case PROP_UNSHARE_ALL:
      kiste_create_options_set_unshare_all (self, g_value_get_boolean (value));
      break;

    case PROP_INIT:
      kiste_create_options_set_init (self, g_value_get_boolean (value));
      break;

    case PROP_NVIDIA:
      kiste_create_options_set_nvidia (self, g_value_get_boolean (value));
      break;

    case PROP_PULL:
      kiste_create_options_set_pull (self, g_value_get_boolean (value));
      break;

    case PROP_ADD_TO_MENU:
      kiste_create_options_set_add_to_menu (self, g_value_get_boolean (value));
      break;

    case PROP_SEPARATE_HOME:
      kiste_create_options_set_separate_home (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* One "changed" per change from outside: properties a notify handler
 * sets in turn (a suggestion following the image) are part of it */
static void
kiste_create_options_dispatch_properties_changed (GObject     *object,
                                                  guint        n_pspecs,
                                                  GParamSpec **pspecs)
{
  KisteCreateOptions *self = (KisteCreateOptions *)object;

  self->dispatch_depth++;
  G_OBJECT_CLASS (kiste_create_options_parent_class)->dispatch_properties_changed (object, n_pspecs, pspecs);
  self->dispatch_depth--;

  if (self->dispatch_depth == 0)
    g_signal_emit (self, signals[CHANGED], 0);
}

static GParamSpec *
string_pspec (const char *name)
{
  return g_param_spec_string (name, NULL, NULL,
                              NULL,
                              (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
}

static GParamSpec *
boolean_pspec (const char *name)
{
  return g_param_spec_boolean (name, NULL, NULL,
                               FALSE,
                               (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
}

static void
kiste_create_options_class_init (KisteCreateOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_create_options_finalize;
  object_class->get_property = kiste_create_options_get_property;
  object_class->set_property = kiste_create_options_set_property;
  object_class->dispatch_properties_changed = kiste_create_options_dispatch_properties_changed;

  properties[PROP_NAME] = string_pspec ("name");
  properties[PROP_IMAGE] = string_pspec ("image");
  properties[PROP_CLONE_SOURCE] = string_pspec ("clone-source");
  properties[PROP_HOME] = string_pspec ("home");
  properties[PROP_HOSTNAME] = string_pspec ("hostname");
  properties[PROP_PLATFORM] = string_pspec ("platform");
  properties[PROP_INIT_HOOKS] = string_pspec ("init-hooks");
  properties[PROP_PRE_INIT_HOOKS] = string_pspec ("pre-init-hooks");

  properties[PROP_VOLUMES] =
    g_param_spec_boxed ("volumes", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_ADDITIONAL_PACKAGES] =
    g_param_spec_boxed ("additional-packages", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_UNSHARE_DEVSYS] = boolean_pspec ("unshare-devsys");
  properties[PROP_UNSHARE_GROUPS] = boolean_pspec ("unshare-groups");
  properties[PROP_UNSHARE_IPC] = boolean_pspec ("unshare-ipc");
  properties[PROP_UNSHARE_NETNS] = boolean_pspec ("unshare-netns");
  properties[PROP_UNSHARE_PROCESS] = boolean_pspec ("unshare-process");
  properties[PROP_UNSHARE_HOME] = boolean_pspec ("unshare-home");
  properties[PROP_UNSHARE_ALL] = boolean_pspec ("unshare-all");
  properties[PROP_INIT] = boolean_pspec ("init");
  properties[PROP_NVIDIA] = boolean_pspec ("nvidia");
  properties[PROP_PULL] = boolean_pspec ("pull");
  properties[PROP_ADD_TO_MENU] = boolean_pspec ("add-to-menu");
  properties[PROP_SEPARATE_HOME] = boolean_pspec ("separate-home");

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * KisteCreateOptions::changed:
   *
   * Once after properties changed, however many a change touched, and
   * whatever notify handlers set in turn.
   */
  signals[CHANGED] =
    g_signal_new ("changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
kiste_create_options_init (KisteCreateOptions *self)
{
  self->volumes = g_new0 (char *, 1);
  self->additional_packages = g_new0 (char *, 1);
}

KisteCreateOptions *
kiste_create_options_new (void)
{
  return g_object_new (KISTE_TYPE_CREATE_OPTIONS, NULL);
}

KisteCreateOptions *
kiste_create_options_copy (KisteCreateOptions *self)
{
  KisteCreateOptions *copy;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  copy = kiste_create_options_new ();
  copy->name = g_strdup (self->name);
  copy->image = g_strdup (self->image);
  copy->clone_source = g_strdup (self->clone_source);
  copy->home = g_strdup (self->home);
  copy->hostname = g_strdup (self->hostname);
  copy->platform = g_strdup (self->platform);
  copy->init_hooks = g_strdup (self->init_hooks);
  copy->pre_init_hooks = g_strdup (self->pre_init_hooks);
  g_strfreev (copy->volumes);
  copy->volumes = g_strdupv (self->volumes);
  g_strfreev (copy->additional_packages);
  copy->additional_packages = g_strdupv (self->additional_packages);
  memcpy (copy->unshare, self->unshare, sizeof copy->unshare);
  copy->unshare_all = self->unshare_all;
  copy->init = self->init;
  copy->nvidia = self->nvidia;
  copy->pull = self->pull;
  copy->add_to_menu = self->add_to_menu;
  copy->separate_home = self->separate_home;
  copy->temporary = self->temporary;

  return copy;
}

KisteCreateOptions *
kiste_create_options_new_from_box (KisteBox *box)
{
  KisteCreateOptions *options;
  g_autofree char *name = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  options = kiste_create_options_new ();
  name = g_strdup_printf ("%s-copy", kiste_box_get_name (box));
  kiste_create_options_set_name (options, name);
  kiste_create_options_set_clone_source (options, kiste_box_get_name (box));

  /* a box on the host home had no --home: that is distrobox's default */
  if (kiste_box_has_custom_home (box))
    kiste_create_options_set_home (options, kiste_box_get_home (box));

  kiste_create_options_set_init (options, kiste_box_get_init (box));
  kiste_create_options_set_nvidia (options, kiste_box_get_nvidia (box));

  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    kiste_create_options_set_unshare (options, i,
                                      kiste_box_get_unshare (box, i) == KISTE_SHARING_UNSHARED);

  return options;
}

/* Accessors -------------------------------------------------------------- */

static void
set_string (KisteCreateOptions  *self,
            char               **field,
            const char          *value,
            guint                prop_id)
{
  /* "" and NULL both mean unset; keep one spelling */
  if (value != NULL && value[0] == '\0')
    value = NULL;

  if (g_set_str (field, value))
    g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
set_boolean (KisteCreateOptions *self,
             gboolean           *field,
             gboolean            value,
             guint               prop_id)
{
  value = !!value;

  if (*field != value)
    {
      *field = value;
      g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
    }
}

const char *
kiste_create_options_get_name (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->name;
}

void
kiste_create_options_set_name (KisteCreateOptions *self,
                               const char         *name)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->name, name, PROP_NAME);
}

const char *
kiste_create_options_get_image (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->image;
}

void
kiste_create_options_set_image (KisteCreateOptions *self,
                                const char         *image)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->image, image, PROP_IMAGE);
}

const char *
kiste_create_options_get_clone_source (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->clone_source;
}

void
kiste_create_options_set_clone_source (KisteCreateOptions *self,
                                       const char         *clone_source)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->clone_source, clone_source, PROP_CLONE_SOURCE);
}

const char *
kiste_create_options_get_home (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->home;
}

void
kiste_create_options_set_home (KisteCreateOptions *self,
                               const char         *home)
{
  g_autofree char *expanded = kiste_validate_expand_home (home, NULL);

  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_string (self, &self->home, expanded, PROP_HOME);
  /* a folder means a home of its own; an empty one does not take it back */
  if (is_set (home))
    kiste_create_options_set_separate_home (self, TRUE);
  g_object_thaw_notify (G_OBJECT (self));
}

gboolean
kiste_create_options_get_separate_home (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->separate_home;
}

void
kiste_create_options_set_separate_home (KisteCreateOptions *self,
                                        gboolean            separate_home)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  g_object_freeze_notify (G_OBJECT (self));
  set_boolean (self, &self->separate_home, separate_home, PROP_SEPARATE_HOME);
  if (!separate_home)
    set_string (self, &self->home, NULL, PROP_HOME);
  g_object_thaw_notify (G_OBJECT (self));
}

const char *
kiste_create_options_get_hostname (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->hostname;
}

void
kiste_create_options_set_hostname (KisteCreateOptions *self,
                                   const char         *hostname)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->hostname, hostname, PROP_HOSTNAME);
}

const char *
kiste_create_options_get_platform (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->platform;
}

void
kiste_create_options_set_platform (KisteCreateOptions *self,
                                   const char         *platform)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->platform, platform, PROP_PLATFORM);
}

const char *
kiste_create_options_get_init_hooks (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->init_hooks;
}

void
kiste_create_options_set_init_hooks (KisteCreateOptions *self,
                                     const char         *init_hooks)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->init_hooks, init_hooks, PROP_INIT_HOOKS);
}

const char *
kiste_create_options_get_pre_init_hooks (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return self->pre_init_hooks;
}

void
kiste_create_options_set_pre_init_hooks (KisteCreateOptions *self,
                                         const char         *pre_init_hooks)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_string (self, &self->pre_init_hooks, pre_init_hooks, PROP_PRE_INIT_HOOKS);
}

gboolean
kiste_create_options_get_unshare_all (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->unshare_all;
}

void
kiste_create_options_set_unshare_all (KisteCreateOptions *self,
                                      gboolean            unshare_all)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_boolean (self, &self->unshare_all, unshare_all, PROP_UNSHARE_ALL);
}

gboolean
kiste_create_options_get_init (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->init;
}

void
kiste_create_options_set_init (KisteCreateOptions *self,
                               gboolean            init)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_boolean (self, &self->init, init, PROP_INIT);
}

gboolean
kiste_create_options_get_nvidia (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->nvidia;
}

void
kiste_create_options_set_nvidia (KisteCreateOptions *self,
                                 gboolean            nvidia)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_boolean (self, &self->nvidia, nvidia, PROP_NVIDIA);
}

gboolean
kiste_create_options_get_pull (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->pull;
}

void
kiste_create_options_set_pull (KisteCreateOptions *self,
                               gboolean            pull)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_boolean (self, &self->pull, pull, PROP_PULL);
}

gboolean
kiste_create_options_get_add_to_menu (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->add_to_menu;
}

void
kiste_create_options_set_add_to_menu (KisteCreateOptions *self,
                                      gboolean            add_to_menu)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_boolean (self, &self->add_to_menu, add_to_menu, PROP_ADD_TO_MENU);
}

gboolean
kiste_create_options_get_temporary (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return self->temporary;
}

void
kiste_create_options_set_temporary (KisteCreateOptions *self,
                                    gboolean            temporary)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  self->temporary = !!temporary;
}

char *
kiste_create_options_dup_temporary_name (const char * const *existing_names)
{
  for (;;)
    {
      char *name = g_strdup_printf ("kiste-try-%06x", g_random_int_range (0, 0x1000000));

      if (existing_names == NULL || !g_strv_contains (existing_names, name))
        return name;
      g_free (name);
    }
}

/* A volume's host path as people type it: "~/data:/data" */
static GStrv
expand_volumes (const char * const *volumes)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; volumes != NULL && volumes[i] != NULL; i++)
    {
      const char *colon = strchr (volumes[i], ':');
      g_autofree char *host = colon ? g_strndup (volumes[i], colon - volumes[i]) : g_strdup (volumes[i]);
      g_autofree char *expanded = kiste_validate_expand_home (host, NULL);

      g_strv_builder_take (builder, g_strconcat (expanded, colon ? colon : "", NULL));
    }
  return g_strv_builder_end (builder);
}

/* Drops empty elements so "no volume" has one spelling */
static void
set_strv (KisteCreateOptions   *self,
          char               ***field,
          const char * const   *value,
          guint                 prop_id)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint i = 0; value != NULL && value[i] != NULL; i++)
    if (value[i][0] != '\0')
      g_strv_builder_add (builder, value[i]);

  strv = g_strv_builder_end (builder);

  if (g_strv_equal ((const char * const *)strv, (const char * const *)*field))
    return;

  g_strfreev (*field);
  *field = g_steal_pointer (&strv);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
append_strv (KisteCreateOptions   *self,
             char               ***field,
             const char           *value,
             guint                 prop_id)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  if (value == NULL || value[0] == '\0')
    return;

  g_strv_builder_addv (builder, (const char **)*field);
  g_strv_builder_add (builder, value);
  strv = g_strv_builder_end (builder);

  set_strv (self, field, (const char * const *)strv, prop_id);
}

const char * const *
kiste_create_options_get_volumes (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return (const char * const *)self->volumes;
}

void
kiste_create_options_set_volumes (KisteCreateOptions *self,
                                  const char * const *volumes)
{
  g_auto(GStrv) expanded = NULL;

  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  expanded = expand_volumes (volumes);
  set_strv (self, &self->volumes, (const char * const *) expanded, PROP_VOLUMES);
}

void
kiste_create_options_add_volume (KisteCreateOptions *self,
                                 const char         *volume)
{
  const char *one[] = { volume, NULL };
  g_auto(GStrv) expanded = NULL;

  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  expanded = expand_volumes (volume ? one : NULL);
  append_strv (self, &self->volumes, expanded[0], PROP_VOLUMES);
}

const char * const *
kiste_create_options_get_additional_packages (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);

  return (const char * const *)self->additional_packages;
}

void
kiste_create_options_set_additional_packages (KisteCreateOptions *self,
                                              const char * const *packages)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  set_strv (self, &self->additional_packages, packages, PROP_ADDITIONAL_PACKAGES);
}

void
kiste_create_options_add_additional_packages (KisteCreateOptions *self,
                                              const char         *packages)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));

  append_strv (self, &self->additional_packages, packages, PROP_ADDITIONAL_PACKAGES);
}

gboolean
kiste_create_options_get_unshare (KisteCreateOptions *self,
                                  KisteUnshare        what)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);
  g_return_val_if_fail (what < KISTE_N_UNSHARE, FALSE);

  return self->unshare[what];
}

void
kiste_create_options_set_unshare (KisteCreateOptions *self,
                                  KisteUnshare        what,
                                  gboolean            unshare)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));
  g_return_if_fail (what < KISTE_N_UNSHARE);

  set_boolean (self, &self->unshare[what], unshare, PROP_UNSHARE_DEVSYS + what);
}

KisteUnshareImplied
kiste_create_options_get_unshare_implied (KisteCreateOptions *self,
                                          KisteUnshare        what,
                                          KisteCapabilities  *caps)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), KISTE_UNSHARE_IMPLIED_NO);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), KISTE_UNSHARE_IMPLIED_NO);
  g_return_val_if_fail (what < KISTE_N_UNSHARE, KISTE_UNSHARE_IMPLIED_NO);

  if (self->init && (what == KISTE_UNSHARE_PROCESS || what == KISTE_UNSHARE_GROUPS))
    return KISTE_UNSHARE_IMPLIED_BY_INIT;

  /* Isolate Everything covers the home wherever Kiste can keep it out */
  if (self->unshare_all &&
      (what != KISTE_UNSHARE_HOME ||
       (caps != NULL && kiste_capabilities_can_isolate_home (caps))))
    return KISTE_UNSHARE_IMPLIED_BY_ALL;

  return KISTE_UNSHARE_IMPLIED_NO;
}

gboolean
kiste_create_options_get_effective_unshare (KisteCreateOptions *self,
                                            KisteUnshare        what,
                                            KisteCapabilities  *caps)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);
  g_return_val_if_fail (what < KISTE_N_UNSHARE, FALSE);

  return self->unshare[what] ||
         kiste_create_options_get_unshare_implied (self, what, caps) != KISTE_UNSHARE_IMPLIED_NO;
}

/* Validation ------------------------------------------------------------- */

static gboolean
validate_volumes (KisteCreateOptions  *self,
                  GError             **error)
{
  g_autoptr(GHashTable) destinations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; self->volumes[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autofree char *destination = NULL;

      if (!kiste_validate_volume (self->volumes[i], error))
        return FALSE;

      /* podman refuses two mounts on one path, late and cryptically */
      parts = g_strsplit (self->volumes[i], ":", 3);
      destination = g_strdup (parts[1]);
      while (strlen (destination) > 1 && g_str_has_suffix (destination, "/"))
        destination[strlen (destination) - 1] = '\0';

      if (!g_hash_table_add (destinations, g_steal_pointer (&destination)))
        {
          g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                       _("Two volumes use the same path in the box, “%s”. Each volume needs "
                         "its own path in the box."),
                       parts[1]);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
validate_field (KisteCreateOptions  *self,
                KisteCreateField     field,
                const char * const  *existing_names,
                GError             **error)
{
  switch (field)
    {
    case KISTE_CREATE_FIELD_NAME:
      return kiste_validate_name (self->name, existing_names, error);

    case KISTE_CREATE_FIELD_IMAGE:
      return is_set (self->clone_source) || kiste_validate_image (self->image, error);

    case KISTE_CREATE_FIELD_CLONE_SOURCE:
      return !is_set (self->clone_source) ||
             kiste_validate_existing_name (self->clone_source, existing_names, error);

    case KISTE_CREATE_FIELD_HOSTNAME:
      if (is_set (self->hostname))
        return kiste_validate_hostname (self->hostname, error);
      /* without a hostname distrobox makes one from the name (checked
       * above, so only when it is valid) */
      if (kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_NETNS, NULL) &&
          kiste_validate_name (self->name, NULL, NULL))
        return kiste_validate_default_hostname (self->name, NULL, error);
      return TRUE;

    case KISTE_CREATE_FIELD_HOME:
      /* an empty folder would quietly mean "no separate home" */
      if (self->separate_home && !is_set (self->home))
        {
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("Choose a folder for the box’s home, or turn off “Separate Home Folder”."));
          return FALSE;
        }
      return !is_set (self->home) || kiste_validate_home (self->home, error);

    case KISTE_CREATE_FIELD_VOLUMES:
      return validate_volumes (self, error);

    case KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES:
      for (guint i = 0; self->additional_packages[i] != NULL; i++)
        if (!kiste_validate_packages (self->additional_packages[i], error))
          return FALSE;
      return TRUE;

    case KISTE_CREATE_FIELD_INIT_HOOKS:
      return kiste_validate_init_hooks (self->init_hooks, error);

    case KISTE_CREATE_FIELD_PRE_INIT_HOOKS:
      return kiste_validate_pre_init_hooks (self->pre_init_hooks, error);

    case KISTE_CREATE_FIELD_PLATFORM:
      return !is_set (self->platform) || kiste_validate_platform (self->platform, error);

    case KISTE_CREATE_FIELD_NONE:
    case KISTE_CREATE_FIELD_UNSHARE_DEVSYS:
    case KISTE_CREATE_FIELD_UNSHARE_GROUPS:
    case KISTE_CREATE_FIELD_UNSHARE_IPC:
    case KISTE_CREATE_FIELD_UNSHARE_NETNS:
    case KISTE_CREATE_FIELD_UNSHARE_PROCESS:
    case KISTE_CREATE_FIELD_UNSHARE_HOME:
    case KISTE_CREATE_FIELD_UNSHARE_ALL:
    case KISTE_CREATE_FIELD_INIT:
    case KISTE_CREATE_FIELD_NVIDIA:
    case KISTE_CREATE_FIELD_PULL:
    case KISTE_CREATE_FIELD_ADD_TO_MENU:
    default:
      return TRUE;
    }
}

gboolean
kiste_create_options_validate_field (KisteCreateOptions  *self,
                                     KisteCreateField     field,
                                     const char * const  *existing_names,
                                     GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return validate_field (self, field, existing_names, error);
}

gboolean
kiste_create_options_validate_full (KisteCreateOptions  *self,
                                    const char * const  *existing_names,
                                    KisteCreateField    *out_field,
                                    GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (checked_fields); i++)
    {
      if (!validate_field (self, checked_fields[i], existing_names, error))
        {
          if (out_field != NULL)
            *out_field = checked_fields[i];
          return FALSE;
        }
    }

  if (out_field != NULL)
    *out_field = KISTE_CREATE_FIELD_NONE;

  return TRUE;
}

gboolean
kiste_create_options_validate (KisteCreateOptions  *self,
                               const char * const  *existing_names,
                               GError             **error)
{
  return kiste_create_options_validate_full (self, existing_names, NULL, error);
}

/* argv ------------------------------------------------------------------- */

char *
kiste_create_options_dup_flag_problem (KisteCapabilities *caps,
                                       const char        *flag)
{
  char *reason = NULL;

  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);
  g_return_val_if_fail (flag != NULL, NULL);

  if (caps != NULL && kiste_capabilities_get_loaded (caps))
    {
      if (kiste_capabilities_supports_create_flag (caps, flag) ||
          (g_str_equal (flag, "--unshare-home") && kiste_capabilities_can_isolate_home (caps)))
        return NULL;
      reason = kiste_capabilities_dup_unsupported_reason (caps, flag);
    }
  else if (!g_str_equal (flag, "--unshare-home"))
    return NULL;

  return reason ? reason : g_strdup (_("Not available in the installed distrobox"));
}

static gboolean
check_flag (KisteCapabilities  *caps,
            const char         *flag,
            GError            **error)
{
  g_autofree char *reason = kiste_create_options_dup_flag_problem (caps, flag);

  if (reason == NULL)
    return TRUE;

  g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
               _("The option “%s” cannot be used: %s."), flag, reason);
  return FALSE;
}

static gboolean
add_flag (GStrvBuilder       *builder,
          KisteCapabilities  *caps,
          const char         *flag,
          const char         *value,
          KisteCreateField    field,
          KisteCreateField   *out_field,
          GError            **error)
{
  if (!check_flag (caps, flag, error))
    {
      *out_field = field;
      return FALSE;
    }

  g_strv_builder_add (builder, flag);
  if (value != NULL)
    g_strv_builder_add (builder, value);

  return TRUE;
}

/* All package names as one space-separated word list */
static char *
join_packages (KisteCreateOptions *self)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; self->additional_packages[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit_set (self->additional_packages[i], " \t\n\r\f\v", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          if (words[j][0] == '\0')
            continue;
          if (joined->len > 0)
            g_string_append_c (joined, ' ');
          g_string_append (joined, words[j]);
        }
    }

  return g_string_free_and_steal (g_steal_pointer (&joined));
}

/* The argv of options whose fields were checked already */
static char **
build_argv (KisteCreateOptions  *self,
            KisteCapabilities   *caps,
            KisteCreateField    *out_field,
            GError             **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *packages = NULL;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  builder = g_strv_builder_new ();

  /* --yes: never stop at a prompt (there is no terminal to answer it) */
  g_strv_builder_add_many (builder, "distrobox", "create", "--yes", "--name", self->name, NULL);

  if (is_set (self->clone_source))
    {
      if (!add_flag (builder, caps, "--clone", self->clone_source,
                     KISTE_CREATE_FIELD_CLONE_SOURCE, &field, error))
        goto failed;
    }
  else
    g_strv_builder_add_many (builder, "--image", self->image, NULL);

  if ((is_set (self->hostname) &&
       !add_flag (builder, caps, "--hostname", self->hostname,
                  KISTE_CREATE_FIELD_HOSTNAME, &field, error)) ||
      (is_set (self->home) &&
       !add_flag (builder, caps, "--home", self->home,
                  KISTE_CREATE_FIELD_HOME, &field, error)) ||
      (is_set (self->platform) &&
       !add_flag (builder, caps, "--platform", self->platform,
                  KISTE_CREATE_FIELD_PLATFORM, &field, error)) ||
      (self->init &&
       !add_flag (builder, caps, "--init", NULL, KISTE_CREATE_FIELD_INIT, &field, error)) ||
      (self->nvidia &&
       !add_flag (builder, caps, "--nvidia", NULL, KISTE_CREATE_FIELD_NVIDIA, &field, error)) ||
      (self->pull &&
       !add_flag (builder, caps, "--pull", NULL, KISTE_CREATE_FIELD_PULL, &field, error)))
    goto failed;

  if (self->unshare_all)
    {
      if (!add_flag (builder, caps, "--unshare-all", NULL,
                     KISTE_CREATE_FIELD_UNSHARE_ALL, &field, error))
        goto failed;
    }
  else
    {
      for (guint i = 0; i < G_N_ELEMENTS (unshare_flags); i++)
        {
          if (self->unshare[unshare_flags[i].what] &&
              !add_flag (builder, caps, unshare_flags[i].flag, NULL,
                         unshare_flags[i].field, &field, error))
            goto failed;
        }
    }

  /* Explicit even with --unshare-all, which covers it only in patched
   * builds. Without the flag the home's mounts are taken out of the dry
   * run's command instead (kiste_create_options_get_isolates_home()). */
  if (self->unshare[KISTE_UNSHARE_HOME])
    {
      if (caps == NULL || !kiste_capabilities_get_loaded (caps) ||
          kiste_capabilities_supports_create_flag (caps, "--unshare-home"))
        {
          if (!add_flag (builder, caps, "--unshare-home", NULL,
                         KISTE_CREATE_FIELD_UNSHARE_HOME, &field, error))
            goto failed;
        }
      else if (!check_flag (caps, "--unshare-home", error))
        {
          field = KISTE_CREATE_FIELD_UNSHARE_HOME;
          goto failed;
        }
    }

  for (guint i = 0; self->volumes[i] != NULL; i++)
    {
      if (!add_flag (builder, caps, "--volume", self->volumes[i],
                     KISTE_CREATE_FIELD_VOLUMES, &field, error))
        goto failed;
    }

  packages = join_packages (self);
  if ((packages[0] != '\0' &&
       !add_flag (builder, caps, "--additional-packages", packages,
                  KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES, &field, error)) ||
      (is_set (self->init_hooks) &&
       !add_flag (builder, caps, "--init-hooks", self->init_hooks,
                  KISTE_CREATE_FIELD_INIT_HOOKS, &field, error)) ||
      (is_set (self->pre_init_hooks) &&
       !add_flag (builder, caps, "--pre-init-hooks", self->pre_init_hooks,
                  KISTE_CREATE_FIELD_PRE_INIT_HOOKS, &field, error)) ||
      (!self->add_to_menu &&
       !add_flag (builder, caps, "--no-entry", NULL, KISTE_CREATE_FIELD_ADD_TO_MENU, &field, error)))
    goto failed;

  /* A constant label, never people's text: distrobox puts this value into
   * a shell command line (distrobox.md) */
  if (self->temporary &&
      !add_flag (builder, caps, "--additional-flags", "--label " KISTE_BOX_TEMPORARY_LABEL "=1",
                 KISTE_CREATE_FIELD_NONE, &field, error))
    goto failed;

  return g_strv_builder_end (builder);

failed:
  if (out_field != NULL)
    *out_field = field;

  return NULL;
}

char **
kiste_create_options_to_argv_full (KisteCreateOptions  *self,
                                   KisteCapabilities   *caps,
                                   KisteCreateField    *out_field,
                                   GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  if (out_field != NULL)
    *out_field = KISTE_CREATE_FIELD_NONE;

  if (!kiste_create_options_validate_full (self, NULL, out_field, error))
    return NULL;

  return build_argv (self, caps, out_field, error);
}

char *
kiste_create_options_dup_command_text (KisteCreateOptions  *self,
                                       KisteCapabilities   *caps,
                                       const char * const  *argv)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) dry_run = NULL;
  g_autofree char *display = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (argv != NULL, NULL);

  if (!kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_HOME, caps))
    return kiste_argv_to_display_string (argv);

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) argv);
  g_strv_builder_add (builder, "--dry-run");
  dry_run = g_strv_builder_end (builder);
  display = kiste_argv_to_display_string ((const char * const *) dry_run);

  /* a comment, so the text can still be pasted into a shell */
  return g_strdup_printf ("%s\n# %s", display,
                          _("then the create command it prints runs without the mounts of "
                            "your home folder, with empty folders over /run/host/home"));
}

char **
kiste_create_options_check (KisteCreateOptions  *self,
                            const char * const  *existing_names,
                            KisteCapabilities   *caps,
                            GPtrArray          **problems,
                            KisteCreateField    *out_field,
                            GError             **error)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) first = NULL;
  KisteCreateField first_field = KISTE_CREATE_FIELD_NONE;
  char **argv = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  messages = g_ptr_array_new_full (KISTE_CREATE_FIELD_PLATFORM + 1, g_free);
  g_ptr_array_set_size (messages, KISTE_CREATE_FIELD_PLATFORM + 1);

  for (guint i = 0; i < G_N_ELEMENTS (checked_fields); i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (validate_field (self, checked_fields[i], existing_names, &local_error))
        continue;
      g_ptr_array_index (messages, checked_fields[i]) = g_strdup (local_error->message);
      if (first == NULL)
        {
          first = g_steal_pointer (&local_error);
          first_field = checked_fields[i];
        }
    }

  if (first == NULL)
    argv = build_argv (self, caps, &first_field, &first);

  if (out_field != NULL)
    *out_field = first_field;
  if (first != NULL)
    g_propagate_error (error, g_steal_pointer (&first));
  if (problems != NULL)
    *problems = g_steal_pointer (&messages);

  return argv;
}

char **
kiste_create_options_to_argv (KisteCreateOptions  *self,
                              KisteCapabilities   *caps,
                              GError             **error)
{
  return kiste_create_options_to_argv_full (self, caps, NULL, error);
}
