/* kiste-external-terminal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-external-terminal.h"

/* Where a terminal runs the command it is given */
typedef enum
{
  /* natively, or a Flatpak that starts its commands on the host itself:
   * Ptyxis through its agent on the host, WezTerm through flatpak-spawn */
  RUNS_ON_HOST,
  /* Konsole's Flatpak starts its command on the host with flatpak-spawn,
   * but first checks with `test -x` on the host that it is a path */
  RUNS_ON_HOST_BY_PATH,
  /* in the terminal's own sandbox (GNOME Console's Flatpak): the command
   * goes to the host through flatpak-spawn inside it */
  RUNS_IN_SANDBOX,
} Where;

typedef struct
{
  const char *id;
  const char *name;
  /* the program looked for on the host, or the Flatpak's app id */
  const char *program;
  const char *flatpak_id;
  Where where;
  /* what comes before the command */
  const char *args[4];
} Terminal;

/* The Flatpaks are those Flathub has (Ptyxis, Konsole, WezTerm) and GNOME
 * Console's (GNOME Nightly only); GNOME Terminal, kitty, Alacritty, foot
 * and XTerm have none. */
static const Terminal terminals[] = {
  { "ptyxis", N_("Ptyxis"), "ptyxis", NULL, RUNS_ON_HOST, { "--new-window", "--", NULL } },
  { "flatpak:app.devsuite.Ptyxis", N_("Ptyxis (Flatpak)"), NULL, "app.devsuite.Ptyxis",
    RUNS_ON_HOST, { "--new-window", "--", NULL } },
  { "kgx", N_("GNOME Console"), "kgx", NULL, RUNS_ON_HOST, { "--", NULL } },
  { "flatpak:org.gnome.Console", N_("GNOME Console (Flatpak)"), NULL, "org.gnome.Console",
    RUNS_IN_SANDBOX, { "--", NULL } },
  { "gnome-terminal", N_("GNOME Terminal"), "gnome-terminal", NULL, RUNS_ON_HOST, { "--", NULL } },
  { "konsole", N_("Konsole"), "konsole", NULL, RUNS_ON_HOST, { "-e", NULL } },
  { "flatpak:org.kde.konsole", N_("Konsole (Flatpak)"), NULL, "org.kde.konsole",
    RUNS_ON_HOST_BY_PATH, { "-e", NULL } },
  { "kitty", N_("kitty"), "kitty", NULL, RUNS_ON_HOST, { "--", NULL } },
  { "alacritty", N_("Alacritty"), "alacritty", NULL, RUNS_ON_HOST, { "-e", NULL } },
  { "wezterm", N_("WezTerm"), "wezterm", NULL, RUNS_ON_HOST, { "start", "--", NULL } },
  { "flatpak:org.wezfurlong.wezterm", N_("WezTerm (Flatpak)"), NULL, "org.wezfurlong.wezterm",
    RUNS_ON_HOST, { "start", "--", NULL } },
  { "foot", N_("foot"), "foot", NULL, RUNS_ON_HOST, { NULL } },
  { "xterm", N_("XTerm"), "xterm", NULL, RUNS_ON_HOST, { "-e", NULL } },
};

/* Programs, then `--`, then Flatpak app ids. Prints "program\tNAME" for
 * each program the host has; for each of the apps installed (in the order
 * `flatpak list` gives, so the user installation first), "flatpak\tID\t
 * INSTALLATION" and its permissions, overrides included, each line as
 * "permissions\tLINE". */
static const char detect_script[] =
  "while [ $# -gt 0 ] && [ \"$1\" != -- ]; do\n"
  "  command -v \"$1\" >/dev/null 2>&1 && printf 'program\\t%s\\n' \"$1\"\n"
  "  shift\n"
  "done\n"
  "[ $# -gt 0 ] && shift\n"
  "command -v flatpak >/dev/null 2>&1 || exit 0\n"
  "flatpak list --app --columns=application,installation 2>/dev/null |\n"
  "while IFS='\t' read -r id inst; do\n"
  "  for want in \"$@\"; do\n"
  "    [ \"$id\" = \"$want\" ] || continue\n"
  "    case $inst in\n"
  "      user) where=--user ;;\n"
  "      system) where=--system ;;\n"
  "      *) where=--installation=$inst ;;\n"
  "    esac\n"
  "    printf 'flatpak\\t%s\\t%s\\n' \"$id\" \"$inst\"\n"
  "    flatpak info \"$where\" --show-permissions \"$id\" 2>/dev/null |\n"
  "    while IFS= read -r line; do printf 'permissions\\t%s\\n' \"$line\"; done\n"
  "  done\n"
  "done\n"
  "exit 0\n";

static const Terminal *
find (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (terminals); i++)
    {
      if (g_str_equal (terminals[i].id, id))
        return &terminals[i];
    }

  return NULL;
}

