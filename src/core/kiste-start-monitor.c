/* kiste-start-monitor.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "kiste-commands.h"
#include "kiste-error.h"
#include "kiste-start-monitor-private.h"

#define DEFAULT_TIMEOUT_MS        (10 * 60 * 1000)
#define DEFAULT_WATCH_INTERVAL_MS 1000
/* Queries of the box's state that take longer are skipped, not fatal. */
#define STATE_TIMEOUT_MS          (15 * 1000)
/* After the box is seen stopped, its last log lines may still be on their
 * way; an "Error:" among them explains more than "it stopped". */
#define DEATH_GRACE_MS            1500
#define N_LAST_LINES              8
/* Output lines after which a step has gone half its way: a first start's
 * package phase prints about a thousand */
#define STEP_HALF_LINES           150

struct _KisteStartMonitor
{
  GObject       parent_instance;

  KisteRunner  *runner;
  char         *box_name;
  char         *manager;
  char         *step;
  double        fraction;
  /* Where the current step began and where the next one begins: output
   * within a step (the package manager's) moves the bar between them */
  double        step_start;
  double        step_end;
  guint         step_lines;
  guint         timeout_ms;
  guint         watch_interval_ms;
  guint         init : 1;
  guint         blind_start : 1;
  guint         follow_only : 1;

  /* The start being followed; NULL when idle. */
  GTask        *task;
  /* Cancels this run's processes without touching the caller's. */
  GCancellable *run_cancellable;
  GSource      *cancel_source;
  GSource      *timeout_source;
  GSource      *watch_source;
  GSource      *grace_source;
  GQueue        last_lines;
  /* Bumped when a run ends, so that late callbacks of it do nothing. */
  guint         generation;
  guint         state_pending : 1;
  guint         box_stopped : 1;
  guint         stream_ended : 1;
  /* Started without a log to follow: running is all there is to wait for. */
  guint         blind : 1;
};

G_DEFINE_FINAL_TYPE (KisteStartMonitor, kiste_start_monitor, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_BOX_NAME,
  PROP_MANAGER,
  PROP_STEP,
  PROP_FRACTION,
  PROP_INIT,
  PROP_TIMEOUT,
  PROP_BLIND_START,
  N_PROPS
};

enum {
  SIGNAL_LINE,
  SIGNAL_WARNING,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct
{
  const char *marker;   /* the text after "distrobox: " */
  gboolean    prefix;   /* marker is only the beginning of the text */
  const char *text;     /* for people */
  double      fraction; /* reached when the step begins, without init */
  gboolean    init_only;
} Step;

/* In the order distrobox-init prints them. Installing packages is by far
 * the longest part of a first start, hence its share. */
static const Step steps[] = {
  { "Executing pre-init hooks...", FALSE, N_("Running the pre-init hooks…"), 0.02, FALSE },
  { "Installing basic packages...", FALSE, N_("Installing basic packages…"), 0.05, FALSE },
  { "Setting up devpts mounts...", FALSE, N_("Setting up terminal devices…"), 0.70, FALSE },
  { "Setting up read-only mounts...", FALSE, N_("Setting up read-only mounts…"), 0.72, FALSE },
  { "Setting up read-write mounts...", FALSE, N_("Setting up read-write mounts…"), 0.74, FALSE },
  { "Skipping /var/home bind mount", TRUE, N_("Setting up read-write mounts…"), 0.74, FALSE },
  { "Setting up host's sockets integration...", FALSE, N_("Connecting the host’s sockets…"), 0.76, FALSE },
  { "Setting up host's nvidia integration...", FALSE, N_("Setting up the NVIDIA drivers…"), 0.78, FALSE },
  { "Integrating host's themes, icons, fonts...", FALSE, N_("Adding the host’s themes, icons and fonts…"), 0.80, FALSE },
  { "Setting up distrobox profile...", FALSE, N_("Setting up the shell profile…"), 0.82, FALSE },
  { "Setting up sudo...", FALSE, N_("Setting up sudo…"), 0.84, FALSE },
  { "Setting up user groups...", FALSE, N_("Setting up user groups…"), 0.86, FALSE },
  { "Setting up kerberos integration...", FALSE, N_("Setting up Kerberos…"), 0.87, FALSE },
  { "Setting up user's group list...", FALSE, N_("Setting up the user’s groups…"), 0.88, FALSE },
  { "Adding user...", FALSE, N_("Adding the user…"), 0.90, FALSE },
  { "Setting up existing user - ", TRUE, N_("Updating the user…"), 0.90, FALSE },
  { "UID...", FALSE, N_("Updating the user…"), 0.90, FALSE },
  { "Creating user home directory...", FALSE, N_("Setting up the user’s home…"), 0.91, FALSE },
  { "Ensuring correct ownership of user home directory", TRUE, N_("Setting up the user’s home…"), 0.91, FALSE },
  { "Setting up user home...", FALSE, N_("Setting up the user’s home…"), 0.92, FALSE },
  { "Ensuring user's access...", FALSE, N_("Checking the user’s access…"), 0.93, FALSE },
  { "Setting up skel...", FALSE, N_("Copying default settings…"), 0.94, FALSE },
  { "Executing init hooks...", FALSE, N_("Running the init hooks…"), 0.96, FALSE },
  { "Setting up init system...", FALSE, N_("Setting up the init system…"), 0.82, TRUE },
  { "Firing up init system...", FALSE, N_("Starting the init system…"), 0.88, TRUE },
};

/* Without init the steps above take the whole bar; with init they take
 * this much and the init system the rest. */
#define INIT_SHARE 0.8

static const Step *
lookup_step (const char *text)
{
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      if (steps[i].prefix ? g_str_has_prefix (text, steps[i].marker)
                          : strcmp (text, steps[i].marker) == 0)
        return &steps[i];
    }

