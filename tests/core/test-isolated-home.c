/* test-isolated-home.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-error.h"
#include "kiste-isolated-home.h"

/* The fixtures are `distrobox create --dry-run` output of distrobox 1.8.2.5
 * for user kistetest (uid 1001) and, with a home in /var/home as on Fedora
 * Atomic, kisteatomic (uid 1002). */

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

static char *
load_fixture (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static char **
rewrite_fixture (const char                  *name,
                 const KisteIsolatedHomeHost *host)
{
  g_autofree char *dry_run = load_fixture (name);
  g_autoptr(GError) error = NULL;
  char **argv;

  argv = kiste_isolated_home_argv_from_dry_run (dry_run, host, &error);
  g_assert_no_error (error);
  g_assert_nonnull (argv);

  return argv;
}

static int
index_of (char       **argv,
          const char  *arg)
{
  for (int i = 0; argv[i] != NULL; i++)
    if (g_str_equal (argv[i], arg))
      return i;
  return -1;
}

static int
index_of_pair (char       **argv,
               const char  *option,
               const char  *value)
{
  for (int i = 0; argv[i] != NULL && argv[i + 1] != NULL; i++)
    if (g_str_equal (argv[i], option) && g_str_equal (argv[i + 1], value))
      return i;
  return -1;
}

static guint
count_pairs (char       **argv,
             const char  *option,
             const char  *value)
{
  guint n = 0;

  for (int i = 0; argv[i] != NULL && argv[i + 1] != NULL; i++)
    if (g_str_equal (argv[i], option) && g_str_equal (argv[i + 1], value))
      n++;
  return n;
}

/* No volume shows the home, anywhere it could be reached */
static void
assert_home_hidden (char                        **argv,
                    const KisteIsolatedHomeHost  *host)
{
  int image = index_of (argv, "localhost/kiste-debian:ready");

  g_assert_cmpint (image, >, 0);

  for (int i = 0; i < image; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (!g_str_equal (argv[i], "--volume"))
        continue;
      parts = g_strsplit (argv[i + 1], ":", 3);
      if (parts[1] == NULL)
        continue;
      g_assert_cmpstr (parts[0], !=, host->host_home);
      g_assert_cmpstr (parts[0], !=, host->runtime_dir);
      g_assert_false (g_str_equal (parts[0], "/home") && g_str_equal (parts[1], "/run/host/home"));
    }

  g_assert_cmpint (index_of_pair (argv, "--mount", "type=tmpfs,destination=/run/host/home,notmpcopyup"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--mount", "type=tmpfs,destination=/run/host/run/user/1001,notmpcopyup") +
                   index_of_pair (argv, "--mount", "type=tmpfs,destination=/run/host/run/user/1002,notmpcopyup"),
                   >, 0);

  /* labelled, once, before the image */
  g_assert_cmpuint (count_pairs (argv, "--label", "distrobox.unshare_home=1"), ==, 1);
  g_assert_cmpint (index_of_pair (argv, "--label", "distrobox.unshare_home=1"), <, image);
  g_assert_cmpuint (count_pairs (argv, "--env", "DISTROBOX_UNSHARE_HOME=1"), ==, 1);
  g_assert_cmpint (index_of_pair (argv, "--env", "DISTROBOX_UNSHARE_HOME=1"), <, image);
}

/* The hook runs as distrobox-init runs it: `eval ${init_hook}` */
static void
run_hook_for (const char *hook_template_home,
              const char *hook,
              const char *home)
{
  g_autoptr(GString) adapted = g_string_new (hook);
  g_autofree char *quoted_from = g_shell_quote (hook_template_home);
  g_autofree char *quoted_to = g_shell_quote (home);
  g_autofree char *ids_from = g_strdup_printf ("%u:%u", 1001, 1001);
  g_autofree char *ids_to = g_strdup_printf ("%u:%u", (guint) getuid (), (guint) getgid ());
  g_autofree char *owner_to = g_strdup_printf ("!= %u;", (guint) getuid ());
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "sh", "-c", "init_hook=$1; eval ${init_hook}", "sh", NULL, NULL };
  int status = -1;

  g_string_replace (adapted, quoted_from, quoted_to, 0);
  g_string_replace (adapted, ids_from, ids_to, 0);
  g_string_replace (adapted, "!= 1001;", owner_to, 0);
  argv[4] = adapted->str;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_plain (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-plain.txt", &plain_host);
  g_autofree char *dry_run = load_fixture ("dry-run-create-plain.txt");
  guint n = g_strv_length (argv);

  g_assert_cmpstr (argv[0], ==, "podman");
  g_assert_cmpstr (argv[1], ==, "create");
  assert_home_hidden (argv, &plain_host);

  /* what stays shared stays: /tmp, the host's other folders, devices */
  g_assert_cmpint (index_of_pair (argv, "--volume", "/tmp:/tmp:rslave"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/usr:/run/host/usr:rslave"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/dev:/dev:rslave"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/etc/hosts:/etc/hosts:ro"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--env", "HOME=/home/kistetest"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/dev/pts"), >, 0);
  g_assert_cmpint (index_of (argv, "--privileged"), >, 0);

  /* the entrypoint's own arguments are kept, the init hook makes the home */
  g_assert_cmpint (index_of_pair (argv, "--home", "/home/kistetest"), >, index_of (argv, "localhost/kiste-debian:ready"));
  g_assert_cmpint (index_of_pair (argv, "--init", "0"), >, 0);
  g_assert_cmpstr (argv[n - 2], ==, "--");
  g_assert_nonnull (strstr (argv[n - 1], "mkdir -p '/home/kistetest'"));
  g_assert_nonnull (strstr (argv[n - 1], "!= 1001;"));
  g_assert_nonnull (strstr (argv[n - 1], "chown -R 1001:1001 '/home/kistetest'"));
  g_assert_nonnull (strstr (argv[n - 1], "chmod 755 '/home/kistetest'"));

  /* quotes are gone, nothing is left for a shell */
  for (guint i = 0; i < n - 1; i++)
    g_assert_null (strchr (argv[i], '"'));
  g_assert_nonnull (strstr (dry_run, "--volume \"/home/kistetest\":\"/home/kistetest\":rslave"));
}

static void
test_custom_home (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-custom-home.txt", &plain_host);
  guint n = g_strv_length (argv);

  assert_home_hidden (argv, &plain_host);
  /* the separate home folder is the box's home and stays mounted */
  g_assert_cmpint (index_of_pair (argv, "--volume",
                                  "/home/kistetest/boxes/my box:/home/kistetest/boxes/my box:rslave"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--env", "HOME=/home/kistetest/boxes/my box"), >, 0);
  g_assert_nonnull (strstr (argv[n - 1], "mkdir -p '/home/kistetest/boxes/my box'"));
}

static void
test_init (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-init.txt", &plain_host);

  assert_home_hidden (argv, &plain_host);
  g_assert_cmpint (index_of (argv, "--systemd=always"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--init", "1"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--additional-packages", " systemd"), >, 0);
}

static void
test_volumes_and_nvidia (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-nvidia-volumes.txt", &plain_host);

  assert_home_hidden (argv, &plain_host);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/srv/data:/data:ro"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/opt/tools:/tools"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--nvidia", "1"), >, 0);
}

static void
test_unshare_netns_and_hook (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-unshare-netns.txt", &plain_host);
  guint n = g_strv_length (argv);

  assert_home_hidden (argv, &plain_host);
  g_assert_cmpint (index_of (argv, "--network"), ==, -1);
  g_assert_cmpint (index_of_pair (argv, "--hostname", "net.host"), >, 0);
  /* the user's own hook still runs, after ours */
  g_assert_true (g_str_has_suffix (argv[n - 1], "; touch /etc/kiste-hook"));
}

static void
test_ostree_host (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-ostree.txt", &ostree_host);

  assert_home_hidden (argv, &ostree_host);
  g_assert_cmpint (index_of_pair (argv, "--volume", "/var/home/kisteatomic:/var/home/kisteatomic:rslave"),
                   ==, -1);
  /* /var/home shows through /var at /run/host/var */
  g_assert_cmpint (index_of_pair (argv, "--volume", "/var:/run/host/var:rslave"), >, 0);
  g_assert_cmpint (index_of_pair (argv, "--mount", "type=tmpfs,destination=/run/host/var/home,notmpcopyup"), >, 0);
}

static void
test_no_var_home_mask_without_var_home (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-plain.txt", &plain_host);

  /* a new mount point under the rslave /var would appear on the host */
  g_assert_cmpint (index_of_pair (argv, "--mount", "type=tmpfs,destination=/run/host/var/home,notmpcopyup"), ==, -1);
}

static void
test_hook_makes_home (void)
{
  g_auto(GStrv) argv = rewrite_fixture ("dry-run-create-custom-home.txt", &plain_host);
  g_autofree char *tmp = g_dir_make_tmp ("kiste-isolated-XXXXXX", NULL);
  g_autofree char *home = g_build_filename (tmp, "my box", NULL);
  g_autofree char *marker = g_build_filename (home, "kept", NULL);
  guint n = g_strv_length (argv);
  GStatBuf st;

  g_assert_nonnull (tmp);
  run_hook_for ("/home/kistetest/boxes/my box", argv[n - 1], home);
  g_assert_cmpint (g_stat (home, &st), ==, 0);
  g_assert_true (S_ISDIR (st.st_mode));
  g_assert_cmpint (st.st_mode & 07777, ==, 0755);
  g_assert_cmpuint (st.st_uid, ==, getuid ());

  /* a home that is the user's already is left as it is */
  g_assert_true (g_file_set_contents (marker, "x", -1, NULL));
  g_assert_cmpint (g_chmod (home, 0700), ==, 0);
  run_hook_for ("/home/kistetest/boxes/my box", argv[n - 1], home);
  g_assert_cmpint (g_stat (home, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));

  /* a mount point another box's image left behind, owned by someone else,
   * becomes the user's */
  if (getuid () == 0)
    {
      g_assert_cmpint (chown (home, 4242, 4242), ==, 0);
      g_assert_cmpint (chown (marker, 4242, 4242), ==, 0);
      run_hook_for ("/home/kistetest/boxes/my box", argv[n - 1], home);
      g_assert_cmpint (g_stat (home, &st), ==, 0);
      g_assert_cmpuint (st.st_uid, ==, 0);
      g_assert_cmpint (st.st_mode & 07777, ==, 0755);
      g_assert_cmpint (g_stat (marker, &st), ==, 0);
      g_assert_cmpuint (st.st_uid, ==, 0);
    }

  g_unlink (marker);
  g_rmdir (home);
  g_rmdir (tmp);
}

static void
test_patched_distrobox (void)
{
  g_autofree char *plain = load_fixture ("dry-run-create-plain.txt");
  g_autoptr(GString) patched = g_string_new (plain);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;

  /* what a distrobox with --unshare-home prints: no home mounts, labelled */
  g_string_replace (patched, "--volume \"/home/kistetest\":\"/home/kistetest\":rslave\n", "", 0);
  g_string_replace (patched, "--volume /run/user/1001:/run/user/1001:rslave\n", "", 0);
  g_string_replace (patched, "--label \"manager=distrobox\"\n",
                    "--label \"manager=distrobox\"\n--label \"distrobox.unshare_home=1\"\n"
                    "--env \"DISTROBOX_UNSHARE_HOME=1\"\n", 0);

  argv = kiste_isolated_home_argv_from_dry_run (patched->str, &plain_host, &error);
  g_assert_no_error (error);
  assert_home_hidden (argv, &plain_host);
}

/* The parts do not depend on the host: one parse builds the command for
 * any host, the same as the two steps in one */
static void
test_parts (void)
{
  const char *fixtures[] = {
    "dry-run-create-plain.txt", "dry-run-create-custom-home.txt", "dry-run-create-init.txt",
    "dry-run-create-nvidia-volumes.txt", "dry-run-create-ostree.txt", "dry-run-create-unshare-netns.txt",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *dry_run = load_fixture (fixtures[i]);
      g_autoptr(KisteIsolatedHomeDryRun) parts = NULL;
      g_autoptr(GError) error = NULL;
      const KisteIsolatedHomeHost *hosts[] = { &plain_host, &ostree_host };

      g_test_message ("%s", fixtures[i]);
      parts = kiste_isolated_home_parse_dry_run (dry_run, &error);
      g_assert_no_error (error);
      g_assert_nonnull (parts);

      for (guint h = 0; h < G_N_ELEMENTS (hosts); h++)
        {
          g_auto(GStrv) built = kiste_isolated_home_build_argv (parts, hosts[h]);
          g_auto(GStrv) direct = kiste_isolated_home_argv_from_dry_run (dry_run, hosts[h], &error);

          g_assert_no_error (error);
          g_assert_true (g_strv_equal ((const char * const *) built, (const char * const *) direct));
          /* built twice from the same parts: nothing was used up */
          g_clear_pointer (&built, g_strfreev);
          built = kiste_isolated_home_build_argv (parts, hosts[h]);
          g_assert_true (g_strv_equal ((const char * const *) built, (const char * const *) direct));
        }
    }
}

static void
test_refused_shapes (void)
{
  g_autofree char *plain = load_fixture ("dry-run-create-plain.txt");
  struct {
    const char *from;
    const char *to;
  } cases[] = {
    /* needs a shell */
    { "--name \"plain\"", "--name \"$(touch /tmp/x)\"" },
    { "--name \"plain\"", "--name `id`" },
    { "--name \"plain\"", "--name \"unbalanced" },
    /* not podman or docker create */
    { "podman create", "sudo podman create" },
    { "podman create", "podman run" },
    { "podman create", "lilipod create" },
    /* a word where an option belongs, an image line with two words */
    { "--privileged", "privileged" },
    { "localhost/kiste-debian:ready", "localhost/kiste-debian:ready extra" },
    /* volumes Kiste cannot read */
    { "--volume /tmp:/tmp:rslave", "--volume /tmp:/tmp:rslave:z:extra" },
    { "--volume /tmp:/tmp:rslave", "--volume tmp:/tmp" },
    { "--volume /tmp:/tmp:rslave", "--volume /tmp:/tmp rslave" },
    /* empty, which once read a missing source (found by the fuzzer) */
    { "--volume /tmp:/tmp:rslave", "--volume=" },
    { "--volume /tmp:/tmp:rslave", "--volume ''" },
    /* the end of the entrypoint's arguments */
    { "-- ''", "" },
    { "-- ''", "-- '' 'more'" },
    { "-- ''", "-- ''\n--after" },
    /* nothing follows the init hook, not even the home it was made for */
    { "-- ''", "-- ''\n--home \"/home/other\"" },
    { "--home \"/home/kistetest\"", "--home relative" },
    { "--entrypoint /usr/bin/entrypoint", "" },
    /* nothing at all */
    { NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) text = g_string_new (cases[i].from ? plain : "");
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) argv = NULL;

      if (cases[i].from != NULL)
        g_assert_cmpuint (g_string_replace (text, cases[i].from, cases[i].to, 1), ==, 1);

      argv = kiste_isolated_home_argv_from_dry_run (text->str, &plain_host, &error);
      g_test_message ("case %u: %s", i, error ? error->message : "accepted");
      g_assert_null (argv);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_true (g_str_has_prefix (error->message, "Home isolation is not available"));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/isolated-home/plain", test_plain);
  g_test_add_func ("/isolated-home/custom-home", test_custom_home);
  g_test_add_func ("/isolated-home/init", test_init);
  g_test_add_func ("/isolated-home/volumes-and-nvidia", test_volumes_and_nvidia);
  g_test_add_func ("/isolated-home/unshare-netns-and-hook", test_unshare_netns_and_hook);
  g_test_add_func ("/isolated-home/ostree-host", test_ostree_host);
  g_test_add_func ("/isolated-home/no-var-home-mask", test_no_var_home_mask_without_var_home);
  g_test_add_func ("/isolated-home/hook-makes-home", test_hook_makes_home);
  g_test_add_func ("/isolated-home/patched-distrobox", test_patched_distrobox);
  g_test_add_func ("/isolated-home/parts", test_parts);
  g_test_add_func ("/isolated-home/refused-shapes", test_refused_shapes);

  return g_test_run ();
}
