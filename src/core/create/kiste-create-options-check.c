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
#include "kiste-create-flags.h"
#include "kiste-create-options-private.h"
#include "kiste-create-plan-private.h"
#include "kiste-error.h"
#include "kiste-runner.h"
#include "kiste-validate.h"

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

/* The field an option's problem is shown at: their nicks are the
 * options' property names */
static KisteCreateField
field_of (const KisteCreateFlag *flag)
{
  g_autoptr(GEnumClass) fields = g_type_class_ref (KISTE_TYPE_CREATE_FIELD);
  GEnumValue *field = g_enum_get_value_by_nick (fields, flag->property);

  return field ? (KisteCreateField) field->value : KISTE_CREATE_FIELD_NONE;
}

static gboolean
check_flag (const KisteCreateFlag  *flag,
            KisteCapabilities      *caps,
            GError                **error)
{
  g_autofree char *reason = kiste_create_flag_dup_problem (flag, caps);

  if (reason == NULL)
    return TRUE;

  g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
               _("The option “%s” cannot be used: %s."), flag->flag, reason);
  return FALSE;
}

/* An option's value, read through its property */
static void
get_option (KisteCreateOptions *self,
            const char         *property,
            GValue             *value)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), property);

  g_return_if_fail (pspec != NULL);

  g_value_init (value, G_PARAM_SPEC_VALUE_TYPE (pspec));
  g_object_get_property (G_OBJECT (self), property, value);
}

/* A text that is set, a list that is not empty, a switch that is on */
static gboolean
option_is_set (KisteCreateOptions *self,
               const char         *property)
{
  g_auto(GValue) value = G_VALUE_INIT;

  get_option (self, property, &value);
  if (G_VALUE_HOLDS_BOOLEAN (&value))
    return g_value_get_boolean (&value);
  if (G_VALUE_HOLDS_STRING (&value))
    return _kiste_create_options_is_set (g_value_get_string (&value));
  if (G_VALUE_HOLDS (&value, G_TYPE_STRV))
    {
      const char * const *strv = g_value_get_boxed (&value);

      return strv != NULL && strv[0] != NULL;
    }

  g_return_val_if_reached (FALSE);
}

/* All words of every element as one space-separated list: distrobox
 * takes the packages as one value */
