/* kiste-terminal-tab.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "kiste-distro.h"
#include "kiste-enter.h"
#include "kiste-manager-terminal.h"
#include "kiste-pty.h"
#include "kiste-terminal-tab.h"

struct _KisteTerminalTab
{
  GtkWidget              parent_instance;

  KisteManager          *manager;
  KisteTerminalTabKind   kind;
  char                  *box_name;
  char                  *cwd;
  /* a package file to install instead of a shell (Install a Package File) */
  char                  *package_path;
  char                  *title;
  char                  *command;
  /* Carried into the box by the shell's processes, to end them there */
  char                  *terminal_id;
  GIcon                 *icon;
  GCancellable          *cancellable;
  GSubprocess           *subprocess;
  KisteTask             *start_task;
  VtePty                *pty;
  int                    exit_status;
  GdkRGBA                tint;
  KisteTerminalTabState  state;
  guint                  has_tint : 1;
  guint                  needs_attention : 1;
  guint                  command_running : 1;

  /* Template widgets */
  GtkWidget             *content;
  AdwBanner             *banner;
  GtkSearchBar          *search_bar;
  GtkSearchEntry        *search_entry;
  GtkScrolledWindow     *scroller;
  KisteTerminal         *terminal;
  GtkWidget             *starting_box;
  GtkLabel              *starting_title;
  GtkLabel              *starting_step;
  GtkProgressBar        *starting_progress;
};

