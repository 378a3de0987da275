/* kiste-manager-ops-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the manager's own files share: its state and the machinery of its
 * operations (kiste-manager.c). Not for widgets, not for tests. */

#pragma once

#include "kiste-manager-private.h"
#include "kiste-setup-watch.h"

G_BEGIN_DECLS

/* Finished tasks kept for the task list */
#define MAX_FINISHED_TASKS 50
/* podman stop's grace before SIGKILL, and our limit around it */
#define STOP_GRACE_SECONDS 10
#define STOP_TIMEOUT_MS (60 * 1000)
#define SHORT_TIMEOUT_MS (2 * 60 * 1000)
#define CREATE_TIMEOUT_MS (30 * 60 * 1000)
/* A big upgrade on a slow line takes long; a box that never ends one must
 * not keep its command for ever */
#define UPGRADE_TIMEOUT_MS (3 * 60 * 60 * 1000)

struct _KisteManager
{
  GObject             parent_instance;

  KisteRunner        *runner;
  KisteCapabilities  *capabilities;
  /* Every source's boxes; the first source's engine is the runner's */
  KisteBoxList       *boxes;
  GListStore         *tasks;
  /* box ref (kiste_box_get_ref()) → its running KisteTask */
  GHashTable         *busy;
  char               *applications_dir;
  char               *bin_dir;
  /* The host's folder of systemd user units (starting boxes at login) */
  char               *units_dir;
  /* Following the host's launchers and wrappers, once someone asks */
  GFileMonitor       *applications_monitor;
  GFileMonitor       *bin_monitor;
  guint               n_exported_watchers;
  guint               exported_changed_source;
  /* Work the app waits for before it ends ("cleaning-up") */
  guint               n_cleanups;
  /* The last update check: "ENGINE\nIMAGE" → its KisteImageUpdate
   * (kiste-manager-updates.c) */
  GHashTable         *image_updates;
  gboolean            checking_updates;
  guint               update_timeout_ms;
  /* Where the journals of boxes being made again are kept
   * (kiste-manager-snapshots.c) */
  char               *journal_dir;
};


typedef struct _Op Op;
typedef void (*OpStep) (GTask *task);

/* What an operation makes sure of before its first step */
typedef enum
{
  OP_REQUIRE_NOTHING,
  /* the box's details, read unless known (best effort) */
  OP_REQUIRE_DETAILS,
  /* the details read and safe for distrobox enter to eval
   * (kiste_box_check_enter_safe()), failing closed */
  OP_REQUIRE_SAFE_ENTER,
  /* the box running and set up: a stopped one is started first, with its
   * progress in the task */
  OP_REQUIRE_RUNNING,
} OpRequire;

/* An operation, declared once: its words for people, what it needs and
 * its first step. The words are N_() strings; done and failed may hold one
 * %s, the box's name. */
typedef struct
{
  const char *title;
  const char *done;
  const char *failed;
  OpRequire   require;
  /* people may cancel it in the task list */
  gboolean    user_cancellable;
  OpStep      first;
} OpKind;

/* The state of one operation, kept as its GTask's task data. Steps run one
 * after another; each ends by starting the next or returning. */
struct _Op
{
  KisteManager        *self;
  const OpKind        *kind;
  KisteTask           *ktask;
  /* The box: how the manager names it, its own name, and its source (the
   * first one for a box that is not there yet) */
  char                *ref;
  char                *box_name;
  KisteBoxSource      *source;
  char                *arg;
  char                *home;
  /* a host program the operation found (the host's distrobox) */
  char                *program;
  /* an empty folder of its own its commands run in (NULL: the runner's) */
  char                *cwd;
  KisteCreateOptions  *options;
  /* the commands a create runs (_kiste_op_create()) */
  KisteCreatePlan     *plan;
  char               **argv;
  GPtrArray           *apps;
  char                *output;
  GError              *pending_error;
  /* what an operation of its own file keeps besides, freed with it */
  gpointer             extra;
  GDestroyNotify       extra_free;
  OpStep               next;
  /* What runs once _kiste_op_require_safe_enter() found the box safe */
  OpStep               after_check;
  /* Runs instead of failing at once: it must end the operation, with
   * pending_error (the failure) or a new one */
  OpStep               recover;
  /* What a create does last (NULL: list again and end) */
  OpStep               created;
  guint                flag : 1;
  guint                details_tried : 1;
  guint                unexport : 1;
  /* A failure may leave a box behind: list again before failing */
  guint                reload_on_error : 1;
};

/* Creates the operation, or returns NULL after failing it at once (busy
 * box): nothing runs then. The caller owns the returned GTask. */
