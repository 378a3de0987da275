/* kiste-box-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-box.h"
#include "kiste-image-update.h"
#include "kiste-task.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_ROW (kiste_box_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteBoxRow, kiste_box_row, KISTE, BOX_ROW, GtkWidget)

KisteBoxRow *kiste_box_row_new      (void);
KisteBox    *kiste_box_row_get_box  (KisteBoxRow *self);
void         kiste_box_row_set_box  (KisteBoxRow *self,
                                     KisteBox    *box);
/* The box's running task, shown as a spinner and in the state text */
void         kiste_box_row_set_task (KisteBoxRow *self,
                                     KisteTask   *task);
/* How many terminal tabs the box has open (shown when not 0) */
void         kiste_box_row_set_terminal_count (KisteBoxRow *self,
                                               guint        n_terminals);
guint        kiste_box_row_get_terminal_count (KisteBoxRow *self);
/* The container engine the box lives in, for people ("Docker"), shown
 * when boxes of several engines are listed; NULL shows none */
void         kiste_box_row_set_engine (KisteBoxRow *self,
                                       const char  *engine);
const char  *kiste_box_row_get_engine (KisteBoxRow *self);
/* The tool the box was made with, for people ("Toolbx"), shown for a
 * toolbox while distrobox and Toolbx boxes are listed; NULL shows none */
void         kiste_box_row_set_tool   (KisteBoxRow *self,
                                       const char  *tool);
const char  *kiste_box_row_get_tool   (KisteBoxRow *self);
/* What the last update check says about the box, after the state
 * ("Newer image available"), with its tooltip; NULL shows none */
void         kiste_box_row_set_update (KisteBoxRow *self,
                                       const char  *update,
                                       const char  *tooltip);
const char  *kiste_box_row_get_update (KisteBoxRow *self);
/* What people read about a box's image and its registry: newer says the
 * check found a newer one than the box's; whole gives the date and the
 * other answers (the box's page), else only the newer one (a row) */
char        *kiste_box_row_dup_update_text (const KisteImageUpdate *update,
                                            const char             *image,
                                            gboolean                newer,
                                            gboolean                whole);
/* Shows image in label the short way people know it ("fedora-toolbox:41",
 * not the registry's path), cut at the end when too long; the whole
 * reference is its tooltip only when some of it is not shown */
void         kiste_box_row_show_image (GtkLabel   *label,
                                       const char *image);
/* What a screen reader says for box in a list, e.g. "fedora, Running",
 * "fedora, Docker, Running" with its engine, "fedora, Toolbx, Running"
 * with its tool, "fedora, Podman, Toolbx, Running" with both (each may be
 * NULL) */
char        *kiste_box_row_dup_accessible_label (KisteBox   *box,
                                                 KisteTask  *task,
                                                 const char *engine,
                                                 const char *tool);

G_END_DECLS
