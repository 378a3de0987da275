/* test-create-flags.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-capabilities-private.h"
#include "kiste-create-flags.h"
#include "kiste-create-options.h"

/* Capabilities as the installed distrobox reports them, from the captured
 * (or, for other versions, reconstructed) `distrobox create --help` */
typedef enum
{
  CAPS_NONE,          /* no capabilities object */
  CAPS_UNLOADED,      /* an object that never ran */
  CAPS_NO_DISTROBOX,  /* loaded: distrobox is missing */
  CAPS_1_6_0,         /* before --unshare-groups and --platform */
  CAPS_1_8_2_5,       /* released: no --unshare-home */
  CAPS_LILIPOD,       /* 1.8.2.5 with an engine whose dry run Kiste does not know */
  CAPS_PATCHED,       /* 1.8.2.5 with the --unshare-home change */
  CAPS_2_0,           /* distrobox 2 (Go) */
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
    { CAPS_NO_DISTROBOX, NULL, "podman", NULL },
    { CAPS_1_6_0, "1.6.0", "podman", "help-distrobox-1.6.0.txt" },
    { CAPS_1_8_2_5, "1.8.2.5", "podman", "help-distrobox-1.8.2.5.txt" },
    { CAPS_LILIPOD, "1.8.2.5", "lilipod", "help-distrobox-1.8.2.5.txt" },
    { CAPS_PATCHED, "1.8.2.5", "podman", "help-distrobox-1.8.2.5-unshare-home.txt" },
    { CAPS_2_0, "2.0.0-rc.4", "docker", "help-distrobox-2.0.0-rc.4.txt" },
  };
  g_autoptr(KisteRunner) runner = NULL;
  KisteCapabilities *caps;

  if (kind == CAPS_NONE)
    return NULL;

  runner = kiste_runner_new ();
  caps = kiste_capabilities_new (runner);

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    {
      g_auto(GStrv) flags = NULL;

      if (table[i].kind != kind)
        continue;

      if (table[i].help_file != NULL)
        {
          g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), table[i].help_file, NULL);
          g_autofree char *help = NULL;
          g_autoptr(GError) error = NULL;

          g_file_get_contents (path, &help, NULL, &error);
          g_assert_no_error (error);
          flags = kiste_capabilities_parse_create_help (help);
        }
      _kiste_capabilities_set_for_testing (caps, table[i].version, table[i].manager,
                                           (const char * const *) flags);
    }

  return caps;
}

/* Every entry is an option of KisteCreateOptions of the type its kind
 * reads, and names a field where its problem is shown */
static void
test_properties (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(GEnumClass) fields = g_type_class_ref (KISTE_TYPE_CREATE_FIELD);
  g_autoptr(GHashTable) properties = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) flags_seen = g_hash_table_new (g_str_hash, g_str_equal);
  GObjectClass *klass = G_OBJECT_GET_CLASS (options);
  const KisteCreateFlag *flags;
  guint n_flags;

  flags = kiste_create_flags_get_all (&n_flags);
  g_assert_cmpuint (n_flags, >, 0);

  for (guint i = 0; i < n_flags; i++)
    {
      const KisteCreateFlag *flag = &flags[i];
      GParamSpec *pspec = g_object_class_find_property (klass, flag->property);
      GType expected;

      g_test_message ("%s %s", flag->property, flag->flag);
      g_assert_nonnull (pspec);
      g_assert_true (pspec->flags & G_PARAM_READABLE);
      g_assert_true (g_str_has_prefix (flag->flag, "--"));
      g_assert_true (g_hash_table_add (properties, (gpointer) flag->property));
      g_assert_true (g_hash_table_add (flags_seen, (gpointer) flag->flag));
      g_assert_true (kiste_create_flags_find (flag->property) == flag);

      switch (flag->kind)
        {
        case KISTE_CREATE_FLAG_VALUE:
          expected = G_TYPE_STRING;
          break;
        case KISTE_CREATE_FLAG_VALUES:
        case KISTE_CREATE_FLAG_WORDS:
          expected = G_TYPE_STRV;
          break;
        case KISTE_CREATE_FLAG_SWITCH:
        case KISTE_CREATE_FLAG_UNSHARE:
        case KISTE_CREATE_FLAG_ALWAYS:
          expected = G_TYPE_BOOLEAN;
          break;
        default:
          g_assert_not_reached ();
        }
      g_assert_true (G_PARAM_SPEC_VALUE_TYPE (pspec) == expected);

      /* a constant value only with a switch */
      g_assert_true (flag->value == NULL || flag->kind == KISTE_CREATE_FLAG_SWITCH);
      if (flag->unless != NULL)
        g_assert_nonnull (g_object_class_find_property (klass, flag->unless));
      if (flag->since != NULL)
        g_assert_cmpint (kiste_capabilities_compare_versions (flag->since, "1.0"), >, 0);
      /* only what Kiste may do itself needs a word on what its lack means */
      g_assert_true (flag->missing == NULL || flag->needs == KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN);

      /* its problem is shown at its field; only the temporary label has none */
      if (!g_str_equal (flag->property, "temporary"))
        g_assert_nonnull (g_enum_get_value_by_nick (fields, flag->property));
    }

  g_assert_null (kiste_create_flags_find ("separate-home"));
  g_assert_null (kiste_create_flags_find ("no-such-option"));
}

