/* fuzz-events.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The events stream (`podman events` / `docker events` as JSON lines), one
 * line at a time, against a list that already holds a box. */

#include "config.h"

#include <string.h>

#include "kiste-box-store-private.h"
#include "kiste-fuzz.h"

/* One known box, so events naming it by id are looked up */
static const char known_box[] =
  "[{\"Id\":\"2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f\","
  "\"Names\":[\"fixture-a\"],\"Image\":\"localhost/kiste-debian:ready\",\"State\":\"running\","
  "\"Labels\":{\"manager\":\"distrobox\"}}]";

static void
feed (const char *manager,
      const char *text)
{
  g_autoptr(KisteRunner) runner = kiste_runner_new ();
  g_autoptr(KisteBoxStore) store = NULL;
  g_autoptr(GPtrArray) boxes = NULL;
  g_auto(GStrv) lines = NULL;

  kiste_runner_set_manager (runner, manager);
  store = kiste_box_store_new (runner);
  g_assert_true (_kiste_box_store_parse (store, known_box, &boxes, NULL));
  _kiste_box_store_merge (store, boxes);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    _kiste_box_store_handle_event_line (store, lines[i]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);

  kiste_fuzz_init ();

  feed ("podman", text);
  feed ("docker", text);

  return 0;
}