  return NULL;
}

double
kiste_start_monitor_step_fraction (const char *step,
                                   gboolean    init)
{
  const Step *found;

  g_return_val_if_fail (step != NULL, -1);

  found = lookup_step (step);
  if (found == NULL)
    return -1;

  if (found->init_only)
    return init ? found->fraction : 0.97;

  return init ? found->fraction * INIT_SHARE : found->fraction;
}

/* Where the step after step begins, or step's own start for the last */
static double
next_step_fraction (const char *step,
                    gboolean    init)
{
  const Step *found = lookup_step (step);
  double start = kiste_start_monitor_step_fraction (step, init);

  if (found == NULL)
    return start;
  for (const Step *next = found + 1; next < steps + G_N_ELEMENTS (steps); next++)
    {
      double fraction = kiste_start_monitor_step_fraction (next->marker, init);

      if ((!next->init_only || init) && fraction > start)
        return fraction;
    }
  return start;
}

/* "Doing things..." → "Doing things…" */
static char *
dup_step_for_people (const char *step)
{
  const Step *found = lookup_step (step);

  if (found != NULL)
    return g_strdup (_(found->text));

  if (g_str_has_suffix (step, "..."))
    return g_strdup_printf ("%.*s…", (int) strlen (step) - 3, step);

  return g_strdup (step);
}

void
kiste_start_monitor_parse_line (const char          *line,
                                KisteStartLineKind  *kind,
                                char               **step_text)
{
  g_autofree char *trimmed = NULL;
  KisteStartLineKind found = KISTE_START_LINE_OTHER;
  char *text = NULL;
  gsize len;

  g_return_if_fail (line != NULL);

  trimmed = g_strdup (line);
  len = strlen (trimmed);
  while (len > 0 && g_ascii_isspace (trimmed[len - 1]))
    trimmed[--len] = '\0';

  /* The same prefixes as distrobox enter's own loop. */
  if (trimmed[0] == '+')
    {
      found = KISTE_START_LINE_TRACE;
    }
  else if (g_str_has_prefix (trimmed, "Error:"))
    {
      found = KISTE_START_LINE_ERROR;
      text = g_strdup (trimmed);
    }
  else if (g_str_has_prefix (trimmed, "Warning:"))
    {
      found = KISTE_START_LINE_WARNING;
      text = g_strdup (trimmed);
    }
  else if (g_str_has_prefix (trimmed, "distrobox:"))
    {
      const char *step = trimmed + strlen ("distrobox:");

      while (*step == ' ')
        step++;

      found = KISTE_START_LINE_STEP;
      text = dup_step_for_people (step);
    }
  else if (g_str_has_prefix (trimmed, "container_setup_done"))
    {
      found = KISTE_START_LINE_DONE;
    }

  if (kind != NULL)
    *kind = found;

  if (step_text != NULL)
    *step_text = text;
  else
    g_free (text);
}

