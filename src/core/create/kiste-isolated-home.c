/* kiste-isolated-home.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Home isolation on a distrobox that has no flag for it: take the `podman
 * create` command that `distrobox create --dry-run` prints (one argument
 * per line, quoted for sh), split it without a shell and check every line
 * (the parts), then build the command of a box without every mount that
 * exposes the user's home. What stays shared is what the Isolation group
 * of the details page lists. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-isolated-home.h"

#define UNSHARE_HOME_LABEL "distrobox.unshare_home=1"
#define UNSHARE_HOME_ENV   "DISTROBOX_UNSHARE_HOME=1"

struct _KisteIsolatedHomeDryRun
{
  /* the engine and "create" */
  char      **command;
  /* (element-type GStrv): the option lines before the image */
  GPtrArray  *options;
  char       *image;
  /* (element-type GStrv): the entrypoint's argument lines up to "--" */
  GPtrArray  *init_args;
  /* the box's home, the entrypoint's --home */
  char       *box_home;
  /* the init hook after "--"; NULL or "" for none */
  char       *hook;
};

void
kiste_isolated_home_dry_run_free (KisteIsolatedHomeDryRun *dry_run)
{
  if (dry_run == NULL)
    return;

  g_clear_pointer (&dry_run->command, g_strfreev);
  g_clear_pointer (&dry_run->options, g_ptr_array_unref);
  g_clear_pointer (&dry_run->image, g_free);
  g_clear_pointer (&dry_run->init_args, g_ptr_array_unref);
  g_clear_pointer (&dry_run->box_home, g_free);
  g_clear_pointer (&dry_run->hook, g_free);
  g_free (dry_run);
}

static gboolean
shape_error (GError     **error,
             const char  *line)
{
  g_set_error (error, KISTE_ERROR, KISTE_ERROR_BAD_OUTPUT,
               _("Home isolation is not available: the installed distrobox prepares boxes in a way "
                 "Kiste does not know (“%s”)"),
               line);
  return FALSE;
}

/* Parsing ----------------------------------------------------------------- */

/* The spec of a --volume line (-v, --volume=), or NULL for another option */
static const char *
volume_spec (char **tokens)
{
  if (g_str_equal (tokens[0], "--volume") || g_str_equal (tokens[0], "-v"))
    return tokens[1];
  if (g_str_has_prefix (tokens[0], "--volume="))
    return tokens[0] + strlen ("--volume=");
  return NULL;
}

/* A volume is SOURCE:DESTINATION[:OPTIONS] of absolute paths, or an
 * anonymous one such as /dev/pts: anything else cannot be told safe */
static gboolean
check_option (char        **tokens,
              const char   *line,
              GError      **error)
{
  guint n = g_strv_length (tokens);
  const char *spec;
  g_auto(GStrv) parts = NULL;
  guint n_parts;

  if (g_str_equal (tokens[0], "--volume") || g_str_equal (tokens[0], "-v"))
    {
      if (n != 2)
        return shape_error (error, line);
    }
  else if (g_str_has_prefix (tokens[0], "--volume="))
    {
      if (n != 1)
        return shape_error (error, line);
    }
  else
    return TRUE;

  spec = volume_spec (tokens);
  parts = g_strsplit (spec, ":", -1);
  n_parts = g_strv_length (parts);
  if (n_parts == 0)
    return shape_error (error, line);  /* an empty spec has no source */
  if (n_parts == 1)
    return TRUE;
  if (n_parts > 3 || parts[0][0] != '/' || parts[1][0] != '/')
    return shape_error (error, line);

  return TRUE;
}

/* The entrypoint's arguments: its --home is the box's home, and "--" and
 * the init hook end the command */
