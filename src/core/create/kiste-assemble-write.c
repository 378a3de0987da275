/* kiste-assemble-write.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Manifests written: one section per box, each value checked so that
 * distrobox reads it back unchanged and runs nothing of it. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-assemble-state-private.h"
#include "kiste-error.h"

static gboolean
check_writable (const char  *key,
                const char  *value,
                GError     **error)
{
  const char *bracket;

  if (strpbrk (value, "\n\r") != NULL)
    return kiste_set_invalid_input (error,
                                    _("“%s” cannot be saved in a distrobox.ini file because it contains "
                                      "a line break."),
                                    key);

  /* distrobox assemble (1.x) sources every value as shell and evals the
   * create command it builds of them, on the computer that reads the file.
   * A hook is passed in double quotes, or in single quotes when it holds a
   * double quote; other values go unquoted unless they hold a space. */
  if (strpbrk (value, "$`") != NULL)
    return kiste_set_invalid_input (error,
                                    _("“%s” cannot be saved in a distrobox.ini file because it contains "
                                      "“$” or “`”, which distrobox assemble would run as a command on "
                                      "the computer that reads the file."),
                                    key);
  /* a word without quotes that starts with ~ or # is the home or a
   * comment to that eval */
  if (g_str_equal (key, "init_hooks") || g_str_equal (key, "pre_init_hooks")
      ? strchr (value, '\\') != NULL || (strchr (value, '"') != NULL && strchr (value, '\'') != NULL)
      : strpbrk (value, "\\'\";&|<>(){}*?[]!") != NULL ||
        ((value[0] == '~' || value[0] == '#') && strchr (value, ' ') == NULL))
    return kiste_set_invalid_input (error,
                                    _("“%s” cannot be saved in a distrobox.ini file because distrobox "
                                      "assemble would read its quotes or other shell characters as "
                                      "commands."),
                                    key);

  /* distrobox reads " #" as the start of a comment, tabs as spaces */
  if (strstr (value, " #") != NULL || strstr (value, "\t#") != NULL ||
      ((bracket = strchr (value, ']')) != NULL && strchr (bracket, '#') != NULL))
    return kiste_set_invalid_input (error,
                                    _("“%s” cannot be saved in a distrobox.ini file because distrobox "
                                      "would read part of it as a comment (“#”)."),
                                    key);

  return TRUE;
}

static gboolean
write_string (GString     *out,
              const char  *key,
              const char  *value,
              GError     **error)
{
  if (value == NULL || value[0] == '\0')
    return TRUE;

  if (!check_writable (key, value, error))
    return FALSE;

  g_string_append_printf (out, "%s=\"%s\"\n", key, value);

  return TRUE;
}

static void
write_bool (GString    *out,
            const char *key,
            gboolean    value)
{
  g_string_append_printf (out, "%s=%s\n", key, value ? "true" : "false");
}

static gboolean
write_words (GString             *out,
             const char          *key,
             const char * const  *words,
             GError             **error)
{
  g_autofree char *joined = NULL;

  if (words == NULL || words[0] == NULL)
    return TRUE;

  joined = g_strjoinv (" ", (char **)words);

  return write_string (out, key, joined, error);
}

static gboolean
write_section (GString             *out,
               KisteCreateOptions  *options,
               KisteAssembleEntry  *entry,
               GError             **error)
{
  const char *name = kiste_create_options_get_name (options);
  const char * const *volumes;

  if (name == NULL || strpbrk (name, "[] #\n\r\t") != NULL)
    return kiste_set_invalid_input (error, "%s",
                                    _("Every box in a distrobox.ini file needs a name without spaces, "
                                      "brackets or “#”."));

  if (out->len > 0)
    g_string_append_c (out, '\n');
  g_string_append_printf (out, "[%s]\n", name);

  if (!write_string (out, "image", kiste_create_options_get_image (options), error) ||
      !write_string (out, "clone", kiste_create_options_get_clone_source (options), error) ||
      !write_string (out, "home", kiste_create_options_get_home (options), error) ||
      !write_string (out, "hostname", kiste_create_options_get_hostname (options), error))
    return FALSE;

  if (kiste_create_options_get_platform (options) != NULL)
    {
      g_string_append (out, "# platform is read by Kiste; distrobox assemble ignores it\n");
      if (!write_string (out, "platform", kiste_create_options_get_platform (options), error))
        return FALSE;
    }

  write_bool (out, "init", kiste_create_options_get_init (options));
  write_bool (out, "nvidia", kiste_create_options_get_nvidia (options));
  write_bool (out, "pull", kiste_create_options_get_pull (options));
  write_bool (out, "root", FALSE);
  write_bool (out, "entry", kiste_create_options_get_add_to_menu (options));
  write_bool (out, "start_now", entry != NULL && entry->start_now);
  if (entry != NULL && entry->replace)
    write_bool (out, "replace", TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (_kiste_assemble_unshare_keys); i++)
    write_bool (out, _kiste_assemble_unshare_keys[i].key,
                kiste_create_options_get_unshare (options, _kiste_assemble_unshare_keys[i].what));
  write_bool (out, "unshare_all", kiste_create_options_get_unshare_all (options));

  if (!write_words (out, "additional_packages",
                    kiste_create_options_get_additional_packages (options), error) ||
      !write_string (out, "init_hooks", kiste_create_options_get_init_hooks (options), error) ||
      !write_string (out, "pre_init_hooks", kiste_create_options_get_pre_init_hooks (options),
                     error))
    return FALSE;

  volumes = kiste_create_options_get_volumes (options);
  for (guint i = 0; volumes[i] != NULL; i++)
    {
      if (strpbrk (volumes[i], " \t") != NULL)
        return kiste_set_invalid_input (error,
                                        _("The volume “%s” cannot be saved: distrobox splits volumes at "
                                          "spaces."),
                                        volumes[i]);
      if (!write_string (out, "volume", volumes[i], error))
        return FALSE;
    }

  if (entry != NULL)
    {
      if (!write_words (out, "exported_apps", (const char * const *)entry->exported_apps, error) ||
          !write_words (out, "exported_bins", (const char * const *)entry->exported_bins, error) ||
          !write_string (out, "exported_bins_path", entry->exported_bins_path, error))
        return FALSE;
    }

  return TRUE;
}

char *
kiste_assemble_to_data (GPtrArray  *options,
                        GError    **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (options != NULL, NULL);

  for (guint i = 0; i < options->len; i++)
    {
      KisteCreateOptions *item = g_ptr_array_index (options, i);

      g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (item), NULL);

      if (!write_section (out, item, NULL, error))
        return NULL;
    }

  return g_string_free_and_steal (g_steal_pointer (&out));
}

char *
kiste_assemble_entries_to_data (GPtrArray  *entries,
                                GError    **error)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_return_val_if_fail (entries != NULL, NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);

      if (!write_section (out, entry->options, entry, error))
        return NULL;
    }

  return g_string_free_and_steal (g_steal_pointer (&out));
}
