/* test-toolbox-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The direct exec of a toolbox against what the real toolbox ran: every
 * podman call of `toolbox run` and `toolbox enter`, recorded for a box in
 * the home, in /tmp and in a folder the box lacks
 * (tests/e2e/capture-toolbox-fixtures), with the environment it ran in. */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "kiste-box.h"
#include "kiste-enter.h"
#include "kiste-toolbox-enter.h"

static char *
fixture_path (const char *name)
{
  return g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
}

static char *
read_fixture (const char *name)
{
  g_autofree char *path = fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  return contents;
}

/* The toolbox of the capture, as the list knows it */
static KisteBox *
captured_box (const char *name)
{
  g_autofree char *text = read_fixture ("ps-toolbox.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *array;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      JsonArray *names = json_object_get_array_member (object, "Names");
      KisteBox *box;

      if (g_strcmp0 (json_array_get_string_element (names, 0), name) != 0)
        continue;
      box = kiste_box_new_from_ps_json (object, "/home/kistetbx", &error);
      g_assert_no_error (error);
      return box;
    }
  g_assert_not_reached ();
}

/* The environment of the capture, and toolbox's own path as toolbox sets
 * it for itself */
static char **
captured_environ (const char *shell)
{
  g_autofree char *text = read_fixture ("toolbox-env.txt");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  char **environ = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *equals = strchr (lines[i], '=');

      if (equals == NULL)
        continue;
      *equals = '\0';
      environ = g_environ_setenv (environ, lines[i], equals + 1, TRUE);
    }
  environ = g_environ_setenv (environ, "TOOLBOX_PATH", "/usr/bin/toolbox", TRUE);
  if (shell != NULL)
    environ = g_environ_setenv (environ, "SHELL", shell, TRUE);
  return environ;
}

typedef struct
{
  char  *header;
  char **exec;      /* the last exec of a command in the box */
} Section;

static void
section_clear (Section *section)
{
  g_free (section->header);
  g_strfreev (section->exec);
}

/* Each "# …" command of the recorded calls with the exec it ended with */
static GArray *
read_sections (void)
{
  g_autofree char *text = read_fixture ("toolbox-podman-calls.txt");
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GArray *sections = g_array_new (FALSE, TRUE, sizeof (Section));

  g_array_set_clear_func (sections, (GDestroyNotify) section_clear);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = NULL;
      g_autoptr(GStrvBuilder) builder = NULL;
      JsonArray *array;

      if (g_str_has_prefix (lines[i], "# ") && !g_str_has_prefix (lines[i], "# exit status"))
        {
          Section section = { g_strdup (lines[i] + 2), NULL };

          g_array_append_val (sections, section);
          continue;
        }
      if (lines[i][0] != '[' || sections->len == 0 || strstr (lines[i], "\"capsh\"") == NULL)
        continue;

      parser = json_parser_new ();
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      array = json_node_get_array (json_parser_get_root (parser));
      builder = g_strv_builder_new ();
      /* toolbox runs podman by name */
      g_strv_builder_add (builder, "podman");
      for (guint j = 0; j < json_array_get_length (array); j++)
        g_strv_builder_add (builder, json_array_get_string_element (array, j));
      g_strfreev (g_array_index (sections, Section, sections->len - 1).exec);
      g_array_index (sections, Section, sections->len - 1).exec = g_strv_builder_end (builder);
    }
  return sections;
}

static char *
section_folder (const char *header)
{
  const char *start = header + strlen ("cd ");
  const char *end = strstr (header, " && ");

  g_assert_true (g_str_has_prefix (header, "cd "));
  g_assert_nonnull (end);
  return g_strndup (start, end - start);
}

static void
assert_same_argv (const char * const *expected,
                  const char * const *actual,
                  const char         *what)
{
  g_autofree char *expected_text = g_strjoinv ("\x1f", (char **) expected);
  g_autofree char *actual_text = g_strjoinv ("\x1f", (char **) actual);

  if (g_strcmp0 (expected_text, actual_text) != 0)
    g_error ("%s:\n  toolbox: %s\n  Kiste:   %s", what, expected_text, actual_text);
}

static void
test_equal_to_toolbox (void)
{
  g_autoptr(KisteBox) box = captured_box ("kiste-fixture-tbx");
  g_autoptr(GArray) sections = read_sections ();
  guint compared_run = 0, compared_enter = 0;

  g_assert_cmpint (kiste_box_get_tool (box), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_cmpstr (kiste_box_get_user (box), ==, "kistetbx");
  g_assert_cmpstr (kiste_box_get_home (box), ==, "/home/kistetbx");

  for (guint i = 0; i < sections->len; i++)
    {
      Section *section = &g_array_index (sections, Section, i);
      const char * const true_command[] = { "true", NULL };
      gboolean enter = strstr (section->header, " enter ") != NULL;
      g_autofree char *folder = NULL;
      g_autofree char *workdir = NULL;
      g_auto(GStrv) environ = NULL;
      g_auto(GStrv) argv = NULL;

      if (section->exec == NULL)
        continue;
      folder = section_folder (section->header);
      environ = captured_environ (strstr (section->header, "SHELL=/usr/bin/zsh") ? "/usr/bin/zsh" : NULL);

      /* a shell the box may lack: Toolbx asks the box, Kiste leaves that to it */
      if (strstr (section->header, "SHELL=/usr/bin/zsh"))
        {
          g_assert_nonnull (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));
          continue;
        }
      g_assert_null (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));

      workdir = kiste_toolbox_dup_workdir (box, folder);
      argv = kiste_toolbox_direct_argv (box, "podman", (const char * const *) environ, workdir,
                                        enter ? NULL : true_command, enter);
      assert_same_argv ((const char * const *) section->exec, (const char * const *) argv, section->header);
      if (enter)
        compared_enter++;
      else
        compared_run++;
    }

  /* the home, /tmp and a folder the box lacks, for each */
  g_assert_cmpuint (compared_run, ==, 3);
  g_assert_cmpuint (compared_enter, ==, 3);
}

