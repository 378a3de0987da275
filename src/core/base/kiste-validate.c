/* kiste-validate.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-validate.h"

#define NAME_MIN_LENGTH 2
#define NAME_MAX_LENGTH 63
#define HOSTNAME_LABEL_MAX 63
#define IMAGE_NAME_MAX 255
#define IMAGE_TAG_MAX 128

/* The character at p as text for a message; invalid UTF-8 shows as "?". */
static char *
dup_char_at (const char *p)
{
  gunichar c = g_utf8_get_char_validated (p, -1);
  char buf[8] = { 0 };

  if (c == (gunichar)-1 || c == (gunichar)-2)
    return g_strdup ("?");

  g_unichar_to_utf8 (c, buf);

  return g_strdup (buf);
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

static gboolean
strv_contains (const char * const *strv,
               const char         *str)
{
  return strv != NULL && g_strv_contains (strv, str);
}

gboolean
kiste_validate_name (const char          *name,
                     const char * const  *existing_names,
                     GError             **error)
{
  gsize len;

  if (name == NULL || name[0] == '\0')
    return kiste_set_invalid_input (error, "%s",
                                    _("Enter a name for the box. It may contain letters, digits, “_” and “-”."));

  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '.')
        return kiste_set_invalid_input (error, "%s",
                                        _("The name may not contain “.”: distrobox uses box names as search "
                                          "patterns, where a dot matches any character. Use “-” or “_” instead."));

      if (!is_name_char (*p) || (p == name && !g_ascii_isalnum (*p)))
        return kiste_set_invalid_input (error, "%s",
                                        _("The name may only contain letters, digits, “_” and “-”, and must "
                                          "start with a letter or digit."));
    }

  len = strlen (name);
  if (len < NAME_MIN_LENGTH)
    return kiste_set_invalid_input (error, ngettext ("The name must be at least %d character long.",
                                                     "The name must be at least %d characters long.",
                                                     NAME_MIN_LENGTH),
                                    NAME_MIN_LENGTH);
  if (len > NAME_MAX_LENGTH)
    return kiste_set_invalid_input (error, ngettext ("The name may be at most %d character long.",
                                                     "The name may be at most %d characters long.",
                                                     NAME_MAX_LENGTH),
                                    NAME_MAX_LENGTH);

  if (strv_contains (existing_names, name))
    return kiste_set_invalid_input (error, _("The name “%s” is taken: a box with that name already exists."),
                                    name);

  return TRUE;
}

gboolean
kiste_validate_existing_name (const char          *name,
                              const char * const  *existing_names,
                              GError             **error)
{
  if (name == NULL || name[0] == '\0')
    return kiste_set_invalid_input (error, "%s", _("Choose the box to clone."));

  /* podman's own rule, so boxes made outside Kiste can be cloned too */
  for (const char *p = name; *p != '\0'; p++)
    {
      if (!(is_name_char (*p) || *p == '.') || (p == name && !g_ascii_isalnum (*p)))
        return kiste_set_invalid_input (error, "%s",
                                        _("The name of the box to clone may only contain letters, digits, "
                                          "“_”, “.” and “-”, and must start with a letter or digit."));
    }

  if (strlen (name) > 253)
    return kiste_set_invalid_input (error, "%s", _("The name of the box to clone is too long."));

  if (existing_names != NULL && !strv_contains (existing_names, name))
    return kiste_set_invalid_input (error, _("There is no box named “%s” to clone."), name);

  return TRUE;
}

gboolean
kiste_validate_hostname (const char  *hostname,
                         GError     **error)
{
  gsize len;
  gsize label_len = 0;

  if (hostname == NULL || hostname[0] == '\0')
    return kiste_set_invalid_input (error, "%s", _("The hostname is empty."));

  len = strlen (hostname);
  if (len > KISTE_VALIDATE_HOSTNAME_MAX)
    return kiste_set_invalid_input (error,
                                    ngettext ("The hostname may be at most %d character long; this one has %u.",
                                              "The hostname may be at most %d characters long; this one has %u.",
                                              KISTE_VALIDATE_HOSTNAME_MAX),
                                    KISTE_VALIDATE_HOSTNAME_MAX, (guint)g_utf8_strlen (hostname, -1));

  for (const char *p = hostname; ; p++)
    {
      if (*p == '.' || *p == '\0')
        {
          /* each label: 1..63 characters, no "-" at either end */
          if (label_len == 0 || label_len > HOSTNAME_LABEL_MAX ||
              p[-1] == '-' || p[-(gssize)label_len] == '-')
            break;

          if (*p == '\0')
            return TRUE;

          label_len = 0;
          continue;
        }

      if (!(g_ascii_isalnum (*p) || *p == '-'))
        break;

      label_len++;
    }

  return kiste_set_invalid_input (error, "%s",
                                  _("The hostname may only contain letters, digits and “-”, in parts "
                                    "separated by dots; each part must start and end with a letter or digit."));
}

