/* kiste-create-plan.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "kiste-isolated-home.h"

G_BEGIN_DECLS

/* How a box is made */
typedef enum
{
  /* distrobox create --image */
  KISTE_CREATE_PLAN_PLAIN,
  /* distrobox create --clone */
  KISTE_CREATE_PLAN_CLONE,
  /* without the user's home: distrobox's dry run (from the committed
   * source box for a copy), then the engine's own create built from it */
  KISTE_CREATE_PLAN_ISOLATED,
  /* toolbox create --image */
  KISTE_CREATE_PLAN_TOOLBOX,
} KisteCreatePlanKind;

#define KISTE_TYPE_CREATE_PLAN (kiste_create_plan_get_type ())

G_DECLARE_FINAL_TYPE (KisteCreatePlan, kiste_create_plan, KISTE, CREATE_PLAN, GObject)

/* The commands that make a box, decided once from checked options
 * (kiste_create_options_plan()) and run in this order. Nothing changes a
 * command once it is made. */
KisteCreatePlanKind  kiste_create_plan_get_kind         (KisteCreatePlan              *self);
/* The engine's command that comes first, or NULL: the dry run neither
 * clones nor pulls, so an isolated copy commits its source box as an
 * image and an isolated create that always downloads pulls the image */
const char * const  *kiste_create_plan_get_prepare_argv (KisteCreatePlan              *self);
/* `distrobox create` (`toolbox create` for TOOLBOX): the box itself, or
 * for ISOLATED its dry run */
const char * const  *kiste_create_plan_get_argv         (KisteCreatePlan              *self);
/* ISOLATED: the engine's create command of the box, built from the parts
 * of what the dry run printed (kiste-isolated-home.c); fails when they
 * have a shape Kiste does not know */
char               **kiste_create_plan_dup_create_argv  (KisteCreatePlan              *self,
                                                         const char                   *dry_run,
                                                         const KisteIsolatedHomeHost  *host,
                                                         GError                      **error);

G_END_DECLS
