/* kiste-url-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KISTE_TYPE_URL_DIALOG (kiste_url_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteUrlDialog, kiste_url_dialog, KISTE, URL_DIALOG, AdwAlertDialog)

/* Asks for the address of a distrobox.ini, saying at once why one cannot
 * be used. Emits "url-chosen" (the address) on Download. */
KisteUrlDialog *kiste_url_dialog_new (void);

G_END_DECLS
