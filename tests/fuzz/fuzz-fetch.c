/* fuzz-fetch.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A web server's answer to a manifest download: the status line, the
 * headers and the body, read as the download reads them from the
 * connection. */

#include "config.h"

#include <string.h>

#include "kiste-error.h"
#include "kiste-fetch-private.h"
#include "kiste-fuzz.h"

/* Manifests are at most this big */
#define MANIFEST_MAX_SIZE (1024 * 1024)

static char *
read_answer (const uint8_t  *data,
             size_t          size,
             gsize           read_size,
             gsize          *length,
             GError        **error)
{
  char *text = _kiste_fetch_read_answer (data, size, read_size, length, error);

  if (text != NULL)
    {
      g_assert_no_error (*error);
      g_assert_cmpuint (strlen (text), ==, *length);
      g_assert_cmpuint (*length, <=, MANIFEST_MAX_SIZE);
      g_assert_true (g_utf8_validate (text, -1, NULL));
    }
  else
    {
      g_assert_nonnull (*error);
      g_assert_cmpuint ((*error)->domain, ==, KISTE_ERROR);
      /* the server's words are quoted in it */
      g_assert_true (g_utf8_validate ((*error)->message, -1, NULL));
      g_assert_cmpuint (*length, ==, 0);
    }

  return text;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *whole = NULL;
  g_autofree char *split = NULL;
  g_autoptr(GError) whole_error = NULL;
  g_autoptr(GError) split_error = NULL;
  gsize whole_length = 0;
  gsize split_length = 0;
  /* the network cuts the answer anywhere: the last byte picks where, in
   * at most about 30 reads (each read scans the head so far again) */
  gsize read_size = MAX (1 + (size > 0 ? data[size - 1] % 61 : 0), size / 30);

  kiste_fuzz_init ();

  whole = read_answer (data, size, G_MAXSIZE, &whole_length, &whole_error);
  split = read_answer (data, size, read_size, &split_length, &split_error);

  /* the same answer, however it arrived */
  g_assert_cmpstr (whole, ==, split);
  g_assert_cmpuint (whole_length, ==, split_length);
  if (whole_error != NULL)
    {
      g_assert_error (split_error, whole_error->domain, whole_error->code);
      g_assert_cmpstr (split_error->message, ==, whole_error->message);
    }

  return 0;
}
