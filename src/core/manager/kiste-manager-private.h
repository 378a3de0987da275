/* kiste-manager-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-manager.h"
#include "kiste-manager-apps.h"
#include "kiste-manager-create.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-manager-queries.h"
#include "kiste-manager-terminal.h"

G_BEGIN_DECLS

/* The distrobox major version the commands are written for (1 unknown) */
guint  _kiste_manager_get_major                (KisteManager  *self);

/* The names of every box in the list, for the name checks */
GStrv  _kiste_manager_dup_names                (KisteManager  *self);

/* An operation's task is listed (and its box marked busy with it when
 * busy), and ends */
void   _kiste_manager_task_started             (KisteManager  *self,
                                                KisteTask     *ktask,
                                                gboolean       busy);
void   _kiste_manager_task_finished            (KisteManager  *self,
                                                KisteTask     *ktask);

/* Turns a query's output into its answer (NULL: none, or error set) */
typedef gpointer (*KisteQueryParse) (const char  *output,
                                     GError     **error);

/* Runs argv for the question of task (taking task) and answers it with
 * parse's result, freed with free_result when nobody takes it */
void   _kiste_manager_run_query                (KisteManager        *self,
                                                GTask               *task,
                                                const char * const  *argv,
                                                guint                timeout_ms,
                                                KisteQueryParse      parse,
                                                GDestroyNotify       free_result);

/* Around work the app must wait for before it ends ("cleaning-up") */
void   _kiste_manager_cleanup_begin            (KisteManager  *self);
void   _kiste_manager_cleanup_end              (KisteManager  *self);

/* The name of the box box_ref names (kiste_box_get_ref(); the ref's own
 * name when there is no such box) and its source: the box's, or the ref's,
 * or the first one. Borrowed from the box or from box_ref. */
const char *_kiste_manager_resolve_box         (KisteManager    *self,
                                                const char      *box_ref,
                                                KisteBoxSource **source);

/* The ref a new box of engine (NULL: the manager's) gets: NAME on the
 * first source's engine, ENGINE/NAME on another's */
char           *_kiste_manager_dup_new_ref     (KisteManager    *self,
                                                const char      *engine,
                                                const char      *name);
/* kiste_manager_create_and_start_async() on engine's source (NULL: the
 * manager's engine): the plan's engine commands and distrobox's engine */
KisteTask      *_kiste_manager_create_and_start_on_async (KisteManager          *self,
                                                          const char            *engine,
                                                          KisteCreateOptions    *options,
                                                          KisteCreationTaskFunc  task_func,
                                                          gpointer               task_data,
                                                          GDestroyNotify         task_data_destroy,
                                                          GCancellable          *cancellable,
                                                          GAsyncReadyCallback    callback,
                                                          gpointer               user_data);
/* Adds the boxes of engine beside the first source's (not watched yet);
 * the source of that engine when there is one */
KisteBoxSource *_kiste_manager_add_engine      (KisteManager    *self,
                                                const char      *engine);

/* For tests: where the journals of boxes being made again go */
void   _kiste_manager_set_journal_dir          (KisteManager  *self,
                                                const char    *dir);

/* The first source's store: tests fill it */
KisteBoxStore *_kiste_manager_get_store        (KisteManager  *self);

/* For tests: read distrobox's list of known images again next time */
void   _kiste_manager_forget_compatible_images (void);

/* For tests: how long the update check waits for one registry (0: the
 * default, kiste-manager-updates.c) */
void   _kiste_manager_set_update_timeout       (KisteManager  *self,
                                                guint          timeout_ms);

/* For tests: where exported launchers and wrappers go on the host */
void _kiste_manager_set_host_dirs (KisteManager *self,
                                   const char   *applications_dir,
                                   const char   *bin_dir);

/* For tests: where the units that start boxes at login go on the host */
void _kiste_manager_set_units_dir (KisteManager *self,
                                   const char   *units_dir);

G_END_DECLS
