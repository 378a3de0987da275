/* kiste-create-dialog-form.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create dialog's form: its rows bound to the options, name and home
 * suggestions, the options' messages shown at the fields, and rows gated
 * by what distrobox supports. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-create-dialog-private.h"
#include "kiste-create-flags.h"
#include "kiste-distro.h"
#include "kiste-runner.h"
#include "kiste-validate.h"

/* How a row shows its option */
typedef enum
{
  ROW_TEXT,       /* an entry row's text */
  ROW_PACKAGES,   /* an entry row's text: the words of the list */
  ROW_SWITCH,     /* a switch row */
  ROW_UNSHARE,    /* a switch row that shows what other options imply too */
  ROW_FOLDERS,    /* rows of their own (kiste-create-dialog-folders.c) */
} RowKind;

/* The form's rows by the option they show, in the order they are bound.
 * follows: the option of the table of create flags (kiste-create-flags.h)
 * whose availability the row follows, NULL for none; subtitle: what a
 * switch does while it can be used (some say more, see
 * dup_switch_subtitle()). */
static const struct
{
  const char *property;
  gsize       offset;
  RowKind     kind;
  const char *follows;
  const char *subtitle;
} form_rows[] = {
  { "name", G_STRUCT_OFFSET (KisteCreateDialog, name_row), ROW_TEXT },
  { "image", G_STRUCT_OFFSET (KisteCreateDialog, image_row), ROW_TEXT },
  /* shown while its switch is on, which follows the folder's flag */
  { "home", G_STRUCT_OFFSET (KisteCreateDialog, home_row), ROW_TEXT },
  { "hostname", G_STRUCT_OFFSET (KisteCreateDialog, hostname_row), ROW_TEXT, "hostname" },
  { "platform", G_STRUCT_OFFSET (KisteCreateDialog, platform_row), ROW_TEXT, "platform" },
  { "init-hooks", G_STRUCT_OFFSET (KisteCreateDialog, init_hooks_row), ROW_TEXT, "init-hooks" },
  { "pre-init-hooks", G_STRUCT_OFFSET (KisteCreateDialog, pre_init_hooks_row), ROW_TEXT,
    "pre-init-hooks" },
  { "additional-packages", G_STRUCT_OFFSET (KisteCreateDialog, packages_row), ROW_PACKAGES,
    "additional-packages" },
  { "volumes", G_STRUCT_OFFSET (KisteCreateDialog, volumes_expander), ROW_FOLDERS, "volumes" },
  { "separate-home", G_STRUCT_OFFSET (KisteCreateDialog, home_switch_row), ROW_SWITCH, "home" },
  { "unshare-all", G_STRUCT_OFFSET (KisteCreateDialog, unshare_all_row), ROW_SWITCH, "unshare-all" },
  { "init", G_STRUCT_OFFSET (KisteCreateDialog, init_row), ROW_SWITCH, "init",
    N_("Runs systemd or another init system in the box, so services can run. Needs an image "
       "that has one, and starts slower") },
  { "nvidia", G_STRUCT_OFFSET (KisteCreateDialog, nvidia_row), ROW_SWITCH, "nvidia" },
  { "pull", G_STRUCT_OFFSET (KisteCreateDialog, pull_row), ROW_SWITCH, "pull",
    N_("Gets the newest version of the image even when it is on this computer already") },
  { "add-to-menu", G_STRUCT_OFFSET (KisteCreateDialog, menu_row), ROW_SWITCH, "add-to-menu",
    N_("Adds a launcher that opens a terminal in the box") },
  { "unshare-devsys", G_STRUCT_OFFSET (KisteCreateDialog, devsys_row), ROW_UNSHARE, "unshare-devsys",
    N_("The box gets its own /dev and /sys. Drives, USB devices, cameras and game controllers "
       "of this computer are not available in it") },
  { "unshare-groups", G_STRUCT_OFFSET (KisteCreateDialog, groups_row), ROW_UNSHARE, "unshare-groups",
    N_("Your user in the box loses the extra groups it has on this computer. Access that "
       "depends on them, for example to some devices, stops working") },
  { "unshare-ipc", G_STRUCT_OFFSET (KisteCreateDialog, ipc_row), ROW_UNSHARE, "unshare-ipc",
    N_("The box gets its own shared memory. Programs that exchange data with programs on "
       "this computer that way stop doing so") },
  { "unshare-netns", G_STRUCT_OFFSET (KisteCreateDialog, netns_row), ROW_UNSHARE, "unshare-netns",
    N_("The box gets its own network. Services on your computer are not reachable as "
       "localhost") },
  { "unshare-process", G_STRUCT_OFFSET (KisteCreateDialog, process_row), ROW_UNSHARE, "unshare-process",
    N_("The box only sees its own processes. Tools like top or kill cannot see or stop "
       "programs running on this computer") },
  { "unshare-home", G_STRUCT_OFFSET (KisteCreateDialog, unshare_home_row), ROW_UNSHARE, "unshare-home",
    N_("Keeps your home folder, its settings and keys out. Only the folders you add are "
       "shared, and apps in the box need X11") },
};

