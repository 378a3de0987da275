/* fuzz-isolated-home.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Home isolation on an older distrobox: the `podman create` command that
 * `distrobox create --dry-run` prints, rewritten for an ordinary and an
 * ostree host. Whatever it reads, a command it returns never mounts the
 * user's home at its own path (a volume the user chose that shows it
 * elsewhere is kept on purpose). */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-fuzz.h"
#include "kiste-isolated-home.h"

static const KisteIsolatedHomeHost plain_host = {
  .host_home = "/home/kistetest",
  .user_name = "kistetest",
  .runtime_dir = "/run/user/1001",
  .uid = 1001,
  .gid = 1001,
  .host_has_var_home = FALSE,
};

static const KisteIsolatedHomeHost ostree_host = {
  .host_home = "/var/home/kisteatomic",
  .user_name = "kisteatomic",
  .runtime_dir = "/run/user/1002",
  .uid = 1002,
  .gid = 1002,
  .host_has_var_home = TRUE,
};

static gboolean
mounts_home (const char *spec,
             const char *home)
{
  g_auto(GStrv) parts = g_strsplit (spec, ":", 3);

  /* SOURCE:DEST[:OPTIONS] with the home as both */
  return parts[0] != NULL && parts[1] != NULL &&
         g_str_equal (parts[0], home) && g_str_equal (parts[1], home);
}

static void
rewrite (const char                  *text,
         const KisteIsolatedHomeHost *host)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = kiste_isolated_home_argv_from_dry_run (text, host, &error);

  if (argv == NULL)
    {
      g_assert_nonnull (error);
      return;
    }
  g_assert_no_error (error);
  g_assert_nonnull (argv[0]);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      if ((g_str_equal (argv[i], "--volume") || g_str_equal (argv[i], "-v")) && argv[i + 1] != NULL)
        g_assert_false (mounts_home (argv[i + 1], host->host_home));
      if (g_str_has_prefix (argv[i], "--volume="))
        g_assert_false (mounts_home (argv[i] + strlen ("--volume="), host->host_home));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);

  kiste_fuzz_init ();

  rewrite (text, &plain_host);
  rewrite (text, &ostree_host);

  return 0;
}
