/* kiste-capabilities.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "kiste-capabilities-private.h"
#include "kiste-error.h"

/* Generous: `distrobox create --help` sources the user's config files */
#define PROBE_TIMEOUT_MS 20000

#define ENV_MANAGER "DBX_CONTAINER_MANAGER"

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
  guint         distrobox_is_own : 1;   /* found in last_path_dir only */
};

G_DEFINE_FINAL_TYPE (KisteCapabilities, kiste_capabilities, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_LOADED,
  PROP_DISTROBOX_VERSION,
  PROP_MANAGER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* First tag of each create flag that appeared after 1.5 (distrobox.md §3) */
static const struct
{
  const char *flag;
  const char *since;
} first_tags[] = {
  { "--unshare-devsys", "1.6.0" },
  { "--unshare-ipc", "1.6.0" },
  { "--unshare-netns", "1.6.0" },
  { "--unshare-process", "1.6.0" },
  { "--unshare-all", "1.6.0" },
  { "--unshare-groups", "1.7.0" },
  { "--clean-path", "1.7.1" },
  { "--platform", "1.8.1" },
};

/* Everything one refresh finds out, applied to the object in one go */
typedef struct
{
  guint    serial;
  guint    pending;

  char    *env_manager;
  char    *config_manager;
  char    *config_source;

  char    *distrobox_out;
  GError  *distrobox_error;
  char    *help_out;
  GError  *help_error;
  char    *podman_out;
  GError  *podman_error;
  char    *docker_out;
  GError  *docker_error;

  /* distrobox --version, podman, docker and the configuration: all the
   * manager to list with needs, when known before create --help */
  guint    early_pending;
  char    *preferred;
  KisteCapabilitiesEarlyFunc early_func;
  gpointer early_data;
} Probe;

static void
probe_free (Probe *probe)
{
  g_free (probe->env_manager);
  g_free (probe->config_manager);
  g_free (probe->config_source);
  g_free (probe->distrobox_out);
  g_clear_error (&probe->distrobox_error);
  g_free (probe->help_out);
  g_clear_error (&probe->help_error);
  g_free (probe->podman_out);
  g_clear_error (&probe->podman_error);
  g_free (probe->docker_out);
  g_clear_error (&probe->docker_error);
  g_free (probe->preferred);
  g_free (probe);
}

/* Parsers ---------------------------------------------------------------- */

char *
kiste_capabilities_parse_version (const char *output,
                                  const char *program)
{
  g_autoptr(GRegex) regex = NULL;
  g_auto(GStrv) lines = NULL;

  if (output == NULL)
    return NULL;

  regex = g_regex_new ("([0-9]+(\\.[0-9]+)+(-rc\\.[0-9]+)?)", G_REGEX_OPTIMIZE, 0, NULL);
  g_assert (regex != NULL);

  lines = g_strsplit (output, "\n", -1);

  /* Config files sourced by distrobox may print before the version line */
  for (guint pass = (program != NULL ? 0 : 1); pass < 2; pass++)
    {
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_autoptr(GMatchInfo) match = NULL;
          const char *line = lines[i];

          while (g_ascii_isspace (*line))
            line++;

          if (pass == 0 && g_ascii_strncasecmp (line, program, strlen (program)) != 0)
            continue;

          if (g_regex_match (regex, line, 0, &match))
            return g_match_info_fetch (match, 1);
        }
    }

  return NULL;
}

guint
kiste_capabilities_parse_major (const char *version)
{
  guint64 major;
  char *end = NULL;

  if (version == NULL || !g_ascii_isdigit (version[0]))
    return 0;

  major = g_ascii_strtoull (version, &end, 10);
  if (end == version || major > G_MAXUINT)
    return 0;

  return (guint)major;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *)a, *(const char * const *)b);
}