gboolean
kiste_validate_default_hostname (const char  *name,
                                 const char  *host_name,
                                 GError     **error)
{
  g_autofree char *full = NULL;
  glong n_chars;

  g_return_val_if_fail (name != NULL, FALSE);

  if (host_name == NULL)
    host_name = g_get_host_name ();

  full = g_strdup_printf ("%s.%s", name, host_name);
  n_chars = g_utf8_strlen (full, -1);

  if (n_chars > KISTE_VALIDATE_HOSTNAME_MAX)
    return kiste_set_invalid_input (error,
                                    ngettext ("Set a hostname: with its own network, the box would be called "
                                              "“%s”, which has %ld character, but a hostname may have at most %d.",
                                              "Set a hostname: with its own network, the box would be called "
                                              "“%s”, which has %ld characters, but a hostname may have at most %d.",
                                              n_chars),
                                    full, n_chars, KISTE_VALIDATE_HOSTNAME_MAX);

  return TRUE;
}

/* [a-z0-9]+ joined by ".", "_", "__" or runs of "-" */
static gboolean
is_image_path_component (const char *s,
                         gsize       len)
{
  gsize i = 0;

  while (i < len)
    {
      gsize sep_start;

      if (!(g_ascii_islower (s[i]) || g_ascii_isdigit (s[i])))
        return FALSE;

      while (i < len && (g_ascii_islower (s[i]) || g_ascii_isdigit (s[i])))
        i++;

      if (i == len)
        return TRUE;

      sep_start = i;
      if (s[i] == '.')
        i++;
      else if (s[i] == '_')
        i += (i + 1 < len && s[i + 1] == '_') ? 2 : 1;
      else if (s[i] == '-')
        while (i < len && s[i] == '-')
          i++;
      else
        return FALSE;

      /* a separator must be followed by more characters */
      if (i == len || i == sep_start)
        return FALSE;
    }

  return FALSE;
}

/* host[:port], host = dot-separated labels */
static gboolean
is_image_domain (const char *s,
                 gsize       len)
{
  const char *colon = memchr (s, ':', len);
  gsize host_len = colon ? (gsize)(colon - s) : len;
  gsize label_len = 0;

  if (colon != NULL)
    {
      gsize port_len = len - host_len - 1;

      if (port_len == 0 || port_len > 5)
        return FALSE;
      for (gsize i = host_len + 1; i < len; i++)
        if (!g_ascii_isdigit (s[i]))
          return FALSE;
    }

  if (host_len == 0)
    return FALSE;

  for (gsize i = 0; i <= host_len; i++)
    {
      if (i == host_len || s[i] == '.')
        {
          if (label_len == 0 || s[i - 1] == '-' || s[i - label_len] == '-')
            return FALSE;
          label_len = 0;
          continue;
        }

      if (!(g_ascii_isalnum (s[i]) || s[i] == '-'))
        return FALSE;
      label_len++;
    }

  return TRUE;
}

static gboolean
is_image_tag (const char *s)
{
  gsize len = strlen (s);

  if (len == 0 || len > IMAGE_TAG_MAX)
    return FALSE;
  if (!(g_ascii_isalnum (s[0]) || s[0] == '_'))
    return FALSE;

  for (gsize i = 1; i < len; i++)
    if (!(g_ascii_isalnum (s[i]) || s[i] == '_' || s[i] == '.' || s[i] == '-'))
      return FALSE;

  return TRUE;
}

static gboolean
is_image_digest (const char *s)
{
  gsize hex_len;

  if (g_str_has_prefix (s, "sha256:"))
    hex_len = 64;
  else if (g_str_has_prefix (s, "sha512:"))
    hex_len = 128;
  else
    return FALSE;

  s += strlen ("sha256:");
  if (strlen (s) != hex_len)
    return FALSE;

  for (gsize i = 0; i < hex_len; i++)
    if (!(g_ascii_isdigit (s[i]) || (s[i] >= 'a' && s[i] <= 'f')))
      return FALSE;

  return TRUE;
}