#define ROW_WIDGET(self, i) G_STRUCT_MEMBER (gpointer, self, form_rows[i].offset)

/* Name suggestions ------------------------------------------------------ */

/* distrobox's rule: the image's last path component with ":" and "."
 * turned into "-"; anything else our name rule refuses becomes "-" too */
static char *
suggest_name (const char          *image,
              const char * const  *taken)
{
  g_autofree char *base = NULL;
  g_autoptr(GString) name = NULL;
  const char *slash;
  char *at;

  if (image == NULL || image[0] == '\0')
    return NULL;

  slash = strrchr (image, '/');
  base = g_strdup (slash ? slash + 1 : image);
  if ((at = strchr (base, '@')))
    *at = '\0';

  name = g_string_new (NULL);
  for (const char *p = base; *p != '\0' && name->len < 58; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_' || *p == '-')
        g_string_append_c (name, *p);
      else if (name->len > 0 && name->str[name->len - 1] != '-')
        g_string_append_c (name, '-');
    }
  while (name->len > 0 && (name->str[name->len - 1] == '-' || name->str[name->len - 1] == '_'))
    g_string_truncate (name, name->len - 1);
  while (name->len > 0 && !g_ascii_isalnum (name->str[0]))
    g_string_erase (name, 0, 1);

  if (name->len < 2)
    return NULL;

  if (taken != NULL && g_strv_contains (taken, name->str))
    {
      for (guint i = 2; i < 100; i++)
        {
          g_autofree char *candidate = g_strdup_printf ("%s-%u", name->str, i);

          if (!g_strv_contains (taken, candidate))
            return g_steal_pointer (&candidate);
        }
    }

  return g_string_free_and_steal (g_steal_pointer (&name));
}

static char *
suggest_home (const char *name)
{
  if (name == NULL || name[0] == '\0')
    return NULL;

  return g_build_filename (g_get_home_dir (), "Boxes", name, NULL);
}

/* Keeps the name following the image until people type their own (an
 * empty name follows again). Only called when the image changes: filling
 * the name while it is being edited would mix the texts. The row follows
 * the options through its binding. */
static void
kiste_create_dialog_suggest_name (KisteCreateDialog *self)
{
  g_auto(GStrv) names = _kiste_create_dialog_dup_box_names (self);
  g_autofree char *suggestion = NULL;
  const char *name = kiste_create_options_get_name (self->options);

  if (g_strcmp0 (name ? name : "", self->suggested_name ? self->suggested_name : "") != 0)
    return;

  suggestion = suggest_name (kiste_create_options_get_image (self->options), (const char * const *) names);
  g_free (self->suggested_name);
  self->suggested_name = g_strdup (suggestion ? suggestion : "");
  self->updating++;
  kiste_create_options_set_name (self->options, self->suggested_name);
  self->updating--;
}

/* The same for a separate home folder, which follows the name */
static void
kiste_create_dialog_suggest_home (KisteCreateDialog *self)
{
  const char *name = kiste_create_options_get_name (self->options);

  if (kiste_create_options_get_separate_home (self->options) &&
      g_strcmp0 (_kiste_create_dialog_entry_text (self->home_row), self->suggested_home ? self->suggested_home : "") == 0)
    {
      g_autofree char *suggestion = suggest_home (kiste_validate_name (name, NULL, NULL) ? name : NULL);

      g_free (self->suggested_home);
      self->suggested_home = g_strdup (suggestion ? suggestion : "");
      self->updating++;
      kiste_create_options_set_home (self->options, self->suggested_home);
      self->updating--;
    }
}

