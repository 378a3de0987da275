/* kiste-journal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The journal of a box being made again, as a small JSON file per box in
 * Kiste's state folder, and what is left when one is found. */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "kiste-error.h"
#include "kiste-file.h"
#include "kiste-journal.h"
#include "kiste-snapshot.h"
#include "kiste-validate.h"

#define JOURNAL_VERSION 1

static const char * const unshare_keys[KISTE_N_UNSHARE] = {
  [KISTE_UNSHARE_DEVSYS] = "devsys",
  [KISTE_UNSHARE_GROUPS] = "groups",
  [KISTE_UNSHARE_IPC] = "ipc",
  [KISTE_UNSHARE_NETNS] = "netns",
  [KISTE_UNSHARE_PROCESS] = "process",
  [KISTE_UNSHARE_HOME] = "home",
};

KisteJournal *
kiste_journal_new (const char         *engine,
                   const char         *box_name,
                   const char         *box_id,
                   const char         *snapshot,
                   KisteCreateOptions *options,
                   gboolean            keep_snapshot)
{
  KisteJournal *journal = g_new0 (KisteJournal, 1);

  journal->engine = g_strdup (engine);
  journal->box_name = g_strdup (box_name);
  journal->box_id = g_strdup (box_id);
  journal->snapshot = g_strdup (snapshot);
  journal->options = kiste_create_options_copy (options);
  journal->keep_snapshot = keep_snapshot;
  journal->started = g_get_real_time () / G_USEC_PER_SEC;
  return journal;
}

void
kiste_journal_free (KisteJournal *journal)
{
  if (journal == NULL)
    return;
  g_free (journal->engine);
  g_free (journal->box_name);
  g_free (journal->box_id);
  g_free (journal->snapshot);
  g_clear_object (&journal->options);
  g_free (journal);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  if (value == NULL)
    return;
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

static void
add_strv (JsonBuilder        *builder,
          const char         *name,
          const char * const *values)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; values != NULL && values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

char *
kiste_journal_to_json (KisteJournal *journal)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  KisteCreateOptions *options = journal->options;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, JOURNAL_VERSION);
  add_string (builder, "engine", journal->engine);
  add_string (builder, "box", journal->box_name);
  add_string (builder, "box-id", journal->box_id);
  add_string (builder, "snapshot", journal->snapshot);
  json_builder_set_member_name (builder, "keep-snapshot");
  json_builder_add_boolean_value (builder, journal->keep_snapshot);
  json_builder_set_member_name (builder, "started");
  json_builder_add_int_value (builder, journal->started);

  json_builder_set_member_name (builder, "options");
  json_builder_begin_object (builder);
  add_string (builder, "image", kiste_create_options_get_image (options));
  add_string (builder, "home", kiste_create_options_get_home (options));
  add_string (builder, "hostname", kiste_create_options_get_hostname (options));
  add_string (builder, "pre-init-hooks", kiste_create_options_get_pre_init_hooks (options));
  add_string (builder, "init-hooks", kiste_create_options_get_init_hooks (options));
  add_strv (builder, "volumes", kiste_create_options_get_volumes (options));
  add_strv (builder, "additional-packages", kiste_create_options_get_additional_packages (options));
  json_builder_set_member_name (builder, "init");
  json_builder_add_boolean_value (builder, kiste_create_options_get_init (options));
  json_builder_set_member_name (builder, "nvidia");
  json_builder_add_boolean_value (builder, kiste_create_options_get_nvidia (options));
  json_builder_set_member_name (builder, "separate-home");
  json_builder_add_boolean_value (builder, kiste_create_options_get_separate_home (options));
  json_builder_set_member_name (builder, "unshare-all");
  json_builder_add_boolean_value (builder, kiste_create_options_get_unshare_all (options));
  json_builder_set_member_name (builder, "unshare");
  json_builder_begin_array (builder);
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    if (kiste_create_options_get_unshare (options, i))
      json_builder_add_string_value (builder, unshare_keys[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static const char *
get_string (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
get_bool (JsonObject *object,
          const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}

/* The strings of an array member, or NULL when one is not a string */
static GStrv
get_strv (JsonObject *object,
          const char *name)
{
  JsonNode *node = json_object_get_member (object, name);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  if (node == NULL)
    return g_strv_builder_end (builder);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return NULL;
  array = json_node_get_array (node);
  if (json_array_get_length (array) > 256)
    return NULL;
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        return NULL;
      g_strv_builder_add (builder, json_node_get_string (element));
    }
  return g_strv_builder_end (builder);
}

static KisteJournal *
bad_journal (GError **error)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("A record of an unfinished operation could not be read."));
  return NULL;
}

