/* test-validate.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-validate.h"

typedef gboolean (*CheckFunc) (const char  *value,
                               GError     **error);

typedef struct
{
  const char *value;
  gboolean    valid;
} Case;

/* Runs every case; a refused value must be INVALID_INPUT and its message
 * must name the field (field_word, case-sensitive, as people read it). */
static void
run_cases (const char *what,
           CheckFunc   check,
           const Case *cases,
           gsize       n_cases,
           const char *field_word)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      g_autoptr(GError) error = NULL;
      gboolean ok;

      ok = check (cases[i].value, &error);

      if (ok != cases[i].valid)
        g_error ("%s “%s”: expected %s, got %s (%s)", what, cases[i].value,
                 cases[i].valid ? "valid" : "invalid", ok ? "valid" : "invalid",
                 error ? error->message : "no error");

      if (cases[i].valid)
        {
          g_assert_no_error (error);
          continue;
        }

      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
      g_assert_nonnull (error->message);
      if (strstr (error->message, field_word) == NULL)
        g_error ("%s “%s”: message does not name the field (%s): %s",
                 what, cases[i].value, field_word, error->message);
    }
}

static gboolean
check_name (const char  *value,
            GError     **error)
{
  return kiste_validate_name (value, NULL, error);
}

static void
test_name (void)
{
  g_autofree char *name_63 = g_strnfill (63, 'a');
  g_autofree char *name_64 = g_strnfill (64, 'a');
  g_autofree char *name_300 = g_strnfill (300, 'b');
  const Case cases[] = {
    { "ab", TRUE },
    { "my-box", TRUE },
    { "Box_1", TRUE },
    { "0day", TRUE },
    { "fedora-toolbox-41", TRUE },
    { name_63, TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "a", FALSE },
    { name_64, FALSE },
    { name_300, FALSE },
    { "box;rm", FALSE },
    { "x;y", FALSE },
    { "$(id)", FALSE },
    { "box$(touch ~/pwned)", FALSE },
    { "`id`", FALSE },
    { "box`id`", FALSE },
    { "my box", FALSE },
    { " box", FALSE },
    { "box\n", FALSE },
    { "box\t", FALSE },
    { "-box", FALSE },
    { "--help", FALSE },
    { "_box", FALSE },
    { "bøx", FALSE },
    { "коробка", FALSE },
    { "box.dev", FALSE },
    { "box/dev", FALSE },
    { "box'", FALSE },
    { "box\"", FALSE },
    { "box\\", FALSE },
    { "box*", FALSE },
  };

  run_cases ("name", check_name, cases, G_N_ELEMENTS (cases), "name");
}

