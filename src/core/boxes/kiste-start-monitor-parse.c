/* kiste-start-monitor-parse.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a start's log and its box's inspect output say: distrobox-init's
 * steps and how far each is, one log line's kind, whether a log driver
 * can be followed. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "kiste-error.h"
#include "kiste-start-monitor-state-private.h"

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
double
_kiste_start_monitor_next_step_fraction (const char *step,
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
