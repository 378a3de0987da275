/* kiste-box-json.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's facts read from podman's and docker's ps and inspect JSON:
 * labels, state, times, the init command, mounts and namespaces. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-box-state-private.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-validate.h"

/* JSON helpers: podman and docker disagree on case and on types, so every
 * member is checked before use. */

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_node_get_object (node);
}

static JsonArray *
get_array (JsonObject *object,
           const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static gboolean
get_boolean (JsonObject *object,
             const char *member)
{
  JsonNode *node;

  if (object == NULL ||
      !(node = json_object_get_member (object, member)) ||
      !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return FALSE;

  return json_node_get_boolean (node);
}

/* The strings of a JSON array, NULL-terminated; non-strings are skipped */
static char **
strv_from_array (JsonArray *array)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  guint n = json_array_get_length (array);
  char **ret;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (node));
    }

  ret = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return ret;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Mounts as podman ≤ 5 prints them (destination strings) or as InspectMount
 * objects (newer podman's ps, and every inspect). Sorted, because the order
 * varies between ps and inspect and must not look like a change. */
static char **
mounts_from_array (JsonArray *array)
{
  g_autoptr(GPtrArray) dests = g_ptr_array_new ();
  guint n = json_array_get_length (array);
  char **ret;

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      const char *dest = NULL;

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        dest = json_node_get_string (node);
      else if (JSON_NODE_HOLDS_OBJECT (node))
        dest = get_string (json_node_get_object (node), "Destination");

      if (dest != NULL && dest[0] != '\0')
        g_ptr_array_add (dests, (gpointer) dest);
    }

  g_ptr_array_sort (dests, compare_strings);

  ret = g_new0 (char *, dests->len + 1);
  for (guint i = 0, j = 0; i < dests->len; i++)
    {
      if (j == 0 || !g_str_equal (ret[j - 1], g_ptr_array_index (dests, i)))
        ret[j++] = g_strdup (g_ptr_array_index (dests, i));
    }

  return ret;
}

static void
labels_add_object (GHashTable *labels,
                   JsonObject *object)
{
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &key, &node))
    {
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        g_hash_table_insert (labels, g_strdup (key), g_strdup (json_node_get_string (node)));
    }
}

/* docker's "k=v,k=v": a piece without '=' continues the previous value,
 * which keeps values with commas whole as long as no piece looks like k=v. */
static void
labels_add_docker_string (GHashTable *labels,
                          const char *text)
{
  g_auto(GStrv) pieces = NULL;
  g_autofree char *last_key = NULL;

  if (text == NULL || text[0] == '\0')
    return;

  pieces = g_strsplit (text, ",", -1);
  for (guint i = 0; pieces[i] != NULL; i++)
    {
      const char *eq = strchr (pieces[i], '=');

      if (eq != NULL && eq != pieces[i])
        {
          g_free (last_key);
          last_key = g_strndup (pieces[i], eq - pieces[i]);
          g_hash_table_replace (labels, g_strdup (last_key), g_strdup (eq + 1));
        }
      else if (last_key != NULL)
        {
          const char *prev = g_hash_table_lookup (labels, last_key);

          g_hash_table_replace (labels, g_strdup (last_key), g_strconcat (prev, ",", pieces[i], NULL));
        }
    }
}

static GHashTable *
labels_from_member (JsonObject *object,
                    const char *member)
{
  GHashTable *labels = _kiste_box_labels_new ();
  JsonObject *as_object;
  const char *as_string;

  if ((as_object = get_object (object, member)))
    labels_add_object (labels, as_object);
  else if ((as_string = get_string (object, member)))
    labels_add_docker_string (labels, as_string);

  return labels;
}

static gboolean
labels_say_distrobox (GHashTable *labels)
{
  GHashTableIter iter;
  gpointer key;

  if (g_strcmp0 (g_hash_table_lookup (labels, LABEL_MANAGER), "distrobox") == 0)
    return TRUE;

  g_hash_table_iter_init (&iter, labels);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (g_str_has_prefix (key, "distrobox."))
        return TRUE;
    }

  return FALSE;
}