static gboolean
invalid_image (const char  *image,
               GError     **error)
{
  return kiste_set_invalid_input (error,
                                  _("The image “%s” is not a valid image name. Use a name like "
                                    "“docker.io/library/debian:12” or “fedora:latest”."),
                                  image);
}

gboolean
kiste_validate_image (const char  *image,
                      GError     **error)
{
  g_autofree char *copy = NULL;
  g_auto(GStrv) components = NULL;
  char *digest;
  char *last_slash;
  char *tag;
  guint first_path = 0;
  guint n_components;

  if (image == NULL || image[0] == '\0')
    return kiste_set_invalid_input (error, "%s", _("Choose an image for the box."));

  for (const char *p = image; *p != '\0'; p++)
    {
      if (g_ascii_isspace (*p))
        return kiste_set_invalid_input (error, "%s", _("The image name may not contain spaces."));

      if (!(g_ascii_isalnum (*p) || strchr ("._-:/@", *p) != NULL))
        {
          g_autofree char *c = dup_char_at (p);

          return kiste_set_invalid_input (error,
                                          _("The image name may not contain “%s”. Use a name like "
                                            "“docker.io/library/debian:12”."),
                                          c);
        }
    }

  copy = g_strdup (image);

  if ((digest = strchr (copy, '@')) != NULL)
    {
      *digest++ = '\0';
      if (!is_image_digest (digest))
        return kiste_set_invalid_input (error, "%s",
                                        _("The image digest must look like “@sha256:” followed by 64 "
                                          "hexadecimal digits."));
    }

  /* a colon after the last slash starts the tag; earlier ones are ports */
  last_slash = strrchr (copy, '/');
  tag = strrchr (last_slash ? last_slash : copy, ':');
  if (tag != NULL)
    {
      *tag++ = '\0';
      if (!is_image_tag (tag))
        return kiste_set_invalid_input (error,
                                        ngettext ("The image tag “%s” is not valid: it may contain letters, "
                                                  "digits, “_”, “.” and “-”, must not start with “.” or “-”, and "
                                                  "may be at most %d character long.",
                                                  "The image tag “%s” is not valid: it may contain letters, "
                                                  "digits, “_”, “.” and “-”, must not start with “.” or “-”, and "
                                                  "may be at most %d characters long.", IMAGE_TAG_MAX),
                                        tag, IMAGE_TAG_MAX);
    }

  if (copy[0] == '\0' || strlen (copy) > IMAGE_NAME_MAX)
    return invalid_image (image, error);

  components = g_strsplit (copy, "/", -1);
  n_components = g_strv_length (components);

  /* like docker: the first part is a registry only if it looks like one */
  if (n_components > 1 &&
      (strchr (components[0], '.') != NULL ||
       strchr (components[0], ':') != NULL ||
       g_str_equal (components[0], "localhost")))
    {
      if (!is_image_domain (components[0], strlen (components[0])))
        return kiste_set_invalid_input (error,
                                        _("The registry “%s” in the image name is not a valid host name."),
                                        components[0]);
      first_path = 1;
    }

  for (guint i = first_path; i < n_components; i++)
    {
      const char *c = components[i];

      if (is_image_path_component (c, strlen (c)))
        continue;

      for (const char *p = c; *p != '\0'; p++)
        if (g_ascii_isupper (*p))
          return kiste_set_invalid_input (error,
                                          _("The image name “%s” must be lowercase (only the tag may contain "
                                            "capital letters)."),
                                          image);

      return invalid_image (image, error);
    }

  return TRUE;
}

