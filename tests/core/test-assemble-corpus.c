/* test-assemble-corpus.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Kiste's reading of published manifests against distrobox's own.
 *
 * Every manifest in tests/fixtures/manifests (a corpus collected from
 * public repositories, each with its source in NAME.source) is read by
 * Kiste, and each box Kiste would create is handed to the installed
 * distrobox-assemble, distrobox 1.x's own shell script, in a sandbox:
 * env -i, a temporary HOME and TMPDIR, that HOME as the working folder,
 * and a PATH of a folder holding tests/fakes/assemble-recorder under the
 * name of every program assemble starts (distrobox-create, distrobox-list,
 * distrobox, podman, docker, curl, wget), then one holding only the tools
 * assemble uses (sed, grep, awk, base64...). The recorder writes down each
 * call and creates nothing. The box's one distrobox-create call is then
 * compared with the argv Kiste builds for the same box, as sets of options
 * with their values, together with what assemble does after it (replace,
 * start_now, exports).
 *
 * What legitimately differs is normalised, on both sides alike:
 * - the program: Kiste runs "distrobox create", assemble "distrobox-create";
 * - --no-entry: Kiste always passes it and adds the box's launcher itself
 *   when one is asked for, so its --no-entry stands for add-to-menu off;
 * - --image: without one distrobox-create takes its default image, the one
 *   its --help names, which Kiste passes;
 * - hooks: assemble puts a no-op ": ;" in front and joins them with other
 *   spaces: compared without it, spaces collapsed; only the no-op is none;
 * - --additional-packages: the same words, spaces collapsed;
 * - --volume: distrobox-create splits each value at spaces and evals it
 *   (distrobox-create:583-588), where a leading ~ and $HOME become the
 *   home: done to assemble's values, which Kiste has done already;
 * - --unshare-all stands for the five namespaces it unshares, and options
 *   are compared as a set, in any order;
 * - --home: distrobox-create drops trailing slashes.
 *
 * Each box runs on its own: a file of the box's section and the sections
 * it includes, with --name, so that a section assemble cannot read does
 * not stop the others. Boxes Kiste refuses never reach distrobox: their
 * values may run commands; the reason is checked instead.
 *
 * NAME.source also says what is expected beyond that, one line each:
 *   refused: SECTION: words of Kiste's reason
 *   differs: SECTION: OPTION: why (Kiste reads it as meant, with a warning
 *     naming the key)
 *   distrobox-fails: SECTION: why (assemble stops; Kiste reads the box,
 *     with a warning)
 * and the test fails on any other difference, and on an expectation that
 * no longer holds.
 *
 * It runs the distrobox-assemble on PATH (KISTE_TEST_DISTROBOX_ASSEMBLE
 * names another). Without one, or with distrobox 2's, the test is skipped,
 * or fails under KISTE_E2E_REQUIRED=1, as in CI. */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "kiste-assemble.h"
#include "kiste-assemble-private.h"
#include "kiste-capabilities-private.h"
#include "kiste-test-util.h"

/* What distrobox-assemble 1.8.2.5 runs besides the programs faked */
static const char * const tools[] = {
  "sh", "awk", "base64", "basename", "cat", "cut", "dirname", "expr", "grep", "mktemp", "mv",
  "realpath", "rm", "sed", "touch", "tr", "wc",
};

static const char * const faked[] = {
  "distrobox-create", "distrobox-list", "distrobox", "podman", "docker", "curl", "wget",
};

/* Of those, what assemble never needs */
static const char * const never_needed[] = { "podman", "docker", "curl", "wget", NULL };

typedef struct
{
  char              *assemble;
  char              *missing;
  char              *root;
  char              *home;
  char              *calls;
  char              *user;
  char              *default_image;
  KisteCapabilities *caps;
  KisteRunner       *runner;
} Sandbox;

static Sandbox sandbox;

