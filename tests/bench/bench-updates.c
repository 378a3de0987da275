/* bench-updates.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The update check on real boxes against a registry of the benchmark's
 * own: how many lookups Kiste makes, counted at both ends, and how long
 * the check takes next to the bare skopeo inspects it stands for.
 *
 *   kiste-bench-updates [--boxes N] [--images N] [--runs N] [--port N]
 *                       [--output FILE]
 *
 * Run as the user whose rootless podman and distrobox are measured (the
 * e2e test user: tests/e2e/run-e2e --exe). It starts docker-registry on
 * 127.0.0.1:PORT (default 5055) with its access log on and its storage in
 * a temporary folder, and marks that registry insecure in a file of its
 * own in the user's registries.conf.d, removed at the end: podman and
 * skopeo accept it as they would the user's own word, and Kiste passes no
 * TLS flag. (skopeo 1.9 reads the user's registries.conf whenever there is
 * one, whatever CONTAINERS_REGISTRIES_CONF says; every version reads the
 * drop-in folder. The user's registries.conf is not touched.) It builds N
 * images (default 5) from $KISTE_E2E_IMAGE, each with a label of its own,
 * pushes them and pulls them back, so that the engine knows the digests
 * the registry gave them, and makes N boxes (default 20) from them in
 * turn, named kiste-e2e-bench-upd-N.
 *
 * Then, in turns in one run, in a rotating order (a warm-up round first):
 * Kiste's update check through KisteManager, every command recorded by a
 * runner that runs them as they are; the same skopeo inspects, at most as
 * many at once as Kiste runs; and those again, each after a podman image
 * inspect of its image, as Kiste's check runs them. The registry's access
 * log says which HTTP requests each side made. The exit status is 1 when
 * a check runs other than one skopeo per image, when the registry saw
 * other manifest requests from Kiste than from the bare skopeo inspects,
 * or when a check did not get an answer for every image. The registry,
 * the boxes and the images go at the end. */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <glib/gstdio.h>

#include "bench-common.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-updates.h"
#include "kiste-manager.h"

#define BOX_PREFIX "kiste-e2e-bench-upd-"

static GPtrArray *answer;

static void
check_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GError **error = user_data;

  answer = kiste_manager_query_finish (KISTE_MANAGER (object), result, error);
  bench_done = TRUE;
}

/* Runs argv to its end; on failure, error says how, with its stderr */
static gboolean
run_command (const char * const  *argv,
             GError             **error)
{
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autofree char *err = NULL;

  subprocess = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                  G_SUBPROCESS_FLAGS_STDERR_PIPE, error);
  if (subprocess == NULL ||
      !g_subprocess_communicate_utf8 (subprocess, NULL, NULL, NULL, &err, error))
    return FALSE;
  if (!g_subprocess_get_successful (subprocess))
    {
      g_autofree char *command = kiste_argv_to_display_string (argv);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s failed: %s", command,
                   err != NULL ? g_strstrip (err) : "");
      return FALSE;
    }
  return TRUE;
}

static void
run_quietly (const char * const *argv)
{
  g_autoptr(GError) error = NULL;

  if (!run_command (argv, &error))
    g_debug ("%s", error->message);
}

/* The registry */

typedef struct
{
  char        *dir;
  char        *conf_dir;    /* the user's registries.conf.d */
  char        *conf_path;   /* our file there */
  gboolean     made_conf_dir;
  char        *access_log;
  char        *server_log;
  char        *address;
  int          port;
  GSubprocess *process;
} Registry;

static void
die_with_parent (gpointer user_data)
{
  (void) user_data;
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static gboolean
port_answers (int port)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnection) connection = NULL;

  g_socket_client_set_timeout (client, 1);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
  return connection != NULL;
}

static void
wait_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  bench_done = TRUE;
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  bench_done = TRUE;
  return G_SOURCE_REMOVE;
}

