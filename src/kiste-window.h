/* kiste-window.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-application.h"

G_BEGIN_DECLS

#define KISTE_TYPE_WINDOW (kiste_window_get_type ())

G_DECLARE_FINAL_TYPE (KisteWindow, kiste_window, KISTE, WINDOW, AdwApplicationWindow)

KisteWindow *kiste_window_new        (KisteApplication *application);
void         kiste_window_add_toast  (KisteWindow      *self,
                                      AdwToast         *toast);

G_END_DECLS
