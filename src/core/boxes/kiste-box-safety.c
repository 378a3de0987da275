/* kiste-box-safety.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Whether distrobox may enter a box: what a hostile image could make
 * distrobox run on the host (docs/security.md). */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-box-state-private.h"
#include "kiste-error.h"

/* What distrobox 1.x enter evals on the host (distrobox-enter's
 * `eval "$(inspect --format …)"`): every HOME= and PATH= of the
 * configuration through Go's %q, which leaves "$" and "`" alone inside the
 * double quotes, and the distrobox.unshare_groups label with no quotes. */
static gboolean
enter_eval_is_harmless (KisteBox    *self,
                        const char **what)
{
  const char *label;

  for (guint i = 0; self->environ[i] != NULL; i++)
    {
      const char *entry = self->environ[i];

      if ((g_str_has_prefix (entry, "PATH=") || g_str_has_prefix (entry, "HOME=")) &&
          strpbrk (entry, "$`") != NULL)
        {
          *what = g_str_has_prefix (entry, "PATH=") ? "PATH" : "HOME";
          return FALSE;
        }
    }

  label = g_hash_table_lookup (self->labels, "distrobox.unshare_groups");
  if (label != NULL && label[0] != '\0' && !g_str_equal (label, "0") && !g_str_equal (label, "1"))
    {
      *what = "distrobox.unshare_groups";
      return FALSE;
    }

  return TRUE;
}

/**
 * kiste_box_check_enter_safe:
 * @self: a box
 * @error: why not, for people (%KISTE_ERROR_UNSAFE)
 *
 * distrobox enter (and everything that goes through it: upgrade, exports,
 * the launchers they write, generate-entry's launcher) evals parts of the
 * box's configuration on this computer, so an image whose PATH or HOME
 * holds a "$(…)" or a backtick, or a box whose distrobox.unshare_groups
 * label is not 0 or 1, would run its command here at every enter. The
 * check fails closed: a box whose configuration has not been read yet is
 * refused too.
 *
 * Returns: %TRUE when distrobox enter may run for this box
 */
gboolean
kiste_box_check_enter_safe (KisteBox  *self,
                            GError   **error)
{
  const char *what = NULL;

  g_return_val_if_fail (KISTE_IS_BOX (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->has_details || self->environ == NULL)
    {
      g_set_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE,
                   _("The settings of “%s” could not be read, so Kiste cannot tell whether "
                     "distrobox would run something of the box on this computer. Nothing was "
                     "run."),
                   self->name);
      return FALSE;
    }

  if (!enter_eval_is_harmless (self, &what))
    {
      if (g_str_equal (what, "distrobox.unshare_groups"))
        g_set_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE,
                     _("“%s” has a label “%s” that distrobox would run as a command on this "
                       "computer. Kiste does not let distrobox enter this box."),
                     self->name, what);
      else
        g_set_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE,
                     _("The image of “%s” sets %s to a value with “$” or “`”, which "
                       "distrobox would run as a command on this computer. Kiste does not "
                       "let distrobox enter this box."),
                     self->name, what);
      return FALSE;
    }

  return TRUE;
}
