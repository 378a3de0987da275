/* kiste-apps-command.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Command lines: an app's Exec as the argv that launches it, and the
 * path `command -v` answers for a program. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-error.h"

/* The field codes of the Desktop Entry Specification ("%f", "%U", …) stand
 * for files and URLs the launcher passes on; run without any, they go.
 * "%%" is a literal "%". */
static char *
strip_field_codes (const char *arg)
{
  GString *out = g_string_new (NULL);

  for (const char *p = arg; *p != '\0'; p++)
    {
      if (*p != '%')
        {
          g_string_append_c (out, *p);
          continue;
        }

      if (p[1] == '%')
        g_string_append_c (out, '%');
      /* a code is one ASCII letter: never the first byte of a character */
      if (p[1] != '\0' && (guchar) p[1] < 0x80)
        p++;
    }

  return g_string_free (out, FALSE);
}

char **
kiste_apps_dup_exec_argv (const char  *exec,
                          GError     **error)
{
  g_auto(GStrv) parsed = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (exec != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_shell_parse_argv (exec, NULL, &parsed, &local_error))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The app’s command line “%s” cannot be read: %s"), exec, local_error->message);
      return NULL;
    }

  builder = g_strv_builder_new ();
  for (guint i = 0; parsed[i] != NULL; i++)
    {
      g_autofree char *arg = NULL;

      /* A whole argument that was only a field code disappears */
      if (parsed[i][0] == '%' && parsed[i][1] != '\0' && parsed[i][1] != '%' && parsed[i][2] == '\0')
        continue;

      arg = strip_field_codes (parsed[i]);
      g_strv_builder_take (builder, g_steal_pointer (&arg));
    }

  /* "%" alone, or field codes run together, leave no program */
  argv = g_strv_builder_end (builder);
  if (argv[0] == NULL || argv[0][0] == '\0')
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The app’s command line “%s” runs nothing."), exec);
      return NULL;
    }

  return g_steal_pointer (&argv);
}

/* Programs */

char *
kiste_apps_parse_resolved_program (const char  *output,
                                   const char  *program,
                                   GError     **error)
{
  g_autofree char *line = NULL;
  const char *end;

  g_return_val_if_fail (program != NULL, NULL);

  if (output != NULL)
    {
      end = strchr (output, '\n');
      line = end ? g_strndup (output, (gsize) (end - output)) : g_strdup (output);
      g_strstrip (line);
    }

  if (line == NULL || !g_path_is_absolute (line) || !g_utf8_validate (line, -1, NULL))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("The box has no program “%s”."), program);
      return NULL;
    }

  return g_steal_pointer (&line);
}
