/* test-create-dialog.c
 *
 * Copyright 2026 The Kiste authors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "kiste-capabilities-private.h"
#include "kiste-create-dialog-private.h"
#include "kiste-create-progress.h"
#include "kiste-error.h"
#include "kiste-fake-runner.h"
#include "kiste-manager-private.h"
#include "kiste-resources.h"
#include "kiste-test-ui.h"
#include "kiste-test-util.h"
#include "kiste-volume-row.h"

#define IMAGE "localhost/kiste-debian:ready"
#define SNAPSHOT "localhost/kiste-snapshot:dev-20261206-093000"

static const char images_json[] =
  "[{\"Id\":\"d401\",\"RepoTags\":null,\"Names\":[\"localhost/kiste-debian:ready\"],\"Size\":2183569684},"
  " {\"Id\":\"203e\",\"Names\":[\"localhost/kiste-debian:bookworm\"],\"Size\":674899038},"
  " {\"Id\":\"0000\",\"Names\":null,\"RepoTags\":[\"<none>:<none>\"]},"
  " {\"Id\":\"5a45\",\"Names\":[\"" SNAPSHOT "\"],\"Size\":2183570000}]";

/* docker prints one JSON object per line */
static const char docker_images[] =
  "{\"Containers\":\"N/A\",\"Repository\":\"docker.io/library/ubuntu\",\"Tag\":\"24.04\"}\n"
  "{\"Containers\":\"N/A\",\"Repository\":\"<none>\",\"Tag\":\"<none>\"}\n"
  "{\"Containers\":\"N/A\",\"Repository\":\"quay.io/toolbx/arch-toolbox\",\"Tag\":\"latest\"}\n";

typedef enum
{
  CREATE_SUCCEEDS,
  CREATE_FAILS,
  CREATE_HANGS,
} CreateScenario;

typedef enum
{
  LOGS_WHOLE,      /* a whole first start, up to container_setup_done */
  LOGS_PARTIAL,    /* part of a first start, then nothing more */
} LogsScenario;

/* The shared fake runner stands in for distrobox and podman: ps lists the
 * fixture boxes (plus the new one once it was created),
 * start/inspect/logs replay a captured first start (tests/fakes). */
static void
set_create (KisteFakeRunner *runner,
            CreateScenario   scenario)
{
  const char *scripts[] = {
    [CREATE_SUCCEEDS] =
      "echo \"Image docker.io/library/debian:12 not found.\"; "
      "echo \"Trying to pull docker.io/library/debian:12...\"; "
      "echo \"Copying blob sha256:0a1b2c3d done\"; "
      "echo \"Writing manifest to image destination\"; "
      "touch \"$KISTE_FAKE_STATE/created\"; "
      "sleep 0.2; "
      "echo \"Creating 'newbox' using image " IMAGE "\"",
    [CREATE_FAILS] =
      "echo \"Creating 'newbox' using image " IMAGE "\"; "
      "echo 'Error: crun: cannot stat /proc/self/fd/5: OCI permission denied' >&2; exit 125",
    [CREATE_HANGS] =
      "echo \"Trying to pull docker.io/library/debian:12...\"; exec sleep 600",
  };

  kiste_fake_runner_add (runner, "distrobox create", scripts[scenario]);
  /* the list of known images is its own command */
  kiste_fake_runner_add (runner, "distrobox create --compatibility",
                         "printf '%s\\n' quay.io/toolbx/ubuntu-toolbox:24.04 docker.io/library/debian:12 "
                         "registry.fedoraproject.org/fedora-toolbox:41");
}

static void
set_logs (KisteFakeRunner *runner,
          LogsScenario     scenario)
{
  if (scenario == LOGS_PARTIAL)
    kiste_fake_runner_add (runner, "podman logs",
                           "head -n 1430 \"$KISTE_TEST_FIXTURES/logs-first-start-debian.txt\"; "
                           "exec sleep 600");
  else
    kiste_fake_runner_add (runner, "podman logs", "exec \"$KISTE_TEST_FAKES/ops-podman.sh\" \"$@\"");
}

static void
write_state_file (const char *state_dir,
                  const char *name,
                  const char *contents)
{
  g_autofree char *path = g_build_filename (state_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
}

typedef struct
{
  KisteFakeRunner   *runner;
  char              *state_dir;
  KisteManager      *manager;
  GtkWindow         *window;
  KisteCreateDialog *dialog;
  char              *created;
  gboolean           closed;
} Fixture;

/* The fixture boxes, and the same plus "newbox" (a copy of fixture-a) */
/* ps after a create: the boxes there were and the new one, stopped */
static void
write_ps_after (const char *state_dir,
                const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonArray) names = json_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;
  JsonNode *copy;
  JsonObject *box;

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  copy = json_node_copy (json_array_get_element (json_node_get_array (json_parser_get_root (parser)), 0));
  box = json_node_get_object (copy);
  json_array_add_string_element (names, name);
  json_object_set_array_member (box, "Names", json_array_ref (names));
  json_object_set_string_member (box, "Id", "4e3f00aa5c9b2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7");
  json_object_set_string_member (box, "State", "exited");
  json_array_add_element (json_node_get_array (json_parser_get_root (parser)), copy);
  after = json_to_string (json_parser_get_root (parser), FALSE);
  write_state_file (state_dir, "ps-after.json", after);
}

static void
write_ps_files (const char *state_dir)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "ps-podman5.json", NULL);
  g_autofree char *before = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &before, NULL, &error));
  g_assert_no_error (error);
  write_state_file (state_dir, "ps-before.json", before);
  write_ps_after (state_dir, "newbox");
}

static char **
help_flags (const char *fixture)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), fixture, NULL);
  g_autofree char *help = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &help, NULL, &error));
  g_assert_no_error (error);
  return kiste_capabilities_parse_create_help (help);
}

/* The flags of a distrobox's `create --help`, minus those in remove */
static void
set_capabilities (Fixture            *fx,
                  const char         *help_fixture,
                  const char * const *remove)
{
  g_auto(GStrv) flags = help_flags (help_fixture);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) kept = NULL;

  for (guint i = 0; flags[i] != NULL; i++)
    if (remove == NULL || !g_strv_contains (remove, flags[i]))
      g_strv_builder_add (builder, flags[i]);
  kept = g_strv_builder_end (builder);

  _kiste_capabilities_set_for_testing (kiste_manager_get_capabilities (fx->manager),
                                       "1.8.2.5", "podman", (const char * const *) kept);
}

static void
created_cb (KisteCreateDialog *dialog,
            const char        *name,
            Fixture           *fx)
{
  g_free (fx->created);
  fx->created = g_strdup (name);
}

static void
closed_cb (AdwDialog *dialog,
           Fixture   *fx)
{
  fx->closed = TRUE;
}

static void
open_dialog (Fixture *fx)
{
  if (fx->dialog != NULL)
    adw_dialog_force_close (ADW_DIALOG (fx->dialog));
  g_clear_object (&fx->dialog);

  fx->closed = FALSE;
  fx->dialog = g_object_ref_sink (kiste_create_dialog_new (fx->manager));
  g_signal_connect (fx->dialog, "created", G_CALLBACK (created_cb), fx);
  g_signal_connect (fx->dialog, "closed", G_CALLBACK (closed_cb), fx);
  adw_dialog_present (ADW_DIALOG (fx->dialog), GTK_WIDGET (fx->window));
  kiste_test_flush (GTK_WIDGET (fx->window));
}

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

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  KisteBoxStore *store;

  fx->state_dir = g_dir_make_tmp ("kiste-test-create-XXXXXX", &error);
  g_assert_no_error (error);
  write_ps_files (fx->state_dir);
  write_state_file (fx->state_dir, "images.json", images_json);
  write_state_file (fx->state_dir, "images-docker.txt", docker_images);

  fx->runner = kiste_fake_runner_new ();
  kiste_fake_runner_add (fx->runner, "podman", "exec \"$KISTE_TEST_FAKES/ops-podman.sh\" \"$@\"");
  kiste_fake_runner_add (fx->runner, "podman ps",
                         "if [ -e \"$KISTE_FAKE_STATE/created\" ]; then cat \"$KISTE_FAKE_STATE/ps-after.json\"; "
                         "else cat \"$KISTE_FAKE_STATE/ps-before.json\"; fi");
  kiste_fake_runner_add (fx->runner, "podman images", "cat \"$KISTE_FAKE_STATE/images.json\"");
  kiste_fake_runner_add (fx->runner, "docker images", "cat \"$KISTE_FAKE_STATE/images-docker.txt\"");
  set_create (fx->runner, CREATE_SUCCEEDS);
  set_logs (fx->runner, LOGS_WHOLE);
  /* each test reads distrobox's list of known images afresh */
  _kiste_manager_forget_compatible_images ();
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_FAKE_STATE", fx->state_dir);
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_FAKE_BOX", "newbox");
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_TEST_FIXTURES", g_getenv ("KISTE_TEST_FIXTURES"));

  fx->manager = kiste_manager_new (KISTE_RUNNER (fx->runner));
  set_capabilities (fx, "help-distrobox-1.8.2.5.txt", NULL);

  store = _kiste_manager_get_store (fx->manager);
  kiste_box_store_set_host_home (store, "/home/kistetest");
  reload_store (store);

  fx->window = GTK_WINDOW (adw_window_new ());
  gtk_window_set_default_size (fx->window, 760, 980);
  gtk_window_present (fx->window);
  kiste_test_flush (GTK_WIDGET (fx->window));

  open_dialog (fx);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_autofree char *state_dir = g_steal_pointer (&fx->state_dir);

  if (fx->dialog != NULL)
    adw_dialog_force_close (ADW_DIALOG (fx->dialog));
  g_clear_object (&fx->dialog);
  gtk_window_destroy (fx->window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fx->manager);
  g_clear_object (&fx->runner);
  g_clear_pointer (&fx->created, g_free);
  kiste_test_remove_tree (state_dir);
}

