/* test-create-options.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-capabilities-private.h"
#include "kiste-assemble.h"
#include "kiste-box.h"
#include "kiste-capabilities.h"
#include "kiste-create-flags.h"
#include "kiste-create-options.h"
#include "kiste-error.h"
#include "kiste-validate.h"

#define BASE "distrobox", "create", "--yes", "--name", "dev", "--image", "docker.io/library/debian:12"

/* Capabilities as the installed distrobox reports them, from the captured
 * (or, for other versions, reconstructed) `distrobox create --help` */
typedef enum
{
  CAPS_NONE,      /* no capabilities object */
  CAPS_UNLOADED,  /* an object that never ran */
  CAPS_1_8_2_5,   /* released: no --unshare-home */
  CAPS_PATCHED,   /* 1.8.2.5 with the --unshare-home change */
  CAPS_1_6_0,     /* before --unshare-groups and --platform */
  CAPS_2_0,       /* distrobox 2 (Go) */
} CapsKind;

static KisteCapabilities *
make_caps (CapsKind kind)
{
  static const struct
  {
    CapsKind    kind;
    const char *version;
    const char *help_file;
  } table[] = {
    { CAPS_1_8_2_5, "1.8.2.5", "help-distrobox-1.8.2.5.txt" },
    { CAPS_PATCHED, "1.8.2.5", "help-distrobox-1.8.2.5-unshare-home.txt" },
    { CAPS_1_6_0, "1.6.0", "help-distrobox-1.6.0.txt" },
    { CAPS_2_0, "2.0.0-rc.4", "help-distrobox-2.0.0-rc.4.txt" },
  };
  g_autoptr(KisteRunner) runner = NULL;
  KisteCapabilities *caps;

  if (kind == CAPS_NONE)
    return NULL;

  runner = kiste_runner_new ();
  caps = kiste_capabilities_new (runner);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_autofree char *path = NULL;
      g_autofree char *help = NULL;
      g_auto(GStrv) flags = NULL;
      g_autoptr(GError) error = NULL;

      if (table[i].kind != kind)
        continue;

      path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), table[i].help_file, NULL);
      g_file_get_contents (path, &help, NULL, &error);
      g_assert_no_error (error);

      flags = kiste_capabilities_parse_create_help (help);
      g_assert_true (g_strv_contains ((const char * const *)flags, "--image"));
      _kiste_capabilities_set_for_testing (caps, table[i].version, "podman",
                                           (const char * const *)flags);
    }

  return caps;
}

static KisteCreateOptions *
base_options (void)
{
  KisteCreateOptions *options = kiste_create_options_new ();

  kiste_create_options_set_name (options, "dev");
  kiste_create_options_set_image (options, "docker.io/library/debian:12");

  return options;
}

typedef void (*SetupFunc) (KisteCreateOptions *options);

static void
setup_nothing (KisteCreateOptions *o)
{
}

static void
setup_add_to_menu (KisteCreateOptions *o)
{
  kiste_create_options_set_add_to_menu (o, TRUE);
}

static void
setup_hostname (KisteCreateOptions *o)
{
  kiste_create_options_set_hostname (o, "devbox.lan");
}

static void
setup_home (KisteCreateOptions *o)
{
  kiste_create_options_set_home (o, "/home/u/My Boxes/dev");
}

static void
setup_platform (KisteCreateOptions *o)
{
  kiste_create_options_set_platform (o, "linux/arm64");
}

static void
setup_init (KisteCreateOptions *o)
{
  kiste_create_options_set_init (o, TRUE);
}

static void
setup_nvidia (KisteCreateOptions *o)
{
  kiste_create_options_set_nvidia (o, TRUE);
}

static void
setup_pull (KisteCreateOptions *o)
{
  kiste_create_options_set_pull (o, TRUE);
}

static void
setup_devsys (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_DEVSYS, TRUE);
}

static void
setup_groups (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_GROUPS, TRUE);
}

static void
setup_ipc (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_IPC, TRUE);
}

static void
setup_netns (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_NETNS, TRUE);
  kiste_create_options_set_hostname (o, "dev");
}

static void
setup_process (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_PROCESS, TRUE);
}

static void
setup_home_unshare (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_HOME, TRUE);
}

static void
setup_five (KisteCreateOptions *o)
{
  /* set in reverse: the argv order must not depend on it */
  setup_process (o);
  setup_netns (o);
  setup_ipc (o);
  setup_groups (o);
  setup_devsys (o);
}

static void
setup_all (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare_all (o, TRUE);
  kiste_create_options_set_hostname (o, "dev");
}

static void
setup_all_and_five (KisteCreateOptions *o)
{
  setup_five (o);
  setup_all (o);
}

static void
setup_all_and_home (KisteCreateOptions *o)
{
  setup_all (o);
  setup_home_unshare (o);
}

static void
setup_volumes (KisteCreateOptions *o)
{
  kiste_create_options_add_volume (o, "/srv/data:/data:ro");
  kiste_create_options_add_volume (o, "/opt/tools:/opt/tools");
}

static void
setup_packages (KisteCreateOptions *o)
{
  const char * const packages[] = { "git  tmux", "", "vim", NULL };

  kiste_create_options_set_additional_packages (o, packages);
}

static void
setup_init_hooks (KisteCreateOptions *o)
{
  kiste_create_options_set_init_hooks (o, "touch /var/tmp/a && echo \"x  y\" > /etc/motd");
}

static void
setup_pre_init_hooks (KisteCreateOptions *o)
{
  kiste_create_options_set_pre_init_hooks (o, "dnf -y install 'epel-release'");
}

static void
setup_clone (KisteCreateOptions *o)
{
  /* the image stays set in the UI while cloning; it must not be passed */
  kiste_create_options_set_clone_source (o, "fedora.39");
}

static void
setup_clone_only (KisteCreateOptions *o)
{
  kiste_create_options_set_image (o, NULL);
  kiste_create_options_set_clone_source (o, "fedora-39");
}

static void
setup_temporary (KisteCreateOptions *o)
{
  kiste_create_options_set_temporary (o, TRUE);
}