gboolean
kiste_start_monitor_log_driver_is_readable (const char *log_driver)
{
  static const char * const unreadable[] = {
    "journald", "none", "passthrough", "passthrough-tty",
  };

  if (log_driver == NULL)
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (unreadable); i++)
    {
      if (g_ascii_strcasecmp (log_driver, unreadable[i]) == 0)
        return FALSE;
    }

  return TRUE;
}

static char *
dup_member_string (JsonObject *object,
                   const char *member)
{
  JsonNode *node;

  if (object == NULL || !json_object_has_member (object, member))
    return NULL;

  node = json_object_get_member (object, member);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return g_strdup (json_node_get_string (node));
}

static JsonObject *
get_member_object (JsonObject *object,
                   const char *member)
{
  JsonNode *node;

  if (object == NULL || !json_object_has_member (object, member))
    return NULL;

  node = json_object_get_member (object, member);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

gboolean
kiste_start_monitor_parse_inspect (const char  *json,
                                   char       **status,
                                   char       **started_at,
                                   char       **log_driver,
                                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonArray *array;
  JsonNode *first;
  JsonObject *object;
  JsonObject *state;
  JsonObject *log_config;

  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!json_parser_load_from_data (parser, json, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (root) ||
      (array = json_node_get_array (root)) == NULL ||
      json_array_get_length (array) < 1 ||
      !JSON_NODE_HOLDS_OBJECT ((first = json_array_get_element (array, 0))))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The details of the box could not be read."));
      return FALSE;
    }

  object = json_node_get_object (first);
  state = get_member_object (object, "State");
  log_config = get_member_object (get_member_object (object, "HostConfig"), "LogConfig");

  if (status != NULL)
    *status = dup_member_string (state, "Status");
  if (started_at != NULL)
    *started_at = dup_member_string (state, "StartedAt");
  if (log_driver != NULL)
    *log_driver = dup_member_string (log_config, "Type");

  return TRUE;
}

static gboolean
state_is_alive (const char *state)
{
  /* "paused" is odd during a start but not the end of it. */
  return g_strcmp0 (state, "running") == 0 ||
         g_strcmp0 (state, "paused") == 0 ||
         g_strcmp0 (state, "restarting") == 0;
}

static void
set_step (KisteStartMonitor *self,
          const char        *step)
{
  if (g_set_str (&self->step, step))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STEP]);
}

static void
set_fraction (KisteStartMonitor *self,
              double             fraction)
{
  fraction = CLAMP (fraction, 0.0, 1.0);
  if (self->fraction == fraction)
    return;

  self->fraction = fraction;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

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
remember_line (KisteStartMonitor *self,
               const char        *line)
{
  g_queue_push_tail (&self->last_lines, g_strdup (line));
  while (self->last_lines.length > N_LAST_LINES)
    g_free (g_queue_pop_head (&self->last_lines));
}

static char *
dup_last_lines (KisteStartMonitor *self)
{
  g_autoptr(GString) str = g_string_new (NULL);

  for (GList *l = self->last_lines.head; l != NULL; l = l->next)
    {
      if (str->len > 0)
        g_string_append_c (str, '\n');
      g_string_append (str, l->data);
    }

  return g_string_free (g_steal_pointer (&str), FALSE);
}

/* Ends the current run: takes error (NULL for success). */
static void
complete (KisteStartMonitor *self,
          GError            *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  self->generation++;

  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  g_clear_object (&self->run_cancellable);
  clear_source (&self->cancel_source);
  clear_source (&self->timeout_source);
  clear_source (&self->watch_source);
  clear_source (&self->grace_source);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  set_fraction (self, 1.0);
  g_task_return_boolean (task, TRUE);
}

static void
complete_stopped (KisteStartMonitor *self)
{
  g_autofree char *last = dup_last_lines (self);

  if (last[0] == '\0')
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                 _("The box “%s” stopped during its first start."),
                                 self->box_name));
  else
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                 _("The box “%s” stopped during its first start. Its last messages were:\n%s"),
                                 self->box_name, last));
}

/* A callback's tie to the run it belongs to. */
typedef struct
{
  KisteStartMonitor *self;
  guint              generation;
} RunRef;

static RunRef *
run_ref_new (KisteStartMonitor *self)
{
  RunRef *ref = g_new0 (RunRef, 1);

  ref->self = g_object_ref (self);
  ref->generation = self->generation;

  return ref;
}

static void
run_ref_free (RunRef *ref)
{
  g_clear_object (&ref->self);
  g_free (ref);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RunRef, run_ref_free)

