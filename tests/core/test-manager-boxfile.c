/* test-manager-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Save to File and Open Box File through the manager, against the fake
 * runner: every command, the file written, and a cancel that leaves no
 * file under the chosen name */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kiste-boxfile-private.h"
#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-boxfile-private.h"
#include "kiste-manager-boxfile.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-util.h"

typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *dir;
  char            *applications;
  char            *file;
  char            *cache;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", "--init", "--home", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *launcher = NULL;

  fixture->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fixture->runner, "podman ps",
                         "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (fixture->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  /* podman save writes its archive where -o says: $5 */
  kiste_fake_runner_add (fixture->runner, "podman save", "printf 'an image' > \"$5\"");
  fixture->manager = kiste_manager_new (KISTE_RUNNER (fixture->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fixture->manager),
                                       "1.8.2.5", "podman", flags);
  kiste_test_merge_boxes (_kiste_manager_get_store (fixture->manager), "ps-podman5.json",
                          "/home/tester");

  fixture->dir = g_dir_make_tmp ("kiste-test-manager-boxfile-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->applications = g_build_filename (fixture->dir, "applications", NULL);
  g_assert_cmpint (g_mkdir (fixture->applications, 0700), ==, 0);
  _kiste_manager_set_host_dirs (fixture->manager, fixture->applications, fixture->dir);
  /* an app fixture-a exported */
  launcher = g_build_filename (fixture->applications, "fixture-a-org.gnome.gedit.desktop", NULL);
  g_file_set_contents (launcher,
                       "[Desktop Entry]\nType=Application\nName=Text Editor (on fixture-a)\n"
                       "Exec=/usr/bin/distrobox-enter  -n fixture-a  --   gedit %U \n",
                       -1, &error);
  g_assert_no_error (error);
  fixture->file = g_build_filename (fixture->dir, "fixture-a.kistebox", NULL);
  fixture->cache = g_build_filename (g_get_user_cache_dir (), "kiste", NULL);
}

static gboolean
cleaned_up (gpointer data)
{
  return !kiste_manager_get_cleaning_up (data);
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  gpointer runner = fixture->runner;

  /* the committed image's removal, which runs after the operation */
  g_assert_true (kiste_test_wait_for (cleaned_up, fixture->manager, 5000));
  kiste_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->applications);
  g_free (fixture->file);
  g_free (fixture->cache);
  g_clear_object (&fixture->manager);
  /* a process the operation killed is reaped after it returned: its run
   * holds the runner until then */
  g_object_add_weak_pointer (G_OBJECT (runner), &runner);
  g_object_unref (fixture->runner);
  g_assert_true (kiste_test_wait_for (pointer_cleared, &runner, 5000));
}

typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} Result;

static void
operation_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

static void
wait_result (Result *r)
{
  while (!r->done)
    g_main_context_iteration (NULL, TRUE);
}

static gboolean
rmi_ran (gpointer data)
{
  return kiste_fake_runner_count (data, "podman rmi") == 1;
}

static gboolean
save_ran (gpointer data)
{
  return kiste_fake_runner_count (data, "podman save") == 1;
}

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

/* Saves box_name, which must fail with code and leave no file, beside
 * the chosen one or in Kiste's cache; the message, when asked for */
static GError *
save_fails (Fixture    *fixture,
            const char *box_name,
            gboolean    with_home,
            int         code)
{
  Result r = { 0 };

  kiste_manager_save_boxfile_async (fixture->manager, box_name, fixture->file, with_home, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, code);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (fixture->dir), ==, 1);
  g_assert_cmpuint (count_entries (fixture->cache), ==, 0);
  return r.error;
}