char **
kiste_capabilities_parse_create_help (const char *help)
{
  g_autoptr(GPtrArray) flags = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) unique = g_ptr_array_new ();
  g_auto(GStrv) lines = NULL;

  if (help == NULL)
    return g_new0 (char *, 1);

  lines = g_strsplit (help, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p = lines[i];
      const char *start;

      while (*p == ' ' || *p == '\t')
        p++;

      /* "-i, --image" style: a short alias may come first */
      if (p[0] == '-' && g_ascii_isalnum (p[1]))
        {
          while (*p != '\0' && *p != ',' && *p != ' ' && *p != '\t')
            p++;
          if (*p != ',')
            continue;
          p++;
          while (*p == ' ' || *p == '\t')
            p++;
        }

      if (!(p[0] == '-' && p[1] == '-' && g_ascii_isalnum (p[2])))
        continue;

      start = p;
      p += 2;
      while (g_ascii_isalnum (*p) || *p == '-')
        p++;

      g_ptr_array_add (flags, g_strndup (start, p - start));
    }

  g_ptr_array_sort (flags, compare_strings);

  for (guint i = 0; i < flags->len; i++)
    {
      const char *flag = g_ptr_array_index (flags, i);

      if (unique->len == 0 || !g_str_equal (g_ptr_array_index (unique, unique->len - 1), flag))
        g_ptr_array_add (unique, g_strdup (flag));
    }

  g_ptr_array_add (unique, NULL);

  return (char **)g_ptr_array_steal (unique, NULL);
}

static gboolean
is_manager_value_char (char c)
{
  return g_ascii_isalnum (c) || c == '-' || c == '_';
}

/* One line's value for container_manager, or NULL if the line does not
 * assign it in a way we can read without evaluating anything */
static char *
parse_config_line (const char *line)
{
  static const char key[] = "container_manager";
  const char *p = line;
  const char *value;
  gsize value_len = 0;
  char quote = '\0';

  while (*p == ' ' || *p == '\t')
    p++;

  if (g_str_has_prefix (p, "export "))
    p += strlen ("export ");

  if (!g_str_has_prefix (p, key))
    return NULL;
  p += strlen (key);

  /* v1 files are shell (no spaces around "="), v2 files INI (spaces ok) */
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p != '=')
    return NULL;
  p++;
  while (*p == ' ' || *p == '\t')
    p++;

  if (*p == '"' || *p == '\'')
    quote = *p++;

  value = p;
  while (is_manager_value_char (value[value_len]))
    value_len++;
  p = value + value_len;

  if (quote != '\0')
    {
      if (*p != quote)
        return NULL;
      p++;
    }

  /* anything but a comment or a command separator means an expression */
  while (*p == ' ' || *p == '\t')
    p++;
  if (!(*p == '\0' || *p == '#' || *p == ';' || *p == '\r'))
    return NULL;

  if (value_len == 0)
    return NULL;

  return g_strndup (value, value_len);
}

char *
kiste_capabilities_parse_config_manager (const char *contents)
{
  g_auto(GStrv) lines = NULL;
  char *result = NULL;

  if (contents == NULL)
    return NULL;

  lines = g_strsplit (contents, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *value = parse_config_line (lines[i]);

      if (value != NULL)
        {
          g_free (result);
          result = value;
        }
    }

  return result;
}

typedef struct
{
  guint64 parts[8];
  guint   n_parts;
  guint64 rc;       /* G_MAXUINT64 for a release */
} Version;

static void
version_parse (const char *str,
               Version    *version)
{
  const char *p = str;

  memset (version, 0, sizeof *version);
  version->rc = G_MAXUINT64;

  while (g_ascii_isdigit (*p) && version->n_parts < G_N_ELEMENTS (version->parts))
    {
      char *end = NULL;

      version->parts[version->n_parts++] = g_ascii_strtoull (p, &end, 10);
      p = end;
      if (*p != '.')
        break;
      p++;
    }

  if ((p = strstr (p, "-rc")) != NULL)
    {
      p += strlen ("-rc");
      if (*p == '.')
        p++;
      version->rc = g_ascii_isdigit (*p) ? g_ascii_strtoull (p, NULL, 10) : 0;
    }
}

int
kiste_capabilities_compare_versions (const char *a,
                                     const char *b)
{
  Version va, vb;
  guint n;

  g_return_val_if_fail (a != NULL && b != NULL, 0);

  version_parse (a, &va);
  version_parse (b, &vb);

  n = MAX (va.n_parts, vb.n_parts);
  for (guint i = 0; i < n; i++)
    {
      guint64 pa = i < va.n_parts ? va.parts[i] : 0;
      guint64 pb = i < vb.n_parts ? vb.parts[i] : 0;

      if (pa != pb)
        return pa < pb ? -1 : 1;
    }

  if (va.rc != vb.rc)
    return va.rc < vb.rc ? -1 : 1;

  return 0;
}