static gboolean
take_init_arg (KisteIsolatedHomeDryRun  *dry_run,
               char                    **tokens,
               const char               *line,
               gboolean                 *ended,
               GError                  **error)
{
  guint n = g_strv_length (tokens);

  if (*ended)
    return shape_error (error, line);

  if (g_str_equal (tokens[0], "--home"))
    {
      if (n != 2 || tokens[1][0] != '/')
        return shape_error (error, line);
      g_set_str (&dry_run->box_home, tokens[1]);
    }
  else if (g_str_equal (tokens[0], "--"))
    {
      if (n > 2 || dry_run->box_home == NULL)
        return shape_error (error, line);
      dry_run->hook = n == 2 ? g_strdup (tokens[1]) : NULL;
      *ended = TRUE;
      return TRUE;
    }

  g_ptr_array_add (dry_run->init_args, g_strdupv (tokens));
  return TRUE;
}

/**
 * kiste_isolated_home_parse_dry_run:
 * @dry_run: what `distrobox create --dry-run …` printed on stdout
 * @error: set when the output has a shape Kiste does not know
 *
 * Splits the dry run into the engine's command, its options, the image and
 * the entrypoint's arguments. Each line is split without a shell (quote
 * removal only): a line that would need one ($, backticks, backslashes) is
 * refused, as is anything else Kiste does not know, rather than half
 * understood.
 *
 * Returns: (transfer full): the parts
 */
KisteIsolatedHomeDryRun *
kiste_isolated_home_parse_dry_run (const char  *dry_run,
                                   GError     **error)
{
  g_autoptr(KisteIsolatedHomeDryRun) parts = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean has_entrypoint = FALSE;
  gboolean ended = FALSE;

  g_return_val_if_fail (dry_run != NULL, NULL);

  parts = g_new0 (KisteIsolatedHomeDryRun, 1);
  parts->options = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  parts->init_args = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  lines = g_strsplit (dry_run, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) parse_error = NULL;
      g_auto(GStrv) tokens = NULL;
      const char *line = g_strstrip (lines[i]);

      if (line[0] == '\0')
        continue;

      /* quote removal only: anything that needs a shell is refused */
      if (strpbrk (line, "$`\\") != NULL ||
          !g_shell_parse_argv (line, NULL, &tokens, &parse_error))
        {
          shape_error (error, line);
          return NULL;
        }

      if (parts->command == NULL)
        {
          g_autofree char *program = g_path_get_basename (tokens[0]);

          if (g_strv_length (tokens) != 2 || !g_str_equal (tokens[1], "create") ||
              !(g_str_equal (program, "podman") || g_str_equal (program, "docker")))
            {
              shape_error (error, line);
              return NULL;
            }
          parts->command = g_steal_pointer (&tokens);
        }
      else if (parts->image == NULL && tokens[0][0] != '-')
        {
          if (g_strv_length (tokens) != 1 || !has_entrypoint)
            {
              shape_error (error, line);
              return NULL;
            }
          parts->image = g_strdup (tokens[0]);
        }
      else if (parts->image == NULL)
        {
          if (!check_option (tokens, line, error))
            return NULL;
          if (g_str_equal (tokens[0], "--entrypoint") || g_str_has_prefix (tokens[0], "--entrypoint="))
            has_entrypoint = TRUE;
          g_ptr_array_add (parts->options, g_steal_pointer (&tokens));
        }
      else if (!take_init_arg (parts, tokens, line, &ended, error))
        return NULL;
    }

  if (parts->command == NULL || parts->image == NULL || !ended)
    {
      shape_error (error, parts->command == NULL ? _("no command") :
                          parts->image == NULL ? _("no image") : _("no init arguments"));
      return NULL;
    }

  return g_steal_pointer (&parts);
}

/* Building ---------------------------------------------------------------- */

typedef struct
{
  const KisteIsolatedHomeHost *host;
  char         *var_home_user;    /* /var/home/$USER */
  GStrvBuilder *out;
  GPtrArray    *masks;            /* tmpfs destinations, in order, once each */
  gboolean      has_label;
  gboolean      has_env;
} Build;

static void
add_mask (Build      *b,
          const char *destination)
{
  for (guint i = 0; i < b->masks->len; i++)
    if (g_str_equal (g_ptr_array_index (b->masks, i), destination))
      return;
  g_ptr_array_add (b->masks, g_strdup (destination));
}

