/* kiste-assemble.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Manifests read: their entries, each section's keys read into one,
 * and the parse entry points. The lines come from
 * kiste-assemble-lex.c, the values through kiste-assemble-shell.c. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-assemble-state-private.h"
#include "kiste-error.h"

/* Entries ---------------------------------------------------------------- */

static void
entry_clear (gpointer data)
{
  KisteAssembleEntry *entry = data;

  g_clear_pointer (&entry->section, g_free);
  g_clear_object (&entry->options);
  g_clear_pointer (&entry->exported_apps, g_strfreev);
  g_clear_pointer (&entry->exported_bins, g_strfreev);
  g_clear_pointer (&entry->exported_bins_path, g_free);
  g_clear_pointer (&entry->warnings, g_strfreev);
  g_clear_pointer (&entry->error, g_free);
}

KisteAssembleEntry *
kiste_assemble_entry_new (const char *section)
{
  KisteAssembleEntry *entry = g_atomic_rc_box_new0 (KisteAssembleEntry);

  entry->section = g_strdup (section);
  entry->options = kiste_create_options_new ();
  kiste_create_options_set_name (entry->options, section);
  /* distrobox makes a launcher unless entry=false */
  kiste_create_options_set_add_to_menu (entry->options, TRUE);
  entry->exported_apps = g_new0 (char *, 1);
  entry->exported_bins = g_new0 (char *, 1);
  entry->warnings = g_new0 (char *, 1);

  return entry;
}

KisteAssembleEntry *
kiste_assemble_entry_ref (KisteAssembleEntry *entry)
{
  g_return_val_if_fail (entry != NULL, NULL);

  return g_atomic_rc_box_acquire (entry);
}

void
kiste_assemble_entry_unref (KisteAssembleEntry *entry)
{
  g_return_if_fail (entry != NULL);

  g_atomic_rc_box_release_full (entry, entry_clear);
}

G_DEFINE_BOXED_TYPE (KisteAssembleEntry, kiste_assemble_entry,
                     kiste_assemble_entry_ref, kiste_assemble_entry_unref)

/* Reading ---------------------------------------------------------------- */

/* Warnings are for people: each said once, and a few dozen at most. A
 * line included many times would otherwise repeat its warning as often, and
 * every warning added would copy all the earlier ones. */
#define MAX_WARNINGS 50

static void
add_warning (KisteAssembleEntry *entry,
             char               *message)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *owned = message;
  guint n = entry->warnings != NULL ? g_strv_length (entry->warnings) : 0;

  if (n > MAX_WARNINGS ||
      (entry->warnings != NULL && g_strv_contains ((const char * const *) entry->warnings, message)))
    return;

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **)entry->warnings);
  if (n < MAX_WARNINGS)
    g_strv_builder_take (builder, g_steal_pointer (&owned));
  else
    g_strv_builder_take (builder, g_strdup_printf (ngettext ("There are more problems with [%s]; only the "
                                                             "first %u is listed.",
                                                             "There are more problems with [%s]; only the "
                                                             "first %u are listed.", MAX_WARNINGS),
                                                   entry->section, MAX_WARNINGS));
  g_strfreev (entry->warnings);
  entry->warnings = g_strv_builder_end (builder);
}

static void
set_entry_error (KisteAssembleEntry *entry,
                 char               *message)
{
  /* the first reason is enough to stop; later ones become warnings */
  if (entry->error == NULL)
    entry->error = message;
  else
    add_warning (entry, message);
}

/* Keys ------------------------------------------------------------------- */

static gboolean
parse_bool (const char *value,
            gboolean   *result)
{
  if (g_ascii_strcasecmp (value, "true") == 0 || g_str_equal (value, "1"))
    *result = TRUE;
  else if (g_ascii_strcasecmp (value, "false") == 0 || g_str_equal (value, "0"))
    *result = FALSE;
  else
    return FALSE;

  return TRUE;
}

/* Joins repeated hooks as distrobox does: with "&&" unless the previous one
 * already ends in ";" or "&&" */
static char *
join_hooks (GPtrArray *hooks)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; i < hooks->len; i++)
    {
      const char *hook = g_ptr_array_index (hooks, i);

      if (i > 0)
        {
          const char *previous = g_ptr_array_index (hooks, i - 1);
          gsize end = strlen (previous);

          while (end > 0 && g_ascii_isspace (previous[end - 1]))
            end--;
          if ((end >= 1 && previous[end - 1] == ';') ||
              (end >= 2 && previous[end - 2] == '&' && previous[end - 1] == '&'))
            g_string_append_c (joined, ' ');
          else
            g_string_append (joined, " && ");
        }
      g_string_append (joined, hook);
    }

  return g_string_free_and_steal (g_steal_pointer (&joined));
}

