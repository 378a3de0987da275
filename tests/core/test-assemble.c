/* test-assemble.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-assemble.h"
#include "kiste-assemble-private.h"
#include "kiste-capabilities-private.h"
#include "kiste-error.h"

static char *
read_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static GPtrArray *
parse_ok (const char *data)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *entries = kiste_assemble_parse (data, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (entries);

  return entries;
}

static void
assert_strv (const char * const *got,
             const char * const *expected)
{
  if (!g_strv_equal (got, expected))
    {
      g_autofree char *a = g_strjoinv ("|", (char **)got);
      g_autofree char *b = g_strjoinv ("|", (char **)expected);

      g_error ("got “%s”, expected “%s”", a, b);
    }
}

static gboolean
warnings_contain (KisteAssembleEntry *entry,
                  const char         *text)
{
  for (guint i = 0; entry->warnings[i] != NULL; i++)
    if (strstr (entry->warnings[i], text) != NULL)
      return TRUE;

  return FALSE;
}

static void
test_realistic (void)
{
  g_autofree char *data = read_fixture ("assemble-realistic.ini");
  g_autoptr(GPtrArray) entries = parse_ok (data);
  g_autofree char *home = g_build_filename (g_get_home_dir (), "distrobox", "rawhide", NULL);
  g_autofree char *bins_path = g_build_filename (g_get_home_dir (), ".local", "bin", "boxes", NULL);
  g_autoptr(GError) error = NULL;
  KisteAssembleEntry *rawhide;
  KisteAssembleEntry *ubuntu;
  KisteAssembleEntry *common;
  KisteAssembleEntry *rootful;
  KisteCreateOptions *o;

  g_assert_cmpuint (entries->len, ==, 4);
  rawhide = g_ptr_array_index (entries, 0);
  ubuntu = g_ptr_array_index (entries, 1);
  common = g_ptr_array_index (entries, 2);
  rootful = g_ptr_array_index (entries, 3);

  /* [rawhide]: repeated keys add up, quotes go, ~ and $HOME are the home */
  g_assert_cmpstr (rawhide->section, ==, "rawhide");
  o = rawhide->options;
  g_assert_cmpstr (kiste_create_options_get_name (o), ==, "rawhide");
  g_assert_cmpstr (kiste_create_options_get_image (o), ==, "fedora:rawhide");
  g_assert_true (kiste_create_options_get_pull (o));
  g_assert_cmpstr (kiste_create_options_get_home (o), ==, home);
  assert_strv (kiste_create_options_get_additional_packages (o),
               (const char * const []) { "emacs emacs-pgtk aerc tmux git", "lolcat bat", NULL });
  g_assert_cmpstr (kiste_create_options_get_init_hooks (o), ==,
                   "touch /var/tmp/a && touch /var/tmp/b; echo \"done\" > /var/tmp/c");
  g_assert_cmpstr (kiste_create_options_get_pre_init_hooks (o), ==, "echo pre");
  assert_strv (kiste_create_options_get_volumes (o),
               (const char * const []) { "/srv/data:/data:ro", "/opt/tools:/opt/tools",
                                         "/media:/media:rslave", NULL });
  assert_strv ((const char * const *)rawhide->exported_apps,
               (const char * const []) { "emacs", NULL });
  assert_strv ((const char * const *)rawhide->exported_bins,
               (const char * const []) { "/usr/bin/tmux", "/usr/bin/git", NULL });
  g_assert_cmpstr (rawhide->exported_bins_path, ==, bins_path);
  g_assert_true (rawhide->start_now);
  g_assert_false (rawhide->replace);
  g_assert_true (kiste_create_options_get_unshare (o, KISTE_UNSHARE_GROUPS));
  g_assert_true (kiste_create_options_get_unshare (o, KISTE_UNSHARE_HOME));
  g_assert_false (kiste_create_options_get_unshare (o, KISTE_UNSHARE_IPC));
  g_assert_false (kiste_create_options_get_add_to_menu (o));
  g_assert_null (rawhide->error);
  g_assert_cmpuint (g_strv_length (rawhide->warnings), ==, 0);
  g_assert_true (kiste_create_options_validate (o, NULL, &error));
  g_assert_no_error (error);

  /* [ubuntu-dev]: spaces around "=", comments, include; the included
   * volumes= is distrobox 2's only */
  o = ubuntu->options;
  g_assert_cmpstr (kiste_create_options_get_image (o), ==, "docker.io/library/ubuntu:24.04");
  g_assert_true (kiste_create_options_get_init (o));
  g_assert_false (kiste_create_options_get_nvidia (o));
  g_assert_true (kiste_create_options_get_unshare (o, KISTE_UNSHARE_NETNS));
  g_assert_true (kiste_create_options_get_effective_unshare (o, KISTE_UNSHARE_PROCESS, NULL));
  g_assert_cmpstr (kiste_create_options_get_hostname (o), ==, "ubuntu-dev");
  g_assert_true (kiste_create_options_get_add_to_menu (o));
  assert_strv (kiste_create_options_get_additional_packages (o),
               (const char * const []) { "git vim", NULL });
  assert_strv (kiste_create_options_get_volumes (o), (const char * const []) { NULL });
  g_assert_false (ubuntu->start_now);
  g_assert_null (ubuntu->error);
  g_assert_cmpuint (g_strv_length (ubuntu->warnings), ==, 2);
  g_assert_true (warnings_contain (ubuntu, "“volumes” (line 35) is read by distrobox 2 only"));
  g_assert_true (warnings_contain (ubuntu, "Line 25 has a space after “=”"));
  g_assert_true (kiste_create_options_validate (o, NULL, &error));
  g_assert_no_error (error);

  /* [common] is a box of its own for distrobox too, of its default image */
  g_assert_cmpstr (common->section, ==, "common");
  g_assert_cmpstr (kiste_create_options_get_image (common->options), ==,
                   "registry.fedoraproject.org/fedora-toolbox:latest");
  g_assert_true (warnings_contain (common, "No image is given"));
  /* no entry= key: distrobox makes a launcher */
  g_assert_true (kiste_create_options_get_add_to_menu (common->options));
  g_assert_true (kiste_create_options_validate (common->options, NULL, &error));
  g_assert_no_error (error);

  /* [rootful]: refused and reported, nothing silently dropped */
  g_assert_nonnull (rootful->error);
  g_assert_nonnull (strstr (rootful->error, "root=true"));
  g_assert_cmpstr (kiste_create_options_get_image (rootful->options), ==, "alpine:3.20");
  g_assert_true (warnings_contain (rootful, "additional_flags"));
  g_assert_true (warnings_contain (rootful, "--env FOO=bar"));
  g_assert_true (warnings_contain (rootful, "bogus_key"));
  g_assert_true (warnings_contain (rootful, "maybe"));
  g_assert_true (warnings_contain (rootful, "“image” is set more than once"));
  g_assert_true (warnings_contain (rootful, "key=value"));
  g_assert_cmpuint (g_strv_length (rootful->warnings), ==, 5);
  g_assert_false (kiste_create_options_get_unshare (rootful->options, KISTE_UNSHARE_IPC));
}

