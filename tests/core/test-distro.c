/* test-distro.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-distro.h"

typedef struct
{
  const char *input;
  const char *expected;
} Case;

static const char *all_ids[] = {
  "debian", "ubuntu", "fedora", "arch", "opensuse", "alpine", "centos",
  "almalinux", "rocky", "rhel", "gentoo", "void", "nixos", "kali", "mint",
  "manjaro", "amazon", "generic",
};

static void
run_image_cases (const Case *cases,
                 gsize       n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      const char *id = kiste_distro_id_for_image (cases[i].input);

      if (g_strcmp0 (id, cases[i].expected) != 0)
        g_error ("image “%s”: expected %s, got %s",
                 cases[i].input ? cases[i].input : "(null)", cases[i].expected, id);
    }
}

/* Images people actually put in boxes: the distrobox compatibility list,
 * the toolbx images and the official library images. */
static void
test_distro_images (void)
{
  static const Case cases[] = {
    { "registry.fedoraproject.org/fedora-toolbox:41", "fedora" },
    { "registry.fedoraproject.org/fedora:rawhide", "fedora" },
    { "quay.io/fedora/fedora:42", "fedora" },
    { "docker.io/library/fedora:40", "fedora" },
    { "ghcr.io/ublue-os/fedora-toolbox", "fedora" },
    { "quay.io/toolbx/ubuntu-toolbox:24.04", "ubuntu" },
    { "quay.io/toolbx-images/ubuntu-toolbox:22.04", "ubuntu" },
    { "docker.io/library/ubuntu:22.04", "ubuntu" },
    { "ghcr.io/ublue-os/ubuntu-toolbox:latest", "ubuntu" },
    { "quay.io/toolbx-images/debian-toolbox:12", "debian" },
    { "docker.io/library/debian:bookworm-slim", "debian" },
    { "docker.io/debian:stable-backports", "debian" },
    { "docker.io/library/neurodebian:nd120", "debian" },
    { "localhost/kiste-debian:ready", "debian" },
    { "quay.io/toolbx-images/archlinux-toolbox", "arch" },
    { "quay.io/toolbx/arch-toolbox:latest", "arch" },
    { "docker.io/library/archlinux:latest", "arch" },
    { "docker.io/library/archlinux", "arch" },
    { "ghcr.io/ublue-os/bazzite-arch", "arch" },
    { "ghcr.io/ublue-os/arch-distrobox", "arch" },
    { "registry.opensuse.org/opensuse/distrobox", "opensuse" },
    { "registry.opensuse.org/opensuse/tumbleweed:latest", "opensuse" },
    { "registry.opensuse.org/opensuse/leap:15.6", "opensuse" },
    { "opensuse/tumbleweed", "opensuse" },
    { "quay.io/toolbx-images/opensuse-toolbox:tumbleweed", "opensuse" },
    { "registry.suse.com/bci/bci-base:15.6", "opensuse" },
    { "quay.io/toolbx-images/alpine-toolbox:edge", "alpine" },
    { "docker.io/library/alpine:3.20", "alpine" },
    { "quay.io/centos/centos:stream9", "centos" },
    { "quay.io/toolbx-images/centos-toolbox:stream9", "centos" },
    { "docker.io/library/centos:7", "centos" },
    { "quay.io/almalinuxorg/almalinux", "almalinux" },
    { "quay.io/almalinuxorg/almalinux:9", "almalinux" },
    { "docker.io/library/almalinux:8", "almalinux" },
    { "docker.io/almalinux/8-init", "almalinux" },
    { "quay.io/toolbx-images/almalinux-toolbox:9", "almalinux" },
    { "quay.io/rockylinux/rockylinux", "rocky" },
    { "quay.io/rockylinux/rockylinux:9", "rocky" },
    { "quay.io/toolbx-images/rockylinux-toolbox:9", "rocky" },
    { "registry.access.redhat.com/ubi9/ubi", "rhel" },
    { "registry.access.redhat.com/ubi8/ubi:8.10", "rhel" },
    { "registry.access.redhat.com/ubi9/toolbox", "rhel" },
    { "registry.redhat.io/rhel9/rhel-bootc:9.4", "rhel" },
    { "quay.io/toolbx-images/rhel-toolbox:9", "rhel" },
    { "docker.io/gentoo/stage3", "gentoo" },
    { "docker.io/gentoo/stage3:latest", "gentoo" },
    { "ghcr.io/void-linux/void-glibc-full", "void" },
    { "ghcr.io/void-linux/void-musl-full:latest", "void" },
    { "docker.io/voidlinux/voidlinux", "void" },
    { "docker.io/nixos/nix", "nixos" },
    { "docker.io/nixos/nix:2.24.9", "nixos" },
    { "docker.io/nixpkgs/nix-flakes", "nixos" },
    { "docker.io/kalilinux/kali-rolling", "kali" },
    { "docker.io/kalilinux/kali-rolling:latest", "kali" },
    { "docker.io/linuxmintd/mint22-amd64", "mint" },
    { "docker.io/linuxmintd/mint21.3-amd64", "mint" },
    { "docker.io/linuxmintd/lmde6-amd64", "mint" },
    { "docker.io/manjarolinux/base", "manjaro" },
    { "docker.io/manjarolinux/base:latest", "manjaro" },
    { "public.ecr.aws/amazonlinux/amazonlinux", "amazon" },
    { "public.ecr.aws/amazonlinux/amazonlinux:2023", "amazon" },
    { "docker.io/library/amazonlinux:2", "amazon" },
    { "quay.io/toolbx-images/amazonlinux-toolbox:2023", "amazon" },
    /* not distributions we draw, or not telling which */
    { "localhost/mybox:2026-12-03", "generic" },
    { "container-registry.oracle.com/os/oraclelinux:9", "generic" },
    { "docker.io/library/clearlinux:latest", "generic" },
    { "cgr.dev/chainguard/wolfi-base", "generic" },
    { "quay.io/toolbx-images/wolfi-toolbox:latest", "generic" },
    { "docker.io/vanillaos/pico", "generic" },
    { "ghcr.io/ublue-os/bluefin-cli", "generic" },
    { "docker.io/library/busybox", "generic" },
    /* Docker Hub short forms, without a registry */
    { "gentoo/stage3", "gentoo" },
    { "manjarolinux/base", "manjaro" },
    { "kalilinux/kali-rolling", "kali" },
    { "almalinux/8-init", "almalinux" },
    /* release numbers run into the name */
    { "localhost/mint22-amd64", "mint" },
    { "docker.io/someone/ubi9-minimal", "rhel" },
    { "localhost/centos7", "centos" },
    { "localhost/fedora41:latest", "fedora" },
  };

  run_image_cases (cases, G_N_ELEMENTS (cases));
}

