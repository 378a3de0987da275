/* kiste-recreate.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What it takes to make a box again: its settings read back from podman's
 * record of how distrobox made it, as create options, and the pull and
 * removal around it. The record is the box's: every value is checked as
 * if people had typed it. */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-error.h"
#include "kiste-recreate.h"
#include "kiste-validate.h"

/* Mounts distrobox makes itself, by where the box sees them */
static const char * const distrobox_destinations[] = {
  "/tmp", "/usr/bin/entrypoint", "/usr/bin/distrobox-export", "/usr/bin/distrobox-host-exec",
  "/dev", "/dev/pts", "/dev/ptmx", "/sys", "/var/log/journal", "/etc/hostname", "/etc/hosts",
  "/etc/resolv.conf", "/etc/localtime", "/etc/timezone", "/run/.distrobox.rootless", NULL,
};

/* More elements than this are no create command distrobox made */
#define CREATE_COMMAND_LIMIT 4096

void
kiste_recreate_settings_free (KisteRecreateSettings *settings)
{
  if (settings == NULL)
    return;
  g_strfreev (settings->volumes);
  g_free (settings->hostname);
  g_free (settings->additional_packages);
  g_free (settings->pre_init_hooks);
  g_free (settings->init_hooks);
  g_free (settings);
}

static gboolean
is_distrobox_volume (const char *spec,
                     const char *box_home,
                     const char *host_home)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", 3);
  const char *source;
  const char *destination;

  /* an empty one (g_strsplit() gives no parts), or an anonymous volume
   * (/dev/pts, /var/log/journal): nothing of the user's to carry over */
  if (parts[0] == NULL || parts[1] == NULL)
    return TRUE;
  source = parts[0];
  destination = parts[1];
  if (g_strv_contains (distrobox_destinations, destination) ||
      g_str_equal (destination, "/run/host") || g_str_has_prefix (destination, "/run/host/") ||
      g_str_has_prefix (destination, "/run/user/"))
    return TRUE;
  /* the box's home and the user's, where distrobox puts them */
  if (g_str_equal (source, destination) &&
      (g_strcmp0 (destination, box_home) == 0 || g_strcmp0 (destination, host_home) == 0))
    return TRUE;
  return FALSE;
}

static void
set_value (char       **field,
           const char  *value)
{
  /* distrobox passes '' for none */
  g_set_str (field, value != NULL && *value != '\0' ? value : NULL);
}

KisteRecreateSettings *
kiste_recreate_read_settings (const char * const  *create_command,
                              const char          *box_name,
                              const char          *box_home,
                              const char          *host_home,
                              const char          *host_name,
                              GError             **error)
{
  g_autoptr(KisteRecreateSettings) settings = g_new0 (KisteRecreateSettings, 1);
  g_autoptr(GStrvBuilder) volumes = g_strv_builder_new ();
  g_autofree char *hostname = NULL;
  guint n, image_at = 0;

  if (create_command == NULL || create_command[0] == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("Kiste cannot read how “%s” was made: its engine keeps no record of it."), box_name);
      return NULL;
    }
  n = g_strv_length ((char **) create_command);
  if (n > CREATE_COMMAND_LIMIT)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
                   _("The record of how “%s” was made is too long to read."), box_name);
      return NULL;
    }

  /* The engine's options up to --entrypoint and the image after it; the
   * entry point's own arguments follow the image */
  for (guint i = 1; i < n; i++)
    {
      const char *arg = create_command[i];
      const char *spec = NULL;

      if ((g_str_equal (arg, "--volume") || g_str_equal (arg, "-v")) && i + 1 < n)
        spec = create_command[++i];
      else if (g_str_has_prefix (arg, "--volume="))
        spec = arg + strlen ("--volume=");
      else if (g_str_equal (arg, "--hostname") && i + 1 < n)
        g_set_str (&hostname, create_command[++i]);
      else if (g_str_has_prefix (arg, "--hostname="))
        g_set_str (&hostname, arg + strlen ("--hostname="));
      else if (g_str_equal (arg, "--entrypoint") && i + 2 < n)
        {
          image_at = i + 2;
          break;
        }

      if (spec != NULL && !is_distrobox_volume (spec, box_home, host_home))
        {
          if (!kiste_validate_volume (spec, error))
            return NULL;
          g_strv_builder_add (volumes, spec);
        }
    }

  if (image_at == 0)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                   _("Kiste cannot read how “%s” was made: it was not made by distrobox."), box_name);
      return NULL;
    }

  for (guint i = image_at + 1; i < n; i++)
    {
      const char *arg = create_command[i];

      if (g_str_equal (arg, "--"))
        {
          if (i + 1 < n)
            set_value (&settings->init_hooks, create_command[i + 1]);
          break;
        }
      if (i + 1 >= n)
        break;
      if (g_str_equal (arg, "--additional-packages"))
        set_value (&settings->additional_packages, create_command[++i]);
      else if (g_str_equal (arg, "--pre-init-hooks"))
        set_value (&settings->pre_init_hooks, create_command[++i]);
    }

  /* distrobox names a box after the host, or NAME.HOST with its own
   * network: that needs no flag */
  if (hostname != NULL && host_name != NULL)
    {
      g_autofree char *own = g_strdup_printf ("%s.%s", box_name, host_name);

      if (g_str_equal (hostname, host_name) || g_str_equal (hostname, own))
        g_clear_pointer (&hostname, g_free);
    }
  if (hostname != NULL && !kiste_validate_hostname (hostname, error))
    return NULL;
  settings->hostname = g_steal_pointer (&hostname);

  if ((settings->additional_packages && !kiste_validate_packages (settings->additional_packages, error)) ||
      (settings->pre_init_hooks && !kiste_validate_pre_init_hooks (settings->pre_init_hooks, error)) ||
      (settings->init_hooks && !kiste_validate_init_hooks (settings->init_hooks, error)))
    return NULL;

  settings->volumes = g_strv_builder_end (volumes);
  return g_steal_pointer (&settings);
}