KisteJournal *
kiste_journal_parse (const char  *data,
                     GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(KisteJournal) journal = g_new0 (KisteJournal, 1);
  g_auto(GStrv) volumes = NULL;
  g_auto(GStrv) packages = NULL;
  g_auto(GStrv) unshare = NULL;
  JsonObject *object, *options;
  JsonNode *node;
  const char *image;

  if (data == NULL || strlen (data) > KISTE_JOURNAL_MAX_SIZE ||
      !json_parser_load_from_data (parser, data, -1, NULL) ||
      json_parser_get_root (parser) == NULL || !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return bad_journal (error);

  object = json_node_get_object (json_parser_get_root (parser));
  node = json_object_get_member (object, "version");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) != JOURNAL_VERSION)
    return bad_journal (error);

  journal->engine = g_strdup (get_string (object, "engine"));
  journal->box_name = g_strdup (get_string (object, "box"));
  journal->box_id = g_strdup (get_string (object, "box-id"));
  journal->snapshot = g_strdup (get_string (object, "snapshot"));
  journal->keep_snapshot = get_bool (object, "keep-snapshot");
  node = json_object_get_member (object, "started");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    journal->started = json_node_get_int (node);

  if ((g_strcmp0 (journal->engine, "podman") != 0 && g_strcmp0 (journal->engine, "docker") != 0) ||
      !kiste_validate_name (journal->box_name, NULL, NULL) ||
      journal->box_id == NULL || strlen (journal->box_id) > 128 ||
      !kiste_snapshot_parse_image_name (journal->snapshot, journal->box_name, NULL))
    return bad_journal (error);

  node = json_object_get_member (object, "options");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return bad_journal (error);
  options = json_node_get_object (node);
  image = get_string (options, "image");
  if (!kiste_validate_image (image, NULL) ||
      !(volumes = get_strv (options, "volumes")) ||
      !(packages = get_strv (options, "additional-packages")) ||
      !(unshare = get_strv (options, "unshare")))
    return bad_journal (error);

  /* the values themselves are checked with the plan, before anything runs */
  journal->options = kiste_create_options_new ();
  kiste_create_options_set_name (journal->options, journal->box_name);
  kiste_create_options_set_image (journal->options, image);
  kiste_create_options_set_home (journal->options, get_string (options, "home"));
  kiste_create_options_set_hostname (journal->options, get_string (options, "hostname"));
  kiste_create_options_set_pre_init_hooks (journal->options, get_string (options, "pre-init-hooks"));
  kiste_create_options_set_init_hooks (journal->options, get_string (options, "init-hooks"));
  kiste_create_options_set_volumes (journal->options, (const char * const *) volumes);
  kiste_create_options_set_additional_packages (journal->options, (const char * const *) packages);
  kiste_create_options_set_init (journal->options, get_bool (options, "init"));
  kiste_create_options_set_nvidia (journal->options, get_bool (options, "nvidia"));
  kiste_create_options_set_separate_home (journal->options, get_bool (options, "separate-home"));
  kiste_create_options_set_unshare_all (journal->options, get_bool (options, "unshare-all"));
  kiste_create_options_set_add_to_menu (journal->options, FALSE);
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    kiste_create_options_set_unshare (journal->options, i,
                                      g_strv_contains ((const char * const *) unshare, unshare_keys[i]));

  return g_steal_pointer (&journal);
}

char *
kiste_journal_dup_path (const char *dir,
                        const char *engine,
                        const char *box_name)
{
  g_autofree char *file = g_strdup_printf ("%s-%s.json", engine, box_name);

  return g_build_filename (dir, file, NULL);
}

gboolean
kiste_journal_write (KisteJournal  *journal,
                     const char    *dir,
                     GError       **error)
{
  g_autofree char *path = kiste_journal_dup_path (dir, journal->engine, journal->box_name);
  g_autofree char *data = kiste_journal_to_json (journal);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not make the folder “%s”: %s"), dir, g_strerror (saved));
      return FALSE;
    }
  return kiste_file_replace (file, data, strlen (data), NULL, error);
}

gboolean
kiste_journal_remove (const char  *dir,
                      const char  *engine,
                      const char  *box_name,
                      GError     **error)
{
  g_autofree char *path = kiste_journal_dup_path (dir, engine, box_name);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) local_error = NULL;

  if (!g_file_delete (file, NULL, &local_error) &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

static int
compare_oldest_first (gconstpointer a,
                      gconstpointer b)
{
  const KisteJournal *ja = *(KisteJournal **) a;
  const KisteJournal *jb = *(KisteJournal **) b;

  return (ja->started > jb->started) - (ja->started < jb->started);
}

GPtrArray *
kiste_journal_load_all (const char *dir)
{
  g_autoptr(GPtrArray) journals = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_journal_free);
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL && n < KISTE_JOURNAL_MAX_FILES)
    {
      g_autofree char *path = NULL;
      g_autofree char *data = NULL;
      g_autofree char *expected = NULL;
      g_autoptr(GError) error = NULL;
      KisteJournal *journal;
      GStatBuf info;
      gsize length;

      if (!g_str_has_suffix (name, ".json"))
        continue;
      n++;
      path = g_build_filename (dir, name, NULL);
      /* a regular file of a journal's size, measured before it is read */
      if (g_lstat (path, &info) != 0 || !S_ISREG (info.st_mode) || info.st_size > KISTE_JOURNAL_MAX_SIZE ||
          !g_file_get_contents (path, &data, &length, NULL) || length > KISTE_JOURNAL_MAX_SIZE)
        continue;
      if (!(journal = kiste_journal_parse (data, &error)))
        {
          g_debug ("Skipping %s: %s", path, error->message);
          continue;
        }
      /* a file is the journal of the box its name says */
      expected = g_strdup_printf ("%s-%s.json", journal->engine, journal->box_name);
      if (!g_str_equal (expected, name))
        {
          kiste_journal_free (journal);
          continue;
        }
      g_ptr_array_add (journals, journal);
    }

  g_ptr_array_sort (journals, compare_oldest_first);
  return g_steal_pointer (&journals);
}

KisteLeftoverState
kiste_journal_classify (KisteJournal *journal,
                        gboolean      box_exists,
                        const char   *box_id,
                        gboolean      snapshot_exists)
{
  gboolean old_box = box_exists && g_strcmp0 (box_id, journal->box_id) == 0;

  if (!snapshot_exists)
    /* killed while the snapshot was taken, the box untouched; or the new
     * box stands and its snapshot went */
    return box_exists ? KISTE_LEFTOVER_NONE : KISTE_LEFTOVER_LOST;
  if (!box_exists)
    return KISTE_LEFTOVER_SNAPSHOT_ONLY;
  return old_box ? KISTE_LEFTOVER_BOX_AND_SNAPSHOT : KISTE_LEFTOVER_NEW_BOX;
}