/* Widgets ---------------------------------------------------------------- */

static GtkWidget *
find_row (GtkWidget  *root,
          const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (ADW_IS_PREFERENCES_ROW (child) &&
          g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title) == 0)
        return child;
      if ((found = find_row (child, title)))
        return found;
    }
  return NULL;
}

static GtkWidget *
row (Fixture    *fx,
     const char *title)
{
  GtkWidget *widget = find_row (GTK_WIDGET (fx->dialog), title);

  if (widget == NULL)
    g_error ("no row titled “%s”", title);
  return widget;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_BUTTON (child) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (child)), label) == 0)
        return child;
      if ((found = find_button (child, label)))
        return found;
    }
  return NULL;
}

static GtkWidget *
button (Fixture    *fx,
        const char *label)
{
  GtkWidget *widget = find_button (GTK_WIDGET (fx->dialog), label);

  if (widget == NULL)
    g_error ("no button labelled “%s”", label);
  return widget;
}

static void
collect_error_labels (GtkWidget *root,
                      GPtrArray *labels)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, "error") &&
          gtk_widget_is_visible (child) && gtk_label_get_text (GTK_LABEL (child))[0] != '\0')
        g_ptr_array_add (labels, child);
      collect_error_labels (child, labels);
    }
}

static GtkWidget *
find_label_containing (GtkWidget  *root,
                       const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_is_visible (child) &&
          strstr (gtk_label_get_text (GTK_LABEL (child)), text) != NULL)
        return child;
      if ((found = find_label_containing (child, text)))
        return found;
    }
  return NULL;
}

/* Scrolls the form so that widget is at the top, for screenshots */
static void
scroll_to (Fixture   *fx,
           GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content;
  GtkAdjustment *adjustment;
  graphene_point_t point;

  g_assert_nonnull (scrolled);
  kiste_test_flush (GTK_WIDGET (fx->window));
  content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_true (gtk_widget_compute_point (widget, content, &GRAPHENE_POINT_INIT (0, 0), &point));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  /* the point is relative to what is in view now */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + point.y - 12);
  kiste_test_flush (GTK_WIDGET (fx->window));
}

static void
set_text (Fixture    *fx,
          const char *title,
          const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row (fx, title)), text);
}

static void
set_active (Fixture    *fx,
            const char *title,
            gboolean    active)
{
  adw_switch_row_set_active (ADW_SWITCH_ROW (row (fx, title)), active);
}

static const char *
subtitle (Fixture    *fx,
          const char *title)
{
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row (fx, title)));
}

static GtkWidget *
find_label_with_class (GtkWidget  *root,
                       const char *css_class)
{
  for (GtkWidget *child = gtk_widget_get_first_child (root);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, css_class))
        return child;
      if ((found = find_label_with_class (child, css_class)))
        return found;
    }
  return NULL;
}

/* The text in the "Show Command" expander */
static const char *
command_text (Fixture *fx)
{
  GtkWidget *label = find_label_with_class (row (fx, "Show C_ommand"), "monospace");

  g_assert_nonnull (label);
  return gtk_label_get_text (GTK_LABEL (label));
}

static guint
n_create_commands (Fixture *fx)
{
  guint n = 0;

  for (guint i = 0; i < kiste_fake_runner_get_commands (fx->runner)->len; i++)
    {
      const char *command = g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), i);

      if (g_str_has_prefix (command, "distrobox create") && !strstr (command, "--compatibility"))
        n++;
    }
  return n;
}

static const char *
find_command (Fixture    *fx,
              const char *prefix)
{
  for (guint i = 0; i < kiste_fake_runner_get_commands (fx->runner)->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), i), prefix))
      return g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), i);
  return NULL;
}

static void
fill_valid (Fixture *fx)
{
  set_text (fx, "Image", IMAGE);
  set_text (fx, "Name", "newbox");
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
}

/* The message sits next to the field: in the same group or expander,
 * visible, and the field is marked and described */
static void
assert_error_at (Fixture    *fx,
                 GtkWidget  *field,
                 const char *expected)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GtkWidget *container;
  GtkWidget *label = NULL;
  g_autofree char *mismatch = NULL;

  kiste_test_flush (GTK_WIDGET (fx->window));

  container = gtk_widget_get_ancestor (field, ADW_TYPE_EXPANDER_ROW);
  if (container == NULL)
    container = gtk_widget_get_ancestor (field, ADW_TYPE_PREFERENCES_GROUP);
  if (KISTE_IS_VOLUME_ROW (field))
    container = field;
  g_assert_nonnull (container);

  collect_error_labels (container, labels);
  g_assert_cmpuint (labels->len, >=, 1);
  for (guint i = 0; i < labels->len; i++)
    if (strstr (gtk_label_get_text (g_ptr_array_index (labels, i)), expected))
      label = g_ptr_array_index (labels, i);
  if (label == NULL)
    g_error ("no error containing “%s”, first is “%s”", expected,
             gtk_label_get_text (g_ptr_array_index (labels, 0)));
  g_assert_true (gtk_widget_get_mapped (label));

  g_assert_true (gtk_widget_has_css_class (field, "error"));
  mismatch = gtk_test_accessible_check_property (GTK_ACCESSIBLE (field),
                                                 GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                 gtk_label_get_text (GTK_LABEL (label)));
  g_assert_null (mismatch);
}

static void
assert_nothing_runs (Fixture *fx)
{
  GtkWidget *create = button (fx, "C_reate");

  g_assert_false (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_false (gtk_widget_get_sensitive (create));

  /* even a click forced on the insensitive button starts nothing */
  g_signal_emit_by_name (create, "clicked");
  kiste_test_flush (GTK_WIDGET (fx->window));
  if (n_create_commands (fx) != 0)
    g_test_message ("ran: %s", find_command (fx, "distrobox create --yes"));
  g_assert_cmpuint (n_create_commands (fx), ==, 0);
  g_assert_null (kiste_manager_get_task_for_box (fx->manager, "newbox"));
}

/* Tests ------------------------------------------------------------------- */

static void
test_suggested_name (Fixture       *fx,
                     gconstpointer  data)
{
  GtkWidget *name = row (fx, "Name");
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  /* an empty form is not wrong yet, only incomplete */
  collect_error_labels (GTK_WIDGET (fx->dialog), labels);
  g_assert_cmpuint (labels->len, ==, 0);
  g_assert_false (gtk_widget_get_sensitive (button (fx, "C_reate")));

  set_text (fx, "Image", "docker.io/library/ubuntu:24.04");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "ubuntu-24-04");
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));

  /* a taken name gets a number */
  set_text (fx, "Image", "example.org/fixture:a");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "fixture-a-2");

  /* once people type their own, the image no longer changes it */
  set_text (fx, "Name", "mine");
  set_text (fx, "Image", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "mine");

  /* cleared, it follows the image again (the image picked anew: setting
   * the text it has changes no option) */
  set_text (fx, "Name", "");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "");
  set_text (fx, "Image", "");
  set_text (fx, "Image", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, "arch-toolbox-latest");

  /* a separate home follows the name until it is edited */
  set_active (fx, "_Separate Home Folder", TRUE);
  g_assert_true (g_str_has_suffix (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Folder"))),
                                   "/Boxes/arch-toolbox-latest"));
  set_text (fx, "Name", "other");
  g_assert_true (g_str_has_suffix (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Folder"))),
                                   "/Boxes/other"));
  g_assert_true (strstr (command_text (fx), "--home ") != NULL);
}

/* One change of the form, one validation: the options say "changed" once
 * however many of them a change moves (the name and home following the
 * image, the rows following init) */
static guint
validations (Fixture *fx)
{
  return fx->dialog->n_validations;
}

static void
test_one_validation_per_change (Fixture       *fx,
                                gconstpointer  data)
{
  GtkWidget *volume;
  guint before;

  set_text (fx, "Image", "docker.io/library/ubuntu:24.04");
  set_active (fx, "_Separate Home Folder", TRUE);

  /* the image moves the name, which moves the home */
  before = validations (fx);
  set_text (fx, "Image", "quay.io/toolbx/arch-toolbox:latest");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "arch-toolbox-latest");
  g_assert_true (g_str_has_suffix (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Folder"))),
                                   "/Boxes/arch-toolbox-latest"));
  g_assert_cmpuint (validations (fx), ==, before + 1);

  /* the switch turns the home off and forgets its folder */
  before = validations (fx);
  set_active (fx, "_Separate Home Folder", FALSE);
  g_assert_cmpuint (validations (fx), ==, before + 1);

  /* one typed text */
  before = validations (fx);
  set_text (fx, "Host Name", "devbox");
  g_assert_cmpuint (validations (fx), ==, before + 1);
  g_assert_cmpstr (kiste_create_options_get_hostname (kiste_create_dialog_get_options (fx->dialog)),
                   ==, "devbox");

  /* init locks two unshare rows on */
  before = validations (fx);
  set_active (fx, "_Init System", TRUE);
  g_assert_cmpuint (validations (fx), ==, before + 1);
  g_assert_true (adw_switch_row_get_active (fx->dialog->process_row));
  g_assert_false (kiste_create_options_get_unshare (kiste_create_dialog_get_options (fx->dialog),
                                                    KISTE_UNSHARE_PROCESS));

  /* a volume row: its error comes with the one validation */
  g_signal_emit_by_name (row (fx, "_Add Volume"), "activated");
  volume = kiste_test_find_widget (GTK_WIDGET (fx->dialog), KISTE_TYPE_VOLUME_ROW, NULL);
  before = validations (fx);
  kiste_volume_row_set_host_path (KISTE_VOLUME_ROW (volume), "/srv/a:b");
  g_assert_cmpuint (validations (fx), ==, before + 1);
  before = validations (fx);
  kiste_volume_row_set_box_path (KISTE_VOLUME_ROW (volume), "/data");
  g_assert_cmpuint (validations (fx), ==, before + 1);
  g_assert_nonnull (strstr (kiste_volume_row_get_error (KISTE_VOLUME_ROW (volume)),
                            "may not contain “:”"));
}

