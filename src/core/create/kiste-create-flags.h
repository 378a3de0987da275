/* kiste-create-flags.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "kiste-box.h"
#include "kiste-capabilities.h"

G_BEGIN_DECLS

/* How an option of KisteCreateOptions becomes its flag of `distrobox
 * create` */
typedef enum
{
  /* --flag VALUE, when the text property is set */
  KISTE_CREATE_FLAG_VALUE,
  /* --flag VALUE once for each element of the list property */
  KISTE_CREATE_FLAG_VALUES,
  /* --flag "W1 W2 …": every word of the list property in one value */
  KISTE_CREATE_FLAG_WORDS,
  /* --flag, or --flag and the entry's constant value, when the boolean
   * property is on */
  KISTE_CREATE_FLAG_SWITCH,
  /* a switch that unshares one KisteUnshare (the entry's unshare) */
  KISTE_CREATE_FLAG_UNSHARE,
  /* --flag whatever the property says: the property asks Kiste for
   * something the flag leaves to it */
  KISTE_CREATE_FLAG_ALWAYS,
} KisteCreateFlagKind;

/* What a flag needs of the installed distrobox and engine */
typedef enum
{
  /* every distrobox Kiste can drive has it */
  KISTE_CREATE_NEEDS_NOTHING,
  /* `distrobox create --help` lists it; assumed until that is known */
  KISTE_CREATE_NEEDS_LISTED,
  /* listed, or Kiste does it itself from a dry run it can read
   * (kiste_capabilities_can_read_dry_run()); refused until that is known,
   * so nothing is promised that may not hold */
  KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN,
} KisteCreateNeed;

/* One create option and its flag. The table's order is the order of the
 * flags in the command. */
typedef struct
{
  /* the property of KisteCreateOptions */
  const char          *property;
  /* the flag of `distrobox create` */
  const char          *flag;
  KisteCreateFlagKind  kind;
  KisteCreateNeed      needs;
  /* the first distrobox release with the flag, for the reason it is
   * missing; NULL: every release Kiste can drive has it */
  const char          *since;
  /* SWITCH: a constant value given with the flag, or NULL */
  const char          *value;
  /* left out while this property is set or on: it covers this one */
  const char          *unless;
  /* UNSHARE: what it unshares */
  KisteUnshare         unshare;
  /* N_(): what it means for people that the flag is missing, where the
   * reason alone does not say it, or NULL */
  const char          *missing;
} KisteCreateFlag;

/* Every create option Kiste passes to distrobox, in the command's order */
const KisteCreateFlag *kiste_create_flags_get_all          (guint                 *n_flags);
/* The entry of a property of KisteCreateOptions, or NULL */
const KisteCreateFlag *kiste_create_flags_find             (const char            *property);
/* The entry that unshares what */
const KisteCreateFlag *kiste_create_flags_find_unshare     (KisteUnshare           what);

/* Whether the option can be used with caps (NULL or still loading: what
 * every distrobox has, nothing that needs more) */
gboolean               kiste_create_flag_is_supported      (const KisteCreateFlag *flag,
                                                            KisteCapabilities     *caps);
/* Why not, short, for people ("Needs distrobox 1.7.0 or newer"), or NULL
 * when it can be used. The one rule the form's rows, the command and
 * manifest checks follow. */
char                  *kiste_create_flag_dup_problem       (const KisteCreateFlag *flag,
                                                            KisteCapabilities     *caps);
/* The translated missing text of a flag the loaded caps cannot do, or
 * NULL */
const char            *kiste_create_flag_get_missing       (const KisteCreateFlag *flag,
                                                            KisteCapabilities     *caps);
/* Whether Kiste does the option itself, from distrobox's dry run, instead
 * of passing the flag: it is usable, but the installed distrobox lacks it */
gboolean               kiste_create_flag_is_done_by_kiste  (const KisteCreateFlag *flag,
                                                            KisteCapabilities     *caps);

G_END_DECLS
