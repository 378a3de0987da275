/* kiste-first-boxes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The boxes a first run offers: one of the computer's own distribution,
 * read from its os-release, another common one and one to try, each with
 * the image distrobox makes it from. */

#include "config.h"

#include <string.h>

#include "kiste-distro.h"
#include "kiste-first-boxes.h"

typedef struct
{
  const char *distro_id;
  /* A release's image is before, the release, after; without a release
   * (or for images that have one release) it is current */
  const char *before;
  const char *after;
  const char *current;
  /* How many parts of VERSION_ID name the release: "24.04" is Ubuntu's,
   * "9" of "9.4" Rocky Linux's */
  guint       parts;
} DistroImage;

/* Repositories of distrobox's list of images known to work (`distrobox
 * create --compatibility`), tagged with the release an os-release names.
 * Where the list has several for a distribution: the official image, which
 * has every release, or the distribution's own toolbox image. */
static const DistroImage distro_images[] = {
  { "debian",    "docker.io/library/debian:", "", "docker.io/library/debian:latest", 1 },
  { "ubuntu",    "docker.io/library/ubuntu:", "", "docker.io/library/ubuntu:latest", 2 },
  { "fedora",    "registry.fedoraproject.org/fedora-toolbox:", "",
                 "registry.fedoraproject.org/fedora-toolbox:latest", 1 },
  { "arch",      NULL, NULL, "quay.io/toolbx/arch-toolbox:latest", 0 },
  { "opensuse",  NULL, NULL, "registry.opensuse.org/opensuse/distrobox:latest", 0 },
  { "alpine",    "docker.io/library/alpine:", "", "docker.io/library/alpine:latest", 2 },
  { "centos",    "quay.io/centos/centos:stream", "", "quay.io/centos/centos:stream10", 1 },
  { "almalinux", "quay.io/toolbx-images/almalinux-toolbox:", "",
                 "quay.io/toolbx-images/almalinux-toolbox:latest", 1 },
  { "rocky",     "quay.io/toolbx-images/rockylinux-toolbox:", "",
                 "quay.io/toolbx-images/rockylinux-toolbox:latest", 1 },
  { "rhel",      "registry.access.redhat.com/ubi", "/toolbox",
                 "registry.access.redhat.com/ubi9/toolbox", 1 },
  { "kali",      NULL, NULL, "docker.io/kalilinux/kali-rolling:latest", 0 },
  { "void",      NULL, NULL, "ghcr.io/void-linux/void-glibc-full:latest", 0 },
  { "gentoo",    NULL, NULL, "docker.io/gentoo/stage3:latest", 0 },
  { "amazon",    "public.ecr.aws/amazonlinux/amazonlinux:", "",
                 "public.ecr.aws/amazonlinux/amazonlinux:latest", 1 },
};

/* openSUSE Leap is openSUSE to kiste-distro.h, but its image is not
 * Tumbleweed's */
static const DistroImage leap_image =
  { "opensuse", "registry.opensuse.org/opensuse/leap:", "", "registry.opensuse.org/opensuse/leap:latest", 2 };

/* Best first: another distribution, and one to try */
static const char * const other_distros[] = { "fedora", "ubuntu", "debian" };
static const char * const try_distros[] = { "arch", "opensuse", "alpine" };

void
kiste_first_box_free (KisteFirstBox *box)
{
  if (box == NULL)
    return;

  g_free (box->image);
  g_free (box);
}

static KisteFirstBox *
kiste_first_box_new (KisteFirstBoxKind  kind,
                     const char        *distro_id,
                     char              *image)
{
  KisteFirstBox *box = g_new0 (KisteFirstBox, 1);

  box->kind = kind;
  box->distro_id = distro_id;
  box->image = image;
  return box;
}

static const DistroImage *
find_image (const char *distro_id)
{
  for (gsize i = 0; distro_id != NULL && i < G_N_ELEMENTS (distro_images); i++)
    {
      if (g_str_equal (distro_images[i].distro_id, distro_id))
        return &distro_images[i];
    }

  return NULL;
}

/* The first parts of version_id ("9" of "9.4"), or NULL unless they are
 * numbers, as release tags are */
static char *
dup_release (const char *version_id,
             guint       parts)
{
  g_auto(GStrv) numbers = NULL;
  guint n;

  if (version_id == NULL || parts == 0 || strlen (version_id) > 32)
    return NULL;

  numbers = g_strsplit (version_id, ".", -1);
  n = g_strv_length (numbers);
  if (n < parts)
    return NULL;

  for (guint i = 0; i < parts; i++)
    {
      if (numbers[i][0] == '\0')
        return NULL;
      for (const char *p = numbers[i]; *p != '\0'; p++)
        {
          if (!g_ascii_isdigit (*p))
            return NULL;
        }
    }

  g_free (numbers[parts]);
  numbers[parts] = NULL;
  return g_strjoinv (".", numbers);
}

