/* kiste-window-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-page.h"
#include "kiste-boxfile.h"
#include "kiste-terminal-tab.h"
#include "kiste-window.h"

G_BEGIN_DECLS

/* The rows the list shows at first and adds each frame while boxes come
 * in (kiste-window-list.c) */
#define ROWS_PER_FRAME 12

struct _KisteWindow
{
  AdwApplicationWindow   parent_instance;

  GSettings             *settings;
  KisteManager          *manager;
  GCancellable          *cancellable;
  /* Imports of distrobox.ini files; cancelled when the window goes */
  GCancellable          *import_cancellable;
  GtkCustomFilter       *filter;
  GtkFilterListModel    *filter_model;
  GtkSliceListModel     *slice;
  guint                  growth_tick;
  /* the next frame shows the details page for the first time: it makes no rows */
  gboolean               growth_paused;
  guint                  page_idle;
  /* The first listing starts after the window's first frame */
  gboolean               load_waits;
  guint                  load_idle;
  /* The loading page shows once a listing has taken a while */
  guint                  loading_timeout;
  /* The first selection, after the frame that shows the listed rows */
  guint                  select_tick;
  guint                  select_idle;
  GtkSingleSelection    *selection;
  KisteBoxPage          *box_page;
  /* Made after the first frame, not yet in the window (owned) */
  KisteBoxPage          *made_page;
  /* The selected box, followed for its name */
  KisteBox              *shown_box;
  /* Rows bound to a box right now, to show busy boxes */
  GPtrArray             *bound_rows;
  char                  *search_text;
  GError                *load_error;
  guint                  loading : 1;

  /* Template widgets */
  AdwToastOverlay       *toast_overlay;
  GtkStack              *main_stack;
  GtkMenuButton         *menu_button;
  GtkMenuButton         *status_menu_button;
  GMenuModel            *primary_menu;
  GtkStack              *status_stack;
  AdwStatusPage         *missing_page;
  AdwStatusPage         *error_page;
  GtkLabel              *install_label;
  GtkWidget             *install_box;
  GtkWidget             *install_distrobox_button;
  AdwNavigationSplitView *split_view;
  GtkSearchBar          *search_bar;
  GtkSearchEntry        *search_entry;
  GtkStack              *list_stack;
  AdwStatusPage         *loading_page;
  GtkListView           *list_view;
  GtkMenuButton         *tasks_button;
  GtkPopover            *tasks_popover;
  GtkMenuButton         *status_tasks_button;
  GtkPopover            *status_tasks_popover;
  AdwNavigationPage     *content_page;
  AdwHeaderBar          *content_header;
  GtkStack              *content_stack;
  AdwBin                *page_bin;
  AdwToolbarView        *content_toolbar;
  AdwTabBar             *tab_bar;
  GtkWidget             *tab_button;
  /* Made when first opened: its thumbnails cost while nobody looks */
  AdwTabOverview        *tab_overview;
  AdwTabView            *tab_view;

  /* The pinned tab with the selected box's details */
  AdwTabPage            *details_page;
  /* Box name → number of its open terminal tabs */
  GHashTable            *terminal_counts;
  /* Closing the window after the user agreed to end running programs */
  guint                  close_confirmed : 1;
  /* Leftover temporary boxes were looked for */
  guint                  temporary_checked : 1;
  /* what a killed Kiste left while it made a box again: asked once */
  guint                  leftovers_checked : 1;
  guint                  temporary_close_asked : 1;

  /* The empty page's first boxes (KisteFirstBox), read once, and again
   * when whether only Toolbx can make them changes */
  GtkBox                *first_boxes_box;
  GPtrArray             *first_boxes;
  gboolean               first_boxes_toolbx;
  /* Tests: the os-release to read instead of the computer's */
  char                  *os_release_path;

  /* The daily update check's one timeout (kiste-window-updates.c) */
  guint                  update_timeout;
  GCancellable          *update_cancellable;
};

/* kiste-window.c */
KisteBox   *_kiste_window_get_selected_box      (KisteWindow      *self);
/* Every box of the store, unsorted */
GListModel *_kiste_window_get_boxes             (KisteWindow      *self);
/* The main page (status, list or details) for what is known now */
void        _kiste_window_update_state          (KisteWindow      *self);

/* A box was created: select it */
void        _kiste_window_created_cb            (KisteWindow      *self,
                                                 const char       *name);

/* kiste-window-list.c: the list of boxes and its rows */
void        _kiste_window_class_list_init       (KisteWindowClass *klass);
/* The sorted, filtered and sliced models, the selection and the rows */
void        _kiste_window_list_setup            (KisteWindow      *self);
/* The list grows a few rows a frame while boxes are left out */
void        _kiste_window_grow_list             (KisteWindow      *self);
void        _kiste_window_select_by_name        (KisteWindow      *self,
                                                 const char       *name);