/* Runs argv in the sandbox's empty environment, from its HOME */
static gboolean
run_sandboxed (const char * const  *argv,
               char               **out,
               char               **err)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) full = NULL;
  g_autofree char *env = g_find_program_in_path ("env");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (env);
  g_strv_builder_add_many (builder, env, "-i", NULL);
  g_strv_builder_take (builder, g_strconcat ("HOME=", sandbox.home, NULL));
  g_strv_builder_take (builder, g_strconcat ("USER=", sandbox.user, NULL));
  g_strv_builder_add (builder, "SHELL=/bin/sh");
  g_strv_builder_add (builder, "LC_ALL=C.UTF-8");
  g_strv_builder_take (builder, g_strdup_printf ("PATH=%s/bin:%s/tools", sandbox.root, sandbox.root));
  g_strv_builder_take (builder, g_strdup_printf ("TMPDIR=%s/tmp", sandbox.root));
  g_strv_builder_take (builder, g_strconcat ("KISTE_RECORD=", sandbox.calls, NULL));
  g_strv_builder_addv (builder, (const char **) argv);
  full = g_strv_builder_end (builder);

  /* stdin is /dev/null */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, sandbox.home);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) full, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);

  return g_subprocess_get_if_exited (process) && g_subprocess_get_exit_status (process) == 0;
}

static void
link_into (const char *dir,
           const char *name,
           const char *target)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  g_file_make_symbolic_link (file, target, NULL, &error);
  g_assert_no_error (error);
}

/* The sandbox, and the capabilities of the distrobox it holds; FALSE with
 * sandbox.missing set when there is no distrobox 1.x assemble */
static gboolean
sandbox_init (void)
{
  g_autofree char *bin = NULL;
  g_autofree char *tools_dir = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *recorder = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "assemble-recorder", NULL);
  g_autofree char *distrobox_dir = NULL;
  g_autofree char *create = NULL;
  g_autofree char *version_out = NULL;
  g_autofree char *version = NULL;
  g_autofree char *help = NULL;
  g_auto(GStrv) flags = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  const char *chosen = g_getenv ("KISTE_TEST_DISTROBOX_ASSEMBLE");

  sandbox.assemble = chosen != NULL ? g_strdup (chosen) : g_find_program_in_path ("distrobox-assemble");
  if (sandbox.assemble == NULL || !g_file_test (sandbox.assemble, G_FILE_TEST_IS_EXECUTABLE))
    {
      sandbox.missing = g_strdup ("distrobox-assemble was not found: install distrobox 1.x "
                                  "(build-aux/install-deps does)");
      return FALSE;
    }

  sandbox.root = g_dir_make_tmp ("kiste-corpus-XXXXXX", &error);
  g_assert_no_error (error);
  bin = g_build_filename (sandbox.root, "bin", NULL);
  tools_dir = g_build_filename (sandbox.root, "tools", NULL);
  tmp = g_build_filename (sandbox.root, "tmp", NULL);
  sandbox.home = g_build_filename (sandbox.root, "home", NULL);
  sandbox.calls = g_build_filename (sandbox.root, "calls", NULL);
  sandbox.user = g_strdup (g_get_user_name ());
  for (const char * const *dir = (const char * const []) { bin, tools_dir, tmp, sandbox.home, sandbox.calls, NULL };
       *dir != NULL; dir++)
    g_assert_cmpint (g_mkdir (*dir, 0700), ==, 0);

  /* assemble runs distrobox-create from its own folder */
  link_into (bin, "distrobox-assemble", sandbox.assemble);
  for (guint i = 0; i < G_N_ELEMENTS (faked); i++)
    link_into (bin, faked[i], recorder);
  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *path = g_find_program_in_path (tools[i]);

      g_assert_nonnull (path);
      link_into (tools_dir, tools[i], path);
    }

  run_sandboxed ((const char * const []) { sandbox.assemble, "--version", NULL }, &version_out, NULL);
  version = kiste_capabilities_parse_version (version_out, "distrobox");
  if (version == NULL || kiste_capabilities_parse_major (version) != 1)
    {
      sandbox.missing = g_strdup_printf ("%s is not distrobox 1.x's assemble script (it says “%s”)",
                                         sandbox.assemble, version_out);
      return FALSE;
    }

  /* the create flags and the default image, from distrobox-create itself */
  distrobox_dir = g_path_get_dirname (sandbox.assemble);
  create = g_build_filename (distrobox_dir, "distrobox-create", NULL);
  run_sandboxed ((const char * const []) { create, "--help", NULL }, &help, NULL);
  flags = kiste_capabilities_parse_create_help (help);
  g_assert_true (g_strv_contains ((const char * const *) flags, "--image"));
  lines = g_strsplit (help, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *fallback = strstr (lines[i], "default: ");

      if (strstr (lines[i], "--image") != NULL && fallback != NULL)
        sandbox.default_image = g_strstrip (g_strdup (fallback + strlen ("default: ")));
    }
  g_assert_nonnull (sandbox.default_image);

  sandbox.runner = kiste_runner_new ();
  sandbox.caps = kiste_capabilities_new (sandbox.runner);
  _kiste_capabilities_set_for_testing (sandbox.caps, version, "podman", (const char * const *) flags);

  return TRUE;
}