typedef enum
{
  KEY_STRING,
  KEY_BOOL,
  KEY_LIST,
} KeyKind;

static const struct
{
  const char *key;
  KeyKind     kind;
} known_keys[] = {
  { "image", KEY_STRING },
  { "clone", KEY_STRING },
  { "home", KEY_STRING },
  { "hostname", KEY_STRING },
  { "platform", KEY_STRING },
  { "exported_bins_path", KEY_STRING },
  { "init", KEY_BOOL },
  { "nvidia", KEY_BOOL },
  { "pull", KEY_BOOL },
  { "root", KEY_BOOL },
  { "entry", KEY_BOOL },
  { "start_now", KEY_BOOL },
  { "replace", KEY_BOOL },
  { "unshare_devsys", KEY_BOOL },
  { "unshare_groups", KEY_BOOL },
  { "unshare_ipc", KEY_BOOL },
  { "unshare_netns", KEY_BOOL },
  { "unshare_process", KEY_BOOL },
  { "unshare_home", KEY_BOOL },
  { "unshare_all", KEY_BOOL },
  { "additional_packages", KEY_LIST },
  { "additional_flags", KEY_LIST },
  { "init_hooks", KEY_LIST },
  { "pre_init_hooks", KEY_LIST },
  { "volume", KEY_LIST },
  { "volumes", KEY_LIST },
  { "exported_apps", KEY_LIST },
  { "exported_bins", KEY_LIST },
};

const UnshareKey _kiste_assemble_unshare_keys[KISTE_N_UNSHARE] = {
  { "unshare_devsys", KISTE_UNSHARE_DEVSYS },
  { "unshare_groups", KISTE_UNSHARE_GROUPS },
  { "unshare_ipc", KISTE_UNSHARE_IPC },
  { "unshare_netns", KISTE_UNSHARE_NETNS },
  { "unshare_process", KISTE_UNSHARE_PROCESS },
  { "unshare_home", KISTE_UNSHARE_HOME },
};

static gboolean
lookup_key (const char *key,
            KeyKind    *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_keys); i++)
    {
      if (g_str_equal (known_keys[i].key, key))
        {
          *kind = known_keys[i].kind;
          return TRUE;
        }
    }

  return FALSE;
}

/* A section's reading under way: the entry, and what is only known once
 * every line was read */
typedef struct
{
  const Reader        *reader;
  KisteAssembleEntry  *entry;
  /* stripped hooks, joined and read at the end */
  GPtrArray           *init_hooks;
  GPtrArray           *pre_init_hooks;
  guint                init_hooks_line;
  guint                pre_init_hooks_line;
  /* key → the first line and the count of its values */
  GHashTable          *first_line;
  GHashTable          *count;
} Section;

/* Refuses the entry for the problem of the key's value on line */
static void
refuse_value (Section      *section,
              const char   *key,
              guint         line,
              ShellProblem  problem,
              const char   *detail)
{
  g_autofree char *what = g_strdup_printf (_("“%s” (line %u)"), key, line);

  set_entry_error (section->entry, _kiste_assemble_dup_shell_problem (what, problem, detail));
}

static void
apply_string (Section    *section,
              const char *key,
              const char *raw,
              guint       line)
{
  KisteCreateOptions *options = section->entry->options;
  g_autofree char *value = NULL;
  g_autofree char *detail = NULL;
  ShellProblem problem;

  /* distrobox passes the bins' folder quoted, after its source only */
  if (g_str_equal (key, "exported_bins_path"))
    value = _kiste_assemble_read_sourced (raw, section->reader, &problem, &detail);
  else
    value = _kiste_assemble_read_value (raw, section->reader, &problem, &detail);

  if (value == NULL)
    {
      refuse_value (section, key, line, problem, detail);
      value = _kiste_assemble_unquote (raw);
    }

  /* distrobox skips empty values */
  if (value[0] == '\0')
    return;

  if (g_str_equal (key, "image"))
    kiste_create_options_set_image (options, value);
  else if (g_str_equal (key, "clone"))
    kiste_create_options_set_clone_source (options, value);
  else if (g_str_equal (key, "home"))
    kiste_create_options_set_home (options, value);
  else if (g_str_equal (key, "hostname"))
    kiste_create_options_set_hostname (options, value);
  else if (g_str_equal (key, "platform"))
    kiste_create_options_set_platform (options, value);
  else if (g_str_equal (key, "exported_bins_path"))
    {
      g_free (section->entry->exported_bins_path);
      section->entry->exported_bins_path = g_steal_pointer (&value);
    }
  else
    g_assert_not_reached ();
}

