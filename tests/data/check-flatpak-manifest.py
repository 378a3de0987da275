#!/usr/bin/env python3
# check-flatpak-manifest.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the Flatpak manifests without building them (no runtime can be
# downloaded here): they parse; the ids match the app ids meson gives each
# profile (and so the desktop file, metainfo, GSettings schema and D-Bus
# name, which all take the app id); the runtime is GNOME 48 or newer; VTE and
# libportal are built with their GTK 4 parts; Kiste's test suites are not
# (they need Xvfb, which no Flatpak SDK has); finish-args are exactly the
# permissions the README documents, each one named there. With
# flatpak-builder installed, `flatpak-builder --show-manifest` must accept
# each manifest too.
#
# Usage: check-flatpak-manifest.py SOURCE_ROOT

import json
import os
import re
import shutil
import subprocess
import sys

FINISH_ARGS = [
    '--share=ipc',
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',
    '--talk-name=org.freedesktop.Flatpak',
]
MANIFESTS = {
    'io.github.kiste.Kiste.json': ('io.github.kiste.Kiste', '-Dprofile=default'),
    'io.github.kiste.Kiste.Devel.json': ('io.github.kiste.Kiste.Devel', '-Dprofile=development'),
}

problems = []


def problem(message):
    problems.append(message)


def module(manifest, name):
    for m in manifest.get('modules', []):
        if isinstance(m, dict) and m.get('name') == name:
            return m
    return None


def check_manifest(root, filename, app_id, profile_opt, readme):
    path = os.path.join(root, 'flatpak', filename)
    try:
        with open(path, encoding='utf-8') as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        problem(f'{filename}: cannot read it: {e}')
        return

    if manifest.get('id') != app_id:
        problem(f'{filename}: id is {manifest.get("id")!r}, expected {app_id!r}')
    if manifest.get('command') != 'kiste':
        problem(f'{filename}: command is {manifest.get("command")!r}, expected "kiste"')
    if manifest.get('runtime') != 'org.gnome.Platform' or manifest.get('sdk') != 'org.gnome.Sdk':
        problem(f'{filename}: runtime and sdk must be org.gnome.Platform and org.gnome.Sdk')
    version = str(manifest.get('runtime-version', ''))
    if not re.fullmatch(r'\d+', version) or int(version) < 48:
        problem(f'{filename}: runtime-version {version!r} is older than GNOME 48')

    args = manifest.get('finish-args', [])
    if args != FINISH_ARGS:
        problem(f'{filename}: finish-args are {args}, expected exactly {FINISH_ARGS}')
    for arg in args:
        if f'`{arg}`' not in readme:
            problem(f'{filename}: the README does not say what {arg} is for')

    # the copy of distrobox Kiste offers hosts without one, where the
    # core looks for it (KISTE_BUNDLED_DISTROBOX_DIR)
    distrobox = module(manifest, 'distrobox')
    commands = ' '.join(distrobox.get('build-commands', [])) if distrobox else ''
    if '-t /app/share/kiste/distrobox distrobox ' not in commands or 'distrobox-init' not in commands:
        problem(f'{filename}: the distrobox module must install its scripts in /app/share/kiste/distrobox')

    vte = module(manifest, 'vte')
    if vte is None or '-Dgtk4=true' not in vte.get('config-opts', []):
        problem(f'{filename}: VTE must be built with -Dgtk4=true')
    portal = module(manifest, 'libportal')
    if portal is None or '-Dbackend-gtk4=enabled' not in portal.get('config-opts', []):
        problem(f'{filename}: libportal must be built with -Dbackend-gtk4=enabled')

    modules = manifest.get('modules', [])
    app = modules[-1] if modules else {}
    if not isinstance(app, dict) or app.get('name') != 'kiste':
        problem(f'{filename}: the last module must be kiste')
    else:
        if profile_opt not in app.get('config-opts', []):
            problem(f'{filename}: the kiste module must be configured with {profile_opt}')
        # the test suites need Xvfb, which no Flatpak SDK has
        if '-Dtests=false' not in app.get('config-opts', []):
            problem(f'{filename}: the kiste module must be configured with -Dtests=false')
        sources = app.get('sources', [])
        if not any(s.get('type') == 'dir' and s.get('path') == '..' for s in sources):
            problem(f'{filename}: the kiste module must build the local checkout (dir "..")')

    builder = shutil.which('flatpak-builder')
    if builder:
        result = subprocess.run([builder, '--show-manifest', path], capture_output=True, text=True)
        if result.returncode != 0:
            problem(f'{filename}: flatpak-builder --show-manifest refused it: {result.stderr.strip()}')


def check_meson_ids(root):
    with open(os.path.join(root, 'meson.build'), encoding='utf-8') as f:
        meson = f.read()
    for _filename, (app_id, _opt) in MANIFESTS.items():
        if f"app_id = '{app_id}'" not in meson:
            problem(f'meson.build does not give the app id {app_id!r} to a profile')
    for name in ('desktop.in.in', 'metainfo.xml.in.in', 'gschema.xml.in'):
        if not os.path.exists(os.path.join(root, 'data', f'io.github.kiste.Kiste.{name}')):
            problem(f'data/io.github.kiste.Kiste.{name} is missing')


def main():
    if len(sys.argv) != 2:
        print('usage: check-flatpak-manifest.py SOURCE_ROOT', file=sys.stderr)
        return 2
    root = sys.argv[1]
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        readme = f.read()
    for filename, (app_id, opt) in MANIFESTS.items():
        check_manifest(root, filename, app_id, opt, readme)
    check_meson_ids(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f'{len(problems)} problem(s) in the Flatpak manifests', file=sys.stderr)
        return 1
    print(f'{len(MANIFESTS)} manifests checked')
    return 0


if __name__ == '__main__':
    sys.exit(main())