static const struct
{
  const char *field;
  const char *value;
  const char *expected;
} bad_inputs[] = {
  { "Name", "bad;name", "may only contain letters" },
  { "Name", "x$(touch pwned)", "may only contain letters" },
  { "Name", "`id`", "may only contain letters" },
  { "Name", "has space", "may only contain letters" },
  { "Name", "-leading", "may only contain letters" },
  { "Name", "bøx-ünïcode", "may only contain letters" },
  { "Name", "fixture-a", "is taken" },
  { "Image", "Ubuntu:Latest; rm -rf ~", NULL },
  { "Host Name", "h234567890123456789012345678901234567890123456789012345678901234567890", "64" },
  { "Folder", "relative/home", "absolute path" },
  { "Folder", "/home/u/$(id)", "may not contain" },
  { "Folder", "/home/u/a:b", "may not contain “:”" },
  { "Additional Packages, Separated by Spaces", "vim;reboot", NULL },
};

static void
test_bad_input (Fixture       *fx,
                gconstpointer  data)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      open_dialog (fx);
      fill_valid (fx);
      if (g_str_equal (bad_inputs[i].field, "Folder"))
        set_active (fx, "_Separate Home Folder", TRUE);

      set_text (fx, bad_inputs[i].field, bad_inputs[i].value);
      g_test_message ("bad input: %s = %s", bad_inputs[i].field, bad_inputs[i].value);
      assert_error_at (fx, row (fx, bad_inputs[i].field),
                       bad_inputs[i].expected ? bad_inputs[i].expected : "");
      assert_nothing_runs (fx);
      if (i == 0)
        kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-errors");
    }

  /* 300 characters */
  {
    g_autofree char *long_name = g_strnfill (300, 'a');

    open_dialog (fx);
    fill_valid (fx);
    set_text (fx, "Name", long_name);
    assert_error_at (fx, row (fx, "Name"), "at most");
    assert_nothing_runs (fx);
  }

  /* No hostname but its own network: NAME.<host> must fit in 64 */
  {
    g_autofree char *long_name = g_strnfill (62, 'n');

    open_dialog (fx);
    fill_valid (fx);
    set_text (fx, "Name", long_name);
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
    set_active (fx, "_Network", TRUE);
    assert_error_at (fx, row (fx, "Host Name"), "");
    /* the folded section opened to show it */
    g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row (fx, "S_ystem"))));
    assert_nothing_runs (fx);
    set_text (fx, "Host Name", "devbox");
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  }

  /* A volume without a colon, shown at its own row */
  {
    g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
    GtkWidget *volume;

    open_dialog (fx);
    kiste_create_options_set_name (options, "newbox");
    kiste_create_options_set_image (options, IMAGE);
    kiste_create_options_add_volume (options, "/srv/data");
    kiste_create_dialog_set_options (fx->dialog, options);

    volume = kiste_test_find_widget (GTK_WIDGET (fx->dialog), KISTE_TYPE_VOLUME_ROW, NULL);
    g_assert_nonnull (volume);
    g_assert_cmpstr (kiste_volume_row_get_host_path (KISTE_VOLUME_ROW (volume)), ==, "/srv/data");
    assert_error_at (fx, volume, "needs a colon");
    g_assert_true (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row (fx, "_Volumes"))));
    assert_nothing_runs (fx);

    /* the path in the box fixes it */
    kiste_volume_row_set_box_path (KISTE_VOLUME_ROW (volume), "/data");
    g_assert_null (kiste_volume_row_get_error (KISTE_VOLUME_ROW (volume)));
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
    g_assert_true (strstr (command_text (fx), "--volume /srv/data:/data") != NULL);
  }

  /* A ":" in a volume's path: said at that row, nothing runs */
  {
    GtkWidget *volume;

    open_dialog (fx);
    fill_valid (fx);
    g_signal_emit_by_name (row (fx, "_Add Volume"), "activated");
    volume = kiste_test_find_widget (GTK_WIDGET (fx->dialog), KISTE_TYPE_VOLUME_ROW, NULL);
    g_assert_nonnull (volume);
    kiste_volume_row_set_host_path (KISTE_VOLUME_ROW (volume), "/srv/a:b");
    kiste_volume_row_set_box_path (KISTE_VOLUME_ROW (volume), "/data");
    assert_error_at (fx, volume, "The path on this computer may not contain “:”");
    assert_nothing_runs (fx);
    scroll_to (fx, volume);
    kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-volume-colon");

    /* "~/data" is the home folder's */
    kiste_volume_row_set_host_path (KISTE_VOLUME_ROW (volume), "~/data");
    g_assert_null (kiste_volume_row_get_error (KISTE_VOLUME_ROW (volume)));
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
    {
      g_autofree char *expected = g_strdup_printf ("--volume %s/data:/data", g_get_home_dir ());

      g_assert_nonnull (strstr (command_text (fx), expected));
    }
  }

  /* "~/Boxes/x" as a home folder is the home folder's too */
  {
    g_autofree char *expected = g_strdup_printf ("--home %s/Boxes/x", g_get_home_dir ());

    open_dialog (fx);
    fill_valid (fx);
    set_active (fx, "_Separate Home Folder", TRUE);
    set_text (fx, "Folder", "~/Boxes/x");
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
    g_assert_nonnull (strstr (command_text (fx), expected));
  }

  /* An empty home folder is no home folder: refused too */
  open_dialog (fx);
  fill_valid (fx);
  set_active (fx, "_Separate Home Folder", TRUE);
  set_text (fx, "Folder", "");
  assert_error_at (fx, row (fx, "Folder"), "Choose a folder");
  assert_nothing_runs (fx);
}

static void
test_capability_gating (Fixture       *fx,
                        gconstpointer  data)
{
  const char *without[] = { "--unshare-home", "--unshare-groups", "--dry-run", NULL };
  GtkWidget *home;
  GtkWidget *groups;

  /* a distrobox without --dry-run: no home isolation; pretend groups are
   * missing too */
  set_capabilities (fx, "help-distrobox-1.8.2.5-unshare-home.txt", without);
  open_dialog (fx);
  fill_valid (fx);

  home = row (fx, "_Home Folder");
  groups = row (fx, "User _Groups");
  g_assert_false (gtk_widget_get_sensitive (home));
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (home)));
  g_assert_true (g_str_has_prefix (subtitle (fx, "_Home Folder"), "Not available in distrobox 1.8.2.5"));
  /* and the whole truth about the home folder */
  g_assert_true (strstr (subtitle (fx, "_Home Folder"), "still mounted") != NULL);
  g_assert_true (strstr (subtitle (fx, "_Separate Home Folder"), "still mounted") != NULL);
  g_assert_false (gtk_widget_get_sensitive (groups));
  g_assert_cmpstr (subtitle (fx, "User _Groups"), ==, "Not available in distrobox 1.8.2.5");
  g_assert_true (gtk_widget_get_sensitive (row (fx, "Shared _Memory")));
  g_assert_cmpstr (subtitle (fx, "Isolate _Everything"), ==,
                   "Turns on every switch below except the home folder");

  /* a prefilled flag the distrobox lacks is dropped, not kept hidden */
  {
    g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();

    kiste_create_options_set_name (options, "newbox");
    kiste_create_options_set_image (options, IMAGE);
    kiste_create_options_set_unshare (options, KISTE_UNSHARE_HOME, TRUE);
    kiste_create_options_set_unshare (options, KISTE_UNSHARE_IPC, TRUE);
    kiste_create_dialog_set_options (fx->dialog, options);
    g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
    g_assert_null (strstr (command_text (fx), "--unshare-home"));
    g_assert_nonnull (strstr (command_text (fx), "--unshare-ipc"));
  }

  /* a released distrobox: home isolation from its dry run, and Show
   * Command says so */
  set_capabilities (fx, "help-distrobox-1.8.2.5.txt", NULL);
  open_dialog (fx);
  fill_valid (fx);
  home = row (fx, "_Home Folder");
  g_assert_true (gtk_widget_get_sensitive (home));
  g_assert_nonnull (strstr (subtitle (fx, "_Home Folder"), "keys out"));
  g_assert_nonnull (strstr (subtitle (fx, "_Home Folder"), "X11"));
  g_assert_cmpstr (subtitle (fx, "Isolate _Everything"), ==, "Turns on every switch below");
  set_active (fx, "_Home Folder", TRUE);
  g_assert_null (strstr (command_text (fx), "--unshare-home"));
  g_assert_nonnull (strstr (command_text (fx), " --no-entry --dry-run\n# then the create command"));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));

  /* a patched distrobox with both */
  set_capabilities (fx, "help-distrobox-1.8.2.5-unshare-home.txt", NULL);
  open_dialog (fx);
  fill_valid (fx);
  home = row (fx, "_Home Folder");
  g_assert_true (gtk_widget_get_sensitive (home));
  g_assert_nonnull (strstr (subtitle (fx, "_Home Folder"), "keys out"));
  g_assert_cmpstr (subtitle (fx, "_Separate Home Folder"), ==,
                   "Programs in the box still see your home folder unless home isolation is on");
  g_assert_true (gtk_widget_get_sensitive (row (fx, "User _Groups")));
  set_active (fx, "_Home Folder", TRUE);
  set_active (fx, "User _Groups", TRUE);
  g_assert_nonnull (strstr (command_text (fx), " --unshare-groups"));
  g_assert_nonnull (strstr (command_text (fx), " --unshare-home"));
  g_assert_nonnull (strstr (command_text (fx), " --dry-run\n"));

  scroll_to (fx, gtk_widget_get_ancestor (row (fx, "Isolate _Everything"), ADW_TYPE_PREFERENCES_GROUP));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-isolation-patched");
}

