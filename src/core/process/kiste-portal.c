/* kiste-portal.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#include "kiste-error.h"
#include "kiste-portal.h"

/* /run/user/UID/doc/ID/NAME[/REST]: ID and REST (may be NULL) */
static gboolean
split_document_path (const char  *path,
                     char       **doc_id,
                     char       **rest)
{
  g_autofree char *prefix = g_strdup_printf ("/run/user/%u/doc/", (guint) getuid ());
  const char *tail;
  const char *slash;
  const char *name_end;

  if (path == NULL || !g_str_has_prefix (path, prefix))
    return FALSE;

  tail = path + strlen (prefix);
  if (!(slash = strchr (tail, '/')) || slash == tail || slash[1] == '\0')
    return FALSE;

  *doc_id = g_strndup (tail, slash - tail);
  name_end = strchr (slash + 1, '/');
  *rest = name_end && name_end[1] ? g_strdup (name_end + 1) : NULL;
  return TRUE;
}

typedef struct
{
  char *doc_id;
  char *rest;
} ResolveData;

static void
resolve_data_free (ResolveData *data)
{
  g_free (data->doc_id);
  g_free (data->rest);
  g_free (data);
}

static void
return_not_found (GTask *task)
{
  g_task_return_new_error (task, KISTE_ERROR, KISTE_ERROR_NOT_FOUND,
                           _("Kiste cannot tell where this folder is on your computer. "
                             "Type its path instead."));
}

static void
resolve_host_paths_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ResolveData *data = g_task_get_task_data (task);
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) paths = NULL;
  g_autoptr(GVariant) host_path = NULL;
  g_autoptr(GError) error = NULL;
  const char *host;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (reply != NULL)
    {
      paths = g_variant_get_child_value (reply, 0);
      host_path = g_variant_lookup_value (paths, data->doc_id, G_VARIANT_TYPE_BYTESTRING);
    }

  if (host_path == NULL || (host = g_variant_get_bytestring (host_path))[0] != '/')
    {
      if (error != NULL)
        g_debug ("GetHostPaths failed: %s", error->message);
      return_not_found (task);
      return;
    }

  if (data->rest != NULL)
    g_task_return_pointer (task, g_build_filename (host, data->rest, NULL), g_free);
  else
    g_task_return_pointer (task, g_strdup (host), g_free);
}

static void
resolve_bus_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ResolveData *data = g_task_get_task_data (task);
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  const char *ids[] = { data->doc_id, NULL };

  if (!(bus = g_bus_get_finish (result, &error)))
    {
      g_debug ("No session bus: %s", error->message);
      return_not_found (task);
      return;
    }

  g_dbus_connection_call (bus,
                          "org.freedesktop.portal.Documents",
                          "/org/freedesktop/portal/documents",
                          "org.freedesktop.portal.Documents",
                          "GetHostPaths",
                          g_variant_new ("(^as)", ids),
                          G_VARIANT_TYPE ("(a{say})"),
                          G_DBUS_CALL_FLAGS_NONE,
                          10 * 1000,
                          g_task_get_cancellable (task),
                          resolve_host_paths_cb,
                          g_object_ref (task));
}

void
kiste_portal_resolve_host_path_async (const char          *path,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ResolveData *data;

  g_return_if_fail (path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kiste_portal_resolve_host_path_async);

  data = g_new0 (ResolveData, 1);
  if (!split_document_path (path, &data->doc_id, &data->rest))
    {
      resolve_data_free (data);
      g_task_return_pointer (task, g_strdup (path), g_free);
      return;
    }
  g_task_set_task_data (task, data, (GDestroyNotify) resolve_data_free);

  g_bus_get (G_BUS_TYPE_SESSION, cancellable, resolve_bus_cb, g_steal_pointer (&task));
}

char *
kiste_portal_resolve_host_path_finish (GAsyncResult  *result,
                                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
