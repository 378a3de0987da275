/* kiste-create-options-accessors.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create options' getters and setters: one spelling for "unset",
 * home folders and volumes as people type them, the unshare options
 * and what they imply. */

#include "config.h"

#include <string.h>

#include "kiste-create-flags.h"
#include "kiste-create-options-private.h"
#include "kiste-validate.h"

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
    _kiste_create_options_notify (self, prop_id);
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
      _kiste_create_options_notify (self, prop_id);
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
  if (_kiste_create_options_is_set (home))
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

  set_boolean (self, &self->temporary, temporary, PROP_TEMPORARY);
}

KisteBoxTool
kiste_create_options_get_tool (KisteCreateOptions *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), KISTE_BOX_TOOL_DISTROBOX);

  return self->tool;
}

void
kiste_create_options_set_tool (KisteCreateOptions *self,
                               KisteBoxTool        tool)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (self));
  g_return_if_fail (tool == KISTE_BOX_TOOL_DISTROBOX || tool == KISTE_BOX_TOOL_TOOLBX);

  if (self->tool == tool)
    return;
  self->tool = tool;
  _kiste_create_options_notify (self, PROP_TOOL);
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
  _kiste_create_options_notify (self, prop_id);
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
       kiste_create_flag_is_supported (kiste_create_flags_find_unshare (what), caps)))
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
