#!/usr/bin/env python3
# check-screenshots.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every picture the store page and the README show is in the repository:
# fails when a <screenshot> of the metainfo has no caption or an <image>
# whose address is not a file of this repository (the raw GitHub address
# https://raw.githubusercontent.com/OWNER/NAME/REF/PATH of the repository
# its vcs-browser URL names, mapped to PATH), when that file is not a PNG,
# when no screenshot is the default, or when an image README.md shows is
# not there. `make screenshots` takes the pictures (data/screenshots/).
#
# Usage: check-screenshots.py SOURCE_ROOT
#        check-screenshots.py --self-test

import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

METAINFO = os.path.join('data', 'io.github.kiste.Kiste.metainfo.xml.in.in')
PNG_SIGNATURE = b'\x89PNG\r\n\x1a\n'
README_IMAGE = re.compile(r'!\[[^\]]*\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"|<source [^>]*srcset="([^"]+)"')


def png_size(path):
    """(width, height) of a PNG file, or None when it is not one"""
    with open(path, 'rb') as f:
        head = f.read(24)
    if len(head) < 24 or not head.startswith(PNG_SIGNATURE) or head[12:16] != b'IHDR':
        return None
    return int.from_bytes(head[16:20], 'big'), int.from_bytes(head[20:24], 'big')


def check_file(root, path, what, problems):
    full = os.path.normpath(os.path.join(root, path))
    if os.path.commonpath([full, os.path.abspath(root)]) != os.path.abspath(root):
        problems.append(f'{what}: {path} is outside the repository')
    elif not os.path.isfile(full):
        problems.append(f'{what}: {path} is not in the repository')
    elif png_size(full) is None:
        problems.append(f'{what}: {path} is not a PNG')


def find_problems(root):
    root = os.path.abspath(root)
    problems = []
    component = ET.parse(os.path.join(root, METAINFO)).getroot()

    vcs = component.find("url[@type='vcs-browser']")
    m = re.fullmatch(r'https://github\.com/([^/]+)/([^/]+?)/?', (vcs.text or '').strip()) if vcs is not None else None
    if m is None:
        return [f'{METAINFO}: no <url type="vcs-browser"> of a GitHub repository']
    raw = re.compile(r'https://raw\.githubusercontent\.com/%s/%s/[^/]+/(.+)' % (re.escape(m.group(1)),
                                                                             re.escape(m.group(2))))

    screenshots = component.findall('screenshots/screenshot')
    if not screenshots:
        problems.append(f'{METAINFO}: no screenshots')
    if len([s for s in screenshots if s.get('type') == 'default']) != 1:
        problems.append(f'{METAINFO}: not exactly one screenshot of type="default"')
    for number, screenshot in enumerate(screenshots, 1):
        what = f'{METAINFO}: screenshot {number}'
        caption = screenshot.find('caption')
        if caption is None or not (caption.text or '').strip():
            problems.append(f'{what} has no caption')
        images = screenshot.findall('image')
        if not images:
            problems.append(f'{what} has no image')
        for image in images:
            url = (image.text or '').strip()
            found = raw.fullmatch(url)
            if found is None:
                problems.append(f'{what}: {url} is not a file of github.com/{m.group(1)}/{m.group(2)}')
                continue
            check_file(root, found.group(1), what, problems)

    readme = os.path.join(root, 'README.md')
    if os.path.exists(readme):
        with open(readme, encoding='utf-8') as f:
            for match in README_IMAGE.finditer(f.read()):
                path = match.group(1) or match.group(2) or match.group(3)
                if not re.match(r'[a-z]+://', path):
                    check_file(root, path, 'README.md', problems)
    return problems


def self_test():
    png = PNG_SIGNATURE + b'\x00\x00\x00\x0dIHDR' + (1200).to_bytes(4, 'big') + (800).to_bytes(4, 'big')

    def write(root, path, data):
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, 'wb') as f:
            f.write(data.encode() if isinstance(data, str) else data)

    def metainfo(shots):
        return ('<component><url type="vcs-browser">https://github.com/kiste/kiste</url><screenshots>'
                + shots + '</screenshots></component>')

    def shot(path, caption='A caption', kind=' type="default"'):
        return (f'<screenshot{kind}><image>https://raw.githubusercontent.com/kiste/kiste/main/{path}</image>'
                f'<caption>{caption}</caption></screenshot>')

    with tempfile.TemporaryDirectory() as root:
        write(root, 'data/screenshots/a.png', png)
        write(root, 'data/screenshots/text.png', 'not a picture')
        write(root, METAINFO, metainfo(shot('data/screenshots/a.png')))
        write(root, 'README.md', '![The window](data/screenshots/a.png)\n![Elsewhere](https://example.org/b.png)\n')
        assert find_problems(root) == [], find_problems(root)

        write(root, METAINFO, metainfo(
            shot('data/screenshots/a.png')
            + shot('data/screenshots/gone.png', kind='')
            + shot('data/screenshots/text.png', caption=' ', kind='')
            + shot('../outside.png', kind='')
            + '<screenshot><image>https://raw.githubusercontent.com/other/repo/main/data/screenshots/a.png'
              '</image><caption>Elsewhere</caption></screenshot>'))
        write(root, 'README.md', '<picture><source srcset="docs/dark.png">\n<img src="docs/missing.png" alt="">\n')
        found = find_problems(root)
        assert found == [
            f'{METAINFO}: screenshot 2: data/screenshots/gone.png is not in the repository',
            f'{METAINFO}: screenshot 3 has no caption',
            f'{METAINFO}: screenshot 3: data/screenshots/text.png is not a PNG',
            f'{METAINFO}: screenshot 4: ../outside.png is outside the repository',
            f'{METAINFO}: screenshot 5: https://raw.githubusercontent.com/other/repo/main/data/screenshots/a.png'
            ' is not a file of github.com/kiste/kiste',
            'README.md: docs/dark.png is not in the repository',
            'README.md: docs/missing.png is not in the repository',
        ], found

        write(root, 'README.md', '')
        write(root, METAINFO, metainfo(shot('data/screenshots/a.png', kind='')))
        assert find_problems(root) == [f'{METAINFO}: not exactly one screenshot of type="default"'], \
            find_problems(root)
    print('self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__ or 'usage: check-screenshots.py SOURCE_ROOT | --self-test', file=sys.stderr)
        return 2
    problems = find_problems(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        print('Take the pictures with `make screenshots`; they go to data/screenshots/.')
        return 1
    print('every picture of the metainfo and the README is in the repository')
    return 0


if __name__ == '__main__':
    sys.exit(main())