static void
sandbox_clear (void)
{
  if (sandbox.root != NULL)
    kiste_test_remove_tree (sandbox.root);
  g_clear_object (&sandbox.caps);
  g_clear_object (&sandbox.runner);
  g_clear_pointer (&sandbox.assemble, g_free);
  g_clear_pointer (&sandbox.missing, g_free);
  g_clear_pointer (&sandbox.root, g_free);
  g_clear_pointer (&sandbox.home, g_free);
  g_clear_pointer (&sandbox.calls, g_free);
  g_clear_pointer (&sandbox.user, g_free);
  g_clear_pointer (&sandbox.default_image, g_free);
}

/* Expectations ------------------------------------------------------------ */

typedef struct
{
  char     *kind;     /* refused, differs, distrobox-fails */
  char     *section;
  char     *what;     /* words of the reason, or the option */
  gboolean  met;
} Expectation;

static void
expectation_free (Expectation *expectation)
{
  g_free (expectation->kind);
  g_free (expectation->section);
  g_free (expectation->what);
  g_free (expectation);
}

/* NAME.source: its source, then what is expected of it */
static GPtrArray *
read_source (const char *ini_path)
{
  g_autofree char *base = g_strndup (ini_path, strlen (ini_path) - strlen (".ini"));
  g_autofree char *path = g_strconcat (base, ".source", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *expectations = g_ptr_array_new_with_free_func ((GDestroyNotify) expectation_free);
  guint sources = 0;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      Expectation *expectation;

      if (g_str_has_prefix (lines[i], "repository: https://github.com/") ||
          g_str_has_prefix (lines[i], "path: ") || g_str_has_prefix (lines[i], "licence: ") ||
          (g_str_has_prefix (lines[i], "commit: ") && strlen (lines[i]) == strlen ("commit: ") + 40))
        {
          sources++;
          continue;
        }
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;

      /* refused and distrobox-fails: SECTION: words; differs: SECTION: OPTION: why */
      parts = g_strsplit (lines[i], ": ", 4);
      if (g_strv_length (parts) < 3 ||
          !(g_str_equal (parts[0], "refused") || g_str_equal (parts[0], "differs") ||
            g_str_equal (parts[0], "distrobox-fails")))
        g_error ("%s: cannot read “%s”", path, lines[i]);

      expectation = g_new0 (Expectation, 1);
      expectation->kind = g_strdup (parts[0]);
      expectation->section = g_strdup (parts[1]);
      expectation->what = g_strdup (parts[2]);
      g_ptr_array_add (expectations, expectation);
    }

  /* where it comes from: repository, path, commit and licence */
  if (sources != 4)
    g_error ("%s names its repository, path, commit and licence in %u lines, not 4", path, sources);

  return expectations;
}

static Expectation *
find_expectation (GPtrArray  *expectations,
                  const char *kind,
                  const char *section,
                  const char *what)
{
  for (guint i = 0; i < expectations->len; i++)
    {
      Expectation *expectation = g_ptr_array_index (expectations, i);

      if (g_str_equal (expectation->kind, kind) && g_str_equal (expectation->section, section) &&
          (what == NULL || g_str_equal (expectation->what, what)))
        return expectation;
    }

  return NULL;
}

/* The box's own file -------------------------------------------------------- */

/* A section of the manifest as distrobox-assemble sees one: from a line
 * starting with "[" (tabs before it dropped) to the next */
typedef struct
{
  char    *header;
  char    *name;
  GString *lines;
} RawSection;

