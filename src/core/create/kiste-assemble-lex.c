/* kiste-assemble-lex.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A manifest's lines as distrobox-assemble cuts them: comments and
 * tabs cleaned off, [sections] and their key=value pairs, include=
 * lines replaced by the pairs of the sections they name. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-assemble-state-private.h"
#include "kiste-error.h"

static void
raw_pair_free (RawPair *pair)
{
  g_free (pair->key);
  g_free (pair->value);
  g_free (pair);
}

static void
raw_section_free (RawSection *section)
{
  g_free (section->name);
  g_ptr_array_unref (section->pairs);
  g_free (section);
}

/* One pair of matching quotes around the whole value, as distrobox strips */
char *
_kiste_assemble_unquote (const char *value)
{
  gsize len = strlen (value);

  if (len >= 2 && (value[0] == '"' || value[0] == '\'') && value[len - 1] == value[0])
    return g_strndup (value + 1, len - 2);

  return g_strdup (value);
}

/* Cleans one line the way distrobox-assemble does before looking at it:
 * tabs become spaces, "#" comments go, trailing space goes. */
static char *
clean_line (const char *raw)
{
  g_autofree char *line = g_strdup (raw);
  char *start;
  char *cut;

  g_strdelimit (line, "\t\r", ' ');

  start = line;
  while (*start == ' ')
    start++;

  if (*start == '#' || *start == ';')
    return g_strdup ("");

  if ((cut = strstr (start, " #")) != NULL)
    *cut = '\0';

  /* distrobox drops everything from a "]" followed by a "#" */
  if (*start == '[' && (cut = strchr (start, ']')) != NULL && strchr (cut, '#') != NULL)
    cut[1] = '\0';

  g_strchomp (start);

  return g_strdup (start);
}

GPtrArray *
_kiste_assemble_lex (const char  *data,
                     GError     **error)
{
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func ((GDestroyNotify)raw_section_free);
  g_auto(GStrv) lines = g_strsplit (data, "\n", -1);
  RawSection *current = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *line = clean_line (lines[i]);
      const char *eq;
      RawPair *pair;
      GString *key;

      if (line[0] == '\0')
        continue;

      if (line[0] == '[')
        {
          GString *name = g_string_new (NULL);

          for (const char *p = line; *p != '\0'; p++)
            if (*p != '[' && *p != ']' && *p != ' ')
              g_string_append_c (name, *p);

          if (name->len == 0)
            {
              g_string_free (name, TRUE);
              kiste_set_invalid_input (error, _("Line %u starts a section without a name."), i + 1);
              return NULL;
            }

          current = g_new0 (RawSection, 1);
          current->name = g_string_free (name, FALSE);
          current->pairs = g_ptr_array_new_with_free_func ((GDestroyNotify)raw_pair_free);
          g_ptr_array_add (sections, current);
          continue;
        }

      if (current == NULL)
        {
          kiste_set_invalid_input (error,
                                   _("Line %u is outside any section. Each box starts with its name in "
                                     "brackets, like [my-box]."),
                                   i + 1);
          return NULL;
        }

      /* distrobox: key = text before the first "=", spaces removed */
      eq = strchr (line, '=');
      key = g_string_new (NULL);
      for (const char *p = line; *p != '\0' && p != eq; p++)
        if (*p != ' ')
          g_string_append_c (key, *p);

      pair = g_new0 (RawPair, 1);
      pair->key = g_string_free (key, FALSE);
      pair->line = i + 1;
      if (eq != NULL)
        {
          /* as written: each key reads it as distrobox would */
          pair->value = g_strstrip (g_strdup (eq + 1));
          pair->spaced = eq[1] == ' ';
        }
      g_ptr_array_add (current->pairs, pair);
    }

  if (sections->len == 0)
    {
      kiste_set_invalid_input (error, "%s", _("The file has no boxes: no line like [my-box] was found."));
      return NULL;
    }

  return g_steal_pointer (&sections);
}

/* The first section of each name, as include finds it */
GHashTable *
_kiste_assemble_index_sections (GPtrArray *sections)
{
  GHashTable *by_name = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < sections->len; i++)
    {
      RawSection *section = g_ptr_array_index (sections, i);

      if (!g_hash_table_contains (by_name, section->name))
        g_hash_table_insert (by_name, section->name, section);
    }

  return by_name;
}

/* Inlines include=NAME lines with NAME's pairs, recursively. budget counts
 * down the includes and included pairs left for the whole file. */
gboolean
_kiste_assemble_flatten (GHashTable  *by_name,
                         RawSection  *section,
                         GPtrArray   *stack,
                         GPtrArray   *out,
                         guint       *budget,
                         GError     **error)
{
  for (guint i = 0; i < section->pairs->len; i++)
    {
      RawPair *pair = g_ptr_array_index (section->pairs, i);
      g_autofree char *name = NULL;
      RawSection *included;

      if (stack->len > 1 || g_str_equal (pair->key, "include"))
        {
          if (*budget == 0)
            return kiste_set_invalid_input (error,
                                            ngettext ("The includes in this file add up to more than %u "
                                                      "line. Include each section fewer times.",
                                                      "The includes in this file add up to more than %u "
                                                      "lines. Include each section fewer times.",
                                                      MAX_INCLUDED_PAIRS),
                                            MAX_INCLUDED_PAIRS);
          (*budget)--;
        }

      if (!g_str_equal (pair->key, "include"))
        {
          g_ptr_array_add (out, pair);
          continue;
        }

      /* distrobox takes the quotes off the name */
      name = pair->value != NULL ? _kiste_assemble_unquote (pair->value) : g_strdup ("");
      if (name[0] == '\0' || (included = g_hash_table_lookup (by_name, name)) == NULL)
        return kiste_set_invalid_input (error,
                                        _("[%s] includes “%s” (line %u), but the file has no such "
                                          "section."),
                                        section->name, name, pair->line);

      if (g_ptr_array_find (stack, included, NULL))
        return kiste_set_invalid_input (error,
                                        _("[%s] includes “%s” (line %u), which includes it back. "
                                          "Includes must not go round in a circle."),
                                        section->name, name, pair->line);

      if (stack->len >= MAX_INCLUDE_DEPTH)
        return kiste_set_invalid_input (error,
                                        ngettext ("[%s] includes “%s” (line %u) through more than %u "
                                                  "level of includes.",
                                                  "[%s] includes “%s” (line %u) through more than %u "
                                                  "levels of includes.", MAX_INCLUDE_DEPTH),
                                        section->name, name, pair->line, MAX_INCLUDE_DEPTH);

      g_ptr_array_add (stack, included);
      if (!_kiste_assemble_flatten (by_name, included, stack, out, budget, error))
        return FALSE;
      g_ptr_array_remove_index (stack, stack->len - 1);
    }

  return TRUE;
}