/* Errors at the fields -------------------------------------------------- */

void
_kiste_create_dialog_set_field_error (KisteCreateDialog *self,
                                      FieldView         *view,
                                      const char        *message)
{
  gboolean show = message != NULL && message[0] != '\0';

  gtk_label_set_text (view->label, show ? message : "");
  gtk_widget_set_visible (view->label_host, show);

  if (view->input == NULL)
    return;

  if (show)
    {
      gtk_widget_add_css_class (view->input, "error");
      gtk_accessible_update_property (GTK_ACCESSIBLE (view->input),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message,
                                      -1);
      gtk_accessible_update_state (GTK_ACCESSIBLE (view->input),
                                   GTK_ACCESSIBLE_STATE_INVALID, GTK_ACCESSIBLE_INVALID_TRUE,
                                   -1);
    }
  else
    {
      gtk_widget_remove_css_class (view->input, "error");
      gtk_accessible_reset_property (GTK_ACCESSIBLE (view->input),
                                     GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
      gtk_accessible_reset_state (GTK_ACCESSIBLE (view->input), GTK_ACCESSIBLE_STATE_INVALID);
    }
}

/* Empty fields nobody touched yet are not wrong yet */
static gboolean
should_show_error (KisteCreateDialog *self,
                   FieldView         *view)
{
  if (self->touched & (1u << view->field))
    return TRUE;
  if (view->input != NULL && ADW_IS_ENTRY_ROW (view->input))
    return _kiste_create_dialog_entry_text (ADW_ENTRY_ROW (view->input))[0] != '\0' ||
           view->field == KISTE_CREATE_FIELD_HOSTNAME;
  return TRUE;
}

static FieldView *
find_view (KisteCreateDialog *self,
           KisteCreateField   field)
{
  for (guint i = 0; i < N_VIEWS; i++)
    if (self->views[i].field == field)
      return &self->views[i];
  return NULL;
}

void
_kiste_create_dialog_set_can_create (KisteCreateDialog *self,
                                     gboolean           can_create)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button),
                            can_create && self->state == STATE_FORM);

  if (self->can_create == can_create)
    return;

  self->can_create = can_create;
  g_object_notify (G_OBJECT (self), "can-create");
}

