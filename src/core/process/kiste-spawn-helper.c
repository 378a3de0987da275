/* kiste-spawn-helper.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Starts one command for Kiste:
 *
 *   kiste-spawn-helper [--merge] MODE PARENT-PID DIRECTORY PATH ARGV0 [ARGUMENT…]
 *
 * Kiste's window holds hundreds of megabytes, and a fork() of it copies
 * its page tables while the main loop waits: tens of milliseconds for
 * every command. This small program is started without a fork
 * (posix_spawn) and does in its own process what the fork's child would
 * have done before running PATH:
 *
 *   group     a process group of its own, so a timeout or cancel reaches
 *             every process the command starts, and the end of the command
 *             when PARENT-PID dies
 *   session   a session of its own (a terminal in the Flatpak sandbox)
 *   terminal  a session with standard input as its controlling terminal
 *
 * --merge sends standard error where standard output goes (GLib's
 * posix_spawn path closes standard output when asked to merge them).
 * DIRECTORY may be empty (stay where we are). Every descriptor above
 * standard error is closed. On failure it prints why and exits with 127,
 * as a shell does. */

#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/prctl.h>
#endif

#define FAILED 127

static void
close_from (int first)
{
#ifdef HAVE_CLOSEFROM
  closefrom (first);
#else
  long max = sysconf (_SC_OPEN_MAX);

  for (long fd = first; fd < (max > 0 ? max : 1024); fd++)
    close ((int) fd);
#endif
}

int
main (int   argc,
      char *argv[])
{
  const char *mode;
  const char *directory;
  const char *path;
  char *end = NULL;
  long parent;
  int merge = 0;

  if (argc > 1 && strcmp (argv[1], "--merge") == 0)
    {
      merge = 1;
      argv[1] = argv[0];
      argv++;
      argc--;
    }

  if (argc < 6)
    {
      fprintf (stderr, "Usage: %s [--merge] group|session|terminal PARENT-PID DIRECTORY PATH ARGV0 [ARGUMENT…]\n",
               argv[0]);
      return FAILED;
    }

  mode = argv[1];
  parent = strtol (argv[2], &end, 10);
  directory = argv[3];
  path = argv[4];

  if (end == argv[2] || *end != '\0' || parent < 1)
    {
      fprintf (stderr, "%s: not a process id: %s\n", argv[0], argv[2]);
      return FAILED;
    }

  if (strcmp (mode, "group") == 0)
    {
      if (setpgid (0, 0) != 0)
        {
          fprintf (stderr, "%s: setpgid: %s\n", argv[0], strerror (errno));
          return FAILED;
        }
#ifdef __linux__
      /* SIGTERM, not SIGKILL: rootless podman passes it on to its
       * user-namespace child */
      prctl (PR_SET_PDEATHSIG, SIGTERM);
#endif
      /* Kiste is gone already: nobody would end the command */
      if (getppid () != (pid_t) parent)
        return FAILED;
    }
  else if (strcmp (mode, "session") == 0 || strcmp (mode, "terminal") == 0)
    {
      if (setsid () < 0)
        {
          fprintf (stderr, "%s: setsid: %s\n", argv[0], strerror (errno));
          return FAILED;
        }
      /* job control and the window size for the shell */
      if (strcmp (mode, "terminal") == 0)
        ioctl (STDIN_FILENO, TIOCSCTTY, 0);
    }
  else
    {
      fprintf (stderr, "%s: unknown mode: %s\n", argv[0], mode);
      return FAILED;
    }

  if (directory[0] != '\0' && chdir (directory) != 0)
    {
      fprintf (stderr, "%s: %s: %s\n", argv[0], directory, strerror (errno));
      return FAILED;
    }

  if (merge && dup2 (STDOUT_FILENO, STDERR_FILENO) < 0)
    {
      fprintf (stderr, "%s: dup2: %s\n", argv[0], strerror (errno));
      return FAILED;
    }

  close_from (STDERR_FILENO + 1);

  execv (path, argv + 5);

  /* a script without a #! line, as execvp() and GLib run it */
  if (errno == ENOEXEC)
    {
      int n = argc - 5;
      char **sh_argv = calloc ((size_t) n + 2, sizeof (char *));

      if (sh_argv != NULL)
        {
          sh_argv[0] = (char *) "/bin/sh";
          sh_argv[1] = (char *) path;
          for (int i = 1; i < n; i++)
            sh_argv[i + 1] = argv[5 + i];
          execv ("/bin/sh", sh_argv);
        }
    }

  fprintf (stderr, "%s: %s: %s\n", argv[0], path, strerror (errno));
  return FAILED;
}