G_DEFINE_FINAL_TYPE (KisteTerminalTab, kiste_terminal_tab, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BOX_NAME,
  PROP_STATE,
  PROP_TITLE,
  PROP_ICON,
  PROP_NEEDS_ATTENTION,
  PROP_EXIT_STATUS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The box's name for people: its ref without the engine (kiste_box_get_ref()) */
static const char *
kiste_terminal_tab_get_display_name (KisteTerminalTab *self)
{
  const char *slash = self->box_name ? strchr (self->box_name, '/') : NULL;

  return slash != NULL ? slash + 1 : self->box_name;
}

static void
kiste_terminal_tab_update_title (KisteTerminalTab *self)
{
  const char *shell_title;
  const char *base;
  g_autofree char *title = NULL;

  base = self->kind == KISTE_TERMINAL_TAB_HOST ? _("This Computer")
                                               : kiste_terminal_tab_get_display_name (self);
  shell_title = vte_terminal_get_termprop_string (VTE_TERMINAL (self->terminal),
                                                  VTE_TERMPROP_XTERM_TITLE, NULL);

  /* The box first: it is what tells tabs apart */
  if (shell_title != NULL && shell_title[0] != '\0' && g_strcmp0 (shell_title, base) != 0)
    /* Translators: a terminal tab's title: "BOX: WINDOW TITLE OF THE SHELL" */
    title = g_strdup_printf (_("%s: %s"), base, shell_title);
  else
    title = g_strdup (base);

  if (g_strcmp0 (title, self->title) != 0)
    {
      g_free (self->title);
      self->title = g_steal_pointer (&title);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

static void
kiste_terminal_tab_update_icon (KisteTerminalTab *self)
{
  const char *icon_name = "utilities-terminal-symbolic";
  KisteBox *box = NULL;

  if (self->kind == KISTE_TERMINAL_TAB_BOX)
    box = kiste_box_list_find (kiste_manager_get_boxes (self->manager), self->box_name);
  if (box != NULL)
    icon_name = kiste_distro_icon_name (kiste_box_get_distro_id (box));
  else if (self->kind == KISTE_TERMINAL_TAB_HOST)
    icon_name = "computer-symbolic";

  g_clear_object (&self->icon);
  if (self->has_tint)
    {
      g_autofree char *svg = NULL;
      g_autoptr(GBytes) bytes = NULL;
      gsize len;

      /* The box's colour as a dot, so its tabs stand out from others */
      svg = g_strdup_printf ("<svg xmlns='http://www.w3.org/2000/svg' width='16' height='16'>"
                             "<circle cx='8' cy='8' r='6' fill='#%02x%02x%02x'/></svg>",
                             (int) (self->tint.red * 255), (int) (self->tint.green * 255),
                             (int) (self->tint.blue * 255));
      len = strlen (svg);

      bytes = g_bytes_new_take (g_steal_pointer (&svg), len);
      self->icon = g_bytes_icon_new (bytes);
    }
  else
    {
      self->icon = g_themed_icon_new (icon_name);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICON]);
}

static void
kiste_terminal_tab_set_state (KisteTerminalTab      *self,
                              KisteTerminalTabState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  gtk_widget_set_visible (self->starting_box, state == KISTE_TERMINAL_TAB_STARTING);
  if (state != KISTE_TERMINAL_TAB_RUNNING)
    self->command_running = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* The box's start, shown over the terminal */

static void
kiste_terminal_tab_update_start (KisteTerminalTab *self)
{
  const char *step;

  if (self->start_task == NULL)
    return;

  step = kiste_task_get_step (self->start_task);
  gtk_label_set_label (self->starting_step, step ? step : "");
  gtk_progress_bar_set_fraction (self->starting_progress,
                                 kiste_task_get_fraction (self->start_task));
}

static void
kiste_terminal_tab_set_start_task (KisteTerminalTab *self,
                                   KisteTask        *task)
{
  if (self->start_task == task)
    return;

  if (self->start_task != NULL)
    g_signal_handlers_disconnect_by_func (self->start_task, kiste_terminal_tab_update_start, self);
  g_set_object (&self->start_task, task);

  gtk_widget_set_visible (GTK_WIDGET (self->starting_progress), task != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->starting_step), task != NULL);
  if (task != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Starting “%s”…"),
                                                kiste_terminal_tab_get_display_name (self));

      gtk_label_set_label (self->starting_title, title);
      g_signal_connect_object (task, "notify", G_CALLBACK (kiste_terminal_tab_update_start), self,
                               G_CONNECT_SWAPPED);
      kiste_terminal_tab_update_start (self);
    }
  else
    {
      gtk_label_set_label (self->starting_title, _("Opening a shell…"));
    }
}

static void
kiste_terminal_tab_busy_changed_cb (KisteTerminalTab *self,
                                    const char       *box_name)
{
  KisteTask *task;

  if (self->state != KISTE_TERMINAL_TAB_STARTING || g_strcmp0 (box_name, self->box_name) != 0)
    return;

  task = kiste_manager_get_task_for_box (self->manager, box_name);
  if (task != NULL)
    kiste_terminal_tab_set_start_task (self, task);
}

/* The shell's life */

static void
kiste_terminal_tab_show_failure (KisteTerminalTab *self,
                                 const GError     *error)
{
  g_autofree char *text = NULL;
  const char *log = self->start_task ? kiste_task_get_output (self->start_task) : NULL;

  /* The log of a failed start says what went wrong in the box */
  if (log != NULL && log[0] != '\0')
    {
      g_auto(GStrv) lines = g_strsplit (log, "\n", -1);
      g_autofree char *joined = g_strjoinv ("\r\n", lines);

      vte_terminal_feed (VTE_TERMINAL (self->terminal), joined, -1);
      vte_terminal_feed (VTE_TERMINAL (self->terminal), "\r\n", -1);
    }

  text = g_strdup_printf ("\r\n%s\r\n", error->message);
  vte_terminal_feed (VTE_TERMINAL (self->terminal), text, -1);

  adw_banner_set_title (self->banner, error->message);
  adw_banner_set_button_label (self->banner, _("_Try Again"));
  adw_banner_set_revealed (self->banner, TRUE);
  kiste_terminal_tab_set_state (self, KISTE_TERMINAL_TAB_FAILED);
}

static void
kiste_terminal_tab_wait_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(KisteTerminalTab) self = user_data;
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  if (!g_subprocess_wait_finish (subprocess, result, &error))
    return;  /* cancelled: the tab is going away */

  if (subprocess != self->subprocess)
    return;

  if (g_subprocess_get_if_exited (subprocess))
    {
      self->exit_status = g_subprocess_get_exit_status (subprocess);
      if (self->exit_status == 0)
        title = g_strdup (_("The shell ended"));
      else
        title = g_strdup_printf (_("The shell ended with exit status %d"), self->exit_status);
    }
  else
    {
      int sig = g_subprocess_get_term_sig (subprocess);

      self->exit_status = 128 + sig;
      title = g_strdup_printf (_("The shell was ended by signal %d (%s)"), sig, g_strsignal (sig));
    }

  g_clear_object (&self->subprocess);
  adw_banner_set_title (self->banner, title);
  adw_banner_set_button_label (self->banner, _("_Restart"));
  adw_banner_set_revealed (self->banner, TRUE);
  kiste_terminal_tab_set_state (self, KISTE_TERMINAL_TAB_EXITED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXIT_STATUS]);
}