static void
test_locks (Fixture       *fx,
            gconstpointer  data)
{
  const char *rows[] = { "_Devices", "User _Groups", "Shared _Memory", "_Network", "_Processes" };

  fill_valid (fx);
  set_active (fx, "_Network", TRUE);

  /* Isolate everything: all on, all locked, one flag */
  set_active (fx, "Isolate _Everything", TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_assert_false (gtk_widget_get_sensitive (row (fx, rows[i])));
      g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, rows[i]))));
      g_assert_cmpstr (subtitle (fx, rows[i]), ==, "Included in “Isolate Everything”");
    }
  /* the home too: Kiste keeps it out on a released distrobox */
  g_assert_false (gtk_widget_get_sensitive (row (fx, "_Home Folder")));
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Home Folder"))));
  g_assert_cmpstr (subtitle (fx, "_Home Folder"), ==, "Included in “Isolate Everything”");
  g_assert_nonnull (strstr (command_text (fx), "--unshare-all --no-entry --dry-run\n"));
  g_assert_null (strstr (command_text (fx), "--unshare-netns"));

  scroll_to (fx, gtk_widget_get_ancestor (row (fx, "Isolate _Everything"), ADW_TYPE_PREFERENCES_GROUP));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-isolation");

  /* off again: what people chose before comes back */
  set_active (fx, "Isolate _Everything", FALSE);
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Network"))));
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Processes"))));
  g_assert_true (gtk_widget_get_sensitive (row (fx, "_Processes")));

  /* the init system needs its own processes and groups */
  set_active (fx, "_Init System", TRUE);
  g_assert_false (gtk_widget_get_sensitive (row (fx, "_Processes")));
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Processes"))));
  g_assert_cmpstr (subtitle (fx, "_Processes"), ==, "Needed by the init system");
  g_assert_false (gtk_widget_get_sensitive (row (fx, "User _Groups")));
  g_assert_cmpstr (subtitle (fx, "User _Groups"), ==, "Needed by the init system");
  g_assert_true (gtk_widget_get_sensitive (row (fx, "Shared _Memory")));
  g_assert_nonnull (strstr (command_text (fx), " --init "));
  g_assert_null (strstr (command_text (fx), "--unshare-process"));

  set_active (fx, "_Init System", FALSE);
  g_assert_true (gtk_widget_get_sensitive (row (fx, "_Processes")));
  g_assert_false (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Processes"))));
}

static void
test_show_command (Fixture       *fx,
                   gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) expected = kiste_create_options_new ();
  g_auto(GStrv) argv = NULL;
  g_autofree char *display = NULL;
  g_autoptr(GError) error = NULL;
  const char *packages[] = { "vim git", NULL };
  GtkWidget *copy;

  kiste_create_options_set_name (expected, "dev-box");
  kiste_create_options_set_image (expected, IMAGE);
  kiste_create_options_set_hostname (expected, "devbox");
  kiste_create_options_set_home (expected, "/home/alex/Boxes/dev box");
  kiste_create_options_set_unshare (expected, KISTE_UNSHARE_IPC, TRUE);
  kiste_create_options_set_unshare (expected, KISTE_UNSHARE_DEVSYS, TRUE);
  kiste_create_options_set_nvidia (expected, TRUE);
  kiste_create_options_set_additional_packages (expected, packages);
  kiste_create_options_set_init_hooks (expected, "touch /etc/kiste-ready");
  kiste_create_options_set_add_to_menu (expected, TRUE);
  kiste_create_options_add_volume (expected, "/srv/data:/data:ro");
  argv = kiste_create_options_to_argv (expected, kiste_manager_get_capabilities (fx->manager), &error);
  g_assert_no_error (error);
  display = kiste_argv_to_display_string ((const char * const *) argv);

  /* typed into the form, the same command appears */
  set_text (fx, "Image", IMAGE);
  set_text (fx, "Name", "dev-box");
  set_text (fx, "Host Name", "devbox");
  set_active (fx, "_Separate Home Folder", TRUE);
  set_text (fx, "Folder", "/home/alex/Boxes/dev box");
  set_active (fx, "Shared _Memory", TRUE);
  set_active (fx, "_Devices", TRUE);
  set_active (fx, "NVIDIA _Graphics", TRUE);
  set_text (fx, "Additional Packages, Separated by Spaces", "vim git");
  set_text (fx, "Commands After Setup (as root)", "touch /etc/kiste-ready");
  set_active (fx, "Add to the _App Menu", TRUE);
  g_signal_emit_by_name (row (fx, "_Add Volume"), "activated");
  {
    KisteVolumeRow *volume = KISTE_VOLUME_ROW (kiste_test_find_widget (GTK_WIDGET (fx->dialog),
                                                                       KISTE_TYPE_VOLUME_ROW, NULL));

    kiste_volume_row_set_host_path (volume, "/srv/data");
    kiste_volume_row_set_box_path (volume, "/data");
    kiste_volume_row_set_read_only (volume, TRUE);
  }

  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  /* the box's launcher comes after the create */
  {
    g_autofree char *with_entry = g_strconcat (display, "\ndistrobox generate-entry dev-box "
                                               "--icon utilities-terminal", NULL);

    g_assert_cmpstr (command_text (fx), ==, with_entry);
  }
  g_assert_nonnull (strstr (display, "--home '/home/alex/Boxes/dev box'"));

  /* live: one change, one new command */
  set_active (fx, "_Devices", FALSE);
  g_assert_null (strstr (command_text (fx), "--unshare-devsys"));

  copy = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_BUTTON, "Copy Command");
  g_assert_nonnull (copy);
  g_assert_true (gtk_widget_get_sensitive (copy));

  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row (fx, "Show C_ommand")), TRUE);
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row (fx, "_Volumes")), TRUE);
  scroll_to (fx, gtk_widget_get_ancestor (row (fx, "_Volumes"), ADW_TYPE_PREFERENCES_GROUP));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-command");
}

static gboolean
images_listed (gpointer data)
{
  Fixture *fx = data;
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_LIST_BOX, "Images");
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child))
      n++;
  return n == 5;
}

static void
test_images (Fixture       *fx,
             gconstpointer  data)
{
  GtkWidget *list;
  GtkWidget *search;
  GtkWidget *first;
  guint n_visible = 0;

  /* two local images (the untagged one left out) and the known list */
  g_assert_true (kiste_test_wait_for (images_listed, fx, 5000));
  g_assert_nonnull (find_command (fx, "podman images --format json"));
  /* the list needs the network once: it is asked for once, then kept */
  g_assert_cmpuint (kiste_fake_runner_count (fx->runner, "distrobox create --compatibility"), ==, 1);

  list = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_LIST_BOX, "Images");
  first = gtk_widget_get_first_child (list);
  while (!ADW_IS_ACTION_ROW (first))
    first = gtk_widget_get_next_sibling (first);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first)), ==, IMAGE);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (first)), ==, "Downloaded");

  gtk_menu_button_popup (GTK_MENU_BUTTON (kiste_test_find_widget (GTK_WIDGET (fx->dialog),
                                                                  GTK_TYPE_MENU_BUTTON,
                                                                  "Browse Images")));
  kiste_test_flush (GTK_WIDGET (fx->window));
  search = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_SEARCH_ENTRY, "Search Images");
  gtk_editable_set_text (GTK_EDITABLE (search), "fedora");
  kiste_test_wait_for ((gpointer) gtk_widget_get_mapped, search, 1000);
  g_signal_emit_by_name (search, "search-changed");
  kiste_test_flush (GTK_WIDGET (fx->window));
  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child) && gtk_widget_get_child_visible (child))
      n_visible++;
  g_assert_cmpuint (n_visible, ==, 1);
  kiste_test_screenshot (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (
    kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_MENU_BUTTON, "Browse Images")))),
    "create-dialog-images");

  /* The footer's sentence, however long, wraps inside: the popover keeps
   * its width rather than growing to the screen's edge */
  {
    GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (
      kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_MENU_BUTTON, "Browse Images"))));
    GtkWidget *footer = NULL;
    int natural = 0;

    footer = gtk_widget_get_next_sibling (gtk_widget_get_ancestor (list, GTK_TYPE_SCROLLED_WINDOW));
    g_assert_true (GTK_IS_LABEL (footer));
    gtk_label_set_text (GTK_LABEL (footer),
                        "Only images on this computer are listed: the list of images known to work "
                        "with distrobox needs a network connection the first time.");
    gtk_widget_set_visible (footer, TRUE);
    gtk_widget_measure (gtk_popover_get_child (GTK_POPOVER (popover)), GTK_ORIENTATION_HORIZONTAL, -1,
                        NULL, &natural, NULL, NULL);
    g_assert_cmpint (natural, <=, 400);
    kiste_test_flush (GTK_WIDGET (fx->window));
    kiste_test_screenshot (popover, "create-dialog-images-footer");
  }

  /* Enter picks the one match; the name follows */
  g_signal_emit_by_name (search, "activate");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Image"))), ==,
                   "registry.fedoraproject.org/fedora-toolbox:41");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "fedora-toolbox-41");
}