static void
test_additional_flags_refused (void)
{
  g_autoptr(GPtrArray) entries = parse_ok ("[box]\n"
                                           "image=alpine\n"
                                           "additional_flags=\"--log-driver=k8s-file\"\n");
  KisteAssembleEntry *entry = g_ptr_array_index (entries, 0);

  g_assert_nonnull (entry->error);
  g_assert_nonnull (strstr (entry->error, "additional_flags"));
  g_assert_nonnull (strstr (entry->error, "--log-driver=k8s-file"));
}

static void
test_values (void)
{
  g_autoptr(GPtrArray) entries = NULL;
  KisteAssembleEntry *entry;
  KisteCreateOptions *o;

  entries = parse_ok ("# leading comment\n"
                      "; ini comment\n"
                      "[box]  \n"
                      "  image=al#pine # a comment\n"
                      "home='/srv/my boxes/box'\n"
                      "hostname=\"\"\n"
                      "init=TRUE\n"
                      "nvidia=1\n"
                      "pull=0\n"
                      "unshare_all=true\n"
                      "unshare_devsys=false\n"
                      "unshare_process=true\n"
                      "replace=true\n"
                      "platform=linux/arm64\n"
                      "volume=\"/a:/a\"\n"
                      "volume=\n"
                      "exported_apps=\"/usr/share/applications/a.desktop b\"\n"
                      "exported_apps=c\n"
                      "pre_init_hooks=a;\n"
                      "pre_init_hooks=b &&\n"
                      "pre_init_hooks=c\n");
  g_assert_cmpuint (entries->len, ==, 1);
  entry = g_ptr_array_index (entries, 0);
  o = entry->options;

  /* "#" only starts a comment after a space */
  g_assert_cmpstr (kiste_create_options_get_image (o), ==, "al#pine");
  g_assert_cmpstr (kiste_create_options_get_home (o), ==, "/srv/my boxes/box");
  g_assert_null (kiste_create_options_get_hostname (o));
  g_assert_true (kiste_create_options_get_init (o));
  g_assert_true (kiste_create_options_get_nvidia (o));
  g_assert_false (kiste_create_options_get_pull (o));
  g_assert_true (kiste_create_options_get_unshare_all (o));
  g_assert_false (kiste_create_options_get_unshare (o, KISTE_UNSHARE_DEVSYS));
  g_assert_true (kiste_create_options_get_unshare (o, KISTE_UNSHARE_PROCESS));
  g_assert_true (entry->replace);
  g_assert_cmpstr (kiste_create_options_get_platform (o), ==, "linux/arm64");
  assert_strv (kiste_create_options_get_volumes (o), (const char * const []) { "/a:/a", NULL });
  assert_strv ((const char * const *)entry->exported_apps,
               (const char * const []) { "/usr/share/applications/a.desktop", "b", "c", NULL });
  g_assert_cmpstr (kiste_create_options_get_pre_init_hooks (o), ==, "a; b && c");
  g_assert_null (entry->error);
  /* TRUE is what the author meant; distrobox 1.x reads only a bare true */
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 1);
  g_assert_true (warnings_contain (entry, "“init=TRUE” (line 7)"));
}

