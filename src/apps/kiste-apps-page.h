/* kiste-apps-page.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_APPS_PAGE (kiste_apps_page_get_type ())

G_DECLARE_FINAL_TYPE (KisteAppsPage, kiste_apps_page, KISTE, APPS_PAGE, AdwBin)

/* The desktop apps inside a box, each with a way into and out of the
 * host's app menu. Lists them (one exec in the box) when first shown; a
 * stopped box is only started after asking. While shown, what is in the
 * menu follows the host's launcher folder. */
KisteAppsPage *kiste_apps_page_new         (KisteManager  *manager);
void           kiste_apps_page_set_box     (KisteAppsPage *self,
                                            KisteBox      *box);
KisteBox      *kiste_apps_page_get_box     (KisteAppsPage *self);
/* Lists the box's apps again, starting the box when start_box is TRUE */
void           kiste_apps_page_reload      (KisteAppsPage *self,
                                            gboolean       start_box);

G_END_DECLS
