/* kiste-capabilities-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The capabilities' state and the functions their files share:
 * kiste-capabilities.c          the object, its getters, flag reasons
 * kiste-capabilities-parse.c    parsers of what the tools print
 * kiste-capabilities-refresh.c  probing the host, applying the results */

#pragma once

#include "kiste-capabilities-private.h"

G_BEGIN_DECLS

struct _KisteCapabilities
{
  GObject       parent_instance;

  KisteRunner  *runner;
  char        **config_files;       /* NULL: distrobox's own list */
  char         *last_path_dir;      /* searched after the host's PATH */

  guint         started_serial;
  guint         applied_serial;

  char         *distrobox_version;
  char         *podman_version;
  char         *docker_version;
  char         *toolbox_version;
  char         *manager;
  char         *manager_source;
  char         *distrobox_problem;
  char         *manager_problem;
  char        **create_flags;       /* sorted */
  guint         distrobox_major;
  int           problem_code;       /* KisteError of the first problem */

  guint         loaded : 1;
  guint         has_distrobox : 1;
  guint         has_podman : 1;
  guint         has_docker : 1;
  guint         has_toolbox : 1;
  guint         distrobox_is_own : 1;   /* found in last_path_dir only */
};

void _kiste_capabilities_notify_all      (KisteCapabilities *self);
void _kiste_capabilities_clear_results   (KisteCapabilities *self);
int  _kiste_capabilities_compare_strings (gconstpointer      a,
                                          gconstpointer      b);

G_END_DECLS
