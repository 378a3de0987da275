/* kiste-distro.c
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
  const char *id;
  const char *icon_name;
  const char *display_name;
} Distro;

typedef struct
{
  const char *word;
  const char *id;
} Word;

/* Proper names: these are not translated. */
static const Distro distros[] = {
  { "debian",    "kiste-distro-debian-symbolic",    "Debian" },
  { "ubuntu",    "kiste-distro-ubuntu-symbolic",    "Ubuntu" },
  { "fedora",    "kiste-distro-fedora-symbolic",    "Fedora" },
  { "arch",      "kiste-distro-arch-symbolic",      "Arch Linux" },
  { "opensuse",  "kiste-distro-opensuse-symbolic",  "openSUSE" },
  { "alpine",    "kiste-distro-alpine-symbolic",    "Alpine Linux" },
  { "centos",    "kiste-distro-centos-symbolic",    "CentOS Stream" },
  { "almalinux", "kiste-distro-almalinux-symbolic", "AlmaLinux" },
  { "rocky",     "kiste-distro-rocky-symbolic",     "Rocky Linux" },
  { "rhel",      "kiste-distro-rhel-symbolic",      "Red Hat Enterprise Linux" },
  { "gentoo",    "kiste-distro-gentoo-symbolic",    "Gentoo" },
  { "void",      "kiste-distro-void-symbolic",      "Void Linux" },
  { "nixos",     "kiste-distro-nixos-symbolic",     "NixOS" },
  { "kali",      "kiste-distro-kali-symbolic",      "Kali Linux" },
  { "mint",      "kiste-distro-mint-symbolic",      "Linux Mint" },
  { "manjaro",   "kiste-distro-manjaro-symbolic",   "Manjaro" },
  { "amazon",    "kiste-distro-amazon-symbolic",    "Amazon Linux" },
  { KISTE_DISTRO_GENERIC, "kiste-distro-generic-symbolic", NULL },
};

/* Words of an image's repository path, compared after trailing digits are
 * dropped ("mint22" is "mint", "ubi9" is "ubi"). Whole words only: "arch"
 * must not match "archive", nor "nix" "unix". */
static const Word image_words[] = {
  { "debian",       "debian" },
  { "neurodebian",  "debian" },
  { "ubuntu",       "ubuntu" },
  { "fedora",       "fedora" },
  { "arch",         "arch" },
  { "archlinux",    "arch" },
  { "opensuse",     "opensuse" },
  { "suse",         "opensuse" },
  { "sle",          "opensuse" },
  { "sles",         "opensuse" },
  { "tumbleweed",   "opensuse" },
  { "alpine",       "alpine" },
  { "centos",       "centos" },
  { "alma",         "almalinux" },
  { "almalinux",    "almalinux" },
  { "almalinuxorg", "almalinux" },
  { "rocky",        "rocky" },
  { "rockylinux",   "rocky" },
  { "rhel",         "rhel" },
  { "ubi",          "rhel" },
  { "redhat",       "rhel" },
  { "gentoo",       "gentoo" },
  { "void",         "void" },
  { "voidlinux",    "void" },
  { "nixos",        "nixos" },
  { "nix",          "nixos" },
  { "kali",         "kali" },
  { "kalilinux",    "kali" },
  { "mint",         "mint" },
  { "linuxmint",    "mint" },
  { "linuxmintd",   "mint" },
  { "lmde",         "mint" },
  { "manjaro",      "manjaro" },
  { "manjarolinux", "manjaro" },
  { "amazon",       "amazon" },
  { "amazonlinux",  "amazon" },
};

/* Release names that only say something in a tag ("python:3.12-bookworm"). */
static const Word tag_words[] = {
  { "buster",   "debian" },
  { "bullseye", "debian" },
  { "bookworm", "debian" },
  { "trixie",   "debian" },
  { "forky",    "debian" },
  { "bionic",   "ubuntu" },
  { "focal",    "ubuntu" },
  { "jammy",    "ubuntu" },
  { "noble",    "ubuntu" },
  { "rawhide",  "fedora" },
};

/* Registries run by a distribution, asked last. */
static const Word host_words[] = {
  { "fedoraproject", "fedora" },
};

static const Distro *
find_distro (const char *distro_id)
{
  if (distro_id == NULL)
    return NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (distros); i++)
    {
      if (strcmp (distros[i].id, distro_id) == 0)
        return &distros[i];
    }

  return NULL;
}

static const char *
lookup_word (const Word *table,
             gsize       n_table,
             const char *word,
             gsize       len)
{
  for (gsize i = 0; i < n_table; i++)
    {
      if (strlen (table[i].word) == len && strncmp (table[i].word, word, len) == 0)
        return table[i].id;
    }

  return NULL;
}

/* The id of the first word of text (split on "-", "_", "." and ":") found in
 * either table, or NULL. */
