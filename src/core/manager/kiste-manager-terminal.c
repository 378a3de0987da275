/* kiste-manager-terminal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* KisteManager's terminal operations: which argv opens a shell in a box,
 * starting a stopped box first, and spawning on the tab's terminal. */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-apps.h"
#include "kiste-commands.h"
#include "kiste-enter.h"
#include "kiste-toolbox-enter.h"
#include "kiste-error.h"
#include "kiste-external-terminal.h"
#include "kiste-manager-private.h"
#include "kiste-package-file.h"
#include "kiste-portal.h"
#include "kiste-pty.h"
#include "kiste-validate.h"

/* The engine box lives in */
static const char *
get_engine (KisteManager *self,
            KisteBox     *box)
{
  return kiste_box_source_get_engine (kiste_box_list_get_source_for_box (kiste_manager_get_boxes (self), box));
}

/* distrobox-enter beside the distrobox found in environ's PATH, as
 * distrobox computes it (the folder is not resolved) */
static char *
find_enter_path (const char * const *environ)
{
  const char *path = g_environ_getenv ((char **) environ, "PATH");
  g_auto(GStrv) dirs = NULL;

  if (path == NULL)
    return NULL;

  dirs = g_strsplit (path, ":", -1);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *distrobox = NULL;
      g_autofree char *enter = NULL;

      if (!g_path_is_absolute (dirs[i]))
        continue;
      distrobox = g_build_filename (dirs[i], "distrobox", NULL);
      if (!g_file_test (distrobox, G_FILE_TEST_IS_EXECUTABLE))
        continue;

      enter = g_build_filename (dirs[i], "distrobox-enter", NULL);
      if (g_file_test (enter, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&enter);
      return NULL;
    }

  return NULL;
}

/* distrobox sources its config files as shell: with any of them present,
 * only distrobox itself knows what entering does */
static gboolean
has_config_files (const char *enter_path)
{
  g_autofree char *dir = g_path_get_dirname (enter_path);
  g_autofree char *distrobox = g_build_filename (dir, "distrobox", NULL);
  g_auto(GStrv) files = NULL;

  files = kiste_capabilities_dup_default_config_files (distrobox);
  for (guint i = 0; files != NULL && files[i] != NULL; i++)
    {
      if (g_file_test (files[i], G_FILE_TEST_EXISTS))
        return TRUE;
    }

  return FALSE;
}

/* Why a box cannot be entered with the direct exec (a short reason for
 * logs), or NULL with the distrobox-enter path the exec names */
static const char *
direct_enter_blocker (KisteManager        *self,
                      KisteBox            *box,
                      const char * const  *environ,
                      char               **enter_path)
{
  const char *reason;

  *enter_path = NULL;
  reason = kiste_enter_check_direct (box, get_engine (self, box), _kiste_manager_get_major (self), environ);
  if (reason == NULL && kiste_runner_get_in_flatpak (kiste_manager_get_runner (self)))
    reason = "the host's distrobox configuration cannot be read from the sandbox";
  if (reason == NULL && (*enter_path = find_enter_path (environ)) == NULL)
    reason = "distrobox-enter is not beside distrobox";
  if (reason == NULL && has_config_files (*enter_path))
    reason = "distrobox has configuration files";
  if (reason != NULL)
    g_clear_pointer (enter_path, g_free);

  return reason;
}

/* A toolbox: the exec toolbox would run, when the box is understood, else
 * toolbox enter (or run) */
static char **
dup_toolbox_argv (KisteManager       *self,
                  KisteBox           *box,
                  const char         *cwd,
                  const char * const *environ,
                  const char * const *command,
                  gboolean            tty,
                  gboolean           *direct)
{
  g_auto(GStrv) env = g_strdupv ((char **) environ);
  g_autofree char *toolbox_path = NULL;
  g_autofree char *workdir = NULL;
  const char *reason = NULL;

  /* toolbox tells the box where it is (TOOLBOX_PATH) */
  if (kiste_runner_get_in_flatpak (kiste_manager_get_runner (self)))
    reason = "toolbox's path on the host is not known in the sandbox";
  else if ((toolbox_path = g_find_program_in_path ("toolbox")) == NULL)
    reason = "toolbox is not in PATH";
  else
    {
      env = g_environ_setenv (env, "TOOLBOX_PATH", toolbox_path, TRUE);
      reason = kiste_toolbox_check_direct (box, get_engine (self, box), (const char * const *) env);
    }

  if (reason != NULL)
    {
      g_debug ("Entering “%s” through toolbox: %s", kiste_box_get_name (box), reason);
      return kiste_manager_dup_enter_argv (self, box, cwd, command);
    }

  *direct = TRUE;
  workdir = kiste_toolbox_dup_workdir (box, cwd);
  return kiste_toolbox_direct_argv (box, get_engine (self, box), (const char * const *) env, workdir,
                                    command, tty);
}

