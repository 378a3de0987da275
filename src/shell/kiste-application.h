/* kiste-application.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_APPLICATION (kiste_application_get_type ())
#define KISTE_APPLICATION_DEFAULT (KISTE_APPLICATION (g_application_get_default ()))

G_DECLARE_FINAL_TYPE (KisteApplication, kiste_application, KISTE, APPLICATION, AdwApplication)

KisteApplication *kiste_application_new          (void);
GSettings        *kiste_application_get_settings (KisteApplication *self);
KisteManager     *kiste_application_get_manager  (KisteApplication *self);

G_END_DECLS
