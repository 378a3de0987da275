/* kiste-box-page-details.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The Details view of a box page: what its header and rows say about the
 * box (its image, when it was made, its home and what it shares with the
 * host, what it exports), in words people read. */

#include "config.h"

#include <glib/gi18n.h>

#include "kiste-box-page-private.h"
#include "kiste-box-row.h"
#include "kiste-distro.h"
#include "kiste-manager-updates.h"

/* The engine the box lives in, for people */
static const char *
kiste_box_page_get_engine_title (KisteBoxPage *self)
{
  KisteBoxList *boxes = kiste_manager_get_boxes (self->manager);

  return kiste_box_source_get_title (kiste_box_list_get_source_for_box (boxes, self->box));
}

/* Text */

static const char *
sharing_to_label (KisteSharing sharing)
{
  switch (sharing)
    {
    case KISTE_SHARING_SHARED:
      return _("Shared with the host");

    case KISTE_SHARING_UNSHARED:
      return _("Separate from the host");

    case KISTE_SHARING_UNKNOWN:
    default:
      return _("Unknown");
    }
}

static char *
format_created (gint64 created)
{
  g_autoptr(GDateTime) then = NULL;
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *absolute = NULL;
  g_autofree char *relative = NULL;
  gint64 seconds;

  if (created <= 0 || !(then = g_date_time_new_from_unix_utc (created)))
    return g_strdup (_("Unknown"));

  local = g_date_time_to_local (then);
  now = g_date_time_new_now_local ();
  seconds = g_date_time_difference (now, local) / G_TIME_SPAN_SECOND;

  if (seconds < 60)
    relative = g_strdup (_("Just now"));
  else if (seconds < 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d minute ago", "%d minutes ago",
                                             seconds / 60),
                                (int) (seconds / 60));
  else if (seconds < 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d hour ago", "%d hours ago",
                                             seconds / 3600),
                                (int) (seconds / 3600));
  else if (seconds < 30 * 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d day ago", "%d days ago",
                                             seconds / 86400),
                                (int) (seconds / 86400));
  else if (seconds < 365 * 24 * 60 * 60)
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d month ago", "%d months ago",
                                             seconds / (30 * 86400)),
                                (int) (seconds / (30 * 86400)));
  else
    relative = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%d year ago", "%d years ago",
                                             seconds / (365 * 86400)),
                                (int) (seconds / (365 * 86400)));

  /* Translators: when a box was created, see g_date_time_format() */
  absolute = g_date_time_format (local, _("%B %-d, %Y, %H:%M"));

  /* Translators: "3 days ago (December 1, 2026, 14:05)" */
  return g_strdup_printf (_("%s (%s)"), relative, absolute);
}

/* "2 apps and 1 program", or NULL for none */
char *
_kiste_box_page_format_exported (GPtrArray *exported)
{
  g_autofree char *apps = NULL;
  g_autofree char *programs = NULL;
  guint n_apps = 0;
  guint n_programs = 0;

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);

      if (file->kind == KISTE_EXPORTED_APP)
        n_apps++;
      else
        n_programs++;
    }

  if (n_apps > 0)
    apps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u app", "%u apps", n_apps), n_apps);
  if (n_programs > 0)
    programs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u program", "%u programs", n_programs),
                                n_programs);

  if (apps != NULL && programs != NULL)
    /* Translators: "2 apps and 1 program" */
    return g_strdup_printf (_("%s and %s"), apps, programs);
  if (apps != NULL)
    return g_steal_pointer (&apps);
  return g_steal_pointer (&programs);
}

/* Names of the exported files of one kind, comma-separated, or NULL */
char *
_kiste_box_page_join_exported_names (GPtrArray         *exported,
                                     KisteExportedKind  kind)
{
  g_autoptr(GString) names = NULL;

  for (guint i = 0; i < exported->len; i++)
    {
      KisteExportedFile *file = g_ptr_array_index (exported, i);
      g_autofree char *basename = NULL;
      const char *name = file->name;

      if (file->kind != kind)
        continue;
      if (name == NULL || name[0] == '\0')
        name = basename = g_path_get_basename (file->path);

      if (names == NULL)
        names = g_string_new (NULL);
      else
        /* Translators: between the names in a list: "Viewer, x11perf" */
        g_string_append (names, _(", "));
      g_string_append (names, name);
    }

  return names ? g_string_free_and_steal (g_steal_pointer (&names)) : NULL;
}

void
_kiste_box_page_update_exported_row (KisteBoxPage *self)
{
  g_autofree char *text = NULL;

  if (self->exported != NULL)
    text = _kiste_box_page_format_exported (self->exported);

  if (text != NULL)
    adw_action_row_set_subtitle (self->exported_row, text);
  else if (self->exported != NULL)
    adw_action_row_set_subtitle (self->exported_row, _("None"));
  else if (self->exported_failed)
    adw_action_row_set_subtitle (self->exported_row, _("Unknown"));
  else
    adw_action_row_set_subtitle (self->exported_row, "…");
}

