# test_toolbx.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Toolbx boxes beside distroboxes, with the real toolbox: a toolbox made
with `toolbox create` shows in the list next to a distrobox, its row and
page saying Toolbx and what Toolbx cannot do left out; a terminal tab
starts it and is a shell in it (/run/.toolboxenv and the box's name read
back through AT-SPI), run as the direct exec toolbox itself would run; an
app of the toolbox goes into the host menu through a launcher Kiste wrote,
and that launcher runs the app in the toolbox; a toolbox made through New
Box with Made With set to Toolbx carries Toolbx's label; Delete removes a
toolbox with `toolbox rm` and takes its launcher along. Then, as on a stock
Silverblue, without distrobox on PATH: the toolboxes are listed, a tab is a
shell in one, and New Box makes a toolbox without asking which tool."""

import os
import re
import shlex
import subprocess

import kiste_e2e as e2e
from gi.repository import Atspi  # after kiste_e2e, which picks its version

TOOLBOX = 'kiste-e2e-tbx'
CREATED = 'kiste-e2e-tbx-new'
DISTROBOX = 'kiste-e2e-tbx-dbx'
IMAGE = os.environ.get('KISTE_E2E_TOOLBX_IMAGE', 'localhost/kiste-debian:toolbx')
START_TIMEOUT = 120.0

APP_ID = 'kiste-e2e-tbx-hello'
APP_NAME = 'Kiste Toolbx Hello'
HOME = os.path.expanduser('~')
APPLICATIONS = os.path.join(os.environ.get('XDG_DATA_HOME') or os.path.join(HOME, '.local', 'share'),
                            'applications')
LAUNCHER = os.path.join(APPLICATIONS, f'{TOOLBOX}-{APP_ID}.desktop')
# a toolbox shares the home, not /tmp
MARKER = os.path.join(HOME, f'.{APP_ID}-ran')

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Exec=/usr/local/bin/{APP_ID} %U
Icon={APP_ID}
Categories=Utility;
'''

SCRIPT = f'''#!/bin/sh
# where it ran, into the home the host shares
. /run/.containerenv
test -f /run/.toolboxenv && echo "$name" > "$HOME/.{APP_ID}-ran"
'''


def toolbox(argv, check=True, timeout=300):
    return e2e.run_user(['toolbox', *argv], check=check, timeout=timeout)


def remove_toolbox(name):
    if e2e.box_exists(name) or name in podman_names():
        toolbox(['rm', '--force', name], check=False, timeout=120)


def podman_names():
    out = e2e.run_user(['podman', 'ps', '-a', '--format', '{{.Names}}'], check=False).stdout
    return out.split()


def put_in_box(path, data, mode='644'):
    e2e.run_user(['podman', 'exec', '-i', '--user', 'root', TOOLBOX, 'sh', '-c',
                  'mkdir -p "$(dirname "$1")" && cat > "$1" && chmod "$2" "$1"', 'sh', path, mode],
                 input=data)


def terminal_lines(term):
    return [line.rstrip() for line in e2e.get_text(term).splitlines()]


def type_line(term, text):
    e2e.click_at(term)
    e2e.log(f'type {text!r}')
    Atspi.generate_keyboard_event(0, text, Atspi.KeySynthType.STRING)
    e2e.press_key(0xff0d)  # Return


def app_commands(pid):
    out = subprocess.run(['ps', '-o', 'args=', '--ppid', str(pid)],
                         capture_output=True, text=True, check=False).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def exec_argv(launcher):
    with open(launcher, encoding='utf-8') as f:
        lines = [line[5:] for line in f.read().splitlines() if line.startswith('Exec=')]
    e2e.check(lines, f'{launcher} has no Exec= line')
    return [arg for arg in shlex.split(lines[0]) if not re.fullmatch(r'%[a-zA-Z]', arg)]


def cleanup():
    for name in (TOOLBOX, CREATED):
        remove_toolbox(name)
    for path in (LAUNCHER, MARKER):
        if os.path.lexists(path):
            os.unlink(path)


def main():
    if e2e.run_user(['toolbox', '--version'], check=False, timeout=60).returncode != 0:
        e2e.skip('toolbox is not installed (build-aux/install-deps installs podman-toolbox)')
    cleanup()
    try:
        toolbox(['create', '--assumeyes', '--image', IMAGE, TOOLBOX], timeout=300)
        with e2e.box(DISTROBOX):
            run_test()
        remove_toolbox(CREATED)
        # from the sandbox the host's own login PATH finds distrobox (the
        # bundled_distrobox test takes it away there); natively, PATH does
        if not e2e.SANDBOX:
            toolbox(['create', '--assumeyes', '--image', IMAGE, TOOLBOX], timeout=300)
            run_toolbx_only()
    finally:
        cleanup()


def run_toolbx_only():
    """A stock Silverblue: podman and Toolbx, no distrobox. The toolboxes
    are listed, a tab is a shell in one, and New Box makes a toolbox
    without asking which tool"""
    with e2e.program_dir(exclude=('distrobox*',)) as bin_dir:
        with e2e.App(env={'PATH': bin_dir}, log_name='app-toolbx-only.log') as app:
            win = app.window('Kiste')
            boxes = e2e.box_list(win, timeout=30)
            e2e.find_box_row(boxes, TOOLBOX, timeout=30)
            e2e.select_box(boxes, TOOLBOX)
            page = e2e.find(win, 'grouping', TOOLBOX, showing=True)
            e2e.click(e2e.find(page, 'button', 'Open Terminal', showing=True))
            term = e2e.find(win, 'terminal', 'Terminal', showing=True, timeout=30)
            e2e.wait_until(lambda: [l for l in terminal_lines(term) if l.strip()][-1:] and
                           [l for l in terminal_lines(term) if l.strip()][-1].endswith(('$', '#', '>')),
                           START_TIMEOUT, 'a shell prompt in the toolbox')
            type_line(term, '. /run/.containerenv; test -f /run/.toolboxenv && echo "ONLY-TOOLBX:$name"')
            e2e.wait_until(lambda: f'ONLY-TOOLBX:{TOOLBOX}' in terminal_lines(term), 30.0,
                           'the shell to say it runs in the toolbox')
            e2e.settle()
            e2e.screenshot('toolbx-only-terminal')
            type_line(term, 'exit')
            e2e.click(e2e.find(win, 'button', 'Close Tab', showing=True, timeout=15))

            e2e.click(e2e.find(win, 'button', 'New Box', showing=True))
            dialog = e2e.find(app.accessible, 'dialog', 'New Box', showing=True, timeout=10)
            e2e.find_none(dialog, 'combo box', 'Made With', showing=True, timeout=2)
            # only toolboxes now: rows need not say which tool
            create_in(dialog, boxes, marked=False)
            e2e.settle()
            e2e.screenshot('toolbx-only-created')

            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code}')


def run_test():
    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)

        # One list from one ps; the toolbox's row says Toolbx
        tbx_row = e2e.find_box_row(boxes, TOOLBOX, timeout=30)
        dbx_row = e2e.find_box_row(boxes, DISTROBOX, timeout=30)
        e2e.wait_until(lambda: e2e.row_tool(tbx_row) == 'Toolbx', 10.0,
                       f'the row of {TOOLBOX} to say Toolbx: {tbx_row.get_name()!r}')
        e2e.check(e2e.row_tool(dbx_row) is None,
                  f'the row of {DISTROBOX} names a tool: {dbx_row.get_name()!r}')
        e2e.settle()
        e2e.screenshot('toolbx-beside-distrobox')
        if not e2e.SANDBOX:
            commands = app_commands(app.pid)
            e2e.check(len([c for c in commands if c.startswith('podman events')]) == 1,
                      f'not one podman events stream: {commands}')

        # The page: made with Toolbx, no copy or rename, no upgrade
        e2e.select_box(boxes, TOOLBOX)
        page = e2e.find(win, 'grouping', TOOLBOX, showing=True)
        e2e.wait_row_text(page, 'Made With', 'Toolbx')
        # what Toolbx shares, read from the container
        for row in ('Home Folder', 'Network', 'Processes', 'Devices and /sys', 'Shared Memory (IPC)'):
            e2e.wait_row_text(page, row, 'Shared with the host', timeout=30)
        e2e.find_none(page, 'button', re.compile(r'^(Clone|Upgrade)'), showing=True, timeout=2)
        e2e.screenshot('toolbx-page')

        # A terminal starts it and is a shell in it, run directly
        e2e.click(e2e.find(page, 'button', 'Open Terminal', showing=True))
        term = e2e.find(win, 'terminal', 'Terminal', showing=True, timeout=30)
        e2e.find_box_row(boxes, TOOLBOX, 'Running', timeout=START_TIMEOUT)
        e2e.wait_until(lambda: [l for l in terminal_lines(term) if l.strip()][-1:] and
                       [l for l in terminal_lines(term) if l.strip()][-1].endswith(('$', '#', '>')),
                       START_TIMEOUT, 'a shell prompt in the toolbox')
        type_line(term, '. /run/.containerenv; test -f /run/.toolboxenv && echo "IN-TOOLBOX:$name"')
        e2e.wait_until(lambda: f'IN-TOOLBOX:{TOOLBOX}' in terminal_lines(term), 30.0,
                       'the shell to say it runs in the toolbox')
        commands = app_commands(app.pid)
        e2e.log(f'the app runs: {commands}')
        # from the sandbox toolbox's own path on the host is not known: the
        # tab runs toolbox enter through flatpak-spawn
        if not e2e.SANDBOX:
            e2e.check(any(c.startswith('podman --log-level error exec') and f' {TOOLBOX} capsh ' in c
                          for c in commands),
                      f'the tab is not the direct exec toolbox would run: {commands}')
        e2e.settle()
        e2e.screenshot('toolbx-terminal')
        type_line(term, 'exit')
        e2e.click(e2e.find(win, 'button', 'Close Tab', showing=True, timeout=15))

        check_apps(app, win, boxes)
        check_create(app, win, boxes)
        check_delete(app, win, boxes)

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


def check_apps(app, win, boxes):
    """Add to Menu writes Kiste's own launcher, which runs the app in the
    toolbox through the host's toolbox"""
    put_in_box(f'/usr/local/bin/{APP_ID}', SCRIPT, '755')
    put_in_box(f'/usr/share/applications/{APP_ID}.desktop', DESKTOP)

    e2e.select_box(boxes, TOOLBOX)
    e2e.click(e2e.find(win, 'page tab', 'Apps', showing=True))
    page = e2e.find(win, 'list', 'Apps in the Box', showing=True, timeout=START_TIMEOUT)
    row = e2e.find(page, 'list item', APP_NAME, showing=True, timeout=60)
    e2e.scroll_into_view(row)
    e2e.context_menu_item(app, row, 'Add to Menu', 'toolbx-apps-context-menu')
    e2e.wait_until(lambda: os.path.exists(LAUNCHER), 60, f'{LAUNCHER} to be written')
    with open(LAUNCHER, encoding='utf-8') as f:
        e2e.log(f'{LAUNCHER}:\n{f.read()}')
    argv = exec_argv(LAUNCHER)
    e2e.check(os.path.basename(argv[0]) == 'toolbox' and argv[1:5] == ['run', '--container', TOOLBOX, '--'],
              f'the launcher does not run the app through toolbox run: {argv}')
    e2e.run_user(argv, timeout=120)
    e2e.wait_until(lambda: os.path.exists(MARKER), 30, 'the app to run')
    with open(MARKER, encoding='utf-8') as f:
        ran_in = f.read().strip()
    e2e.check(ran_in == TOOLBOX, f'the app ran in {ran_in!r}, not in {TOOLBOX}')
    e2e.settle()
    e2e.screenshot('toolbx-app-in-menu')
    e2e.click(e2e.find(win, 'page tab', 'Details', showing=True))


