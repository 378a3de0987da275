/* kiste-commands.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "kiste-box.h"

G_BEGIN_DECLS

/* The argv of every operation on a box. Nothing here starts a process: the
 * builders only return argv arrays (free with g_strfreev()) for a
 * KisteRunner. Names are expected to have been validated already
 * (kiste-validate); a name starting with "-" is a programming error.
 *
 * "manager" is the container engine program ("podman", "docker") and
 * "distrobox_major" the major version of the installed distrobox (1 or 2).
 * distrobox is always called as "distrobox <sub>", never "distrobox-<sub>",
 * which distrobox 2 no longer installs. */

/* `MANAGER start NAME` */
char      **kiste_commands_start_argv                  (const char          *manager,
                                                        const char          *name);

/* `distrobox stop --yes NAME` (same in both versions) */
char      **kiste_commands_stop_argv                   (guint                distrobox_major,
                                                        const char          *name);

/* `MANAGER stop --time SECONDS NAME`: for boxes that hang in "stopping"
 * under distrobox stop (hosts without systemd). */
char      **kiste_commands_engine_stop_argv            (const char          *manager,
                                                        const char          *name,
                                                        guint                timeout_seconds);

/* Box files: `MANAGER container commit NAME IMAGE` (podman pauses the box
 * while it commits), `MANAGER save [--format docker-archive] -o PATH IMAGE`
 * (an uncompressed archive, which podman writes as it goes: PATH may be a
 * named pipe; docker writes a file of its own and renames it to PATH),
 * `MANAGER image inspect --format FORMAT IMAGE` (one field of the image:
 * "{{.Size}}", "{{.Id}}"),
 * `MANAGER load -i PATH`, `podman pull --quiet docker-archive:PATH` (the
 * same load without first unpacking the whole archive to try it as an OCI
 * archive; PATH without a colon) and `MANAGER rmi IMAGE`. PATH must be
 * absolute. */
char      **kiste_commands_commit_argv                 (const char          *manager,
                                                        const char          *name,
                                                        const char          *image);
char      **kiste_commands_save_image_argv             (const char          *manager,
                                                        const char          *image,
                                                        const char          *path);
char      **kiste_commands_image_field_argv            (const char          *manager,
                                                        const char          *image,
                                                        const char          *format);
char      **kiste_commands_load_image_argv             (const char          *manager,
                                                        const char          *path);
char      **kiste_commands_pull_archive_argv           (const char          *manager,
                                                        const char          *path);
char      **kiste_commands_remove_image_argv           (const char          *manager,
                                                        const char          *image);

/* A box's own home in a box file, on the host: `tar --create` of HOME's
 * contents into PATH (one file system); `du` of its size in bytes; a new
 * FOLDER made (`mkdir`, which fails when it exists: never over an existing
 * one), PATH unpacked into it as the user's own files, and that folder
 * removed again when the unpack or the load failed. Absolute paths. For a
 * podman box, tar and du run in podman's user namespace (`podman unshare`)
 * to read files its subordinate ids own. */
char      **kiste_commands_pack_home_argv              (const char          *manager,
                                                        const char          *home,
                                                        const char          *path);
char      **kiste_commands_home_size_argv              (const char          *manager,
                                                        const char          *home);
char      **kiste_commands_remove_new_folder_argv      (const char          *folder);
/* The size du printed for home, or FALSE */
gboolean    kiste_commands_parse_home_size             (const char          *output,
                                                        guint64             *size);
char      **kiste_commands_make_folder_argv            (const char          *folder);
char      **kiste_commands_unpack_home_argv            (const char          *path,
                                                        const char          *folder);

/* `MANAGER restart NAME`. The box's setup runs again afterwards; use a
 * KisteStartMonitor after a stop instead when progress should be shown. */
char      **kiste_commands_restart_argv                (const char          *manager,
                                                        const char          *name);

/* `distrobox rm --force [--rm-home] NAME`. Removes the exported apps and
 * binaries too. distrobox 1 never removes the home with --force, so the
 * caller removes a custom home itself after checking it with
 * kiste_commands_check_home_removable(). */
char      **kiste_commands_rm_argv                     (guint                distrobox_major,
                                                        const char          *name,
                                                        gboolean             rm_home);

