/* fuzz-exported.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A launcher or wrapper a box exported to the host (a box with the home
 * writes there itself): the box it enters, as Clean Up and "Everything
 * Exported" read it over all boxes and the box page for one; rewritten
 * when its box is renamed. (The launcher of a box without the home is
 * Kiste's own: fuzz-launcher.c.) */

#include "config.h"

#include <string.h>

#include "kiste-apps.h"
#include "kiste-error.h"
#include "kiste-fuzz.h"
#include "kiste-validate.h"

#define APPLICATIONS_DIR "/home/tester/.local/share/applications"
#define BIN_DIR "/home/tester/.local/bin"

static const char * const box_names[] = { "fx-apps", "dev", NULL };

static gboolean
is_plausible_box_name (const char *name)
{
  return name != NULL && name[0] != '\0' && name[0] != '.' && name[0] != '-' &&
         strpbrk (name, "/ \t\n") == NULL && g_utf8_validate (name, -1, NULL);
}

static void
check_text (const char *text,
            gboolean    valid)
{
  if (text != NULL && valid)
    g_assert_true (g_utf8_validate (text, -1, NULL));
}

/* What Clean Up would remove and the box pages list must be the files the
 * box's launchers and wrappers prove to be */
static void
check_exported (GPtrArray          *files,
                const char         *contents,
                const char * const *names,
                const char         *only_box)
{
  gboolean valid = g_utf8_validate (contents, -1, NULL);

  for (guint i = 0; i < files->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (files, i);
      g_autofree char *basename = NULL;
      g_autofree char *dir = NULL;

      g_assert_true (is_plausible_box_name (file->box_name));
      if (only_box != NULL)
        g_assert_cmpstr (file->box_name, ==, only_box);
      if (i > 0)
        g_assert_cmpint (strcmp (((KisteExportedFile *) g_ptr_array_index (files, i - 1))->path,
                                 file->path), <, 0);
      check_text (file->name, valid);
      check_text (file->source, valid);

      basename = g_path_get_basename (file->path);
      dir = g_path_get_dirname (file->path);
      switch (file->kind)
        {
        case KISTE_EXPORTED_APP:
          g_assert_cmpstr (dir, ==, APPLICATIONS_DIR);
          g_assert_true (kiste_apps_is_launcher_candidate (basename, file->box_name));
          g_assert_true (kiste_apps_desktop_enters_box (contents, file->box_name));
          g_assert_cmpstr (file->source, ==, basename + strlen (file->box_name) + 1);
          break;

        case KISTE_EXPORTED_BOX_ENTRY:
          g_assert_null (only_box);
          g_assert_cmpstr (dir, ==, APPLICATIONS_DIR);
          g_assert_true (g_str_has_suffix (basename, ".desktop"));
          g_assert_cmpuint (strlen (basename), ==, strlen (file->box_name) + strlen (".desktop"));
          g_assert_true (g_str_has_prefix (basename, file->box_name));
          g_assert_cmpstr (file->name, ==, file->box_name);
          break;

        case KISTE_EXPORTED_BINARY:
          g_assert_cmpstr (dir, ==, BIN_DIR);
          g_assert_true (kiste_apps_wrapper_names_box (contents, file->box_name));
          g_assert_cmpstr (file->name, ==, basename);
          if (file->source != NULL)
            g_assert_true (g_path_is_absolute (file->source));
          break;

        default:
          g_assert_not_reached ();
        }

      /* a rootful box is never listed: its exports are never left behind */
      if (only_box == NULL)
        g_assert_true (file->stale ==
                       (strstr (contents, "--root") == NULL &&
                        (names == NULL || !g_strv_contains (names, file->box_name))));
      else
        g_assert_false (file->stale);
    }
}

static GHashTable *
table_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
match (const char *contents,
       const char *box)
{
  g_autoptr(GHashTable) applications = table_new ();
  g_autoptr(GHashTable) binaries = table_new ();
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) unlisted = NULL;
  g_autoptr(GPtrArray) one = NULL;

  /* the file as a launcher of its own box, as that box's entry, as
   * another box's launcher and as the user's own; and as a wrapper */
  g_hash_table_insert (applications, g_strconcat (box, "-org.example.App.desktop", NULL), (char *) contents);
  g_hash_table_insert (applications, g_strconcat (box, ".desktop", NULL), (char *) contents);
  g_hash_table_insert (applications, g_strdup ("fx-apps-org.example.Viewer.desktop"), (char *) contents);
  g_hash_table_insert (applications, g_strdup ("org.example.App.desktop"), (char *) contents);
  g_hash_table_insert (binaries, g_strdup ("tool"), (char *) contents);

  all = kiste_apps_match_all_exported (APPLICATIONS_DIR, applications, BIN_DIR, binaries, box_names);
  check_exported (all, contents, box_names, NULL);
  unlisted = kiste_apps_match_all_exported (APPLICATIONS_DIR, applications, BIN_DIR, binaries, NULL);
  check_exported (unlisted, contents, NULL, NULL);
  g_assert_cmpuint (unlisted->len, ==, all->len);

  one = kiste_apps_match_exported (box, APPLICATIONS_DIR, applications, BIN_DIR, binaries);
  check_exported (one, contents, box_names, box);
}

