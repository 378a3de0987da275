/* bench-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How long saving a box to a file and opening it take, against the bare
 * commands on the same image and the same home, measured in one run.
 *
 *   kiste-bench-boxfile [--runs N] [--box NAME] [--image-mb N] [--home-mb N]
 *                       [--output FILE] [--keep] [--steps]
 *
 * Run as the user whose rootless podman is measured. The box (default
 * kiste-e2e-bench-boxfile) is made from $KISTE_E2E_IMAGE with a home folder
 * of its own when missing; --image-mb of random data go into the box (a
 * layer its commit carries) and --home-mb into its home, in files of 1 MiB.
 * The box and its home are removed at the end unless --keep.
 *
 * Save: Kiste's Save to File with the home (commit, save, the home packed,
 * the apps listed, the file written with its checksums), against
 * `podman save` of the same committed image plus `tar --create` of the
 * same home; the commit's own time is printed apart, and the ratio with
 * the commit on both sides too.
 *
 * Open: Kiste's read of the file (every checksum, the image and home
 * copied out, the names in the image archive checked) and its load step
 * (the home unpacked into a new folder beside `podman pull` of the docker
 * archive), against
 * `podman load` of the bare archive plus `tar --extract` of the bare home
 * tar into a new folder. The box's create and first start that follow are
 * the same commands either way and are not timed: the open is cancelled
 * once its image is loaded. */

#include "config.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-common.h"
#include "kiste-manager-boxfile.h"
#include "kiste-manager.h"

#define BARE_IMAGE "localhost/kiste-bench/boxfile:latest"

static KisteBoxfile *read_boxfile;

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GError **error = user_data;

  read_boxfile = kiste_manager_read_boxfile_finish (KISTE_MANAGER (object), result, error);
  bench_done = TRUE;
}

/* Before each timed step: what the steps before wrote goes to the disk
 * first, untimed, so that no step waits for the write-back of another's
 * gigabytes (the kernel holds back a writer once enough is unwritten) */
static void
settle (void)
{
  sync ();
}

/* Runs argv to its end, failing the benchmark when it fails */
static double
run_timed (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  int status = 0;
  gint64 start = g_get_monotonic_time ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDIN_FROM_DEV_NULL | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s %s", argv[0], error->message, err ? err : "");
  return (g_get_monotonic_time () - start) / 1e6;
}

static void
remove_tree (const char *path)
{
  const char *argv[] = { "podman", "unshare", "rm", "-rf", "--", path, NULL };

  bench_spawn_quietly (argv);
}

/* The open's load step: the task the open hands task_func first */
static gint64 loaded_at;
static GCancellable *open_cancellable;

static void
load_finished_cb (KisteTask *task,
                  gpointer   user_data)
{
  loaded_at = g_get_monotonic_time ();
  if (kiste_task_get_state (task) != KISTE_TASK_SUCCEEDED)
    g_error ("the load failed: %s", kiste_task_get_output (task));
  /* the create and first start are not measured */
  g_cancellable_cancel (open_cancellable);
}

static gboolean load_watched;

/* --steps: when each step of Kiste's task began, to see where the time goes */
static gboolean show_steps;

static void
step_cb (KisteTask  *task,
         GParamSpec *pspec,
         gpointer    user_data)
{
  static char *last;
  gint64 *start = user_data;
  const char *step = kiste_task_get_step (task);
  g_autofree char *what = NULL;

  if (!show_steps || step == NULL)
    return;
  /* the step, not each of its byte counts */
  what = g_strndup (step, strcspn (step, ":"));
  if (g_strcmp0 (what, last) == 0)
    return;
  g_free (last);
  last = g_steal_pointer (&what);
  g_print ("    %6.2f s  %s\n", (g_get_monotonic_time () - *start) / 1e6, last);
}

static void
watch_steps (KisteTask *task,
             gint64    *start)
{
  if (task != NULL)
    g_signal_connect (task, "notify::step", G_CALLBACK (step_cb), start);
}

