/* kiste-apps-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the apps' files share:
 * kiste-apps.c                 KisteDesktopApp and its desktop entry
 * kiste-apps-listing.c         the box's listing of apps and icons
 * kiste-apps-launcher.c        launchers and wrappers read as text
 * kiste-apps-exported.c        exported files, of one box or of all
 * kiste-apps-exported-list.c   reading the host's folders for them
 * kiste-apps-rename.c          exported files following a new box name
 * kiste-apps-command.c         an app's command line, a program's path
 * kiste-apps-host-launcher.c   the user's launcher kept aside, the box's own */

#pragma once

#include "kiste-apps.h"

G_BEGIN_DECLS

#define DESKTOP_GROUP G_KEY_FILE_DESKTOP_GROUP

typedef struct
{
  gsize start;
  gsize len;
} Token;

typedef struct
{
  gsize start;
  gsize len;
  const char *replacement;
} Edit;

/* Calls func on every line of contents (without its "\n"). */
typedef gboolean (*LineFunc) (const char *line,
                              gsize       len,
                              gpointer    data);

GKeyFile        *_kiste_apps_load_key_file            (const char   *data,
                                                       gsize         length,
                                                       GError      **error);
KisteDesktopApp *_kiste_desktop_app_new_from_key_file (const char   *path,
                                                       GKeyFile     *key_file,
                                                       const char   *locale);

GArray          *_kiste_apps_tokenize                 (const char   *text,
                                                       gsize         len);
gboolean         _kiste_apps_token_equals             (const char   *text,
                                                       const Token  *token,
                                                       const char   *word);
int              _kiste_apps_find_enter_arguments     (const char   *text,
                                                       GArray       *tokens);
gboolean         _kiste_apps_find_enter_names         (const char   *text,
                                                       gsize         len,
                                                       const char   *box_name,
                                                       const char   *replacement,
                                                       GArray       *edits);
gboolean         _kiste_apps_foreach_line             (const char   *contents,
                                                       LineFunc      func,
                                                       gpointer      data);
gboolean         _kiste_apps_line_has_prefix          (const char   *line,
                                                       gsize         len,
                                                       const char   *prefix);
gboolean         _kiste_apps_line_equals_trimmed      (const char   *line,
                                                       gsize         len,
                                                       const char   *text);

/* The output of the host command that reads the launcher and wrapper
 * folders from the Flatpak sandbox, matched as
 * kiste_apps_list_exported_async() does for box_name, or, box_name NULL,
 * kiste_apps_list_all_exported_async() for all boxes. */
GPtrArray       *_kiste_apps_parse_host_listing       (const char          *output,
                                                       const char          *box_name,
                                                       const char          *applications_dir,
                                                       const char          *bin_dir,
                                                       const char * const  *box_names,
                                                       GError             **error);

G_END_DECLS
