/* test-box.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <unistd.h>

#include "kiste-box.h"
#include "kiste-error.h"

#define HOST_HOME      "/home/tester"
#define EDGE_HOME      "/home/u"
#define ID_A           "2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f"
#define ID_B           "82b085f991ce25fd3880f454f3688f629a679d5cbbbb7fc2a0e63f3822ca3953"
#define ID_C           "56f1d1b28a0a3ac88418e9e50ddb2dfa8f61a300589e33ec1c2ee9b69ffbcaf7"
#define ID_DOCKER      "d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1d0c1"

static char *
fixture_path (const char *name)
{
  const char *dir = g_getenv ("KISTE_TEST_FIXTURES");

  if (dir != NULL)
    return g_build_filename (dir, name, NULL);

  return g_test_build_filename (G_TEST_DIST, "..", "fixtures", name, NULL);
}

static JsonNode *
load_json (const char *name)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = fixture_path (name);

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

/* The element of a podman JSON array whose first name (or inspect Name) is name */
static JsonObject *
find_element (JsonNode   *root,
              const char *name)
{
  JsonArray *array = json_node_get_array (root);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);

      if (json_object_has_member (object, "Names"))
        {
          JsonArray *names = json_object_get_array_member (object, "Names");

          if (g_str_equal (json_array_get_string_element (names, 0), name))
            return object;
        }
      else if (g_str_equal (json_object_get_string_member (object, "Name"), name))
        {
          return object;
        }
    }

  g_error ("No container %s in the fixture", name);
  return NULL;
}

static JsonObject *
docker_line (guint n)
{
  g_autofree char *path = fixture_path ("docker-ps.txt");
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, n);

  json_parser_load_from_data (parser, lines[n], -1, &error);
  g_assert_no_error (error);

  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static KisteBox *
box_from (JsonObject *object,
          const char *host_home)
{
  g_autoptr(GError) error = NULL;
  KisteBox *box;

  g_assert_true (kiste_box_ps_json_is_distrobox (object));
  box = kiste_box_new_from_ps_json (object, host_home, &error);
  g_assert_no_error (error);
  g_assert_nonnull (box);

  return box;
}

/* Records the names of notified properties */
static void
record_notify (GObject    *object,
               GParamSpec *pspec,
               GPtrArray  *names)
{
  g_ptr_array_add (names, g_strdup (pspec->name));
}

static GPtrArray *
watch_notify (KisteBox *box)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (box, "notify", G_CALLBACK (record_notify), names);
  return names;
}

static gboolean
notified (GPtrArray  *names,
          const char *name)
{
  for (guint i = 0; i < names->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (names, i), name))
        return TRUE;
    }

  return FALSE;
}

static gboolean
strv_has (const char * const *strv,
          const char         *s)
{
  return strv != NULL && g_strv_contains (strv, s);
}

static void
test_box_filter_podman5 (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman5.json");
  struct {
    const char *name;
    gboolean is_box;
  } expected[] = {
    { "fixture-a", TRUE },
    { "fixture-b", TRUE },
    { "fixture-c", TRUE },
    { "fixture-plain", FALSE },
    /* a container with Toolbx's label but not its entry point (one run
     * from a Toolbx image) is neither a distrobox nor a toolbox ... */
    { "fixture-toolbox", FALSE },
    /* ... unless distrobox labelled it too (Ptyxis #245) */
    { "fixture-clash", TRUE },
    /* distrobox 2 rule: any distrobox.* label, whatever the manager */
    { "fixture-apx", TRUE },
  };

  g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, G_N_ELEMENTS (expected));

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *object = find_element (root, expected[i].name);

      if (expected[i].is_box)
        g_assert_true (kiste_box_ps_json_is_distrobox (object));
      else
        g_assert_false (kiste_box_ps_json_is_distrobox (object));
      /* none of them is a toolbox (see ps-podman-edge.json for one) */
      g_assert_false (kiste_box_ps_json_is_toolbox (object));
    }
}

