/* test-boxfile.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Box files: the index written and read back, and every file the reader
 * must refuse (bad index, missing or changed member, cut off, newer
 * format, oversize index, member names with a path) */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "kiste-boxfile-private.h"
#include "kiste-boxfile.h"
#include "kiste-boxfile-writer.h"
#include "kiste-error.h"
#include "kiste-test-util.h"

#define SETTINGS "[arch]\nimage=localhost/kiste-saved/arch:latest\ninit=false\n"

typedef struct
{
  char *dir;
  char *image;
  char *file;
  char *out;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) image = g_string_new (NULL);

  fixture->dir = g_dir_make_tmp ("kiste-test-boxfile-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->image = g_build_filename (fixture->dir, "image-in.tar", NULL);
  fixture->file = g_build_filename (fixture->dir, "arch.kistebox", NULL);
  fixture->out = g_build_filename (fixture->dir, "out", NULL);
  g_assert_cmpint (g_mkdir (fixture->out, 0700), ==, 0);
  /* a made-up image of more than one chunk, not a multiple of 512 */
  for (guint i = 0; i < 70000; i++)
    g_string_append_printf (image, "layer %u\n", i);
  g_file_set_contents (fixture->image, image->str, image->len, &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  kiste_test_remove_tree (fixture->dir);
  g_free (fixture->dir);
  g_free (fixture->image);
  g_free (fixture->file);
  g_free (fixture->out);
}

static KisteBoxfile *
make_boxfile (Fixture *fixture)
{
  KisteBoxfile *boxfile = kiste_boxfile_new ();
  const char *apps[] = { "org.gnome.gedit.desktop", "firefox.desktop", NULL };

  boxfile->name = g_strdup ("arch");
  boxfile->tool = g_strdup ("distrobox");
  boxfile->engine = g_strdup ("podman");
  boxfile->image = g_strdup ("localhost/kiste-saved/arch:latest");
  boxfile->settings = g_strdup (SETTINGS);
  boxfile->apps = g_strdupv ((char **) apps);
  boxfile->image_path = g_strdup (fixture->image);
  return boxfile;
}

static void
write_good (Fixture *fixture)
{
  g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);
  g_autoptr(GError) error = NULL;

  g_assert_true (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
}

static gsize
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  gsize n = 0;

  while (d != NULL && g_dir_read_name (d) != NULL)
    n++;
  return n;
}

static void
assert_refused (Fixture    *fixture,
                const char *path,
                const char *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) read = kiste_boxfile_read (path, fixture->out, NULL, NULL, NULL,
                                                     &error);

  g_assert_null (read);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  if (strstr (error->message, message_part) == NULL)
    g_error ("“%s” does not say “%s”", error->message, message_part);
  /* nothing copied out is left behind */
  g_assert_cmpuint (count_files (fixture->out), ==, 0);
}

static void
test_round_trip (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) read = NULL;
  g_autofree char *copied = NULL;
  g_autofree char *original = NULL;

  write_good (fixture);
  /* only the file itself in the folder: no temporary file left */
  g_assert_cmpuint (count_files (fixture->dir), ==, 3);

  read = kiste_boxfile_read (fixture->file, fixture->out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (read);
  g_assert_cmpuint (read->format, ==, KISTE_BOXFILE_FORMAT);
  g_assert_cmpstr (read->name, ==, "arch");
  g_assert_cmpstr (read->tool, ==, "distrobox");
  g_assert_cmpstr (read->engine, ==, "podman");
  g_assert_cmpstr (read->kiste_version, ==, PACKAGE_VERSION);
  g_assert_cmpstr (read->image, ==, "localhost/kiste-saved/arch:latest");
  g_assert_cmpstr (read->settings, ==, SETTINGS);
  g_assert_cmpuint (g_strv_length (read->apps), ==, 2);
  g_assert_cmpstr (read->apps[0], ==, "org.gnome.gedit.desktop");
  g_assert_cmpstr (read->apps[1], ==, "firefox.desktop");
  g_assert_null (read->home_path);

  g_file_get_contents (read->image_path, &copied, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (fixture->image, &original, NULL, &error);
  g_assert_cmpstr (copied, ==, original);
  g_assert_cmpuint (read->image_size, ==, strlen (original));
}

static void
test_tar_readable (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "tar", "-tf", fixture->file, NULL };
  int status = 0;

  write_good (fixture);
  /* an ordinary tar, as the documentation says */
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (out, ==, "image.tar\ndistrobox.ini\napps.txt\nindex.json\n");
}

