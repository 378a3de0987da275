/* kiste-boxfile.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A box file (.kistebox): one tar archive holding a box's image (as the
 * engine saved it), its settings as a distrobox.ini section, the apps it
 * exported to the host's menu and, when asked for, its own home folder,
 * with index.json last: the format, the box's name, tool and engine, the
 * Kiste that wrote it and the size and SHA-256 of every other member.
 *
 * Writing goes through a temporary file beside the chosen one, renamed
 * at the end; a cancel or a failure removes it. Reading treats the file as
 * a stranger's: every header, name and size is bounded and checked, the
 * large members are copied out while their checksums are computed, and
 * nothing is returned unless every member matches the index. */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The format this Kiste writes, and the newest it reads */
#define KISTE_BOXFILE_FORMAT 1

#define KISTE_BOXFILE_INDEX    "index.json"
#define KISTE_BOXFILE_IMAGE    "image.tar"
#define KISTE_BOXFILE_SETTINGS "distrobox.ini"
#define KISTE_BOXFILE_APPS     "apps.txt"
#define KISTE_BOXFILE_HOME     "home.tar"

/* Limits of what a reader takes */
#define KISTE_BOXFILE_MAX_INDEX  (64 * 1024)
#define KISTE_BOXFILE_MAX_TEXT   (1024 * 1024)
#define KISTE_BOXFILE_MAX_LARGE  (G_GUINT64_CONSTANT (256) * 1024 * 1024 * 1024)
#define KISTE_BOXFILE_MAX_APPS   200

/* Where every box file's image is named: a file naming any other image
 * could retag one of the user's own when the engine loads it */
#define KISTE_BOXFILE_IMAGE_PREFIX "localhost/kiste-saved/"

#define KISTE_TYPE_BOXFILE (kiste_boxfile_get_type ())

typedef struct
{
  guint    format;
  /* the box's name */
  char    *name;
  /* "distrobox" or "toolbx" */
  char    *tool;
  /* "podman" or "docker" */
  char    *engine;
  char    *kiste_version;
  /* the image's name in image_path, as the engine loads it */
  char    *image;
  /* the box's settings as a distrobox.ini section */
  char    *settings;
  /* desktop ids (org.example.App.desktop) of the apps it exported */
  char   **apps;
  /* the engine's archive of the image, and a tar of the home (or NULL):
   * what the writer puts in, or where the reader copied them out */
  char    *image_path;
  char    *home_path;
  guint64  image_size;
  guint64  home_size;
} KisteBoxfile;

/* done and total in bytes, on the caller's main context */
typedef void (*KisteBoxfileProgress) (guint64  done,
                                      guint64  total,
                                      gpointer user_data);

GType         kiste_boxfile_get_type       (void) G_GNUC_CONST;
KisteBoxfile *kiste_boxfile_new            (void);
KisteBoxfile *kiste_boxfile_copy           (const KisteBoxfile   *self);
void          kiste_boxfile_free           (KisteBoxfile         *self);

/* Checks what a box file may hold: name, tool, engine, image, apps;
 * KISTE_ERROR_INVALID_INPUT saying what is wrong */
gboolean      kiste_boxfile_check          (const KisteBoxfile   *self,
                                            GError              **error);

/* Checks what `podman load` or `docker load` printed (at most 64 KiB):
 * each "Loaded image: NAME" (or "Loaded image(s): NAME,NAME") line must
 * name image and nothing else, and at least one must; other lines are
 * the engine's progress. KISTE_ERROR_BAD_OUTPUT otherwise. */
gboolean      kiste_boxfile_check_loaded   (const char           *output,
                                            const char           *image,
                                            GError              **error);
/* The image id in what `podman pull --quiet` or `podman image inspect
 * --format {{.Id}}` printed (at most 64 KiB): one line must be a 64-digit
 * id (expected, when not NULL), other lines are the engine's warnings.
 * NULL and KISTE_ERROR_BAD_OUTPUT otherwise, naming image. */
char         *kiste_boxfile_parse_image_id (const char           *output,
                                            const char           *image,
                                            const char           *expected,
                                            GError              **error);

/* Checks the names an engine's image archive (image.tar) gives what it
 * loads, before it is loaded: an OCI index's annotations, docker's
 * manifest.json RepoTags and its repositories file must name image and
 * nothing else, and one of them must. Reads only the archive's headers
 * and those files, each within a bound. KISTE_ERROR_INVALID_INPUT saying
 * why otherwise. engine ("podman", "docker") is the box file's: docker
 * writes the tag alone beside its whole name in an OCI index.
 * docker_archive (may be NULL) tells whether it is a docker archive
 * without an OCI index, which podman can pull from without unpacking. */
gboolean      kiste_boxfile_check_image_archive        (const char          *path,
                                                        const char          *engine,
                                                        const char          *image,
                                                        gboolean            *docker_archive,
                                                        GCancellable        *cancellable,
                                                        GError             **error);
void          kiste_boxfile_check_image_archive_async  (const char          *path,
                                                        const char          *engine,
                                                        const char          *image,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
gboolean      kiste_boxfile_check_image_archive_finish (GAsyncResult        *result,
                                                        gboolean            *docker_archive,
                                                        GError             **error);

/* index.json for self with the checksums in members (name → "SIZE SHA256") */
char         *kiste_boxfile_build_index    (const KisteBoxfile   *self,
                                            GHashTable           *members);
/* Reads index.json into a new KisteBoxfile (without settings and apps)
 * and members (name → "SIZE SHA256"); refuses a newer format */
KisteBoxfile *kiste_boxfile_parse_index    (const char           *data,
                                            gsize                 length,
                                            GHashTable          **members,
                                            GError              **error);

/* Writes self (image_path, settings, apps, home_path when set) to path
 * at once (kiste-boxfile-writer.h writes one member at a time) */
gboolean      kiste_boxfile_write          (const KisteBoxfile   *self,
                                            const char           *path,
                                            KisteBoxfileProgress  progress,
                                            gpointer              progress_data,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* Reads and verifies the box file at path, copying its image and home out
 * into extract_dir (an existing, empty folder) */
KisteBoxfile *kiste_boxfile_read           (const char           *path,
                                            const char           *extract_dir,
                                            KisteBoxfileProgress  progress,
                                            gpointer              progress_data,
                                            GCancellable         *cancellable,
                                            GError              **error);
void          kiste_boxfile_read_async     (const char           *path,
                                            const char           *extract_dir,
                                            KisteBoxfileProgress  progress,
                                            gpointer              progress_data,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
KisteBoxfile *kiste_boxfile_read_finish    (GAsyncResult         *result,
                                            GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KisteBoxfile, kiste_boxfile_free)

G_END_DECLS
