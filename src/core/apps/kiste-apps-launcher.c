/* kiste-apps-launcher.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Launchers and wrappers read as text: the distrobox enter call on a
 * line (the box it names, where), whether a launcher or a wrapper is
 * a box's, which box one enters. */

#include "config.h"

#include <string.h>

#include "kiste-apps-private.h"

/* Splits text[0..len) at blanks, keeping offsets so that tokens can be
 * replaced in place. */
GArray *
_kiste_apps_tokenize (const char *text,
                      gsize       len)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  gsize i = 0;

  while (i < len)
    {
      Token token;

      while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
      if (i >= len)
        break;

      token.start = i;
      while (i < len && text[i] != ' ' && text[i] != '\t')
        i++;
      token.len = i - token.start;
      g_array_append_val (tokens, token);
    }

  return tokens;
}

gboolean
_kiste_apps_token_equals (const char  *text,
                          const Token *token,
                          const char  *word)
{
  return token->len == strlen (word) && strncmp (text + token->start, word, token->len) == 0;
}

/* The program a token names, without quotes and folders. */
static gboolean
token_is_program (const char  *text,
                  const Token *token,
                  const char  *program)
{
  const char *s = text + token->start;
  gsize len = token->len;
  const char *slash;

  if (len >= 2 && (s[0] == '"' || s[0] == '\'') && s[len - 1] == s[0])
    {
      s++;
      len -= 2;
    }

  slash = g_strrstr_len (s, len, "/");
  if (slash != NULL)
    {
      len -= (gsize) (slash + 1 - s);
      s = slash + 1;
    }

  return len == strlen (program) && strncmp (s, program, len) == 0;
}

/* Index of the first argument of a distrobox enter call among tokens, or
 * -1 when there is none. */
int
_kiste_apps_find_enter_arguments (const char *text,
                                  GArray     *tokens)
{
  for (guint i = 0; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);

      if (token_is_program (text, token, "distrobox-enter"))
        return (int) i + 1;

      if (token_is_program (text, token, "distrobox") && i + 1 < tokens->len &&
          _kiste_apps_token_equals (text, &g_array_index (tokens, Token, i + 1), "enter"))
        return (int) i + 2;
    }

  return -1;
}

/* Finds the box name of a distrobox enter call in text[0..len): every token
 * equal to box_name after -n or --name, or a --name=BOX token, before
 * "--". Adds the spans of the names to edits (may be NULL); returns
 * whether any was found. */
gboolean
_kiste_apps_find_enter_names (const char *text,
                              gsize       len,
                              const char *box_name,
                              const char *replacement,
                              GArray     *edits)
{
  g_autoptr(GArray) tokens = _kiste_apps_tokenize (text, len);
  g_autofree char *long_form = g_strconcat ("--name=", box_name, NULL);
  gboolean found = FALSE;
  int first;

  first = _kiste_apps_find_enter_arguments (text, tokens);
  if (first < 0)
    return FALSE;

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);

      /* What follows "--" is the app's own command line. */
      if (_kiste_apps_token_equals (text, token, "--"))
        break;

      if ((_kiste_apps_token_equals (text, token, "-n") ||
           _kiste_apps_token_equals (text, token, "--name")) &&
          i + 1 < tokens->len &&
          _kiste_apps_token_equals (text, &g_array_index (tokens, Token, i + 1), box_name))
        {
          const Token *value = &g_array_index (tokens, Token, i + 1);
          Edit edit = { value->start, value->len, replacement };

          if (edits != NULL)
            g_array_append_val (edits, edit);
          found = TRUE;
          i++;
        }
      else if (_kiste_apps_token_equals (text, token, long_form))
        {
          Edit edit = { token->start + strlen ("--name="), strlen (box_name), replacement };

          if (edits != NULL)
            g_array_append_val (edits, edit);
          found = TRUE;
        }
    }

  return found;
}

