/* kiste-preferences-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_PREFERENCES_DIALOG (kiste_preferences_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KistePreferencesDialog, kiste_preferences_dialog, KISTE, PREFERENCES_DIALOG, AdwPreferencesDialog)

/* Rows are bound to settings; what is installed comes from the manager's
 * capabilities and follows them when they are probed again. */
KistePreferencesDialog *kiste_preferences_dialog_new (KisteManager *manager,
                                                      GSettings    *settings);

G_END_DECLS
