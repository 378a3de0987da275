#!/usr/bin/env python3
# check-hacking.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# HACKING.md is the map of the code; fails when the map and the code part.
# Every folder of the layers (src/core/meson.build and src/meson.build list
# them in order) has a section whose heading names its path, in the order
# of the layers, and every .c and .h file of the folder is named there by
# its file name; a source file outside the folders is named somewhere.
# Whatever the map names is there: each kiste-*.c and kiste-*.h file (in
# src/ or tests/), each path under src/, tests/, data/, docs/, build-aux/
# and po/, and each kiste_…() function (in a file of src/ or tests/). So a
# file added, moved or removed, or a function renamed, changes the map too.
#
# Usage: check-hacking.py SOURCE_ROOT
#        check-hacking.py --self-test

import os
import re
import sys
import tempfile

MAP = 'HACKING.md'
FOLDERS = re.compile(r"foreach folder : \[([^\]]*)\]")
HEADING = re.compile(r'^(#{1,6})\s+(.*)$')
FENCE = re.compile(r'^\s*```')
# a kiste-*.c or kiste-*.h file, alone or at the end of a path
FILE_NAME = re.compile(r'(?<![\w.-])(kiste-[\w-]+\.[ch])(?![\w-])')
# a path in the tree; globs and placeholders (<folder>, *) end it early
PATH = re.compile(r'(?<![\w./-])((?:src|tests|data|docs|build-aux|po)/[\w./-]*[\w/])')
# a function named as a call, `kiste_box_get_name()`
FUNCTION = re.compile(r'(?<![\w])(_?kiste_\w+)\s*\(\)')
IDENTIFIER = re.compile(r'\b_?kiste_\w+\b')


def folder_order(meson_build):
    with open(meson_build, encoding='utf-8') as f:
        m = FOLDERS.search(f.read())
    if m is None:
        raise SystemExit(f'{meson_build}: no "foreach folder : [...]" list')
    return re.findall(r"'([^']+)'", m.group(1))


def layers(root):
    """(the folder's path in the map, its meson.build) for every folder, core before app"""
    result = []
    for name in folder_order(os.path.join(root, 'src', 'core', 'meson.build')):
        result.append((f'src/core/{name}/', 'src/core/meson.build'))
    for name in folder_order(os.path.join(root, 'src', 'meson.build')):
        result.append((f'src/{name}/', 'src/meson.build'))
    return result


def sections(lines):
    """(heading line, the lines up to the next heading of its level or above) for each heading"""
    headings = []
    in_code = False
    for number, line in enumerate(lines):
        if FENCE.match(line):
            in_code = not in_code
            continue
        m = None if in_code else HEADING.match(line)
        if m:
            headings.append((number, len(m.group(1)), m.group(2)))
    result = []
    for i, (number, level, text) in enumerate(headings):
        end = len(lines)
        for other, other_level, _text in headings[i + 1:]:
            if other_level <= level:
                end = other
                break
        result.append((text, '\n'.join(lines[number:end])))
    return result


def names(text, name):
    return re.search(r'(?<![\w.-])' + re.escape(name) + r'(?![\w-])', text) is not None


def source_files(root, top):
    """paths (relative to root) of the .c and .h files under top"""
    found = []
    for directory, subdirs, files in os.walk(os.path.join(root, top)):
        subdirs.sort()
        for name in sorted(files):
            if name.endswith(('.c', '.h')):
                found.append(os.path.relpath(os.path.join(directory, name), root))
    return found


