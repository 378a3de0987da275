/* test-capabilities.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-capabilities-private.h"
#include "kiste-capabilities.h"
#include "kiste-error.h"
#include "kiste-runner-private.h"

/* The released 1.8.2.5 `distrobox create --help`, captured */
static const char * const flags_1_8_2_5[] = {
  "--absolutely-disable-root-password-i-am-really-positively-sure",
  "--additional-flags",
  "--additional-packages",
  "--clone",
  "--compatibility",
  "--dry-run",
  "--help",
  "--home",
  "--hostname",
  "--image",
  "--init",
  "--init-hooks",
  "--name",
  "--no-entry",
  "--nvidia",
  "--platform",
  "--pre-init-hooks",
  "--pull",
  "--root",
  "--unshare-all",
  "--unshare-devsys",
  "--unshare-groups",
  "--unshare-ipc",
  "--unshare-netns",
  "--unshare-process",
  "--verbose",
  "--version",
  "--volume",
  "--yes",
  NULL
};

static char *
fixture_path (const char *name)
{
  const char *dir = g_getenv ("KISTE_TEST_FIXTURES");

  g_assert_nonnull (dir);

  return g_build_filename (dir, name, NULL);
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

/* Parsers ---------------------------------------------------------------- */

static void
test_parse_version (void)
{
  static const struct
  {
    const char *output;
    const char *program;
    const char *expected;
  } cases[] = {
    { "distrobox: 1.8.2.5\n", "distrobox", "1.8.2.5" },
    { "distrobox version 2.0.0-rc.4\n", "distrobox", "2.0.0-rc.4" },
    { "distrobox version 2.0.0\n", "distrobox", "2.0.0" },
    { "distrobox: 1.4.2.1", "distrobox", "1.4.2.1" },
    { "podman version 5.4.2\n", "podman", "5.4.2" },
    { "Docker version 28.2.2, build e6534b4\n", "docker", "28.2.2" },
    /* a sourced ~/.distroboxrc printed something version-like first */
    { "loading rc v3.1 for tools\ndistrobox: 1.8.2.5\n", "distrobox", "1.8.2.5" },
    { "loading rc v3.1 for tools\ndistrobox: 1.8.2.5\n", NULL, "3.1" },
    { "xhost: not found\n  distrobox: 1.7.0\n", "distrobox", "1.7.0" },
    /* no line starts with the program: any version will do */
    { "version 1.2.3\n", "distrobox", "1.2.3" },
    { "distrobox: unknown\n", "distrobox", NULL },
    { "distrobox 7\n", "distrobox", NULL },
    { "", "distrobox", NULL },
    { NULL, "distrobox", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *version = kiste_capabilities_parse_version (cases[i].output,
                                                                   cases[i].program);

      g_assert_cmpstr (version, ==, cases[i].expected);
    }
}

static void
test_parse_version_fixtures (void)
{
  static const struct
  {
    const char *file;
    const char *program;
    const char *expected;
    guint       major;
  } cases[] = {
    { "version-distrobox-1.8.2.5.txt", "distrobox", "1.8.2.5", 1 },
    { "version-distrobox-1.6.0.txt", "distrobox", "1.6.0", 1 },
    { "version-distrobox-2.0.0-rc.4.txt", "distrobox", "2.0.0-rc.4", 2 },
    { "version-podman-5.4.2.txt", "podman", "5.4.2", 5 },
    { "version-docker-28.2.2.txt", "docker", "28.2.2", 28 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *output = read_fixture (cases[i].file);
      g_autofree char *version = kiste_capabilities_parse_version (output, cases[i].program);

      g_assert_cmpstr (version, ==, cases[i].expected);
      g_assert_cmpuint (kiste_capabilities_parse_major (version), ==, cases[i].major);
    }
}

static void
test_parse_major (void)
{
  g_assert_cmpuint (kiste_capabilities_parse_major ("1.8.2.5"), ==, 1);
  g_assert_cmpuint (kiste_capabilities_parse_major ("2.0.0-rc.4"), ==, 2);
  g_assert_cmpuint (kiste_capabilities_parse_major ("10.1"), ==, 10);
  g_assert_cmpuint (kiste_capabilities_parse_major ("v2"), ==, 0);
  g_assert_cmpuint (kiste_capabilities_parse_major (""), ==, 0);
  g_assert_cmpuint (kiste_capabilities_parse_major (NULL), ==, 0);
}

static void
test_compare_versions (void)
{
  static const struct
  {
    const char *a;
    const char *b;
    int         sign;
  } cases[] = {
    { "1.8.2.5", "1.8.2.5", 0 },
    { "1.8.2.5", "1.8.1", 1 },
    { "1.8.1", "1.8.2.5", -1 },
    { "1.6.0", "1.7.0", -1 },
    { "1.7.0", "1.7", 0 },
    { "1.10.0", "1.9.9", 1 },
    { "1.5.0.2", "1.6.0", -1 },
    { "2.0.0-rc.4", "2.0.0", -1 },
    { "2.0.0", "2.0.0-rc.4", 1 },
    { "2.0.0-rc.1", "2.0.0-rc.4", -1 },
    { "2.0.0-rc.4", "1.8.2.5", 1 },
    { "1.8.1", "1.8.1.0", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int result = kiste_capabilities_compare_versions (cases[i].a, cases[i].b);
      int sign = result < 0 ? -1 : result > 0 ? 1 : 0;

      if (sign != cases[i].sign)
        g_error ("compare (%s, %s) = %d, expected sign %d", cases[i].a, cases[i].b, result,
                 cases[i].sign);
    }
}

static void
test_parse_help_1_8_2_5 (void)
{
  g_autofree char *help = read_fixture ("help-distrobox-1.8.2.5.txt");
  g_auto(GStrv) flags = kiste_capabilities_parse_create_help (help);

  if (!g_strv_equal ((const char * const *)flags, flags_1_8_2_5))
    {
      g_autofree char *got = g_strjoinv (" ", flags);

      g_error ("unexpected flags: %s", got);
    }
}

static void
test_parse_help_variants (void)
{
  static const struct
  {
    const char *file;
    const char *present[6];
    const char *absent[4];
  } cases[] = {
    { "help-distrobox-1.8.2.5-unshare-home.txt",
      { "--unshare-home", "--unshare-groups", "--platform", "--unshare-all", NULL },
      { "--compatibility/-C", NULL } },
    { "help-distrobox-1.6.0.txt",
      { "--unshare-ipc", "--unshare-all", "--no-entry", "--init", NULL },
      { "--unshare-groups", "--platform", "--unshare-home", NULL } },
    { "help-distrobox-2.0.0-rc.4.txt",
      { "--additional-packages", "--unshare-groups", "--platform", "--clone", "--help", NULL },
      { "--unshare-home", "--ap", "--env", NULL } },
    { "help-distrobox-1.8.2.5.txt",
      { "--no-entry", "--clone", "--init-hooks", "--pre-init-hooks", "--hostname", NULL },
      /* only mentioned inside sentences or examples */
      { "--unshare-home", "--env", "--pids-limit", "--enable", } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *help = read_fixture (cases[i].file);
      g_auto(GStrv) flags = kiste_capabilities_parse_create_help (help);

      for (guint j = 0; cases[i].present[j] != NULL; j++)
        if (!g_strv_contains ((const char * const *)flags, cases[i].present[j]))
          g_error ("%s: %s missing", cases[i].file, cases[i].present[j]);

      for (guint j = 0; j < G_N_ELEMENTS (cases[i].absent) && cases[i].absent[j] != NULL; j++)
        if (g_strv_contains ((const char * const *)flags, cases[i].absent[j]))
          g_error ("%s: %s should not be there", cases[i].file, cases[i].absent[j]);
    }
}

static void
test_parse_help_shapes (void)
{
  const char *help =
    "Usage: distrobox create --image x --name y\n"
    "   -i, --image string    image to use\n"
    "\t--name/-n:\t\tname\n"
    "--pull\n"
    "  --volume value [ --volume value ]  volumes\n"
    "  --volume:    duplicate\n"
    "  text mentioning --not-a-flag in a sentence\n"
    "  -- \n"
    "  ---weird\n"
    "  -x  no long form\n"
    "  --UPPER-case2  kept as written\n";
  const char * const expected[] = { "--UPPER-case2", "--image", "--name", "--pull", "--volume", NULL };
  g_auto(GStrv) flags = kiste_capabilities_parse_create_help (help);
  g_auto(GStrv) none = kiste_capabilities_parse_create_help (NULL);

  if (!g_strv_equal ((const char * const *)flags, expected))
    {
      g_autofree char *got = g_strjoinv (" ", flags);

      g_error ("unexpected flags: %s", got);
    }

  g_assert_nonnull (none);
  g_assert_null (none[0]);
}

static void
test_parse_config_manager (void)
{
  static const struct
  {
    const char *contents;
    const char *expected;
  } cases[] = {
    { "container_manager=\"docker\"\n", "docker" },
    { "container_manager=podman", "podman" },
    { "container_manager='docker'\n", "docker" },
    { "  export container_manager=\"docker\"  # the daemon one\n", "docker" },
    { "container_manager=\"docker\";\n", "docker" },
    /* v2 reads INI */
    { "container_manager = \"docker\"\n", "docker" },
    { "container_manager=podman-launcher\n", "podman-launcher" },
    { "container_manager=\"autodetect\"\n", "autodetect" },
    /* later assignments win */
    { "container_manager=docker\ncontainer_manager=podman\n", "podman" },
    { "container_manager=docker\r\n", "docker" },
    /* never evaluated: anything computed is ignored */
    { "container_manager=\"$(echo docker)\"\n", NULL },
    { "container_manager=`echo docker`\n", NULL },
    { "container_manager=${MGR:-docker}\n", NULL },
    { "container_manager=\"$MGR\"\n", NULL },
    { "container_manager=\"docker\" && rm -rf ~\n", NULL },
    { "container_manager=docker$(id)\n", NULL },
    { "container_manager=\"docker\n", NULL },
    { "container_manager=\"\"\n", NULL },
    { "# container_manager=\"docker\"\n", NULL },
    { "container_manager_additional_flags=\"--env X=1\"\n", NULL },
    { "my_container_manager=docker\n", NULL },
    { "container_image_default=\"alpine\"\n", NULL },
    { "container_manager=docker\ncontainer_manager=$(id)\n", "docker" },
    { "", NULL },
    { NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *manager = kiste_capabilities_parse_config_manager (cases[i].contents);

      if (g_strcmp0 (manager, cases[i].expected) != 0)
        g_error ("config “%s”: got %s, expected %s", cases[i].contents, manager,
                 cases[i].expected);
    }
}

static void
test_default_config_files (void)
{
  g_auto(GStrv) files = NULL;
  g_auto(GStrv) with_path = NULL;
  g_autofree char *saved_home = g_strdup (g_getenv ("HOME"));
  g_autofree char *saved_config_home = g_strdup (g_getenv ("XDG_CONFIG_HOME"));
  const char *home = "/nonexistent/home/u";
  g_autofree char *xdg_file = NULL;
  g_autofree char *rc_file = NULL;
  guint n;

  /* distrobox reads $HOME and $XDG_CONFIG_HOME itself */
  g_setenv ("HOME", home, TRUE);

  g_setenv ("XDG_CONFIG_HOME", "/nonexistent/config-home", TRUE);
  files = kiste_capabilities_dup_default_config_files (NULL);
  n = g_strv_length (files);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpstr (files[0], ==, "/usr/share/distrobox/distrobox.conf");
  g_assert_cmpstr (files[1], ==, "/usr/share/defaults/distrobox/distrobox.conf");
  g_assert_cmpstr (files[4], ==, "/etc/distrobox/distrobox.conf");
  /* the user's files come last, so they win */
  g_assert_cmpstr (files[5], ==, "/nonexistent/config-home/distrobox/distrobox.conf");
  rc_file = g_build_filename (home, ".distroboxrc", NULL);
  g_assert_cmpstr (files[6], ==, rc_file);

  /* without XDG_CONFIG_HOME: ~/.config */
  g_unsetenv ("XDG_CONFIG_HOME");
  g_strfreev (files);
  files = kiste_capabilities_dup_default_config_files (NULL);
  xdg_file = g_build_filename (home, ".config", "distrobox", "distrobox.conf", NULL);
  g_assert_cmpstr (files[5], ==, xdg_file);

  /* the Nix location comes first, beside the scripts */
  with_path = kiste_capabilities_dup_default_config_files ("/opt/dbx/bin/distrobox");
  g_assert_cmpuint (g_strv_length (with_path), ==, 8);
  g_assert_cmpstr (with_path[0], ==, "/opt/dbx/bin/../share/distrobox/distrobox.conf");
  g_assert_cmpstr (with_path[1], ==, "/usr/share/distrobox/distrobox.conf");

  if (saved_home != NULL)
    g_setenv ("HOME", saved_home, TRUE);
  if (saved_config_home != NULL)
    g_setenv ("XDG_CONFIG_HOME", saved_config_home, TRUE);
}

/* Probing through fakes -------------------------------------------------- */

typedef struct
{
  char              *dir;
  char              *saved_path;
  KisteRunner       *runner;
  KisteCapabilities *caps;
} Fixture;

static void
link_into (Fixture    *fixture,
           const char *target,
           const char *name)
{
  g_autofree char *link = g_build_filename (fixture->dir, name, NULL);

  if (symlink (target, link) != 0)
    g_error ("symlink %s: %s", link, g_strerror (errno));
}

static void
add_fake (Fixture    *fixture,
          const char *fake,
          const char *name)
{
  g_autofree char *target = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), fake, NULL);

  g_assert_true (g_file_test (target, G_FILE_TEST_IS_EXECUTABLE));
  link_into (fixture, target, name);
}

static void
add_output (Fixture    *fixture,
            const char *fixture_file,
            const char *name)
{
  g_autofree char *target = fixture_path (fixture_file);

  g_assert_true (g_file_test (target, G_FILE_TEST_IS_REGULAR));
  link_into (fixture, target, name);
}

/* distrobox_version NULL: no distrobox at all */
static void
add_distrobox (Fixture    *fixture,
               const char *distrobox_version,
               const char *help_variant)
{
  g_autofree char *version_file = NULL;
  g_autofree char *help_file = NULL;

  add_fake (fixture, "caps-distrobox", "distrobox");
  version_file = g_strdup_printf ("version-distrobox-%s.txt", distrobox_version);
  add_output (fixture, version_file, "distrobox-version.txt");
  help_file = g_strdup_printf ("help-distrobox-%s.txt", help_variant ? help_variant : distrobox_version);
  add_output (fixture, help_file, "distrobox-create-help.txt");
}

static void
add_manager (Fixture    *fixture,
             const char *name,
             const char *version_file)
{
  g_autofree char *output = g_strdup_printf ("%s-version.txt", name);

  add_fake (fixture, "caps-manager", name);
  add_output (fixture, version_file, output);
}

static void
write_config (Fixture    *fixture,
              const char *name,
              const char *contents)
{
  g_autofree char *path = g_build_filename (fixture->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
use_configs (Fixture    *fixture,
             const char *first,
             const char *second)
{
  g_autofree char *a = g_build_filename (fixture->dir, first, NULL);
  g_autofree char *b = g_build_filename (fixture->dir, second, NULL);
  const char * const files[] = { a, "/nonexistent/distrobox.conf", b, NULL };

  _kiste_capabilities_set_config_files (fixture->caps, files);
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("kiste-caps-XXXXXX", &error);
  g_assert_no_error (error);

  /* only the fakes can be found */
  fixture->saved_path = g_strdup (g_getenv ("PATH"));
  g_setenv ("PATH", fixture->dir, TRUE);
  g_unsetenv ("DBX_CONTAINER_MANAGER");

  fixture->runner = kiste_runner_new ();
  kiste_runner_set_in_flatpak (fixture->runner, FALSE);
  kiste_runner_set_cwd (fixture->runner, fixture->dir);
  fixture->caps = kiste_capabilities_new (fixture->runner);

  /* no config file unless a test writes one */
  use_configs (fixture, "a.conf", "b.conf");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_clear_object (&fixture->caps);
  g_clear_object (&fixture->runner);

  if (fixture->saved_path != NULL)
    g_setenv ("PATH", fixture->saved_path, TRUE);
  g_clear_pointer (&fixture->saved_path, g_free);
  g_unsetenv ("DBX_CONTAINER_MANAGER");

  dir = g_dir_open (fixture->dir, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (fixture->dir);
  g_clear_pointer (&fixture->dir, g_free);
}

static void
store_result (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static gboolean
refresh_sync (KisteCapabilities  *caps,
              GCancellable       *cancellable,
              GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_capabilities_refresh_async (caps, cancellable, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  return kiste_capabilities_refresh_finish (caps, result, error);
}

static void
test_refresh_released (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");
  add_manager (fixture, "docker", "version-docker-28.2.2.txt");

  g_assert_false (kiste_capabilities_get_loaded (fixture->caps));
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--image"));

  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (kiste_capabilities_get_loaded (fixture->caps));
  g_assert_true (kiste_capabilities_has_distrobox (fixture->caps));
  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (fixture->caps), ==, "1.8.2.5");
  g_assert_cmpuint (kiste_capabilities_get_distrobox_major (fixture->caps), ==, 1);
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "podman");
  g_assert_null (kiste_capabilities_get_manager_source (fixture->caps));
  g_assert_cmpstr (kiste_capabilities_get_manager_version (fixture->caps), ==, "5.4.2");
  g_assert_true (kiste_capabilities_has_manager (fixture->caps, "podman"));
  g_assert_true (kiste_capabilities_has_manager (fixture->caps, "docker"));
  g_assert_false (kiste_capabilities_has_manager (fixture->caps, "lilipod"));
  g_assert_null (kiste_capabilities_get_distrobox_problem (fixture->caps));
  g_assert_null (kiste_capabilities_get_manager_problem (fixture->caps));

  g_assert_true (g_strv_equal (kiste_capabilities_get_create_flags (fixture->caps), flags_1_8_2_5));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-groups"));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--platform"));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--no-entry"));
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-home"));

  g_assert_null (kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-groups", "1.7.0"));
  /* no flag, but a dry run Kiste can read: the table of create flags makes
   * that home isolation (test-create-flags.c) */
  g_assert_true (kiste_capabilities_can_read_dry_run (fixture->caps));
  g_assert_null (kiste_capabilities_dup_dry_run_problem (fixture->caps));
  reason = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-home", NULL);
  g_assert_cmpstr (reason, ==, "Not available in distrobox 1.8.2.5");
}

static void
test_refresh_patched (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  add_distrobox (fixture, "1.8.2.5", "1.8.2.5-unshare-home");
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);

  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-home"));
  g_assert_null (kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-home", NULL));
  g_assert_true (kiste_capabilities_can_read_dry_run (fixture->caps));
  g_assert_false (kiste_capabilities_has_manager (fixture->caps, "docker"));
}

static void
test_refresh_old (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *groups = NULL;
  g_autofree char *platform = NULL;
  g_autofree char *home = NULL;
  g_autofree char *clean_path = NULL;

  add_distrobox (fixture, "1.6.0", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (fixture->caps), ==, "1.6.0");
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-ipc"));
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-groups"));
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--platform"));

  groups = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-groups", "1.7.0");
  platform = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--platform", "1.8.1");
  home = kiste_capabilities_dup_dry_run_problem (fixture->caps);
  clean_path = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--clean-path", "1.7.1");
  g_assert_cmpstr (groups, ==, "Needs distrobox 1.7.0 or newer");
  g_assert_cmpstr (platform, ==, "Needs distrobox 1.8.1 or newer");
  g_assert_cmpstr (clean_path, ==, "Needs distrobox 1.7.1 or newer");
  /* the dry run of older versions is not known */
  g_assert_cmpstr (home, ==, "Needs distrobox 1.8.0 or newer");
  g_assert_false (kiste_capabilities_can_read_dry_run (fixture->caps));
  /* a flag this release has, whenever it came */
  g_assert_null (kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-ipc", "1.6.0"));
}

static void
test_refresh_v2 (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;

  add_distrobox (fixture, "2.0.0-rc.4", NULL);
  add_manager (fixture, "docker", "version-docker-28.2.2.txt");

  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (fixture->caps), ==, "2.0.0-rc.4");
  g_assert_cmpuint (kiste_capabilities_get_distrobox_major (fixture->caps), ==, 2);
  /* only docker installed */
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "docker");
  g_assert_cmpstr (kiste_capabilities_get_manager_version (fixture->caps), ==, "28.2.2");
  g_assert_false (kiste_capabilities_has_manager (fixture->caps, "podman"));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-groups"));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--additional-packages"));
  home = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-home", NULL);
  g_assert_cmpstr (home, ==, "Not available in distrobox 2.0.0-rc.4");
  /* distrobox 2's version says it all */
  g_assert_false (kiste_capabilities_can_read_dry_run (fixture->caps));
  g_assert_null (kiste_capabilities_dup_dry_run_problem (fixture->caps));
}

static void
test_refresh_no_distrobox (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;

  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "distrobox is not installed"));

  /* results are stored anyway */
  g_assert_true (kiste_capabilities_get_loaded (fixture->caps));
  g_assert_false (kiste_capabilities_has_distrobox (fixture->caps));
  g_assert_null (kiste_capabilities_get_distrobox_version (fixture->caps));
  g_assert_cmpuint (kiste_capabilities_get_distrobox_major (fixture->caps), ==, 0);
  g_assert_cmpstr (kiste_capabilities_get_distrobox_problem (fixture->caps), ==, error->message);
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "podman");
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--image"));
  reason = kiste_capabilities_dup_unsupported_reason (fixture->caps, "--unshare-groups", "1.7.0");
  g_assert_cmpstr (reason, ==, "distrobox is not installed");
}

