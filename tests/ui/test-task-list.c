/* test-task-list.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "kiste-capabilities-private.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-resources.h"
#include "kiste-task-list.h"
#include "kiste-task-row.h"
#include "kiste-test-ui.h"

static void
store_reloaded_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Fills the store the way the app does: one `podman ps` through the runner */
static void
reload_store (KisteBoxStore *store)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  kiste_box_store_reload_async (store, NULL, store_reloaded_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (kiste_box_store_reload_finish (store, result, &error));
  g_assert_no_error (error);
}

static KisteManager *
create_manager (void)
{
  g_autofree char *host_dir = g_build_filename (g_get_tmp_dir (), "kiste-test-task-list", NULL);
  g_autoptr(KisteFakeRunner) runner = kiste_fake_runner_new ();
  KisteManager *manager;
  KisteBoxStore *store;

  kiste_fake_runner_add (runner, "podman ps", "cat \"$KISTE_TEST_FIXTURES/ps-podman5.json\"");
  kiste_fake_runner_add (runner, "podman container inspect",
                         "cat \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  /* upgrades print two lines and keep running until cancelled, rm fails
   * like a box in use, anything else succeeds at once */
  kiste_fake_runner_add (runner, "distrobox upgrade",
                         "echo 'Reading package lists...'; echo 'Building dependency tree...'; "
                         "exec sleep 30");
  kiste_fake_runner_add (runner, "distrobox rm",
                         "echo 'Error: container fixture-b is in use' >&2; exit 1");
  manager = kiste_manager_new (KISTE_RUNNER (runner));
  _kiste_manager_set_host_dirs (manager, host_dir, host_dir);
  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (manager),
                                       "1.8.2.5", "podman", NULL);

  store = _kiste_manager_get_store (manager);
  kiste_box_store_set_host_home (store, "/home/kistetest");
  reload_store (store);

  return manager;
}

typedef struct
{
  gboolean done;
  gboolean ok;
} Result;

static void
operation_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Result *r = user_data;

  r->ok = kiste_manager_operation_finish (KISTE_MANAGER (object), result, NULL);
  r->done = TRUE;
}

static gboolean
result_done (gpointer data)
{
  return ((Result *) data)->done;
}

static gboolean
task_not_running (gpointer data)
{
  return !kiste_task_get_running (KISTE_TASK (data));
}

static gboolean
upgrade_printed (gpointer data)
{
  return strstr (kiste_task_get_output (KISTE_TASK (data)), "Building dependency tree") != NULL;
}

static GtkLabel *
find_label (GtkWidget  *root,
            const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found;

      if (GTK_IS_LABEL (child) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (child)), text) == 0)
        return GTK_LABEL (child);
      if ((found = find_label (child, text)))
        return found;
    }
  return NULL;
}

/* The output label; a collapsed expander keeps it out of the widget tree */
static GtkLabel *
find_output (GtkWidget *row)
{
  GtkWidget *expander = kiste_test_find_widget (row, GTK_TYPE_EXPANDER, NULL);
  GtkWidget *scroller;
  GtkWidget *label;

  g_assert_nonnull (expander);
  scroller = kiste_test_find_widget (gtk_expander_get_child (GTK_EXPANDER (expander)),
                                     GTK_TYPE_SCROLLED_WINDOW, "Command Output");
  g_assert_nonnull (scroller);
  label = kiste_test_find_widget (scroller, GTK_TYPE_LABEL, NULL);
  g_assert_nonnull (label);
  return GTK_LABEL (label);
}

static const char *
output_text (GtkWidget *row)
{
  return gtk_label_get_text (find_output (row));
}

typedef struct
{
  GtkWidget  *row;
  const char *text;
} OutputWait;

static gboolean
output_ends_with (gpointer data)
{
  OutputWait *wait = data;

  return g_str_has_suffix (output_text (wait->row), wait->text);
}

/* Lines are shown in batches: wait for the newest */
static void
assert_output_ends_soon (GtkWidget  *row,
                         const char *text)
{
  OutputWait wait = { row, text };

  if (!kiste_test_wait_for (output_ends_with, &wait, 2000))
    g_assert_cmpstr (output_text (row), ==, text);
}