static void
test_box_podman5_plain (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman5.json");
  g_autoptr(KisteBox) box = box_from (find_element (root, "fixture-a"), HOST_HOME);
  const char * const *mounts;
  const char * const *user_mounts;

  g_assert_cmpstr (kiste_box_get_id (box), ==, ID_A);
  g_assert_cmpstr (kiste_box_get_name (box), ==, "fixture-a");
  g_assert_cmpstr (kiste_box_get_image (box), ==, "localhost/kiste-debian:ready");
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);
  g_assert_cmpstr (kiste_box_get_status (box), ==, "Up 3 seconds");
  g_assert_cmpint (kiste_box_get_created (box), ==, 1796280460);
  g_assert_cmpstr (kiste_box_get_label (box, "manager"), ==, "distrobox");
  g_assert_cmpstr (kiste_box_get_label (box, "distrobox.unshare_groups"), ==, "0");
  g_assert_cmpuint (g_hash_table_size (kiste_box_get_labels (box)), ==, 2);
  g_assert_cmpstr (kiste_box_get_home (box), ==, HOST_HOME);
  g_assert_cmpstr (kiste_box_get_user (box), ==, "tester");
  g_assert_false (kiste_box_has_custom_home (box));
  g_assert_false (kiste_box_get_init (box));
  g_assert_false (kiste_box_get_nvidia (box));
  g_assert_cmpuint (kiste_box_get_distrobox_version (box), ==, 1);
  g_assert_false (kiste_box_get_has_details (box));
  g_assert_null (kiste_box_get_log_driver (box));
  g_assert_null (kiste_box_get_environ (box));
  g_assert_null (kiste_box_getenv (box, "HOME"));

  mounts = kiste_box_get_mounts (box);
  g_assert_nonnull (mounts);
  g_assert_true (strv_has (mounts, "/dev"));
  g_assert_true (strv_has (mounts, "/usr/bin/distrobox-export"));
  g_assert_true (strv_has (mounts, "/run/host/etc"));
  g_assert_cmpuint (g_strv_length ((char **) mounts), ==, 31);

  /* the workdir rule ignores /run/host and below */
  user_mounts = kiste_box_get_user_mounts (box);
  g_assert_true (strv_has (user_mounts, HOST_HOME));
  g_assert_true (strv_has (user_mounts, "/tmp"));
  g_assert_false (strv_has (user_mounts, "/run/host/etc"));
  for (guint i = 0; user_mounts[i] != NULL; i++)
    g_assert_false (g_str_has_prefix (user_mounts[i], "/run/host/"));
  g_assert_cmpuint (g_strv_length ((char **) user_mounts), ==, 15);

  g_assert_cmpint (kiste_box_get_host_home_sharing (box), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_SHARED);
  /* only inspect knows the namespaces */
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_IPC), ==, KISTE_SHARING_UNKNOWN);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNKNOWN);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNKNOWN);

  /* the 1.8.2.5 marker mount */
  g_assert_true (kiste_box_get_rootless (box));
}

static void
test_box_podman5_init_custom_home (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman5.json");
  g_autoptr(KisteBox) box = box_from (find_element (root, "fixture-b"), HOST_HOME);

  g_assert_cmpstr (kiste_box_get_id (box), ==, ID_B);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_CREATED);
  g_assert_cmpstr (kiste_box_get_status (box), ==, "Created");
  g_assert_cmpstr (kiste_box_get_home (box), ==, HOST_HOME "/h2");
  g_assert_true (kiste_box_has_custom_home (box));
  g_assert_true (kiste_box_get_init (box));
  g_assert_false (kiste_box_get_nvidia (box));

  /* --home does not isolate: the host home is still mounted */
  g_assert_cmpint (kiste_box_get_host_home_sharing (box), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_SHARED);
  /* --init implies --unshare-groups and --unshare-process */
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNKNOWN);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_IPC), ==, KISTE_SHARING_UNKNOWN);
}

static void
test_box_podman5_unshared (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman5.json");
  g_autoptr(KisteBox) box = box_from (find_element (root, "fixture-c"), HOST_HOME);

  g_assert_cmpstr (kiste_box_get_id (box), ==, ID_C);
  g_assert_false (kiste_box_get_init (box));
  g_assert_false (kiste_box_has_custom_home (box));
  g_assert_false (strv_has (kiste_box_get_mounts (box), "/dev"));
  g_assert_true (strv_has (kiste_box_get_mounts (box), "/dev/pts"));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNKNOWN);
}

