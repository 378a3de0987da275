#!/usr/bin/env python3
# check-release.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The store page and the app name the same version: fails when the newest
# <release> of the metainfo is not the version of meson.build's project(),
# or when a release has no notes. (appstreamcli validate checks their
# order and dates.)
#
# Usage: check-release.py SOURCE_ROOT
#        check-release.py --self-test

import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

METAINFO = os.path.join('data', 'io.github.kiste.Kiste.metainfo.xml.in.in')
VERSION = re.compile(r"project\([^)]*?\bversion\s*:\s*'([^']+)'", re.S)


def find_problems(root):
    with open(os.path.join(root, 'meson.build'), encoding='utf-8') as f:
        m = VERSION.search(f.read())
    if m is None:
        return ['meson.build: no version in project()']
    releases = ET.parse(os.path.join(root, METAINFO)).getroot().findall('releases/release')
    if not releases:
        return [f'{METAINFO}: no releases']
    problems = []
    if releases[0].get('version') != m.group(1):
        problems.append(f'{METAINFO}: the newest release is {releases[0].get("version")}, '
                        f'meson.build says {m.group(1)}')
    for release in releases:
        if release.find('description') is None:
            problems.append(f'{METAINFO}: release {release.get("version")} has no notes')
    return problems


def self_test():
    def write(root, path, text):
        with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
            f.write(text)

    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'data'))
        write(root, 'meson.build', "project('kiste', 'c',\n  version: '0.2.0',\n)\n")
        write(root, METAINFO, '<component><releases>'
              '<release version="0.2.0"><description><p>New</p></description></release>'
              '<release version="0.1.0"><description><p>First</p></description></release>'
              '</releases></component>')
        assert find_problems(root) == [], find_problems(root)

        write(root, 'meson.build', "project('kiste', 'c',\n  version: '0.3.0',\n)\n")
        write(root, METAINFO, '<component><releases>'
              '<release version="0.2.0"><description><p>New</p></description></release>'
              '<release version="0.1.0"/></releases></component>')
        found = find_problems(root)
        assert found == [f'{METAINFO}: the newest release is 0.2.0, meson.build says 0.3.0',
                         f'{METAINFO}: release 0.1.0 has no notes'], found
    print('self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print('usage: check-release.py SOURCE_ROOT | --self-test', file=sys.stderr)
        return 2
    problems = find_problems(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        print('Add a <release> with its notes for the new version, newest first.')
        return 1
    print('the newest release of the metainfo is the project\'s version')
    return 0


if __name__ == '__main__':
    sys.exit(main())