static void
test_save (Fixture       *fixture,
           gconstpointer  data)
{
  Result r = { 0 };
  g_autofree char *out = g_build_filename (fixture->dir, "out", NULL);
  g_autoptr(KisteBoxfile) read = NULL;
  g_autoptr(GError) error = NULL;
  const char *save;

  g_assert_nonnull (kiste_manager_save_boxfile_async (fixture->manager, "fixture-a", fixture->file, FALSE,
                                                      NULL, operation_cb, &r));
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);

  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman container commit"), ==,
                   "podman container commit fixture-a localhost/kiste-saved/fixture-a:latest");
  save = kiste_fake_runner_find (fixture->runner, "podman save");
  g_assert_nonnull (save);
  g_assert_true (g_str_has_prefix (save, "podman save --format docker-archive -o "));
  g_assert_true (g_str_has_suffix (save, "/image.pipe localhost/kiste-saved/fixture-a:latest"));
  /* into Kiste's cache, which the host sees at the same path */
  g_assert_nonnull (strstr (save, fixture->cache));
  /* the committed image removed afterwards */
  g_assert_true (kiste_test_wait_for (rmi_ran, fixture->runner, 5000));
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman rmi"), ==,
                   "podman rmi localhost/kiste-saved/fixture-a:latest");

  /* the file holds the image, the settings with that image, the app */
  g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
  read = kiste_boxfile_read (fixture->file, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (read->name, ==, "fixture-a");
  g_assert_cmpstr (read->engine, ==, "podman");
  g_assert_cmpstr (read->image, ==, "localhost/kiste-saved/fixture-a:latest");
  g_assert_nonnull (strstr (read->settings, "[fixture-a]\n"));
  g_assert_nonnull (strstr (read->settings, "image=\"localhost/kiste-saved/fixture-a:latest\"\n"));
  g_assert_cmpuint (g_strv_length (read->apps), ==, 1);
  g_assert_cmpstr (read->apps[0], ==, "org.gnome.gedit.desktop");
  /* the staging folder is gone: the save left nothing in the cache */
  g_assert_false (g_str_has_suffix (save, "does not exist"));
  {
    g_autofree char *folder = g_path_get_dirname (save + strlen ("podman save --format docker-archive -o "));

    g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
  }
}

static void
test_save_cancelled (Fixture       *fixture,
                     gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  /* a save that takes its time, cancelled on the way */
  kiste_fake_runner_add (fixture->runner, "podman save", "printf 'an image' > \"$5\"; sleep 30");
  g_assert_nonnull (kiste_manager_save_boxfile_async (fixture->manager, "fixture-a", fixture->file, FALSE,
                                                      cancellable, operation_cb, &r));
  g_assert_true (kiste_test_wait_for (save_ran, fixture->runner, 5000));
  g_cancellable_cancel (cancellable);
  wait_result (&r);
  g_assert_false (r.ok);
  g_assert_nonnull (r.error);
  g_clear_error (&r.error);
  /* nothing under the chosen name, no temporary file beside it */
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (fixture->dir), ==, 1);
}

static void
test_save_fails_on_commit (Fixture       *fixture,
                           gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman container commit",
                         "echo 'no space left on device' >&2; exit 125");
  kiste_manager_save_boxfile_async (fixture->manager, "fixture-a", fixture->file, FALSE, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman save"), ==, 0);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (fixture->dir), ==, 1);
}

/* The engine fails before it opens the pipe, or ends without writing:
 * the copy does not wait for ever, the engine's words are said, and
 * nothing is left */
static void
test_save_engine_fails (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fixture->runner, "podman save",
                         "echo 'Error: no space left on device' >&2; exit 125");
  error = save_fails (fixture, "fixture-a", FALSE, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "no space left on device"));
  g_clear_error (&error);

  kiste_fake_runner_add (fixture->runner, "podman save", "true");
  error = save_fails (fixture, "fixture-a", FALSE, KISTE_ERROR_BAD_OUTPUT);
}

/* The home is packed beside the commit: a commit that fails does not
 * wait for a slow tar, and a tar that fails before it opens its pipe
 * does not leave the save waiting */
static void
test_save_home_beside_commit (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 start;

  kiste_fake_runner_add (fixture->runner, "podman unshare tar --create", "sleep 30");
  kiste_fake_runner_add (fixture->runner, "podman container commit",
                         "echo 'no space left on device' >&2; exit 125");
  start = g_get_monotonic_time ();
  error = save_fails (fixture, "fixture-b", TRUE, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&error);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  /* both ran: tar did not wait for the commit */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman unshare tar --create"), ==, 1);

  kiste_fake_runner_add (fixture->runner, "podman container commit", "true");
  kiste_fake_runner_add (fixture->runner, "podman unshare tar --create",
                         "echo 'tar: cannot change to the folder' >&2; exit 2");
  error = save_fails (fixture, "fixture-b", TRUE, KISTE_ERROR_COMMAND_FAILED);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman save"), ==, 0);
}