GTask        *_kiste_op_new                 (KisteManager        *self,
                                             const char          *title,
                                             const char          *box_name,
                                             gpointer             source_tag,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* Begins an operation of kind on box_name (NULL: on no box), or returns
 * NULL after failing it at once (busy box): nothing runs then. The caller
 * may fill the Op's arguments, then calls _kiste_op_go(), or
 * _kiste_op_return() when they are wrong. */
GTask        *_kiste_op_prepare             (KisteManager        *self,
                                             const OpKind        *kind,
                                             const char          *box_name,
                                             gpointer             source_tag,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* Makes sure of what the kind requires, then runs its first step; returns
 * the operation's KisteTask (transfer none) */
KisteTask    *_kiste_op_go                  (GTask               *task);
/* Both, for an operation that needs nothing but the box: the KisteTask,
 * or NULL when the box is busy */
KisteTask    *_kiste_op_launch              (KisteManager        *self,
                                             const OpKind        *kind,
                                             const char          *box_name,
                                             gpointer             source_tag,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* The operation's commands run in an empty folder of its own, made now
 * and removed with the operation: distrobox create evals words a shell
 * would glob against the files around it */
void          _kiste_op_use_empty_folder    (GTask               *task);
/* Takes both strings */
void          _kiste_op_set_messages        (GTask               *task,
                                             char                *done,
                                             char                *failed);
GCancellable *_kiste_op_cancellable         (GTask               *task);
KisteTask    *_kiste_op_get_ktask           (GTask               *task);
/* Ends the operation; takes the caller's reference to task */
void          _kiste_op_return              (GTask               *task,
                                             GError              *error);
/* Runs argv; on success calls next. Streamed output goes line by line into
 * the task; otherwise stdout is kept in op->output for next. */
void          _kiste_op_run                 (GTask               *task,
                                             const char * const  *argv,
                                             guint                timeout_ms,
                                             gboolean             stream,
                                             OpStep               next);
/* kiste_runner_run_async()'s callback behind _kiste_op_run(): op->next */
void          _kiste_op_run_cb              (GObject             *object,
                                             GAsyncResult        *result,
                                             gpointer             user_data);
void          _kiste_op_done                (GTask               *task);
/* Fails the operation (taking task and error), after listing the boxes
 * again when it may have left one behind */
void          _kiste_op_fail                (GTask               *task,
                                             GError              *error);
/* For operations that add, remove or rename boxes: lists them again, then
 * ends */
void          _kiste_op_reload_done         (GTask               *task);
/* Reads the box's details unless known (best effort), then next */
void          _kiste_op_require_details     (GTask               *task,
                                             OpStep               next);
/* Reads the box's details if need be and checks them before distrobox
 * enter evals them (kiste_box_check_enter_safe()), failing closed */
void          _kiste_op_require_safe_enter  (GTask               *task,
                                             OpStep               next);
/* Starts the box first when it is not running, then next */
void          _kiste_op_require_running     (GTask               *task,
                                             OpStep               next);
/* argv as it runs for the operation's box: distrobox is told the engine
 * of a box of another engine (kiste_box_source_dup_argv()) */
char        **_kiste_op_dup_argv            (GTask               *task,
                                             const char * const  *argv);
/* The box of the operation, or NULL while there is none */
KisteBox     *_kiste_op_find_box            (GTask               *task);
/* The engine of the operation's box ("podman", "docker") */
const char   *_kiste_op_get_engine          (GTask               *task);
/* Looks the box up; fails the operation when it is gone */
KisteBox     *_kiste_op_require_box         (GTask               *task);
/* Whether the operation's box is a toolbox */
gboolean      _kiste_op_is_toolbox          (GTask               *task);
/* For what only distrobox can do: fails the operation (a reference of its
 * own) and returns TRUE when the box is a toolbox */
gboolean      _kiste_op_refuse_toolbox      (GTask               *task);
/* Creates the box of options by running the commands of plan, its
 * launcher too when asked for (kiste-manager-create.c); then op->created,
 * else lists again */
void          _kiste_op_create              (GTask               *task,
                                             KisteCreateOptions  *options,
                                             KisteCreatePlan     *plan);
/* Starts the box (with its progress in the task), then next */
void          _kiste_op_start_box           (GTask               *task,
                                             OpStep               next);
/* Removes the box's unit that starts it at login when it is Kiste's own
 * (best effort, kiste-manager-autostart.c), then next */
void          _kiste_op_remove_autostart    (GTask               *task,
                                             OpStep               next);
/* Stops the box with the engine's bounded grace time, then next */
void          _kiste_op_stop_box            (GTask               *task,
                                             OpStep               next);

G_END_DECLS