static void
test_name_messages (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name_300 = g_strnfill (300, 'b');

  g_assert_false (kiste_validate_name ("x;y", NULL, &error));
  g_assert_cmpstr (error->message, ==,
                   "The name may only contain letters, digits, “_” and “-”, and must start with "
                   "a letter or digit.");
  g_clear_error (&error);

  g_assert_false (kiste_validate_name ("-box", NULL, &error));
  g_assert_nonnull (strstr (error->message, "must start with a letter or digit"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_name ("a.b", NULL, &error));
  g_assert_nonnull (strstr (error->message, "“.”"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_name (name_300, NULL, &error));
  g_assert_nonnull (strstr (error->message, "at most 63"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_name ("a", NULL, &error));
  g_assert_nonnull (strstr (error->message, "at least 2"));
}

static void
test_name_unique (void)
{
  const char * const existing[] = { "dev", "Test", "fedora.39", NULL };
  const char * const none[] = { NULL };
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_validate_name ("dev", existing, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "name"));
  g_assert_nonnull (strstr (error->message, "“dev”"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_name ("Test", existing, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* case-sensitive, like podman */
  g_assert_true (kiste_validate_name ("Dev", existing, &error));
  g_assert_true (kiste_validate_name ("test", existing, &error));
  g_assert_true (kiste_validate_name ("dev2", existing, &error));
  g_assert_true (kiste_validate_name ("dev", none, &error));
  g_assert_true (kiste_validate_name ("dev", NULL, &error));
  g_assert_no_error (error);
}

static void
test_existing_name (void)
{
  const char * const existing[] = { "fedora.39", "dev", NULL };
  g_autoptr(GError) error = NULL;

  /* boxes made by hand may have dots: podman's rule */
  g_assert_true (kiste_validate_existing_name ("fedora.39", existing, &error));
  g_assert_true (kiste_validate_existing_name ("any.box_1", NULL, &error));
  g_assert_no_error (error);

  g_assert_false (kiste_validate_existing_name ("other", existing, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "“other”"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_existing_name ("-x", NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  g_assert_false (kiste_validate_existing_name ("a$(id)", NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  g_assert_false (kiste_validate_existing_name ("", NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
}

static void
test_hostname (void)
{
  g_autofree char *label_63 = g_strnfill (63, 'h');
  g_autofree char *label_64 = g_strnfill (64, 'h');
  g_autofree char *split_64 = NULL;
  g_autofree char *chars_65 = NULL;
  g_autofree char *chars_70 = NULL;
  g_autofree char *a32 = g_strnfill (32, 'a');
  g_autofree char *b31 = g_strnfill (31, 'b');
  g_autofree char *b32 = g_strnfill (32, 'b');
  g_autofree char *c37 = g_strnfill (37, 'c');

  split_64 = g_strconcat (a32, ".", b31, NULL);
  chars_65 = g_strconcat (a32, ".", b32, NULL);
  chars_70 = g_strconcat (a32, ".", c37, NULL);
  g_assert_cmpuint (strlen (split_64), ==, 64);
  g_assert_cmpuint (strlen (chars_65), ==, 65);
  g_assert_cmpuint (strlen (chars_70), ==, 70);

  {
    const Case cases[] = {
      { "box", TRUE },
      { "my-host", TRUE },
      { "dev.example.org", TRUE },
      { "Box1", TRUE },
      { "1box", TRUE },
      { label_63, TRUE },
      { split_64, TRUE },
      { NULL, FALSE },
      { "", FALSE },
      { label_64, FALSE },
      { chars_65, FALSE },
      { chars_70, FALSE },
      { "-host", FALSE },
      { "host-", FALSE },
      { "a.-b", FALSE },
      { "ho_st", FALSE },
      { "a..b", FALSE },
      { ".a", FALSE },
      { "a.", FALSE },
      { "hôst", FALSE },
      { "a b", FALSE },
      { "a;b", FALSE },
      { "$(hostname)", FALSE },
    };

    run_cases ("hostname", kiste_validate_hostname, cases, G_N_ELEMENTS (cases), "hostname");
  }
}

static void
test_hostname_70 (void)
{
  g_autofree char *hostname = g_strnfill (70, 'h');
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_validate_hostname (hostname, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "hostname"));
  g_assert_nonnull (strstr (error->message, "64"));
  g_assert_nonnull (strstr (error->message, "70"));
}

static void
test_default_hostname (void)
{
  g_autofree char *name_60 = g_strnfill (60, 'n');
  g_autofree char *name_63 = g_strnfill (63, 'n');
  g_autoptr(GError) error = NULL;
  const char *host = g_get_host_name ();

  g_assert_true (kiste_validate_default_hostname ("dev", "laptop", &error));
  /* 60 + "." + 3 = 64: still fits */
  g_assert_true (kiste_validate_default_hostname (name_60, "abc", &error));
  g_assert_no_error (error);

  g_assert_false (kiste_validate_default_hostname (name_60, "abcd", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "hostname"));
  g_clear_error (&error);

  /* this machine's real name: a 63-character box name never fits */
  g_assert_false (kiste_validate_default_hostname (name_63, NULL, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "hostname"));
  g_assert_nonnull (strstr (error->message, host));
  g_clear_error (&error);

  if (strlen (host) + 4 <= KISTE_VALIDATE_HOSTNAME_MAX)
    g_assert_true (kiste_validate_default_hostname ("box", NULL, &error));
  g_assert_no_error (error);
}

static void
test_image (void)
{
  const char *digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
  g_autofree char *with_digest = g_strconcat ("alpine@", digest, NULL);
  g_autofree char *tag_and_digest = g_strconcat ("docker.io/library/alpine:3.20@", digest, NULL);
  g_autofree char *short_digest = g_strdup ("alpine@sha256:0123456789abcdef");
  g_autofree char *long_name = NULL;
  g_autofree char *long_tag = NULL;
  g_autofree char *long_tag_image = NULL;

  long_name = g_strnfill (256, 'a');
  long_tag = g_strnfill (129, 't');
  long_tag_image = g_strconcat ("alpine:", long_tag, NULL);

  {
    const Case cases[] = {
      { "alpine", TRUE },
      { "ubuntu:24.04", TRUE },
      { "fedora:rawhide", TRUE },
      { "docker.io/library/ubuntu:24.04", TRUE },
      { "registry.fedoraproject.org/fedora-toolbox:latest", TRUE },
      { "quay.io/toolbx/ubuntu-toolbox:24.04", TRUE },
      { "ghcr.io/void-linux/void-linux:latest-full-x86_64", TRUE },
      { "localhost/debian-test:bookworm", TRUE },
      { "localhost:5000/my/image:v1", TRUE },
      { "registry.example.com:443/team/img", TRUE },
      { "docker.io/almalinux/8-init", TRUE },
      { "my__image", TRUE },
      { "a-b--c", TRUE },
      { "alpine:Latest_Tag", TRUE },
      { with_digest, TRUE },
      { tag_and_digest, TRUE },
      { NULL, FALSE },
      { "", FALSE },
      { "Ubuntu", FALSE },
      { "docker.io/Library/ubuntu", FALSE },
      { "myUser/image", FALSE },
      { "ubuntu latest", FALSE },
      { "ubuntu:24.04 ", FALSE },
      { "ubuntu;rm", FALSE },
      { "ubuntu&&id", FALSE },
      { "$(id)", FALSE },
      { "`id`", FALSE },
      { "alpine|sh", FALSE },
      { "ubuntu:", FALSE },
      { ":tag", FALSE },
      { "/ubuntu", FALSE },
      { "ubuntu/", FALSE },
      { "a//b", FALSE },
      { "ubuntu:-bad", FALSE },
      { "ubuntu:.bad", FALSE },
      { "ubuntu:tag:more", FALSE },
      { "-ubuntu", FALSE },
      { "a..b", FALSE },
      { "a.", FALSE },
      { "bad-.example.com/img", FALSE },
      { "registry:99999999/x", FALSE },
      { "ubüntu", FALSE },
      { short_digest, FALSE },
      { "alpine@md5:0123456789abcdef0123456789abcdef", FALSE },
      { long_name, FALSE },
      { long_tag_image, FALSE },
    };

    run_cases ("image", kiste_validate_image, cases, G_N_ELEMENTS (cases), "image");
  }
}

static void
test_home (void)
{
  const Case cases[] = {
    { "/home/u/boxes/dev", TRUE },
    { "/home/u/My Boxes/dev", TRUE },
    { "/home/u/boxes/", TRUE },
    { "/var/home/u/ünïcode", TRUE },
    { "/srv/box-1_a.b", TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "boxes/dev", FALSE },
    { "./dev", FALSE },
    { "~/boxes", FALSE },
    { "/", FALSE },
    { "//", FALSE },
    { "/home/$USER/box", FALSE },
    { "/home/u/$(id)", FALSE },
    { "/home/u/`id`", FALSE },
    { "/home/u/a\"b", FALSE },
    { "/home/u/a'b", FALSE },
    { "/home/u/a\\b", FALSE },
    { "/home/u/a\nb", FALSE },
    { "/home/u/a\tb", FALSE },
    { "/home/u/\xff", FALSE },
    /* podman's --volume splits at ":": exit 125 after the folder is made */
    { "/home/u/a:b", FALSE },
    { "/home/u/box:ro", FALSE },
  };

  run_cases ("home", kiste_validate_home, cases, G_N_ELEMENTS (cases), "home folder");
}

static gboolean
check_path_label (const char  *value,
                  GError     **error)
{
  return kiste_validate_absolute_path ("The export folder", value, error);
}

static void
test_absolute_path (void)
{
  const Case cases[] = {
    { "/home/u/.local/bin", TRUE },
    { "/", TRUE },
    { "relative", FALSE },
    { "/a$b", FALSE },
  };

  run_cases ("path", check_path_label, cases, G_N_ELEMENTS (cases), "The export folder");
}

static void
test_program (void)
{
  const Case cases[] = {
    { "htop", TRUE },
    { "nvim-qt", TRUE },
    { "g++", TRUE },
    { "/usr/local/bin/my tool", TRUE },
    { "/usr/bin/htop", TRUE },
    { "", FALSE },
    { NULL, FALSE },
    { "-rf", FALSE },
    { "..", FALSE },
    { "bin/htop", FALSE },
    { "ht op", FALSE },
    { "$(reboot)", FALSE },
    { "a;b`c`", FALSE },
    { "line\nbreak", FALSE },
    { "relative/../x", FALSE },
    { "/usr/bin/../sbin/x", FALSE },
    { "/usr/bin/$x", FALSE },
  };

  run_cases ("program", kiste_validate_program, cases, G_N_ELEMENTS (cases), "program");
}

static void
test_volume (void)
{
  const Case cases[] = {
    { "/srv:/srv", TRUE },
    { "/srv/data:/data:ro", TRUE },
    { "/a:/b:ro,z", TRUE },
    { "/a:/b:rslave", TRUE },
    { "/a:/b:Z,rshared,nosuid", TRUE },
    { "/opt/my-dir:/usr/local/my-dir:rw", TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "/srv", FALSE },
    { "/srv/data", FALSE },
    { "srv:/data", FALSE },
    { "myvolume:/data", FALSE },
    { "/srv:data", FALSE },
    { "/a b:/c", FALSE },
    { "/a:/c d", FALSE },
    { "/a:/b /c:/d", FALSE },
    { "/a:/b:bogus", FALSE },
    { "/a:/b:ro,rw", FALSE },
    { "/a:/b:", FALSE },
    { "/a:/b:ro,", FALSE },
    { "/a:/b:ro:z", FALSE },
    { "/a$x:/b", FALSE },
    { "/a:/b`id`", FALSE },
    { "/a'x:/b", FALSE },
    { "/a\n:/b", FALSE },
  };

  run_cases ("volume", kiste_validate_volume, cases, G_N_ELEMENTS (cases), "volume");
}

static void
test_volume_no_colon_message (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_validate_volume ("/srv/data", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "“/srv/data”"));
  g_assert_nonnull (strstr (error->message, "colon"));
}

/* A ":" in one path of a volume is named at that path, not read as a split */
static void
test_volume_paths (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (kiste_validate_volume_paths ("/srv/data", "/data", "/home/u", &error));
  g_assert_no_error (error);
  g_assert_true (kiste_validate_volume_paths ("~/data", "/data", "/home/u", &error));
  g_assert_no_error (error);

  g_assert_false (kiste_validate_volume_paths ("/srv/a:b", "/data", "/home/u", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "The path on this computer"));
  g_assert_nonnull (strstr (error->message, "“:”"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_volume_paths ("/srv/data", "/da:ta", "/home/u", &error));
  g_assert_nonnull (strstr (error->message, "The path in the box"));
  g_clear_error (&error);

  g_assert_false (kiste_validate_volume_paths ("data", "/data", "/home/u", &error));
  g_assert_nonnull (strstr (error->message, "absolute"));
}

/* A volume row: each path on its own before the spec they make */
static void
test_volume_entry (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (kiste_validate_volume_entry ("/srv/data", "/data", "/srv/data:/data:ro", &error));
  g_assert_no_error (error);
  /* an empty row has no spec yet */
  g_assert_true (kiste_validate_volume_entry ("", "", NULL, &error));
  g_assert_no_error (error);

  /* the spec would split at the host path's ":" */
  g_assert_false (kiste_validate_volume_entry ("/srv/a:b", "/data", "/srv/a:b:/data", &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_assert_nonnull (strstr (error->message, "The path on this computer may not contain “:”"));
  g_clear_error (&error);

  /* no path in the box: the spec says what is missing */
  g_assert_false (kiste_validate_volume_entry ("/srv/data", "", "/srv/data", &error));
  g_assert_nonnull (strstr (error->message, "needs a colon"));
}

static void
test_expand_home (void)
{
  const struct { const char *in; const char *out; } cases[] = {
    { "~", "/home/u" },
    { "~/", "/home/u" },
    { "~/Boxes/dev", "/home/u/Boxes/dev" },
    { "/srv/~/x", "/srv/~/x" },
    { "~other/x", "~other/x" },
    { "relative", "relative" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = kiste_validate_expand_home (cases[i].in, "/home/u");

      g_assert_cmpstr (out, ==, cases[i].out);
    }
  g_assert_null (kiste_validate_expand_home (NULL, "/home/u"));
}

static void
test_packages (void)
{
  const Case cases[] = {
    { NULL, TRUE },
    { "", TRUE },
    { "   ", TRUE },
    { "git", TRUE },
    { "git tmux vim", TRUE },
    { "  git  tmux ", TRUE },
    { "git\ttmux\nvim", TRUE },
    { "libfoo:i386", TRUE },
    { "python3-pip", TRUE },
    { "gcc-c++", TRUE },
    { "vim=2:9.0.1378-2", TRUE },
    { "mesa@testing", TRUE },
    /* package files: dnf, apt and zypper take their addresses and paths */
    { "https://github.com/getsops/sops/releases/download/v3.10.1/sops-3.10.1-1.x86_64.rpm", TRUE },
    { "git https://example.org/a%20b.rpm", TRUE },
    { "/run/host/tmp/tool.deb", TRUE },
    { "./tool.deb ../tool.rpm", TRUE },
    { "https://example.org/tool.rpm?download=1", FALSE },
    { "https://example.org/$(id).rpm", FALSE },
    { ".tool.deb", FALSE },
    { "-/tool.deb", FALSE },
    { "git;rm", FALSE },
    { "git && rm -rf /", FALSE },
    { "$(id)", FALSE },
    { "`id`", FALSE },
    { "git \"vim\"", FALSE },
    { "git 'vim'", FALSE },
    { "pkg>1", FALSE },
    { "pkg|sh", FALSE },
    { "pkg*", FALSE },
    { "-y", FALSE },
    { "git --allow-unauthenticated", FALSE },
    { "pkgé", FALSE },
  };

  run_cases ("packages", kiste_validate_packages, cases, G_N_ELEMENTS (cases), "package");
}

static void
test_init_hooks (void)
{
  const Case cases[] = {
    { NULL, TRUE },
    { "", TRUE },
    { "touch /var/tmp/test1 && touch /var/tmp/test2", TRUE },
    { "echo \"hello world\" > /etc/motd", TRUE },
    { "echo $HOME; ls `pwd`", TRUE },
    { "echo 'hi'", FALSE },
    { "it's", FALSE },
    { "a\nb", FALSE },
    { "a\rb", FALSE },
  };

  run_cases ("init hooks", kiste_validate_init_hooks, cases, G_N_ELEMENTS (cases), "The init hooks");
}

static void
test_init_hooks_explain (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_validate_init_hooks ("echo 'hi'", &error));
  /* say why, not only what */
  g_assert_nonnull (strstr (error->message, "single quote"));
  g_assert_nonnull (strstr (error->message, "distrobox"));
}

static void
test_pre_init_hooks (void)
{
  const Case cases[] = {
    { NULL, TRUE },
    { "dnf config-manager --enable powertools && dnf -y install epel-release", TRUE },
    { "echo 'single quotes are fine'", TRUE },
    { "echo \"x\"", FALSE },
    { "echo $HOME", FALSE },
    { "echo $(id)", FALSE },
    { "echo `id`", FALSE },
    { "a\\b", FALSE },
    { "a\nb", FALSE },
  };

  run_cases ("pre-init hooks", kiste_validate_pre_init_hooks, cases, G_N_ELEMENTS (cases),
             "The pre-init hooks");
}

static void
test_pre_init_hooks_explain (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_validate_pre_init_hooks ("echo \"x\"", &error));
  g_assert_nonnull (strstr (error->message, "double quotes"));
  g_assert_nonnull (strstr (error->message, "init hooks instead"));
}

static void
test_platform (void)
{
  const Case cases[] = {
    { "linux/arm64", TRUE },
    { "linux/amd64", TRUE },
    { "linux/arm/v7", TRUE },
    { "linux/386", TRUE },
    { "linux/ppc64le", TRUE },
    { "linux/x86_64", TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "linux", FALSE },
    { "Linux/arm64", FALSE },
    { "linux/arm64/v8/x", FALSE },
    { "linux/", FALSE },
    { "/arm64", FALSE },
    { "linux//arm64", FALSE },
    { "linux/arm 64", FALSE },
    { "linux/$(id)", FALSE },
    { "linux/arm64;id", FALSE },
  };

  run_cases ("platform", kiste_validate_platform, cases, G_N_ELEMENTS (cases), "platform");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/validate/name", test_name);
  g_test_add_func ("/validate/program", test_program);
  g_test_add_func ("/validate/name-messages", test_name_messages);
  g_test_add_func ("/validate/name-unique", test_name_unique);
  g_test_add_func ("/validate/existing-name", test_existing_name);
  g_test_add_func ("/validate/hostname", test_hostname);
  g_test_add_func ("/validate/hostname-70", test_hostname_70);
  g_test_add_func ("/validate/default-hostname", test_default_hostname);
  g_test_add_func ("/validate/image", test_image);
  g_test_add_func ("/validate/home", test_home);
  g_test_add_func ("/validate/absolute-path", test_absolute_path);
  g_test_add_func ("/validate/volume", test_volume);
  g_test_add_func ("/validate/volume-no-colon", test_volume_no_colon_message);
  g_test_add_func ("/validate/volume-paths", test_volume_paths);
  g_test_add_func ("/validate/volume-entry", test_volume_entry);
  g_test_add_func ("/validate/expand-home", test_expand_home);
  g_test_add_func ("/validate/packages", test_packages);
  g_test_add_func ("/validate/init-hooks", test_init_hooks);
  g_test_add_func ("/validate/init-hooks-explain", test_init_hooks_explain);
  g_test_add_func ("/validate/pre-init-hooks", test_pre_init_hooks);
  g_test_add_func ("/validate/pre-init-hooks-explain", test_pre_init_hooks_explain);
  g_test_add_func ("/validate/platform", test_platform);

  return g_test_run ();
}
