/* test-commands.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kiste-commands.h"
#include "kiste-error.h"

/* Set up in main(): HOME points at a scratch folder, so that the enter
 * rules see a known host home with real folders in it. */
static char *scratch_home;

static void
assert_argv (char       **argv,
             const char  *expected)
{
  g_autofree char *joined = NULL;

  g_assert_nonnull (argv);
  joined = g_strjoinv ("|", argv);
  g_assert_cmpstr (joined, ==, expected);
  g_strfreev (argv);
}

static void
test_simple_builders (void)
{
  assert_argv (kiste_commands_start_argv ("podman", "arch"), "podman|start|arch");
  assert_argv (kiste_commands_images_argv ("podman"), "podman|images|--format|json");
  assert_argv (kiste_commands_images_argv ("docker"), "docker|images|--format|{{json .}}");
  assert_argv (kiste_commands_compatibility_argv (), "distrobox|create|--compatibility");
  assert_argv (kiste_commands_stats_argv ("podman", "arch"),
               "podman|stats|--no-stream|--format|json|arch");
  assert_argv (kiste_commands_start_argv ("docker", "arch"), "docker|start|arch");
  assert_argv (kiste_commands_host_stat_argv ("/home/alice/a b.deb"),
               "stat|-L|-c|%s %Y|--|/home/alice/a b.deb");

  assert_argv (kiste_commands_stop_argv (1, "arch"), "distrobox|stop|--yes|arch");
  assert_argv (kiste_commands_stop_argv (2, "arch"), "distrobox|stop|--yes|arch");

  assert_argv (kiste_commands_engine_stop_argv ("podman", "arch", 3),
               "podman|stop|--time|3|arch");
  assert_argv (kiste_commands_restart_argv ("podman", "arch"), "podman|restart|arch");
  assert_argv (kiste_commands_commit_argv ("podman", "arch", "localhost/kiste-saved/arch"),
               "podman|container|commit|arch|localhost/kiste-saved/arch");
  assert_argv (kiste_commands_save_image_argv ("podman", "localhost/kiste-saved/arch",
                                               "/tmp/s/image.tar"),
               "podman|save|--format|docker-archive|-o|/tmp/s/image.tar|localhost/kiste-saved/arch");
  assert_argv (kiste_commands_pull_archive_argv ("podman", "/tmp/s/image.tar"),
               "podman|pull|--quiet|docker-archive:/tmp/s/image.tar");
  assert_argv (kiste_commands_image_field_argv ("podman", "localhost/kiste-saved/arch", "{{.Id}}"),
               "podman|image|inspect|--format|{{.Id}}|localhost/kiste-saved/arch");
  assert_argv (kiste_commands_save_image_argv ("docker", "localhost/kiste-saved/arch",
                                               "/tmp/s/image.tar"),
               "docker|save|-o|/tmp/s/image.tar|localhost/kiste-saved/arch");
  assert_argv (kiste_commands_load_image_argv ("podman", "/tmp/s/image.tar"),
               "podman|load|-i|/tmp/s/image.tar");
  assert_argv (kiste_commands_remove_image_argv ("docker", "localhost/kiste-saved/arch"),
               "docker|rmi|localhost/kiste-saved/arch");
  /* a rootless podman box's home may hold files of its subordinate ids,
   * which only podman's user namespace reads */
  assert_argv (kiste_commands_pack_home_argv ("podman", "/home/alice/boxes/arch",
                                              "/tmp/s/home.tar"),
               "podman|unshare|tar|--create|--file|/tmp/s/home.tar|"
               "--directory|/home/alice/boxes/arch|--one-file-system|--sparse|.");
  assert_argv (kiste_commands_pack_home_argv ("docker", "/home/alice/boxes/arch",
                                              "/tmp/s/home.tar"),
               "tar|--create|--file|/tmp/s/home.tar|--directory|/home/alice/boxes/arch|"
               "--one-file-system|--sparse|.");
  assert_argv (kiste_commands_home_size_argv ("podman", "/home/alice/boxes/arch"),
               "podman|unshare|du|--summarize|--bytes|--one-file-system|--|"
               "/home/alice/boxes/arch");
  assert_argv (kiste_commands_home_size_argv ("docker", "/home/alice/boxes/arch"),
               "du|--summarize|--bytes|--one-file-system|--|/home/alice/boxes/arch");
  assert_argv (kiste_commands_remove_new_folder_argv ("/home/alice/arch home"),
               "rm|--recursive|--force|--one-file-system|--|/home/alice/arch home");
  assert_argv (kiste_commands_make_folder_argv ("/home/alice/arch home"),
               "mkdir|--mode=0700|--|/home/alice/arch home");
  assert_argv (kiste_commands_unpack_home_argv ("/tmp/s/home.tar", "/home/alice/arch home"),
               "tar|--extract|--file|/tmp/s/home.tar|--directory|/home/alice/arch home|"
               "--no-same-owner|--no-same-permissions|--keep-old-files");
  {
    guint64 size = 1;

    g_assert_true (kiste_commands_parse_home_size ("123456\t/home/alice/boxes/arch\n", &size));
    g_assert_cmpuint (size, ==, 123456);
    g_assert_false (kiste_commands_parse_home_size ("", &size));
    g_assert_false (kiste_commands_parse_home_size (NULL, &size));
    g_assert_false (kiste_commands_parse_home_size ("12 /x\n", &size));
    g_assert_false (kiste_commands_parse_home_size ("-1\t/x\n", &size));
    g_assert_false (kiste_commands_parse_home_size ("99999999999999999999999\t/x\n", &size));
    g_assert_cmpuint (size, ==, 123456);
  }

  assert_argv (kiste_commands_rm_argv (1, "arch", FALSE), "distrobox|rm|--force|arch");
  assert_argv (kiste_commands_rm_argv (1, "arch", TRUE), "distrobox|rm|--force|--rm-home|arch");
  assert_argv (kiste_commands_rm_argv (2, "arch", TRUE), "distrobox|rm|--force|--rm-home|arch");

  /* distrobox 1 upgrade has no --yes */
  assert_argv (kiste_commands_upgrade_argv (1, "arch"), "distrobox|upgrade|arch");
  assert_argv (kiste_commands_upgrade_argv (2, "arch"), "distrobox|upgrade|--yes|arch");

  assert_argv (kiste_commands_clone_argv (1, "arch", "arch-copy"),
               "distrobox|create|--yes|--no-entry|--clone|arch|--name|arch-copy");
  assert_argv (kiste_commands_clone_argv (2, "arch", "arch-copy"),
               "distrobox|create|--yes|--no-entry|--clone|arch|--name|arch-copy");

  assert_argv (kiste_commands_rename_argv ("podman", "arch", "arch-new"),
               "podman|rename|arch|arch-new");

  assert_argv (kiste_commands_state_argv ("podman", "arch"),
               "podman|inspect|--type|container|--format|{{.State.Status}}|arch");
  assert_argv (kiste_commands_inspect_argv ("docker", "arch"), "docker|container|inspect|arch");

  assert_argv (kiste_commands_logs_argv ("podman", "arch", "2026-01-02T03:04:05.000001000+00:00", TRUE),
               "podman|logs|--follow|--since|2026-01-02T03:04:05.000001000+00:00|arch");
  assert_argv (kiste_commands_logs_argv ("podman", "arch", "2026-01-02T03:04:05Z", FALSE),
               "podman|logs|--since|2026-01-02T03:04:05Z|arch");
}

