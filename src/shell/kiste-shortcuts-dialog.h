/* kiste-shortcuts-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KISTE_TYPE_SHORTCUTS_DIALOG (kiste_shortcuts_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteShortcutsDialog, kiste_shortcuts_dialog, KISTE, SHORTCUTS_DIALOG, AdwDialog)

KisteShortcutsDialog *kiste_shortcuts_dialog_new (void);

G_END_DECLS
