/* kiste-fuzz.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <glib.h>

G_BEGIN_DECLS

/* One input: libFuzzer calls it with generated data, the replay test with
 * the seeds and the inputs that once crashed. Returns 0. */
int  LLVMFuzzerTestOneInput (const uint8_t *data,
                             size_t         size);

/* Hostile input must never make our code warn or fail an assertion:
 * warnings and criticals abort (a signal the fuzzer treats as a crash, so
 * it keeps the input). */
static inline GLogWriterOutput
kiste_fuzz_log_writer (GLogLevelFlags   log_level,
                       const GLogField *fields,
                       gsize            n_fields,
                       gpointer         user_data)
{
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      g_log_writer_standard_streams (log_level, fields, n_fields, user_data);
      abort ();
    }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

static inline void
kiste_fuzz_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      g_log_set_writer_func (kiste_fuzz_log_writer, NULL, NULL);
      g_once_init_leave (&done, 1);
    }
}

G_END_DECLS