static GtkWidget *
create_list_box (void)
{
  GtkWidget *list = gtk_list_box_new ();

  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_margin_top (list, 12);
  gtk_widget_set_margin_bottom (list, 12);
  gtk_widget_set_margin_start (list, 12);
  gtk_widget_set_margin_end (list, 12);
  gtk_widget_set_valign (list, GTK_ALIGN_START);
  return list;
}

static GtkWindow *
create_window (GtkWidget *child)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, 480, -1);
  gtk_window_set_child (window, child);
  gtk_window_present (window);
  kiste_test_flush (GTK_WIDGET (window));
  return window;
}

/* A row for task, alone in a list in a window */
static GtkWidget *
create_row_window (KisteTask  *task,
                   GtkWindow **window)
{
  GtkWidget *list = create_list_box ();
  GtkWidget *row = GTK_WIDGET (kiste_task_row_new (task));

  gtk_list_box_append (GTK_LIST_BOX (list), row);
  *window = create_window (list);
  return row;
}

/* Rows, on tasks made by hand ------------------------------------------- */

static void
finish_cancelled_cb (GCancellable *cancellable,
                     KisteTask    *task)
{
  g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");

  /* What an operation does when its command was killed */
  kiste_task_finish (task, error);
}

static void
test_row_running_cancel (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Upgrading", "fedora", NULL);
  GtkWidget *row;
  GtkWidget *cancel;
  GtkWidget *progress;
  GtkWidget *spinner;
  GtkWidget *image;
  GtkWindow *window;

  kiste_task_set_step (task, "Installing packages");
  kiste_task_set_fraction (task, 0.4);
  row = create_row_window (task, &window);

  g_assert_true (kiste_task_row_get_task (KISTE_TASK_ROW (row)) == task);
  g_assert_nonnull (find_label (row, "Upgrading · fedora"));
  g_assert_nonnull (find_label (row, "Installing packages"));
  spinner = kiste_test_find_widget (row, ADW_TYPE_SPINNER, NULL);
  image = kiste_test_find_widget (row, GTK_TYPE_IMAGE, NULL);
  g_assert_true (gtk_widget_get_visible (spinner));
  g_assert_false (gtk_widget_get_visible (image));
  progress = kiste_test_find_widget (row, GTK_TYPE_PROGRESS_BAR, "Progress");
  g_assert_true (gtk_widget_get_visible (progress));
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), 0.4, 1e-9);

  /* Not cancellable yet: no button */
  cancel = kiste_test_find_widget (row, GTK_TYPE_BUTTON, "Cancel");
  g_assert_nonnull (cancel);
  g_assert_false (gtk_widget_get_visible (cancel));

  kiste_task_set_cancellable_by_user (task, TRUE);
  g_assert_true (gtk_widget_get_visible (cancel));

  /* Progress that cannot be measured leaves it to the spinner */
  kiste_task_set_fraction (task, -1);
  g_assert_false (gtk_widget_get_visible (progress));
  kiste_task_set_fraction (task, 0.75);
  g_assert_true (gtk_widget_get_visible (progress));
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), 0.75, 1e-9);

  kiste_task_set_step (task, "Cleaning up");
  g_assert_nonnull (find_label (row, "Cleaning up"));

  g_signal_connect (kiste_task_get_cancellable (task), "cancelled",
                    G_CALLBACK (finish_cancelled_cb), task);
  g_signal_emit_by_name (cancel, "clicked");

  g_assert_true (g_cancellable_is_cancelled (kiste_task_get_cancellable (task)));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_CANCELLED);
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_false (gtk_widget_get_visible (spinner));
  g_assert_false (gtk_widget_get_visible (progress));
  g_assert_true (gtk_widget_get_visible (image));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (image)), ==, "process-stop-symbolic");
  g_assert_nonnull (find_label (row, "Cancelled"));

  gtk_window_destroy (window);
}

static void
test_row_cancel_pending (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Creating", "arch", NULL);
  GtkWidget *row;
  GtkWidget *cancel;
  GtkWindow *window;

  kiste_task_set_cancellable_by_user (task, TRUE);
  row = create_row_window (task, &window);

  /* The command takes a moment to stop: say so and do not offer it twice */
  cancel = kiste_test_find_widget (row, GTK_TYPE_BUTTON, "Cancel");
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_true (g_cancellable_is_cancelled (kiste_task_get_cancellable (task)));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_RUNNING);
  g_assert_nonnull (find_label (row, "Cancelling…"));
  g_assert_false (gtk_widget_get_sensitive (cancel));

  gtk_window_destroy (window);
}

