/* kiste-apps.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-runner.h"

G_BEGIN_DECLS

/* A desktop app installed inside a box, read from its .desktop file. */

#define KISTE_TYPE_DESKTOP_APP (kiste_desktop_app_get_type ())

G_DECLARE_FINAL_TYPE (KisteDesktopApp, kiste_desktop_app, KISTE, DESKTOP_APP, GObject)

/* Reads one .desktop file's contents. Returns NULL and sets error when it is
 * not a key file; returns NULL without an error when it is no app to show
 * (Type other than Application, NoDisplay or Hidden, no Name or Exec).
 * locale NULL means the current one. */
KisteDesktopApp    *kiste_desktop_app_new_from_data      (const char          *path,
                                                          const char          *data,
                                                          gsize                length,
                                                          const char          *locale,
                                                          GError             **error);

/* The desktop file id: the file's basename, e.g. "org.gnome.Maps.desktop" */
const char         *kiste_desktop_app_get_id             (KisteDesktopApp     *self);
/* Absolute path of the .desktop file inside the box */
const char         *kiste_desktop_app_get_path           (KisteDesktopApp     *self);
/* Name in the chosen locale */
const char         *kiste_desktop_app_get_name           (KisteDesktopApp     *self);
const char         *kiste_desktop_app_get_comment        (KisteDesktopApp     *self);
/* Icon= as written: a theme icon name or an absolute path inside the box */
const char         *kiste_desktop_app_get_icon           (KisteDesktopApp     *self);
const char         *kiste_desktop_app_get_exec           (KisteDesktopApp     *self);
const char * const *kiste_desktop_app_get_categories     (KisteDesktopApp     *self);
/* The icon file the box has for Icon= (PNG or SVG), NULL when the box
 * has none the listing found */
GBytes             *kiste_desktop_app_get_icon_data      (KisteDesktopApp     *self);
void                kiste_desktop_app_set_icon_data      (KisteDesktopApp     *self,
                                                          GBytes              *icon_data);
/* Whether the host has a launcher exported from this app */
gboolean            kiste_desktop_app_get_exported       (KisteDesktopApp     *self);
void                kiste_desktop_app_set_exported       (KisteDesktopApp     *self,
                                                          gboolean             exported);

/* Parses what the script of kiste_commands_get_list_apps_script() printed.
 * Folders come most important first, so the first file with a given id
 * wins, even when that one is hidden. Icon records after the files give
 * each app the bytes of its icon file in the box. Returns the apps to show
 * (KisteDesktopApp), in the script's order; files that are not key files
 * are skipped. KISTE_ERROR_BAD_OUTPUT when the output is cut short or not
 * the script's. */
GPtrArray          *kiste_apps_parse_listing             (const char          *output,
                                                          const char          *locale,
                                                          GError             **error);


/* What a box has exported to the host: launchers in
 * ~/.local/share/applications named BOX-<id>.desktop whose Exec enters
 * exactly this box, and wrapper scripts (by default in ~/.local/bin) marked
 * "# distrobox_binary" and "# name: BOX". */

typedef enum
{
  KISTE_EXPORTED_APP,
  KISTE_EXPORTED_BINARY,
  /* The box's own launcher, BOX.desktop, from `distrobox generate-entry` */
  KISTE_EXPORTED_BOX_ENTRY,
} KisteExportedKind;

typedef struct
{
  KisteExportedKind  kind;
  /* The file on the host */
  char              *path;
  /* App: the desktop file id inside the box ("org.gnome.Maps.desktop");
   * binary: the program's absolute path inside the box, or NULL when the
   * wrapper does not say. */
  char              *source;
  /* App: Name= without distrobox's " (on BOX)"; binary: the basename;
   * box entry: the box's name */
  char              *name;
  /* The box it runs in */
  char              *box_name;
  /* Its box is not among the boxes there are: left behind by a box that
   * was deleted or renamed */
  gboolean           stale;
  /* App: `distrobox rm` would take its Icon= (the first "Icon=" anywhere
   * in it, as distrobox reads it) for a pattern of icons to delete that is
   * more than a plain name ("*", or empty when there is none) */
  gboolean           unsafe_icon;
} KisteExportedFile;

#define KISTE_TYPE_EXPORTED_FILE (kiste_exported_file_get_type ())

GType               kiste_exported_file_get_type         (void) G_GNUC_CONST;
KisteExportedFile  *kiste_exported_file_copy             (const KisteExportedFile *self);
void                kiste_exported_file_free             (KisteExportedFile   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteExportedFile, kiste_exported_file_free)

