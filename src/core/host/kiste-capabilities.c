/* kiste-capabilities.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the installed distrobox and container managers support:
 * KisteCapabilities, its results and why a create flag is missing. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-capabilities-state-private.h"
#include "kiste-error.h"

G_DEFINE_FINAL_TYPE (KisteCapabilities, kiste_capabilities, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNER,
  PROP_LOADED,
  PROP_DISTROBOX_VERSION,
  PROP_MANAGER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Object ----------------------------------------------------------------- */

static void
kiste_capabilities_finalize (GObject *object)
{
  KisteCapabilities *self = (KisteCapabilities *)object;

  g_clear_object (&self->runner);
  g_clear_pointer (&self->last_path_dir, g_free);
  g_clear_pointer (&self->config_files, g_strfreev);
  g_clear_pointer (&self->distrobox_version, g_free);
  g_clear_pointer (&self->podman_version, g_free);
  g_clear_pointer (&self->docker_version, g_free);
  g_clear_pointer (&self->toolbox_version, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->manager_source, g_free);
  g_clear_pointer (&self->distrobox_problem, g_free);
  g_clear_pointer (&self->manager_problem, g_free);
  g_clear_pointer (&self->create_flags, g_strfreev);

  G_OBJECT_CLASS (kiste_capabilities_parent_class)->finalize (object);
}

static void
kiste_capabilities_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  KisteCapabilities *self = KISTE_CAPABILITIES (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;

    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    case PROP_DISTROBOX_VERSION:
      g_value_set_string (value, self->distrobox_version);
      break;

    case PROP_MANAGER:
      g_value_set_string (value, self->manager);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_capabilities_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  KisteCapabilities *self = KISTE_CAPABILITIES (object);

  switch (prop_id)
    {
    case PROP_RUNNER:
      self->runner = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_capabilities_class_init (KisteCapabilitiesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_capabilities_finalize;
  object_class->get_property = kiste_capabilities_get_property;
  object_class->set_property = kiste_capabilities_set_property;

  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL,
                         KISTE_TYPE_RUNNER,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL,
                          FALSE,
                          (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_DISTROBOX_VERSION] =
    g_param_spec_string ("distrobox-version", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MANAGER] =
    g_param_spec_string ("manager", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kiste_capabilities_init (KisteCapabilities *self)
{
  self->create_flags = g_new0 (char *, 1);
}

KisteCapabilities *
kiste_capabilities_new (KisteRunner *runner)
{
  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);

  return g_object_new (KISTE_TYPE_CAPABILITIES,
                       "runner", runner,
                       NULL);
}

void
_kiste_capabilities_notify_all (KisteCapabilities *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISTROBOX_VERSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MANAGER]);
}

void
_kiste_capabilities_clear_results (KisteCapabilities *self)
{
  g_clear_pointer (&self->distrobox_version, g_free);
  g_clear_pointer (&self->podman_version, g_free);
  g_clear_pointer (&self->docker_version, g_free);
  g_clear_pointer (&self->toolbox_version, g_free);
  g_clear_pointer (&self->manager, g_free);
  g_clear_pointer (&self->manager_source, g_free);
  g_clear_pointer (&self->distrobox_problem, g_free);
  g_clear_pointer (&self->manager_problem, g_free);
  g_clear_pointer (&self->create_flags, g_strfreev);
  self->create_flags = g_new0 (char *, 1);
  self->distrobox_major = 0;
  self->problem_code = KISTE_ERROR_TOOL_MISSING;
  self->has_distrobox = FALSE;
  self->has_podman = FALSE;
  self->has_docker = FALSE;
  self->has_toolbox = FALSE;
}

/* Getters ---------------------------------------------------------------- */

gboolean
kiste_capabilities_get_loaded (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->loaded;
}

gboolean
kiste_capabilities_has_distrobox (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->has_distrobox;
}

const char *
kiste_capabilities_get_distrobox_version (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->distrobox_version;
}

guint
kiste_capabilities_get_distrobox_major (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), 0);

  return self->distrobox_major;
}

const char *
kiste_capabilities_get_manager (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager;
}

const char *
kiste_capabilities_get_manager_source (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager_source;
}

const char *
kiste_capabilities_get_manager_version (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  if (g_strcmp0 (self->manager, "podman") == 0)
    return self->podman_version;
  if (g_strcmp0 (self->manager, "docker") == 0)
    return self->docker_version;

  return NULL;
}

gboolean
kiste_capabilities_has_manager (KisteCapabilities *self,
                                const char        *name)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (g_str_equal (name, "podman"))
    return self->has_podman;
  if (g_str_equal (name, "docker"))
    return self->has_docker;

  return FALSE;
}

gboolean
kiste_capabilities_has_toolbox (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->has_toolbox;
}

const char *
kiste_capabilities_get_toolbox_version (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->toolbox_version;
}

const char *
kiste_capabilities_get_distrobox_problem (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->distrobox_problem;
}