static void
kiste_terminal_tab_running (KisteTerminalTab *self,
                            GSubprocess      *subprocess,
                            char             *command)
{
  g_set_object (&self->subprocess, subprocess);
  g_free (self->command);
  self->command = command;
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->terminal), NULL);
  kiste_terminal_tab_set_start_task (self, NULL);
  kiste_terminal_tab_set_state (self, KISTE_TERMINAL_TAB_RUNNING);
  g_subprocess_wait_async (subprocess, self->cancellable, kiste_terminal_tab_wait_cb,
                           g_object_ref (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->terminal));
}

static void
kiste_terminal_tab_open_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  g_autoptr(KisteTerminalTab) self = user_data;
  g_autoptr(GSubprocess) subprocess = NULL;
  g_autoptr(GError) error = NULL;
  char *command = NULL;

  subprocess = kiste_manager_open_shell_finish (KISTE_MANAGER (object), result, &command, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (subprocess == NULL)
    {
      kiste_terminal_tab_show_failure (self, error);
      return;
    }

  kiste_terminal_tab_running (self, subprocess, command);
}

static char **
dup_terminal_env (const char *terminal_id)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (terminal_id != NULL)
    g_strv_builder_take (builder, g_strconcat (KISTE_TERMINAL_ID_VARIABLE "=", terminal_id, NULL));

  /* What a program needs to know it runs in a VTE terminal */
  g_strv_builder_add (builder, "TERM=xterm-256color");
  g_strv_builder_add (builder, "COLORTERM=truecolor");
  g_strv_builder_take (builder, g_strdup_printf ("VTE_VERSION=%u",
                                                 vte_get_major_version () * 10000 +
                                                 vte_get_minor_version () * 100 +
                                                 vte_get_micro_version ()));
  return g_strv_builder_end (builder);
}

void
kiste_terminal_tab_start (KisteTerminalTab *self)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = NULL;
  VtePtyFlags flags = VTE_PTY_DEFAULT;

  g_return_if_fail (KISTE_IS_TERMINAL_TAB (self));

  if (self->state == KISTE_TERMINAL_TAB_RUNNING ||
      (self->state == KISTE_TERMINAL_TAB_STARTING && self->cancellable != NULL))
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->exit_status = -1;
  adw_banner_set_revealed (self->banner, FALSE);
  kiste_terminal_tab_set_start_task (self, NULL);
  kiste_terminal_tab_set_state (self, KISTE_TERMINAL_TAB_STARTING);
  gtk_widget_set_visible (self->starting_box, TRUE);

  /* In the sandbox the host side must claim the terminal itself */
  if (kiste_manager_get_in_flatpak (self->manager))
    flags = VTE_PTY_NO_CTTY;

  g_clear_object (&self->pty);
  self->pty = vte_terminal_pty_new_sync (VTE_TERMINAL (self->terminal), flags, NULL, &error);
  if (self->pty == NULL)
    {
      kiste_terminal_tab_show_failure (self, error);
      return;
    }
  vte_terminal_set_pty (VTE_TERMINAL (self->terminal), self->pty);

  g_free (self->terminal_id);
  self->terminal_id = self->kind == KISTE_TERMINAL_TAB_BOX ? kiste_enter_new_terminal_id () : NULL;
  env = dup_terminal_env (self->terminal_id);
  if (self->kind == KISTE_TERMINAL_TAB_HOST)
    {
      g_autoptr(GSubprocess) subprocess = NULL;
      g_autofree char *used = NULL;

      subprocess = kiste_manager_spawn_host_shell (self->manager, self->cwd,
                                                   vte_pty_get_fd (self->pty),
                                                   (const char * const *) env, &used, &error);
      if (subprocess == NULL)
        {
          kiste_terminal_tab_show_failure (self, error);
          return;
        }

      kiste_terminal_tab_running (self, subprocess, g_strdup (_("Host shell")));
      /* A folder of the box that this computer does not have */
      if (self->cwd != NULL && g_strcmp0 (used, self->cwd) != 0 &&
          !(g_str_has_prefix (self->cwd, "/run/host") &&
            g_strcmp0 (used, self->cwd + strlen ("/run/host")) == 0))
        {
          g_autofree char *title = g_strdup_printf (_("“%s” does not exist on this computer: the shell opened in your home folder"),
                                                    self->cwd);

          adw_banner_set_title (self->banner, title);
          adw_banner_set_button_label (self->banner, NULL);
          adw_banner_set_revealed (self->banner, TRUE);
        }
      return;
    }

  if (self->package_path != NULL)
    kiste_manager_install_package_async (self->manager, self->box_name, self->package_path,
                                         vte_pty_get_fd (self->pty), (const char * const *) env,
                                         self->cancellable, kiste_terminal_tab_open_cb,
                                         g_object_ref (self));
  else
    kiste_manager_open_shell_async (self->manager, self->box_name, self->cwd,
                                    vte_pty_get_fd (self->pty), (const char * const *) env,
                                    self->cancellable, kiste_terminal_tab_open_cb,
                                    g_object_ref (self));

  /* A stopped box starts first: follow that task */
  kiste_terminal_tab_busy_changed_cb (self, self->box_name);
}