static void
raw_section_free (RawSection *section)
{
  g_free (section->header);
  g_free (section->name);
  g_string_free (section->lines, TRUE);
  g_free (section);
}

static GPtrArray *
split_sections (const char *contents)
{
  GPtrArray *sections = g_ptr_array_new_with_free_func ((GDestroyNotify) raw_section_free);
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);
  RawSection *current = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      while (*line == '\t')
        line++;

      if (line[0] == '[')
        {
          GString *name = g_string_new (NULL);

          for (const char *p = line; *p != '\0' && *p != '#'; p++)
            if (strchr ("[] \t", *p) == NULL)
              g_string_append_c (name, *p);

          current = g_new0 (RawSection, 1);
          current->header = g_strdup (lines[i]);
          current->name = g_string_free (name, FALSE);
          current->lines = g_string_new (NULL);
          g_ptr_array_add (sections, current);
        }

      if (current != NULL)
        g_string_append_printf (current->lines, "%s\n", lines[i]);
    }

  return sections;
}

/* The section, and those it includes: assemble finds an included section
 * by its exact header line "[NAME]" (distrobox-assemble:664-673) */
static void
add_with_includes (GPtrArray  *sections,
                   RawSection *section,
                   GPtrArray  *chosen)
{
  g_auto(GStrv) lines = NULL;

  if (g_ptr_array_find (chosen, section, NULL))
    return;
  g_ptr_array_add (chosen, section);

  lines = g_strsplit (section->lines->str, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GString) key = g_string_new (NULL);
      g_autofree char *header = NULL;
      const char *eq = strchr (lines[i], '=');
      GString *value;

      if (eq == NULL)
        continue;
      /* assemble drops the key's spaces */
      for (const char *p = lines[i]; p < eq; p++)
        if (*p != ' ')
          g_string_append_c (key, *p);
      if (!g_str_equal (key->str, "include"))
        continue;

      value = g_string_new (NULL);
      for (const char *p = eq + 1; *p != '\0'; p++)
        if (*p != '"')
          g_string_append_c (value, *p);
      header = g_strdup_printf ("[%s]", g_strchomp (value->str));
      g_string_free (value, TRUE);

      for (guint j = 0; j < sections->len; j++)
        {
          RawSection *other = g_ptr_array_index (sections, j);

          if (g_str_equal (other->header, header))
            add_with_includes (sections, other, chosen);
        }
    }
}

/* What distrobox did ---------------------------------------------------------- */

/* Every call, in order, each as its argv */
static GPtrArray *
read_calls (void)
{
  g_autoptr(GDir) dir = g_dir_open (sandbox.calls, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort_values (names, (GCompareFunc) g_strcmp0);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (sandbox.calls, g_ptr_array_index (names, i), NULL);
      g_autofree char *contents = NULL;
      g_autoptr(GStrvBuilder) argv = g_strv_builder_new ();
      gsize length;
      g_autoptr(GError) error = NULL;

      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      for (gsize at = 0; at < length; at += strlen (contents + at) + 1)
        g_strv_builder_add (argv, contents + at);
      g_ptr_array_add (calls, g_strv_builder_end (argv));
    }

  return calls;
}

static void
clear_calls (void)
{
  g_autoptr(GDir) dir = g_dir_open (sandbox.calls, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (sandbox.calls, name, NULL);

      g_assert_cmpint (g_unlink (path), ==, 0);
    }
}

/* Normalising ----------------------------------------------------------------- */

static gboolean
takes_value (const char *flag)
{
  static const char * const with_value[] = {
    "--image", "-i", "--name", "-n", "--hostname", "--home", "-H", "--volume", "--additional-packages",
    "-ap", "--init-hooks", "--pre-init-hooks", "--additional-flags", "-a", "--clone", "-c", "--platform",
    NULL,
  };

  return g_strv_contains (with_value, flag);
}

/* Spaces collapsed, none at the ends */
static char *
collapse_spaces (const char *text)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n", -1);
  g_autoptr(GStrvBuilder) kept = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_strv_builder_add (kept, words[i]);
  all = g_strv_builder_end (kept);

  return g_strjoinv (" ", all);
}

