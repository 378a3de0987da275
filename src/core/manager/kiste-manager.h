/* kiste-manager.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "kiste-apps.h"
#include "kiste-assemble.h"
#include "kiste-box-stats.h"
#include "kiste-box-store.h"
#include "kiste-capabilities.h"
#include "kiste-create-options.h"
#include "kiste-image.h"
#include "kiste-runner.h"
#include "kiste-task.h"

G_BEGIN_DECLS

#define KISTE_TYPE_MANAGER (kiste_manager_get_type ())

G_DECLARE_FINAL_TYPE (KisteManager, kiste_manager, KISTE, MANAGER, GObject)

/* The one door to podman, docker and distrobox: it owns the runner, the
 * capabilities and the live box store, and runs every operation as a
 * KisteTask, one at a time per box. */
KisteManager       *kiste_manager_new                   (KisteRunner          *runner);
/* For the core only: widgets ask the manager, never the runner */
KisteRunner        *kiste_manager_get_runner            (KisteManager         *self);
KisteCapabilities  *kiste_manager_get_capabilities      (KisteManager         *self);
KisteBoxStore      *kiste_manager_get_store             (KisteManager         *self);
void                kiste_manager_shutdown              (KisteManager         *self);
/* "cleaning-up": TRUE while work runs that must end before the app does
 * (a closed terminal's shell being ended in its box); the app holds on
 * while it is set */
gboolean            kiste_manager_get_cleaning_up       (KisteManager         *self);
/* The container engine commands go to ("podman", "docker"): the one in
 * use, else the one found, else podman */
const char         *kiste_manager_get_engine            (KisteManager         *self);
gboolean            kiste_manager_get_in_flatpak        (KisteManager         *self);

/* The Flatpak's own distrobox, for hosts without one */
const char         *kiste_manager_get_bundled_distrobox_version (KisteManager   *self);
char               *kiste_manager_dup_own_distrobox_version     (KisteManager   *self);
void                kiste_manager_install_distrobox_async       (KisteManager        *self,
                                                                 GCancellable        *cancellable,
                                                                 GAsyncReadyCallback  callback,
                                                                 gpointer             user_data);
gboolean            kiste_manager_install_distrobox_finish      (KisteManager   *self,
                                                                 GAsyncResult   *result,
                                                                 GError        **error);
/* Every task, running and finished, oldest first (a GListModel of KisteTask) */
GListModel         *kiste_manager_get_tasks             (KisteManager         *self);
/* Drops the finished tasks from the list; running ones stay */
void                kiste_manager_clear_finished_tasks  (KisteManager         *self);
/* The running task of the box, or NULL */
KisteTask          *kiste_manager_get_task_for_box      (KisteManager         *self,
                                                         const char           *box_name);
gboolean            kiste_manager_is_busy               (KisteManager         *self,
                                                         const char           *box_name);
/* The folder exported programs go to (~/.local/bin by default) */
const char         *kiste_manager_get_bin_dir           (KisteManager         *self);

/* Follows the host folders of exported launchers and wrappers with file
 * monitors (no polling) while at least one watch is held: the
 * "exported-changed" signal says something there changed. */
void                kiste_manager_watch_exported        (KisteManager         *self);
void                kiste_manager_unwatch_exported      (KisteManager         *self);

/* Probes distrobox and the container managers, picks the manager
 * (preferred: "podman", "docker", or NULL/"auto" for distrobox's own
 * choice), lists the boxes and starts following changes.
 * KISTE_ERROR_TOOL_MISSING when distrobox or a manager is missing. */
