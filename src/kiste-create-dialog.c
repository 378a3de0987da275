/* kiste-create-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "kiste-assemble.h"
#include "kiste-create-dialog.h"
#include "kiste-create-progress.h"
#include "kiste-distro.h"
#include "kiste-error.h"
#include "kiste-image-chooser.h"
#include "kiste-portal.h"
#include "kiste-validate.h"
#include "kiste-volume-row.h"

typedef enum
{
  STATE_FORM,
  STATE_RUNNING,
  STATE_FAILED,
} DialogState;

/* An input, where its error goes and the expander that may hide it */
typedef struct
{
  KisteCreateField  field;
  GtkWidget        *input;
  GtkLabel         *label;
  GtkWidget        *label_host;
  AdwExpanderRow   *expander;
} FieldView;

enum {
  VIEW_NAME,
  VIEW_IMAGE,
  VIEW_HOSTNAME,
  VIEW_HOME,
  VIEW_VOLUMES,
  VIEW_PACKAGES,
  VIEW_INIT_HOOKS,
  VIEW_PRE_INIT_HOOKS,
  VIEW_PLATFORM,
  N_VIEWS
};

static const struct
{
  KisteUnshare  what;
  const char   *flag;
  const char   *subtitle;
} unshare_info[] = {
  { KISTE_UNSHARE_DEVSYS, "--unshare-devsys",
    N_("The box gets its own /dev and /sys. Drives, USB devices, cameras and game controllers "
       "of this computer are not available in it") },
  { KISTE_UNSHARE_GROUPS, "--unshare-groups",
    N_("Your user in the box loses the extra groups it has on this computer. Access that "
       "depends on them, for example to some devices, stops working") },
  { KISTE_UNSHARE_IPC, "--unshare-ipc",
    N_("The box gets its own shared memory. Programs that exchange data with programs on "
       "this computer that way stop doing so") },
  { KISTE_UNSHARE_NETNS, "--unshare-netns",
    N_("The box gets its own network. Services on your computer are not reachable as "
       "localhost") },
  { KISTE_UNSHARE_PROCESS, "--unshare-process",
    N_("The box only sees its own processes. Tools like top or kill cannot see or stop "
       "programs running on this computer") },
  { KISTE_UNSHARE_HOME, "--unshare-home",
    N_("Your home folder is not mounted in the box") },
};

struct _KisteCreateDialog
{
  AdwDialog            parent_instance;

  KisteManager        *manager;
  KisteCreateOptions  *options;
  GCancellable        *cancellable;
  GCancellable        *run_cancellable;

  /* form */
  AdwToastOverlay     *toast_overlay;
  GtkButton           *cancel_button;
  GtkButton           *create_button;
  AdwBanner           *banner;
  GtkStack            *stack;
  AdwPreferencesPage  *form_page;
  AdwEntryRow         *name_row;
  GtkLabel            *name_error;
  AdwEntryRow         *image_row;
  GtkImage            *image_icon;
  GtkLabel            *image_error;
  KisteImageChooser   *image_chooser;
  AdwActionRow        *clone_row;
  AdwSwitchRow        *home_switch_row;
  AdwEntryRow         *home_row;
  GtkButton           *home_choose_button;
  GtkLabel            *home_error;
  AdwSwitchRow        *unshare_all_row;
  AdwSwitchRow        *devsys_row;
  AdwSwitchRow        *groups_row;
  AdwSwitchRow        *ipc_row;
  AdwSwitchRow        *netns_row;
  AdwSwitchRow        *process_row;
  AdwSwitchRow        *unshare_home_row;
  AdwExpanderRow      *system_expander;
  AdwSwitchRow        *init_row;
  AdwSwitchRow        *nvidia_row;
  AdwEntryRow         *hostname_row;
  GtkWidget           *hostname_error_row;
  GtkLabel            *hostname_error;
  AdwEntryRow         *platform_row;
  GtkWidget           *platform_error_row;
  GtkLabel            *platform_error;
  AdwSwitchRow        *pull_row;
  AdwSwitchRow        *menu_row;
  AdwExpanderRow      *volumes_expander;
  GtkWidget           *volumes_error_row;
  GtkLabel            *volumes_error;
  AdwButtonRow        *add_volume_row;
  AdwExpanderRow      *setup_expander;
  AdwEntryRow         *packages_row;
  GtkWidget           *packages_error_row;
  GtkLabel            *packages_error;
  AdwEntryRow         *init_hooks_row;
  GtkWidget           *init_hooks_error_row;
  GtkLabel            *init_hooks_error;
  AdwEntryRow         *pre_init_hooks_row;
  GtkWidget           *pre_init_hooks_error_row;
  GtkLabel            *pre_init_hooks_error;
  AdwExpanderRow      *command_expander;
  GtkButton           *copy_button;
  GtkLabel            *command_label;
  AdwButtonRow        *import_row;

  KisteCreateProgress *progress;

  FieldView            views[N_VIEWS];
  AdwSwitchRow        *unshare_rows[KISTE_N_UNSHARE];
  GPtrArray           *volume_rows;

  char                *command;
  char                *running_name;
  char                *suggested_name;
  char                *suggested_home;
  /* what an import left out, shown above the form until dismissed */
  char                *notice;
  DialogState          state;
  guint                touched;
  guint                updating;
  gboolean             can_create;
  gboolean             nvidia_found;
};

G_DEFINE_FINAL_TYPE (KisteCreateDialog, kiste_create_dialog, ADW_TYPE_DIALOG)

enum {
  PROP_0,
  PROP_MANAGER,
  PROP_CAN_CREATE,
  N_PROPS
};

enum {
  CREATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void kiste_create_dialog_validate (KisteCreateDialog *self);
static void kiste_create_dialog_update_rows (KisteCreateDialog *self);

KisteCreateDialog *
kiste_create_dialog_new (KisteManager *manager)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);

  return g_object_new (KISTE_TYPE_CREATE_DIALOG,
                       "manager", manager,
                       NULL);
}

KisteManager *
kiste_create_dialog_get_manager (KisteCreateDialog *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), NULL);

  return self->manager;
}

KisteCreateOptions *
kiste_create_dialog_get_options (KisteCreateDialog *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), NULL);

  return self->options;
}

gboolean
kiste_create_dialog_get_can_create (KisteCreateDialog *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), FALSE);

  return self->can_create;
}

static KisteCapabilities *
get_caps (KisteCreateDialog *self)
{
  return kiste_manager_get_capabilities (self->manager);
}

/* Before the probe finished, the flags every supported distrobox has are
 * assumed (as kiste_create_options_to_argv() does); --unshare-home never. */
static gboolean
supports_flag (KisteCreateDialog *self,
               const char        *flag)
{
  KisteCapabilities *caps = get_caps (self);

  if (!kiste_capabilities_get_loaded (caps))
    return !g_str_equal (flag, "--unshare-home");

  return kiste_capabilities_supports_create_flag (caps, flag);
}

static char **
dup_box_names (KisteCreateDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_store (self->manager));

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      g_strv_builder_add (builder, kiste_box_get_name (box));
    }
  return g_strv_builder_end (builder);
}

static void
show_toast (KisteCreateDialog *self,
            const char        *title)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
}

