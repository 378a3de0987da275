/* kiste-task-list.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_TASK_LIST (kiste_task_list_get_type ())

G_DECLARE_FINAL_TYPE (KisteTaskList, kiste_task_list, KISTE, TASK_LIST, AdwBin)

/* The manager's tasks, newest first, or "No Tasks" when there are none.
 * Sized for a popover. "busy" is TRUE while any task runs. */
KisteTaskList *kiste_task_list_new         (KisteManager  *manager);
gboolean       kiste_task_list_get_busy    (KisteTaskList *self);

G_END_DECLS
