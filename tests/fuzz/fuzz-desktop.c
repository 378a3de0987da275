/* fuzz-desktop.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* .desktop files: read as an app inside a box, as a launcher exported to
 * the host, as a wrapper script, and as the listing of a box's apps that
 * our script prints. */

#include "config.h"

#include "kiste-apps.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"

static void
read_app (KisteDesktopApp *app)
{
  const char * const *categories;

  g_assert_nonnull (kiste_desktop_app_get_id (app));
  g_assert_nonnull (kiste_desktop_app_get_name (app));
  g_assert_nonnull (kiste_desktop_app_get_exec (app));
  kiste_desktop_app_get_comment (app);
  kiste_desktop_app_get_icon (app);
  categories = kiste_desktop_app_get_categories (app);
  for (guint i = 0; categories != NULL && categories[i] != NULL; i++)
    g_assert_nonnull (categories[i]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *path = "/usr/share/applications/org.example.App.desktop";
  const char *launcher = "/home/tester/.local/share/applications/fx-apps-org.example.App.desktop";
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autoptr(KisteDesktopApp) app = NULL;
  g_autoptr(KisteExportedFile) exported = NULL;
  g_autoptr(KisteExportedFile) wrapper = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GError) error = NULL;

  kiste_fuzz_init ();

  app = kiste_desktop_app_new_from_data (path, (const char *) data, size, "de_DE.UTF-8", &error);
  if (app != NULL)
    read_app (app);
  g_clear_error (&error);

  kiste_apps_desktop_enters_box (text, "fx-apps");
  exported = kiste_apps_parse_exported_launcher (launcher, text, "fx-apps");
  if (exported != NULL)
    g_assert_nonnull (exported->path);

  kiste_apps_wrapper_names_box (text, "fx-apps");
  wrapper = kiste_apps_parse_exported_wrapper ("/home/tester/.local/bin/tool", text, "fx-apps");
  if (wrapper != NULL)
    g_assert_nonnull (wrapper->path);

  listed = kiste_apps_parse_listing (text, "fr_FR", &error);
  if (listed != NULL)
    {
      for (guint i = 0; i < listed->len; i++)
        read_app (g_ptr_array_index (listed, i));
    }
  else
    {
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    }

  return 0;
}