/* command in box (NULL: the login shell), the way it is entered: the
 * direct exec when the box is understood, else distrobox enter */
static char **
dup_enter_argv (KisteManager       *self,
                KisteBox           *box,
                const char         *cwd,
                const char * const *environ,
                const char * const *command,
                gboolean            tty,
                gboolean           *direct)
{
  g_autofree char *enter_path = NULL;
  const char *reason;

  *direct = FALSE;
  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    return dup_toolbox_argv (self, box, cwd, environ, command, tty, direct);

  reason = direct_enter_blocker (self, box, environ, &enter_path);
  if (reason != NULL)
    {
      g_debug ("Entering “%s” through distrobox: %s", kiste_box_get_name (box), reason);
      return kiste_manager_dup_enter_argv (self, box, cwd, command);
    }

  *direct = TRUE;
  return kiste_enter_direct_argv (box, get_engine (self, box), enter_path, environ, cwd, command, tty);
}

char **
kiste_manager_dup_shell_argv (KisteManager       *self,
                              KisteBox           *box,
                              const char         *cwd,
                              const char * const *environ,
                              gboolean           *direct)
{
  const char *host_home;
  gboolean keep;
  gboolean is_direct;
  char **argv;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);
  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);
  g_return_val_if_fail (environ != NULL, NULL);

  host_home = kiste_box_list_get_host_home (kiste_manager_get_boxes (self));
  keep = kiste_enter_keeps_workdir (box, cwd, host_home ? host_home : g_get_home_dir ());

  argv = dup_enter_argv (self, box, keep ? cwd : NULL, environ, NULL, TRUE, &is_direct);
  if (direct != NULL)
    *direct = is_direct;
  return argv;
}

/* The argv of the install of the package file host_path in box, run the
 * way a shell would be: direct or through distrobox enter */
static char **
dup_install_argv (KisteManager        *self,
                  KisteBox            *box,
                  const char          *host_path,
                  const char * const  *environ,
                  gboolean            *direct,
                  GError             **error)
{
  const char *host_home = kiste_box_list_get_host_home (kiste_manager_get_boxes (self));
  g_autofree char *box_path = NULL;
  g_auto(GStrv) install = NULL;

  box_path = kiste_package_file_dup_box_path (box, host_path, host_home ? host_home : g_get_home_dir ());
  install = kiste_package_file_dup_install_argv (kiste_box_get_distro_id (box), box_path, error);
  if (install == NULL)
    return NULL;

  return dup_enter_argv (self, box, NULL, environ, (const char * const *) install, TRUE, direct);
}

/* Opening a shell */

typedef struct
{
  char        *box_name;
  char        *cwd;
  char       **extra_env;
  /* a package file to install (as the host sees it) instead of a shell */
  char        *package_path;
  /* the same file as the app sees it, when in the Flatpak sandbox */
  char        *sandbox_path;
  /* an app's command to launch without a terminal (pty_fd is -1) */
  char       **command;
  KisteTask   *waiting_for;
  gulong       finished_handler;
  gulong       cancelled_handler;
  int          pty_fd;
  guint        started : 1;
  guint        details_tried : 1;
} OpenShell;

static void
open_shell_free (OpenShell *op)
{
  if (op->waiting_for != NULL)
    g_clear_signal_handler (&op->finished_handler, op->waiting_for);
  g_warn_if_fail (op->cancelled_handler == 0);
  g_clear_object (&op->waiting_for);
  g_free (op->box_name);
  g_free (op->cwd);
  g_strfreev (op->extra_env);
  g_free (op->package_path);
  g_free (op->sandbox_path);
  g_strfreev (op->command);
  if (op->pty_fd >= 0)
    close (op->pty_fd);
  g_free (op);
}

static void open_shell_step (GTask *task);

static void
open_shell_details_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* Without details distrobox enter itself does the work */
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error))
    g_debug ("Could not read the box details before entering: %s", error->message);

  open_shell_step (user_data);
}

