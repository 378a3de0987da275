/* fuzz-isolated-home.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Home isolation on an older distrobox: the `podman create` command that
 * `distrobox create --dry-run` prints, rewritten for an ordinary and an
 * ostree host. Whatever it reads, it returns a podman or docker command or
 * an error. (Whether a mount shows the home cannot be told from the
 * returned argv alone: after the image, arguments go to the entrypoint.) */

#include "config.h"

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

static void
rewrite (const char                  *text,
         const KisteIsolatedHomeHost *host)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = kiste_isolated_home_argv_from_dry_run (text, host, &error);
  g_autofree char *program = NULL;

  if (argv == NULL)
    {
      g_assert_nonnull (error);
      return;
    }
  g_assert_no_error (error);
  g_assert_nonnull (argv[0]);
  program = g_path_get_basename (argv[0]);
  g_assert_true (g_str_equal (program, "podman") || g_str_equal (program, "docker"));
  g_assert_cmpstr (argv[1], ==, "create");
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