/* Once disposed (its cancellable is cancelled then), late callbacks must
 * not touch the widgets */
static gboolean
is_gone (KisteCreateDialog *self)
{
  return g_cancellable_is_cancelled (self->cancellable);
}

static const char *
entry_text (AdwEntryRow *row)
{
  return gtk_editable_get_text (GTK_EDITABLE (row));
}

static void
set_entry_text (KisteCreateDialog *self,
                AdwEntryRow       *row,
                const char        *text)
{
  self->updating++;
  gtk_editable_set_text (GTK_EDITABLE (row), text ? text : "");
  self->updating--;
}

static void
set_switch (KisteCreateDialog *self,
            AdwSwitchRow      *row,
            gboolean           active)
{
  self->updating++;
  adw_switch_row_set_active (row, active);
  self->updating--;
}

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
 * the name while it is being edited would mix the texts. */
static void
kiste_create_dialog_suggest_name (KisteCreateDialog *self)
{
  g_auto(GStrv) names = dup_box_names (self);
  g_autofree char *suggestion = NULL;

  if (g_strcmp0 (entry_text (self->name_row), self->suggested_name ? self->suggested_name : "") != 0)
    return;

  suggestion = suggest_name (entry_text (self->image_row), (const char * const *) names);
  g_free (self->suggested_name);
  self->suggested_name = g_strdup (suggestion ? suggestion : "");
  set_entry_text (self, self->name_row, self->suggested_name);
  kiste_create_options_set_name (self->options, self->suggested_name);
}

/* The same for a separate home folder, which follows the name */
static void
kiste_create_dialog_suggest_home (KisteCreateDialog *self)
{
  const char *name = entry_text (self->name_row);

  if (adw_switch_row_get_active (self->home_switch_row) &&
      g_strcmp0 (entry_text (self->home_row), self->suggested_home ? self->suggested_home : "") == 0)
    {
      g_autofree char *suggestion = suggest_home (kiste_validate_name (name, NULL, NULL) ? name : NULL);

      g_free (self->suggested_home);
      self->suggested_home = g_strdup (suggestion ? suggestion : "");
      set_entry_text (self, self->home_row, self->suggested_home);
      kiste_create_options_set_home (self->options, self->suggested_home);
    }
}

/* Errors at the fields -------------------------------------------------- */

static void
set_field_error (KisteCreateDialog *self,
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
    return entry_text (ADW_ENTRY_ROW (view->input))[0] != '\0' ||
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

static void
set_can_create (KisteCreateDialog *self,
                gboolean           can_create)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->create_button),
                            can_create && self->state == STATE_FORM);

  if (self->can_create == can_create)
    return;

  self->can_create = can_create;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_CREATE]);
}

static void
kiste_create_dialog_validate (KisteCreateDialog *self)
{
  g_auto(GStrv) names = dup_box_names (self);
  g_auto(GStrv) argv = NULL;
  g_autoptr(GError) argv_error = NULL;
  KisteCreateField argv_field = KISTE_CREATE_FIELD_NONE;
  gboolean expander_error[3] = { FALSE, FALSE, FALSE };
  AdwExpanderRow *expanders[3] = { self->system_expander, self->volumes_expander, self->setup_expander };
  gboolean valid = TRUE;
  gboolean row_error = FALSE;
  const char *banner_text = NULL;
  KisteCapabilities *caps = get_caps (self);

  /* each volume row on its own, so the message sits at the right row */
  for (guint i = 0; i < self->volume_rows->len; i++)
    {
      KisteVolumeRow *row = g_ptr_array_index (self->volume_rows, i);
      g_autofree char *spec = kiste_volume_row_dup_spec (row);
      g_autoptr(GError) error = NULL;

      if (spec != NULL && !kiste_validate_volume (spec, &error))
        {
          kiste_volume_row_set_error (row, error->message);
          row_error = TRUE;
          valid = FALSE;
        }
      else
        kiste_volume_row_set_error (row, NULL);
    }

  for (guint i = 0; i < N_VIEWS; i++)
    {
      FieldView *view = &self->views[i];
      g_autoptr(GError) error = NULL;
      gboolean ok;

      ok = kiste_create_options_validate_field (self->options, view->field,
                                                (const char * const *) names, &error);
      if (!ok)
        valid = FALSE;

      /* the rows already show what is wrong with each volume */
      if (view->field == KISTE_CREATE_FIELD_VOLUMES && row_error)
        ok = TRUE;

      set_field_error (self, view, !ok && should_show_error (self, view) ? error->message : NULL);
    }

  /* an empty folder would quietly mean "no separate home" */
  if (adw_switch_row_get_active (self->home_switch_row) &&
      entry_text (self->home_row)[0] == '\0')
    {
      valid = FALSE;
      set_field_error (self, &self->views[VIEW_HOME],
                       _("Choose a folder for the box’s home, or turn off “Separate Home Folder”."));
    }

  /* the clone source is not editable here: it can only be gone */
  if (valid)
    {
      g_autoptr(GError) error = NULL;
      KisteCreateField field = KISTE_CREATE_FIELD_NONE;

      if (!kiste_create_options_validate_full (self->options, (const char * const *) names,
                                               &field, &error))
        {
          valid = FALSE;
          argv_field = field;
          argv_error = g_steal_pointer (&error);
        }
    }

  if (valid && !(argv = kiste_create_options_to_argv_full (self->options, caps,
                                                           &argv_field, &argv_error)))
    valid = FALSE;

  if (argv_error != NULL)
    {
      FieldView *view = find_view (self, argv_field);

      if (view != NULL)
        set_field_error (self, view, argv_error->message);
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

  /* A missing distrobox or manager beats any field */
  if (kiste_capabilities_get_loaded (caps))
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
      self->command = kiste_argv_to_display_string ((const char * const *) argv);
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

  set_can_create (self, valid);
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

static char *
dup_reason (KisteCreateDialog *self,
            const char        *flag)
{
  KisteCapabilities *caps = get_caps (self);
  char *reason = NULL;

  if (kiste_capabilities_get_loaded (caps))
    reason = kiste_capabilities_dup_unsupported_reason (caps, flag);
  if (reason == NULL)
    reason = g_strdup (_("Not available in the installed distrobox"));
  return reason;
}

static void
update_switch_gate (KisteCreateDialog *self,
                    AdwSwitchRow      *row,
                    const char        *flag,
                    const char        *subtitle)
{
  if (supports_flag (self, flag))
    {
      set_row_gate (ADW_PREFERENCES_ROW (row), TRUE, NULL);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
    }
  else
    {
      g_autofree char *reason = dup_reason (self, flag);

      set_row_gate (ADW_PREFERENCES_ROW (row), FALSE, reason);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), reason);
      set_switch (self, row, FALSE);
    }
}

static void
update_entry_gate (KisteCreateDialog *self,
                   GtkWidget         *row,
                   const char        *flag)
{
  g_autofree char *reason = NULL;
  gboolean supported = supports_flag (self, flag);

  if (!supported)
    reason = dup_reason (self, flag);
  set_row_gate (ADW_PREFERENCES_ROW (row), supported, reason);
}

