#!/usr/bin/env python3
# check-mime.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the box files' MIME type: the shared-mime-info package names
# application/x-kiste-box for *.kistebox, update-mime-database (when
# installed) accepts it and maps the glob to the type, the desktop file
# lists the type so that "Open With Kiste" is offered, and the app's file
# filters ask for the same type.
#
# Usage: check-mime.py SOURCE_ROOT DESKTOP_FILE

import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

MIME_TYPE = 'application/x-kiste-box'
GLOB = '*.kistebox'
NS = '{http://www.freedesktop.org/standards/shared-mime-info}'

problems = []


def main():
    root, desktop = sys.argv[1], sys.argv[2]
    package = os.path.join(root, 'data', 'io.github.kiste.Kiste.mime.xml')

    tree = ET.parse(package)
    types = tree.getroot().findall(NS + 'mime-type')
    if [t.get('type') for t in types] != [MIME_TYPE]:
        problems.append(f'{package}: must define {MIME_TYPE} alone')
    else:
        globs = [g.get('pattern') for g in types[0].findall(NS + 'glob')]
        if globs != [GLOB]:
            problems.append(f'{package}: the glob must be {GLOB}, not {globs}')
        if not any(c.get('{http://www.w3.org/XML/1998/namespace}lang') is None
                   for c in types[0].findall(NS + 'comment')):
            problems.append(f'{package}: no comment')

    if shutil.which('update-mime-database'):
        with tempfile.TemporaryDirectory() as data:
            tmp = os.path.join(data, 'mime')
            os.makedirs(os.path.join(tmp, 'packages'))
            shutil.copy(package, os.path.join(tmp, 'packages', 'io.github.kiste.Kiste.xml'))
            env = dict(os.environ, XDG_DATA_HOME=data, XDG_DATA_DIRS=data)
            run = subprocess.run(['update-mime-database', tmp], capture_output=True, text=True,
                                 env=env)
            if run.returncode != 0 or run.stderr.strip():
                problems.append(f'update-mime-database refuses it: {run.stderr.strip()}')
            else:
                with open(os.path.join(tmp, 'globs2'), encoding='utf-8') as f:
                    if not any(line.strip().endswith(f':{MIME_TYPE}:{GLOB}') for line in f):
                        problems.append(f'update-mime-database does not map {GLOB} to {MIME_TYPE}')

    with open(desktop, encoding='utf-8') as f:
        mime_lines = [l for l in f if l.startswith('MimeType=')]
    if not mime_lines or MIME_TYPE not in mime_lines[0].strip().split('=', 1)[1].split(';'):
        problems.append(f'{desktop}: MimeType= does not list {MIME_TYPE}')

    for path in ('src/shell/kiste-window-boxfile.c',):
        with open(os.path.join(root, path), encoding='utf-8') as f:
            text = f.read()
        if f'"{MIME_TYPE}"' not in text:
            problems.append(f'{path}: the file filter does not ask for {MIME_TYPE}')

    for p in problems:
        print(p)
    if problems:
        print(f'{len(problems)} problem(s) with the box files\' MIME type')
        return 1
    print(f'{MIME_TYPE} ({GLOB}) is registered and offered')
    return 0


sys.exit(main())