/* TRUE when some Exec= line of a .desktop file runs `distrobox-enter … -n
 * BOX` or `distrobox enter … -n BOX` (also --name), with BOX exactly
 * box_name. */
gboolean            kiste_apps_desktop_enters_box        (const char          *contents,
                                                          const char          *box_name);

/* TRUE when a file is a distrobox wrapper script for box_name. */
gboolean            kiste_apps_wrapper_names_box         (const char          *contents,
                                                          const char          *box_name);

/* TRUE when a file name in ~/.local/share/applications may be a launcher of
 * box_name (BOX-*.desktop); only those need to be read. */
gboolean            kiste_apps_is_launcher_candidate     (const char          *basename,
                                                          const char          *box_name);

/* One host file: a KisteExportedFile when it belongs to box_name, else NULL.
 * path is its full path on the host, contents its text. */
KisteExportedFile  *kiste_apps_parse_exported_launcher   (const char          *path,
                                                          const char          *contents,
                                                          const char          *box_name);
KisteExportedFile  *kiste_apps_parse_exported_wrapper    (const char          *path,
                                                          const char          *contents,
                                                          const char          *box_name);

/* Everything box_name exported, from the host's folder listings: the
 * hash tables map basenames to file contents (or NULL for files that were
 * not read) of applications_dir and bin_dir. Either may be NULL. Returns
 * KisteExportedFile items sorted by path. */
GPtrArray          *kiste_apps_match_exported            (const char          *box_name,
                                                          const char          *applications_dir,
                                                          GHashTable          *applications,
                                                          const char          *bin_dir,
                                                          GHashTable          *binaries);

/* The box a distrobox wrapper script runs in ("# name: BOX" after the
 * "# distrobox_binary" marker); NULL when it is no such wrapper. */
char               *kiste_apps_dup_wrapper_box           (const char          *contents);

/* Everything any box exported, from the host's folder listings (as for
 * kiste_apps_match_exported(), but every *.desktop file of applications)
 * : launchers named BOX-<id>.desktop that enter BOX, box entries
 * BOX.desktop that enter BOX, and wrappers marked for a box. A file's
 * stale is set when its box is not in box_names (NULL: no boxes). Files
 * that do not prove to be distrobox's (a user's own launcher, a launcher
 * whose name does not match the box it enters) are left out. Sorted by
 * path. */
GPtrArray          *kiste_apps_match_all_exported        (const char          *applications_dir,
                                                          GHashTable          *applications,
                                                          const char          *bin_dir,
                                                          GHashTable          *binaries,
                                                          const char * const  *box_names);

/* Like kiste_apps_list_exported_async() for every box: finish gives
 * kiste_apps_match_all_exported()'s result. */
