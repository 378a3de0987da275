/* kiste-create-dialog-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create dialog's insides, shared by its files:
 * kiste-create-dialog.c        the dialog: filling, creating, progress, buttons
 * kiste-create-dialog-form.c   the form: rows bound to the options, suggestions, messages
 * kiste-create-dialog-folders.c the home folder and volume rows, folder pickers */

#pragma once

#include <adwaita.h>

#include "kiste-create-dialog.h"
#include "kiste-create-progress.h"
#include "kiste-image-chooser.h"
#include "kiste-volume-row.h"

G_BEGIN_DECLS

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
  AdwPreferencesGroup *tool_group;
  AdwComboRow         *tool_row;
  AdwActionRow        *more_options_row;
  AdwPreferencesGroup *home_group;
  AdwPreferencesGroup *isolation_group;
  AdwPreferencesGroup *advanced_group;
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

  /* each row bound to its option (_kiste_create_dialog_bind_options()) */
  GPtrArray           *bindings;
  FieldView            views[N_VIEWS];
  GPtrArray           *volume_rows;

  char                *command;
  char                *running_name;
  char                *suggested_name;
  char                *suggested_home;
  /* what an import left out, shown above the form until dismissed */
  char                *notice;
  DialogState          state;
  guint                touched;
  /* the dialog itself changes the options: no field is touched by it */
  guint                updating;
  /* validations so far: one per change */
  guint                n_validations;
  gboolean             in_changed;
  gboolean             can_create;
  gboolean             nvidia_found;
  /* NVIDIA is on as the dialog's guess, not people's choice: off while
   * Toolbx makes the box, which has no such option */
  gboolean             nvidia_guessed;
  /* Try an Image: a temporary box with a name of Kiste's */
  gboolean             temporary;
};

/* kiste-create-dialog.c: small helpers */
KisteCapabilities *_kiste_create_dialog_get_caps         (KisteCreateDialog  *self);
/* whether the option of property (kiste-create-flags.h) can be used */
gboolean           _kiste_create_dialog_supports         (KisteCreateDialog  *self,
                                                          const char         *property);
char             **_kiste_create_dialog_dup_box_names    (KisteCreateDialog  *self);
void               _kiste_create_dialog_toast            (KisteCreateDialog  *self,
                                                          const char         *title);
/* TRUE once the dialog was closed: late results are dropped */
gboolean           _kiste_create_dialog_is_gone          (KisteCreateDialog  *self);
const char        *_kiste_create_dialog_entry_text       (AdwEntryRow        *row);
void               _kiste_create_dialog_set_switch       (KisteCreateDialog  *self,
                                                          AdwSwitchRow       *row,
                                                          gboolean            active);

/* whether the box is made with Toolbx */
gboolean           _kiste_create_dialog_is_toolbx        (KisteCreateDialog  *self);

/* kiste-create-dialog-form.c */
void               _kiste_create_dialog_bind_options     (KisteCreateDialog  *self,
                                                          KisteCreateOptions *options);
/* the options changed: rows follow, then one validation */
void               _kiste_create_dialog_changed          (KisteCreateDialog  *self);
void               _kiste_create_dialog_validate         (KisteCreateDialog  *self);
void               _kiste_create_dialog_update_rows      (KisteCreateDialog  *self);
void               _kiste_create_dialog_set_can_create   (KisteCreateDialog  *self,
                                                          gboolean            can_create);
void               _kiste_create_dialog_set_field_error  (KisteCreateDialog  *self,
                                                          FieldView          *view,
                                                          const char         *message);
/* people changed field: its errors show from now on */
void               _kiste_create_dialog_touch            (KisteCreateDialog  *self,
                                                          KisteCreateField    field);

/* kiste-create-dialog-folders.c */
KisteVolumeRow    *_kiste_create_dialog_add_volume_row   (KisteCreateDialog  *self,
                                                          const char         *spec);
void               _kiste_create_dialog_add_volume_cb    (KisteCreateDialog  *self);
void               _kiste_create_dialog_home_choose_cb   (KisteCreateDialog  *self);

G_END_DECLS