static void
test_save_refuses_toolbox (Fixture       *fixture,
                           gconstpointer  data)
{
  Result r = { 0 };

  kiste_manager_save_boxfile_async (fixture->manager, "fixture-toolbox", fixture->file, FALSE, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_false (r.ok);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container commit"), ==, 0);
}

/* An engine's image archive of one member, names, with text in it */
static void
write_archive (const char *path,
               const char *names,
               const char *text)
{
  g_autoptr(GString) archive = g_string_new (NULL);
  guchar block[KISTE_TAR_BLOCK];

  _kiste_boxfile_tar_header (block, names, strlen (text));
  g_string_append_len (archive, (const char *) block, sizeof block);
  g_string_append (archive, text);
  while (archive->len % KISTE_TAR_BLOCK != 0 || archive->len < 4 * KISTE_TAR_BLOCK)
    g_string_append_c (archive, '\0');
  g_assert_true (g_file_set_contents (path, archive->str, archive->len, NULL));
}

/* An image archive as podman saves an OCI archive, naming image in its
 * index */
static void
write_image_archive (const char *path,
                     const char *image)
{
  g_autofree char *index = g_strdup_printf ("{\"schemaVersion\":2,\"manifests\":[{"
                                            "\"annotations\":{\"org.opencontainers.image."
                                            "ref.name\":\"%s\"}}]}", image);

  write_archive (path, "index.json", index);
}

static KisteBoxfile *
make_read_boxfile (Fixture *fixture)
{
  KisteBoxfile *boxfile = kiste_boxfile_new ();

  boxfile->name = g_strdup ("fixture-a");
  boxfile->tool = g_strdup ("distrobox");
  boxfile->engine = g_strdup ("podman");
  boxfile->image = g_strdup ("localhost/kiste-saved/fixture-a:latest");
  boxfile->settings = g_strdup ("[fixture-a]\nimage=localhost/kiste-saved/fixture-a:latest\n"
                                "init=false\n");
  boxfile->apps = g_new0 (char *, 1);
  boxfile->image_path = g_build_filename (fixture->dir, "image.tar", NULL);
  write_image_archive (boxfile->image_path, boxfile->image);
  return boxfile;
}

static void
test_open (Fixture       *fixture,
           gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *load = g_strdup_printf ("podman load -i %s", boxfile->image_path);
  g_autofree char *problem = NULL;

  /* the name is taken: asked for another before anything runs */
  problem = kiste_manager_check_boxfile (fixture->manager, boxfile, "fixture-a");
  g_assert_nonnull (problem);
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "fixture-a", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);

  g_assert_null (kiste_manager_check_boxfile (fixture->manager, boxfile, "restored"));
  /* create fails here: the load and the create's argv are what counts */
  kiste_fake_runner_add (fixture->runner, "podman load",
                         "echo 'Loaded image: localhost/kiste-saved/fixture-a:latest'");
  kiste_fake_runner_add (fixture->runner, "distrobox create", "exit 1");
  r = (Result) { 0 };
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman load"), ==, load);
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "distrobox create"));
  g_assert_true (g_str_has_prefix (kiste_fake_runner_find (fixture->runner, "distrobox create"),
                                   "distrobox create --yes --name restored "
                                   "--image localhost/kiste-saved/fixture-a:latest"));
}

/* An image archive as podman saves a docker archive: manifest.json
 * naming image, no OCI index */
static void
write_docker_archive (const char *path,
                      const char *image)
{
  g_autofree char *manifest = g_strdup_printf ("[{\"Config\":\"4513.json\",\"RepoTags\":[\"%s\"],"
                                               "\"Layers\":[\"58a8/layer.tar\"]}]", image);

  write_archive (path, "manifest.json", manifest);
}

#define PULLED_ID "4513e174dd7b520bea4d5f0dca9ff02385f0f0ccfa83c6d665278ab086e093f2"

/* podman pulls a docker archive in place of `podman load`, which would
 * unpack it whole first; its answer must be the id */