char **
kiste_capabilities_dup_default_config_files (const char *distrobox_path)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *home = g_getenv ("HOME");
  const char *config_home = g_getenv ("XDG_CONFIG_HOME");
  g_autofree char *user_config_home = NULL;

  if (home == NULL || home[0] == '\0')
    home = g_get_home_dir ();

  /* Nix ships its config beside the scripts */
  if (distrobox_path != NULL)
    {
      g_autofree char *resolved = realpath (distrobox_path, NULL);
      g_autofree char *dir = g_path_get_dirname (resolved ? resolved : distrobox_path);

      g_strv_builder_take (builder, g_build_filename (dir, "..", "share", "distrobox",
                                                      "distrobox.conf", NULL));
    }

  g_strv_builder_add_many (builder,
                           "/usr/share/distrobox/distrobox.conf",
                           "/usr/share/defaults/distrobox/distrobox.conf",
                           "/usr/etc/distrobox/distrobox.conf",
                           "/usr/local/share/distrobox/distrobox.conf",
                           "/etc/distrobox/distrobox.conf",
                           NULL);

  if (config_home != NULL && config_home[0] != '\0')
    user_config_home = g_strdup (config_home);
  else
    user_config_home = g_build_filename (home, ".config", NULL);

  g_strv_builder_take (builder, g_build_filename (user_config_home, "distrobox",
                                                  "distrobox.conf", NULL));
  g_strv_builder_take (builder, g_build_filename (home, ".distroboxrc", NULL));

  return g_strv_builder_end (builder);
}

/* Object ----------------------------------------------------------------- */

static void
kiste_capabilities_finalize (GObject *object)
{
  KisteCapabilities *self = (KisteCapabilities *)object;

  g_clear_object (&self->runner);
  g_clear_pointer (&self->last_path_dir, g_free);
  g_clear_pointer (&self->config_files, g_strfreev);
  g_clear_pointer (&self->distrobox_version, g_free);
  g_clear_pointer (&self->podman_version, g_free);
  g_clear_pointer (&self->docker_version, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->manager_source, g_free);
  g_clear_pointer (&self->distrobox_problem, g_free);
  g_clear_pointer (&self->manager_problem, g_free);
  g_clear_pointer (&self->create_flags, g_strfreev);

  G_OBJECT_CLASS (kiste_capabilities_parent_class)->finalize (object);
}

static void
kiste_capabilities_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  KisteCapabilities *self = KISTE_CAPABILITIES (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;

    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    case PROP_DISTROBOX_VERSION:
      g_value_set_string (value, self->distrobox_version);
      break;

    case PROP_MANAGER:
      g_value_set_string (value, self->manager);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_capabilities_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  KisteCapabilities *self = KISTE_CAPABILITIES (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_capabilities_class_init (KisteCapabilitiesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_capabilities_finalize;
  object_class->get_property = kiste_capabilities_get_property;
  object_class->set_property = kiste_capabilities_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL,
                         KISTE_TYPE_RUNNER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DISTROBOX_VERSION] =
    g_param_spec_string ("distrobox-version", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MANAGER] =
    g_param_spec_string ("manager", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_capabilities_init (KisteCapabilities *self)
{
  self->create_flags = g_new0 (char *, 1);
}

KisteCapabilities *
kiste_capabilities_new (KisteRunner *runner)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);

  return g_object_new (KISTE_TYPE_CAPABILITIES,
                       "runner", runner,
                       NULL);
}

/* Applying results ------------------------------------------------------- */

static void
notify_all (KisteCapabilities *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISTROBOX_VERSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MANAGER]);
}

static void
clear_results (KisteCapabilities *self)
{
  g_clear_pointer (&self->distrobox_version, g_free);
  g_clear_pointer (&self->podman_version, g_free);
  g_clear_pointer (&self->docker_version, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->manager_source, g_free);
  g_clear_pointer (&self->distrobox_problem, g_free);
  g_clear_pointer (&self->manager_problem, g_free);
  g_clear_pointer (&self->create_flags, g_strfreev);
  self->create_flags = g_new0 (char *, 1);
  self->distrobox_major = 0;
  self->problem_code = KISTE_ERROR_TOOL_MISSING;
  self->has_distrobox = FALSE;
  self->has_podman = FALSE;
  self->has_docker = FALSE;
}

static char *
dup_first_line (const char *text)
{
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  while (g_ascii_isspace (*text))
    text++;
  end = strchr (text, '\n');

  return end ? g_strndup (text, end - text) : g_strdup (text);
}