static void
kiste_create_dialog_update_rows (KisteCreateDialog *self)
{
  KisteCreateOptions *options = self->options;
  gboolean home_isolation = supports_flag (self, "--unshare-home");
  gboolean all_supported = supports_flag (self, "--unshare-all");
  gboolean init = FALSE;
  gboolean all = FALSE;

  /* options that this distrobox cannot do are off, not silently kept */
  if (!all_supported)
    kiste_create_options_set_unshare_all (options, FALSE);
  if (!supports_flag (self, "--init"))
    kiste_create_options_set_init (options, FALSE);
  if (!supports_flag (self, "--nvidia"))
    kiste_create_options_set_nvidia (options, FALSE);
  if (!supports_flag (self, "--pull"))
    kiste_create_options_set_pull (options, FALSE);
  if (!supports_flag (self, "--home"))
    kiste_create_options_set_home (options, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (unshare_info); i++)
    if (!supports_flag (self, unshare_info[i].flag))
      kiste_create_options_set_unshare (options, unshare_info[i].what, FALSE);

  init = kiste_create_options_get_init (options);
  all = kiste_create_options_get_unshare_all (options);

  update_switch_gate (self, self->unshare_all_row, "--unshare-all",
                      home_isolation
                      ? _("Turns on every switch below")
                      : _("Turns on every switch below except the home folder"));
  set_switch (self, self->unshare_all_row, all);

  update_switch_gate (self, self->init_row, "--init",
                      _("Runs systemd or another init system in the box, so services can run. "
                        "Needs an image that has one, and starts slower"));
  set_switch (self, self->init_row, init);

  update_switch_gate (self, self->nvidia_row, "--nvidia",
                      self->nvidia_found
                      ? _("NVIDIA graphics found on this computer. Makes its driver available "
                          "in the box")
                      : _("Makes the NVIDIA driver of this computer available in the box"));
  set_switch (self, self->nvidia_row, kiste_create_options_get_nvidia (options));

  update_switch_gate (self, self->pull_row, "--pull",
                      _("Gets the newest version of the image even when it is on this computer "
                        "already"));
  set_switch (self, self->pull_row, kiste_create_options_get_pull (options));

  update_switch_gate (self, self->menu_row, "--no-entry",
                      _("Adds a launcher that opens a terminal in the box"));
  set_switch (self, self->menu_row, kiste_create_options_get_add_to_menu (options));

  for (guint i = 0; i < G_N_ELEMENTS (unshare_info); i++)
    {
      KisteUnshare what = unshare_info[i].what;
      AdwSwitchRow *row = self->unshare_rows[what];
      gboolean by_init = init && (what == KISTE_UNSHARE_PROCESS || what == KISTE_UNSHARE_GROUPS);
      gboolean by_all = all && (what != KISTE_UNSHARE_HOME || home_isolation);

      if (!supports_flag (self, unshare_info[i].flag))
        {
          g_autofree char *reason = dup_reason (self, unshare_info[i].flag);
          g_autofree char *details = NULL;
          g_autofree char *subtitle = NULL;

          if (kiste_capabilities_get_loaded (get_caps (self)))
            details = kiste_capabilities_dup_unsupported_details (get_caps (self),
                                                                  unshare_info[i].flag);
          subtitle = details ? g_strdup_printf ("%s. %s", reason, details) : g_strdup (reason);

          set_row_gate (ADW_PREFERENCES_ROW (row), FALSE, reason);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
          set_switch (self, row, FALSE);
        }
      else if (by_all || by_init)
        {
          /* shown on and locked: the option itself keeps what people chose */
          set_row_gate (ADW_PREFERENCES_ROW (row), FALSE, NULL);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row),
                                       by_init
                                       ? _("Needed by the init system")
                                       : _("Included in “Isolate Everything”"));
          set_switch (self, row, TRUE);
        }
      else
        {
          set_row_gate (ADW_PREFERENCES_ROW (row), TRUE, NULL);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _(unshare_info[i].subtitle));
          set_switch (self, row, kiste_create_options_get_unshare (options, what));
        }
    }

  update_entry_gate (self, GTK_WIDGET (self->hostname_row), "--hostname");
  update_entry_gate (self, GTK_WIDGET (self->platform_row), "--platform");
  update_entry_gate (self, GTK_WIDGET (self->packages_row), "--additional-packages");
  update_entry_gate (self, GTK_WIDGET (self->init_hooks_row), "--init-hooks");
  update_entry_gate (self, GTK_WIDGET (self->pre_init_hooks_row), "--pre-init-hooks");
  update_entry_gate (self, GTK_WIDGET (self->volumes_expander), "--volume");
  update_switch_gate (self, self->home_switch_row, "--home",
                      home_isolation
                      ? _("Programs in the box still see your home folder unless home isolation "
                          "is on")
                      : NULL);
  if (!home_isolation && supports_flag (self, "--home"))
    {
      g_autofree char *details = NULL;

      if (kiste_capabilities_get_loaded (get_caps (self)))
        details = kiste_capabilities_dup_unsupported_details (get_caps (self), "--unshare-home");
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self->home_switch_row),
                                   details
                                   ? details
                                   : _("The box keeps its settings and files there. Programs "
                                       "in the box still see your home folder"));
    }

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

static void
kiste_create_dialog_changed (KisteCreateDialog *self)
{
  kiste_create_dialog_update_rows (self);
  kiste_create_dialog_validate (self);
}

/* Reading the form ------------------------------------------------------ */

static void
touch (KisteCreateDialog *self,
       KisteCreateField   field)
{
  self->touched |= 1u << field;
}