def choose_toolbx(dialog):
    """Made With → Toolbx, with the keyboard: the list's own items have no
    actions"""
    row = e2e.find(dialog, 'combo box', 'Made With', showing=True, timeout=10)
    for _ in range(3):
        e2e.click_at(row)
        e2e.settle(0.5)
        e2e.press_key(0xff54)  # Down
        e2e.press_key(0xff0d)  # Return
        e2e.settle(0.5)
        if 'Toolbx' in e2e.row_texts(row):
            return
    raise e2e.Failure(f'Made With does not show Toolbx: {e2e.row_texts(row)}')


def check_create(app, win, boxes):
    """New Box with Made With set to Toolbx: the options Toolbx lacks go
    away, and the box is a real toolbox"""
    e2e.click(e2e.find(win, 'button', 'New Box', showing=True))
    dialog = e2e.find(app.accessible, 'dialog', 'New Box', showing=True, timeout=10)
    choose_toolbx(dialog)
    create_in(dialog, boxes)


def create_in(dialog, boxes, marked=True):
    """Fills the New Box dialog set to Toolbx and makes the box"""
    e2e.find_none(dialog, 'check box', 'Separate Home Folder', showing=True, timeout=5)
    e2e.set_text(e2e.find(dialog, 'text', 'Image', showing=True), IMAGE)
    name = e2e.find(dialog, 'text', 'Name', showing=True)
    e2e.set_text(name, '')
    e2e.set_text(name, CREATED)
    create = e2e.find(dialog, 'button', 'Create', showing=True)
    e2e.wait_until(lambda: e2e.has_state(create, Atspi.StateType.SENSITIVE), 10.0,
                   'Create to become clickable')
    e2e.settle()
    e2e.screenshot('toolbx-create')
    e2e.click(create)
    e2e.wait_until(lambda: e2e.is_gone(dialog), 300.0, 'the New Box dialog to finish and close', interval=0.5)
    row = e2e.find_box_row(boxes, CREATED, timeout=60)
    e2e.check(e2e.row_tool(row) == ('Toolbx' if marked else None),
              f'the new box\'s row does not say what it is: {row.get_name()!r}')
    labels = (e2e.inspect_box(CREATED).get('Config') or {}).get('Labels') or {}
    e2e.check(labels.get('com.github.containers.toolbox') == 'true' and 'manager' not in labels,
              f'{CREATED} does not carry Toolbx\'s label alone: {labels}')


def check_delete(app, win, boxes):
    """Delete asks, then toolbox rm; Kiste's launcher of the box goes too"""
    e2e.select_box(boxes, TOOLBOX)
    page = e2e.find(win, 'grouping', TOOLBOX, showing=True)
    e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True), 'Delete…')
    dialog = e2e.find_alert(win, f'Delete “{TOOLBOX}”?')
    e2e.respond(dialog, 'Delete')
    e2e.wait_box_row_gone(boxes, TOOLBOX, timeout=120)
    e2e.check(TOOLBOX not in podman_names(), f'{TOOLBOX} is still there')
    e2e.wait_until(lambda: not os.path.exists(LAUNCHER), 30, f'{LAUNCHER} to go with its box')


e2e.run(main)
