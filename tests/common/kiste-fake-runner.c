/* kiste-fake-runner.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "kiste-fake-runner.h"

typedef struct
{
  char *prefix;
  char *script;
} Rule;

struct _KisteFakeRunner
{
  KisteRunner  parent_instance;
  GArray      *rules;
  char        *default_script;
  GPtrArray   *commands;
  GArray      *started;      /* gint64, one per command */
  GPtrArray   *subprocesses; /* GSubprocess or NULL, one per command */
};

G_DEFINE_FINAL_TYPE (KisteFakeRunner, kiste_fake_runner, KISTE_TYPE_RUNNER)

static void
rule_clear (Rule *rule)
{
  g_free (rule->prefix);
  g_free (rule->script);
}

static void
subprocess_unref (gpointer subprocess)
{
  g_clear_object (&subprocess);
}

static GSubprocess *
kiste_fake_runner_spawn (KisteRunner         *runner,
                         const char * const  *argv,
                         GSubprocessFlags     flags,
                         GError             **error)
{
  KisteFakeRunner *self = KISTE_FAKE_RUNNER (runner);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) sh = NULL;
  char *display = kiste_argv_to_display_string (argv);
  const char *script = self->default_script;
  gint64 now = g_get_monotonic_time ();
  GSubprocess *subprocess;

  g_ptr_array_add (self->commands, display);
  g_array_append_val (self->started, now);

  for (guint i = self->rules->len; i > 0; i--)
    {
      Rule *rule = &g_array_index (self->rules, Rule, i - 1);

      if (g_str_has_prefix (display, rule->prefix))
        {
          script = rule->script;
          break;
        }
    }

  if (script != NULL)
    {
      g_strv_builder_add_many (builder, "sh", "-c", script, "fake", NULL);
      for (guint i = 1; argv[0] != NULL && argv[i] != NULL; i++)
        g_strv_builder_add (builder, argv[i]);
      sh = g_strv_builder_end (builder);
    }

  subprocess = KISTE_RUNNER_CLASS (kiste_fake_runner_parent_class)->spawn (runner,
                                                                            sh ? (const char * const *) sh : argv,
                                                                            flags, error);
  g_ptr_array_add (self->subprocesses, subprocess ? g_object_ref (subprocess) : NULL);
  return subprocess;
}

static void
kiste_fake_runner_finalize (GObject *object)
{
  KisteFakeRunner *self = KISTE_FAKE_RUNNER (object);

  g_clear_pointer (&self->rules, g_array_unref);
  g_clear_pointer (&self->default_script, g_free);
  g_clear_pointer (&self->commands, g_ptr_array_unref);
  g_clear_pointer (&self->started, g_array_unref);
  g_clear_pointer (&self->subprocesses, g_ptr_array_unref);

  G_OBJECT_CLASS (kiste_fake_runner_parent_class)->finalize (object);
}

static void
kiste_fake_runner_class_init (KisteFakeRunnerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kiste_fake_runner_finalize;
  KISTE_RUNNER_CLASS (klass)->spawn = kiste_fake_runner_spawn;
}

static void
kiste_fake_runner_init (KisteFakeRunner *self)
{
  self->rules = g_array_new (FALSE, TRUE, sizeof (Rule));
  g_array_set_clear_func (self->rules, (GDestroyNotify) rule_clear);
  self->default_script = g_strdup ("exit 0");
  self->commands = g_ptr_array_new_with_free_func (g_free);
  self->started = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->subprocesses = g_ptr_array_new_with_free_func (subprocess_unref);
}

KisteFakeRunner *
kiste_fake_runner_new (void)
{
  KisteFakeRunner *self = g_object_new (KISTE_TYPE_FAKE_RUNNER, NULL);

  kiste_runner_set_in_flatpak (KISTE_RUNNER (self), FALSE);
  kiste_runner_set_manager (KISTE_RUNNER (self), "podman");
  kiste_runner_set_cwd (KISTE_RUNNER (self), g_get_tmp_dir ());
  return self;
}

void
kiste_fake_runner_add (KisteFakeRunner *self,
                       const char      *prefix,
                       const char      *script)
{
  Rule rule = { g_strdup (prefix), g_strdup (script) };

  g_return_if_fail (KISTE_IS_FAKE_RUNNER (self));
  g_array_append_val (self->rules, rule);
}

void
kiste_fake_runner_set_default (KisteFakeRunner *self,
                               const char      *default_script)
{
  g_return_if_fail (KISTE_IS_FAKE_RUNNER (self));
  g_set_str (&self->default_script, default_script);
}

GPtrArray *
kiste_fake_runner_get_commands (KisteFakeRunner *self)
{
  g_return_val_if_fail (KISTE_IS_FAKE_RUNNER (self), NULL);
  return self->commands;
}

guint
kiste_fake_runner_count (KisteFakeRunner *self,
                         const char      *prefix)
{
  guint n = 0;

  g_return_val_if_fail (KISTE_IS_FAKE_RUNNER (self), 0);

  for (guint i = 0; i < self->commands->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (self->commands, i), prefix))
      n++;
  return n;
}

const char *
kiste_fake_runner_find (KisteFakeRunner *self,
                        const char      *prefix)
{
  g_return_val_if_fail (KISTE_IS_FAKE_RUNNER (self), NULL);

  for (guint i = self->commands->len; i > 0; i--)
    if (g_str_has_prefix (g_ptr_array_index (self->commands, i - 1), prefix))
      return g_ptr_array_index (self->commands, i - 1);
  return NULL;
}

gint64
kiste_fake_runner_get_started (KisteFakeRunner *self,
                               guint            index)
{
  g_return_val_if_fail (KISTE_IS_FAKE_RUNNER (self), 0);
  g_return_val_if_fail (index < self->started->len, 0);

  return g_array_index (self->started, gint64, index);
}

GSubprocess *
kiste_fake_runner_get_subprocess (KisteFakeRunner *self,
                                  guint            index)
{
  g_return_val_if_fail (KISTE_IS_FAKE_RUNNER (self), NULL);
  g_return_val_if_fail (index < self->subprocesses->len, NULL);

  return g_ptr_array_index (self->subprocesses, index);
}