static void
kiste_create_dialog_name_changed_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  touch (self, KISTE_CREATE_FIELD_NAME);
  kiste_create_options_set_name (self->options, entry_text (self->name_row));
  /* an empty name follows the image again */
  if (entry_text (self->name_row)[0] == '\0')
    {
      g_clear_pointer (&self->suggested_name, g_free);
      self->suggested_name = g_strdup ("");
    }
  kiste_create_dialog_suggest_home (self);
  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_image_changed_cb (KisteCreateDialog *self)
{
  const char *image = entry_text (self->image_row);

  gtk_image_set_from_icon_name (self->image_icon,
                                kiste_distro_icon_name (kiste_distro_id_for_image (image)));
  if (self->updating)
    return;

  touch (self, KISTE_CREATE_FIELD_IMAGE);
  kiste_create_options_set_image (self->options, image);
  kiste_create_dialog_suggest_name (self);
  kiste_create_dialog_suggest_home (self);
  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_home_switch_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  if (adw_switch_row_get_active (self->home_switch_row))
    {
      if (entry_text (self->home_row)[0] == '\0')
        {
          g_clear_pointer (&self->suggested_home, g_free);
          self->suggested_home = g_strdup ("");
        }
      kiste_create_options_set_home (self->options, entry_text (self->home_row));
      kiste_create_dialog_suggest_home (self);
    }
  else
    kiste_create_options_set_home (self->options, NULL);

  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_home_changed_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  touch (self, KISTE_CREATE_FIELD_HOME);
  if (adw_switch_row_get_active (self->home_switch_row))
    kiste_create_options_set_home (self->options, entry_text (self->home_row));
  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_entry_changed_cb (KisteCreateDialog *self,
                                      AdwEntryRow       *row)
{
  const char *text = entry_text (row);

  if (self->updating)
    return;

  if (row == self->hostname_row)
    {
      touch (self, KISTE_CREATE_FIELD_HOSTNAME);
      kiste_create_options_set_hostname (self->options, text);
    }
  else if (row == self->platform_row)
    {
      touch (self, KISTE_CREATE_FIELD_PLATFORM);
      kiste_create_options_set_platform (self->options, text);
    }
  else if (row == self->packages_row)
    {
      const char *packages[] = { text, NULL };

      touch (self, KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES);
      kiste_create_options_set_additional_packages (self->options, text[0] ? packages : NULL);
    }
  else if (row == self->init_hooks_row)
    {
      touch (self, KISTE_CREATE_FIELD_INIT_HOOKS);
      kiste_create_options_set_init_hooks (self->options, text);
    }
  else if (row == self->pre_init_hooks_row)
    {
      touch (self, KISTE_CREATE_FIELD_PRE_INIT_HOOKS);
      kiste_create_options_set_pre_init_hooks (self->options, text);
    }

  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_switch_cb (KisteCreateDialog *self,
                               GParamSpec        *pspec,
                               AdwSwitchRow      *row)
{
  gboolean active = adw_switch_row_get_active (row);

  if (self->updating)
    return;

  if (row == self->nvidia_row)
    kiste_create_options_set_nvidia (self->options, active);
  else if (row == self->pull_row)
    kiste_create_options_set_pull (self->options, active);
  else if (row == self->menu_row)
    kiste_create_options_set_add_to_menu (self->options, active);

  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_unshare_cb (KisteCreateDialog *self,
                                GParamSpec        *pspec,
                                AdwSwitchRow      *row)
{
  if (self->updating)
    return;

  for (guint i = 0; i < KISTE_N_UNSHARE; i++)
    if (self->unshare_rows[i] == row)
      kiste_create_options_set_unshare (self->options, i, adw_switch_row_get_active (row));

  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_unshare_all_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  kiste_create_options_set_unshare_all (self->options,
                                        adw_switch_row_get_active (self->unshare_all_row));
  kiste_create_dialog_changed (self);
}

static void
kiste_create_dialog_init_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  kiste_create_options_set_init (self->options, adw_switch_row_get_active (self->init_row));
  kiste_create_dialog_changed (self);
}

/* Volumes ---------------------------------------------------------------- */

static void
sync_volumes (KisteCreateDialog *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) volumes = NULL;

  for (guint i = 0; i < self->volume_rows->len; i++)
    {
      g_autofree char *spec = kiste_volume_row_dup_spec (g_ptr_array_index (self->volume_rows, i));

      if (spec != NULL)
        g_strv_builder_add (builder, spec);
    }
  volumes = g_strv_builder_end (builder);
  kiste_create_options_set_volumes (self->options, (const char * const *) volumes);
}

static void
volume_row_changed_cb (KisteCreateDialog *self)
{
  if (self->updating)
    return;

  touch (self, KISTE_CREATE_FIELD_VOLUMES);
  sync_volumes (self);
  kiste_create_dialog_changed (self);
}

static void
volume_row_remove_cb (KisteCreateDialog *self,
                      KisteVolumeRow    *row)
{
  g_ptr_array_remove (self->volume_rows, row);
  adw_expander_row_remove (self->volumes_expander, GTK_WIDGET (row));
  sync_volumes (self);
  kiste_create_dialog_changed (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->add_volume_row));
}

static void choose_folder (KisteCreateDialog *self,
                           KisteVolumeRow    *row);

static void
volume_row_choose_cb (KisteCreateDialog *self,
                      KisteVolumeRow    *row)
{
  choose_folder (self, row);
}

static KisteVolumeRow *
add_volume_row (KisteCreateDialog *self,
                const char        *spec)
{
  g_autoptr(GtkWidget) error_row = g_object_ref (self->volumes_error_row);
  g_autoptr(GtkWidget) button_row = g_object_ref (GTK_WIDGET (self->add_volume_row));
  KisteVolumeRow *row = kiste_volume_row_new ();

  /* new rows go above the error and the "Add Volume" button */
  adw_expander_row_remove (self->volumes_expander, error_row);
  adw_expander_row_remove (self->volumes_expander, button_row);
  adw_expander_row_add_row (self->volumes_expander, GTK_WIDGET (row));
  adw_expander_row_add_row (self->volumes_expander, error_row);
  adw_expander_row_add_row (self->volumes_expander, button_row);
  g_ptr_array_add (self->volume_rows, row);

  if (spec != NULL)
    kiste_volume_row_set_spec (row, spec);

  g_signal_connect_object (row, "changed", G_CALLBACK (volume_row_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "remove", G_CALLBACK (volume_row_remove_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (row, "choose-host-folder", G_CALLBACK (volume_row_choose_cb), self,
                           G_CONNECT_SWAPPED);
  return row;
}

static void
kiste_create_dialog_add_volume_cb (KisteCreateDialog *self)
{
  KisteVolumeRow *row = add_volume_row (self, NULL);

  adw_expander_row_set_expanded (self->volumes_expander, TRUE);
  kiste_create_dialog_update_rows (self);
  /* the path can be typed or picked with the row's folder button */
  gtk_widget_grab_focus (GTK_WIDGET (row));
}

/* Folder pickers and the Documents portal ------------------------------- */

typedef struct
{
  KisteCreateDialog *self;
  KisteVolumeRow    *row;
} PickData;

static void
pick_data_free (PickData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->row);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PickData, pick_data_free)

static void
apply_picked_folder (PickData   *data,
                     const char *path,
                     GError     *error)
{
  KisteCreateDialog *self = data->self;

  if (data->row != NULL)
    {
      if (error != NULL)
        {
          kiste_volume_row_set_error (data->row, error->message);
          return;
        }
      kiste_volume_row_set_host_path (data->row, path);
      /* the same path in the box is the usual choice */
      if (kiste_volume_row_get_box_path (data->row)[0] == '\0')
        kiste_volume_row_set_box_path (data->row, path);
      return;
    }

  if (error != NULL)
    {
      set_field_error (self, &self->views[VIEW_HOME], error->message);
      return;
    }
  touch (self, KISTE_CREATE_FIELD_HOME);
  gtk_editable_set_text (GTK_EDITABLE (self->home_row), path);
}

static void
picked_folder_resolved_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(PickData) data = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (is_gone (data->self))
    return;

  path = kiste_portal_resolve_host_path_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  apply_picked_folder (data, path, error);
}

static void
folder_chosen_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PickData) data = user_data;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (is_gone (data->self))
    return;

  folder = gtk_file_dialog_select_folder_finish (GTK_FILE_DIALOG (object), result, &error);
  if (folder == NULL)
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED))
        show_toast (data->self, error->message);
      return;
    }

  if (!(path = g_file_get_path (folder)))
    {
      show_toast (data->self, _("Choose a folder on this computer"));
      return;
    }

  kiste_portal_resolve_host_path_async (path, data->self->cancellable,
                                               picked_folder_resolved_cb,
                                               g_steal_pointer (&data));
}

