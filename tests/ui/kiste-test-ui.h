/* kiste-test-ui.h
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "kiste-fake-runner.h"
#include "kiste-manager.h"
#include "kiste-test-util.h"

G_BEGIN_DECLS

/* gtk_test_init() and adw_init(), without animations so screenshots show
 * finished transitions; a crash prints its stack */
void       kiste_test_init           (int         *argc,
                                      char      ***argv);
/* A crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE) prints its stack to stderr
 * before the process dies of it, so that a rare crash in a CI log can be
 * traced; sanitizer builds keep their own reports */
void       kiste_test_catch_crashes  (void);
/* Runs the main loop until every widget has been drawn */
void       kiste_test_flush          (GtkWidget  *widget);
/* Runs what is pending on the main context */
void       kiste_test_flush_main_context (void);
/* First descendant of type, and with accessible label (when not NULL) */
GtkWidget *kiste_test_find_widget    (GtkWidget  *root,
                                      GType       type,
                                      const char *label);
/* Saves a PNG of widget to $KISTE_SCREENSHOT_DIR/name.png when set */
void       kiste_test_screenshot     (GtkWidget  *widget,
                                      const char *name);

/* Stand-ins for podman, distrobox and Toolbx, see kiste_test_set_world();
 * without a word on Toolbx, `toolbox` is missing */
typedef enum
{
  KISTE_TEST_WORLD_BOXES,        /* distrobox and podman, the captured boxes */
  KISTE_TEST_WORLD_EMPTY,        /* distrobox and podman, no boxes */
  KISTE_TEST_WORLD_NO_DISTROBOX,
  KISTE_TEST_WORLD_PS_FAILS,
  KISTE_TEST_WORLD_SHOWCASE,     /* boxes of several distributions, for screenshots */
  KISTE_TEST_WORLD_TOOLBX,       /* distrobox, Toolbx and podman: two distroboxes and a toolbox */
  KISTE_TEST_WORLD_TOOLBX_ONLY,  /* Toolbx and podman without distrobox (Silverblue): a toolbox */
  KISTE_TEST_WORLD_TOOLBX_EMPTY, /* Toolbx and podman without distrobox, no boxes */
} KisteTestWorld;

/* Makes runner answer like world: every command a small shell script
 * chosen by what was asked, so widgets go through the real core (in every
 * world the session has a systemd user manager and no box starts at
 * login). Count
 * `podman ps` runs with kiste_fake_runner_count (runner, "podman ps"). */
void          kiste_test_set_world        (KisteFakeRunner *runner,
                                           KisteTestWorld   world);
/* A manager on a KisteFakeRunner in world, host home /home/tester */
KisteManager *kiste_test_manager_new      (KisteTestWorld   world);

/* A manager for tests of what boxes export, on a KisteFakeRunner: distrobox
 * 1.8.2.5 and podman, the boxes of ps-podman5.json listed through `podman
 * ps` as /home/tester's, `rm` run for real, and a temporary "host" folder
 * (dir, named after dir_template) whose applications/ and bin/ the exports
 * go to. Tests add the runner's other rules. */
typedef struct
{
  KisteFakeRunner *runner;
  KisteManager    *manager;
  char            *dir;
  char            *applications;
  char            *bin;
} KisteTestHost;

void          kiste_test_host_init        (KisteTestHost   *host,
                                           const char      *dir_template);
/* Once the widgets are gone: the manager and the runner are let go of
 * (cancelled reads hold the runner until their processes are reaped), the
 * folder removed */
void          kiste_test_host_clear       (KisteTestHost   *host);

G_END_DECLS
