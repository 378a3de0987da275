/* kiste-assemble-shell.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Values read as distrobox 1.x's sh reads them, by a small shell of
 * Kiste's own, and the reasons for the values it will not read. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-assemble-state-private.h"

/* distrobox-assemble 1.x hands every value to sh twice: it writes the
 * key=value line into a file it sources, then builds the distrobox-create
 * command of the values and evals it (distrobox-assemble:344-474,
 * 554-646); distrobox-create evals volumes once more. Kiste does the same
 * to each value with a small shell of its own that knows quotes,
 * backslashes, ~ and the variables HOME and USER, and nothing else:
 * whatever would make sh do more on this computer (run a command, read
 * another variable, split a word, match file names) is refused with the
 * reason. So a value means what it means to distrobox, and nothing in a
 * manifest runs. */

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* p is at a "$": appends the value of $HOME, ${HOME}, $USER or ${USER}, or
 * the "$" itself where sh keeps it. Returns how many characters it read,
 * or 0 with *problem set. */
static gsize
expand_dollar (const char    *p,
               const Reader  *reader,
               GString       *out,
               ShellProblem  *problem,
               char         **detail)
{
  const char *name;
  gsize name_len;
  gsize used;

  if (p[1] == '(')
    {
      *problem = SHELL_COMMAND;
      return 0;
    }

  if (p[1] == '{')
    {
      const char *close = strchr (p + 2, '}');

      if (close == NULL || close == p + 2)
        {
          *problem = SHELL_CODE;
          return 0;
        }
      name = p + 2;
      name_len = close - name;
      used = name_len + 3;
    }
  else if (is_name_start (p[1]))
    {
      name = p + 1;
      for (name_len = 1; is_name_char (name[name_len]); name_len++)
        ;
      used = name_len + 1;
    }
  else if (g_ascii_isdigit (p[1]) || (p[1] != '\0' && strchr ("@*#?$!-", p[1]) != NULL))
    {
      *problem = SHELL_VARIABLE;
      *detail = g_strndup (p, 2);
      return 0;
    }
  else
    {
      /* "$" before anything else is a "$" */
      g_string_append_c (out, '$');
      return 1;
    }

  if (name_len == 4 && strncmp (name, "HOME", 4) == 0)
    g_string_append (out, reader->home);
  else if (name_len == 4 && strncmp (name, "USER", 4) == 0)
    g_string_append (out, reader->user);
  else
    {
      *problem = SHELL_VARIABLE;
      *detail = g_strndup (p, used);
      return 0;
    }

  return used;
}

/* text as sh reads one word of the kind: quotes and backslashes removed,
 * ~, $HOME and $USER filled in. NULL with *problem set when sh would do
 * more than that. */
char *
_kiste_assemble_shell_word (const char    *text,
                            WordKind       kind,
                            const Reader  *reader,
                            ShellProblem  *problem,
                            char         **detail)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;
  /* an unquoted ~ names the home at the start of a word, and in a value
   * after each unquoted ":" */
  gboolean tilde_here = TRUE;

  *problem = SHELL_OK;
  *detail = NULL;

  while (*p != '\0')
    {
      gboolean tilde_next = FALSE;
      gsize used;

      switch (*p)
        {
        case '\\':
          if (p[1] != '\0')
            p++;
          g_string_append_c (out, *p++);
          break;

        case '\'':
          {
            const char *close = strchr (p + 1, '\'');

            if (close == NULL)
              {
                *problem = SHELL_CODE;
                return NULL;
              }
            g_string_append_len (out, p + 1, close - p - 1);
            p = close + 1;
          }
          break;

        case '"':
          for (p++; *p != '"'; )
            {
              if (*p == '\0')
                {
                  *problem = SHELL_CODE;
                  return NULL;
                }
              if (*p == '`')
                {
                  *problem = SHELL_COMMAND;
                  return NULL;
                }
              if (*p == '$')
                {
                  if ((used = expand_dollar (p, reader, out, problem, detail)) == 0)
                    return NULL;
                  p += used;
                  continue;
                }
              /* in double quotes a backslash only keeps these as they are */
              if (*p == '\\' && p[1] != '\0' && strchr ("$`\"\\", p[1]) != NULL)
                p++;
              g_string_append_c (out, *p++);
            }
          p++;
          break;

        case '$':
          if ((used = expand_dollar (p, reader, out, problem, detail)) == 0)
            return NULL;
          p += used;
          break;

        case '`':
          *problem = SHELL_COMMAND;
          return NULL;

        case '~':
          if (tilde_here && (p[1] == '\0' || p[1] == '/' || (kind == WORD_ASSIGNMENT && p[1] == ':')))
            g_string_append (out, reader->home);
          else if (tilde_here && is_name_char (p[1]))
            {
              /* another user's home */
              *problem = SHELL_VARIABLE;
              for (used = 1; is_name_char (p[used]); used++)
                ;
              *detail = g_strndup (p, used);
              return NULL;
            }
          else
            g_string_append_c (out, '~');
          p++;
          break;

        case ':':
          tilde_next = kind == WORD_ASSIGNMENT;
          g_string_append_c (out, *p++);
          break;

        case ' ':
        case '\t':
        case ';':
        case '&':
        case '|':
        case '<':
        case '>':
        case '(':
        case ')':
          *problem = SHELL_CODE;
          return NULL;

        case '*':
        case '?':
        case '[':
          /* a pattern: matched against the files where distrobox runs */
          if (kind == WORD_ARGUMENT)
            {
              *problem = SHELL_CODE;
              return NULL;
            }
          g_string_append_c (out, *p++);
          break;

        case '#':
          /* a comment where a word starts */
          if (kind == WORD_ARGUMENT && p == text)
            {
              *problem = SHELL_CODE;
              return NULL;
            }
          g_string_append_c (out, *p++);
          break;

        default:
          g_string_append_c (out, *p++);
          break;
        }

      tilde_here = tilde_next;
    }

  return g_string_free_and_steal (g_steal_pointer (&out));
}

