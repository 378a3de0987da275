/* kiste-setup-watch.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-box-store.h"
#include "kiste-runner.h"

G_BEGIN_DECLS

#define KISTE_TYPE_SETUP_WATCH (kiste_setup_watch_get_type ())

G_DECLARE_FINAL_TYPE (KisteSetupWatch, kiste_setup_watch, KISTE, SETUP_WATCH, GObject)

/* TRUE when the box of box_ref (kiste_box_get_ref()) is followed by
 * someone else (an operation that started it): the watch leaves it alone */
typedef gboolean (*KisteSetupWatchSkipFunc) (const char *box_ref,
                                             gpointer    user_data);

/* A box that runs is not ready until distrobox-init printed
 * container_setup_done, also when it was started elsewhere (`distrobox
 * enter` in a terminal, another app). While store watches (the app's live
 * list), the watch follows the log of every box that starts running, never
 * starting one itself, and sets kiste_box_set_setting_up() while its
 * setup lasts. */
KisteSetupWatch *kiste_setup_watch_new            (KisteRunner             *runner,
                                                   KisteBoxStore           *store);
void             kiste_setup_watch_set_skip_func  (KisteSetupWatch         *self,
                                                   KisteSetupWatchSkipFunc  func,
                                                   gpointer                 user_data);
/* Looks at box_name again, e.g. once an operation on it ended */
void             kiste_setup_watch_check          (KisteSetupWatch         *self,
                                                   const char              *box_name);
/* Stops following every box */
void             kiste_setup_watch_stop           (KisteSetupWatch         *self);

G_END_DECLS
