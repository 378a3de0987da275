/* kiste-boxfile-tar.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The tar headers of a box file: written as plain ustar, read back with
 * every field checked. Only regular files with plain names: no links,
 * folders, long names or extended headers, which a box file never has. */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "kiste-boxfile-private.h"
#include "kiste-error.h"

#define NAME_FIELD 100
#define MODE_OFFSET 100
#define SIZE_OFFSET 124
#define SIZE_FIELD 12
#define MTIME_OFFSET 136
#define CHECKSUM_OFFSET 148
#define TYPE_OFFSET 156
#define MAGIC_OFFSET 257

static guint
header_checksum (const guchar block[KISTE_TAR_BLOCK])
{
  guint sum = 0;

  for (guint i = 0; i < KISTE_TAR_BLOCK; i++)
    sum += (i >= CHECKSUM_OFFSET && i < CHECKSUM_OFFSET + 8) ? ' ' : block[i];
  return sum;
}

void
_kiste_boxfile_tar_header (guchar      block[KISTE_TAR_BLOCK],
                           const char *name,
                           guint64     size)
{
  gsize len = strlen (name);
  char field[16];

  g_return_if_fail (len > 0 && len < NAME_FIELD);

  memset (block, 0, KISTE_TAR_BLOCK);
  memcpy (block, name, len);
  memcpy (block + MODE_OFFSET, "0000644", 8);
  memcpy (block + 108, "0000000", 8);
  memcpy (block + 116, "0000000", 8);
  if (size < G_GUINT64_CONSTANT (077777777777))
    {
      g_snprintf (field, sizeof field, "%011" G_GINT64_MODIFIER "o", size);
      memcpy (block + SIZE_OFFSET, field, SIZE_FIELD);
    }
  else
    {
      /* GNU's base-256: the high bit of the first byte, then big-endian */
      block[SIZE_OFFSET] = 0x80;
      for (guint i = 0; i < 8; i++)
        block[SIZE_OFFSET + SIZE_FIELD - 1 - i] = (size >> (8 * i)) & 0xff;
    }
  memcpy (block + MTIME_OFFSET, "00000000000", 12);
  block[TYPE_OFFSET] = '0';
  memcpy (block + MAGIC_OFFSET, "ustar\0" "00", 8);
  g_snprintf (field, sizeof field, "%06o", header_checksum (block));
  memcpy (block + CHECKSUM_OFFSET, field, 7);
  block[CHECKSUM_OFFSET + 7] = ' ';
}

static gboolean
parse_octal (const guchar *field,
             gsize         length,
             guint64      *value)
{
  guint64 result = 0;
  gsize i = 0;
  gboolean digits = FALSE;

  while (i < length && field[i] == ' ')
    i++;
  for (; i < length && field[i] >= '0' && field[i] <= '7'; i++)
    {
      if (result > (G_MAXUINT64 >> 3))
        return FALSE;
      result = (result << 3) | (guint64) (field[i] - '0');
      digits = TRUE;
    }
  for (; i < length; i++)
    if (field[i] != ' ' && field[i] != '\0')
      return FALSE;
  *value = result;
  return digits;
}

static gboolean
parse_size (const guchar *field,
            guint64      *size)
{
  if (field[0] == 0x80)
    {
      guint64 result = 0;

      /* base-256: more than 8 bytes of value would overflow */
      for (guint i = 1; i < SIZE_FIELD - 8; i++)
        if (field[i] != 0)
          return FALSE;
      for (guint i = SIZE_FIELD - 8; i < SIZE_FIELD; i++)
        result = (result << 8) | field[i];
      *size = result;
      return TRUE;
    }
  return parse_octal (field, SIZE_FIELD, size);
}

static gboolean
is_plain_name (const char *name)
{
  if (name[0] == '\0' || g_str_equal (name, ".") || g_str_equal (name, ".."))
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (*p == '/' || *p == '\\' || (guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return g_utf8_validate (name, -1, NULL);
}

gboolean
_kiste_boxfile_tar_read_header (const guchar   block[KISTE_TAR_BLOCK],
                                char         **name,
                                guint64       *size,
                                gboolean      *end,
                                GError       **error)
{
  guint64 stored = 0;
  char plain[NAME_FIELD + 1];
  gboolean zero = TRUE;

  for (guint i = 0; i < KISTE_TAR_BLOCK && zero; i++)
    zero = block[i] == 0;
  *end = zero;
  if (zero)
    return TRUE;

  if (!parse_octal (block + CHECKSUM_OFFSET, 8, &stored) || stored != header_checksum (block))
    return kiste_set_invalid_input (error, _("The box file is damaged: a header’s checksum is "
                                             "wrong."));
  if (block[TYPE_OFFSET] != '0' && block[TYPE_OFFSET] != '\0')
    return kiste_set_invalid_input (error, _("The box file holds something other than plain "
                                             "files."));
  /* a prefix field (ustar's long names) is not used by box files */
  if (memcmp (block + MAGIC_OFFSET, "ustar", 5) == 0 && block[345] != '\0')
    return kiste_set_invalid_input (error, _("The box file holds a member with a path."));

  memcpy (plain, block, NAME_FIELD);
  plain[NAME_FIELD] = '\0';
  if (!is_plain_name (plain))
    return kiste_set_invalid_input (error, _("The box file holds a member with a path."));
  if (!parse_size (block + SIZE_OFFSET, size))
    return kiste_set_invalid_input (error, _("The box file is damaged: a member’s size cannot "
                                             "be read."));
  *name = g_strdup (plain);
  return TRUE;
}
