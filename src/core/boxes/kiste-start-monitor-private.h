/* kiste-start-monitor-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-start-monitor.h"

G_BEGIN_DECLS

/* For tests: how often to check that the box still runs, in
 * milliseconds. Default 1 s. */
void               _kiste_start_monitor_set_watch_interval (KisteStartMonitor   *self,
                                                            guint                interval_ms);

G_END_DECLS
