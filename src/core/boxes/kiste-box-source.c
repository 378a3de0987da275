/* kiste-box-source.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-box-source.h"

struct _KisteBoxSource
{
  GObject        parent_instance;

  KisteRunner   *runner;
  KisteBoxStore *store;
  KisteSetupWatch *setup_watch;
};

G_DEFINE_FINAL_TYPE (KisteBoxSource, kiste_box_source, G_TYPE_OBJECT)

KisteBoxSource *
kiste_box_source_new (KisteRunner *runner,
                      const char  *engine)
{
  KisteBoxSource *self;

  g_return_val_if_fail (KISTE_IS_RUNNER (runner), NULL);

  self = g_object_new (KISTE_TYPE_BOX_SOURCE, NULL);
  self->runner = g_object_ref (runner);
  self->store = engine != NULL ? kiste_box_store_new_for_engine (runner, engine)
                               : kiste_box_store_new (runner);
  self->setup_watch = kiste_setup_watch_new (runner, self->store);
  return self;
}

const char *
kiste_box_source_get_engine (KisteBoxSource *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);

  return kiste_box_store_get_engine (self->store);
}

const char *
kiste_box_source_get_title (KisteBoxSource *self)
{
  const char *engine;

  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);

  /* product names, the same in every language */
  engine = kiste_box_source_get_engine (self);
  if (g_str_equal (engine, "docker"))
    return "Docker";
  if (g_str_equal (engine, "podman"))
    return "Podman";
  return engine;
}

KisteRunner *
kiste_box_source_get_runner (KisteBoxSource *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);

  return self->runner;
}

KisteBoxStore *
kiste_box_source_get_store (KisteBoxSource *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);

  return self->store;
}

KisteSetupWatch *
kiste_box_source_get_setup_watch (KisteBoxSource *self)
{
  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);

  return self->setup_watch;
}

static gboolean
is_distrobox (const char *program)
{
  g_autofree char *base = NULL;

  if (program == NULL)
    return FALSE;
  base = g_path_get_basename (program);
  return g_str_equal (base, "distrobox") || g_str_has_prefix (base, "distrobox-");
}

char **
kiste_box_source_dup_argv (KisteBoxSource     *self,
                           const char * const *argv)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *variable = NULL;
  const char *engine;

  g_return_val_if_fail (KISTE_IS_BOX_SOURCE (self), NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  engine = kiste_box_source_get_engine (self);
  /* distrobox would ask the runner's engine, or the one its config names */
  if (!is_distrobox (argv[0]) || g_strcmp0 (kiste_runner_get_manager (self->runner), engine) == 0)
    return g_strdupv ((char **) argv);

  builder = g_strv_builder_new ();
  variable = g_strconcat ("DBX_CONTAINER_MANAGER=", engine, NULL);
  g_strv_builder_add_many (builder, "env", variable, NULL);
  g_strv_builder_addv (builder, (const char **) argv);
  return g_strv_builder_end (builder);
}

static void
kiste_box_source_dispose (GObject *object)
{
  KisteBoxSource *self = KISTE_BOX_SOURCE (object);

  if (self->setup_watch != NULL)
    kiste_setup_watch_stop (self->setup_watch);
  if (self->store != NULL)
    kiste_box_store_stop_watching (self->store);
  g_clear_object (&self->setup_watch);
  g_clear_object (&self->store);
  g_clear_object (&self->runner);

  G_OBJECT_CLASS (kiste_box_source_parent_class)->dispose (object);
}

static void
kiste_box_source_class_init (KisteBoxSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kiste_box_source_dispose;
}

static void
kiste_box_source_init (KisteBoxSource *self)
{
}
