#!/usr/bin/env python3
# check-xgettext.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Extracts the translation template the way `meson compile kiste-pot` does
# (xgettext with the glib preset over po/POTFILES.in) and fails when xgettext
# fails or warns, when strings from the data files are missing from the
# template, or when po/LINGUAS and the po/*.po files disagree or a
# translation does not pass `msgfmt --check`.
#
# Usage: check-xgettext.py SOURCE_ROOT

import glob
import os
import shutil
import subprocess
import sys
import tempfile

# The keywords and flags of meson's i18n 'glib' preset.
XGETTEXT_ARGS = [
    '--from-code=UTF-8',
    '--add-comments',
    '-k_',
    '--keyword=N_',
    '--keyword=C_:1c,2',
    '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2',
    '--keyword=g_dngettext:2,3',
    '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format',
    '--flag=C_:2:pass-c-format',
    '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format',
    '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format',
    '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format',
    '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format',
    '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format',
    '--flag=g_printerr:1:c-format',
    '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format',
    '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]

# One string from each data file, to prove xgettext found its ITS rules
# (desktop entry, AppStream metainfo, GSettings schema).
EXPECTED = [
    'msgid "Distrobox Manager"',
    'msgid "Manage your Distrobox containers"',
    'msgid "Confirm stopping a box"',
]


def read_linguas(path):
    langs = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                langs += line.split()
    return langs


def check_template(root, errors):
    xgettext = shutil.which('xgettext')
    if xgettext is None:
        errors.append('xgettext not found (package gettext)')
        return
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'kiste.pot')
        proc = subprocess.run(
            [xgettext, '--package-name=kiste', '-f', os.path.join(root, 'po', 'POTFILES.in'),
             '-D', root, '-o', pot] + XGETTEXT_ARGS,
            capture_output=True, text=True)
        if proc.stderr.strip():
            errors += [f'xgettext: {line}' for line in proc.stderr.strip().splitlines()]
        if proc.returncode != 0:
            errors.append(f'xgettext exited with status {proc.returncode}')
            return
        with open(pot, encoding='utf-8') as f:
            text = f.read()
    for entry in EXPECTED:
        if entry not in text:
            errors.append(f'the template lacks {entry}')


def check_translations(root, errors):
    po = os.path.join(root, 'po')
    langs = read_linguas(os.path.join(po, 'LINGUAS'))
    if langs != sorted(langs):
        errors.append('po/LINGUAS is not sorted')
    if len(set(langs)) != len(langs):
        errors.append('po/LINGUAS lists a language twice')
    files = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(po, '*.po')))
    for lang in sorted(set(langs) - set(files)):
        errors.append(f'po/LINGUAS lists {lang} but po/{lang}.po does not exist')
    for lang in sorted(set(files) - set(langs)):
        errors.append(f'po/{lang}.po exists but po/LINGUAS does not list {lang}')
    if not files:
        return
    msgfmt = shutil.which('msgfmt')
    if msgfmt is None:
        errors.append('msgfmt not found (package gettext)')
        return
    for lang in files:
        proc = subprocess.run(
            [msgfmt, '--check', '--output-file=' + os.devnull, os.path.join(po, lang + '.po')],
            capture_output=True, text=True)
        if proc.returncode != 0 or proc.stderr.strip():
            errors.append(f'po/{lang}.po: msgfmt --check failed:\n{proc.stderr.strip()}')


def main(argv):
    if len(argv) != 2:
        print(f'usage: {argv[0]} SOURCE_ROOT', file=sys.stderr)
        return 2
    errors = []
    check_template(argv[1], errors)
    check_translations(argv[1], errors)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        return 1
    print('translation template and translations are fine')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
