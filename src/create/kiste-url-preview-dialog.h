/* kiste-url-preview-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KISTE_TYPE_URL_PREVIEW_DIALOG (kiste_url_preview_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteUrlPreviewDialog, kiste_url_preview_dialog, KISTE, URL_PREVIEW_DIALOG, AdwDialog)

/* Downloads the distrobox.ini at uri (a checked address) and shows it as
 * it is, so people see what they take. Continue emits "accepted" (the
 * text as GBytes) and closes; closing earlier stops the download. */
KisteUrlPreviewDialog *kiste_url_preview_dialog_new     (const char            *uri);
const char            *kiste_url_preview_dialog_get_uri (KisteUrlPreviewDialog *self);

G_END_DECLS