/* The rows of box_name show its busy state and terminal count again */
void        _kiste_window_update_rows_for       (KisteWindow      *self,
                                                 const char       *box_name);

/* kiste-window-updates.c: Check for Updates, and once a day when the
 * settings say so */
void        _kiste_window_class_updates_init    (KisteWindowClass *klass);
void        _kiste_window_updates_setup         (KisteWindow      *self);
void        _kiste_window_updates_dispose       (KisteWindow      *self);

/* kiste-window-close.c: closing and quitting */
void        _kiste_window_close_init            (KisteWindow      *self);
void        _kiste_window_restore_state         (KisteWindow      *self);
void        _kiste_window_save_state            (KisteWindow      *self);
/* Closes the window now, with whatever dialog is open on it */
void        _kiste_window_close_now             (KisteWindow      *self);

/* kiste-window-boxfile.c: box files opened, checked, previewed and made
 * into a box */
void        _kiste_window_class_boxfile_init    (KisteWindowClass *klass);
/* The preview of a read and checked box file (its image and home copied
 * out into folder, which the window removes once done); returned for tests */
AdwAlertDialog *_kiste_window_preview_boxfile   (KisteWindow        *self,
                                                 const KisteBoxfile *boxfile,
                                                 const char         *folder);

/* kiste-window-import.c: distrobox.ini files by file, drop and address */
void        _kiste_window_class_import_init     (KisteWindowClass *klass);
void        _kiste_window_import_init           (KisteWindow      *self);
/* Files dropped on widget are imported or installed; on a box row or the
 * box page, a package file is for that box */
void        _kiste_window_add_drop_target       (KisteWindow      *self,
                                                 GtkWidget        *widget);

/* kiste-window-first-boxes.c: the first boxes the empty page offers */
void        _kiste_window_class_first_boxes_init (KisteWindowClass *klass);
void        _kiste_window_update_first_boxes    (KisteWindow      *self);
/* Tests: the first boxes are those of the os-release at path (NULL: the
 * computer's) */
void        _kiste_window_set_os_release_path   (KisteWindow      *self,
                                                 const char       *path);

/* kiste-window-terminals.c: the terminal tabs beside the details */
void        _kiste_window_class_terminals_init  (KisteWindowClass *klass);
void        _kiste_window_class_tools_init      (KisteWindowClass *klass);
void        _kiste_window_class_try_init        (KisteWindowClass *klass);
/* A terminal tab is about to close: the last one of a temporary box offers
 * to remove the box */
void        _kiste_window_terminal_closing      (KisteWindow      *self,
                                                 GtkWidget        *child);
void        _kiste_window_check_temporary_boxes (KisteWindow      *self);
/* kiste-window-leftovers.c: what a killed Kiste left while it made a box
 * again, once per window */
void        _kiste_window_check_leftovers       (KisteWindow      *self);
/* A tab that installs the package file at package_path in box_name */
KisteTerminalTab *_kiste_window_open_install_tab (KisteWindow     *self,
                                                  const char      *box_name,
                                                  const char      *package_path);
void        _kiste_window_update_install_distrobox (KisteWindow   *self,
                                                    gboolean       no_distrobox);
/* TRUE when boxes can be made with distrobox (or before the tools are
 * known); else, with only Toolbx, asks to use Kiste's own distrobox or to
 * install one, saying why (what needs it), and FALSE */
gboolean    _kiste_window_check_distrobox       (KisteWindow      *self,
                                                 const char       *why);
/* The create dialog's "distrobox-needed": what distrobox would add, on a
 * computer with Toolbx alone */
void        _kiste_window_distrobox_needed_cb   (KisteWindow      *self);
/* Toolbx is there and distrobox is not: boxes are Toolbx's */
gboolean    _kiste_window_is_toolbx_only        (KisteWindow      *self);
void        _kiste_window_terminals_init        (KisteWindow      *self);
/* Once the window has its settings */
void        _kiste_window_terminals_setup       (KisteWindow      *self);
void        _kiste_window_update_details_tab    (KisteWindow      *self);
guint       _kiste_window_get_terminal_count    (KisteWindow      *self,
                                                 const char       *box_name);
/* TRUE when closing waits for the user (programs still run in tabs) */
gboolean    _kiste_window_confirm_close         (KisteWindow      *self);
gboolean    _kiste_window_confirm_temporary_close (KisteWindow    *self);
/* Ends every shell of the window's tabs */
void        _kiste_window_terminate_terminals   (KisteWindow      *self);

G_END_DECLS
