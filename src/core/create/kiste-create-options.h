/* kiste-create-options.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "kiste-box.h"
#include "kiste-capabilities.h"
#include "kiste-create-plan.h"

G_BEGIN_DECLS

/* The field a validation error belongs to, so the UI can point at it. The
 * nick of each value is the name of the matching property. */
typedef enum
{
  KISTE_CREATE_FIELD_NONE,
  KISTE_CREATE_FIELD_NAME,
  KISTE_CREATE_FIELD_IMAGE,
  KISTE_CREATE_FIELD_CLONE_SOURCE,
  KISTE_CREATE_FIELD_HOSTNAME,
  KISTE_CREATE_FIELD_HOME,
  KISTE_CREATE_FIELD_VOLUMES,
  KISTE_CREATE_FIELD_ADDITIONAL_PACKAGES,
  KISTE_CREATE_FIELD_INIT_HOOKS,
  KISTE_CREATE_FIELD_PRE_INIT_HOOKS,
  KISTE_CREATE_FIELD_PLATFORM,
  KISTE_CREATE_FIELD_UNSHARE_DEVSYS,
  KISTE_CREATE_FIELD_UNSHARE_GROUPS,
  KISTE_CREATE_FIELD_UNSHARE_IPC,
  KISTE_CREATE_FIELD_UNSHARE_NETNS,
  KISTE_CREATE_FIELD_UNSHARE_PROCESS,
  KISTE_CREATE_FIELD_UNSHARE_HOME,
  KISTE_CREATE_FIELD_UNSHARE_ALL,
  KISTE_CREATE_FIELD_INIT,
  KISTE_CREATE_FIELD_NVIDIA,
  KISTE_CREATE_FIELD_PULL,
  KISTE_CREATE_FIELD_ADD_TO_MENU,
} KisteCreateField;

#define KISTE_TYPE_CREATE_FIELD (kiste_create_field_get_type ())
GType kiste_create_field_get_type (void) G_GNUC_CONST;

#define KISTE_TYPE_CREATE_OPTIONS (kiste_create_options_get_type ())

G_DECLARE_FINAL_TYPE (KisteCreateOptions, kiste_create_options, KISTE, CREATE_OPTIONS, GObject)

/* Everything `distrobox create` is told about a new box. Every option is a
 * property with notify, and "changed" follows once per change, however many
 * properties it touched. Strings are NULL or "" when unset. Defaults:
 * nothing unshared, no init, no nvidia, no pull, add-to-menu FALSE (the box
 * gets no launcher: --no-entry). */
KisteCreateOptions  *kiste_create_options_new                     (void);
KisteCreateOptions  *kiste_create_options_copy                    (KisteCreateOptions  *self);
/* What is known of box as options for a copy of it (--clone): the name
 * "<name>-copy", its custom home (none when it uses the host home), init,
 * nvidia, and each namespace known to be unshared (unknown ones stay
 * shared). The hostname is not copied: each box keeps its own. Image,
 * volumes, packages and hooks stay unset: the copy has them already. */
KisteCreateOptions  *kiste_create_options_new_from_box            (KisteBox            *box);

const char          *kiste_create_options_get_name                (KisteCreateOptions  *self);
void                 kiste_create_options_set_name                (KisteCreateOptions  *self,
                                                                   const char          *name);
const char          *kiste_create_options_get_image               (KisteCreateOptions  *self);
void                 kiste_create_options_set_image               (KisteCreateOptions  *self,
                                                                   const char          *image);
/* A box to copy instead of an image (--clone); when set, image is ignored */
const char          *kiste_create_options_get_clone_source        (KisteCreateOptions  *self);
void                 kiste_create_options_set_clone_source        (KisteCreateOptions  *self,
                                                                   const char          *clone_source);
/* A custom home folder; the host home stays mounted in the box as well */
const char          *kiste_create_options_get_home                (KisteCreateOptions  *self);
void                 kiste_create_options_set_home                (KisteCreateOptions  *self,
                                                                   const char          *home);
/* Whether the box gets a home of its own. Setting a folder turns it on;
 * turning it off forgets the folder; on without a folder is invalid
 * (KISTE_CREATE_FIELD_HOME). */