/* Accessors */

void
kiste_terminal_tab_set_package_path (KisteTerminalTab *self,
                                     const char       *path)
{
  g_return_if_fail (KISTE_IS_TERMINAL_TAB (self));
  g_return_if_fail (self->kind == KISTE_TERMINAL_TAB_BOX);

  g_free (self->package_path);
  self->package_path = g_strdup (path);
}

KisteTerminalTabState
kiste_terminal_tab_get_state (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), KISTE_TERMINAL_TAB_FAILED);
  return self->state;
}

KisteTerminalTabKind
kiste_terminal_tab_get_kind (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), KISTE_TERMINAL_TAB_BOX);
  return self->kind;
}

const char *
kiste_terminal_tab_get_box_name (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);
  return self->box_name;
}

const char *
kiste_terminal_tab_get_title (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);
  return self->title;
}

GIcon *
kiste_terminal_tab_get_icon (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);
  return self->icon;
}

gboolean
kiste_terminal_tab_get_needs_attention (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), FALSE);
  return self->needs_attention;
}

void
kiste_terminal_tab_set_needs_attention (KisteTerminalTab *self,
                                        gboolean          needs_attention)
{
  g_return_if_fail (KISTE_IS_TERMINAL_TAB (self));

  needs_attention = !!needs_attention;
  if (self->needs_attention != needs_attention)
    {
      self->needs_attention = needs_attention;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NEEDS_ATTENTION]);
    }
}

int
kiste_terminal_tab_get_exit_status (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), -1);
  return self->exit_status;
}

const char *
kiste_terminal_tab_get_command (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);
  return self->command;
}

KisteTerminal *
kiste_terminal_tab_get_terminal (KisteTerminalTab *self)
{
  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);
  return self->terminal;
}

void
kiste_terminal_tab_set_tint (KisteTerminalTab *self,
                             const GdkRGBA    *tint)
{
  g_return_if_fail (KISTE_IS_TERMINAL_TAB (self));

  if ((tint == NULL && !self->has_tint) ||
      (tint != NULL && self->has_tint && gdk_rgba_equal (tint, &self->tint)))
    return;

  self->has_tint = tint != NULL;
  if (tint != NULL)
    self->tint = *tint;
  kiste_terminal_set_tint (self->terminal, tint);
  kiste_terminal_tab_update_icon (self);
}

