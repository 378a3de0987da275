/* kiste-validate.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Checks run before any process starts. Each returns FALSE and sets a
 * KISTE_ERROR_INVALID_INPUT error whose message names the field and says
 * what is allowed; the messages are shown to people as they are.
 *
 * distrobox 1.x builds its podman command as one shell string and evals it,
 * so these rules are stricter than podman's: they keep every value inert in
 * that string. */

/* Maximum length of a box hostname, as enforced by distrobox and Linux. */
#define KISTE_VALIDATE_HOSTNAME_MAX 64

/* A new box name: 2 to 63 ASCII letters, digits, "_" or "-", starting with
 * a letter or digit, and not among existing_names (compared
 * case-sensitively; NULL skips that check). Dots are refused because
 * distrobox uses names as grep patterns and globs. */
gboolean kiste_validate_name                (const char          *name,
                                             const char * const  *existing_names,
                                             GError             **error);

/* The name of an existing box (podman's rule, dots allowed), for --clone.
 * When existing_names is not NULL the box must be among them. */
gboolean kiste_validate_existing_name       (const char          *name,
                                             const char * const  *existing_names,
                                             GError             **error);

/* A hostname: RFC 1123 labels separated by dots, at most 64 characters. */
gboolean kiste_validate_hostname            (const char          *hostname,
                                             GError             **error);

/* When a box gets its own network namespace and no hostname, distrobox names
 * it "NAME.<host name>", which must fit in 64 characters. host_name NULL
 * means this machine's (g_get_host_name()). */
gboolean kiste_validate_default_hostname    (const char          *name,
                                             const char          *host_name,
                                             GError             **error);

/* An image reference: [registry[:port]/]path[:tag][@sha256:hex], lowercase
 * path components, nothing a shell would interpret. */
gboolean kiste_validate_image               (const char          *image,
                                             GError             **error);

/* An absolute path for the field called field_label (e.g. "The home
 * folder"): no control characters and none of $ ` " ' \. Spaces are
 * allowed. */
gboolean kiste_validate_absolute_path       (const char          *field_label,
                                             const char          *path,
                                             GError             **error);

/* "~" and "~/…" in home_dir (NULL: g_get_home_dir()), other paths as they
 * are; people type them so, and distrobox would take them literally. */
/* A program to export: a command name (no "/") or an absolute path, as
 * kiste_validate_absolute_path() wants it. */
gboolean kiste_validate_program             (const char          *program,
                                             GError             **error);
char    *kiste_validate_expand_home         (const char          *path,
                                             const char          *home_dir);

/* The two paths of one volume, each for its own message: absolute, no
 * ":" (podman splits mounts there), the host path after
 * kiste_validate_expand_home(). */
gboolean kiste_validate_volume_paths        (const char          *host_path,
                                             const char          *box_path,
                                             const char          *home_dir,
                                             GError             **error);

/* A custom home folder (an absolute path without ":", not "/"). */
gboolean kiste_validate_home                (const char          *home,
                                             GError             **error);

/* HOST:CONTAINER[:OPTIONS], both absolute, no whitespace (distrobox 1.x
 * splits volume specs on whitespace), options from podman's list. */
gboolean kiste_validate_volume              (const char          *spec,
                                             GError             **error);

/* One volume as a form holds it: its two paths, each on its own first (a
 * ":" in one would read as a split of the spec), then the spec they make
 * (NULL while the form has nothing to make one of). Either path may be
 * empty; the spec says what is missing then. */
gboolean kiste_validate_volume_entry        (const char          *host_path,
                                             const char          *box_path,
                                             const char          *spec,
                                             GError             **error);

/* A space-separated list of package names. */
gboolean kiste_validate_packages            (const char          *packages,
                                             GError             **error);

/* Commands run as root inside the box at the end of its setup. */
gboolean kiste_validate_init_hooks          (const char          *hooks,
                                             GError             **error);

/* Commands run as root inside the box at the start of its setup. */
gboolean kiste_validate_pre_init_hooks      (const char          *hooks,
                                             GError             **error);

/* os/arch[/variant], e.g. "linux/arm64" or "linux/arm/v7". */
gboolean kiste_validate_platform            (const char          *platform,
                                             GError             **error);

G_END_DECLS
