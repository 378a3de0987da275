/* kiste-create-plan-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "kiste-create-plan.h"

G_BEGIN_DECLS

/* For kiste_create_options_plan(): takes both argvs (prepare may be NULL) */
KisteCreatePlan *_kiste_create_plan_new (KisteCreatePlanKind   kind,
                                         char                **prepare,
                                         char                **argv);

G_END_DECLS
