/* kiste-fake-runner.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-runner.h"

G_BEGIN_DECLS

#define KISTE_TYPE_FAKE_RUNNER (kiste_fake_runner_get_type ())
G_DECLARE_FINAL_TYPE (KisteFakeRunner, kiste_fake_runner, KISTE, FAKE_RUNNER, KisteRunner)

/* A runner for tests, core and UI alike: it records every command and runs
 * a small shell script in its place, chosen by how the command starts, so
 * the code under test goes through the real runner (pipes, exit codes,
 * timeouts). Scripts see the test environment ($KISTE_TEST_FIXTURES,
 * $KISTE_TEST_FAKES). The engine is podman, the working folder the
 * temporary folder. */
KisteFakeRunner *kiste_fake_runner_new           (void);

/* Commands whose display form (kiste_argv_to_display_string()) starts with
 * prefix run script with `sh -c`, the command's arguments as $1…; the
 * rule added last wins. Other commands run default_script ("exit 0"
 * unless set). A NULL script runs the command itself, recorded only (a
 * benchmark's real or PATH-faked podman). */
void             kiste_fake_runner_add           (KisteFakeRunner *self,
                                                  const char      *prefix,
                                                  const char      *script);
void             kiste_fake_runner_set_default   (KisteFakeRunner *self,
                                                  const char      *default_script);

/* Every command asked for, oldest first, in display form */
GPtrArray       *kiste_fake_runner_get_commands  (KisteFakeRunner *self);
/* How many commands started with prefix */
guint            kiste_fake_runner_count         (KisteFakeRunner *self,
                                                  const char      *prefix);
/* The last command that started with prefix, or NULL */
const char      *kiste_fake_runner_find          (KisteFakeRunner *self,
                                                  const char      *prefix);
/* For the command at index in get_commands(): when it started
 * (g_get_monotonic_time()) and its process (NULL if it did not start) */
gint64           kiste_fake_runner_get_started   (KisteFakeRunner *self,
                                                  guint            index);
GSubprocess     *kiste_fake_runner_get_subprocess (KisteFakeRunner *self,
                                                   guint            index);

G_END_DECLS