KisteCreateOptions *
kiste_recreate_options_new (KisteBox    *box,
                            const char  *image,
                            const char  *host_home,
                            GError     **error)
{
  g_autoptr(KisteCreateOptions) options = NULL;
  g_autoptr(KisteRecreateSettings) settings = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (box), NULL);

  if (!kiste_validate_image (image, error))
    return NULL;
  if (!(settings = kiste_recreate_read_settings (kiste_box_get_create_command (box),
                                                 kiste_box_get_name (box),
                                                 kiste_box_get_home (box),
                                                 host_home, g_get_host_name (), error)))
    return NULL;

  options = kiste_create_options_new_from_box (box);
  kiste_create_options_set_name (options, kiste_box_get_name (box));
  kiste_create_options_set_clone_source (options, NULL);
  kiste_create_options_set_image (options, image);
  /* the box's own launcher, if it had one, stays in the menu */
  kiste_create_options_set_add_to_menu (options, FALSE);
  kiste_create_options_set_volumes (options, (const char * const *) settings->volumes);
  kiste_create_options_set_hostname (options, settings->hostname);
  if (settings->additional_packages != NULL)
    kiste_create_options_add_additional_packages (options, settings->additional_packages);
  kiste_create_options_set_pre_init_hooks (options, settings->pre_init_hooks);
  kiste_create_options_set_init_hooks (options, settings->init_hooks);
  return g_steal_pointer (&options);
}

static GStrv argv_new (const char *first,
                       ...) G_GNUC_NULL_TERMINATED;

static GStrv
argv_new (const char *first,
          ...)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  va_start (args, first);
  for (const char *s = first; s != NULL; s = va_arg (args, const char *))
    g_strv_builder_add (builder, s);
  va_end (args);
  return g_strv_builder_end (builder);
}

static gboolean
check_engine (const char  *engine,
              GError     **error)
{
  if (g_strcmp0 (engine, "podman") == 0 || g_strcmp0 (engine, "docker") == 0)
    return TRUE;
  return kiste_set_invalid_input (error, _("Only boxes of podman and docker can be made again."));
}

GStrv
kiste_recreate_pull_argv (const char  *engine,
                          const char  *image,
                          GError     **error)
{
  if (!check_engine (engine, error) || !kiste_validate_image (image, error))
    return NULL;
  return argv_new (engine, "pull", image, NULL);
}

GStrv
kiste_recreate_remove_argv (const char  *engine,
                            const char  *box_name,
                            GError     **error)
{
  if (!check_engine (engine, error) || !kiste_validate_existing_name (box_name, NULL, error))
    return NULL;
  return argv_new (engine, "rm", "--force", box_name, NULL);
}
