/* kiste-runner-op.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A command run to the end or streamed line by line: its pipes, its
 * timeout, cancelling it (the whole process group, after a grace), and
 * the error it ends with. */

#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-runner-state-private.h"
#include "kiste-spawn-private.h"

/* Running a command to the end */

typedef struct
{
  GInputStream *stream;
  /* everything read, when not streaming; else the line read so far */
  GByteArray   *collected;
  /* how much was read in all */
  guint64       n_read;
  guint         is_stderr : 1;
  guint         done : 1;
  /* streaming: the rest of a line too long to hand on goes */
  guint         skipping : 1;
} Pipe;

typedef struct
{
  GSubprocess     *subprocess;
  char           **argv;
  GCancellable    *io_cancellable;
  GSource         *timeout_source;
  GSource         *cancel_source;
  GSource         *kill_source;
  GSource         *drain_source;
  Pipe             out;
  Pipe             err;
  GQueue           err_ring;
  KisteLineFunc    line_func;
  gpointer         line_data;
  GDestroyNotify   line_data_destroy;
  char            *stdout_text;
  char            *stderr_text;
  char            *program;
  pid_t            pgid;
  guint            timeout_ms;
  guint            kill_grace_ms;
  gsize            output_limit;
  guint            in_flatpak : 1;
  guint            streaming : 1;
  /* stderr into the same pipe as stdout: lines in the order written */
  guint            merged : 1;
  guint            exited : 1;
  guint            terminating : 1;
  guint            killed : 1;
  guint            timed_out : 1;
  guint            cancelled : 1;
  /* it printed more than output_limit */
  guint            too_much : 1;
  guint            completed : 1;
} RunOp;

static void
clear_source (GSource **source)
{
  if (*source != NULL)
    {
      g_source_destroy (*source);
      g_clear_pointer (source, g_source_unref);
    }
}

static void
run_op_free (RunOp *op)
{
  _kiste_runner_live_groups_remove (op->pgid);
  clear_source (&op->timeout_source);
  clear_source (&op->cancel_source);
  clear_source (&op->kill_source);
  clear_source (&op->drain_source);

  if (op->line_data_destroy != NULL)
    g_clear_pointer (&op->line_data, op->line_data_destroy);

  g_clear_object (&op->out.stream);
  g_clear_object (&op->err.stream);
  g_clear_pointer (&op->out.collected, g_byte_array_unref);
  g_clear_pointer (&op->err.collected, g_byte_array_unref);
  g_queue_clear_full (&op->err_ring, g_free);
  g_clear_object (&op->subprocess);
  g_clear_object (&op->io_cancellable);
  g_clear_pointer (&op->argv, g_strfreev);
  g_clear_pointer (&op->stdout_text, g_free);
  g_clear_pointer (&op->stderr_text, g_free);
  g_clear_pointer (&op->program, g_free);
  g_free (op);
}

static GSource *
run_op_add_source (GTask       *task,
                   GSource     *source,
                   GSourceFunc  func,
                   const char  *name)
{
  g_source_set_callback (source, func, task, NULL);
  g_source_set_static_name (source, name);
  g_source_attach (source, g_task_get_context (task));

  return source;
}

static void
run_op_signal (RunOp *op,
               int    signum)
{
  if (op->pgid > 0)
    {
      if (!_kiste_runner_signal_group (op->pgid, signum) && errno != ESRCH)
        g_debug ("Could not signal process group %d: %s", (int) op->pgid, g_strerror (errno));
    }
  else if (!op->exited)
    {
      g_subprocess_send_signal (op->subprocess, signum);
    }
}

/* Takes the collected bytes: valid UTF-8 (the usual case) becomes the
 * text as it is, without a copy of megabytes of ps output. */