static void
registry_stop (Registry *registry)
{
  if (registry->process != NULL)
    {
      gboolean timed_out = FALSE;
      guint timeout;

      g_subprocess_send_signal (registry->process, SIGTERM);
      g_subprocess_wait_async (registry->process, NULL, wait_cb, NULL);
      timeout = g_timeout_add_seconds (5, timeout_cb, &timed_out);
      bench_run_until_done ();
      if (timed_out)
        {
          g_subprocess_force_exit (registry->process);
          bench_run_until_done ();
        }
      else
        g_source_remove (timeout);
      g_clear_object (&registry->process);
    }
  if (registry->conf_path != NULL)
    g_unlink (registry->conf_path);
  if (registry->made_conf_dir)
    g_rmdir (registry->conf_dir);
  if (registry->dir != NULL)
    {
      const char *rm[] = { "rm", "-rf", "--", registry->dir, NULL };

      run_quietly (rm);
    }
}

static gboolean
registry_start (Registry  *registry,
                int        port,
                GError   **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *config = NULL;
  g_autofree char *conf = NULL;
  g_autofree char *data = NULL;

  registry->port = port;
  registry->address = g_strdup_printf ("127.0.0.1:%d", port);
  if (port_answers (port))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE,
                   "something listens on %s already (--port)", registry->address);
      return FALSE;
    }

  registry->dir = g_dir_make_tmp ("kiste-bench-updates-XXXXXX", error);
  if (registry->dir == NULL)
    return FALSE;
  data = g_build_filename (registry->dir, "data", NULL);
  config_path = g_build_filename (registry->dir, "config.yml", NULL);
  registry->access_log = g_build_filename (registry->dir, "access.log", NULL);
  registry->server_log = g_build_filename (registry->dir, "registry.log", NULL);
  config = g_strdup_printf ("version: 0.1\n"
                            "log:\n"
                            "  level: info\n"
                            "  accesslog:\n"
                            "    disabled: false\n"
                            "storage:\n"
                            "  filesystem:\n"
                            "    rootdirectory: %s\n"
                            "  delete:\n"
                            "    enabled: true\n"
                            "http:\n"
                            "  addr: %s\n"
                            "  secret: kiste-bench-updates\n",
                            data, registry->address);
  if (!g_file_set_contents (config_path, config, -1, error))
    return FALSE;

  /* Plain HTTP for this registry, for podman and skopeo alike, as the
   * user's configuration would say */
  registry->conf_dir = g_build_filename (g_get_home_dir (), ".config", "containers",
                                         "registries.conf.d", NULL);
  registry->conf_path = g_build_filename (registry->conf_dir, "90-kiste-bench-updates.conf", NULL);
  if (!g_file_test (registry->conf_dir, G_FILE_TEST_IS_DIR))
    {
      if (g_mkdir_with_parents (registry->conf_dir, 0755) != 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make %s", registry->conf_dir);
          return FALSE;
        }
      registry->made_conf_dir = TRUE;
    }
  conf = g_strdup_printf ("# Made by kiste-bench-updates while it runs\n"
                          "[[registry]]\nlocation = \"%s\"\ninsecure = true\n", registry->address);
  if (!g_file_set_contents (registry->conf_path, conf, -1, error))
    return FALSE;

  /* The access log (one line per request) on stdout, the rest on stderr */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  g_subprocess_launcher_set_stdout_file_path (launcher, registry->access_log);
  g_subprocess_launcher_set_stderr_file_path (launcher, registry->server_log);
  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  registry->process = g_subprocess_launcher_spawn (launcher, error, "docker-registry", "serve",
                                                   config_path, NULL);
  if (registry->process == NULL)
    return FALSE;

  for (int i = 0; i < 100; i++)
    {
      if (port_answers (port))
        return TRUE;
      g_usleep (100 * 1000);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
               "docker-registry did not answer on %s within 10 s (its log: %s)",
               registry->address, registry->server_log);
  return FALSE;
}

static goffset
file_size (const char *path)
{
  GStatBuf buf;

  return g_stat (path, &buf) == 0 ? buf.st_size : 0;
}

/* The registry logs a request once it has answered it, so possibly after
 * the client is gone: waits until the access log has not grown for 0.3 s */
static goffset
registry_settle (Registry *registry)
{
  goffset size = file_size (registry->access_log);

  for (int still = 0; still < 3;)
    {
      goffset now;

      g_usleep (100 * 1000);
      now = file_size (registry->access_log);
      still = now == size ? still + 1 : 0;
      size = now;
    }
  return size;
}

/* What the access log says */

typedef struct
{
  guint pings;          /* GET /v2/: the API version check */
  guint manifest_gets;
  guint manifest_heads;
  guint blob_gets;      /* the image's configuration */
  guint other;
  guint failed;         /* answered 400 or more */
  guint total;
} Tally;

