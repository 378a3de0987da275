/* kiste-create-options-check.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create options checked: every field's validation, the flags the
 * installed distrobox lacks, and the `distrobox create` argv. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-commands.h"
#include "kiste-create-options-private.h"
#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-validate.h"

/* Create flags for KisteUnshare values, in the order they are emitted */
static const struct
{
  KisteUnshare      what;
  const char       *flag;
  KisteCreateField  field;
} unshare_flags[] = {
  { KISTE_UNSHARE_DEVSYS, "--unshare-devsys", KISTE_CREATE_FIELD_UNSHARE_DEVSYS },
  { KISTE_UNSHARE_GROUPS, "--unshare-groups", KISTE_CREATE_FIELD_UNSHARE_GROUPS },
  { KISTE_UNSHARE_IPC, "--unshare-ipc", KISTE_CREATE_FIELD_UNSHARE_IPC },
  { KISTE_UNSHARE_NETNS, "--unshare-netns", KISTE_CREATE_FIELD_UNSHARE_NETNS },
  { KISTE_UNSHARE_PROCESS, "--unshare-process", KISTE_CREATE_FIELD_UNSHARE_PROCESS },
};

/* The order validate_full() checks fields in */
static const KisteCreateField checked_fields[] = {
  KISTE_CREATE_FIELD_NAME,
  KISTE_CREATE_FIELD_IMAGE,
  KISTE_CREATE_FIELD_CLONE_SOURCE,
  KISTE_CREATE_FIELD_HOSTNAME,
  KISTE_CREATE_FIELD_HOME,
  KISTE_CREATE_FIELD_VOLUMES,
  KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES,
  KISTE_CREATE_FIELD_INIT_HOOKS,
  KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
  KISTE_CREATE_FIELD_PLATFORM,
};

/* Validation ------------------------------------------------------------- */

static gboolean
validate_volumes (KisteCreateOptions  *self,
                  GError             **error)
{
  g_autoptr(GHashTable) destinations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; self->volumes[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autofree char *destination = NULL;

      if (!kiste_validate_volume (self->volumes[i], error))
        return FALSE;

      /* podman refuses two mounts on one path, late and cryptically */
      parts = g_strsplit (self->volumes[i], ":", 3);
      destination = g_strdup (parts[1]);
      while (strlen (destination) > 1 && g_str_has_suffix (destination, "/"))
        destination[strlen (destination) - 1] = '\0';

      if (!g_hash_table_add (destinations, g_steal_pointer (&destination)))
        {
          g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                       _("Two volumes use the same path in the box, “%s”. Each volume needs "
                         "its own path in the box."),
                       parts[1]);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
validate_field (KisteCreateOptions  *self,
                KisteCreateField     field,
                const char * const  *existing_names,
                GError             **error)
{
  switch (field)
    {
    case KISTE_CREATE_FIELD_NAME:
      return kiste_validate_name (self->name, existing_names, error);

    case KISTE_CREATE_FIELD_IMAGE:
      return _kiste_create_options_is_set (self->clone_source) || kiste_validate_image (self->image, error);

    case KISTE_CREATE_FIELD_CLONE_SOURCE:
      return !_kiste_create_options_is_set (self->clone_source) ||
             kiste_validate_existing_name (self->clone_source, existing_names, error);

    case KISTE_CREATE_FIELD_HOSTNAME:
      if (_kiste_create_options_is_set (self->hostname))
        return kiste_validate_hostname (self->hostname, error);
      /* without a hostname distrobox makes one from the name (checked
       * above, so only when it is valid) */
      if (kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_NETNS, NULL) &&
          kiste_validate_name (self->name, NULL, NULL))
        return kiste_validate_default_hostname (self->name, NULL, error);
      return TRUE;

    case KISTE_CREATE_FIELD_HOME:
      /* an empty folder would quietly mean "no separate home" */
      if (self->separate_home && !_kiste_create_options_is_set (self->home))
        {
          g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                               _("Choose a folder for the box’s home, or turn off “Separate Home Folder”."));
          return FALSE;
        }
      return !_kiste_create_options_is_set (self->home) || kiste_validate_home (self->home, error);

    case KISTE_CREATE_FIELD_VOLUMES:
      return validate_volumes (self, error);

    case KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES:
      for (guint i = 0; self->additional_packages[i] != NULL; i++)
        if (!kiste_validate_packages (self->additional_packages[i], error))
          return FALSE;
      return TRUE;

    case KISTE_CREATE_FIELD_INIT_HOOKS:
      return kiste_validate_init_hooks (self->init_hooks, error);

    case KISTE_CREATE_FIELD_PRE_INIT_HOOKS:
      return kiste_validate_pre_init_hooks (self->pre_init_hooks, error);

    case KISTE_CREATE_FIELD_PLATFORM:
      return !_kiste_create_options_is_set (self->platform) ||
             kiste_validate_platform (self->platform, error);

    case KISTE_CREATE_FIELD_NONE:
    case KISTE_CREATE_FIELD_UNSHARE_DEVSYS:
    case KISTE_CREATE_FIELD_UNSHARE_GROUPS:
    case KISTE_CREATE_FIELD_UNSHARE_IPC:
    case KISTE_CREATE_FIELD_UNSHARE_NETNS:
    case KISTE_CREATE_FIELD_UNSHARE_PROCESS:
    case KISTE_CREATE_FIELD_UNSHARE_HOME:
    case KISTE_CREATE_FIELD_UNSHARE_ALL:
    case KISTE_CREATE_FIELD_INIT:
    case KISTE_CREATE_FIELD_NVIDIA:
    case KISTE_CREATE_FIELD_PULL:
    case KISTE_CREATE_FIELD_ADD_TO_MENU:
    default:
      return TRUE;
    }
}