static void
open_task_cb (KisteTask         *task,
              KisteCreationStep  step,
              gpointer           user_data)
{
  /* the load's task comes first, then the create's */
  if (step == KISTE_CREATION_STEP_CREATE && !load_watched)
    {
      load_watched = TRUE;
      g_signal_connect (task, "finished", G_CALLBACK (load_finished_cb), NULL);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KisteRunner) runner = NULL;
  g_autoptr(KisteManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GArray) kiste_save = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare_save = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) commit = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste_open = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) kiste_read = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare_open = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *box_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *home = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *saved_image = NULL;
  guint64 file_size = 0;
  gboolean keep = FALSE;
  int runs = 3;
  int image_mb = 256;
  int home_mb = 256;
  const char *image = g_getenv ("KISTE_E2E_IMAGE");
  GOptionEntry entries[] = {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs of each", "N" },
    { "box", 0, 0, G_OPTION_ARG_STRING, &box_name, "The box", "NAME" },
    { "image-mb", 0, 0, G_OPTION_ARG_INT, &image_mb, "MiB written into the box", "N" },
    { "home-mb", 0, 0, G_OPTION_ARG_INT, &home_mb, "MiB written into its home", "N" },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &output, "Append the result line here", "FILE" },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, "Keep the box and its home", NULL },
    { "steps", 0, 0, G_OPTION_ARG_NONE, &show_steps, "Print when each of Kiste's steps began", NULL },
    { NULL }
  };

  context = g_option_context_new ("- time Save to File and Open Box File");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (box_name == NULL)
    box_name = g_strdup ("kiste-e2e-bench-boxfile");
  home = g_build_filename (g_get_home_dir (), box_name, NULL);
  saved_image = g_strdup_printf ("localhost/kiste-saved/%s:latest", box_name);
  if (!(dir = g_dir_make_tmp ("kiste-bench-boxfile-XXXXXX", &error)))
    g_error ("%s", error->message);

  /* The box, with its own home, its data and its home's */
  {
    const char *exists[] = { "podman", "container", "exists", box_name, NULL };
    const char *create[] = { "distrobox", "create", "--yes", "--no-entry", "--image",
                             image ? image : "localhost/kiste-debian:ready", "--name", box_name,
                             "--home", home, NULL };
    const char *warm[] = { "distrobox", "enter", box_name, "--", "true", NULL };
    g_autofree char *image_count = g_strdup_printf ("%d", image_mb);
    const char *fill_box[] = { "podman", "exec", "--user", "root", box_name, "sh", "-c",
                               "mkdir -p /opt/kiste-bench && "
                               "head -c $(($1 * 1048576)) /dev/urandom > /opt/kiste-bench/blob",
                               "sh", image_count, NULL };
    g_autofree char *home_count = g_strdup_printf ("%d", home_mb);
    const char *fill_home[] = { "sh", "-c",
                                "mkdir -p \"$2/data\" && i=0; while [ $i -lt $1 ]; do "
                                "head -c 1048576 /dev/urandom > \"$2/data/$i\"; i=$((i+1)); done",
                                "sh", home_count, home, NULL };
    int status = 0;

    g_spawn_sync (NULL, (char **) exists, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                  NULL, NULL, NULL, NULL, &status, NULL);
    if (!g_spawn_check_wait_status (status, NULL))
      {
        g_mkdir_with_parents (home, 0755);
        run_timed (create);
      }
    run_timed (warm);
    run_timed (fill_box);
    run_timed (fill_home);
  }

  runner = kiste_runner_new ();
  manager = kiste_manager_new (runner);
  kiste_manager_load_async (manager, NULL, NULL, bench_operation_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    g_error ("loading: %s", error->message);

  for (int i = 0; i < runs; i++)
    {
      g_autofree char *path = g_build_filename (dir, "bench.kistebox", NULL);
      g_autofree char *bare_image = g_build_filename (dir, "bare-image.tar", NULL);
      g_autofree char *bare_home = g_build_filename (dir, "bare-home.tar", NULL);
      g_autofree char *restored = g_strdup_printf ("%s/restored-%d", dir, i);
      g_autofree char *bare_restored = g_strdup_printf ("%s/bare-restored-%d", dir, i);
      g_autofree char *open_name = g_strdup_printf ("%s-open", box_name);
      const char *commit_argv[] = { "podman", "container", "commit", box_name, BARE_IMAGE, NULL };
      /* podman's own format, as Kiste saves it too */
      const char *save_argv[] = { "podman", "save", "-o", bare_image, BARE_IMAGE, NULL };
      const char *tar_argv[] = { "tar", "--create", "--file", bare_home, "--directory", home,
                                 "--one-file-system", "--sparse", ".", NULL };
      const char *rmi_bare[] = { "podman", "rmi", "--force", BARE_IMAGE, NULL };
      const char *rmi_saved[] = { "podman", "rmi", "--force", saved_image, NULL };
      const char *load_argv[] = { "podman", "load", "-i", bare_image, NULL };
      const char *mkdir_argv[] = { "mkdir", "--mode=0700", "--", bare_restored, NULL };
      const char *untar_argv[] = { "tar", "--extract", "--file", bare_home, "--directory",
                                   bare_restored, "--no-same-owner", "--no-same-permissions",
                                   "--keep-old-files", NULL };
      const char *rm_open[] = { "podman", "rm", "--force", open_name, NULL };
      double t_commit, t_bare_save, t_kiste_save, t_bare_open, t_kiste_read, t_kiste_open;
      gint64 start;

      /* the bare commands: commit apart, then save and tar */
      settle ();
      t_commit = run_timed (commit_argv);
      settle ();
      t_bare_save = run_timed (save_argv) + run_timed (tar_argv);
      bench_spawn_quietly (rmi_bare);

      /* Kiste's Save to File, with the home */
      settle ();
      start = g_get_monotonic_time ();
      watch_steps (kiste_manager_save_boxfile_async (manager, box_name, path, TRUE, NULL,
                                                     bench_operation_cb, &error),
                   &start);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("Save to File: %s", error->message);
      t_kiste_save = (g_get_monotonic_time () - start) / 1e6;
      while (kiste_manager_get_cleaning_up (manager))
        g_main_context_iteration (NULL, TRUE);
      {
        GStatBuf st;

        if (g_stat (path, &st) == 0)
          file_size = st.st_size;
      }

      /* the bare open: load and unpack */
      settle ();
      start = g_get_monotonic_time ();
      run_timed (load_argv);
      run_timed (mkdir_argv);
      run_timed (untar_argv);
      t_bare_open = (g_get_monotonic_time () - start) / 1e6;
      bench_spawn_quietly (rmi_bare);
      remove_tree (bare_restored);

      /* Kiste's Open Box File up to the loaded image */
      settle ();
      start = g_get_monotonic_time ();
      watch_steps (kiste_manager_read_boxfile_async (manager, path, NULL, read_cb, &error), &start);
      bench_run_until_done ();
      if (error != NULL)
        g_error ("reading the box file: %s", error->message);
      t_kiste_read = (g_get_monotonic_time () - start) / 1e6;
      loaded_at = 0;
      load_watched = FALSE;
      open_cancellable = g_cancellable_new ();
      kiste_manager_open_boxfile_async (manager, read_boxfile, open_name, restored, open_task_cb,
                                        &start, open_cancellable, bench_operation_cb, &error);
      bench_run_until_done ();
      g_clear_error (&error);
      if (loaded_at == 0)
        g_error ("the open ended before its image was loaded");
      t_kiste_open = (loaded_at - start) / 1e6;
      g_clear_object (&open_cancellable);
      {
        g_autofree char *folder = g_path_get_dirname (read_boxfile->image_path);

        remove_tree (folder);
      }
      g_clear_pointer (&read_boxfile, kiste_boxfile_free);
      bench_spawn_quietly (rm_open);
      bench_spawn_quietly (rmi_saved);
      remove_tree (restored);
      g_unlink (bare_image);
      g_unlink (bare_home);
      g_unlink (path);

      g_print ("run %d: commit %.1f s, bare save %.1f s, Kiste save %.1f s; "
               "bare open %.1f s, Kiste open %.1f s (its read %.1f s)\n",
               i + 1, t_commit, t_bare_save, t_kiste_save, t_bare_open, t_kiste_open,
               t_kiste_read);
      g_array_append_val (commit, t_commit);
      g_array_append_val (bare_save, t_bare_save);
      g_array_append_val (kiste_save, t_kiste_save);
      g_array_append_val (bare_open, t_bare_open);
      g_array_append_val (kiste_open, t_kiste_open);
      g_array_append_val (kiste_read, t_kiste_read);
    }

  {
    double m_commit = bench_median (commit);
    double m_bare_save = bench_median (bare_save);
    double m_kiste_save = bench_median (kiste_save);
    double m_bare_open = bench_median (bare_open);
    double m_kiste_open = bench_median (kiste_open);
    double m_kiste_read = bench_median (kiste_read);
    g_autofree char *line = NULL;

    /* plain ASCII: the C locale of a benchmark run has no no-break space */
    g_print ("box file of %s (%.1f MB: %d MiB in the box, %d MiB in its home), %d runs, "
             "medians:\n", box_name, file_size / 1e6, image_mb, home_mb, runs);
    g_print ("  podman save + tar --create         %6.1f s  1.00x\n", m_bare_save);
    g_print ("  Kiste's Save to File               %6.1f s  %.2fx (target <= 1.10x)\n",
             m_kiste_save, m_kiste_save / m_bare_save);
    g_print ("    with the commit on both sides    %6.1f s  %.2fx (the commit: %.1f s)\n",
             m_kiste_save, m_kiste_save / (m_bare_save + m_commit), m_commit);
    g_print ("  podman load + tar --extract        %6.1f s  1.00x\n", m_bare_open);
    g_print ("  Kiste's Open Box File to the load  %6.1f s  %.2fx (target <= 1.10x; "
             "its read and check: %.1f s)\n",
             m_kiste_open, m_kiste_open / m_bare_open, m_kiste_read);
    /* what one waits for after the preview: Create Box to the loaded image */
    g_print ("    after the preview                %6.1f s  %.2fx\n",
             m_kiste_open - m_kiste_read, (m_kiste_open - m_kiste_read) / m_bare_open);
    line = g_strdup_printf ("%s\t%" G_GUINT64_FORMAT "\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f",
                            box_name, file_size, runs, m_commit, m_bare_save, m_kiste_save,
                            m_kiste_save / m_bare_save, m_bare_open, m_kiste_open,
                            m_kiste_open / m_bare_open);
    if (output != NULL)
      bench_append_line (output,
                         "box\tfile bytes\truns\tcommit s\tbare save s\tsave s\tsave ratio\t"
                         "bare open s\topen s\topen ratio",
                         line);
  }
  if (!keep)
    {
      const char *rm_box[] = { "distrobox", "rm", "--force", box_name, NULL };

      g_clear_object (&manager);
      bench_spawn_quietly (rm_box);
      remove_tree (home);
    }
  g_rmdir (dir);
  return EXIT_SUCCESS;
}