static gboolean
run_ref_is_current (RunRef *ref)
{
  return ref->self->task != NULL && ref->self->generation == ref->generation;
}

static GSource *
add_timeout (KisteStartMonitor *self,
             guint              interval_ms,
             GSourceFunc        func)
{
  GSource *source = g_timeout_source_new (interval_ms);

  g_source_set_callback (source, func, run_ref_new (self), (GDestroyNotify) run_ref_free);
  g_source_attach (source, g_main_context_get_thread_default ());

  return source;
}

static gboolean
grace_cb (gpointer data)
{
  RunRef *ref = data;

  if (run_ref_is_current (ref))
    {
      g_clear_pointer (&ref->self->grace_source, g_source_unref);
      complete_stopped (ref->self);
    }

  return G_SOURCE_REMOVE;
}

static void
box_stopped (KisteStartMonitor *self)
{
  if (self->stream_ended)
    {
      complete_stopped (self);
      return;
    }

  /* Give the log a moment to deliver an "Error:" line. */
  if (!self->box_stopped)
    {
      self->box_stopped = TRUE;
      clear_source (&self->watch_source);
      self->grace_source = add_timeout (self, DEATH_GRACE_MS, grace_cb);
    }
}

static void
state_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error))
    {
      if (!run_ref_is_current (ref))
        return;

      self->state_pending = FALSE;

      /* A slow podman is no reason to give up; a box that is gone is. */
      if (g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TIMED_OUT))
        return;

      g_debug ("State of %s unknown: %s", self->box_name, error->message);
      box_stopped (self);
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  self->state_pending = FALSE;
  g_strstrip (stdout_buf);

  if (!state_is_alive (stdout_buf))
    {
      box_stopped (self);
      return;
    }

  if (self->blind)
    {
      complete (self, NULL);
      return;
    }

  /* The log ended while the box still runs: nothing more will come. */
  if (self->stream_ended)
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                 _("The log of the box “%s” ended before its setup was done."),
                                 self->box_name));
}

static void
check_state (KisteStartMonitor *self)
{
  g_auto(GStrv) argv = NULL;

  if (self->state_pending)
    return;

  self->state_pending = TRUE;
  argv = kiste_commands_state_argv (self->manager, self->box_name);
  kiste_runner_run_async (self->runner, (const char * const *) argv, STATE_TIMEOUT_MS,
                          self->run_cancellable, state_cb, run_ref_new (self));
}

static gboolean
watch_cb (gpointer data)
{
  RunRef *ref = data;

  if (!run_ref_is_current (ref))
    return G_SOURCE_REMOVE;

  check_state (ref->self);

  return G_SOURCE_CONTINUE;
}

static gboolean
timeout_cb (gpointer data)
{
  RunRef *ref = data;
  KisteStartMonitor *self = ref->self;
  g_autofree char *last = NULL;
  g_autofree char *message = NULL;

  if (!run_ref_is_current (ref))
    return G_SOURCE_REMOVE;

  g_clear_pointer (&self->timeout_source, g_source_unref);

  if (self->timeout_ms >= 60000 && self->timeout_ms % 60000 == 0)
    {
      guint minutes = self->timeout_ms / 60000;

      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The box “%s” did not finish its setup within %u minute.",
                                              "The box “%s” did not finish its setup within %u minutes.",
                                              minutes),
                                 self->box_name, minutes);
    }
  else
    {
      guint seconds = MAX (1, (self->timeout_ms + 999) / 1000);

      message = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "The box “%s” did not finish its setup within %u second.",
                                              "The box “%s” did not finish its setup within %u seconds.",
                                              seconds),
                                 self->box_name, seconds);
    }

  last = dup_last_lines (self);
  if (last[0] != '\0')
    complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_TIMED_OUT,
                                 /* Translators: a message, then the last lines of a log */
                                 _("%s Its last messages were:\n%s"), message, last));
  else
    complete (self, g_error_new_literal (KISTE_ERROR, KISTE_ERROR_TIMED_OUT, message));

  return G_SOURCE_REMOVE;
}

static gboolean
cancelled_cb (GCancellable *cancellable,
              gpointer      data)
{
  RunRef *ref = data;

  if (run_ref_is_current (ref))
    {
      g_clear_pointer (&ref->self->cancel_source, g_source_unref);
      /* Only the following stops; the box goes on starting. */
      complete (ref->self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                _("Following the start was cancelled.")));
    }

  return G_SOURCE_REMOVE;
}