static void
test_never_evaluated (void)
{
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  KisteAssembleEntry *entry;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;
  g_autofree char *marker = g_build_filename (g_get_tmp_dir (), "kiste-assemble-evaluated", NULL);
  g_autofree char *data = NULL;

  g_remove (marker);
  data = g_strdup_printf ("[box]\nimage=$(touch %s)\nhome=`touch %s`\n", marker, marker);
  entries = parse_ok (data);
  entry = g_ptr_array_index (entries, 0);

  /* kept literally, and then refused by validation */
  g_assert_true (g_str_has_prefix (kiste_create_options_get_image (entry->options), "$(touch "));
  g_assert_true (g_str_has_prefix (kiste_create_options_get_home (entry->options), "`touch "));
  g_assert_false (kiste_create_options_validate_full (entry->options, NULL, &field, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_cmpint (field, ==, KISTE_CREATE_FIELD_IMAGE);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

static void
test_duplicate_sections (void)
{
  g_autoptr(GPtrArray) entries = parse_ok ("[box]\nimage=a\n[box]\nimage=b\n");
  KisteAssembleEntry *second = g_ptr_array_index (entries, 1);

  g_assert_cmpuint (entries->len, ==, 2);
  g_assert_cmpuint (g_strv_length (((KisteAssembleEntry *)g_ptr_array_index (entries, 0))->warnings),
                    ==, 0);
  g_assert_true (warnings_contain (second, "more than once"));
}

static void
test_parse_errors (void)
{
  static const struct
  {
    const char *data;
    gssize      length;
    const char *in_message;
  } cases[] = {
    { "", -1, "no boxes" },
    { "# only a comment\n\n", -1, "no boxes" },
    { "image=alpine\n[box]\n", -1, "Line 1" },
    { "[]\nimage=alpine\n", -1, "without a name" },
    { "[box]\ninclude=nowhere\n", -1, "“nowhere”" },
    { "[a]\ninclude=a\n", -1, "includes it back" },
    { "[box]\nimage=\xff\xfe\n", -1, "UTF-8" },
    { "[box]\nimage=a\0lpine\n", 20, "zero byte" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) entries = kiste_assemble_parse (cases[i].data, cases[i].length, &error);

      g_assert_null (entries);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      if (strstr (error->message, cases[i].in_message) == NULL)
        g_error ("case %u: “%s” not in “%s”", i, cases[i].in_message, error->message);
    }
}

static void
test_include_cycle (void)
{
  g_autofree char *data = read_fixture ("assemble-include-cycle.ini");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = kiste_assemble_parse (data, -1, &error);

  g_assert_null (entries);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "includes it back"));
}

/* Sanitizer builds run allocations many times slower */
static gint64
time_limit_us (double seconds)
{
  const char *slowdown = g_getenv ("KISTE_TEST_SLOWDOWN");

  return seconds * G_USEC_PER_SEC * (slowdown != NULL ? g_ascii_strtod (slowdown, NULL) : 1.0);
}

/* Each section includes the next n times, depth sections deep */
static char *
repeated_includes (guint depth,
                   guint n)
{
  GString *data = g_string_new (NULL);

  for (guint i = 0; i < depth; i++)
    {
      g_string_append_printf (data, "[s%u]\nadditional_packages=p%u\n", i, i);
      for (guint j = 0; i + 1 < depth && j < n; j++)
        g_string_append_printf (data, "include=s%u\n", i + 1);
    }

  return g_string_free (data, FALSE);
}

static void
test_include_bounded (void)
{
  /* twice at each of 22 levels: four million lines, from under 1 KB */
  g_autofree char *doubling = repeated_includes (22, 2);
  /* once at each of 40 levels */
  g_autofree char *chain = repeated_includes (40, 1);
  g_autofree char *fine = repeated_includes (9, 2);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  g_assert_null (kiste_assemble_parse (doubling, -1, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "add up to more than 10000 lines"));
  g_clear_error (&error);
  /* refused at once, not after expanding */
  g_assert_cmpint (g_get_monotonic_time () - start, <, time_limit_us (2));

  g_assert_null (kiste_assemble_parse (chain, -1, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "more than 32 levels"));
  g_clear_error (&error);

  /* 2^8 copies of the innermost package in the first box is still fine */
  entries = kiste_assemble_parse (fine, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 9);
  g_assert_cmpuint (g_strv_length ((char **) kiste_create_options_get_additional_packages (
                      ((KisteAssembleEntry *) g_ptr_array_index (entries, 0))->options)), ==, 511);
}

static void
test_list_values_bounded (void)
{
  g_autoptr(GString) data = g_string_new ("[box]\nimage=alpine\n");
  g_autoptr(GPtrArray) entries = NULL;
  KisteAssembleEntry *box;
  gint64 start;

  /* a quarter of a megabyte of volume lines: appending each to a copy of
   * the list would take far longer than the limit */
  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (data, "volume=/srv/v%u:/v%u\n", i, i);

  start = g_get_monotonic_time ();
  entries = parse_ok (data->str);
  g_assert_cmpint (g_get_monotonic_time () - start, <, time_limit_us (2));

  box = g_ptr_array_index (entries, 0);
  g_assert_nonnull (box->error);
  g_assert_nonnull (strstr (box->error, "“volume” lists more than 1000 values"));
  g_assert_cmpuint (g_strv_length ((char **) kiste_create_options_get_volumes (box->options)), ==, 1000);
}

static void
test_warnings_bounded (void)
{
  g_autoptr(GString) unknown = g_string_new ("[many]\nimage=alpine\n");
  g_autoptr(GPtrArray) repeated = parse_ok ("[base]\nimage=alpine\n"
                                            "[box]\ninclude=base\ninclude=base\ninclude=base\n");
  g_autoptr(GPtrArray) entries = NULL;
  KisteAssembleEntry *box = g_ptr_array_index (repeated, 1);
  KisteAssembleEntry *many;

  /* one line included three times: one warning, not two */
  g_assert_nonnull (box->warnings);
  g_assert_cmpuint (g_strv_length (box->warnings), ==, 1);
  g_assert_true (warnings_contain (box, "“image” is set more than once"));

  /* 200 unknown keys: 50 warnings and one saying there are more */
  for (guint i = 0; i < 200; i++)
    g_string_append_printf (unknown, "unknown_%u=1\n", i);
  entries = parse_ok (unknown->str);
  many = g_ptr_array_index (entries, 0);
  g_assert_cmpuint (g_strv_length (many->warnings), ==, 51);
  g_assert_true (warnings_contain (many, "unknown_49"));
  g_assert_false (warnings_contain (many, "unknown_50"));
  g_assert_true (warnings_contain (many, "only the first 50 are listed"));
}

static void
test_include_nested (void)
{
  g_autoptr(GPtrArray) entries = parse_ok ("[base]\n"
                                           "additional_packages=git\n"
                                           "[mid]\n"
                                           "include=base\n"
                                           "additional_packages=vim\n"
                                           "[top]\n"
                                           "image=alpine\n"
                                           "include=\"mid\"\n"
                                           "include=base\n");
  KisteAssembleEntry *top = g_ptr_array_index (entries, 2);

  /* included pairs land where the include line is; including twice is
   * not a cycle */
  assert_strv (kiste_create_options_get_additional_packages (top->options),
               (const char * const []) { "git", "vim", "git", NULL });
}

static void
assert_same_entry (KisteAssembleEntry *a,
                   KisteAssembleEntry *b)
{
  static const char * const props[] = {
    "name", "image", "clone-source", "home", "hostname", "platform", "init-hooks",
    "pre-init-hooks",
  };
  static const char * const bool_props[] = {
    "unshare-devsys", "unshare-groups", "unshare-ipc", "unshare-netns", "unshare-process",
    "unshare-home", "unshare-all", "init", "nvidia", "pull", "add-to-menu",
  };
  g_autofree char *packages_a = NULL;
  g_autofree char *packages_b = NULL;

  g_assert_cmpstr (a->section, ==, b->section);

  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      g_autofree char *va = NULL;
      g_autofree char *vb = NULL;

      g_object_get (a->options, props[i], &va, NULL);
      g_object_get (b->options, props[i], &vb, NULL);
      if (g_strcmp0 (va, vb) != 0)
        g_error ("[%s] %s: “%s” became “%s”", a->section, props[i], va, vb);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bool_props); i++)
    {
      gboolean va, vb;

      g_object_get (a->options, bool_props[i], &va, NULL);
      g_object_get (b->options, bool_props[i], &vb, NULL);
      if (va != vb)
        g_error ("[%s] %s: %d became %d", a->section, bool_props[i], va, vb);
    }

  assert_strv (kiste_create_options_get_volumes (a->options),
               kiste_create_options_get_volumes (b->options));
  /* packages may be regrouped, never changed */
  packages_a = g_strjoinv (" ", (char **)kiste_create_options_get_additional_packages (a->options));
  packages_b = g_strjoinv (" ", (char **)kiste_create_options_get_additional_packages (b->options));
  g_assert_cmpstr (packages_a, ==, packages_b);
  assert_strv ((const char * const *)a->exported_apps, (const char * const *)b->exported_apps);
  assert_strv ((const char * const *)a->exported_bins, (const char * const *)b->exported_bins);
  g_assert_cmpstr (a->exported_bins_path, ==, b->exported_bins_path);
  g_assert_cmpint (a->start_now, ==, b->start_now);
  g_assert_cmpint (a->replace, ==, b->replace);
}

