/* kiste-test-ui.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-test-ui.h"

void
kiste_test_init (int    *argc,
                 char ***argv)
{
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

gboolean
kiste_test_wait_for (gboolean (*predicate) (gpointer data),
                     gpointer   data,
                     guint      timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!predicate (data))
    {
      if (g_get_monotonic_time () > deadline)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (5 * 1000);
    }
  return TRUE;
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
  int width;
  int height;

  if (dir == NULL)
    return;

  kiste_test_flush (widget);
  paintable = gtk_widget_paintable_new (widget);
  width = gdk_paintable_get_intrinsic_width (paintable);
  height = gdk_paintable_get_intrinsic_height (paintable);
  g_assert_cmpint (width, >, 0);

  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_mkdir_with_parents (dir, 0755);
  path = g_strdup_printf ("%s/%s.png", dir, name);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

struct _KisteTestRunner
{
  KisteRunner     parent_instance;
  KisteTestWorld  world;
  guint           n_ps;
  GPtrArray      *commands;
};

G_DEFINE_FINAL_TYPE (KisteTestRunner, kiste_test_runner, KISTE_TYPE_RUNNER)

static const char *
script_for (KisteTestRunner    *self,
            const char * const *argv)
{
  const char *program = argv[0];
  const char *sub = argv[1] ? argv[1] : "";

  if (g_str_equal (program, "distrobox"))
    {
      if (self->world == KISTE_TEST_WORLD_NO_DISTROBOX)
        return "exit 127";
      if (g_str_equal (sub, "--version") || g_str_equal (sub, "version"))
        return "echo 'distrobox: 1.8.2.5'";
      if (g_str_equal (sub, "create"))
        return "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"";
      return "exit 0";
    }
  if (g_str_equal (program, "podman"))
    {
      if (g_str_equal (sub, "--version"))
        return "echo 'podman version 5.4.2'";
      if (g_str_equal (sub, "ps"))
        {
          self->n_ps++;
          if (self->world == KISTE_TEST_WORLD_PS_FAILS)
            return "echo 'Error: database is locked' >&2; exit 125";
          if (self->world == KISTE_TEST_WORLD_EMPTY)
            return "echo '[]'";
          if (self->world == KISTE_TEST_WORLD_SHOWCASE)
            return "cat \"$KISTE_TEST_FIXTURES/ps-showcase.json\"";
          return "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"";
        }
      if (g_str_equal (sub, "events"))
        return "exec sleep 600";
      if (g_str_equal (sub, "stop"))
        return "sleep 0.5";
      return "exit 0";
    }
  return "exit 127";
}

static GSubprocess *
kiste_test_runner_spawn (KisteRunner         *runner,
                         const char * const  *argv,
                         GSubprocessFlags     flags,
                         GError             **error)
{
  KisteTestRunner *self = KISTE_TEST_RUNNER (runner);
  const char *sh[] = { "sh", "-c", script_for (self, argv), NULL };

  g_ptr_array_add (self->commands, kiste_argv_to_display_string (argv));
  return KISTE_RUNNER_CLASS (kiste_test_runner_parent_class)->spawn (runner, sh, flags, error);
}

static void
kiste_test_runner_finalize (GObject *object)
{
  g_ptr_array_unref (KISTE_TEST_RUNNER (object)->commands);
  G_OBJECT_CLASS (kiste_test_runner_parent_class)->finalize (object);
}

static void
kiste_test_runner_class_init (KisteTestRunnerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kiste_test_runner_finalize;
  KISTE_RUNNER_CLASS (klass)->spawn = kiste_test_runner_spawn;
}

static void
kiste_test_runner_init (KisteTestRunner *self)
{
  self->commands = g_ptr_array_new_with_free_func (g_free);
}

void
kiste_test_runner_set_world (KisteTestRunner *self,
                             KisteTestWorld   world)
{
  self->world = world;
}

guint
kiste_test_runner_get_n_ps (KisteTestRunner *self)
{
  return self->n_ps;
}

GPtrArray *
kiste_test_runner_get_commands (KisteTestRunner *self)
{
  return self->commands;
}

KisteManager *
kiste_test_manager_new (KisteTestWorld world)
{
  g_autoptr(KisteTestRunner) runner = g_object_new (KISTE_TYPE_TEST_RUNNER, NULL);
  KisteManager *manager;

  runner->world = world;
  kiste_runner_set_cwd (KISTE_RUNNER (runner), g_get_tmp_dir ());
  manager = kiste_manager_new (KISTE_RUNNER (runner));
  kiste_box_store_set_host_home (kiste_manager_get_store (manager), "/home/tester");
  return manager;
}

