/* kiste-box-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box's state and the functions its files share:
 * kiste-box.c       the object, what its facts imply (derive), its getters
 * kiste-box-json.c  its facts read from ps and inspect output */

#pragma once

#include "kiste-box-private.h"

G_BEGIN_DECLS

#define ROOTLESS_MARKER      "/run/.distrobox.rootless"
#define DISTROBOX_EXPORT     "/usr/bin/distrobox-export"
#define LABEL_MANAGER        "manager"
#define LABEL_UNSHARE_GROUPS "distrobox.unshare_groups"
#define LABEL_UNSHARE_HOME   "distrobox.unshare_home"
#define LABEL_VERSION        "distrobox.version"

struct _KisteBox
{
  GObject        parent_instance;

  /* What ps (and inspect) say */
  char          *id;
  char          *name;
  /* Where the box lives: set once when a store lists it first */
  char          *engine;
  char          *ref;
  char          *image;
  /* the image's id, from podman's ps (docker's names none) */
  char          *image_id;
  char          *status;
  char          *home;
  char          *user;
  char          *host_home;
  GHashTable    *labels;
  char         **mounts;          /* destinations; NULL while unknown */
  gint64         created;
  gint64         started;         /* the last start; 0 while unknown */
  KisteBoxState  state;
  KisteSharing   home_hint;       /* docker ps: host home among the sources */

  /* What only inspect says */
  char          *log_driver;
  char         **environ;
  char         **create_command;
  KisteSharing   ipc_mode;
  KisteSharing   net_mode;
  KisteSharing   pid_mode;

  /* Derived from the above by _kiste_box_derive() */
  char         **user_mounts;
  KisteSharing   unshare[KISTE_N_UNSHARE];
  KisteSharing   host_home_sharing;
  guint          distrobox_version;

  gboolean       init;
  gboolean       nvidia;
  gboolean       podman_shape;    /* listed by podman: mounts are destinations */
  gboolean       rootless;
  gboolean       custom_home;
  gboolean       has_details;

  /* The distribution another box told (a clone's source), static string */
  const char    *distro_origin;
  /* Runs, but distrobox-init has not finished its setup yet */
  gboolean       setting_up;
  /* Counts changes of state, so details read before one do not undo it */
  guint          state_stamp;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_IMAGE,
  PROP_STATE,
  PROP_STATUS,
  PROP_CREATED,
  PROP_LABELS,
  PROP_HOME,
  PROP_USER,
  PROP_CUSTOM_HOME,
  PROP_INIT,
  PROP_NVIDIA,
  PROP_MOUNTS,
  PROP_USER_MOUNTS,
  PROP_HOST_HOME_SHARING,
  PROP_UNSHARE_DEVSYS,
  PROP_UNSHARE_GROUPS,
  PROP_UNSHARE_IPC,
  PROP_UNSHARE_NETNS,
  PROP_UNSHARE_PROCESS,
  PROP_UNSHARE_HOME,
  PROP_ROOTLESS,
  PROP_DISTROBOX_VERSION,
  PROP_HAS_DETAILS,
  PROP_LOG_DRIVER,
  PROP_ENVIRON,
  PROP_CREATE_COMMAND,
  PROP_DISTRO_ID,
  PROP_SETTING_UP,
  N_PROPS
};

/* kiste-box.c */
void        _kiste_box_notify        (KisteBox            *self,
                                      guint                prop_id);
GHashTable *_kiste_box_labels_new    (void);
gboolean    _kiste_box_labels_equal  (GHashTable          *a,
                                      GHashTable          *b);
GHashTable *_kiste_box_labels_copy   (GHashTable          *labels);
gboolean    _kiste_box_strv_equal0   (const char * const  *a,
                                      const char * const  *b);
/* Setters that notify only on a real change and report whether there was one */
gboolean    _kiste_box_set_string    (KisteBox            *self,
                                      char               **field,
                                      const char          *value,
                                      guint                prop_id);
gboolean    _kiste_box_set_strv      (KisteBox            *self,
                                      char              ***field,
                                      const char * const  *value,
                                      guint                prop_id);
gboolean    _kiste_box_set_state     (KisteBox            *self,
                                      KisteBoxState        state);
gboolean    _kiste_box_set_bool      (KisteBox            *self,
                                      gboolean            *field,
                                      gboolean             value,
                                      guint                prop_id);
gboolean    _kiste_box_is_host_home  (const char          *path,
                                      const char          *host_home);
/* Recomputes everything that follows from the raw facts */
gboolean    _kiste_box_derive        (KisteBox            *self,
                                      gboolean             notify);

/* kiste-box-volumes.c: from the create command, whether the host's homes
 * stay at /run/host/home, and whether a volume shows the whole home */
KisteSharing _kiste_box_run_host_home_sharing (const char * const *create_command);
gboolean     _kiste_box_volumes_show_home     (const char * const *create_command,
                                               const char         *host_home);

G_END_DECLS