static KisteBoxState
state_from_string (const char *state)
{
  if (state == NULL)
    return KISTE_BOX_STATE_UNKNOWN;

  if (g_ascii_strcasecmp (state, "running") == 0 ||
      g_ascii_strcasecmp (state, "restarting") == 0)
    return KISTE_BOX_STATE_RUNNING;

  if (g_ascii_strcasecmp (state, "created") == 0 ||
      g_ascii_strcasecmp (state, "configured") == 0 ||
      g_ascii_strcasecmp (state, "initialized") == 0)
    return KISTE_BOX_STATE_CREATED;

  if (g_ascii_strcasecmp (state, "exited") == 0 ||
      g_ascii_strcasecmp (state, "stopped") == 0 ||
      g_ascii_strcasecmp (state, "dead") == 0)
    return KISTE_BOX_STATE_STOPPED;

  if (g_ascii_strcasecmp (state, "paused") == 0)
    return KISTE_BOX_STATE_PAUSED;

  if (g_ascii_strcasecmp (state, "stopping") == 0)
    return KISTE_BOX_STATE_STOPPING;

  return KISTE_BOX_STATE_UNKNOWN;
}

/* Very old podman has no State, only the human Status text */
static KisteBoxState
state_from_status (const char *status)
{
  if (status == NULL)
    return KISTE_BOX_STATE_UNKNOWN;

  if (g_str_has_prefix (status, "Up"))
    return strstr (status, "(Paused)") ? KISTE_BOX_STATE_PAUSED : KISTE_BOX_STATE_RUNNING;
  if (g_str_has_prefix (status, "Exited"))
    return KISTE_BOX_STATE_STOPPED;
  if (g_str_has_prefix (status, "Created"))
    return KISTE_BOX_STATE_CREATED;
  if (g_str_has_prefix (status, "Stopping"))
    return KISTE_BOX_STATE_STOPPING;

  return KISTE_BOX_STATE_UNKNOWN;
}

/* RFC 3339 from inspect, or docker ps's "2024-01-01 10:00:00 +0100 CET" */
static gint64
parse_time (const char *text)
{
  g_autoptr(GDateTime) dt = NULL;

  if (text == NULL)
    return 0;

  dt = g_date_time_new_from_iso8601 (text, NULL);

  if (dt == NULL && strlen (text) >= 25 && text[10] == ' ' && text[19] == ' ' &&
      (text[20] == '+' || text[20] == '-'))
    {
      g_autofree char *iso = g_strdup_printf ("%.10sT%.8s%.3s:%.2s",
                                              text, text + 11, text + 20, text + 23);

      dt = g_date_time_new_from_iso8601 (iso, NULL);
    }

  if (dt == NULL)
    return 0;

  return MAX (0, g_date_time_to_unix (dt));
}

/* The init command is `--verbose --name USER --user UID --group GID
 * --home HOME --init 0|1 --nvidia 0|1 --pre-init-hooks … --additional-packages … -- HOOK`. */
static const char * const init_value_flags[] = {
  "--name", "--user", "--group", "--home", "--init", "--nvidia",
  "--pre-init-hooks", "--additional-packages", "--upgrade", NULL,
};

typedef struct
{
  char     *home;
  char     *user;
  gboolean  init;
  gboolean  nvidia;
  gboolean  found;
  /* Toolbx's init-container: --user is the user's name (distrobox-init's
   * is the uid, its --name the name) */
  gboolean  toolbox;
} InitArgs;

static void
init_args_clear (InitArgs *args)
{
  g_clear_pointer (&args->home, g_free);
  g_clear_pointer (&args->user, g_free);
}

static void
init_args_take (InitArgs   *args,
                const char *flag,
                const char *value)
{
  args->found = TRUE;

  if (g_str_equal (flag, "--home"))
    g_set_str (&args->home, value);
  else if (g_str_equal (flag, args->toolbox ? "--user" : "--name"))
    g_set_str (&args->user, value);
  else if (g_str_equal (flag, "--init"))
    args->init = g_str_equal (value, "1") || g_str_equal (value, "true");
  else if (g_str_equal (flag, "--nvidia"))
    args->nvidia = g_str_equal (value, "1") || g_str_equal (value, "true");
}

