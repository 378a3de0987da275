/* kiste-apps-exported-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Listing what is exported: the host's launcher and wrapper folders
 * read in a worker thread, or by one host command from the Flatpak
 * sandbox, and matched to one box or to all of them. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-apps-private.h"
#include "kiste-error.h"
#include "kiste-runner.h"

/* Wrappers are small shell scripts; anything bigger in ~/.local/bin is a
 * real program and not worth reading. */
#define MAX_WRAPPER_SIZE (64 * 1024)
#define MAX_LAUNCHER_SIZE (1024 * 1024)
#define HOST_READ_TIMEOUT_MS 15000

typedef struct
{
  /* NULL: every box's */
  char  *box_name;
  char  *applications_dir;
  char  *bin_dir;
  char **box_names;
} ListExported;

static void
list_exported_free (ListExported *state)
{
  g_strfreev (state->box_names);
  g_free (state->box_name);
  g_free (state->applications_dir);
  g_free (state->bin_dir);
  g_free (state);
}

/* box_name NULL: any launcher may be some box's */
static gboolean
is_launcher_candidate_of (const char *basename,
                          const char *box_name)
{
  if (box_name == NULL)
    return g_str_has_suffix (basename, ".desktop");

  return kiste_apps_is_launcher_candidate (basename, box_name);
}

static GPtrArray *
list_exported_match (ListExported *state,
                     GHashTable   *applications,
                     GHashTable   *binaries)
{
  if (state->box_name == NULL)
    return kiste_apps_match_all_exported (state->applications_dir, applications,
                                          state->bin_dir, binaries,
                                          (const char * const *) state->box_names);

  return kiste_apps_match_exported (state->box_name,
                                    state->applications_dir, applications,
                                    state->bin_dir, binaries);
}

/* basename → contents of the files in dir that may matter; NULL with no
 * error when dir does not exist. */
static GHashTable *
read_candidates (const char    *dir,
                 const char    *box_name,
                 gboolean       binaries,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (dir);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GHashTable) files = NULL;
  g_autoptr(GError) local_error = NULL;

  enumerator = g_file_enumerate_children (file,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE,
                                          G_FILE_QUERY_INFO_NONE,
                                          cancellable, &local_error);
  if (enumerator == NULL)
    {
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
          g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
        return NULL;

      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (;;)
    {
      GFileInfo *info = NULL;
      const char *name;
      g_autoptr(GFile) child = NULL;
      g_autofree char *contents = NULL;
      gsize length = 0;

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, cancellable, error))
        return NULL;
      if (info == NULL)
        break;

      /* Symbolic links are followed: both distrobox and menus do. */
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR &&
          g_file_info_get_file_type (info) != G_FILE_TYPE_SYMBOLIC_LINK)
        continue;

      name = g_file_info_get_name (info);
      if (binaries ? g_file_info_get_size (info) > MAX_WRAPPER_SIZE
                   : (!is_launcher_candidate_of (name, box_name) ||
                      g_file_info_get_size (info) > MAX_LAUNCHER_SIZE))
        continue;

      child = g_file_enumerator_get_child (enumerator, info);
      if (!g_file_load_contents (child, cancellable, &contents, &length, NULL, &local_error))
        {
          if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return NULL;
            }

          /* Vanished or unreadable files are not the box's. */
          g_clear_error (&local_error);
          continue;
        }

      if (memchr (contents, '\0', length) != NULL || !g_utf8_validate (contents, length, NULL))
        continue;

      g_hash_table_insert (files, g_strdup (name), g_steal_pointer (&contents));
    }

  return g_steal_pointer (&files);
}

static void
list_exported_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  ListExported *state = task_data;
  g_autoptr(GHashTable) applications = NULL;
  g_autoptr(GHashTable) binaries = NULL;
  GError *error = NULL;

  if (state->applications_dir != NULL)
    {
      applications = read_candidates (state->applications_dir, state->box_name, FALSE,
                                      cancellable, &error);
      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  if (state->bin_dir != NULL)
    {
      binaries = read_candidates (state->bin_dir, state->box_name, TRUE, cancellable, &error);
      if (error != NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_task_return_pointer (task, list_exported_match (state, applications, binaries),
                         (GDestroyNotify) g_ptr_array_unref);
}

/* In the Flatpak sandbox the host's launchers and wrappers are out of
 * sight: one host process reads them. Its arguments are pairs of the
 * largest file to keep and a folder; for each folder it prints "dir PATH",
 * and when the folder has regular files: "names" and their NUL-terminated
 * names in base64 on one line, "sizes" and one size a line, "data" and the
 * files' bytes one after the other in base64 on one line, each file cut
 * one byte after the largest kept. The processes do not grow with the
 * files (a folder of hundreds of launchers took three each). The script is
 * constant. */
static const char host_read_script[] =
  "max=0\n"
  "for a in \"$@\"; do\n"
  "  case $a in\n"
  "    /*) ;;\n"
  "    *) max=$a; continue;;\n"
  "  esac\n"
  "  printf 'dir %s\\n' \"$a\"\n"
  "  set --\n"
  "  for f in \"$a\"/*; do\n"
  "    [ -f \"$f\" ] && [ -r \"$f\" ] && set -- \"$@\" \"$f\"\n"
  "  done\n"
  "  [ $# -gt 0 ] || continue\n"
  "  echo names\n"
  "  for f in \"$@\"; do printf '%s\\000' \"${f##*/}\"; done | base64 | tr -d '\\n'; echo\n"
  "  echo sizes\n"
  "  stat -L -c %s -- \"$@\"\n"
  "  echo data\n"
  "  head -q -c $((max + 1)) -- \"$@\" | base64 | tr -d '\\n'; echo\n"
  "done\n";

static gboolean
set_bad_host_listing (GError     **error,
                      const char  *detail)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               /* Translators: %s says what was wrong with the list a script
                * on this computer printed: "cut short", "no sizes" */
               _("The launcher folders of this computer could not be read (%s)."), detail);
  return FALSE;
}