static void
test_row_failed (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Stopping", "fedora", NULL);
  g_autoptr(GError) error = g_error_new_literal (KISTE_ERROR, KISTE_ERROR_COMMAND_FAILED,
                                                 "Error: no container with name fedora found");
  GtkWidget *row;
  GtkWidget *expander;
  GtkWidget *image;
  GtkLabel *status;
  GtkWindow *window;

  kiste_task_append_line (task, "podman stop --time 10 fedora");
  row = create_row_window (task, &window);

  expander = kiste_test_find_widget (row, GTK_TYPE_EXPANDER, NULL);
  g_assert_true (gtk_widget_get_visible (expander));
  g_assert_false (gtk_expander_get_expanded (GTK_EXPANDER (expander)));

  kiste_task_append_line (task, "Error: no container with name fedora found");
  kiste_task_finish (task, error);

  /* Expanded on failure, with the message and everything printed */
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  status = find_label (row, "Error: no container with name fedora found");
  g_assert_nonnull (status);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (status), "error"));
  g_assert_true (gtk_label_get_selectable (status));
  g_assert_cmpstr (output_text (row), ==,
                   "podman stop --time 10 fedora\nError: no container with name fedora found");
  g_assert_true (gtk_label_get_selectable (find_output (row)));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (find_output (row)), "monospace"));
  image = kiste_test_find_widget (row, GTK_TYPE_IMAGE, NULL);
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (image)), ==, "dialog-error-symbolic");
  g_assert_false (gtk_widget_get_visible (kiste_test_find_widget (row, GTK_TYPE_BUTTON, "Cancel")));

  gtk_window_destroy (window);
}

static void
test_row_failed_before_shown (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Deleting", "ubuntu", NULL);
  g_autoptr(GError) error = g_error_new_literal (KISTE_ERROR, KISTE_ERROR_BUSY, "“ubuntu” is busy");
  GtkWidget *row;
  GtkWindow *window;

  kiste_task_append_line (task, "distrobox rm --force ubuntu");
  kiste_task_finish (task, error);
  row = create_row_window (task, &window);

  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (kiste_test_find_widget (row, GTK_TYPE_EXPANDER, NULL))));
  g_assert_nonnull (find_label (row, "“ubuntu” is busy"));

  gtk_window_destroy (window);
}

static void
test_row_live_output (void)
{
  g_autoptr(KisteTask) task = kiste_task_new ("Upgrading", "debian", NULL);
  const char *text;
  GtkAdjustment *adj;
  GtkWidget *row;
  GtkWidget *expander;
  GtkWindow *window;

  row = create_row_window (task, &window);

  /* Nothing printed yet: nothing to expand */
  expander = kiste_test_find_widget (row, GTK_TYPE_EXPANDER, NULL);
  g_assert_false (gtk_widget_get_visible (expander));

  kiste_task_append_line (task, "Hit:1 http://deb.debian.org/debian bookworm InRelease");
  g_assert_true (gtk_widget_get_visible (expander));
  g_assert_cmpstr (output_text (row), ==, "Hit:1 http://deb.debian.org/debian bookworm InRelease");

  gtk_expander_set_expanded (GTK_EXPANDER (expander), TRUE);
  kiste_test_flush (row);
  kiste_task_append_line (task, "Reading package lists...");
  kiste_task_append_line (task, "Building dependency tree...");
  assert_output_ends_soon (row, "Building dependency tree...");
  g_assert_cmpstr (output_text (row), ==,
                   "Hit:1 http://deb.debian.org/debian bookworm InRelease\n"
                   "Reading package lists...\n"
                   "Building dependency tree...");

  /* Success keeps it as the person left it */
  kiste_task_finish (task, NULL);
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (expander)));
  g_assert_nonnull (find_label (row, "Done"));
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (kiste_test_find_widget (row, GTK_TYPE_IMAGE, NULL))),
                   ==, "object-select-symbolic");

  /* A long run keeps the newest lines only */
  for (guint i = 0; i < 2100; i++)
    {
      g_autofree char *line = g_strdup_printf ("line %u", i);

      kiste_task_append_line (task, line);
    }
  assert_output_ends_soon (row, "\nline 2099");
  text = output_text (row);
  g_assert_true (g_str_has_prefix (text, "line 100\n"));
  g_assert_null (strstr (text, "bookworm"));

  /* Scrolled to the newest line */
  kiste_test_flush (row);
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
          kiste_test_find_widget (row, GTK_TYPE_SCROLLED_WINDOW, "Command Output")));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adj),
                                  gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj),
                                  1);

  gtk_window_destroy (window);
}

