/* kiste-apps-host-launcher.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Launchers in the host's menu folder, read and moved by host commands:
 * the user's launcher of the same name kept aside while
 * `distrobox-export --delete` runs, and whether the box's own launcher
 * is there. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps.h"
#include "kiste-error.h"
#include "kiste-runner.h"

/* The user's launcher that distrobox-export --delete would remove:
 * distrobox 1.8 removes ~/.local/share/applications/<id> besides the box's
 * own BOX-<id>. It goes aside under a name no menu reads, and back after.
 * Both steps are host commands, so they work from the Flatpak sandbox too;
 * the scripts are constant, the paths their arguments. */
static const char read_launcher_script[] =
  "[ -f \"$1\" ] || exit 0\n"
  "test \"$(wc -c < \"$1\")\" -le 1048576 || { echo BIG; exit 0; }\n"  /* MAX_LAUNCHER_SIZE */
  "echo F\n"
  "base64 < \"$1\" | tr -d '\\n'; echo\n";

/* Never over a file that is there: a kept launcher of an earlier run that
 * was not restored, or a launcher made in the meantime */
static const char move_launcher_script[] =
  "if [ -e \"$2\" ] || [ -L \"$2\" ]; then\n"
  "  echo \"$2 is in the way\" >&2; exit 1\n"
  "fi\n"
  "exec mv -- \"$1\" \"$2\"\n";

#define HOST_FILE_TIMEOUT_MS 15000

char *
kiste_apps_dup_kept_launcher_path (const char *applications_dir,
                                   const char *desktop_id)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (applications_dir != NULL, NULL);
  g_return_val_if_fail (desktop_id != NULL, NULL);

  name = g_strconcat (".", desktop_id, ".kiste-kept", NULL);
  return g_build_filename (applications_dir, name, NULL);
}

static gboolean
check_desktop_id (const char  *desktop_id,
                  GError     **error)
{
  if (desktop_id == NULL || desktop_id[0] == '\0' || desktop_id[0] == '.' ||
      strchr (desktop_id, '/') != NULL || !g_str_has_suffix (desktop_id, ".desktop"))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   _("“%s” is not an application file name."), desktop_id ? desktop_id : "");
      return FALSE;
    }

  return TRUE;
}

typedef struct
{
  KisteRunner *runner;
  char        *path;
  char        *kept;
} KeepLauncher;

static void
keep_launcher_free (KeepLauncher *keep)
{
  g_clear_object (&keep->runner);
  g_free (keep->path);
  g_free (keep->kept);
  g_free (keep);
}

static void
keep_moved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeepLauncher *keep = g_task_get_task_data (task);
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, g_strdup (keep->kept), g_free);
}

static void
keep_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  KeepLauncher *keep = g_task_get_task_data (task);
  g_autofree char *output = NULL;
  g_autofree guchar *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;
  GError *error = NULL;
  const char *argv[] = { "sh", "-c", move_launcher_script, "sh", keep->path, keep->kept, NULL };

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  lines = g_strsplit (output, "\n", 3);
  if (lines[0] == NULL || lines[0][0] == '\0')
    {
      /* No such file: nothing to keep */
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  /* Too big to be read, or unreadable as text: not a launcher of
   * distrobox's, so it is the user's */
  if (g_strcmp0 (lines[0], "F") == 0 && lines[1] != NULL)
    {
      contents = g_base64_decode (lines[1], &length);
      if (memchr (contents, '\0', length) == NULL &&
          g_utf8_validate ((const char *) contents, length, NULL))
        {
          g_autofree char *text = g_strndup ((const char *) contents, length);

          if (kiste_apps_is_distrobox_launcher (text))
            {
              g_task_return_pointer (task, NULL, NULL);
              return;
            }
        }
    }

  kiste_runner_run_async (keep->runner, argv, HOST_FILE_TIMEOUT_MS, g_task_get_cancellable (task),
                          keep_moved_cb, g_object_ref (task));
}

/**
 * kiste_apps_keep_user_launcher_async:
 *
 * Moves applications_dir/desktop_id aside when it is there and no launcher
 * of distrobox's (its Exec enters no box).
 */
