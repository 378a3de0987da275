/* kiste-create-options.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a new box should be: KisteCreateOptions, its properties and its
 * "changed" signal, copies, options taken from a box. */

#include "config.h"

#include <string.h>

#include "kiste-create-options-private.h"

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

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

    case PROP_TEMPORARY:
      g_value_set_boolean (value, self->temporary);
      break;

    case PROP_TOOL:
      g_value_set_int (value, self->tool);
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

    case PROP_TEMPORARY:
      kiste_create_options_set_temporary (self, g_value_get_boolean (value));
      break;

    case PROP_TOOL:
      kiste_create_options_set_tool (self, g_value_get_int (value));
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
  properties[PROP_TEMPORARY] = boolean_pspec ("temporary");
  /* a KisteBoxTool */
  properties[PROP_TOOL] =
    g_param_spec_int ("tool", NULL, NULL, KISTE_BOX_TOOL_DISTROBOX, KISTE_BOX_TOOL_TOOLBX,
                      KISTE_BOX_TOOL_DISTROBOX,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

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
  copy->tool = self->tool;

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

void
_kiste_create_options_notify (KisteCreateOptions *self,
                              guint               prop_id)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}