static void
setup_everything (KisteCreateOptions *o)
{
  setup_add_to_menu (o);
  setup_hostname (o);
  setup_home (o);
  setup_platform (o);
  setup_init (o);
  setup_nvidia (o);
  setup_pull (o);
  setup_devsys (o);
  setup_ipc (o);
  setup_home_unshare (o);
  setup_volumes (o);
  setup_packages (o);
  setup_init_hooks (o);
  setup_pre_init_hooks (o);
}

typedef struct
{
  const char *desc;
  SetupFunc   setup;
  CapsKind    caps;
  const char *expected[48];
} ArgvCase;

static const ArgvCase argv_cases[] = {
  { "defaults: no launcher", setup_nothing, CAPS_1_8_2_5,
    { BASE, "--no-entry", NULL } },
  { "defaults without caps", setup_nothing, CAPS_NONE,
    { BASE, "--no-entry", NULL } },
  /* the launcher is added after the create, never by distrobox create */
  { "add to menu", setup_add_to_menu, CAPS_1_8_2_5,
    { BASE, "--no-entry", NULL } },
  { "hostname", setup_hostname, CAPS_1_8_2_5,
    { BASE, "--hostname", "devbox.lan", "--no-entry", NULL } },
  { "home with a space is one argument", setup_home, CAPS_1_8_2_5,
    { BASE, "--home", "/home/u/My Boxes/dev", "--no-entry", NULL } },
  { "platform", setup_platform, CAPS_1_8_2_5,
    { BASE, "--platform", "linux/arm64", "--no-entry", NULL } },
  { "init", setup_init, CAPS_1_8_2_5,
    { BASE, "--init", "--no-entry", NULL } },
  { "init on 1.6", setup_init, CAPS_1_6_0,
    { BASE, "--init", "--no-entry", NULL } },
  { "nvidia", setup_nvidia, CAPS_1_8_2_5,
    { BASE, "--nvidia", "--no-entry", NULL } },
  { "pull", setup_pull, CAPS_1_8_2_5,
    { BASE, "--pull", "--no-entry", NULL } },
  { "unshare devsys", setup_devsys, CAPS_1_8_2_5,
    { BASE, "--unshare-devsys", "--no-entry", NULL } },
  { "unshare groups", setup_groups, CAPS_1_8_2_5,
    { BASE, "--unshare-groups", "--no-entry", NULL } },
  { "unshare groups without caps", setup_groups, CAPS_NONE,
    { BASE, "--unshare-groups", "--no-entry", NULL } },
  { "unshare ipc", setup_ipc, CAPS_1_8_2_5,
    { BASE, "--unshare-ipc", "--no-entry", NULL } },
  { "unshare ipc on 1.6", setup_ipc, CAPS_1_6_0,
    { BASE, "--unshare-ipc", "--no-entry", NULL } },
  { "unshare netns", setup_netns, CAPS_1_8_2_5,
    { BASE, "--hostname", "dev", "--unshare-netns", "--no-entry", NULL } },
  { "unshare process", setup_process, CAPS_1_8_2_5,
    { BASE, "--unshare-process", "--no-entry", NULL } },
  { "five unshare flags in a fixed order", setup_five, CAPS_1_8_2_5,
    { BASE, "--hostname", "dev", "--unshare-devsys", "--unshare-groups", "--unshare-ipc",
      "--unshare-netns", "--unshare-process", "--no-entry", NULL } },
  { "unshare all", setup_all, CAPS_1_8_2_5,
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", NULL } },
  { "unshare all covers the five", setup_all_and_five, CAPS_1_8_2_5,
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", NULL } },
  { "unshare all on distrobox 2", setup_all, CAPS_2_0,
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", NULL } },
  { "unshare home on a patched build", setup_home_unshare, CAPS_PATCHED,
    { BASE, "--unshare-home", "--no-entry", NULL } },
  { "unshare all and home on a patched build", setup_all_and_home, CAPS_PATCHED,
    { BASE, "--hostname", "dev", "--unshare-all", "--unshare-home", "--no-entry", NULL } },
  { "volumes", setup_volumes, CAPS_1_8_2_5,
    { BASE, "--volume", "/srv/data:/data:ro", "--volume", "/opt/tools:/opt/tools", "--no-entry",
      NULL } },
  { "packages joined into one argument", setup_packages, CAPS_1_8_2_5,
    { BASE, "--additional-packages", "git tmux vim", "--no-entry", NULL } },
  { "init hooks", setup_init_hooks, CAPS_1_8_2_5,
    { BASE, "--init-hooks", "touch /var/tmp/a && echo \"x  y\" > /etc/motd", "--no-entry", NULL } },
  { "pre-init hooks", setup_pre_init_hooks, CAPS_1_8_2_5,
    { BASE, "--pre-init-hooks", "dnf -y install 'epel-release'", "--no-entry", NULL } },
  { "clone replaces the image", setup_clone, CAPS_1_8_2_5,
    { "distrobox", "create", "--yes", "--name", "dev", "--clone", "fedora.39", "--no-entry", NULL } },
  { "clone without an image", setup_clone_only, CAPS_2_0,
    { "distrobox", "create", "--yes", "--name", "dev", "--clone", "fedora-39", "--no-entry", NULL } },
  /* no flag: the home's mounts come out of the dry run's command instead */
  { "unshare home on a released distrobox", setup_home_unshare, CAPS_1_8_2_5,
    { BASE, "--no-entry", NULL } },
  { "unshare all and home on a released distrobox", setup_all_and_home, CAPS_1_8_2_5,
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", NULL } },
  /* a constant label, its own argv element after every other flag */
  { "temporary", setup_temporary, CAPS_1_8_2_5,
    { BASE, "--no-entry", "--additional-flags", "--label io.github.kiste.temporary=1", NULL } },
  { "temporary on 1.6", setup_temporary, CAPS_1_6_0,
    { BASE, "--no-entry", "--additional-flags", "--label io.github.kiste.temporary=1", NULL } },
  { "temporary on distrobox 2", setup_temporary, CAPS_2_0,
    { BASE, "--no-entry", "--additional-flags", "--label io.github.kiste.temporary=1", NULL } },
  { "everything", setup_everything, CAPS_PATCHED,
    { BASE, "--hostname", "devbox.lan", "--home", "/home/u/My Boxes/dev", "--platform",
      "linux/arm64", "--init", "--nvidia", "--pull", "--unshare-devsys", "--unshare-ipc",
      "--unshare-home", "--volume", "/srv/data:/data:ro", "--volume", "/opt/tools:/opt/tools",
      "--additional-packages", "git tmux vim",
      "--init-hooks", "touch /var/tmp/a && echo \"x  y\" > /etc/motd",
      "--pre-init-hooks", "dnf -y install 'epel-release'", "--no-entry", NULL } },
};

static char *
join_argv (const char * const *argv)
{
  return argv ? g_strjoinv ("|", (char **)argv) : g_strdup ("(null)");
}

static void
test_argv_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (argv_cases); i++)
    {
      const ArgvCase *c = &argv_cases[i];
      g_autoptr(KisteCreateOptions) options = base_options ();
      g_autoptr(KisteCapabilities) caps = make_caps (c->caps);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;
      KisteCreateField field = KISTE_CREATE_FIELD_NAME;

      g_test_message ("case: %s", c->desc);
      c->setup (options);

      argv = kiste_create_options_to_argv_full (options, caps, &field, &error);
      g_assert_no_error (error);
      g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NONE);

      if (!g_strv_equal ((const char * const *)argv, c->expected))
        {
          g_autofree char *got = join_argv ((const char * const *)argv);
          g_autofree char *want = join_argv (c->expected);

          g_error ("%s:\n  got  %s\n  want %s", c->desc, got, want);
        }

      /* what the manager runs is this command, or for a box without the
       * home its dry run (test-create-plan.c) */
      {
        g_autoptr(KisteCreatePlan) plan = kiste_create_options_plan (options, NULL, caps, "podman", &error);
        g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
        g_auto(GStrv) expected = NULL;

        g_assert_no_error (error);
        g_strv_builder_addv (builder, (const char **) c->expected);
        if (kiste_create_plan_get_kind (plan) == KISTE_CREATE_PLAN_ISOLATED)
          g_strv_builder_add (builder, "--dry-run");
        expected = g_strv_builder_end (builder);
        g_assert_true (g_strv_equal (kiste_create_plan_get_argv (plan), (const char * const *) expected));
      }
    }
}

/* A temporary box: the flag survives a copy, its name is fresh */
static void
test_temporary (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(KisteCreateOptions) copy = NULL;
  const char *existing[] = { "dev", NULL };

  g_assert_false (kiste_create_options_get_temporary (options));
  kiste_create_options_set_temporary (options, TRUE);
  copy = kiste_create_options_copy (options);
  g_assert_true (kiste_create_options_get_temporary (copy));

  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *name = kiste_create_options_dup_temporary_name (existing);
      g_autoptr(GError) error = NULL;

      g_assert_true (g_str_has_prefix (name, "kiste-try-"));
      g_assert_cmpuint (strlen (name), ==, strlen ("kiste-try-") + 6);
      g_assert_true (kiste_validate_name (name, existing, &error));
      g_assert_no_error (error);
    }
}