static gboolean
is_tool_missing (const GError *error)
{
  return g_error_matches (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
}

/* Keeps a timeout a timeout; anything else from outside our domain is a
 * failed command */
static int
error_code (const GError *error)
{
  return error->domain == KISTE_ERROR ? error->code : KISTE_ERROR_COMMAND_FAILED;
}

static void
choose_manager (KisteCapabilities *self,
                const char        *configured,
                const char        *source)
{
  if (configured == NULL || g_str_equal (configured, "autodetect"))
    {
      if (self->has_podman)
        self->manager = g_strdup ("podman");
      else if (self->has_docker)
        self->manager = g_strdup ("docker");
      else
        self->manager_problem =
          g_strdup (_("No container manager was found. Install podman (recommended) or docker, "
                      "then try again."));
      return;
    }

  self->manager_source = g_strdup (source);

  if (g_str_equal (configured, "podman") || g_str_equal (configured, "docker"))
    {
      if (kiste_capabilities_has_manager (self, configured))
        self->manager = g_strdup (configured);
      else
        self->manager_problem =
          g_strdup_printf (_("distrobox is set to use %s (in %s), but %s is not installed. "
                             "Install it or change that setting."),
                           configured, source, configured);
      return;
    }

  self->manager_problem =
    g_strdup_printf (_("distrobox is set to use “%s” (in %s), but Kiste works only with podman "
                       "or docker. Change that setting to use Kiste."),
                     configured, source);
}

static void
apply_probe (KisteCapabilities *self,
             Probe             *probe)
{
  const char *configured = probe->env_manager;
  const char *source = ENV_MANAGER;

  clear_results (self);
  self->loaded = TRUE;

  if (probe->distrobox_error != NULL)
    {
      if (is_tool_missing (probe->distrobox_error))
        self->distrobox_problem =
          g_strdup (_("distrobox is not installed. Kiste needs it to create and run boxes: "
                      "install the “distrobox” package, then try again."));
      else
        {
          self->has_distrobox = TRUE;
          self->problem_code = error_code (probe->distrobox_error);
          self->distrobox_problem =
            g_strdup_printf (_("distrobox did not say which version it is: %s"),
                             probe->distrobox_error->message);
        }
    }
  else
    {
      self->has_distrobox = TRUE;
      self->distrobox_version = kiste_capabilities_parse_version (probe->distrobox_out, "distrobox");
      self->distrobox_major = kiste_capabilities_parse_major (self->distrobox_version);

      if (self->distrobox_version == NULL)
        {
          g_autofree char *line = dup_first_line (probe->distrobox_out);

          self->problem_code = KISTE_ERROR_BAD_OUTPUT;
          self->distrobox_problem =
            g_strdup_printf (_("distrobox printed a version Kiste cannot read: “%s”"), line);
        }
      else if (probe->help_error != NULL)
        {
          self->problem_code = error_code (probe->help_error);
          self->distrobox_problem =
            g_strdup_printf (_("distrobox did not list its options: %s"),
                             probe->help_error->message);
        }
      else
        {
          g_strfreev (self->create_flags);
          self->create_flags = kiste_capabilities_parse_create_help (probe->help_out);
        }
    }

  self->has_podman = probe->podman_error == NULL || !is_tool_missing (probe->podman_error);
  if (probe->podman_error == NULL)
    self->podman_version = kiste_capabilities_parse_version (probe->podman_out, "podman");

  self->has_docker = probe->docker_error == NULL || !is_tool_missing (probe->docker_error);
  if (probe->docker_error == NULL)
    self->docker_version = kiste_capabilities_parse_version (probe->docker_out, "docker");

  if (configured == NULL || configured[0] == '\0')
    {
      configured = probe->config_manager;
      source = probe->config_source;
    }

  choose_manager (self, configured, source);

  if (self->distrobox_problem == NULL && self->manager_problem != NULL)
    self->problem_code = KISTE_ERROR_TOOL_MISSING;

  notify_all (self);
}

/* Refresh ---------------------------------------------------------------- */

static void
probe_step_done (GTask *task)
{
  KisteCapabilities *self = g_task_get_source_object (task);
  Probe *probe = g_task_get_task_data (task);
  const char *problem;

  g_assert (probe->pending > 0);

  if (--probe->pending > 0)
    return;

  if (g_task_return_error_if_cancelled (task))
    return;

  /* an older refresh finishing late must not overwrite newer results */
  if (probe->serial > self->applied_serial)
    {
      self->applied_serial = probe->serial;
      apply_probe (self, probe);
    }

  problem = self->distrobox_problem ? self->distrobox_problem : self->manager_problem;
  if (problem != NULL)
    g_task_return_new_error_literal (task, KISTE_ERROR, self->problem_code, problem);
  else
    g_task_return_boolean (task, TRUE);
}

/* The manager a load would list with once this refresh is done, as far
 * as it can be told before create --help answers; NULL when the load is
 * going to fail anyway (no distrobox, no manager). Follows apply_probe(),
 * choose_manager() and the manager's preference. */
static char *
probe_dup_early_manager (Probe *probe)
{
  g_autofree char *version = NULL;
  const char *configured = probe->env_manager;
  const char *chosen = NULL;
  gboolean has_podman = probe->podman_error == NULL || !is_tool_missing (probe->podman_error);
  gboolean has_docker = probe->docker_error == NULL || !is_tool_missing (probe->docker_error);

  if (probe->distrobox_error != NULL ||
      (version = kiste_capabilities_parse_version (probe->distrobox_out, "distrobox")) == NULL)
    return NULL;

  if (configured == NULL || configured[0] == '\0')
    configured = probe->config_manager;

  if (configured == NULL || g_str_equal (configured, "autodetect"))
    chosen = has_podman ? "podman" : has_docker ? "docker" : NULL;
  else if (g_str_equal (configured, "podman") && has_podman)
    chosen = "podman";
  else if (g_str_equal (configured, "docker") && has_docker)
    chosen = "docker";

  if (g_strcmp0 (probe->preferred, "podman") == 0 && has_podman)
    chosen = "podman";
  else if (g_strcmp0 (probe->preferred, "docker") == 0 && has_docker)
    chosen = "docker";

  return g_strdup (chosen);
}

/* Before probe_step_done(), so the early call comes before completion */
static void
probe_early_step_done (GTask *task)
{
  Probe *probe = g_task_get_task_data (task);
  g_autofree char *manager = NULL;

  if (probe->early_pending == 0 || --probe->early_pending > 0 || probe->early_func == NULL)
    return;

  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    return;

  if ((manager = probe_dup_early_manager (probe)) != NULL)
    probe->early_func (manager, probe->early_data);
}

typedef enum
{
  PROBE_DISTROBOX_VERSION,
  PROBE_CREATE_HELP,
  PROBE_PODMAN,
  PROBE_DOCKER,
} ProbeKind;

static void
store_result (GTask        *task,
              ProbeKind     kind,
              GObject      *runner,
              GAsyncResult *result)
{
  Probe *probe = g_task_get_task_data (task);
  char **out = NULL;
  GError **error = NULL;

  switch (kind)
    {
    case PROBE_DISTROBOX_VERSION:
      out = &probe->distrobox_out;
      error = &probe->distrobox_error;
      break;

    case PROBE_CREATE_HELP:
      out = &probe->help_out;
      error = &probe->help_error;
      break;

    case PROBE_PODMAN:
      out = &probe->podman_out;
      error = &probe->podman_error;
      break;

    case PROBE_DOCKER:
      out = &probe->docker_out;
      error = &probe->docker_error;
      break;

    default:
      g_assert_not_reached ();
    }

  kiste_runner_run_finish (KISTE_RUNNER (runner), result, out, NULL, error);

  if (kind != PROBE_CREATE_HELP)
    probe_early_step_done (task);
  probe_step_done (task);
}

static void
distrobox_version_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_DISTROBOX_VERSION, object, result);
}