/* Returns TRUE when path may be deleted as a box's custom home: absolute and
 * normalised (no "." or ".." parts, no "//"), not "/", not host_home nor a
 * folder that contains it, not inside host_home's well-known folders
 * (Documents, .config, …) and not a system folder. Otherwise
 * KISTE_ERROR_INVALID_INPUT with a message saying why. Purely lexical:
 * symlinks are not resolved, so the caller deletes without following them. */
gboolean    kiste_commands_check_home_removable        (const char          *path,
                                                        const char          *host_home,
                                                        GError             **error);

/* `sh -c SCRIPT sh PATH`: removes the box's home folder path (checked with
 * kiste_commands_check_home_removable() first) on the host without
 * following a link a box may have put in its way: the folders on the way
 * are entered one at a time, a link followed only right under / when it
 * and / belong to root and nobody else may change them (/home -> var/home
 * on Fedora Atomic), each folder checked to be the one that was there a
 * moment before; the home itself must be a folder of the user's,
 * and its contents are removed from inside it. Fails (exit 3, the reason
 * on stderr) when anything on the way is not as it should be. */
char      **kiste_commands_remove_home_argv            (const char          *path);

/* `toolbox rm --force NAME`: a toolbox, running or not. Toolbx keeps no
 * launchers of its own: Kiste's are removed by the caller. */
char      **kiste_commands_toolbox_rm_argv             (const char          *name);
/* `toolbox run --container NAME -- COMMAND…`: a command in a toolbox,
 * started first when it is stopped; what Kiste's launchers of toolboxes
 * run. */
char      **kiste_commands_toolbox_run_argv            (const char          *name,
                                                        const char * const  *command);
/* `distrobox upgrade NAME`; distrobox 2 adds --yes. */
char      **kiste_commands_upgrade_argv                (guint                distrobox_major,
                                                        const char          *name);

/* `distrobox create --yes --no-entry --clone SOURCE --name NEW_NAME`. The
 * source must be stopped. */
char      **kiste_commands_clone_argv                  (guint                distrobox_major,
                                                        const char          *source,
                                                        const char          *new_name);

/* `MANAGER rename OLD NEW`. The box's exported launchers must then be
 * rewritten: see kiste_apps_rewrite_exported(). */
char      **kiste_commands_rename_argv                 (const char          *manager,
                                                        const char          *old_name,
                                                        const char          *new_name);

/* `distrobox enter --name NAME [--no-workdir] [-- COMMAND…]`, the same in
 * both versions; no command means the user's login shell. distrobox keeps
 * the working directory it is started in, so spawn it with cwd as working
 * directory. --no-workdir (start in the box's home) is added when cwd is
 * NULL or not an existing folder, and for boxes labelled
 * distrobox.unshare_home=1 when cwd lies in the host home but under none of
 * the box's own mounts (other than /run/host), since the host home is not
 * there. */
/* For a toolbox: `toolbox enter --container NAME`, or with a command
 * kiste_commands_toolbox_run_argv(); Toolbx itself keeps the working
 * directory where the box has it. */
char      **kiste_commands_enter_argv                  (KisteBox            *box,
                                                        guint                distrobox_major,
                                                        const char          *cwd,
                                                        const char * const  *command);

/* The workdir rule of kiste_commands_enter_argv() for a box with an
 * unshared home, on plain values: TRUE when cwd can be kept. */
gboolean    kiste_commands_unshared_home_keeps_workdir (const char          *cwd,
                                                        const char          *host_home,
                                                        const char * const  *mounts);

/* `distrobox enter --name NAME --no-tty -- distrobox-export --app PATH
 * [--delete]`. PATH is the absolute path of a .desktop file in the box (a
 * bare name would export every app whose Exec or Name contains it). Fails
 * with KISTE_ERROR_INVALID_INPUT for anything else. */
char      **kiste_commands_export_app_argv             (const char          *name,
                                                        const char          *desktop_path,
                                                        gboolean             delete,
                                                        GError             **error);

/* `distrobox enter --name NAME --no-tty -- distrobox-export --bin PATH
 * --export-path DIR [--delete]`. Both paths absolute; DIR is where the
 * wrapper goes on the host (normally ~/.local/bin). */
char      **kiste_commands_export_bin_argv             (const char          *name,
                                                        const char          *binary_path,
                                                        const char          *export_path,
                                                        gboolean             delete,
                                                        GError             **error);