static void
test_open_pulled (Fixture       *fixture,
                  gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *pull = g_strdup_printf ("podman pull --quiet docker-archive:%s",
                                           boxfile->image_path);
  g_autofree char *colon_dir = g_build_filename (fixture->dir, "a:b", NULL);
  g_autofree char *load = NULL;

  write_docker_archive (boxfile->image_path, boxfile->image);
  kiste_fake_runner_add (fixture->runner, "podman pull", "echo warning >&2; echo " PULLED_ID);
  kiste_fake_runner_add (fixture->runner, "podman image inspect --format '{{.Id}}'",
                         "echo " PULLED_ID);
  kiste_fake_runner_add (fixture->runner, "distrobox create", "exit 1");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman pull"), ==, pull);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman image inspect"), ==,
                   "podman image inspect --format '{{.Id}}' localhost/kiste-saved/fixture-a:latest");
  g_assert_true (g_str_has_prefix (kiste_fake_runner_find (fixture->runner, "distrobox create"),
                                   "distrobox create --yes --name restored "
                                   "--image localhost/kiste-saved/fixture-a:latest"));

  /* the index's name on another image than the one pulled: it goes
   * again, nothing is made */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "podman image inspect --format '{{.Id}}'",
                         "echo 0000000000000000000000000000000000000000000000000000000000000000");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox create"), ==, 1);
  g_assert_true (kiste_test_wait_for (cleaned_up, fixture->manager, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 1);

  /* an answer that is not the id: the image goes again, nothing is made */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "podman pull", "echo 'Loaded image: other'");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox create"), ==, 1);
  g_assert_true (kiste_test_wait_for (cleaned_up, fixture->manager, 5000));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 2);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman rmi"), ==,
                   "podman rmi localhost/kiste-saved/fixture-a:latest");

  /* the transport ends a path at a colon: such a path is loaded */
  g_assert_cmpint (g_mkdir (colon_dir, 0700), ==, 0);
  g_free (boxfile->image_path);
  boxfile->image_path = g_build_filename (colon_dir, "image.tar", NULL);
  write_docker_archive (boxfile->image_path, boxfile->image);
  load = g_strdup_printf ("podman load -i %s", boxfile->image_path);
  kiste_fake_runner_add (fixture->runner, "podman load",
                         "echo 'Loaded image: localhost/kiste-saved/fixture-a:latest'");
  r = (Result) { 0 };
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman load"), ==, load);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman pull"), ==, 3);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox create"), ==, 2);
}

static void
test_open_refusals (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  const char *settings[] = { "[fixture-a]\nroot=true\n", "[a]\n[b]\n", NULL };
  g_autofree char *problem = NULL;

  /* an engine this computer does not have */
  g_free (boxfile->engine);
  boxfile->engine = g_strdup ("docker");
  problem = kiste_manager_check_boxfile (fixture->manager, boxfile, "restored");
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, "docker"));
  g_free (boxfile->engine);
  boxfile->engine = g_strdup ("podman");

  for (guint i = 0; settings[i] != NULL; i++)
    {
      Result r = { 0 };

      g_free (boxfile->settings);
      boxfile->settings = g_strdup (settings[i]);
      kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                        operation_cb, &r);
      wait_result (&r);
      g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_clear_error (&r.error);
    }
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);

  /* the archive inside named another image: no box is made of it */
  {
    Result r = { 0 };

    g_free (boxfile->settings);
    boxfile->settings = g_strdup ("[fixture-a]\nimage=localhost/kiste-saved/fixture-a:latest\n");
    kiste_fake_runner_add (fixture->runner, "podman load",
                           "echo 'Loaded image: docker.io/library/debian:latest'");
    kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                      operation_cb, &r);
    wait_result (&r);
    g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    g_clear_error (&r.error);
    g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 1);
    g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  }
}