/* Writes a tar of the given members (name, contents) */
static void
write_tar (const char         *path,
           const char * const *members)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guchar block[KISTE_TAR_BLOCK] = { 0 };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; members[i] != NULL; i += 2)
    {
      gsize len = strlen (members[i + 1]);
      guchar pad[KISTE_TAR_BLOCK] = { 0 };

      _kiste_boxfile_tar_header (block, members[i], len);
      g_byte_array_append (out, block, sizeof block);
      g_byte_array_append (out, (const guchar *) members[i + 1], len);
      g_byte_array_append (out, pad, (KISTE_TAR_BLOCK - len % KISTE_TAR_BLOCK) % KISTE_TAR_BLOCK);
    }
  memset (block, 0, sizeof block);
  g_byte_array_append (out, block, sizeof block);
  g_byte_array_append (out, block, sizeof block);
  g_file_set_contents (path, (const char *) out->data, out->len, &error);
  g_assert_no_error (error);
}

static char *
index_for (const char *image,
           const char *settings,
           int         format)
{
  g_autofree char *image_sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, image, -1);
  g_autofree char *settings_sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, settings, -1);

  return g_strdup_printf ("{\"format\": %d, \"name\": \"arch\", \"tool\": \"distrobox\", "
                          "\"engine\": \"podman\", \"image\": \"localhost/kiste-saved/arch:latest\", "
                          "\"members\": {"
                          "\"image.tar\": {\"size\": %zu, \"sha256\": \"%s\"}, "
                          "\"distrobox.ini\": {\"size\": %zu, \"sha256\": \"%s\"}}}",
                          format, strlen (image), image_sha, strlen (settings), settings_sha);
}

static void
test_hand_made (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                            "index.json", index, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) read = NULL;

  /* the checker itself: a hand-made good file is taken */
  write_tar (fixture->file, members);
  read = kiste_boxfile_read (fixture->file, fixture->out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (read->image, ==, "localhost/kiste-saved/arch:latest");
  g_assert_cmpuint (g_strv_length (read->apps), ==, 0);
}

static void
test_empty_members (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *apps_sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "", 0);
  g_autofree char *image_sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "IMAGE", -1);
  g_autofree char *settings_sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, SETTINGS, -1);
  g_autofree char *index = g_strdup_printf ("{\"format\": 1, \"name\": \"arch\", "
                                            "\"tool\": \"distrobox\", \"engine\": \"podman\", "
                                            "\"image\": \"localhost/kiste-saved/arch:latest\", "
                                            "\"members\": {"
                                            "\"image.tar\": {\"size\": 5, \"sha256\": \"%s\"},"
                                            "\"distrobox.ini\": {\"size\": %zu, \"sha256\": \"%s\"},"
                                            "\"apps.txt\": {\"size\": 0, \"sha256\": \"%s\"}}}",
                                            image_sha, strlen (SETTINGS), settings_sha, apps_sha);
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS, "apps.txt", "",
                            "index.json", index, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxfile) read = NULL;

  /* a box that exported no app: an empty apps.txt */
  write_tar (fixture->file, members);
  read = kiste_boxfile_read (fixture->file, fixture->out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (read->apps), ==, 0);
  g_assert_cmpstr (read->settings, ==, SETTINGS);
}

static void
test_refuse_bad_json (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                            "index.json", "{\"format\": 1, \"name\": ", NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "index cannot be read");
}

static void
test_refuse_missing_member (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
  const char *members[] = { "distrobox.ini", SETTINGS, "index.json", index, NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "“image.tar” is missing");
}

static void
test_refuse_no_index (Fixture       *fixture,
                      gconstpointer  data)
{
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS, NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "no index");
}

static void
test_refuse_wrong_checksum (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
  const char *members[] = { "image.tar", "IMAGF", "distrobox.ini", SETTINGS,
                            "index.json", index, NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "does not match its checksum");
}

static void
test_refuse_unlisted_member (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                            "home.tar", "HOME", "index.json", index, NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "“home.tar” does not match");
}