/* The icon of a box's own launcher: the Icon Naming Specification's
 * terminal, which every icon theme has */
#define KISTE_BOX_ENTRY_ICON "utilities-terminal"

/* `distrobox generate-entry NAME --icon KISTE_BOX_ENTRY_ICON` or
 * `distrobox generate-entry NAME --delete`: the box's own launcher
 * (~/.local/share/applications/NAME.desktop, a terminal in the box) */
char      **kiste_commands_generate_entry_argv         (const char          *name,
                                                        gboolean             delete);

/* `distrobox enter --name NAME -- ARGV…`: an app's command (its Exec=
 * without field codes) run in the box, as its exported launcher would. */
char      **kiste_commands_launch_app_argv             (const char          *name,
                                                        const char * const  *app_argv);

/* The largest icon file a box's listing brings (512 KiB), and how much of
 * an icon file the listing script reads: one byte more, to tell it apart */
#define KISTE_LIST_APPS_ICON_MAX  524288
#define KISTE_LIST_APPS_ICON_READ 524289

/* The largest desktop file a box's listing brings (256 KiB), and how much
 * of one the listing script reads: one byte more, to tell it apart. A box
 * decides what its files hold and how big they are (a sparse file of
 * 100 GB is no trouble to make). */
#define KISTE_LIST_APPS_FILE_MAX  262144
#define KISTE_LIST_APPS_FILE_READ 262145

/* The fixed script that prints every .desktop file in its argument folders
 * and their icons for kiste_apps_parse_listing(). It takes no data other
 * than its positional arguments. */
const char *kiste_commands_get_list_apps_script        (void);

/* `MANAGER exec --user USER NAME sh -c 'command -v -- "$1"' sh PROGRAM`:
 * where a running box finds a program (a constant script, the program its
 * argument). program must pass kiste_validate_program(). */
char      **kiste_commands_resolve_program_argv        (const char          *manager,
                                                        const char          *name,
                                                        const char          *user,
                                                        const char          *program);

/* `sh -c SCRIPT sh PROGRAM SKIP_DIR`, run on the host: prints the first
 * executable PATH/PROGRAM of the host's PATH, leaving out skip_dir (the
 * folder of exported programs; may be NULL); prints nothing when there is
 * none. */
char      **kiste_commands_find_host_program_argv      (const char          *program,
                                                        const char          *skip_dir);

/* `stat -L -c '%s %Y' -- PATH`: the size and modification time of the
 * host's file at path (absolute), as one line */
char      **kiste_commands_host_stat_argv              (const char          *path);

/* `MANAGER exec --user USER NAME sh -c SCRIPT sh DIR…`: one process listing
 * the apps of a running box. */
char      **kiste_commands_list_apps_argv              (const char          *manager,
                                                        const char          *name,
                                                        const char          *user,
                                                        const char * const  *dirs);

/* The app folders of box, most important first: the box's own home's
 * applications folder when its home is not the host home, then
 * /usr/local/share/applications and /usr/share/applications. */
char      **kiste_commands_dup_app_dirs                (KisteBox            *box);

/* `MANAGER inspect --type container --format {{.State.Status}} NAME` */
char      **kiste_commands_state_argv                  (const char          *manager,
                                                        const char          *name);

/* `MANAGER container inspect NAME` (a JSON array with podman and docker) */
char      **kiste_commands_inspect_argv                (const char          *manager,
                                                        const char          *name);

/* `MANAGER logs [-f] --since SINCE NAME` */
char      **kiste_commands_logs_argv                   (const char          *manager,
                                                        const char          *name,
                                                        const char          *since,
                                                        gboolean             follow);

/* time in UTC as RFC 3339 with nanoseconds, as distrobox passes to
 * logs --since: 2026-01-02T03:04:05.123456000+00:00 */
char       *kiste_commands_format_since                (GDateTime           *time);

/* The engine's local images as JSON: podman prints one array, docker one
 * object per line */
char      **kiste_commands_images_argv                 (const char          *manager);
/* `distrobox create --compatibility`: the images known to work, one a line */
char      **kiste_commands_compatibility_argv          (void);
/* One sample of the box's processor and memory use as JSON */
char      **kiste_commands_stats_argv                  (const char          *manager,
                                                        const char          *name);

G_END_DECLS