static void
apply_bool (KisteAssembleEntry *entry,
            const char         *key,
            gboolean            value)
{
  KisteCreateOptions *options = entry->options;

  for (guint i = 0; i < G_N_ELEMENTS (_kiste_assemble_unshare_keys); i++)
    {
      if (g_str_equal (_kiste_assemble_unshare_keys[i].key, key))
        {
          kiste_create_options_set_unshare (options, _kiste_assemble_unshare_keys[i].what, value);
          return;
        }
    }

  if (g_str_equal (key, "unshare_all"))
    kiste_create_options_set_unshare_all (options, value);
  else if (g_str_equal (key, "init"))
    kiste_create_options_set_init (options, value);
  else if (g_str_equal (key, "nvidia"))
    kiste_create_options_set_nvidia (options, value);
  else if (g_str_equal (key, "pull"))
    kiste_create_options_set_pull (options, value);
  else if (g_str_equal (key, "entry"))
    kiste_create_options_set_add_to_menu (options, value);
  else if (g_str_equal (key, "start_now"))
    entry->start_now = value;
  else if (g_str_equal (key, "replace"))
    entry->replace = value;
  else if (g_str_equal (key, "root"))
    {
      if (value)
        set_entry_error (entry,
                         g_strdup (_("This box asks for root=true. Kiste does not create rootful "
                                     "boxes, which run as the system administrator and ask for a "
                                     "password at every step.")));
    }
  else
    g_assert_not_reached ();
}

/* distrobox 1.x reads a boolean with sh's test -eq: a number, which true
 * and false become when written bare, and nothing else */
static void
read_bool (Section    *section,
           const char *key,
           const char *raw,
           guint       line)
{
  g_autofree char *value = NULL;
  g_autofree char *detail = NULL;
  ShellProblem problem;
  gboolean result;

  if ((value = _kiste_assemble_read_sourced (raw, section->reader, &problem, &detail)) == NULL)
    {
      refuse_value (section, key, line, problem, detail);
      return;
    }

  if (value[0] == '\0')
    return;

  if (!parse_bool (value, &result))
    {
      add_warning (section->entry, g_strdup_printf (_("“%s” must be true or false, not “%s” "
                                                      "(line %u); it was ignored."),
                                                    key, raw, line));
      return;
    }

  apply_bool (section->entry, key, result);

  /* "True" or a quoted "true": what the author meant, said when distrobox
   * 1.x makes another box of it */
  if (section->reader->distrobox_major < 2 && !g_ascii_isdigit (value[0]) &&
      result != g_str_equal (key, "entry"))
    add_warning (section->entry,
                 g_strdup_printf (_("distrobox 1.x reads only a bare true or false and ignores "
                                    "“%s=%s” (line %u). Kiste reads it as %s."),
                                  key, raw, line, result ? "true" : "false"));
}

/* Words of a list value, as distrobox splits them at spaces */
static char **
strv_append_words (char       **strv,
                   const char  *words)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) split = g_strsplit_set (words, " ", -1);

  g_strv_builder_addv (builder, (const char **)strv);
  for (guint i = 0; split[i] != NULL; i++)
    if (split[i][0] != '\0')
      g_strv_builder_add (builder, split[i]);

  g_strfreev (strv);

  return g_strv_builder_end (builder);
}

/* A box path names the home with ~ too: distrobox's shell keeps a quoted
 * one as it is there, and podman refuses it, so that ~ is read as meant */
static char *
expand_box_tilde (const char *spec,
                  const char *home)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);

  for (guint i = 1; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '~' && (parts[i][1] == '\0' || parts[i][1] == '/'))
        {
          char *expanded = g_strconcat (home, parts[i] + 1, NULL);

          g_free (parts[i]);
          parts[i] = expanded;
        }
    }

  return g_strjoinv (":", parts);
}