gboolean
kiste_validate_absolute_path (const char  *field_label,
                              const char  *path,
                              GError     **error)
{
  g_return_val_if_fail (field_label != NULL, FALSE);

  if (path == NULL || path[0] != '/')
    /* Translators: %s is the subject of the sentence, what is checked:
     * "The home folder", "The path in the box" */
    return kiste_set_invalid_input (error, _("%s must be an absolute path, starting with “/”."), field_label);

  if (!g_utf8_validate (path, -1, NULL))
    /* Translators: %s is the subject of the sentence, "The home folder" */
    return kiste_set_invalid_input (error, _("%s is not valid text (UTF-8)."), field_label);

  for (const char *p = path; *p != '\0'; p++)
    {
      if (g_ascii_iscntrl (*p))
        /* Translators: %s is the subject of the sentence, "The home folder" */
        return kiste_set_invalid_input (error, _("%s may not contain line breaks or other control characters."),
                                        field_label);

      /* distrobox 1.x evals these paths in a shell string */
      if (strchr ("$`\"'\\", *p) != NULL)
        return kiste_set_invalid_input (error,
                                        /* Translators: %s is the subject of the sentence,
                                         * "The home folder"; %c is the character */
                                        _("%s may not contain “%c”: distrobox passes it through a shell, "
                                          "which would interpret it."),
                                        field_label, *p);
    }

  /* "a/../b" is not where it seems to be */
  {
    g_auto(GStrv) parts = g_strsplit (path, "/", -1);

    for (guint i = 0; parts[i] != NULL; i++)
      if (g_str_equal (parts[i], ".."))
        /* Translators: %s is the subject of the sentence, "The home folder" */
        return kiste_set_invalid_input (error, _("%s may not contain “..”: write the folder it leads to."),
                                        field_label);
  }

  return TRUE;
}

gboolean
kiste_validate_program (const char  *program,
                        GError     **error)
{
  if (program == NULL || program[0] == '\0')
    return kiste_set_invalid_input (error, _("Enter the name of a program in the box, or its path."));

  if (program[0] == '/')
    return kiste_validate_absolute_path (_("The program"), program, error);

  if (!g_utf8_validate (program, -1, NULL))
    return kiste_set_invalid_input (error, _("The program’s name is not valid text (UTF-8)."));

  if (strlen (program) > 255)
    return kiste_set_invalid_input (error, _("The program’s name is too long."));

  if (program[0] == '-' || g_str_equal (program, ".") || g_str_equal (program, ".."))
    return kiste_set_invalid_input (error, _("“%s” is no program name."), program);

  for (const char *p = program; *p != '\0'; p++)
    {
      if (*p == '/')
        return kiste_set_invalid_input (error,
                                        _("Write a program’s name without “/”, or its whole path "
                                          "starting with “/”."));
      if (g_ascii_iscntrl (*p) || *p == ' ' || strchr ("$`\"'\\", *p) != NULL)
        return kiste_set_invalid_input (error, _("A program’s name may not contain “%c” or blanks."),
                                        g_ascii_iscntrl (*p) ? '?' : *p);
    }

  return TRUE;
}

/* A folder podman mounts: its --volume splits at every ":", so a path
 * with one fails late (exit 125), after distrobox made the folder */
static gboolean
check_mount_path (const char  *field_label,
                  const char  *path,
                  GError     **error)
{
  if (!kiste_validate_absolute_path (field_label, path, error))
    return FALSE;

  if (strchr (path, ':') != NULL)
    return kiste_set_invalid_input (error,
                                    /* Translators: %s is the subject of the sentence, "The path in the box" */
                                    _("%s may not contain “:”: podman separates the parts of a "
                                      "mounted folder with it."),
                                    field_label);
  return TRUE;
}

char *
kiste_validate_expand_home (const char *path,
                            const char *home_dir)
{
  if (path == NULL)
    return NULL;
  if (home_dir == NULL)
    home_dir = g_get_home_dir ();

  if (g_str_equal (path, "~"))
    return g_strdup (home_dir);
  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (home_dir, path + 2, NULL);
  return g_strdup (path);
}

gboolean
kiste_validate_volume_paths (const char  *host_path,
                             const char  *box_path,
                             const char  *home_dir,
                             GError     **error)
{
  g_autofree char *host = kiste_validate_expand_home (host_path, home_dir);

  return check_mount_path (_("The path on this computer"), host, error) &&
         check_mount_path (_("The path in the box"), box_path, error);
}

gboolean
kiste_validate_home (const char  *home,
                     GError     **error)
{
  if (!check_mount_path (_("The home folder"), home, error))
    return FALSE;

  /* distrobox strips trailing slashes; "/" would become no home at all */
  if (strspn (home, "/") == strlen (home))
    return kiste_set_invalid_input (error, "%s", _("The home folder cannot be the root folder “/”."));

  return TRUE;
}

