/* bench-snapshot.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How long Kiste's Take Snapshot takes, against a bare `podman commit BOX
 * IMAGE` of the same running box, measured in turns in one run.
 *
 *   kiste-bench-snapshot [--runs N] [--box NAME] [--megabytes N]
 *
 * Run as the user whose rootless podman is measured. The box (default
 * kiste-e2e-bench-snapshot) is created from $KISTE_E2E_IMAGE when missing,
 * started, and given N MiB (default 64) of its own outside its home, so
 * that each commit copies a real layer. Kiste's side is the whole
 * operation: the task, the commit with its labels and the pause, the
 * result. Images made are removed between runs, outside the timing. */

#include "config.h"

#include <stdlib.h>

#include "bench-common.h"
#include "kiste-manager-snapshots.h"
#include "kiste-manager.h"

static GPtrArray *listed;

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  listed = kiste_manager_query_finish (KISTE_MANAGER (object), result, error);
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

/* Every snapshot of the box goes */
static void
remove_snapshots (KisteManager *manager,
                  const char   *box_name)
{
  g_autoptr(GError) error = NULL;

  kiste_manager_list_snapshots_async (manager, box_name, NULL, list_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("listing snapshots: %s", error->message);
  for (guint i = 0; listed != NULL && i < listed->len; i++)
    {
      const char *rmi[] = { "podman", "rmi", "--force",
                            kiste_snapshot_get_image (g_ptr_array_index (listed, i)), NULL };

      bench_spawn_quietly (rmi);
    }
  g_clear_pointer (&listed, g_ptr_array_unref);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KisteRunner) runner = NULL;
  g_autoptr(KisteManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GArray) bare = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  g_autofree char *fill = NULL;
  int runs = 7;
  int megabytes = 64;
  const char *image = g_getenv ("KISTE_E2E_IMAGE");
  const char *bare_image = "localhost/kiste-bench-bare-commit:latest";
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs of each", "N" },
    { "box", 0, 0, G_OPTION_ARG_STRING, &box_name, "The box", "NAME" },
    { "megabytes", 0, 0, G_OPTION_ARG_INT, &megabytes, "MiB of the box's own to copy", "N" },
    { NULL }
  };

  context = g_option_context_new ("- time a snapshot against a bare podman commit");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (box_name == NULL)
    box_name = g_strdup ("kiste-e2e-bench-snapshot");

  /* The box, running, with data of its own */
  {
    const char *create[] = { "distrobox", "create", "--yes", "--no-entry", "--image",
                             image ? image : "localhost/kiste-debian:ready", "--name", box_name, NULL };
    const char *exists[] = { "podman", "container", "exists", box_name, NULL };
    const char *warm[] = { "distrobox", "enter", box_name, "--", "true", NULL };
    int status = 0;

    g_spawn_sync (NULL, (char **) exists, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL);
    if (!g_spawn_check_wait_status (status, NULL))
      bench_spawn (create);
    bench_spawn (warm);
    fill = g_strdup_printf ("head -c %dM /dev/urandom > /opt/kiste-bench-data", megabytes);
    {
      const char *add[] = { "podman", "exec", "--user", "root", box_name, "sh", "-c", fill, NULL };

      bench_spawn (add);
    }
  }

  runner = kiste_runner_new ();
  manager = kiste_manager_new (runner);
  kiste_manager_load_async (manager, NULL, NULL, bench_operation_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("loading: %s", error->message);
  remove_snapshots (manager, box_name);

  for (int i = -1; i < runs; i++)
    {
      const char *bare_argv[] = { "podman", "commit", box_name, bare_image, NULL };
      const char *rmi[] = { "podman", "rmi", "--force", bare_image, NULL };
      gint64 start;
      double t_bare;
      double t_kiste;

      start = g_get_monotonic_time ();
      kiste_runner_run_async (runner, bare_argv, 0, NULL, run_cb, &error);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("podman commit: %s", error->message);
      t_bare = (g_get_monotonic_time () - start) / 1e6;
      bench_spawn_quietly (rmi);

      start = g_get_monotonic_time ();
      kiste_manager_take_snapshot_async (manager, box_name, NULL, bench_operation_cb, &error);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("snapshot: %s", error->message);
      t_kiste = (g_get_monotonic_time () - start) / 1e6;
      remove_snapshots (manager, box_name);

      if (i < 0)
        continue;  /* warm-up */
      g_array_append_val (bare, t_bare);
      g_array_append_val (kiste, t_kiste);
    }

  {
    double m_bare = bench_median (bare);
    double m_kiste = bench_median (kiste);

    g_print ("snapshot of %s (%d MiB of its own), %d runs each, median:\n", box_name, megabytes, runs);
    g_print ("  podman commit BOX IMAGE   %7.1f ms  1.00x\n", m_bare * 1000);
    g_print ("  Kiste's Take Snapshot     %7.1f ms  %.2fx (target <= 1.10x)\n", m_kiste * 1000, m_kiste / m_bare);
    return m_kiste / m_bare <= 1.1 ? EXIT_SUCCESS : EXIT_FAILURE;
  }
}
