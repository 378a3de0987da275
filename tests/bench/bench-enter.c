/* bench-enter.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How fast a terminal tab reaches a running box, against a bare
 * `podman exec BOX true` and the tool's own way in (`distrobox enter BOX
 * -- true`, or for a toolbox `toolbox run --container BOX true`), measured
 * in one run, each on a terminal of its own as a tab has.
 *
 *   kiste-bench-enter [--runs N] [--box NAME] [--toolbox]
 *
 * Run as the user whose rootless podman is measured. The box (default
 * kiste-e2e-bench-enter, or kiste-e2e-bench-tbx with --toolbox) is created
 * from $KISTE_E2E_IMAGE ($KISTE_E2E_TOOLBX_IMAGE) when missing and entered
 * once before measuring, so every way finds it running and set up.
 * Kiste's way is what a tab does: choose the argv (the direct podman exec
 * when the box is understood), then spawn it on the pty; the command is
 * `true` in all three, so the numbers compare the ways in. */

#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench-common.h"
#include "kiste-enter.h"
#include "kiste-manager-private.h"
#include "kiste-manager-terminal.h"
#include "kiste-manager.h"
#include "kiste-pty.h"
#include "kiste-toolbox-enter.h"

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  kiste_manager_operation_finish (KISTE_MANAGER (object), result, error);
  bench_done = TRUE;
}

static void
details_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;

  kiste_box_store_load_details_finish (KISTE_BOX_STORE (object), result, error);
  bench_done = TRUE;
}

static int
open_pty (void)
{
  int fd = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);

  if (fd < 0 || grantpt (fd) != 0 || unlockpt (fd) != 0)
    g_error ("no pseudo-terminal: %s", g_strerror (errno));
  return fd;
}

/* Spawns argv on a fresh terminal, waits for it; seconds, or -1 on failure */
static double
time_on_pty (KisteRunner        *runner,
             const char * const *argv)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  const char *env[] = { "TERM=xterm-256color", NULL };
  int master = open_pty ();
  gint64 start = g_get_monotonic_time ();

  subprocess = kiste_pty_spawn (runner, argv, NULL, master, env, &error);
  if (subprocess == NULL)
    g_error ("%s: %s", argv[0], error->message);
  /* `true` prints nothing: the terminal's buffer never fills */
  g_subprocess_wait (subprocess, NULL, NULL);
  close (master);
  if (!g_subprocess_get_successful (subprocess))
    return -1;
  return (g_get_monotonic_time () - start) / 1e6;
}

/* What a tab does before it spawns: choose the way in (the direct exec),
 * then the same argv with `true` for the shell */