static void
test_row_outlived_by_task (void)
{
  KisteTask *task = kiste_task_new ("Starting", "fedora", NULL);
  GtkWidget *row = GTK_WIDGET (kiste_task_row_new (task));

  /* A row gone before its task finishes must not be updated */
  g_object_ref_sink (row);
  g_assert_finalize_object (row);
  kiste_task_append_line (task, "late line");
  kiste_task_set_fraction (task, 0.5);
  kiste_task_finish (task, NULL);
  g_assert_finalize_object (task);
}

static void
test_rows_screenshot (void)
{
  g_autoptr(KisteTask) start = kiste_task_new ("Starting", "fedora", NULL);
  g_autoptr(KisteTask) create = kiste_task_new ("Creating", "arch-dev", NULL);
  GtkWidget *list = create_list_box ();
  GtkWindow *window;

  kiste_task_set_step (start, "Installing basic packages");
  kiste_task_set_fraction (start, 0.45);
  kiste_task_set_cancellable_by_user (start, TRUE);
  kiste_task_set_step (create, "Pulling the image");
  kiste_task_set_cancellable_by_user (create, TRUE);
  kiste_task_append_line (create, "distrobox create --yes --name arch-dev --image quay.io/toolbx/arch-toolbox:latest");
  kiste_task_append_line (create, "Trying to pull quay.io/toolbx/arch-toolbox:latest...");
  kiste_task_append_line (create, "Getting image source signatures");
  kiste_task_append_line (create, "Copying blob sha256:4f4fb700ef54461cfa02571ae0db9a0dc1e0cdb5577484a6d75e68dc38e8acc1");

  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (kiste_task_row_new (start)));
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (kiste_task_row_new (create)));
  gtk_expander_set_expanded (GTK_EXPANDER (kiste_test_find_widget (GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1)),
                                                                    GTK_TYPE_EXPANDER, NULL)),
                             TRUE);
  window = create_window (list);

  /* what the picture shows: each task's title and step, the first one's
   * progress and Cancel, the second one's output unfolded */
  {
    GtkWidget *first = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
    GtkWidget *second = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1));
    GtkWidget *progress = kiste_test_find_widget (first, GTK_TYPE_PROGRESS_BAR, "Progress");
    GtkWidget *cancel = kiste_test_find_widget (first, GTK_TYPE_BUTTON, "Cancel");

    g_assert_nonnull (find_label (first, "Starting · fedora"));
    g_assert_nonnull (find_label (first, "Installing basic packages"));
    g_assert_true (gtk_widget_get_visible (progress));
    g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), 0.45, 1e-9);
    g_assert_true (gtk_widget_get_visible (cancel));
    g_assert_nonnull (find_label (second, "Creating · arch-dev"));
    g_assert_nonnull (find_label (second, "Pulling the image"));
    g_assert_nonnull (strstr (output_text (second), "Getting image source signatures"));
  }
  kiste_test_screenshot (GTK_WIDGET (window), "task-rows-running");
  gtk_window_destroy (window);
}

/* Save to File's row while the file is written: how much of how much,
 * the time left, the bar and Cancel */