/* One folder's part of the host script's output, from its "names" line:
 * the files as read_candidates() keeps them. *i ends on its last line. */
static gboolean
parse_host_folder (char         **lines,
                   guint         *i,
                   ListExported  *state,
                   gboolean       is_bin,
                   GHashTable    *files,
                   GError       **error)
{
  gsize max = is_bin ? MAX_WRAPPER_SIZE : MAX_LAUNCHER_SIZE;
  g_autofree guchar *names = NULL;
  g_autofree guchar *data = NULL;
  g_autoptr(GArray) sizes = g_array_new (FALSE, FALSE, sizeof (guint64));
  gsize names_len = 0;
  gsize data_len = 0;
  gsize start = 0;
  gsize offset = 0;
  guint n = 0;

  if (lines[*i + 1] == NULL || !g_str_equal (lines[*i + 2] ? lines[*i + 2] : "", "sizes"))
    return set_bad_host_listing (error, _("no sizes"));
  names = g_base64_decode (lines[*i + 1], &names_len);
  *i += 3;

  for (; lines[*i] != NULL && !g_str_equal (lines[*i], "data"); (*i)++)
    {
      guint64 size;

      if (!g_ascii_string_to_unsigned (lines[*i], 10, 0, G_MAXUINT32, &size, NULL))
        return set_bad_host_listing (error, _("not a size"));
      g_array_append_val (sizes, size);
    }
  if (lines[*i] == NULL || lines[*i + 1] == NULL)
    return set_bad_host_listing (error, _("cut short"));
  data = g_base64_decode (lines[++(*i)], &data_len);

  if (names_len > 0 && names[names_len - 1] != '\0')
    return set_bad_host_listing (error, _("an unterminated name"));

  for (gsize k = 0; k < names_len; k++)
    {
      const char *name = (const char *) names + start;
      guint64 size;
      gsize read;

      if (names[k] != '\0')
        continue;
      start = k + 1;

      if (n >= sizes->len)
        return set_bad_host_listing (error, _("a file without a size"));
      size = g_array_index (sizes, guint64, n++);
      read = MIN (size, max + 1);
      if (read > data_len - offset)
        return set_bad_host_listing (error, _("a file shorter than its size"));

      /* the name of a file in the folder: not a path, nor the folder
       * itself or its parent */
      if (size <= max && strchr (name, '/') == NULL && name[0] != '\0' &&
          !g_str_equal (name, ".") && !g_str_equal (name, "..") &&
          (is_bin || is_launcher_candidate_of (name, state->box_name)) &&
          memchr (data + offset, '\0', read) == NULL &&
          g_utf8_validate ((const char *) data + offset, read, NULL))
        g_hash_table_insert (files, g_strdup (name), g_strndup ((const char *) data + offset, read));
      offset += read;
    }

  if (n != sizes->len)
    return set_bad_host_listing (error, _("a size without a file"));
  /* A file that changed while it was read */
  if (offset != data_len)
    return set_bad_host_listing (error, _("a file longer than its size"));

  return TRUE;
}

/* Turns the host script's output into what read_candidates() gives */
static gboolean
parse_host_listing (const char    *output,
                    ListExported  *state,
                    GHashTable   **applications,
                    GHashTable   **binaries,
                    GError       **error)
{
  g_auto(GStrv) lines = g_strsplit (output, "\n", -1);
  GHashTable *current = NULL;
  gboolean is_bin = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "dir "))
        {
          const char *dir = line + strlen ("dir ");

          current = NULL;
          /* a folder listed again replaces what it listed before */
          if (g_strcmp0 (dir, state->applications_dir) == 0)
            {
              g_clear_pointer (applications, g_hash_table_unref);
              *applications = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              current = *applications;
              is_bin = FALSE;
            }
          else if (g_strcmp0 (dir, state->bin_dir) == 0)
            {
              g_clear_pointer (binaries, g_hash_table_unref);
              *binaries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              current = *binaries;
              is_bin = TRUE;
            }
        }
      else if (g_str_equal (line, "names"))
        {
          if (current == NULL)
            return set_bad_host_listing (error, _("files outside a folder"));
          if (!parse_host_folder (lines, &i, state, is_bin, current, error))
            return FALSE;
        }
      else if (line[0] != '\0')
        {
          return set_bad_host_listing (error, _("unknown text"));
        }
    }

  return TRUE;
}

