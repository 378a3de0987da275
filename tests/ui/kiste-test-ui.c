/* kiste-test-ui.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <execinfo.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <unistd.h>

#include "kiste-capabilities-private.h"
#include "kiste-manager-private.h"
#include "kiste-test-boxes.h"
#include "kiste-test-ui.h"

#if !defined(__SANITIZE_ADDRESS__)
static void
crash_handler (int signum)
{
  static const char header[] = "\n# crashed; the stack:\n";
  void *frames[64];
  int n;

  /* Only async-signal-safe calls: the heap may be what broke */
  if (write (STDERR_FILENO, header, sizeof header - 1) < 0)
    _exit (128 + signum);
  n = backtrace (frames, G_N_ELEMENTS (frames));
  backtrace_symbols_fd (frames, n, STDERR_FILENO);
  /* Die of the signal itself, as the test runner expects */
  signal (signum, SIG_DFL);
  raise (signum);
}
#endif

void
kiste_test_catch_crashes (void)
{
#if !defined(__SANITIZE_ADDRESS__)
  static char alt_stack[64 * 1024];
  const int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };
  stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof alt_stack };
  struct sigaction sa = { .sa_handler = crash_handler, .sa_flags = SA_ONSTACK | SA_RESETHAND };
  void *warm[1];

  /* backtrace() loads libgcc on first use: not inside the handler */
  backtrace (warm, 1);
  /* A stack overflow still gets a stack to run the handler on */
  sigaltstack (&ss, NULL);
  sigemptyset (&sa.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
    sigaction (signals[i], &sa, NULL);
#endif
}