static char *
bytes_to_text (GByteArray **bytes)
{
  char *text;

  if (*bytes == NULL || (*bytes)->len == 0)
    return g_strdup ("");

  if (!g_utf8_validate_len ((const char *) (*bytes)->data, (*bytes)->len, NULL))
    return g_utf8_make_valid ((const char *) (*bytes)->data, (*bytes)->len);

  g_byte_array_append (*bytes, (const guint8 *) "", 1);
  text = (char *) g_byte_array_free (g_steal_pointer (bytes), FALSE);
  return text;
}

static char *
run_op_dup_stderr_tail (RunOp *op)
{
  g_autofree const char **lines = NULL;
  g_auto(GStrv) split = NULL;
  guint i = 0;

  if (!op->streaming)
    {
      if (op->stderr_text == NULL)
        return NULL;

      split = g_strsplit (op->stderr_text, "\n", -1);
      return _kiste_runner_format_stderr_tail ((const char * const *) split);
    }

  lines = g_new0 (const char *, op->err_ring.length + 1);
  for (GList *l = op->err_ring.head; l != NULL; l = l->next)
    lines[i++] = l->data;

  return _kiste_runner_format_stderr_tail (lines);
}

/* flatpak-spawn reports a host program it could not start as
 * "Portal call failed: Failed to execute child process …" and exits 1. */
static gboolean
host_program_missing (RunOp *op,
                      int    exit_status)
{
  g_autofree char *tail = NULL;

  if (!op->in_flatpak || exit_status != 1)
    return FALSE;

  tail = run_op_dup_stderr_tail (op);

  return tail != NULL &&
         strstr (tail, "Portal call failed") != NULL &&
         strstr (tail, "No such file or directory") != NULL;
}

static GError *
run_op_dup_status_error (RunOp *op)
{
  g_autofree char *command = _kiste_runner_dup_command_for_message ((const char * const *) op->argv);
  g_autofree char *tail = run_op_dup_stderr_tail (op);
  g_autofree char *message = NULL;
  KisteError code = KISTE_ERROR_COMMAND_FAILED;

  if (g_subprocess_get_if_signaled (op->subprocess))
    {
      int signum = g_subprocess_get_term_sig (op->subprocess);

      message = g_strdup_printf (_("“%s” was stopped by signal %d (%s)"),
                                 command, signum, g_strsignal (signum));
    }
  else
    {
      int status = g_subprocess_get_exit_status (op->subprocess);

      if (status == 0)
        return NULL;

      if (status == 127)
        {
          code = KISTE_ERROR_TOOL_MISSING;
          message = g_strdup_printf (_("“%s” could not find a program it needs (exit status 127)"),
                                     op->program);
        }
      else if (host_program_missing (op, status))
        {
          code = KISTE_ERROR_TOOL_MISSING;
          message = g_strdup_printf (_("The program “%s” was not found on the host system. "
                                       "Make sure it is installed."),
                                     op->program);
        }
      else
        {
          message = g_strdup_printf (_("“%s” failed (exit status %d)"), command, status);
        }
    }

  if (tail != NULL)
    {
      g_autofree char *with_tail = g_strconcat (message,
                                                strchr (tail, '\n') != NULL ? ":\n" : ": ",
                                                tail,
                                                NULL);

      g_set_str (&message, with_tail);
    }

  return g_error_new_literal (KISTE_ERROR, code, message);
}

static void
run_op_maybe_complete (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);
  GError *error;

  if (op->completed || !op->exited || !op->out.done || !op->err.done)
    return;

  op->completed = TRUE;

  clear_source (&op->timeout_source);
  clear_source (&op->cancel_source);
  clear_source (&op->kill_source);
  clear_source (&op->drain_source);

  if (!op->streaming)
    {
      op->stdout_text = bytes_to_text (&op->out.collected);
      op->stderr_text = bytes_to_text (&op->err.collected);
    }

  if (op->cancelled && g_task_return_error_if_cancelled (task))
    return;

  if (op->too_much)
    {
      g_autofree char *command = _kiste_runner_dup_command_for_message ((const char * const *) op->argv);
      guint megabytes = MAX (1, op->output_limit / (1024 * 1024));

      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                               _("“%s” printed more than %u MB, so it was stopped"),
                               command, megabytes);
      return;
    }

  if (op->timed_out)
    {
      g_autofree char *command = _kiste_runner_dup_command_for_message ((const char * const *) op->argv);
      guint seconds = MAX (1, (op->timeout_ms + 999) / 1000);

      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_TIMED_OUT,
                               ngettext ("“%s” did not finish within %u second",
                                         "“%s” did not finish within %u seconds",
                                         seconds),
                               command, seconds);
      return;
    }

  error = run_op_dup_status_error (op);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static gboolean