/* Each value is the next element: exact, as podman gives argv as an array */
static void
parse_init_argv (const char * const *argv,
                 InitArgs           *args)
{
  args->toolbox = argv[0] != NULL && (g_str_equal (argv[0], "toolbox") || g_str_has_suffix (argv[0], "/toolbox"));

  for (guint i = 0; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;

      if (g_strv_contains (init_value_flags, argv[i]) && argv[i + 1] != NULL)
        {
          init_args_take (args, argv[i], argv[i + 1]);
          i++;
        }
    }
}

/* docker ps joins argv with spaces (and quotes the whole): a value is every
 * word up to the next flag, so a home with a space survives. Docker 26 and
 * later put single quotes around an argument with a space, unescaped:
 * those come off again. */
static void
parse_init_string (const char *command,
                   InitArgs   *args)
{
  g_autofree char *unquoted = NULL;
  g_auto(GStrv) words = NULL;
  gsize len;

  if (command == NULL)
    return;

  len = strlen (command);
  if (len >= 2 && command[0] == '"' && command[len - 1] == '"')
    {
      g_autofree char *inner = g_strndup (command + 1, len - 2);

      unquoted = g_strcompress (inner);
    }
  else
    {
      unquoted = g_strdup (command);
    }

  words = g_strsplit (unquoted, " ", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autoptr(GString) value = NULL;
      const char *flag = words[i];
      guint j;

      if (g_str_equal (flag, "--"))
        break;

      if (!g_strv_contains (init_value_flags, flag))
        continue;

      /* the inverse of docker's join: words back together with one space */
      value = g_string_new (NULL);
      for (j = i + 1; words[j] != NULL && !g_str_has_prefix (words[j], "--"); j++)
        {
          if (j > i + 1)
            g_string_append_c (value, ' ');
          g_string_append (value, words[j]);
        }
      if (value->len >= 2 && value->str[0] == '\'' && value->str[value->len - 1] == '\'' &&
          strchr (value->str, ' ') != NULL)
        {
          g_string_truncate (value, value->len - 1);
          g_string_erase (value, 0, 1);
        }

      init_args_take (args, flag, value->str);
      i = j - 1;
    }
}

static gboolean
set_labels (KisteBox   *self,
            GHashTable *labels)
{
  if (_kiste_box_labels_equal (self->labels, labels))
    return FALSE;

  g_hash_table_unref (self->labels);
  self->labels = _kiste_box_labels_copy (labels);
  _kiste_box_notify (self, PROP_LABELS);
  return TRUE;
}

static const char *
first_name (JsonObject *object,
            char      **to_free)
{
  JsonArray *names;
  const char *name;

  *to_free = NULL;

  if ((names = get_array (object, "Names")) &&
      json_array_get_length (names) > 0 &&
      JSON_NODE_HOLDS_VALUE (json_array_get_element (names, 0)) &&
      json_node_get_value_type (json_array_get_element (names, 0)) == G_TYPE_STRING)
    name = json_array_get_string_element (names, 0);
  else if (!(name = get_string (object, "Names")))
    name = get_string (object, "Name");

  if (name == NULL)
    return NULL;

  /* docker: "/name" in inspect, "name,other/alias" with legacy links in ps */
  if (name[0] == '/')
    name++;
  if (strchr (name, ','))
    name = *to_free = g_strndup (name, strchr (name, ',') - name);

  return name;
}

