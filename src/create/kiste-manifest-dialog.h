/* kiste-manifest-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-assemble.h"

G_BEGIN_DECLS

#define KISTE_TYPE_MANIFEST_DIALOG (kiste_manifest_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteManifestDialog, kiste_manifest_dialog, KISTE, MANIFEST_DIALOG, AdwAlertDialog)

/* Asks which box of a manifest with several to fill in, or to create them
 * all. entries are KisteAssembleEntry; problems (from
 * kiste_manager_check_entries()) say, per entry, why it cannot be created
 * as written: then Create All is off. Emits "entry-chosen" (the entry)
 * or "create-all" (the entries). */
KisteManifestDialog *kiste_manifest_dialog_new (GPtrArray *entries,
                                                GPtrArray *problems);

G_END_DECLS
