/* kiste-create-plan.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The commands that make one box, as KisteCreateOptions decided them:
 * plain, a copy, or without the user's home from distrobox's dry run. */

#include "config.h"

#include "kiste-create-plan-private.h"

struct _KisteCreatePlan
{
  GObject               parent_instance;

  KisteCreatePlanKind   kind;
  char                **prepare;
  char                **argv;
};

G_DEFINE_FINAL_TYPE (KisteCreatePlan, kiste_create_plan, G_TYPE_OBJECT)

static void
kiste_create_plan_finalize (GObject *object)
{
  KisteCreatePlan *self = (KisteCreatePlan *)object;

  g_clear_pointer (&self->prepare, g_strfreev);
  g_clear_pointer (&self->argv, g_strfreev);

  G_OBJECT_CLASS (kiste_create_plan_parent_class)->finalize (object);
}

static void
kiste_create_plan_class_init (KisteCreatePlanClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kiste_create_plan_finalize;
}

static void
kiste_create_plan_init (KisteCreatePlan *self)
{
}

KisteCreatePlan *
_kiste_create_plan_new (KisteCreatePlanKind   kind,
                        char                **prepare,
                        char                **argv)
{
  KisteCreatePlan *self;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);
  g_return_val_if_fail (prepare == NULL || kind == KISTE_CREATE_PLAN_ISOLATED, NULL);

  self = g_object_new (KISTE_TYPE_CREATE_PLAN, NULL);
  self->kind = kind;
  self->prepare = prepare;
  self->argv = argv;

  return self;
}

KisteCreatePlanKind
kiste_create_plan_get_kind (KisteCreatePlan *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_PLAN (self), KISTE_CREATE_PLAN_PLAIN);

  return self->kind;
}

const char * const *
kiste_create_plan_get_prepare_argv (KisteCreatePlan *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_PLAN (self), NULL);

  return (const char * const *) self->prepare;
}

const char * const *
kiste_create_plan_get_argv (KisteCreatePlan *self)
{
  g_return_val_if_fail (KISTE_IS_CREATE_PLAN (self), NULL);

  return (const char * const *) self->argv;
}

char **
kiste_create_plan_dup_create_argv (KisteCreatePlan              *self,
                                   const char                   *dry_run,
                                   const KisteIsolatedHomeHost  *host,
                                   GError                      **error)
{
  g_autoptr(KisteIsolatedHomeDryRun) parts = NULL;

  g_return_val_if_fail (KISTE_IS_CREATE_PLAN (self), NULL);
  g_return_val_if_fail (self->kind == KISTE_CREATE_PLAN_ISOLATED, NULL);
  g_return_val_if_fail (dry_run != NULL, NULL);
  g_return_val_if_fail (host != NULL, NULL);

  /* read and checked first, whole; only then is anything built from it */
  if (!(parts = kiste_isolated_home_parse_dry_run (dry_run, error)))
    return NULL;

  return kiste_isolated_home_build_argv (parts, host);
}