static void
test_refresh_no_manager (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  add_distrobox (fixture, "1.8.2.5", NULL);

  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "podman"));
  g_assert_nonnull (strstr (error->message, "docker"));

  g_assert_true (kiste_capabilities_get_loaded (fixture->caps));
  g_assert_true (kiste_capabilities_has_distrobox (fixture->caps));
  g_assert_null (kiste_capabilities_get_manager (fixture->caps));
  g_assert_null (kiste_capabilities_get_manager_version (fixture->caps));
  g_assert_false (kiste_capabilities_has_manager (fixture->caps, "podman"));
  g_assert_false (kiste_capabilities_has_manager (fixture->caps, "docker"));
  g_assert_cmpstr (kiste_capabilities_get_manager_problem (fixture->caps), ==, error->message);
  /* distrobox itself is fine */
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--unshare-groups"));
}

static void
test_refresh_bad_version (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *version_file = g_build_filename (fixture->dir, "distrobox-version.txt", NULL);
  g_autofree char *help_file = g_build_filename (fixture->dir, "distrobox-create-help.txt", NULL);

  add_fake (fixture, "caps-distrobox", "distrobox");
  add_output (fixture, "help-distrobox-1.8.2.5.txt", "distrobox-create-help.txt");
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  /* a version nobody can read: there, but unusable */
  write_config (fixture, "distrobox-version.txt", "distrobox: unknown\n");
  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_assert_nonnull (strstr (error->message, "distrobox: unknown"));
  g_assert_true (kiste_capabilities_has_distrobox (fixture->caps));
  g_assert_null (kiste_capabilities_get_distrobox_version (fixture->caps));
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--image"));
  g_clear_error (&error);

  /* --version fails */
  g_assert_cmpint (g_unlink (version_file), ==, 0);
  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_true (kiste_capabilities_has_distrobox (fixture->caps));
  g_assert_null (kiste_capabilities_get_distrobox_version (fixture->caps));
  g_clear_error (&error);

  /* create --help fails: no flag can be trusted */
  add_output (fixture, "version-distrobox-1.8.2.5.txt", "distrobox-version.txt");
  g_assert_cmpint (g_unlink (help_file), ==, 0);
  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "options"));
  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (fixture->caps), ==, "1.8.2.5");
  g_assert_false (kiste_capabilities_supports_create_flag (fixture->caps, "--image"));
  g_clear_error (&error);

  /* and all is well again once it works */
  add_output (fixture, "help-distrobox-1.8.2.5.txt", "distrobox-create-help.txt");
  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kiste_capabilities_get_distrobox_problem (fixture->caps));
  g_assert_true (kiste_capabilities_supports_create_flag (fixture->caps, "--image"));
}