static void
choose_folder (KisteCreateDialog *self,
               KisteVolumeRow    *row)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GFile) initial = NULL;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  const char *current;
  PickData *data;

  gtk_file_dialog_set_modal (dialog, TRUE);
  if (row != NULL)
    {
      gtk_file_dialog_set_title (dialog, _("Choose a Folder for the Box"));
      current = kiste_volume_row_get_host_path (row);
    }
  else
    {
      gtk_file_dialog_set_title (dialog, _("Choose a Home Folder"));
      current = entry_text (self->home_row);
    }

  if (current != NULL && g_path_is_absolute (current) &&
      g_file_test (current, G_FILE_TEST_IS_DIR))
    initial = g_file_new_for_path (current);
  else
    initial = g_file_new_for_path (g_get_home_dir ());
  gtk_file_dialog_set_initial_folder (dialog, initial);

  data = g_new0 (PickData, 1);
  data->self = g_object_ref (self);
  data->row = row ? g_object_ref (row) : NULL;
  gtk_file_dialog_select_folder (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 self->cancellable, folder_chosen_cb, data);
}

static void
kiste_create_dialog_home_choose_cb (KisteCreateDialog *self)
{
  choose_folder (self, NULL);
}

/* Images ------------------------------------------------------------------ */

static void
kiste_create_dialog_image_chosen_cb (KisteCreateDialog *self,
                                     const char        *image)
{
  gtk_editable_set_text (GTK_EDITABLE (self->image_row), image);
  gtk_widget_grab_focus (GTK_WIDGET (self->image_row));
}

/* Filling the form ------------------------------------------------------ */

void
kiste_create_dialog_set_options (KisteCreateDialog  *self,
                                 KisteCreateOptions *options)
{
  g_autofree char *packages = NULL;
  const char * const *volumes;
  const char *clone_source;

  g_return_if_fail (KISTE_IS_CREATE_DIALOG (self));
  g_return_if_fail (KISTE_IS_CREATE_OPTIONS (options));

  g_clear_object (&self->options);
  self->options = kiste_create_options_copy (options);

  /* prefilled values are people's own: no more suggestions over them */
  g_clear_pointer (&self->suggested_name, g_free);
  g_clear_pointer (&self->suggested_home, g_free);

  set_entry_text (self, self->name_row, kiste_create_options_get_name (options));
  set_entry_text (self, self->image_row, kiste_create_options_get_image (options));
  gtk_image_set_from_icon_name (self->image_icon,
                                kiste_distro_icon_name (kiste_distro_id_for_image (
                                  kiste_create_options_get_image (options))));

  clone_source = kiste_create_options_get_clone_source (options);
  gtk_widget_set_visible (GTK_WIDGET (self->image_row), clone_source == NULL || !clone_source[0]);
  gtk_widget_set_visible (GTK_WIDGET (self->clone_row), clone_source != NULL && clone_source[0]);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self->clone_row), clone_source ? clone_source : "");
  if (gtk_widget_get_visible (GTK_WIDGET (self->clone_row)))
    adw_dialog_set_title (ADW_DIALOG (self), _("Clone Box"));

  set_switch (self, self->home_switch_row,
              kiste_create_options_get_home (options) != NULL &&
              kiste_create_options_get_home (options)[0] != '\0');
  set_entry_text (self, self->home_row, kiste_create_options_get_home (options));
  set_entry_text (self, self->hostname_row, kiste_create_options_get_hostname (options));
  set_entry_text (self, self->platform_row, kiste_create_options_get_platform (options));
  set_entry_text (self, self->init_hooks_row, kiste_create_options_get_init_hooks (options));
  set_entry_text (self, self->pre_init_hooks_row, kiste_create_options_get_pre_init_hooks (options));

  packages = g_strjoinv (" ", (char **) kiste_create_options_get_additional_packages (options));
  set_entry_text (self, self->packages_row, packages);

  while (self->volume_rows->len > 0)
    {
      GtkWidget *row = g_ptr_array_steal_index (self->volume_rows, 0);

      adw_expander_row_remove (self->volumes_expander, row);
    }
  volumes = kiste_create_options_get_volumes (options);
  self->updating++;
  for (guint i = 0; volumes != NULL && volumes[i] != NULL; i++)
    add_volume_row (self, volumes[i]);
  self->updating--;

  kiste_create_dialog_changed (self);
}

/* distrobox.ini ------------------------------------------------------------- */

static void
apply_assemble_entry (KisteCreateDialog  *self,
                      KisteAssembleEntry *entry)
{
  g_autoptr(GStrvBuilder) notes = g_strv_builder_new ();
  g_auto(GStrv) all = NULL;
  g_autofree char *toast = NULL;

  if (entry->error != NULL)
    g_strv_builder_add (notes, entry->error);
  for (guint i = 0; entry->warnings != NULL && entry->warnings[i] != NULL; i++)
    g_strv_builder_add (notes, entry->warnings[i]);
  if ((entry->exported_apps != NULL && entry->exported_apps[0] != NULL) ||
      (entry->exported_bins != NULL && entry->exported_bins[0] != NULL))
    g_strv_builder_add (notes, _("Apps and programs to export are left out: export them once "
                                 "the box is ready."));
  all = g_strv_builder_end (notes);

  g_clear_pointer (&self->notice, g_free);
  if (all[0] != NULL)
    self->notice = g_strjoinv (" ", all);

  kiste_create_dialog_set_options (self, entry->options);

  toast = g_strdup_printf (_("Settings of “%s” filled in"), entry->section);
  show_toast (self, toast);
}

static void
assemble_row_activated_cb (GtkListBox    *list,
                           GtkListBoxRow *row,
                           AdwDialog     *alert)
{
  KisteCreateDialog *self = g_object_get_data (G_OBJECT (alert), "dialog");
  GPtrArray *entries = g_object_get_data (G_OBJECT (alert), "entries");
  int index = gtk_list_box_row_get_index (row);

  if (index >= 0 && (guint) index < entries->len)
    apply_assemble_entry (self, g_ptr_array_index (entries, index));
  adw_dialog_close (alert);
}

static void
create_all_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  /* the task list and the window's toast say what failed */
  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_debug ("Creating the boxes of a manifest stopped: %s", error->message);
}

/* Creates every box of the manifest, or none when one is wrong */
static gboolean
kiste_create_dialog_create_all (KisteCreateDialog *self,
                                GPtrArray         *entries)
{
  g_autoptr(GPtrArray) problems = kiste_manager_check_entries (self->manager, entries);

  for (guint i = 0; i < problems->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char *problem = g_ptr_array_index (problems, i);

      if (problem != NULL)
        {
          g_autofree char *message = g_strdup_printf (_("“%s” cannot be created: %s"),
                                                      entry->section, problem);

          show_toast (self, message);
          return FALSE;
        }
    }

  kiste_manager_create_all_async (self->manager, entries, NULL, create_all_cb, NULL);
  return TRUE;
}

