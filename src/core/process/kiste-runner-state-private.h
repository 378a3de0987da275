/* kiste-runner-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The runner's settings and what its files share:
 * kiste-runner.c     the object, its environment, argv and spawning,
 *                    the text of commands and their errors
 * kiste-runner-op.c  a command run to the end or streamed: pipes,
 *                    timeouts, cancelling, the error it ends with */

#pragma once

#include <sys/types.h>

#include "kiste-runner.h"
#include "kiste-runner-private.h"

G_BEGIN_DECLS

#define STDERR_RING_LINES       20
#define RING_LINE_MAX_BYTES     2000
#define TAIL_MAX_LINES          5
#define TAIL_MAX_CHARS          1000
#define COMMAND_DISPLAY_MAX     160
/* A pipe holds 64 KiB: a big ps output arrives in few main-loop turns */
#define READ_CHUNK_SIZE         65536
#define DEFAULT_KILL_GRACE_MS   1500
/* A background process may keep our pipes open after the command itself
 * exited; read what is left for this long, then stop waiting for EOF. */
#define DRAIN_GRACE_MS          1000

typedef struct
{
  char        *manager;
  char        *cwd;
  char        *flatpak_spawn;
  char       **extra_env;
  GHashTable  *dropped_env;
  guint        kill_grace_ms;
  gsize        output_limit;
  guint        in_flatpak : 1;
} KisteRunnerPrivate;

/* kiste-runner.c */
KisteRunnerPrivate *_kiste_runner_get_private             (KisteRunner         *self);
/* The command as quoted inside an error message, shortened */
char               *_kiste_runner_dup_command_for_message (const char * const  *argv);
/* Process groups of the commands still running, for
 * kiste_runner_terminate_all() */
void                _kiste_runner_live_groups_add         (pid_t                pgid);
void                _kiste_runner_live_groups_remove      (pid_t                pgid);
gboolean            _kiste_runner_signal_group            (pid_t                pgid,
                                                           int                  signum);

G_END_DECLS