static void
test_builders_refuse_options_as_names (void)
{
  if (g_test_subprocess ())
    {
      /* A name like an option would be read as one by distrobox. */
      g_assert_null (kiste_commands_stop_argv (1, "--all"));
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*is_usable_name*");
}

static void
test_export_builders (void)
{
  g_autoptr(GError) error = NULL;
  char **argv;

  argv = kiste_commands_export_app_argv ("arch", "/usr/share/applications/org.gnome.Maps.desktop",
                                         FALSE, &error);
  g_assert_no_error (error);
  assert_argv (argv, "distrobox|enter|--name|arch|--no-tty|--|distrobox-export|"
                     "--app|/usr/share/applications/org.gnome.Maps.desktop");

  argv = kiste_commands_export_app_argv ("arch", "/usr/share/applications/my tool.desktop",
                                         TRUE, &error);
  g_assert_no_error (error);
  assert_argv (argv, "distrobox|enter|--name|arch|--no-tty|--|distrobox-export|"
                     "--app|/usr/share/applications/my tool.desktop|--delete");

  argv = kiste_commands_generate_entry_argv ("arch", FALSE);
  assert_argv (argv, "distrobox|generate-entry|arch|--icon|utilities-terminal");
  argv = kiste_commands_generate_entry_argv ("arch", TRUE);
  assert_argv (argv, "distrobox|generate-entry|arch|--delete");

  {
    const char *app[] = { "/opt/my tool/bin/tool", "--new-window", NULL };

    argv = kiste_commands_launch_app_argv ("arch", app);
    assert_argv (argv, "distrobox|enter|--name|arch|--|/opt/my tool/bin/tool|--new-window");
  }

  argv = kiste_commands_export_bin_argv ("arch", "/usr/bin/htop", "/home/alice/.local/bin",
                                         FALSE, &error);
  g_assert_no_error (error);
  assert_argv (argv, "distrobox|enter|--name|arch|--no-tty|--|distrobox-export|"
                     "--bin|/usr/bin/htop|--export-path|/home/alice/.local/bin");

  argv = kiste_commands_export_bin_argv ("arch", "/usr/bin/htop", "/home/alice/.local/bin",
                                         TRUE, &error);
  g_assert_no_error (error);
  assert_argv (argv, "distrobox|enter|--name|arch|--no-tty|--|distrobox-export|"
                     "--bin|/usr/bin/htop|--export-path|/home/alice/.local/bin|--delete");
}

/* Programs: the name travels as an argument of a constant script, in the
 * box and on the host */
static void
test_program_builders (void)
{
  char **resolve = kiste_commands_resolve_program_argv ("podman", "arch", "alice", "$(reboot)");
  g_auto(GStrv) host = kiste_commands_find_host_program_argv ("htop", "/home/alice/.local/bin");
  g_auto(GStrv) host_any = kiste_commands_find_host_program_argv ("htop", NULL);

  assert_argv (resolve, "podman|exec|--user|alice|arch|sh|-c|command -v -- \"$1\"|sh|$(reboot)");
  g_assert_cmpuint (g_strv_length (host), ==, 6);
  g_assert_cmpstr (host[0], ==, "sh");
  g_assert_cmpstr (host[1], ==, "-c");
  g_assert_cmpstr (host[2], ==, host_any[2]);
  g_assert_cmpstr (host[3], ==, "sh");
  g_assert_cmpstr (host[4], ==, "htop");
  g_assert_cmpstr (host[5], ==, "/home/alice/.local/bin");
  g_assert_cmpstr (host_any[5], ==, "");

  /* The host script finds the first program of PATH outside the folder
   * of exported ones */
  {
    g_autofree char *dir = g_dir_make_tmp ("kiste-test-path-XXXXXX", NULL);
    g_autofree char *exported = g_build_filename (dir, "exported", NULL);
    g_autofree char *system = g_build_filename (dir, "system", NULL);
    g_autofree char *in_exported = g_build_filename (exported, "tool", NULL);
    g_autofree char *in_system = g_build_filename (system, "tool", NULL);
    g_autofree char *path = g_strconcat (exported, ":", system, ":/usr/bin:/bin", NULL);
    g_auto(GStrv) argv = kiste_commands_find_host_program_argv ("tool", exported);
    g_auto(GStrv) argv_none = kiste_commands_find_host_program_argv ("nothing*", exported);
    g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "PATH", path, TRUE);
    g_autofree char *out = NULL;
    g_autofree char *out_none = NULL;
    g_autofree char *expected = g_strconcat (in_system, "\n", NULL);
    int status = -1;

    g_assert_cmpint (g_mkdir (exported, 0700), ==, 0);
    g_assert_cmpint (g_mkdir (system, 0700), ==, 0);
    g_assert_true (g_file_set_contents (in_exported, "#!/bin/sh\n", -1, NULL));
    g_assert_true (g_file_set_contents (in_system, "#!/bin/sh\n", -1, NULL));
    g_assert_cmpint (g_chmod (in_exported, 0755), ==, 0);
    g_assert_cmpint (g_chmod (in_system, 0755), ==, 0);

    g_assert_true (g_spawn_sync (NULL, argv, env, G_SPAWN_SEARCH_PATH_FROM_ENVP, NULL, NULL,
                                 &out, NULL, &status, NULL));
    g_assert_cmpstr (out, ==, expected);
    g_assert_true (g_spawn_sync (NULL, argv_none, env, G_SPAWN_SEARCH_PATH_FROM_ENVP, NULL, NULL,
                                 &out_none, NULL, &status, NULL));
    g_assert_cmpstr (out_none, ==, "");

    g_unlink (in_exported);
    g_unlink (in_system);
    g_rmdir (exported);
    g_rmdir (system);
    g_rmdir (dir);
  }
}

