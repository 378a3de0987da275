/* kiste-error.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-error.h"

G_DEFINE_QUARK (kiste-error-quark, kiste_error)