static void
test_refuse_changed_byte (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  write_good (fixture);
  g_file_get_contents (fixture->file, &contents, &length, &error);
  g_assert_no_error (error);
  /* one byte of the image, after its header */
  contents[KISTE_TAR_BLOCK + 1000] ^= 0x20;
  g_file_set_contents (fixture->file, contents, length, &error);
  g_assert_no_error (error);
  assert_refused (fixture, fixture->file, "“image.tar” does not match its checksum");
}

static void
test_refuse_truncated (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;
  gsize cuts[] = { 100, KISTE_TAR_BLOCK + 5000, 0, 0 };

  write_good (fixture);
  g_file_get_contents (fixture->file, &contents, &length, &error);
  g_assert_no_error (error);
  cuts[2] = length - 2 * KISTE_TAR_BLOCK - 10;  /* inside the index */
  cuts[3] = length - 2 * KISTE_TAR_BLOCK;       /* the end marker gone */

  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_file_set_contents (fixture->file, contents, cuts[i], &error);
      g_assert_no_error (error);
      assert_refused (fixture, fixture->file, "cut off");
    }
}

static void
test_refuse_newer_format (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, KISTE_BOXFILE_FORMAT + 1);
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                            "index.json", index, NULL };

  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "newer Kiste");
}

static void
test_refuse_oversize_index (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
  g_autoptr(GString) big = g_string_new (index);
  const char *members[] = { "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                            "index.json", NULL, NULL };

  while (big->len <= KISTE_BOXFILE_MAX_INDEX)
    g_string_insert_c (big, 1, ' ');
  members[5] = big->str;
  write_tar (fixture->file, members);
  assert_refused (fixture, fixture->file, "index is too large");
}

static void
test_refuse_names (Fixture       *fixture,
                   gconstpointer  data)
{
  const char *names[] = { "../image.tar", "/etc/passwd", "a/image.tar", "..", "unknown.txt",
                          NULL };

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *index = index_for ("IMAGE", SETTINGS, 1);
      const char *members[] = { names[i], "X", "image.tar", "IMAGE", "distrobox.ini", SETTINGS,
                                "index.json", index, NULL };
      g_autofree char *escaped = g_build_filename (fixture->dir, "..", "image.tar", NULL);

      write_tar (fixture->file, members);
      assert_refused (fixture, fixture->file, i < 4 ? "with a path" : "unknown member");
      g_assert_false (g_file_test (escaped, G_FILE_TEST_EXISTS));
    }
}

static void
test_refuse_bad_values (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, "IMAGE", -1);
  const char *bad[] = { "\"name\": \"a;rm\", \"tool\": \"distrobox\", \"engine\": \"podman\", "
                        "\"image\": \"localhost/kiste-saved/arch\"",
                        "\"name\": \"arch\", \"tool\": \"distrobox\", \"engine\": \"lxc\", "
                        "\"image\": \"localhost/kiste-saved/arch\"",
                        "\"name\": \"arch\", \"tool\": \"distrobox\", \"engine\": \"podman\", "
                        "\"image\": \"$(reboot)\"",
                        /* a name of the user's own images: loading would retag it */
                        "\"name\": \"arch\", \"tool\": \"distrobox\", \"engine\": \"podman\", "
                        "\"image\": \"docker.io/library/debian:latest\"",
                        "\"name\": \"arch\", \"tool\": \"distrobox\", \"engine\": \"podman\", "
                        "\"image\": \"localhost/kiste-saved/\"",
                        NULL };

  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *index = g_strdup_printf ("{\"format\": 1, %s, \"members\": {"
                                                "\"image.tar\": {\"size\": 5, \"sha256\": \"%s\"},"
                                                "\"distrobox.ini\": {\"size\": 5, \"sha256\": \"%s\"}}}",
                                                bad[i], sha, sha);

      g_assert_null (kiste_boxfile_parse_index (index, strlen (index), NULL, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }
}

