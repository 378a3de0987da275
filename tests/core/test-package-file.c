/* test-package-file.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "kiste-box.h"
#include "kiste-error.h"
#include "kiste-package-file.h"

#define HOST_HOME "/home/tester"

static void
test_kind (void)
{
  static const struct
  {
    const char       *path;
    KistePackageKind  kind;
  } cases[] = {
    { "/home/tester/Downloads/hello_1.0_amd64.deb", KISTE_PACKAGE_DEB },
    { "/tmp/HELLO.DEB", KISTE_PACKAGE_DEB },
    { "/srv/pkgs/hello-1.0-1.fc41.x86_64.rpm", KISTE_PACKAGE_RPM },
    { "/srv/hello-1.0-1-x86_64.pkg.tar.zst", KISTE_PACKAGE_PACMAN },
    { "/srv/hello-1.0-1-x86_64.pkg.tar.xz", KISTE_PACKAGE_PACMAN },
    { "/srv/hello-1.0-r0.apk", KISTE_PACKAGE_APK },
    { "/srv/hello.tar.zst", KISTE_PACKAGE_NONE },
    { "/srv/hello.deb.txt", KISTE_PACKAGE_NONE },
    { "/srv/.deb", KISTE_PACKAGE_NONE },
    { "", KISTE_PACKAGE_NONE },
    { NULL, KISTE_PACKAGE_NONE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (kiste_package_file_kind_for_path (cases[i].path), ==, cases[i].kind);
}

/* Debian/Ubuntu take .deb, Fedora/RHEL/openSUSE .rpm, Arch .pkg.tar.zst,
 * Alpine .apk; nothing fits a box of unknown distribution */
static void
test_fits (void)
{
  static const struct
  {
    const char *distro;
    KistePackageKind fits;
  } cases[] = {
    { "debian", KISTE_PACKAGE_DEB },
    { "ubuntu", KISTE_PACKAGE_DEB },
    { "mint", KISTE_PACKAGE_DEB },
    { "fedora", KISTE_PACKAGE_RPM },
    { "rhel", KISTE_PACKAGE_RPM },
    { "rocky", KISTE_PACKAGE_RPM },
    { "opensuse", KISTE_PACKAGE_RPM },
    { "arch", KISTE_PACKAGE_PACMAN },
    { "manjaro", KISTE_PACKAGE_PACMAN },
    { "alpine", KISTE_PACKAGE_APK },
    { "generic", KISTE_PACKAGE_NONE },
    { "nixos", KISTE_PACKAGE_NONE },
    { NULL, KISTE_PACKAGE_NONE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      for (KistePackageKind kind = KISTE_PACKAGE_NONE; kind <= KISTE_PACKAGE_APK; kind++)
        {
          g_test_message ("%s, kind %d", cases[i].distro, kind);
          g_assert_cmpint (kiste_package_file_fits_distro (kind, cases[i].distro), ==,
                           kind != KISTE_PACKAGE_NONE && kind == cases[i].fits);
        }
    }
}

static void
test_argv (void)
{
  static const struct
  {
    const char *distro;
    const char *path;
    const char *expected[10];
  } cases[] = {
    { "debian", "/run/host/srv/hello_1.0_all.deb",
      { "sudo", "apt-get", "install", "-y", "--", "/run/host/srv/hello_1.0_all.deb", NULL } },
    { "ubuntu", "/home/tester/My Files/hello.deb",
      { "sudo", "apt-get", "install", "-y", "--", "/home/tester/My Files/hello.deb", NULL } },
    { "fedora", "/home/tester/hello.rpm",
      { "sudo", "dnf", "install", "-y", "--", "/home/tester/hello.rpm", NULL } },
    { "opensuse", "/home/tester/hello.rpm",
      { "sudo", "zypper", "--non-interactive", "install", "--allow-unsigned-rpm",
        "/home/tester/hello.rpm", NULL } },
    { "arch", "/home/tester/hello-1-1-any.pkg.tar.zst",
      { "sudo", "pacman", "-U", "--noconfirm", "--", "/home/tester/hello-1-1-any.pkg.tar.zst", NULL } },
    { "alpine", "/home/tester/hello.apk",
      { "sudo", "apk", "add", "--allow-untrusted", "--", "/home/tester/hello.apk", NULL } },
  };
  static const struct
  {
    const char *distro;
    const char *path;
  } refused[] = {
    { "fedora", "/home/tester/hello.deb" },
    { "generic", "/home/tester/hello.deb" },
    { "debian", "/home/tester/hello.txt" },
    { "debian", "hello.deb" },
    { "debian", "/home/tester/$(touch x).deb" },
    { "debian", "/home/tester/it's.deb" },
    { "debian", "/home/tester/a`b`.deb" },
    { "debian", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = kiste_package_file_dup_install_argv (cases[i].distro, cases[i].path, &error);

      g_assert_no_error (error);
      g_assert_true (g_strv_equal ((const char * const *) argv, cases[i].expected));
    }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = kiste_package_file_dup_install_argv (refused[i].distro, refused[i].path, &error);

      g_test_message ("refused: %s", refused[i].path);
      g_assert_null (argv);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }
}

static KisteBox *
fixture_box (const char *name,
             const char *host_home)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *array;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      JsonArray *names = json_object_get_array_member (object, "Names");

      if (g_str_equal (json_array_get_string_element (names, 0), name))
        {
          KisteBox *box = kiste_box_new_from_ps_json (object, host_home, &error);

          g_assert_no_error (error);
          return box;
        }
    }

  g_assert_not_reached ();
}

