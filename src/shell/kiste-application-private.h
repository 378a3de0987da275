/* kiste-application-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-application.h"

G_BEGIN_DECLS

/* For tests: a manager with a fake runner, before any window exists */
void _kiste_application_set_manager (KisteApplication *self,
                                     KisteManager     *manager);

G_END_DECLS
