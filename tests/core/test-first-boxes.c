/* test-first-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>

#include "kiste-distro.h"
#include "kiste-first-boxes.h"
#include "kiste-test-util.h"
#include "kiste-validate.h"

typedef struct
{
  const char *name;
  const char *os_release;
  /* distro and image of the three first boxes */
  const char *expected[6];
  /* whether the first is the computer's own distribution */
  gboolean    host;
} Case;

static void
assert_first_boxes (GPtrArray   *boxes,
                    const Case  *c)
{
  g_assert_cmpuint (boxes->len, ==, 3);
  for (guint i = 0; i < boxes->len; i++)
    {
      KisteFirstBox *box = g_ptr_array_index (boxes, i);
      g_autoptr(GError) error = NULL;
      KisteFirstBoxKind kind;

      if (g_strcmp0 (box->distro_id, c->expected[2 * i]) != 0 ||
          g_strcmp0 (box->image, c->expected[2 * i + 1]) != 0)
        g_error ("%s, box %u: expected %s %s, got %s %s", c->name, i,
                 c->expected[2 * i], c->expected[2 * i + 1], box->distro_id, box->image);

      kind = i == 2 ? KISTE_FIRST_BOX_TRY
                    : i == 0 && c->host ? KISTE_FIRST_BOX_HOST : KISTE_FIRST_BOX_OTHER;
      g_assert_cmpint (box->kind, ==, kind);
      /* people see it, and the create dialog takes it as it is */
      g_assert_nonnull (kiste_distro_display_name (box->distro_id));
      if (!kiste_validate_image (box->image, &error))
        g_error ("%s: %s is no image: %s", c->name, box->image, error->message);
    }
}

#define UNKNOWN \
    { "fedora", "registry.fedoraproject.org/fedora-toolbox:latest", \
      "ubuntu", "docker.io/library/ubuntu:latest", \
      "arch", "quay.io/toolbx/arch-toolbox:latest" }

static const Case unknown = { "unknown", NULL, UNKNOWN, FALSE };