static void
test_box_podman5_labels (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman5.json");
  g_autoptr(KisteBox) apx = box_from (find_element (root, "fixture-apx"), HOST_HOME);
  g_autoptr(KisteBox) clash = box_from (find_element (root, "fixture-clash"), HOST_HOME);

  g_assert_cmpuint (kiste_box_get_distrobox_version (apx), ==, 2);
  g_assert_cmpstr (kiste_box_get_label (apx, "manager"), ==, "apx");
  /* not made by distrobox-create: no init command, no groups label */
  g_assert_null (kiste_box_get_home (apx));
  g_assert_false (kiste_box_has_custom_home (apx));
  g_assert_cmpint (kiste_box_get_unshare (apx, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNKNOWN);

  g_assert_cmpuint (kiste_box_get_distrobox_version (clash), ==, 1);
  g_assert_cmpstr (kiste_box_get_label (clash, "com.github.containers.toolbox"), ==, "true");
  /* distrobox's labels win over Toolbx's */
  g_assert_cmpint (kiste_box_get_tool (clash), ==, KISTE_BOX_TOOL_DISTROBOX);
  g_assert_cmpint (kiste_box_get_tool (apx), ==, KISTE_BOX_TOOL_DISTROBOX);
}

static void
test_box_edge (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman-edge.json");
  g_autoptr(KisteBox) oldbox = NULL;
  g_autoptr(KisteBox) newpodman = NULL;
  g_autoptr(KisteBox) oldpodman = NULL;
  g_autoptr(KisteBox) isolated = NULL;
  const char * const *mounts;

  /* infra containers are skipped even with distrobox labels */
  g_assert_false (kiste_box_ps_json_is_distrobox (find_element (root, "a1b2c3d4e5f6-infra")));
  g_assert_false (kiste_box_ps_json_is_distrobox (find_element (root, "fedora-toolbox-41")));

  /* before the manager label: the distrobox-export mount tells */
  oldbox = box_from (find_element (root, "oldbox"), EDGE_HOME);
  g_assert_cmpuint (g_hash_table_size (kiste_box_get_labels (oldbox)), ==, 0);
  g_assert_cmpint (kiste_box_get_state (oldbox), ==, KISTE_BOX_STATE_STOPPED);
  g_assert_cmpstr (kiste_box_get_home (oldbox), ==, EDGE_HOME);
  g_assert_cmpint (kiste_box_get_unshare (oldbox, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNKNOWN);
  g_assert_false (strv_has (kiste_box_get_user_mounts (oldbox), "/run/host"));
  g_assert_true (strv_has (kiste_box_get_user_mounts (oldbox), "/dev"));
  /* no marker: rootless because podman ran as an ordinary user */
  g_assert_true (kiste_box_get_rootless (oldbox) == (geteuid () != 0));

  /* InspectMount objects, /var/home, pre-init hooks that look like flags */
  newpodman = box_from (find_element (root, "newpodman"), EDGE_HOME);
  mounts = kiste_box_get_mounts (newpodman);
  g_assert_cmpuint (g_strv_length ((char **) mounts), ==, 5);
  /* sorted: ps and inspect list them in different orders */
  g_assert_cmpstr (mounts[0], ==, "/dev");
  g_assert_cmpstr (mounts[1], ==, "/run/.distrobox.rootless");
  g_assert_cmpstr (mounts[3], ==, "/var/home/u");
  g_assert_cmpint (kiste_box_get_state (newpodman), ==, KISTE_BOX_STATE_PAUSED);
  g_assert_cmpint (kiste_box_get_host_home_sharing (newpodman), ==, KISTE_SHARING_SHARED);
  g_assert_cmpstr (kiste_box_get_home (newpodman), ==, "/var/home/u");
  g_assert_false (kiste_box_has_custom_home (newpodman));
  g_assert_false (kiste_box_get_init (newpodman));
  g_assert_true (kiste_box_get_nvidia (newpodman));
  g_assert_true (kiste_box_get_rootless (newpodman));
  g_assert_cmpuint (kiste_box_get_distrobox_version (newpodman), ==, 2);
  g_assert_cmpint (kiste_box_get_unshare (newpodman, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_SHARED);
  /* non-string label values are dropped */
  g_assert_null (kiste_box_get_label (newpodman, "weird"));
  g_assert_cmpuint (g_hash_table_size (kiste_box_get_labels (newpodman)), ==, 3);

  /* no State (old podman): from the Status text; Mounts null = none */
  oldpodman = box_from (find_element (root, "oldpodman"), EDGE_HOME);
  g_assert_cmpint (kiste_box_get_state (oldpodman), ==, KISTE_BOX_STATE_STOPPED);
  g_assert_nonnull (kiste_box_get_mounts (oldpodman));
  g_assert_cmpuint (g_strv_length ((char **) kiste_box_get_mounts (oldpodman)), ==, 0);
  g_assert_cmpint (kiste_box_get_unshare (oldpodman, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_host_home_sharing (oldpodman), ==, KISTE_SHARING_UNSHARED);
  g_assert_null (kiste_box_get_home (oldpodman));

  /* the unshare_home label of patched builds */
  isolated = box_from (find_element (root, "isolated"), EDGE_HOME);
  g_assert_cmpint (kiste_box_get_state (isolated), ==, KISTE_BOX_STATE_STOPPING);
  g_assert_cmpint (kiste_box_get_unshare (isolated, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_host_home_sharing (isolated), ==, KISTE_SHARING_UNSHARED);
  g_assert_true (kiste_box_has_custom_home (isolated));
  g_assert_true (kiste_box_get_init (isolated));
  g_assert_cmpint (kiste_box_get_unshare (isolated, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpuint (g_strv_length ((char **) kiste_box_get_user_mounts (isolated)), ==, 2);
}

static void
test_box_var_home (void)
{
  g_autoptr(JsonNode) root = load_json ("ps-podman-edge.json");
  g_autoptr(KisteBox) on_var = box_from (find_element (root, "newpodman"), "/var/home/u");
  g_autoptr(KisteBox) other_user = box_from (find_element (root, "newpodman"), "/home/someone");

  /* /home/u and /var/home/u are one directory on image-based systems */
  g_assert_cmpint (kiste_box_get_host_home_sharing (on_var), ==, KISTE_SHARING_SHARED);
  g_assert_false (kiste_box_has_custom_home (on_var));

  g_assert_cmpint (kiste_box_get_host_home_sharing (other_user), ==, KISTE_SHARING_UNSHARED);
  g_assert_true (kiste_box_has_custom_home (other_user));
}

static void
test_box_docker_lines (void)
{
  g_autoptr(JsonObject) line0 = docker_line (0);
  g_autoptr(JsonObject) line1 = docker_line (1);
  g_autoptr(JsonObject) line2 = docker_line (2);
  g_autoptr(JsonObject) line3 = docker_line (3);
  g_autoptr(KisteBox) box = box_from (line0, EDGE_HOME);
  g_autoptr(KisteBox) legacy = NULL;
  g_autoptr(KisteBox) quoted = NULL;
  g_autoptr(KisteBox) apx = NULL;

  g_assert_cmpstr (kiste_box_get_id (box), ==, ID_DOCKER);
  g_assert_cmpstr (kiste_box_get_name (box), ==, "dbx-debian");
  g_assert_cmpstr (kiste_box_get_image (box), ==, "docker.io/library/debian:12");
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_RUNNING);
  g_assert_cmpstr (kiste_box_get_status (box), ==, "Up 2 hours");
  /* 2024-01-01 10:00:00 +0100 */
  g_assert_cmpint (kiste_box_get_created (box), ==, 1704099600);

  /* labels from "k=v,k=v", a value with a comma kept whole */
  g_assert_cmpuint (g_hash_table_size (kiste_box_get_labels (box)), ==, 3);
  g_assert_cmpstr (kiste_box_get_label (box, "manager"), ==, "distrobox");
  g_assert_cmpstr (kiste_box_get_label (box, "distrobox.unshare_groups"), ==, "1");
  g_assert_cmpstr (kiste_box_get_label (box, "org.opencontainers.image.description"), ==,
                   "Debian, the universal OS");

  /* the quoted command string, with a space in the home */
  g_assert_cmpstr (kiste_box_get_home (box), ==, "/home/u/My Box");
  g_assert_cmpstr (kiste_box_get_user (box), ==, "u");
  g_assert_true (kiste_box_has_custom_home (box));
  g_assert_true (kiste_box_get_init (box));
  g_assert_false (kiste_box_get_nvidia (box));

  /* docker's ps lists sources, not destinations */
  g_assert_null (kiste_box_get_mounts (box));
  g_assert_null (kiste_box_get_user_mounts (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_UNKNOWN);
  g_assert_cmpint (kiste_box_get_host_home_sharing (box), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNSHARED);
  g_assert_false (kiste_box_get_rootless (box));

  g_assert_false (kiste_box_ps_json_is_distrobox (line1));

  /* no labels at all, but the distrobox-export bind source */
  legacy = box_from (line2, EDGE_HOME);
  g_assert_cmpstr (kiste_box_get_name (legacy), ==, "legacy");
  g_assert_cmpint (kiste_box_get_state (legacy), ==, KISTE_BOX_STATE_CREATED);
  g_assert_cmpstr (kiste_box_get_home (legacy), ==, EDGE_HOME);
  g_assert_false (kiste_box_has_custom_home (legacy));
  /* 2021-06-01 12:00:00 -0400 */
  g_assert_cmpint (kiste_box_get_created (legacy), ==, 1622563200);

  /* docker 26 and later quote an argument with a space */
  json_object_set_string_member (line0, "Command",
                                 "\"/usr/bin/entrypoint --verbose --name u --user 1000 --group 1000 "
                                 "--home '/home/u/My Box' --init 1 --nvidia 0 --pre-init-hooks  "
                                 "--additional-packages  -- \"");
  quoted = box_from (line0, EDGE_HOME);
  g_assert_cmpstr (kiste_box_get_home (quoted), ==, "/home/u/My Box");
  g_assert_true (kiste_box_has_custom_home (quoted));
  g_assert_true (kiste_box_get_init (quoted));

  apx = box_from (line3, EDGE_HOME);
  g_assert_cmpuint (kiste_box_get_distrobox_version (apx), ==, 2);
  g_assert_cmpstr (kiste_box_get_home (apx), ==, "/home/u/apx");
  g_assert_cmpint (kiste_box_get_state (apx), ==, KISTE_BOX_STATE_STOPPED);
}

static void
test_box_bad_elements (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  KisteBox *box;
  JsonArray *array;

  json_parser_load_from_data (parser,
                              "[{\"Names\": [\"noid\"], \"Labels\": {\"manager\": \"distrobox\"}},"
                              " {\"Id\": \"\", \"Names\": [\"emptyid\"]},"
                              " {\"Id\": 42, \"Names\": [\"numericid\"]},"
                              " {\"Id\": \"abc\", \"Names\": []},"
                              " {\"Id\": \"abc\", \"Labels\": \"manager=distrobox\"},"
                              /* names podman and docker refuse: an option, shell */
                              " {\"Id\": \"abc\", \"Names\": [\"-ixoppca\"]},"
                              " {\"Id\": \"abc\", \"Names\": \"--help\"},"
                              " {\"Id\": \"abc\", \"Names\": [\"$(touch x)\"]},"
                              " {\"Id\": \"abc\", \"Names\": [\"a;b\"]},"
                              " {\"Id\": \"abc\", \"Names\": [\"my box\"]},"
                              " {\"Id\": \"abc\", \"Name\": \"`id`\"}]",
                              -1, &error);
  g_assert_no_error (error);
  array = json_node_get_array (json_parser_get_root (parser));

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      box = kiste_box_new_from_ps_json (json_array_get_object_element (array, i), HOST_HOME, &error);
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
      g_assert_null (box);
      g_clear_error (&error);
    }
}

static void
test_box_inspect_podman5 (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
  g_autoptr(JsonNode) inspect = load_json ("inspect-podman5.json");
  struct {
    const char   *name;
    KisteSharing  ipc;
    KisteSharing  netns;
    KisteSharing  process;
    KisteSharing  devsys;
    const char   *home;
  } expected[] = {
    { "fixture-a", KISTE_SHARING_SHARED, KISTE_SHARING_SHARED, KISTE_SHARING_SHARED,
      KISTE_SHARING_SHARED, HOST_HOME },
    /* --init --unshare-netns: "pasta" network, private pid */
    { "fixture-b", KISTE_SHARING_SHARED, KISTE_SHARING_UNSHARED, KISTE_SHARING_UNSHARED,
      KISTE_SHARING_SHARED, HOST_HOME "/h2" },
    /* --unshare-ipc gives "shareable" */
    { "fixture-c", KISTE_SHARING_UNSHARED, KISTE_SHARING_SHARED, KISTE_SHARING_UNSHARED,
      KISTE_SHARING_UNSHARED, HOST_HOME },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autoptr(KisteBox) box = box_from (find_element (ps, expected[i].name), HOST_HOME);
      g_autoptr(GPtrArray) names = watch_notify (box);
      g_autoptr(GError) error = NULL;
      gboolean ok;

      ok = kiste_box_apply_inspect_json (box, find_element (inspect, expected[i].name), &error);
      g_assert_no_error (error);
      g_assert_true (ok);

      g_assert_true (kiste_box_get_has_details (box));
      g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_IPC), ==, expected[i].ipc);
      g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, expected[i].netns);
      g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, expected[i].process);
      g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, expected[i].devsys);
      g_assert_cmpstr (kiste_box_get_log_driver (box), ==, "k8s-file");
      g_assert_cmpstr (kiste_box_getenv (box, "HOME"), ==, expected[i].home);
      g_assert_cmpstr (kiste_box_getenv (box, "CONTAINER_ID"), ==, expected[i].name);
      g_assert_cmpstr (kiste_box_get_create_command (box)[0], ==, "podman");
      g_assert_cmpstr (kiste_box_get_create_command (box)[1], ==, "create");
      g_assert_cmpstr (kiste_box_get_home (box), ==, expected[i].home);
      g_assert_true (kiste_box_get_rootless (box));

      /* what inspect added is notified, what it confirmed is not */
      g_assert_true (notified (names, "has-details"));
      g_assert_true (notified (names, "log-driver"));
      g_assert_true (notified (names, "environ"));
      g_assert_true (notified (names, "unshare-ipc"));
      g_assert_false (notified (names, "name"));
      g_assert_false (notified (names, "home"));
      g_assert_false (notified (names, "labels"));
      g_assert_false (notified (names, "unshare-devsys"));
    }
}

static void
test_box_inspect_survives_refresh (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
  g_autoptr(JsonNode) inspect = load_json ("inspect-podman5.json");
  g_autoptr(KisteBox) box = box_from (find_element (ps, "fixture-b"), HOST_HOME);
  g_autoptr(KisteBox) fresh = box_from (find_element (ps, "fixture-b"), HOST_HOME);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GError) error = NULL;

  kiste_box_apply_inspect_json (box, find_element (inspect, "fixture-b"), &error);
  g_assert_no_error (error);

  /* a refresh from ps alone keeps the details: namespaces never change */
  names = watch_notify (box);
  g_assert_false (kiste_box_update_from (box, fresh));
  g_assert_cmpuint (names->len, ==, 0);
  g_assert_true (kiste_box_get_has_details (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpstr (kiste_box_get_log_driver (box), ==, "k8s-file");
}

static void
test_box_inspect_docker (void)
{
  g_autoptr(JsonObject) line0 = docker_line (0);
  g_autoptr(JsonNode) inspect = load_json ("inspect-docker.json");
  g_autoptr(KisteBox) box = box_from (line0, EDGE_HOME);
  g_autoptr(GError) error = NULL;
  JsonObject *object = json_array_get_object_element (json_node_get_array (inspect), 0);

  g_assert_true (kiste_box_apply_inspect_json (box, object, &error));
  g_assert_no_error (error);

  g_assert_cmpstr (kiste_box_get_name (box), ==, "dbx-debian");
  g_assert_cmpstr (kiste_box_get_image (box), ==, "docker.io/library/debian:12");
  g_assert_cmpint (kiste_box_get_created (box), ==, 1704099600);
  /* now the destinations are known */
  g_assert_nonnull (kiste_box_get_mounts (box));
  g_assert_cmpuint (g_strv_length ((char **) kiste_box_get_mounts (box)), ==, 6);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_DEVSYS), ==, KISTE_SHARING_SHARED);
  g_assert_true (strv_has (kiste_box_get_user_mounts (box), "/home/u/My Box"));
  g_assert_false (strv_has (kiste_box_get_user_mounts (box), "/run/host"));
  g_assert_true (kiste_box_get_rootless (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_IPC), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_SHARED);
  /* docker's PidMode "" is a private namespace */
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_PROCESS), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpstr (kiste_box_get_log_driver (box), ==, "json-file");
  g_assert_cmpstr (kiste_box_getenv (box, "DISTROBOX_HOST_HOME"), ==, EDGE_HOME);
  g_assert_null (kiste_box_get_create_command (box));
}