static void
test_row_bytes (void)
{
  g_autoptr(KisteTask) save = kiste_task_new ("Saving to a file", "arch-dev", NULL);
  GtkWidget *list = create_list_box ();
  GtkWidget *row, *progress, *cancel;
  GtkWindow *window;
  guint64 total = G_GUINT64_CONSTANT (3) * 1000 * 1000 * 1000;

  kiste_task_set_cancellable_by_user (save, TRUE);
  kiste_task_set_bytes (save, "Writing the file", 0, total);
  gtk_list_box_append (GTK_LIST_BOX (list), GTK_WIDGET (kiste_task_row_new (save)));
  window = create_window (list);
  /* a quarter in two seconds: some seconds more */
  g_usleep (2100 * 1000);
  kiste_task_set_bytes (save, "Writing the file", total / 4, total);
  kiste_test_flush (GTK_WIDGET (window));

  row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0));
  progress = kiste_test_find_widget (row, GTK_TYPE_PROGRESS_BAR, "Progress");
  cancel = kiste_test_find_widget (row, GTK_TYPE_BUTTON, "Cancel");
  g_assert_nonnull (find_label (row, "Saving to a file · arch-dev"));
  g_assert_nonnull (find_label (row, "Writing the file: 750.0\302\240MB of 3.0\302\240GB, "
                                     "less than a minute left"));
  g_assert_true (gtk_widget_get_visible (progress));
  g_assert_cmpfloat_with_epsilon (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)),
                                  0.25, 1e-9);
  g_assert_true (gtk_widget_get_visible (cancel));
  kiste_test_screenshot (GTK_WIDGET (window), "task-row-bytes");
  gtk_window_destroy (window);
}

/* The list, on a manager's tasks ----------------------------------------- */

typedef struct
{
  KisteManager *manager;
  GtkWindow    *window;
  GtkWidget    *popover;
  KisteTaskList *list;
} ListFixture;

static void
list_fixture_setup (ListFixture   *fixture,
                    gconstpointer  data)
{
  GtkWidget *header;
  GtkWidget *button;

  fixture->manager = create_manager ();
  fixture->list = kiste_task_list_new (fixture->manager);

  /* As the window shows it: in a popover from a header bar button */
  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 720, 640);
  header = adw_header_bar_new ();
  button = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-list-bullet-symbolic");
  fixture->popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (fixture->popover), GTK_WIDGET (fixture->list));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), fixture->popover);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), button);
  gtk_window_set_titlebar (fixture->window, header);
  gtk_window_set_child (fixture->window, adw_status_page_new ());
  gtk_window_present (fixture->window);
  kiste_test_flush (GTK_WIDGET (fixture->window));
  gtk_popover_popup (GTK_POPOVER (fixture->popover));
  kiste_test_flush (fixture->popover);
}

static void
list_fixture_teardown (ListFixture   *fixture,
                       gconstpointer  data)
{
  g_object_add_weak_pointer (G_OBJECT (fixture->list), (gpointer *) &fixture->list);
  gtk_window_destroy (fixture->window);
  g_assert_null (fixture->list);
  g_assert_finalize_object (fixture->manager);
}

static GtkListBox *
get_list_box (ListFixture *fixture)
{
  GtkWidget *box = kiste_test_find_widget (GTK_WIDGET (fixture->list), GTK_TYPE_LIST_BOX, "Tasks");

  g_assert_nonnull (box);
  return GTK_LIST_BOX (box);
}

static KisteTask *
row_task (ListFixture *fixture,
          int          index)
{
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (get_list_box (fixture), index);

  g_assert_nonnull (row);
  return kiste_task_row_get_task (KISTE_TASK_ROW (row));
}

static guint
n_rows (ListFixture *fixture)
{
  guint n = 0;

  while (gtk_list_box_get_row_at_index (get_list_box (fixture), n) != NULL)
    n++;
  return n;
}

static void
test_list_empty (ListFixture   *fixture,
                 gconstpointer  data)
{
  GtkWidget *status = kiste_test_find_widget (GTK_WIDGET (fixture->list), ADW_TYPE_STATUS_PAGE, "No Tasks");
  GtkWidget *list_box = GTK_WIDGET (get_list_box (fixture));
  Result r = { 0 };

  g_assert_nonnull (status);
  g_assert_true (gtk_widget_get_mapped (status));
  g_assert_false (gtk_widget_get_mapped (list_box));
  g_assert_false (kiste_task_list_get_busy (fixture->list));
  {
    g_autoptr(KisteManager) manager = NULL;

    g_object_get (fixture->list, "manager", &manager, NULL);
    g_assert_true (manager == fixture->manager);
  }
  kiste_test_screenshot (fixture->popover, "task-list-empty");

  kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
  kiste_test_flush (fixture->popover);
  g_assert_true (gtk_widget_get_mapped (list_box));
  g_assert_false (gtk_widget_get_mapped (status));
  g_assert_true (kiste_test_wait_for (result_done, &r, 5000));
}