/* Only what the path says counts, not what looks like it inside a word. */
static void
test_distro_whole_words (void)
{
  static const Case cases[] = {
    { "localhost/archive-tools", "generic" },
    { "localhost/search:1", "generic" },
    { "docker.io/someone/unix-utils", "generic" },
    { "docker.io/someone/avoidance", "generic" },
    { "docker.io/someone/debianish", "generic" },
    { "docker.io/someone/peppermint", "generic" },
    /* the last component decides before the ones in front of it */
    { "docker.io/ubuntu/debian", "debian" },
    { "localhost/fedora-builds/arch-toolbox", "arch" },
    { "localhost/arch-builds/base", "arch" },
  };

  run_image_cases (cases, G_N_ELEMENTS (cases));
}

/* The tag and then the registry are only asked when the path is silent. */
static void
test_distro_tag_and_host (void)
{
  static const Case cases[] = {
    { "docker.io/library/python:3.12-alpine", "alpine" },
    { "docker.io/library/golang:1.23-bookworm", "debian" },
    { "docker.io/library/node:22-bookworm-slim", "debian" },
    { "docker.io/library/buildpack-deps:noble", "ubuntu" },
    { "mcr.microsoft.com/devcontainers/base:ubuntu-24.04", "ubuntu" },
    { "docker.io/library/ubuntu:bookworm", "ubuntu" },
    { "registry.fedoraproject.org/f41/toolbox", "fedora" },
    { "registry.opensuse.org/home/someone/images/box", "opensuse" },
    { "registry.access.redhat.com/something-else", "rhel" },
    { "registry.fedoraproject.org/opensuse-test", "opensuse" },
    { "docker.io/library/ubuntu:24.04@sha256:72297848456d5d37d1262630108ab308d3e9ec7ed1c3286a32fe09856619a782",
      "ubuntu" },
  };

  run_image_cases (cases, G_N_ELEMENTS (cases));
}

