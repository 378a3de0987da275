/* fuzz-launcher.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The launcher Kiste writes for the host's menu from an app's desktop
 * entry as a box holds it: whatever the entry says, the launcher enters
 * the box through the command given and nothing else, names a plain icon,
 * keeps only the keys Kiste writes, and is one Kiste itself recognises as
 * the box's export. */

#include "config.h"

#include <string.h>

#include "kiste-apps.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

static const char * const allowed_keys[] = {
  "Type", "Name", "GenericName", "Comment", "Exec", "Icon", "Categories", "Terminal",
  "StartupNotify", "StartupWMClass", NULL
};

static gboolean
key_is_allowed (const char *key)
{
  for (guint i = 0; allowed_keys[i] != NULL; i++)
    {
      gsize len = strlen (allowed_keys[i]);

      if (g_str_equal (key, allowed_keys[i]) ||
          (strncmp (key, allowed_keys[i], len) == 0 && key[len] == '[' &&
           (g_str_equal (allowed_keys[i], "Name") || g_str_equal (allowed_keys[i], "GenericName") ||
            g_str_equal (allowed_keys[i], "Comment"))))
        return TRUE;
    }
  return FALSE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *enter[] = { "/usr/bin/distrobox", "enter", "-n", "fx-apps", "--", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *launcher = NULL;
  g_autoptr(GKeyFile) file = NULL;
  g_autoptr(KisteExportedFile) exported = NULL;
  g_autofree char *exec = NULL;
  g_autofree char *icon = NULL;
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) groups = NULL;
  g_auto(GStrv) keys = NULL;

  kiste_fuzz_init ();

  launcher = kiste_apps_build_host_launcher ("org.example.App.desktop", (const char *) data, size,
                                             enter, " (on fx-apps)", &error);
  if (launcher == NULL)
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      return 0;
    }

  file = g_key_file_new ();
  g_assert_true (g_key_file_load_from_data (file, launcher, -1, G_KEY_FILE_KEEP_TRANSLATIONS, NULL));
  groups = g_key_file_get_groups (file, NULL);
  g_assert_cmpuint (g_strv_length (groups), ==, 1);
  g_assert_cmpstr (groups[0], ==, "Desktop Entry");
  keys = g_key_file_get_keys (file, "Desktop Entry", NULL, NULL);
  for (guint i = 0; keys[i] != NULL; i++)
    g_assert_true (key_is_allowed (keys[i]));

  exec = g_key_file_get_string (file, "Desktop Entry", "Exec", NULL);
  g_assert_nonnull (exec);
  g_assert_true (g_shell_parse_argv (exec, NULL, &argv, NULL));
  g_assert_cmpuint (g_strv_length (argv), >, 5);
  for (guint i = 0; enter[i] != NULL; i++)
    g_assert_cmpstr (argv[i], ==, enter[i]);

  icon = g_key_file_get_string (file, "Desktop Entry", "Icon", NULL);
  g_assert_true (kiste_apps_is_icon_name (icon));

  /* Kiste's own listing knows it as the box's */
  exported = kiste_apps_parse_exported_launcher ("/home/tester/.local/share/applications/"
                                                 "fx-apps-org.example.App.desktop",
                                                 launcher, "fx-apps");
  g_assert_nonnull (exported);
  g_assert_false (exported->unsafe_icon);

  return 0;
}