typedef struct
{
  Tally       all;
  GHashTable *repos;    /* repository -> Tally */
} Requests;

static void
requests_clear (Requests *requests)
{
  g_clear_pointer (&requests->repos, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Requests, requests_clear)

static Tally *
requests_repo (Requests   *requests,
               const char *repo)
{
  Tally *tally = g_hash_table_lookup (requests->repos, repo);

  if (tally == NULL)
    {
      tally = g_new0 (Tally, 1);
      g_hash_table_insert (requests->repos, g_strdup (repo), tally);
    }
  return tally;
}

/* One line of the combined log format:
 * HOST - USER [TIME] "METHOD URI PROTOCOL" STATUS SIZE "REFERER" "AGENT" */
static void
requests_add_line (Requests   *requests,
                   const char *line)
{
  const char *open = strchr (line, '"');
  const char *close = open != NULL ? strchr (open + 1, '"') : NULL;
  g_autofree char *request = NULL;
  g_auto(GStrv) words = NULL;
  const char *uri;
  const char *marker = NULL;
  Tally *tally = NULL;
  guint64 status;

  if (close == NULL)
    return;
  request = g_strndup (open + 1, close - open - 1);
  words = g_strsplit (request, " ", 3);
  if (g_strv_length (words) < 2)
    return;
  uri = words[1];
  status = g_ascii_strtoull (close + 1, NULL, 10);

  requests->all.total++;
  if (status >= 400)
    requests->all.failed++;
  if (strcmp (uri, "/v2/") == 0 || strcmp (uri, "/v2") == 0)
    {
      requests->all.pings++;
      return;
    }
  if (g_str_has_prefix (uri, "/v2/") &&
      ((marker = strstr (uri, "/manifests/")) != NULL || (marker = strstr (uri, "/blobs/")) != NULL))
    {
      g_autofree char *repo = g_strndup (uri + 4, marker - (uri + 4));

      tally = requests_repo (requests, repo);
      tally->total++;
      if (status >= 400)
        tally->failed++;
    }

  if (tally == NULL)
    requests->all.other++;
  else if (g_str_has_prefix (marker, "/manifests/") && strcmp (words[0], "GET") == 0)
    {
      tally->manifest_gets++;
      requests->all.manifest_gets++;
    }
  else if (g_str_has_prefix (marker, "/manifests/") && strcmp (words[0], "HEAD") == 0)
    {
      tally->manifest_heads++;
      requests->all.manifest_heads++;
    }
  else if (g_str_has_prefix (marker, "/blobs/") && strcmp (words[0], "GET") == 0)
    {
      tally->blob_gets++;
      requests->all.blob_gets++;
    }
  else
    {
      tally->other++;
      requests->all.other++;
    }
}

static void
requests_init (Requests *requests)
{
  memset (requests, 0, sizeof *requests);
  requests->repos = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* The requests logged from one offset of the access log to another */
static void
requests_read (Requests   *requests,
               const char *path,
               goffset     from,
               goffset     to)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  gsize length = 0;

  requests_init (requests);
  if (!g_file_get_contents (path, &contents, &length, NULL) || from >= (goffset) length)
    return;
  contents[MIN ((gsize) to, length)] = '\0';
  lines = g_strsplit (contents + from, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      requests_add_line (requests, lines[i]);
}

/* The bare side: the same skopeo inspects, at most as many at once as
 * Kiste runs; with_local: each after the engine's image inspect of its
 * image, as Kiste's check runs them */

typedef struct
{
  KisteRunner  *runner;
  GPtrArray    *images;
  gboolean      with_local;
  guint         next;
  guint         running;
  GError       *error;
} Bare;

typedef struct
{
  Bare       *bare;
  const char *image;
} BareJob;

static void bare_next   (Bare    *bare);
static void bare_remote (BareJob *job);

static void
bare_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autofree BareJob *job = user_data;
  Bare *bare = job->bare;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error) &&
      bare->error == NULL)
    bare->error = g_steal_pointer (&error);
  bare->running--;
  bare_next (bare);
}

static void
bare_local_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  BareJob *job = user_data;
  g_autoptr(GError) error = NULL;

  if (!kiste_runner_run_finish (KISTE_RUNNER (object), result, NULL, NULL, &error) &&
      job->bare->error == NULL)
    job->bare->error = g_steal_pointer (&error);
  bare_remote (job);
}