void
_kiste_create_dialog_validate (KisteCreateDialog *self)
{
  g_auto(GStrv) names = _kiste_create_dialog_dup_box_names (self);
  g_autoptr(GPtrArray) problems = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) argv_error = NULL;
  KisteCreateField argv_field = KISTE_CREATE_FIELD_NONE;
  gboolean expander_error[3] = { FALSE, FALSE, FALSE };
  AdwExpanderRow *expanders[3] = { self->system_expander, self->volumes_expander, self->setup_expander };
  gboolean valid = TRUE;
  gboolean row_error = FALSE;
  const char *banner_text = NULL;
  KisteCapabilities *caps = _kiste_create_dialog_get_caps (self);

  self->n_validations++;

  /* each volume row on its own, so the message sits at the right row */
  for (guint i = 0; i < self->volume_rows->len; i++)
    {
      KisteVolumeRow *row = g_ptr_array_index (self->volume_rows, i);
      g_autofree char *spec = kiste_volume_row_dup_spec (row);
      g_autoptr(GError) error = NULL;

      if (!kiste_validate_volume_entry (kiste_volume_row_get_host_path (row),
                                        kiste_volume_row_get_box_path (row),
                                        spec, &error))
        {
          kiste_volume_row_set_error (row, error->message);
          row_error = TRUE;
          valid = FALSE;
        }
      else
        kiste_volume_row_set_error (row, NULL);
    }

  /* the options check every field once and build the argv */
  argv = kiste_create_options_check (self->options, (const char * const *) names, caps,
                                     &problems, &argv_field, &argv_error);

  for (guint i = 0; i < N_VIEWS; i++)
    {
      FieldView *view = &self->views[i];
      const char *problem = g_ptr_array_index (problems, view->field);
      gboolean ok = problem == NULL;

      if (!ok)
        valid = FALSE;

      /* the rows already show what is wrong with each volume */
      if (view->field == KISTE_CREATE_FIELD_VOLUMES && row_error)
        ok = TRUE;

      _kiste_create_dialog_set_field_error (self, view, !ok && should_show_error (self, view) ? problem : NULL);
    }

  /* Toolbx: its own plan, from the name and the image; the other rows
   * are hidden, and the plan names an option set in them (a manifest's,
   * or people's before they chose Toolbx) that Toolbx cannot make */
  if (_kiste_create_dialog_is_toolbx (self))
    {
      g_autoptr(KisteCreatePlan) plan = NULL;
      g_autoptr(GError) plan_error = NULL;

      g_clear_pointer (&argv, g_strfreev);
      g_clear_error (&argv_error);
      valid = !row_error &&
              g_ptr_array_index (problems, KISTE_CREATE_FIELD_NAME) == NULL &&
              g_ptr_array_index (problems, KISTE_CREATE_FIELD_IMAGE) == NULL;
      if (valid)
        plan = kiste_create_options_plan (self->options, (const char * const *) names, caps,
                                          "podman", &plan_error);
      if (plan != NULL)
        argv = g_strdupv ((char **) kiste_create_plan_get_argv (plan));
      else if (plan_error != NULL)
        g_propagate_error (&argv_error, g_steal_pointer (&plan_error));
    }

  /* what is left: a clone source that is gone, a flag this distrobox
   * lacks; said once the fields are fine */
  if (!valid)
    g_clear_error (&argv_error);
  else if (argv == NULL)
    valid = FALSE;

  if (argv_error != NULL)
    {
      FieldView *view = find_view (self, argv_field);

      if (view != NULL)
        _kiste_create_dialog_set_field_error (self, view, argv_error->message);
      else
        banner_text = argv_error->message;
    }

  for (guint i = 0; i < N_VIEWS; i++)
    {
      FieldView *view = &self->views[i];

      if (view->expander == NULL || !gtk_widget_get_visible (view->label_host))
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (expanders); j++)
        if (view->expander == expanders[j])
          expander_error[j] = TRUE;
    }
  expander_error[1] |= row_error;

  for (guint j = 0; j < G_N_ELEMENTS (expanders); j++)
    {
      gboolean had_error = gtk_widget_has_css_class (GTK_WIDGET (expanders[j]), "error");

      if (expander_error[j])
        {
          gtk_widget_add_css_class (GTK_WIDGET (expanders[j]), "error");
          /* a new problem in a folded section must not stay hidden */
          if (!had_error)
            adw_expander_row_set_expanded (expanders[j], TRUE);
        }
      else
        gtk_widget_remove_css_class (GTK_WIDGET (expanders[j]), "error");
    }

  /* A missing distrobox or manager beats any field; Toolbx needs no
   * distrobox */
  if (kiste_capabilities_get_loaded (caps) &&
      !(_kiste_create_dialog_is_toolbx (self) && kiste_capabilities_has_toolbox (caps)))
    {
      if (kiste_capabilities_get_distrobox_problem (caps) != NULL)
        banner_text = kiste_capabilities_get_distrobox_problem (caps);
      else if (kiste_capabilities_get_manager_problem (caps) != NULL)
        banner_text = kiste_capabilities_get_manager_problem (caps);
      if (banner_text != NULL && (!kiste_capabilities_has_distrobox (caps) ||
                                  kiste_capabilities_get_manager (caps) == NULL))
        valid = FALSE;
    }
  if (banner_text == NULL && self->notice != NULL)
    {
      adw_banner_set_button_label (self->banner, _("_Dismiss"));
      banner_text = self->notice;
    }
  else
    adw_banner_set_button_label (self->banner, NULL);
  adw_banner_set_title (self->banner, banner_text ? banner_text : "");
  adw_banner_set_revealed (self->banner, banner_text != NULL);

  g_clear_pointer (&self->command, g_free);
  if (argv != NULL)
    {
      if (_kiste_create_dialog_is_toolbx (self))
        self->command = kiste_argv_to_display_string ((const char * const *) argv);
      else
        self->command = kiste_create_options_dup_command_text (self->options, caps);
      gtk_label_set_text (self->command_label, self->command);
      gtk_widget_remove_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  else
    {
      gtk_label_set_text (self->command_label,
                          _("The command appears once every field is filled in correctly."));
      gtk_widget_add_css_class (GTK_WIDGET (self->command_label), "dim-label");
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), self->command != NULL);

  _kiste_create_dialog_set_can_create (self, valid);
}

