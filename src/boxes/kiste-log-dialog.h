/* kiste-log-dialog.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_LOG_DIALOG (kiste_log_dialog_get_type ())

G_DECLARE_FINAL_TYPE (KisteLogDialog, kiste_log_dialog, KISTE, LOG_DIALOG, AdwDialog)

/* Shows what the box's container printed (`podman logs`), read once when
 * created and again on reload. Property "loading" is TRUE while it reads. */
KisteLogDialog *kiste_log_dialog_new         (KisteManager   *manager,
                                              KisteBox       *box);
void            kiste_log_dialog_reload      (KisteLogDialog *self);
gboolean        kiste_log_dialog_get_loading (KisteLogDialog *self);
/* The text shown, escape sequences removed (new string) */
char           *kiste_log_dialog_dup_text    (KisteLogDialog *self);

G_END_DECLS
