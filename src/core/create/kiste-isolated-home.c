/* kiste-isolated-home.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Home isolation on a distrobox that has no --unshare-home: take the
 * `podman create` command that `distrobox create --dry-run` prints (one
 * argument per line, quoted for sh), split it without a shell, and remove
 * every mount that exposes the user's home. What stays shared is what the
 * Isolation group of the details page lists. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kiste-error.h"
#include "kiste-isolated-home.h"

#define UNSHARE_HOME_LABEL "distrobox.unshare_home=1"
#define UNSHARE_HOME_ENV   "DISTROBOX_UNSHARE_HOME=1"

typedef struct
{
  const KisteIsolatedHomeHost *host;
  char       *var_home_user;    /* /var/home/$USER */
  GStrvBuilder *out;
  GPtrArray  *masks;            /* tmpfs destinations, in order, once each */
  char       *box_home;
  gboolean    has_label;
  gboolean    has_env;
  gboolean    has_entrypoint;
  gboolean    has_hook;
} Rewrite;

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

static void
add_mask (Rewrite    *rw,
          const char *destination)
{
  for (guint i = 0; i < rw->masks->len; i++)
    if (g_str_equal (g_ptr_array_index (rw->masks, i), destination))
      return;
  g_ptr_array_add (rw->masks, g_strdup (destination));
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
rewrite_volume (Rewrite     *rw,
                const char  *spec,
                const char  *line,
                GError     **error)
{
  const KisteIsolatedHomeHost *host = rw->host;
  g_auto(GStrv) parts = g_strsplit (spec, ":", -1);
  guint n = g_strv_length (parts);
  const char *src, *dst, *below;
  g_autofree char *first = NULL;

  if (n == 0)
    return shape_error (error, line);  /* an empty spec has no source */
  if (n == 1)
    return TRUE;  /* an anonymous volume such as /dev/pts */
  if (n > 3 || parts[0][0] != '/' || parts[1][0] != '/')
    return shape_error (error, line);

  src = parts[0];
  dst = parts[1];

  /* the three mounts the seed's --unshare-home skips */
  if ((g_str_equal (src, host->host_home) && g_str_equal (dst, host->host_home)) ||
      (host->runtime_dir != NULL &&
       g_str_equal (src, host->runtime_dir) && g_str_equal (dst, host->runtime_dir)) ||
      (rw->var_home_user != NULL &&
       g_str_equal (src, rw->var_home_user) && g_str_equal (dst, rw->var_home_user)))
    return FALSE;

  /* every home of the host, at /run/host/home: a tmpfs in its place (a
   * second mount at the same destination is refused by podman) */
  if (g_str_equal (src, "/home") && g_str_equal (dst, "/run/host/home"))
    {
      add_mask (rw, dst);
      return FALSE;
    }

  /* /var at /run/host/var shows /var/home on ostree hosts */
  if (host->host_has_var_home && g_str_equal (src, "/var"))
    {
      g_autofree char *mask = g_build_filename (dst, "home", NULL);
      add_mask (rw, mask);
    }

  /* /run at /run/host/run still shows the runtime directory: its session
   * bus could ask the host to run anything, so it goes too */
  if (host->runtime_dir != NULL && (below = path_below (host->runtime_dir, src)) != NULL)
    {
      g_autofree char *mask = g_build_filename (dst, below, NULL);
      add_mask (rw, mask);
    }

  /* any other mount above the home: mask the folder it shows it through */
  below = path_below (host->host_home, src);
  if (below != NULL)
    {
      const char *slash = strchr (below, '/');
      g_autofree char *mask = NULL;

      first = slash ? g_strndup (below, slash - below) : g_strdup (below);
      mask = g_build_filename (dst, first, NULL);
      add_mask (rw, mask);
    }

  return TRUE;
}

static gboolean
rewrite_option (Rewrite     *rw,
                char       **tokens,
                const char  *line,
                GError     **error)
{
  guint n = g_strv_length (tokens);
  const char *spec = NULL;

  if (g_str_equal (tokens[0], "--volume") || g_str_equal (tokens[0], "-v"))
    {
      if (n != 2)
        return shape_error (error, line);
      spec = tokens[1];
    }
  else if (g_str_has_prefix (tokens[0], "--volume="))
    {
      if (n != 1)
        return shape_error (error, line);
      spec = tokens[0] + strlen ("--volume=");
    }

  if (spec != NULL)
    {
      g_autoptr(GError) local_error = NULL;

      if (!rewrite_volume (rw, spec, line, &local_error))
        {
          if (local_error != NULL)
            {
              g_propagate_error (error, g_steal_pointer (&local_error));
              return FALSE;
            }
          return TRUE;  /* left out */
        }
    }
  else if (n == 2 && g_str_equal (tokens[0], "--label") &&
           g_str_has_prefix (tokens[1], "distrobox.unshare_home="))
    {
      /* a patched distrobox sets it already */
      if (!g_str_equal (tokens[1], UNSHARE_HOME_LABEL))
        return TRUE;
      rw->has_label = TRUE;
    }
  else if (n == 2 && g_str_equal (tokens[0], "--env") &&
           g_str_has_prefix (tokens[1], "DISTROBOX_UNSHARE_HOME="))
    {
      if (!g_str_equal (tokens[1], UNSHARE_HOME_ENV))
        return TRUE;
      rw->has_env = TRUE;
    }
  else if (g_str_equal (tokens[0], "--entrypoint") || g_str_has_prefix (tokens[0], "--entrypoint="))
    rw->has_entrypoint = TRUE;

  g_strv_builder_addv (rw->out, (const char **) tokens);
  return TRUE;
}

static void
add_before_image (Rewrite *rw)
{
  for (guint i = 0; i < rw->masks->len; i++)
    {
      g_strv_builder_add (rw->out, "--mount");
      /* notmpcopyup: podman would otherwise fill the tmpfs with what it
       * covers, which under /run/host is the host's own folder */
      g_strv_builder_take (rw->out, g_strconcat ("type=tmpfs,destination=",
                                                 (const char *) g_ptr_array_index (rw->masks, i),
                                                 ",notmpcopyup",
                                                 NULL));
    }
  if (!rw->has_label)
    g_strv_builder_add_many (rw->out, "--label", UNSHARE_HOME_LABEL, NULL);
  if (!rw->has_env)
    g_strv_builder_add_many (rw->out, "--env", UNSHARE_HOME_ENV, NULL);
}

/* distrobox-init of 1.8 does not make the home it skips mounting, and an
 * image made from another box may hold an empty, root-owned mount point
 * there. An init hook (run as root at the end of init, through its eval)
 * makes it the user's: from /etc/skel, owned by the user, mode 755. A home
 * that is already the user's, such as a separate home folder, is left as
 * it is. */
static char *
dup_home_hook (Rewrite    *rw,
               const char *existing)
{
  g_autofree char *q = g_shell_quote (rw->box_home);
  g_autofree char *ours = NULL;
  guint uid = rw->host->uid;
  guint gid = rw->host->gid;

  ours = g_strdup_printf ("mkdir -p %s && if test \"$(stat -c %%u %s)\" != %u; then "
                          "cp -a -n /etc/skel/. %s 2>/dev/null; chown -R %u:%u %s && chmod 755 %s; fi",
                          q, q, uid, q, uid, gid, q, q);
  if (existing == NULL || existing[0] == '\0')
    return g_steal_pointer (&ours);
  return g_strconcat (ours, "; ", existing, NULL);
}

static gboolean
rewrite_entrypoint_arg (Rewrite     *rw,
                        char       **tokens,
                        const char  *line,
                        GError     **error)
{
  guint n = g_strv_length (tokens);

  if (g_str_equal (tokens[0], "--home"))
    {
      if (n != 2 || tokens[1][0] != '/')
        return shape_error (error, line);
      g_set_str (&rw->box_home, tokens[1]);
    }
  else if (g_str_equal (tokens[0], "--"))
    {
      g_autofree char *hook = NULL;

      if (n > 2 || rw->box_home == NULL || rw->has_hook)
        return shape_error (error, line);
      rw->has_hook = TRUE;
      hook = dup_home_hook (rw, n == 2 ? tokens[1] : NULL);
      g_strv_builder_add (rw->out, "--");
      g_strv_builder_add (rw->out, hook);
      return TRUE;
    }
  else if (rw->has_hook)
    return shape_error (error, line);

  g_strv_builder_addv (rw->out, (const char **) tokens);
  return TRUE;
}

/**
 * kiste_isolated_home_argv_from_dry_run:
 * @dry_run: what `distrobox create --dry-run …` printed on stdout
 * @host: where the user's home is on the host
 * @error: set when the output has a shape Kiste does not know
 *
 * Turns the dry run into the argv of the container manager's create
 * command for a box that cannot see the user's home: the home, runtime
 * directory and /var/home/$USER mounts are left out, the host's homes under
 * /run/host are covered with empty tmpfs mounts, the box is labelled
 * `distrobox.unshare_home=1`, and init makes the box's own home. Anything
 * unexpected is refused rather than half isolated.
 *
 * Returns: (transfer full): the argv, starting with the manager
 */
char **
kiste_isolated_home_argv_from_dry_run (const char                  *dry_run,
                                       const KisteIsolatedHomeHost *host,
                                       GError                     **error)
{
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) masks = NULL;
  g_autoptr(GStrvBuilder) out = NULL;
  g_autofree char *var_home_user = NULL;
  g_autofree char *box_home = NULL;
  Rewrite rw = { 0 };
  gboolean seen_command = FALSE;
  gboolean seen_image = FALSE;
  gboolean ok = TRUE;

  g_return_val_if_fail (dry_run != NULL, NULL);
  g_return_val_if_fail (host != NULL && host->host_home != NULL && host->host_home[0] == '/', NULL);

  masks = g_ptr_array_new_with_free_func (g_free);
  out = g_strv_builder_new ();
  if (host->user_name != NULL && host->user_name[0] != '\0')
    var_home_user = g_build_filename ("/var/home", host->user_name, NULL);

  rw.host = host;
  rw.var_home_user = var_home_user;
  rw.out = out;
  rw.masks = masks;

  lines = g_strsplit (dry_run, "\n", -1);
  for (guint i = 0; ok && lines[i] != NULL; i++)
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
          ok = shape_error (error, line);
          break;
        }

      if (!seen_command)
        {
          g_autofree char *program = g_path_get_basename (tokens[0]);

          if (g_strv_length (tokens) != 2 || !g_str_equal (tokens[1], "create") ||
              !(g_str_equal (program, "podman") || g_str_equal (program, "docker")))
            {
              ok = shape_error (error, line);
              break;
            }
          g_strv_builder_addv (out, (const char **) tokens);
          seen_command = TRUE;
        }
      else if (!seen_image && tokens[0][0] != '-')
        {
          if (g_strv_length (tokens) != 1 || !rw.has_entrypoint)
            {
              ok = shape_error (error, line);
              break;
            }
          add_before_image (&rw);
          g_strv_builder_add (out, tokens[0]);
          seen_image = TRUE;
        }
      else if (!seen_image)
        ok = rewrite_option (&rw, tokens, line, error);
      else
        ok = rewrite_entrypoint_arg (&rw, tokens, line, error);
    }

  box_home = g_steal_pointer (&rw.box_home);
  if (!ok)
    return NULL;

  if (!seen_command || !seen_image || !rw.has_hook)
    {
      shape_error (error, !seen_command ? _("no command") : !seen_image ? _("no image") : _("no init arguments"));
      return NULL;
    }

  return g_strv_builder_end (out);
}
