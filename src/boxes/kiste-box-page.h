/* kiste-box-page.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_PAGE (kiste_box_page_get_type ())

G_DECLARE_FINAL_TYPE (KisteBoxPage, kiste_box_page, KISTE, BOX_PAGE, AdwBin)

/* The details of one box and what can be done with it. Follows the box and
 * the manager's busy state live. Widget actions (activate them with
 * gtk_widget_activate_action): box.start, box.stop, box.restart,
 * box.upgrade, box.clone, box.clone-with-changes (the create dialog,
 * filled in from the box), box.rename, box.delete, box.copy-enter-command,
 * box.view-log, box.export-settings (its distrobox.ini section),
 * box.open-home. Properties: "manager" (construct-only), "settings"
 * (construct-only, the app's; NULL asks no stop confirmation and keeps
 * no box colours), "box". */
KisteBoxPage *kiste_box_page_new         (KisteManager *manager,
                                          GSettings    *settings);
/* box may be NULL: the page then says that no box is selected */
void          kiste_box_page_set_box     (KisteBoxPage *self,
                                          KisteBox     *box);
KisteBox     *kiste_box_page_get_box     (KisteBoxPage *self);

G_END_DECLS