static const char * const volume_options[] = {
  "ro", "rw", "z", "Z", "U", "O",
  "bind", "rbind",
  "private", "rprivate", "shared", "rshared", "slave", "rslave",
  "unbindable", "runbindable",
  "exec", "noexec", "suid", "nosuid", "dev", "nodev",
  "copy", "nocopy", "idmap",
  NULL
};

gboolean
kiste_validate_volume (const char  *spec,
                       GError     **error)
{
  g_auto(GStrv) parts = NULL;
  guint n_parts;

  if (spec == NULL || spec[0] == '\0')
    return kiste_set_invalid_input (error, "%s",
                                    _("The volume is empty. Use PATH-ON-THIS-COMPUTER:PATH-IN-BOX, for "
                                      "example /srv/data:/data or /srv/data:/data:ro."));

  for (const char *p = spec; *p != '\0'; p++)
    if (g_ascii_isspace (*p))
      return kiste_set_invalid_input (error,
                                      _("The volume “%s” may not contain spaces: distrobox splits volumes "
                                        "at spaces."),
                                      spec);

  /* distrobox 1.8 adds volumes to its command without quotes and evals
   * it: any of these would be shell syntax on the host */
  {
    const char *bad = strpbrk (spec, ";&|<>()*?[]#~{}!");

    if (bad != NULL)
      return kiste_set_invalid_input (error,
                                      _("The volume “%s” may not contain “%c”: distrobox passes volumes "
                                        "through a shell, which would interpret it."),
                                      spec, *bad);
  }

  parts = g_strsplit (spec, ":", -1);
  n_parts = g_strv_length (parts);

  if (n_parts < 2)
    return kiste_set_invalid_input (error,
                                    _("The volume “%s” needs a colon between the path on this computer and "
                                      "the path in the box, for example /srv/data:/data."),
                                    spec);
  if (n_parts > 3)
    return kiste_set_invalid_input (error,
                                    _("The volume “%s” has too many colons. Use "
                                      "PATH-ON-THIS-COMPUTER:PATH-IN-BOX:OPTIONS; paths may not contain “:”."),
                                    spec);

  if (!kiste_validate_absolute_path (_("The path on this computer of a volume"), parts[0], error) ||
      !kiste_validate_absolute_path (_("The path in the box of a volume"), parts[1], error))
    return FALSE;

  if (n_parts == 3)
    {
      g_auto(GStrv) options = g_strsplit (parts[2], ",", -1);
      gboolean ro = FALSE;
      gboolean rw = FALSE;

      /* "/a:/b:" splits into no options at all */
      if (parts[2][0] == '\0')
        return kiste_set_invalid_input (error,
                                        _("The volume “%s” ends with a colon but names no options. Remove "
                                          "the colon or add options like “ro”."),
                                        spec);

      for (guint i = 0; options[i] != NULL; i++)
        {
          if (!g_strv_contains (volume_options, options[i]))
            {
              g_autofree char *allowed = g_strjoinv (", ", (char **)volume_options);

              return kiste_set_invalid_input (error,
                                              _("The volume option “%s” is not known. Options are separated "
                                                "by commas, from: %s."),
                                              options[i], allowed);
            }

          ro |= g_str_equal (options[i], "ro");
          rw |= g_str_equal (options[i], "rw");
        }

      if (ro && rw)
        return kiste_set_invalid_input (error,
                                        _("The volume “%s” cannot be both read-only (ro) and writable (rw)."),
                                        spec);
    }

  return TRUE;
}

/* Names, and the paths and addresses of package files, which dnf, apt and
 * zypper install too: none of these means anything to distrobox's shell
 * on the host (in double quotes) or to init's in the box (unquoted) */
static gboolean
is_package_char (char c)
{
  return g_ascii_isalnum (c) || strchr ("._+:=~@-/%", c) != NULL;
}

/* A name or address starts with a letter or digit, a file in the box with
 * "/", "./" or "../"; never with "-", which the package manager would take
 * as an option */
static gboolean
is_package_start (const char *word)
{
  return g_ascii_isalnum (word[0]) || word[0] == '/' || g_str_has_prefix (word, "./") ||
         g_str_has_prefix (word, "../");
}

gboolean
kiste_validate_volume_entry (const char  *host_path,
                             const char  *box_path,
                             const char  *spec,
                             GError     **error)
{
  if (host_path != NULL && host_path[0] != '\0' && box_path != NULL && box_path[0] != '\0' &&
      !kiste_validate_volume_paths (host_path, box_path, NULL, error))
    return FALSE;

  return spec == NULL || kiste_validate_volume (spec, error);
}

