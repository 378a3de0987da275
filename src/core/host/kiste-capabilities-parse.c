/* kiste-capabilities-parse.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The capabilities' parsers: versions, `distrobox create --help`,
 * distrobox's config files and their container_manager, the host's
 * login PATH. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kiste-capabilities-state-private.h"

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

int
_kiste_capabilities_compare_strings (gconstpointer a,
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

  g_ptr_array_sort (flags, _kiste_capabilities_compare_strings);

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