gboolean
kiste_box_ps_json_is_distrobox (JsonObject *object)
{
  JsonObject *labels;
  JsonArray *mounts;
  const char *text;

  g_return_val_if_fail (object != NULL, FALSE);

  if (get_boolean (object, "IsInfra"))
    return FALSE;

  if ((labels = get_object (object, "Labels")))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *node;

      json_object_iter_init (&iter, labels);
      while (json_object_iter_next (&iter, &key, &node))
        {
          if (g_str_has_prefix (key, "distrobox."))
            return TRUE;
        }

      if (g_strcmp0 (get_string (labels, LABEL_MANAGER), "distrobox") == 0)
        return TRUE;
    }
  else if ((text = get_string (object, "Labels")))
    {
      g_autoptr(GHashTable) parsed = _kiste_box_labels_new ();

      labels_add_docker_string (parsed, text);
      if (labels_say_distrobox (parsed))
        return TRUE;
    }

  /* boxes older than the manager label (distrobox < 1.4) */
  if ((mounts = get_array (object, "Mounts")))
    {
      for (guint i = 0; i < json_array_get_length (mounts); i++)
        {
          JsonNode *node = json_array_get_element (mounts, i);
          const char *dest = NULL;

          if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
            dest = json_node_get_string (node);
          else if (JSON_NODE_HOLDS_OBJECT (node))
            dest = get_string (json_node_get_object (node), "Destination");

          if (g_strcmp0 (dest, DISTROBOX_EXPORT) == 0)
            return TRUE;
        }
    }
  /* docker ps lists mount sources: the host's own distrobox-export */
  else if ((text = get_string (object, "Mounts")))
    {
      g_auto(GStrv) sources = g_strsplit (text, ",", -1);

      for (guint i = 0; sources[i] != NULL; i++)
        {
          if (g_str_has_suffix (sources[i], "/distrobox-export"))
            return TRUE;
        }
    }

  return FALSE;
}

