/* kiste-box-page-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box page's insides, shared by its files:
 * kiste-box-page.c          showing the box: its state, its operation, loading
 * kiste-box-page-details.c  what the Details view says about it
 * kiste-box-page-actions.c  what people do with it (box.* actions)
 * kiste-box-page-usage.c    its processor and memory use */

#pragma once

#include "kiste-apps.h"
#include "kiste-apps-page.h"
#include "kiste-box-page.h"
#include "kiste-color-row.h"
#include "kiste-snapshots-group.h"

G_BEGIN_DECLS

struct _KisteBoxPage
{
  AdwBin                parent_instance;

  KisteManager         *manager;
  /* The app's settings (stop confirmation, box colours); may be NULL */
  GSettings            *settings;
  KisteBox             *box;
  /* The running operation of the box, followed for its progress */
  KisteTask            *task;
  /* KisteExportedFile of the box, NULL while unknown */
  GPtrArray            *exported;
  gboolean              exported_failed;
  GCancellable         *details_cancellable;
  GCancellable         *exported_cancellable;
  /* A new box's details and exports load once a frame has drawn it */
  guint                 load_tick;
  guint                 load_idle;
  GCancellable         *delete_cancellable;
  GCancellable         *stats_cancellable;
  /* Cancelled when the page goes: exports, waits for details */
  GCancellable         *cancellable;
  /* Tests: where "Export Settings" writes, without asking */
  GFile                *export_file;
  guint                 stats_source;
  /* Stats failed for this box (cgroups v1, docker without stats…): do not
   * ask again every few seconds */
  gboolean              stats_failed;

  GtkStack             *stack;
  AdwViewStack         *view_stack;
  /* The apps view, made when first shown */
  AdwBin               *apps_bin;
  KisteAppsPage        *apps_page;
  KisteColorRow        *color_row;
  KisteSnapshotsGroup  *snapshots_group;
  GtkMenuButton        *menu_button;
  GMenuModel           *box_menu;
  /* A toolbox's menu, without what Toolbx cannot do */
  GMenuModel           *toolbox_menu;
  /* The menu the button has or will have */
  GMenuModel           *shown_menu;
  GtkImage             *distro_image;
  GtkLabel             *name_label;
  GtkLabel             *image_label;
  GtkLabel             *state_label;
  GtkWidget            *busy_box;
  AdwSpinner           *busy_spinner;
  GtkLabel             *busy_title_label;
  GtkLabel             *busy_step_label;
  GtkButton            *cancel_button;
  GtkProgressBar       *busy_progress;
  GtkButton            *start_stop_button;
  AdwButtonContent     *start_stop_content;
  AdwActionRow         *image_row;
  AdwActionRow         *update_row;
  AdwActionRow         *state_row;
  AdwActionRow         *created_row;
  AdwActionRow         *home_row;
  AdwActionRow         *init_row;
  AdwActionRow         *nvidia_row;
  AdwActionRow         *exported_row;
  AdwActionRow         *manager_row;
  AdwActionRow         *tool_row;
  AdwActionRow         *home_sharing_row;
  AdwActionRow         *devsys_row;
  AdwActionRow         *groups_row;
  AdwActionRow         *ipc_row;
  AdwActionRow         *netns_row;
  AdwActionRow         *process_row;
  AdwActionRow         *home_unshare_row;
  AdwPreferencesGroup  *resources_group;
  AdwActionRow         *cpu_row;
  AdwActionRow         *memory_row;
};

/* kiste-box-page.c */
void      _kiste_box_page_toast               (KisteBoxPage       *self,
                                               const char         *title);
gboolean  _kiste_box_page_is_busy             (KisteBoxPage       *self);
gboolean  _kiste_box_page_is_running          (KisteBoxPage       *self);
/* Whether the box shown is a toolbox: Toolbx cannot upgrade, copy or
 * rename it, nor export its programs or the box itself */
gboolean  _kiste_box_page_is_toolbox          (KisteBoxPage       *self);
GStrv     _kiste_box_page_dup_box_names       (KisteBoxPage       *self);

/* Tests: "box.export-settings" writes to file without asking (NULL: asks) */
void      _kiste_box_page_set_export_file_for_testing (KisteBoxPage *self,
                                                       GFile        *file);

/* kiste-box-page-details.c: the Details view's header and rows */
void      _kiste_box_page_update_details      (KisteBoxPage       *self);
void      _kiste_box_page_update_exported_row (KisteBoxPage       *self);
/* "2 apps and 1 program", or NULL for none */
char     *_kiste_box_page_format_exported     (GPtrArray          *exported);
/* Names of the exported files of one kind, comma-separated, or NULL */
char     *_kiste_box_page_join_exported_names (GPtrArray          *exported,
                                               KisteExportedKind   kind);

/* kiste-box-page-usage.c: processor and memory, polled while shown */
void      _kiste_box_page_update_stats_polling (KisteBoxPage      *self);
void      _kiste_box_page_stop_stats          (KisteBoxPage       *self);
/* Forgets the last numbers and a failure, for another box or state */
void      _kiste_box_page_reset_stats         (KisteBoxPage       *self);

/* kiste-box-page-actions.c: installs the box.* actions */
void      _kiste_box_page_class_actions_init  (GtkWidgetClass     *widget_class);

/* Something to do with a box once its details are known */
typedef void (*WithBoxFunc) (KisteBoxPage *self,
                             KisteBox     *box);
/* Calls func with the box named box_name once its details are there */
void      _kiste_box_page_with_details        (KisteBoxPage       *self,
                                               const char         *box_name,
                                               WithBoxFunc         func);
/* The end of a manager operation started from the page: the window
 * toasts every task's outcome */
void      _kiste_box_page_operation_done_cb   (GObject            *object,
                                               GAsyncResult       *result,
                                               gpointer            user_data);

/* kiste-box-page-files.c: Export Settings and Save to File */
void      _kiste_box_page_class_files_init    (GtkWidgetClass     *widget_class);

G_END_DECLS
