/* kiste-create-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager-create.h"

G_BEGIN_DECLS

#define KISTE_TYPE_CREATE_DIALOG (kiste_create_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteCreateDialog, kiste_create_dialog, KISTE, CREATE_DIALOG, AdwDialog)

/* Asks for everything `distrobox create` takes (or, with Toolbx, `toolbox
 * create`: the name and the image), checks it while people type, then
 * creates the box and starts it for the first time, showing the progress.
 * Emits "created" (the box name) once the box is ready. */
KisteCreateDialog  *kiste_create_dialog_new                      (KisteManager         *manager);

/* Turns the dialog into Try an Image: the box gets a name of Kiste's and
 * the temporary label; the name, home folder and menu rows go. Call before
 * presenting it. */
void                kiste_create_dialog_set_temporary            (KisteCreateDialog    *self);

/* Fills the form from options (a clone with changes, an assemble import) */
void                kiste_create_dialog_set_options              (KisteCreateDialog    *self,
                                                                  KisteCreateOptions   *options);
/* Fills the form from a distrobox.ini manifest. Nothing in it is run: its
 * values only land in the form, where people see and check them. With
 * several boxes in it, people pick one. What Kiste leaves out is shown
 * above the form. KISTE_ERROR_INVALID_INPUT when it is no manifest. */
gboolean            kiste_create_dialog_import_assemble          (KisteCreateDialog    *self,
                                                                  const char           *data,
                                                                  gssize                length,
                                                                  GError              **error);
/* What the form says now (transfer none; changes as people edit) */
KisteCreateOptions *kiste_create_dialog_get_options              (KisteCreateDialog    *self);

/* Whether the form is valid and Create may be pressed */
gboolean            kiste_create_dialog_get_can_create           (KisteCreateDialog    *self);

G_END_DECLS