void                kiste_apps_list_all_exported_async   (KisteRunner         *runner,
                                                          const char          *applications_dir,
                                                          const char          *bin_dir,
                                                          const char * const  *box_names,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
GPtrArray          *kiste_apps_list_all_exported_finish  (GAsyncResult        *result,
                                                          GError             **error);

/* The first line `command -v` printed inside a box, when it is an
 * absolute path (not an alias, function or builtin); else
 * KISTE_ERROR_NOT_FOUND naming program. */
char               *kiste_apps_parse_resolved_program    (const char          *output,
                                                          const char          *program,
                                                          GError             **error);

/* Sets KisteDesktopApp:exported on every app in apps for which exported
 * (KisteExportedFile) has a launcher. */
void                kiste_apps_mark_exported             (GPtrArray           *apps,
                                                          GPtrArray           *exported);

/* Reads applications_dir and bin_dir (either may be NULL) and returns
 * kiste_apps_match_exported()'s result: in a thread, or, when runner runs
 * commands from the Flatpak sandbox, on the host through one command.
 * Missing folders count as empty. */
void                kiste_apps_list_exported_async       (KisteRunner         *runner,
                                                          const char          *box_name,
                                                          const char          *applications_dir,
                                                          const char          *bin_dir,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
GPtrArray          *kiste_apps_list_exported_finish      (GAsyncResult        *result,
                                                          GError             **error);

/* For a renamed box: contents of an exported launcher or wrapper with every
 * reference to old_name replaced by new_name: `-n OLD`/`--name OLD` of the
 * distrobox enter call (not the app's own arguments after "--"),
 * "# name: OLD", the wrapper's CONTAINER_ID test and the " (on OLD)" label.
 * Names must match whole: renaming "arch" leaves "arch-dev" alone. */
char               *kiste_apps_rewrite_exported          (const char          *contents,
                                                          const char          *old_name,
                                                          const char          *new_name);

/* "OLD-<id>.desktop" → "NEW-<id>.desktop"; NULL when basename does not
 * start with "OLD-". */
char               *kiste_apps_dup_renamed_launcher_name (const char          *basename,
                                                          const char          *old_name,
                                                          const char          *new_name);

/* TRUE when some Exec= line of a .desktop file enters any box through
 * distrobox (a launcher distrobox-export wrote) */
gboolean            kiste_apps_is_distrobox_launcher     (const char          *contents);

/* An app's Exec= as argv, without the field codes ("%U", "%f", …) that
 * stand for files and URLs, "%%" turned into "%". KISTE_ERROR_BAD_OUTPUT
 * when it cannot be split or runs nothing. */
char              **kiste_apps_dup_exec_argv             (const char          *exec,
                                                          GError             **error);

/* distrobox 1.8's `distrobox-export --app X --delete` removes
 * applications_dir/<id> as well as the box's BOX-<id>: the user's own
 * launcher of that name. Before it runs, keep moves such a file (one that
 * is there and enters no box) aside, to
 * kiste_apps_dup_kept_launcher_path(), never over another file; finish
 * gives that path, or NULL without an error when there was nothing to keep.
 * Restore moves it back. Both run on the host through runner. */
char               *kiste_apps_dup_kept_launcher_path    (const char          *applications_dir,
                                                          const char          *desktop_id);
void                kiste_apps_keep_user_launcher_async  (KisteRunner         *runner,
                                                          const char          *applications_dir,
                                                          const char          *desktop_id,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
char               *kiste_apps_keep_user_launcher_finish (GAsyncResult        *result,
                                                          GError             **error);
void                kiste_apps_restore_user_launcher_async  (KisteRunner         *runner,
                                                             const char          *kept_path,
                                                             const char          *applications_dir,
                                                             const char          *desktop_id,
                                                             GAsyncReadyCallback  callback,
                                                             gpointer             user_data);
gboolean            kiste_apps_restore_user_launcher_finish (GAsyncResult        *result,
                                                             GError             **error);

/* A launcher for the host's menu that Kiste writes itself from an app's
 * desktop entry as the box holds it: only checked keys, Exec= rebuilt as
 * enter_argv (the host command that runs a command in the box, ending with
 * "--") and the app's own argv, Icon= a plain icon name. See the .c. */
char               *kiste_apps_build_host_launcher       (const char          *desktop_id,
                                                          const char          *contents,
                                                          gsize                length,
                                                          const char * const  *enter_argv,
                                                          const char          *label,
                                                          GError             **error);
/* TRUE for an Icon= value that is a plain theme icon name: no path, no
 * glob, nothing distrobox rm's icon clean-up could take for more */
gboolean            kiste_apps_is_icon_name              (const char          *icon);

/* Puts contents in applications_dir/file_name on the host (through the
 * runner, so also from the sandbox), through a fresh temporary file moved
 * over the name in one step. Without replace an existing file stays and
 * the write fails; with it only a regular file is replaced. */
void                kiste_apps_write_host_launcher_async  (KisteRunner         *runner,
                                                           const char          *applications_dir,
                                                           const char          *file_name,
                                                           const char          *contents,
                                                           gboolean             replace,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
gboolean            kiste_apps_write_host_launcher_finish (GAsyncResult        *result,
                                                           GError             **error);

/* Whether applications_dir/BOX.desktop is there and starts a box: the
 * box's own launcher that `distrobox generate-entry` writes. Read on the
 * host through runner. */
void                kiste_apps_has_box_entry_async       (KisteRunner         *runner,
                                                          const char          *applications_dir,
                                                          const char          *box_name,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean            kiste_apps_has_box_entry_finish      (GAsyncResult        *result,
                                                          gboolean            *present,
                                                          GError             **error);

/* The box a launcher enters: the value of -n/--name of its distrobox
 * enter call (distrobox-export's shapes, v1 and v2), or the first word
 * after `distrobox enter` (generate-entry's), or the container of a
 * `toolbox run` (Kiste's launchers of toolboxes); NULL when it enters none.
 * A box not among the boxes there are marks a launcher left behind. */
char               *kiste_apps_dup_entered_box           (const char          *contents);

G_END_DECLS