/* A volume line: sourced, passed on, then split at spaces and evaluated
 * once more by distrobox-create (distrobox-create:583-588) */
static void
read_volume (Section    *section,
             const char *key,
             const char *raw,
             guint       line)
{
  g_autofree char *value = NULL;
  g_autofree char *detail = NULL;
  g_auto(GStrv) specs = NULL;
  ShellProblem problem;

  if ((value = _kiste_assemble_read_value (raw, section->reader, &problem, &detail)) == NULL)
    {
      refuse_value (section, key, line, problem, detail);
      return;
    }

  specs = g_strsplit_set (value, " \t", -1);
  for (guint i = 0; specs[i] != NULL; i++)
    {
      g_autofree char *spec = NULL;
      g_autofree char *expanded = NULL;
      g_autofree char *host = NULL;
      const char *colon;

      if (specs[i][0] == '\0')
        continue;

      if ((spec = _kiste_assemble_shell_word (specs[i], WORD_ARGUMENT, section->reader,
                                              &problem, &detail)) == NULL)
        {
          refuse_value (section, key, line, problem, detail);
          return;
        }

      expanded = expand_box_tilde (spec, section->reader->home);
      colon = strchr (expanded, ':');
      host = colon != NULL ? g_strndup (expanded, colon - expanded) : NULL;

      /* podman's own volumes are not folders of this computer */
      if (host != NULL && host[0] != '/' && g_ascii_isalnum (host[0]))
        set_entry_error (section->entry,
                         g_strdup_printf (_("The volume “%s” (line %u) uses a volume of the container "
                                            "engine, “%s”, not a folder of this computer. Kiste shares "
                                            "only folders."),
                                          expanded, line, host));

      kiste_create_options_add_volume (section->entry->options, expanded);
    }
}

static void
apply_list (Section    *section,
            const char *key,
            const char *raw,
            guint       line)
{
  KisteAssembleEntry *entry = section->entry;
  g_autofree char *value = NULL;
  g_autofree char *detail = NULL;
  ShellProblem problem;

  if (g_str_equal (key, "init_hooks") || g_str_equal (key, "pre_init_hooks"))
    {
      gboolean init = g_str_equal (key, "init_hooks");
      GPtrArray *hooks = init ? section->init_hooks : section->pre_init_hooks;
      char *hook = _kiste_assemble_strip_hook_quotes (raw);

      if (hooks->len == 0)
        *(init ? &section->init_hooks_line : &section->pre_init_hooks_line) = line;
      /* distrobox skips empty hooks */
      if (hook[0] != '\0')
        g_ptr_array_add (hooks, hook);
      else
        g_free (hook);
      return;
    }

  if (g_str_equal (key, "additional_flags"))
    {
      set_entry_error (entry,
                       g_strdup_printf (_("This box passes additional_flags=“%s”, raw options for "
                                          "the container manager that distrobox runs as shell code. "
                                          "Kiste does not run them; remove the line to create this "
                                          "box here."),
                                        raw));
      return;
    }

  if (g_str_equal (key, "volume") || g_str_equal (key, "volumes"))
    {
      read_volume (section, key, raw, line);
      return;
    }

  if ((value = _kiste_assemble_read_sourced (raw, section->reader, &problem, &detail)) == NULL)
    {
      refuse_value (section, key, line, problem, detail);
      return;
    }

  if (g_str_equal (key, "additional_packages"))
    {
      /* distrobox joins them after a space, so the command's eval sees
       * them in quotes */
      g_autofree char *spaced = g_strconcat (" ", value, NULL);
      g_autofree char *packages = _kiste_assemble_read_argument (spaced, section->reader,
                                                                 &problem, &detail);

      if (packages == NULL)
        refuse_value (section, key, line, problem, detail);
      else if (!g_str_equal (g_strstrip (packages), ""))
        kiste_create_options_add_additional_packages (entry->options, packages);
    }
  else if (g_str_equal (key, "exported_apps"))
    entry->exported_apps = strv_append_words (entry->exported_apps, value);
  else if (g_str_equal (key, "exported_bins"))
    entry->exported_bins = strv_append_words (entry->exported_bins, value);
  else
    g_assert_not_reached ();
}

/* The hooks of a key, joined, as distrobox passes them: in quotes after a
 * ": ;" of its own, through the command's eval */