static const char *
match_words (const char *text,
             const Word *table,
             gsize       n_table,
             const Word *extra,
             gsize       n_extra)
{
  g_auto(GStrv) words = NULL;

  if (text == NULL || text[0] == '\0')
    return NULL;

  words = g_strsplit_set (text, "-_.:", -1);

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *word = words[i];
      gsize len = strlen (word);
      const char *id;

      while (len > 0 && g_ascii_isdigit (word[len - 1]))
        len--;
      if (len == 0)
        continue;

      if ((id = lookup_word (table, n_table, word, len)) != NULL)
        return id;
      if (extra != NULL && (id = lookup_word (extra, n_extra, word, len)) != NULL)
        return id;
    }

  return NULL;
}

/* The registry part of a reference, as container tools tell it apart. */
static gboolean
is_registry_host (const char *component)
{
  return strchr (component, '.') != NULL ||
         strchr (component, ':') != NULL ||
         strcmp (component, "localhost") == 0;
}

const char *
kiste_distro_id_for_image (const char *image)
{
  g_autofree char *ref = NULL;
  g_auto(GStrv) components = NULL;
  const char *host = NULL;
  const char *tag = NULL;
  const char *id;
  char *path;
  char *p;
  guint n_components;

  if (image == NULL)
    return KISTE_DISTRO_GENERIC;

  ref = g_ascii_strdown (image, -1);
  g_strstrip (ref);

  if ((p = strchr (ref, '@')) != NULL)
    *p = '\0';

  path = ref;
  if ((p = strchr (path, '/')) != NULL)
    {
      *p = '\0';
      if (is_registry_host (path))
        {
          host = path;
          path = p + 1;
        }
      else
        {
          *p = '/';
        }
    }

  /* only the last component carries a tag */
  p = strrchr (path, '/');
  if ((p = strchr (p != NULL ? p : path, ':')) != NULL)
    {
      *p = '\0';
      tag = p + 1;
    }

  components = g_strsplit (path, "/", -1);
  n_components = g_strv_length (components);

  for (guint i = n_components; i > 0; i--)
    {
      if ((id = match_words (components[i - 1],
                             image_words, G_N_ELEMENTS (image_words),
                             NULL, 0)) != NULL)
        return id;
    }

  if ((id = match_words (tag,
                         image_words, G_N_ELEMENTS (image_words),
                         tag_words, G_N_ELEMENTS (tag_words))) != NULL)
    return id;

  if ((id = match_words (host,
                         image_words, G_N_ELEMENTS (image_words),
                         host_words, G_N_ELEMENTS (host_words))) != NULL)
    return id;

  return KISTE_DISTRO_GENERIC;
}

const char *
kiste_distro_id_for_os_release_id (const char *id)
{
  static const Word os_release_ids[] = {
    { "debian",      "debian" },
    { "ubuntu",      "ubuntu" },
    { "fedora",      "fedora" },
    { "arch",        "arch" },
    { "archarm",     "arch" },
    { "sles",        "opensuse" },
    { "sled",        "opensuse" },
    { "sle-micro",   "opensuse" },
    { "alpine",      "alpine" },
    { "centos",      "centos" },
    { "almalinux",   "almalinux" },
    { "rocky",       "rocky" },
    { "rhel",        "rhel" },
    { "gentoo",      "gentoo" },
    { "void",        "void" },
    { "nixos",       "nixos" },
    { "kali",        "kali" },
    { "linuxmint",   "mint" },
    { "lmde",        "mint" },
    { "manjaro",     "manjaro" },
    { "manjaro-arm", "manjaro" },
    { "amzn",        "amazon" },
  };
  g_autofree char *value = NULL;
  gsize len;
  const char *distro_id;

  if (id == NULL)
    return KISTE_DISTRO_GENERIC;

  value = g_ascii_strdown (id, -1);
  g_strstrip (value);

  len = strlen (value);
  if (len >= 2 &&
      (value[0] == '"' || value[0] == '\'') &&
      value[len - 1] == value[0])
    {
      value[len - 1] = '\0';
      memmove (value, value + 1, len - 1);
      len -= 2;
    }

  /* opensuse-tumbleweed, opensuse-leap, opensuse-microos, … */
  if (g_str_has_prefix (value, "opensuse"))
    return "opensuse";

  distro_id = lookup_word (os_release_ids, G_N_ELEMENTS (os_release_ids), value, len);

  return distro_id != NULL ? distro_id : KISTE_DISTRO_GENERIC;
}

const char *
kiste_distro_icon_name (const char *distro_id)
{
  const Distro *distro = find_distro (distro_id);

  if (distro == NULL)
    distro = find_distro (KISTE_DISTRO_GENERIC);

  return distro->icon_name;
}

const char *
kiste_distro_display_name (const char *distro_id)
{
  const Distro *distro = find_distro (distro_id);

  return distro != NULL ? distro->display_name : NULL;
}