static void
test_distro_image_edges (void)
{
  static const Case cases[] = {
    { NULL, "generic" },
    { "", "generic" },
    { "   ", "generic" },
    { "/", "generic" },
    { ":", "generic" },
    { "@", "generic" },
    { "localhost", "generic" },
    { "localhost/", "generic" },
    { "docker.io/", "generic" },
    /* a first component without "." or ":" is part of the path, so it
     * outranks the tag */
    { "ubuntu/postgres:16-bookworm", "ubuntu" },
    { "docker.io/ubuntu/python:3.12-alpine", "ubuntu" },
    /* a bare name is a repository, never a registry */
    { "fedora", "fedora" },
    { "fedora:41", "fedora" },
    { "debian.local", "debian" },
    { "Docker.IO/Library/Ubuntu:22.04", "ubuntu" },
    { "REGISTRY.FEDORAPROJECT.ORG/FEDORA-TOOLBOX:41", "fedora" },
    { "  quay.io/toolbx/ubuntu-toolbox:24.04\n", "ubuntu" },
    { " debian\n", "debian" },
    /* digests, with and without a name */
    { "sha256:2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f", "generic" },
    { "@sha256:2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f", "generic" },
    { "2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f", "generic" },
    { "quay.io/fedora/fedora@sha256:2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f",
      "fedora" },
    { "alpine@sha256:2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f", "alpine" },
    /* registries with ports, which look like tags */
    { "localhost:5000/ubuntu", "ubuntu" },
    { "localhost:5000/ubuntu:24.04", "ubuntu" },
    { "registry.example.com:5000/team/kali-rolling:2025.1", "kali" },
    { "localhost:5000/box:2026-12-03", "generic" },
    { "192.168.1.10:5000/mirror/archlinux:base", "arch" },
    /* transports as some tools print them */
    { "docker://docker.io/library/alpine:latest", "alpine" },
    { "docker://quay.io/toolbx/ubuntu-toolbox", "ubuntu" },
  };

  run_image_cases (cases, G_N_ELEMENTS (cases));
}

