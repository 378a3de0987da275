/* kiste-manager-create.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Creating boxes the way people ask for them: one box created and started
 * for the first time, or every box of a manifest, one after another. Both
 * are made of the manager's create and start operations, so each step is
 * a KisteTask in the task list. */

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "kiste-error.h"
#include "kiste-isolated-home.h"
#include "kiste-commands.h"
#include "kiste-manager-ops-private.h"
#include "kiste-manager-private.h"

/* Create: the commands of the options' plan, one after another
 * (kiste_create_options_plan()). Without the user's home, distrobox's dry
 * run prints the create command, and the one that runs is built from its
 * parts, without the home's mounts (kiste-isolated-home.c). */

static void
create_entry_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_auto(GStrv) argv = kiste_commands_generate_entry_argv (op->box_name, FALSE);

  _kiste_op_run (task, (const char * const *) argv, SHORT_TIMEOUT_MS, FALSE,
                 op->created ? op->created : _kiste_op_reload_done);
}

static void
create_entry_listed_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  GTask *task = user_data;

  /* best effort: the check below says it when the box is not listed */
  kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, NULL);
  _kiste_op_require_safe_enter (task, create_entry_run);
}

/* The box's own launcher, when asked for. Never distrobox create's own:
 * that one looks up its icon through a file of a predictable name in the
 * /tmp every box shares. It runs distrobox enter, so only for a box that
 * is safe to enter; the new box is listed first to be checked. */
static void
create_add_entry (GTask *task)
{
  Op *op = g_task_get_task_data (task);

  if (op->options == NULL || !kiste_create_options_get_add_to_menu (op->options))
    {
      (op->created ? op->created : _kiste_op_reload_done) (task);
      return;
    }

  kiste_box_list_reload_async (op->self->boxes, _kiste_op_cancellable (task),
                               create_entry_listed_cb, task);
}

static void
create_isolated_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  KisteIsolatedHomeHost host = { 0 };
  g_autofree char *runtime_dir = g_strdup_printf ("/run/user/%u", (guint) getuid ());
  g_auto(GStrv) argv = NULL;
  GError *error = NULL;

  host.host_home = kiste_box_list_get_host_home (op->self->boxes);
  if (host.host_home == NULL)
    host.host_home = g_get_home_dir ();
  host.user_name = g_get_user_name ();
  host.runtime_dir = runtime_dir;
  host.uid = getuid ();
  host.gid = getgid ();
  /* the sandbox does not show /var/home, but the home's path tells */
  host.host_has_var_home = g_file_test ("/var/home", G_FILE_TEST_IS_DIR) ||
                           g_str_has_prefix (host.host_home, "/var/home/");

  if (!(argv = kiste_create_plan_dup_create_argv (op->plan, op->output, &host, &error)))
    {
      _kiste_op_fail (task, error);
      return;
    }
  _kiste_op_run (task, (const char * const *) argv, CREATE_TIMEOUT_MS, TRUE, create_add_entry);
}

static void
create_run (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  const char * const *argv = kiste_create_plan_get_argv (op->plan);

  /* the dry run's output is kept for the next step, not shown */
  if (kiste_create_plan_get_kind (op->plan) == KISTE_CREATE_PLAN_ISOLATED)
    _kiste_op_run (task, argv, CREATE_TIMEOUT_MS, FALSE, create_isolated_run);
  else
    _kiste_op_run (task, argv, CREATE_TIMEOUT_MS, TRUE, create_add_entry);
}

void
_kiste_op_create (GTask              *task,
                  KisteCreateOptions *options,
                  KisteCreatePlan    *plan)
{
  Op *op = g_task_get_task_data (task);
  const char * const *prepare = kiste_create_plan_get_prepare_argv (plan);

  g_set_object (&op->options, options);
  g_set_object (&op->plan, plan);

  if (prepare != NULL)
    _kiste_op_run (task, prepare, CREATE_TIMEOUT_MS, TRUE, create_run);
  else
    create_run (task);
}

/* The ref a new box of engine gets: its plain name on the first source's
 * engine, ENGINE/NAME on another's */
