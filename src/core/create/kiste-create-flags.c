/* kiste-create-flags.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The create options and their flags of `distrobox create`, with what each
 * needs of the installed distrobox: the one place the command, the create
 * dialog's rows and manifest checks take them from. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-create-flags.h"

/* First tags from distrobox.md §3. The unshare flags come in the order of
 * KisteUnshare; Isolate Everything covers the five namespaces but not the
 * home, which only patched builds include in it. */
static const KisteCreateFlag create_flags[] = {
  { "name", "--name", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_NOTHING },
  /* a clone copies a box instead of an image */
  { "image", "--image", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_NOTHING,
    .unless = "clone-source" },
  { "clone-source", "--clone", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED },
  { "hostname", "--hostname", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED },
  { "home", "--home", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED },
  { "platform", "--platform", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.8.1" },
  { "init", "--init", KISTE_CREATE_FLAG_SWITCH, KISTE_CREATE_NEEDS_LISTED },
  { "nvidia", "--nvidia", KISTE_CREATE_FLAG_SWITCH, KISTE_CREATE_NEEDS_LISTED },
  { "pull", "--pull", KISTE_CREATE_FLAG_SWITCH, KISTE_CREATE_NEEDS_LISTED },
  { "unshare-all", "--unshare-all", KISTE_CREATE_FLAG_SWITCH, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.6.0" },
  { "unshare-devsys", "--unshare-devsys", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.6.0", .unless = "unshare-all", .unshare = KISTE_UNSHARE_DEVSYS },
  { "unshare-groups", "--unshare-groups", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.7.0", .unless = "unshare-all", .unshare = KISTE_UNSHARE_GROUPS },
  { "unshare-ipc", "--unshare-ipc", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.6.0", .unless = "unshare-all", .unshare = KISTE_UNSHARE_IPC },
  { "unshare-netns", "--unshare-netns", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.6.0", .unless = "unshare-all", .unshare = KISTE_UNSHARE_NETNS },
  { "unshare-process", "--unshare-process", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED,
    .since = "1.6.0", .unless = "unshare-all", .unshare = KISTE_UNSHARE_PROCESS },
  /* no release has the flag (distrobox.md §1): Kiste takes the home's
   * mounts out of the dry run's command instead (kiste-isolated-home.c) */
  { "unshare-home", "--unshare-home", KISTE_CREATE_FLAG_UNSHARE, KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN,
    .unshare = KISTE_UNSHARE_HOME,
    .missing = N_("A custom home folder only changes where the box keeps its own files: your home "
                  "folder is still mounted in the box.") },
  { "volumes", "--volume", KISTE_CREATE_FLAG_VALUES, KISTE_CREATE_NEEDS_LISTED },
  { "additional-packages", "--additional-packages", KISTE_CREATE_FLAG_WORDS, KISTE_CREATE_NEEDS_LISTED },
  { "init-hooks", "--init-hooks", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED },
  { "pre-init-hooks", "--pre-init-hooks", KISTE_CREATE_FLAG_VALUE, KISTE_CREATE_NEEDS_LISTED },
  /* the launcher, when asked for, is Kiste's own, made after the create
   * (kiste-manager-create.c) */
  { "add-to-menu", "--no-entry", KISTE_CREATE_FLAG_ALWAYS, KISTE_CREATE_NEEDS_LISTED },
  /* A constant label, never people's text: distrobox puts this value into
   * a shell command line (distrobox.md §2) */
  { "temporary", "--additional-flags", KISTE_CREATE_FLAG_SWITCH, KISTE_CREATE_NEEDS_LISTED,
    .value = "--label " KISTE_BOX_TEMPORARY_LABEL "=1" },
};

const KisteCreateFlag *
kiste_create_flags_get_all (guint *n_flags)
{
  g_return_val_if_fail (n_flags != NULL, NULL);

  *n_flags = G_N_ELEMENTS (create_flags);
  return create_flags;
}

const KisteCreateFlag *
kiste_create_flags_find (const char *property)
{
  g_return_val_if_fail (property != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (create_flags); i++)
    if (g_str_equal (create_flags[i].property, property))
      return &create_flags[i];

  return NULL;
}

const KisteCreateFlag *
kiste_create_flags_find_unshare (KisteUnshare what)
{
  g_return_val_if_fail (what < KISTE_N_UNSHARE, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (create_flags); i++)
    if (create_flags[i].kind == KISTE_CREATE_FLAG_UNSHARE && create_flags[i].unshare == what)
      return &create_flags[i];

  g_return_val_if_reached (NULL);
}

static gboolean
is_known (KisteCapabilities *caps)
{
  return caps != NULL && kiste_capabilities_get_loaded (caps);
}

gboolean
kiste_create_flag_is_supported (const KisteCreateFlag *flag,
                                KisteCapabilities     *caps)
{
  g_return_val_if_fail (flag != NULL, FALSE);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), FALSE);

  switch (flag->needs)
    {
    case KISTE_CREATE_NEEDS_NOTHING:
      return TRUE;

    case KISTE_CREATE_NEEDS_LISTED:
      return !is_known (caps) || kiste_capabilities_supports_create_flag (caps, flag->flag);

    case KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN:
      return is_known (caps) &&
             (kiste_capabilities_supports_create_flag (caps, flag->flag) ||
              kiste_capabilities_can_read_dry_run (caps));

    default:
      g_return_val_if_reached (FALSE);
    }
}

char *
kiste_create_flag_dup_problem (const KisteCreateFlag *flag,
                               KisteCapabilities     *caps)
{
  char *reason = NULL;

  g_return_val_if_fail (flag != NULL, NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  if (kiste_create_flag_is_supported (flag, caps))
    return NULL;

  if (is_known (caps))
    {
      if (flag->needs == KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN)
        reason = kiste_capabilities_dup_dry_run_problem (caps);
      if (reason == NULL)
        reason = kiste_capabilities_dup_unsupported_reason (caps, flag->flag, flag->since);
    }

  return reason ? reason : g_strdup (_("Not available in the installed distrobox"));
}

const char *
kiste_create_flag_get_missing (const KisteCreateFlag *flag,
                               KisteCapabilities     *caps)
{
  g_return_val_if_fail (flag != NULL, NULL);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), NULL);

  if (flag->missing == NULL || !is_known (caps) || kiste_create_flag_is_supported (flag, caps))
    return NULL;

  return _(flag->missing);
}

gboolean
kiste_create_flag_is_done_by_kiste (const KisteCreateFlag *flag,
                                    KisteCapabilities     *caps)
{
  g_return_val_if_fail (flag != NULL, FALSE);
  g_return_val_if_fail (!caps || KISTE_IS_CAPABILITIES (caps), FALSE);

  return flag->needs == KISTE_CREATE_NEEDS_LISTED_OR_DRY_RUN &&
         kiste_create_flag_is_supported (flag, caps) &&
         !kiste_capabilities_supports_create_flag (caps, flag->flag);
}