/* The unshare list: each KisteUnshare once, in its order */
static void
test_unshare (void)
{
  const KisteCreateFlag *flags;
  guint n_flags;
  guint next = 0;

  flags = kiste_create_flags_get_all (&n_flags);
  for (guint i = 0; i < n_flags; i++)
    {
      if (flags[i].kind != KISTE_CREATE_FLAG_UNSHARE)
        continue;
      g_assert_cmpuint (flags[i].unshare, ==, next);
      g_assert_true (kiste_create_flags_find_unshare (next) == &flags[i]);
      next++;
    }
  g_assert_cmpuint (next, ==, KISTE_N_UNSHARE);

  /* Isolate Everything covers the five namespaces, not the home */
  for (guint i = 0; i < KISTE_UNSHARE_HOME; i++)
    g_assert_cmpstr (kiste_create_flags_find_unshare (i)->unless, ==, "unshare-all");
  g_assert_null (kiste_create_flags_find_unshare (KISTE_UNSHARE_HOME)->unless);
}

typedef struct
{
  CapsKind    caps;
  const char *property;
  const char *problem;     /* NULL: usable */
  gboolean    by_kiste;    /* usable, done from the dry run */
} SupportCase;

static const SupportCase support_cases[] = {
  /* nothing known yet: everything but the home, which no release has */
  { CAPS_NONE, "nvidia", NULL },
  { CAPS_NONE, "unshare-all", NULL },
  { CAPS_NONE, "unshare-home", "Not available in the installed distrobox" },
  { CAPS_UNLOADED, "unshare-groups", NULL },
  { CAPS_UNLOADED, "unshare-home", "Not available in the installed distrobox" },
  /* distrobox missing: only what every distrobox has */
  { CAPS_NO_DISTROBOX, "name", NULL },
  { CAPS_NO_DISTROBOX, "image", NULL },
  { CAPS_NO_DISTROBOX, "unshare-groups", "distrobox is not installed" },
  { CAPS_NO_DISTROBOX, "unshare-home", "distrobox is not installed" },
  /* a release too old for a flag says which one has it */
  { CAPS_1_6_0, "init", NULL },
  { CAPS_1_6_0, "unshare-ipc", NULL },
  { CAPS_1_6_0, "unshare-groups", "Needs distrobox 1.7.0 or newer" },
  { CAPS_1_6_0, "platform", "Needs distrobox 1.8.1 or newer" },
  { CAPS_1_6_0, "unshare-home", "Needs distrobox 1.8.0 or newer" },
  { CAPS_1_6_0, "temporary", NULL },
  /* released: the home from the dry run */
  { CAPS_1_8_2_5, "unshare-groups", NULL },
  { CAPS_1_8_2_5, "platform", NULL },
  { CAPS_1_8_2_5, "clone-source", NULL },
  { CAPS_1_8_2_5, "add-to-menu", NULL },
  { CAPS_1_8_2_5, "unshare-home", NULL, TRUE },
  { CAPS_LILIPOD, "unshare-groups", NULL },
  { CAPS_LILIPOD, "unshare-home", "Needs Podman or Docker" },
  /* patched: distrobox's own flag */
  { CAPS_PATCHED, "unshare-home", NULL, FALSE },
  /* distrobox 2: no flag, no dry run Kiste knows */
  { CAPS_2_0, "unshare-groups", NULL },
  { CAPS_2_0, "volumes", NULL },
  { CAPS_2_0, "unshare-home", "Not available in distrobox 2.0.0-rc.4" },
};

