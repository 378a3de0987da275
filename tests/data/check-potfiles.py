#!/usr/bin/env python3
# check-potfiles.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when po/POTFILES.in is out of date: a source, UI or data file with
# translatable strings is missing, an entry names a file that does not exist,
# an entry is listed twice, or the list is not sorted (byte order, as
# `LC_ALL=C sort` does it).
#
# Usage: check-potfiles.py SOURCE_ROOT

import os
import re
import sys

# C sources: the glib preset's keywords (_, N_, C_, NC_, Q_) with a string
# literal, and the gettext function family (gettext, ngettext, g_dgettext,
# g_dngettext, g_dpgettext2, ...).
C_MARKER = re.compile(
    r'(?<![\w])(?:_|N_|C_|NC_|Q_)\s*\(\s*"'
    r'|(?<![\w])(?:g_)?d?c?n?p?gettext2?\s*\(')

# GtkBuilder: xgettext extracts translatable="yes", "true" and "1".
UI_MARKER = re.compile(r'''\btranslatable\s*=\s*["'](?:yes|true|1)["']''')

# Data files xgettext reads through ITS rules or its desktop parser.
DATA_SUFFIXES = (
    '.desktop.in', '.desktop.in.in',
    '.metainfo.xml.in', '.metainfo.xml.in.in',
    '.gschema.xml', '.gschema.xml.in',
)


def strip_code(text):
    """Blank out comments and the contents of string and character literals."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '/' and i + 1 < n and text[i + 1] == '*':
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            # Keep newlines so line numbers stay meaningful.
            out.append(''.join('\n' if ch == '\n' else ' ' for ch in text[i:end]))
            i = end
        elif c == '/' and i + 1 < n and text[i + 1] == '/':
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            # Blank the contents too: a literal that mentions _("…") is
            # not a call.
            out.append(c + ' ' * max(j - i - 2, 0) + (c if j - i >= 2 else ''))
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def read_text(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def has_strings(root, rel):
    text = read_text(os.path.join(root, rel))
    if rel.endswith('.ui'):
        return UI_MARKER.search(text) is not None
    if rel.endswith(('.c', '.h')):
        return C_MARKER.search(strip_code(text)) is not None
    if rel.endswith(DATA_SUFFIXES):
        return True
    return False


def walk(root, top, suffixes):
    base = os.path.join(root, top)
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames.sort()
        for name in filenames:
            if name.endswith(suffixes):
                found.append(os.path.relpath(os.path.join(dirpath, name), root))
    return found


def candidates(root):
    """Files that must be in POTFILES.in when they have translatable strings."""
    files = walk(root, 'src', ('.c', '.h', '.ui'))
    files += walk(root, os.path.join('data', 'ui'), ('.ui',))
    data = os.path.join(root, 'data')
    if os.path.isdir(data):
        for name in os.listdir(data):
            if name.endswith(DATA_SUFFIXES) and os.path.isfile(os.path.join(data, name)):
                files.append(os.path.join('data', name))
    return sorted(set(f.replace(os.sep, '/') for f in files))


def read_potfiles(path):
    entries = []
    with open(path, encoding='utf-8') as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith('#') or line.startswith('['):
                continue
            entries.append((lineno, line))
    return entries


def check(root):
    potfiles = os.path.join(root, 'po', 'POTFILES.in')
    if not os.path.isfile(potfiles):
        return ['po/POTFILES.in does not exist']

    errors = []
    entries = read_potfiles(potfiles)
    listed = set()

    for lineno, entry in entries:
        if entry in listed:
            errors.append(f'POTFILES.in:{lineno}: {entry} is listed twice')
        listed.add(entry)
        if not os.path.isfile(os.path.join(root, entry)):
            errors.append(f'POTFILES.in:{lineno}: {entry} does not exist')

    names = [entry for _, entry in entries]
    for (lineno, entry), prev in zip(entries[1:], names):
        if entry.encode() < prev.encode():
            errors.append(f'POTFILES.in:{lineno}: {entry} should come before {prev} '
                          '(keep the list sorted as LC_ALL=C sort does)')

    for rel in candidates(root):
        if rel not in listed and has_strings(root, rel):
            errors.append(f'{rel} has translatable strings but is not in po/POTFILES.in')

    return errors


def main(argv):
    if len(argv) != 2:
        print(f'usage: {argv[0]} SOURCE_ROOT', file=sys.stderr)
        return 2
    errors = check(argv[1])
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f'{len(errors)} problem(s) in po/POTFILES.in', file=sys.stderr)
        return 1
    print('po/POTFILES.in is complete and sorted')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
