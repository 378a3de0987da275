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

typedef struct
{
  const char *id;
  const char *name;
  const char *program;
  /* what comes before the command */
  const char *args[4];
} Terminal;

static const Terminal terminals[] = {
  { "ptyxis", N_("Ptyxis"), "ptyxis", { "--new-window", "--", NULL } },
  { "kgx", N_("GNOME Console"), "kgx", { "--", NULL } },
  { "gnome-terminal", N_("GNOME Terminal"), "gnome-terminal", { "--", NULL } },
  { "konsole", N_("Konsole"), "konsole", { "-e", NULL } },
  { "kitty", N_("kitty"), "kitty", { "--", NULL } },
  { "alacritty", N_("Alacritty"), "alacritty", { "-e", NULL } },
  { "wezterm", N_("WezTerm"), "wezterm", { "start", "--", NULL } },
  { "foot", N_("foot"), "foot", { NULL } },
  { "xterm", N_("XTerm"), "xterm", { "-e", NULL } },
};

static const char detect_script[] =
  "for p in \"$@\"; do command -v \"$p\" >/dev/null 2>&1 && printf '%s\\n' \"$p\"; done; exit 0\n";

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
  g_strv_builder_add (builder, terminal->program);
  g_strv_builder_addv (builder, (const char **) terminal->args);
  g_strv_builder_addv (builder, (const char **) command);

  return g_strv_builder_end (builder);
}

const char *
kiste_external_terminal_get_detect_script (void)
{
  return detect_script;
}

char **
kiste_external_terminal_parse_detected (const char *output)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = g_strsplit (output ? output : "", "\n", -1);

  /* in our order, each once */
  for (guint i = 0; i < G_N_ELEMENTS (terminals); i++)
    {
      if (g_strv_contains ((const char * const *) lines, terminals[i].program))
        g_strv_builder_add (builder, terminals[i].id);
    }

  return g_strv_builder_end (builder);
}
