/* kiste-test-ui.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Runs the main loop until every widget has been drawn */
void       kiste_test_flush          (GtkWidget  *widget);
/* Iterates the main context until predicate(data) or the timeout */
gboolean   kiste_test_wait_for       (gboolean  (*predicate) (gpointer data),
                                      gpointer    data,
                                      guint       timeout_ms);
/* First descendant of type, and with accessible label (when not NULL) */
GtkWidget *kiste_test_find_widget    (GtkWidget  *root,
                                      GType       type,
                                      const char *label);
/* Saves a PNG of widget to $KISTE_SCREENSHOT_DIR/name.png when set */
void       kiste_test_screenshot     (GtkWidget  *widget,
                                      const char *name);

G_END_DECLS