GPtrArray *
_kiste_apps_parse_host_listing (const char          *output,
                                const char          *box_name,
                                const char          *applications_dir,
                                const char          *bin_dir,
                                const char * const  *box_names,
                                GError             **error)
{
  ListExported state;
  g_autoptr(GHashTable) applications = NULL;
  g_autoptr(GHashTable) binaries = NULL;

  g_return_val_if_fail (output != NULL, NULL);

  state.box_name = (char *) box_name;
  state.applications_dir = (char *) applications_dir;
  state.bin_dir = (char *) bin_dir;
  state.box_names = (char **) box_names;

  /* a folder that does not exist lists as empty, as it does here */
  if (!parse_host_listing (output, &state, &applications, &binaries, error))
    return NULL;

  return list_exported_match (&state, applications, binaries);
}

static void
list_exported_host_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListExported *state = g_task_get_task_data (task);
  g_autofree char *output = NULL;
  GPtrArray *files;
  GError *error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, &output, NULL, &error) ||
      !(files = _kiste_apps_parse_host_listing (output, state->box_name, state->applications_dir,
                                                state->bin_dir, (const char * const *) state->box_names,
                                                &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, files, (GDestroyNotify) g_ptr_array_unref);
}

static void list_exported_start (KisteRunner *runner,
                                 GTask       *task_in);

/**
 * kiste_apps_list_exported_async:
 * @runner: (nullable): runs commands on the host; when it runs them from the
 *   Flatpak sandbox the folders are read on the host through it
 *
 * Lists what box_name has exported into applications_dir and bin_dir.
 */
void
kiste_apps_list_exported_async (KisteRunner         *runner,
                                const char          *box_name,
                                const char          *applications_dir,
                                const char          *bin_dir,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListExported *state;

  g_return_if_fail (box_name != NULL && box_name[0] != '\0');
  g_return_if_fail (applications_dir == NULL || g_path_is_absolute (applications_dir));
  g_return_if_fail (bin_dir == NULL || g_path_is_absolute (bin_dir));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  state = g_new0 (ListExported, 1);
  state->box_name = g_strdup (box_name);
  state->applications_dir = g_strdup (applications_dir);
  state->bin_dir = g_strdup (bin_dir);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_list_exported_async);
  g_task_set_task_data (task, state, (GDestroyNotify) list_exported_free);
  list_exported_start (runner, g_steal_pointer (&task));
}

static void
list_exported_start (KisteRunner *runner,
                     GTask       *task_in)
{
  g_autoptr(GTask) task = task_in;
  ListExported *state = g_task_get_task_data (task);
  const char *applications_dir = state->applications_dir;
  const char *bin_dir = state->bin_dir;
  GCancellable *cancellable = g_task_get_cancellable (task);

  if (runner != NULL && kiste_runner_get_in_flatpak (runner))
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) argv = NULL;

      g_strv_builder_add_many (builder, "sh", "-c", host_read_script, "sh", NULL);
      if (applications_dir != NULL)
        {
          g_strv_builder_take (builder, g_strdup_printf ("%d", MAX_LAUNCHER_SIZE));
          g_strv_builder_add (builder, applications_dir);
        }
      if (bin_dir != NULL)
        {
          g_strv_builder_take (builder, g_strdup_printf ("%d", MAX_WRAPPER_SIZE));
          g_strv_builder_add (builder, bin_dir);
        }
      argv = g_strv_builder_end (builder);

      kiste_runner_run_async (runner, (const char * const *) argv, HOST_READ_TIMEOUT_MS, cancellable,
                              list_exported_host_cb, g_steal_pointer (&task));
      return;
    }

  g_task_run_in_thread (task, list_exported_thread);
}

GPtrArray *
kiste_apps_list_exported_finish (GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_apps_list_exported_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * kiste_apps_list_all_exported_async:
 * @runner: (nullable): as for kiste_apps_list_exported_async()
 * @box_names: (nullable): the boxes there are
 */
void
kiste_apps_list_all_exported_async (KisteRunner         *runner,
                                    const char          *applications_dir,
                                    const char          *bin_dir,
                                    const char * const  *box_names,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListExported *state;

  g_return_if_fail (applications_dir == NULL || g_path_is_absolute (applications_dir));
  g_return_if_fail (bin_dir == NULL || g_path_is_absolute (bin_dir));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  state = g_new0 (ListExported, 1);
  state->applications_dir = g_strdup (applications_dir);
  state->bin_dir = g_strdup (bin_dir);
  state->box_names = g_strdupv ((char **) box_names);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_apps_list_all_exported_async);
  g_task_set_task_data (task, state, (GDestroyNotify) list_exported_free);
  list_exported_start (runner, g_steal_pointer (&task));
}

GPtrArray *
kiste_apps_list_all_exported_finish (GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kiste_apps_list_all_exported_async,
                        NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