/* os-release files as distributions ship them (shortened) */
static const Case cases[] = {
  { "Debian 13",
    "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"13\"\n"
    "VERSION=\"13 (trixie)\"\nVERSION_CODENAME=trixie\nID=debian\n",
    { "debian", "docker.io/library/debian:13",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  /* testing and unstable have no VERSION_ID */
  { "Debian testing",
    "PRETTY_NAME=\"Debian GNU/Linux forky/sid\"\nNAME=\"Debian GNU/Linux\"\nVERSION_CODENAME=forky\nID=debian\n",
    { "debian", "docker.io/library/debian:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Fedora Workstation 42",
    "NAME=\"Fedora Linux\"\nVERSION=\"42 (Workstation Edition)\"\nID=fedora\nVERSION_ID=42\n"
    "PLATFORM_ID=\"platform:f42\"\nVARIANT_ID=workstation\n",
    { "fedora", "registry.fedoraproject.org/fedora-toolbox:42",
      "ubuntu", "docker.io/library/ubuntu:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Ubuntu 24.04",
    "PRETTY_NAME=\"Ubuntu 24.04.2 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\n"
    "VERSION=\"24.04.2 LTS (Noble Numbat)\"\nID=ubuntu\nID_LIKE=debian\nUBUNTU_CODENAME=noble\n",
    { "ubuntu", "docker.io/library/ubuntu:24.04",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  /* an Arch computer is offered the next box to try */
  { "Arch Linux",
    "NAME=\"Arch Linux\"\nPRETTY_NAME=\"Arch Linux\"\nID=arch\nBUILD_ID=rolling\n",
    { "arch", "quay.io/toolbx/arch-toolbox:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "opensuse", "registry.opensuse.org/opensuse/distrobox:latest" }, TRUE },
  { "openSUSE Tumbleweed",
    "NAME=\"openSUSE Tumbleweed\"\nID=\"opensuse-tumbleweed\"\nID_LIKE=\"opensuse suse\"\n"
    "VERSION_ID=\"20250601\"\n",
    { "opensuse", "registry.opensuse.org/opensuse/distrobox:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "openSUSE Leap 15.6",
    "NAME=\"openSUSE Leap\"\nVERSION=\"15.6\"\nID=\"opensuse-leap\"\nID_LIKE=\"suse opensuse\"\n"
    "VERSION_ID=\"15.6\"\n",
    { "opensuse", "registry.opensuse.org/opensuse/leap:15.6",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  /* the release of the distribution's major version */
  { "Rocky Linux 9.5",
    "NAME=\"Rocky Linux\"\nVERSION=\"9.5 (Blue Onyx)\"\nID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n"
    "VERSION_ID=\"9.5\"\n",
    { "rocky", "quay.io/toolbx-images/rockylinux-toolbox:9",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Red Hat Enterprise Linux 9.4",
    "NAME=\"Red Hat Enterprise Linux\"\nID=\"rhel\"\nID_LIKE=\"fedora\"\nVERSION_ID=\"9.4\"\n",
    { "rhel", "registry.access.redhat.com/ubi9/toolbox",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "CentOS Stream 10",
    "NAME=\"CentOS Stream\"\nID=\"centos\"\nID_LIKE=\"rhel fedora\"\nVERSION_ID=\"10\"\n",
    { "centos", "quay.io/centos/centos:stream10",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Alpine Linux 3.21.3",
    "NAME=\"Alpine Linux\"\nID=alpine\nVERSION_ID=3.21.3\n",
    { "alpine", "docker.io/library/alpine:3.21",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Amazon Linux 2023",
    "NAME=\"Amazon Linux\"\nID=\"amzn\"\nID_LIKE=\"fedora\"\nVERSION_ID=\"2023\"\n",
    { "amazon", "public.ecr.aws/amazonlinux/amazonlinux:2023",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  /* distributions without an image of their own: the one they are like,
   * in its current release (Mint's 22 is no Ubuntu release) */
  { "Linux Mint 22",
    "NAME=\"Linux Mint\"\nVERSION=\"22 (Wilma)\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\n"
    "VERSION_ID=\"22\"\nUBUNTU_CODENAME=noble\n",
    { "ubuntu", "docker.io/library/ubuntu:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Pop!_OS 22.04",
    "NAME=\"Pop!_OS\"\nVERSION=\"22.04 LTS\"\nID=pop\nID_LIKE=\"ubuntu debian\"\nVERSION_ID=\"22.04\"\n",
    { "ubuntu", "docker.io/library/ubuntu:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "Bazzite",
    "NAME=\"Bazzite\"\nID=bazzite\nID_LIKE=\"fedora\"\nVERSION_ID=\"42\"\nVARIANT_ID=bazzite-gnome\n",
    { "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "ubuntu", "docker.io/library/ubuntu:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "SteamOS",
    "NAME=\"SteamOS\"\nID=steamos\nID_LIKE=arch\nVERSION_ID=3.6.19\n",
    { "arch", "quay.io/toolbx/arch-toolbox:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "opensuse", "registry.opensuse.org/opensuse/distrobox:latest" }, TRUE },
  /* no image for NixOS: two common distributions, then one to try */
  { "NixOS",
    "NAME=NixOS\nID=nixos\nVERSION_ID=\"25.05\"\n",
    UNKNOWN, FALSE },
  { "nothing",
    "",
    UNKNOWN, FALSE },
  /* written by hand: comments, spaces, single quotes, escapes; a
   * VERSION_ID that cannot be a tag is no release */
  { "by hand",
    "# a comment\n\n  ID='ubuntu'  \nVERSION_ID=\"24.04; rm -rf /\"\nNAME=\"Say \\\"hi\\\"\"\n",
    { "ubuntu", "docker.io/library/ubuntu:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "release with a letter",
    "ID=fedora\nVERSION_ID=42a\n",
    { "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "ubuntu", "docker.io/library/ubuntu:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
  { "keys that only start alike",
    "IDENTITY=fedora\nID_LIKE=debian\nVERSION_ID=7\n",
    { "debian", "docker.io/library/debian:latest",
      "fedora", "registry.fedoraproject.org/fedora-toolbox:latest",
      "arch", "quay.io/toolbx/arch-toolbox:latest" }, TRUE },
};

static void
test_first_boxes_os_release (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) boxes = kiste_first_boxes_for_os_release (cases[i].os_release);

      assert_first_boxes (boxes, &cases[i]);
    }
}

/* Without os-release text, as for a file that cannot be read */
static void
test_first_boxes_unknown (void)
{
  g_autoptr(GPtrArray) boxes = kiste_first_boxes_for_os_release (NULL);

  assert_first_boxes (boxes, &unknown);
}

static void
test_first_boxes_load (void)
{
  g_autofree char *dir = g_dir_make_tmp ("kiste-first-boxes-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "os-release", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing", NULL);
  g_autoptr(GPtrArray) boxes = NULL;
  g_autoptr(GPtrArray) missing_boxes = NULL;

  g_assert_true (g_file_set_contents (path, cases[2].os_release, -1, NULL));
  boxes = kiste_first_boxes_load (path);
  assert_first_boxes (boxes, &cases[2]);

  missing_boxes = kiste_first_boxes_load (missing);
  assert_first_boxes (missing_boxes, &unknown);

  kiste_test_remove_tree (dir);
}

static void
test_first_boxes_image_for_distro (void)
{
  g_autofree char *fedora = kiste_first_boxes_image_for_distro ("fedora", "41");
  g_autofree char *current = kiste_first_boxes_image_for_distro ("fedora", NULL);
  g_autofree char *arch = kiste_first_boxes_image_for_distro ("arch", "2025.06");

  g_assert_cmpstr (fedora, ==, "registry.fedoraproject.org/fedora-toolbox:41");
  g_assert_cmpstr (current, ==, "registry.fedoraproject.org/fedora-toolbox:latest");
  g_assert_cmpstr (arch, ==, "quay.io/toolbx/arch-toolbox:latest");
  g_assert_null (kiste_first_boxes_image_for_distro ("nixos", "25.05"));
  g_assert_null (kiste_first_boxes_image_for_distro (KISTE_DISTRO_GENERIC, NULL));
  g_assert_null (kiste_first_boxes_image_for_distro (NULL, NULL));
}

static void
test_first_boxes_os_release_path (void)
{
  const char *native = kiste_first_boxes_os_release_path (FALSE);

  /* the host's, which a Flatpak sandbox sees under /run/host */
  g_assert_cmpstr (kiste_first_boxes_os_release_path (TRUE), ==, "/run/host/os-release");
  g_assert_true (g_str_equal (native, "/etc/os-release") || g_str_equal (native, "/usr/lib/os-release"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/first-boxes/os-release", test_first_boxes_os_release);
  g_test_add_func ("/first-boxes/unknown", test_first_boxes_unknown);
  g_test_add_func ("/first-boxes/load", test_first_boxes_load);
  g_test_add_func ("/first-boxes/image-for-distro", test_first_boxes_image_for_distro);
  g_test_add_func ("/first-boxes/os-release-path", test_first_boxes_os_release_path);

  return g_test_run ();
}
