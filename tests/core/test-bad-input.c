/* test-bad-input.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Hostile and broken input through the manager, the door every widget
 * uses: each case is refused with a message for people, names the field
 * it is about, and not one process starts (the fake runner records every
 * command). distrobox 1.8 passes names and paths through eval on the host,
 * so a value that slipped through here would run there. */

#include "config.h"

#include <string.h>

#include "kiste-box-store-private.h"
#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-create.h"
#include "kiste-manager-lifecycle.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-manager.h"

#define IMAGE "docker.io/library/debian:12"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *help_path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"),
                                                 "help-distrobox-1.8.2.5.txt", NULL);
  g_autofree char *help = NULL;
  g_auto(GStrv) flags = NULL;
  g_autoptr(GError) error = NULL;
  KisteBoxStore *store;

  fixture->runner = kiste_fake_runner_new ();
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  g_assert_true (g_file_get_contents (help_path, &help, NULL, &error));
  flags = kiste_capabilities_parse_create_help (help);
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", (const char * const *) flags);

  store = _kiste_manager_get_store (fixture->manager);
  kiste_test_merge_boxes (store, "ps-podman5.json", "/home/tester");
  g_assert_nonnull (kiste_box_store_find_by_name (store, "fixture-a"));
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->manager);
  g_assert_finalize_object (fixture->runner);
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Result;

static void
operation_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

/* Waits for the operation; it must have failed on its input, said so to
 * people, and run nothing */
static void
assert_refused (Fixture    *fixture,
                Result     *r,
                const char *desc,
                const char *in_message)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);

  if (r->ok)
    g_error ("%s: accepted", desc);
  if (!g_error_matches (r->error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT))
    g_error ("%s: failed with “%s”, not as bad input", desc, r->error->message);
  if (in_message != NULL && strstr (r->error->message, in_message) == NULL)
    g_error ("%s: “%s” does not mention “%s”", desc, r->error->message, in_message);
  if (kiste_fake_runner_get_commands (fixture->runner)->len != 0)
    g_error ("%s: ran “%s”", desc,
             (char *) g_ptr_array_index (kiste_fake_runner_get_commands (fixture->runner), 0));
  g_clear_error (&r->error);
}

/* 300 characters */
static char *
long_name (void)
{
  return g_strnfill (300, 'a');
}

/* Names: of a new box, and given to rename and clone */
static const char *bad_names[] = {
  "dev;rm -rf ~",
  "dev|cat /etc/shadow",
  "dev&id",
  "dev$(touch /tmp/pwned)",
  "dev`id`",
  "dev'x",
  "dev\"x",
  "my box",
  "dev\nid",
  "dev\tx",
  "d\xd0\xb5v",               /* a Cyrillic е that looks like e */
  "dev\xe2\x80\x8b",          /* a zero-width space */
  "-dev",
  "--help",
  "dev.1",
  "dev/../x",
  "",
  "LONG",                     /* 300 characters, made below */
};

static const char *
name_value (const char *name,
            char      **owned)
{
  if (g_str_equal (name, "LONG"))
    return *owned = long_name ();
  return name;
}

typedef struct
{
  const char *desc;
  const char *property;
  const char *value;
  const char *in_message;
} OptionCase;

static const OptionCase bad_options[] = {
  /* images */
  { "image with a space", "image", "debian 12", "image" },
  { "image with ;", "image", "debian;id", "image" },
  { "image with $()", "image", "debian$(id)", "image" },
  { "image with backticks", "image", "debian`id`", "image" },
  { "image with a newline", "image", "debian\nid", "image" },
  { "image with a quote", "image", "debian'x", "image" },
  { "image starting with -", "image", "--privileged", "image" },
  { "empty image", "image", "", "image" },
  /* home folders */
  { "relative home", "home", "boxes/dev", "home folder" },
  { "home with $()", "home", "/home/tester/$(id)", "home folder" },
  { "home with backticks", "home", "/home/tester/`id`", "home folder" },
  { "home with a quote", "home", "/home/tester/it's", "home folder" },
  { "home with a double quote", "home", "/home/tester/\"x\"", "home folder" },
  { "home with a newline", "home", "/home/tester/a\nb", "home folder" },
  { "home with ..", "home", "/home/tester/../../etc", "home folder" },
  { "home with $VAR", "home", "/home/$USER/dev", "home folder" },
  /* host names */
  { "65-character hostname", "hostname", "HOSTNAME65", "hostname" },
  { "hostname with _", "hostname", "my_host", "hostname" },
  { "hostname with ;", "hostname", "host;id", "hostname" },
  { "hostname starting with -", "hostname", "-host", "hostname" },
  { "hostname with $()", "hostname", "h$(id)", "hostname" },
  /* platform */
  { "platform with ;", "platform", "linux/arm64;id", "platform" },
  { "platform with $()", "platform", "linux/$(id)", "platform" },
};

