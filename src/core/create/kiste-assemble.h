/* kiste-assemble.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "kiste-create-options.h"

G_BEGIN_DECLS

/* distrobox.ini ("distrobox assemble" manifests) as data.
 *
 * distrobox 1.x turns a manifest into shell and sources it; Kiste never
 * evaluates anything in it. The reader follows distrobox's own parsing
 * (sections, key=value, " #" comments, true/false, repeated keys adding
 * up, include=) and reads each value as distrobox's shell would, knowing
 * only quotes, backslashes, ~, $HOME and $USER (docs/manifests.md), then
 * maps each section onto KisteCreateOptions. What Kiste cannot do the way
 * distrobox would is reported per section: in warnings when it is ignored
 * or adjusted, in error when the box would not be what the manifest asks
 * for (root=true, additional_flags, a value that would run a command or
 * read another variable of the session, a volume of the container
 * engine). Values are not validated here: run
 * kiste_create_options_validate() on the options. */

/* The image distrobox creates from when none is given */
#define KISTE_ASSEMBLE_DEFAULT_IMAGE "registry.fedoraproject.org/fedora-toolbox:latest"

#define KISTE_TYPE_ASSEMBLE_ENTRY (kiste_assemble_entry_get_type ())

typedef struct
{
  /* the [section] name, which is the box name */
  char                *section;
  KisteCreateOptions  *options;
  /* exported_apps / exported_bins, one app or binary each */
  char               **exported_apps;
  char               **exported_bins;
  /* NULL: distrobox's default (~/.local/bin) */
  char                *exported_bins_path;
  gboolean             start_now;
  /* replace=true (distrobox 1.x only): remove an existing box first */
  gboolean             replace;
  /* for people: what was ignored or changed */
  char               **warnings;
  /* for people: why this box should not be created as written, or NULL */
  char                *error;
} KisteAssembleEntry;

GType                kiste_assemble_entry_get_type    (void) G_GNUC_CONST;
KisteAssembleEntry  *kiste_assemble_entry_new         (const char          *section);
KisteAssembleEntry  *kiste_assemble_entry_ref         (KisteAssembleEntry  *entry);
void                 kiste_assemble_entry_unref       (KisteAssembleEntry  *entry);

/* Parses a manifest into KisteAssembleEntry items, in file order, as the
 * distrobox caps found reads it (volumes= is distrobox 2's only); caps
 * may be NULL or not loaded: then as distrobox 1.x. ~, $HOME and $USER
 * are this user's. Fails (KISTE_ERROR_INVALID_INPUT) only when the text
 * cannot be a manifest at all: not UTF-8, keys outside any section, no
 * section, a broken include. */
GPtrArray           *kiste_assemble_parse_for_distrobox (const char          *data,
                                                         gssize               length,
                                                         KisteCapabilities   *caps,
                                                         GError             **error);
/* The same as distrobox 1.x reads it */
GPtrArray           *kiste_assemble_parse             (const char          *data,
                                                       gssize               length,
                                                       GError             **error);

/* Writes one section per options object (named after its name), with every
 * boolean key spelled out and every set value. Fails
 * (KISTE_ERROR_INVALID_INPUT) when a value cannot be written so that
 * distrobox reads it back unchanged (line breaks, " #"). */
char                *kiste_assemble_to_data           (GPtrArray           *options,
                                                       GError             **error);
/* Same for entries, keeping exports, start_now and replace */
char                *kiste_assemble_entries_to_data   (GPtrArray           *entries,
                                                       GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteAssembleEntry, kiste_assemble_entry_unref)

G_END_DECLS