gboolean
kiste_box_ps_json_is_toolbox (JsonObject *object)
{
  JsonObject *labels;
  JsonArray *command;

  g_return_val_if_fail (object != NULL, FALSE);

  /* Toolbx runs on podman alone, whose ps gives labels as an object */
  if (get_boolean (object, "IsInfra") ||
      !(labels = get_object (object, "Labels")) ||
      !json_object_has_member (labels, KISTE_BOX_TOOLBOX_LABEL))
    return FALSE;

  /* Toolbx's images carry the label too, so a container merely run from
   * one has it: a toolbox runs Toolbx's own entry point */
  if (!(command = get_array (object, "Command")) || json_array_get_length (command) < 2)
    return FALSE;
  for (guint i = 0; i < json_array_get_length (command); i++)
    {
      JsonNode *node = json_array_get_element (command, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        return FALSE;
      if (i == 0 && !g_str_equal (json_node_get_string (node), "toolbox") &&
          !g_str_has_suffix (json_node_get_string (node), "/toolbox"))
        return FALSE;
      if (g_str_equal (json_node_get_string (node), "init-container"))
        return !kiste_box_ps_json_is_distrobox (object);
    }

  return FALSE;
}

KisteBox *
kiste_box_new_from_ps_json (JsonObject  *object,
                            const char  *host_home,
                            GError     **error)
{
  g_autoptr(KisteBox) self = NULL;
  g_autoptr(GHashTable) labels = NULL;
  g_autofree char *name_copy = NULL;
  InitArgs args = { 0 };
  const char *id;
  const char *name;
  const char *state;
  const char *mount_list;
  const char *command;
  JsonArray *array;
  JsonNode *created;
  JsonNode *started;

  g_return_val_if_fail (object != NULL, NULL);

  if (!(id = get_string (object, "Id")) && !(id = get_string (object, "ID")))
    id = NULL;

  if (id == NULL || id[0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed a container without an ID."));
      return NULL;
    }

  name = first_name (object, &name_copy);
  if (name == NULL || name[0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed container %.12s without a name."), id);
      return NULL;
    }

  /* podman and docker allow no other names; one such as "-x" or "$(…)"
   * could not be passed on to distrobox safely */
  if (!kiste_validate_existing_name (name, NULL, NULL))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The container manager listed container %.12s with a name it does not allow."), id);
      return NULL;
    }

  self = g_object_new (KISTE_TYPE_BOX, NULL);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->host_home = g_strdup (host_home);
  self->image = g_strdup (get_string (object, "Image"));
  self->image_id = g_strdup (get_string (object, "ImageID"));
  self->status = g_strdup (get_string (object, "Status"));
  /* docker lines carry Names as a plain string */
  self->podman_shape = get_array (object, "Names") != NULL;

  state = get_string (object, "State");
  self->state = state ? state_from_string (state) : state_from_status (self->status);

  created = json_object_get_member (object, "Created");
  if (created != NULL && JSON_NODE_HOLDS_VALUE (created) &&
      json_node_get_value_type (created) == G_TYPE_INT64)
    self->created = MAX (0, json_node_get_int (created));
  else if (created != NULL && JSON_NODE_HOLDS_VALUE (created) &&
           json_node_get_value_type (created) == G_TYPE_STRING)
    self->created = parse_time (json_node_get_string (created));
  else
    self->created = parse_time (get_string (object, "CreatedAt"));

  /* podman only; a box never started says year 1, below zero */
  started = json_object_get_member (object, "StartedAt");
  if (started != NULL && JSON_NODE_HOLDS_VALUE (started) &&
      json_node_get_value_type (started) == G_TYPE_INT64)
    self->started = MAX (0, json_node_get_int (started));

  labels = labels_from_member (object, "Labels");
  g_hash_table_unref (self->labels);
  self->labels = g_steal_pointer (&labels);

  if ((array = get_array (object, "Mounts")))
    {
      self->mounts = mounts_from_array (array);
    }
  else if ((mount_list = get_string (object, "Mounts")))
    {
      g_auto(GStrv) sources = g_strsplit (mount_list, ",", -1);

      /* distrobox binds $HOME at the same path: the source tells */
      for (guint i = 0; sources[i] != NULL; i++)
        {
          if (_kiste_box_is_host_home (sources[i], host_home))
            self->home_hint = KISTE_SHARING_SHARED;
        }
    }
  else if (self->podman_shape)
    {
      /* podman prints null for a container without mounts */
      self->mounts = g_new0 (char *, 1);
    }

  if ((array = get_array (object, "Command")))
    {
      g_auto(GStrv) argv = strv_from_array (array);

      parse_init_argv ((const char * const *) argv, &args);
    }
  else if ((command = get_string (object, "Command")))
    {
      parse_init_string (command, &args);
    }

  self->home = g_steal_pointer (&args.home);
  self->user = g_steal_pointer (&args.user);
  self->init = !!args.init;
  self->nvidia = !!args.nvidia;
  init_args_clear (&args);

  _kiste_box_derive (self, FALSE);

  return g_steal_pointer (&self);
}

static KisteSharing
sharing_from_mode (JsonObject *host_config,
                   const char *member)
{
  const char *mode;

  if (!json_object_has_member (host_config, member))
    return KISTE_SHARING_UNKNOWN;

  /* docker leaves PidMode "" for a private namespace */
  mode = get_string (host_config, member);
  if (mode == NULL)
    return KISTE_SHARING_UNKNOWN;

  return g_str_equal (mode, "host") ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED;
}

/* Whether update_from() would change nothing: the common case of a
 * refresh, answered without touching notifications. */
static gboolean
kiste_box_same_facts (KisteBox *self,
                      KisteBox *other)
{
  if (!(g_strcmp0 (self->id, other->id) == 0 &&
        g_strcmp0 (self->name, other->name) == 0 &&
        g_strcmp0 (self->image, other->image) == 0 &&
        g_strcmp0 (self->image_id, other->image_id) == 0 &&
        g_strcmp0 (self->status, other->status) == 0 &&
        g_strcmp0 (self->home, other->home) == 0 &&
        g_strcmp0 (self->user, other->user) == 0 &&
        g_strcmp0 (self->host_home, other->host_home) == 0 &&
        self->created == other->created &&
        self->started == other->started &&
        self->state == other->state &&
        self->init == other->init &&
        self->nvidia == other->nvidia &&
        self->podman_shape == other->podman_shape &&
        self->home_hint == other->home_hint &&
        _kiste_box_labels_equal (self->labels, other->labels)))
    return FALSE;

  if ((other->mounts != NULL || other->has_details) &&
      !_kiste_box_strv_equal0 ((const char * const *) self->mounts,
                               (const char * const *) other->mounts))
    return FALSE;

  if (other->has_details &&
      !(self->has_details &&
        self->ipc_mode == other->ipc_mode &&
        self->net_mode == other->net_mode &&
        self->pid_mode == other->pid_mode &&
        g_strcmp0 (self->log_driver, other->log_driver) == 0 &&
        _kiste_box_strv_equal0 ((const char * const *) self->environ,
                                (const char * const *) other->environ) &&
        _kiste_box_strv_equal0 ((const char * const *) self->create_command,
                                (const char * const *) other->create_command)))
    return FALSE;

  return TRUE;
}

gboolean
kiste_box_update_from (KisteBox *self,
                       KisteBox *other)
{
  gboolean changed = FALSE;

  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);
  g_return_val_if_fail (KISTE_IS_BOX (other), FALSE);

  if (self == other || kiste_box_same_facts (self, other))
    return FALSE;

  g_object_freeze_notify (G_OBJECT (self));

  changed |= _kiste_box_set_string (self, &self->id, other->id, PROP_ID);
  changed |= _kiste_box_set_string (self, &self->name, other->name, PROP_NAME);
  changed |= _kiste_box_set_string (self, &self->image, other->image, PROP_IMAGE);
  /* the image follows its name's notification */
  g_set_str (&self->image_id, other->image_id);
  changed |= _kiste_box_set_string (self, &self->status, other->status, PROP_STATUS);
  changed |= _kiste_box_set_state (self, other->state);
  if (self->created != other->created)
    {
      self->created = other->created;
      _kiste_box_notify (self, PROP_CREATED);
      changed = TRUE;
    }
  changed |= set_labels (self, other->labels);
  changed |= _kiste_box_set_string (self, &self->home, other->home, PROP_HOME);
  changed |= _kiste_box_set_string (self, &self->user, other->user, PROP_USER);
  changed |= _kiste_box_set_bool (self, &self->init, other->init, PROP_INIT);
  changed |= _kiste_box_set_bool (self, &self->nvidia, other->nvidia, PROP_NVIDIA);

  /* Not notified: only the setup watch reads it, when the state changes */
  if (other->started > 0)
    self->started = other->started;

  /* Not notified: inputs of _kiste_box_derive(), which notifies the results */
  g_set_str (&self->host_home, other->host_home);
  self->podman_shape = other->podman_shape;
  self->home_hint = other->home_hint;

  /* A container's mounts and namespaces never change, so what only the
   * details know survives a refresh from ps (docker's ps lacks mounts). */
  if (other->mounts != NULL || other->has_details)
    changed |= _kiste_box_set_strv (self, &self->mounts, (const char * const *) other->mounts,
                                    PROP_MOUNTS);

  if (other->has_details)
    {
      changed |= _kiste_box_set_string (self, &self->log_driver, other->log_driver, PROP_LOG_DRIVER);
      changed |= _kiste_box_set_strv (self, &self->environ, (const char * const *) other->environ,
                                      PROP_ENVIRON);
      changed |= _kiste_box_set_strv (self, &self->create_command,
                                      (const char * const *) other->create_command, PROP_CREATE_COMMAND);
      self->ipc_mode = other->ipc_mode;
      self->net_mode = other->net_mode;
      self->pid_mode = other->pid_mode;
      changed |= _kiste_box_set_bool (self, &self->has_details, TRUE, PROP_HAS_DETAILS);
    }

  changed |= _kiste_box_derive (self, TRUE);

  g_object_thaw_notify (G_OBJECT (self));

  return changed;
}

/* A detached copy of every fact, to apply inspect output to before merging
 * it back with kiste_box_update_from(), so notifications stay in one place. */
static KisteBox *
kiste_box_copy (KisteBox *self)
{
  KisteBox *copy = g_object_new (KISTE_TYPE_BOX, NULL);

  copy->id = g_strdup (self->id);
  copy->name = g_strdup (self->name);
  copy->image = g_strdup (self->image);
  copy->image_id = g_strdup (self->image_id);
  copy->status = g_strdup (self->status);
  copy->home = g_strdup (self->home);
  copy->user = g_strdup (self->user);
  copy->host_home = g_strdup (self->host_home);
  g_hash_table_unref (copy->labels);
  copy->labels = _kiste_box_labels_copy (self->labels);
  copy->mounts = g_strdupv (self->mounts);
  copy->created = self->created;
  copy->started = self->started;
  copy->state = self->state;
  copy->home_hint = self->home_hint;
  copy->log_driver = g_strdup (self->log_driver);
  copy->environ = g_strdupv (self->environ);
  copy->create_command = g_strdupv (self->create_command);
  copy->ipc_mode = self->ipc_mode;
  copy->net_mode = self->net_mode;
  copy->pid_mode = self->pid_mode;
  copy->init = self->init;
  copy->nvidia = self->nvidia;
  copy->podman_shape = self->podman_shape;
  copy->has_details = self->has_details;

  return copy;
}

gboolean
kiste_box_apply_inspect_json (KisteBox    *self,
                              JsonObject  *object,
                              GError     **error)
{
  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);

  return _kiste_box_apply_inspect (self, object, self->state_stamp, error);
}