static void
test_create (Fixture       *fixture,
             gconstpointer  data)
{
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
      g_autofree char *owned = NULL;
      g_autofree char *escaped = g_strescape (bad_names[i], NULL);
      g_autofree char *desc = g_strdup_printf ("create named %s", escaped);
      Result r = { 0 };

      kiste_create_options_set_name (options, name_value (bad_names[i], &owned));
      kiste_create_options_set_image (options, IMAGE);
      kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
      assert_refused (fixture, &r, desc, "name");
      n++;
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad_options); i++)
    {
      const OptionCase *c = &bad_options[i];
      g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
      g_autofree char *hostname = g_strnfill (65, 'h');
      Result r = { 0 };

      kiste_create_options_set_name (options, "newbox");
      kiste_create_options_set_image (options, IMAGE);
      if (g_str_equal (c->property, "home"))
        kiste_create_options_set_separate_home (options, TRUE);
      g_object_set (options, c->property,
                    g_str_equal (c->value, "HOSTNAME65") ? hostname : c->value, NULL);
      kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
      assert_refused (fixture, &r, c->desc, c->in_message);
      n++;
    }

  g_test_message ("%u create cases refused, nothing ran", n);
}

static const char *bad_volumes[] = {
  "relative:/data",
  "/srv/data:relative",
  "/srv/data",
  "/srv/data:/data:zz",
  "/srv/data:/data:ro:extra",
  "/srv/$(id):/data",
  "/srv/`id`:/data",
  "/srv/data:/data;id",
  "/srv/data:/data&id",
  "/srv/data|id:/data",
  "/srv/data>x:/data",
  "/srv/(x):/data",
  "/srv/*:/data",
  "/srv/~:/data",
  "/srv/#x:/data",
  "/srv/it's:/data",
  "/srv/a\nb:/data",
  "/srv/../..:/data",
  ":/data",
};

static void
test_volumes (Fixture       *fixture,
              gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_volumes); i++)
    {
      g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
      g_autofree char *escaped = g_strescape (bad_volumes[i], NULL);
      g_autofree char *desc = g_strdup_printf ("volume %s", escaped);
      Result r = { 0 };

      kiste_create_options_set_name (options, "newbox");
      kiste_create_options_set_image (options, IMAGE);
      kiste_create_options_add_volume (options, bad_volumes[i]);
      kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
      assert_refused (fixture, &r, desc, NULL);
    }
  g_test_message ("%u volumes refused, nothing ran", (guint) G_N_ELEMENTS (bad_volumes));
}

static void
test_packages (Fixture       *fixture,
               gconstpointer  data)
{
  const char *bad[] = { "git;id", "git $(id)", "git `id`", "git|id", "git&id", "git'x" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
      const char *packages[] = { bad[i], NULL };
      Result r = { 0 };

      kiste_create_options_set_name (options, "newbox");
      kiste_create_options_set_image (options, IMAGE);
      kiste_create_options_set_additional_packages (options, packages);
      kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
      assert_refused (fixture, &r, bad[i], NULL);
    }
}

static void
test_rename_and_clone (Fixture       *fixture,
                       gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autofree char *owned = NULL;
      const char *name = name_value (bad_names[i], &owned);
      g_autofree char *escaped = g_strescape (bad_names[i], NULL);
      g_autofree char *rename_desc = g_strdup_printf ("rename to %s", escaped);
      g_autofree char *clone_desc = g_strdup_printf ("clone as %s", escaped);
      Result r = { 0 };

      kiste_manager_rename_async (fixture->manager, "fixture-b", name, NULL, operation_cb, &r);
      assert_refused (fixture, &r, rename_desc, NULL);

      r = (Result) { 0 };
      kiste_manager_clone_async (fixture->manager, "fixture-b", name, FALSE, NULL, operation_cb, &r);
      assert_refused (fixture, &r, clone_desc, NULL);
    }

  /* a name that is taken */
  {
    Result r = { 0 };

    kiste_manager_rename_async (fixture->manager, "fixture-b", "fixture-a", NULL, operation_cb, &r);
    assert_refused (fixture, &r, "rename to a taken name", "fixture-a");
  }
}

/* Values that are valid but unusual are accepted and passed on as one
 * argument each */
static void
test_unusual_but_valid (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  GPtrArray *commands;
  Result r = { 0 };

  kiste_create_options_set_name (options, "Dev_Box-2");
  kiste_create_options_set_image (options, "registry.example.com:5000/team/dev-image@sha256:"
                                           "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  kiste_create_options_set_separate_home (options, TRUE);
  kiste_create_options_set_home (options, "/home/tester/My Boxes/Ärger Ordner");
  kiste_create_options_add_volume (options, "/srv/Ärger-Daten_2:/data:ro");
  kiste_manager_create_async (fixture->manager, options, NULL, operation_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);

  commands = kiste_fake_runner_get_commands (fixture->runner);
  g_assert_cmpuint (commands->len, >=, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (commands, 0), "'/home/tester/My Boxes/Ärger Ordner'"));
  g_assert_nonnull (strstr (g_ptr_array_index (commands, 0), "'/srv/Ärger-Daten_2:/data:ro'"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/kiste/bad-input/create", test_create);
  ADD ("/kiste/bad-input/volumes", test_volumes);
  ADD ("/kiste/bad-input/packages", test_packages);
  ADD ("/kiste/bad-input/rename-and-clone", test_rename_and_clone);
  ADD ("/kiste/bad-input/unusual-but-valid", test_unusual_but_valid);

  return g_test_run ();
}