static void
finish_hooks (Section    *section,
              const char *key,
              GPtrArray  *hooks,
              guint       line)
{
  g_autofree char *joined = NULL;
  g_autofree char *prefixed = NULL;
  g_autofree char *value = NULL;
  g_autofree char *detail = NULL;
  ShellProblem problem;

  if (hooks->len == 0)
    return;

  joined = join_hooks (hooks);
  prefixed = g_strconcat (": ; ", joined, NULL);
  value = _kiste_assemble_read_argument (prefixed, section->reader, &problem, &detail);

  if (value == NULL)
    {
      g_autofree char *what = g_strdup_printf (_("“%s” (from line %u)"), key, line);

      set_entry_error (section->entry, _kiste_assemble_dup_shell_problem (what, problem, detail));
    }
  else
    {
      g_free (joined);
      joined = g_strdup (value + strlen (": ; "));
    }

  if (g_str_equal (key, "init_hooks"))
    kiste_create_options_set_init_hooks (section->entry->options, joined);
  else
    kiste_create_options_set_pre_init_hooks (section->entry->options, joined);
}

/* Values per list key and box. Each value is appended to a copy of the
 * list so far, so thousands of them (a line included many times, a 1 MB
 * file of volume= lines) would take minutes; real boxes need a handful. */
#define MAX_LIST_VALUES 1000
#define MAX_MANIFEST_SIZE (1024 * 1024)

/* How many values a list line adds: words for keys split at spaces */
static guint
count_list_values (const char *key,
                   const char *value)
{
  guint n = 0;

  if (!(g_str_equal (key, "volume") || g_str_equal (key, "volumes") ||
        g_str_equal (key, "exported_apps") || g_str_equal (key, "exported_bins")))
    return 1;

  for (const char *p = value; *p != '\0'; p++)
    {
      if (*p != ' ' && (p == value || p[-1] == ' '))
        n++;
    }

  return n;
}

static gboolean
get_bool (KisteAssembleEntry *entry,
          const char         *key)
{
  KisteCreateOptions *options = entry->options;

  for (guint i = 0; i < G_N_ELEMENTS (_kiste_assemble_unshare_keys); i++)
    if (g_str_equal (_kiste_assemble_unshare_keys[i].key, key))
      return kiste_create_options_get_unshare (options, _kiste_assemble_unshare_keys[i].what);

  if (g_str_equal (key, "unshare_all"))
    return kiste_create_options_get_unshare_all (options);
  if (g_str_equal (key, "init"))
    return kiste_create_options_get_init (options);
  if (g_str_equal (key, "nvidia"))
    return kiste_create_options_get_nvidia (options);
  if (g_str_equal (key, "pull"))
    return kiste_create_options_get_pull (options);
  if (g_str_equal (key, "entry"))
    return kiste_create_options_get_add_to_menu (options);
  if (g_str_equal (key, "start_now"))
    return entry->start_now;
  if (g_str_equal (key, "replace"))
    return entry->replace;

  /* root=true is refused */
  return FALSE;
}

/* distrobox 1.x appends a repeated key's value to the first one, which
 * for a boolean makes "1¤1", no number, so it drops the key (the include
 * of a section that sets it too repeats it). Kiste takes the last value,
 * as the author meant, and says so where the box comes out otherwise. */
static void
warn_repeated_bools (Section *section)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_keys); i++)
    {
      const char *key = known_keys[i].key;
      gboolean value;

      if (known_keys[i].kind != KEY_BOOL ||
          GPOINTER_TO_UINT (g_hash_table_lookup (section->count, key)) < 2)
        continue;

      /* dropped, a boolean is distrobox's default: only entry is on */
      value = get_bool (section->entry, key);
      if (value == g_str_equal (key, "entry"))
        continue;

      add_warning (section->entry,
                   g_strdup_printf (_("“%s” is set more than once (first on line %u, counting "
                                      "included sections), and distrobox 1.x then ignores it. "
                                      "Kiste uses the last value, %s."),
                                    key,
                                    GPOINTER_TO_UINT (g_hash_table_lookup (section->first_line, key)),
                                    value ? "true" : "false"));
    }
}

static void
warn_volumes_key (Section *section,
                  guint    line)
{
  const char *version = section->reader->distrobox_version;

  if (version != NULL)
    add_warning (section->entry,
                 g_strdup_printf (_("“volumes” (line %u) is read by distrobox 2 only. The installed "
                                    "distrobox %s ignores it, and so does Kiste: write volume= to "
                                    "share these folders."),
                                  line, version));
  else
    add_warning (section->entry,
                 g_strdup_printf (_("“volumes” (line %u) is read by distrobox 2 only. distrobox 1.x "
                                    "ignores it, and so does Kiste: write volume= to share these "
                                    "folders."),
                                  line));
}

