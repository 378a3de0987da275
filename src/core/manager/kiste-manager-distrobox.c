/* kiste-manager-distrobox.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The distrobox the Flatpak carries, for hosts without one
 * (kiste-bundled-distrobox.c): what it is, and putting Kiste's own copy in
 * place or taking it away. */

#include "config.h"

#include "kiste-bundled-distrobox.h"
#include "kiste-manager.h"

/* The bundle never changes while the app runs */
static const char *
bundled_version (void)
{
  static char *version;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      version = kiste_bundled_distrobox_dup_version (KISTE_BUNDLED_DISTROBOX_DIR);
      g_once_init_leave (&once, 1);
    }
  return version;
}

/**
 * kiste_manager_get_bundled_distrobox_version:
 *
 * Returns: (nullable): the version of the distrobox this Flatpak carries;
 *   NULL outside the Flatpak or without one
 */
const char *
kiste_manager_get_bundled_distrobox_version (KisteManager *self)
{
  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if (!kiste_manager_get_in_flatpak (self))
    return NULL;
  return bundled_version ();
}

/**
 * kiste_manager_dup_own_distrobox_version:
 *
 * Returns: (transfer full) (nullable): the version of the copy Kiste put
 *   in its data folder, or NULL when there is none
 */
char *
kiste_manager_dup_own_distrobox_version (KisteManager *self)
{
  g_autofree char *dir = kiste_bundled_distrobox_dup_install_dir ();

  g_return_val_if_fail (KISTE_IS_MANAGER (self), NULL);

  if (!kiste_manager_get_in_flatpak (self))
    return NULL;
  return kiste_bundled_distrobox_dup_version (dir);
}

static void
install_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (kiste_bundled_distrobox_install_finish (result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * kiste_manager_install_distrobox_async:
 *
 * Copies the Flatpak's distrobox into Kiste's data folder, which host
 * commands search after the host's own PATH from the next load on.
 */
void
kiste_manager_install_distrobox_async (KisteManager        *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autofree char *dir = kiste_bundled_distrobox_dup_install_dir ();
  GTask *task;

  g_return_if_fail (KISTE_IS_MANAGER (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_manager_install_distrobox_async);
  kiste_bundled_distrobox_install_async (KISTE_BUNDLED_DISTROBOX_DIR, dir, cancellable,
                                         install_cb, task);
}