gboolean             kiste_create_options_get_separate_home       (KisteCreateOptions  *self);
void                 kiste_create_options_set_separate_home       (KisteCreateOptions  *self,
                                                                   gboolean             separate_home);
const char          *kiste_create_options_get_hostname            (KisteCreateOptions  *self);
void                 kiste_create_options_set_hostname            (KisteCreateOptions  *self,
                                                                   const char          *hostname);
const char          *kiste_create_options_get_platform            (KisteCreateOptions  *self);
void                 kiste_create_options_set_platform            (KisteCreateOptions  *self,
                                                                   const char          *platform);
const char          *kiste_create_options_get_init_hooks          (KisteCreateOptions  *self);
void                 kiste_create_options_set_init_hooks          (KisteCreateOptions  *self,
                                                                   const char          *init_hooks);
const char          *kiste_create_options_get_pre_init_hooks      (KisteCreateOptions  *self);
void                 kiste_create_options_set_pre_init_hooks      (KisteCreateOptions  *self,
                                                                   const char          *pre_init_hooks);

/* HOST:CONTAINER[:OPTIONS] specs, one --volume each */
const char * const  *kiste_create_options_get_volumes             (KisteCreateOptions  *self);
void                 kiste_create_options_set_volumes             (KisteCreateOptions  *self,
                                                                   const char * const  *volumes);
void                 kiste_create_options_add_volume              (KisteCreateOptions  *self,
                                                                   const char          *volume);
/* Package names; an element may hold several separated by spaces */
const char * const  *kiste_create_options_get_additional_packages (KisteCreateOptions  *self);
void                 kiste_create_options_set_additional_packages (KisteCreateOptions  *self,
                                                                   const char * const  *packages);
void                 kiste_create_options_add_additional_packages (KisteCreateOptions  *self,
                                                                   const char          *packages);

/* The flags as requested; see get_effective_unshare() for what they imply */
gboolean             kiste_create_options_get_unshare             (KisteCreateOptions  *self,
                                                                   KisteUnshare         what);
void                 kiste_create_options_set_unshare             (KisteCreateOptions  *self,
                                                                   KisteUnshare         what,
                                                                   gboolean             unshare);
gboolean             kiste_create_options_get_unshare_all         (KisteCreateOptions  *self);
void                 kiste_create_options_set_unshare_all         (KisteCreateOptions  *self,
                                                                   gboolean             unshare_all);
/* What the box will really unshare: init implies process and groups;
 * unshare-all implies the five namespaces, and the home folder only where
 * Kiste can keep it out (kiste-create-flags.h; caps may be NULL: then it
 * cannot). */
gboolean             kiste_create_options_get_effective_unshare   (KisteCreateOptions  *self,
                                                                   KisteUnshare         what,
                                                                   KisteCapabilities   *caps);
/* Why a flag is on whatever was asked for it: the init system needs
 * process and groups (checked first), Isolate Everything covers the rest */
typedef enum
{
  KISTE_UNSHARE_IMPLIED_NO,
  KISTE_UNSHARE_IMPLIED_BY_INIT,
  KISTE_UNSHARE_IMPLIED_BY_ALL,
} KisteUnshareImplied;

KisteUnshareImplied  kiste_create_options_get_unshare_implied     (KisteCreateOptions  *self,
                                                                   KisteUnshare         what,
                                                                   KisteCapabilities   *caps);

gboolean             kiste_create_options_get_init                (KisteCreateOptions  *self);
void                 kiste_create_options_set_init                (KisteCreateOptions  *self,
                                                                   gboolean             init);
gboolean             kiste_create_options_get_nvidia              (KisteCreateOptions  *self);
void                 kiste_create_options_set_nvidia              (KisteCreateOptions  *self,
                                                                   gboolean             nvidia);
gboolean             kiste_create_options_get_pull                (KisteCreateOptions  *self);
void                 kiste_create_options_set_pull                (KisteCreateOptions  *self,
                                                                   gboolean             pull);
gboolean             kiste_create_options_get_add_to_menu         (KisteCreateOptions  *self);
void                 kiste_create_options_set_add_to_menu         (KisteCreateOptions  *self,
                                                                   gboolean             add_to_menu);
/* A temporary box (Try an Image), the property "temporary": labelled
 * KISTE_BOX_TEMPORARY_LABEL=1 through --additional-flags, so it is found
 * and offered for removal even after Kiste quit. Not copied into
 * manifests. */