static void
test_save_home (Fixture       *fixture,
                gconstpointer  data)
{
  Result r = { 0 };
  g_autofree char *out = g_build_filename (fixture->dir, "out", NULL);
  g_autoptr(KisteBoxfile) read = NULL;
  g_autoptr(GError) error = NULL;
  const char *pack;

  /* a box with the user's own home has none of its own to save */
  kiste_manager_save_boxfile_async (fixture->manager, "fixture-a", fixture->file, TRUE, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman container commit"), ==, 0);

  /* in podman's user namespace, for files of the box's subordinate ids;
   * tar writes where --file says: $5 */
  kiste_fake_runner_add (fixture->runner, "podman unshare tar --create",
                         "printf 'a home' > \"$5\"");
  r = (Result) { 0 };
  kiste_manager_save_boxfile_async (fixture->manager, "fixture-b", fixture->file, TRUE, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  pack = kiste_fake_runner_find (fixture->runner, "podman unshare tar --create");
  g_assert_nonnull (pack);
  g_assert_nonnull (strstr (pack, fixture->cache));
  g_assert_true (g_str_has_suffix (pack, "/home.pipe --directory /home/tester/h2 "
                                         "--one-file-system --sparse ."));

  g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
  read = kiste_boxfile_read (fixture->file, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (read->home_path);
  g_assert_cmpuint (read->home_size, ==, strlen ("a home"));
}

/* Where the cache cannot hold a named pipe, tar and the engine write
 * files there, copied in once each is done, and removed */
static void
test_save_without_pipes (Fixture       *fixture,
                         gconstpointer  data)
{
  Result r = { 0 };
  g_autofree char *out = g_build_filename (fixture->dir, "out", NULL);
  g_autoptr(KisteBoxfile) read = NULL;
  g_autoptr(GError) error = NULL;
  const char *pack;
  const char *save;
  g_autofree char *contents = NULL;

  _kiste_manager_boxfile_set_pipes_for_testing (FALSE);
  /* each refuses anything but a plain file */
  kiste_fake_runner_add (fixture->runner, "podman unshare tar --create",
                         "[ ! -p \"$5\" ] && printf 'a home' > \"$5\"");
  kiste_fake_runner_add (fixture->runner, "podman save",
                         "[ ! -p \"$5\" ] && printf 'an image' > \"$5\"");
  kiste_manager_save_boxfile_async (fixture->manager, "fixture-b", fixture->file, TRUE, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  _kiste_manager_boxfile_set_pipes_for_testing (TRUE);
  g_assert_no_error (r.error);
  pack = kiste_fake_runner_find (fixture->runner, "podman unshare tar --create");
  g_assert_nonnull (strstr (pack, "/home.tar --directory "));
  save = kiste_fake_runner_find (fixture->runner, "podman save");
  g_assert_true (g_str_has_suffix (save, "/image.tar localhost/kiste-saved/fixture-b:latest"));

  g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
  read = kiste_boxfile_read (fixture->file, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (read->image_path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "an image");
  g_assert_cmpuint (read->home_size, ==, strlen ("a home"));
  g_assert_cmpuint (count_entries (fixture->cache), ==, 0);
}

/* A home with a file tar cannot read: refused with the reason, and no
 * file under the chosen name */
static void
test_save_home_unreadable (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  kiste_fake_runner_add (fixture->runner, "podman unshare tar --create",
                         "echo 'tar: ./secret: Cannot open: Permission denied' >&2; exit 2");
  error = save_fails (fixture, "fixture-b", TRUE, KISTE_ERROR_COMMAND_FAILED);
  g_assert_nonnull (strstr (error->message, "belong to another user"));
}

static void
test_open_home (Fixture       *fixture,
                gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *existing = g_build_filename (fixture->dir, "existing", NULL);
  g_autofree char *fresh = g_build_filename (fixture->dir, "restored home", NULL);
  g_autofree char *quoted = g_shell_quote (fresh);
  g_autofree char *make_folder = g_strdup_printf ("mkdir --mode=0700 -- %s", quoted);
  const char *unpack;

  /* a file without a home */
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);

  /* never over a folder that is there */
  boxfile->home_path = g_build_filename (fixture->dir, "home.tar", NULL);
  g_assert_cmpint (g_mkdir (existing, 0700), ==, 0);
  r = (Result) { 0 };
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", existing, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "mkdir"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "tar"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);

  /* a new folder: made, the home unpacked, then the image and the box */
  kiste_fake_runner_add (fixture->runner, "mkdir", "exit 0");
  kiste_fake_runner_add (fixture->runner, "tar --extract", "exit 0");
  kiste_fake_runner_add (fixture->runner, "podman load",
                         "echo 'Loaded image: localhost/kiste-saved/fixture-a:latest'");
  kiste_fake_runner_add (fixture->runner, "distrobox create", "exit 1");
  r = (Result) { 0 };
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "mkdir"), ==, make_folder);
  unpack = kiste_fake_runner_find (fixture->runner, "tar --extract");
  g_assert_nonnull (unpack);
  g_assert_true (g_str_has_prefix (unpack, "tar --extract --file "));
  g_assert_nonnull (strstr (unpack, "--no-same-owner"));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner, "podman load"));
  g_assert_nonnull (strstr (kiste_fake_runner_find (fixture->runner, "distrobox create"),
                            "--home"));
  g_assert_nonnull (strstr (kiste_fake_runner_find (fixture->runner, "distrobox create"),
                            "restored home"));
}