typedef struct
{
  const char       *desc;
  SetupFunc         setup;
  CapsKind          caps;
  KisteCreateField  field;
  const char       *in_message;
} RefusedCase;

static const RefusedCase refused_cases[] = {
  { "unshare home on distrobox 1.6", setup_home_unshare, CAPS_1_6_0,
    KISTE_CREATE_FIELD_UNSHARE_HOME, "Needs distrobox 1.8.0 or newer" },
  { "unshare home on distrobox 2", setup_home_unshare, CAPS_2_0,
    KISTE_CREATE_FIELD_UNSHARE_HOME, "Not available in distrobox 2.0.0-rc.4" },
  { "unshare home without caps", setup_home_unshare, CAPS_NONE,
    KISTE_CREATE_FIELD_UNSHARE_HOME, "--unshare-home" },
  { "unshare home before caps are loaded", setup_home_unshare, CAPS_UNLOADED,
    KISTE_CREATE_FIELD_UNSHARE_HOME, "--unshare-home" },
  { "unshare all and home on distrobox 1.6", setup_all_and_home, CAPS_1_6_0,
    KISTE_CREATE_FIELD_UNSHARE_HOME, "--unshare-home" },
  { "unshare groups on 1.6", setup_groups, CAPS_1_6_0,
    KISTE_CREATE_FIELD_UNSHARE_GROUPS, "Needs distrobox 1.7.0 or newer" },
  { "platform on 1.6", setup_platform, CAPS_1_6_0,
    KISTE_CREATE_FIELD_PLATFORM, "Needs distrobox 1.8.1 or newer" },
};

static void
test_argv_refused (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (refused_cases); i++)
    {
      const RefusedCase *c = &refused_cases[i];
      g_autoptr(KisteCreateOptions) options = base_options ();
      g_autoptr(KisteCapabilities) caps = NULL;
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;
      KisteCreateField field = KISTE_CREATE_FIELD_NONE;

      g_test_message ("case: %s", c->desc);

      if (c->caps == CAPS_UNLOADED)
        {
          g_autoptr(KisteRunner) runner = kiste_runner_new ();

          caps = kiste_capabilities_new (runner);
        }
      else
        caps = make_caps (c->caps);

      c->setup (options);

      /* validation alone has nothing against it: only the installed
       * distrobox does */
      g_assert_true (kiste_create_options_validate (options, NULL, &error));
      g_assert_no_error (error);

      argv = kiste_create_options_to_argv_full (options, caps, &field, &error);
      g_assert_null (argv);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_assert_cmpint (field, ==, c->field);
      if (strstr (error->message, c->in_message) == NULL)
        g_error ("%s: “%s” not in “%s”", c->desc, c->in_message, error->message);
    }
}

typedef struct
{
  const char       *desc;
  const char       *property;
  const char       *value;
  KisteCreateField  field;
  const char       *in_message;
} BadInputCase;