const char * const *
kiste_external_terminal_get_ids (void)
{
  static const char *ids[G_N_ELEMENTS (terminals) + 1];

  if (ids[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (terminals); i++)
      ids[i] = terminals[i].id;

  return ids;
}

const char *
kiste_external_terminal_get_name (const char *id)
{
  const Terminal *terminal = find (id);

  return terminal ? _(terminal->name) : NULL;
}

const char *
kiste_external_terminal_get_program (const char *id)
{
  const Terminal *terminal = find (id);

  return terminal ? terminal->program : NULL;
}

const char *
kiste_external_terminal_get_flatpak_id (const char *id)
{
  const Terminal *terminal = find (id);

  return terminal ? terminal->flatpak_id : NULL;
}

char **
kiste_external_terminal_argv (const char         *id,
                              const char * const *command)
{
  const Terminal *terminal = find (id);
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (command != NULL && command[0] != NULL, NULL);

  if (terminal == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  if (terminal->flatpak_id != NULL)
    g_strv_builder_add_many (builder, "flatpak", "run", terminal->flatpak_id, NULL);
  else
    g_strv_builder_add (builder, terminal->program);
  g_strv_builder_addv (builder, (const char **) terminal->args);

  switch (terminal->where)
    {
    case RUNS_ON_HOST:
      break;

    case RUNS_ON_HOST_BY_PATH:
      if (!g_path_is_absolute (command[0]))
        g_strv_builder_add (builder, "/usr/bin/env");
      break;

    case RUNS_IN_SANDBOX:
      /* The host side gets the session helper's environment, not the
       * terminal's: it needs to know what terminal it talks to */
      g_strv_builder_add_many (builder, "flatpak-spawn", "--host", "--watch-bus",
                               "--env=TERM=xterm-256color", "--env=COLORTERM=truecolor", NULL);
      break;

    default:
      g_assert_not_reached ();
    }
  g_strv_builder_addv (builder, (const char **) command);

  return g_strv_builder_end (builder);
}

const char *
kiste_external_terminal_get_detect_script (void)
{
  return detect_script;
}

char **
kiste_external_terminal_detect_args (void)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < G_N_ELEMENTS (terminals); i++)
    if (terminals[i].program != NULL)
      g_strv_builder_add (builder, terminals[i].program);
  g_strv_builder_add (builder, "--");
  for (guint i = 0; i < G_N_ELEMENTS (terminals); i++)
    if (terminals[i].flatpak_id != NULL)
      g_strv_builder_add (builder, terminals[i].flatpak_id);

  return g_strv_builder_end (builder);
}

typedef struct
{
  char *installation;
  GString *permissions;
} Installed;

static void
installed_free (gpointer data)
{
  Installed *installed = data;

  g_free (installed->installation);
  g_string_free (installed->permissions, TRUE);
  g_free (installed);
}

/* Whether the app may start commands on the host (flatpak-spawn --host) */
static gboolean
may_talk_to_flatpak (const char *permissions)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autofree char *policy = NULL;

  if (!g_key_file_load_from_data (keyfile, permissions, -1, G_KEY_FILE_NONE, NULL))
    return FALSE;
  policy = g_key_file_get_string (keyfile, "Session Bus Policy", "org.freedesktop.Flatpak", NULL);

  return g_strcmp0 (policy, "talk") == 0 || g_strcmp0 (policy, "own") == 0;
}

char **
kiste_external_terminal_parse_detected (const char   *output,
                                        char       ***unusable)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) unusable_builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) programs = g_ptr_array_new ();
  g_autoptr(GHashTable) apps = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, installed_free);
  g_auto(GStrv) lines = g_strsplit (output ? output : "", "\n", -1);
  Installed *current = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "program\t"))
        {
          g_ptr_array_add (programs, (gpointer) (line + strlen ("program\t")));
          current = NULL;
        }
      else if (g_str_has_prefix (line, "flatpak\t"))
        {
          g_auto(GStrv) fields = g_strsplit (line + strlen ("flatpak\t"), "\t", 2);
          Installed *known;

          current = NULL;
          if (g_strv_length (fields) != 2 || fields[0][0] == '\0')
            continue;
          /* flatpak run takes the user's installation over the others */
          known = g_hash_table_lookup (apps, fields[0]);
          if (known != NULL && (g_str_equal (known->installation, "user") ||
                                !g_str_equal (fields[1], "user")))
            continue;

          current = g_new0 (Installed, 1);
          current->installation = g_strdup (fields[1]);
          current->permissions = g_string_new (NULL);
          g_hash_table_replace (apps, g_strdup (fields[0]), current);
        }
      else if (g_str_has_prefix (line, "permissions\t") && current != NULL)
        {
          g_string_append (current->permissions, line + strlen ("permissions\t"));
          g_string_append_c (current->permissions, '\n');
        }
    }

  /* in our order, each once */
  for (guint i = 0; i < G_N_ELEMENTS (terminals); i++)
    {
      const Terminal *terminal = &terminals[i];

      if (terminal->program != NULL)
        {
          for (guint j = 0; j < programs->len; j++)
            if (g_str_equal (g_ptr_array_index (programs, j), terminal->program))
              {
                g_strv_builder_add (builder, terminal->id);
                break;
              }
        }
      else
        {
          Installed *installed = g_hash_table_lookup (apps, terminal->flatpak_id);

          if (installed == NULL)
            continue;
          /* Without that permission every one of them runs the command
           * in its sandbox, where there is no distrobox */
          if (may_talk_to_flatpak (installed->permissions->str))
            g_strv_builder_add (builder, terminal->id);
          else
            g_strv_builder_add (unusable_builder, terminal->id);
        }
    }

  if (unusable != NULL)
    *unusable = g_strv_builder_end (unusable_builder);

  return g_strv_builder_end (builder);
}