gboolean
kiste_create_options_validate_field (KisteCreateOptions  *self,
                                     KisteCreateField     field,
                                     const char * const  *existing_names,
                                     GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  return validate_field (self, field, existing_names, error);
}

gboolean
kiste_create_options_validate_full (KisteCreateOptions  *self,
                                    const char * const  *existing_names,
                                    KisteCreateField    *out_field,
                                    GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (checked_fields); i++)
    {
      if (!validate_field (self, checked_fields[i], existing_names, error))
        {
          if (out_field != NULL)
            *out_field = checked_fields[i];
          return FALSE;
        }
    }

  if (out_field != NULL)
    *out_field = KISTE_CREATE_FIELD_NONE;

  return TRUE;
}

gboolean
kiste_create_options_validate (KisteCreateOptions  *self,
                               const char * const  *existing_names,
                               GError             **error)
{
  return kiste_create_options_validate_full (self, existing_names, NULL, error);
}

/* argv ------------------------------------------------------------------- */

char *
kiste_create_options_dup_flag_problem (KisteCapabilities *caps,
                                       const char        *flag)
{
  char *reason = NULL;

  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);
  g_return_val_if_fail (flag != NULL, NULL);

  if (caps != NULL && kiste_capabilities_get_loaded (caps))
    {
      if (kiste_capabilities_supports_create_flag (caps, flag) ||
          (g_str_equal (flag, "--unshare-home") && kiste_capabilities_can_isolate_home (caps)))
        return NULL;
      reason = kiste_capabilities_dup_unsupported_reason (caps, flag);
    }
  else if (!g_str_equal (flag, "--unshare-home"))
    return NULL;

  return reason ? reason : g_strdup (_("Not available in the installed distrobox"));
}

static gboolean
check_flag (KisteCapabilities  *caps,
            const char         *flag,
            GError            **error)
{
  g_autofree char *reason = kiste_create_options_dup_flag_problem (caps, flag);

  if (reason == NULL)
    return TRUE;

  g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
               _("The option “%s” cannot be used: %s."), flag, reason);
  return FALSE;
}

static gboolean
add_flag (GStrvBuilder       *builder,
          KisteCapabilities  *caps,
          const char         *flag,
          const char         *value,
          KisteCreateField    field,
          KisteCreateField   *out_field,
          GError            **error)
{
  if (!check_flag (caps, flag, error))
    {
      *out_field = field;
      return FALSE;
    }

  g_strv_builder_add (builder, flag);
  if (value != NULL)
    g_strv_builder_add (builder, value);

  return TRUE;
}