static void
test_distro_os_release (void)
{
  static const Case cases[] = {
    { "debian", "debian" },
    { "ubuntu", "ubuntu" },
    { "fedora", "fedora" },
    { "arch", "arch" },
    { "opensuse-tumbleweed", "opensuse" },
    { "opensuse-leap", "opensuse" },
    { "opensuse-microos", "opensuse" },
    { "sles", "opensuse" },
    { "alpine", "alpine" },
    { "centos", "centos" },
    { "almalinux", "almalinux" },
    { "rocky", "rocky" },
    { "rhel", "rhel" },
    { "gentoo", "gentoo" },
    { "void", "void" },
    { "nixos", "nixos" },
    { "kali", "kali" },
    { "linuxmint", "mint" },
    { "manjaro", "manjaro" },
    { "manjaro-arm", "manjaro" },
    { "amzn", "amazon" },
    { "\"opensuse-leap\"", "opensuse" },
    { "'amzn'", "amazon" },
    { "Fedora", "fedora" },
    { " ubuntu\n", "ubuntu" },
    { "ol", "generic" },
    { "clear-linux-os", "generic" },
    { "wolfi", "generic" },
    { "\"", "generic" },
    { "\"\"", "generic" },
    { "", "generic" },
    { NULL, "generic" },
    /* os-release IDs are whole values, not words */
    { "debian-like", "generic" },
    { "arch2", "generic" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *id = kiste_distro_id_for_os_release_id (cases[i].input);

      if (g_strcmp0 (id, cases[i].expected) != 0)
        g_error ("os-release ID “%s”: expected %s, got %s",
                 cases[i].input ? cases[i].input : "(null)", cases[i].expected, id);
    }
}

static void
test_distro_names (void)
{
  static const Case display_names[] = {
    { "debian", "Debian" },
    { "ubuntu", "Ubuntu" },
    { "fedora", "Fedora" },
    { "arch", "Arch Linux" },
    { "opensuse", "openSUSE" },
    { "alpine", "Alpine Linux" },
    { "centos", "CentOS Stream" },
    { "almalinux", "AlmaLinux" },
    { "rocky", "Rocky Linux" },
    { "rhel", "Red Hat Enterprise Linux" },
    { "gentoo", "Gentoo" },
    { "void", "Void Linux" },
    { "nixos", "NixOS" },
    { "kali", "Kali Linux" },
    { "mint", "Linux Mint" },
    { "manjaro", "Manjaro" },
    { "amazon", "Amazon Linux" },
    { "generic", NULL },
  };

  g_assert_cmpint (G_N_ELEMENTS (display_names), ==, G_N_ELEMENTS (all_ids));

  for (gsize i = 0; i < G_N_ELEMENTS (display_names); i++)
    {
      const char *id = display_names[i].input;
      g_autofree char *expected_icon = g_strdup_printf ("kiste-distro-%s-symbolic", id);

      g_assert_cmpstr (kiste_distro_display_name (id), ==, display_names[i].expected);
      g_assert_cmpstr (kiste_distro_icon_name (id), ==, expected_icon);
      g_assert_cmpstr (id, ==, all_ids[i]);
    }

  g_assert_cmpstr (kiste_distro_icon_name (NULL), ==, "kiste-distro-generic-symbolic");
  g_assert_cmpstr (kiste_distro_icon_name (""), ==, "kiste-distro-generic-symbolic");
  g_assert_cmpstr (kiste_distro_icon_name ("plan9"), ==, "kiste-distro-generic-symbolic");
  g_assert_cmpstr (kiste_distro_icon_name ("Debian"), ==, "kiste-distro-generic-symbolic");
  g_assert_null (kiste_distro_display_name (NULL));
  g_assert_null (kiste_distro_display_name (""));
  g_assert_null (kiste_distro_display_name ("plan9"));

  /* what the guessers return is always something the names know */
  g_assert_nonnull (kiste_distro_display_name (kiste_distro_id_for_image ("ubuntu")));
  g_assert_nonnull (kiste_distro_display_name (kiste_distro_id_for_os_release_id ("amzn")));
}

/* The symbolic icon format GTK recolours: only <path>, <circle> and <rect>
 * shapes (in <g>), filled with the one foreground colour, no strokes, no
 * text, on a 16×16 canvas. */
typedef struct
{
  const char *file;
  guint       n_shapes;
  gboolean    saw_svg;
} SvgCheck;

static const char *
attribute (const char **names,
           const char **values,
           const char  *name)
{
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (strcmp (names[i], name) == 0)
        return values[i];
    }

  return NULL;
}

static void
svg_start_element (GMarkupParseContext  *context,
                   const char           *element,
                   const char          **names,
                   const char          **values,
                   gpointer              user_data,
                   GError              **error)
{
  SvgCheck *check = user_data;
  const char *fill;

  if (strcmp (element, "svg") == 0)
    {
      g_assert_cmpstr (attribute (names, values, "width"), ==, "16");
      g_assert_cmpstr (attribute (names, values, "height"), ==, "16");
      g_assert_cmpstr (attribute (names, values, "viewBox"), ==, "0 0 16 16");
      check->saw_svg = TRUE;
    }
  else if (strcmp (element, "path") == 0 ||
           strcmp (element, "circle") == 0 ||
           strcmp (element, "rect") == 0)
    {
      check->n_shapes++;
    }
  else if (strcmp (element, "g") != 0)
    {
      g_error ("%s: <%s> is not part of the symbolic icon format", check->file, element);
    }

  fill = attribute (names, values, "fill");
  if (fill != NULL && strcmp (fill, "#2e3436") != 0)
    g_error ("%s: <%s> is filled with %s, not the foreground colour", check->file, element, fill);

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (g_str_has_prefix (names[i], "stroke") ||
          strcmp (names[i], "style") == 0 ||
          strcmp (names[i], "transform") == 0 ||
          strcmp (names[i], "opacity") == 0)
        g_error ("%s: <%s %s> is not recoloured or not drawn by GTK", check->file, element, names[i]);
    }
}

