/* kiste-programs-group.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-manager.h"

G_BEGIN_DECLS

#define KISTE_TYPE_PROGRAMS_GROUP (kiste_programs_group_get_type ())

G_DECLARE_FINAL_TYPE (KisteProgramsGroup, kiste_programs_group, KISTE, PROGRAMS_GROUP, GtkBox)

/* A box's command-line programs on the host: a field to export one by
 * name or path (looked up in the box, with a warning when this computer
 * has its own program of that name) and the programs exported, each with
 * Remove. */
void      kiste_programs_group_set_manager (KisteProgramsGroup *self,
                                            KisteManager       *manager);
void      kiste_programs_group_set_box     (KisteProgramsGroup *self,
                                            KisteBox           *box);
/* Reads the exported programs again (the apps page calls it when the
 * host's folders change and when it is shown) */
void      kiste_programs_group_refresh     (KisteProgramsGroup *self);

G_END_DECLS