/* path is source or below it */
static const char *
path_below (const char *path,
            const char *source)
{
  gsize len = strlen (source);

  if (g_str_equal (source, "/"))
    return path + 1;
  if (strncmp (path, source, len) == 0 && path[len] == '/')
    return path + len + 1;
  return NULL;
}

/* Returns FALSE to leave the volume out */
static gboolean
keep_volume (Build      *b,
             const char *spec)
{
  const KisteIsolatedHomeHost *host = b->host;
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  const char *src, *dst, *below;

  if (g_strv_length (parts) == 1)
    return TRUE;  /* an anonymous volume such as /dev/pts */

  src = parts[0];
  dst = parts[1];

  /* the three mounts the seed's home isolation skips */
  if ((g_str_equal (src, host->host_home) && g_str_equal (dst, host->host_home)) ||
      (host->runtime_dir != NULL &&
       g_str_equal (src, host->runtime_dir) && g_str_equal (dst, host->runtime_dir)) ||
      (b->var_home_user != NULL &&
       g_str_equal (src, b->var_home_user) && g_str_equal (dst, b->var_home_user)))
    return FALSE;

  /* every home of the host, at /run/host/home: a tmpfs in its place (a
   * second mount at the same destination is refused by podman) */
  if (g_str_equal (src, "/home") && g_str_equal (dst, "/run/host/home"))
    {
      add_mask (b, dst);
      return FALSE;
    }

  /* /var at /run/host/var shows /var/home on ostree hosts */
  if (host->host_has_var_home && g_str_equal (src, "/var"))
    {
      g_autofree char *mask = g_build_filename (dst, "home", NULL);
      add_mask (b, mask);
    }

  /* /run at /run/host/run still shows the runtime directory: its session
   * bus could ask the host to run anything, so it goes too */
  if (host->runtime_dir != NULL && (below = path_below (host->runtime_dir, src)) != NULL)
    {
      g_autofree char *mask = g_build_filename (dst, below, NULL);
      add_mask (b, mask);
    }

  /* any other mount above the home: mask the folder it shows it through */
  below = path_below (host->host_home, src);
  if (below != NULL)
    {
      const char *slash = strchr (below, '/');
      g_autofree char *first = slash ? g_strndup (below, slash - below) : g_strdup (below);
      g_autofree char *mask = g_build_filename (dst, first, NULL);

      add_mask (b, mask);
    }

  return TRUE;
}

/* Returns FALSE to leave the option out */
static gboolean
keep_option (Build  *b,
             char  **tokens)
{
  const char *spec = volume_spec (tokens);
  guint n = g_strv_length (tokens);

  if (spec != NULL)
    return keep_volume (b, spec);

  if (n == 2 && g_str_equal (tokens[0], "--label") &&
      g_str_has_prefix (tokens[1], "distrobox.unshare_home="))
    {
      /* a patched distrobox sets it already */
      if (!g_str_equal (tokens[1], UNSHARE_HOME_LABEL))
        return FALSE;
      b->has_label = TRUE;
    }
  else if (n == 2 && g_str_equal (tokens[0], "--env") &&
           g_str_has_prefix (tokens[1], "DISTROBOX_UNSHARE_HOME="))
    {
      if (!g_str_equal (tokens[1], UNSHARE_HOME_ENV))
        return FALSE;
      b->has_env = TRUE;
    }

  return TRUE;
}

static void
add_before_image (Build *b)
{
  for (guint i = 0; i < b->masks->len; i++)
    {
      g_strv_builder_add (b->out, "--mount");
      /* notmpcopyup: podman would otherwise fill the tmpfs with what it
       * covers, which under /run/host is the host's own folder */
      g_strv_builder_take (b->out, g_strconcat ("type=tmpfs,destination=",
                                                (const char *) g_ptr_array_index (b->masks, i),
                                                ",notmpcopyup",
                                                NULL));
    }
  if (!b->has_label)
    g_strv_builder_add_many (b->out, "--label", UNSHARE_HOME_LABEL, NULL);
  if (!b->has_env)
    g_strv_builder_add_many (b->out, "--env", UNSHARE_HOME_ENV, NULL);
}