static KisteAssembleEntry *
interpret (const Reader *reader,
           const char   *name,
           GPtrArray    *pairs)
{
  KisteAssembleEntry *entry = kiste_assemble_entry_new (name);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) list_values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) first_line = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) count = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) init_hooks = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) pre_init_hooks = g_ptr_array_new_with_free_func (g_free);
  Section section = {
    .reader = reader,
    .entry = entry,
    .init_hooks = init_hooks,
    .pre_init_hooks = pre_init_hooks,
    .first_line = first_line,
    .count = count,
  };
  gboolean volumes_said = FALSE;
  gboolean spaced_said = FALSE;
  guint n_values;
  guint previous_values;

  for (guint i = 0; i < pairs->len; i++)
    {
      RawPair *pair = g_ptr_array_index (pairs, i);
      KeyKind kind;

      if (pair->value == NULL)
        {
          add_warning (entry, g_strdup_printf (_("Line %u is not of the form key=value and was "
                                                 "ignored."),
                                               pair->line));
          continue;
        }

      if (!lookup_key (pair->key, &kind))
        {
          add_warning (entry, g_strdup_printf (_("The unknown key “%s” (line %u) was ignored."),
                                               pair->key, pair->line));
          continue;
        }

      /* distrobox skips empty values */
      if (pair->value[0] == '\0')
        continue;

      if (!g_hash_table_contains (first_line, pair->key))
        g_hash_table_insert (first_line, pair->key, GUINT_TO_POINTER (pair->line));
      g_hash_table_insert (count, pair->key,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (count, pair->key)) + 1));

      /* "key = value" means key=value, as distrobox 2 reads it */
      if (pair->spaced && reader->distrobox_major < 2 && !spaced_said)
        {
          add_warning (entry, g_strdup_printf (_("Line %u has a space after “=”, which distrobox 1.x "
                                                 "keeps as part of the value: it ignores such a true or "
                                                 "false and may misread a path. Kiste reads the value "
                                                 "without it."),
                                               pair->line));
          spaced_said = TRUE;
        }

      /* distrobox 2 reads volumes= beside volume=, 1.x does not */
      if (g_str_equal (pair->key, "volumes") && reader->distrobox_major < 2)
        {
          if (!volumes_said)
            warn_volumes_key (&section, pair->line);
          volumes_said = TRUE;
          continue;
        }

      switch (kind)
        {
        case KEY_STRING:
          if (!g_hash_table_add (seen, pair->key))
            add_warning (entry, g_strdup_printf (_("“%s” is set more than once; the last value "
                                                   "(line %u) is used."),
                                                 pair->key, pair->line));
          apply_string (&section, pair->key, pair->value, pair->line);
          break;

        case KEY_BOOL:
          read_bool (&section, pair->key, pair->value, pair->line);
          break;

        case KEY_LIST:
          previous_values = GPOINTER_TO_UINT (g_hash_table_lookup (list_values, pair->key));
          n_values = MIN (previous_values + count_list_values (pair->key, pair->value), MAX_LIST_VALUES + 1);
          g_hash_table_insert (list_values, pair->key, GUINT_TO_POINTER (n_values));
          /* said once, when the limit is passed */
          if (previous_values > MAX_LIST_VALUES)
            break;
          if (n_values > MAX_LIST_VALUES)
            set_entry_error (entry, g_strdup_printf (ngettext ("“%s” lists more than %u value; no box "
                                                               "needs that many.",
                                                               "“%s” lists more than %u values; no box "
                                                               "needs that many.", MAX_LIST_VALUES),
                                                     pair->key, MAX_LIST_VALUES));
          else
            apply_list (&section, pair->key, pair->value, pair->line);
          break;

        default:
          g_assert_not_reached ();
        }
    }

  finish_hooks (&section, "init_hooks", init_hooks, section.init_hooks_line);
  finish_hooks (&section, "pre_init_hooks", pre_init_hooks, section.pre_init_hooks_line);

  if (reader->distrobox_major < 2)
    warn_repeated_bools (&section);

  if (kiste_create_options_get_clone_source (entry->options) != NULL &&
      kiste_create_options_get_image (entry->options) != NULL)
    add_warning (entry, g_strdup (_("Both image and clone are set; the box is cloned and the "
                                    "image is not used.")));

  /* distrobox-create's own default, named so people see what they get */
  if (kiste_create_options_get_clone_source (entry->options) == NULL &&
      kiste_create_options_get_image (entry->options) == NULL)
    {
      kiste_create_options_set_image (entry->options, KISTE_ASSEMBLE_DEFAULT_IMAGE);
      add_warning (entry, g_strdup_printf (_("No image is given, so distrobox would use its default "
                                             "image, %s. Kiste uses it too."),
                                           KISTE_ASSEMBLE_DEFAULT_IMAGE));
    }

  return entry;
}