/* A rename rewrites the box's own launchers and wrappers: they must
 * still be the renamed box's, as they were the old one's */
static void
rename_box (const char *contents,
            const char *old_name,
            const char *new_name)
{
  g_autofree char *old_basename = g_strconcat (old_name, "-org.example.App.desktop", NULL);
  g_autofree char *old_path = g_build_filename (APPLICATIONS_DIR, old_basename, NULL);
  g_autofree char *new_basename = NULL;
  g_autofree char *new_path = NULL;
  g_autofree char *same = kiste_apps_rewrite_exported (contents, old_name, old_name);
  g_autofree char *rewritten = kiste_apps_rewrite_exported (contents, old_name, new_name);
  g_autoptr(KisteExportedFile) launcher = NULL;
  g_autoptr(KisteExportedFile) wrapper = NULL;

  g_assert_cmpstr (same, ==, contents);
  check_text (rewritten, g_utf8_validate (contents, -1, NULL));

  new_basename = kiste_apps_dup_renamed_launcher_name (old_basename, old_name, new_name);
  g_assert_nonnull (new_basename);
  new_path = g_build_filename (APPLICATIONS_DIR, new_basename, NULL);

  launcher = kiste_apps_parse_exported_launcher (old_path, contents, old_name);
  if (launcher != NULL)
    {
      g_autoptr(KisteExportedFile) renamed = kiste_apps_parse_exported_launcher (new_path, rewritten,
                                                                                   new_name);

      g_assert_nonnull (renamed);
      g_assert_cmpstr (renamed->source, ==, launcher->source);
      /* its name may mention the box, and is rewritten then */
      g_assert_true ((renamed->name == NULL) == (launcher->name == NULL));
      g_assert_false (kiste_apps_desktop_enters_box (rewritten, old_name));
    }

  wrapper = kiste_apps_parse_exported_wrapper (BIN_DIR "/tool", contents, old_name);
  if (wrapper != NULL)
    {
      g_autoptr(KisteExportedFile) renamed = kiste_apps_parse_exported_wrapper (BIN_DIR "/tool", rewritten,
                                                                                  new_name);

      g_assert_nonnull (renamed);
      /* unless a line already entered the new name, and gives a program */
      if (strstr (contents, new_name) == NULL)
        g_assert_cmpstr (renamed->source, ==, wrapper->source);
      g_assert_false (kiste_apps_wrapper_names_box (rewritten, old_name));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* text: the listings skip files that are not, and the runner makes the
   * box's output valid UTF-8 */
  g_autofree char *text = g_utf8_make_valid ((const char *) data, size);
  g_autofree char *entered = NULL;
  g_autofree char *wrapped = NULL;
  g_autofree char *longer = NULL;
  const char *box = "fx-apps";

  kiste_fuzz_init ();

  /* which box it enters, whether or not that box is there */
  entered = kiste_apps_dup_entered_box (text);
  if (entered != NULL)
    {
      g_assert_cmpstr (entered, !=, "");
      g_assert_null (strpbrk (entered, " \t\n"));
      g_assert_true (kiste_apps_is_distrobox_launcher (text));
      /* the name of a box there can be, to rename it */
      if (kiste_validate_existing_name (entered, NULL, NULL))
        box = entered;
    }
  wrapped = kiste_apps_dup_wrapper_box (text);
  if (wrapped != NULL)
    {
      g_assert_cmpstr (wrapped, !=, "");
      g_assert_true (kiste_apps_wrapper_names_box (text, wrapped));
      if (entered == NULL && kiste_validate_existing_name (wrapped, NULL, NULL))
        box = wrapped;
    }

  match (text, box);

  /* to a name of its own, to one that starts with the old one, to one
   * the old one starts with (a rename always changes the name) */
  longer = g_strconcat (box, "-2", NULL);
  rename_box (text, box, longer);
  if (!g_str_equal (box, "renamed"))
    rename_box (text, box, "renamed");
  if (!g_str_equal (box, "fx"))
    rename_box (text, box, "fx");


  return 0;
}
