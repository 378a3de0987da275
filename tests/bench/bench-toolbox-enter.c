/* bench-toolbox-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How fast a terminal tab reaches a running toolbox, against a bare
 * `podman exec BOX true` and `toolbox run --container BOX true`, measured
 * in one run, each on a terminal of its own as a tab has.
 *
 *   kiste-bench-toolbox-enter [--runs N] [--box NAME]
 *
 * Run as the user whose rootless podman and Toolbx are measured. The
 * toolbox (default kiste-e2e-bench-tbx) is created from
 * $KISTE_E2E_TOOLBX_IMAGE when missing and run once before measuring, so
 * every way finds it running and set up. Kiste's way is what a tab does:
 * choose the argv (the direct exec toolbox itself would run, when the box
 * is understood), then spawn it on the pty; the command is `true` in all
 * three. */

#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench-common.h"
#include "kiste-manager-private.h"
#include "kiste-manager-terminal.h"
#include "kiste-manager.h"
#include "kiste-pty.h"
#include "kiste-toolbox-enter.h"

static gboolean done;

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  kiste_manager_operation_finish (KISTE_MANAGER (object), result, error);
  done = TRUE;
}

static void
run_until_done (void)
{
  done = FALSE;
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* Spawns argv on a fresh terminal, waits for it; seconds, or -1 on failure */
static double
time_on_pty (KisteRunner        *runner,
             const char * const *argv)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  const char *env[] = { "TERM=xterm-256color", NULL };
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  gint64 start = g_get_monotonic_time ();

  if (master < 0 || grantpt (master) != 0 || unlockpt (master) != 0)
    g_error ("no pseudo-terminal: %s", g_strerror (errno));
  subprocess = kiste_pty_spawn (runner, argv, NULL, master, env, &error);
  if (subprocess == NULL)
    g_error ("%s: %s", argv[0], error->message);
  g_subprocess_wait (subprocess, NULL, NULL);
  close (master);
  if (!g_subprocess_get_successful (subprocess))
    return -1;
  return (g_get_monotonic_time () - start) / 1e6;
}

static void
run_or_fail (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s", argv[0], error->message);
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
  g_autoptr(GArray) toolbox = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  const char *image = g_getenv ("KISTE_E2E_TOOLBX_IMAGE");
  int runs = 15;
  gboolean direct = FALSE;
  KisteBox *box;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs of each way", "N" },
    { "box", 0, 0, G_OPTION_ARG_STRING, &box_name, "The toolbox", "NAME" },
    { NULL }
  };

  context = g_option_context_new ("- time entering a running toolbox");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (box_name == NULL)
    box_name = g_strdup ("kiste-e2e-bench-tbx");

  /* The toolbox, running and set up */
  {
    const char *exists[] = { "podman", "container", "exists", box_name, NULL };
    const char *create[] = { "toolbox", "create", "--assumeyes", "--image",
                             image ? image : "localhost/kiste-debian:toolbx", box_name, NULL };
    const char *warm[] = { "toolbox", "run", "--container", box_name, "true", NULL };
    int status = 0;

    g_spawn_sync (NULL, (char **) exists, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL);
    if (!g_spawn_check_wait_status (status, NULL))
      run_or_fail (create);
    run_or_fail (warm);
  }

  runner = kiste_runner_new ();
  manager = kiste_manager_new (runner);
  kiste_manager_load_async (manager, NULL, NULL, load_cb, &error);
  run_until_done ();
  if (error != NULL)
    g_error ("loading: %s", error->message);
  box = kiste_box_store_find_by_name (_kiste_manager_get_store (manager), box_name);
  if (box == NULL || kiste_box_get_tool (box) != KISTE_BOX_TOOL_TOOLBX)
    g_error ("no toolbox %s", box_name);

  for (int i = -1; i < runs; i++)
    {
      const char *bare_argv[] = { "podman", "exec", box_name, "true", NULL };
      const char *toolbox_argv[] = { "toolbox", "run", "--container", box_name, "true", NULL };
      const char *command[] = { "true", NULL };
      const char *term_env[] = { "TERM=xterm-256color", NULL };
      g_auto(GStrv) env = NULL;
      g_auto(GStrv) shell = NULL;
      g_auto(GStrv) kiste_argv = NULL;
      g_autofree char *toolbox_path = g_find_program_in_path ("toolbox");
      g_autofree char *workdir = NULL;
      gint64 start;
      double t_bare;
      double t_toolbox;
      double t_kiste;

      t_bare = time_on_pty (runner, bare_argv);
      t_toolbox = time_on_pty (runner, toolbox_argv);

      /* What a tab does before it spawns: choose the way in */
      start = g_get_monotonic_time ();
      env = kiste_pty_dup_environ (runner, term_env);
      shell = kiste_manager_dup_shell_argv (manager, box, NULL, (const char * const *) env, &direct);
      if (!direct)
        g_error ("the toolbox is not entered directly: %s", shell[0]);
      env = g_environ_setenv (env, "TOOLBOX_PATH", toolbox_path, TRUE);
      workdir = kiste_toolbox_dup_workdir (box, NULL);
      kiste_argv = kiste_toolbox_direct_argv (box, "podman", (const char * const *) env, workdir, command, TRUE);
      t_kiste = (g_get_monotonic_time () - start) / 1e6 + time_on_pty (runner, (const char * const *) kiste_argv);

      if (t_bare < 0 || t_toolbox < 0 || t_kiste < 0)
        g_error ("a run failed (bare %.3f, toolbox %.3f, kiste %.3f)", t_bare, t_toolbox, t_kiste);
      if (i < 0)
        continue;  /* warm-up */
      g_array_append_val (bare, t_bare);
      g_array_append_val (toolbox, t_toolbox);
      g_array_append_val (kiste, t_kiste);
    }

  {
    double m_bare = bench_median (bare);
    double m_toolbox = bench_median (toolbox);
    double m_kiste = bench_median (kiste);

    g_print ("enter toolbox %s, %d runs each, median:\n", box_name, runs);
    g_print ("  podman exec BOX true            %6.1f ms  1.00x\n", m_bare * 1000);
    g_print ("  toolbox run --container BOX true %6.1f ms  %.2fx\n", m_toolbox * 1000, m_toolbox / m_bare);
    g_print ("  Kiste tab (direct exec)         %6.1f ms  %.2fx (target <= 1.20x)\n",
             m_kiste * 1000, m_kiste / m_bare);
    return m_kiste / m_bare <= 1.2 ? EXIT_SUCCESS : EXIT_FAILURE;
  }
}