static void
create_help_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_CREATE_HELP, object, result);
}

static void
podman_version_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_PODMAN, object, result);
}

static void
docker_version_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  store_result (task, PROBE_DOCKER, object, result);
}

typedef struct
{
  char *manager;
  char *source;
} ConfigResult;

static void
config_result_free (ConfigResult *result)
{
  g_free (result->manager);
  g_free (result->source);
  g_free (result);
}

/* In a worker thread: the files are small, but some may sit on slow mounts */
static void
read_config_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  const char * const *explicit_files = task_data;
  g_auto(GStrv) default_files = NULL;
  const char * const *files = explicit_files;
  ConfigResult *result = g_new0 (ConfigResult, 1);

  if (files == NULL)
    {
      g_autofree char *distrobox_path = g_find_program_in_path ("distrobox");

      default_files = kiste_capabilities_dup_default_config_files (distrobox_path);
      files = (const char * const *)default_files;
    }

  for (guint i = 0; files[i] != NULL; i++)
    {
      g_autofree char *contents = NULL;
      g_autofree char *value = NULL;

      if (!g_file_get_contents (files[i], &contents, NULL, NULL))
        continue;

      if ((value = kiste_capabilities_parse_config_manager (contents)) != NULL)
        {
          g_free (result->manager);
          g_free (result->source);
          result->manager = g_steal_pointer (&value);
          result->source = g_strdup (files[i]);
        }
    }

  g_task_return_pointer (task, result, (GDestroyNotify)config_result_free);
}