static void
kiste_box_page_update_isolation (KisteBoxPage *self)
{
  struct {
    AdwActionRow *row;
    KisteUnshare  what;
  } rows[] = {
    { self->devsys_row, KISTE_UNSHARE_DEVSYS },
    { self->groups_row, KISTE_UNSHARE_GROUPS },
    { self->ipc_row, KISTE_UNSHARE_IPC },
    { self->netns_row, KISTE_UNSHARE_NETNS },
    { self->process_row, KISTE_UNSHARE_PROCESS },
    { self->home_unshare_row, KISTE_UNSHARE_HOME },
  };
  KisteBoxList *store = kiste_manager_get_boxes (self->manager);
  const char *host_home = kiste_box_list_get_host_home (store);
  const char *home = kiste_box_get_home (self->box);
  gboolean custom = kiste_box_has_custom_home (self->box);
  g_autofree char *sentence = NULL;
  g_autofree char *consequence = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    adw_action_row_set_subtitle (rows[i].row,
                                 sharing_to_label (kiste_box_get_unshare (self->box, rows[i].what)));

  /* Not in the box only when no mount shows it, at its path, under
   * /run/host or through a volume of the user's */
  switch (kiste_box_get_unshare (self->box, KISTE_UNSHARE_HOME))
    {
    case KISTE_SHARING_SHARED:
      if (kiste_box_get_host_home_sharing (self->box) != KISTE_SHARING_SHARED)
        sentence = g_strdup_printf (_("Your home folder %s can still be reached in this box "
                                      "through another folder, such as /run/host/home"),
                                    host_home);
      else if (custom)
        sentence = g_strdup_printf (_("This box has its own home folder at %s, but your home "
                                      "folder %s is still mounted in it"),
                                    home, host_home);
      else
        sentence = g_strdup_printf (_("Your home folder %s is shared with this box"), host_home);
      consequence = g_strdup (_("Programs in the box can read and change your files"));
      break;

    case KISTE_SHARING_UNSHARED:
      {
        g_auto(GStrv) parts = kiste_box_dup_home_volumes (self->box);

        if (custom)
          sentence = g_strdup_printf (_("Your home folder is not in this box: it has its own at %s"),
                                      home);
        else
          sentence = g_strdup (_("Your home folder is not in this box"));

        /* what stays shared, and that this is no sandbox */
        if (parts != NULL && parts[0] != NULL)
          {
            g_autofree char *list = g_strjoinv (", ", parts);

            consequence = g_strdup_printf (_("Only these folders of it are in the box: %s. Still shared: /tmp, "
                                             "the rest of this computer under /run/host, and "
                                             "devices. Sudo in the box can undo this"),
                                           list);
          }
        else
          consequence = g_strdup (_("Still shared: /tmp, the rest of this computer under "
                                    "/run/host, and devices. Sudo in the box can undo this"));
      }
      break;

    case KISTE_SHARING_UNKNOWN:
    default:
      sentence = g_strdup (_("Whether your home folder is shared with this box is not known yet"));
      break;
    }

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->home_sharing_row), sentence);
  adw_action_row_set_subtitle (self->home_sharing_row, consequence);
}

/* The header and the rows of the Details view, for the box shown */
void
_kiste_box_page_update_details (KisteBoxPage *self)
{
  KisteBoxList *store;
  const char *image;
  const char *home;
  g_autofree char *created = NULL;

  store = kiste_manager_get_boxes (self->manager);
  image = kiste_box_get_image (self->box);
  home = kiste_box_get_home (self->box);

  gtk_image_set_from_icon_name (self->distro_image,
                                kiste_distro_icon_name (kiste_box_get_distro_id (self->box)));
  gtk_label_set_label (self->name_label, kiste_box_get_name (self->box));
  kiste_box_row_show_image (self->image_label, image);

  adw_action_row_set_subtitle (self->image_row, image ? image : _("Unknown"));
  {
    g_autofree char *update = NULL;

    update = kiste_box_row_dup_update_text (kiste_manager_get_image_update (self->manager, self->box),
                                            image,
                                            kiste_manager_box_has_newer_image (self->manager, self->box),
                                            TRUE);
    adw_action_row_set_subtitle (self->update_row, update);
  }

  created = format_created (kiste_box_get_created (self->box));
  adw_action_row_set_subtitle (self->created_row, created);

  if (home == NULL)
    adw_action_row_set_subtitle (self->home_row, _("Unknown"));
  else if (!kiste_box_has_custom_home (self->box) &&
           g_strcmp0 (home, kiste_box_list_get_host_home (store)) == 0 &&
           kiste_box_get_unshare (self->box, KISTE_UNSHARE_HOME) != KISTE_SHARING_UNSHARED)
    adw_action_row_set_subtitle (self->home_row, _("Your home folder"));
  /* a box without the home has its own folder at that path */
  else
    adw_action_row_set_subtitle (self->home_row, home);

  adw_action_row_set_subtitle (self->init_row, kiste_box_get_init (self->box) ? _("Yes") : _("No"));
  adw_action_row_set_subtitle (self->nvidia_row, kiste_box_get_nvidia (self->box) ? _("Yes") : _("No"));
  adw_action_row_set_subtitle (self->manager_row,
                               kiste_box_page_get_engine_title (self));
  /* which tool made it: always for a toolbox, for a distrobox where
   * toolboxes are listed too */
  gtk_widget_set_visible (GTK_WIDGET (self->tool_row),
                          _kiste_box_page_is_toolbox (self) ||
                          kiste_box_list_get_several_tools (store));
  adw_action_row_set_subtitle (self->tool_row,
                               kiste_box_tool_to_label (kiste_box_get_tool (self->box)));

  _kiste_box_page_update_exported_row (self);
  kiste_box_page_update_isolation (self);
}