static const BadInputCase bad_inputs[] = {
  { "semicolon", "name", "dev;rm -rf ~", KISTE_CREATE_FIELD_NAME, "name" },
  { "command substitution", "name", "dev$(touch ~/x)", KISTE_CREATE_FIELD_NAME, "name" },
  { "backticks", "name", "dev`id`", KISTE_CREATE_FIELD_NAME, "name" },
  { "spaces", "name", "my box", KISTE_CREATE_FIELD_NAME, "name" },
  { "leading dash", "name", "-dev", KISTE_CREATE_FIELD_NAME, "name" },
  { "leading dashes", "name", "--help", KISTE_CREATE_FIELD_NAME, "name" },
  { "unicode", "name", "dëv", KISTE_CREATE_FIELD_NAME, "name" },
  { "dot", "name", "dev.1", KISTE_CREATE_FIELD_NAME, "name" },
  { "empty name", "name", "", KISTE_CREATE_FIELD_NAME, "name" },
  { "70-character hostname", "hostname", NULL, KISTE_CREATE_FIELD_HOSTNAME, "hostname" },
  { "hostname with underscore", "hostname", "my_host", KISTE_CREATE_FIELD_HOSTNAME, "hostname" },
  { "relative home", "home", "boxes/dev", KISTE_CREATE_FIELD_HOME, "home folder" },
  { "home with $", "home", "/home/$USER/dev", KISTE_CREATE_FIELD_HOME, "home folder" },
  { "home with command", "home", "/p$(id)", KISTE_CREATE_FIELD_HOME, "home folder" },
  { "image with space", "image", "debian 12", KISTE_CREATE_FIELD_IMAGE, "image" },
  { "image in capitals", "image", "Debian:12", KISTE_CREATE_FIELD_IMAGE, "image" },
  { "empty image", "image", "", KISTE_CREATE_FIELD_IMAGE, "image" },
  { "platform", "platform", "arm64", KISTE_CREATE_FIELD_PLATFORM, "platform" },
  { "init hooks quote", "init-hooks", "echo 'x'", KISTE_CREATE_FIELD_INIT_HOOKS, "init hooks" },
  { "pre-init hooks quote", "pre-init-hooks", "echo \"x\"", KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
    "pre-init hooks" },
  { "clone source", "clone-source", "no-such-box", KISTE_CREATE_FIELD_CLONE_SOURCE, "clone" },
};

static void
test_bad_input (void)
{
  const char * const existing[] = { "taken", "fedora-39", NULL };
  g_autofree char *name_300 = g_strnfill (300, 'n');
  g_autofree char *hostname_70 = g_strnfill (70, 'h');

  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      const BadInputCase *c = &bad_inputs[i];
      g_autoptr(KisteCreateOptions) options = base_options ();
      g_autoptr(KisteCapabilities) caps = make_caps (CAPS_PATCHED);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;
      KisteCreateField field = KISTE_CREATE_FIELD_NONE;
      const char *value = c->value;

      g_test_message ("case: %s", c->desc);

      if (value == NULL)
        value = hostname_70;
      g_object_set (options, c->property, value, NULL);

      g_assert_false (kiste_create_options_validate_full (options, existing, &field, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_assert_cmpint (field, ==, c->field);
      if (strstr (error->message, c->in_message) == NULL)
        g_error ("%s: message does not name the field: %s", c->desc, error->message);
      g_clear_error (&error);

      /* and nothing could be run with it */
      field = KISTE_CREATE_FIELD_NONE;
      argv = kiste_create_options_to_argv_full (options, caps, &field, &error);
      if (c->field != KISTE_CREATE_FIELD_CLONE_SOURCE)
        {
          g_assert_null (argv);
          g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
          g_assert_cmpint (field, ==, c->field);
        }
    }

  /* the ones that need values built at run time */
  {
    g_autoptr(KisteCreateOptions) options = base_options ();
    g_autoptr(GError) error = NULL;
    KisteCreateField field = KISTE_CREATE_FIELD_NONE;

    kiste_create_options_set_name (options, name_300);
    g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NAME);
    g_assert_nonnull (strstr (error->message, "name"));
  }

  {
    g_autoptr(KisteCreateOptions) options = base_options ();
    g_autoptr(GError) error = NULL;
    KisteCreateField field = KISTE_CREATE_FIELD_NONE;

    kiste_create_options_set_name (options, "taken");
    g_assert_false (kiste_create_options_validate_full (options, existing, &field, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NAME);
    g_clear_error (&error);

    /* uniqueness is case-sensitive */
    kiste_create_options_set_name (options, "Taken");
    g_assert_true (kiste_create_options_validate_full (options, existing, &field, &error));
    g_assert_no_error (error);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NONE);
  }

  {
    const char * const volumes[] = { "/srv:/srv", "/srv/data", NULL };
    g_autoptr(KisteCreateOptions) options = base_options ();
    g_autoptr(GError) error = NULL;
    KisteCreateField field = KISTE_CREATE_FIELD_NONE;

    kiste_create_options_set_volumes (options, volumes);
    g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_VOLUMES);
    g_assert_nonnull (strstr (error->message, "volume"));
    g_assert_nonnull (strstr (error->message, "colon"));
  }

  {
    const char * const volumes[] = { "/a:/data", "/b:/data/:ro", NULL };
    g_autoptr(KisteCreateOptions) options = base_options ();
    g_autoptr(GError) error = NULL;
    KisteCreateField field = KISTE_CREATE_FIELD_NONE;

    kiste_create_options_set_volumes (options, volumes);
    g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_VOLUMES);
    g_assert_nonnull (strstr (error->message, "/data"));
  }

  {
    const char * const packages[] = { "git", "vim; curl evil | sh", NULL };
    g_autoptr(KisteCreateOptions) options = base_options ();
    g_autoptr(GError) error = NULL;
    KisteCreateField field = KISTE_CREATE_FIELD_NONE;

    kiste_create_options_set_additional_packages (options, packages);
    g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES);
    g_assert_nonnull (strstr (error->message, "package"));
  }
}

