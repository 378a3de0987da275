/* kiste-runner.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define KISTE_TYPE_RUNNER (kiste_runner_get_type ())

G_DECLARE_DERIVABLE_TYPE (KisteRunner, kiste_runner, KISTE, RUNNER, GObject)

/* Called once per line of output (without the newline) while a streamed
 * command runs, on the thread-default main context of the caller. */
typedef void (*KisteLineFunc) (const char *line,
                               gboolean    is_stderr,
                               gpointer    user_data);

struct _KisteRunnerClass
{
  GObjectClass parent_class;

  /* Every host process goes through here: tests override it to record
   * argv or to point it at fake manager scripts. The default wraps argv
   * for the Flatpak sandbox and applies the sanitised environment. */
  GSubprocess *(*spawn) (KisteRunner         *self,
                         const char * const  *argv,
                         GSubprocessFlags     flags,
                         GError             **error);
};

KisteRunner  *kiste_runner_new                  (void);

/* argv as one line for people to read (error messages, "Show command"):
 * arguments with spaces or shell characters are single-quoted. Never run it. */
char         *kiste_argv_to_display_string      (const char * const  *argv);
guint         kiste_runner_terminate_all        (void);

/* text without terminal escape sequences (colours, cursor movement, OSC
 * titles and folders), as valid UTF-8; carriage returns stay. */
char         *kiste_strip_terminal_escapes      (const char          *text);

/* Engine passed as DBX_CONTAINER_MANAGER to every call ("podman", "docker") */
const char   *kiste_runner_get_manager          (KisteRunner         *self);
void          kiste_runner_set_manager          (KisteRunner         *self,
                                                 const char          *manager);

/* TRUE when commands must reach the host through flatpak-spawn. Detected
 * from /.flatpak-info; tests may force it either way. */
gboolean      kiste_runner_get_in_flatpak       (KisteRunner         *self);
void          kiste_runner_set_in_flatpak       (KisteRunner         *self,
                                                 gboolean             in_flatpak);

/* Working directory for host commands (default: the user's home). */
void          kiste_runner_set_cwd              (KisteRunner         *self,
                                                 const char          *cwd);
const char   *kiste_runner_get_cwd              (KisteRunner         *self);

/* Extra environment for host commands, on top of the sanitised one.
 * A NULL value drops the variable again (and keeps ours from leaking). */
void          kiste_runner_setenv               (KisteRunner         *self,
                                                 const char          *variable,
                                                 const char          *value);

/* The environment host commands get: ours, minus what must not leak into
 * boxes (LD_PRELOAD, GTK_*, GDK_*, GIO_*, …), plus DBX_CONTAINER_MANAGER,
 * DBX_NON_INTERACTIVE and whatever kiste_runner_setenv() added. */
char        **kiste_runner_dup_environ          (KisteRunner         *self);

/* The argv that actually runs: argv itself natively, or wrapped in
 * flatpak-spawn --host --watch-bus --env=… --directory=… in a sandbox. */
char        **kiste_runner_build_argv           (KisteRunner         *self,
                                                 const char * const  *argv);

GSubprocess  *kiste_runner_spawn                (KisteRunner         *self,
                                                 const char * const  *argv,
                                                 GSubprocessFlags     flags,
                                                 GError             **error);

/* What a command run to the end may print at most, stdout and stderr
 * together (a box prints what it likes), and the longest line handed to a
 * KisteLineFunc (longer lines are cut there, the rest of them dropped) */
#define KISTE_RUNNER_OUTPUT_LIMIT   (64 * 1024 * 1024)
#define KISTE_RUNNER_LINE_LIMIT     (64 * 1024)

/* Runs argv to completion with stdin from /dev/null, collecting stdout and
 * stderr. Output beyond KISTE_RUNNER_OUTPUT_LIMIT stops the command with
 * KISTE_ERROR_BAD_OUTPUT. A non-zero exit becomes KISTE_ERROR_COMMAND_FAILED whose message
 * holds the tail of stderr; exit 127 or a missing program is
 * KISTE_ERROR_TOOL_MISSING; timeout_ms > 0 kills the command and returns
 * KISTE_ERROR_TIMED_OUT; cancelling kills it too.
 * stdout_buf and stderr_buf (valid UTF-8) are filled whenever the command
 * ran, also when it failed; they are NULL only if it never started. */
void          kiste_runner_run_async            (KisteRunner         *self,
                                                 const char * const  *argv,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean      kiste_runner_run_finish           (KisteRunner         *self,
                                                 GAsyncResult        *result,
                                                 char               **stdout_buf,
                                                 char               **stderr_buf,
                                                 GError             **error);

/* Like run, but hands every line of stdout and stderr to line_func as it
 * arrives (for pulls, upgrades, logs), each at most KISTE_RUNNER_LINE_LIMIT
 * bytes. Output is not collected, except the tail of stderr for the error
 * message. timeout_ms 0 means no timeout. */
void          kiste_runner_stream_async         (KisteRunner         *self,
                                                 const char * const  *argv,
                                                 guint                timeout_ms,
                                                 KisteLineFunc        line_func,
                                                 gpointer             line_data,
                                                 GDestroyNotify       line_data_destroy,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
/* Like stream, with stderr in the same pipe as stdout, so lines come in the
 * order the command wrote them (as stdout lines; the error message quotes
 * the last ones). For output people read as one story: a create with its
 * pull, a box's log. Finish with kiste_runner_stream_finish(). */
void          kiste_runner_stream_merged_async  (KisteRunner         *self,
                                                 const char * const  *argv,
                                                 guint                timeout_ms,
                                                 KisteLineFunc        line_func,
                                                 gpointer             line_data,
                                                 GDestroyNotify       line_data_destroy,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
/* The same in the folder cwd (the host's) instead of the runner's: for a
 * command that must not see the user's files around it (distrobox create
 * evals words that a shell would glob). NULL is the runner's folder. */
void          kiste_runner_run_in_async         (KisteRunner         *self,
                                                 const char          *cwd,
                                                 const char * const  *argv,
                                                 guint                timeout_ms,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
void          kiste_runner_stream_merged_in_async (KisteRunner         *self,
                                                   const char          *cwd,
                                                   const char * const  *argv,
                                                   guint                timeout_ms,
                                                   KisteLineFunc        line_func,
                                                   gpointer             line_data,
                                                   GDestroyNotify       line_data_destroy,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean      kiste_runner_stream_finish        (KisteRunner         *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