/* What distrobox-create's eval does to a volume word: ~ at its start and
 * $HOME are the home */
static char *
eval_volume_word (const char *word)
{
  g_autoptr(GString) out = g_string_new (word);

  if (word[0] == '~' && (word[1] == '\0' || word[1] == '/' || word[1] == ':'))
    g_string_replace (out, "~", sandbox.home, 1);
  g_string_replace (out, "${HOME}", sandbox.home, 0);
  g_string_replace (out, "$HOME", sandbox.home, 0);

  return g_string_free_and_steal (g_steal_pointer (&out));
}

static void
add_option (GPtrArray  *options,
            const char *flag,
            const char *value)
{
  g_autofree char *text = value != NULL ? g_strdup_printf ("%s=%s", flag, value) : g_strdup (flag);

  /* switches are a set: --unshare-all may meet the ones it stands for */
  if (value == NULL && g_ptr_array_find_with_equal_func (options, text, g_str_equal, NULL))
    return;
  g_ptr_array_add (options, g_steal_pointer (&text));
}

/* argv (without the program) as "--flag" and "--flag=value" strings,
 * normalised as the file's comment says, sorted */
static GPtrArray *
normalise (const char * const *argv,
           gboolean            from_kiste)
{
  GPtrArray *options = g_ptr_array_new_with_free_func (g_free);
  gboolean image = FALSE;

  for (guint i = 0; argv[i] != NULL; i++)
    {
      const char *flag = argv[i];
      const char *value = NULL;

      if (takes_value (flag))
        {
          g_assert_nonnull (argv[i + 1]);
          value = argv[++i];
        }

      if (g_str_equal (flag, "--image") || g_str_equal (flag, "--clone"))
        image = TRUE;

      if (g_str_equal (flag, "--unshare-all"))
        {
          static const char * const all[] = {
            "--unshare-devsys", "--unshare-groups", "--unshare-ipc", "--unshare-netns", "--unshare-process",
          };

          for (guint j = 0; j < G_N_ELEMENTS (all); j++)
            add_option (options, all[j], NULL);
        }
      else if (g_str_equal (flag, "--init-hooks") || g_str_equal (flag, "--pre-init-hooks"))
        {
          g_autofree char *hooks = collapse_spaces (value);
          const char *rest = hooks;

          if (!from_kiste && g_str_has_prefix (rest, ": ;"))
            rest += strlen (": ;");
          while (*rest == ' ')
            rest++;
          if (*rest != '\0')
            add_option (options, flag, rest);
        }
      else if (g_str_equal (flag, "--additional-packages"))
        {
          g_autofree char *packages = collapse_spaces (value);

          add_option (options, flag, packages);
        }
      else if (g_str_equal (flag, "--volume") && !from_kiste)
        {
          g_auto(GStrv) words = g_strsplit_set (value, " \t\n", -1);

          for (guint j = 0; words[j] != NULL; j++)
            {
              g_autofree char *word = NULL;

              if (words[j][0] == '\0')
                continue;
              word = eval_volume_word (words[j]);
              add_option (options, flag, word);
            }
        }
      else if (g_str_equal (flag, "--home"))
        {
          g_autofree char *home = g_strdup (value);

          while (strlen (home) > 1 && g_str_has_suffix (home, "/"))
            home[strlen (home) - 1] = '\0';
          add_option (options, flag, home);
        }
      else
        add_option (options, flag, value);
    }

  if (!image)
    add_option (options, "--image", sandbox.default_image);

  g_ptr_array_sort_values (options, (GCompareFunc) g_strcmp0);

  return options;
}