/* A file in the shared home keeps its path; others are under /run/host */
static void
test_box_path (void)
{
  g_autoptr(KisteBox) shared = fixture_box ("fixture-a", HOST_HOME);
  g_autoptr(KisteBox) unshared = fixture_box ("fixture-a", "/home/someone-else");
  char *path;

  g_assert_cmpint (kiste_box_get_host_home_sharing (shared), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_host_home_sharing (unshared), !=, KISTE_SHARING_SHARED);

  path = kiste_package_file_dup_box_path (shared, HOST_HOME "/Downloads/hello.deb", HOST_HOME);
  g_assert_cmpstr (path, ==, HOST_HOME "/Downloads/hello.deb");
  g_free (path);
  path = kiste_package_file_dup_box_path (shared, HOST_HOME "/../tester2/hello.deb", HOST_HOME);
  g_assert_cmpstr (path, ==, "/run/host/home/tester2/hello.deb");
  g_free (path);
  path = kiste_package_file_dup_box_path (shared, "/home/tester2/hello.deb", HOST_HOME);
  g_assert_cmpstr (path, ==, "/run/host/home/tester2/hello.deb");
  g_free (path);
  path = kiste_package_file_dup_box_path (shared, "/srv/pkgs/hello.deb", HOST_HOME);
  g_assert_cmpstr (path, ==, "/run/host/srv/pkgs/hello.deb");
  g_free (path);
  path = kiste_package_file_dup_box_path (unshared, "/home/someone-else/hello.deb", "/home/someone-else");
  g_assert_cmpstr (path, ==, "/run/host/home/someone-else/hello.deb");
  g_free (path);
}

/* From the sandbox: the host's stat of the path against the app's own */
static void
test_host_copy (void)
{
  g_autoptr(GError) error = NULL;

  /* a host path the sandbox does not show: the host has it */
  g_assert_true (kiste_package_file_check_host_copy ("/home/tester/hello.deb", -1, -1,
                                                     "1024 1733300000\n", &error));
  g_assert_no_error (error);
  /* the same file on both sides */
  g_assert_true (kiste_package_file_check_host_copy ("/home/tester/hello.deb", 1024, 1733300000,
                                                     "1024 1733300000\n", &error));
  g_assert_no_error (error);

  /* nowhere */
  g_assert_false (kiste_package_file_check_host_copy ("/home/tester/gone.deb", -1, -1, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "does not exist on the host"));
  g_clear_error (&error);

  /* only in the sandbox (its own /tmp), or another file of that path on the host */
  g_assert_false (kiste_package_file_check_host_copy ("/tmp/hello.deb", 1024, 1733300000, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "only inside Kiste’s sandbox"));
  g_clear_error (&error);
  g_assert_false (kiste_package_file_check_host_copy ("/tmp/hello.deb", 1024, 1733300000,
                                                      "77 1600000000\n", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* output that is not a stat line counts as no answer */
  g_assert_false (kiste_package_file_check_host_copy ("/home/tester/hello.deb", -1, -1,
                                                      "stat: weird\n", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_clear_error (&error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/package-file/kind", test_kind);
  g_test_add_func ("/package-file/fits", test_fits);
  g_test_add_func ("/package-file/argv", test_argv);
  g_test_add_func ("/package-file/box-path", test_box_path);
  g_test_add_func ("/package-file/host-copy", test_host_copy);

  return g_test_run ();
}
