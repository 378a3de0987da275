/* kiste-task-row.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-task.h"

G_BEGIN_DECLS

#define KISTE_TYPE_TASK_ROW (kiste_task_row_get_type ())

G_DECLARE_FINAL_TYPE (KisteTaskRow, kiste_task_row, KISTE, TASK_ROW, GtkListBoxRow)

/* One task as a list row: what it does to which box, its state, step and
 * progress, a Cancel button when it can be stopped, and its output. */
KisteTaskRow *kiste_task_row_new      (KisteTask    *task);
KisteTask    *kiste_task_row_get_task (KisteTaskRow *self);

G_END_DECLS