/* Rows that depend on capabilities and on each other -------------------- */

static void
set_row_gate (AdwPreferencesRow *row,
              gboolean           supported,
              const char        *reason)
{
  gtk_widget_set_sensitive (GTK_WIDGET (row), supported);
  gtk_widget_set_tooltip_text (GTK_WIDGET (row), supported ? NULL : reason);
}

/* What a switch that can be used says; some depend on this computer */
static char *
dup_switch_subtitle (KisteCreateDialog *self,
                     guint              i)
{
  KisteCapabilities *caps = _kiste_create_dialog_get_caps (self);
  gboolean home_isolation = _kiste_create_dialog_supports (self, "unshare-home");
  const char *property = form_rows[i].property;

  if (g_str_equal (property, "unshare-all"))
    return g_strdup (home_isolation
                     ? _("Turns on every switch below")
                     : _("Turns on every switch below except the home folder"));

  if (g_str_equal (property, "nvidia"))
    return g_strdup (self->nvidia_found
                     ? _("NVIDIA graphics found on this computer. Makes its driver available "
                         "in the box")
                     : _("Makes the NVIDIA driver of this computer available in the box"));

  /* a home of its own hides nothing unless the home is kept out */
  if (g_str_equal (property, "separate-home"))
    {
      const char *missing;

      if (home_isolation)
        return g_strdup (_("Programs in the box still see your home folder unless home isolation "
                           "is on"));
      missing = kiste_create_flag_get_missing (kiste_create_flags_find ("unshare-home"), caps);
      return g_strdup (missing
                       ? missing
                       : _("The box keeps its settings and files there. Programs in the box "
                           "still see your home folder"));
    }

  return g_strdup (form_rows[i].subtitle ? _(form_rows[i].subtitle) : NULL);
}

/* A switch this distrobox cannot do: off, locked, and saying why */
static void
gate_switch_off (KisteCreateDialog     *self,
                 guint                  i,
                 const KisteCreateFlag *flag)
{
  AdwSwitchRow *row = ROW_WIDGET (self, i);
  KisteCapabilities *caps = _kiste_create_dialog_get_caps (self);
  g_autofree char *reason = kiste_create_flag_dup_problem (flag, caps);
  const char *missing = kiste_create_flag_get_missing (flag, caps);
  g_autofree char *subtitle = missing ? g_strdup_printf ("%s. %s", reason, missing) : g_strdup (reason);

  set_row_gate (ADW_PREFERENCES_ROW (row), FALSE, reason);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  _kiste_create_dialog_set_switch (self, row, FALSE);
}

static void
gate_switch (KisteCreateDialog *self,
             guint              i)
{
  AdwSwitchRow *row = ROW_WIDGET (self, i);
  g_autofree char *subtitle = dup_switch_subtitle (self, i);

  set_row_gate (ADW_PREFERENCES_ROW (row), TRUE, NULL);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
}

/* An unshare switch shows the flag as the box gets it: on and locked
 * while init or Isolate Everything implies it (the option itself keeps
 * what people chose) */
static void
gate_unshare (KisteCreateDialog     *self,
              guint                  i,
              const KisteCreateFlag *flag)
{
  AdwSwitchRow *row = ROW_WIDGET (self, i);
  KisteUnshareImplied implied = kiste_create_options_get_unshare_implied (self->options, flag->unshare,
                                                                          _kiste_create_dialog_get_caps (self));

  if (implied != KISTE_UNSHARE_IMPLIED_NO)
    {
      set_row_gate (ADW_PREFERENCES_ROW (row), FALSE, NULL);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                   implied == KISTE_UNSHARE_IMPLIED_BY_INIT
                                   ? _("Needed by the init system")
                                   : _("Included in “Isolate Everything”"));
      _kiste_create_dialog_set_switch (self, row, TRUE);
    }
  else
    {
      set_row_gate (ADW_PREFERENCES_ROW (row), TRUE, NULL);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _(form_rows[i].subtitle));
      _kiste_create_dialog_set_switch (self, row, kiste_create_options_get_unshare (self->options,
                                                                                    flag->unshare));
    }
}