static void
read_config_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Probe *probe = g_task_get_task_data (task);
  ConfigResult *config;

  config = g_task_propagate_pointer (G_TASK (result), NULL);
  if (config != NULL)
    {
      probe->config_manager = g_steal_pointer (&config->manager);
      probe->config_source = g_steal_pointer (&config->source);
      config_result_free (config);
    }

  probe_early_step_done (task);
  probe_step_done (task);
}

/**
 * kiste_capabilities_parse_login_path:
 * @output: what the host login shell printed
 *
 * Profiles may print anything; the value is the last line that starts
 * with KISTE_HOST_PATH=. Only a list of absolute folders is accepted.
 *
 * Returns: (transfer full) (nullable): the PATH
 */
char *
kiste_capabilities_parse_login_path (const char *output)
{
  g_auto(GStrv) lines = NULL;
  const char *found = NULL;
  g_auto(GStrv) dirs = NULL;

  if (output == NULL)
    return NULL;

  lines = g_strsplit (output, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "KISTE_HOST_PATH="))
      found = lines[i] + strlen ("KISTE_HOST_PATH=");

  if (found == NULL || found[0] == '\0')
    return NULL;

  dirs = g_strsplit (found, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    if (!g_path_is_absolute (dirs[i]) || strchr (dirs[i], '\r') != NULL)
      return NULL;

  return g_strdup (found);
}

/* Takes the reference it is given */
static void
start_probes (GTask *task_owned)
{
  static const char * const distrobox_version_argv[] = { "distrobox", "--version", NULL };
  static const char * const create_help_argv[] = { "distrobox", "create", "--help", NULL };
  static const char * const podman_argv[] = { "podman", "--version", NULL };
  static const char * const docker_argv[] = { "docker", "--version", NULL };
  g_autoptr(GTask) task = task_owned;
  KisteCapabilities *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GTask) config_task = NULL;

  kiste_runner_run_async (self->runner, distrobox_version_argv, PROBE_TIMEOUT_MS, cancellable,
                          distrobox_version_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, create_help_argv, PROBE_TIMEOUT_MS, cancellable,
                          create_help_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, podman_argv, PROBE_TIMEOUT_MS, cancellable,
                          podman_version_cb, g_object_ref (task));
  kiste_runner_run_async (self->runner, docker_argv, PROBE_TIMEOUT_MS, cancellable,
                          docker_version_cb, g_object_ref (task));

  config_task = g_task_new (self, cancellable, read_config_cb, g_object_ref (task));
  g_task_set_source_tag (config_task, read_config_thread);
  g_task_set_task_data (config_task, g_strdupv (self->config_files), (GDestroyNotify)g_strfreev);
  g_task_run_in_thread (config_task, read_config_thread);
}

static void
login_path_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KisteCapabilities *self = g_task_get_source_object (task);
  g_autofree char *output = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  self->distrobox_is_own = FALSE;
  if (kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      path = kiste_capabilities_parse_login_path (output);
      /* the host's PATH has no distrobox: if one is found, it is Kiste's */
      self->distrobox_is_own = path != NULL && self->last_path_dir != NULL &&
                               strstr (output, "\nKISTE_HOST_DISTROBOX=\n") != NULL &&
                               g_file_test (self->last_path_dir, G_FILE_TEST_IS_DIR);
    }
  else
    g_debug ("Could not ask the host's login shell for its PATH: %s", error->message);

  /* Kiste's own copy of distrobox comes last: the host's wins */
  if (self->last_path_dir != NULL && g_file_test (self->last_path_dir, G_FILE_TEST_IS_DIR))
    {
      char *longer = g_strconcat (path ? path : "/usr/local/bin:/usr/bin:/bin", ":",
                                  self->last_path_dir, NULL);

      g_free (path);
      path = longer;
    }

  if (path != NULL)
    kiste_runner_setenv (self->runner, "PATH", path);

  start_probes (g_steal_pointer (&task));
}