static void
test_box_inspect_mismatch (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
  g_autoptr(JsonNode) inspect = load_json ("inspect-podman5.json");
  g_autoptr(KisteBox) box = box_from (find_element (ps, "fixture-a"), HOST_HOME);
  g_autoptr(GPtrArray) names = watch_notify (box);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (kiste_box_apply_inspect_json (box, find_element (inspect, "fixture-b"), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);
  g_clear_error (&error);

  json_parser_load_from_data (parser, "{\"Id\": \"" ID_A "\"}", -1, &error);
  g_assert_no_error (error);
  g_assert_false (kiste_box_apply_inspect_json (box, json_node_get_object (json_parser_get_root (parser)), &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT);

  g_assert_cmpuint (names->len, ==, 0);
  g_assert_false (kiste_box_get_has_details (box));
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_NETNS), ==, KISTE_SHARING_UNKNOWN);
}

/* A deep copy of object with member replaced, so the fixture stays intact */
static JsonObject *
modified_copy (JsonObject *object,
               const char *member,
               JsonNode   *value)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);
  g_autoptr(JsonNode) parsed = json_from_string (text, NULL);
  JsonObject *copy = json_object_ref (json_node_get_object (parsed));

  json_object_set_member (copy, member, value);
  return copy;
}

/* Try an Image's boxes are known by their label, with the value 1 only */
static void
test_box_temporary (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
  JsonObject *a = find_element (ps, "fixture-a");
  g_autoptr(KisteBox) plain = box_from (a, HOST_HOME);
  const char *values[] = { "1", "0", "yes" };

  g_assert_false (kiste_box_get_temporary (plain));

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"manager\": \"distrobox\", \"%s\": \"%s\"}",
                                               KISTE_BOX_TEMPORARY_LABEL, values[i]);
      g_autoptr(JsonNode) labels = json_from_string (json, NULL);
      g_autoptr(JsonObject) labelled = modified_copy (a, "Labels", g_steal_pointer (&labels));
      g_autoptr(KisteBox) box = box_from (labelled, HOST_HOME);

      g_assert_cmpint (kiste_box_get_temporary (box), ==, i == 0);
    }
}

