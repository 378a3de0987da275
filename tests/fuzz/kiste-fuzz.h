/* kiste-fuzz.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

G_BEGIN_DECLS

/* One input: libFuzzer calls it with generated data, the replay test with
 * the seeds and the inputs that once crashed. Returns 0. */
int  LLVMFuzzerTestOneInput (const uint8_t *data,
                             size_t         size);

/* Hostile input must never make our code warn or fail an assertion:
 * warnings and criticals abort, so the fuzzer keeps them as crashes. */
static inline void
kiste_fuzz_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
      g_once_init_leave (&done, 1);
    }
}

G_END_DECLS
