/* test-create-plan.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-capabilities-private.h"
#include "kiste-create-options.h"
#include "kiste-create-plan.h"
#include "kiste-error.h"

#define IMAGE "docker.io/library/debian:12"
#define BASE "distrobox", "create", "--yes", "--name", "dev", "--image", IMAGE

static const KisteIsolatedHomeHost plain_host = {
  .host_home = "/home/kistetest",
  .user_name = "kistetest",
  .runtime_dir = "/run/user/1001",
  .uid = 1001,
  .gid = 1001,
  .host_has_var_home = FALSE,
};

typedef enum
{
  CAPS_NONE,      /* no capabilities object */
  CAPS_1_6_0,     /* no dry run Kiste can read */
  CAPS_1_8_2_5,   /* released: the home from the dry run */
  CAPS_PATCHED,   /* 1.8.2.5 with the flag for the home */
  CAPS_DOCKER,    /* 1.8.2.5 with docker */
} CapsKind;

static KisteCapabilities *
make_caps (CapsKind kind)
{
  static const struct
  {
    CapsKind    kind;
    const char *version;
    const char *manager;
    const char *help_file;
  } table[] = {
    { CAPS_1_6_0, "1.6.0", "podman", "help-distrobox-1.6.0.txt" },
    { CAPS_1_8_2_5, "1.8.2.5", "podman", "help-distrobox-1.8.2.5.txt" },
    { CAPS_PATCHED, "1.8.2.5", "podman", "help-distrobox-1.8.2.5-unshare-home.txt" },
    { CAPS_DOCKER, "1.8.2.5", "docker", "help-distrobox-1.8.2.5.txt" },
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
      _kiste_capabilities_set_for_testing (caps, table[i].version, table[i].manager,
                                           (const char * const *) flags);
    }

  return caps;
}

static KisteCreateOptions *
base_options (void)
{
  KisteCreateOptions *options = kiste_create_options_new ();

  kiste_create_options_set_name (options, "dev");
  kiste_create_options_set_image (options, IMAGE);

  return options;
}

typedef void (*SetupFunc) (KisteCreateOptions *options);

static void
setup_nothing (KisteCreateOptions *o)
{
}

static void
setup_clone (KisteCreateOptions *o)
{
  kiste_create_options_set_clone_source (o, "Fedora-39");
}

static void
setup_home (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare (o, KISTE_UNSHARE_HOME, TRUE);
}

static void
setup_clone_home (KisteCreateOptions *o)
{
  setup_clone (o);
  setup_home (o);
}

static void
setup_home_pull (KisteCreateOptions *o)
{
  setup_home (o);
  kiste_create_options_set_pull (o, TRUE);
}

static void
setup_all (KisteCreateOptions *o)
{
  kiste_create_options_set_unshare_all (o, TRUE);
  kiste_create_options_set_hostname (o, "dev");
}

static void
setup_home_temporary (KisteCreateOptions *o)
{
  setup_home (o);
  kiste_create_options_set_temporary (o, TRUE);
}

/* "@IMAGE@" stands for the image a copy's source is committed as */
typedef struct
{
  const char          *desc;
  SetupFunc            setup;
  CapsKind             caps;
  const char          *engine;
  KisteCreatePlanKind  kind;
  const char          *prepare[8];
  const char          *argv[32];
} PlanCase;