static void
assemble_response_cb (AdwAlertDialog *alert,
                      const char     *response)
{
  KisteCreateDialog *self = g_object_get_data (G_OBJECT (alert), "dialog");
  GPtrArray *entries = g_object_get_data (G_OBJECT (alert), "entries");

  if (!g_str_equal (response, "create-all") || is_gone (self))
    return;

  /* the boxes are followed in the task list from here */
  if (kiste_create_dialog_create_all (self, entries))
    adw_dialog_close (ADW_DIALOG (self));
}

static void
choose_assemble_entry (KisteCreateDialog *self,
                       GPtrArray         *entries)
{
  g_autoptr(GPtrArray) problems = kiste_manager_check_entries (self->manager, entries);
  g_autofree char *body = NULL;
  gboolean all_valid = TRUE;
  gboolean exports = FALSE;
  AdwDialog *alert;
  GtkWidget *list;

  for (guint i = 0; i < problems->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);

      if (g_ptr_array_index (problems, i) != NULL)
        all_valid = FALSE;
      if ((entry->exported_apps != NULL && entry->exported_apps[0] != NULL) ||
          (entry->exported_bins != NULL && entry->exported_bins[0] != NULL))
        exports = TRUE;
    }

  body = g_strdup (all_valid
                   ? _("This file describes several boxes. Choose the one to fill in, or "
                       "create them all as they are.")
                   : _("This file describes several boxes. Choose the one to fill in. Some "
                       "cannot be created as written, so they cannot all be created at once."));
  if (exports)
    {
      char *with_exports = g_strjoin (" ", body,
                                      _("Apps and programs to export are left out: export them "
                                        "once the box is ready."),
                                      NULL);

      g_free (body);
      body = with_exports;
    }
  alert = adw_alert_dialog_new (_("Which Box?"), body);
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (alert),
                                  "cancel", _("_Cancel"),
                                  "create-all", _("Create _All"),
                                  NULL);
  adw_alert_dialog_set_response_enabled (ADW_ALERT_DIALOG (alert), "create-all", all_valid);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), "create-all",
                                            ADW_RESPONSE_SUGGESTED);
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");

  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_accessible_update_property (GTK_ACCESSIBLE (list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Boxes"),
                                  -1);
  for (guint i = 0; i < entries->len; i++)
    {
      KisteAssembleEntry *entry = g_ptr_array_index (entries, i);
      const char *image = kiste_create_options_get_image (entry->options);
      const char *problem = g_ptr_array_index (problems, i);
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), entry->section);
      /* what is wrong is said where the box is; it can be fixed in the form */
      if (problem != NULL)
        {
          GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

          gtk_widget_add_css_class (icon, "warning");
          gtk_accessible_update_property (GTK_ACCESSIBLE (icon),
                                          GTK_ACCESSIBLE_PROPERTY_LABEL, _("Needs changes"),
                                          -1);
          adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), problem);
        }
      else
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), image ? image : "");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name (
                                   kiste_distro_icon_name (kiste_distro_id_for_image (image))));
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), gtk_image_new_from_icon_name ("go-next-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  adw_alert_dialog_set_extra_child (ADW_ALERT_DIALOG (alert), list);

  g_object_set_data_full (G_OBJECT (alert), "entries", g_ptr_array_ref (entries),
                          (GDestroyNotify) g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (alert), "dialog", g_object_ref (self), g_object_unref);
  g_signal_connect_object (list, "row-activated", G_CALLBACK (assemble_row_activated_cb), alert, 0);
  g_signal_connect (alert, "response", G_CALLBACK (assemble_response_cb), NULL);
  adw_dialog_present (alert, GTK_WIDGET (self));
}

gboolean
kiste_create_dialog_import_assemble (KisteCreateDialog  *self,
                                     const char         *data,
                                     gssize              length,
                                     GError            **error)
{
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_DIALOG (self), FALSE);
  g_return_val_if_fail (data != NULL, FALSE);

  if (!(entries = kiste_assemble_parse (data, length, error)))
    return FALSE;

  if (entries->len == 0)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT,
                           _("The file describes no box."));
      return FALSE;
    }

  if (self->state != STATE_FORM)
    {
      g_set_error_literal (error, KISTE_ERROR, KISTE_ERROR_BUSY,
                           _("A box is being created. Import once it is done."));
      return FALSE;
    }

  if (entries->len == 1)
    apply_assemble_entry (self, g_ptr_array_index (entries, 0));
  else
    choose_assemble_entry (self, entries);

  return TRUE;
}

static void
assemble_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  if (is_gone (self))
    return;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error) ||
      !kiste_create_dialog_import_assemble (self, contents, length, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, error->message);
    }
}

static void
assemble_chosen_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (is_gone (self))
    return;

  if (!(file = gtk_file_dialog_open_finish (GTK_FILE_DIALOG (object), result, &error)))
    {
      if (!g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_DISMISSED) &&
          !g_error_matches (error, GTK_DIALOG_ERROR, GTK_DIALOG_ERROR_CANCELLED))
        show_toast (self, error->message);
      return;
    }

  /* a manifest is only read here, never run */
  g_file_load_contents_async (file, self->cancellable, assemble_loaded_cb, g_object_ref (self));
}

static void
kiste_create_dialog_import_cb (KisteCreateDialog *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();
  g_autoptr(GListStore) filters = g_list_store_new (GTK_TYPE_FILE_FILTER);
  g_autoptr(GtkFileFilter) manifests = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) everything = gtk_file_filter_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  gtk_file_filter_set_name (manifests, _("distrobox Manifests"));
  gtk_file_filter_add_pattern (manifests, "*.ini");
  gtk_file_filter_set_name (everything, _("All Files"));
  gtk_file_filter_add_pattern (everything, "*");
  g_list_store_append (filters, manifests);
  g_list_store_append (filters, everything);

  gtk_file_dialog_set_title (dialog, _("Import Settings from distrobox.ini"));
  gtk_file_dialog_set_modal (dialog, TRUE);
  gtk_file_dialog_set_filters (dialog, G_LIST_MODEL (filters));
  gtk_file_dialog_set_default_filter (dialog, manifests);
  gtk_file_dialog_open (dialog, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                        self->cancellable, assemble_chosen_cb, g_object_ref (self));
}

static void
kiste_create_dialog_banner_clicked_cb (KisteCreateDialog *self)
{
  g_clear_pointer (&self->notice, g_free);
  kiste_create_dialog_validate (self);
}

/* Progress ---------------------------------------------------------------- */

static void
set_state (KisteCreateDialog *self,
           DialogState        state)
{
  self->state = state;

  adw_dialog_set_can_close (ADW_DIALOG (self), state != STATE_RUNNING);
  gtk_widget_set_visible (GTK_WIDGET (self->create_button), state == STATE_FORM);
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), TRUE);
  gtk_button_set_label (self->cancel_button, state == STATE_FAILED ? _("_Close") : _("_Cancel"));
  gtk_stack_set_visible_child_name (self->stack, state == STATE_FORM ? "form" : "progress");

  if (state != STATE_RUNNING)
    kiste_create_progress_stop (self->progress);

  switch (state)
    {
    case STATE_FORM:
      /* A prefilled clone is a copy, not a new box */
      adw_dialog_set_title (ADW_DIALOG (self),
                            gtk_widget_get_visible (GTK_WIDGET (self->clone_row)) ? _("Clone Box")
                                                                                  : _("New Box"));
      adw_dialog_set_default_widget (ADW_DIALOG (self), GTK_WIDGET (self->create_button));
      break;

    case STATE_RUNNING:
      adw_dialog_set_title (ADW_DIALOG (self), _("Creating Box"));
      adw_dialog_set_default_widget (ADW_DIALOG (self), NULL);
      break;

    case STATE_FAILED:
      adw_dialog_set_default_widget (ADW_DIALOG (self), kiste_create_progress_get_retry_button (self->progress));
      break;

    default:
      g_assert_not_reached ();
    }

  set_can_create (self, self->can_create);
}