static void
test_export_builders_refuse (void)
{
  static const char * const bad_apps[] = {
    "org.gnome.Maps.desktop",                 /* a bare name matches many apps */
    "firefox",
    "/usr/share/applications/firefox",        /* not a .desktop file */
    "/usr/share/applications/x\ny.desktop",
    "",
  };
  g_autoptr(GError) error = NULL;
  char **argv;

  for (guint i = 0; i < G_N_ELEMENTS (bad_apps); i++)
    {
      argv = kiste_commands_export_app_argv ("arch", bad_apps[i], FALSE, &error);
      g_assert_null (argv);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_clear_error (&error);
    }

  argv = kiste_commands_export_app_argv ("arch", NULL, FALSE, &error);
  g_assert_null (argv);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  argv = kiste_commands_export_bin_argv ("arch", "htop", "/home/alice/.local/bin", FALSE, &error);
  g_assert_null (argv);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* "~" means nothing without a shell */
  argv = kiste_commands_export_bin_argv ("arch", "/usr/bin/htop", "~/.local/bin", FALSE, &error);
  g_assert_null (argv);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
}

static void
test_list_apps_argv (void)
{
  static const char * const dirs[] = {
    "/home/alice/boxes/arch/.local/share/applications",
    "/usr/local/share/applications",
    "/usr/share/applications",
    NULL
  };
  g_auto(GStrv) argv = kiste_commands_list_apps_argv ("podman", "arch", "alice", dirs);
  const char *script = kiste_commands_get_list_apps_script ();

  g_assert_nonnull (argv);
  g_assert_cmpuint (g_strv_length (argv), ==, 12);
  g_assert_cmpstr (argv[0], ==, "podman");
  g_assert_cmpstr (argv[1], ==, "exec");
  g_assert_cmpstr (argv[2], ==, "--user");
  g_assert_cmpstr (argv[3], ==, "alice");
  g_assert_cmpstr (argv[4], ==, "arch");
  g_assert_cmpstr (argv[5], ==, "sh");
  g_assert_cmpstr (argv[6], ==, "-c");
  /* The script is constant: the folders only ever travel as arguments. */
  g_assert_true (argv[7] == script || g_str_equal (argv[7], script));
  g_assert_null (strstr (argv[7], "alice"));
  g_assert_null (strstr (argv[7], "applications"));
  g_assert_cmpstr (argv[8], ==, "sh");
  g_assert_cmpstr (argv[9], ==, dirs[0]);
  g_assert_cmpstr (argv[10], ==, dirs[1]);
  g_assert_cmpstr (argv[11], ==, dirs[2]);
}