static void
gate_row (KisteCreateDialog     *self,
          guint                  i,
          const KisteCreateFlag *flag)
{
  gboolean supported = kiste_create_flag_is_supported (flag, _kiste_create_dialog_get_caps (self));

  switch (form_rows[i].kind)
    {
    case ROW_SWITCH:
      if (supported)
        gate_switch (self, i);
      else
        gate_switch_off (self, i, flag);
      break;

    case ROW_UNSHARE:
      if (supported)
        gate_unshare (self, i, flag);
      else
        gate_switch_off (self, i, flag);
      break;

    case ROW_TEXT:
    case ROW_PACKAGES:
    case ROW_FOLDERS:
    default:
      {
        g_autofree char *reason = NULL;

        if (!supported)
          reason = kiste_create_flag_dup_problem (flag, _kiste_create_dialog_get_caps (self));
        set_row_gate (ADW_PREFERENCES_ROW (ROW_WIDGET (self, i)), supported, reason);
      }
      break;
    }
}

/* The tool that makes the box: chosen where both distrobox and Toolbx are
 * installed, Toolbx where only it is. Toolbx makes a box from its name and
 * image alone: the rows of the other options are hidden while it is chosen,
 * and keep their values for Distrobox. Try an Image and a copy are
 * distrobox's. */
static void
kiste_create_dialog_update_tool (KisteCreateDialog *self)
{
  KisteCapabilities *caps = _kiste_create_dialog_get_caps (self);
  gboolean loaded = kiste_capabilities_get_loaded (caps);
  gboolean has_distrobox = kiste_capabilities_has_distrobox (caps);
  gboolean has_toolbox = kiste_capabilities_has_toolbox (caps);
  const char *clone_source = kiste_create_options_get_clone_source (self->options);
  gboolean distrobox_only = self->temporary || (clone_source != NULL && clone_source[0] != '\0');
  KisteBoxTool tool = kiste_create_options_get_tool (self->options);
  gboolean toolbx;

  if (distrobox_only || (loaded && !has_toolbox))
    tool = KISTE_BOX_TOOL_DISTROBOX;
  else if (loaded && !has_distrobox)
    tool = KISTE_BOX_TOOL_TOOLBX;
  self->updating++;
  kiste_create_options_set_tool (self->options, tool);
  self->updating--;
  toolbx = tool == KISTE_BOX_TOOL_TOOLBX;

  /* the dialog's guess of NVIDIA is for Distrobox only */
  if (self->nvidia_guessed && kiste_create_options_get_nvidia (self->options) == toolbx)
    {
      self->updating++;
      kiste_create_options_set_nvidia (self->options, !toolbx);
      self->updating--;
    }

  /* both: the choice; Toolbx alone: the way to what distrobox adds */
  gtk_widget_set_visible (GTK_WIDGET (self->tool_group), loaded && has_toolbox && !distrobox_only);
  gtk_widget_set_visible (GTK_WIDGET (self->tool_row), has_distrobox);
  gtk_widget_set_visible (GTK_WIDGET (self->more_options_row), !has_distrobox);
  gtk_widget_set_visible (GTK_WIDGET (self->home_group), !toolbx && !self->temporary);
  gtk_widget_set_visible (GTK_WIDGET (self->isolation_group), !toolbx);
  gtk_widget_set_visible (GTK_WIDGET (self->advanced_group), !toolbx);
  /* manifests are distrobox's */
  gtk_widget_set_visible (GTK_WIDGET (self->import_row), !toolbx && !self->temporary);
}

/* Every row that follows an option of the table of create flags, in the
 * table's order */