static const PlanCase plan_cases[] = {
  { "plain", setup_nothing, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_PLAIN,
    { NULL },
    { BASE, "--no-entry", NULL } },
  { "plain without caps", setup_nothing, CAPS_NONE, "podman", KISTE_CREATE_PLAN_PLAIN,
    { NULL },
    { BASE, "--no-entry", NULL } },
  { "clone", setup_clone, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_CLONE,
    { NULL },
    { "distrobox", "create", "--yes", "--name", "dev", "--clone", "Fedora-39", "--no-entry", NULL } },
  { "isolated", setup_home, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { NULL },
    { BASE, "--no-entry", "--dry-run", NULL } },
  /* the dry run never pulls */
  { "isolated, always download", setup_home_pull, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { "podman", "pull", IMAGE, NULL },
    { BASE, "--pull", "--no-entry", "--dry-run", NULL } },
  /* the dry run never clones: the source is committed as distrobox does */
  { "clone and isolated", setup_clone_home, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { "podman", "container", "commit", "Fedora-39", "@IMAGE@", NULL },
    { "distrobox", "create", "--yes", "--name", "dev", "--image", "@IMAGE@", "--no-entry", "--dry-run",
      NULL } },
  { "clone and isolated with docker", setup_clone_home, CAPS_DOCKER, "docker", KISTE_CREATE_PLAN_ISOLATED,
    { "docker", "container", "commit", "Fedora-39", "@IMAGE@", NULL },
    { "distrobox", "create", "--yes", "--name", "dev", "--image", "@IMAGE@", "--no-entry", "--dry-run",
      NULL } },
  /* distrobox's own flag, and still the dry run Kiste checks */
  { "isolated on a patched build", setup_home, CAPS_PATCHED, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { NULL },
    { BASE, "--unshare-home", "--no-entry", "--dry-run", NULL } },
  /* Isolate Everything keeps the home out wherever Kiste can */
  { "isolate everything", setup_all, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { NULL },
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", "--dry-run", NULL } },
  { "isolate everything on 1.6", setup_all, CAPS_1_6_0, "podman", KISTE_CREATE_PLAN_PLAIN,
    { NULL },
    { BASE, "--hostname", "dev", "--unshare-all", "--no-entry", NULL } },
  { "isolated and temporary", setup_home_temporary, CAPS_1_8_2_5, "podman", KISTE_CREATE_PLAN_ISOLATED,
    { NULL },
    { BASE, "--no-entry", "--additional-flags", "--label io.github.kiste.temporary=1", "--dry-run",
      NULL } },
};

static char *
join_argv (const char * const *argv)
{
  return argv ? g_strjoinv ("|", (char **) argv) : g_strdup ("(null)");
}

static void
assert_argv (const char         *desc,
             const char * const *got,
             const char * const *want,
             const char         *image)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) expected = NULL;

  for (guint i = 0; want[i] != NULL; i++)
    g_strv_builder_add (builder, g_str_equal (want[i], "@IMAGE@") ? image : want[i]);
  expected = g_strv_builder_end (builder);

  if (!g_strv_equal (got, (const char * const *) expected))
    {
      g_autofree char *got_text = join_argv (got);
      g_autofree char *want_text = join_argv ((const char * const *) expected);

      g_error ("%s:\n  got  %s\n  want %s", desc, got_text, want_text);
    }
}

static void
test_plans (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%F");
  /* lower case, as distrobox names it */
  g_autofree char *image = g_strdup_printf ("fedora-39:%s", date);

  for (guint i = 0; i < G_N_ELEMENTS (plan_cases); i++)
    {
      const PlanCase *c = &plan_cases[i];
      g_autoptr(KisteCreateOptions) options = base_options ();
      g_autoptr(KisteCapabilities) caps = make_caps (c->caps);
      g_autoptr(KisteCreatePlan) plan = NULL;
      g_autoptr(GError) error = NULL;
      const char * const *prepare;

      g_test_message ("case: %s", c->desc);
      c->setup (options);

      plan = kiste_create_options_plan (options, NULL, caps, c->engine, &error);
      g_assert_no_error (error);
      g_assert_nonnull (plan);
      g_assert_cmpint (kiste_create_plan_get_kind (plan), ==, c->kind);

      prepare = kiste_create_plan_get_prepare_argv (plan);
      if (c->prepare[0] == NULL)
        g_assert_null (prepare);
      else
        assert_argv (c->desc, prepare, c->prepare, image);
      assert_argv (c->desc, kiste_create_plan_get_argv (plan), c->argv, image);

      /* a box without the home is the only plan with a second create */
      if (c->kind != KISTE_CREATE_PLAN_ISOLATED)
        {
          g_auto(GStrv) argv = kiste_create_options_to_argv (options, caps, &error);

          g_assert_no_error (error);
          g_assert_true (g_strv_equal ((const char * const *) argv, kiste_create_plan_get_argv (plan)));
        }
    }
}

