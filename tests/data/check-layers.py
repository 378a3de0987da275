#!/usr/bin/env python3
# check-layers.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Fails when a file includes a header of a folder that comes after its own
# in the order of the layers (src/core/meson.build and src/meson.build list
# the folders in that order), so that arrows between folders point one way
# and no circle crosses a folder. The app may use any part of the core; the
# core never the app. Only the shell reaches for the running application
# (g_application_get_default()); the parts below get what they need handed
# to them. Functions a -private.h declares for the files of one class and
# its tests are named _kiste_<class>_…, so that a call shows it is private.
#
# Usage: check-layers.py SOURCE_ROOT
#        check-layers.py --self-test

import os
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
APP_SINGLETON = re.compile(r'\bg_application_get_default\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
# a declaration: the return type, then the name at the start of the list
DECLARED = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(kiste_\w+)\s*\(', re.M)
FOLDERS = re.compile(r"foreach folder : \[([^\]]*)\]")


def folder_order(meson_build):
    with open(meson_build, encoding='utf-8') as f:
        m = FOLDERS.search(f.read())
    if m is None:
        raise SystemExit(f'{meson_build}: no "foreach folder : [...]" list')
    return re.findall(r"'([^']+)'", m.group(1))


def layers(root):
    """(layer name, folder path, rank) for every folder, core before app"""
    src = os.path.join(root, 'src')
    result = []
    for rank, name in enumerate(folder_order(os.path.join(src, 'core', 'meson.build'))):
        result.append(('core/' + name, os.path.join(src, 'core', name), rank))
    base = len(result)
    for rank, name in enumerate(folder_order(os.path.join(src, 'meson.build'))):
        result.append((name, os.path.join(src, name), base + rank))
    return result


def find_violations(root):
    found = []
    where = {}   # header name -> (layer, rank)
    files = []
    for layer, path, rank in layers(root):
        if not os.path.isdir(path):
            found.append(f'{os.path.relpath(path, root)}: a folder of the layers that does not exist')
            continue
        for name in sorted(os.listdir(path)):
            if name.endswith(('.c', '.h')):
                files.append((layer, rank, os.path.join(path, name)))
                if name.endswith('.h'):
                    where[name] = (layer, rank)
    # every source file is in a folder of the layers
    for directory, _subdirs, names in os.walk(os.path.join(root, 'src')):
        for name in names:
            if name.endswith(('.c', '.h')) and not any(f[2] == os.path.join(directory, name) for f in files):
                found.append(f'{os.path.relpath(os.path.join(directory, name), root)}: not in a folder of the layers')
    for layer, rank, path in files:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        if path.endswith('-private.h'):
            for name in DECLARED.findall(COMMENT.sub('', text)):
                found.append(f'{os.path.relpath(path, root)}: {name} is private: name it _{name}')
        if layer != 'shell' and APP_SINGLETON.search(text):
            found.append(f'{os.path.relpath(path, root)}: {layer} reaches for the running application')
        for header in INCLUDE.findall(text):
            if header not in where:
                continue
            other, other_rank = where[header]
            if other_rank > rank:
                found.append(f'{os.path.relpath(path, root)}: {layer} uses {header} of {other}, '
                             f'which comes after it')
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'w', encoding='utf-8') as f:
                f.write(text)
        write('src/core/meson.build', "foreach folder : ['base', 'boxes']\n")
        write('src/meson.build', "foreach folder : ['boxes', 'shell']\n")
        write('src/core/base/kiste-error.h', '')
        write('src/core/boxes/kiste-box.h', '#include "kiste-error.h"\n')
        write('src/core/base/kiste-error.c', '#include "kiste-box.h"\n')
        write('src/boxes/kiste-box-page.c', '#include "kiste-box.h"\n#include "kiste-window.h"\n')
        write('src/shell/kiste-window.h', '#include "kiste-box-page.h"\n')
        write('src/shell/kiste-window.c', 'g_application_get_default ();\n')
        write('src/boxes/kiste-row.c', 'app = g_application_get_default ();\n')
        write('src/stray.c', '')
        write('src/boxes/kiste-row-private.h',
              '/* kiste_row_frob () does */\nvoid _kiste_row_ok (int a);\nvoid kiste_row_bad (int a,\n   int b);\n')
        found = find_violations(root)
        assert found == [
            'src/stray.c: not in a folder of the layers',
            'src/core/base/kiste-error.c: core/base uses kiste-box.h of core/boxes, which comes after it',
            'src/boxes/kiste-box-page.c: boxes uses kiste-window.h of shell, which comes after it',
            'src/boxes/kiste-row-private.h: kiste_row_bad is private: name it _kiste_row_bad',
            'src/boxes/kiste-row.c: boxes reaches for the running application',
        ], found
    print('self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__ or 'usage: check-layers.py SOURCE_ROOT', file=sys.stderr)
        return 2
    found = find_violations(sys.argv[1])
    for line in found:
        print(line)
    if found:
        print(f'{len(found)} problem(s): a folder uses one that comes after it (see HACKING.md)')
        return 1
    print('every folder uses only those before it')
    return 0


if __name__ == '__main__':
    sys.exit(main())