void
_kiste_create_dialog_update_rows (KisteCreateDialog *self)
{
  KisteCapabilities *caps = _kiste_create_dialog_get_caps (self);
  const KisteCreateFlag *flags;
  guint n_flags;

  kiste_create_dialog_update_tool (self);

  flags = kiste_create_flags_get_all (&n_flags);

  /* options that this distrobox cannot do are off, not silently kept;
   * before any row shows what the others imply */
  for (guint f = 0; f < n_flags; f++)
    {
      if (kiste_create_flag_is_supported (&flags[f], caps))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (form_rows); i++)
        if (g_strcmp0 (form_rows[i].follows, flags[f].property) == 0 &&
            (form_rows[i].kind == ROW_SWITCH || form_rows[i].kind == ROW_UNSHARE))
          g_object_set (self->options, form_rows[i].property, FALSE, NULL);
    }

  for (guint f = 0; f < n_flags; f++)
    for (guint i = 0; i < G_N_ELEMENTS (form_rows); i++)
      if (g_strcmp0 (form_rows[i].follows, flags[f].property) == 0)
        gate_row (self, i, &flags[f]);

  if (self->volume_rows->len == 0)
    adw_expander_row_set_subtitle (self->volumes_expander,
                                   _("Folders of this computer at a path of your choice in the box"));
  else
    {
      g_autofree char *subtitle = g_strdup_printf (ngettext ("%u folder", "%u folders",
                                                             self->volume_rows->len),
                                                   self->volume_rows->len);

      adw_expander_row_set_subtitle (self->volumes_expander, subtitle);
    }
}

/* The options and their rows ------------------------------------------- */

void
_kiste_create_dialog_touch (KisteCreateDialog *self,
                            KisteCreateField   field)
{
  self->touched |= 1u << field;
}

/* Options changed, by people or by the dialog: the rows follow, then one
 * validation. What the rows change in the options on the way (a flag this
 * distrobox lacks is turned off) is part of the same change. */
void
_kiste_create_dialog_changed (KisteCreateDialog *self)
{
  if (self->in_changed)
    return;

  self->in_changed = TRUE;
  _kiste_create_dialog_update_rows (self);
  self->in_changed = FALSE;
  _kiste_create_dialog_validate (self);
}

/* What follows a property: suggestions, the image's icon, and the field
 * people touched (not the dialog: suggestions and filling are not wrong
 * yet). Property names are the nicks of KisteCreateField. */
static void
kiste_create_dialog_options_notify_cb (KisteCreateDialog  *self,
                                       GParamSpec         *pspec,
                                       KisteCreateOptions *options)
{
  const char *prop = g_param_spec_get_name (pspec);

  if (g_str_equal (prop, "image"))
    gtk_image_set_from_icon_name (self->image_icon,
                                  kiste_distro_icon_name (kiste_distro_id_for_image (
                                    kiste_create_options_get_image (options))));

  if (self->updating)
    return;

  if (g_str_equal (prop, "image"))
    {
      kiste_create_dialog_suggest_name (self);
      kiste_create_dialog_suggest_home (self);
    }
  else if (g_str_equal (prop, "name"))
    {
      /* an empty name follows the image again */
      if (kiste_create_options_get_name (options) == NULL)
        g_set_str (&self->suggested_name, "");
      kiste_create_dialog_suggest_home (self);
    }
  else if (g_str_equal (prop, "nvidia"))
    /* people's own choice from now on */
    self->nvidia_guessed = FALSE;
  else if (g_str_equal (prop, "separate-home") && kiste_create_options_get_separate_home (options))
    {
      if (_kiste_create_dialog_entry_text (self->home_row)[0] == '\0')
        g_set_str (&self->suggested_home, "");
      kiste_create_dialog_suggest_home (self);
      /* a home of its own needs a folder: say so at once if there is none */
      _kiste_create_dialog_touch (self, KISTE_CREATE_FIELD_HOME);
    }

  {
    g_autoptr(GEnumClass) fields = g_type_class_ref (KISTE_TYPE_CREATE_FIELD);
    GEnumValue *field = g_enum_get_value_by_nick (fields, prop);

    if (field != NULL)
      _kiste_create_dialog_touch (self, field->value);
  }
}

static gboolean
string_to_text (GBinding     *binding,
                const GValue *from,
                GValue       *to,
                gpointer      user_data)
{
  const char *str = g_value_get_string (from);

  g_value_set_string (to, str ? str : "");
  return TRUE;
}

