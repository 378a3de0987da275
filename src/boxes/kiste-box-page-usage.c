/* kiste-box-page-usage.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The box page's usage rows: processor and memory from `podman stats`,
 * asked every few seconds only while the page is visible and the box runs */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-box-page-private.h"
#include "kiste-manager-queries.h"

#define STATS_INTERVAL_SECONDS 5

typedef struct
{
  KisteBoxPage *self;
  GCancellable *cancellable;
} StatsRequest;

static void
stats_request_free (StatsRequest *request)
{
  g_clear_object (&request->self);
  g_clear_object (&request->cancellable);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StatsRequest, stats_request_free)

static void kiste_box_page_fetch_stats (KisteBoxPage *self);

static gboolean
stats_timeout_cb (gpointer user_data)
{
  KisteBoxPage *self = user_data;

  self->stats_source = 0;
  _kiste_box_page_update_stats_polling (self);
  return G_SOURCE_REMOVE;
}

static void
stats_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(StatsRequest) request = user_data;
  KisteBoxPage *self = request->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(KisteBoxStats) stats = NULL;
  g_autofree char *memory = NULL;

  stats = kiste_manager_query_finish (KISTE_MANAGER (object), result, &error);

  /* Left over from a box or a visibility that changed since */
  if (request->cancellable != self->stats_cancellable ||
      g_cancellable_is_cancelled (request->cancellable))
    return;
  g_clear_object (&self->stats_cancellable);

  if (error != NULL)
    {
      g_autofree char *description = NULL;

      g_debug ("No usage for the box: %s", error->message);
      self->stats_failed = TRUE;
      /* Rootless podman's usual reason gets plain words; others as they are */
      if (strstr (error->message, "cgroups v2") != NULL)
        description = g_strdup (_("Usage cannot be measured: rootless podman needs a system "
                                  "with cgroups v2 for it."));
      else
        /* Translators: %s says why, from podman */
        description = g_strdup_printf (_("Usage cannot be measured: %s"), error->message);
      adw_preferences_group_set_description (self->resources_group, description);
      adw_action_row_set_subtitle (self->cpu_row, _("Not available"));
      adw_action_row_set_subtitle (self->memory_row, _("Not available"));
      return;
    }

  if (stats->memory_limit != NULL)
    /* Translators: memory in use of the memory available: "102.4kB of 25.28GB" */
    memory = g_strdup_printf (_("%s of %s"), stats->memory_used, stats->memory_limit);
  else
    memory = g_strdup (stats->memory_used);

  adw_preferences_group_set_description (self->resources_group, NULL);
  adw_action_row_set_subtitle (self->cpu_row, stats->cpu ? stats->cpu : _("Unknown"));
  adw_action_row_set_subtitle (self->memory_row, memory ? memory : _("Unknown"));

  self->stats_source = g_timeout_add_seconds (STATS_INTERVAL_SECONDS, stats_timeout_cb, self);
}

static gboolean
kiste_box_page_wants_stats (KisteBoxPage *self)
{
  return self->box != NULL &&
         gtk_widget_get_mapped (GTK_WIDGET (self)) &&
         _kiste_box_page_is_running (self) &&
         !self->stats_failed;
}

void
_kiste_box_page_stop_stats (KisteBoxPage *self)
{
  g_clear_handle_id (&self->stats_source, g_source_remove);
  g_cancellable_cancel (self->stats_cancellable);
  g_clear_object (&self->stats_cancellable);
}

static void
kiste_box_page_fetch_stats (KisteBoxPage *self)
{
  StatsRequest *request;

  self->stats_cancellable = g_cancellable_new ();
  request = g_new0 (StatsRequest, 1);
  request->self = g_object_ref (self);
  request->cancellable = g_object_ref (self->stats_cancellable);

  kiste_manager_get_stats_async (self->manager, kiste_box_get_ref (self->box),
                                 self->stats_cancellable, stats_cb, request);
}

void
_kiste_box_page_update_stats_polling (KisteBoxPage *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->resources_group), _kiste_box_page_is_running (self));

  if (!kiste_box_page_wants_stats (self))
    {
      _kiste_box_page_stop_stats (self);
      return;
    }

  /* Already waiting for the next round or for an answer */
  if (self->stats_source != 0 || self->stats_cancellable != NULL)
    return;

  kiste_box_page_fetch_stats (self);
}

void
_kiste_box_page_reset_stats (KisteBoxPage *self)
{
  _kiste_box_page_stop_stats (self);
  self->stats_failed = FALSE;
  adw_preferences_group_set_description (self->resources_group, NULL);
  adw_action_row_set_subtitle (self->cpu_row, "…");
  adw_action_row_set_subtitle (self->memory_row, "…");
}