static char **
dup_kiste_argv (KisteManager *manager,
                KisteBox     *box)
{
  KisteRunner *runner = kiste_manager_get_runner (manager);
  const char *command[] = { "true", NULL };
  const char *term_env[] = { "TERM=xterm-256color", NULL };
  g_auto(GStrv) env = kiste_pty_dup_environ (runner, term_env);
  g_auto(GStrv) shell = NULL;
  gboolean direct = FALSE;

  shell = kiste_manager_dup_shell_argv (manager, box, NULL, (const char * const *) env, &direct);
  if (!direct)
    g_error ("the box is not entered directly: %s", shell[0]);

  if (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX)
    {
      g_autofree char *toolbox_path = g_find_program_in_path ("toolbox");
      g_autofree char *workdir = kiste_toolbox_dup_workdir (box, NULL);

      env = g_environ_setenv (env, "TOOLBOX_PATH", toolbox_path, TRUE);
      return kiste_toolbox_direct_argv (box, "podman", (const char * const *) env, workdir, command, TRUE);
    }
  return kiste_enter_direct_argv (box, "podman", "/usr/bin/distrobox-enter",
                                  (const char * const *) env, NULL, command, TRUE);
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
  g_autoptr(GArray) tool = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  g_autofree char *tool_label = NULL;
  gboolean toolbox = FALSE;
  int runs = 15;
  KisteBox *box;
  const char *image;
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs of each way", "N" },
    { "box", 0, 0, G_OPTION_ARG_STRING, &box_name, "The box", "NAME" },
    { "toolbox", 0, 0, G_OPTION_ARG_NONE, &toolbox, "A toolbox instead of a distrobox", NULL },
    { NULL }
  };

  context = g_option_context_new ("- time entering a running box");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (box_name == NULL)
    box_name = g_strdup (toolbox ? "kiste-e2e-bench-tbx" : "kiste-e2e-bench-enter");
  image = g_getenv (toolbox ? "KISTE_E2E_TOOLBX_IMAGE" : "KISTE_E2E_IMAGE");
  if (image == NULL)
    image = toolbox ? "localhost/kiste-debian:toolbx" : "localhost/kiste-debian:ready";

  /* The box, running and set up */
  {
    const char *exists[] = { "podman", "container", "exists", box_name, NULL };
    const char *create_dbx[] = { "distrobox", "create", "--yes", "--no-entry", "--image", image,
                                 "--name", box_name, NULL };
    const char *create_tbx[] = { "toolbox", "create", "--assumeyes", "--image", image, box_name, NULL };
    const char *warm_dbx[] = { "distrobox", "enter", box_name, "--", "true", NULL };
    const char *warm_tbx[] = { "toolbox", "run", "--container", box_name, "true", NULL };
    int status = 0;

    g_spawn_sync (NULL, (char **) exists, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL);
    if (!g_spawn_check_wait_status (status, NULL))
      bench_spawn (toolbox ? create_tbx : create_dbx);
    bench_spawn (toolbox ? warm_tbx : warm_dbx);
  }

  runner = kiste_runner_new ();
  manager = kiste_manager_new (runner);
  kiste_manager_load_async (manager, NULL, NULL, load_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("loading: %s", error->message);
  box = kiste_box_store_find_by_name (_kiste_manager_get_store (manager), box_name);
  if (box == NULL || (kiste_box_get_tool (box) == KISTE_BOX_TOOL_TOOLBX) != toolbox)
    g_error ("no %s %s", toolbox ? "toolbox" : "distrobox", box_name);
  kiste_box_store_load_details_async (_kiste_manager_get_store (manager), &box, 1, NULL,
                                      details_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("details: %s", error->message);

  for (int i = -1; i < runs; i++)
    {
      const char *bare_argv[] = { "podman", "exec", box_name, "true", NULL };
      const char *distrobox_argv[] = { "distrobox", "enter", box_name, "--", "true", NULL };
      const char *toolbox_argv[] = { "toolbox", "run", "--container", box_name, "true", NULL };
      g_auto(GStrv) kiste_argv = NULL;
      gint64 start;
      double t_bare;
      double t_tool;
      double t_kiste;

      t_bare = time_on_pty (runner, bare_argv);
      t_tool = time_on_pty (runner, toolbox ? toolbox_argv : distrobox_argv);

      start = g_get_monotonic_time ();
      kiste_argv = dup_kiste_argv (manager, box);
      t_kiste = (g_get_monotonic_time () - start) / 1e6 + time_on_pty (runner, (const char * const *) kiste_argv);

      if (t_bare < 0 || t_tool < 0 || t_kiste < 0)
        g_error ("a run failed (bare %.3f, tool %.3f, kiste %.3f)", t_bare, t_tool, t_kiste);
      if (i < 0)
        continue;  /* warm-up */
      g_array_append_val (bare, t_bare);
      g_array_append_val (tool, t_tool);
      g_array_append_val (kiste, t_kiste);
    }

  tool_label = g_strdup (toolbox ? "toolbox run --container BOX true" : "distrobox enter BOX -- true");
  {
    double m_bare = bench_median (bare);
    double m_tool = bench_median (tool);
    double m_kiste = bench_median (kiste);

    g_print ("enter %s, %d runs each, median:\n", box_name, runs);
    g_print ("  %-34s %6.1f ms  1.00x\n", "podman exec BOX true", m_bare * 1000);
    g_print ("  %-34s %6.1f ms  %.2fx\n", tool_label, m_tool * 1000, m_tool / m_bare);
    g_print ("  %-34s %6.1f ms  %.2fx (target <= 1.20x)\n", "Kiste tab (direct exec)",
             m_kiste * 1000, m_kiste / m_bare);
    return m_kiste / m_bare <= 1.2 ? EXIT_SUCCESS : EXIT_FAILURE;
  }
}