/* A box's snapshot is not among the images unless asked for */
static void
test_images_snapshots (Fixture       *fx,
                       gconstpointer  data)
{
  GtkWidget *list;
  GtkWidget *check;
  GtkWidget *snapshot = NULL;
  guint n = 0;

  g_assert_true (kiste_test_wait_for (images_listed, fx, 5000));
  list = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_LIST_BOX, "Images");
  check = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_CHECK_BUTTON, "Show Boxes' Snapshots");
  g_assert_nonnull (check);
  g_assert_true (gtk_widget_get_visible (check));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  kiste_test_flush (GTK_WIDGET (fx->window));
  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    {
      if (!ADW_IS_ACTION_ROW (child))
        continue;
      n++;
      if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), SNAPSHOT) == 0)
        snapshot = child;
    }
  g_assert_cmpuint (n, ==, 6);
  g_assert_nonnull (snapshot);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (snapshot)), ==, "A box's snapshot");

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), FALSE);
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_true (images_listed (fx));
}

static GtkWidget *
first_image_row (Fixture *fx)
{
  GtkWidget *list = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_LIST_BOX, "Images");
  GtkWidget *child = gtk_widget_get_first_child (list);

  while (child != NULL && !ADW_IS_ACTION_ROW (child))
    child = gtk_widget_get_next_sibling (child);
  return child;
}

static void
test_images_docker (Fixture       *fx,
                    gconstpointer  data)
{
  GtkWidget *first;

  kiste_runner_set_manager (KISTE_RUNNER (fx->runner), "docker");
  open_dialog (fx);

  /* two tagged images, the untagged one left out, and the known list */
  g_assert_true (kiste_test_wait_for (images_listed, fx, 5000));
  g_assert_nonnull (find_command (fx, "docker images --format '{{json .}}'"));
  first = first_image_row (fx);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first)), ==,
                   "docker.io/library/ubuntu:24.04");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (first)), ==, "Downloaded");
  first = gtk_widget_get_next_sibling (first);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (first)), ==,
                   "quay.io/toolbx/arch-toolbox:latest");
}

static gboolean
stage_is_start (gpointer data)
{
  Fixture *fx = data;
  KisteTask *task = kiste_manager_get_task_for_box (fx->manager, "newbox");

  return task != NULL && g_str_equal (kiste_task_get_title (task), "Starting") &&
         kiste_task_get_fraction (task) > 0.3;
}

static gboolean
dialog_closed (gpointer data)
{
  return ((Fixture *) data)->closed;
}

static gboolean
retry_shown (gpointer data)
{
  Fixture *fx = data;
  GtkWidget *retry = find_button (GTK_WIDGET (fx->dialog), "_Try Again");

  return retry != NULL && gtk_widget_is_visible (retry);
}

static void
test_create_succeeds (Fixture       *fx,
                      gconstpointer  data)
{
  const char *create;

  fill_valid (fx);
  set_active (fx, "Shared _Memory", TRUE);
  set_active (fx, "_Init System", FALSE);
  g_signal_emit_by_name (button (fx, "C_reate"), "clicked");

  /* create, then the first start, until the box is ready */
  g_assert_true (kiste_test_wait_for (dialog_closed, fx, 30000));
  g_assert_cmpstr (fx->created, ==, "newbox");

  create = find_command (fx, "distrobox create --yes");
  g_assert_cmpstr (create, ==,
                   "distrobox create --yes --name newbox --image " IMAGE " --unshare-ipc --no-entry");
  g_assert_cmpuint (n_create_commands (fx), ==, 1);
  g_assert_nonnull (find_command (fx, "podman start newbox"));
  g_assert_nonnull (find_command (fx, "podman logs --follow --since"));
}

static void
test_create_progress_and_cancel (Fixture       *fx,
                                 gconstpointer  data)
{
  GtkWidget *cancel;
  GtkWidget *progress;
  GtkWidget *delete;

  set_logs (fx->runner, LOGS_PARTIAL);
  set_text (fx, "Image", "docker.io/library/debian:12");
  set_text (fx, "Name", "newbox");
  set_active (fx, "Shared _Memory", TRUE);
  g_signal_emit_by_name (button (fx, "C_reate"), "clicked");

  g_assert_true (kiste_test_wait_for (stage_is_start, fx, 20000));
  /* let the log view catch up with the lines */
  kiste_test_flush (GTK_WIDGET (fx->window));
  progress = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_PROGRESS_BAR, NULL);
  g_assert_nonnull (progress);
  g_assert_true (gtk_widget_is_visible (progress));
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), >, 0.3);
  g_assert_false (adw_dialog_get_can_close (ADW_DIALOG (fx->dialog)));
  g_assert_false (gtk_widget_get_visible (button (fx, "C_reate")));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-progress");

  /* Cancel stops following; the box exists, so it can be deleted */
  cancel = button (fx, "_Cancel");
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_true (kiste_test_wait_for (retry_shown, fx, 10000));
  g_assert_false (fx->closed);
  g_assert_null (fx->created);
  delete = button (fx, "_Delete Box");
  g_assert_true (gtk_widget_is_visible (delete));
  g_assert_true (adw_dialog_get_can_close (ADW_DIALOG (fx->dialog)));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-stopped");

  /* Try again: back to the form, filled in as before */
  g_signal_emit_by_name (button (fx, "_Try Again"), "clicked");
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "newbox");
  /* the box exists now, so its name is taken */
  assert_error_at (fx, row (fx, "Name"), "is taken");
}

static gboolean
widget_hidden (gpointer data)
{
  return !gtk_widget_get_visible (data);
}

static void
test_create_stopped_delete (Fixture       *fx,
                            gconstpointer  data)
{
  GtkWidget *delete;
  GtkWidget *alert;

  set_logs (fx->runner, LOGS_PARTIAL);
  fill_valid (fx);
  g_signal_emit_by_name (button (fx, "C_reate"), "clicked");
  g_assert_true (kiste_test_wait_for (stage_is_start, fx, 20000));
  g_signal_emit_by_name (button (fx, "_Cancel"), "clicked");
  g_assert_true (kiste_test_wait_for (retry_shown, fx, 10000));

  /* deleting asks first */
  delete = button (fx, "_Delete Box");
  g_signal_emit_by_name (delete, "clicked");
  kiste_test_flush (GTK_WIDGET (fx->window));
  alert = kiste_test_find_widget (GTK_WIDGET (fx->window), ADW_TYPE_ALERT_DIALOG, NULL);
  g_assert_nonnull (alert);
  g_assert_cmpstr (adw_alert_dialog_get_heading (ADW_ALERT_DIALOG (alert)), ==, "Delete “newbox”?");
  g_assert_cmpint (adw_alert_dialog_get_response_appearance (ADW_ALERT_DIALOG (alert), "delete"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_null (find_command (fx, "distrobox rm"));
  g_signal_emit_by_name (alert, "response", "delete");
  adw_dialog_force_close (ADW_DIALOG (alert));

  g_assert_true (kiste_test_wait_for (widget_hidden, delete, 10000));
  g_assert_nonnull (find_command (fx, "distrobox rm"));
  g_assert_true (gtk_widget_get_visible (button (fx, "_Try Again")));
}

static gboolean
not_busy (gpointer data)
{
  Fixture *fx = data;

  return !kiste_manager_is_busy (fx->manager, "newbox");
}

static gboolean
pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

static void
test_closed_while_running (Fixture       *fx,
                           gconstpointer  data)
{
  KisteCreateDialog *gone = NULL;
  KisteTask *task;

  /* a pull that takes its time, however busy the machine is */
  set_create (fx->runner, CREATE_HANGS);
  fill_valid (fx);
  g_signal_emit_by_name (button (fx, "C_reate"), "clicked");
  task = kiste_manager_get_task_for_box (fx->manager, "newbox");
  g_assert_nonnull (task);
  g_object_ref (task);

  /* Escape does not drop a running creation */
  adw_dialog_close (ADW_DIALOG (fx->dialog));
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_false (fx->closed);

  /* the window going away does: the task is cancelled, late results are
   * dropped without touching the gone dialog */
  adw_dialog_force_close (ADW_DIALOG (fx->dialog));
  g_assert_true (fx->closed);
  g_object_add_weak_pointer (G_OBJECT (fx->dialog), (gpointer *) &gone);
  g_clear_object (&fx->dialog);
  g_assert_true (kiste_test_wait_for (not_busy, fx, 10000));
  g_assert_cmpint (kiste_task_get_state (task), ==, KISTE_TASK_CANCELLED);
  g_assert_null (fx->created);
  g_object_unref (task);

  /* and nothing keeps it alive */
  g_assert_true (kiste_test_wait_for (pointer_cleared, &gone, 5000));
  g_assert_cmpuint (n_create_commands (fx), ==, 1);
  g_assert_null (find_command (fx, "podman start"));
}

static void
test_create_fails (Fixture       *fx,
                   gconstpointer  data)
{
  GtkWidget *view;
  GtkWidget *label;
  g_autofree char *log = NULL;
  GtkTextIter start, end;
  GtkTextBuffer *buffer;

  set_create (fx->runner, CREATE_FAILS);
  fill_valid (fx);
  g_signal_emit_by_name (button (fx, "C_reate"), "clicked");
  g_assert_true (kiste_test_wait_for (retry_shown, fx, 10000));

  /* the error and the output stay visible; no box, nothing to delete */
  g_assert_false (gtk_widget_is_visible (button (fx, "_Delete Box")));
  g_assert_nonnull (find_button (GTK_WIDGET (fx->dialog), "_Close"));
  view = kiste_test_find_widget (GTK_WIDGET (fx->dialog), GTK_TYPE_TEXT_VIEW, NULL);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  log = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  g_assert_nonnull (strstr (log, "distrobox create --yes --name newbox"));
  g_assert_nonnull (strstr (log, "OCI permission denied"));
  label = find_label_containing (GTK_WIDGET (fx->dialog), "OCI permission denied");
  g_assert_nonnull (label);
  g_assert_true (gtk_widget_is_visible (label));
  g_assert_nonnull (find_label_containing (GTK_WIDGET (fx->dialog), "Could Not Create “newbox”"));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-failed");

  g_signal_emit_by_name (button (fx, "_Try Again"), "clicked");
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_true (gtk_widget_get_sensitive (button (fx, "C_reate")));
}

/* Try an Image: no name to give, Kiste's name and label on the command */
static void
test_temporary (Fixture       *fx,
                gconstpointer  data)
{
  KisteCreateOptions *options;
  const char *create;

  set_create (fx->runner, CREATE_FAILS);
  kiste_create_dialog_set_temporary (fx->dialog);
  kiste_test_flush (GTK_WIDGET (fx->window));

  g_assert_cmpstr (adw_dialog_get_title (ADW_DIALOG (fx->dialog)), ==, "Try an Image");
  g_assert_false (gtk_widget_is_visible (row (fx, "Name")));
  g_assert_false (gtk_widget_is_visible (row (fx, "_Separate Home Folder")));
  g_assert_null (find_button (GTK_WIDGET (fx->dialog), "C_reate"));
  options = kiste_create_dialog_get_options (fx->dialog);
  g_assert_true (kiste_create_options_get_temporary (options));
  g_assert_true (g_str_has_prefix (kiste_create_options_get_name (options), "kiste-try-"));
  g_assert_false (kiste_create_dialog_get_can_create (fx->dialog));

  /* the name stays Kiste's whatever the image */
  set_text (fx, "Image", IMAGE);
  set_active (fx, "Shared _Memory", TRUE);
  g_assert_true (g_str_has_prefix (kiste_create_options_get_name (options), "kiste-try-"));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_nonnull (strstr (command_text (fx), "--additional-flags"));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "try-image-dialog");

  g_signal_emit_by_name (button (fx, "_Try"), "clicked");
  g_assert_true (kiste_test_wait_for (retry_shown, fx, 10000));
  create = find_command (fx, "distrobox create --yes");
  g_assert_nonnull (create);
  g_assert_true (g_str_has_prefix (create, "distrobox create --yes --name kiste-try-"));
  g_assert_nonnull (strstr (create, " --image " IMAGE " --unshare-ipc --no-entry --additional-flags "));
  g_assert_true (g_str_has_suffix (create, "io.github.kiste.temporary=1'") ||
                 g_str_has_suffix (create, "io.github.kiste.temporary=1\""));
}

static void
test_form_screenshot (Fixture       *fx,
                      gconstpointer  data)
{
  set_text (fx, "Image", "quay.io/toolbx/ubuntu-toolbox:24.04");
  set_active (fx, "_Separate Home Folder", TRUE);
  set_text (fx, "Folder", "/home/alex/Boxes/ubuntu-toolbox-24-04");
  set_active (fx, "_Network", TRUE);
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  gtk_widget_grab_focus (row (fx, "Name"));

  /* what the picture shows: the suggested name, the folder, no error, and
   * the command they make */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    const char *command = command_text (fx);

    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "ubuntu-toolbox-24-04");
    g_assert_true (gtk_widget_get_visible (row (fx, "Folder")));
    collect_error_labels (GTK_WIDGET (fx->dialog), labels);
    g_assert_cmpuint (labels->len, ==, 0);
    g_assert_nonnull (strstr (command, "--name ubuntu-toolbox-24-04"));
    g_assert_nonnull (strstr (command, "--home /home/alex/Boxes/ubuntu-toolbox-24-04"));
    g_assert_nonnull (strstr (command, "--unshare-netns"));
  }
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-form");
}

