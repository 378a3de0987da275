# test_apps.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Apps in the host menu, for real: a small desktop app (a .desktop file, a
script and an icon) is put into a real box; on the box's Apps page a
right-click and Add to Menu exports it with distrobox-export; the host's
launcher enters the box, runs the app there and its icon was copied.  A
right-click and Remove from Menu takes it away again, while a launcher of
the user's own with the same file name stays as it was (distrobox 1.8's
--delete would remove it)."""

import os
import re
import shlex
import struct
import zlib

import kiste_e2e as e2e

BOX = 'kiste-e2e-apps'
APP_ID = 'kiste-e2e-hello'
APP_NAME = 'Kiste Hello'
START_TIMEOUT = 300

HOME = os.path.expanduser('~')
DATA_HOME = os.environ.get('XDG_DATA_HOME') or os.path.join(HOME, '.local', 'share')
APPLICATIONS = os.path.join(DATA_HOME, 'applications')
EXPORTED = os.path.join(APPLICATIONS, f'{BOX}-{APP_ID}.desktop')
USER_LAUNCHER = os.path.join(APPLICATIONS, f'{APP_ID}.desktop')
ICON = os.path.join(HOME, '.local', 'share', 'icons', 'hicolor', '48x48', 'apps', f'{APP_ID}.png')
MARKER = f'/tmp/{APP_ID}-ran'

USER_CONTENTS = ('[Desktop Entry]\nType=Application\nName=My Own Hello\n'
                 'Exec=true my-own-hello\n')

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Comment=Says hello from the box
Exec=/usr/local/bin/{APP_ID} %U
Icon={APP_ID}
Categories=Utility;
'''

SCRIPT = f'''#!/bin/sh
# writes where it ran into a file the host sees (the box shares /tmp)
echo "$CONTAINER_ID" > {MARKER}
'''


def png(size=48):
    """A plain square PNG, so the box has a real icon file to export."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xffffffff)
    row = b'\x00' + b'\x35\x84\xe4' * size
    return (b'\x89PNG\r\n\x1a\n' +
            chunk(b'IHDR', struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(row * size)) +
            chunk(b'IEND', b''))


def put_in_box(path, data, mode='644'):
    """Writes a file into the box as its root (the package manager's place)."""
    e2e.run_user(['podman', 'exec', '-i', '--user', 'root', BOX, 'sh', '-c',
                  'mkdir -p "$(dirname "$1")" && cat > "$1" && chmod "$2" "$1"',
                  'sh', path, mode],
                 input=data)


def install_app():
    put_in_box(f'/usr/local/bin/{APP_ID}', SCRIPT, '755')
    put_in_box(f'/usr/share/applications/{APP_ID}.desktop', DESKTOP)
    # binary data: through a file the box sees in /tmp
    icon_tmp = f'/tmp/{APP_ID}-icon.png'
    with open(icon_tmp, 'wb') as f:
        f.write(png())
    os.chmod(icon_tmp, 0o644)
    e2e.run_user(['podman', 'exec', '--user', 'root', BOX, 'install', '-D', '-m', '644', icon_tmp,
                  f'/usr/share/icons/hicolor/48x48/apps/{APP_ID}.png'])
    os.unlink(icon_tmp)


def exec_argv(launcher):
    """The Exec= of a launcher as argv, without field codes."""
    with open(launcher, encoding='utf-8') as f:
        lines = [line[5:] for line in f.read().splitlines() if line.startswith('Exec=')]
    e2e.check(lines, f'{launcher} has no Exec= line')
    return [arg for arg in shlex.split(lines[0]) if not re.fullmatch(r'%[a-zA-Z]', arg)]


def app_row(win):
    page = e2e.find(win, 'list', 'Apps in the Box', showing=True, timeout=START_TIMEOUT)
    row = e2e.find(page, 'list item', APP_NAME, showing=True, timeout=30)
    e2e.scroll_into_view(row)
    return row


def context_menu_item(app, row, item):
    """Right-clicks the row and chooses item from its context menu."""
    e2e.click_at(row, button=3)
    entry = e2e.find(app.accessible, e2e.MENU_ITEM_ROLES, item, showing=True, timeout=10)
    e2e.settle(0.3)
    e2e.screenshot(f'apps-context-menu-{item.lower().replace(" ", "-")}')
    e2e.click(entry)


def cleanup():
    for path in (EXPORTED, USER_LAUNCHER, ICON, MARKER):
        if os.path.lexists(path):
            os.unlink(path)


def main():
    cleanup()
    try:
        with e2e.box(BOX):
            e2e.run_user(['distrobox', 'enter', BOX, '--', 'true'], timeout=START_TIMEOUT)
            install_app()
            os.makedirs(APPLICATIONS, exist_ok=True)
            with open(USER_LAUNCHER, 'w', encoding='utf-8') as f:
                f.write(USER_CONTENTS)
            run_test()
    finally:
        cleanup()


def run_test():
    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win)
        e2e.select_box(boxes, BOX)
        e2e.click(e2e.find(win, 'page tab', 'Apps', showing=True))

        row = app_row(win)
        e2e.find(row, 'button', 'Add to Menu', showing=True)
        e2e.settle()
        e2e.screenshot('apps-page')

        # Add to Menu from the context menu
        context_menu_item(app, row, 'Add to Menu')
        e2e.wait_until(lambda: os.path.exists(EXPORTED), 60, f'{EXPORTED} to be written')
        # distrobox-export makes the file, then fills it: read it once the
        # operation is over and the row says so
        e2e.find(app_row(win), 'button', 'Remove from Menu', showing=True, timeout=60)
        with open(EXPORTED, encoding='utf-8') as f:
            exported = f.read()
        e2e.log(f'{EXPORTED}:\n{exported}')
        argv = exec_argv(EXPORTED)
        e2e.check(any(os.path.basename(a) in ('distrobox-enter', 'distrobox') for a in argv),
                  f'the launcher does not go through distrobox: {argv}')
        e2e.check(BOX in argv, f'the launcher does not name the box {BOX}: {argv}')
        e2e.check(os.path.exists(ICON), f'the app\'s icon was not copied to {ICON}')
        e2e.find(row, 'button', 'Remove from Menu', showing=True, timeout=10)

        # The host launcher runs the app in the box
        e2e.run_user(argv, timeout=120)
        e2e.wait_until(lambda: os.path.exists(MARKER), 30, 'the app to run')
        with open(MARKER, encoding='utf-8') as f:
            ran_in = f.read().strip()
        e2e.check(ran_in == BOX, f'the app ran in {ran_in!r}, not in {BOX}')

        # Remove from Menu: the box's launcher goes, the user's own stays
        context_menu_item(app, row, 'Remove from Menu')
        e2e.wait_until(lambda: not os.path.exists(EXPORTED), 60, f'{EXPORTED} to be removed')
        e2e.find(row, 'button', 'Add to Menu', showing=True, timeout=10)
        # kept aside while distrobox removes the box's, then put back
        e2e.wait_until(lambda: os.path.exists(USER_LAUNCHER), 30,
                       f'the user\'s own launcher {USER_LAUNCHER} to be back (removed with the box\'s?)')
        with open(USER_LAUNCHER, encoding='utf-8') as f:
            e2e.check(f.read() == USER_CONTENTS, f'the user\'s own launcher {USER_LAUNCHER} changed')
        kept = os.path.join(APPLICATIONS, f'.{APP_ID}.desktop.kiste-kept')
        e2e.check(not os.path.exists(kept), f'{kept} was left behind')
        e2e.settle()
        e2e.screenshot('apps-removed')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


e2e.run(main)