static void
line_cb (const char *line,
         gboolean    is_stderr,
         gpointer    user_data)
{
  RunRef *ref = user_data;
  g_autoptr(KisteStartMonitor) self = g_object_ref (ref->self);
  g_autofree char *text = NULL;
  KisteStartLineKind kind;

  if (!run_ref_is_current (ref))
    return;

  g_signal_emit (self, signals[SIGNAL_LINE], 0, line);
  if (!run_ref_is_current (ref))
    return;

  kiste_start_monitor_parse_line (line, &kind, &text);

  /* Trace lines included: they show the command the setup was running. */
  if (line[0] != '\0')
    remember_line (self, line);

  switch (kind)
    {
    case KISTE_START_LINE_STEP:
      {
        const char *step = strchr (line, ':') + 1;
        g_autofree char *marker = g_strstrip (g_strdup (step));
        double fraction = kiste_start_monitor_step_fraction (marker, self->init);

        /* Fraction first, so that a step handler sees both up to date */
        if (fraction > self->fraction)
          set_fraction (self, fraction);
        self->step_start = self->fraction;
        self->step_end = MAX (self->fraction, next_step_fraction (marker, self->init));
        self->step_lines = 0;
        set_step (self, text);
      }
      break;

    case KISTE_START_LINE_OTHER:
    case KISTE_START_LINE_TRACE:
      /* Work inside a step: closer to the next one with every line, never
       * quite there, in steps the bar shows */
      if (self->step_end > self->step_start)
        {
          double lines = ++self->step_lines;
          double share = lines / (lines + STEP_HALF_LINES);
          double fraction = self->step_start + (self->step_end - self->step_start) * 0.95 * share;

          if (fraction - self->fraction >= 0.002)
            set_fraction (self, fraction);
        }
      break;

    case KISTE_START_LINE_WARNING:
      g_signal_emit (self, signals[SIGNAL_WARNING], 0, text);
      break;

    case KISTE_START_LINE_ERROR:
      complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                   _("The setup of the box “%s” failed: %s"),
                                   self->box_name, text));
      break;

    case KISTE_START_LINE_DONE:
      complete (self, NULL);
      break;

    default:
      break;
    }
}

static void
stream_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;

  kiste_runner_stream_finish (KISTE_RUNNER (object), result, &error);

  if (!run_ref_is_current (ref))
    return;

  if (error != NULL)
    g_debug ("Following the log of %s ended: %s", self->box_name, error->message);

  /* `logs --follow` ends when the box stops. */
  self->stream_ended = TRUE;
  if (self->box_stopped)
    {
      clear_source (&self->grace_source);
      complete_stopped (self);
      return;
    }

  /* Ask once more whatever a pending query says. */
  self->state_pending = FALSE;
  check_state (self);
}

static void
follow_log (KisteStartMonitor *self,
            const char        *since)
{
  g_auto(GStrv) argv = kiste_commands_logs_argv (self->manager, self->box_name, since, TRUE);

  /* podman logs writes the box's stdout and stderr to its own: one pipe
   * keeps init's trace and its steps in their order */
  kiste_runner_stream_merged_async (self->runner, (const char * const *) argv, 0,
                                    line_cb, run_ref_new (self), (GDestroyNotify) run_ref_free,
                                    self->run_cancellable, stream_cb, run_ref_new (self));

  if (self->watch_interval_ms > 0)
    self->watch_source = add_timeout (self, self->watch_interval_ms, watch_cb);
}

static void
blind_start_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (ref->self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  /* No log to follow: once it runs, that is all there is to know. */
  ref->self->blind = TRUE;
  ref->self->stream_ended = TRUE;
  check_state (ref->self);
}

static void
start_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  g_autoptr(GError) error = NULL;
  KisteStartMonitor *self = ref->self;
  const char *since;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  since = g_task_get_task_data (self->task);
  follow_log (self, since);
}

static void
start_box (KisteStartMonitor *self,
           GAsyncReadyCallback callback)
{
  g_auto(GStrv) argv = kiste_commands_start_argv (self->manager, self->box_name);

  kiste_runner_run_async (self->runner, (const char * const *) argv, 0,
                          self->run_cancellable, callback, run_ref_new (self));
}