static void
refreshed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  kiste_capabilities_refresh_finish (KISTE_CAPABILITIES (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* This computer has Toolbx too, or Toolbx alone (without distrobox): the
 * tools are probed again, as at a load, and the dialog opened afresh */
static void
set_toolbx (Fixture  *fx,
            gboolean  with_distrobox)
{
  gboolean refreshed = FALSE;

  kiste_fake_runner_add (fx->runner, "podman --version", "echo 'podman version 5.4.2'");
  kiste_fake_runner_add (fx->runner, "distrobox --version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (fx->runner, "distrobox version", "echo 'distrobox: 1.8.2.5'");
  kiste_fake_runner_add (fx->runner, "distrobox create --help",
                         "cat \"$KISTE_TEST_FIXTURES/help-distrobox-1.8.2.5.txt\"");
  if (!with_distrobox)
    kiste_fake_runner_add (fx->runner, "distrobox", "exit 127");
  kiste_fake_runner_add (fx->runner, "toolbox --version", "echo 'toolbox version 0.1.2'");
  kiste_capabilities_refresh_async (kiste_manager_get_capabilities (fx->manager), NULL,
                                    refreshed_cb, &refreshed);
  g_assert_true (kiste_test_wait_for (flag_set, &refreshed, 5000));
  g_assert_true (kiste_capabilities_has_toolbox (kiste_manager_get_capabilities (fx->manager)));
  g_assert_cmpint (kiste_capabilities_has_distrobox (kiste_manager_get_capabilities (fx->manager)),
                   ==, with_distrobox);
  open_dialog (fx);
}

/* Whether the group of the row titled title is shown */
static gboolean
group_shown (Fixture    *fx,
             const char *title)
{
  return gtk_widget_get_visible (gtk_widget_get_ancestor (row (fx, title), ADW_TYPE_PREFERENCES_GROUP));
}

/* The dialog's options make `toolbox create --assumeyes --image IMAGE
 * NAME`, and Show Command says it */
static void
assert_toolbox_plan (Fixture    *fx,
                     const char *name)
{
  g_auto(GStrv) names = g_new0 (char *, 1);
  g_autoptr(KisteCreatePlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *display = NULL;
  const char * const *argv;

  plan = kiste_create_options_plan (kiste_create_dialog_get_options (fx->dialog),
                                    (const char * const *) names,
                                    kiste_manager_get_capabilities (fx->manager), "podman", &error);
  g_assert_no_error (error);
  g_assert_cmpint (kiste_create_plan_get_kind (plan), ==, KISTE_CREATE_PLAN_TOOLBOX);
  argv = kiste_create_plan_get_argv (plan);
  g_assert_cmpuint (g_strv_length ((char **) argv), ==, 6);
  g_assert_cmpstr (argv[0], ==, "toolbox");
  g_assert_cmpstr (argv[1], ==, "create");
  g_assert_cmpstr (argv[2], ==, "--assumeyes");
  g_assert_cmpstr (argv[3], ==, "--image");
  g_assert_cmpstr (argv[4], ==, IMAGE);
  g_assert_cmpstr (argv[5], ==, name);
  display = kiste_argv_to_display_string (argv);
  g_assert_cmpstr (command_text (fx), ==, display);
}

/* distrobox and Toolbx: Made With chooses. Toolbx hides the rows of what
 * it cannot do; Distrobox shows them again as they were */
static void
test_toolbx_choice (Fixture       *fx,
                    gconstpointer  data)
{
  KisteCreateOptions *options;
  GtkWidget *tool_row;

  set_toolbx (fx, TRUE);
  options = kiste_create_dialog_get_options (fx->dialog);
  tool_row = row (fx, "_Made With");
  /* distrobox is there: nothing to offer */
  g_assert_false (gtk_widget_get_visible (row (fx, "_Isolation and More Options")));
  g_assert_true (gtk_widget_is_visible (tool_row));
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (tool_row)), ==, 0);
  g_assert_cmpint (kiste_create_options_get_tool (options), ==, KISTE_BOX_TOOL_DISTROBOX);
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-tool-choice");

  /* distrobox's options, set before Toolbx is chosen */
  set_text (fx, "Image", IMAGE);
  set_text (fx, "Name", "toolbx-box");
  set_text (fx, "Host Name", "devbox");
  set_active (fx, "_Init System", TRUE);
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));

  adw_combo_row_set_selected (ADW_COMBO_ROW (tool_row), KISTE_BOX_TOOL_TOOLBX);
  g_assert_cmpint (kiste_create_options_get_tool (options), ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_true (gtk_widget_is_visible (row (fx, "Name")));
  g_assert_true (gtk_widget_is_visible (row (fx, "Image")));
  g_assert_false (group_shown (fx, "_Separate Home Folder"));
  g_assert_false (group_shown (fx, "Isolate _Everything"));
  g_assert_false (group_shown (fx, "S_ystem"));
  g_assert_false (gtk_widget_get_visible (row (fx, "_Import Settings from distrobox.ini…")));
  /* hidden, not lost: Toolbx cannot make them, and says which */
  g_assert_cmpstr (kiste_create_options_get_hostname (options), ==, "devbox");
  g_assert_false (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_true (adw_banner_get_revealed (fx->dialog->banner));
  g_assert_nonnull (strstr (adw_banner_get_title (fx->dialog->banner), "Toolbx"));

  /* back to Distrobox: the rows again, with their values */
  adw_combo_row_set_selected (ADW_COMBO_ROW (tool_row), KISTE_BOX_TOOL_DISTROBOX);
  g_assert_true (group_shown (fx, "_Separate Home Folder"));
  g_assert_true (group_shown (fx, "Isolate _Everything"));
  g_assert_true (group_shown (fx, "S_ystem"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Host Name"))), ==, "devbox");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Init System"))));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_nonnull (strstr (command_text (fx), "distrobox create"));

  /* without them, Toolbx makes the box from its name and image */
  set_text (fx, "Host Name", "");
  set_active (fx, "_Init System", FALSE);
  kiste_create_options_set_nvidia (options, FALSE);
  adw_combo_row_set_selected (ADW_COMBO_ROW (tool_row), KISTE_BOX_TOOL_TOOLBX);
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_false (adw_banner_get_revealed (fx->dialog->banner));
  assert_toolbox_plan (fx, "toolbx-box");
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row (fx, "Show C_ommand")), TRUE);
  kiste_test_flush (GTK_WIDGET (fx->window));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-toolbx");
}