gboolean             kiste_create_options_get_temporary           (KisteCreateOptions  *self);
void                 kiste_create_options_set_temporary           (KisteCreateOptions  *self,
                                                                   gboolean             temporary);
/* The tool that makes the box, the property "tool" (an int holding a
 * KisteBoxTool; distrobox by default). Toolbx makes a box from its name
 * and image alone: a plan with any other option set fails and names it
 * (kiste_create_options_plan()). */
KisteBoxTool         kiste_create_options_get_tool                (KisteCreateOptions  *self);
void                 kiste_create_options_set_tool                (KisteCreateOptions  *self,
                                                                   KisteBoxTool         tool);
/* A name for a temporary box, "kiste-try-" and six hex digits, none of
 * existing_names (may be NULL) */
char                *kiste_create_options_dup_temporary_name      (const char * const  *existing_names);

/* Checks every field, in the order of KisteCreateField, and reports the
 * first bad one as KISTE_ERROR_INVALID_INPUT. existing_names (may be NULL)
 * are the boxes that exist now: the new name must not be one of them and a
 * clone source must be. */
gboolean             kiste_create_options_validate                (KisteCreateOptions  *self,
                                                                   const char * const  *existing_names,
                                                                   GError             **error);
/* Same, also telling which field is wrong (KISTE_CREATE_FIELD_NONE if all
 * are fine) */
gboolean             kiste_create_options_validate_full           (KisteCreateOptions  *self,
                                                                   const char * const  *existing_names,
                                                                   KisteCreateField    *out_field,
                                                                   GError             **error);
/* Checks one field, for feedback while the user types */
gboolean             kiste_create_options_validate_field          (KisteCreateOptions  *self,
                                                                   KisteCreateField     field,
                                                                   const char * const  *existing_names,
                                                                   GError             **error);

/* Validates (without a uniqueness check), then builds
 *   distrobox create --yes --name NAME (--image IMAGE | --clone SRC) …
 * with every value as its own argv element: the options of the table of
 * create flags in its order, each checked against caps
 * (kiste-create-flags.h). Home isolation on a distrobox without the flag
 * leaves it out: the plan of such options runs this command as a dry run
 * and then the engine's create without the home's mounts
 * (kiste_create_options_plan()). */
char               **kiste_create_options_to_argv                 (KisteCreateOptions  *self,
                                                                   KisteCapabilities   *caps,
                                                                   GError             **error);
/* What "Show Command" shows for options that check() accepts: the
 * command itself, or for a box without the home, its dry run and what
 * happens next; then the launcher's command when one is asked for. NULL
 * when caps cannot make the command. */
char                *kiste_create_options_dup_command_text        (KisteCreateOptions  *self,
                                                                   KisteCapabilities   *caps);
/* Same, telling which field stopped it */
char               **kiste_create_options_to_argv_full            (KisteCreateOptions  *self,
                                                                   KisteCapabilities   *caps,
                                                                   KisteCreateField    *out_field,
                                                                   GError             **error);

/* The whole form in one pass: every field is checked once (the new name
 * against existing_names too) and, when all are fine, the argv is built as
 * by kiste_create_options_to_argv(). problems (may be NULL) gets an array
 * indexed by KisteCreateField with the message of each field that has a
 * problem, NULL elsewhere. Returns the argv, or NULL with error and
 * out_field telling the first problem. */
char               **kiste_create_options_check                   (KisteCreateOptions  *self,
                                                                   const char * const  *existing_names,
                                                                   KisteCapabilities   *caps,
                                                                   GPtrArray          **problems,
                                                                   KisteCreateField    *out_field,
                                                                   GError             **error);

/* The commands that make the box, in order, decided once: every field is
 * checked first (the name against existing_names, which may be NULL), then
 * each command is built from the options (nothing edits a command after
 * it is built). engine ("podman", "docker") runs what distrobox does not
 * for a box without the home: the copy's commit or the image's pull. */
KisteCreatePlan     *kiste_create_options_plan                    (KisteCreateOptions  *self,
                                                                   const char * const  *existing_names,
                                                                   KisteCapabilities   *caps,
                                                                   const char          *engine,
                                                                   GError             **error);

G_END_DECLS
