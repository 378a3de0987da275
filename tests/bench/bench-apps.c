/* bench-apps.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How long listing a running box's apps takes, against a bare
 * `podman exec BOX true`, measured in one run.
 *
 *   kiste-bench-apps [--runs N] [--box NAME] [--apps N]
 *
 * Run as the user whose rootless podman is measured. The box (default
 * kiste-e2e-bench-apps) is created from $KISTE_E2E_IMAGE when missing and
 * entered once before measuring. Listing is the whole operation the Apps
 * page starts: one exec that prints the desktop files and icons, parsing,
 * and reading what the box exported on the host. --apps N first gives the
 * box N desktop files, each with a 48 px icon of its own (4 KiB), as a box
 * with a desktop's worth of apps has. */

#include "config.h"

#include <stdlib.h>

#include "bench-common.h"
#include "kiste-manager-apps.h"
#include "kiste-manager.h"

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  kiste_manager_operation_finish (KISTE_MANAGER (object), result, error);
  bench_done = TRUE;
}

static guint n_apps;

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(GPtrArray) apps = kiste_manager_query_finish (KISTE_MANAGER (object), result, error);

  n_apps = apps ? apps->len : 0;
  bench_done = TRUE;
}

static void
run_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  GError **error = user_data;

  kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, error);
  bench_done = TRUE;
}

/* N apps of its own in the box: kiste-bench-0 … kiste-bench-N-1, each
 * naming an icon in the hicolor theme; earlier ones are replaced */
static const char add_apps_script[] =
  "set -e\n"
  "a=/usr/share/applications; h=/usr/share/icons/hicolor/48x48/apps\n"
  "mkdir -p \"$a\" \"$h\"\n"
  "rm -f \"$a\"/kiste-bench-*.desktop \"$h\"/kiste-bench-*.png\n"
  "i=0\n"
  "while [ \"$i\" -lt \"$1\" ]; do\n"
  "  printf '[Desktop Entry]\\nType=Application\\nName=Bench App %s\\nExec=true\\nIcon=kiste-bench-%s\\n' \\\n"
  "    \"$i\" \"$i\" > \"$a/kiste-bench-$i.desktop\"\n"
  "  head -c 4096 /dev/urandom > \"$h/kiste-bench-$i.png\"\n"
  "  i=$((i + 1))\n"
  "done\n";

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KisteRunner) runner = NULL;
  g_autoptr(KisteManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) listing = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) stalls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  int runs = 15;
  int add_apps = -1;
  const char *image = g_getenv ("KISTE_E2E_IMAGE");
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs of each", "N" },
    { "box", 0, 0, G_OPTION_ARG_STRING, &box_name, "The box", "NAME" },
    { "apps", 0, 0, G_OPTION_ARG_INT, &add_apps, "Give the box N apps with icons first", "N" },
    { NULL }
  };

  context = g_option_context_new ("- time listing a box's apps");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (box_name == NULL)
    box_name = g_strdup ("kiste-e2e-bench-apps");

  /* The box, running and set up */
  {
    const char *create[] = { "distrobox", "create", "--yes", "--no-entry", "--image",
                             image ? image : "localhost/kiste-debian:ready", "--name", box_name, NULL };
    const char *warm[] = { "distrobox", "enter", box_name, "--", "true", NULL };
    const char *exists[] = { "podman", "container", "exists", box_name, NULL };
    int status = 0;

    g_spawn_sync (NULL, (char **) exists, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL);
    if (!g_spawn_check_wait_status (status, NULL) &&
        !g_spawn_sync (NULL, (char **) create, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error))
      g_error ("distrobox create: %s", error->message);
    if (!g_spawn_sync (NULL, (char **) warm, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, &error) ||
        !g_spawn_check_wait_status (status, &error))
      g_error ("distrobox enter: %s", error->message);
    if (add_apps >= 0)
      {
        g_autofree char *count = g_strdup_printf ("%d", add_apps);
        const char *add[] = { "podman", "exec", "--user", "root", box_name,
                              "sh", "-c", add_apps_script, "sh", count, NULL };

        if (!g_spawn_sync (NULL, (char **) add, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL,
                           NULL, NULL, NULL, NULL, &status, &error) ||
            !g_spawn_check_wait_status (status, &error))
          g_error ("adding apps: %s", error->message);
      }
  }

  runner = kiste_runner_new ();
  manager = kiste_manager_new (runner);
  kiste_manager_load_async (manager, NULL, NULL, load_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("loading: %s", error->message);

  for (int i = -1; i < runs; i++)
    {
      const char *bare_argv[] = { "podman", "exec", box_name, "true", NULL };
      gint64 start;
      double t_bare;
      double t_list;
      double stall;

      start = g_get_monotonic_time ();
      kiste_runner_run_async (runner, bare_argv, 0, NULL, run_cb, &error);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("podman exec: %s", error->message);
      t_bare = (g_get_monotonic_time () - start) / 1e6;

      start = g_get_monotonic_time ();
      bench_stall_watch (G_PRIORITY_DEFAULT);
      bench_stall_reset ();
      kiste_manager_list_apps_async (manager, box_name, NULL, list_cb, &error);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("listing: %s", error->message);
      t_list = (g_get_monotonic_time () - start) / 1e6;
      stall = bench_stall_take_ms ();
      bench_stall_unwatch ();

      if (i < 0)
        continue;  /* warm-up */
      g_array_append_val (bare, t_bare);
      g_array_append_val (listing, t_list);
      g_array_append_val (stalls, stall);
    }

  {
    double m_bare = bench_median (bare);
    double m_list = bench_median (listing);

    g_print ("apps of %s (%u apps), %d runs each, median:\n", box_name, n_apps, runs);
    g_print ("  podman exec BOX true   %6.1f ms  1.00x\n", m_bare * 1000);
    g_print ("  Kiste's app listing    %6.1f ms  %.2fx (target <= 2.00x)\n", m_list * 1000, m_list / m_bare);
    g_print ("  main-loop stall while listing (median of the longest of each run) %.1f ms\n",
             bench_median (stalls));
    return m_list / m_bare <= 2.0 ? EXIT_SUCCESS : EXIT_FAILURE;
  }
}