static void
count_signal (guint *count)
{
  (*count)++;
}

/* Toolbx alone (Fedora Silverblue): no choice, Toolbx, and only the rows
 * of what Toolbx takes */
static void
test_toolbx_only (Fixture       *fx,
                  gconstpointer  data)
{
  set_toolbx (fx, FALSE);
  g_assert_cmpint (kiste_create_options_get_tool (kiste_create_dialog_get_options (fx->dialog)),
                   ==, KISTE_BOX_TOOL_TOOLBX);
  g_assert_false (gtk_widget_is_visible (row (fx, "_Made With")));
  g_assert_false (group_shown (fx, "_Separate Home Folder"));
  g_assert_false (group_shown (fx, "Isolate _Everything"));
  g_assert_false (group_shown (fx, "S_ystem"));
  g_assert_false (gtk_widget_get_visible (row (fx, "_Import Settings from distrobox.ini…")));
  g_assert_false (kiste_create_dialog_get_can_create (fx->dialog));

  /* what distrobox would add: asked for, the window offers distrobox */
  {
    guint needed = 0;

    g_assert_true (gtk_widget_is_visible (row (fx, "_Isolation and More Options")));
    g_signal_connect_swapped (fx->dialog, "distrobox-needed", G_CALLBACK (count_signal), &needed);
    g_assert_true (gtk_widget_activate (row (fx, "_Isolation and More Options")));
    g_assert_cmpuint (needed, ==, 1);
    g_signal_handlers_disconnect_by_data (fx->dialog, &needed);
  }

  set_text (fx, "Image", IMAGE);
  set_text (fx, "Name", "toolbx-box");
  /* no missing distrobox in the way */
  g_assert_false (adw_banner_get_revealed (fx->dialog->banner));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  assert_toolbox_plan (fx, "toolbx-box");
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row (fx, "Show C_ommand")), TRUE);
  kiste_test_flush (GTK_WIDGET (fx->window));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-toolbx-only");
}

static void
test_clone_prefill (Fixture       *fx,
                    gconstpointer  data)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();

  kiste_create_options_set_name (options, "fixture-a-copy");
  kiste_create_options_set_clone_source (options, "fixture-a");
  kiste_create_options_set_unshare (options, KISTE_UNSHARE_NETNS, TRUE);
  kiste_create_dialog_set_options (fx->dialog, options);

  /* a copy has no image to choose, and says what it copies */
  g_assert_false (gtk_widget_get_visible (row (fx, "Image")));
  g_assert_true (gtk_widget_get_visible (row (fx, "Copy Of")));
  g_assert_cmpstr (subtitle (fx, "Copy Of"), ==, "fixture-a");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "fixture-a-copy");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Network"))));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_cmpstr (command_text (fx), ==,
                   "distrobox create --yes --name fixture-a-copy --clone fixture-a "
                   "--unshare-netns --no-entry");

  /* the dialog works on its own copy */
  kiste_create_options_set_name (options, "changed-later");
  g_assert_cmpstr (kiste_create_options_get_name (kiste_create_dialog_get_options (fx->dialog)), ==,
                   "fixture-a-copy");
}

static const char single_manifest[] =
  "[devbox]\n"
  "image=docker.io/library/debian:12\n"
  "unshare_netns=true\n"
  "hostname=devbox\n"
  "additional_packages=\"git vim\"\n"
  "volume=/srv/data:/data:ro\n"
  "exported_apps=\"emacs\"\n";

static GtkWidget *
find_alert_list (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);
      GtkWidget *list = kiste_test_find_widget (window, GTK_TYPE_LIST_BOX, "Boxes");

      if (list != NULL)
        return list;
    }
  return NULL;
}

static void
test_assemble_import (Fixture       *fx,
                      gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("KISTE_TEST_FIXTURES"), "assemble-realistic.ini", NULL);
  g_autofree char *manifest = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *banner;
  GtkWidget *list;
  GtkWidget *ubuntu = NULL;

  /* one box: straight into the form, nothing runs */
  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog, single_manifest, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "devbox");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Image"))), ==,
                   "docker.io/library/debian:12");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Network"))));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Host Name"))), ==, "devbox");
  g_assert_nonnull (kiste_test_find_widget (GTK_WIDGET (fx->dialog), KISTE_TYPE_VOLUME_ROW, NULL));
  g_assert_true (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_cmpstr (command_text (fx), ==,
                   "distrobox create --yes --name devbox --image docker.io/library/debian:12 "
                   "--hostname devbox --unshare-netns --volume /srv/data:/data:ro "
                   "--additional-packages 'git vim' --no-entry\n"
                   "distrobox generate-entry devbox --icon utilities-terminal");
  /* distrobox assemble adds a launcher unless entry=false */
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "Add to the _App Menu"))));
  g_assert_cmpuint (n_create_commands (fx), ==, 0);

  /* what was left out is said, until dismissed */
  banner = kiste_test_find_widget (GTK_WIDGET (fx->dialog), ADW_TYPE_BANNER, NULL);
  g_assert_true (adw_banner_get_revealed (ADW_BANNER (banner)));
  g_assert_nonnull (strstr (adw_banner_get_title (ADW_BANNER (banner)), "export"));
  kiste_test_screenshot (GTK_WIDGET (fx->dialog), "create-dialog-import");
  g_signal_emit_by_name (banner, "button-clicked");
  g_assert_false (adw_banner_get_revealed (ADW_BANNER (banner)));

  /* values are data, not shell: a command substitution is a bad image */
  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog,
                                                      "[evil]\nimage=$(touch pwned)\n",
                                                      -1, &error));
  assert_error_at (fx, row (fx, "Image"), "");
  assert_nothing_runs (fx);

  /* not a manifest */
  g_assert_false (kiste_create_dialog_import_assemble (fx->dialog, "just text\n", -1, &error));
  g_assert_error (error, KISTE_ERROR, KISTE_ERROR_INVALID_INPUT);
  g_clear_error (&error);

  /* several boxes: people pick one */
  g_assert_true (g_file_get_contents (path, &manifest, NULL, &error));
  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog, manifest, -1, &error));
  g_assert_no_error (error);
  kiste_test_flush (GTK_WIDGET (fx->window));
  list = find_alert_list ();
  g_assert_nonnull (list);
  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child) &&
        g_str_equal (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), "ubuntu-dev"))
      ubuntu = child;
  g_assert_nonnull (ubuntu);
  kiste_test_screenshot (GTK_WIDGET (fx->window), "create-dialog-import-choose");
  g_signal_emit_by_name (list, "row-activated", ubuntu);
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_null (find_alert_list ());
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "ubuntu-dev");
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Init System"))));
  g_assert_true (adw_switch_row_get_active (ADW_SWITCH_ROW (row (fx, "_Network"))));
  g_assert_nonnull (strstr (command_text (fx), " --init "));
  g_assert_cmpuint (n_create_commands (fx), ==, 0);
}

static const char two_boxes_manifest[] =
  "[first-box]\n"
  "image=docker.io/library/debian:12\n"
  "[second-box]\n"
  "image=docker.io/library/debian:12\n"
  "init=true\n"
  "unshare_netns=true\n"
  "entry=false\n";

static guint
count_prefix (Fixture    *fx,
              const char *prefix)
{
  guint n = 0;

  for (guint i = 0; i < kiste_fake_runner_get_commands (fx->runner)->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), i), prefix))
      n++;
  return n;
}

static gboolean
second_box_created (gpointer data)
{
  Fixture *fx = data;

  return count_prefix (fx, "distrobox create --yes --name second-box") == 1 &&
         kiste_manager_get_task_for_box (fx->manager, "second-box") == NULL;
}

static GtkWidget *
find_list_row (GtkWidget  *list,
               const char *title)
{
  for (GtkWidget *child = gtk_widget_get_first_child (list); child; child = gtk_widget_get_next_sibling (child))
    if (ADW_IS_ACTION_ROW (child) &&
        g_str_equal (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (child)), title))
      return child;
  return NULL;
}