static void
inspect_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(RunRef) ref = user_data;
  KisteStartMonitor *self = ref->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *stdout_buf = NULL;
  g_autofree char *status = NULL;
  g_autofree char *started_at = NULL;
  g_autofree char *log_driver = NULL;
  gboolean running;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &stdout_buf, NULL, &error))
    {
      if (run_ref_is_current (ref))
        complete (self, g_steal_pointer (&error));
      return;
    }

  if (!run_ref_is_current (ref))
    return;

  if (!kiste_start_monitor_parse_inspect (stdout_buf, &status, &started_at, &log_driver, &error))
    {
      complete (self, g_steal_pointer (&error));
      return;
    }

  running = g_strcmp0 (status, "running") == 0;

  /* Following a box started elsewhere: one that does not run (or whose
   * log says nothing) has no setup to follow, and is never started here */
  if (self->follow_only && (!running || !kiste_start_monitor_log_driver_is_readable (log_driver)))
    {
      complete (self, NULL);
      return;
    }

  if (!kiste_start_monitor_log_driver_is_readable (log_driver))
    {
      /* As distrobox enter: a running box has nothing left to wait for. */
      if (running)
        {
          complete (self, NULL);
          return;
        }

      if (!self->blind_start)
        {
          complete (self, g_error_new (KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                                       _("The box “%s” writes its log to “%s”, where its start "
                                         "cannot be followed, so its first start could wait "
                                         "forever. Recreate it with the k8s-file log driver "
                                         "(--additional-flags \"--log-driver=k8s-file\"), or "
                                         "start it without following its progress."),
                                       self->box_name, log_driver));
          return;
        }

      g_signal_emit (self, signals[SIGNAL_WARNING], 0,
                     _("The progress of this start cannot be shown."));
      start_box (self, blind_start_cb);
      return;
    }

  if (running)
    {
      /* It may still be in its setup, or long done: its log since it was
       * started says which, at once in the second case. */
      if (started_at == NULL || started_at[0] == '\0' || started_at[0] == '-')
        {
          complete (self, NULL);
          return;
        }

      set_step (self, _("Waiting for the box’s setup…"));
      follow_log (self, started_at);
      return;
    }

  start_box (self, start_cb);
}

void
kiste_start_monitor_start_async (KisteStartMonitor   *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_auto(GStrv) argv = NULL;

  g_return_if_fail (KISTE_IS_START_MONITOR (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_start_monitor_start_async);

  if (self->task != NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_BUSY,
                               _("The start of the box “%s” is already being followed."),
                               self->box_name);
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  /* Taken before the start, so that the log holds all of this start and
   * nothing of an earlier one. */
  now = g_date_time_new_now_utc ();
  g_task_set_task_data (task, kiste_commands_format_since (now), g_free);

  self->task = g_steal_pointer (&task);
  self->run_cancellable = g_cancellable_new ();
  self->state_pending = FALSE;
  self->box_stopped = FALSE;
  self->stream_ended = FALSE;
  self->blind = FALSE;
  g_queue_clear_full (&self->last_lines, g_free);
  set_step (self, _("Starting…"));
  set_fraction (self, 0.0);
  self->step_start = self->step_end = 0.0;
  self->step_lines = 0;

  if (cancellable != NULL)
    {
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (cancelled_cb),
                             run_ref_new (self), (GDestroyNotify) run_ref_free);
      g_source_attach (self->cancel_source, g_main_context_get_thread_default ());
    }

  if (self->timeout_ms > 0)
    self->timeout_source = add_timeout (self, self->timeout_ms, timeout_cb);

  argv = kiste_commands_inspect_argv (self->manager, self->box_name);
  kiste_runner_run_async (self->runner, (const char * const *) argv, 0,
                          self->run_cancellable, inspect_cb, run_ref_new (self));
}

gboolean
kiste_start_monitor_start_finish (KisteStartMonitor  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_start_monitor_start_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

KisteStartMonitor *
kiste_start_monitor_new (KisteRunner *runner,
                         const char  *box_name,
                         const char  *manager)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0' && box_name[0] != '-', NULL);

  return g_object_new (KISTE_TYPE_START_MONITOR,
                       "runner", runner,
                       "box-name", box_name,
                       "manager", manager,
                       NULL);
}

const char *
kiste_start_monitor_get_step (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), NULL);

  return self->step;
}

double
kiste_start_monitor_get_fraction (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), 0.0);

  return self->fraction;
}

