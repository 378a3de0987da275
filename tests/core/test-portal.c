/* test-portal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Host paths of folders picked through the Documents portal, against a
 * fake portal on a private session bus. */

#include "config.h"

#include <unistd.h>

#include "kiste-error.h"
#include "kiste-portal.h"

static const char portal_xml[] =
  "<node>"
  "  <interface name='org.freedesktop.portal.Documents'>"
  "    <method name='GetHostPaths'>"
  "      <arg type='as' name='doc_ids' direction='in'/>"
  "      <arg type='a{say}' name='paths' direction='out'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static guint n_portal_calls;

static void
portal_method_call (GDBusConnection       *connection,
                    const char            *sender,
                    const char            *object_path,
                    const char            *interface_name,
                    const char            *method_name,
                    GVariant              *parameters,
                    GDBusMethodInvocation *invocation,
                    gpointer               user_data)
{
  g_autofree const char **ids = NULL;
  GVariantBuilder builder;

  n_portal_calls++;
  g_assert_cmpstr (method_name, ==, "GetHostPaths");
  g_variant_get (parameters, "(^a&s)", &ids);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{say}"));
  /* like the portal: unknown ids are left out */
  for (guint i = 0; ids[i] != NULL; i++)
    if (g_str_equal (ids[i], "a1b2c3d4"))
      g_variant_builder_add (&builder, "{s@ay}", ids[i],
                             g_variant_new_bytestring ("/home/alex/Projects"));
  g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a{say})", &builder));
}

static const GDBusInterfaceVTable portal_vtable = { portal_method_call, NULL, NULL, { 0 } };

static void
resolved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static char *
resolve (const char  *path,
         GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  kiste_portal_resolve_host_path_async (path, NULL, resolved_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return kiste_portal_resolve_host_path_finish (result, error);
}

static void
test_portal_paths (void)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GDBusNodeInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doc = g_strdup_printf ("/run/user/%u/doc", (guint) getuid ());
  g_autofree char *folder = g_strdup_printf ("%s/a1b2c3d4/Projects", doc);
  g_autofree char *below = g_strdup_printf ("%s/a1b2c3d4/Projects/box homes/dev", doc);
  g_autofree char *unknown = g_strdup_printf ("%s/ffff0000/Elsewhere", doc);
  g_autofree char *bare = g_strdup_printf ("%s/a1b2c3d4", doc);
  g_autofree char *path = NULL;
  guint registration;
  guint owner;

  if (g_getenv ("DBUS_SESSION_BUS_ADDRESS") == NULL)
    {
      g_test_skip ("no dbus-daemon for a private session bus");
      return;
    }

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  info = g_dbus_node_info_new_for_xml (portal_xml, &error);
  g_assert_no_error (error);
  registration = g_dbus_connection_register_object (bus, "/org/freedesktop/portal/documents",
                                                    info->interfaces[0], &portal_vtable,
                                                    NULL, NULL, &error);
  g_assert_no_error (error);
  owner = g_bus_own_name_on_connection (bus, "org.freedesktop.portal.Documents",
                                        G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);

  /* ordinary paths stay as they are, without asking */
  path = resolve ("/home/alex/Boxes/dev", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/home/alex/Boxes/dev");
  g_clear_pointer (&path, g_free);
  /* the document folder without a name in it is no picked folder */
  path = resolve (bare, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, bare);
  g_clear_pointer (&path, g_free);
  g_assert_cmpuint (n_portal_calls, ==, 0);

  /* the exported folder itself, and a folder inside it */
  path = resolve (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/home/alex/Projects");
  g_clear_pointer (&path, g_free);
  path = resolve (below, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, "/home/alex/Projects/box homes/dev");
  g_clear_pointer (&path, g_free);
  g_assert_cmpuint (n_portal_calls, ==, 2);

  /* the portal does not know it: an error for people, no portal path */
  path = resolve (unknown, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_null (path);
  g_clear_error (&error);
  g_assert_cmpuint (n_portal_calls, ==, 3);

  g_bus_unown_name (owner);
  g_dbus_connection_unregister_object (bus, registration);

  /* no portal on the bus at all */
  path = resolve (folder, &error);
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_NOT_FOUND);
  g_assert_null (path);
}

/* Kept until the process ends, reachable: stopping it must not wait for
 * the cached connection (see the end of main) */
static GTestDBus *test_bus;

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dbus_daemon = g_find_program_in_path ("dbus-daemon");
  int ret;

  g_test_init (&argc, &argv, NULL);

  g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  if (dbus_daemon != NULL)
    {
      test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (test_bus);
    }
  g_test_add_func ("/portal/host-paths", test_portal_paths);

  ret = g_test_run ();

  if (test_bus != NULL)
    {
      g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

      if (bus != NULL)
        g_dbus_connection_set_exit_on_close (bus, FALSE);
      /* not unreffed: that would wait for the cached connection */
      g_test_dbus_stop (test_bus);
    }
  return ret;
}