static void
test_list_newest_first (ListFixture   *fixture,
                        gconstpointer  data)
{
  Result stop = { 0 };
  Result del = { 0 };
  Result upgrade = { 0 };
  KisteTask *stop_task;
  KisteTask *delete_task;
  KisteTask *upgrade_task;
  GtkListBoxRow *row;
  GtkWidget *cancel;
  const GError *error;

  stop_task = kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &stop);
  g_assert_true (kiste_test_wait_for (result_done, &stop, 5000));
  g_assert_true (stop.ok);
  delete_task = kiste_manager_delete_async (fixture->manager, "fixture-b", FALSE, NULL, operation_cb, &del);
  g_assert_true (kiste_test_wait_for (result_done, &del, 5000));
  g_assert_false (del.ok);
  g_assert_false (kiste_task_list_get_busy (fixture->list));
  upgrade_task = kiste_manager_upgrade_async (fixture->manager, "fixture-c", NULL, operation_cb, &upgrade);
  g_assert_true (kiste_task_list_get_busy (fixture->list));

  g_assert_cmpuint (n_rows (fixture), ==, 3);
  g_assert_true (row_task (fixture, 0) == upgrade_task);
  g_assert_true (row_task (fixture, 1) == delete_task);
  g_assert_true (row_task (fixture, 2) == stop_task);

  /* The failed one is open, with its error */
  row = gtk_list_box_get_row_at_index (get_list_box (fixture), 1);
  error = kiste_task_get_error (delete_task);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "in use"));
  g_assert_nonnull (find_label (GTK_WIDGET (row), error->message));
  g_assert_true (gtk_expander_get_expanded (GTK_EXPANDER (kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_EXPANDER, NULL))));
  g_assert_true (g_str_has_prefix (output_text (GTK_WIDGET (row)), "distrobox rm "));
  g_assert_true (g_str_has_suffix (output_text (GTK_WIDGET (row)), "\nError: container fixture-b is in use"));

  /* The upgrade's lines arrive while it runs */
  row = gtk_list_box_get_row_at_index (get_list_box (fixture), 0);
  g_assert_true (kiste_test_wait_for (upgrade_printed, upgrade_task, 5000));
  assert_output_ends_soon (GTK_WIDGET (row), "Reading package lists...\nBuilding dependency tree...");
  gtk_expander_set_expanded (GTK_EXPANDER (kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_EXPANDER, NULL)), TRUE);

  kiste_test_screenshot (fixture->popover, "task-list");

  /* Cancel stops the command and ends the task as cancelled */
  cancel = kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_BUTTON, "Cancel");
  g_assert_nonnull (cancel);
  g_assert_true (gtk_widget_get_visible (cancel));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_true (kiste_test_wait_for (task_not_running, upgrade_task, 5000));
  g_assert_cmpint (kiste_task_get_state (upgrade_task), ==, KISTE_TASK_CANCELLED);
  g_assert_true (kiste_test_wait_for (result_done, &upgrade, 5000));
  g_assert_false (upgrade.ok);
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_nonnull (find_label (GTK_WIDGET (row), "Cancelled"));
  g_assert_false (kiste_task_list_get_busy (fixture->list));
}

/* Finished rows say what came of them, not what was going on; they can
 * be cleared, and the output opens from a whole line */