static void
bare_remote (BareJob *job)
{
  g_autofree char *timeout = g_strdup_printf ("--command-timeout=%us",
                                              KISTE_MANAGER_UPDATE_TIMEOUT_SECONDS);
  g_autofree char *reference = g_strconcat ("docker://", job->image, NULL);
  const char *argv[] = { "skopeo", timeout, "inspect", "--no-tags", reference, NULL };

  kiste_runner_run_async (job->bare->runner, argv, 0, NULL, bare_cb, job);
}

static void
bare_next (Bare *bare)
{
  while (bare->running < KISTE_MANAGER_UPDATE_REQUESTS && bare->next < bare->images->len)
    {
      BareJob *job = g_new0 (BareJob, 1);

      job->bare = bare;
      job->image = g_ptr_array_index (bare->images, bare->next++);
      bare->running++;
      if (bare->with_local)
        {
          const char *argv[] = { "podman", "image", "inspect", "--format", "json", "--",
                                 job->image, NULL };

          kiste_runner_run_async (bare->runner, argv, 0, NULL, bare_local_cb, job);
        }
      else
        bare_remote (job);
    }
  if (bare->running == 0)
    bench_done = TRUE;
}

static gboolean
bare_run (KisteRunner  *runner,
          GPtrArray    *images,
          gboolean      with_local,
          GError      **error)
{
  Bare bare = { runner, images, with_local, 0, 0, NULL };

  bench_done = FALSE;
  bare_next (&bare);
  while (!bench_done)
    g_main_context_iteration (NULL, TRUE);
  if (bare.error != NULL)
    {
      g_propagate_error (error, bare.error);
      return FALSE;
    }
  return TRUE;
}

/* Kiste's side */

typedef struct
{
  guint  skopeo;        /* skopeo commands the check ran */
  guint  local;         /* the engine's image inspects */
  guint  others;        /* any other command */
  guint  asked_wrong;   /* ours asked other than once each */
  double first_remote;  /* seconds from the call to the first skopeo */
  guint  answered;      /* ours with a current or newer answer */
  char  *states;        /* ours, as the check said */
} Check;

static const char *
state_name (KisteImageUpdateState state)
{
  switch (state)
    {
    case KISTE_IMAGE_UPDATE_CURRENT:
      return "current";
    case KISTE_IMAGE_UPDATE_NEWER:
      return "newer";
    case KISTE_IMAGE_UPDATE_LOCAL:
      return "local";
    case KISTE_IMAGE_UPDATE_UNREACHABLE:
      return "unreachable";
    case KISTE_IMAGE_UPDATE_FAILED:
    default:
      return "failed";
    }
}

static gboolean
run_check (KisteManager     *manager,
           KisteFakeRunner  *runner,
           GPtrArray        *images,
           Check            *check,
           GError          **error)
{
  GPtrArray *commands = kiste_fake_runner_get_commands (runner);
  g_autoptr(GString) states = g_string_new (NULL);
  guint first = commands->len;
  gint64 start;

  memset (check, 0, sizeof *check);
  check->first_remote = -1;

  start = g_get_monotonic_time ();
  kiste_manager_check_updates_async (manager, NULL, check_cb, error);
  bench_run_until_done ();
  if (answer == NULL)
    return FALSE;

  for (guint i = first; i < commands->len; i++)
    {
      const char *command = g_ptr_array_index (commands, i);

      if (g_str_has_prefix (command, "skopeo "))
        {
          if (check->skopeo++ == 0)
            check->first_remote = (kiste_fake_runner_get_started (runner, i) - start) / 1e6;
        }
      else if (strstr (command, " image inspect ") != NULL)
        check->local++;
      else
        check->others++;
    }

  for (guint i = 0; i < images->len; i++)
    {
      const char *image = g_ptr_array_index (images, i);
      g_autofree char *reference = g_strconcat (" docker://", image, NULL);
      guint asked = 0;

      for (guint j = first; j < commands->len; j++)
        {
          const char *command = g_ptr_array_index (commands, j);

          if (g_str_has_prefix (command, "skopeo ") && g_str_has_suffix (command, reference))
            asked++;
        }
      if (asked != 1)
        check->asked_wrong++;

      for (guint j = 0; j < answer->len; j++)
        {
          KisteImageUpdate *update = g_ptr_array_index (answer, j);

          if (g_strcmp0 (update->image, image) != 0)
            continue;
          if (update->state == KISTE_IMAGE_UPDATE_CURRENT || update->state == KISTE_IMAGE_UPDATE_NEWER)
            check->answered++;
          g_string_append_printf (states, "%s%s", states->len ? " " : "", state_name (update->state));
          if (update->message != NULL)
            g_string_append_printf (states, " (%s)", update->message);
        }
    }
  g_clear_pointer (&answer, g_ptr_array_unref);
  check->states = g_string_free (g_steal_pointer (&states), FALSE);
  return TRUE;
}

