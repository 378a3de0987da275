/* kiste-box.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  KISTE_BOX_STATE_UNKNOWN,
  KISTE_BOX_STATE_CREATED,   /* never started */
  KISTE_BOX_STATE_RUNNING,
  KISTE_BOX_STATE_STOPPED,   /* exited */
  KISTE_BOX_STATE_PAUSED,
  KISTE_BOX_STATE_STOPPING,
} KisteBoxState;

/* Whether a namespace or the host home is shared with the box. UNKNOWN until
 * the fact is known (labels absent, or inspect not run yet). */
typedef enum
{
  KISTE_SHARING_UNKNOWN,
  KISTE_SHARING_SHARED,
  KISTE_SHARING_UNSHARED,
} KisteSharing;

/* The tool a box was made with and is entered through */
typedef enum
{
  KISTE_BOX_TOOL_DISTROBOX,
  KISTE_BOX_TOOL_TOOLBX,
} KisteBoxTool;

typedef enum
{
  KISTE_UNSHARE_DEVSYS,
  KISTE_UNSHARE_GROUPS,
  KISTE_UNSHARE_IPC,
  KISTE_UNSHARE_NETNS,
  KISTE_UNSHARE_PROCESS,
  KISTE_UNSHARE_HOME,
  KISTE_N_UNSHARE,
} KisteUnshare;

#define KISTE_TYPE_BOX       (kiste_box_get_type ())
#define KISTE_TYPE_BOX_STATE (kiste_box_state_get_type ())
#define KISTE_TYPE_SHARING   (kiste_sharing_get_type ())
#define KISTE_TYPE_UNSHARE   (kiste_unshare_get_type ())

GType kiste_box_state_get_type (void) G_GNUC_CONST;
GType kiste_sharing_get_type   (void) G_GNUC_CONST;
GType kiste_unshare_get_type   (void) G_GNUC_CONST;

/* Read-only properties, each notified only when its value changes: "id",
 * "name", "image", "state" (KisteBoxState), "status", "created" (unix
 * seconds), "labels" (GHashTable), "home", "user", "custom-home", "init",
 * "nvidia", "mounts" and "user-mounts" (GStrv), "host-home-sharing",
 * "unshare-devsys", "unshare-groups", "unshare-ipc", "unshare-netns",
 * "unshare-process", "unshare-home" (KisteSharing), "rootless",
 * "distrobox-version", "has-details", "log-driver", "environ" and
 * "create-command" (GStrv). */
G_DECLARE_FINAL_TYPE (KisteBox, kiste_box, KISTE, BOX, GObject)

/* From one element of `podman ps -a --no-trunc --format json` (labels as an
 * object, Mounts as strings or objects) or one line of
 * `docker ps -a --no-trunc --format '{{json .}}'` (labels as "k=v,k=v").
 * host_home is the user's home on the host, to tell whether it is mounted. */
KisteBox           *kiste_box_new_from_ps_json      (JsonObject   *object,
                                                     const char   *host_home,
                                                     GError      **error);

/* Takes every field of other (same id) and notifies what changed.
 * Returns TRUE if anything changed. What only inspect knows (namespaces,
 * environment, log driver) is kept when other comes from ps alone, and so
 * are known mounts when other has none (docker's ps): a container's
 * configuration never changes. */
gboolean            kiste_box_update_from           (KisteBox     *self,
                                                     KisteBox     *other);

/* Adds what only `podman container inspect --format json` knows: namespace
 * modes, mounts with sources, the box's environment, log driver. */
gboolean            kiste_box_apply_inspect_json    (KisteBox     *self,
                                                     JsonObject   *object,
                                                     GError      **error);

/* TRUE if a ps element is a distrobox box: label manager=distrobox, any
 * distrobox.* label, or a /usr/bin/distrobox-export mount; never infra. */
gboolean            kiste_box_ps_json_is_distrobox  (JsonObject   *object);
/* TRUE if a ps element is a Toolbx container that distrobox does not
 * claim: the label com.github.containers.toolbox (any value) and Toolbx's
 * entry point, `toolbox … init-container …` (the label alone comes with
 * Toolbx's images into any container run from them). Distrobox boxes
 * made from Toolbx images carry the label too; distrobox's labels win, as
 * Ptyxis decides. Never infra. */
gboolean            kiste_box_ps_json_is_toolbox    (JsonObject   *object);

const char         *kiste_box_get_id                (KisteBox     *self);
/* Toolbx for a container with Toolbx's label and none of distrobox's,
 * else distrobox: told by the labels, which never change */
KisteBoxTool        kiste_box_get_tool              (KisteBox     *self);
/* The tool's name for people where both are in use: "Toolbx", "Distrobox" */
const char         *kiste_box_tool_to_label         (KisteBoxTool  tool);
const char         *kiste_box_get_name              (KisteBox     *self);
/* The container engine the box lives in ("podman", "docker"): its
 * store's; NULL until a store lists it */
const char         *kiste_box_get_engine            (KisteBox     *self);
/* How the manager's calls name the box: its name, or "ENGINE/NAME" for a
 * box of an engine other than the first one in use (names are unique per
 * engine only; KisteBoxList) */