void
kiste_test_init (int    *argc,
                 char ***argv)
{
  kiste_test_catch_crashes ();
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

void
kiste_test_flush (GtkWidget *widget)
{
  GdkSurface *surface;

  g_assert_nonnull (gtk_widget_get_native (widget));
  surface = gtk_native_get_surface (gtk_widget_get_native (widget));

  /* Twice: a first frame may queue another layout */
  for (guint i = 0; i < 2; i++)
    {
      if (surface != NULL)
        gdk_surface_queue_render (surface);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (20 * 1000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  gdk_display_sync (gtk_widget_get_display (widget));
}

void
kiste_test_flush_main_context (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
has_accessible_label (GtkWidget  *widget,
                      const char *label)
{
  g_autofree char *mismatch = NULL;

  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return FALSE;
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                 GTK_ACCESSIBLE_PROPERTY_LABEL,
                                                 label);
  return mismatch == NULL;
}

GtkWidget *
kiste_test_find_widget (GtkWidget  *root,
                        GType       type,
                        const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        {
          if (label == NULL || has_accessible_label (child, label))
            return child;
        }
      if ((found = kiste_test_find_widget (child, type, label)))
        return found;
    }
  return NULL;
}

void
kiste_test_screenshot (GtkWidget  *widget,
                       const char *name)
{
  const char *dir = g_getenv ("KISTE_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  GskRenderer *renderer;
  int width = 0;
  int height = 0;

  if (dir == NULL)
    return;

  kiste_test_flush (widget);
  paintable = gtk_widget_paintable_new (widget);

  /* On a loaded machine the first frame may not have been drawn yet, and
   * a widget that was never drawn gives no render node: wait for frames,
   * up to 10 s */
  for (guint attempt = 0; node == NULL && attempt < 500; attempt++)
    {
      if (attempt > 0)
        {
          g_usleep (20 * 1000);
          kiste_test_flush (widget);
        }
      width = gdk_paintable_get_intrinsic_width (paintable);
      height = gdk_paintable_get_intrinsic_height (paintable);
      if (width <= 0 || height <= 0)
        continue;
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
    }
  g_assert_cmpint (width, >, 0);
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_mkdir_with_parents (dir, 0755);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

void
kiste_test_set_world (KisteFakeRunner *runner,
                      KisteTestWorld   world)
{
  const char *ps = "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"";

  /* the rule added last wins: general ones first */
  kiste_fake_runner_set_default (runner, "exit 127");
  kiste_fake_runner_add (runner, "distrobox", "exit 0");
  kiste_fake_runner_add (runner, "distrobox --version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (runner, "distrobox version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (runner, "distrobox create",
                         "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"");
  if (world == KISTE_TEST_WORLD_NO_DISTROBOX || world == KISTE_TEST_WORLD_TOOLBX_ONLY ||
      world == KISTE_TEST_WORLD_TOOLBX_EMPTY)
    kiste_fake_runner_add (runner, "distrobox", "exit 127");
  if (world == KISTE_TEST_WORLD_TOOLBX || world == KISTE_TEST_WORLD_TOOLBX_ONLY ||
      world == KISTE_TEST_WORLD_TOOLBX_EMPTY)
    kiste_fake_runner_add (runner, "toolbox --version", "echo 'toolbox version 0.1.2'");

  kiste_fake_runner_add (runner, "podman", "exit 0");
  kiste_fake_runner_add (runner, "podman --version", "echo 'podman version 5.4.2'");
  kiste_fake_runner_add (runner, "podman events", "exec sleep 600");
  kiste_fake_runner_add (runner, "podman stop", "sleep 0.5");
  /* the details, read before anything goes through distrobox enter */
  kiste_fake_runner_add (runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  if (world == KISTE_TEST_WORLD_PS_FAILS)
    ps = "echo 'Error: database is locked' >&2; exit 125";
  else if (world == KISTE_TEST_WORLD_EMPTY || world == KISTE_TEST_WORLD_TOOLBX_EMPTY)
    ps = "echo '[]'";
  else if (world == KISTE_TEST_WORLD_TOOLBX)
    ps = "cat \"$KISTE_TEST_FIXTURES/ps-toolbx-ui.json\"";
  else if (world == KISTE_TEST_WORLD_TOOLBX_ONLY)
    ps = "cat \"$KISTE_TEST_FIXTURES/ps-toolbx-only.json\"";
  else if (world == KISTE_TEST_WORLD_SHOWCASE)
    ps = "cat \"$KISTE_TEST_FIXTURES/ps-showcase.json\"";
  kiste_fake_runner_add (runner, "podman ps", ps);

  /* a session with a systemd user manager, where no box starts at login */
  kiste_fake_runner_add (runner, "systemctl --user", "exit 0");
  kiste_fake_runner_add (runner, "systemctl --user is-enabled", "echo disabled; exit 1");
  kiste_fake_runner_add (runner, "sh -c 'is_ours", "echo none");
}

KisteManager *
kiste_test_manager_new (KisteTestWorld world)
{
  g_autoptr(KisteFakeRunner) runner = kiste_fake_runner_new ();
  KisteManager *manager;

  /* the engine is found, as the app would */
  kiste_runner_set_manager (KISTE_RUNNER (runner), NULL);
  kiste_test_set_world (runner, world);
  manager = kiste_manager_new (KISTE_RUNNER (runner));
  kiste_box_store_set_host_home (_kiste_manager_get_store (manager), "/home/tester");
  return manager;
}


void
kiste_test_host_init (KisteTestHost *host,
                      const char    *dir_template)
{
  const char *flags[] = { "--name", "--image", "--yes", "--no-entry", NULL };
  g_autoptr(GError) error = NULL;

  host->dir = g_dir_make_tmp (dir_template, &error);
  g_assert_no_error (error);
  host->applications = g_build_filename (host->dir, "applications", NULL);
  host->bin = g_build_filename (host->dir, "bin", NULL);
  g_assert_cmpint (g_mkdir (host->applications, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (host->bin, 0700), ==, 0);

  host->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (host->runner, "rm ", "exec rm \"$@\"");
  kiste_fake_runner_add (host->runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  host->manager = kiste_manager_new (KISTE_RUNNER (host->runner));
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (host->manager),
                                       "1.8.2.5", "podman", flags);
  _kiste_manager_set_host_dirs (host->manager, host->applications, host->bin);
  kiste_test_serve_boxes (_kiste_manager_get_store (host->manager), "ps-podman5.json", "/home/tester");
}

void
kiste_test_host_clear (KisteTestHost *host)
{
  g_clear_object (&host->manager);
  kiste_test_unref_and_wait ((gpointer *) &host->runner);
  kiste_test_remove_tree (host->dir);
  g_clear_pointer (&host->applications, g_free);
  g_clear_pointer (&host->bin, g_free);
  g_clear_pointer (&host->dir, g_free);
}