static void
test_format_since (void)
{
  g_autoptr(GDateTime) utc = g_date_time_new_utc (2026, 1, 2, 3, 4, 5.123456);
  g_autoptr(GTimeZone) tz = g_time_zone_new_offset (2 * 3600);
  g_autoptr(GDateTime) local = g_date_time_new (tz, 2026, 1, 2, 5, 4, 5.0);
  g_autofree char *a = kiste_commands_format_since (utc);
  g_autofree char *b = kiste_commands_format_since (local);

  g_assert_cmpstr (a, ==, "2026-01-02T03:04:05.123456000+00:00");
  /* Always written in UTC */
  g_assert_cmpstr (b, ==, "2026-01-02T03:04:05.000000000+00:00");
}

static void
test_home_removable (void)
{
  static const struct {
    const char *path;
    gboolean    removable;
  } cases[] = {
    { "/home/alice/boxes/arch", TRUE },
    { "/home/alice/boxes/arch/", TRUE },
    { "/home/alice/.local/share/boxes/arch", TRUE },
    { "/home/alice/arch-home", TRUE },
    { "/home/alice/Documents/arch-home", TRUE },
    { "/var/home/bob/arch", TRUE },
    { "/mnt/data/boxes/arch", TRUE },
    { "/srv/boxes/arch", TRUE },
    { "/opt/boxes/arch", TRUE },
    { "/run/media/alice/disk/boxes", TRUE },
    { "/data/boxes", TRUE },
    { "/", FALSE },
    { "//", FALSE },
    { "", FALSE },
    { "relative/home", FALSE },
    { "/home/alice", FALSE },          /* the host home */
    { "/home/alice/", FALSE },
    { "/home", FALSE },                /* contains it */
    { "/home/bob", FALSE },            /* another user's home */
    { "/home/alice/Documents", FALSE },
    { "/home/alice/.config", FALSE },
    { "/home/alice/.local", FALSE },
    { "/home/alice/.local/share", FALSE },
    { "/home/alice/.ssh", FALSE },
    { "/home/alice/boxes/../..", FALSE },
    { "/home/alice/./boxes", FALSE },
    { "/home/alice//boxes", FALSE },
    { "/usr", FALSE },
    { "/usr/local/arch", FALSE },
    { "/etc/arch", FALSE },
    { "/var", FALSE },
    { "/var/lib", FALSE },
    { "/var/lib/arch", FALSE },
    { "/var/home", FALSE },
    { "/var/home/bob", FALSE },
    { "/run/user/1000/arch", FALSE },
    { "/run/media/alice/disk", FALSE },
    { "/tmp", FALSE },
    { "/mnt", FALSE },
    { "/data", FALSE },
    { "/boot/arch", FALSE },
    { "/proc/1", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean ok = kiste_commands_check_home_removable (cases[i].path, "/home/alice", &error);

      if (ok != cases[i].removable)
        g_error ("“%s”: expected %s", cases[i].path, cases[i].removable ? "removable" : "refused");

      if (ok)
        g_assert_no_error (error);
      else
        g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
    }
}

static void
test_home_removable_ostree (void)
{
  g_autoptr(GError) error = NULL;

  /* Home under /var/home (Silverblue): folders inside it are fine… */
  g_assert_true (kiste_commands_check_home_removable ("/var/home/alice/boxes/arch",
                                                      "/var/home/alice", &error));
  g_assert_no_error (error);
  g_assert_true (kiste_commands_check_home_removable ("/var/home/alice/arch",
                                                      "/var/home/alice", &error));
  g_assert_no_error (error);

  /* …the home and its parents are not. */
  g_assert_false (kiste_commands_check_home_removable ("/var/home/alice", "/var/home/alice", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
  g_assert_false (kiste_commands_check_home_removable ("/var/home", "/var/home/alice/", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);
}

static void
test_unshared_home_workdir_rule (void)
{
  static const char * const mounts[] = {
    "/tmp", "/dev", "/usr/bin/entrypoint", "/run/host", "/run/host/home/alice",
    "/home/alice/projects/", "/home/alice/data", NULL
  };
  static const struct {
    const char *cwd;
    gboolean    keep;
  } cases[] = {
    { "/home/alice", FALSE },
    { "/home/alice/Documents", FALSE },
    { "/home/alice/projects", TRUE },
    { "/home/alice/projects/kiste/src", TRUE },
    { "/home/alice/projects-old", FALSE },   /* a prefix, not a parent */
    { "/home/alice/data", TRUE },
    { "/home/alice/database", FALSE },
    { "/home/alicex/foo", TRUE },            /* not in the host home */
    { "/tmp/build", TRUE },
    { "/etc", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean keep = kiste_commands_unshared_home_keeps_workdir (cases[i].cwd, "/home/alice", mounts);

      if (keep != cases[i].keep)
        g_error ("“%s”: expected %s", cases[i].cwd, cases[i].keep ? "kept" : "--no-workdir");
    }

  /* /run/host only shows the host's files, not the same path */
  {
    static const char * const only_run_host[] = { "/run/host", "/run/host/home/alice", NULL };

    g_assert_false (kiste_commands_unshared_home_keeps_workdir ("/home/alice/x", "/home/alice/",
                                                                only_run_host));
    g_assert_false (kiste_commands_unshared_home_keeps_workdir ("/home/alice/x", "/home/alice", NULL));
  }
}

static KisteBox *
make_box (const char *name,
          const char *labels_json,
          const char *mounts_json,
          const char *home)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  KisteBox *box;

  json = g_strdup_printf ("{\"Id\": \"0123456789abcdef\", \"Names\": [\"%s\"], "
                          "\"Image\": \"localhost/debian:12\", \"State\": \"running\", "
                          "\"Labels\": %s, \"Mounts\": %s, "
                          "\"Command\": [\"--verbose\", \"--name\", \"alice\", \"--user\", \"1000\", "
                          "\"--group\", \"1000\", \"--home\", \"%s\", \"--init\", \"0\", "
                          "\"--nvidia\", \"0\", \"--\", \"\"]}",
                          name, labels_json, mounts_json, home);

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);

  box = kiste_box_new_from_ps_json (json_node_get_object (json_parser_get_root (parser)),
                                    scratch_home, &error);
  g_assert_no_error (error);
  g_assert_nonnull (box);

  return box;
}

static char *
scratch_path (const char *relative)
{
  return g_build_filename (scratch_home, relative, NULL);
}

static void
test_enter_shared_home (void)
{
  g_autofree char *mounts = g_strdup_printf ("[\"/tmp\", \"/run/host\", \"%s\"]", scratch_home);
  g_autoptr(KisteBox) box = make_box ("arch", "{\"manager\": \"distrobox\"}", mounts, scratch_home);
  g_autofree char *projects = scratch_path ("projects");
  g_autofree char *missing = scratch_path ("no-such-folder");
  static const char * const command[] = { "htop", "--tree", NULL };
  static const char * const empty[] = { NULL };

  assert_argv (kiste_commands_enter_argv (box, 1, projects, NULL),
               "distrobox|enter|--name|arch");
  assert_argv (kiste_commands_enter_argv (box, 2, projects, NULL),
               "distrobox|enter|--name|arch");
  assert_argv (kiste_commands_enter_argv (box, 1, projects, command),
               "distrobox|enter|--name|arch|--|htop|--tree");
  assert_argv (kiste_commands_enter_argv (box, 1, projects, empty),
               "distrobox|enter|--name|arch");

  /* Nowhere to keep: start in the box's home */
  assert_argv (kiste_commands_enter_argv (box, 1, NULL, NULL),
               "distrobox|enter|--name|arch|--no-workdir");
  assert_argv (kiste_commands_enter_argv (box, 1, missing, command),
               "distrobox|enter|--name|arch|--no-workdir|--|htop|--tree");
  assert_argv (kiste_commands_enter_argv (box, 2, "relative/dir", NULL),
               "distrobox|enter|--name|arch|--no-workdir");
}

static void
test_enter_unshared_home (void)
{
  g_autofree char *mounted = scratch_path ("mounted");
  /* Not /tmp, which every box mounts: the scratch home lives there. */
  g_autofree char *mounts = g_strdup_printf ("[\"/dev\", \"/run/host\", \"/run/host%s\", \"%s\"]",
                                             scratch_home, mounted);
  g_autoptr(KisteBox) box = make_box ("arch-dev",
                                      "{\"manager\": \"distrobox\", \"distrobox.unshare_home\": \"1\"}",
                                      mounts, scratch_home);
  g_autofree char *projects = scratch_path ("projects");
  g_autofree char *below_mount = scratch_path ("mounted/sub");
  static const char * const command[] = { "make", NULL };

  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_UNSHARED);

  /* In the host home but not mounted: the box cannot go there */
  assert_argv (kiste_commands_enter_argv (box, 1, scratch_home, NULL),
               "distrobox|enter|--name|arch-dev|--no-workdir");
  assert_argv (kiste_commands_enter_argv (box, 1, projects, command),
               "distrobox|enter|--name|arch-dev|--no-workdir|--|make");

  /* Under one of the box's own mounts: kept */
  assert_argv (kiste_commands_enter_argv (box, 1, mounted, NULL),
               "distrobox|enter|--name|arch-dev");
  assert_argv (kiste_commands_enter_argv (box, 2, below_mount, command),
               "distrobox|enter|--name|arch-dev|--|make");

  /* Outside the host home distrobox finds it under /run/host */
  assert_argv (kiste_commands_enter_argv (box, 1, "/", NULL),
               "distrobox|enter|--name|arch-dev");
}

static void
test_enter_label_zero (void)
{
  g_autofree char *mounts = g_strdup_printf ("[\"/run/host\", \"%s\"]", scratch_home);
  g_autoptr(KisteBox) box = make_box ("arch",
                                      "{\"manager\": \"distrobox\", \"distrobox.unshare_home\": \"0\"}",
                                      mounts, scratch_home);
  g_autofree char *projects = scratch_path ("projects");

  assert_argv (kiste_commands_enter_argv (box, 1, projects, NULL), "distrobox|enter|--name|arch");
}

static void
test_app_dirs (void)
{
  g_autofree char *mounts = g_strdup_printf ("[\"/run/host\", \"%s\", \"/srv/boxes/arch\"]",
                                             scratch_home);
  g_autoptr(KisteBox) custom = make_box ("arch", "{\"manager\": \"distrobox\"}", mounts,
                                         "/srv/boxes/arch");
  g_autoptr(KisteBox) shared = make_box ("arch", "{\"manager\": \"distrobox\"}", mounts,
                                         scratch_home);

  g_assert_true (kiste_box_has_custom_home (custom));
  assert_argv (kiste_commands_dup_app_dirs (custom),
               "/srv/boxes/arch/.local/share/applications|"
               "/usr/local/share/applications|/usr/share/applications");

  /* The host home's apps are the host's, exported ones included */
  g_assert_false (kiste_box_has_custom_home (shared));
  assert_argv (kiste_commands_dup_app_dirs (shared),
               "/usr/local/share/applications|/usr/share/applications");
}

static int
run_remove_home (const char *path,
                 char      **err)
{
  g_auto(GStrv) argv = kiste_commands_remove_home_argv (path);
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync ("/", argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, err,
                               &status, &error));
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static void
make_file (const char *dir,
           const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *parent = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "data", -1, NULL));
}