/* A crafted file whose image archive names one of the user's images:
 * refused before anything is made or loaded */
static void
test_open_hostile_names (Fixture       *fixture,
                         gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *fresh = g_build_filename (fixture->dir, "restored home", NULL);

  boxfile->home_path = g_build_filename (fixture->dir, "home.tar", NULL);
  write_image_archive (boxfile->image_path, "docker.io/library/debian:latest");
  kiste_fake_runner_add (fixture->runner, "mkdir", "exit 0");
  kiste_fake_runner_add (fixture->runner, "podman load",
                         "echo 'Loaded image: localhost/kiste-saved/fixture-a:latest'");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (r.error->message, "names another image"));
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "mkdir"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
}

/* The unpack fails: the folder the open made goes again, and nothing is
 * loaded */
static void
test_open_home_unpack_fails (Fixture       *fixture,
                             gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *fresh = g_build_filename (fixture->dir, "restored home", NULL);
  g_autofree char *quoted = g_shell_quote (fresh);
  g_autofree char *remove = g_strdup_printf ("rm --recursive --force --one-file-system -- %s",
                                             quoted);
  g_autofree char *make = NULL;

  boxfile->home_path = g_build_filename (fixture->dir, "home.tar", NULL);
  /* the real mkdir and rm; a tar that fails half way */
  make = g_strdup_printf ("mkdir -- %s", quoted);
  kiste_fake_runner_add (fixture->runner, "mkdir", "exec mkdir \"$@\"");
  kiste_fake_runner_add (fixture->runner, "tar --extract",
                         "touch \"$5/half\"; echo 'tar: Unexpected EOF' >&2; exit 2");
  kiste_fake_runner_add (fixture->runner, "rm", "exec rm \"$@\"");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "rm"), ==, remove);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  /* the image loaded meanwhile, beside the unpack, goes again */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 1);
  g_assert_true (kiste_test_wait_for (cleaned_up, fixture->manager, 5000));
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman rmi"), ==,
                   "podman rmi localhost/kiste-saved/fixture-a:latest");

  /* a failed load too */
  r = (Result) { 0 };
  kiste_fake_runner_add (fixture->runner, "tar --extract", "touch \"$5/whole\"");
  kiste_fake_runner_add (fixture->runner, "podman load", "echo 'Error: no space left' >&2; exit 125");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 2);
  g_assert_false (g_file_test (fresh, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "distrobox"), ==, 0);
  /* a load that failed left no image to remove */
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman rmi"), ==, 1);
}

/* A folder that was there is never removed: the open refuses before
 * mkdir, and a mkdir that fails (it appeared meanwhile) removes nothing */
static void
test_open_home_mkdir_fails (Fixture       *fixture,
                            gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *fresh = g_build_filename (fixture->dir, "restored home", NULL);

  boxfile->home_path = g_build_filename (fixture->dir, "home.tar", NULL);
  kiste_fake_runner_add (fixture->runner, "mkdir", "echo 'mkdir: File exists' >&2; exit 1");
  kiste_fake_runner_add (fixture->runner, "rm", "exit 0");
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", fresh, NULL, NULL,
                                    NULL, operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED);
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "rm"), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "tar"), ==, 0);
}

/* Docker beside podman */

static KisteBoxSource *
add_docker (Fixture *fixture)
{
  KisteBoxSource *docker = _kiste_manager_add_engine (fixture->manager, "docker");

  kiste_test_merge_boxes (kiste_box_source_get_store (docker), "docker-ps.txt", "/home/u");
  g_assert_nonnull (kiste_box_list_find (kiste_manager_get_boxes (fixture->manager),
                                         "docker/dbx-debian"));
  return docker;
}

/* The box page names a box of the second engine by its ref: saved under
 * its plain name, with docker's commands */
