/* kiste-manager-host.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The manager's terminals on the host's side: the host's own terminal apps
 * (which there are, and a box opened in one) and shells on the host. */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-apps.h"
#include "kiste-commands.h"
#include "kiste-enter.h"
#include "kiste-error.h"
#include "kiste-external-terminal.h"
#include "kiste-manager-private.h"
#include "kiste-package-file.h"
#include "kiste-portal.h"
#include "kiste-pty.h"
#include "kiste-validate.h"

/* External terminals */

#define DETECT_TIMEOUT_MS 10000

static void
detect_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &out, NULL, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, g_steal_pointer (&out), g_free);
}

void
kiste_manager_detect_terminals_async (KisteManager        *self,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) args = kiste_external_terminal_detect_args ();
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_detect_terminals_async);

  /* One process on the host for all of them, programs and Flatpaks
   * (through flatpak-spawn in the sandbox, where the host's programs and
   * its flatpak are not visible) */
  g_strv_builder_add_many (builder, "sh", "-c", kiste_external_terminal_get_detect_script (), "sh", NULL);
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  kiste_runner_run_async (kiste_manager_get_runner (self), (const char * const *) argv,
                          DETECT_TIMEOUT_MS, cancellable, detect_cb, task);
}

char **
kiste_manager_detect_terminals_finish (KisteManager   *self,
                                       GAsyncResult   *result,
                                       char         ***unusable,
                                       GError        **error)
{
  g_autofree char *out = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  if (unusable != NULL)
    *unusable = NULL;
  out = g_task_propagate_pointer (G_TASK (result), error);
  if (out == NULL)
    return NULL;

  return kiste_external_terminal_parse_detected (out, unusable);
}

typedef struct
{
  char *terminal_id;
  char *box_name;
  char *cwd;
} ExternalTerminal;

static void
external_terminal_free (ExternalTerminal *data)
{
  g_free (data->terminal_id);
  g_free (data->box_name);
  g_free (data->cwd);
  g_free (data);
}

/* The terminal runs distrobox enter: only for a box known to be safe.
 * toolbox enter evaluates nothing of the box on this computer. */
static void
external_terminal_spawn (GTask *task)
{
  KisteManager *self = g_task_get_source_object (task);
  ExternalTerminal *data = g_task_get_task_data (task);
  g_autoptr(GSubprocess) subprocess = NULL;
  g_auto(GStrv) enter = NULL;
  g_auto(GStrv) argv = NULL;
  const char *host_home;
  const char *cwd = data->cwd;
  GError *error = NULL;
  KisteBox *box;

  box = kiste_box_list_find (kiste_manager_get_boxes (self), data->box_name);
  if (box == NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                               _("There is no box named “%s”."), data->box_name);
      return;
    }
  if (kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX && !kiste_box_check_enter_safe (box, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  host_home = kiste_box_list_get_host_home (kiste_manager_get_boxes (self));
  if (!kiste_enter_keeps_workdir (box, cwd, host_home ? host_home : g_get_home_dir ()))
    cwd = NULL;
  enter = kiste_manager_dup_enter_argv (self, box, cwd, NULL);
  argv = kiste_external_terminal_argv (data->terminal_id, (const char * const *) enter);
  if (argv == NULL)
    {
      g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("“%s” is not a terminal Kiste knows."),
                               data->terminal_id ? data->terminal_id : "");
      return;
    }

  subprocess = kiste_runner_spawn (kiste_manager_get_runner (self), (const char * const *) argv,
                                   G_SUBPROCESS_FLAGS_NONE, &error);
  if (subprocess == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The terminal lives on its own; reap it when it ends */
  g_subprocess_wait_async (subprocess, NULL, NULL, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
external_terminal_details_cb (GObject      *object,
                              GAsyncResult *result,
                              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  /* without them the box is refused below */
  if (!kiste_box_list_load_details_finish (KISTE_BOX_LIST (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      g_debug ("Could not read the box details before entering: %s", error->message);
    }

  external_terminal_spawn (task);
}

void
kiste_manager_open_external_terminal_async (KisteManager        *self,
                                            const char          *terminal_id,
                                            const char          *box_name,
                                            const char          *cwd,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ExternalTerminal *data;
  KisteBox *box;

  g_return_if_fail (KISTE_IS_MANAGER (self));
  g_return_if_fail (box_name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_open_external_terminal_async);
  data = g_new0 (ExternalTerminal, 1);
  data->terminal_id = g_strdup (terminal_id);
  data->box_name = g_strdup (box_name);
  data->cwd = g_strdup (cwd);
  g_task_set_task_data (task, data, (GDestroyNotify) external_terminal_free);

  box = kiste_box_list_find (kiste_manager_get_boxes (self), box_name);
  if (box != NULL && !kiste_box_get_has_details (box))
    {
      kiste_box_list_load_details_async (kiste_manager_get_boxes (self), &box, 1, cancellable,
                                         external_terminal_details_cb, g_steal_pointer (&task));
      return;
    }

  external_terminal_spawn (task);
}


/* The host folder behind a folder seen in a box: /run/host/X is X */
static char *
dup_host_folder (const char *cwd)
{
  if (cwd == NULL || !g_path_is_absolute (cwd))
    return NULL;
  if (g_str_equal (cwd, "/run/host"))
    return g_strdup ("/");
  if (g_str_has_prefix (cwd, "/run/host/"))
    return g_strdup (cwd + strlen ("/run/host"));

  return g_strdup (cwd);
}

GSubprocess *
kiste_manager_spawn_host_shell (KisteManager        *self,
                                const char          *cwd,
                                int                  pty_fd,
                                const char * const  *extra_env,
                                char               **used_cwd,
                                GError             **error)
{
  /* The user's own shell; $SHELL is read by the host's sh, so in the
   * sandbox it is the host's. No data goes into this script. */
  static const char * const argv[] = { "/bin/sh", "-c", "exec \"${SHELL:-/bin/sh}\"", NULL };
  KisteRunner *runner;
  g_autofree char *folder = NULL;
  GSubprocess *subprocess;

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  runner = kiste_manager_get_runner (self);
  folder = dup_host_folder (cwd);
  /* In the sandbox the host's folders are not visible: flatpak-spawn
   * reports a missing one itself */
  if (folder == NULL ||
      (!kiste_runner_get_in_flatpak (runner) && !g_file_test (folder, G_FILE_TEST_IS_DIR)))
    {
      g_free (folder);
      /* Natively our own home is the host's */
      folder = g_strdup (kiste_runner_get_in_flatpak (runner)
                         ? kiste_box_list_get_host_home (kiste_manager_get_boxes (self))
                         : g_get_home_dir ());
    }

  subprocess = kiste_pty_spawn (runner, argv, folder, pty_fd, extra_env, error);
  if (subprocess != NULL && used_cwd != NULL)
    *used_cwd = g_steal_pointer (&folder);

  return subprocess;
}
