/* kiste-apps-rename.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Exported launchers and wrappers made to follow a box's new name:
 * their contents rewritten, a launcher's new file name. */

#include "config.h"

#include <string.h>

#include "kiste-apps-private.h"

typedef struct
{
  const char *old_name;
  const char *new_name;
  char       *old_label;
  char       *new_label;
  char       *old_quoted;
  char       *new_quoted;
  GString    *out;
} Rewrite;

static int
compare_edits (gconstpointer a,
               gconstpointer b)
{
  const Edit *ea = a;
  const Edit *eb = b;

  return ea->start < eb->start ? -1 : ea->start > eb->start;
}

/* Whether pos of line is inside shell quotes: there "!=" is data, such as
 * a program's quoted name, not a test */
static gboolean
is_quoted_at (const char *line,
              gsize       pos)
{
  gboolean in_single = FALSE;
  gboolean in_double = FALSE;

  for (gsize i = 0; i < pos; i++)
    {
      if (line[i] == '\\' && !in_single)
        i++;
      else if (line[i] == '\'' && !in_double)
        in_single = !in_single;
      else if (line[i] == '"' && !in_single)
        in_double = !in_double;
    }
  return in_single || in_double;
}

/* The wrapper's `[ "${CONTAINER_ID}" != "OLD" ]`: a "OLD" token right
 * after an unquoted "!=" on a line testing CONTAINER_ID. */
static void
find_container_id_tests (const char *line,
                         gsize       len,
                         Rewrite    *rw,
                         GArray     *edits)
{
  g_autoptr(GArray) tokens = NULL;

  if (g_strstr_len (line, len, "CONTAINER_ID") == NULL)
    return;

  tokens = _kiste_apps_tokenize (line, len);
  for (guint i = 0; i + 1 < tokens->len; i++)
    {
      const Token *op = &g_array_index (tokens, Token, i);
      const Token *value = &g_array_index (tokens, Token, i + 1);

      if (_kiste_apps_token_equals (line, op, "!=") && _kiste_apps_token_equals (line, value, rw->old_quoted) &&
          !is_quoted_at (line, op->start))
        {
          Edit edit = { value->start, value->len, rw->new_quoted };

          g_array_append_val (edits, edit);
        }
    }
}

static gboolean
rewrite_line (const char *line,
              gsize       len,
              gpointer    data)
{
  Rewrite *rw = data;
  g_autoptr(GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  g_autofree char *old_name_line = g_strconcat ("# name: ", rw->old_name, NULL);
  gsize label_len = strlen (rw->old_label);
  gsize body_len = len;
  gsize pos = 0;

  /* Lines keep their "\r" if the file had one. */
  if (body_len > 0 && line[body_len - 1] == '\r')
    body_len--;

  if (_kiste_apps_line_equals_trimmed (line, body_len, old_name_line))
    {
      Edit edit = { strlen ("# name: "), strlen (rw->old_name), rw->new_name };

      g_array_append_val (edits, edit);
    }
  else
    {
      gsize offset = _kiste_apps_line_has_prefix (line, body_len, "Exec=") ? strlen ("Exec=") : 0;
      gsize label_start = body_len - label_len;
      gsize scan_len = body_len;

      /* distrobox appends the label to every line containing "Name". */
      if (body_len >= label_len && strncmp (line + label_start, rw->old_label, label_len) == 0)
        {
          Edit edit = { label_start, label_len, rw->new_label };

          g_array_append_val (edits, edit);
          scan_len = label_start;
        }

      if (offset <= scan_len)
        {
          g_autoptr(GArray) name_edits = g_array_new (FALSE, FALSE, sizeof (Edit));

          _kiste_apps_find_enter_names (line + offset, scan_len - offset, rw->old_name, rw->new_name,
                                        name_edits);
          for (guint i = 0; i < name_edits->len; i++)
            {
              Edit edit = g_array_index (name_edits, Edit, i);

              edit.start += offset;
              g_array_append_val (edits, edit);
            }
        }

      find_container_id_tests (line, scan_len, rw, edits);
    }

  g_array_sort (edits, compare_edits);

  for (guint i = 0; i < edits->len; i++)
    {
      const Edit *edit = &g_array_index (edits, Edit, i);

      if (edit->start < pos)
        continue;

      g_string_append_len (rw->out, line + pos, edit->start - pos);
      g_string_append (rw->out, edit->replacement);
      pos = edit->start + edit->len;
    }

  g_string_append_len (rw->out, line + pos, len - pos);

  if (line[len] == '\n')
    g_string_append_c (rw->out, '\n');

  return FALSE;
}

char *
kiste_apps_rewrite_exported (const char *contents,
                             const char *old_name,
                             const char *new_name)
{
  Rewrite rw;

  g_return_val_if_fail (contents != NULL, NULL);
  g_return_val_if_fail (old_name != NULL && old_name[0] != '\0', NULL);
  g_return_val_if_fail (new_name != NULL && new_name[0] != '\0', NULL);

  rw.old_name = old_name;
  rw.new_name = new_name;
  rw.old_label = g_strdup_printf (" (on %s)", old_name);
  rw.new_label = g_strdup_printf (" (on %s)", new_name);
  rw.old_quoted = g_strdup_printf ("\"%s\"", old_name);
  rw.new_quoted = g_strdup_printf ("\"%s\"", new_name);
  rw.out = g_string_sized_new (strlen (contents) + 64);

  _kiste_apps_foreach_line (contents, rewrite_line, &rw);

  g_free (rw.old_label);
  g_free (rw.new_label);
  g_free (rw.old_quoted);
  g_free (rw.new_quoted);

  return g_string_free (rw.out, FALSE);
}

char *
kiste_apps_dup_renamed_launcher_name (const char *basename,
                                      const char *old_name,
                                      const char *new_name)
{
  g_return_val_if_fail (basename != NULL, NULL);
  g_return_val_if_fail (old_name != NULL && old_name[0] != '\0', NULL);
  g_return_val_if_fail (new_name != NULL && new_name[0] != '\0', NULL);

  if (!kiste_apps_is_launcher_candidate (basename, old_name))
    return NULL;

  return g_strconcat (new_name, basename + strlen (old_name), NULL);
}