static void
kiste_create_dialog_succeeded (KisteCreateDialog *self)
{
  g_autofree char *name = g_strdup (self->running_name);

  kiste_create_progress_succeeded (self->progress);
  set_state (self, STATE_FORM);

  g_signal_emit (self, signals[CREATED], 0, name);
  adw_dialog_close (ADW_DIALOG (self));
}

/* The manager lists the boxes again before a create fails, so the list
 * says whether a box was left behind */
static void
show_failure (KisteCreateDialog *self,
              const GError      *error)
{
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gboolean exists = kiste_box_store_find_by_name (kiste_manager_get_store (self->manager),
                                                  self->running_name) != NULL;

  set_state (self, STATE_FAILED);
  kiste_create_progress_failed (self->progress, error, exists);
  adw_dialog_set_title (ADW_DIALOG (self), cancelled ? _("Creation Stopped") : _("Creation Failed"));
  gtk_widget_grab_focus (kiste_create_progress_get_retry_button (self->progress));
}

static void
created_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (is_gone (self))
    return;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      if (self->state == STATE_RUNNING)
        show_failure (self, error);
      return;
    }

  if (self->state == STATE_RUNNING)
    kiste_create_dialog_succeeded (self);
}

static void
creation_step_cb (KisteTask         *task,
                  KisteCreationStep  step,
                  gpointer           user_data)
{
  KisteCreateDialog *self = user_data;

  if (is_gone (self) || self->state != STATE_RUNNING)
    return;

  kiste_create_progress_follow (self->progress, task, step);
}

static void
kiste_create_dialog_start (KisteCreateDialog *self)
{
  g_autoptr(KisteCreateOptions) options = NULL;
  const char *image;
  const char *clone_source;
  gboolean image_local;

  kiste_create_dialog_validate (self);
  if (!self->can_create || self->state != STATE_FORM)
    return;

  options = kiste_create_options_copy (self->options);
  g_free (self->running_name);
  self->running_name = g_strdup (kiste_create_options_get_name (options));
  image = kiste_create_options_get_image (options);
  clone_source = kiste_create_options_get_clone_source (options);

  g_clear_object (&self->run_cancellable);
  self->run_cancellable = g_cancellable_new ();

  /* a clone copies a box; it needs no image */
  image_local = (clone_source != NULL && clone_source[0]) ||
                kiste_image_chooser_is_downloaded (self->image_chooser, image);
  kiste_create_progress_begin (self->progress, options, image_local);
  set_state (self, STATE_RUNNING);

  kiste_manager_create_and_start_async (self->manager, options,
                                        creation_step_cb, g_object_ref (self), g_object_unref,
                                        self->run_cancellable, created_cb, g_object_ref (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->cancel_button));
}

/* Buttons ---------------------------------------------------------------- */

static void
kiste_create_dialog_create_clicked_cb (KisteCreateDialog *self)
{
  kiste_create_dialog_start (self);
}

static void
kiste_create_dialog_cancel_clicked_cb (KisteCreateDialog *self)
{
  if (self->state != STATE_RUNNING)
    {
      adw_dialog_close (ADW_DIALOG (self));
      return;
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
  kiste_create_progress_stopping (self->progress);
  g_cancellable_cancel (self->run_cancellable);
  if (kiste_create_progress_get_task (self->progress) != NULL)
    kiste_task_cancel (kiste_create_progress_get_task (self->progress));
}

static void
kiste_create_dialog_close_attempt_cb (KisteCreateDialog *self)
{
  if (self->state == STATE_RUNNING)
    show_toast (self, _("The box is still being created. Press Cancel to stop."));
}

static void
kiste_create_dialog_retry_cb (KisteCreateDialog *self)
{
  set_state (self, STATE_FORM);
  kiste_create_dialog_changed (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->name_row));
}

static void
delete_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KisteCreateDialog) self = user_data;
  g_autoptr(GError) error = NULL;

  if (is_gone (self))
    return;

  kiste_create_progress_set_deleting (self->progress, FALSE);

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_toast (self, error->message);
      return;
    }

  kiste_create_progress_deleted (self->progress);
  show_toast (self, _("Box deleted"));
}

static void
delete_response_cb (AdwAlertDialog    *alert,
                    const char        *response,
                    KisteCreateDialog *self)
{
  if (!g_str_equal (response, "delete"))
    return;

  kiste_create_progress_set_deleting (self->progress, TRUE);
  /* no cancellable: closing the dialog must not stop a deletion half-way */
  kiste_manager_delete_async (self->manager, self->running_name, FALSE, NULL,
                              delete_cb, g_object_ref (self));
}

static void
kiste_create_dialog_delete_cb (KisteCreateDialog *self)
{
  AdwDialog *alert;

  alert = adw_alert_dialog_new (NULL, NULL);
  adw_alert_dialog_format_heading (ADW_ALERT_DIALOG (alert), _("Delete “%s”?"), self->running_name);
  adw_alert_dialog_set_body (ADW_ALERT_DIALOG (alert),
                             _("The box and everything installed in it are removed. Files in "
                               "its home folder are kept."));
  adw_alert_dialog_add_responses (ADW_ALERT_DIALOG (alert),
                                  "cancel", _("_Cancel"),
                                  "delete", _("_Delete"),
                                  NULL);
  adw_alert_dialog_set_response_appearance (ADW_ALERT_DIALOG (alert), "delete",
                                            ADW_RESPONSE_DESTRUCTIVE);
  adw_alert_dialog_set_default_response (ADW_ALERT_DIALOG (alert), "cancel");
  adw_alert_dialog_set_close_response (ADW_ALERT_DIALOG (alert), "cancel");
  g_signal_connect_object (alert, "response", G_CALLBACK (delete_response_cb), self, 0);
  adw_dialog_present (alert, GTK_WIDGET (self));
}

static void
kiste_create_dialog_copy_command_cb (KisteCreateDialog *self)
{
  if (self->command == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->command);
  show_toast (self, _("Command copied"));
}

/* GObject ------------------------------------------------------------------ */

static void
store_changed_cb (KisteCreateDialog *self)
{
  if (self->state == STATE_FORM)
    kiste_create_dialog_validate (self);
}