/* The options stay as they are: the copy's image is the plan's */
static void
test_options_untouched (void)
{
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(KisteCapabilities) caps = make_caps (CAPS_1_8_2_5);
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_autoptr(GError) error = NULL;

  setup_clone_home (options);
  plan = kiste_create_options_plan (options, NULL, caps, "podman", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kiste_create_options_get_clone_source (options), ==, "Fedora-39");
  g_assert_cmpstr (kiste_create_options_get_image (options), ==, IMAGE);
}

typedef struct
{
  const char       *desc;
  const char       *name;
  SetupFunc         setup;
  CapsKind          caps;
  const char       *in_message;
} RefusedCase;

static const RefusedCase refused_cases[] = {
  { "a name a shell would run", "dev$(id)", setup_nothing, CAPS_1_8_2_5, "name" },
  { "a name that is taken", "taken", setup_nothing, CAPS_1_8_2_5, "taken" },
  { "a copy of a box that is not there", "dev", setup_clone, CAPS_1_8_2_5, "clone" },
  { "the home without a dry run Kiste can read", "dev", setup_home, CAPS_1_6_0,
    "Needs distrobox 1.8.0 or newer" },
  { "the home before anything is known", "dev", setup_home, CAPS_NONE,
    "Not available in the installed distrobox" },
};

/* Nothing runs for options that cannot make a box: no plan */
static void
test_refused (void)
{
  const char *existing[] = { "taken", NULL };

  for (guint i = 0; i < G_N_ELEMENTS (refused_cases); i++)
    {
      const RefusedCase *c = &refused_cases[i];
      g_autoptr(KisteCreateOptions) options = base_options ();
      g_autoptr(KisteCapabilities) caps = make_caps (c->caps);
      g_autoptr(KisteCreatePlan) plan = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("case: %s", c->desc);
      kiste_create_options_set_name (options, c->name);
      c->setup (options);

      plan = kiste_create_options_plan (options, existing, caps, "podman", &error);
      g_assert_null (plan);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      if (strstr (error->message, c->in_message) == NULL)
        g_error ("%s: “%s” not in “%s”", c->desc, c->in_message, error->message);
    }
}

/* The last create of a box without the home: built from the parts of the
 * dry run, refused when they are not what Kiste knows */
static void
test_isolated_create (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "dry-run-create-plain.txt", NULL);
  g_autofree char *dry_run = NULL;
  g_autoptr(KisteCreateOptions) options = base_options ();
  g_autoptr(KisteCapabilities) caps = make_caps (CAPS_1_8_2_5);
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_autofree char *joined = NULL;

  g_assert_true (g_file_get_contents (path, &dry_run, NULL, &error));
  setup_home (options);
  plan = kiste_create_options_plan (options, NULL, caps, "podman", &error);
  g_assert_no_error (error);

  argv = kiste_create_plan_dup_create_argv (plan, dry_run, &plain_host, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (argv[0], ==, "podman");
  g_assert_cmpstr (argv[1], ==, "create");
  joined = g_strjoinv (" ", argv);
  g_assert_null (strstr (joined, "/home/kistetest:/home/kistetest"));
  g_assert_null (strstr (joined, "/home:/run/host/home"));
  g_assert_nonnull (strstr (joined, "--mount type=tmpfs,destination=/run/host/home,notmpcopyup"));
  g_assert_nonnull (strstr (joined, "--label distrobox.unshare_home=1"));
  g_clear_pointer (&argv, g_strfreev);

  /* a command distrobox would eval is never copied */
  argv = kiste_create_plan_dup_create_argv (plan, "podman create\n--name \"$(id)\"\n", &plain_host, &error);
  g_assert_null (argv);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/create-plan/plans", test_plans);
  g_test_add_func ("/create-plan/options-untouched", test_options_untouched);
  g_test_add_func ("/create-plan/refused", test_refused);
  g_test_add_func ("/create-plan/isolated-create", test_isolated_create);

  return g_test_run ();
}