/* distrobox-init of 1.8 does not make the home it skips mounting, and an
 * image made from another box may hold an empty, root-owned mount point
 * there. An init hook (run as root at the end of init, through its eval)
 * makes it the user's: from /etc/skel, owned by the user, mode 755. A home
 * that is already the user's, such as a separate home folder, is left as
 * it is. Built from the checked home path, quoted, and numbers only. */
static char *
dup_home_hook (const char                  *box_home,
               const KisteIsolatedHomeHost *host,
               const char                  *existing)
{
  g_autofree char *q = g_shell_quote (box_home);
  g_autofree char *ours = NULL;
  guint uid = host->uid;
  guint gid = host->gid;

  ours = g_strdup_printf ("mkdir -p %s && if test \"$(stat -c %%u %s)\" != %u; then "
                          "cp -a -n /etc/skel/. %s 2>/dev/null; chown -R %u:%u %s && chmod 755 %s; fi",
                          q, q, uid, q, uid, gid, q, q);
  if (existing == NULL || existing[0] == '\0')
    return g_steal_pointer (&ours);
  return g_strconcat (ours, "; ", existing, NULL);
}

/**
 * kiste_isolated_home_build_argv:
 * @dry_run: the parts of the dry run
 * @host: where the user's home is on the host
 *
 * The argv of the container manager's create command for a box that
 * cannot see the user's home: the home, runtime directory and
 * /var/home/$USER mounts are left out, the host's homes under /run/host are
 * covered with empty tmpfs mounts, the box is labelled
 * `distrobox.unshare_home=1`, and init makes the box's own home.
 *
 * Returns: (transfer full): the argv, starting with the manager
 */
char **
kiste_isolated_home_build_argv (const KisteIsolatedHomeDryRun *dry_run,
                                const KisteIsolatedHomeHost   *host)
{
  g_autoptr(GPtrArray) masks = NULL;
  g_autoptr(GStrvBuilder) out = NULL;
  g_autofree char *var_home_user = NULL;
  g_autofree char *hook = NULL;
  Build b = { 0 };

  g_return_val_if_fail (dry_run != NULL, NULL);
  g_return_val_if_fail (host != NULL && host->host_home != NULL && host->host_home[0] == '/', NULL);

  masks = g_ptr_array_new_with_free_func (g_free);
  out = g_strv_builder_new ();
  if (host->user_name != NULL && host->user_name[0] != '\0')
    var_home_user = g_build_filename ("/var/home", host->user_name, NULL);

  b.host = host;
  b.var_home_user = var_home_user;
  b.out = out;
  b.masks = masks;

  g_strv_builder_addv (out, (const char **) dry_run->command);
  for (guint i = 0; i < dry_run->options->len; i++)
    {
      char **tokens = g_ptr_array_index (dry_run->options, i);

      if (keep_option (&b, tokens))
        g_strv_builder_addv (out, (const char **) tokens);
    }
  add_before_image (&b);
  g_strv_builder_add (out, dry_run->image);

  for (guint i = 0; i < dry_run->init_args->len; i++)
    g_strv_builder_addv (out, (const char **) g_ptr_array_index (dry_run->init_args, i));
  hook = dup_home_hook (dry_run->box_home, host, dry_run->hook);
  g_strv_builder_add_many (out, "--", hook, NULL);

  return g_strv_builder_end (out);
}

char **
kiste_isolated_home_argv_from_dry_run (const char                  *dry_run,
                                       const KisteIsolatedHomeHost *host,
                                       GError                     **error)
{
  g_autoptr(KisteIsolatedHomeDryRun) parts = NULL;

  g_return_val_if_fail (dry_run != NULL, NULL);
  g_return_val_if_fail (host != NULL && host->host_home != NULL && host->host_home[0] == '/', NULL);

  if (!(parts = kiste_isolated_home_parse_dry_run (dry_run, error)))
    return NULL;

  return kiste_isolated_home_build_argv (parts, host);
}