char *
_kiste_manager_dup_new_ref (KisteManager *self,
                            const char   *engine,
                            const char   *name)
{
  KisteBoxSource *first = kiste_box_list_get_first_source (self->boxes);

  if (engine == NULL || g_strcmp0 (kiste_box_source_get_engine (first), engine) == 0)
    return g_strdup (name);
  return g_strdup_printf ("%s/%s", engine, name);
}

static KisteTask *
create_on (KisteManager        *self,
           const char          *engine,
           KisteCreateOptions  *options,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ref = NULL;
  const char *name;
  GTask *task;
  KisteTask *ktask;

  if ((name = kiste_create_options_get_name (options)) == NULL)
    name = "";
  names = _kiste_manager_dup_names (self);
  if (engine == NULL)
    engine = kiste_manager_get_engine (self);
  ref = _kiste_manager_dup_new_ref (self, engine, name);

  if (!(task = _kiste_op_new (self, _("Creating"), ref, kiste_manager_create_async,
                              cancellable, callback, user_data)))
    return NULL;
  ktask = _kiste_op_get_ktask (task);
  _kiste_op_set_messages (task,
                          g_strdup_printf (_("“%s” was created"), name),
                          g_strdup_printf (_("Could not create “%s”"), name));

  if (!(plan = kiste_create_options_plan (options, (const char * const *) names, self->capabilities,
                                         engine, &error)))
    {
      _kiste_op_return (task, g_steal_pointer (&error));
      return ktask;
    }

  /* A pull can take long; the command stops cleanly when cancelled */
  kiste_task_set_cancellable_by_user (ktask, TRUE);
  _kiste_op_use_empty_folder (task);
  ((Op *) g_task_get_task_data (task))->reload_on_error = TRUE;
  _kiste_op_create (task, options, plan);
  return ktask;
}

KisteTask *
kiste_manager_create_async (KisteManager        *self,
                            KisteCreateOptions  *options,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (options), NULL);

  return create_on (self, NULL, options, cancellable, callback, user_data);
}

/* Create, then the first start */

typedef struct
{
  /* the new box's ref */
  char                 *name;
  KisteCreationTaskFunc task_func;
  gpointer              task_data;
  GDestroyNotify        task_data_destroy;
} CreateAndStart;

static void
create_and_start_free (CreateAndStart *data)
{
  if (data->task_data_destroy != NULL)
    data->task_data_destroy (data->task_data);
  g_free (data->name);
  g_free (data);
}

static void
create_and_start_started_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
create_and_start_created_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CreateAndStart *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  KisteManager *self = KISTE_MANAGER (object);
  KisteTask *ktask;

  if (!kiste_manager_operation_finish (self, result, &error) ||
      g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* the list has the new box by now */
  ktask = kiste_manager_start_async (self, data->name, g_task_get_cancellable (task),
                                     create_and_start_started_cb, g_object_ref (task));
  if (ktask != NULL && data->task_func != NULL)
    data->task_func (ktask, KISTE_CREATION_STEP_FIRST_START, data->task_data);
}

KisteTask *
kiste_manager_create_and_start_async (KisteManager          *self,
                                      KisteCreateOptions    *options,
                                      KisteCreationTaskFunc  task_func,
                                      gpointer               task_data,
                                      GDestroyNotify         task_data_destroy,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (options), NULL);

  return _kiste_manager_create_and_start_on_async (self, NULL, options, task_func, task_data,
                                                   task_data_destroy, cancellable, callback,
                                                   user_data);
}

KisteTask *
_kiste_manager_create_and_start_on_async (KisteManager          *self,
                                          const char            *engine,
                                          KisteCreateOptions    *options,
                                          KisteCreationTaskFunc  task_func,
                                          gpointer               task_data,
                                          GDestroyNotify         task_data_destroy,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback    callback,
                                          gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  CreateAndStart *data;
  KisteTask *ktask;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (options), NULL);

  if (engine == NULL)
    engine = kiste_manager_get_engine (self);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_create_and_start_async);
  /* each step says for itself when it was cancelled */
  g_task_set_check_cancellable (task, FALSE);

  data = g_new0 (CreateAndStart, 1);
  data->name = _kiste_manager_dup_new_ref (self, engine,
                                           kiste_create_options_get_name (options));
  data->task_func = task_func;
  data->task_data = task_data;
  data->task_data_destroy = task_data_destroy;
  g_task_set_task_data (task, data, (GDestroyNotify) create_and_start_free);

  ktask = create_on (self, engine, options, cancellable,
                     create_and_start_created_cb, g_object_ref (task));
  if (ktask != NULL && task_func != NULL)
    task_func (ktask, KISTE_CREATION_STEP_CREATE, task_data);
  return ktask;
}