static void
open_shell_reloaded_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* best effort otherwise: a box still listed as stopped goes through
   * distrobox enter, which starts it too */
  if (!kiste_box_list_reload_finish (KISTE_BOX_LIST (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  open_shell_step (g_steal_pointer (&task));
}

static void
open_shell_start_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The start's own event may not have reached the list yet: the direct
   * way in needs the box listed as running, so one listing first (the
   * cancellable is read before the task is handed on: arguments have no
   * order) */
  cancellable = g_task_get_cancellable (task);
  kiste_box_list_reload_async (kiste_manager_get_boxes (KISTE_MANAGER (object)), cancellable,
                               open_shell_reloaded_cb, g_steal_pointer (&task));
}

static void
open_shell_stop_waiting (GTask *task)
{
  OpenShell *op = g_task_get_task_data (task);

  g_clear_signal_handler (&op->finished_handler, op->waiting_for);
  g_clear_object (&op->waiting_for);
  if (op->cancelled_handler != 0)
    {
      /* (not g_cancellable_disconnect: this may run inside the handler) */
      g_signal_handler_disconnect (g_task_get_cancellable (task), op->cancelled_handler);
      op->cancelled_handler = 0;
    }
}

static void
open_shell_other_task_finished_cb (KisteTask *ktask,
                                   GTask     *task)
{
  open_shell_stop_waiting (task);

  /* Whatever ran (a start, a stop), look at the box again */
  open_shell_step (task);
}

static gboolean
open_shell_cancelled_idle (gpointer data)
{
  GTask *task = data;
  OpenShell *op = g_task_get_task_data (task);

  /* Unless the other task finished meanwhile and the step ran */
  if (op->waiting_for != NULL)
    {
      open_shell_stop_waiting (task);
      open_shell_step (task);  /* returns the cancellation */
    }
  return G_SOURCE_REMOVE;
}

static void
open_shell_cancelled_cb (GCancellable *cancellable,
                         GTask        *task)
{
  /* Out of the cancel call: the tab may be in the middle of going. The
   * idle's own reference keeps the task while it waits. */
  g_idle_add_full (G_PRIORITY_DEFAULT, open_shell_cancelled_idle,
                   g_object_ref (task), g_object_unref);
}

static void
open_shell_step (GTask *task)
{
  KisteManager *self = g_task_get_source_object (task);
  OpenShell *op = g_task_get_task_data (task);
  KisteBox *box;
  KisteTask *running;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_auto(GStrv) env = NULL;
  g_auto(GStrv) argv = NULL;
  gboolean direct = FALSE;
  gboolean toolbox;
  const char *cwd;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  box = kiste_box_list_find (kiste_manager_get_boxes (self), op->box_name);
  if (box == NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                               _("There is no box named “%s”."), op->box_name);
      g_object_unref (task);
      return;
    }

  /* Another operation on the box (a start from elsewhere) ends first */
  running = kiste_manager_get_task_for_box (self, kiste_box_get_ref (box));
  if (running != NULL && kiste_task_get_running (running))
    {
      op->waiting_for = g_object_ref (running);
      op->finished_handler = g_signal_connect (running, "finished",
                                               G_CALLBACK (open_shell_other_task_finished_cb),
                                               task);
      if (g_task_get_cancellable (task) != NULL)
        op->cancelled_handler = g_signal_connect (g_task_get_cancellable (task), "cancelled",
                                                  G_CALLBACK (open_shell_cancelled_cb), task);
      return;
    }

  if (kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING && !op->started)
    {
      /* Once: distrobox enter starts it too when it stopped again */
      op->started = TRUE;
      /* When it cannot start (busy after all), the callback has the error */
      kiste_manager_start_async (self, kiste_box_get_ref (box), g_task_get_cancellable (task),
                                 open_shell_start_cb, task);
      return;
    }

  /* The direct exec needs the box's own HOME and PATH: one inspect */
  if (!kiste_box_get_has_details (box) && !op->details_tried &&
      kiste_box_get_state (box) == KISTE_BOX_STATE_RUNNING)
    {
      op->details_tried = TRUE;
      kiste_box_list_load_details_async (kiste_manager_get_boxes (self), &box, 1,
                                         g_task_get_cancellable (task),
                                         open_shell_details_cb, task);
      return;
    }

  if (op->command != NULL)
    {
      /* what distrobox enter would forward from a launcher's environment */
      env = kiste_runner_dup_environ (kiste_manager_get_runner (self));
      argv = dup_enter_argv (self, box, NULL, (const char * const *) env,
                             (const char * const *) op->command, FALSE, &direct);
    }
  else
    {
      env = kiste_pty_dup_environ (kiste_manager_get_runner (self),
                                   (const char * const *) op->extra_env);
      if (op->package_path != NULL)
        argv = dup_install_argv (self, box, op->package_path, (const char * const *) env, &direct, &error);
      else
        argv = kiste_manager_dup_shell_argv (self, box, op->cwd, (const char * const *) env, &direct);
    }
  if (argv == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  /* the direct exec passes the box's PATH as data; distrobox enter would
   * eval it on this computer, so it needs the details, read and harmless.
   * Toolbx evaluates nothing of the box here. */
  toolbox = kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX;
  if (!direct && !toolbox && !kiste_box_get_has_details (box) && !op->details_tried)
    {
      op->details_tried = TRUE;
      kiste_box_list_load_details_async (kiste_manager_get_boxes (self), &box, 1,
                                         g_task_get_cancellable (task),
                                         open_shell_details_cb, task);
      return;
    }
  if (!direct && !toolbox && !kiste_box_check_enter_safe (box, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  /* distrobox enter keeps the folder it starts in; a direct exec names
   * it, and --no-workdir goes to the box home from anywhere (NULL: the
   * runner's folder) */
  cwd = op->cwd != NULL && !direct &&
        !g_strv_contains ((const char * const *) argv, "--no-workdir") ? op->cwd : NULL;

  if (op->command != NULL)
    subprocess = kiste_runner_spawn (kiste_manager_get_runner (self), (const char * const *) argv,
                                     G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                     &error);
  else
    subprocess = kiste_pty_spawn (kiste_manager_get_runner (self), (const char * const *) argv,
                                  cwd, op->pty_fd, (const char * const *) op->extra_env, &error);
  if (subprocess == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  /* Cancelled while it spawned: nobody will follow this shell */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    g_subprocess_force_exit (subprocess);

  g_object_set_data_full (G_OBJECT (subprocess), "kiste-display",
                          kiste_argv_to_display_string ((const char * const *) argv), g_free);
  g_object_set_data (G_OBJECT (subprocess), "kiste-direct", GINT_TO_POINTER (direct));
  g_task_return_pointer (task, g_steal_pointer (&subprocess), g_object_unref);
  g_object_unref (task);
}

/* The task of a shell on pty_fd (a copy of it is kept), or NULL when it
 * already returned that the terminal cannot be used */
static GTask *
open_shell_task_new (KisteManager        *self,
                     const char          *box_name,
                     const char          *cwd,
                     int                  pty_fd,
                     const char * const  *extra_env,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data,
                     gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  OpenShell *op = g_new0 (OpenShell, 1);

  g_task_set_source_tag (task, source_tag);
  op->box_name = g_strdup (box_name);
  op->cwd = g_strdup (cwd);
  op->extra_env = g_strdupv ((char **) extra_env);
  op->pty_fd = pty_fd >= 0 ? dup (pty_fd) : -1;
  g_task_set_task_data (task, op, (GDestroyNotify) open_shell_free);

  if (pty_fd >= 0 && op->pty_fd < 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                               _("Could not use the terminal: %s"), g_strerror (errno));
      g_object_unref (task);
      return NULL;
    }

  return task;
}

void
kiste_manager_open_shell_async (KisteManager        *self,
                                const char          *box_name,
                                const char          *cwd,
                                int                  pty_fd,
                                const char * const  *extra_env,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);
  g_return_if_fail (pty_fd >= 0);

  task = open_shell_task_new (self, box_name, cwd, pty_fd, extra_env, cancellable,
                              callback, user_data, kiste_manager_open_shell_async);
  if (task != NULL)
    open_shell_step (task);
}

#define HOST_STAT_TIMEOUT_MS 15000

static void
install_host_stat_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  GTask *task = user_data;
  OpenShell *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  GStatBuf buf;
  gint64 size = -1;
  gint64 mtime = -1;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
      g_debug ("The host has no %s: %s", op->package_path, error->message);
      g_clear_error (&error);
      g_clear_pointer (&out, g_free);
    }

  /* what the app sees, to tell a file of the sandbox's own from the host's */
  if (g_stat (op->sandbox_path, &buf) == 0)
    {
      size = buf.st_size;
      mtime = buf.st_mtime;
    }

  if (!kiste_package_file_check_host_copy (op->package_path, size, mtime, out, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  open_shell_step (task);
}

static void
install_resolved_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GTask *task = user_data;
  KisteManager *self = g_task_get_source_object (task);
  KisteRunner *runner = kiste_manager_get_runner (self);
  OpenShell *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *host_path = kiste_portal_resolve_host_path_finish (result, &error);

  if (host_path == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  g_free (op->package_path);
  op->package_path = g_steal_pointer (&host_path);

  /* From the sandbox, the path the app has may not be the host's file: a
   * host path hidden from the sandbox is fine, a file only the sandbox
   * has is not, and the box reads the host's */
  if (kiste_runner_get_in_flatpak (runner))
    {
      g_auto(GStrv) argv = kiste_commands_host_stat_argv (op->package_path);

      kiste_runner_run_async (runner, (const char * const *) argv, HOST_STAT_TIMEOUT_MS,
                              g_task_get_cancellable (task),
                              install_host_stat_cb, task);
      return;
    }

  open_shell_step (task);
}

void
kiste_manager_install_package_async (KisteManager        *self,
                                     const char          *box_name,
                                     const char          *path,
                                     int                  pty_fd,
                                     const char * const  *extra_env,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  GTask *task;
  OpenShell *op;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);
  g_return_if_fail (path != NULL);
  g_return_if_fail (pty_fd >= 0);

  task = open_shell_task_new (self, box_name, NULL, pty_fd, extra_env, cancellable,
                              callback, user_data, kiste_manager_install_package_async);
  if (task == NULL)
    return;
  op = g_task_get_task_data (task);

  /* checked before anything runs: a package file, a path a box can take */
  if (kiste_package_file_kind_for_path (path) == KISTE_PACKAGE_NONE ||
      !kiste_validate_absolute_path (_("The package file"), path, &error))
    {
      if (error == NULL)
        g_set_error (&error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                     _("“%s” is not a package file Kiste can install."), path);
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  /* a file handed through the Documents portal: its path on the host */
  op->sandbox_path = g_strdup (path);
  kiste_portal_resolve_host_path_async (path, cancellable, install_resolved_cb, task);
}

GSubprocess *
kiste_manager_open_shell_finish (KisteManager  *self,
                                 GAsyncResult  *result,
                                 char         **display,
                                 GError       **error)
{
  GSubprocess *subprocess;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  subprocess = g_task_propagate_pointer (G_TASK (result), error);
  if (display != NULL)
    *display = subprocess ? g_strdup (g_object_get_data (G_OBJECT (subprocess), "kiste-display"))
                          : NULL;

  return subprocess;
}

/* Launching an app from the Apps view: as its launcher would, but never
 * through distrobox enter for a box whose configuration it would eval on
 * this computer (the direct exec takes that as data) */

static void
launch_wait_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (object), result, &error))
    g_debug ("A launched app ended: %s", error->message);
}