static void
test_first_bad_field (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(GError) error = NULL;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  /* everything wrong: the name is reported first */
  g_object_set (options,
                "name", "bad name",
                "image", "BAD",
                "home", "relative",
                NULL);
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NAME);
  g_clear_error (&error);

  kiste_create_options_set_name (options, "good");
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_IMAGE);
  g_clear_error (&error);

  /* one field at a time, while typing */
  g_assert_true (kiste_create_options_validate_field (options, KISTE_CREATE_FIELD_NAME, NULL,
                                                      &error));
  g_assert_false (kiste_create_options_validate_field (options, KISTE_CREATE_FIELD_HOME, NULL,
                                                       &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  kiste_create_options_set_image (options, "alpine");
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_HOME);
  g_clear_error (&error);

  kiste_create_options_set_home (options, "/home/u/box");
  g_assert_true (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_no_error (error);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NONE);
}

/* "~/x" is the home folder's x; a ":" fails at the field before anything
 * runs (distrobox would make the folder, then podman fail with 125) */
static void
test_home_paths (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = g_build_filename (g_get_home_dir (), "Boxes", "dev", NULL);
  g_autofree char *volume = g_strdup_printf ("%s/data:/data:ro", g_get_home_dir ());
  g_auto(GStrv) argv = NULL;
  const char *volumes[] = { "~/data:/data:ro", "/srv:/srv", NULL };
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  kiste_create_options_set_home (options, "~/Boxes/dev");
  g_assert_cmpstr (kiste_create_options_get_home (options), ==, expected);
  kiste_create_options_set_volumes (options, volumes);
  g_assert_cmpstr (kiste_create_options_get_volumes (options)[0], ==, volume);
  g_assert_cmpstr (kiste_create_options_get_volumes (options)[1], ==, "/srv:/srv");
  kiste_create_options_add_volume (options, "~:/host-home");
  g_assert_true (g_str_has_prefix (kiste_create_options_get_volumes (options)[2], g_get_home_dir ()));
  g_assert_true (kiste_create_options_validate (options, NULL, &error));
  g_assert_no_error (error);
  argv = kiste_create_options_to_argv (options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char * const *) argv, expected));

  kiste_create_options_set_home (options, "/home/u/a:b");
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_HOME);
  g_assert_nonnull (strstr (error->message, "“:”"));
}

static void
test_netns_default_hostname (void)
{
  g_autofree char *name_63 = g_strnfill (63, 'n');
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(GError) error = NULL;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  kiste_create_options_set_name (options, name_63);
  g_assert_true (kiste_create_options_validate (options, NULL, &error));
  g_assert_no_error (error);

  /* NAME.<host name> is longer than 64 with a 63-character name */
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_NETNS, TRUE);
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_HOSTNAME);
  g_assert_nonnull (strstr (error->message, g_get_host_name ()));
  g_clear_error (&error);

  /* unshare-all includes the network */
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_NETNS, FALSE);
  kiste_create_options_set_unshare_all (options, TRUE);
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_HOSTNAME);
  g_clear_error (&error);

  /* an explicit hostname solves it */
  kiste_create_options_set_hostname (options, "box");
  g_assert_true (kiste_create_options_validate (options, NULL, &error));
  g_assert_no_error (error);
}

static void
test_separate_home (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(KisteCreateOptions) copy = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  g_assert_false (kiste_create_options_get_separate_home (options));

  /* switched on without a folder: invalid, at the home field */
  kiste_create_options_set_separate_home (options, TRUE);
  g_assert_false (kiste_create_options_validate_full (options, NULL, &field, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpstr (error->message, ==,
                   "Choose a folder for the box’s home, or turn off “Separate Home Folder”.");
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_HOME);
  g_clear_error (&error);
  kiste_create_options_set_home (options, "");
  g_assert_true (kiste_create_options_get_separate_home (options));
  g_assert_false (kiste_create_options_validate_field (options, KISTE_CREATE_FIELD_HOME, NULL, NULL));

  /* a folder makes it valid and reaches the argv; copies keep both */
  kiste_create_options_set_home (options, "/home/alex/Boxes/dev");
  g_assert_true (kiste_create_options_validate (options, NULL, &error));
  g_assert_no_error (error);
  copy = kiste_create_options_copy (options);
  g_assert_true (kiste_create_options_get_separate_home (copy));
  argv = kiste_create_options_to_argv (copy, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char * const *) argv, "--home"));
  g_clear_pointer (&argv, g_strfreev);

  /* switched off: the folder is forgotten, no --home */
  kiste_create_options_set_separate_home (options, FALSE);
  g_assert_null (kiste_create_options_get_home (options));
  argv = kiste_create_options_to_argv (options, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char * const *) argv, "--home"));

  /* setting a folder alone (an import, a clone) means a home of its own */
  kiste_create_options_set_home (copy, NULL);
  g_assert_true (kiste_create_options_get_separate_home (copy));
  kiste_create_options_set_separate_home (copy, FALSE);
  kiste_create_options_set_home (copy, "/home/alex/Boxes/other");
  g_assert_true (kiste_create_options_get_separate_home (copy));
}

static void
test_check (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  const char *existing[] = { "dev", NULL };
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  /* every field is checked, each problem kept at its field; the first is
   * the error */
  kiste_create_options_set_hostname (options, "not a hostname");
  kiste_create_options_set_separate_home (options, TRUE);
  argv = kiste_create_options_check (options, existing, NULL, &problems, &field, &error);
  g_assert_null (argv);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NAME);
  g_assert_cmpstr (g_ptr_array_index (problems, KISTE_CREATE_FIELD_NAME), ==, error->message);
  g_assert_nonnull (g_ptr_array_index (problems, KISTE_CREATE_FIELD_HOSTNAME));
  g_assert_nonnull (g_ptr_array_index (problems, KISTE_CREATE_FIELD_HOME));
  g_assert_null (g_ptr_array_index (problems, KISTE_CREATE_FIELD_IMAGE));
  g_assert_null (g_ptr_array_index (problems, KISTE_CREATE_FIELD_VOLUMES));
  g_clear_pointer (&problems, g_ptr_array_unref);
  g_clear_error (&error);

  /* all fine: the same argv as to_argv() */
  kiste_create_options_set_name (options, "dev2");
  kiste_create_options_set_hostname (options, "dev2");
  kiste_create_options_set_home (options, "/home/alex/Boxes/dev2");
  argv = kiste_create_options_check (options, existing, NULL, &problems, &field, &error);
  g_assert_no_error (error);
  g_assert_nonnull (argv);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_NONE);
  for (guint i = 0; i < problems->len; i++)
    g_assert_null (g_ptr_array_index (problems, i));
  {
    g_auto(GStrv) expected = kiste_create_options_to_argv (options, NULL, NULL);

    g_assert_true (g_strv_equal ((const char * const *) argv, (const char * const *) expected));
  }
}