/* What assemble does after the create, as pseudo options */
static void
add_assemble_steps (GPtrArray  *options,
                    GPtrArray  *calls,
                    const char *section)
{
  guint starts = 0;
  gboolean exports = FALSE;

  for (guint i = 0; i < calls->len; i++)
    {
      const char * const *argv = g_ptr_array_index (calls, i);
      guint n = g_strv_length ((char **) argv);

      if (g_str_equal (argv[0], "distrobox") && n == 4 && g_str_equal (argv[1], "rm") &&
          g_str_equal (argv[2], "-f") && g_str_equal (argv[3], section))
        add_option (options, "(replace)", NULL);
      else if (g_str_equal (argv[0], "distrobox") && n == 6 && g_str_equal (argv[1], "enter") &&
               g_str_equal (argv[3], "--") && g_str_equal (argv[4], "touch"))
        starts++;
      else if (g_str_equal (argv[0], "distrobox") && n >= 7 && g_str_equal (argv[1], "enter") &&
               g_str_equal (argv[4], "distrobox-export"))
        {
          exports = TRUE;
          add_option (options, g_str_equal (argv[5], "--app") ? "(export-app)" : "(export-bin)", argv[6]);
        }
    }

  /* one start before the exports, one more for start_now */
  if (starts > (exports ? 1 : 0))
    add_option (options, "(start_now)", NULL);

  g_ptr_array_sort_values (options, (GCompareFunc) g_strcmp0);
}

static void
add_entry_steps (GPtrArray          *options,
                 KisteAssembleEntry *entry)
{
  if (entry->replace)
    add_option (options, "(replace)", NULL);
  if (entry->start_now)
    add_option (options, "(start_now)", NULL);
  for (guint i = 0; entry->exported_apps[i] != NULL; i++)
    add_option (options, "(export-app)", entry->exported_apps[i]);
  for (guint i = 0; entry->exported_bins[i] != NULL; i++)
    add_option (options, "(export-bin)", entry->exported_bins[i]);

  g_ptr_array_sort_values (options, (GCompareFunc) g_strcmp0);
}

/* Kiste's argv without "distrobox create", its --no-entry standing for
 * the launcher it would not add, and what it does after the create */
static GPtrArray *
normalise_kiste (KisteAssembleEntry *entry,
                 const char * const *argv)
{
  g_autoptr(GStrvBuilder) rest = g_strv_builder_new ();
  g_auto(GStrv) options = NULL;
  GPtrArray *normalised;

  for (guint i = 2; argv[i] != NULL; i++)
    if (!g_str_equal (argv[i], "--no-entry"))
      g_strv_builder_add (rest, argv[i]);
  if (!kiste_create_options_get_add_to_menu (entry->options))
    g_strv_builder_add (rest, "--no-entry");
  options = g_strv_builder_end (rest);

  normalised = normalise ((const char * const *) options, TRUE);
  add_entry_steps (normalised, entry);

  return normalised;
}

/* The options in a but not in b (as multisets) */
static GPtrArray *
only_in (GPtrArray *a,
         GPtrArray *b)
{
  g_autoptr(GPtrArray) rest = g_ptr_array_new_with_free_func (g_free);
  GPtrArray *only = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < b->len; i++)
    g_ptr_array_add (rest, g_strdup (g_ptr_array_index (b, i)));
  for (guint i = 0; i < a->len; i++)
    {
      guint at;

      if (g_ptr_array_find_with_equal_func (rest, g_ptr_array_index (a, i), g_str_equal, &at))
        g_ptr_array_remove_index (rest, at);
      else
        g_ptr_array_add (only, g_strdup (g_ptr_array_index (a, i)));
    }

  return only;
}

static char *
dup_option_name (const char *option)
{
  const char *eq = strchr (option, '=');

  return eq != NULL ? g_strndup (option, eq - option) : g_strdup (option);
}

/* Whether a warning names the manifest key of an option ("--pull",
 * "(start_now)") */
static gboolean
warns_about (KisteAssembleEntry *entry,
             const char         *option)
{
  g_autoptr(GString) key = g_string_new (option);
  g_autofree char *quoted = NULL;

  g_string_replace (key, "(", "", 0);
  g_string_replace (key, ")", "", 0);
  while (key->str[0] == '-')
    g_string_erase (key, 0, 1);
  g_string_replace (key, "-", "_", 0);
  quoted = g_strdup_printf ("“%s”", key->str);

  for (guint i = 0; entry->warnings[i] != NULL; i++)
    if (strstr (entry->warnings[i], quoted) != NULL)
      return TRUE;

  return FALSE;
}

static char *
join_options (GPtrArray *options)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < options->len; i++)
    g_string_append_printf (text, "\n    %s", (const char *) g_ptr_array_index (options, i));

  return g_string_free_and_steal (g_steal_pointer (&text));
}