/* Every box of a manifest */

GPtrArray *
kiste_manager_check_entries (KisteManager *self,
                             GPtrArray    *entries)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) existing = NULL;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (entries != NULL, NULL);

  existing = _kiste_manager_dup_names (self);
  for (guint i = 0; existing[i] != NULL; i++)
    g_ptr_array_add (names, g_strdup (existing[i]));
  g_ptr_array_add (names, NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char * const *taken = (const char * const *) names->pdata;
      g_auto(GStrv) argv = NULL;
      g_autoptr(GError) error = NULL;
      const char *name = kiste_create_options_get_name (entry->options);

      if (entry->error != NULL)
        g_ptr_array_add (problems, g_strdup (entry->error));
      else if (!kiste_create_options_validate (entry->options, taken, &error) ||
               !(argv = kiste_create_options_to_argv (entry->options,
                                                      kiste_manager_get_capabilities (self),
                                                      &error)))
        g_ptr_array_add (problems, g_strdup (error->message));
      else
        g_ptr_array_add (problems, NULL);

      /* the boxes before this one exist by the time it is created */
      if (name != NULL)
        g_ptr_array_insert (names, names->len - 1, g_strdup (name));
    }

  return g_steal_pointer (&problems);
}

typedef struct
{
  GPtrArray *entries;
  guint      next;
  /* the entry before next is being started */
  gboolean   starting;
} CreateAll;

static void
create_all_free (CreateAll *all)
{
  g_clear_pointer (&all->entries, g_ptr_array_unref);
  g_free (all);
}

static void create_all_next (GTask *task);

static void
create_all_step_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CreateAll *all = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(GError) error = NULL;
  KisteAssembleEntry *entry = g_ptr_array_index (all->entries, all->next - 1);

  /* the boxes after a failed one may depend on it (same names, same
   * homes), so stop here; the task list says what failed */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* created, and start_now asks for its first start */
  if (entry->start_now && !all->starting)
    {
      all->starting = TRUE;
      kiste_manager_start_async (KISTE_MANAGER (object),
                                 kiste_create_options_get_name (entry->options),
                                 cancellable, create_all_step_cb, g_steal_pointer (&task));
      return;
    }

  all->starting = FALSE;
  create_all_next (g_steal_pointer (&task));
}

/* One after another, as distrobox assemble does: a pull or a first start
 * at a time. Takes task. */
static void
create_all_next (GTask *task)
{
  CreateAll *all = g_task_get_task_data (task);
  g_autoptr(KisteCreateOptions) options = NULL;
  KisteAssembleEntry *entry;

  if (all->next >= all->entries->len)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  entry = g_ptr_array_index (all->entries, all->next++);
  options = kiste_create_options_copy (entry->options);
  kiste_manager_create_async (g_task_get_source_object (task), options,
                              g_task_get_cancellable (task),
                              create_all_step_cb, task);
}

void
kiste_manager_create_all_async (KisteManager        *self,
                                GPtrArray           *entries,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  CreateAll *all;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (entries != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_create_all_async);
  g_task_set_check_cancellable (task, FALSE);

  /* all of them or none */
  problems = kiste_manager_check_entries (self, entries);
  for (guint i = 0; i < problems->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char *problem = g_ptr_array_index (problems, i);

      if (problem != NULL)
        {
          g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                                   _("“%s” cannot be created: %s"), entry->section, problem);
          return;
        }
    }

  all = g_new0 (CreateAll, 1);
  all->entries = g_ptr_array_ref (entries);
  g_task_set_task_data (task, all, (GDestroyNotify) create_all_free);
  create_all_next (g_steal_pointer (&task));
}