/* The options' flags are checked by the table of create flags: the same
 * answers by property as the command gets */
static void
test_flag_problem (void)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteCapabilities) loading = kiste_capabilities_new (runner);
  g_autoptr(KisteCapabilities) old = kiste_capabilities_new (runner);
  const char *flags[] = { "--name", "--image", "--init", NULL };
  const KisteCreateFlag *home = kiste_create_flags_find ("unshare-home");
  g_autofree char *problem = NULL;

  /* nothing known yet: everything but the home, which no release has */
  g_assert_null (kiste_create_flag_dup_problem (kiste_create_flags_find ("nvidia"), NULL));
  g_assert_null (kiste_create_flag_dup_problem (kiste_create_flags_find ("unshare-all"), loading));
  problem = kiste_create_flag_dup_problem (home, NULL);
  g_assert_cmpstr (problem, ==, "Not available in the installed distrobox");
  g_clear_pointer (&problem, g_free);
  problem = kiste_create_flag_dup_problem (home, loading);
  g_assert_nonnull (problem);
  g_clear_pointer (&problem, g_free);

  /* a distrobox too old for a flag says so; what it has is fine */
  _kiste_capabilities_set_for_testing (old, "1.6.0", "podman", flags);
  g_assert_null (kiste_create_flag_dup_problem (kiste_create_flags_find ("init"), old));
  problem = kiste_create_flag_dup_problem (kiste_create_flags_find ("unshare-groups"), old);
  g_assert_cmpstr (problem, ==, "Needs distrobox 1.7.0 or newer");
  g_clear_pointer (&problem, g_free);
  problem = kiste_create_flag_dup_problem (home, old);
  g_assert_nonnull (problem);
}

static void
test_effective_unshare (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(KisteCapabilities) released = make_caps (CAPS_1_8_2_5);
  g_autoptr(KisteCapabilities) patched = make_caps (CAPS_PATCHED);
  g_autoptr(KisteCapabilities) old = make_caps (CAPS_1_6_0);

  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    g_assert_false (kiste_create_options_get_effective_unshare (options, i, patched));

  /* init implies process and groups, nothing else */
  kiste_create_options_set_init (options, TRUE);
  g_assert_true (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_PROCESS, NULL));
  g_assert_true (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_GROUPS, NULL));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_IPC, NULL));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_NETNS, NULL));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_DEVSYS, NULL));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, NULL));
  /* and says why */
  g_assert_cmpint (kiste_create_options_get_unshare_implied (options, KISTE_UNSHARE_PROCESS, NULL), ==,
                   KISTE_UNSHARE_IMPLIED_BY_INIT);
  g_assert_cmpint (kiste_create_options_get_unshare_implied (options, KISTE_UNSHARE_IPC, NULL), ==,
                   KISTE_UNSHARE_IMPLIED_NO);
  /* init wins over Isolate Everything for the reason shown */
  kiste_create_options_set_unshare_all (options, TRUE);
  g_assert_cmpint (kiste_create_options_get_unshare_implied (options, KISTE_UNSHARE_GROUPS, NULL), ==,
                   KISTE_UNSHARE_IMPLIED_BY_INIT);
  g_assert_cmpint (kiste_create_options_get_unshare_implied (options, KISTE_UNSHARE_IPC, NULL), ==,
                   KISTE_UNSHARE_IMPLIED_BY_ALL);
  g_assert_cmpint (kiste_create_options_get_unshare_implied (options, KISTE_UNSHARE_HOME, NULL), ==,
                   KISTE_UNSHARE_IMPLIED_NO);
  kiste_create_options_set_unshare_all (options, FALSE);
  /* requested flags stay as requested */
  g_assert_false (kiste_create_options_get_unshare (options, KISTE_UNSHARE_PROCESS));
  kiste_create_options_set_init (options, FALSE);

  /* unshare-all: the home wherever Kiste can keep it out (from the dry run
   * of a released distrobox), never on a distrobox it cannot */
  kiste_create_options_set_unshare_all (options, TRUE);
  for (guint i = 0; i < KISTE_UNSHARE_HOME; i++)
    g_assert_true (kiste_create_options_get_effective_unshare (options, i, released));
  g_assert_true (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, released));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, old));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, NULL));
  g_assert_true (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, patched));
  kiste_create_options_set_unshare_all (options, FALSE);

  kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
  g_assert_true (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_HOME, NULL));
  g_assert_false (kiste_create_options_get_effective_unshare (options, KISTE_UNSHARE_IPC, NULL));
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_properties (void)
{
  static const char * const bool_props[] = {
    "unshare-devsys", "unshare-groups", "unshare-ipc", "unshare-netns", "unshare-process",
    "unshare-home", "unshare-all", "init", "nvidia", "pull", "add-to-menu",
  };
  const char * const volumes[] = { "/a:/a", "", "/b:/b:ro", NULL };
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(KisteCreateOptions) copy = NULL;
  g_auto(GStrv) got_volumes = NULL;
  g_autofree char *home = NULL;
  gboolean value;
  guint notified = 0;

  g_signal_connect (options, "notify", G_CALLBACK (count_notify), &notified);

  /* the default is no launcher */
  g_assert_false (kiste_create_options_get_add_to_menu (options));

  for (guint i = 0; i < G_N_ELEMENTS (bool_props); i++)
    {
      g_object_set (options, bool_props[i], TRUE, NULL);
      g_object_get (options, bool_props[i], &value, NULL);
      g_assert_true (value);
    }
  g_assert_cmpuint (notified, ==, G_N_ELEMENTS (bool_props));

  /* same value again: no notification */
  g_object_set (options, "init", TRUE, NULL);
  g_assert_cmpuint (notified, ==, G_N_ELEMENTS (bool_props));

  g_assert_true (kiste_create_options_get_unshare (options, KISTE_UNSHARE_HOME));
  g_assert_true (kiste_create_options_get_unshare (options, KISTE_UNSHARE_DEVSYS));
  g_assert_true (kiste_create_options_get_unshare_all (options));

  /* "" means unset */
  g_object_set (options, "home", "/h", NULL);
  g_object_set (options, "home", "", NULL);
  g_object_get (options, "home", &home, NULL);
  g_assert_null (home);

  g_object_set (options, "volumes", volumes, NULL);
  g_object_get (options, "volumes", &got_volumes, NULL);
  g_assert_cmpuint (g_strv_length (got_volumes), ==, 2);
  g_assert_cmpstr (got_volumes[1], ==, "/b:/b:ro");

  kiste_create_options_set_name (options, "n1");
  kiste_create_options_set_image (options, "alpine");
  kiste_create_options_set_init_hooks (options, "true");
  kiste_create_options_add_additional_packages (options, "git");
  copy = kiste_create_options_copy (options);
  g_assert_cmpstr (kiste_create_options_get_name (copy), ==, "n1");
  g_assert_cmpstr (kiste_create_options_get_image (copy), ==, "alpine");
  g_assert_cmpstr (kiste_create_options_get_init_hooks (copy), ==, "true");
  g_assert_true (g_strv_equal (kiste_create_options_get_volumes (copy),
                               kiste_create_options_get_volumes (options)));
  g_assert_cmpstr (kiste_create_options_get_additional_packages (copy)[0], ==, "git");
  for (guint i = 0; i < G_N_ELEMENTS (bool_props); i++)
    {
      g_object_get (copy, bool_props[i], &value, NULL);
      g_assert_true (value);
    }
}