static void
test_list_finished_and_cleared (ListFixture   *fixture,
                                gconstpointer  data)
{
  Result stop = { 0 };
  Result del = { 0 };
  Result upgrade = { 0 };
  KisteTask *upgrade_task;
  GtkListBoxRow *row;
  GtkWidget *clear;
  GtkWidget *expander;
  GtkWidget *title;
  graphene_rect_t bounds;

  kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &stop);
  g_assert_true (kiste_test_wait_for (result_done, &stop, 5000));
  kiste_manager_delete_async (fixture->manager, "fixture-b", FALSE, NULL, operation_cb, &del);
  g_assert_true (kiste_test_wait_for (result_done, &del, 5000));
  upgrade_task = kiste_manager_upgrade_async (fixture->manager, "fixture-c", NULL, operation_cb, &upgrade);
  kiste_test_flush (fixture->popover);

  row = gtk_list_box_get_row_at_index (get_list_box (fixture), 2);
  g_assert_nonnull (find_label (GTK_WIDGET (row), "“fixture-a” stopped"));
  g_assert_null (find_label (GTK_WIDGET (row), "Stopping · fixture-a"));
  g_assert_null (find_label (GTK_WIDGET (row), "Done"));
  row = gtk_list_box_get_row_at_index (get_list_box (fixture), 1);
  g_assert_nonnull (find_label (GTK_WIDGET (row), "Could not delete “fixture-b”"));
  row = gtk_list_box_get_row_at_index (get_list_box (fixture), 0);
  g_assert_nonnull (find_label (GTK_WIDGET (row), "Upgrading · fixture-c"));

  /* the output's expander: a line as high as a button */
  expander = kiste_test_find_widget (GTK_WIDGET (row), GTK_TYPE_EXPANDER, NULL);
  g_assert_true (kiste_test_wait_for ((gpointer) gtk_widget_get_visible, expander, 5000));
  kiste_test_flush (fixture->popover);
  title = gtk_widget_get_first_child (gtk_widget_get_first_child (expander));
  g_assert_true (gtk_widget_compute_bounds (title, expander, &bounds));
  g_assert_cmpfloat (bounds.size.height, >=, 32);
  g_assert_cmpfloat (bounds.size.width, >=, gtk_widget_get_width (expander) - 1);
  kiste_test_screenshot (fixture->popover, "task-list-finished");

  clear = kiste_test_find_widget (GTK_WIDGET (fixture->list), GTK_TYPE_BUTTON, "Clear Finished Tasks");
  g_assert_nonnull (clear);
  g_assert_true (gtk_widget_get_sensitive (clear));
  g_signal_emit_by_name (clear, "clicked");
  g_assert_cmpuint (n_rows (fixture), ==, 1);
  g_assert_true (row_task (fixture, 0) == upgrade_task);
  g_assert_false (gtk_widget_get_sensitive (clear));

  kiste_task_cancel (upgrade_task);
  g_assert_true (kiste_test_wait_for (result_done, &upgrade, 5000));
  g_assert_true (gtk_widget_get_sensitive (clear));
  g_signal_emit_by_name (clear, "clicked");
  g_assert_cmpuint (n_rows (fixture), ==, 0);
}

static void
test_list_follows_removals (ListFixture   *fixture,
                            gconstpointer  data)
{
  GListModel *tasks = kiste_manager_get_tasks (fixture->manager);
  guint n;

  /* The manager keeps 50 finished tasks: older rows go, in order */
  for (guint i = 0; i < 53; i++)
    {
      Result r = { 0 };

      kiste_manager_stop_async (fixture->manager, "fixture-a", NULL, operation_cb, &r);
      g_assert_true (kiste_test_wait_for (result_done, &r, 5000));
    }

  n = g_list_model_get_n_items (tasks);
  g_assert_cmpuint (n, ==, 50);
  g_assert_cmpuint (n_rows (fixture), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KisteTask) task = g_list_model_get_item (tasks, i);

      g_assert_true (row_task (fixture, n - 1 - i) == task);
    }
}

int
main (int   argc,
      char *argv[])
{
  kiste_test_catch_crashes ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  kiste_register_resource ();

  g_test_add_func ("/kiste/task-row/running-cancel", test_row_running_cancel);
  g_test_add_func ("/kiste/task-row/cancel-pending", test_row_cancel_pending);
  g_test_add_func ("/kiste/task-row/failed", test_row_failed);
  g_test_add_func ("/kiste/task-row/failed-before-shown", test_row_failed_before_shown);
  g_test_add_func ("/kiste/task-row/live-output", test_row_live_output);
  g_test_add_func ("/kiste/task-row/outlived-by-task", test_row_outlived_by_task);
  g_test_add_func ("/kiste/task-row/screenshot", test_rows_screenshot);
  g_test_add_func ("/kiste/task-row/bytes", test_row_bytes);
  g_test_add ("/kiste/task-list/empty", ListFixture, NULL,
              list_fixture_setup, test_list_empty, list_fixture_teardown);
  g_test_add ("/kiste/task-list/newest-first", ListFixture, NULL,
              list_fixture_setup, test_list_newest_first, list_fixture_teardown);
  g_test_add ("/kiste/task-list/finished-and-cleared", ListFixture, NULL,
              list_fixture_setup, test_list_finished_and_cleared, list_fixture_teardown);
  g_test_add ("/kiste/task-list/follows-removals", ListFixture, NULL,
              list_fixture_setup, test_list_follows_removals, list_fixture_teardown);

  return g_test_run ();
}
