/* kiste-bundled-distrobox.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Fedora Silverblue and its kin ship podman but not distrobox. The Flatpak
 * carries distrobox's scripts; when the host has none, Kiste copies them,
 * after asking, into its own data folder (~/.var/app/ID/data/distrobox,
 * the same path inside the sandbox and on the host) and puts that folder
 * last on the PATH of host commands. Nothing outside that folder changes. */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kiste-bundled-distrobox.h"
#include "kiste-error.h"

/* distrobox's own script, which holds version="…" */
#define MAIN_SCRIPT "distrobox"
#define MAX_SCRIPT_SIZE (1024 * 1024)

/**
 * kiste_bundled_distrobox_dup_version:
 * @dir: a folder with distrobox's scripts
 *
 * Returns: (transfer full) (nullable): the version its `distrobox` script
 *   declares, or NULL when there is none
 */
char *
kiste_bundled_distrobox_dup_version (const char *dir)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;

  g_return_val_if_fail (dir != NULL, NULL);

  path = g_build_filename (dir, MAIN_SCRIPT, NULL);
  if (!g_file_get_contents (path, &contents, &length, NULL) || length > MAX_SCRIPT_SIZE)
    return NULL;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *value;
      gsize len;

      if (!g_str_has_prefix (lines[i], "version=\""))
        continue;
      value = lines[i] + strlen ("version=\"");
      len = strcspn (value, "\"");
      if (value[len] != '"' || len == 0 || len > 32)
        return NULL;
      for (gsize j = 0; j < len; j++)
        if (!g_ascii_isalnum (value[j]) && value[j] != '.' && value[j] != '-')
          return NULL;
      return g_strndup (value, len);
    }

  return NULL;
}

/**
 * kiste_bundled_distrobox_dup_install_dir:
 *
 * Returns: (transfer full): where Kiste puts its copy of distrobox
 */
char *
kiste_bundled_distrobox_dup_install_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "distrobox", NULL);
}

typedef struct
{
  char *source_dir;
  char *install_dir;
} Install;

static void
install_free (Install *install)
{
  g_free (install->source_dir);
  g_free (install->install_dir);
  g_free (install);
}

static gboolean
remove_dir (const char  *dir,
            GError     **error)
{
  g_autoptr(GDir) listing = NULL;
  const char *name;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return TRUE;
  if (!(listing = g_dir_open (dir, 0, error)))
    return FALSE;
  while ((name = g_dir_read_name (listing)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_unlink (path) != 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not remove “%s”: %s"), path, g_strerror (errsv));
          return FALSE;
        }
    }
  if (g_rmdir (dir) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not remove “%s”: %s"), dir, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/* Copies every distrobox* script into a new folder next to the target,
 * then swaps it in, so a failure leaves the old copy (or none) whole */
static gboolean
install_scripts (Install       *install,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autofree char *staging = g_strconcat (install->install_dir, ".new", NULL);
  g_autofree char *old = g_strconcat (install->install_dir, ".old", NULL);
  g_autofree char *parent = g_path_get_dirname (install->install_dir);
  g_autoptr(GDir) listing = NULL;
  g_autofree char *version = NULL;
  const char *name;
  guint copied = 0;

  if (!remove_dir (staging, error) || !remove_dir (old, error))
    return FALSE;
  if (g_mkdir_with_parents (parent, 0700) != 0 || g_mkdir (staging, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not make the folder “%s”: %s"), staging, g_strerror (errsv));
      return FALSE;
    }

  if (!(listing = g_dir_open (install->source_dir, 0, error)))
    return FALSE;
  while ((name = g_dir_read_name (listing)))
    {
      g_autofree char *from = g_build_filename (install->source_dir, name, NULL);
      g_autofree char *to = g_build_filename (staging, name, NULL);
      g_autoptr(GFile) source = g_file_new_for_path (from);
      g_autoptr(GFile) target = g_file_new_for_path (to);

      if (!g_str_has_prefix (name, "distrobox") || !g_file_test (from, G_FILE_TEST_IS_REGULAR))
        continue;
      if (!g_file_copy (source, target, G_FILE_COPY_NOFOLLOW_SYMLINKS, cancellable, NULL, NULL, error))
        return FALSE;
      if (g_chmod (to, 0755) != 0)
        {
          int errsv = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Could not make “%s” runnable: %s"), to, g_strerror (errsv));
          return FALSE;
        }
      copied++;
    }

  if (copied == 0 || !(version = kiste_bundled_distrobox_dup_version (staging)))
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING,
                   _("This copy of Kiste carries no distrobox to install."));
      return FALSE;
    }

  if (g_file_test (install->install_dir, G_FILE_TEST_IS_DIR) &&
      g_rename (install->install_dir, old) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not replace “%s”: %s"), install->install_dir, g_strerror (errsv));
      return FALSE;
    }
  if (g_rename (staging, install->install_dir) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Could not put distrobox into “%s”: %s"), install->install_dir, g_strerror (errsv));
      return FALSE;
    }
  return remove_dir (old, error);
}

static void
install_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;

  if (install_scripts (task_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * kiste_bundled_distrobox_install_async:
 * @source_dir: the folder with the scripts (KISTE_BUNDLED_DISTROBOX_DIR)
 * @install_dir: where they go (kiste_bundled_distrobox_dup_install_dir())
 *
 * Copies the distrobox scripts, made runnable, replacing an earlier copy
 * only once the new one is complete. Runs in a thread.
 */
void
kiste_bundled_distrobox_install_async (const char          *source_dir,
                                       const char          *install_dir,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Install *install;

  g_return_if_fail (source_dir != NULL);
  g_return_if_fail (install_dir != NULL && g_path_is_absolute (install_dir));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_bundled_distrobox_install_async);
  install = g_new0 (Install, 1);
  install->source_dir = g_strdup (source_dir);
  install->install_dir = g_strdup (install_dir);
  g_task_set_task_data (task, install, (GDestroyNotify) install_free);
  g_task_run_in_thread (task, install_thread);
}

gboolean
kiste_bundled_distrobox_install_finish (GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * kiste_bundled_distrobox_remove:
 * @install_dir: the folder kiste_bundled_distrobox_install_async() filled
 *
 * Removes Kiste's copy. Boxes made with it keep working with another
 * distrobox; with none, Kiste says distrobox is missing again.
 */
gboolean
kiste_bundled_distrobox_remove (const char  *install_dir,
                                GError     **error)
{
  g_return_val_if_fail (install_dir != NULL, FALSE);

  return remove_dir (install_dir, error);
}