static void
test_refresh_env_manager (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");
  add_manager (fixture, "docker", "version-docker-28.2.2.txt");
  /* the environment beats every config file */
  write_config (fixture, "b.conf", "container_manager=\"podman\"\n");

  g_setenv ("DBX_CONTAINER_MANAGER", "docker", TRUE);
  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "docker");
  g_assert_cmpstr (kiste_capabilities_get_manager_source (fixture->caps), ==,
                   "DBX_CONTAINER_MANAGER");
  g_assert_cmpstr (kiste_capabilities_get_manager_version (fixture->caps), ==, "28.2.2");

  /* an empty variable counts as unset, as in distrobox */
  g_setenv ("DBX_CONTAINER_MANAGER", "", TRUE);
  g_assert_true (refresh_sync (fixture->caps, NULL, &error));
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "podman");
  g_assert_nonnull (strstr (kiste_capabilities_get_manager_source (fixture->caps), "b.conf"));

  g_setenv ("DBX_CONTAINER_MANAGER", "autodetect", TRUE);
  g_assert_true (refresh_sync (fixture->caps, NULL, &error));
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "podman");
  g_assert_null (kiste_capabilities_get_manager_source (fixture->caps));
}

static void
test_refresh_config_files (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");
  add_manager (fixture, "docker", "version-docker-28.2.2.txt");

  /* one file: docker beats the podman-first default */
  write_config (fixture, "a.conf", "# system default\ncontainer_manager=\"docker\"\n");
  refresh_sync (fixture->caps, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "docker");
  g_assert_true (g_str_has_suffix (kiste_capabilities_get_manager_source (fixture->caps), "a.conf"));

  /* a later file wins */
  write_config (fixture, "b.conf", "container_manager=podman\n");
  g_assert_true (refresh_sync (fixture->caps, NULL, &error));
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "podman");
  g_assert_true (g_str_has_suffix (kiste_capabilities_get_manager_source (fixture->caps), "b.conf"));

  /* a later file without the key changes nothing */
  write_config (fixture, "b.conf", "container_image_default=\"alpine\"\n");
  g_assert_true (refresh_sync (fixture->caps, NULL, &error));
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "docker");

  /* computed values are not evaluated and so not used */
  write_config (fixture, "b.conf", "container_manager=\"$(echo podman)\"\n");
  g_assert_true (refresh_sync (fixture->caps, NULL, &error));
  g_assert_cmpstr (kiste_capabilities_get_manager (fixture->caps), ==, "docker");
}

