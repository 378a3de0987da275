/* kiste-exported-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_EXPORTED_DIALOG (kiste_exported_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteExportedDialog, kiste_exported_dialog, KISTE, EXPORTED_DIALOG, AdwDialog)

/* Everything exported to this computer by every box: apps, programs and
 * boxes in the app menu, each with the box it runs in; those whose box is
 * gone are shown apart, with Clean Up. Follows the host's folders and the
 * list of boxes while open. */
KisteExportedDialog *kiste_exported_dialog_new (KisteManager *manager);

G_END_DECLS