static void
test_save_docker_ref (Fixture       *fixture,
                      gconstpointer  data)
{
  Result r = { 0 };
  g_autofree char *out = g_build_filename (fixture->dir, "out", NULL);
  g_autoptr(KisteBoxfile) read = NULL;
  g_autoptr(GError) error = NULL;
  const char *save;

  add_docker (fixture);
  kiste_fake_runner_add (fixture->runner, "docker save", "printf 'an image' > \"$3\"");
  g_assert_nonnull (kiste_manager_save_boxfile_async (fixture->manager, "docker/dbx-debian",
                                                      fixture->file, FALSE, NULL, operation_cb,
                                                      &r));
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "docker container commit"), ==,
                   "docker container commit dbx-debian localhost/kiste-saved/dbx-debian:latest");
  save = kiste_fake_runner_find (fixture->runner, "docker save");
  g_assert_nonnull (save);
  g_assert_true (g_str_has_suffix (save, "/image.tar localhost/kiste-saved/dbx-debian:latest"));
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman"), ==, 0);

  g_assert_cmpint (g_mkdir (out, 0700), ==, 0);
  read = kiste_boxfile_read (fixture->file, out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (read->name, ==, "dbx-debian");
  g_assert_cmpstr (read->engine, ==, "docker");
  g_assert_cmpstr (read->image, ==, "localhost/kiste-saved/dbx-debian:latest");
  g_assert_nonnull (strstr (read->settings, "[dbx-debian]\n"));
  g_assert_true (kiste_test_wait_for (cleaned_up, fixture->manager, 5000));
  g_assert_nonnull (kiste_fake_runner_find (fixture->runner,
                                            "docker rmi localhost/kiste-saved/dbx-debian:latest"));
}

/* A docker box file with podman first: loaded and created on docker */
static void
test_open_docker (Fixture       *fixture,
                  gconstpointer  data)
{
  Result r = { 0 };
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *load = g_strdup_printf ("docker load -i %s", boxfile->image_path);
  g_autofree char *problem = NULL;
  const char *create;

  g_free (boxfile->engine);
  boxfile->engine = g_strdup ("docker");
  /* without docker: refused before anything runs */
  problem = kiste_manager_check_boxfile (fixture->manager, boxfile, "restored");
  g_assert_nonnull (strstr (problem, "docker"));
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (r.error->message, "docker"));
  g_clear_error (&r.error);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "docker"), ==, 0);

  add_docker (fixture);
  g_assert_null (kiste_manager_check_boxfile (fixture->manager, boxfile, "restored"));
  kiste_fake_runner_add (fixture->runner, "docker load",
                         "echo 'Loaded image: localhost/kiste-saved/fixture-a:latest'");
  kiste_fake_runner_add (fixture->runner, "env DBX_CONTAINER_MANAGER=docker distrobox create",
                         "exit 1");
  r = (Result) { 0 };
  kiste_manager_open_boxfile_async (fixture->manager, boxfile, "restored", NULL, NULL, NULL, NULL,
                                    operation_cb, &r);
  wait_result (&r);
  g_clear_error (&r.error);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "docker load"), ==, load);
  g_assert_cmpuint (kiste_fake_runner_count (fixture->runner, "podman load"), ==, 0);
  create = kiste_fake_runner_find (fixture->runner,
                                   "env DBX_CONTAINER_MANAGER=docker distrobox create");
  g_assert_nonnull (create);
  g_assert_nonnull (strstr (create, "--name restored"));
  g_assert_null (kiste_fake_runner_find (fixture->runner, "distrobox create"));
}

typedef struct
{
  gboolean      done;
  KisteBoxfile *boxfile;
  GError       *error;
} ReadResult;

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  ReadResult *r = user_data;

  r->boxfile = kiste_manager_read_boxfile_finish (KISTE_MANAGER (object), result, &r->error);
  r->done = TRUE;
}

/* Reading a box file is a task: the bytes checked, then the names in its
 * image archive; a refusal says why in the task's message and leaves
 * nothing in the cache */