run_op_drain_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->drain_source);
  g_cancellable_cancel (op->io_cancellable);

  return G_SOURCE_REMOVE;
}

static void
run_op_start_drain (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->drain_source != NULL || (op->out.done && op->err.done))
    return;

  op->drain_source = run_op_add_source (task, g_timeout_source_new (DRAIN_GRACE_MS),
                                        run_op_drain_cb, "[kiste] runner drain");
}

static gboolean
run_op_kill_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->kill_source);
  op->killed = TRUE;
  run_op_signal (op, SIGKILL);

  if (op->exited)
    run_op_start_drain (task);

  return G_SOURCE_REMOVE;
}

static void
run_op_terminate (GTask *task)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->terminating)
    return;

  op->terminating = TRUE;

  if (op->exited && op->pgid <= 0)
    {
      run_op_start_drain (task);
      return;
    }

  /* flatpak-spawn passes SIGINT on to the whole host process group but
   * SIGTERM only to its leader, and cannot pass SIGKILL at all. */
  run_op_signal (op, op->in_flatpak ? SIGINT : SIGTERM);

  op->kill_source = run_op_add_source (task, g_timeout_source_new (op->kill_grace_ms),
                                       run_op_kill_cb, "[kiste] runner kill");
}

static gboolean
run_op_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->timeout_source);

  if (!op->cancelled)
    op->timed_out = TRUE;

  run_op_terminate (task);

  return G_SOURCE_REMOVE;
}

static gboolean
run_op_cancelled_cb (GCancellable *cancellable,
                     gpointer      user_data)
{
  GTask *task = user_data;
  RunOp *op = g_task_get_task_data (task);

  clear_source (&op->cancel_source);

  if (!op->timed_out)
    op->cancelled = TRUE;

  run_op_terminate (task);

  return G_SOURCE_REMOVE;
}

static void
run_op_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error))
    g_debug ("Waiting for “%s” failed: %s", op->program, error->message);

  op->exited = TRUE;

  /* While a polite stop is pending, the rest of the group may still be
   * shutting down; the kill timer deals with them. */
  if (!op->terminating || op->killed || op->pgid <= 0)
    {
      clear_source (&op->kill_source);
      run_op_start_drain (task);
    }

  run_op_maybe_complete (task);
}

static Pipe *
run_op_get_pipe (RunOp   *op,
                 GObject *stream)
{
  return (GObject *) op->out.stream == stream ? &op->out : &op->err;
}

static void run_op_read_next (GTask *task,
                              Pipe  *pipe);

static void
run_op_pipe_done (GTask  *task,
                  Pipe   *pipe,
                  GError *error)
{
  RunOp *op = g_task_get_task_data (task);

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Reading from “%s” failed: %s", op->program, error->message);

  pipe->done = TRUE;
  run_op_maybe_complete (task);
}

