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
--delete would remove it).

Programs: a program of the box, typed by name into the Apps view, is
exported to ~/.local/bin and its wrapper runs it in the box.  Then the box
is deleted with the CLI behind Kiste's back: Everything Exported shows its
launcher and wrapper as left behind, and Clean Up removes them while the
user's own launcher of the same file name stays."""

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
TOOL = 'kiste-e2e-tool'
WRAPPER = os.path.join(HOME, '.local', 'bin', TOOL)
TOOL_MARKER = f'/tmp/{TOOL}-ran'

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


TOOL_SCRIPT = f'''#!/bin/sh
echo "$CONTAINER_ID $*" > {TOOL_MARKER}
'''


def install_app():
    put_in_box(f'/usr/local/bin/{APP_ID}', SCRIPT, '755')
    put_in_box(f'/usr/local/bin/{TOOL}', TOOL_SCRIPT, '755')
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
    e2e.context_menu_item(app, row, item, f'apps-context-menu-{item.lower().replace(" ", "-")}')


def cleanup():
    for path in (EXPORTED, USER_LAUNCHER, ICON, MARKER, WRAPPER, TOOL_MARKER):
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

        export_program(win)
        # in the menu again, to be left behind with the wrapper
        context_menu_item(app, app_row(win), 'Add to Menu')
        e2e.find(app_row(win), 'button', 'Remove from Menu', showing=True, timeout=60)
        e2e.check(os.path.exists(EXPORTED), f'{EXPORTED} was not written again')
        clean_up_left_behind(app, win)

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


def export_program(win):
    """Programs on the Apps view: a name, looked up in the box, exported to
    ~/.local/bin; the wrapper runs the program in the box."""
    field = e2e.find(win, 'text', 'Program Name or Path', showing=None, timeout=30)
    e2e.scroll_into_view(field)
    e2e.set_text(field, TOOL)
    group = e2e.find(win, 'list', 'Export a Program', showing=None)
    e2e.click(e2e.find(group, 'button', re.compile(r'^Export( Program)?$'), showing=None))
    e2e.wait_until(lambda: os.path.exists(WRAPPER), 120, f'{WRAPPER} to be written')
    exported = e2e.find(win, 'list', 'Exported Programs', showing=None)
    row = e2e.find(exported, 'list item', TOOL, showing=None, timeout=60)
    e2e.find(row, 'button', re.compile(r'^Remove'), showing=None)
    e2e.scroll_into_view(row)
    e2e.settle()
    e2e.screenshot('apps-program-exported')
    with open(WRAPPER, encoding='utf-8') as f:
        wrapper = f.read()
    e2e.log(f'{WRAPPER}:\n{wrapper}')
    e2e.check('# distrobox_binary' in wrapper and f'# name: {BOX}' in wrapper,
              f'{WRAPPER} is no distrobox wrapper of {BOX}')
    e2e.check(f"'/usr/local/bin/{TOOL}'" in wrapper, f'{WRAPPER} does not run /usr/local/bin/{TOOL}')
    e2e.run_user([WRAPPER, 'hello'], timeout=120)
    e2e.wait_until(lambda: os.path.exists(TOOL_MARKER), 30, 'the program to run')
    with open(TOOL_MARKER, encoding='utf-8') as f:
        ran = f.read().strip()
    e2e.check(ran == f'{BOX} hello', f'the program ran as {ran!r}, not in {BOX} with "hello"')


def clean_up_left_behind(app, win):
    """The box goes behind Kiste's back; its exports are left behind and
    Clean Up removes them, never the user's own launcher."""
    e2e.run_user(['podman', 'rm', '--force', '--time', '0', BOX], timeout=120)
    # the only box: the window says there are none
    e2e.find(win, None, 'No Boxes', showing=True, timeout=60)
    e2e.check(os.path.exists(EXPORTED) and os.path.exists(WRAPPER),
              'the exports went with the box: nothing is left behind to clean up')

    menu = e2e.find(win, ('button', 'toggle button', 'menu button'), 'Main Menu', showing=True)
    e2e.choose_menu_item(app, menu, 'Everything Exported')
    clean = e2e.find(app.accessible, 'button', re.compile(r'^Clean Up(…| Exports Left Behind)$'), showing=True,
                     timeout=30)
    e2e.wait_row_text(app.accessible, APP_NAME, 'Box gone', timeout=30)
    e2e.wait_row_text(app.accessible, TOOL, 'Box gone', timeout=30)
    e2e.settle()
    e2e.screenshot('everything-exported-left-behind')

    e2e.click(clean)
    alert = e2e.find(app.accessible, None, re.compile(r'^Remove Leftovers?\?$'), showing=True, timeout=10)
    e2e.settle()
    e2e.screenshot('everything-exported-clean-up')
    e2e.click(e2e.find(alert, 'button', 'Clean Up', showing=True, timeout=10))
    e2e.wait_until(lambda: not os.path.exists(EXPORTED) and not os.path.exists(WRAPPER), 60,
                   'the exports left behind to be removed')
    e2e.find_none(app.accessible, 'list item', TOOL, showing=True, timeout=30)
    with open(USER_LAUNCHER, encoding='utf-8') as f:
        e2e.check(f.read() == USER_CONTENTS, f'the user\'s own launcher {USER_LAUNCHER} changed')
    e2e.settle()
    e2e.screenshot('everything-exported-cleaned')
    dialog = e2e.find(app.accessible, 'dialog', 'Everything Exported', showing=True)
    e2e.click(e2e.find(dialog, 'button', 'Close', showing=True))
    e2e.find_none(app.accessible, 'dialog', 'Everything Exported', showing=True, timeout=10)


e2e.run(main)