/* A tab's id goes along, after Toolbx's own variables */
static void
test_terminal_id (void)
{
  g_autoptr(KisteBox) box = captured_box ("kiste-fixture-tbx");
  g_auto(GStrv) environ = captured_environ (NULL);
  g_autofree char *id = kiste_enter_new_terminal_id ();
  g_autofree char *expected = NULL;
  g_auto(GStrv) argv = NULL;
  guint interactive = 0;

  environ = g_environ_setenv (environ, KISTE_TERMINAL_ID_VARIABLE, id, TRUE);
  argv = kiste_toolbox_direct_argv (box, "podman", (const char * const *) environ, "/home/kistetbx", NULL, TRUE);
  expected = g_strdup_printf ("--env=%s=%s", KISTE_TERMINAL_ID_VARIABLE, id);
  for (guint i = 0; argv[i] != NULL; i++)
    if (g_str_equal (argv[i], "--interactive"))
      interactive = i;
  g_assert_cmpstr (argv[interactive - 1], ==, expected);

  /* not an id of Kiste's: not passed */
  environ = g_environ_setenv (environ, KISTE_TERMINAL_ID_VARIABLE, "x;y", TRUE);
  g_strfreev (argv);
  argv = kiste_toolbox_direct_argv (box, "podman", (const char * const *) environ, "/home/kistetbx", NULL, TRUE);
  for (guint i = 0; argv[i] != NULL; i++)
    g_assert_false (g_str_has_prefix (argv[i], "--env=" KISTE_TERMINAL_ID_VARIABLE));
}

/* What the direct exec does not take on */
static void
test_check (void)
{
  g_autoptr(KisteBox) box = captured_box ("kiste-fixture-tbx");
  g_autoptr(KisteBox) distrobox = captured_box ("kiste-fixture-dbx");
  g_auto(GStrv) environ = captured_environ (NULL);

  g_assert_null (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));
  g_assert_nonnull (kiste_toolbox_check_direct (distrobox, "podman", (const char * const *) environ));
  g_assert_nonnull (kiste_toolbox_check_direct (box, "docker", (const char * const *) environ));

  kiste_box_set_state (box, KISTE_BOX_STATE_STOPPED);
  g_assert_nonnull (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));
  kiste_box_set_state (box, KISTE_BOX_STATE_RUNNING);

  environ = g_environ_unsetenv (environ, "SHELL");
  g_assert_nonnull (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));
  environ = g_environ_setenv (environ, "SHELL", "/bin/bash", TRUE);
  environ = g_environ_setenv (environ, "LANG", "C\nX=1", TRUE);
  g_assert_nonnull (kiste_toolbox_check_direct (box, "podman", (const char * const *) environ));
}

/* Where the shell starts: Toolbx keeps a folder the box has */
static void
test_workdir (void)
{
  g_autoptr(KisteBox) box = captured_box ("kiste-fixture-tbx");
  static const struct {
    const char *cwd;
    const char *workdir;
  } cases[] = {
    { NULL, "/home/kistetbx" },
    { "/home/kistetbx", "/home/kistetbx" },
    { "/home/kistetbx/src/kiste", "/home/kistetbx/src/kiste" },
    { "/home/kistetbxx", "/home/kistetbx" },
    { "/tmp", "/tmp" },
    /* the box's /tmp is its own */
    { "/tmp/build", "/home/kistetbx" },
    { "/run/media/kistetbx/usb", "/run/media/kistetbx/usb" },
    { "/mnt/data", "/mnt/data" },
    { "/var/tmp/elsewhere", "/home/kistetbx" },
    { "relative", "/home/kistetbx" },
    { "/home/kistetbx/../other", "/home/kistetbx" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *workdir = kiste_toolbox_dup_workdir (box, cases[i].cwd);

      if (g_strcmp0 (workdir, cases[i].workdir) != 0)
        g_error ("%s: %s, expected %s", cases[i].cwd, workdir, cases[i].workdir);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kiste/toolbox-enter/equal-to-toolbox", test_equal_to_toolbox);
  g_test_add_func ("/kiste/toolbox-enter/terminal-id", test_terminal_id);
  g_test_add_func ("/kiste/toolbox-enter/check", test_check);
  g_test_add_func ("/kiste/toolbox-enter/workdir", test_workdir);

  return g_test_run ();
}