/* state_stamp: the box's when inspect started. A newer state (from an
 * event or a listing) stays: these details may have been read before it. */
gboolean
_kiste_box_apply_inspect (KisteBox    *self,
                          JsonObject  *object,
                          guint        state_stamp,
                          GError     **error)
{
  g_autoptr(KisteBox) copy = NULL;
  g_autofree char *name_copy = NULL;
  InitArgs args = { 0 };
  JsonObject *config;
  JsonObject *host_config;
  JsonObject *state;
  JsonObject *log_config;
  JsonArray *array;
  const char *id;
  const char *name;
  const char *value;

  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);
  g_return_val_if_fail (object != NULL, FALSE);

  id = get_string (object, "Id");
  config = get_object (object, "Config");
  host_config = get_object (object, "HostConfig");

  if (id == NULL || config == NULL || host_config == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The details of box “%s” are incomplete."), self->name);
      return FALSE;
    }

  if (!g_str_equal (id, self->id))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The details of box “%s” belong to another container."), self->name);
      return FALSE;
    }

  copy = kiste_box_copy (self);

  if ((name = first_name (object, &name_copy)) && name[0] != '\0')
    g_set_str (&copy->name, name);

  /* podman's ImageName is what ps shows; docker only has Config.Image */
  if ((value = get_string (object, "ImageName")) || (value = get_string (config, "Image")))
    g_set_str (&copy->image, value);

  if ((value = get_string (object, "Created")) && parse_time (value) > 0)
    copy->created = parse_time (value);

  if (state_stamp != self->state_stamp)
    state = NULL;
  else if ((state = get_object (object, "State")) && (value = get_string (state, "Status")))
    {
      KisteBoxState parsed = state_from_string (value);

      if (parsed != KISTE_BOX_STATE_UNKNOWN)
        copy->state = parsed;
    }
  if (state != NULL && (value = get_string (state, "StartedAt")) && parse_time (value) > 0)
    copy->started = parse_time (value);

  g_hash_table_remove_all (copy->labels);
  if (get_object (config, "Labels"))
    labels_add_object (copy->labels, get_object (config, "Labels"));

  g_clear_pointer (&copy->environ, g_strfreev);
  if ((array = get_array (config, "Env")))
    copy->environ = strv_from_array (array);
  else
    copy->environ = g_new0 (char *, 1);

  g_clear_pointer (&copy->create_command, g_strfreev);
  if ((array = get_array (config, "CreateCommand")))
    copy->create_command = strv_from_array (array);

  if ((array = get_array (config, "Cmd")))
    {
      g_auto(GStrv) argv = strv_from_array (array);

      parse_init_argv ((const char * const *) argv, &args);
      if (args.found)
        {
          g_set_str (&copy->home, args.home);
          g_set_str (&copy->user, args.user);
          copy->init = !!args.init;
          copy->nvidia = !!args.nvidia;
        }
      init_args_clear (&args);
    }

  g_clear_pointer (&copy->mounts, g_strfreev);
  if ((array = get_array (object, "Mounts")))
    copy->mounts = mounts_from_array (array);
  else
    copy->mounts = g_new0 (char *, 1);

  copy->ipc_mode = sharing_from_mode (host_config, "IpcMode");
  copy->net_mode = sharing_from_mode (host_config, "NetworkMode");
  copy->pid_mode = sharing_from_mode (host_config, "PidMode");

  g_clear_pointer (&copy->log_driver, g_free);
  if ((log_config = get_object (host_config, "LogConfig")) &&
      (value = get_string (log_config, "Type")) && value[0] != '\0')
    copy->log_driver = g_strdup (value);

  copy->has_details = TRUE;

  kiste_box_update_from (self, copy);

  return TRUE;
}