void
_kiste_capabilities_refresh_early_async (KisteCapabilities          *self,
                                         const char                 *preferred,
                                         KisteCapabilitiesEarlyFunc  early_func,
                                         gpointer                    early_data,
                                         GCancellable               *cancellable,
                                         GAsyncReadyCallback         callback,
                                         gpointer                    user_data)
{
  /* flatpak-spawn runs host commands with the session helper's PATH, which
   * lacks what the user's profile adds (~/.local/bin, Homebrew): ask a login
   * shell once per refresh. The script is constant. */
  static const char * const login_path_argv[] = {
    "sh", "-c",
    "shell=$(getent passwd \"$(id -un)\" | cut -d: -f7); "
    "exec \"${shell:-/bin/sh}\" -l -c "
    "'printf \"\\nKISTE_HOST_PATH=%s\\nKISTE_HOST_DISTROBOX=%s\\n\" \"$PATH\" \"$(command -v distrobox)\"' </dev/null",
    NULL
  };
  g_autoptr(GTask) task = NULL;
  Probe *probe;

  g_return_if_fail (KISTE_IS_CAPABILITIES (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_capabilities_refresh_async);

  probe = g_new0 (Probe, 1);
  probe->serial = ++self->started_serial;
  probe->env_manager = g_strdup (g_getenv (ENV_MANAGER));
  probe->pending = 5;
  probe->early_pending = 4;
  probe->preferred = g_strdup (preferred);
  probe->early_func = early_func;
  probe->early_data = early_data;
  g_task_set_task_data (task, probe, (GDestroyNotify)probe_free);

  if (kiste_runner_get_in_flatpak (self->runner))
    {
      kiste_runner_run_async (self->runner, login_path_argv, PROBE_TIMEOUT_MS, cancellable,
                              login_path_cb, g_steal_pointer (&task));
      return;
    }

  start_probes (g_steal_pointer (&task));
}

void
kiste_capabilities_refresh_async (KisteCapabilities   *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  _kiste_capabilities_refresh_early_async (self, NULL, NULL, NULL, cancellable, callback, user_data);
}

gboolean
kiste_capabilities_refresh_finish (KisteCapabilities  *self,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_capabilities_refresh_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Getters ---------------------------------------------------------------- */

gboolean
kiste_capabilities_get_loaded (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->loaded;
}

gboolean
kiste_capabilities_has_distrobox (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->has_distrobox;
}

const char *
kiste_capabilities_get_distrobox_version (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->distrobox_version;
}

guint
kiste_capabilities_get_distrobox_major (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), 0);

  return self->distrobox_major;
}

const char *
kiste_capabilities_get_manager (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager;
}

const char *
kiste_capabilities_get_manager_source (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager_source;
}

const char *
kiste_capabilities_get_manager_version (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  if (g_strcmp0 (self->manager, "podman") == 0)
    return self->podman_version;
  if (g_strcmp0 (self->manager, "docker") == 0)
    return self->docker_version;

  return NULL;
}

gboolean
kiste_capabilities_has_manager (KisteCapabilities *self,
                                const char        *name)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (g_str_equal (name, "podman"))
    return self->has_podman;
  if (g_str_equal (name, "docker"))
    return self->has_docker;

  return FALSE;
}

const char *
kiste_capabilities_get_distrobox_problem (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->distrobox_problem;
}

const char *
kiste_capabilities_get_manager_problem (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager_problem;
}

const char * const *
kiste_capabilities_get_create_flags (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return (const char * const *)self->create_flags;
}

gboolean
kiste_capabilities_supports_create_flag (KisteCapabilities *self,
                                         const char        *flag)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (flag != NULL, FALSE);

  return self->loaded &&
         self->has_distrobox &&
         g_strv_contains ((const char * const *)self->create_flags, flag);
}

gboolean
kiste_capabilities_can_isolate_home (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  if (kiste_capabilities_supports_create_flag (self, "--unshare-home"))
    return TRUE;

  /* The dry run's shape is known for distrobox 1.8 and later 1.x only */
  return self->distrobox_major == 1 &&
         kiste_capabilities_compare_versions (self->distrobox_version, "1.8.0") >= 0 &&
         kiste_capabilities_supports_create_flag (self, "--dry-run") &&
         (g_strcmp0 (self->manager, "podman") == 0 || g_strcmp0 (self->manager, "docker") == 0);
}