gboolean
kiste_terminal_tab_has_foreground_process (KisteTerminalTab *self)
{
  const char *id;
  pid_t pgrp;

  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), FALSE);

  if (self->state != KISTE_TERMINAL_TAB_RUNNING || self->subprocess == NULL)
    return FALSE;

  /* The shell said a command runs (vte.sh in the box or on the host) */
  if (self->command_running)
    return TRUE;

  /* A program in the foreground of the box's terminal, seen in /proc when
   * the box shares our process namespace (most do) */
  if (self->terminal_id != NULL)
    {
      g_autofree char *program = kiste_pty_dup_foreground_program (self->terminal_id);

      if (program != NULL)
        return TRUE;
    }

  /* Our child leads its own process group: another group in the
   * foreground is a program the shell started (natively; podman keeps
   * the foreground itself while a box's shell runs) */
  id = g_subprocess_get_identifier (self->subprocess);
  pgrp = tcgetpgrp (vte_pty_get_fd (self->pty));
  return id != NULL && pgrp > 0 && pgrp != (pid_t) g_ascii_strtoll (id, NULL, 10);
}

char *
kiste_terminal_tab_dup_directory (KisteTerminalTab *self)
{
  char *dir;

  g_return_val_if_fail (KISTE_IS_TERMINAL_TAB (self), NULL);

  if ((dir = kiste_terminal_dup_current_directory (self->terminal)) != NULL)
    return dir;

  return g_strdup (self->cwd);
}

/* Template callbacks */

static void
bell_cb (KisteTerminalTab *self)
{
  kiste_terminal_tab_set_needs_attention (self, TRUE);
}

static void
termprop_changed_cb (KisteTerminalTab *self,
                     const char       *name)
{
  if (g_strcmp0 (name, VTE_TERMPROP_XTERM_TITLE) == 0)
    kiste_terminal_tab_update_title (self);
  else if (g_strcmp0 (name, VTE_TERMPROP_SHELL_PREEXEC) == 0)
    self->command_running = TRUE;
  else if (g_strcmp0 (name, VTE_TERMPROP_SHELL_PRECMD) == 0 ||
           g_strcmp0 (name, VTE_TERMPROP_SHELL_POSTEXEC) == 0)
    self->command_running = FALSE;
}

static void
kiste_terminal_tab_find (KisteTerminalTab *self,
                         gboolean          backwards)
{
  /* A match is selected, and VTE hands selections to its clipboards, which
   * an unrealized terminal (its tab or window going) no longer has */
  if (!gtk_widget_get_realized (GTK_WIDGET (self->terminal)))
    return;

  if (backwards)
    vte_terminal_search_find_previous (VTE_TERMINAL (self->terminal));
  else
    vte_terminal_search_find_next (VTE_TERMINAL (self->terminal));
}

static void
search_changed_cb (KisteTerminalTab *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autoptr(GError) error = NULL;
  g_autofree char *escaped = NULL;
  VteRegex *regex = NULL;

  if (text[0] != '\0')
    {
      escaped = g_regex_escape_string (text, -1);
      /* 0x00000008u: PCRE2_CASELESS; 0x00000400u: PCRE2_MULTILINE */
      regex = vte_regex_new_for_search (escaped, -1,
                                        VTE_REGEX_FLAGS_DEFAULT | 0x00000008u | 0x00000400u,
                                        &error);
    }

  vte_terminal_search_set_regex (VTE_TERMINAL (self->terminal), regex, 0);
  vte_terminal_search_set_wrap_around (VTE_TERMINAL (self->terminal), TRUE);
  if (regex != NULL)
    {
      vte_regex_unref (regex);
      kiste_terminal_tab_find (self, TRUE);
    }
}

static void
search_activate_cb (KisteTerminalTab *self)
{
  kiste_terminal_tab_find (self, TRUE);
}

static void
search_previous_cb (KisteTerminalTab *self)
{
  kiste_terminal_tab_find (self, FALSE);
}

static void
search_stop_cb (KisteTerminalTab *self)
{
  gtk_search_bar_set_search_mode (self->search_bar, FALSE);
  gtk_widget_grab_focus (GTK_WIDGET (self->terminal));
}

/* Actions */