static void
test_box_update_from (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
  JsonObject *a = find_element (ps, "fixture-a");
  g_autoptr(KisteBox) box = box_from (a, HOST_HOME);
  g_autoptr(KisteBox) same = box_from (a, HOST_HOME);
  g_autoptr(GPtrArray) names = watch_notify (box);
  g_autoptr(JsonObject) stopped = NULL;
  g_autoptr(JsonObject) stopped2 = NULL;
  g_autoptr(JsonObject) relabelled = NULL;
  g_autoptr(KisteBox) other = NULL;
  g_autoptr(JsonNode) labels = NULL;
  KisteBoxState state;
  KisteSharing sharing;
  g_autofree char *name = NULL;

  /* nothing changed: no notification at all */
  g_assert_false (kiste_box_update_from (box, same));
  g_assert_cmpuint (names->len, ==, 0);

  /* the status text alone */
  stopped = modified_copy (a, "Status", json_node_init_string (json_node_alloc (), "Up 4 seconds"));
  other = box_from (stopped, HOST_HOME);
  g_assert_true (kiste_box_update_from (box, other));
  g_assert_cmpuint (names->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "status");
  g_assert_cmpstr (kiste_box_get_status (box), ==, "Up 4 seconds");
  g_clear_object (&other);
  g_ptr_array_set_size (names, 0);

  /* a state change notifies state (and status) */
  stopped2 = modified_copy (stopped, "State", json_node_init_string (json_node_alloc (), "exited"));
  json_object_set_string_member (stopped2, "Status", "Exited (0) 1 second ago");
  other = box_from (stopped2, HOST_HOME);
  g_assert_true (kiste_box_update_from (box, other));
  g_assert_true (notified (names, "state"));
  g_assert_true (notified (names, "status"));
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpint (kiste_box_get_state (box), ==, KISTE_BOX_STATE_STOPPED);
  g_clear_object (&other);
  g_ptr_array_set_size (names, 0);

  /* a label that changes a derived setting notifies both */
  labels = json_from_string ("{\"manager\": \"distrobox\", \"distrobox.unshare_groups\": \"1\"}", NULL);
  relabelled = modified_copy (stopped2, "Labels", g_steal_pointer (&labels));
  other = box_from (relabelled, HOST_HOME);
  g_assert_true (kiste_box_update_from (box, other));
  g_assert_true (notified (names, "labels"));
  g_assert_true (notified (names, "unshare-groups"));
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_GROUPS), ==, KISTE_SHARING_UNSHARED);

  /* enum properties have real types */
  g_object_get (box, "state", &state, "unshare-groups", &sharing, "name", &name, NULL);
  g_assert_cmpint (state, ==, KISTE_BOX_STATE_STOPPED);
  g_assert_cmpint (sharing, ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpstr (name, ==, "fixture-a");
}