static void
svg_text (GMarkupParseContext  *context,
          const char           *text,
          gsize                 len,
          gpointer              user_data,
          GError              **error)
{
  SvgCheck *check = user_data;

  for (gsize i = 0; i < len; i++)
    {
      if (!g_ascii_isspace (text[i]))
        g_error ("%s: the icon contains text", check->file);
    }
}

static char *
distro_icon_path (const char *id)
{
  g_autofree char *file = g_strdup_printf ("%s.svg", kiste_distro_icon_name (id));

  return g_test_build_filename (G_TEST_DIST, "..", "data", "icons", "distros", file, NULL);
}

static void
test_distro_icon_files (void)
{
  static const GMarkupParser parser = { svg_start_element, NULL, svg_text, NULL, NULL };

  for (gsize i = 0; i < G_N_ELEMENTS (all_ids); i++)
    {
      g_autoptr(GMarkupParseContext) context = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *path = distro_icon_path (all_ids[i]);
      g_autofree char *contents = NULL;
      gsize len;
      SvgCheck check = { path, 0, FALSE };

      g_file_get_contents (path, &contents, &len, &error);
      g_assert_no_error (error);

      context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, &check, NULL);
      g_markup_parse_context_parse (context, contents, len, &error);
      g_assert_no_error (error);
      g_markup_parse_context_end_parse (context, &error);
      g_assert_no_error (error);

      g_assert_true (check.saw_svg);
      g_assert_cmpuint (check.n_shapes, >, 0);
    }
}

/* Each icon is in the resource bundle where the icon theme looks for it. */
static void
gresource_start_element (GMarkupParseContext  *context,
                         const char           *element,
                         const char          **names,
                         const char          **values,
                         gpointer              user_data,
                         GError              **error)
{
  if (strcmp (element, "file") == 0)
    g_ptr_array_add (user_data, g_strdup (attribute (names, values, "alias")));
}

static void
gresource_text (GMarkupParseContext  *context,
                const char           *text,
                gsize                 len,
                gpointer              user_data,
                GError              **error)
{
  GPtrArray *entries = user_data;
  const char *element = g_markup_parse_context_get_element (context);

  if (g_strcmp0 (element, "file") == 0 && entries->len % 2 == 1)
    g_ptr_array_add (entries, g_strstrip (g_strndup (text, len)));
}

static void
test_distro_icon_resources (void)
{
  static const GMarkupParser parser = { gresource_start_element, NULL, gresource_text, NULL, NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  path = g_test_build_filename (G_TEST_DIST, "..", "data", "kiste.gresource.xml", NULL);
  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);

  context = g_markup_parse_context_new (&parser, G_MARKUP_DEFAULT_FLAGS, entries, NULL);
  g_markup_parse_context_parse (context, contents, len, &error);
  g_assert_no_error (error);
  g_markup_parse_context_end_parse (context, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (entries->len % 2, ==, 0);

  for (gsize i = 0; i < G_N_ELEMENTS (all_ids); i++)
    {
      const char *icon = kiste_distro_icon_name (all_ids[i]);
      g_autofree char *alias = g_strdup_printf ("icons/scalable/actions/%s.svg", icon);
      g_autofree char *source = g_strdup_printf ("icons/distros/%s.svg", icon);
      gboolean found = FALSE;

      for (guint j = 0; j < entries->len; j += 2)
        {
          if (g_strcmp0 (g_ptr_array_index (entries, j), alias) == 0)
            {
              g_assert_cmpstr (g_ptr_array_index (entries, j + 1), ==, source);
              found = TRUE;
            }
        }

      if (!found)
        g_error ("kiste.gresource.xml has no <file alias=\"%s\">", alias);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kiste/distro/image/known", test_distro_images);
  g_test_add_func ("/kiste/distro/image/whole-words", test_distro_whole_words);
  g_test_add_func ("/kiste/distro/image/tag-and-host", test_distro_tag_and_host);
  g_test_add_func ("/kiste/distro/image/edges", test_distro_image_edges);
  g_test_add_func ("/kiste/distro/os-release", test_distro_os_release);
  g_test_add_func ("/kiste/distro/names", test_distro_names);
  g_test_add_func ("/kiste/distro/icons/files", test_distro_icon_files);
  g_test_add_func ("/kiste/distro/icons/resources", test_distro_icon_resources);

  return g_test_run ();
}