static void
run_op_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  Pipe *pipe = run_op_get_pipe (op, object);
  g_autoptr(GError) error = NULL;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);

  /* the chunk was reserved at the end of the array: keep what came */
  g_byte_array_set_size (pipe->collected, pipe->collected->len - READ_CHUNK_SIZE + MAX (n, 0));

  if (n <= 0)
    {
      run_op_pipe_done (task, pipe, error);
      return;
    }

  /* whatever a box prints, only so much of it is kept */
  pipe->n_read += n;
  if (op->out.n_read + op->err.n_read > op->output_limit)
    {
      if (!op->cancelled && !op->timed_out)
        op->too_much = TRUE;
      g_byte_array_set_size (pipe->collected, 0);
      run_op_terminate (task);
      run_op_pipe_done (task, pipe, NULL);
      return;
    }

  run_op_read_next (task, pipe);
}

static void
run_op_handle_line (GTask      *task,
                    Pipe       *pipe,
                    const char *raw,
                    gsize       length)
{
  RunOp *op = g_task_get_task_data (task);
  g_autofree char *line = g_utf8_make_valid (raw, length);

  /* merged: any line may say what went wrong */
  if (pipe->is_stderr || op->merged)
    {
      gsize len = strlen (line);
      const char *keep = line;

      if (len > RING_LINE_MAX_BYTES)
        {
          keep = line + len - RING_LINE_MAX_BYTES;
          while (*keep != '\0' && (*keep & 0xc0) == 0x80)
            keep++;
        }

      g_queue_push_tail (&op->err_ring, g_strdup (keep));
      if (op->err_ring.length > STDERR_RING_LINES)
        g_free (g_queue_pop_head (&op->err_ring));
    }

  /* Once the caller has given up on the command, it wants no more lines
   * (also from the chunk read before it did) */
  if (op->line_func != NULL && !op->cancelled && !op->timed_out &&
      !g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    op->line_func (line, pipe->is_stderr, op->line_data);
}

/* Only "\n" ends a line, so "\r" progress stays inside one; a line longer
 * than KISTE_RUNNER_LINE_LIMIT is handed on cut, its rest dropped */
static void
run_op_split_lines (GTask        *task,
                    Pipe         *pipe,
                    const guint8 *data,
                    gsize         length)
{
  GByteArray *partial = pipe->collected;

  while (length > 0)
    {
      const guint8 *newline = memchr (data, '\n', length);
      gsize part = newline ? (gsize) (newline - data) : length;

      if (pipe->skipping)
        {
          if (newline != NULL)
            pipe->skipping = FALSE;
        }
      else
        {
          gsize room = KISTE_RUNNER_LINE_LIMIT - partial->len;

          g_byte_array_append (partial, data, MIN (part, room));
          if (newline != NULL || part >= room)
            {
              run_op_handle_line (task, pipe, (const char *) partial->data, partial->len);
              g_byte_array_set_size (partial, 0);
              pipe->skipping = newline == NULL;
            }
        }

      if (newline == NULL)
        break;
      data += part + 1;
      length -= part + 1;
    }
}

static void
run_op_read_chunk_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  RunOp *op = g_task_get_task_data (task);
  Pipe *pipe = run_op_get_pipe (op, object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  gsize length = 0;
  const guint8 *data;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  data = bytes ? g_bytes_get_data (bytes, &length) : NULL;

  if (length == 0)
    {
      /* the last line, without its newline */
      if (pipe->collected->len > 0 && !pipe->skipping)
        run_op_handle_line (task, pipe, (const char *) pipe->collected->data, pipe->collected->len);
      g_byte_array_set_size (pipe->collected, 0);
      run_op_pipe_done (task, pipe, error);
      return;
    }

  run_op_split_lines (task, pipe, data, length);
  run_op_read_next (task, pipe);
}

static void
run_op_read_next (GTask *task,
                  Pipe  *pipe)
{
  RunOp *op = g_task_get_task_data (task);

  if (op->streaming)
    g_input_stream_read_bytes_async (pipe->stream,
                                     READ_CHUNK_SIZE,
                                     G_PRIORITY_DEFAULT,
                                     op->io_cancellable,
                                     run_op_read_chunk_cb,
                                     g_object_ref (task));
  else
    {
      guint len = pipe->collected->len;

      /* straight into the collected bytes: no chunk copied twice */
      g_byte_array_set_size (pipe->collected, len + READ_CHUNK_SIZE);
      g_input_stream_read_async (pipe->stream,
                                 pipe->collected->data + len,
                                 READ_CHUNK_SIZE,
                                 G_PRIORITY_DEFAULT,
                                 op->io_cancellable,
                                 run_op_read_cb,
                                 g_object_ref (task));
    }
}

static void
run_op_setup_pipe (RunOp        *op,
                   Pipe         *pipe,
                   GInputStream *stream,
                   gboolean      is_stderr)
{
  pipe->is_stderr = !!is_stderr;

  /* A fake spawn may hand back a process without our pipes */
  if (stream == NULL)
    {
      pipe->done = TRUE;
      return;
    }

  pipe->stream = g_object_ref (stream);
  pipe->collected = g_byte_array_new ();
}

static GError *
dup_spawn_error (RunOp  *op,
                 GError *error)
{
  g_autofree char *command = NULL;

  if (error == NULL)
    return g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                        _("Could not run “%s”"), op->program);

  if (g_error_matches (error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT))
    {
      return g_error_new (KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                          _("The program “%s” was not found. Make sure it is installed."),
                          op->in_flatpak ? "flatpak-spawn" : op->program);
    }

  if (error->domain != G_SPAWN_ERROR)
    return g_error_copy (error);

  command = _kiste_runner_dup_command_for_message ((const char * const *) op->argv);
  return g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                      _("Could not run “%s”: %s"), command, error->message);
}