static void
test_refresh_configured_missing (Fixture       *fixture,
                                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *problem;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");
  write_config (fixture, "b.conf", "container_manager=\"docker\"\n");

  /* distrobox would fail here too: no silent switch to podman */
  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_null (kiste_capabilities_get_manager (fixture->caps));
  problem = kiste_capabilities_get_manager_problem (fixture->caps);
  g_assert_nonnull (strstr (problem, "docker"));
  g_assert_nonnull (strstr (problem, "b.conf"));
  g_clear_error (&error);

  write_config (fixture, "b.conf", "container_manager=lilipod\n");
  g_assert_false (refresh_sync (fixture->caps, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_TOOL_MISSING);
  g_assert_nonnull (strstr (error->message, "lilipod"));
  g_assert_null (kiste_capabilities_get_manager (fixture->caps));
}

static void
test_refresh_cancelled (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  g_cancellable_cancel (cancellable);
  g_assert_false (refresh_sync (fixture->caps, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (kiste_capabilities_get_loaded (fixture->caps));
  g_assert_null (kiste_capabilities_get_distrobox_version (fixture->caps));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_refresh_overlapping (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(GAsyncResult) first = NULL;
  g_autoptr(GAsyncResult) second = NULL;
  g_autoptr(GError) error = NULL;
  guint notified = 0;

  add_distrobox (fixture, "1.8.2.5", NULL);
  add_manager (fixture, "podman", "version-podman-5.4.2.txt");

  g_signal_connect (fixture->caps, "notify::loaded", G_CALLBACK (count_notify), &notified);

  kiste_capabilities_refresh_async (fixture->caps, NULL, store_result, &first);
  kiste_capabilities_refresh_async (fixture->caps, NULL, store_result, &second);
  while (first == NULL || second == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (kiste_capabilities_refresh_finish (fixture->caps, first, &error));
  g_assert_no_error (error);
  g_assert_true (kiste_capabilities_refresh_finish (fixture->caps, second, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (notified, >=, 1);
  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (fixture->caps), ==, "1.8.2.5");
}

/* This machine's own distrobox, when there is one */
static void
test_refresh_real (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteCapabilities) caps = kiste_capabilities_new (runner);
  g_autoptr(GError) error = NULL;
  g_autofree char *distrobox = g_find_program_in_path ("distrobox");

  if (distrobox == NULL)
    {
      g_test_skip ("distrobox is not installed");
      return;
    }

  kiste_runner_set_cwd (runner, g_get_tmp_dir ());
  refresh_sync (caps, NULL, &error);
  /* a machine without podman or docker may still fail; distrobox works */
  g_assert_true (kiste_capabilities_get_loaded (caps));
  g_assert_true (kiste_capabilities_has_distrobox (caps));
  g_assert_nonnull (kiste_capabilities_get_distrobox_version (caps));
  g_assert_cmpuint (kiste_capabilities_get_distrobox_major (caps), >=, 1);
  g_assert_true (kiste_capabilities_supports_create_flag (caps, "--image"));
  g_assert_true (kiste_capabilities_supports_create_flag (caps, "--name"));
  g_assert_true (kiste_capabilities_supports_create_flag (caps, "--yes"));
  if (kiste_capabilities_get_manager (caps) != NULL)
    g_assert_nonnull (kiste_capabilities_get_manager_version (caps));
  g_test_message ("distrobox %s, manager %s %s",
                  kiste_capabilities_get_distrobox_version (caps),
                  kiste_capabilities_get_manager (caps),
                  kiste_capabilities_get_manager_version (caps));
}

static void
test_set_for_testing (void)
{
  const char * const flags[] = { "--unshare-home", "--image", "--unshare-groups", NULL };
  const char * const sorted[] = { "--image", "--unshare-groups", "--unshare-home", NULL };
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteCapabilities) caps = kiste_capabilities_new (runner);
  g_autofree char *reason = NULL;
  g_autofree char *loading = NULL;
  g_autofree char *version = NULL;

  loading = kiste_capabilities_dup_unsupported_reason (caps, "--image", NULL);
  g_assert_nonnull (loading);

  _kiste_capabilities_set_for_testing (caps, "2.0.0-rc.4", "docker", flags);
  g_assert_true (kiste_capabilities_get_loaded (caps));
  g_assert_true (kiste_capabilities_has_distrobox (caps));
  g_assert_cmpuint (kiste_capabilities_get_distrobox_major (caps), ==, 2);
  g_assert_cmpstr (kiste_capabilities_get_manager (caps), ==, "docker");
  g_assert_true (kiste_capabilities_has_manager (caps, "docker"));
  g_assert_false (kiste_capabilities_has_manager (caps, "podman"));
  g_assert_true (g_strv_equal (kiste_capabilities_get_create_flags (caps), sorted));
  g_assert_true (kiste_capabilities_supports_create_flag (caps, "--unshare-home"));
  g_assert_false (kiste_capabilities_supports_create_flag (caps, "--platform"));
  reason = kiste_capabilities_dup_unsupported_reason (caps, "--platform", "1.8.1");
  g_assert_cmpstr (reason, ==, "Not available in distrobox 2.0.0-rc.4");

  g_object_get (caps, "distrobox-version", &version, NULL);
  g_assert_cmpstr (version, ==, "2.0.0-rc.4");

  _kiste_capabilities_set_for_testing (caps, NULL, NULL, NULL);
  g_assert_true (kiste_capabilities_get_loaded (caps));
  g_assert_false (kiste_capabilities_has_distrobox (caps));
  g_assert_null (kiste_capabilities_get_manager (caps));
  g_assert_false (kiste_capabilities_supports_create_flag (caps, "--unshare-home"));
  g_assert_nonnull (kiste_capabilities_get_distrobox_problem (caps));
}

#define ADD_FIXTURE_TEST(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

static void
test_parse_login_path (void)
{
  g_autofree char *plain = kiste_capabilities_parse_login_path ("\nKISTE_HOST_PATH=/home/u/.local/bin:/usr/bin\n");
  g_autofree char *noisy = kiste_capabilities_parse_login_path (
    "Welcome!\nKISTE_HOST_PATH=/old\nfortune of the day\nKISTE_HOST_PATH=/opt/homebrew/bin:/usr/bin\n");
  g_autofree char *relative = kiste_capabilities_parse_login_path ("KISTE_HOST_PATH=bin:/usr/bin\n");
  g_autofree char *empty = kiste_capabilities_parse_login_path ("KISTE_HOST_PATH=\n");
  g_autofree char *none = kiste_capabilities_parse_login_path ("PATH=/usr/bin\n");

  g_assert_cmpstr (plain, ==, "/home/u/.local/bin:/usr/bin");
  g_assert_cmpstr (noisy, ==, "/opt/homebrew/bin:/usr/bin");
  g_assert_null (relative);
  g_assert_null (empty);
  g_assert_null (none);
  g_assert_null (kiste_capabilities_parse_login_path (NULL));
}

/* From the Flatpak sandbox, distrobox may live where only the user's
 * profile puts it on PATH (~/.local/bin, Homebrew): the host login shell is
 * asked, and the probes find it there. flatpak-spawn is a stand-in that
 * runs the command here with a fresh environment, as the session helper
 * does. */
/* A refresh whose host login shell reads home's profile */
static void
refresh_with_home (KisteCapabilities *caps,
                   const char        *home)
{
  g_autofree char *saved_home = g_strdup (g_getenv ("HOME"));
  g_autoptr(GAsyncResult) result = NULL;

  g_setenv ("HOME", home, TRUE);
  kiste_capabilities_refresh_async (caps, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  kiste_capabilities_refresh_finish (caps, result, NULL);
  if (saved_home != NULL)
    g_setenv ("HOME", saved_home, TRUE);
}

static void
test_refresh_flatpak_login_path (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = g_dir_make_tmp ("kiste-caps-home-XXXXXX", &error);
  g_autofree char *bin = g_build_filename (home, "bin", NULL);
  g_autofree char *profile = g_build_filename (home, ".profile", NULL);
  g_autofree char *spawn = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "runner-flatpak-spawn.sh", NULL);
  g_autofree char *saved_home = g_strdup (g_getenv ("HOME"));
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteCapabilities) caps = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  const char * const links[][2] = {
    { "caps-distrobox", "distrobox" },
    { "version-distrobox-1.6.0.txt", "distrobox-version.txt" },
    { "help-distrobox-1.6.0.txt", "distrobox-create-help.txt" },
  };
  g_auto(GStrv) env = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *target = i == 0 ? g_build_filename (g_getenv ("KISTE_TEST_FAKES"), links[i][0], NULL)
                                       : fixture_path (links[i][0]);
      g_autofree char *link = g_build_filename (bin, links[i][1], NULL);

      g_assert_cmpint (symlink (target, link), ==, 0);
    }
  g_assert_true (g_file_set_contents (profile, "PATH=\"$HOME/bin:$PATH\"\n", -1, NULL));
  g_setenv ("HOME", home, TRUE);

  kiste_runner_set_in_flatpak (runner, TRUE);
  _kiste_runner_set_flatpak_spawn (runner, spawn);
  caps = kiste_capabilities_new (runner);
  _kiste_capabilities_set_config_files (caps, (const char * const[]) { "/nonexistent/distrobox.conf", NULL });

  kiste_capabilities_refresh_async (caps, NULL, store_result, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  kiste_capabilities_refresh_finish (caps, result, NULL);

  if (saved_home != NULL)
    g_setenv ("HOME", saved_home, TRUE);

  /* the one in the profile's folder, not one the bare PATH may hold */
  g_assert_true (kiste_capabilities_has_distrobox (caps));
  g_assert_cmpstr (kiste_capabilities_get_distrobox_version (caps), ==, "1.6.0");
  /* the host's PATH goes to the host, ours stays ours */
  env = kiste_runner_dup_environ (runner);
  g_assert_cmpstr (g_environ_getenv (env, "PATH"), ==, g_getenv ("PATH"));
  {
    const char *probe[] = { "distrobox", "--version", NULL };
    g_auto(GStrv) argv = kiste_runner_build_argv (runner, probe);
    g_autofree char *joined = g_strjoinv (" ", argv);
    g_autofree char *expected = g_strdup_printf ("--env=PATH=%s:", bin);

    g_assert_nonnull (strstr (joined, expected));
    g_assert_nonnull (strstr (joined, " env -- distrobox --version"));
  }

  /* Kiste's own copy of distrobox, once it exists, is searched last */
  {
    g_autofree char *own = g_build_filename (home, "own-distrobox", NULL);
    g_autofree char *last = g_strdup_printf (":%s ", own);
    const char *probe[] = { "distrobox", "--version", NULL };

    kiste_capabilities_set_last_path_dir (caps, own);
    for (guint round = 0; round < 2; round++)
      {
        g_auto(GStrv) argv = NULL;
        g_autofree char *joined = NULL;

        if (round == 1)
          g_assert_cmpint (g_mkdir (own, 0755), ==, 0);
        refresh_with_home (caps, home);

        argv = kiste_runner_build_argv (runner, probe);
        joined = g_strjoinv (" ", argv);
        /* not while it does not exist */
        g_assert_true ((strstr (joined, last) != NULL) == (round == 1));
        /* the host's own distrobox is found first */
        g_assert_false (kiste_capabilities_get_distrobox_is_own (caps));
      }

    /* the host has none: the one found is Kiste's */
    {
      g_autofree char *host_link = g_build_filename (bin, "distrobox", NULL);
      g_autofree char *own_link = g_build_filename (own, "distrobox", NULL);
      g_autofree char *fake = g_build_filename (g_getenv ("KISTE_TEST_FAKES"), "caps-distrobox", NULL);

      g_unlink (host_link);
      g_assert_cmpint (symlink (fake, own_link), ==, 0);
      /* nothing of this machine's own PATH, where a real one may be */
      g_assert_true (g_file_set_contents (profile, "PATH=\"$HOME/bin\"\n", -1, NULL));
      refresh_with_home (caps, home);
      g_assert_true (kiste_capabilities_has_distrobox (caps));
      g_assert_true (kiste_capabilities_get_distrobox_is_own (caps));
      g_unlink (own_link);
      g_assert_cmpint (symlink (fake, host_link), ==, 0);
    }
    g_rmdir (own);
  }

  for (guint i = 0; i < G_N_ELEMENTS (links); i++)
    {
      g_autofree char *link = g_build_filename (bin, links[i][1], NULL);
      g_unlink (link);
    }
  g_unlink (profile);
  g_rmdir (bin);
  g_rmdir (home);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/capabilities/parse-version", test_parse_version);
  g_test_add_func ("/capabilities/parse-version-fixtures", test_parse_version_fixtures);
  g_test_add_func ("/capabilities/parse-major", test_parse_major);
  g_test_add_func ("/capabilities/compare-versions", test_compare_versions);
  g_test_add_func ("/capabilities/parse-help-1.8.2.5", test_parse_help_1_8_2_5);
  g_test_add_func ("/capabilities/parse-help-variants", test_parse_help_variants);
  g_test_add_func ("/capabilities/parse-help-shapes", test_parse_help_shapes);
  g_test_add_func ("/capabilities/parse-config-manager", test_parse_config_manager);
  g_test_add_func ("/capabilities/default-config-files", test_default_config_files);
  g_test_add_func ("/capabilities/set-for-testing", test_set_for_testing);
  ADD_FIXTURE_TEST ("/capabilities/refresh/released", test_refresh_released);
  ADD_FIXTURE_TEST ("/capabilities/refresh/patched", test_refresh_patched);
  ADD_FIXTURE_TEST ("/capabilities/refresh/old", test_refresh_old);
  ADD_FIXTURE_TEST ("/capabilities/refresh/v2", test_refresh_v2);
  ADD_FIXTURE_TEST ("/capabilities/refresh/no-distrobox", test_refresh_no_distrobox);
  ADD_FIXTURE_TEST ("/capabilities/refresh/no-manager", test_refresh_no_manager);
  ADD_FIXTURE_TEST ("/capabilities/refresh/bad-version", test_refresh_bad_version);
  ADD_FIXTURE_TEST ("/capabilities/refresh/env-manager", test_refresh_env_manager);
  ADD_FIXTURE_TEST ("/capabilities/refresh/config-files", test_refresh_config_files);
  ADD_FIXTURE_TEST ("/capabilities/refresh/configured-missing", test_refresh_configured_missing);
  ADD_FIXTURE_TEST ("/capabilities/refresh/cancelled", test_refresh_cancelled);
  ADD_FIXTURE_TEST ("/capabilities/refresh/overlapping", test_refresh_overlapping);
  g_test_add_func ("/capabilities/refresh/real", test_refresh_real);
  g_test_add_func ("/capabilities/parse-login-path", test_parse_login_path);
  g_test_add_func ("/capabilities/refresh/flatpak-login-path", test_refresh_flatpak_login_path);

  return g_test_run ();
}