const char *
kiste_capabilities_get_manager_problem (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return self->manager_problem;
}

const char * const *
kiste_capabilities_get_create_flags (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  return (const char * const *)self->create_flags;
}

gboolean
kiste_capabilities_supports_create_flag (KisteCapabilities *self,
                                         const char        *flag)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);
  g_return_val_if_fail (flag != NULL, FALSE);

  return self->loaded &&
         self->has_distrobox &&
         g_strv_contains ((const char * const *)self->create_flags, flag);
}

gboolean
kiste_capabilities_can_read_dry_run (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  /* The dry run's shape is known for distrobox 1.8 and later 1.x only */
  return self->distrobox_major == 1 &&
         kiste_capabilities_compare_versions (self->distrobox_version, "1.8.0") >= 0 &&
         kiste_capabilities_supports_create_flag (self, "--dry-run") &&
         (g_strcmp0 (self->manager, "podman") == 0 || g_strcmp0 (self->manager, "docker") == 0);
}

char *
kiste_capabilities_dup_dry_run_problem (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);

  /* distrobox 2 has no dry run of that shape: its version says enough */
  if (kiste_capabilities_can_read_dry_run (self) || self->distrobox_major != 1)
    return NULL;

  if (kiste_capabilities_compare_versions (self->distrobox_version, "1.8.0") < 0)
    return g_strdup (_("Needs distrobox 1.8.0 or newer"));
  if (g_strcmp0 (self->manager, "podman") != 0 && g_strcmp0 (self->manager, "docker") != 0)
    return g_strdup (_("Needs Podman or Docker"));

  return NULL;
}

char *
kiste_capabilities_dup_unsupported_reason (KisteCapabilities *self,
                                           const char        *flag,
                                           const char        *since)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), NULL);
  g_return_val_if_fail (flag != NULL, NULL);

  if (kiste_capabilities_supports_create_flag (self, flag))
    return NULL;

  if (!self->loaded)
    return g_strdup (_("Checking the installed distrobox…"));

  if (!self->has_distrobox)
    return g_strdup (_("distrobox is not installed"));

  if (self->distrobox_version == NULL)
    return g_strdup (_("Not available in the installed distrobox"));

  if (since != NULL && kiste_capabilities_compare_versions (self->distrobox_version, since) < 0)
    return g_strdup_printf (_("Needs distrobox %s or newer"), since);

  return g_strdup_printf (_("Not available in distrobox %s"), self->distrobox_version);
}

/* Whether the distrobox in use is the one in the last PATH folder (Kiste's
 * own copy in the Flatpak), as the last refresh found */
gboolean
kiste_capabilities_get_distrobox_is_own (KisteCapabilities *self)
{
  g_return_val_if_fail (KISTE_IS_CAPABILITIES (self), FALSE);

  return self->distrobox_is_own && self->has_distrobox;
}

/* A folder searched after the host's PATH for host commands (in the
 * Flatpak: Kiste's own copy of distrobox); used from the next refresh */
void
kiste_capabilities_set_last_path_dir (KisteCapabilities *self,
                                      const char        *dir)
{
  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  g_set_str (&self->last_path_dir, dir);
}

void
_kiste_capabilities_set_config_files (KisteCapabilities  *self,
                                      const char * const *paths)
{
  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  g_clear_pointer (&self->config_files, g_strfreev);
  self->config_files = g_strdupv ((char **)paths);
}

void
_kiste_capabilities_set_for_testing (KisteCapabilities  *self,
                                     const char         *distrobox_version,
                                     const char         *manager,
                                     const char * const *create_flags)
{
  g_autoptr(GPtrArray) flags = g_ptr_array_new_with_free_func (g_free);

  g_return_if_fail (KISTE_IS_CAPABILITIES (self));

  _kiste_capabilities_clear_results (self);
  self->loaded = TRUE;
  self->applied_serial = self->started_serial;

  if (distrobox_version != NULL)
    {
      self->has_distrobox = TRUE;
      self->distrobox_version = g_strdup (distrobox_version);
      self->distrobox_major = kiste_capabilities_parse_major (distrobox_version);
    }
  else
    self->distrobox_problem = g_strdup (_("distrobox is not installed."));

  if (manager != NULL)
    {
      self->manager = g_strdup (manager);
      self->has_podman = g_str_equal (manager, "podman");
      self->has_docker = g_str_equal (manager, "docker");
    }
  else
    self->manager_problem = g_strdup (_("No container manager was found."));

  for (guint i = 0; create_flags != NULL && create_flags[i] != NULL; i++)
    g_ptr_array_add (flags, g_strdup (create_flags[i]));
  g_ptr_array_sort (flags, _kiste_capabilities_compare_strings);
  g_ptr_array_add (flags, NULL);

  g_strfreev (self->create_flags);
  self->create_flags = (char **)g_ptr_array_steal (flags, NULL);

  _kiste_capabilities_notify_all (self);
}