static void
test_read (Fixture       *fixture,
           gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autofree char *folder = NULL;
  ReadResult r = { 0 };
  KisteTask *task;

  g_assert_true (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, NULL, NULL));
  task = kiste_manager_read_boxfile_async (fixture->manager, fixture->file, NULL, read_cb, &r);
  g_assert_nonnull (task);
  g_assert_cmpstr (kiste_task_get_title (task), ==, "Checking a box file");
  g_assert_true (kiste_task_get_cancellable_by_user (task));
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (r.error);
  g_assert_cmpstr (r.boxfile->name, ==, "fixture-a");
  g_assert_cmpfloat (kiste_task_get_fraction (task), ==, -1);
  folder = g_path_get_dirname (r.boxfile->image_path);
  g_assert_true (g_str_has_prefix (folder, fixture->cache));
  g_assert_true (g_file_test (r.boxfile->image_path, G_FILE_TEST_IS_REGULAR));
  kiste_test_remove_tree (folder);
  g_clear_pointer (&r.boxfile, kiste_boxfile_free);

  /* a crafted image archive */
  write_image_archive (boxfile->image_path, "docker.io/library/debian:latest");
  g_assert_true (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, NULL, NULL));
  r = (ReadResult) { 0 };
  task = kiste_manager_read_boxfile_async (fixture->manager, fixture->file, NULL, read_cb, &r);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (r.error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_null (r.boxfile);
  g_assert_true (g_str_has_prefix (kiste_task_get_failed_message (task),
                                   "Could not open “fixture-a.kistebox”: The box file’s image "
                                   "cannot be loaded safely"));
  g_clear_error (&r.error);
  g_assert_cmpuint (count_entries (fixture->cache), ==, 0);
  g_assert_cmpuint (kiste_fake_runner_get_commands (fixture->runner)->len, ==, 0);
}

/* A read cancelled on the way leaves nothing in the cache */
static void
test_read_cancelled (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_read_boxfile (fixture);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  ReadResult r = { 0 };
  KisteTask *task;

  g_assert_true (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, NULL, NULL));
  task = kiste_manager_read_boxfile_async (fixture->manager, fixture->file, cancellable, read_cb,
                                           &r);
  g_cancellable_cancel (cancellable);
  while (!r.done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&r.error);
  g_assert_null (r.boxfile);
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_CANCELLED);
  g_assert_cmpuint (count_entries (fixture->cache), ==, 0);
}

static void
size_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Result *r = user_data;
  g_autofree guint64 *size = kiste_manager_query_finish (KISTE_MANAGER (object), result,
                                                         &r->error);

  r->ok = size != NULL && *size == 4096;
  r->done = TRUE;
}

static void
test_home_size (Fixture       *fixture,
                gconstpointer  data)
{
  Result r = { 0 };

  kiste_fake_runner_add (fixture->runner, "podman unshare du", "printf '4096\\t%s\\n' \"$7\"");
  kiste_manager_get_home_size_async (fixture->manager, "podman", "/home/tester/h2", NULL, size_cb,
                                     &r);
  wait_result (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
  g_assert_cmpstr (kiste_fake_runner_find (fixture->runner, "podman unshare du"), ==,
                   "podman unshare du --summarize --bytes --one-file-system -- /home/tester/h2");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *cache = g_dir_make_tmp ("kiste-test-cache-XXXXXX", NULL);
  int status;

  /* Kiste's cache: a temporary one */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/manager-boxfile/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("save", test_save);
  ADD ("save/cancelled", test_save_cancelled);
  ADD ("save/fails-on-commit", test_save_fails_on_commit);
  ADD ("save/engine-fails", test_save_engine_fails);
  ADD ("save/home-beside-commit", test_save_home_beside_commit);
  ADD ("save/refuses-toolbox", test_save_refuses_toolbox);
  ADD ("open", test_open);
  ADD ("open/refusals", test_open_refusals);
  ADD ("open/pulled", test_open_pulled);
  ADD ("save/home", test_save_home);
  ADD ("open/home", test_open_home);
  ADD ("save/home-unreadable", test_save_home_unreadable);
  ADD ("save/without-pipes", test_save_without_pipes);
  ADD ("home-size", test_home_size);
  ADD ("open/hostile-names", test_open_hostile_names);
  ADD ("open/home-unpack-fails", test_open_home_unpack_fails);
  ADD ("open/home-mkdir-fails", test_open_home_mkdir_fails);
  ADD ("save/docker-ref", test_save_docker_ref);
  ADD ("open/docker", test_open_docker);
  ADD ("read", test_read);
  ADD ("read/cancelled", test_read_cancelled);
#undef ADD

  status = g_test_run ();
  kiste_test_remove_tree (cache);
  return status;
}