/* Deleting a box's home: what is in it goes, through links inside it
 * nothing else; a folder on the way swapped for a link (a box sharing /tmp
 * can do that) stops it; a home that is a link, or not there, too */
static void
test_remove_home (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("kiste-test-rm-home-XXXXXX", &error);
  g_autofree char *home = g_build_filename (root, "boxes", "dev", "home", NULL);
  g_autofree char *victim = g_build_filename (root, "mine", NULL);
  g_autofree char *victim_home = g_build_filename (victim, "home", NULL);
  g_autofree char *parent = g_build_filename (root, "boxes", "dev", NULL);
  g_autofree char *moved = g_build_filename (root, "boxes", "dev.moved", NULL);
  g_autofree char *inner = g_build_filename (home, "link-out", NULL);
  g_autofree char *err = NULL;
  g_autofree char *rm = NULL;

  g_assert_no_error (error);
  make_file (home, "a/b/c.txt");
  make_file (home, ".hidden");
  make_file (victim_home, "precious.txt");
  g_assert_cmpint (symlink (victim, inner), ==, 0);

  /* a link inside the home is removed, not followed */
  g_assert_cmpint (run_remove_home (home, &err), ==, 0);
  g_assert_false (g_file_test (home, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (parent, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (victim_home, G_FILE_TEST_IS_DIR));
  g_clear_pointer (&err, g_free);

  /* gone already: nothing to do */
  g_assert_cmpint (run_remove_home (home, &err), ==, 0);
  g_clear_pointer (&err, g_free);

  /* the home's parent swapped for a link to the user's files */
  make_file (home, "x.txt");
  g_assert_cmpint (g_rename (parent, moved), ==, 0);
  g_assert_cmpint (symlink (victim, parent), ==, 0);
  g_assert_cmpint (run_remove_home (home, &err), ==, 3);
  g_assert_nonnull (strstr (err, "is a link"));
  g_clear_pointer (&err, g_free);
  {
    g_autofree char *precious = g_build_filename (victim_home, "precious.txt", NULL);

    g_assert_true (g_file_test (precious, G_FILE_TEST_EXISTS));
  }

  /* the home itself a link */
  g_assert_cmpint (g_unlink (parent), ==, 0);
  g_assert_cmpint (g_rename (moved, parent), ==, 0);
  {
    g_autofree char *real = g_build_filename (parent, "real", NULL);

    g_assert_cmpint (g_rename (home, real), ==, 0);
    g_assert_cmpint (symlink (victim_home, home), ==, 0);
    g_assert_cmpint (run_remove_home (home, &err), ==, 3);
    g_assert_true (g_file_test (victim_home, G_FILE_TEST_IS_DIR));
    g_clear_pointer (&err, g_free);
  }

  /* a file where a folder should be */
  g_assert_cmpint (g_unlink (home), ==, 0);
  g_assert_true (g_file_set_contents (home, "x", -1, NULL));
  {
    g_autofree char *below = g_build_filename (home, "sub", NULL);

    g_assert_cmpint (run_remove_home (below, &err), ==, 3);
    g_clear_pointer (&err, g_free);
  }

  rm = g_strdup_printf ("rm -rf '%s'", root);
  g_assert_true (g_spawn_command_line_sync (rm, NULL, NULL, NULL, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *projects = NULL;
  g_autofree char *mounted = NULL;
  g_autofree char *mounted_sub = NULL;
  int ret;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/commands/simple", test_simple_builders);
  g_test_add_func ("/commands/refuse-option-names", test_builders_refuse_options_as_names);
  g_test_add_func ("/commands/export", test_export_builders);
  g_test_add_func ("/commands/programs", test_program_builders);
  g_test_add_func ("/commands/export-refuse", test_export_builders_refuse);
  g_test_add_func ("/commands/list-apps", test_list_apps_argv);
  g_test_add_func ("/commands/format-since", test_format_since);
  g_test_add_func ("/commands/home-removable", test_home_removable);
  g_test_add_func ("/commands/home-removable-ostree", test_home_removable_ostree);
  g_test_add_func ("/commands/remove-home", test_remove_home);
  g_test_add_func ("/commands/unshared-home-rule", test_unshared_home_workdir_rule);
  g_test_add_func ("/commands/enter/shared-home", test_enter_shared_home);
  g_test_add_func ("/commands/enter/unshared-home", test_enter_unshared_home);
  g_test_add_func ("/commands/enter/label-zero", test_enter_label_zero);
  g_test_add_func ("/commands/app-dirs", test_app_dirs);

  /* The trapped child only checks a refusal and aborts: no scratch. */
  if (g_test_subprocess ())
    return g_test_run ();

  /* Before any thread exists and before GLib caches the home folder. */
  scratch_home = g_dir_make_tmp ("kiste-test-commands-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("HOME", scratch_home, TRUE);

  projects = g_build_filename (scratch_home, "projects", NULL);
  mounted = g_build_filename (scratch_home, "mounted", NULL);
  mounted_sub = g_build_filename (mounted, "sub", NULL);
  g_assert_cmpint (g_mkdir_with_parents (projects, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (mounted_sub, 0700), ==, 0);

  ret = g_test_run ();

  g_rmdir (mounted_sub);
  g_rmdir (mounted);
  g_rmdir (projects);
  g_rmdir (scratch_home);
  g_free (scratch_home);

  return ret;
}