void
kiste_start_monitor_set_init (KisteStartMonitor *self,
                              gboolean           init)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  init = !!init;
  if (self->init == init)
    return;

  self->init = init;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INIT]);
}

guint
kiste_start_monitor_get_timeout (KisteStartMonitor *self)
{
  g_return_val_if_fail (KISTE_IS_START_MONITOR (self), 0);

  return self->timeout_ms;
}

void
kiste_start_monitor_set_timeout (KisteStartMonitor *self,
                                 guint              timeout_ms)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  if (self->timeout_ms == timeout_ms)
    return;

  self->timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMEOUT]);
}

void
kiste_start_monitor_set_watch_interval (KisteStartMonitor *self,
                                        guint              interval_ms)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  self->watch_interval_ms = interval_ms;
}

void
kiste_start_monitor_set_follow_only (KisteStartMonitor *self,
                                     gboolean           follow_only)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  self->follow_only = !!follow_only;
}

void
kiste_start_monitor_set_blind_start (KisteStartMonitor *self,
                                     gboolean           blind_start)
{
  g_return_if_fail (KISTE_IS_START_MONITOR (self));

  blind_start = !!blind_start;
  if (self->blind_start == blind_start)
    return;

  self->blind_start = blind_start;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BLIND_START]);
}

static void
kiste_start_monitor_constructed (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->constructed (object);

  g_assert (self->runner != NULL);

  if (self->manager == NULL)
    self->manager = g_strdup (kiste_runner_get_manager (self->runner));
  if (self->manager == NULL)
    self->manager = g_strdup ("podman");
}

static void
kiste_start_monitor_dispose (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  g_clear_object (&self->runner);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->dispose (object);
}

static void
kiste_start_monitor_finalize (GObject *object)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  g_clear_object (&self->run_cancellable);
  g_clear_pointer (&self->box_name, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->step, g_free);
  g_queue_clear_full (&self->last_lines, g_free);

  G_OBJECT_CLASS (kiste_start_monitor_parent_class)->finalize (object);
}

static void
kiste_start_monitor_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;

    case PROP_BOX_NAME:
      g_value_set_string (value, self->box_name);
      break;

    case PROP_MANAGER:
      g_value_set_string (value, self->manager);
      break;

    case PROP_STEP:
      g_value_set_string (value, self->step);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;

    case PROP_INIT:
      g_value_set_boolean (value, self->init);
      break;

    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_ms);
      break;

    case PROP_BLIND_START:
      g_value_set_boolean (value, self->blind_start);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_start_monitor_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteStartMonitor *self = KISTE_START_MONITOR (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      break;

    case PROP_BOX_NAME:
      self->box_name = g_value_dup_string (value);
      break;

    case PROP_MANAGER:
      self->manager = g_value_dup_string (value);
      break;

    case PROP_INIT:
      kiste_start_monitor_set_init (self, g_value_get_boolean (value));
      break;

    case PROP_TIMEOUT:
      kiste_start_monitor_set_timeout (self, g_value_get_uint (value));
      break;

    case PROP_BLIND_START:
      kiste_start_monitor_set_blind_start (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_start_monitor_class_init (KisteStartMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = kiste_start_monitor_constructed;
  object_class->dispose = kiste_start_monitor_dispose;
  object_class->finalize = kiste_start_monitor_finalize;
  object_class->get_property = kiste_start_monitor_get_property;
  object_class->set_property = kiste_start_monitor_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, KISTE_TYPE_RUNNER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BOX_NAME] =
    g_param_spec_string ("box-name", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_MANAGER] =
    g_param_spec_string ("manager", NULL, NULL, NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_STEP] =
    g_param_spec_string ("step", NULL, NULL, NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_INIT] =
    g_param_spec_boolean ("init", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 0, G_MAXUINT, DEFAULT_TIMEOUT_MS,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_BLIND_START] =
    g_param_spec_boolean ("blind-start", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Every line of the box's log, for a log view. */
  signals[SIGNAL_LINE] =
    g_signal_new ("line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /* A "Warning: …" line, or a note from the monitor itself. */
  signals[SIGNAL_WARNING] =
    g_signal_new ("warning",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
kiste_start_monitor_init (KisteStartMonitor *self)
{
  self->timeout_ms = DEFAULT_TIMEOUT_MS;
  self->watch_interval_ms = DEFAULT_WATCH_INTERVAL_MS;
  g_queue_init (&self->last_lines);
}