/* The remote images among the boxes Kiste lists, one per engine and name,
 * as the check groups them */
static guint
count_remote_groups (KisteManager *manager)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (manager));
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);
      const char *image = kiste_box_get_image (box);
      const char *engine = kiste_box_get_engine (box);

      if (image != NULL && kiste_image_update_is_remote (image))
        g_hash_table_add (seen, g_strconcat (engine ? engine : kiste_manager_get_engine (manager),
                                             "\n", image, NULL));
    }
  return g_hash_table_size (seen);
}

static guint
count_our_boxes (KisteManager *manager)
{
  GListModel *boxes = G_LIST_MODEL (kiste_manager_get_boxes (manager));
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (boxes); i++)
    {
      g_autoptr(KisteBox) box = g_list_model_get_item (boxes, i);

      if (g_str_has_prefix (kiste_box_get_name (box), BOX_PREFIX))
        n++;
    }
  return n;
}

/* Setting up and taking down */

static gboolean
make_images (Registry   *registry,
             const char *base,
             GPtrArray  *images,
             guint       n_images,
             GError    **error)
{
  g_autofree char *context = g_build_filename (registry->dir, "context", NULL);
  g_autofree char *containerfile = g_build_filename (context, "Containerfile", NULL);
  g_autofree char *from = g_strdup_printf ("FROM %s\n", base);

  if (g_mkdir (context, 0700) != 0 || !g_file_set_contents (containerfile, from, -1, error))
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot make %s", context);
      return FALSE;
    }

  for (guint i = 0; i < n_images; i++)
    {
      g_autofree char *image = g_strdup_printf ("%s/kiste-bench-upd-%u:latest", registry->address, i + 1);
      g_autofree char *label = g_strdup_printf ("kiste.bench.updates=%u", i + 1);
      const char *build[] = { "podman", "build", "--quiet", "--pull=never", "--label", label,
                              "--tag", image, "--file", containerfile, context, NULL };
      /* the benchmark's own tool calls; Kiste passes no TLS flag */
      const char *push[] = { "podman", "push", "--quiet", "--tls-verify=false", image, NULL };
      /* the local image then knows the digest the registry gave it */
      const char *pull[] = { "podman", "pull", "--quiet", "--tls-verify=false", image, NULL };

      if (!kiste_image_update_is_remote (image))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s is not an image Kiste would check", image);
          return FALSE;
        }
      g_ptr_array_add (images, g_strdup (image));
      if (!run_command (build, error) || !run_command (push, error) || !run_command (pull, error))
        return FALSE;
    }
  return TRUE;
}

static void
remove_boxes (guint n_boxes)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  g_strv_builder_add_many (builder, "podman", "rm", "--force", "--ignore", "--time", "0", NULL);
  for (guint i = 0; i < n_boxes; i++)
    g_strv_builder_take (builder, g_strdup_printf (BOX_PREFIX "%u", i + 1));
  argv = g_strv_builder_end (builder);
  run_quietly ((const char * const *) argv);
}

static gboolean
make_boxes (GPtrArray  *images,
            guint       n_boxes,
            GError    **error)
{
  for (guint i = 0; i < n_boxes; i++)
    {
      g_autofree char *name = g_strdup_printf (BOX_PREFIX "%u", i + 1);
      const char *create[] = { "distrobox", "create", "--yes", "--no-entry",
                               "--image", g_ptr_array_index (images, i % images->len),
                               "--name", name, NULL };

      if (!run_command (create, error))
        return FALSE;
    }
  return TRUE;
}

