/* kiste-spawn-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef enum
{
  /* a process group of its own, ended when Kiste dies */
  KISTE_SPAWN_GROUP,
  /* a session of its own */
  KISTE_SPAWN_SESSION,
  /* a session with standard input as its controlling terminal */
  KISTE_SPAWN_TERMINAL,
} KisteSpawnMode;

const char  *_kiste_spawn_get_helper (void);
GSubprocess *_kiste_spawn            (GSubprocessLauncher *launcher,
                                      GSubprocessFlags     flags,
                                      const char * const  *env,
                                      const char          *cwd,
                                      KisteSpawnMode       mode,
                                      const char * const  *argv,
                                      GError             **error);
pid_t        _kiste_spawn_get_own_group (GSubprocess      *subprocess);

G_END_DECLS
