#!/usr/bin/env python3
# test-check-potfiles.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs check-potfiles.py on small made-up source trees, so a checker that
# stopped noticing problems would fail here. TAP output.

import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-potfiles.py')

HEADER = '# Please keep this file sorted alphabetically.\n'

BASE_FILES = {
    'data/io.github.kiste.Kiste.desktop.in.in': '[Desktop Entry]\nName=Kiste\n',
    'data/ui/kiste-window.ui':
        '<interface><object class="GtkLabel">'
        '<property name="label" translatable="yes">Boxes</property>'
        '</object></interface>\n',
    'data/ui/kiste-plain.ui':
        '<interface><object class="GtkBox"/></interface>\n',
    'src/core/kiste-box.c':
        '#include <glib/gi18n.h>\n'
        'static const char *f (void) { return _ ("Running"); }\n',
    'src/kiste-rows.c':
        'static const char *s[] = { N_("Stopped"), NULL };\n',
    'src/kiste-plural.c':
        'void f (int n) { g_print ("%s", ngettext ("box", "boxes", n)); }\n',
    'src/kiste-util.c':
        '/* Not translatable: _("in a comment") */\n'
        'static const char *s = "call ngettext (n) or _(\\"in a string\\")";\n'
        "static const char q = '\"';\n"
        '// N_("in a line comment")\n'
        'int my_(int x);\n',
}

GOOD_POTFILES = HEADER + ''.join(
    f'{p}\n' for p in sorted([
        'data/io.github.kiste.Kiste.desktop.in.in',
        'data/ui/kiste-window.ui',
        'src/core/kiste-box.c',
        'src/kiste-plural.c',
        'src/kiste-rows.c',
    ]))


def make_tree(root, files, potfiles):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
    os.makedirs(os.path.join(root, 'po'), exist_ok=True)
    with open(os.path.join(root, 'po', 'POTFILES.in'), 'w', encoding='utf-8') as f:
        f.write(potfiles)


def run(files, potfiles):
    with tempfile.TemporaryDirectory() as root:
        make_tree(root, files, potfiles)
        proc = subprocess.run([sys.executable, CHECKER, root],
                              capture_output=True, text=True)
        return proc.returncode, proc.stderr


def drop_line(text, line):
    return text.replace(line + '\n', '', 1)


CASES = []


def case(func):
    CASES.append(func)
    return func


@case
def complete_list_passes():
    rc, err = run(BASE_FILES, GOOD_POTFILES)
    return rc == 0, err


@case
def missing_c_file_fails():
    rc, err = run(BASE_FILES, drop_line(GOOD_POTFILES, 'src/core/kiste-box.c'))
    return rc == 1 and 'src/core/kiste-box.c has translatable strings' in err, err


@case
def missing_n_file_fails():
    rc, err = run(BASE_FILES, drop_line(GOOD_POTFILES, 'src/kiste-rows.c'))
    return rc == 1 and 'src/kiste-rows.c' in err, err


@case
def missing_ngettext_file_fails():
    rc, err = run(BASE_FILES, drop_line(GOOD_POTFILES, 'src/kiste-plural.c'))
    return rc == 1 and 'src/kiste-plural.c' in err, err


@case
def missing_ui_file_fails():
    rc, err = run(BASE_FILES, drop_line(GOOD_POTFILES, 'data/ui/kiste-window.ui'))
    return rc == 1 and 'data/ui/kiste-window.ui' in err, err


@case
def missing_data_file_fails():
    rc, err = run(BASE_FILES,
                  drop_line(GOOD_POTFILES, 'data/io.github.kiste.Kiste.desktop.in.in'))
    return rc == 1 and 'io.github.kiste.Kiste.desktop.in.in' in err, err


@case
def translatable_true_counts():
    files = dict(BASE_FILES)
    files['data/ui/kiste-dialog.ui'] = (
        '<interface><object class="AdwDialog">'
        '<property name="title" translatable="true">Create</property>'
        '</object></interface>\n')
    rc, err = run(files, GOOD_POTFILES)
    return rc == 1 and 'data/ui/kiste-dialog.ui' in err, err


@case
def missing_header_fails():
    files = dict(BASE_FILES)
    files['src/kiste-window.h'] = '#define KISTE_TITLE C_("window title", "Kiste")\n'
    rc, err = run(files, GOOD_POTFILES)
    return rc == 1 and 'src/kiste-window.h' in err, err


@case
def nonexistent_entry_fails():
    potfiles = GOOD_POTFILES + 'src/zz-gone.c\n'
    rc, err = run(BASE_FILES, potfiles)
    return rc == 1 and 'src/zz-gone.c does not exist' in err, err


@case
def unsorted_list_fails():
    lines = GOOD_POTFILES.splitlines(keepends=True)
    body = lines[1:]
    body[0], body[1] = body[1], body[0]
    rc, err = run(BASE_FILES, lines[0] + ''.join(body))
    return rc == 1 and 'should come before' in err, err


@case
def duplicate_entry_fails():
    potfiles = GOOD_POTFILES.replace('src/kiste-rows.c\n',
                                     'src/kiste-rows.c\nsrc/kiste-rows.c\n')
    rc, err = run(BASE_FILES, potfiles)
    return rc == 1 and 'listed twice' in err, err


@case
def comments_and_strings_do_not_count():
    # kiste-util.c only mentions markers in comments and strings, and
    # kiste-plain.ui has nothing translatable: leaving them out is right.
    rc, err = run(BASE_FILES, GOOD_POTFILES)
    return rc == 0 and 'kiste-util.c' not in err and 'kiste-plain.ui' not in err, err


@case
def missing_potfiles_fails():
    with tempfile.TemporaryDirectory() as root:
        proc = subprocess.run([sys.executable, CHECKER, root],
                              capture_output=True, text=True)
    return proc.returncode == 1 and 'does not exist' in proc.stderr, proc.stderr


def main():
    print(f'1..{len(CASES)}')
    failed = 0
    for number, func in enumerate(CASES, 1):
        ok, detail = func()
        print(f'{"ok" if ok else "not ok"} {number} - {func.__name__}')
        if not ok:
            failed += 1
            for line in detail.splitlines():
                print(f'# {line}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
