/* kiste-box-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the rest of the core may do with a box beyond its public API */

#pragma once

#include "kiste-box.h"

G_BEGIN_DECLS

guint     _kiste_box_get_state_stamp (KisteBox    *self);
gboolean  _kiste_box_apply_inspect   (KisteBox    *self,
                                      JsonObject  *object,
                                      guint        state_stamp,
                                      GError     **error);

/* Set by the store that lists the box, once, before anyone sees it */
void      _kiste_box_set_engine      (KisteBox    *self,
                                      const char  *engine);
void      _kiste_box_set_ref         (KisteBox    *self,
                                      const char  *ref);

G_END_DECLS
