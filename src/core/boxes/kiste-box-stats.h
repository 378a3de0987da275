/* kiste-box-stats.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define KISTE_TYPE_BOX_STATS (kiste_box_stats_get_type ())

/* One sample of a running box's use of the computer, as the engine words
 * it ("1.25%", "102.4kB"). Any field may be NULL when it was not reported. */
typedef struct
{
  char *cpu;
  char *memory_used;
  /* the memory the box may use; NULL when the engine gave one figure */
  char *memory_limit;
} KisteBoxStats;

GType          kiste_box_stats_get_type (void) G_GNUC_CONST;
KisteBoxStats *kiste_box_stats_copy     (const KisteBoxStats  *stats);
void           kiste_box_stats_free     (KisteBoxStats        *stats);

/* podman stats --format json: a JSON array of objects with "cpu_percent"
 * and "mem_usage" ("102.4kB / 25.28GB"); docker: JSON lines with "CPUPerc"
 * and "MemUsage". KISTE_ERROR_BAD_OUTPUT when there is no sample in it. */
KisteBoxStats *kiste_box_stats_parse    (const char           *output,
                                         GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteBoxStats, kiste_box_stats_free)

G_END_DECLS