gboolean
_kiste_apps_foreach_line (const char *contents,
                          LineFunc    func,
                          gpointer    data)
{
  const char *p = contents;

  while (*p != '\0')
    {
      const char *nl = strchr (p, '\n');
      gsize len = nl != NULL ? (gsize) (nl - p) : strlen (p);

      if (func (p, len, data))
        return TRUE;

      if (nl == NULL)
        break;
      p = nl + 1;
    }

  return FALSE;
}

gboolean
_kiste_apps_line_has_prefix (const char *line,
                             gsize       len,
                             const char *prefix)
{
  gsize plen = strlen (prefix);

  return len >= plen && strncmp (line, prefix, plen) == 0;
}

static char *find_toolbox_container (const char *text,
                                     GArray     *tokens);

static gboolean
exec_line_enters_box (const char *line,
                      gsize       len,
                      gpointer    data)
{
  const char *box_name = data;
  g_autoptr(GArray) tokens = NULL;
  g_autofree char *container = NULL;

  if (!_kiste_apps_line_has_prefix (line, len, "Exec="))
    return FALSE;

  if (_kiste_apps_find_enter_names (line + 5, len - 5, box_name, NULL, NULL))
    return TRUE;

  /* Kiste's launchers of toolboxes */
  tokens = _kiste_apps_tokenize (line + 5, len - 5);
  container = find_toolbox_container (line + 5, tokens);
  return g_strcmp0 (container, box_name) == 0;
}

gboolean
kiste_apps_desktop_enters_box (const char *contents,
                               const char *box_name)
{
  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', FALSE);

  return _kiste_apps_foreach_line (contents, exec_line_enters_box, (gpointer) box_name);
}

/* The line without trailing blanks and "\r" equals text. */
gboolean
_kiste_apps_line_equals_trimmed (const char *line,
                                 gsize       len,
                                 const char *text)
{
  while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
    len--;

  return len == strlen (text) && strncmp (line, text, len) == 0;
}

static gboolean
is_marker_line (const char *line,
                gsize       len,
                gpointer    data)
{
  return _kiste_apps_line_equals_trimmed (line, len, "# distrobox_binary");
}

typedef struct
{
  const char *expected;
} NameLine;

static gboolean
is_name_line (const char *line,
              gsize       len,
              gpointer    data)
{
  NameLine *name_line = data;

  return _kiste_apps_line_equals_trimmed (line, len, name_line->expected);
}

gboolean
kiste_apps_wrapper_names_box (const char *contents,
                              const char *box_name)
{
  g_autofree char *expected = NULL;
  NameLine name_line;

  g_return_val_if_fail (contents != NULL, FALSE);
  g_return_val_if_fail (box_name != NULL && box_name[0] != '\0', FALSE);

  if (!g_str_has_prefix (contents, "#!"))
    return FALSE;

  expected = g_strconcat ("# name: ", box_name, NULL);
  name_line.expected = expected;

  return _kiste_apps_foreach_line (contents, is_marker_line, NULL) &&
         _kiste_apps_foreach_line (contents, is_name_line, &name_line);
}

/* The box a wrapper names, for wrappers whose box may be gone */

typedef struct
{
  char *box_name;
} WrapperBox;

static gboolean
find_wrapper_box (const char *line,
                  gsize       len,
                  gpointer    data)
{
  WrapperBox *wb = data;
  const char *value;
  gsize value_len;

  if (len < strlen ("# name: ") || strncmp (line, "# name: ", strlen ("# name: ")) != 0)
    return FALSE;

  value = line + strlen ("# name: ");
  value_len = len - strlen ("# name: ");
  while (value_len > 0 && (value[value_len - 1] == ' ' || value[value_len - 1] == '\t' ||
                           value[value_len - 1] == '\r'))
    value_len--;
  if (value_len == 0)
    return FALSE;

  wb->box_name = g_strndup (value, value_len);
  return TRUE;
}

char *
kiste_apps_dup_wrapper_box (const char *contents)
{
  WrapperBox wb = { NULL };

  g_return_val_if_fail (contents != NULL, NULL);

  if (!g_str_has_prefix (contents, "#!") || !_kiste_apps_foreach_line (contents, is_marker_line, NULL))
    return NULL;

  _kiste_apps_foreach_line (contents, find_wrapper_box, &wb);
  return wb.box_name;
}

