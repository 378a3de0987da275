/* kiste-name-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The response that means "use the name" (the other one is "cancel") */
#define KISTE_NAME_DIALOG_RESPONSE_ACCEPT "accept"

#define KISTE_TYPE_NAME_DIALOG (kiste_name_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteNameDialog, kiste_name_dialog, KISTE, NAME_DIALOG, AdwAlertDialog)

/* Asks for a new box name, checked as people type with kiste_validate_name()
 * against existing_names. current_name (for renaming) is refused without
 * an error message: keeping the name is not a mistake, just no change.
 * Read the result with adw_alert_dialog_choose() and get_name(). */
KisteNameDialog *kiste_name_dialog_new      (const char         *heading,
                                             const char         *body,
                                             const char         *accept_label,
                                             const char         *suggested_name,
                                             const char         *current_name,
                                             const char * const *existing_names);
/* The name as typed, without surrounding blanks */
const char      *kiste_name_dialog_get_name  (KisteNameDialog    *self);
gboolean         kiste_name_dialog_get_valid (KisteNameDialog    *self);

G_END_DECLS
