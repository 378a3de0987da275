#!/usr/bin/env python3
# check-translations.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when a translation is not complete: po/LANG.po does not compile
# (`msgfmt --check`, mnemonics included), its statistics line counts a fuzzy
# or untranslated message, or a message of the current template (extracted
# from po/POTFILES.in as `meson compile kiste-pot` does) is not translated in
# it, which is what happens when a string in the code changed and the
# translation was not updated (see docs/translations.md).
#
# Usage: check-translations.py SOURCE_ROOT [LANG...]   (default: po/LINGUAS)
#        check-translations.py --self-test
#        check-translations.py --write-template OUTPUT SOURCE_ROOT
#          (the template alone, for the UI test that looks for English text)

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# "824 translated messages." and nothing else: msgfmt adds ", 2 fuzzy
# translations, 1 untranslated message." when there are some
COMPLETE = re.compile(r'^(\d+) translated messages?\.$')


def xgettext_args():
    """The keywords and flags of meson's 'glib' preset, as check-xgettext.py has them."""
    spec = importlib.util.spec_from_file_location('check_xgettext', os.path.join(HERE, 'check-xgettext.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.XGETTEXT_ARGS


def read_linguas(root):
    langs = []
    with open(os.path.join(root, 'po', 'LINGUAS'), encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                langs += line.split()
    return langs


def run(argv):
    # untranslated messages from msgfmt and msgcmp themselves, whatever the
    # locale of the test
    env = dict(os.environ, LC_ALL='C')
    env.pop('LANGUAGE', None)
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def make_template(root, pot):
    proc = run(['xgettext', '--package-name=kiste', '-f', os.path.join(root, 'po', 'POTFILES.in'),
                '-D', root, '-o', pot] + xgettext_args())
    if proc.returncode != 0:
        return [f'xgettext failed:\n{proc.stderr.strip()}']
    return []


def list_entries(po, flag):
    """The msgids msgattrib finds with flag (--untranslated, --only-fuzzy)"""
    proc = run(['msgattrib', flag, '--no-obsolete', '--no-wrap', po])
    return [line[len('msgid '):] for line in proc.stdout.splitlines()
            if line.startswith('msgid ') and line != 'msgid ""']


def template_msgid(pot, number):
    """The msgid of the entry at line number of the template, as written there"""
    with open(pot, encoding='utf-8') as f:
        lines = f.read().splitlines()
    start = number - 1
    while start > 0 and not lines[start].startswith('msgid '):
        start -= 1
    text = lines[start][len('msgid '):]
    for line in lines[start + 1:]:
        if not line.startswith('"'):
            break
        text = text[:-1] + line[1:]
    return text


def check_language(root, lang, pot, say):
    po = os.path.join(root, 'po', lang + '.po')
    if not os.path.isfile(po):
        return [f'po/{lang}.po does not exist']

    errors = []
    proc = run(['msgfmt', '--check', '--check-accelerators=_', '--statistics',
                '--output-file=' + os.devnull, po])
    lines = [line for line in proc.stderr.strip().splitlines() if line]
    statistics = lines[-1] if lines else ''
    if proc.returncode != 0:
        errors.append(f'po/{lang}.po does not compile (msgfmt --check):\n{proc.stderr.strip()}')
    elif not COMPLETE.match(statistics):
        errors.append(f'po/{lang}.po is not complete: {statistics}')
        for msgid in list_entries(po, '--untranslated'):
            errors.append(f'  untranslated: {msgid}')
        for msgid in list_entries(po, '--only-fuzzy'):
            errors.append(f'  fuzzy: {msgid}')
    else:
        say(f'po/{lang}.po: {statistics}')

    # msgcmp: every message of the template is in the .po (untranslated and
    # fuzzy ones were counted above)
    proc = run(['msgcmp', '--no-fuzzy-matching', '--use-untranslated', '--use-fuzzy', po, pot])
    if proc.returncode != 0:
        missing = [template_msgid(pot, int(m.group(1)))
                   for m in re.finditer(r':(\d+): this message is used but not defined', proc.stderr)]
        errors.append(f'po/{lang}.po is behind the template: {len(missing)} message(s) of the code '
                      'are not in it; update it with `meson compile -C BUILDDIR kiste-update-po`, '
                      'then translate them:')
        errors += ['  missing: ' + msgid for msgid in missing] or ['  ' + proc.stderr.strip()]
    return errors


def check(root, langs, say=print):
    for tool in ('xgettext', 'msgfmt', 'msgcmp', 'msgattrib'):
        if shutil.which(tool) is None:
            return [f'{tool} not found (package gettext)']
    if not langs:
        langs = read_linguas(root)
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'kiste.pot')
        errors += make_template(root, pot)
        if errors:
            return errors
        for lang in langs:
            errors += check_language(root, lang, pot, say)
    return errors


# A small made-up tree: each way a translation can be incomplete must fail

SELF_TEST_C = '''#include <glib/gi18n.h>
static void f (int n)
{
  g_print ("%s %s %s", _("Open _Terminal"), _("Box"), C_("box name", "copy"));
  g_print (ngettext ("%d box", "%d boxes", n), n);
}
'''

SELF_TEST_PO = '''msgid ""
msgstr ""
"Project-Id-Version: kiste\\n"
"PO-Revision-Date: 2026-01-01 00:00+0000\\n"
"Last-Translator: The Kiste authors\\n"
"Language-Team: Test\\n"
"Language: xx\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Open _Terminal"
msgstr "_Terminal öffnen"

msgid "Box"
msgstr "Box"

msgctxt "box name"
msgid "copy"
msgstr "kopie"

#, c-format
msgid "%d box"
msgid_plural "%d boxes"
msgstr[0] "%d Box"
msgstr[1] "%d Boxen"
'''


def self_test():
    cases = [
        ('complete', lambda po: po, None),
        ('untranslated', lambda po: po.replace('msgstr "kopie"', 'msgstr ""'), 'untranslated: "copy"'),
        ('fuzzy', lambda po: po.replace('msgid "Box"', '#, fuzzy\nmsgid "Box"'), 'fuzzy: "Box"'),
        ('untranslated plural',
         lambda po: po.replace('msgstr[0] "%d Box"', 'msgstr[0] ""').replace('msgstr[1] "%d Boxen"', 'msgstr[1] ""'),
         'untranslated: "%d box"'),
        ('bad format', lambda po: po.replace('"%d Boxen"', '"Boxen"'), 'does not compile'),
        ('lost mnemonic', lambda po: po.replace('_Terminal öffnen', 'Terminal öffnen'), 'does not compile'),
        ('behind the template', lambda po: po.replace('msgid "Box"\nmsgstr "Box"\n', ''),
         'missing: "Box"'),
    ]
    failed = 0
    print(f'1..{len(cases)}')
    for number, (name, mutate, expected) in enumerate(cases, 1):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, 'po'))
            os.makedirs(os.path.join(root, 'src'))
            with open(os.path.join(root, 'src', 'kiste-box.c'), 'w', encoding='utf-8') as f:
                f.write(SELF_TEST_C)
            with open(os.path.join(root, 'po', 'POTFILES.in'), 'w', encoding='utf-8') as f:
                f.write('src/kiste-box.c\n')
            with open(os.path.join(root, 'po', 'LINGUAS'), 'w', encoding='utf-8') as f:
                f.write('xx\n')
            with open(os.path.join(root, 'po', 'xx.po'), 'w', encoding='utf-8') as f:
                f.write(mutate(SELF_TEST_PO))
            errors = check(root, [], say=lambda line: print('# ' + line))
        text = '\n'.join(errors)
        if expected is None:
            ok = not errors
        else:
            ok = bool(errors) and expected in text
        if not ok:
            failed += 1
            print(f'not ok {number} - {name}')
            print('# ' + (text or 'no error').replace('\n', '\n# '))
        else:
            print(f'ok {number} - {name}')
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    if len(argv) == 4 and argv[1] == '--write-template':
        errors = make_template(argv[3], argv[2])
        for e in errors:
            print(e, file=sys.stderr)
        return 1 if errors else 0
    if len(argv) < 2:
        print(f'usage: {argv[0]} SOURCE_ROOT [LANG...] | --self-test', file=sys.stderr)
        return 2
    errors = check(argv[1], argv[2:])
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