static void
test_round_trip_manifest (void)
{
  g_autofree char *data = read_fixture ("assemble-realistic.ini");
  g_autoptr(GPtrArray) entries = parse_ok (data);
  g_autoptr(GPtrArray) good = g_ptr_array_new ();
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;

  /* the refused [rootful] box is not written back */
  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);

      if (entry->error == NULL)
        g_ptr_array_add (good, entry);
    }
  g_assert_cmpuint (good->len, ==, 3);

  written = kiste_assemble_entries_to_data (good, &error);
  g_assert_no_error (error);
  g_test_message ("%s", written);

  /* every key spelled out */
  g_assert_nonnull (strstr (written, "[rawhide]\n"));
  g_assert_nonnull (strstr (written, "\nunshare_home=true\n"));
  g_assert_nonnull (strstr (written, "\nunshare_groups=true\n"));
  g_assert_nonnull (strstr (written, "\nunshare_ipc=false\n"));
  g_assert_nonnull (strstr (written, "\nentry=false\n"));
  g_assert_nonnull (strstr (written, "\nroot=false\n"));
  g_assert_nonnull (strstr (written, "\nstart_now=true\n"));
  g_assert_nonnull (strstr (written, "\nvolume=\"/srv/data:/data:ro\"\nvolume=\"/opt/tools:/opt/tools\"\n"));
  g_assert_nonnull (strstr (written, "\nexported_bins=\"/usr/bin/tmux /usr/bin/git\"\n"));
  g_assert_null (strstr (written, "additional_flags"));
  g_assert_null (strstr (written, "include="));

  again = parse_ok (written);
  g_assert_cmpuint (again->len, ==, good->len);
  for (guint i = 0; i < good->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (again, i);

      assert_same_entry (g_ptr_array_index (good, i), entry);
      g_assert_null (entry->error);
      g_assert_cmpuint (g_strv_length (entry->warnings), ==, 0);
    }
}