/* All package names as one space-separated word list */
static char *
join_packages (KisteCreateOptions *self)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; self->additional_packages[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit_set (self->additional_packages[i], " \t\n\r\f\v", -1);

      for (guint j = 0; words[j] != NULL; j++)
        {
          if (words[j][0] == '\0')
            continue;
          if (joined->len > 0)
            g_string_append_c (joined, ' ');
          g_string_append (joined, words[j]);
        }
    }

  return g_string_free_and_steal (g_steal_pointer (&joined));
}

/* The argv of options whose fields were checked already */
static char **
build_argv (KisteCreateOptions  *self,
            KisteCapabilities   *caps,
            KisteCreateField    *out_field,
            GError             **error)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *packages = NULL;
  KisteCreateField field = KISTE_CREATE_FIELD_NONE;

  builder = g_strv_builder_new ();

  /* --yes: never stop at a prompt (there is no terminal to answer it) */
  g_strv_builder_add_many (builder, "distrobox", "create", "--yes", "--name", self->name, NULL);

  if (_kiste_create_options_is_set (self->clone_source))
    {
      if (!add_flag (builder, caps, "--clone", self->clone_source,
                     KISTE_CREATE_FIELD_CLONE_SOURCE, &field, error))
        goto failed;
    }
  else
    g_strv_builder_add_many (builder, "--image", self->image, NULL);

  if ((_kiste_create_options_is_set (self->hostname) &&
       !add_flag (builder, caps, "--hostname", self->hostname,
                  KISTE_CREATE_FIELD_HOSTNAME, &field, error)) ||
      (_kiste_create_options_is_set (self->home) &&
       !add_flag (builder, caps, "--home", self->home,
                  KISTE_CREATE_FIELD_HOME, &field, error)) ||
      (_kiste_create_options_is_set (self->platform) &&
       !add_flag (builder, caps, "--platform", self->platform,
                  KISTE_CREATE_FIELD_PLATFORM, &field, error)) ||
      (self->init &&
       !add_flag (builder, caps, "--init", NULL, KISTE_CREATE_FIELD_INIT, &field, error)) ||
      (self->nvidia &&
       !add_flag (builder, caps, "--nvidia", NULL, KISTE_CREATE_FIELD_NVIDIA, &field, error)) ||
      (self->pull &&
       !add_flag (builder, caps, "--pull", NULL, KISTE_CREATE_FIELD_PULL, &field, error)))
    goto failed;

  if (self->unshare_all)
    {
      if (!add_flag (builder, caps, "--unshare-all", NULL,
                     KISTE_CREATE_FIELD_UNSHARE_ALL, &field, error))
        goto failed;
    }
  else
    {
      for (guint i = 0; i < G_N_ELEMENTS (unshare_flags); i++)
        {
          if (self->unshare[unshare_flags[i].what] &&
              !add_flag (builder, caps, unshare_flags[i].flag, NULL,
                         unshare_flags[i].field, &field, error))
            goto failed;
        }
    }

  /* Explicit even with --unshare-all, which covers it only in patched
   * builds. Without the flag the home's mounts are taken out of the dry
   * run's command instead (kiste_create_options_get_isolates_home()). */
  if (self->unshare[KISTE_UNSHARE_HOME])
    {
      if (caps == NULL || !kiste_capabilities_get_loaded (caps) ||
          kiste_capabilities_supports_create_flag (caps, "--unshare-home"))
        {
          if (!add_flag (builder, caps, "--unshare-home", NULL,
                         KISTE_CREATE_FIELD_UNSHARE_HOME, &field, error))
            goto failed;
        }
      else if (!check_flag (caps, "--unshare-home", error))
        {
          field = KISTE_CREATE_FIELD_UNSHARE_HOME;
          goto failed;
        }
    }

  for (guint i = 0; self->volumes[i] != NULL; i++)
    {
      if (!add_flag (builder, caps, "--volume", self->volumes[i],
                     KISTE_CREATE_FIELD_VOLUMES, &field, error))
        goto failed;
    }

  packages = join_packages (self);
  if ((packages[0] != '\0' &&
       !add_flag (builder, caps, "--additional-packages", packages,
                  KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES, &field, error)) ||
      (_kiste_create_options_is_set (self->init_hooks) &&
       !add_flag (builder, caps, "--init-hooks", self->init_hooks,
                  KISTE_CREATE_FIELD_INIT_HOOKS, &field, error)) ||
      (_kiste_create_options_is_set (self->pre_init_hooks) &&
       !add_flag (builder, caps, "--pre-init-hooks", self->pre_init_hooks,
                  KISTE_CREATE_FIELD_PRE_INIT_HOOKS, &field, error)) ||
      /* the launcher, when asked for, is added after (kiste-manager-create.c) */
      !add_flag (builder, caps, "--no-entry", NULL, KISTE_CREATE_FIELD_ADD_TO_MENU, &field, error))
    goto failed;

  /* A constant label, never people's text: distrobox puts this value into
   * a shell command line (distrobox.md) */
  if (self->temporary &&
      !add_flag (builder, caps, "--additional-flags", "--label " KISTE_BOX_TEMPORARY_LABEL "=1",
                 KISTE_CREATE_FIELD_NONE, &field, error))
    goto failed;

  return g_strv_builder_end (builder);