static char *
join_words (const char * const *elements)
{
  g_autoptr(GString) joined = g_string_new (NULL);

  for (guint i = 0; elements != NULL && elements[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit_set (elements[i], " \t\n\r\f\v", -1);

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

/* The values the flag is given with, one flag each (none: the flag
 * alone); FALSE when the option leaves the flag out */
static gboolean
collect_values (KisteCreateOptions    *self,
                const KisteCreateFlag *flag,
                GPtrArray             *values)
{
  g_auto(GValue) value = G_VALUE_INIT;

  if (flag->unless != NULL && option_is_set (self, flag->unless))
    return FALSE;
  if (flag->kind == KISTE_CREATE_FLAG_ALWAYS)
    return TRUE;
  if (!option_is_set (self, flag->property))
    return FALSE;

  get_option (self, flag->property, &value);
  switch (flag->kind)
    {
    case KISTE_CREATE_FLAG_VALUE:
      g_ptr_array_add (values, g_value_dup_string (&value));
      return TRUE;

    case KISTE_CREATE_FLAG_VALUES:
      for (const char * const *v = g_value_get_boxed (&value); *v != NULL; v++)
        g_ptr_array_add (values, g_strdup (*v));
      return TRUE;

    case KISTE_CREATE_FLAG_WORDS:
      g_ptr_array_add (values, join_words (g_value_get_boxed (&value)));
      return ((const char *) g_ptr_array_index (values, 0))[0] != '\0';

    case KISTE_CREATE_FLAG_SWITCH:
      if (flag->value != NULL)
        g_ptr_array_add (values, g_strdup (flag->value));
      return TRUE;

    case KISTE_CREATE_FLAG_UNSHARE:
      return TRUE;

    case KISTE_CREATE_FLAG_ALWAYS:
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* One option's flags; FALSE with error when the installed distrobox
 * cannot do what it asks */
static gboolean
add_option (GStrvBuilder           *builder,
            KisteCreateOptions     *self,
            KisteCapabilities      *caps,
            const KisteCreateFlag  *flag,
            GError                **error)
{
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);

  if (!collect_values (self, flag, values))
    return TRUE;
  if (!check_flag (flag, caps, error))
    return FALSE;
  /* without the flag, Kiste does it from the dry run's command */
  if (kiste_create_flag_is_done_by_kiste (flag, caps))
    return TRUE;

  if (values->len == 0)
    g_strv_builder_add (builder, flag->flag);
  for (guint i = 0; i < values->len; i++)
    g_strv_builder_add_many (builder, flag->flag, g_ptr_array_index (values, i), NULL);

  return TRUE;
}

/* The command of options whose fields were checked already: every option
 * in the table's order, each flag checked against caps. dry_run: the
 * command that prints the engine's create command instead of running it
 * (kiste-isolated-home.c reads it). */
static char **
build_argv (KisteCreateOptions  *self,
            KisteCapabilities   *caps,
            gboolean             dry_run,
            KisteCreateField    *out_field,
            GError             **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const KisteCreateFlag *flags;
  guint n_flags;

  /* --yes: never stop at a prompt (there is no terminal to answer it) */
  g_strv_builder_add_many (builder, "distrobox", "create", "--yes", NULL);

  flags = kiste_create_flags_get_all (&n_flags);
  for (guint i = 0; i < n_flags; i++)
    {
      if (!add_option (builder, self, caps, &flags[i], error))
        {
          if (out_field != NULL)
            *out_field = field_of (&flags[i]);
          return NULL;
        }
    }

  if (dry_run)
    g_strv_builder_add (builder, "--dry-run");

  return g_strv_builder_end (builder);
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

  return build_argv (self, caps, FALSE, out_field, error);
}

char *
kiste_create_options_dup_command_text (KisteCreateOptions *self,
                                       KisteCapabilities  *caps)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *display = NULL;
  g_auto(GStrv) argv = NULL;
  gboolean isolated;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  /* without the home: the dry run as people would type it, a copy
   * included (Kiste commits the source itself first) */
  isolated = kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_HOME, caps);
  if (!(argv = build_argv (self, caps, isolated, NULL, NULL)))
    return NULL;

  display = kiste_argv_to_display_string ((const char * const *) argv);
  g_string_append (text, display);
  /* a comment, so the text can still be pasted into a shell */
  if (isolated)
    g_string_append_printf (text, "\n# %s",
                            _("then the create command it prints runs without the mounts of "
                              "your home folder, with empty folders over /run/host/home"));

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
    argv = build_argv (self, caps, FALSE, &first_field, &first);

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

/* Plans ------------------------------------------------------------------ */

/* The image distrobox's own clone commits the source box as, NAME:DATE:
 * a copy made by Kiste leaves the same image behind */
static char *
dup_clone_image (const char *clone_source)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%F");
  g_autofree char *lower = g_ascii_strdown (clone_source, -1);

  return g_strdup_printf ("%s:%s", lower, date);
}

/* The first option set that Toolbx has no way to make, for people */
static const char *
toolbox_lacks (KisteCreateOptions *self)
{
  if (_kiste_create_options_is_set (self->clone_source))
    return _("a copy of another box");
  if (self->separate_home || _kiste_create_options_is_set (self->home))
    return _("a home folder of its own");
  if (self->unshare_all)
    return _("isolation");
  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    if (self->unshare[i])
      return _("isolation");
  if (_kiste_create_options_is_set (self->hostname))
    return _("a host name");
  if (_kiste_create_options_is_set (self->platform))
    return _("another platform");
  if (self->init)
    return _("an init system");
  if (self->nvidia)
    return _("NVIDIA drivers");
  if (self->volumes != NULL && self->volumes[0] != NULL)
    return _("extra folders");
  if (self->additional_packages != NULL && self->additional_packages[0] != NULL)
    return _("extra packages");
  if (_kiste_create_options_is_set (self->init_hooks) || _kiste_create_options_is_set (self->pre_init_hooks))
    return _("commands at start");
  if (self->add_to_menu)
    return _("a launcher in the app menu");
  if (self->temporary)
    return _("a temporary box");
  return NULL;
}

/* `toolbox create --assumeyes --image IMAGE NAME`: --assumeyes answers
 * Toolbx's question before it downloads the image */
static KisteCreatePlan *
toolbox_plan (KisteCreateOptions  *self,
              GError             **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *lacking;

  if ((lacking = toolbox_lacks (self)) != NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                   /* Translators: %s is what was asked for, e.g. “an init system” */
                   _("Toolbx cannot make a box with %s: choose Distrobox for it, or leave it out."),
                   lacking);
      return NULL;
    }
  if (!_kiste_create_options_is_set (self->image))
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("Choose an image for the box."));
      return NULL;
    }

  g_strv_builder_add_many (builder, "toolbox", "create", "--assumeyes", "--image", self->image,
                           self->name, NULL);
  return _kiste_create_plan_new (KISTE_CREATE_PLAN_TOOLBOX, NULL, g_strv_builder_end (builder));
}