/* One box ----------------------------------------------------------------------- */

/* Fails the fixture's test with the box named, and goes on with the next
 * box */
G_GNUC_PRINTF (3, 4)
static void
fail (const char         *fixture,
      KisteAssembleEntry *entry,
      const char         *format,
      ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_test_fail_printf ("%s [%s]: %s", fixture, entry->section, message);
}

#define FAIL(...) G_STMT_START { fail (__VA_ARGS__); return; } G_STMT_END

/* Why Kiste would not create the entry, or NULL */
static char *
dup_refusal (KisteAssembleEntry *entry)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;

  if (entry->error != NULL)
    return g_strdup (entry->error);
  if (!(argv = kiste_create_options_to_argv (entry->options, sandbox.caps, &error)))
    return g_strdup (error->message);

  return NULL;
}

static void
compare_box (const char         *fixture,
             GPtrArray          *sections,
             KisteAssembleEntry *entry,
             GPtrArray          *expectations)
{
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr(GString) file = g_string_new (NULL);
  g_autofree char *path = NULL;
  g_autofree char *assemble = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GPtrArray) calls = NULL;
  g_autoptr(GPtrArray) dbx = NULL;
  g_autoptr(GPtrArray) kiste = NULL;
  g_autoptr(GPtrArray) dbx_only = NULL;
  g_autoptr(GPtrArray) kiste_only = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  const char * const *create = NULL;
  Expectation *fails;
  gboolean ran;

  for (guint i = 0; i < sections->len; i++)
    {
      RawSection *section = g_ptr_array_index (sections, i);

      if (g_str_equal (section->name, entry->section))
        {
          add_with_includes (sections, section, chosen);
          break;
        }
    }
  g_assert_cmpuint (chosen->len, >, 0);
  for (guint i = 0; i < chosen->len; i++)
    g_string_append (file, ((RawSection *) g_ptr_array_index (chosen, i))->lines->str);

  path = g_build_filename (sandbox.root, "tmp", "box.ini", NULL);
  assemble = g_build_filename (sandbox.root, "bin", "distrobox-assemble", NULL);
  g_file_set_contents (path, file->str, file->len, &error);
  g_assert_no_error (error);

  clear_calls ();
  ran = run_sandboxed ((const char * const []) { assemble, "create", "--file", path, "--name",
                                                 entry->section, NULL }, &out, &err);
  calls = read_calls ();

  for (guint i = 0; i < calls->len; i++)
    {
      const char * const *call = g_ptr_array_index (calls, i);

      /* assemble never needs an engine or a download */
      if (g_strv_contains (never_needed, call[0]))
        FAIL (fixture, entry, "distrobox-assemble ran %s", call[0]);
      if (g_str_equal (call[0], "distrobox-create"))
        {
          if (create != NULL)
            FAIL (fixture, entry, "distrobox-assemble ran distrobox-create twice");
          create = call + 1;
        }
    }

  fails = find_expectation (expectations, "distrobox-fails", entry->section, NULL);
  if (fails != NULL)
    {
      /* Kiste reads it, and says what distrobox would not */
      if (entry->warnings[0] == NULL)
        FAIL (fixture, entry, "distrobox fails here, and Kiste has nothing to say about it");
      if (ran && create != NULL)
        FAIL (fixture, entry, "expected distrobox to fail (%s), but it ran distrobox-create", fails->what);
      fails->met = TRUE;
      g_test_message ("%s [%s]: distrobox fails, as expected: %s", fixture, entry->section, g_strstrip (err));
      return;
    }

  if (!ran || create == NULL)
    FAIL (fixture, entry, "distrobox-assemble made no box (%s): %s", ran ? "no distrobox-create" : "it failed",
          err);

  argv = kiste_create_options_to_argv (entry->options, sandbox.caps, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, "distrobox");
  g_assert_cmpstr (argv[1], ==, "create");

  dbx = normalise (create, FALSE);
  add_assemble_steps (dbx, calls, entry->section);
  kiste = normalise_kiste (entry, (const char * const *) argv);

  dbx_only = only_in (dbx, kiste);
  kiste_only = only_in (kiste, dbx);

  /* each difference, by option, must be one the source expects */
  for (GPtrArray *side = dbx_only; side != NULL; side = side == dbx_only ? kiste_only : NULL)
    {
      for (guint i = 0; i < side->len; i++)
        {
          g_autofree char *name = dup_option_name (g_ptr_array_index (side, i));
          Expectation *expected = find_expectation (expectations, "differs", entry->section, name);

          if (expected == NULL)
            {
              g_autofree char *a = join_options (dbx_only);
              g_autofree char *b = join_options (kiste_only);

              FAIL (fixture, entry, "Kiste's reading differs from distrobox's.\n  distrobox only:%s\n"
                    "  Kiste only:%s", a, b);
            }
          expected->met = TRUE;
          if (!warns_about (entry, name))
            FAIL (fixture, entry, "Kiste reads %s otherwise than distrobox, and does not say so", name);
        }
    }

  for (guint i = 0; i < expectations->len; i++)
    {
      Expectation *expected = g_ptr_array_index (expectations, i);

      if (g_str_equal (expected->kind, "differs") && g_str_equal (expected->section, entry->section) &&
          !expected->met)
        FAIL (fixture, entry, "%s was expected to differ, but does not", expected->what);
    }

  g_test_message ("%s [%s]: %u options alike", fixture, entry->section, kiste->len - kiste_only->len);
}