static gboolean
exec_line_enters_any_box (const char *line,
                          gsize       len,
                          gpointer    data)
{
  g_autoptr(GArray) tokens = NULL;

  if (!_kiste_apps_line_has_prefix (line, len, "Exec="))
    return FALSE;

  tokens = _kiste_apps_tokenize (line + 5, len - 5);
  return _kiste_apps_find_enter_arguments (line + 5, tokens) >= 0;
}

gboolean
kiste_apps_is_distrobox_launcher (const char *contents)
{
  g_return_val_if_fail (contents != NULL, FALSE);

  return _kiste_apps_foreach_line (contents, exec_line_enters_any_box, NULL);
}

/* Which box a launcher enters, for launchers whose box may be gone */

typedef struct
{
  char *name;
} EnteredBox;

/* The container of a `toolbox run` (Kiste's launchers of toolboxes):
 * -c NAME, --container NAME or --container=NAME before the command */
static char *
find_toolbox_container (const char *text,
                        GArray     *tokens)
{
  guint i;

  for (i = 0; i + 1 < tokens->len; i++)
    {
      if (token_is_program (text, &g_array_index (tokens, Token, i), "toolbox") &&
          _kiste_apps_token_equals (text, &g_array_index (tokens, Token, i + 1), "run"))
        break;
    }

  for (i += 2; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      const char *start = text + token->start;

      if (_kiste_apps_token_equals (text, token, "--") || start[0] != '-')
        break;
      if ((_kiste_apps_token_equals (text, token, "-c") ||
           _kiste_apps_token_equals (text, token, "--container")) &&
          i + 1 < tokens->len)
        {
          const Token *value = &g_array_index (tokens, Token, i + 1);

          return g_strndup (text + value->start, value->len);
        }
      if (token->len > strlen ("--container=") &&
          strncmp (start, "--container=", strlen ("--container=")) == 0)
        return g_strndup (start + strlen ("--container="), token->len - strlen ("--container="));
    }

  return NULL;
}

static gboolean
exec_line_names_box (const char *line,
                     gsize       len,
                     gpointer    data)
{
  EnteredBox *entered = data;
  g_autoptr(GArray) tokens = NULL;
  const char *text;
  int first;

  if (!_kiste_apps_line_has_prefix (line, len, "Exec="))
    return FALSE;

  text = line + 5;
  tokens = _kiste_apps_tokenize (text, len - 5);
  if ((first = _kiste_apps_find_enter_arguments (text, tokens)) < 0)
    return (entered->name = find_toolbox_container (text, tokens)) != NULL;

  for (guint i = first; i < tokens->len; i++)
    {
      const Token *token = &g_array_index (tokens, Token, i);
      const char *start = text + token->start;

      if (_kiste_apps_token_equals (text, token, "--"))
        break;

      if ((_kiste_apps_token_equals (text, token, "-n") ||
           _kiste_apps_token_equals (text, token, "--name")) &&
          i + 1 < tokens->len)
        {
          const Token *value = &g_array_index (tokens, Token, i + 1);

          entered->name = g_strndup (text + value->start, value->len);
          return TRUE;
        }
      if (token->len > strlen ("--name=") && strncmp (start, "--name=", strlen ("--name=")) == 0)
        {
          entered->name = g_strndup (start + strlen ("--name="), token->len - strlen ("--name="));
          return TRUE;
        }
      /* generate-entry's `distrobox enter NAME`: the first word that is no
       * option */
      if (start[0] != '-' && !_kiste_apps_token_equals (text, token, "--root") &&
          !_kiste_apps_token_equals (text, token, "-r"))
        {
          entered->name = g_strndup (start, token->len);
          return TRUE;
        }
    }

  return FALSE;
}

char *
kiste_apps_dup_entered_box (const char *contents)
{
  EnteredBox entered = { NULL };

  g_return_val_if_fail (contents != NULL, NULL);

  _kiste_apps_foreach_line (contents, exec_line_names_box, &entered);
  return entered.name;
}
