/* kiste-assemble-state-private.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* What the manifest files share:
 * kiste-assemble.c        entries, the keys of a section, the parse entry points
 * kiste-assemble-lex.c    lines, sections and includes
 * kiste-assemble-shell.c  values as distrobox 1.x's sh reads them
 * kiste-assemble-write.c  manifests written */

#pragma once

#include "kiste-assemble-private.h"

G_BEGIN_DECLS

/* A section as written, from kiste-assemble-lex.c: its key=value lines */
typedef struct
{
  char     *key;
  char     *value;   /* as written, spaces around it removed */
  guint     line;
  /* a space after "=", which distrobox 1.x keeps in the value */
  gboolean  spaced;
} RawPair;

typedef struct
{
  char      *name;
  GPtrArray *pairs;   /* RawPair */
} RawSection;

/* Limits on includes, which distrobox expands without any: a small file
 * whose sections each include the next twice would grow to billions of
 * lines, and a long chain of includes would exhaust the stack. Real
 * manifests stay far below both. */
#define MAX_INCLUDE_DEPTH   32
#define MAX_INCLUDED_PAIRS  10000

/* What a reading depends on: the installed distrobox, and the home folder
 * and login name distrobox's shell would fill in */
typedef struct
{
  /* 0 when unknown: read as 1.x */
  guint       distrobox_major;
  /* for messages, or NULL */
  const char *distrobox_version;
  const char *home;
  const char *user;
} Reader;

/* How kiste-assemble-shell.c reads a value, and why it would not */
typedef enum
{
  WORD_ASSIGNMENT,  /* the value of a NAME=value line distrobox sources */
  WORD_ARGUMENT,    /* one argument of a command distrobox evals */
} WordKind;

typedef enum
{
  SHELL_OK,
  SHELL_COMMAND,    /* $(…) or `…` */
  SHELL_VARIABLE,   /* another variable or ~user; detail: as written */
  SHELL_CODE,       /* operators, unquoted spaces or patterns, open quotes */
} ShellProblem;

/* The unshare_* keys and what each unshares, in the order they are written */
typedef struct
{
  const char   *key;
  KisteUnshare  what;
} UnshareKey;

extern const UnshareKey _kiste_assemble_unshare_keys[KISTE_N_UNSHARE];

/* kiste-assemble-lex.c */
char       *_kiste_assemble_unquote           (const char    *value);
GPtrArray  *_kiste_assemble_lex               (const char    *data,
                                               GError       **error);
GHashTable *_kiste_assemble_index_sections    (GPtrArray     *sections);
gboolean    _kiste_assemble_flatten           (GHashTable    *by_name,
                                               RawSection    *section,
                                               GPtrArray     *stack,
                                               GPtrArray     *out,
                                               guint         *budget,
                                               GError       **error);

/* kiste-assemble-shell.c */
char       *_kiste_assemble_shell_word        (const char    *text,
                                               WordKind       kind,
                                               const Reader  *reader,
                                               ShellProblem  *problem,
                                               char         **detail);
char       *_kiste_assemble_read_sourced      (const char    *raw,
                                               const Reader  *reader,
                                               ShellProblem  *problem,
                                               char         **detail);
char       *_kiste_assemble_read_argument     (const char    *value,
                                               const Reader  *reader,
                                               ShellProblem  *problem,
                                               char         **detail);
char       *_kiste_assemble_read_value        (const char    *raw,
                                               const Reader  *reader,
                                               ShellProblem  *problem,
                                               char         **detail);
char       *_kiste_assemble_dup_shell_problem (const char    *what,
                                               ShellProblem   problem,
                                               const char    *detail);
char       *_kiste_assemble_strip_hook_quotes (const char    *raw);

G_END_DECLS