/* The packages row holds one text; the options a list */
static gboolean
packages_to_text (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  const char * const *packages = g_value_get_boxed (from);

  g_value_take_string (to, packages ? g_strjoinv (" ", (char **) packages) : g_strdup (""));
  return TRUE;
}

static gboolean
text_to_packages (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  const char *text = g_value_get_string (from);
  const char *packages[] = { text, NULL };

  g_value_set_boxed (to, text != NULL && text[0] != '\0' ? packages : NULL);
  return TRUE;
}

/* An unshare row shows the flag as the box gets it (on when init or
 * Isolate Everything implies it); while it is locked, what people chose
 * stays in the options */
static gboolean
unshare_to_active (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  KisteCreateDialog *self = user_data;
  const KisteCreateFlag *flag = kiste_create_flags_find (g_binding_get_source_property (binding));

  g_value_set_boolean (to, g_value_get_boolean (from) ||
                       kiste_create_options_get_unshare_implied (self->options, flag->unshare,
                                                                 _kiste_create_dialog_get_caps (self))
                       != KISTE_UNSHARE_IMPLIED_NO);
  return TRUE;
}

static gboolean
active_to_unshare (GBinding     *binding,
                   const GValue *from,
                   GValue       *to,
                   gpointer      user_data)
{
  g_autoptr(GObject) row = g_binding_dup_target (binding);

  if (!gtk_widget_get_sensitive (GTK_WIDGET (row)))
    return FALSE;
  g_value_set_boolean (to, g_value_get_boolean (from));
  return TRUE;
}

static void
bind (KisteCreateDialog     *self,
      const char            *property,
      gpointer               row,
      const char            *row_property,
      GBindingTransformFunc  to_row,
      GBindingTransformFunc  from_row)
{
  GBinding *binding = g_object_bind_property_full (self->options, property, row, row_property,
                                                   G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                                                   to_row, from_row, self, NULL);

  g_ptr_array_add (self->bindings, g_object_ref (binding));
}

/* The tool row's position is the KisteBoxTool */
static gboolean
tool_to_selected (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  g_value_set_uint (to, (guint) g_value_get_int (from));
  return TRUE;
}

static gboolean
selected_to_tool (GBinding     *binding,
                  const GValue *from,
                  GValue       *to,
                  gpointer      user_data)
{
  guint selected = g_value_get_uint (from);

  if (selected > KISTE_BOX_TOOL_TOOLBX)
    return FALSE;
  g_value_set_int (to, (int) selected);
  return TRUE;
}

/* Every row is bound to its option, both ways: what people change goes
 * into the options and what the options change shows. Called again when
 * the dialog gets other options. */
void
_kiste_create_dialog_bind_options (KisteCreateDialog  *self,
                                   KisteCreateOptions *options)
{
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (options));

  /* the old options and their rows part first */
  for (guint i = 0; i < self->bindings->len; i++)
    g_binding_unbind (g_ptr_array_index (self->bindings, i));
  g_ptr_array_set_size (self->bindings, 0);
  if (self->options != NULL)
    g_signal_handlers_disconnect_by_data (self->options, self);
  g_set_object (&self->options, options);

  for (guint i = 0; i < G_N_ELEMENTS (form_rows); i++)
    {
      const char *property = form_rows[i].property;
      gpointer row = ROW_WIDGET (self, i);

      switch (form_rows[i].kind)
        {
        case ROW_TEXT:
          bind (self, property, row, "text", string_to_text, NULL);
          break;

        case ROW_PACKAGES:
          bind (self, property, row, "text", packages_to_text, text_to_packages);
          break;

        case ROW_SWITCH:
          bind (self, property, row, "active", NULL, NULL);
          break;

        case ROW_UNSHARE:
          bind (self, property, row, "active", unshare_to_active, active_to_unshare);
          break;

        case ROW_FOLDERS:
        default:
          break;
        }
    }

  bind (self, "tool", self->tool_row, "selected", tool_to_selected, selected_to_tool);

  /* after the bindings: the rows show a change before it is followed */
  g_signal_connect_object (options, "notify", G_CALLBACK (kiste_create_dialog_options_notify_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (options, "changed", G_CALLBACK (_kiste_create_dialog_changed),
                           self, G_CONNECT_SWAPPED);
}