static void
test_box_state_strings (void)
{
  g_autofree char *sharing = g_enum_to_string (KISTE_TYPE_SHARING, KISTE_SHARING_UNSHARED);

  g_assert_cmpstr (kiste_box_state_to_string (KISTE_BOX_STATE_RUNNING), ==, "running");
  g_assert_cmpstr (kiste_box_state_to_string (KISTE_BOX_STATE_STOPPED), ==, "stopped");
  g_assert_cmpstr (kiste_box_state_to_string (KISTE_BOX_STATE_CREATED), ==, "created");
  g_assert_cmpstr (kiste_box_state_to_string (KISTE_BOX_STATE_UNKNOWN), ==, "unknown");
  g_assert_cmpstr (kiste_box_state_to_label (KISTE_BOX_STATE_RUNNING), ==, "Running");
  g_assert_cmpstr (sharing, ==, "KISTE_SHARING_UNSHARED");
}

/* Whether a box can see the home: the truth from its mounts, not its label */
static void
test_box_home_isolation (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5-home-isolation.json");
  g_autoptr(JsonNode) inspect = load_json ("inspect-podman5-home-isolation.json");
  const char *host_home = "/home/kistetest";
  g_autoptr(KisteBox) isolated = box_from (find_element (ps, "isolated"), host_home);
  g_autoptr(KisteBox) patched = box_from (find_element (ps, "patched-shape"), host_home);
  g_autoptr(JsonObject) stock = NULL;
  g_autoptr(KisteBox) labelled = NULL;
  g_autoptr(GError) error = NULL;

  /* Kiste's isolated box: no home mount, /run/host/home an empty tmpfs */
  g_assert_cmpint (kiste_box_get_host_home_sharing (isolated), ==, KISTE_SHARING_UNSHARED);
  g_assert_cmpint (kiste_box_get_unshare (isolated, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_UNSHARED);
  g_assert_true (kiste_box_apply_inspect_json (isolated, find_element (inspect, "isolated"), &error));
  g_assert_no_error (error);
  g_assert_cmpint (kiste_box_get_unshare (isolated, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_UNSHARED);

  /* the patch's shape: labelled, no home at its path, but /home still at
   * /run/host/home, which only inspect's create command tells apart */
  g_assert_cmpint (kiste_box_get_unshare (patched, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_UNSHARED);
  g_assert_true (kiste_box_apply_inspect_json (patched, find_element (inspect, "patched-shape"), &error));
  g_assert_no_error (error);
  g_assert_cmpint (kiste_box_get_unshare (patched, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_SHARED);

  /* a label on a box that mounts the home at its path changes nothing */
  stock = json_object_ref (find_element (ps, "isolated"));
  json_array_add_string_element (json_object_get_array_member (stock, "Mounts"), host_home);
  labelled = box_from (stock, host_home);
  g_assert_cmpstr (kiste_box_get_label (labelled, "distrobox.unshare_home"), ==, "1");
  g_assert_cmpint (kiste_box_get_host_home_sharing (labelled), ==, KISTE_SHARING_SHARED);
  g_assert_cmpint (kiste_box_get_unshare (labelled, KISTE_UNSHARE_HOME), ==, KISTE_SHARING_SHARED);

  /* the isolated box lists no folder of the home */
  {
    g_auto(GStrv) none = kiste_box_dup_home_volumes (isolated);

    g_assert_nonnull (none);
    g_assert_cmpuint (g_strv_length (none), ==, 0);
  }
}

/* An image whose PATH or HOME holds shell syntax, or a box whose
 * unshare_groups label is more than a digit: distrobox enter would run it
 * on the host. Every entry counts (an image may set PATH twice), and a box
 * whose details are not read is refused too. */
static void
test_box_enter_safe (void)
{
  struct {
    const char *entries[3];
    const char *label;
    gboolean    safe;
  } cases[] = {
    { { "PATH=/usr/local/bin:/usr/bin:/bin" }, NULL, TRUE },
    { { "PATH=/usr/bin:/opt/odd dir:/bin" }, "1", TRUE },
    { { "PATH=/usr/bin" }, "", TRUE },
    { { "PATH=/usr/bin" }, "0", TRUE },
    { { "PATH=/usr/bin:$(touch /tmp/pwned)" }, NULL, FALSE },
    { { "PATH=/usr/bin:`id`" }, NULL, FALSE },
    { { "PATH=$HOME/bin:/usr/bin" }, NULL, FALSE },
    { { "HOME=/home/$(id)" }, NULL, FALSE },
    { { "PATH=/usr/bin", "PATH=/bin:$(id)" }, NULL, FALSE },
    { { "HOME=/home/u", "HOME=`id`" }, NULL, FALSE },
    /* other variables are not evaluated */
    { { "PATH=/usr/bin", "OTHER=$(id)" }, NULL, TRUE },
    { { "PATH=/usr/bin" }, "1; id >/tmp/pwned", FALSE },
    { { "PATH=/usr/bin" }, "$(id)", FALSE },
    { { "PATH=/usr/bin" }, "2", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) ps = load_json ("ps-podman5.json");
      g_autoptr(JsonNode) inspect = load_json ("inspect-podman5.json");
      g_autoptr(KisteBox) box = box_from (find_element (ps, "fixture-a"), HOST_HOME);
      JsonObject *element = find_element (inspect, "fixture-a");
      JsonObject *config = json_object_get_object_member (element, "Config");
      JsonArray *env = json_object_get_array_member (config, "Env");
      JsonObject *labels = json_object_get_object_member (config, "Labels");
      g_autoptr(GError) error = NULL;
      gboolean safe;

      /* not known before inspect: refused */
      g_assert_false (kiste_box_check_enter_safe (box, &error));
      g_assert_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
      g_clear_error (&error);

      for (guint j = json_array_get_length (env); j > 0; j--)
        {
          const char *e = json_array_get_string_element (env, j - 1);

          if (g_str_has_prefix (e, "PATH=") || g_str_has_prefix (e, "HOME="))
            json_array_remove_element (env, j - 1);
        }
      for (guint j = 0; j < G_N_ELEMENTS (cases[i].entries) && cases[i].entries[j]; j++)
        json_array_add_string_element (env, cases[i].entries[j]);
      if (json_object_has_member (labels, "distrobox.unshare_groups"))
        json_object_remove_member (labels, "distrobox.unshare_groups");
      if (cases[i].label != NULL)
        json_object_set_string_member (labels, "distrobox.unshare_groups", cases[i].label);
      g_assert_true (kiste_box_apply_inspect_json (box, element, &error));
      g_assert_no_error (error);

      safe = kiste_box_check_enter_safe (box, &error);
      g_assert_cmpint (safe, ==, cases[i].safe);
      if (!safe)
        {
          g_assert_error (error, KISTE_ERROR, KISTE_ERROR_UNSAFE);
          g_assert_true (strstr (error->message, "PATH") || strstr (error->message, "HOME") ||
                         strstr (error->message, "distrobox.unshare_groups"));
        }
    }
}

/* A box without the home that the user gave folders of it, or all of it
 * under another path */
static void
test_box_home_volumes (void)
{
  g_autoptr(JsonNode) ps = load_json ("ps-podman5-home-isolation.json");
  const char *host_home = "/home/kistetest";
  const char *extra[][2] = {
    { "--volume", "/home/kistetest/Projects:/mnt/projects:rw" },
    { "-v", "/home/kistetest/.ssh:/keys" },
    { "--volume", "/home/kistetester:/mnt/other" },   /* not below the home */
  };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) folders = NULL;

  for (guint whole = 0; whole < 2; whole++)
    {
      g_autoptr(JsonNode) inspect = load_json ("inspect-podman5-home-isolation.json");
      JsonObject *element = find_element (inspect, "isolated");
      JsonArray *command = json_object_get_array_member (json_object_get_object_member (element, "Config"),
                                                         "CreateCommand");
      g_autoptr(KisteBox) box = box_from (find_element (ps, "isolated"), host_home);

      for (guint i = 0; i < G_N_ELEMENTS (extra); i++)
        {
          json_array_add_string_element (command, extra[i][0]);
          json_array_add_string_element (command, extra[i][1]);
        }
      if (whole)
        {
          json_array_add_string_element (command, "--volume");
          json_array_add_string_element (command, "/home:/mnt/homes");
        }
      g_assert_true (kiste_box_apply_inspect_json (box, element, &error));
      g_assert_no_error (error);

      folders = kiste_box_dup_home_volumes (box);
      g_assert_cmpuint (g_strv_length (folders), ==, 2);
      g_assert_cmpstr (folders[0], ==, "/home/kistetest/Projects");
      g_assert_cmpstr (folders[1], ==, "/home/kistetest/.ssh");
      g_clear_pointer (&folders, g_strfreev);

      /* parts of it leave the home out; all of it elsewhere does not */
      g_assert_cmpint (kiste_box_get_unshare (box, KISTE_UNSHARE_HOME), ==,
                       whole ? KISTE_SHARING_SHARED : KISTE_SHARING_UNSHARED);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/kiste/box/filter/podman5", test_box_filter_podman5);
  g_test_add_func ("/kiste/box/home-volumes", test_box_home_volumes);
  g_test_add_func ("/kiste/box/enter-safe", test_box_enter_safe);
  g_test_add_func ("/kiste/box/ps/podman5-plain", test_box_podman5_plain);
  g_test_add_func ("/kiste/box/ps/podman5-init-custom-home", test_box_podman5_init_custom_home);
  g_test_add_func ("/kiste/box/ps/podman5-unshared", test_box_podman5_unshared);
  g_test_add_func ("/kiste/box/temporary", test_box_temporary);
  g_test_add_func ("/kiste/box/ps/podman5-labels", test_box_podman5_labels);
  g_test_add_func ("/kiste/box/ps/edge", test_box_edge);
  g_test_add_func ("/kiste/box/ps/var-home", test_box_var_home);
  g_test_add_func ("/kiste/box/ps/docker-lines", test_box_docker_lines);
  g_test_add_func ("/kiste/box/ps/bad-elements", test_box_bad_elements);
  g_test_add_func ("/kiste/box/inspect/podman5", test_box_inspect_podman5);
  g_test_add_func ("/kiste/box/inspect/survives-refresh", test_box_inspect_survives_refresh);
  g_test_add_func ("/kiste/box/inspect/docker", test_box_inspect_docker);
  g_test_add_func ("/kiste/box/inspect/mismatch", test_box_inspect_mismatch);
  g_test_add_func ("/kiste/box/update-from", test_box_update_from);
  g_test_add_func ("/kiste/box/home-isolation", test_box_home_isolation);
  g_test_add_func ("/kiste/box/state-strings", test_box_state_strings);

  return g_test_run ();
}