gboolean
kiste_validate_packages (const char  *packages,
                         GError     **error)
{
  const char *p;

  if (packages == NULL)
    return TRUE;

  p = packages;
  while (*p != '\0')
    {
      const char *start;

      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        break;

      start = p;
      while (*p != '\0' && !g_ascii_isspace (*p))
        {
          if (!is_package_char (*p))
            {
              g_autofree char *c = dup_char_at (p);

              return kiste_set_invalid_input (error,
                                              _("The additional packages may not contain “%s”. List package "
                                                "names separated by spaces; names may contain letters, digits "
                                                "and “. _ + : = ~ @ -”, and the path or address of a package "
                                                "file also “/” and “%%”."),
                                              c);
            }
          p++;
        }

      {
        g_autofree char *word = g_strndup (start, p - start);

        if (!is_package_start (word))
          return kiste_set_invalid_input (error,
                                          _("The additional package “%s” must start with a letter or digit, "
                                            "or, for a package file in the box, with “/” or “./”."),
                                          word);
      }
    }

  return TRUE;
}

static gboolean
has_line_break (const char *s)
{
  for (; *s != '\0'; s++)
    if (*s == '\n' || *s == '\r' || (g_ascii_iscntrl (*s) && *s != '\t'))
      return TRUE;

  return FALSE;
}

gboolean
kiste_validate_init_hooks (const char  *hooks,
                           GError     **error)
{
  if (hooks == NULL)
    return TRUE;

  if (has_line_break (hooks))
    return kiste_set_invalid_input (error, "%s",
                                    _("The init hooks must be on one line. Join several commands with "
                                      "“&&” or “;”."));

  /* distrobox-create puts them in '…' inside the string it evals */
  if (strchr (hooks, '\'') != NULL)
    return kiste_set_invalid_input (error, "%s",
                                    _("The init hooks may not contain a single quote ('): distrobox wraps "
                                      "them in single quotes, so one inside ends them early and creating "
                                      "the box fails. Use double quotes instead."));

  return TRUE;
}

gboolean
kiste_validate_pre_init_hooks (const char  *hooks,
                               GError     **error)
{
  const char *bad;

  if (hooks == NULL)
    return TRUE;

  if (has_line_break (hooks))
    return kiste_set_invalid_input (error, "%s",
                                    _("The pre-init hooks must be on one line. Join several commands with "
                                      "“&&” or “;”."));

  /* distrobox-create puts them in "…" inside the string it evals on the
   * host, so these would be expanded here rather than in the box */
  if ((bad = strpbrk (hooks, "\"$`\\")) != NULL)
    return kiste_set_invalid_input (error,
                                    _("The pre-init hooks may not contain “%c”: distrobox wraps them in "
                                      "double quotes and evaluates them on this computer while creating the "
                                      "box, so it would break creation or run outside the box. Put such "
                                      "commands in the init hooks instead."),
                                    *bad);

  return TRUE;
}

static gboolean
is_platform_part (const char *s)
{
  if (s[0] == '\0')
    return FALSE;

  for (; *s != '\0'; s++)
    if (!(g_ascii_islower (*s) || g_ascii_isdigit (*s) || *s == '_'))
      return FALSE;

  return TRUE;
}

gboolean
kiste_validate_platform (const char  *platform,
                         GError     **error)
{
  g_auto(GStrv) parts = NULL;
  guint n_parts;

  if (platform == NULL || platform[0] == '\0')
    return kiste_set_invalid_input (error, "%s", _("The platform is empty. Use OS/ARCHITECTURE, like linux/arm64."));

  parts = g_strsplit (platform, "/", -1);
  n_parts = g_strv_length (parts);

  if (n_parts >= 2 && n_parts <= 3 &&
      is_platform_part (parts[0]) && is_platform_part (parts[1]) &&
      (n_parts == 2 || is_platform_part (parts[2])))
    return TRUE;

  return kiste_set_invalid_input (error,
                                  _("The platform “%s” is not valid. Use OS/ARCHITECTURE or "
                                    "OS/ARCHITECTURE/VARIANT in lowercase, like linux/arm64 or linux/arm/v7."),
                                  platform);
}