void                kiste_manager_load_async            (KisteManager         *self,
                                                         const char           *preferred,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_load_finish           (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* argv to open a shell (command NULL) or run command in the box */
char              **kiste_manager_dup_enter_argv        (KisteManager         *self,
                                                         KisteBox             *box,
                                                         const char           *cwd,
                                                         const char * const   *command);

/* Terminals (kiste-manager-terminal.c). The argv of a shell in box: the
 * direct `podman exec` distrobox enter would run when the box is running
 * and understood (*direct set TRUE), else `distrobox enter`. environ is the
 * environment the terminal's process gets (kiste_pty_dup_environ()). */
char              **kiste_manager_dup_shell_argv        (KisteManager         *self,
                                                         KisteBox             *box,
                                                         const char           *cwd,
                                                         const char * const   *environ,
                                                         gboolean             *direct);
/* Opens a login shell in the box on the terminal whose master is pty_fd
 * (dup'ed: the caller keeps its own), starting the box first when it is
 * stopped (that start is a task of the box, with its progress). cwd is the
 * wanted working directory or NULL for the box home; extra_env the
 * terminal's variables (TERM, COLORTERM, VTE_VERSION). Finishes with the
 * running process, its argv for people in *display (may be NULL). */
void                kiste_manager_open_shell_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *cwd,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GSubprocess        *kiste_manager_open_shell_finish     (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         char                **display,
                                                         GError              **error);
/* Installs the package file at path (on the host, or in the Documents
 * portal: resolved to its host path first) in the box, on the terminal of
 * pty_fd, as open_shell does a shell: `sudo apt-get install -y -- PATH`
 * and the like (kiste-package-file.h), where sudo can ask for a password.
 * KISTE_ERROR_INVALID_INPUT before anything runs when the file does not
 * fit the box. Finishes with kiste_manager_open_shell_finish(). */
void                kiste_manager_install_package_async (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *path,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* Ends what a closed terminal left in the box: every process carrying
 * its KISTE_TERMINAL_ID (podman keeps exec sessions running after their
 * client is gone). A stopped or missing box has nothing left: success. */
void                kiste_manager_end_shell_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *terminal_id,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_end_shell_finish      (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* External terminals (kiste-external-terminal.h): which ones the host
 * has, as a GStrv of ids in the order they are offered; *unusable (may be
 * NULL) gets the ids of Flatpak terminals installed that cannot open a box */
void                kiste_manager_detect_terminals_async (KisteManager        *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
char              **kiste_manager_detect_terminals_finish (KisteManager       *self,
                                                           GAsyncResult       *result,
                                                           char             ***unusable,
                                                           GError            **error);
/* Opens box_name in a new window of the terminal app terminal_id, through
 * `distrobox enter` (the terminal is not ours to watch): only for a box
 * whose details are read and safe to enter (kiste_box_check_enter_safe()) */
void                kiste_manager_open_external_terminal_async  (KisteManager         *self,
                                                                 const char           *terminal_id,
                                                                 const char           *box_name,
                                                                 const char           *cwd,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
gboolean            kiste_manager_open_external_terminal_finish (KisteManager         *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
/* A shell on the host in cwd (the host home when cwd does not exist there)
 * on the terminal of pty_fd. *used_cwd gets the folder it starts in. */
GSubprocess        *kiste_manager_spawn_host_shell      (KisteManager         *self,
                                                         const char           *cwd,
                                                         int                   pty_fd,
                                                         const char * const   *extra_env,
                                                         char                **used_cwd,
                                                         GError              **error);

/* Every operation below validates its input before any process starts,
 * returns its KisteTask (transfer none) so people can follow it, and
 * completes with a boolean _finish (list_apps: a GPtrArray). */
KisteTask          *kiste_manager_create_async          (KisteManager         *self,
                                                         KisteCreateOptions   *options,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_start_async           (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_stop_async            (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_restart_async         (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* remove_home: also delete the box's custom home folder (never the host home) */
KisteTask          *kiste_manager_delete_async          (KisteManager         *self,
                                                         const char           *box_name,
                                                         gboolean              remove_home,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_upgrade_async         (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* The source must be stopped: stop_first stops it (after asking people) */
KisteTask          *kiste_manager_clone_async           (KisteManager         *self,
                                                         const char           *source,
                                                         const char           *new_name,
                                                         gboolean              stop_first,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteTask          *kiste_manager_rename_async          (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *new_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* Starts the box when needed, lists its apps in one exec and marks those
 * exported on the host. Finish gives a GPtrArray of KisteDesktopApp. */
KisteTask          *kiste_manager_list_apps_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GPtrArray          *kiste_manager_list_apps_finish      (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* desktop_path: absolute path of the .desktop file inside the box */
KisteTask          *kiste_manager_export_app_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *desktop_path,
                                                         gboolean              unexport,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* binary_path: absolute path of the program inside the box */
KisteTask          *kiste_manager_export_binary_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *binary_path,
                                                         gboolean              unexport,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* An app of the box run as its exported launcher runs it, COMMAND its
 * Exec= without field codes. Launch starts it (a stopped box first) and
 * leaves it running: through the direct exec where the box is understood,
 * else `distrobox enter --name BOX -- COMMAND` once the box is known to be
 * safe to enter (kiste_box_check_enter_safe()). The command is that
 * distrobox enter, for people to copy; refused for a box that is not safe
 * to enter or whose details were not read. */
char               *kiste_manager_dup_launch_command    (KisteManager         *self,
                                                         const char           *box_name,
                                                         KisteDesktopApp      *app,
                                                         GError              **error);
void                kiste_manager_launch_app_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         KisteDesktopApp      *app,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_launch_app_finish     (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* The box's own launcher in the host menu (a terminal in the box), from
 * `distrobox generate-entry`: whether it is there, and adding or removing
 * it (a KisteTask; finish with kiste_manager_operation_finish()). */
void                kiste_manager_get_box_entry_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_get_box_entry_finish  (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         gboolean             *present,
                                                         GError              **error);
KisteTask          *kiste_manager_set_box_entry_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         gboolean              present,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
/* What the box has exported on the host: a GPtrArray of KisteExportedFile */
void                kiste_manager_list_exported_async   (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GPtrArray          *kiste_manager_list_exported_finish  (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* Where a running box finds program (a name or an absolute path, checked
 * with kiste_validate_program() first): finish gives the absolute path
 * inside the box, or KISTE_ERROR_NOT_FOUND. */
void                kiste_manager_resolve_program_async (KisteManager         *self,
                                                         const char           *box_name,
                                                         const char           *program,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
char               *kiste_manager_resolve_program_finish (KisteManager        *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);
/* A program of the host's PATH with program's basename, outside the folder
 * of exported programs: finish gives its path, or NULL without an error
 * when the host has none. */
void                kiste_manager_find_host_program_async (KisteManager       *self,
                                                           const char         *program,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
char               *kiste_manager_find_host_program_finish (KisteManager      *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
/* Everything every box exported on the host, stale ones (their box is not
 * in the list) marked: a GPtrArray of KisteExportedFile. Until the boxes
 * are listed, use kiste_box_store_get_loaded() before trusting stale. */
void                kiste_manager_list_all_exported_async (KisteManager       *self,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
GPtrArray          *kiste_manager_list_all_exported_finish (KisteManager      *self,
                                                            GAsyncResult      *result,
                                                            GError           **error);
/* Removes those of paths that, read again, are still distrobox's exports
 * of a box that is not there; refuses while the boxes are not listed. */
KisteTask          *kiste_manager_clean_up_exported_async (KisteManager       *self,
                                                           const char * const *paths,
                                                           GCancellable       *cancellable,
                                                           GAsyncReadyCallback callback,
                                                           gpointer            user_data);
/* Creates the box, then starts it for the first time: the whole way to a
 * ready box. task_func is called with each step's KisteTask as it starts
 * (first the create, then the first start) so people can follow both.
 * Returns the create task (transfer none), or NULL when it could not
 * begin; finish with kiste_manager_operation_finish(). */
typedef enum
{
  KISTE_CREATION_STEP_CREATE,
  KISTE_CREATION_STEP_FIRST_START,
} KisteCreationStep;

typedef void (*KisteCreationTaskFunc) (KisteTask         *task,
                                       KisteCreationStep  step,
                                       gpointer           user_data);

KisteTask          *kiste_manager_create_and_start_async (KisteManager          *self,
                                                          KisteCreateOptions    *options,
                                                          KisteCreationTaskFunc  task_func,
                                                          gpointer               task_data,
                                                          GDestroyNotify         task_data_destroy,
                                                          GCancellable          *cancellable,
                                                          GAsyncReadyCallback    callback,
                                                          gpointer               user_data);

/* Why each manifest entry (KisteAssembleEntry) cannot be created as
 * written, checked against the boxes there are and the entries before it:
 * a GPtrArray of messages, NULL where an entry is fine. */
GPtrArray          *kiste_manager_check_entries         (KisteManager         *self,
                                                         GPtrArray            *entries);
/* Creates every entry of a manifest in order, and starts those marked
 * start_now, one at a time; stops at the first failure. Nothing runs when
 * an entry cannot be created (KISTE_ERROR_INVALID_INPUT saying which).
 * Finish with kiste_manager_operation_finish(). */
void                kiste_manager_create_all_async      (KisteManager         *self,
                                                         GPtrArray            *entries,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);

/* For every operation returning a KisteTask except list_apps */
gboolean            kiste_manager_operation_finish      (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

/* Questions that change nothing (kiste-manager-queries.c) */

/* The engine's local images: a GPtrArray of KisteImage, downloaded */
void                kiste_manager_list_images_async     (KisteManager         *self,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
GPtrArray          *kiste_manager_list_images_finish    (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* distrobox's list of images known to work: a GPtrArray of KisteImage,
 * not downloaded. distrobox needs the network the first time and keeps
 * the list; once read, it is kept for the rest of the run. */
void                kiste_manager_list_compatible_images_async  (KisteManager         *self,
                                                                 GCancellable         *cancellable,
                                                                 GAsyncReadyCallback   callback,
                                                                 gpointer              user_data);
GPtrArray          *kiste_manager_list_compatible_images_finish (KisteManager         *self,
                                                                 GAsyncResult         *result,
                                                                 GError              **error);
/* One sample of a running box's processor and memory use */
void                kiste_manager_get_stats_async       (KisteManager         *self,
                                                         const char           *box_name,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
KisteBoxStats      *kiste_manager_get_stats_finish      (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);
/* The box's log since since (NULL: all of it), one line at a time to
 * line_func, in the order written (its stdout and stderr as one). follow
 * keeps reading new lines until cancelled; otherwise it ends with the log
 * (within a minute). */
void                kiste_manager_stream_log_async      (KisteManager         *self,
                                                         const char           *box_name,
                                                         GDateTime            *since,
                                                         gboolean              follow,
                                                         KisteLineFunc         line_func,
                                                         gpointer              line_data,
                                                         GDestroyNotify        line_data_destroy,
                                                         GCancellable         *cancellable,
                                                         GAsyncReadyCallback   callback,
                                                         gpointer              user_data);
gboolean            kiste_manager_stream_log_finish     (KisteManager         *self,
                                                         GAsyncResult         *result,
                                                         GError              **error);

G_END_DECLS