static void
test_check_loaded (void)
{
  const char *image = "localhost/kiste-saved/arch:latest";
  const char *good[] = {
    "Getting image source signatures\nCopying blob sha256:b8f6\nCopying config sha256:8580\n"
    "Writing manifest to image destination\nLoaded image: localhost/kiste-saved/arch:latest\n",
    "Loaded image(s): localhost/kiste-saved/arch:latest\n",
    "Loaded image: localhost/kiste-saved/arch:latest",
    NULL
  };
  const char *bad[] = {
    "",
    "Writing manifest to image destination\n",
    /* another name, alone or beside the right one */
    "Loaded image: docker.io/library/debian:latest\n",
    "Loaded image: localhost/kiste-saved/arch:latest\nLoaded image: localhost/other:latest\n",
    "Loaded image(s): localhost/kiste-saved/arch:latest,docker.io/library/debian:latest\n",
    "Loaded image: localhost/kiste-saved/arch:latest \n",
    "Loaded image:localhost/kiste-saved/arch:latest\n",
    "Loaded image ID: sha256:85808a71fab1\n",
    "Loaded image: \n",
    "Loaded image: $(reboot)\n",
    NULL
  };
  g_autoptr(GString) many = g_string_new ("Loaded image(s): ");

  for (guint i = 0; good[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (kiste_boxfile_check_loaded (good[i], image, &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (kiste_boxfile_check_loaded (bad[i], image, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    }
  g_assert_false (kiste_boxfile_check_loaded (NULL, image, NULL));

  /* bounded: too many names, too much output */
  for (guint i = 0; i < 20; i++)
    g_string_append_printf (many, "%s%s", i > 0 ? "," : "", image);
  g_assert_false (kiste_boxfile_check_loaded (many->str, image, NULL));
  g_string_assign (many, "");
  while (many->len <= 64 * 1024)
    g_string_append (many, "Copying blob sha256:b8f6\n");
  g_string_append_printf (many, "Loaded image: %s\n", image);
  g_assert_false (kiste_boxfile_check_loaded (many->str, image, NULL));
}

static void
test_parse_image_id (void)
{
  const char *image = "localhost/kiste-saved/arch:latest";
  const char *id = "4513e174dd7b520bea4d5f0dca9ff02385f0f0ccfa83c6d665278ab086e093f2";
  g_autofree char *warned = g_strdup_printf ("time=\"2026-12-06T15:09:56Z\" level=warning "
                                             "msg=\"Using cgroups-v1\"\n%s\n", id);
  g_autofree char *plain = g_strdup_printf ("%s\n", id);
  g_autofree char *twice = g_strdup_printf ("%s\n%s\n", id, id);
  g_autofree char *upper = g_ascii_strup (id, -1);
  g_autofree char *prefixed = g_strdup_printf ("sha256:%s\n", id);
  g_autofree char *short_id = g_strndup (id, 12);
  g_autoptr(GString) long_output = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const char *good[] = { plain, id, warned, NULL };
  const char *bad[] = { "", twice, upper, prefixed, short_id, "Loaded image: x\n", NULL };

  for (guint i = 0; good[i] != NULL; i++)
    {
      g_autofree char *parsed = kiste_boxfile_parse_image_id (good[i], image, NULL, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (parsed, ==, id);
    }
  for (guint i = 0; bad[i] != NULL; i++)
    {
      g_assert_null (kiste_boxfile_parse_image_id (bad[i], image, NULL, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_clear_error (&error);
    }
  g_assert_null (kiste_boxfile_parse_image_id (NULL, image, NULL, NULL));
  /* the id asked for, or a fault */
  {
    g_autofree char *same = kiste_boxfile_parse_image_id (warned, image, id, &error);

    g_assert_no_error (error);
    g_assert_cmpstr (same, ==, id);
    g_assert_null (kiste_boxfile_parse_image_id (plain, image, short_id, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    g_clear_error (&error);
  }
  /* bounded */
  while (long_output->len <= 64 * 1024)
    g_string_append (long_output, "Copying blob sha256:b8f6\n");
  g_string_append (long_output, plain);
  g_assert_null (kiste_boxfile_parse_image_id (long_output->str, image, NULL, NULL));
}

static void
test_write_cancelled (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  /* the image, the output folder: no temporary file */
  g_assert_cmpuint (count_files (fixture->dir), ==, 2);
}

static void
test_write_missing_image (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);
  g_autoptr(GError) error = NULL;

  g_free (boxfile->image_path);
  boxfile->image_path = g_build_filename (fixture->dir, "gone.tar", NULL);
  g_assert_false (kiste_boxfile_write (boxfile, fixture->file, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (fixture->dir), ==, 2);
}

/* A member from a named pipe another process writes into, as the
 * engine saves an image: whole, and of the size the header says */
static void
test_write_pipe (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);
  g_autoptr(KisteBoxfileWriter) writer = NULL;
  g_autoptr(KisteBoxfile) read = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *pipe = g_build_filename (fixture->dir, "image.pipe", NULL);
  g_autofree char *script = g_strdup_printf ("sleep 0.2; cat '%s' > '%s'", fixture->image, pipe);
  const char *argv[] = { "sh", "-c", script, NULL };
  g_autofree char *want = NULL;
  g_autofree char *got = NULL;
  gsize want_len, got_len;

  g_assert_cmpint (mkfifo (pipe, 0600), ==, 0);
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                                &error));
  g_assert_no_error (error);
  writer = kiste_boxfile_writer_new (fixture->file, &error);
  g_assert_no_error (error);
  g_assert_true (kiste_boxfile_writer_add (writer, KISTE_BOXFILE_IMAGE, pipe, NULL, NULL, NULL,
                                           &error));
  g_assert_no_error (error);
  g_assert_true (kiste_boxfile_writer_close (writer, boxfile, NULL, &error));
  g_assert_no_error (error);

  read = kiste_boxfile_read (fixture->file, fixture->out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (fixture->image, &want, &want_len, NULL);
  g_file_get_contents (read->image_path, &got, &got_len, NULL);
  g_assert_cmpmem (got, got_len, want, want_len);
}

static gpointer
cancel_later (gpointer data)
{
  g_usleep (200 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

/* A pipe nobody ever writes into: the copy waits until it is cancelled,
 * and the file goes with the writer */
static void
test_write_pipe_cancelled (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(KisteBoxfileWriter) writer = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *pipe = g_build_filename (fixture->dir, "image.pipe", NULL);
  GThread *thread;

  g_assert_cmpint (mkfifo (pipe, 0600), ==, 0);
  writer = kiste_boxfile_writer_new (fixture->file, &error);
  g_assert_no_error (error);
  thread = g_thread_new ("cancel", cancel_later, cancellable);
  g_assert_false (kiste_boxfile_writer_add (writer, KISTE_BOXFILE_IMAGE, pipe, NULL, NULL,
                                            cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_thread_join (thread);
  /* the image, the output folder, the pipe, the temporary file */
  g_assert_cmpuint (count_files (fixture->dir), ==, 4);
  g_clear_object (&writer);
  g_assert_cmpuint (count_files (fixture->dir), ==, 3);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));

  /* a writer that came and left without a byte: an empty member, and no
   * file made of it */
  {
    g_autofree char *script = g_strdup_printf ("sleep 0.2; : > '%s'", pipe);
    const char *argv[] = { "sh", "-c", script, NULL };
    g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);

    g_clear_error (&error);
    g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                                  NULL, NULL));
    writer = kiste_boxfile_writer_new (fixture->file, &error);
    g_assert_no_error (error);
    g_assert_true (kiste_boxfile_writer_add (writer, KISTE_BOXFILE_IMAGE, pipe, NULL, NULL,
                                             NULL, NULL));
    g_assert_cmpuint (kiste_boxfile_writer_get_size (writer, KISTE_BOXFILE_IMAGE), ==, 0);
    g_assert_false (kiste_boxfile_writer_close (writer, boxfile, NULL, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
    g_clear_object (&writer);
    g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
  }
}

/* Aborted: the file goes at once, and it cannot be closed any more */
static void
test_write_abort (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(KisteBoxfile) boxfile = make_boxfile (fixture);
  g_autoptr(KisteBoxfileWriter) writer = NULL;
  g_autoptr(GError) error = NULL;

  writer = kiste_boxfile_writer_new (fixture->file, &error);
  g_assert_no_error (error);
  g_assert_true (kiste_boxfile_writer_add (writer, KISTE_BOXFILE_IMAGE, fixture->image, NULL,
                                           NULL, NULL, &error));
  g_assert_cmpuint (kiste_boxfile_writer_get_size (writer, KISTE_BOXFILE_IMAGE), >, 0);
  g_assert_cmpuint (count_files (fixture->dir), ==, 3);
  kiste_boxfile_writer_abort (writer);
  g_assert_cmpuint (count_files (fixture->dir), ==, 2);
  g_assert_false (kiste_boxfile_writer_close (writer, boxfile, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (g_file_test (fixture->file, G_FILE_TEST_EXISTS));
}

/* The image archive's names, checked before the engine loads it */

#define SAVED "localhost/kiste-saved/arch:latest"
#define OCI_INDEX(name) \
  "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":" \
  "\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"sha256:00\",\"size\":1," \
  "\"annotations\":{\"org.opencontainers.image.ref.name\":\"" name "\"}}]}"

static void
archive_add (GString    *archive,
             const char *name,
             char        type,
             const char *data,
             gsize       length)
{
  guchar block[KISTE_TAR_BLOCK];
  guint sum = 0;
  char field[16];

  _kiste_boxfile_tar_header (block, name, length);
  block[156] = type;
  memset (block + 148, ' ', 8);
  for (guint i = 0; i < KISTE_TAR_BLOCK; i++)
    sum += block[i];
  g_snprintf (field, sizeof field, "%06o", sum);
  memcpy (block + 148, field, 7);
  block[155] = ' ';
  g_string_append_len (archive, (const char *) block, sizeof block);
  g_string_append_len (archive, data, length);
  while (archive->len % KISTE_TAR_BLOCK != 0)
    g_string_append_c (archive, '\0');
}

static void
archive_add_text (GString    *archive,
                  const char *name,
                  const char *text)
{
  archive_add (archive, name, '0', text, strlen (text));
}

static gboolean
archive_check (Fixture    *fixture,
               GString    *archive,
               const char *engine,
               GError    **error)
{
  g_autofree char *path = g_build_filename (fixture->dir, "inner.tar", NULL);
  GString *copy = g_string_new_len (archive->str, archive->len);
  gboolean ok;

  /* the two zero blocks that end it */
  for (guint i = 0; i < 2 * KISTE_TAR_BLOCK; i++)
    g_string_append_c (copy, '\0');
  g_assert_true (g_file_set_contents (path, copy->str, copy->len, NULL));
  g_string_free (copy, TRUE);
  ok = kiste_boxfile_check_image_archive (path, engine, SAVED, NULL, NULL, error);
  return ok;
}

/* Whether the archive archive_check() wrote is one podman may pull from */
static gboolean
archive_kind_is_docker (Fixture *fixture)
{
  g_autofree char *path = g_build_filename (fixture->dir, "inner.tar", NULL);
  g_autoptr(GError) error = NULL;
  gboolean docker_archive = -1;

  g_assert_true (kiste_boxfile_check_image_archive (path, "podman", SAVED, &docker_archive, NULL,
                                                    &error));
  g_assert_no_error (error);
  g_assert_true (docker_archive == TRUE || docker_archive == FALSE);
  return docker_archive;
}

static void
test_image_names (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) blob = g_string_new (NULL);

  /* as podman saves an oci-archive: layout, index, blobs (skipped) */
  for (guint i = 0; i < 3000; i++)
    g_string_append (blob, "a layer of the image\n");
  {
    g_autoptr(GString) archive = g_string_new (NULL);

    archive_add_text (archive, "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}");
    archive_add (archive, "blobs", '5', "", 0);
    archive_add (archive, "layer-blob", '0', blob->str, blob->len);
    archive_add_text (archive, "index.json", OCI_INDEX (SAVED));
    g_assert_true (archive_check (fixture, archive, "podman", &error));
    g_assert_no_error (error);
    g_assert_false (archive_kind_is_docker (fixture));
  }
  /* as podman saves a docker-archive: layer folders, config, manifest.json
   * and repositories; podman pulls it without unpacking it first */
  {
    g_autoptr(GString) archive = g_string_new (NULL);

    archive_add (archive, "58a8/layer.tar", '0', blob->str, blob->len);
    archive_add_text (archive, "58a8/VERSION", "1.0");
    archive_add_text (archive, "4513.json", "{}");
    archive_add_text (archive, "manifest.json",
                      "[{\"Config\":\"4513.json\",\"RepoTags\":[\"" SAVED "\"],"
                      "\"Layers\":[\"58a8/layer.tar\"]}]");
    archive_add_text (archive, "repositories",
                      "{\"localhost/kiste-saved/arch\":{\"latest\":\"58a8\"}}");
    g_assert_true (archive_check (fixture, archive, "podman", &error));
    g_assert_no_error (error);
    g_assert_true (archive_kind_is_docker (fixture));
  }
  /* a pax header names the index, as Go's archive/tar writes long paths */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    const char *pax = "19 path=index.json\n";

    archive_add (archive, "PaxHeaders/x", 'x', pax, strlen (pax));
    archive_add_text (archive, "short", OCI_INDEX (SAVED));
    g_assert_true (archive_check (fixture, archive, "podman", &error));
    g_assert_no_error (error);
  }
  /* as docker 28 saves (captured from docker save, the digests shortened):
   * an OCI index with the tag alone beside containerd's whole name,
   * manifest.json, repositories */
  {
    g_autoptr(GString) archive = g_string_new (NULL);

    archive_add_text (archive, "index.json",
                      "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1"
                      "+json\",\"manifests\":[{\"mediaType\":\"application/vnd.oci.image."
                      "manifest.v1+json\",\"digest\":\"sha256:4ff0\",\"size\":558,"
                      "\"annotations\":{\"io.containerd.image.name\":\"" SAVED "\","
                      "\"org.opencontainers.image.ref.name\":\"latest\"}}]}");
    archive_add_text (archive, "manifest.json",
                      "[{\"Config\":\"blobs/sha256/7b78\",\"RepoTags\":[\"" SAVED "\"],"
                      "\"Layers\":[\"blobs/sha256/d460\",\"blobs/sha256/7cce\"]}]");
    archive_add_text (archive, "oci-layout", "{\"imageLayoutVersion\":\"1.0.0\"}");
    archive_add_text (archive, "repositories",
                      "{\"localhost/kiste-saved/arch\":{\"latest\":\"7cce\"}}");
    g_assert_true (archive_check (fixture, archive, "docker", &error));
    g_assert_no_error (error);
    /* podman would read the tag alone as a name of its own */
    g_assert_false (archive_check (fixture, archive, "podman", &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    g_clear_error (&error);
  }
}

static void
test_image_names_refused (Fixture       *fixture,
                          gconstpointer  data)
{
  const char *other_index = OCI_INDEX ("docker.io/library/debian:latest");
  const char *other_manifest = "[{\"RepoTags\":[\"docker.io/library/debian:latest\"]}]";
  struct {
    const char *what;
    const char *name1, *text1;
    const char *name2, *text2;
  } cases[] = {
    { "another name in the index", "index.json", other_index, NULL, NULL },
    { "a second name beside", "index.json",
      "{\"manifests\":[{\"annotations\":{\"org.opencontainers.image.ref.name\":\"" SAVED "\"}},"
      "{\"annotations\":{\"org.opencontainers.image.ref.name\":\"fedora:40\"}}]}", NULL, NULL },
    { "another tag in manifest.json", "manifest.json", other_manifest, NULL, NULL },
    { "the index right, manifest.json not", "index.json", OCI_INDEX (SAVED),
      "manifest.json", other_manifest },
    { "the older repositories file", "manifest.json", "[{\"RepoTags\":[\"" SAVED "\"]}]",
      "repositories", "{\"docker.io/library/debian\":{\"latest\":\"00\"}}" },
    { "behind ./ and /", "./index.json", OCI_INDEX (SAVED), "/manifest.json", other_manifest },
    { "twice", "index.json", OCI_INDEX (SAVED), "./index.json", other_index },
    { "no name at all", "index.json", "{\"manifests\":[{\"digest\":\"sha256:00\"}]}", NULL, NULL },
    { "not JSON", "index.json", "{\"manifests\":[", NULL, NULL },
    { "a name that is no string", "manifest.json", "[{\"RepoTags\":[7]}]", NULL, NULL },
    { "no index or manifest", "oci-layout", "{}", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) archive = g_string_new (NULL);
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", cases[i].what);
      archive_add_text (archive, cases[i].name1, cases[i].text1);
      if (cases[i].name2 != NULL)
        archive_add_text (archive, cases[i].name2, cases[i].text2);
      g_assert_false (archive_check (fixture, archive, "podman", &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }

  /* a pax header that renames a harmless-looking member */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    const char *pax = "19 path=index.json\n";

    archive_add_text (archive, "index.json", OCI_INDEX (SAVED));
    archive_add (archive, "PaxHeaders/x", 'x', pax, strlen (pax));
    archive_add_text (archive, "harmless", other_index);
    g_assert_false (archive_check (fixture, archive, "podman", &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  }
  /* a GNU long name */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    archive_add_text (archive, "././@LongLink", "manifest.json");
    ((char *) archive->str)[156] = 'L';
    {
      /* the header's checksum again, for its new type */
      guint sum = 0;
      char field[16];

      memset (archive->str + 148, ' ', 8);
      for (guint i = 0; i < KISTE_TAR_BLOCK; i++)
        sum += (guchar) archive->str[i];
      g_snprintf (field, sizeof field, "%06o", sum);
      memcpy (archive->str + 148, field, 7);
      archive->str[155] = ' ';
    }
    archive_add_text (archive, "something", other_manifest);
    archive_add_text (archive, "index.json", OCI_INDEX (SAVED));
    g_assert_false (archive_check (fixture, archive, "podman", &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  }
  /* a link where the names should be */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    g_autoptr(GError) error = NULL;

    archive_add (archive, "index.json", '2', "", 0);
    g_assert_false (archive_check (fixture, archive, "podman", &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  }
  /* an index larger than the bound */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    g_autoptr(GString) large = g_string_new ("{\"manifests\":[{\"annotations\":{\"org.opencontainers.image.ref.name\":\"" SAVED "\"}}],\"x\":\"");
    g_autoptr(GError) error = NULL;

    while (large->len <= 1024 * 1024)
      g_string_append (large, "xxxxxxxxxxxxxxxx");
    g_string_append (large, "\"}");
    archive_add_text (archive, "index.json", large->str);
    g_assert_false (archive_check (fixture, archive, "podman", &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  }
  /* cut off in the middle of a member */
  {
    g_autoptr(GString) archive = g_string_new (NULL);
    g_autoptr(GError) error = NULL;
    g_autofree char *path = g_build_filename (fixture->dir, "inner.tar", NULL);

    archive_add_text (archive, "index.json", OCI_INDEX (SAVED));
    g_assert_true (g_file_set_contents (path, archive->str, KISTE_TAR_BLOCK + 10, NULL));
    g_assert_false (kiste_boxfile_check_image_archive (path, "podman", SAVED, NULL, NULL, &error));
    g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  }
}

/* The fixture the fuzz target starts from: a whole box file made by
 * another tar writer, read and its image archive's names accepted */
static void
test_fixture (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"),
                                            "boxfile-small.kistebox", NULL);
  g_autoptr(KisteBoxfile) boxfile = NULL;
  g_autoptr(GError) error = NULL;

  boxfile = kiste_boxfile_read (path, fixture->out, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (boxfile->name, ==, "arch");
  g_assert_cmpstr (boxfile->apps[0], ==, "org.gnome.gedit.desktop");
  g_assert_true (kiste_boxfile_check_image_archive (boxfile->image_path, boxfile->engine,
                                                    boxfile->image, NULL, NULL, &error));
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/boxfile/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("round-trip", test_round_trip);
  ADD ("tar-readable", test_tar_readable);
  ADD ("hand-made", test_hand_made);
  ADD ("empty-members", test_empty_members);
  ADD ("refuse/bad-json", test_refuse_bad_json);
  ADD ("refuse/missing-member", test_refuse_missing_member);
  ADD ("refuse/no-index", test_refuse_no_index);
  ADD ("refuse/wrong-checksum", test_refuse_wrong_checksum);
  ADD ("refuse/unlisted-member", test_refuse_unlisted_member);
  ADD ("refuse/changed-byte", test_refuse_changed_byte);
  ADD ("refuse/truncated", test_refuse_truncated);
  ADD ("refuse/newer-format", test_refuse_newer_format);
  ADD ("refuse/oversize-index", test_refuse_oversize_index);
  ADD ("refuse/names", test_refuse_names);
  ADD ("refuse/bad-values", test_refuse_bad_values);
  g_test_add_func ("/boxfile/check-loaded", test_check_loaded);
  g_test_add_func ("/boxfile/parse-image-id", test_parse_image_id);
  ADD ("image-names", test_image_names);
  ADD ("fixture", test_fixture);
  ADD ("image-names/refused", test_image_names_refused);
  ADD ("write/cancelled", test_write_cancelled);
  ADD ("write/missing-image", test_write_missing_image);
  ADD ("write/pipe", test_write_pipe);
  ADD ("write/pipe-cancelled", test_write_pipe_cancelled);
  ADD ("write/abort", test_write_abort);
#undef ADD

  return g_test_run ();
}