static void
launch_started_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GSubprocess) subprocess = NULL;
  GError *error = NULL;

  if (!(subprocess = g_task_propagate_pointer (G_TASK (result), &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_subprocess_wait_check_async (subprocess, NULL, launch_wait_cb, NULL);
  g_task_return_boolean (task, TRUE);
}

void
kiste_manager_launch_app_async (KisteManager        *self,
                                const char          *box_name,
                                KisteDesktopApp     *app,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_auto(GStrv) app_argv = NULL;
  GTask *open;
  GError *error = NULL;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (KISTE_IS_DESKTOP_APP (app));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_launch_app_async);

  if (!kiste_validate_existing_name (_kiste_manager_resolve_box (self, box_name, NULL), NULL, &error) ||
      !(app_argv = kiste_apps_dup_exec_argv (kiste_desktop_app_get_exec (app), &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  open = open_shell_task_new (self, box_name, NULL, -1, NULL, cancellable,
                              launch_started_cb, g_steal_pointer (&task),
                              kiste_manager_launch_app_async);
  ((OpenShell *) g_task_get_task_data (open))->command = g_steal_pointer (&app_argv);
  open_shell_step (open);
}


/* Ending a closed terminal's shell in the box */

#define END_SHELL_TIMEOUT_MS 15000

static void
end_shell_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  _kiste_manager_cleanup_end (g_task_get_source_object (task));
  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_manager_end_shell_async (KisteManager        *self,
                               const char          *box_name,
                               const char          *terminal_id,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_auto(GStrv) argv = NULL;
  KisteBox *box;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_end_shell_async);

  if (!kiste_enter_is_terminal_id (terminal_id))
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("“%s” is not a terminal of Kiste."), terminal_id ? terminal_id : "");
      return;
    }

  /* Nothing runs in a box that does not */
  box = kiste_box_list_find (kiste_manager_get_boxes (self), box_name);
  if (box == NULL || kiste_box_get_state (box) != KISTE_BOX_STATE_RUNNING)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  /* The app stays until the shell is gone */
  _kiste_manager_cleanup_begin (self);
  argv = kiste_enter_end_shell_argv (get_engine (self, box), kiste_box_get_name (box), terminal_id);
  kiste_runner_run_async (kiste_manager_get_runner (self), (const char * const *) argv,
                          END_SHELL_TIMEOUT_MS, cancellable, end_shell_cb, g_steal_pointer (&task));
}