/* distrobox's sanitize_variable(): quotes around a value with a space,
 * unless it starts with one; single quotes when it holds a double one */
static char *
dbx_quote (const char *value)
{
  if (strchr (value, ' ') == NULL || value[0] == '"' || value[0] == '\'')
    return g_strdup (value);

  return g_strdup_printf (strchr (value, '"') != NULL ? "'%s'" : "\"%s\"", value);
}

/* A value as distrobox's source of its key=value line leaves it; true and
 * false are 1 and 0 from here on */
char *
_kiste_assemble_read_sourced (const char    *raw,
                              const Reader  *reader,
                              ShellProblem  *problem,
                              char         **detail)
{
  g_autofree char *quoted = NULL;

  if (g_str_equal (raw, "true"))
    raw = "1";
  else if (g_str_equal (raw, "false"))
    raw = "0";

  quoted = dbx_quote (raw);

  return _kiste_assemble_shell_word (quoted, WORD_ASSIGNMENT, reader, problem, detail);
}

/* A sourced value as the eval of distrobox-create's command passes it */
char *
_kiste_assemble_read_argument (const char    *value,
                               const Reader  *reader,
                               ShellProblem  *problem,
                               char         **detail)
{
  g_autofree char *quoted = dbx_quote (value);

  return _kiste_assemble_shell_word (quoted, WORD_ARGUMENT, reader, problem, detail);
}

/* Both passes, for a value distrobox passes to distrobox-create */
char *
_kiste_assemble_read_value (const char    *raw,
                            const Reader  *reader,
                            ShellProblem  *problem,
                            char         **detail)
{
  g_autofree char *sourced = _kiste_assemble_read_sourced (raw, reader, problem, detail);

  return sourced != NULL ? _kiste_assemble_read_argument (sourced, reader, problem, detail) : NULL;
}

/* For people: why what holds a value Kiste will not read ("“home” (line
 * 3)" or "the init_hooks") */
char *
_kiste_assemble_dup_shell_problem (const char   *what,
                                   ShellProblem  problem,
                                   const char   *detail)
{
  switch (problem)
    {
    case SHELL_COMMAND:
      return g_strdup_printf (_("%s would run a command on this computer while distrobox reads the "
                                "manifest. Kiste does not run commands from a manifest."),
                              what);

    case SHELL_VARIABLE:
      return g_strdup_printf (_("%s uses %s, which distrobox fills in from your session on this "
                                "computer. Kiste fills in only ~, $HOME and $USER."),
                              what, detail);

    case SHELL_CODE:
      return g_strdup_printf (_("%s holds shell code that distrobox would run on this computer, or "
                                "quotes that do not match. Kiste reads only values."),
                              what);

    case SHELL_OK:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* One quote off the start of a hook and one of the same kind off its end,
 * as distrobox's encode_variable() does before joining them */
char *
_kiste_assemble_strip_hook_quotes (const char *raw)
{
  gsize len = strlen (raw);

  if (raw[0] != '"' && raw[0] != '\'')
    return g_strdup (raw);

  if (len >= 2 && raw[len - 1] == raw[0])
    return g_strndup (raw + 1, len - 2);

  return g_strdup (raw + 1);
}