const char         *kiste_box_get_ref               (KisteBox     *self);
const char         *kiste_box_get_image             (KisteBox     *self);
/* The id of the image the box was made from (podman's ps), or NULL */
const char         *kiste_box_get_image_id          (KisteBox     *self);
/* Which distribution the box runs (kiste-distro.h): told by its image's
 * name, else by what the list knows of where the image came from (a
 * clone's image "localhost/SOURCE:DATE" is its source's). "distro-id"
 * notifies its changes. */
const char         *kiste_box_get_distro_id         (KisteBox     *self);
/* Runs, and distrobox-init's first steps are not done yet (its log has no
 * container_setup_done since the start): KisteSetupWatch says so, for
 * boxes started anywhere. "setting-up" notifies. */
gboolean            kiste_box_get_setting_up        (KisteBox     *self);
void                kiste_box_set_setting_up        (KisteBox     *self,
                                                     gboolean      setting_up);
/* The state for people: "Setting up" while so, else
 * kiste_box_state_to_label() */
const char         *kiste_box_get_state_label       (KisteBox     *self);
/* The list sets this from a box the image came from: a static id of
 * kiste-distro.h; NULL forgets it */
void                kiste_box_set_distro_origin     (KisteBox     *self,
                                                     const char   *distro_id);
KisteBoxState       kiste_box_get_state             (KisteBox     *self);
const char         *kiste_box_get_status            (KisteBox     *self);
gint64              kiste_box_get_created           (KisteBox     *self);
gint64              kiste_box_get_started           (KisteBox     *self);
void                kiste_box_set_state             (KisteBox     *self,
                                                     KisteBoxState state);
GHashTable         *kiste_box_get_labels            (KisteBox     *self);
/* The label of a temporary box Kiste made to try an image (value "1") */
#define KISTE_BOX_TEMPORARY_LABEL "io.github.kiste.temporary"

/* The label Toolbx puts on its containers (value "true") */
#define KISTE_BOX_TOOLBOX_LABEL "com.github.containers.toolbox"
/* TRUE when the box carries KISTE_BOX_TEMPORARY_LABEL=1 */
gboolean            kiste_box_get_temporary         (KisteBox     *self);
const char         *kiste_box_get_label             (KisteBox     *self,
                                                     const char   *key);
/* The box's HOME: the value after --home in the init command (custom or host) */
const char         *kiste_box_get_home              (KisteBox     *self);
/* TRUE when home differs from the user's host home */
gboolean            kiste_box_has_custom_home       (KisteBox     *self);
gboolean            kiste_box_get_init              (KisteBox     *self);
gboolean            kiste_box_get_nvidia            (KisteBox     *self);
/* Mount destinations inside the box; NULL while unknown (docker's ps lists
 * mount sources only, so docker boxes get them with the details). */
const char * const *kiste_box_get_mounts            (KisteBox     *self);
KisteSharing        kiste_box_get_host_home_sharing (KisteBox     *self);
KisteSharing        kiste_box_get_unshare           (KisteBox     *self,
                                                     KisteUnshare  what);
/* TRUE when the box lives in the user's own storage, created without
 * `distrobox --root`: the /run/.distrobox.rootless marker mount (distrobox
 * 1.8.2.5+) says so; without it, a box listed by podman running as an
 * ordinary user is rootless too. Docker's ps shows no mount destinations,
 * so a docker box reads FALSE until its details show the marker. */
gboolean            kiste_box_get_rootless          (KisteBox     *self);
/* 2 for boxes made by distrobox 2 (label distrobox.version), else 1 */
guint               kiste_box_get_distrobox_version (KisteBox     *self);
gboolean            kiste_box_get_has_details       (KisteBox     *self);
/* Log driver from inspect ("k8s-file", "journald", …) or NULL */
const char         *kiste_box_get_log_driver        (KisteBox     *self);
/* Mount destinations from inspect other than /run/host and below, used for
 * the workdir rule of boxes with an unshared home. podman's ps already knows
 * the destinations, so this is filled before the details too; NULL while the
 * mounts are unknown. */
const char * const *kiste_box_get_user_mounts       (KisteBox     *self);
/* The user the box was made for: the value after --name in the init command */
const char         *kiste_box_get_user              (KisteBox     *self);
/* From inspect only (NULL before the details are loaded): the box's
 * environment as "KEY=VALUE" strings, and podman's original create argv. */
const char * const *kiste_box_get_environ           (KisteBox     *self);
const char         *kiste_box_getenv                (KisteBox     *self,
                                                     const char   *variable);
const char * const *kiste_box_get_create_command    (KisteBox     *self);
char              **kiste_box_dup_home_volumes      (KisteBox     *self);
/* FALSE (KISTE_ERROR_UNSAFE, with the reason) when distrobox enter would
 * run something of the box on this computer, or when that is not known
 * because the details were not read: see the .c */
gboolean            kiste_box_check_enter_safe      (KisteBox     *self,
                                                     GError      **error);

/* A stable lowercase name ("running", "stopped", …) for logs and style
 * classes; kiste_box_state_to_label() is the translated word for people. */
const char         *kiste_box_state_to_string       (KisteBoxState state);
const char         *kiste_box_state_to_label        (KisteBoxState state);

G_END_DECLS
