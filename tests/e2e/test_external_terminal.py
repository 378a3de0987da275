# test_external_terminal.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A terminal installed as a Flatpak opens a box: fake-flatpak-terminal
installs a real Flatpak with GNOME Console's app id in the test user's
installation (a local runtime and repository, no network), which runs its
command in its own sandbox, as Console's Flatpak does, and may talk to
org.freedesktop.Flatpak. Preferences finds it on the host and offers it
as "GNOME Console (Flatpak)", and names "Konsole (Flatpak)", installed
without that permission, as one that cannot open boxes; with Console chosen, Open Terminal runs
`flatpak run org.gnome.Console -- flatpak-spawn --host … distrobox enter
…`, and the shell it starts is in the box."""

import os
import shutil

import kiste_e2e as e2e
import test_terminal as t

NAME = 'kiste-e2e-external'
APP_ID = 'org.gnome.Console'
CHOICE = 'GNOME Console (Flatpak)'
UNUSABLE = 'Konsole (Flatpak)'
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.expanduser(f'~/.var/app/{APP_ID}/data')
CACHE = os.path.expanduser('~/.cache/kiste-e2e/fake-flatpak-terminal')


def install_fake_terminal():
    for tool in ('flatpak', 'bwrap'):
        if not shutil.which(tool):
            e2e.skip(f'{tool} is not installed (packages flatpak, bubblewrap)')
    proc = e2e.run_user([os.path.join(HERE, 'fake-flatpak-terminal'), CACHE], check=False)
    if proc.returncode == 77:
        e2e.skip(proc.stderr.strip())
    e2e.check(proc.returncode == 0, f'fake-flatpak-terminal failed:\n{proc.stderr}')
    for name in ('args', 'output', 'status', 'reached'):
        path = os.path.join(DATA, name)
        if os.path.lexists(path):
            os.unlink(path)


def read(name):
    try:
        with open(os.path.join(DATA, name), encoding='utf-8') as f:
            return f.read()
    except FileNotFoundError:
        return None


def choose_terminal(app, choice):
    """Preferences → Open Boxes In → choice"""
    def open_preferences():
        t.press_with_modifiers(0x2c, 0x4)  # Control+comma
        prefs = e2e.find(app.accessible, ('dialog', 'frame', 'window'), 'Preferences',
                         showing=True, timeout=10)
        return e2e.find(prefs, 'combo box', 'Open Boxes In', showing=True, timeout=10)

    row = open_preferences()

    # The list fills once the host has answered.  An Escape meant for a list
    # that had not opened yet closes Preferences: then open it again.
    def offered():
        nonlocal row
        if e2e.is_gone(row):
            e2e.log('Preferences closed before the list opened; opening it again')
            row = open_preferences()
        e2e.click_at(row)
        e2e.settle(0.5)
        items = e2e.find_all(app.accessible, ('label', 'list item'), choice, showing=True)
        if not items:
            e2e.press_key(0xff1b)  # Escape closes the list
            e2e.settle(0.5)
        return items
    e2e.wait_until(offered, 30, f'"{choice}" among the terminals of Open Boxes In')
    e2e.screenshot('terminals-offered')
    e2e.log(f'Open Boxes In offers: {e2e.row_texts(row)}')
    e2e.check(UNUSABLE not in e2e.row_texts(row)[2:],
              f'{UNUSABLE} is offered, without permission to run commands on the host')
    e2e.check(any(f'{UNUSABLE} cannot open boxes' in text for text in e2e.row_texts(row)[1:2]),
              f'Open Boxes In does not say that {UNUSABLE} cannot open boxes: {e2e.row_texts(row)}')
    # The list is open on the chosen entry (Kiste, the first): go down to
    # the wanted one with the keyboard, as the popover's own items have no
    # actions
    for downs in range(1, 16):
        for _ in range(downs):
            e2e.press_key(0xff54)  # Down
        e2e.press_key(0xff0d)  # Return
        e2e.settle(0.5)
        if choice in e2e.row_texts(row)[2:3]:
            break
        e2e.click_at(row)
        e2e.settle(0.5)
        e2e.press_key(0xff50)  # Home: back to the first entry
    e2e.check(choice in e2e.row_texts(row)[2:3],
              f'Open Boxes In does not show {choice}: {e2e.row_texts(row)}')
    e2e.screenshot('terminal-chosen')
    e2e.press_key(0xff1b)  # Escape closes Preferences
    e2e.settle(1)


def main():
    install_fake_terminal()
    with e2e.box(NAME):
        run_test()


def run_test():
    e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)

    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, NAME, 'Running', timeout=30)
        choose_terminal(app, CHOICE)

        e2e.select_box(boxes, NAME)
        page = e2e.find(win, 'grouping', NAME, showing=True)
        e2e.click(e2e.find(page, 'button', 'Open Terminal', showing=True))

        e2e.wait_until(lambda: read('status') is not None, 120,
                       f'the Flatpak terminal to run its command (its data: {DATA})')
        args = read('args').splitlines()
        e2e.log(f'the Flatpak terminal was given {args}')
        e2e.log(f'its command printed:\n{read("output")}')
        e2e.check(args[:6] == ['--', 'flatpak-spawn', '--host', '--watch-bus',
                               '--env=TERM=xterm-256color', '--env=COLORTERM=truecolor'],
                  f'the command does not go to the host through flatpak-spawn: {args}')
        e2e.check(args[6:8] == ['distrobox', 'enter'] and NAME in args[8:],
                  f'the command is not distrobox enter of {NAME}: {args}')
        e2e.check(read('status').strip() == '0',
                  f'distrobox enter ended with {read("status").strip()}:\n{read("output")}')
        e2e.check((read('reached') or '').strip() == NAME,
                  f'the shell did not run in {NAME}: it says {read("reached")!r}\n{read("output")}')

        # Kiste opened no tab of its own
        e2e.check(not e2e.find_all(win, 'terminal', showing=True),
                  'Open Terminal opened a tab in Kiste as well')
        e2e.screenshot('after-open-terminal')


if __name__ == '__main__':
    e2e.run(main)
