/* kiste-box-volumes.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What a box's create command (podman's inspect) says about the folders
 * it sees: the host's homes, and the user's own volumes. */

#include "config.h"

#include <string.h>

#include "kiste-box-state-private.h"

/* From podman's create argv (inspect only): whether the host's homes stay
 * reachable at /run/host/home. A box that only carries the unshare_home
 * label, as the unmerged distrobox patch makes them, still binds them there;
 * Kiste's isolated boxes put an empty tmpfs in that place. */
KisteSharing
_kiste_box_run_host_home_sharing (const char * const *create_command)
{
  gboolean bound = FALSE;

  if (create_command == NULL)
    return KISTE_SHARING_UNKNOWN;

  for (guint i = 0; create_command[i] != NULL; i++)
    {
      const char *arg = create_command[i];
      const char *spec = NULL;

      if ((g_str_equal (arg, "--volume") || g_str_equal (arg, "-v")) && create_command[i + 1] != NULL)
        spec = create_command[++i];
      else if (g_str_has_prefix (arg, "--volume="))
        spec = arg + strlen ("--volume=");

      if (spec != NULL &&
          (g_str_equal (spec, "/home:/run/host/home") || g_str_has_prefix (spec, "/home:/run/host/home:")))
        bound = TRUE;
    }

  return bound ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED;
}

/* The sources of the --volume options of podman's create argv, except
 * distrobox's own mirrors of the host under /run/host */
static GPtrArray *
volume_sources (const char * const *create_command)
{
  GPtrArray *sources = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; create_command != NULL && create_command[i] != NULL; i++)
    {
      const char *arg = create_command[i];
      const char *spec = NULL;
      g_auto(GStrv) parts = NULL;

      if ((g_str_equal (arg, "--volume") || g_str_equal (arg, "-v")) && create_command[i + 1] != NULL)
        spec = create_command[++i];
      else if (g_str_has_prefix (arg, "--volume="))
        spec = arg + strlen ("--volume=");
      if (spec == NULL)
        continue;

      parts = g_strsplit (spec, ":", 3);
      if (parts[0] == NULL || parts[1] == NULL || parts[0][0] != '/')
        continue;
      {
        g_autofree char *mirror = g_build_filename ("/run/host", parts[0], NULL);

        if (g_str_equal (parts[1], mirror))
          continue;
      }
      g_ptr_array_add (sources, g_strdup (parts[0]));
    }

  return sources;
}

/* a is b or a folder above it */
static gboolean
path_contains (const char *a,
               const char *b)
{
  gsize len = strlen (a);

  if (g_str_equal (a, "/"))
    return TRUE;
  return strncmp (a, b, len) == 0 && (b[len] == '\0' || b[len] == '/');
}

/* Whether a volume of the user's shows the whole home */
gboolean
_kiste_box_volumes_show_home (const char * const *create_command,
                              const char         *host_home)
{
  g_autoptr(GPtrArray) sources = NULL;

  if (host_home == NULL)
    return FALSE;

  sources = volume_sources (create_command);
  for (guint i = 0; i < sources->len; i++)
    if (path_contains (g_ptr_array_index (sources, i), host_home))
      return TRUE;
  return FALSE;
}

/**
 * kiste_box_dup_home_volumes:
 * @self: a box
 *
 * Folders inside the user's home that the box's own volumes put in it (so
 * a box without the home still sees these), from its create command.
 *
 * Returns: (transfer full): the host paths, maybe empty; NULL when not known
 */
char **
kiste_box_dup_home_volumes (KisteBox *self)
{
  g_autoptr(GPtrArray) sources = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (self), NULL);

  if (self->create_command == NULL || self->host_home == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  sources = volume_sources ((const char * const *) self->create_command);
  for (guint i = 0; i < sources->len; i++)
    {
      const char *source = g_ptr_array_index (sources, i);

      if (!g_str_equal (source, self->host_home) && path_contains (self->host_home, source))
        g_strv_builder_add (builder, source);
    }
  return g_strv_builder_end (builder);
}