def find_problems(root):
    found = []
    with open(os.path.join(root, MAP), encoding='utf-8') as f:
        text = f.read()
    lines = text.split('\n')
    all_sections = sections(lines)

    # one section per folder, in the layers' order
    section_of = {}
    last = None
    for folder, meson_build in layers(root):
        index = next((i for i, (heading, _body) in enumerate(all_sections) if folder in heading), None)
        if index is None:
            found.append(f'{MAP}: no section for {folder} (a folder of {meson_build})')
            continue
        section_of[folder] = all_sections[index][1]
        if last is not None and index < last[1]:
            found.append(f'{MAP}: the section of {folder} comes before that of {last[0]}, '
                         f'against the order of the layers')
        last = (folder, index)

    # every source file named, in its folder's section if there is one
    for path in source_files(root, 'src'):
        folder = os.path.dirname(path) + '/'
        name = os.path.basename(path)
        if folder in section_of:
            if not names(section_of[folder], name):
                found.append(f'{path}: not named in the section of {folder} in {MAP}')
        elif not names(text, name):
            found.append(f'{path}: not named in {MAP}')

    # whatever the map names is there
    sources = source_files(root, 'src') + source_files(root, 'tests')
    files = set(os.path.basename(path) for path in sources)
    identifiers = set()
    for path in sources:
        with open(os.path.join(root, path), encoding='utf-8') as f:
            identifiers.update(IDENTIFIER.findall(f.read()))
    seen = set()
    for number, line in enumerate(lines, 1):
        for name in FILE_NAME.findall(line):
            if name not in files and name not in seen:
                found.append(f'{MAP}:{number}: names {name}, which is no file of src/ or tests/')
            seen.add(name)
        for path in PATH.findall(line):
            if not os.path.exists(os.path.join(root, path)) and path not in seen:
                found.append(f'{MAP}:{number}: names {path}, which does not exist')
            seen.add(path)
        for name in FUNCTION.findall(line):
            if name not in identifiers and name not in seen:
                found.append(f'{MAP}:{number}: names {name}(), which is in no file of src/ or tests/')
            seen.add(name)
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        def write(path, text=''):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'w', encoding='utf-8') as f:
                f.write(text)
        write('src/core/meson.build', "foreach folder : ['base', 'boxes']\n")
        write('src/meson.build', "foreach folder : ['widgets', 'boxes', 'shell']\n")
        write('src/core/base/kiste-error.c', 'void kiste_error_quark (void);\n')
        write('src/core/base/kiste-error.h')
        write('src/core/boxes/kiste-box.c', 'void _kiste_box_derive (void);\n')
        write('src/core/boxes/kiste-box.h')
        write('src/boxes/kiste-box-row.c')
        write('src/widgets/meson.build')
        write('src/shell/main.c')
        write('src/shell/kiste-window.c')
        write('src/stray.c')
        write('src/core/process/kiste-runner.c')
        write('tests/common/kiste-test-util.c', 'void kiste_test_wait_for (void);\n')
        write('docs/testing.md')
        write(MAP, '\n'.join([
            '# Hacking',
            'The core is in `src/core/`; see docs/testing.md and docs/gone.md.',
            '## The core',
            '### `src/core/base/`: errors',
            '`kiste-error.c`: the domain',
            '#### Its header',
            '`kiste-error.h`: `kiste_error_quark()`',
            '### `src/core/boxes/`: boxes',
            '`kiste-box.c` (`_kiste_box_derive()`, `kiste_box_gone()`)',
            '## The app',
            'kiste-box.h is named outside its section: that does not count',
            '### `src/shell/`: the window',
            '`main.c`, `kiste-window.c` (`kiste-window-private.h` went),',
            'run by src/core/kiste-runner.c',
            '### `src/boxes/`: rows',
            '`kiste-box-row.c`; tests: `kiste-test-util.c`, `kiste_test_wait_for()`',
            '```',
            '## `src/widgets/` in a code block is no heading',
            '```',
        ]) + '\n')
        found = find_problems(root)
        assert found == [
            'HACKING.md: no section for src/widgets/ (a folder of src/meson.build)',
            'HACKING.md: the section of src/shell/ comes before that of src/boxes/, '
            'against the order of the layers',
            'src/stray.c: not named in HACKING.md',
            'src/core/boxes/kiste-box.h: not named in the section of src/core/boxes/ in HACKING.md',
            'HACKING.md:2: names docs/gone.md, which does not exist',
            'HACKING.md:9: names kiste_box_gone(), which is in no file of src/ or tests/',
            'HACKING.md:13: names kiste-window-private.h, which is no file of src/ or tests/',
            'HACKING.md:14: names src/core/kiste-runner.c, which does not exist',
        ], found
    print('self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__ or 'usage: check-hacking.py SOURCE_ROOT', file=sys.stderr)
        return 2
    found = find_problems(sys.argv[1])
    for line in found:
        print(line)
    if found:
        print(f'{len(found)} problem(s): {MAP} no longer matches the code; it is the map, '
              f'so change it with the code')
        return 1
    print(f'{MAP} names every source file in its folder\'s section, and all it names is there')
    return 0


if __name__ == '__main__':
    sys.exit(main())
