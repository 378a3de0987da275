/* kiste-create-options-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the create options' files share:
 * kiste-create-options.c            the GObject, its properties, copies
 * kiste-create-options-accessors.c  getters and setters
 * kiste-create-options-check.c      validation and the create argv */

#pragma once

#include "kiste-create-options.h"

G_BEGIN_DECLS

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
  /* the tool that makes the box */
  KisteBoxTool tool;
};

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
  PROP_TEMPORARY,
  PROP_TOOL,
  N_PROPS
};

G_STATIC_ASSERT (PROP_UNSHARE_HOME - PROP_UNSHARE_DEVSYS == KISTE_UNSHARE_HOME - KISTE_UNSHARE_DEVSYS);
G_STATIC_ASSERT (PROP_UNSHARE_HOME - PROP_UNSHARE_DEVSYS + 1 == KISTE_N_UNSHARE);

static inline gboolean
_kiste_create_options_is_set (const char *str)
{
  return str != NULL && str[0] != '\0';
}

void _kiste_create_options_notify (KisteCreateOptions *self,
                                   guint               prop_id);

G_END_DECLS