static void
restart_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (widget);

  if (self->state == KISTE_TERMINAL_TAB_EXITED || self->state == KISTE_TERMINAL_TAB_FAILED)
    {
      vte_terminal_feed (VTE_TERMINAL (self->terminal), "\r\n", -1);
      kiste_terminal_tab_start (self);
    }
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (widget);

  if (g_str_equal (action_name, "tab.find"))
    {
      gtk_search_bar_set_search_mode (self->search_bar, TRUE);
      gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
    }
  else
    {
      /* VTE searches from the bottom: "previous" is further up */
      kiste_terminal_tab_find (self, g_str_equal (action_name, "tab.find-next"));
    }
}

KisteTerminalTab *
kiste_terminal_tab_new (KisteManager         *manager,
                        KisteTerminalTabKind  kind,
                        const char           *box_name,
                        const char           *cwd)
{
  KisteTerminalTab *self;

  g_return_val_if_fail (KISTE_IS_MANAGER (manager), NULL);
  g_return_val_if_fail (kind == KISTE_TERMINAL_TAB_HOST || box_name != NULL, NULL);

  self = g_object_new (KISTE_TYPE_TERMINAL_TAB, NULL);
  self->manager = g_object_ref (manager);
  self->kind = kind;
  self->box_name = g_strdup (box_name);
  self->cwd = g_strdup (cwd);

  g_signal_connect_object (manager, "busy-changed",
                           G_CALLBACK (kiste_terminal_tab_busy_changed_cb), self,
                           G_CONNECT_SWAPPED);
  kiste_terminal_tab_update_title (self);
  kiste_terminal_tab_update_icon (self);

  return self;
}

static void
end_shell_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!kiste_manager_operation_finish (KISTE_MANAGER (object), result, &error))
    g_warning ("A closed terminal's shell may still run in its box: %s", error->message);
}

void
kiste_terminal_tab_terminate (KisteTerminalTab *self)
{
  g_return_if_fail (KISTE_IS_TERMINAL_TAB (self));

  /* Stops a pending start and the wait for the shell (which holds us) */
  g_cancellable_cancel (self->cancellable);

  /* podman keeps the shell of an exec session running when its client
   * goes: end it in the box (the app stays while the manager is
   * "cleaning-up") */
  if (self->kind == KISTE_TERMINAL_TAB_BOX && self->terminal_id != NULL &&
      (self->subprocess != NULL || self->state == KISTE_TERMINAL_TAB_STARTING) &&
      self->manager != NULL)
    kiste_manager_end_shell_async (self->manager, self->box_name, self->terminal_id, NULL,
                                   end_shell_cb, NULL);
  g_clear_pointer (&self->terminal_id, g_free);

  /* No shell outlives its tab: hang up on it as a closed terminal does */
  if (self->subprocess != NULL)
    {
      const char *id = g_subprocess_get_identifier (self->subprocess);

      if (id != NULL)
        kill (-(pid_t) g_ascii_strtoll (id, NULL, 10), SIGHUP);
      g_subprocess_send_signal (self->subprocess, SIGHUP);
      g_clear_object (&self->subprocess);
    }
}

static void
kiste_terminal_tab_dispose (GObject *object)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (object);

  kiste_terminal_tab_terminate (self);
  kiste_terminal_tab_set_start_task (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), KISTE_TYPE_TERMINAL_TAB);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->pty);
  g_clear_object (&self->manager);
  g_clear_object (&self->icon);

  G_OBJECT_CLASS (kiste_terminal_tab_parent_class)->dispose (object);
}

static void
kiste_terminal_tab_finalize (GObject *object)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (object);

  g_free (self->box_name);
  g_free (self->cwd);
  g_free (self->package_path);
  g_free (self->title);
  g_free (self->command);
  g_free (self->terminal_id);

  G_OBJECT_CLASS (kiste_terminal_tab_parent_class)->finalize (object);
}