static void
test_field_enum (void)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (KISTE_TYPE_CREATE_FIELD);
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();

  /* nicks are property names, so the UI can find the widget */
  for (guint i = 1; i < klass->n_values; i++)
    g_assert_nonnull (g_object_class_find_property (G_OBJECT_GET_CLASS (options),
                                                    klass->values[i].value_nick));
  g_assert_cmpstr (g_enum_get_value (klass, KISTE_CREATE_FIELD_CLONE_SOURCE)->value_nick, ==,
                   "clone-source");
}

/* The element of a captured podman JSON array named name (ps: Names[0],
 * inspect: Name) */
static JsonObject *
fixture_element (JsonNode   *root,
                 const char *name)
{
  JsonArray *array = json_node_get_array (root);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      const char *element_name = NULL;

      if (json_object_has_member (object, "Names"))
        element_name = json_array_get_string_element (json_object_get_array_member (object, "Names"), 0);
      else
        element_name = json_object_get_string_member (object, "Name");
      if (g_strcmp0 (element_name, name) == 0)
        return object;
    }
  g_assert_not_reached ();
}

static JsonNode *
load_fixture_json (const char *file)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), file, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static KisteBox *
fixture_box (JsonNode   *ps,
             JsonNode   *inspect,
             const char *name)
{
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  box = kiste_box_new_from_ps_json (fixture_element (ps, name), "/home/tester", &error);
  g_assert_no_error (error);
  if (inspect != NULL)
    {
      kiste_box_apply_inspect_json (box, fixture_element (inspect, name), &error);
      g_assert_no_error (error);
    }
  return box;
}