static GPtrArray *
parse_with (const Reader  *reader,
            const char    *data,
            gssize         length,
            GError       **error)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) sections = NULL;
  g_autoptr(GHashTable) names = NULL;
  g_autoptr(GHashTable) by_name = NULL;
  g_autofree char *text = NULL;
  guint budget = MAX_INCLUDED_PAIRS;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (data);

  /* the largest manifest seen is a few KiB; the URL import stops at 1 MiB */
  if (length > MAX_MANIFEST_SIZE)
    {
      g_autofree char *size = g_format_size (length);
      g_autofree char *limit = g_format_size (MAX_MANIFEST_SIZE);

      kiste_set_invalid_input (error, _("The file is too big for a distrobox.ini manifest (%s; at most %s)."),
                               size, limit);
      return NULL;
    }

  if (memchr (data, '\0', length) != NULL)
    {
      kiste_set_invalid_input (error, "%s", _("The file is not text: it contains a zero byte."));
      return NULL;
    }

  if (!g_utf8_validate_len (data, length, NULL))
    {
      kiste_set_invalid_input (error, "%s", _("The file is not text in UTF-8."));
      return NULL;
    }

  text = g_strndup (data, length);

  if ((sections = _kiste_assemble_lex (text, error)) == NULL)
    return NULL;

  entries = g_ptr_array_new_with_free_func ((GDestroyNotify)kiste_assemble_entry_unref);
  names = g_hash_table_new (g_str_hash, g_str_equal);
  by_name = _kiste_assemble_index_sections (sections);

  for (guint i = 0; i < sections->len; i++)
    {
      RawSection *section = g_ptr_array_index (sections, i);
      g_autoptr(GPtrArray) stack = g_ptr_array_new ();
      g_autoptr(GPtrArray) pairs = g_ptr_array_new ();
      KisteAssembleEntry *entry;

      g_ptr_array_add (stack, section);
      if (!_kiste_assemble_flatten (by_name, section, stack, pairs, &budget, error))
        return NULL;

      entry = interpret (reader, section->name, pairs);
      if (!g_hash_table_add (names, section->name))
        add_warning (entry, g_strdup_printf (_("The box “%s” appears more than once in this "
                                               "file."),
                                             section->name));
      g_ptr_array_add (entries, entry);
    }

  return g_steal_pointer (&entries);
}

GPtrArray *
_kiste_assemble_parse_full (const char  *data,
                            gssize       length,
                            guint        distrobox_major,
                            const char  *distrobox_version,
                            const char  *home,
                            const char  *user,
                            GError     **error)
{
  Reader reader = {
    .distrobox_major = distrobox_major,
    .distrobox_version = distrobox_version,
    .home = home != NULL ? home : g_get_home_dir (),
    .user = user != NULL ? user : g_get_user_name (),
  };

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  return parse_with (&reader, data, length, error);
}

GPtrArray *
kiste_assemble_parse_for_distrobox (const char         *data,
                                    gssize              length,
                                    KisteCapabilities  *caps,
                                    GError            **error)
{
  gboolean known;

  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  known = caps != NULL && kiste_capabilities_get_loaded (caps) && kiste_capabilities_has_distrobox (caps);

  return _kiste_assemble_parse_full (data, length,
                                     known ? kiste_capabilities_get_distrobox_major (caps) : 0,
                                     known ? kiste_capabilities_get_distrobox_version (caps) : NULL,
                                     NULL, NULL, error);
}

GPtrArray *
kiste_assemble_parse (const char  *data,
                      gssize       length,
                      GError     **error)
{
  return kiste_assemble_parse_for_distrobox (data, length, NULL, error);
}