static void
kiste_runner_start (KisteRunner         *self,
                    const char          *cwd,
                    const char * const  *argv,
                    guint                timeout_ms,
                    gboolean             streaming,
                    KisteLineFunc        line_func,
                    gpointer             line_data,
                    GDestroyNotify       line_data_destroy,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data,
                    gpointer             source_tag)
{
  KisteRunnerPrivate *priv = _kiste_runner_get_private (self);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  RunOp *op;

  op = g_new0 (RunOp, 1);
  op->argv = g_strdupv ((char **) argv);
  op->program = g_path_get_basename (argv[0]);
  op->timeout_ms = timeout_ms;
  op->kill_grace_ms = priv->kill_grace_ms;
  op->output_limit = priv->output_limit;
  op->in_flatpak = priv->in_flatpak;
  op->streaming = !!streaming;
  op->merged = source_tag == kiste_runner_stream_merged_async;
  op->line_func = line_func;
  op->line_data = line_data;
  op->line_data_destroy = line_data_destroy;
  op->io_cancellable = g_cancellable_new ();
  g_queue_init (&op->err_ring);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) run_op_free);

  if (g_task_return_error_if_cancelled (task))
    return;

  /* the spawn (ours or a test's) reads the folder from the runner */
  {
    g_autofree char *runner_cwd = cwd ? g_steal_pointer (&priv->cwd) : NULL;

    if (cwd != NULL)
      priv->cwd = g_strdup (cwd);
    op->subprocess = kiste_runner_spawn (self, argv,
                                         G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                         (op->merged ? G_SUBPROCESS_FLAGS_STDERR_MERGE
                                                     : G_SUBPROCESS_FLAGS_STDERR_PIPE),
                                         &error);
    if (cwd != NULL)
      {
        g_free (priv->cwd);
        priv->cwd = g_steal_pointer (&runner_cwd);
      }
  }
  if (op->subprocess == NULL)
    {
      g_task_return_error (task, dup_spawn_error (op, error));
      return;
    }

  /* Only signal a group we know the child leads: a fake spawn may not
   * have made one, and then the group would be ours. */
  op->pgid = _kiste_spawn_get_own_group (op->subprocess);
  _kiste_runner_live_groups_add (op->pgid);

  run_op_setup_pipe (op, &op->out, g_subprocess_get_stdout_pipe (op->subprocess), FALSE);
  run_op_setup_pipe (op, &op->err, g_subprocess_get_stderr_pipe (op->subprocess), TRUE);

  g_subprocess_wait_async (op->subprocess, NULL, run_op_wait_cb, g_object_ref (task));

  if (!op->out.done)
    run_op_read_next (task, &op->out);
  if (!op->err.done)
    run_op_read_next (task, &op->err);

  if (timeout_ms > 0)
    op->timeout_source = run_op_add_source (task, g_timeout_source_new (timeout_ms),
                                            run_op_timeout_cb, "[kiste] runner timeout");

  if (cancellable != NULL)
    op->cancel_source = run_op_add_source (task, g_cancellable_source_new (cancellable),
                                           G_SOURCE_FUNC (run_op_cancelled_cb),
                                           "[kiste] runner cancel");
}