char *
kiste_capabilities_dup_unsupported_reason (KisteCapabilities *self,
                                           const char        *flag)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);
  g_return_val_if_fail (flag != NULL, NULL);

  if (kiste_capabilities_supports_create_flag (self, flag))
    return NULL;
  if (g_str_equal (flag, "--unshare-home") && kiste_capabilities_can_isolate_home (self))
    return NULL;

  if (!self->loaded)
    return g_strdup (_("Checking the installed distrobox…"));

  if (!self->has_distrobox)
    return g_strdup (_("distrobox is not installed"));

  if (self->distrobox_version == NULL)
    return g_strdup (_("Not available in the installed distrobox"));

  if (g_str_equal (flag, "--unshare-home"))
    {
      if (self->distrobox_major == 1 &&
          kiste_capabilities_compare_versions (self->distrobox_version, "1.8.0") < 0)
        return g_strdup (_("Needs distrobox 1.8.0 or newer"));
      if (self->distrobox_major == 1 &&
          g_strcmp0 (self->manager, "podman") != 0 && g_strcmp0 (self->manager, "docker") != 0)
        return g_strdup (_("Needs Podman or Docker"));
    }

  for (guint i = 0; i < G_N_ELEMENTS (first_tags); i++)
    {
      if (g_str_equal (first_tags[i].flag, flag) &&
          kiste_capabilities_compare_versions (self->distrobox_version, first_tags[i].since) < 0)
        return g_strdup_printf (_("Needs distrobox %s or newer"), first_tags[i].since);
    }

  return g_strdup_printf (_("Not available in distrobox %s"), self->distrobox_version);
}

char *
kiste_capabilities_dup_unsupported_details (KisteCapabilities *self,
                                            const char        *flag)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);
  g_return_val_if_fail (flag != NULL, NULL);

  if (kiste_capabilities_supports_create_flag (self, flag))
    return NULL;

  if (g_str_equal (flag, "--unshare-home") && !kiste_capabilities_can_isolate_home (self))
    return g_strdup (_("A custom home folder only changes where the box keeps its own "
                       "files: your home folder is still mounted in the box."));

  return NULL;
}

/* Whether the distrobox in use is the one in the last PATH folder (Kiste's
 * own copy in the Flatpak), as the last refresh found */
gboolean
kiste_capabilities_get_distrobox_is_own (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->distrobox_is_own && self->has_distrobox;
}

/* A folder searched after the host's PATH for host commands (in the
 * Flatpak: Kiste's own copy of distrobox); used from the next refresh */
void
kiste_capabilities_set_last_path_dir (KisteCapabilities *self,
                                      const char        *dir)
{
  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  g_set_str (&self->last_path_dir, dir);
}

void
kiste_capabilities_set_config_files (KisteCapabilities  *self,
                                     const char * const *paths)
{
  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  g_clear_pointer (&self->config_files, g_strfreev);
  self->config_files = g_strdupv ((char **)paths);
}

void
kiste_capabilities_set_for_testing (KisteCapabilities  *self,
                                    const char         *distrobox_version,
                                    const char         *manager,
                                    const char * const *create_flags)
{
  g_autoptr(GPtrArray) flags = g_ptr_array_new_with_free_func (g_free);

  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  clear_results (self);
  self->loaded = TRUE;
  self->applied_serial = self->started_serial;

  if (distrobox_version != NULL)
    {
      self->has_distrobox = TRUE;
      self->distrobox_version = g_strdup (distrobox_version);
      self->distrobox_major = kiste_capabilities_parse_major (distrobox_version);
    }
  else
    self->distrobox_problem = g_strdup (_("distrobox is not installed."));

  if (manager != NULL)
    {
      self->manager = g_strdup (manager);
      self->has_podman = g_str_equal (manager, "podman");
      self->has_docker = g_str_equal (manager, "docker");
    }
  else
    self->manager_problem = g_strdup (_("No container manager was found."));

  for (guint i = 0; create_flags != NULL && create_flags[i] != NULL; i++)
    g_ptr_array_add (flags, g_strdup (create_flags[i]));
  g_ptr_array_sort (flags, compare_strings);
  g_ptr_array_add (flags, NULL);

  g_strfreev (self->create_flags);
  self->create_flags = (char **)g_ptr_array_steal (flags, NULL);

  notify_all (self);
}