failed:
  if (out_field != NULL)
    *out_field = field;

  return NULL;
}

char **
kiste_create_options_to_argv_full (KisteCreateOptions  *self,
                                   KisteCapabilities   *caps,
                                   KisteCreateField    *out_field,
                                   GError             **error)
{
  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  if (out_field != NULL)
    *out_field = KISTE_CREATE_FIELD_NONE;

  if (!kiste_create_options_validate_full (self, NULL, out_field, error))
    return NULL;

  return build_argv (self, caps, out_field, error);
}

char *
kiste_create_options_dup_command_text (KisteCreateOptions  *self,
                                       KisteCapabilities   *caps,
                                       const char * const  *argv)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *display = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (argv != NULL, NULL);

  if (!kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_HOME, caps))
    {
      display = kiste_argv_to_display_string (argv);
      g_string_append (text, display);
    }
  else
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) dry_run = NULL;

      g_strv_builder_addv (builder, (const char **) argv);
      g_strv_builder_add (builder, "--dry-run");
      dry_run = g_strv_builder_end (builder);
      display = kiste_argv_to_display_string ((const char * const *) dry_run);

      /* a comment, so the text can still be pasted into a shell */
      g_string_append_printf (text, "%s\n# %s", display,
                              _("then the create command it prints runs without the mounts of "
                                "your home folder, with empty folders over /run/host/home"));
    }

  /* the box's launcher comes after, with an icon of its own */
  if (self->add_to_menu && _kiste_create_options_is_set (self->name))
    {
      g_auto(GStrv) entry = kiste_commands_generate_entry_argv (self->name, FALSE);
      g_autofree char *entry_display = kiste_argv_to_display_string ((const char * const *) entry);

      g_string_append_printf (text, "\n%s", entry_display);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

char **
kiste_create_options_check (KisteCreateOptions  *self,
                            const char * const  *existing_names,
                            KisteCapabilities   *caps,
                            GPtrArray          **problems,
                            KisteCreateField    *out_field,
                            GError             **error)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) first = NULL;
  KisteCreateField first_field = KISTE_CREATE_FIELD_NONE;
  char **argv = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  messages = g_ptr_array_new_full (KISTE_CREATE_FIELD_PLATFORM + 1, g_free);
  g_ptr_array_set_size (messages, KISTE_CREATE_FIELD_PLATFORM + 1);

  for (guint i = 0; i < G_N_ELEMENTS (checked_fields); i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (validate_field (self, checked_fields[i], existing_names, &local_error))
        continue;
      g_ptr_array_index (messages, checked_fields[i]) = g_strdup (local_error->message);
      if (first == NULL)
        {
          first = g_steal_pointer (&local_error);
          first_field = checked_fields[i];
        }
    }

  if (first == NULL)
    argv = build_argv (self, caps, &first_field, &first);

  if (out_field != NULL)
    *out_field = first_field;
  if (first != NULL)
    g_propagate_error (error, g_steal_pointer (&first));
  if (problems != NULL)
    *problems = g_steal_pointer (&messages);

  return argv;
}

char **
kiste_create_options_to_argv (KisteCreateOptions  *self,
                              KisteCapabilities   *caps,
                              GError             **error)
{
  return kiste_create_options_to_argv_full (self, caps, NULL, error);
}