static void
kiste_create_dialog_constructed (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->constructed (object);

  g_assert (KISTE_IS_MANAGER (self->manager));

  g_signal_connect_object (kiste_manager_get_store (self->manager), "items-changed",
                           G_CALLBACK (store_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (get_caps (self), "notify::loaded",
                           G_CALLBACK (kiste_create_dialog_changed), self, G_CONNECT_SWAPPED);

  /* graphics drivers are a good guess, not a rule */
  self->nvidia_found = g_file_test ("/proc/driver/nvidia", G_FILE_TEST_EXISTS) ||
                       g_file_test ("/dev/nvidia0", G_FILE_TEST_EXISTS);
  if (self->nvidia_found && supports_flag (self, "--nvidia"))
    kiste_create_options_set_nvidia (self->options, TRUE);

  kiste_image_chooser_load (self->image_chooser, self->manager, self->cancellable);
  kiste_create_dialog_changed (self);
}

/* Whatever still runs for this dialog stops; late results are dropped */
static void
kiste_create_dialog_stop_everything (KisteCreateDialog *self)
{
  g_cancellable_cancel (self->cancellable);
  if (self->run_cancellable != NULL)
    g_cancellable_cancel (self->run_cancellable);
  if (self->progress != NULL)
    {
      KisteTask *task = kiste_create_progress_get_task (self->progress);

      if (task != NULL && kiste_task_get_running (task))
        kiste_task_cancel (task);
      kiste_create_progress_stop (self->progress);
    }
}

/* Closing stops what still runs for the dialog. While a box is being
 * created only a forced close gets here: its window went away. */
static void
kiste_create_dialog_closed (AdwDialog *dialog)
{
  kiste_create_dialog_stop_everything (KISTE_CREATE_DIALOG (dialog));

  if (ADW_DIALOG_CLASS (kiste_create_dialog_parent_class)->closed)
    ADW_DIALOG_CLASS (kiste_create_dialog_parent_class)->closed (dialog);
}

static void
kiste_create_dialog_dispose (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  kiste_create_dialog_stop_everything (self);

  gtk_widget_dispose_template (GTK_WIDGET (object), KISTE_TYPE_CREATE_DIALOG);

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->dispose (object);
}

static void
kiste_create_dialog_finalize (GObject *object)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  g_clear_object (&self->manager);
  g_clear_object (&self->options);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_cancellable);
  g_clear_pointer (&self->volume_rows, g_ptr_array_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->running_name, g_free);
  g_clear_pointer (&self->suggested_name, g_free);
  g_clear_pointer (&self->suggested_home, g_free);
  g_clear_pointer (&self->notice, g_free);

  G_OBJECT_CLASS (kiste_create_dialog_parent_class)->finalize (object);
}

static void
kiste_create_dialog_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_CAN_CREATE:
      g_value_set_boolean (value, self->can_create);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_create_dialog_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KisteCreateDialog *self = KISTE_CREATE_DIALOG (object);

  switch (prop_id)
    {
    case PROP_MANAGER:
      self->manager = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_create_dialog_class_init (KisteCreateDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kiste_create_dialog_constructed;
  object_class->dispose = kiste_create_dialog_dispose;
  object_class->finalize = kiste_create_dialog_finalize;
  object_class->get_property = kiste_create_dialog_get_property;
  object_class->set_property = kiste_create_dialog_set_property;

  ADW_DIALOG_CLASS (klass)->closed = kiste_create_dialog_closed;

  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL,
                         KISTE_TYPE_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_CREATE] =
    g_param_spec_boolean ("can-create", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * KisteCreateDialog::created:
   * @box_name: the new box
   *
   * The box was created and has finished its first start.
   */
  signals[CREATED] =
    g_signal_new ("created",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (KISTE_TYPE_CREATE_PROGRESS);
  g_type_ensure (KISTE_TYPE_IMAGE_CHOOSER);
  g_type_ensure (KISTE_TYPE_VOLUME_ROW);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-create-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, create_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, banner);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, form_page);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, name_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, name_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_icon);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, image_chooser);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, clone_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_switch_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_choose_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, home_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, unshare_all_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, devsys_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, groups_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, ipc_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, netns_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, process_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, unshare_home_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, system_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, nvidia_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, hostname_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, platform_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pull_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, menu_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, volumes_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, add_volume_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, setup_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, packages_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, init_hooks_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_error_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, pre_init_hooks_error);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, command_expander);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, command_label);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, import_row);
  gtk_widget_class_bind_template_child (widget_class, KisteCreateDialog, progress);

  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_close_attempt_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_cancel_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_create_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_name_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_image_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_image_chosen_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_home_switch_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_home_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_home_choose_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_unshare_all_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_unshare_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_init_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_switch_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_entry_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_add_volume_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_copy_command_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_import_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_banner_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_delete_cb);
  gtk_widget_class_bind_template_callback (widget_class, kiste_create_dialog_retry_cb);
}

static void
init_view (FieldView        *view,
           KisteCreateField  field,
           gpointer          input,
           GtkLabel         *label,
           gpointer          label_host,
           AdwExpanderRow   *expander)
{
  view->field = field;
  view->input = input;
  view->label = label;
  view->label_host = label_host ? label_host : GTK_WIDGET (label);
  view->expander = expander;
}

static void
kiste_create_dialog_init (KisteCreateDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->options = kiste_create_options_new ();
  self->cancellable = g_cancellable_new ();
  self->volume_rows = g_ptr_array_new ();
  self->suggested_name = g_strdup ("");

  init_view (&self->views[VIEW_NAME], KISTE_CREATE_FIELD_NAME,
             self->name_row, self->name_error, NULL, NULL);
  init_view (&self->views[VIEW_IMAGE], KISTE_CREATE_FIELD_IMAGE,
             self->image_row, self->image_error, NULL, NULL);
  init_view (&self->views[VIEW_HOSTNAME], KISTE_CREATE_FIELD_HOSTNAME,
             self->hostname_row, self->hostname_error, self->hostname_error_row,
             self->system_expander);
  init_view (&self->views[VIEW_HOME], KISTE_CREATE_FIELD_HOME,
             self->home_row, self->home_error, NULL, NULL);
  init_view (&self->views[VIEW_VOLUMES], KISTE_CREATE_FIELD_VOLUMES,
             NULL, self->volumes_error, self->volumes_error_row, self->volumes_expander);
  init_view (&self->views[VIEW_PACKAGES], KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES,
             self->packages_row, self->packages_error, self->packages_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_INIT_HOOKS], KISTE_CREATE_FIELD_INIT_HOOKS,
             self->init_hooks_row, self->init_hooks_error, self->init_hooks_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_PRE_INIT_HOOKS], KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
             self->pre_init_hooks_row, self->pre_init_hooks_error, self->pre_init_hooks_error_row,
             self->setup_expander);
  init_view (&self->views[VIEW_PLATFORM], KISTE_CREATE_FIELD_PLATFORM,
             self->platform_row, self->platform_error, self->platform_error_row,
             self->system_expander);

  self->unshare_rows[KISTE_UNSHARE_DEVSYS] = self->devsys_row;
  self->unshare_rows[KISTE_UNSHARE_GROUPS] = self->groups_row;
  self->unshare_rows[KISTE_UNSHARE_IPC] = self->ipc_row;
  self->unshare_rows[KISTE_UNSHARE_NETNS] = self->netns_row;
  self->unshare_rows[KISTE_UNSHARE_PROCESS] = self->process_row;
  self->unshare_rows[KISTE_UNSHARE_HOME] = self->unshare_home_row;


}