void
kiste_runner_run_async (KisteRunner         *self,
                        const char * const  *argv,
                        guint                timeout_ms,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, NULL, argv, timeout_ms, FALSE, NULL, NULL, NULL,
                      cancellable, callback, user_data, kiste_runner_run_async);
}

gboolean
kiste_runner_run_finish (KisteRunner   *self,
                         GAsyncResult  *result,
                         char         **stdout_buf,
                         char         **stderr_buf,
                         GError       **error)
{
  RunOp *op;

  g_return_val_if_fail (KISTE_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_runner_run_async, FALSE);

  op = g_task_get_task_data (G_TASK (result));

  /* Handed over, not copied: a result is finished once */
  if (stdout_buf != NULL)
    *stdout_buf = op->stdout_text ? g_steal_pointer (&op->stdout_text) : NULL;
  if (stderr_buf != NULL)
    *stderr_buf = op->stderr_text ? g_strdup (op->stderr_text) : NULL;

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
kiste_runner_stream_async (KisteRunner         *self,
                           const char * const  *argv,
                           guint                timeout_ms,
                           KisteLineFunc        line_func,
                           gpointer             line_data,
                           GDestroyNotify       line_data_destroy,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, NULL, argv, timeout_ms, TRUE, line_func, line_data, line_data_destroy,
                      cancellable, callback, user_data, kiste_runner_stream_async);
}

void
kiste_runner_stream_merged_async (KisteRunner         *self,
                                  const char * const  *argv,
                                  guint                timeout_ms,
                                  KisteLineFunc        line_func,
                                  gpointer             line_data,
                                  GDestroyNotify       line_data_destroy,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, NULL, argv, timeout_ms, TRUE, line_func, line_data, line_data_destroy,
                      cancellable, callback, user_data, kiste_runner_stream_merged_async);
}

void
kiste_runner_run_in_async (KisteRunner         *self,
                           const char          *cwd,
                           const char * const  *argv,
                           guint                timeout_ms,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (cwd == NULL || g_path_is_absolute (cwd));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, cwd, argv, timeout_ms, FALSE, NULL, NULL, NULL,
                      cancellable, callback, user_data, kiste_runner_run_async);
}

void
kiste_runner_stream_merged_in_async (KisteRunner         *self,
                                     const char          *cwd,
                                     const char * const  *argv,
                                     guint                timeout_ms,
                                     KisteLineFunc        line_func,
                                     gpointer             line_data,
                                     GDestroyNotify       line_data_destroy,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (KISTE_IS_RUNNER (self));
  g_return_if_fail (cwd == NULL || g_path_is_absolute (cwd));
  g_return_if_fail (argv != NULL && argv[0] != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  kiste_runner_start (self, cwd, argv, timeout_ms, TRUE, line_func, line_data, line_data_destroy,
                      cancellable, callback, user_data, kiste_runner_stream_merged_async);
}

gboolean
kiste_runner_stream_finish (KisteRunner   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_runner_stream_async ||
                        g_task_get_source_tag (G_TASK (result)) == kiste_runner_stream_merged_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