static void
remove_images (GPtrArray *images)
{
  for (guint i = 0; i < images->len; i++)
    {
      const char *rmi[] = { "podman", "rmi", "--force", g_ptr_array_index (images, i), NULL };

      run_quietly (rmi);
    }
}

static void
keep_artifact (const char *path,
               const char *name)
{
  const char *artifacts = g_getenv ("KISTE_ARTIFACTS");
  g_autoptr(GFile) source = g_file_new_for_path (path);
  g_autoptr(GFile) target = NULL;
  g_autofree char *target_path = NULL;

  if (artifacts == NULL || artifacts[0] == '\0')
    return;
  target_path = g_build_filename (artifacts, name, NULL);
  target = g_file_new_for_path (target_path);
  g_file_copy (source, target, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, NULL);
}

/* The measurement */

static void
print_requests (Requests  *requests,
                GPtrArray *images,
                guint      runs)
{
  for (guint i = 0; i < images->len; i++)
    {
      const char *image = g_ptr_array_index (images, i);
      const char *slash = strchr (image, '/');
      g_autofree char *repo = g_strndup (slash + 1, strcspn (slash + 1, ":"));
      Tally *tally = g_hash_table_lookup (requests->repos, repo);
      Tally none = { 0 };

      if (tally == NULL)
        tally = &none;
      g_print ("    %-40s %.1f manifest GET, %.1f manifest HEAD, %.1f blob GET, %.1f other\n",
               image, (double) tally->manifest_gets / runs, (double) tally->manifest_heads / runs,
               (double) tally->blob_gets / runs, (double) tally->other / runs);
    }
  g_print ("    %-40s %.1f GET /v2/\n", "the version check", (double) requests->all.pings / runs);
  g_print ("    %-40s %.1f requests, %.1f answered 400 or more\n", "in all",
           (double) requests->all.total / runs, (double) requests->all.failed / runs);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteFakeRunner) runner = NULL;
  g_autoptr(KisteRunner) bare_runner = NULL;
  g_autoptr(KisteManager) manager = NULL;
  g_autoptr(GPtrArray) images = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) kiste_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) bare_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) pair_times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) first_remote = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(Requests) kiste_requests = { { 0 }, NULL };
  g_auto(Requests) bare_requests = { { 0 }, NULL };
  g_autofree char *output = NULL;
  g_autofree char *first_states = NULL;
  Registry registry = { 0 };
  const char *base = g_getenv ("KISTE_E2E_IMAGE");
  int n_boxes = 20;
  int n_images = 5;
  int runs = 5;
  int port = 5055;
  guint failures = 0;
  guint expected_skopeo = 0;
  guint kiste_skopeo = 0;
  guint kiste_local = 0;
  guint kiste_others = 0;
  guint timed = 0;
  double made_images = 0;
  double made_boxes = 0;
  GOptionEntry entries[] = {
    { "boxes", 0, 0, G_OPTION_ARG_INT, &n_boxes, "Boxes to make (default 20)", "N" },
    { "images", 0, 0, G_OPTION_ARG_INT, &n_images, "Images they are made from (default 5)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed checks of each side (default 5)", "N" },
    { "port", 0, 0, G_OPTION_ARG_INT, &port, "The registry's port on 127.0.0.1 (default 5055)", "N" },
    { "output", 0, 0, G_OPTION_ARG_FILENAME, &output, "Append the result line to FILE", "FILE" },
    { NULL }
  };

  context = g_option_context_new ("- count and time the update check against a registry of its own");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (n_images < 1 || n_boxes < n_images || runs < 1 || port < 1 || port > 65535)
    g_error ("need 1 <= --images <= --boxes, --runs >= 1 and a port");
  if (base == NULL || base[0] == '\0')
    base = "localhost/kiste-debian:ready";

  /* The registry, its images and the boxes */
  {
    gint64 start;

    if (!registry_start (&registry, port, &error))
      goto out;
    g_print ("registry on %s, access log %s\n", registry.address, registry.access_log);

    start = g_get_monotonic_time ();
    if (!make_images (&registry, base, images, n_images, &error))
      goto out;
    made_images = (g_get_monotonic_time () - start) / 1e6;

    remove_boxes (n_boxes);
    start = g_get_monotonic_time ();
    if (!make_boxes (images, n_boxes, &error))
      goto out;
    made_boxes = (g_get_monotonic_time () - start) / 1e6;
    g_print ("%d images built and pushed in %.1f s, %d boxes made in %.1f s\n",
             n_images, made_images, n_boxes, made_boxes);
  }

  /* Kiste, every command recorded and run as it is */
  runner = kiste_fake_runner_new ();
  kiste_fake_runner_set_default (runner, NULL);
  kiste_runner_set_cwd (KISTE_RUNNER (runner), g_get_home_dir ());
  bare_runner = kiste_runner_new ();
  kiste_runner_set_cwd (bare_runner, g_get_home_dir ());
  manager = kiste_manager_new (KISTE_RUNNER (runner));
  kiste_manager_load_async (manager, NULL, NULL, bench_operation_cb, &error);
  bench_run_until_done ();
  if (error != NULL)
    goto out;
  if (count_our_boxes (manager) != (guint) n_boxes)
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_FAILED, "Kiste lists %u of the %d boxes",
                   count_our_boxes (manager), n_boxes);
      goto out;
    }
  expected_skopeo = count_remote_groups (manager);
  if (expected_skopeo != (guint) n_images)
    g_print ("note: the user's other boxes add %u images from registries\n",
             expected_skopeo - n_images);

  requests_init (&kiste_requests);
  requests_init (&bare_requests);

  /* In turns, in a rotating order; round -1 warms up. Sides: Kiste's
   * check, the bare skopeo inspects, and the same each after the image
   * inspect Kiste runs before it */
  for (int round = -1; round < runs; round++)
    {
      for (int turn = 0; turn < 3; turn++)
        {
          int side = round < 0 ? turn : (turn + round) % 3;
          goffset from = registry_settle (&registry);
          goffset to;
          gint64 start = g_get_monotonic_time ();
          double seconds;
          Check check;
          Requests requests;
          Requests *sum = NULL;

          if (side == 0)
            {
              if (!run_check (manager, runner, images, &check, &error))
                goto out;
            }
          else if (!bare_run (bare_runner, images, side == 2, &error))
            goto out;
          seconds = (g_get_monotonic_time () - start) / 1e6;
          to = registry_settle (&registry);
          requests_read (&requests, registry.access_log, from, to);

          if (side == 0)
            {
              if (check.skopeo != expected_skopeo || check.asked_wrong != 0)
                {
                  g_printerr ("FAIL: a check ran %u skopeo commands (expected %u, one per image); "
                              "%u of ours asked other than once\n",
                              check.skopeo, expected_skopeo, check.asked_wrong);
                  failures++;
                }
              if (check.answered != (guint) n_images)
                {
                  g_printerr ("FAIL: a check answered %u of %d images: %s\n",
                              check.answered, n_images, check.states);
                  failures++;
                }
              if (first_states == NULL)
                first_states = g_strdup (check.states);
              g_free (check.states);
            }

          if (round >= 0 && side == 0)
            {
              g_array_append_val (kiste_times, seconds);
              g_array_append_val (first_remote, check.first_remote);
              kiste_skopeo += check.skopeo;
              kiste_local += check.local;
              kiste_others += check.others;
              sum = &kiste_requests;
            }
          else if (round >= 0 && side == 1)
            {
              g_array_append_val (bare_times, seconds);
              sum = &bare_requests;
            }
          else if (round >= 0)
            g_array_append_val (pair_times, seconds);

          /* this round's requests added to its side's */
          if (sum != NULL)
            {
              GHashTableIter iter;
              gpointer key;
              gpointer value;

              sum->all.pings += requests.all.pings;
              sum->all.manifest_gets += requests.all.manifest_gets;
              sum->all.manifest_heads += requests.all.manifest_heads;
              sum->all.blob_gets += requests.all.blob_gets;
              sum->all.other += requests.all.other;
              sum->all.failed += requests.all.failed;
              sum->all.total += requests.all.total;
              g_hash_table_iter_init (&iter, requests.repos);
              while (g_hash_table_iter_next (&iter, &key, &value))
                {
                  Tally *from_tally = value;
                  Tally *to_tally = requests_repo (sum, key);

                  to_tally->manifest_gets += from_tally->manifest_gets;
                  to_tally->manifest_heads += from_tally->manifest_heads;
                  to_tally->blob_gets += from_tally->blob_gets;
                  to_tally->other += from_tally->other;
                  to_tally->failed += from_tally->failed;
                  to_tally->total += from_tally->total;
                }
            }
          requests_clear (&requests);
        }
      if (round >= 0)
        timed++;
    }

  /* The registry's view: Kiste's manifest lookups are the bare skopeo
   * inspects' own, image for image */
  for (guint i = 0; i < images->len; i++)
    {
      const char *image = g_ptr_array_index (images, i);
      const char *slash = strchr (image, '/');
      g_autofree char *repo = g_strndup (slash + 1, strcspn (slash + 1, ":"));
      Tally *kiste_tally = g_hash_table_lookup (kiste_requests.repos, repo);
      Tally *bare_tally = g_hash_table_lookup (bare_requests.repos, repo);
      guint kiste_manifests = kiste_tally ? kiste_tally->manifest_gets + kiste_tally->manifest_heads : 0;
      guint bare_manifests = bare_tally ? bare_tally->manifest_gets + bare_tally->manifest_heads : 0;

      if (kiste_manifests == 0 || kiste_manifests != bare_manifests)
        {
          g_printerr ("FAIL: the registry saw %u manifest requests for %s from Kiste's %u checks, "
                      "%u from as many bare skopeo inspects\n",
                      kiste_manifests, image, timed, bare_manifests);
          failures++;
        }
    }

  {
    double m_kiste = bench_median (kiste_times);
    double m_bare = bench_median (bare_times);
    double m_first = bench_median (first_remote);
    double m_pair = bench_median (pair_times);
    g_autofree char *line = NULL;

    g_print ("update check of %d boxes over %d images, %u runs each, medians:\n", n_boxes, n_images, timed);
    g_print ("  the images' answers (first check): %s\n", first_states);
    g_print ("  commands per check: %.1f skopeo inspect (%u expected), %.1f image inspect, %.1f other\n",
             (double) kiste_skopeo / timed, expected_skopeo, (double) kiste_local / timed,
             (double) kiste_others / timed);
    g_print ("  registry requests per check, Kiste:\n");
    print_requests (&kiste_requests, images, timed);
    g_print ("  registry requests per run of %d bare skopeo inspects:\n", n_images);
    print_requests (&bare_requests, images, timed);
    {
      g_autofree char *bare_label = g_strdup_printf ("%d bare skopeo inspects, %d at once",
                                                     n_images, KISTE_MANAGER_UPDATE_REQUESTS);

      g_print ("  %-46s %7.1f ms  1.00x\n", bare_label, m_bare * 1000);
      g_print ("  %-46s %7.1f ms  %.2fx\n", "the same, each after its podman image inspect",
               m_pair * 1000, m_pair / m_bare);
      g_print ("  %-46s %7.1f ms  %.2fx (%.2fx the pairs; first skopeo after %.1f ms)\n",
               "Kiste's update check", m_kiste * 1000, m_kiste / m_bare, m_kiste / m_pair,
               m_first * 1000);
    }

    line = g_strdup_printf ("%d\t%d\t%u\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.2f\t%.2f\t%.1f\t%s\n",
                            n_boxes, n_images, timed,
                            (double) kiste_skopeo / timed,
                            (double) kiste_requests.all.total / timed,
                            (double) bare_requests.all.total / timed,
                            m_bare * 1000, m_pair * 1000, m_kiste * 1000,
                            m_kiste / m_bare, m_kiste / m_pair, m_first * 1000,
                            failures == 0 ? "ok" : "FAIL");
    if (output != NULL)
      bench_append_line (output,
                         "# boxes\timages\truns\tskopeo\treq_kiste\treq_bare\tbare_ms\tpairs_ms\t"
                         "kiste_ms\tratio\tratio_pairs\tfirst_ms\tcount\n",
                         line);
  }

out:
  if (error != NULL)
    {
      g_printerr ("kiste-bench-updates: %s\n", error->message);
      failures++;
    }
  g_clear_object (&manager);
  if (registry.access_log != NULL)
    {
      keep_artifact (registry.access_log, "registry-access.log");
      keep_artifact (registry.server_log, "registry.log");
    }
  remove_boxes (n_boxes);
  remove_images (images);
  registry_stop (&registry);
  g_free (registry.conf_dir);
  g_free (registry.conf_path);
  g_free (registry.access_log);
  g_free (registry.server_log);
  g_free (registry.address);
  g_free (registry.dir);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