void
kiste_apps_keep_user_launcher_async (KisteRunner         *runner,
                                     const char          *applications_dir,
                                     const char          *desktop_id,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  KeepLauncher *keep;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_keep_user_launcher_async);

  if (!check_desktop_id (desktop_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  keep = g_new0 (KeepLauncher, 1);
  keep->runner = g_object_ref (runner);
  keep->path = g_build_filename (applications_dir, desktop_id, NULL);
  keep->kept = kiste_apps_dup_kept_launcher_path (applications_dir, desktop_id);
  g_task_set_task_data (task, keep, (GDestroyNotify) keep_launcher_free);

  {
    const char *argv[] = { "sh", "-c", read_launcher_script, "sh", keep->path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, cancellable,
                            keep_read_cb, g_steal_pointer (&task));
  }
}

char *
kiste_apps_keep_user_launcher_finish (GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
restore_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/* Not cancellable: a kept launcher always goes back */
void
kiste_apps_restore_user_launcher_async (KisteRunner         *runner,
                                        const char          *kept_path,
                                        const char          *applications_dir,
                                        const char          *desktop_id,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (kept_path != NULL && g_path_is_absolute (kept_path));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));

  task = g_task_new (NULL, NULL, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_restore_user_launcher_async);

  if (!check_desktop_id (desktop_id, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  path = g_build_filename (applications_dir, desktop_id, NULL);
  {
    const char *argv[] = { "sh", "-c", move_launcher_script, "sh", kept_path, path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, NULL,
                            restore_cb, g_steal_pointer (&task));
  }
}

gboolean
kiste_apps_restore_user_launcher_finish (GAsyncResult  *result,
                                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The box's own launcher, from `distrobox generate-entry` */

static void
box_entry_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autofree char *output = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree guchar *contents = NULL;
  gsize length = 0;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  lines = g_strsplit (output, "\n", 3);
  if (g_strcmp0 (lines[0], "F") != 0 || lines[1] == NULL)
    {
      g_task_return_int (task, FALSE);
      return;
    }

  contents = g_base64_decode (lines[1], &length);
  if (memchr (contents, '\0', length) == NULL && g_utf8_validate ((const char *) contents, length, NULL))
    {
      g_autofree char *text = g_strndup ((const char *) contents, length);

      g_task_return_int (task, kiste_apps_is_distrobox_launcher (text));
      return;
    }

  g_task_return_int (task, FALSE);
}

void
kiste_apps_has_box_entry_async (KisteRunner         *runner,
                                const char          *applications_dir,
                                const char          *box_name,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));
  g_return_if_fail (box_name != NULL && box_name[0] != '\0' && strchr (box_name, '/') == NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_has_box_entry_async);
  name = g_strconcat (box_name, ".desktop", NULL);
  path = g_build_filename (applications_dir, name, NULL);

  {
    const char *argv[] = { "sh", "-c", read_launcher_script, "sh", path, NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, cancellable,
                            box_entry_read_cb, g_steal_pointer (&task));
  }
}

gboolean
kiste_apps_has_box_entry_finish (GAsyncResult  *result,
                                 gboolean      *present,
                                 GError       **error)
{
  GError *local_error = NULL;
  gssize value;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  value = g_task_propagate_int (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }

  if (present != NULL)
    *present = value != 0;
  return TRUE;
}

/* A launcher Kiste wrote (kiste_apps_build_host_launcher()) put in place:
 * written to a fresh temporary file in the same folder, then moved over
 * the name in one step. Without "replace" nothing that is there is
 * overwritten (a launcher of the user's own of that name stays); with it
 * only a regular file is. The contents are printf's data, never part of
 * the script. */
static const char write_launcher_script[] =
  "set -e\n"
  "d=${1%/*}\n"
  "mkdir -p -- \"$d\"\n"
  "t=$(mktemp -- \"$d/.kiste-XXXXXXXX\")\n"
  "trap 'rm -f -- \"$t\"' EXIT\n"
  "printf '%s' \"$2\" > \"$t\"\n"
  "chmod 644 -- \"$t\"\n"
  "if [ \"$3\" = replace ] && [ -f \"$1\" ] && [ ! -L \"$1\" ]; then\n"
  "  mv -f -T -- \"$t\" \"$1\"\n"
  "else\n"
  "  mv -n -T -- \"$t\" \"$1\"\n"
  "fi\n"
  "if [ -e \"$t\" ]; then echo \"${1##*/} is in the way\" >&2; exit 3; fi\n";

static void
write_launcher_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

void
kiste_apps_write_host_launcher_async (KisteRunner         *runner,
                                      const char          *applications_dir,
                                      const char          *file_name,
                                      const char          *contents,
                                      gboolean             replace,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *path = NULL;
  GError *error = NULL;

  g_return_if_fail (KISTE_IS_RUNNER (runner));
  g_return_if_fail (applications_dir != NULL && g_path_is_absolute (applications_dir));
  g_return_if_fail (contents != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_write_host_launcher_async);

  if (!check_desktop_id (file_name, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  path = g_build_filename (applications_dir, file_name, NULL);
  {
    const char *argv[] = { "sh", "-c", write_launcher_script, "sh", path, contents,
                           replace ? "replace" : "new", NULL };

    kiste_runner_run_async (runner, argv, HOST_FILE_TIMEOUT_MS, cancellable,
                            write_launcher_cb, g_steal_pointer (&task));
  }
}

gboolean
kiste_apps_write_host_launcher_finish (GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