static void
test_supported (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (support_cases); i++)
    {
      const SupportCase *c = &support_cases[i];
      g_autoptr(KisteCapabilities) caps = NULL;
      const KisteCreateFlag *flag = kiste_create_flags_find (c->property);
      g_autofree char *problem = NULL;

      if (c->caps == CAPS_UNLOADED)
        {
          g_autoptr(KisteRunner) runner = kiste_runner_new ();

          caps = kiste_capabilities_new (runner);
        }
      else
        caps = make_caps (c->caps);

      g_test_message ("case %u: %s", i, c->property);
      g_assert_nonnull (flag);
      problem = kiste_create_flag_dup_problem (flag, caps);
      g_assert_cmpstr (problem, ==, c->problem);
      g_assert_cmpint (kiste_create_flag_is_supported (flag, caps), ==, c->problem == NULL);
      g_assert_cmpint (kiste_create_flag_is_done_by_kiste (flag, caps), ==, c->by_kiste);
    }
}

/* Every flag the installed distrobox lists is usable, whatever it needs */
static void
test_listed (void)
{
  g_autoptr(KisteCapabilities) patched = make_caps (CAPS_PATCHED);
  const KisteCreateFlag *flags;
  guint n_flags;

  flags = kiste_create_flags_get_all (&n_flags);
  for (guint i = 0; i < n_flags; i++)
    {
      g_assert_true (kiste_capabilities_supports_create_flag (patched, flags[i].flag));
      g_assert_true (kiste_create_flag_is_supported (&flags[i], patched));
      g_assert_false (kiste_create_flag_is_done_by_kiste (&flags[i], patched));
      g_assert_null (kiste_create_flag_get_missing (&flags[i], patched));
    }
}

/* What a missing home isolation means is said once it is known */
static void
test_missing (void)
{
  g_autoptr(KisteCapabilities) old = make_caps (CAPS_1_6_0);
  g_autoptr(KisteCapabilities) released = make_caps (CAPS_1_8_2_5);
  g_autoptr(KisteCapabilities) v2 = make_caps (CAPS_2_0);
  const KisteCreateFlag *home = kiste_create_flags_find ("unshare-home");

  /* the point people must not miss: --home does not hide the real home */
  g_assert_nonnull (strstr (kiste_create_flag_get_missing (home, old), "still mounted"));
  g_assert_nonnull (strstr (kiste_create_flag_get_missing (home, v2), "still mounted"));
  g_assert_null (kiste_create_flag_get_missing (home, released));
  g_assert_null (kiste_create_flag_get_missing (home, NULL));
  g_assert_null (kiste_create_flag_get_missing (kiste_create_flags_find ("unshare-groups"), old));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/create-flags/properties", test_properties);
  g_test_add_func ("/create-flags/unshare", test_unshare);
  g_test_add_func ("/create-flags/supported", test_supported);
  g_test_add_func ("/create-flags/listed", test_listed);
  g_test_add_func ("/create-flags/missing", test_missing);

  return g_test_run ();
}