static void
test_round_trip_options (void)
{
  g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  KisteCreateOptions *full = kiste_create_options_new ();
  KisteCreateOptions *clone = kiste_create_options_new ();
  KisteAssembleEntry *entry;

  g_object_set (full,
                "name", "full-box",
                "image", "registry.fedoraproject.org/fedora-toolbox:41",
                "home", "/home/u/My Boxes/full",
                "hostname", "full.lan",
                "platform", "linux/arm64",
                "init-hooks", "echo \"hi\" > /etc/motd && systemctl enable sshd",
                "pre-init-hooks", "echo 'early'",
                "unshare-home", TRUE,
                "unshare-groups", TRUE,
                "unshare-netns", TRUE,
                "nvidia", TRUE,
                "pull", TRUE,
                "add-to-menu", TRUE,
                NULL);
  kiste_create_options_add_volume (full, "/srv:/srv:ro");
  kiste_create_options_add_volume (full, "/opt:/opt");
  kiste_create_options_add_additional_packages (full, "git tmux");
  kiste_create_options_add_additional_packages (full, "vim");
  g_ptr_array_add (options, full);

  kiste_create_options_set_name (clone, "copy");
  kiste_create_options_set_clone_source (clone, "full-box");
  kiste_create_options_set_init (clone, TRUE);
  g_ptr_array_add (options, clone);

  written = kiste_assemble_to_data (options, &error);
  g_assert_no_error (error);
  g_test_message ("%s", written);
  g_assert_nonnull (strstr (written, "[full-box]\nimage=\"registry.fedoraproject.org/fedora-toolbox:41\"\n"));
  g_assert_nonnull (strstr (written, "\nadditional_packages=\"git tmux vim\"\n"));
  g_assert_nonnull (strstr (written, "[copy]\nclone=\"full-box\"\n"));

  entries = parse_ok (written);
  g_assert_cmpuint (entries->len, ==, 2);

  for (guint i = 0; i < entries->len; i++)
    {
      g_autoptr(KisteAssembleEntry) expected = kiste_assemble_entry_new (NULL);

      entry = g_ptr_array_index (entries, i);
      g_clear_object (&expected->options);
      expected->options = g_object_ref (g_ptr_array_index (options, i));
      g_free (expected->section);
      expected->section = g_strdup (kiste_create_options_get_name (expected->options));

      assert_same_entry (expected, entry);
      g_assert_null (entry->error);
      g_assert_cmpuint (g_strv_length (entry->warnings), ==, 0);
    }

  /* the parsed options are as valid as the originals */
  entry = g_ptr_array_index (entries, 0);
  g_assert_true (kiste_create_options_validate (entry->options, NULL, &error));
  g_assert_no_error (error);
}

static void
test_write_refused (void)
{
  static const struct
  {
    const char *property;
    const char *value;
    const char *in_message;
  } cases[] = {
    { "init-hooks", "echo a\necho b", "line break" },
    { "init-hooks", "echo a # not a comment", "comment" },
    { "init-hooks", "[ -d /x ]#", "comment" },
    { "pre-init-hooks", "a\t#b", "comment" },
    /* distrobox assemble would run these on the computer reading the file */
    { "init-hooks", "touch /tmp/$(id -u)", "“$” or “`”" },
    { "pre-init-hooks", "echo `id`", "“$” or “`”" },
    { "image", "alpine$(id)", "“$” or “`”" },
    { "hostname", "box;id", "shell characters" },
    { "home", "/home/u/a&b", "shell characters" },
    { "init-hooks", "echo \"it's\"", "shell characters" },
    { "init-hooks", "echo a\\b", "shell characters" },
    /* the home and a comment to distrobox's eval */
    { "hostname", "~box", "shell characters" },
    { "image", "#alpine", "shell characters" },
    { "name", NULL, "name" },
    { "name", "my box", "name" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) options = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GError) error = NULL;
      g_autofree char *written = NULL;
      KisteCreateOptions *o = kiste_create_options_new ();

      kiste_create_options_set_name (o, "box");
      kiste_create_options_set_image (o, "alpine");
      g_object_set (o, cases[i].property, cases[i].value, NULL);
      g_ptr_array_add (options, o);

      written = kiste_assemble_to_data (options, &error);
      g_assert_null (written);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      if (strstr (error->message, cases[i].in_message) == NULL)
        g_error ("case %u: “%s” not in “%s”", i, cases[i].in_message, error->message);
    }
}

static void
test_entry_boxed (void)
{
  g_autoptr(KisteAssembleEntry) entry = kiste_assemble_entry_new ("box");
  KisteAssembleEntry *copy;
  GValue value = G_VALUE_INIT;

  g_value_init (&value, KISTE_TYPE_ASSEMBLE_ENTRY);
  g_value_set_boxed (&value, entry);
  copy = g_value_get_boxed (&value);
  g_assert_true (copy == entry);
  g_value_unset (&value);

  g_assert_cmpstr (kiste_create_options_get_name (entry->options), ==, "box");
  g_assert_true (kiste_create_options_get_add_to_menu (entry->options));
}

/* 10 MB of manifest: refused before it is read */
static void
test_too_big (void)
{
  g_autoptr(GString) data = g_string_new ("[box]\nimage=alpine\n");
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;

  while (data->len < 10 * 1024 * 1024)
    g_string_append (data, "additional_packages=\"git vim\"\n");
  entries = kiste_assemble_parse (data->str, data->len, &error);
  g_assert_null (entries);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "too big"));
}

/* Reading as distrobox's shell ------------------------------------------- */

#define TEST_HOME "/home/tester"
#define TEST_USER "tester"