static void
kiste_terminal_tab_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (object);

  switch (prop_id)
    {
    case PROP_BOX_NAME:
      g_value_set_string (value, self->box_name);
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_ICON:
      g_value_set_object (value, self->icon);
      break;
    case PROP_NEEDS_ATTENTION:
      g_value_set_boolean (value, self->needs_attention);
      break;
    case PROP_EXIT_STATUS:
      g_value_set_int (value, self->exit_status);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_terminal_tab_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  KisteTerminalTab *self = KISTE_TERMINAL_TAB (object);

  switch (prop_id)
    {
    case PROP_NEEDS_ATTENTION:
      kiste_terminal_tab_set_needs_attention (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kiste_terminal_tab_grab_focus_cb (KisteTerminalTab *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self->terminal));
}

static void
kiste_terminal_tab_class_init (KisteTerminalTabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = kiste_terminal_tab_dispose;
  object_class->finalize = kiste_terminal_tab_finalize;
  object_class->get_property = kiste_terminal_tab_get_property;
  object_class->set_property = kiste_terminal_tab_set_property;

  properties[PROP_BOX_NAME] =
    g_param_spec_string ("box-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      KISTE_TERMINAL_TAB_STARTING, KISTE_TERMINAL_TAB_FAILED,
                      KISTE_TERMINAL_TAB_STARTING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ICON] =
    g_param_spec_object ("icon", NULL, NULL, G_TYPE_ICON,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NEEDS_ATTENTION] =
    g_param_spec_boolean ("needs-attention", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EXIT_STATUS] =
    g_param_spec_int ("exit-status", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               RESOURCE_PATH "/ui/kiste-terminal-tab.ui");
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, content);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, banner);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, search_bar);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, search_entry);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, scroller);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, terminal);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, starting_box);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, starting_title);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, starting_step);
  gtk_widget_class_bind_template_child (widget_class, KisteTerminalTab, starting_progress);
  gtk_widget_class_bind_template_callback (widget_class, bell_cb);
  gtk_widget_class_bind_template_callback (widget_class, termprop_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_previous_cb);
  gtk_widget_class_bind_template_callback (widget_class, search_stop_cb);

  gtk_widget_class_install_action (widget_class, "tab.restart", NULL, restart_action);
  gtk_widget_class_install_action (widget_class, "tab.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "tab.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "tab.find-previous", NULL, find_action);

  g_type_ensure (KISTE_TYPE_TERMINAL);
}

static void
add_shortcut (GtkShortcutController *controller,
              guint                  key,
              GdkModifierType        mods,
              const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (key, mods),
                                                          gtk_named_action_new (action)));
}

static void
kiste_terminal_tab_init (KisteTerminalTab *self)
{
  GtkEventController *controller;
  GtkShortcutController *shortcuts;

  self->exit_status = -1;
  self->state = KISTE_TERMINAL_TAB_STARTING;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_search_bar_connect_entry (self->search_bar, GTK_EDITABLE (self->search_entry));
  gtk_widget_set_visible (self->starting_box, FALSE);

  /* Before the terminal sees the keys: they are not the shell's */
  controller = gtk_shortcut_controller_new ();
  shortcuts = GTK_SHORTCUT_CONTROLLER (controller);
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  add_shortcut (shortcuts, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "term.copy");
  add_shortcut (shortcuts, GDK_KEY_C, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "term.copy");
  add_shortcut (shortcuts, GDK_KEY_v, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "term.paste");
  add_shortcut (shortcuts, GDK_KEY_V, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "term.paste");
  add_shortcut (shortcuts, GDK_KEY_f, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "tab.find");
  add_shortcut (shortcuts, GDK_KEY_F, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "tab.find");
  add_shortcut (shortcuts, GDK_KEY_plus, GDK_CONTROL_MASK, "term.zoom-in");
  add_shortcut (shortcuts, GDK_KEY_equal, GDK_CONTROL_MASK, "term.zoom-in");
  add_shortcut (shortcuts, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "term.zoom-in");
  add_shortcut (shortcuts, GDK_KEY_minus, GDK_CONTROL_MASK, "term.zoom-out");
  add_shortcut (shortcuts, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "term.zoom-out");
  add_shortcut (shortcuts, GDK_KEY_0, GDK_CONTROL_MASK, "term.zoom-reset");
  add_shortcut (shortcuts, GDK_KEY_KP_0, GDK_CONTROL_MASK, "term.zoom-reset");
  gtk_widget_add_controller (GTK_WIDGET (self->terminal), controller);

  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
  g_signal_connect (self, "map", G_CALLBACK (kiste_terminal_tab_grab_focus_cb), NULL);
}