static void
test_from_box (void)
{
  g_autoptr(JsonNode) ps = load_fixture_json ("ps-podman5.json");
  g_autoptr(JsonNode) inspect = load_fixture_json ("inspect-podman5.json");
  g_autoptr(KisteBox) a = fixture_box (ps, inspect, "fixture-a");
  g_autoptr(KisteBox) b_listed = fixture_box (ps, NULL, "fixture-b");
  g_autoptr(KisteBox) b = fixture_box (ps, inspect, "fixture-b");
  g_autoptr(KisteBox) c = fixture_box (ps, inspect, "fixture-c");
  g_autoptr(KisteCreateOptions) from_a = kiste_create_options_new_from_box (a);
  g_autoptr(KisteCreateOptions) from_b_listed = kiste_create_options_new_from_box (b_listed);
  g_autoptr(KisteCreateOptions) from_b = kiste_create_options_new_from_box (b);
  g_autoptr(KisteCreateOptions) from_c = kiste_create_options_new_from_box (c);
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) error = NULL;
  const char *names[] = { "fixture-a", "fixture-b", "fixture-c", NULL };
  const char *expected_b[] = {
    "distrobox", "create", "--yes", "--name", "fixture-b-copy", "--clone", "fixture-b",
    "--home", "/home/tester/h2", "--init",
    "--unshare-groups", "--unshare-netns", "--unshare-process", "--no-entry", NULL
  };

  /* fixture-a shares everything and uses the host home */
  g_assert_cmpstr (kiste_create_options_get_name (from_a), ==, "fixture-a-copy");
  g_assert_cmpstr (kiste_create_options_get_clone_source (from_a), ==, "fixture-a");
  g_assert_null (kiste_create_options_get_image (from_a));
  g_assert_null (kiste_create_options_get_home (from_a));
  g_assert_null (kiste_create_options_get_hostname (from_a));
  g_assert_false (kiste_create_options_get_init (from_a));
  g_assert_false (kiste_create_options_get_nvidia (from_a));
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    g_assert_false (kiste_create_options_get_unshare (from_a, i));
  g_assert_false (kiste_create_options_get_unshare_all (from_a));
  g_assert_true (kiste_create_options_validate (from_a, names, &error));
  g_assert_no_error (error);

  /* fixture-b: --init, a home of its own, its own network (known only
   * once inspected), its hostname not copied */
  g_assert_cmpstr (kiste_create_options_get_name (from_b), ==, "fixture-b-copy");
  g_assert_cmpstr (kiste_create_options_get_clone_source (from_b), ==, "fixture-b");
  g_assert_cmpstr (kiste_create_options_get_home (from_b), ==, "/home/tester/h2");
  g_assert_true (kiste_create_options_get_init (from_b));
  g_assert_true (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_NETNS));
  g_assert_true (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_GROUPS));
  g_assert_true (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_PROCESS));
  g_assert_false (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_IPC));
  g_assert_false (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_DEVSYS));
  g_assert_false (kiste_create_options_get_unshare (from_b, KISTE_UNSHARE_HOME));
  g_assert_null (kiste_create_options_get_hostname (from_b));
  argv = kiste_create_options_to_argv (from_b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (argv, expected_b);

  /* before inspect the network is unknown: shared, not guessed */
  g_assert_cmpint (kiste_box_get_unshare (b_listed, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNKNOWN);
  g_assert_false (kiste_create_options_get_unshare (from_b_listed, KISTE_UNSHARE_NETNS));
  g_assert_false (kiste_create_options_get_unshare (from_b_listed, KISTE_UNSHARE_IPC));
  g_assert_true (kiste_create_options_get_unshare (from_b_listed, KISTE_UNSHARE_GROUPS));
  g_assert_cmpstr (kiste_create_options_get_home (from_b_listed), ==, "/home/tester/h2");

  /* fixture-c: its own /dev, ipc and processes */
  g_assert_true (kiste_create_options_get_unshare (from_c, KISTE_UNSHARE_DEVSYS));
  g_assert_true (kiste_create_options_get_unshare (from_c, KISTE_UNSHARE_IPC));
  g_assert_true (kiste_create_options_get_unshare (from_c, KISTE_UNSHARE_PROCESS));
  g_assert_false (kiste_create_options_get_unshare (from_c, KISTE_UNSHARE_NETNS));
  g_assert_false (kiste_create_options_get_init (from_c));
  g_assert_null (kiste_create_options_get_home (from_c));
}

/* Export: the box's settings with its image, written and read back */
static void
test_from_box_round_trip (void)
{
  g_autoptr(JsonNode) ps = load_fixture_json ("ps-podman5.json");
  g_autoptr(JsonNode) inspect = load_fixture_json ("inspect-podman5.json");
  g_autoptr(KisteBox) b = fixture_box (ps, inspect, "fixture-b");
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new_from_box (b);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  KisteAssembleEntry *entry;

  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, kiste_box_get_image (b));
  kiste_create_options_set_name (options, kiste_box_get_name (b));
  g_ptr_array_add (list, options);
  data = kiste_assemble_to_data (list, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (data, "[fixture-b]\n"));
  g_assert_null (strstr (data, "clone="));

  entries = kiste_assemble_parse (data, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);
  entry = g_ptr_array_index (entries, 0);
  g_assert_null (entry->error);
  g_assert_cmpstr (entry->section, ==, "fixture-b");
  g_assert_cmpstr (kiste_create_options_get_image (entry->options), ==, "localhost/kiste-debian:ready");
  g_assert_null (kiste_create_options_get_clone_source (entry->options));
  g_assert_cmpstr (kiste_create_options_get_home (entry->options), ==, "/home/tester/h2");
  g_assert_true (kiste_create_options_get_init (entry->options));
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    g_assert_cmpint (kiste_create_options_get_unshare (entry->options, i), ==,
                     kiste_create_options_get_unshare (options, i));
}

static void
count_cb (guint *count)
{
  (*count)++;
}

static void
follow_name_cb (KisteCreateOptions *options)
{
  g_autofree char *home = g_strdup_printf ("/srv/%s", kiste_create_options_get_name (options));

  kiste_create_options_set_home (options, home);
}

/* "changed" once per change: a setter that moves two properties, a
 * binding's g_object_set(), and what notify handlers set in turn */
static void
test_changed_once (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  guint changed = 0;

  g_signal_connect_swapped (options, "changed", G_CALLBACK (count_cb), &changed);

  kiste_create_options_set_home (options, "/srv/home");
  g_assert_true (kiste_create_options_get_separate_home (options));
  g_assert_cmpuint (changed, ==, 1);

  kiste_create_options_set_separate_home (options, FALSE);
  g_assert_null (kiste_create_options_get_home (options));
  g_assert_cmpuint (changed, ==, 2);

  /* nothing changes, nothing said */
  kiste_create_options_set_separate_home (options, FALSE);
  g_assert_cmpuint (changed, ==, 2);

  g_object_set (options, "name", "box", "image", "fedora", NULL);
  g_assert_cmpuint (changed, ==, 3);

  g_signal_connect (options, "notify::name", G_CALLBACK (follow_name_cb), NULL);
  kiste_create_options_set_name (options, "other");
  g_assert_cmpstr (kiste_create_options_get_home (options), ==, "/srv/other");
  g_assert_cmpuint (changed, ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/create-options/argv", test_argv_table);
  g_test_add_func ("/create-options/changed-once", test_changed_once);
  g_test_add_func ("/create-options/argv-refused", test_argv_refused);
  g_test_add_func ("/create-options/temporary", test_temporary);
  g_test_add_func ("/create-options/bad-input", test_bad_input);
  g_test_add_func ("/create-options/first-bad-field", test_first_bad_field);
  g_test_add_func ("/create-options/home-paths", test_home_paths);
  g_test_add_func ("/create-options/netns-default-hostname", test_netns_default_hostname);
  g_test_add_func ("/create-options/flag-problem", test_flag_problem);
  g_test_add_func ("/create-options/separate-home", test_separate_home);
  g_test_add_func ("/create-options/check", test_check);
  g_test_add_func ("/create-options/effective-unshare", test_effective_unshare);
  g_test_add_func ("/create-options/properties", test_properties);
  g_test_add_func ("/create-options/field-enum", test_field_enum);
  g_test_add_func ("/create-options/from-box", test_from_box);
  g_test_add_func ("/create-options/from-box-round-trip", test_from_box_round_trip);

  return g_test_run ();
}