static void
test_manifest (gconstpointer data)
{
  const char *path = data;
  g_autofree char *fixture = g_path_get_basename (path);
  g_autoptr(GPtrArray) expectations = read_source (path);
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) sections = NULL;
  g_autoptr(GError) error = NULL;

  if (sandbox.missing != NULL)
    {
      if (g_strcmp0 (g_getenv ("KISTE_E2E_REQUIRED"), "1") == 0)
        g_error ("%s (KISTE_E2E_REQUIRED=1)", sandbox.missing);
      g_test_skip (sandbox.missing);
      return;
    }

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  entries = _kiste_assemble_parse_full (contents, length,
                                        kiste_capabilities_get_distrobox_major (sandbox.caps),
                                        kiste_capabilities_get_distrobox_version (sandbox.caps),
                                        sandbox.home, sandbox.user, &error);
  g_assert_no_error (error);
  sections = split_sections (contents);

  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *refusal = dup_refusal (entry);
      Expectation *refused = find_expectation (expectations, "refused", entry->section, NULL);

      if (refusal != NULL)
        {
          /* never handed to distrobox: its values may run commands */
          if (refused == NULL)
            fail (fixture, entry, "Kiste refuses it: %s", refusal);
          else if (strstr (refusal, refused->what) == NULL)
            fail (fixture, entry, "Kiste refuses it for another reason: %s (expected “%s”)", refusal,
                  refused->what);
          else
            refused->met = TRUE;
          continue;
        }
      if (refused != NULL)
        {
          fail (fixture, entry, "expected a refusal (%s), but Kiste would create it", refused->what);
          refused->met = TRUE;
        }

      compare_box (fixture, sections, entry, expectations);
    }

  for (guint i = 0; i < expectations->len; i++)
    {
      Expectation *expected = g_ptr_array_index (expectations, i);

      if (!expected->met && !g_test_failed ())
        g_test_fail_printf ("%s: the expectation “%s: %s: %s” no longer holds", fixture, expected->kind,
                            expected->section, expected->what);
    }
}

/* The corpus itself: each manifest with its source, 10 to 20 of them */
static GPtrArray *
list_manifests (void)
{
  g_autofree char *dir_path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "manifests", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".ini"))
      g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_ptr_array_sort_values (paths, (GCompareFunc) g_strcmp0);

  g_assert_cmpuint (paths->len, >=, 10);
  g_assert_cmpuint (paths->len, <=, 20);

  return paths;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) manifests = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);

  sandbox_init ();
  manifests = list_manifests ();
  for (guint i = 0; i < manifests->len; i++)
    {
      const char *path = g_ptr_array_index (manifests, i);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *test_path = g_strdup_printf ("/assemble-corpus/%.*s", (int) (strlen (base) - 4), base);

      g_test_add_data_func (test_path, path, test_manifest);
    }

  status = g_test_run ();
  sandbox_clear ();

  return status;
}