static void
test_assemble_create_all (Fixture       *fx,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *create_all;
  GtkWidget *list;
  guint first = G_MAXUINT;
  guint second = G_MAXUINT;

  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog, two_boxes_manifest, -1, &error));
  g_assert_no_error (error);
  kiste_test_flush (GTK_WIDGET (fx->window));
  list = find_alert_list ();
  g_assert_nonnull (list);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (find_list_row (list, "second-box"))), ==,
                   "docker.io/library/debian:12");
  create_all = find_button (GTK_WIDGET (fx->window), "Create _All");
  g_assert_nonnull (create_all);
  g_assert_true (gtk_widget_get_sensitive (create_all));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "create-dialog-import-create-all");
  g_assert_cmpuint (n_create_commands (fx), ==, 0);

  /* both, one after the other, as written; the first one, made, gets its
   * launcher (assemble adds one unless entry=false), which Kiste adds after
   * the create; the tasks show them from here */
  write_ps_after (fx->state_dir, "first-box");
  kiste_runner_setenv (KISTE_RUNNER (fx->runner), "KISTE_FAKE_BOX", "first-box");
  kiste_fake_runner_add (fx->runner, "distrobox generate-entry", "exit 0");
  /* its details, read before its launcher is added: fixture-a's */
  kiste_fake_runner_add (fx->runner, "podman container inspect --format json",
                         "sed -e 's/2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7869db17d819f/"
                         "4e3f00aa5c9b2ae4df7abcf863363139d087d796a812a86878e4b097630ca1f7/' "
                         "-e 's/\"fixture-a\"/\"first-box\"/' \"$KISTE_TEST_FIXTURES/inspect-podman5.json\"");
  g_signal_emit_by_name (create_all, "clicked");
  g_assert_true (kiste_test_wait_for (second_box_created, fx, 10000));
  g_assert_true (fx->closed);
  for (guint i = 0; i < kiste_fake_runner_get_commands (fx->runner)->len; i++)
    {
      const char *command = g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), i);

      if (g_str_has_prefix (command, "distrobox create --yes --name first-box"))
        first = i;
      else if (g_str_has_prefix (command, "distrobox create --yes --name second-box"))
        second = i;
    }
  g_assert_cmpuint (first, <, second);
  g_assert_cmpstr (g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), first), ==,
                   "distrobox create --yes --name first-box --image docker.io/library/debian:12 --no-entry");
  g_assert_cmpstr (kiste_fake_runner_find (fx->runner, "distrobox generate-entry"), ==,
                   "distrobox generate-entry first-box --icon utilities-terminal");
  g_assert_cmpstr (g_ptr_array_index (kiste_fake_runner_get_commands (fx->runner), second), ==,
                   "distrobox create --yes --name second-box --image docker.io/library/debian:12 "
                   "--init --unshare-netns --no-entry");
  g_assert_cmpuint (n_create_commands (fx), ==, 2);
}

static void
test_assemble_create_all_blocked (Fixture       *fx,
                                  gconstpointer  data)
{
  static const char manifest[] =
    "[good-box]\n"
    "image=docker.io/library/debian:12\n"
    "[fixture-a]\n"
    "image=docker.io/library/debian:12\n"
    "[evil-box]\n"
    "image=$(touch pwned)\n";
  g_autoptr(GError) error = NULL;
  GtkWidget *create_all;
  GtkWidget *list;
  const char *subtitle;

  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog, manifest, -1, &error));
  g_assert_no_error (error);
  kiste_test_flush (GTK_WIDGET (fx->window));
  list = find_alert_list ();
  g_assert_nonnull (list);

  /* each problem is said at its box, and none is created */
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (find_list_row (list, "good-box"))), ==,
                   "docker.io/library/debian:12");
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (find_list_row (list, "fixture-a")));
  g_assert_nonnull (strstr (subtitle, "taken"));
  subtitle = adw_action_row_get_subtitle (ADW_ACTION_ROW (find_list_row (list, "evil-box")));
  g_assert_cmpstr (subtitle, !=, "$(touch pwned)");
  g_assert_nonnull (find_label_containing (GTK_WIDGET (fx->window), "cannot all be created at once"));
  create_all = find_button (GTK_WIDGET (fx->window), "Create _All");
  g_assert_nonnull (create_all);
  g_assert_false (gtk_widget_get_sensitive (create_all));
  kiste_test_screenshot (GTK_WIDGET (fx->window), "create-dialog-import-create-all-blocked");

  /* even a click forced on it is checked again, and refused */
  g_signal_emit_by_name (create_all, "clicked");
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_cmpuint (n_create_commands (fx), ==, 0);
  g_assert_false (fx->closed);
  g_assert_nonnull (find_label_containing (GTK_WIDGET (fx->dialog), "“fixture-a” cannot be created: "));

  /* a box of it can still be picked, and fixed in the form */
  g_assert_true (kiste_create_dialog_import_assemble (fx->dialog, manifest, -1, &error));
  g_assert_no_error (error);
  kiste_test_flush (GTK_WIDGET (fx->window));
  list = find_alert_list ();
  g_assert_nonnull (list);
  g_signal_emit_by_name (list, "row-activated", find_list_row (list, "fixture-a"));
  kiste_test_flush (GTK_WIDGET (fx->window));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (row (fx, "Name"))), ==, "fixture-a");
  g_assert_false (kiste_create_dialog_get_can_create (fx->dialog));
  g_assert_cmpuint (n_create_commands (fx), ==, 0);
}

/* Kept until the process ends (see the end of main) */
static GTestDBus *test_bus;

/* The create log reads as people expect: no escape codes, the newest line
 * in view unless they scrolled up to read */
static void
test_progress_log (void)
{
  g_autoptr(KisteCreateOptions) options = kiste_create_options_new ();
  g_autoptr(KisteTask) task = kiste_task_new ("Creating", "newbox", NULL);
  KisteCreateProgress *progress = kiste_create_progress_new ();
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *view;
  GtkAdjustment *adjustment;
  GtkTextIter start;
  GtkTextIter end;
  g_autofree char *text = NULL;

  kiste_create_options_set_name (options, "newbox");
  kiste_create_options_set_image (options, IMAGE);
  gtk_window_set_default_size (window, 600, 700);
  gtk_window_set_child (window, GTK_WIDGET (progress));
  gtk_window_present (window);
  kiste_create_progress_begin (progress, options, TRUE);
  kiste_create_progress_follow (progress, task, KISTE_CREATION_STEP_CREATE);

  kiste_task_append_line (task, "\033[1;32mCreating 'newbox' using image " IMAGE "\033[0m\t [ OK ]");
  /* as a command prints: a few lines at a time */
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *line = g_strdup_printf ("line %u", i);

      kiste_task_append_line (task, line);
      if (i % 20 == 19)
        kiste_test_flush (GTK_WIDGET (window));
    }
  kiste_test_flush (GTK_WIDGET (window));

  view = kiste_test_find_widget (GTK_WIDGET (progress), GTK_TYPE_TEXT_VIEW, NULL);
  g_assert_nonnull (view);
  gtk_text_buffer_get_bounds (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), &start, &end);
  text = gtk_text_iter_get_text (&start, &end);
  g_assert_null (strchr (text, '\033'));
  g_assert_nonnull (strstr (text, "Creating 'newbox' using image"));

  adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), >, gtk_adjustment_get_page_size (adjustment));
  /* the last line at the bottom, above the view's own margin */
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - gtk_text_view_get_bottom_margin (GTK_TEXT_VIEW (view)) - 1);
  kiste_test_screenshot (GTK_WIDGET (window), "create-progress-log");

  /* scrolled up to read: it stays there while lines come */
  gtk_adjustment_set_value (adjustment, 0);
  for (guint i = 0; i < 50; i++)
    {
      kiste_task_append_line (task, "more");
      if (i % 20 == 19)
        kiste_test_flush (GTK_WIDGET (window));
    }
  kiste_test_flush (GTK_WIDGET (window));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0);

  /* back at the end: it follows again */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment) -
                                        gtk_adjustment_get_page_size (adjustment));
  for (guint i = 0; i < 50; i++)
    {
      kiste_task_append_line (task, "even more");
      if (i % 20 == 19)
        kiste_test_flush (GTK_WIDGET (window));
    }
  kiste_test_flush (GTK_WIDGET (window));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment), >=,
                     gtk_adjustment_get_upper (adjustment) - gtk_text_view_get_bottom_margin (GTK_TEXT_VIEW (view)) - 1);

  gtk_window_destroy (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dbus_daemon = g_find_program_in_path ("dbus-daemon");
  g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));
  int ret;

  /* a private session bus, so nothing reaches the desktop's (it unsets DISPLAY) */
  if (dbus_daemon != NULL)
    {
      test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (test_bus);
      if (display != NULL)
        g_setenv ("DISPLAY", display, TRUE);
    }

  kiste_test_catch_crashes ();
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  kiste_register_resource ();
  /* no transitions half-way in screenshots */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    RESOURCE_PATH "/icons");

#define ADD(path, func) \
  g_test_add ("/kiste/create-dialog/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  g_test_add_func ("/kiste/create-dialog/progress-log", test_progress_log);
  ADD ("temporary", test_temporary);
  ADD ("suggested-name", test_suggested_name);
  ADD ("one-validation-per-change", test_one_validation_per_change);
  ADD ("bad-input", test_bad_input);
  ADD ("capability-gating", test_capability_gating);
  ADD ("locks", test_locks);
  ADD ("show-command", test_show_command);
  ADD ("images", test_images);
  ADD ("images-snapshots", test_images_snapshots);
  ADD ("images-docker", test_images_docker);
  ADD ("form-screenshot", test_form_screenshot);
  ADD ("create-succeeds", test_create_succeeds);
  ADD ("create-progress-and-cancel", test_create_progress_and_cancel);
  ADD ("create-stopped-delete", test_create_stopped_delete);
  ADD ("create-fails", test_create_fails);
  ADD ("closed-while-running", test_closed_while_running);
  ADD ("toolbx-choice", test_toolbx_choice);
  ADD ("toolbx-only", test_toolbx_only);
  ADD ("clone-prefill", test_clone_prefill);
  ADD ("assemble-import", test_assemble_import);
  ADD ("assemble-create-all", test_assemble_create_all);
  ADD ("assemble-create-all-blocked", test_assemble_create_all_blocked);

#undef ADD

  ret = g_test_run ();

  if (test_bus != NULL)
    {
      g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);

      /* stopping the bus must not end the process */
      if (bus != NULL)
        g_dbus_connection_set_exit_on_close (bus, FALSE);
      /* not unreffed: that would wait for GTK to drop the bus */
      g_test_dbus_stop (test_bus);
    }
  return ret;
}