/* One section read as distrobox 1.8.2.5 would, for the user "tester" */
static KisteAssembleEntry *
read_section_v1 (const char *body)
{
  g_autofree char *data = g_strconcat ("[box]\nimage=alpine\n", body, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = _kiste_assemble_parse_full (data, -1, 1, "1.8.2.5", TEST_HOME,
                                                            TEST_USER, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (entries->len, ==, 1);

  return kiste_assemble_entry_ref (g_ptr_array_index (entries, 0));
}

static const char *
option_text (KisteAssembleEntry *entry,
             const char         *key)
{
  KisteCreateOptions *o = entry->options;
  static char *joined;

  g_clear_pointer (&joined, g_free);
  if (g_str_equal (key, "image"))
    return kiste_create_options_get_image (o);
  if (g_str_equal (key, "home"))
    return kiste_create_options_get_home (o);
  if (g_str_equal (key, "hostname"))
    return kiste_create_options_get_hostname (o);
  if (g_str_equal (key, "init_hooks"))
    return kiste_create_options_get_init_hooks (o);
  if (g_str_equal (key, "pre_init_hooks"))
    return kiste_create_options_get_pre_init_hooks (o);
  if (g_str_equal (key, "exported_bins_path"))
    return entry->exported_bins_path;
  if (g_str_equal (key, "volume"))
    return joined = g_strjoinv ("|", (char **) kiste_create_options_get_volumes (o));
  if (g_str_equal (key, "additional_packages"))
    return joined = g_strjoinv ("|", (char **) kiste_create_options_get_additional_packages (o));

  g_assert_not_reached ();
}

static void
test_shell_values (void)
{
  static const struct
  {
    const char *lines;
    const char *key;
    /* the value, or NULL when refused */
    const char *value;
    /* in the reason when refused */
    const char *reason;
  } cases[] = {
    /* ~ and $HOME in both passes, quoted or not */
    { "home=~/boxes/x", "home", TEST_HOME "/boxes/x" },
    { "home=\"~/boxes/x\"", "home", TEST_HOME "/boxes/x" },
    { "home=\"${HOME}\"/Distrobox/x ", "home", TEST_HOME "/Distrobox/x" },
    { "home='$HOME/x'", "home", TEST_HOME "/x" },
    { "home='/srv/my boxes/box'", "home", "/srv/my boxes/box" },
    { "home=/srv/~x", "home", "/srv/~x" },
    { "hostname=\"devbox\"", "hostname", "devbox" },
    { "image=al\\#pine", "image", "al#pine" },
    { "image=cost$", "image", "cost$" },
    /* both halves of a volume, each of several on one line */
    { "volume=~/code:~/devobox/code", "volume", TEST_HOME "/code:" TEST_HOME "/devobox/code" },
    { "volume=\"${HOME}/W:${HOME}/W:rw\"", "volume", TEST_HOME "/W:" TEST_HOME "/W:rw" },
    { "volume=$HOME/a:/a:z", "volume", TEST_HOME "/a:/a:z" },
    { "volume=/tmp/test:/run/a /tmp/test:/run/b", "volume", "/tmp/test:/run/a|/tmp/test:/run/b" },
    /* quoted with a space, distrobox-create's eval makes the first ~ the
     * home; Kiste the second too, as podman would refuse it */
    { "volume=\"~/a:~/b ~/c:/c\"", "volume", TEST_HOME "/a:" TEST_HOME "/b|" TEST_HOME "/c:/c" },
    /* package files and the user's name */
    { "additional_packages=https://example.org/a.rpm $HOME/b.deb", "additional_packages",
      "https://example.org/a.rpm " TEST_HOME "/b.deb" },
    { "additional_packages=\"git \"\nadditional_packages=vim", "additional_packages", "git|vim" },
    /* hooks: in double quotes through the eval, unless one holds a double
     * quote: then in single quotes, untouched */
    { "init_hooks='sudo chsh -s /usr/bin/zsh $USER'", "init_hooks", "sudo chsh -s /usr/bin/zsh " TEST_USER },
    { "init_hooks=echo \\$HOME; \ninit_hooks=\"ls ~\"", "init_hooks", "echo $HOME; ls ~" },
    { "init_hooks=sudo -u \"${USER}\" \"${HOME}/x\"\ninit_hooks=echo $(id)", "init_hooks",
      "sudo -u \"${USER}\" \"${HOME}/x\" && echo $(id)" },
    { "init_hooks=\"\"", "init_hooks", NULL },
    /* the bins' folder is passed in quotes, so ~ stays */
    { "exported_bins_path=\"~/.local/bin\"", "exported_bins_path", "~/.local/bin" },
    { "exported_bins_path=~/.local/bin", "exported_bins_path", TEST_HOME "/.local/bin" },

    /* refused: what distrobox's shell would do on this computer */
    { "hostname=\"$(uname -n)\"", "hostname", NULL, "would run a command" },
    { "image=`id`", "image", NULL, "would run a command" },
    { "home=${DBX_CONTAINER_HOME_PREFIX}/base", "home", NULL, "uses ${DBX_CONTAINER_HOME_PREFIX}" },
    { "volume=$PWD:/workspace", "volume", NULL, "uses $PWD" },
    { "volume=\"${SSH_AUTH_SOCK}:${SSH_AUTH_SOCK}\"", "volume", NULL, "uses ${SSH_AUTH_SOCK}" },
    { "home=${HOME:-/tmp}/x", "home", NULL, "uses ${HOME:-/tmp}" },
    { "home=~root/x", "home", NULL, "uses ~root" },
    { "image=a;b", "image", NULL, "shell code" },
    { "image=\"a\" b", "image", NULL, "shell code" },
    { "image=\"alpine", "image", NULL, "quotes that do not match" },
    { "volume=/srv/*:/srv", "volume", NULL, "shell code" },
    { "pre_init_hooks=\"dnf install -y x-$(rpm -E %fedora).rpm\"", "pre_init_hooks", NULL,
      "“pre_init_hooks” (from line 3) would run a command" },
    /* a single quote inside ends distrobox's own quotes early */
    { "init_hooks=echo \"x\" '$(id)'", "init_hooks", NULL, "would run a command" },
    { "init_hooks=echo $1", "init_hooks", NULL, "uses $1" },
    { "volume=systemd-cellar:/cellar", "volume", NULL, "volume of the container engine, “systemd-cellar”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(KisteAssembleEntry) entry = read_section_v1 (cases[i].lines);

      if (cases[i].reason == NULL)
        {
          if (entry->error != NULL)
            g_error ("“%s”: refused: %s", cases[i].lines, entry->error);
          if (g_strcmp0 (option_text (entry, cases[i].key), cases[i].value) != 0 &&
              !(cases[i].value == NULL && g_strcmp0 (option_text (entry, cases[i].key), "") == 0))
            g_error ("“%s”: got “%s”, expected “%s”", cases[i].lines,
                     option_text (entry, cases[i].key), cases[i].value);
        }
      else if (entry->error == NULL || strstr (entry->error, cases[i].reason) == NULL)
        g_error ("“%s”: expected a refusal with “%s”, got %s", cases[i].lines, cases[i].reason,
                 entry->error ? entry->error : "none");
    }
}

/* Nothing of a refused value runs, and the form shows it as written */
static void
test_shell_never_runs (void)
{
  g_autofree char *marker = g_build_filename (g_get_tmp_dir (), "kiste-assemble-ran", NULL);
  g_autofree char *body = NULL;
  g_autoptr(KisteAssembleEntry) entry = NULL;

  g_remove (marker);
  body = g_strdup_printf ("hostname=\"$(touch %s)\"\ninit_hooks=touch %s`touch %s`\n", marker, marker, marker);
  entry = read_section_v1 (body);

  g_assert_nonnull (entry->error);
  g_assert_true (g_str_has_prefix (kiste_create_options_get_hostname (entry->options), "$(touch "));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

static void
test_repeated_bools (void)
{
  const char *data = "[matlab]\n"
                     "image=ghcr.io/example/matlab:latest\n"
                     "pull=true\n"
                     "entry=false\n"
                     "\n"
                     "[matlab-nvidia]\n"
                     "include=matlab\n"
                     "nvidia=true\n"
                     "pull=true\n"
                     "entry=false\n"
                     "init=false\n"
                     "init=false\n";
  g_autoptr(GPtrArray) v1 = _kiste_assemble_parse_full (data, -1, 1, "1.8.2.5", TEST_HOME, TEST_USER, NULL);
  g_autoptr(GPtrArray) v2 = _kiste_assemble_parse_full (data, -1, 2, "2.0.0-rc.4", TEST_HOME, TEST_USER, NULL);
  KisteAssembleEntry *nvidia = g_ptr_array_index (v1, 1);

  /* distrobox 1.x drops both; the author meant them */
  g_assert_true (kiste_create_options_get_pull (nvidia->options));
  g_assert_false (kiste_create_options_get_add_to_menu (nvidia->options));
  g_assert_true (kiste_create_options_get_nvidia (nvidia->options));
  g_assert_true (warnings_contain (nvidia, "“pull” is set more than once (first on line 3"));
  g_assert_true (warnings_contain (nvidia, "“entry” is set more than once (first on line 4"));
  g_assert_true (warnings_contain (nvidia, "Kiste uses the last value, true."));
  g_assert_true (warnings_contain (nvidia, "Kiste uses the last value, false."));
  /* dropped or not, init stays off: nothing to say */
  g_assert_false (warnings_contain (nvidia, "“init”"));
  g_assert_cmpuint (g_strv_length (nvidia->warnings), ==, 2);
  g_assert_cmpuint (g_strv_length (((KisteAssembleEntry *) g_ptr_array_index (v1, 0))->warnings), ==, 0);

  /* distrobox 2 takes the last value itself */
  nvidia = g_ptr_array_index (v2, 1);
  g_assert_true (kiste_create_options_get_pull (nvidia->options));
  g_assert_cmpuint (g_strv_length (nvidia->warnings), ==, 0);
}

static void
test_bool_spellings (void)
{
  g_autoptr(KisteAssembleEntry) entry = read_section_v1 ("init=\"true\"\n"
                                                         "nvidia=1\n"
                                                         "pull='false'\n"
                                                         "entry=\"false\"\n"
                                                         "start_now=True\n"
                                                         "replace=\"\"\n");

  g_assert_true (kiste_create_options_get_init (entry->options));
  g_assert_true (kiste_create_options_get_nvidia (entry->options));
  g_assert_false (kiste_create_options_get_pull (entry->options));
  g_assert_false (kiste_create_options_get_add_to_menu (entry->options));
  g_assert_true (entry->start_now);
  g_assert_false (entry->replace);
  /* said where distrobox 1.x makes another box of it */
  g_assert_true (warnings_contain (entry, "ignores “init=\"true\"” (line 3). Kiste reads it as true."));
  g_assert_true (warnings_contain (entry, "“entry=\"false\"” (line 6)"));
  g_assert_true (warnings_contain (entry, "“start_now=True” (line 7)"));
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 3);
}

static void
test_spaced_values (void)
{
  const char *data = "[box]\nimage = alpine\ninit = true\nhome =  ~/box\n";
  g_autoptr(GPtrArray) v1 = _kiste_assemble_parse_full (data, -1, 1, "1.8.2.5", TEST_HOME, TEST_USER, NULL);
  g_autoptr(GPtrArray) v2 = _kiste_assemble_parse_full (data, -1, 2, "2.0.0-rc.4", TEST_HOME, TEST_USER, NULL);
  KisteAssembleEntry *entry = g_ptr_array_index (v1, 0);

  g_assert_cmpstr (kiste_create_options_get_image (entry->options), ==, "alpine");
  g_assert_true (kiste_create_options_get_init (entry->options));
  g_assert_cmpstr (kiste_create_options_get_home (entry->options), ==, TEST_HOME "/box");
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 1);
  g_assert_true (warnings_contain (entry, "Line 2 has a space after “=”"));

  entry = g_ptr_array_index (v2, 0);
  g_assert_true (kiste_create_options_get_init (entry->options));
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 0);
}

static void
test_volumes_key (void)
{
  const char *data = "[box]\nimage=alpine\nvolumes=/srv/a:/a\nvolumes=/srv/b:/b\nvolume=/srv/c:/c\n";
  g_autoptr(GPtrArray) unknown = kiste_assemble_parse (data, -1, NULL);
  g_autoptr(GPtrArray) v1 = _kiste_assemble_parse_full (data, -1, 1, "1.8.2.5", NULL, NULL, NULL);
  g_autoptr(GPtrArray) v2 = _kiste_assemble_parse_full (data, -1, 2, "2.0.0-rc.4", NULL, NULL, NULL);
  KisteAssembleEntry *entry = g_ptr_array_index (v1, 0);

  /* distrobox 1.x ignores the key, once said */
  assert_strv (kiste_create_options_get_volumes (entry->options),
               (const char * const []) { "/srv/c:/c", NULL });
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 1);
  g_assert_true (warnings_contain (entry, "“volumes” (line 3) is read by distrobox 2 only. The "
                                          "installed distrobox 1.8.2.5 ignores it"));
  entry = g_ptr_array_index (unknown, 0);
  g_assert_true (warnings_contain (entry, "distrobox 1.x ignores it"));

  entry = g_ptr_array_index (v2, 0);
  assert_strv (kiste_create_options_get_volumes (entry->options),
               (const char * const []) { "/srv/a:/a", "/srv/b:/b", "/srv/c:/c", NULL });
  g_assert_cmpuint (g_strv_length (entry->warnings), ==, 0);
}