static char *
image_for (const DistroImage *image,
           const char        *version_id)
{
  g_autofree char *release = NULL;

  if (image->before != NULL && (release = dup_release (version_id, image->parts)) != NULL)
    return g_strconcat (image->before, release, image->after, NULL);

  return g_strdup (image->current);
}

char *
kiste_first_boxes_image_for_distro (const char *distro_id,
                                    const char *version_id)
{
  const DistroImage *image = find_image (distro_id);

  return image != NULL ? image_for (image, version_id) : NULL;
}

const char *
kiste_first_boxes_os_release_path (gboolean in_flatpak)
{
  if (in_flatpak)
    return "/run/host/os-release";
  if (g_file_test ("/etc/os-release", G_FILE_TEST_EXISTS))
    return "/etc/os-release";
  return "/usr/lib/os-release";
}

/* The value of key in os-release text, unquoted as a shell would, or NULL */
static char *
dup_os_release_value (const char *contents,
                      const char *key)
{
  g_auto(GStrv) lines = NULL;
  gsize key_len = strlen (key);

  if (contents == NULL)
    return NULL;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      g_autofree char *value = NULL;

      while (*line == ' ' || *line == '\t')
        line++;
      if (strncmp (line, key, key_len) != 0 || line[key_len] != '=')
        continue;

      value = g_shell_unquote (g_strchomp (line + key_len + 1), NULL);
      return value != NULL && value[0] != '\0' ? g_steal_pointer (&value) : NULL;
    }

  return NULL;
}

/* The image of the computer's own distribution, by its ID, else by the
 * first of ID_LIKE that has one (of its current release: the computer's
 * release is its own distribution's) */
static char *
dup_host_image (const char  *contents,
                const char **distro_id)
{
  g_autofree char *id = dup_os_release_value (contents, "ID");
  g_autofree char *id_like = dup_os_release_value (contents, "ID_LIKE");
  g_autofree char *version_id = dup_os_release_value (contents, "VERSION_ID");
  g_auto(GStrv) likes = NULL;
  const DistroImage *image;

  *distro_id = kiste_distro_id_for_os_release_id (id);
  if (g_strcmp0 (id, "opensuse-leap") == 0)
    image = &leap_image;
  else
    image = find_image (*distro_id);
  if (image != NULL)
    return image_for (image, version_id);

  likes = g_strsplit_set (id_like != NULL ? id_like : "", " \t", -1);
  for (guint i = 0; likes[i] != NULL; i++)
    {
      *distro_id = kiste_distro_id_for_os_release_id (likes[i]);
      if ((image = find_image (*distro_id)) != NULL)
        return image_for (image, NULL);
    }

  *distro_id = NULL;
  return NULL;
}

static gboolean
is_offered (GPtrArray  *boxes,
            const char *distro_id)
{
  for (guint i = 0; i < boxes->len; i++)
    {
      KisteFirstBox *box = g_ptr_array_index (boxes, i);

      if (g_str_equal (box->distro_id, distro_id))
        return TRUE;
    }

  return FALSE;
}

/* Adds the first of candidates not offered yet */
static void
add_first_box (GPtrArray          *boxes,
               KisteFirstBoxKind   kind,
               const char * const *candidates,
               gsize               n_candidates)
{
  for (gsize i = 0; i < n_candidates; i++)
    {
      if (!is_offered (boxes, candidates[i]))
        {
          g_ptr_array_add (boxes, kiste_first_box_new (kind, candidates[i],
                                                       kiste_first_boxes_image_for_distro (candidates[i], NULL)));
          return;
        }
    }
}

GPtrArray *
kiste_first_boxes_for_os_release (const char *contents)
{
  g_autoptr(GPtrArray) boxes = g_ptr_array_new_with_free_func ((GDestroyNotify) kiste_first_box_free);
  const char *host_distro = NULL;
  char *host_image = dup_host_image (contents, &host_distro);

  if (host_image != NULL)
    g_ptr_array_add (boxes, kiste_first_box_new (KISTE_FIRST_BOX_HOST, host_distro, host_image));
  else
    add_first_box (boxes, KISTE_FIRST_BOX_OTHER, other_distros, G_N_ELEMENTS (other_distros));
  add_first_box (boxes, KISTE_FIRST_BOX_OTHER, other_distros, G_N_ELEMENTS (other_distros));
  add_first_box (boxes, KISTE_FIRST_BOX_TRY, try_distros, G_N_ELEMENTS (try_distros));

  return g_steal_pointer (&boxes);
}

GPtrArray *
kiste_first_boxes_load (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &contents, NULL, &error))
    g_debug ("Could not read %s: %s", path, error->message);

  return kiste_first_boxes_for_os_release (contents);
}