KisteCreatePlan *
kiste_create_options_plan (KisteCreateOptions  *self,
                           const char * const  *existing_names,
                           KisteCapabilities   *caps,
                           const char          *engine,
                           GError             **error)
{
  g_autoptr(KisteCreateOptions) from_image = NULL;
  g_autoptr(GStrvBuilder) prepare = g_strv_builder_new ();
  g_auto(GStrv) prepare_argv = NULL;
  char **argv;

  g_return_val_if_fail (KISTE_IS_CREATE_OPTIONS (self), NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);
  g_return_val_if_fail (engine != NULL, NULL);

  /* before anything runs */
  if (!kiste_create_options_validate (self, existing_names, error))
    return NULL;

  if (self->tool == KISTE_BOX_TOOL_TOOLBX)
    return toolbox_plan (self, error);

  if (!kiste_create_options_get_effective_unshare (self, KISTE_UNSHARE_HOME, caps))
    {
      if (!(argv = build_argv (self, caps, FALSE, NULL, error)))
        return NULL;
      return _kiste_create_plan_new (_kiste_create_options_is_set (self->clone_source)
                                     ? KISTE_CREATE_PLAN_CLONE : KISTE_CREATE_PLAN_PLAIN,
                                     NULL, argv);
    }

  /* The dry run neither clones nor pulls: the engine does that first, and
   * the dry run of a copy is that of a box of the committed image */
  if (_kiste_create_options_is_set (self->clone_source))
    {
      g_autofree char *image = dup_clone_image (self->clone_source);

      from_image = kiste_create_options_copy (self);
      kiste_create_options_set_clone_source (from_image, NULL);
      kiste_create_options_set_image (from_image, image);
      g_strv_builder_add_many (prepare, engine, "container", "commit", self->clone_source, image, NULL);
    }
  else if (self->pull)
    g_strv_builder_add_many (prepare, engine, "pull", self->image, NULL);

  if (!(argv = build_argv (from_image ? from_image : self, caps, TRUE, NULL, error)))
    return NULL;

  /* no first step: no argv for it */
  prepare_argv = g_strv_builder_end (prepare);
  if (prepare_argv[0] == NULL)
    g_clear_pointer (&prepare_argv, g_strfreev);
  return _kiste_create_plan_new (KISTE_CREATE_PLAN_ISOLATED, g_steal_pointer (&prepare_argv), argv);
}