/* The version comes from the capabilities */
static void
test_parse_for_distrobox (void)
{
  const char *data = "[box]\nimage=alpine\nvolumes=/srv/a:/a\n";
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteCapabilities) v2 = kiste_capabilities_new (runner);
  g_autoptr(KisteCapabilities) unloaded = kiste_capabilities_new (runner);
  g_autoptr(GPtrArray) entries = NULL;
  KisteAssembleEntry *entry;

  _kiste_capabilities_set_for_testing (v2, "2.0.0-rc.4", "podman", NULL);
  entries = kiste_assemble_parse_for_distrobox (data, -1, v2, NULL);
  entry = g_ptr_array_index (entries, 0);
  assert_strv (kiste_create_options_get_volumes (entry->options),
               (const char * const []) { "/srv/a:/a", NULL });
  g_clear_pointer (&entries, g_ptr_array_unref);

  entries = kiste_assemble_parse_for_distrobox (data, -1, unloaded, NULL);
  entry = g_ptr_array_index (entries, 0);
  g_assert_null (kiste_create_options_get_volumes (entry->options)[0]);
  g_assert_true (warnings_contain (entry, "distrobox 1.x ignores it"));
}

static void
test_default_image (void)
{
  g_autoptr(GPtrArray) entries = parse_ok ("[plain]\nnvidia=true\n[copy]\nclone=plain\n");
  KisteAssembleEntry *plain = g_ptr_array_index (entries, 0);
  KisteAssembleEntry *copy = g_ptr_array_index (entries, 1);

  g_assert_cmpstr (kiste_create_options_get_image (plain->options), ==, KISTE_ASSEMBLE_DEFAULT_IMAGE);
  g_assert_true (warnings_contain (plain, "No image is given, so distrobox would use its default "
                                          "image, registry.fedoraproject.org/fedora-toolbox:latest."));
  g_assert_true (kiste_create_options_validate (plain->options, NULL, NULL));

  /* a copy needs none */
  g_assert_null (kiste_create_options_get_image (copy->options));
  g_assert_cmpuint (g_strv_length (copy->warnings), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/assemble/realistic", test_realistic);
  g_test_add_func ("/assemble/additional-flags", test_additional_flags_refused);
  g_test_add_func ("/assemble/values", test_values);
  g_test_add_func ("/assemble/never-evaluated", test_never_evaluated);
  g_test_add_func ("/assemble/duplicate-sections", test_duplicate_sections);
  g_test_add_func ("/assemble/parse-errors", test_parse_errors);
  g_test_add_func ("/assemble/include-cycle", test_include_cycle);
  g_test_add_func ("/assemble/include-nested", test_include_nested);
  g_test_add_func ("/assemble/include-bounded", test_include_bounded);
  g_test_add_func ("/assemble/warnings-bounded", test_warnings_bounded);
  g_test_add_func ("/assemble/list-values-bounded", test_list_values_bounded);
  g_test_add_func ("/assemble/round-trip-manifest", test_round_trip_manifest);
  g_test_add_func ("/assemble/round-trip-options", test_round_trip_options);
  g_test_add_func ("/assemble/write-refused", test_write_refused);
  g_test_add_func ("/assemble/too-big", test_too_big);
  g_test_add_func ("/assemble/entry-boxed", test_entry_boxed);
  g_test_add_func ("/assemble/shell-values", test_shell_values);
  g_test_add_func ("/assemble/shell-never-runs", test_shell_never_runs);
  g_test_add_func ("/assemble/repeated-bools", test_repeated_bools);
  g_test_add_func ("/assemble/bool-spellings", test_bool_spellings);
  g_test_add_func ("/assemble/spaced-values", test_spaced_values);
  g_test_add_func ("/assemble/volumes-key", test_volumes_key);
  g_test_add_func ("/assemble/parse-for-distrobox", test_parse_for_distrobox);
  g_test_add_func ("/assemble/default-image", test_default_image);

  return g_test_run ();
}
