# test_window_live.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""The main window follows real boxes live: boxes created, started and
removed with the command line show up in the list within a second; a box
stopped and deleted from the window really stops and goes away; the empty
window shows "No Boxes" with the first boxes to make, each naming its
image; every button and menu item on the way has an accessible name."""

import re
import time

import kiste_e2e as e2e
from gi.repository import Atspi  # after kiste_e2e, which picks its version

LIVE1 = 'kiste-e2e-live1'
LIVE2 = 'kiste-e2e-live2'

# How soon the list must show what the command line did.  The app follows
# `podman events` and refreshes 75 ms after an event with one `podman ps`
# (about 30 ms here): a second leaves room for a loaded machine.
LIVE_LIMIT = 1.0
# Poll often while measuring, so the measurement is not our own delay
POLL = 0.02

# Stopping and deleting a real box may take the container's stop timeout
OPERATION_TIMEOUT = 120.0

latencies = {}
unnamed = []


def audit_names(app, where):
    """Notes showing buttons, toggle buttons and menu items without an
    accessible name; the test fails on them at the end."""
    found = e2e.controls(app.accessible)
    for path, label in found:
        if not label.strip():
            unnamed.append(f'{where}: {path}')
            e2e.log(f'no accessible name ({where}): {path}')
    e2e.log(f'accessible names ({where}): {len(found)} controls: '
            + ', '.join(repr(label) for _, label in found))


def measure(what, command, wait):
    """Runs command, then wait(timeout); returns the seconds from the
    command's return to wait() succeeding and fails beyond LIVE_LIMIT."""
    e2e.run_user(command)
    returned = time.monotonic()
    result = wait(10.0)
    elapsed = time.monotonic() - returned
    latencies[what] = elapsed
    e2e.log(f'latency: {what}: {elapsed:.3f} s after `{command[0]} {command[1]}` returned')
    e2e.check(elapsed <= LIVE_LIMIT,
              f'{what} took {elapsed:.2f} s after the command returned (limit {LIVE_LIMIT:g} s)')
    return result


def content_page(win, name):
    """The details side of the window while it shows box name (its
    navigation page is named after the box)."""
    return e2e.find(win, 'grouping', name, showing=True)


def check_page_state(win, name, state, timeout=10.0):
    """The details page of box name shows state in its status pill and in
    its State row."""
    page = content_page(win, name)

    def probe():
        state_rows = e2e.find_all(page, 'list item', 'State', showing=True)
        if not state_rows:
            return False
        if state not in [e2e.get_text(a) for a in e2e.find_all(state_rows[0], 'label')]:
            return False
        # The status pill above the buttons says it too
        return len(e2e.find_all(page, 'label', state, showing=True)) >= 2

    try:
        e2e.wait_until(probe, timeout, f'the page of {name!r} to show {state!r}')
    except e2e.Failure as e:
        labels = [e2e.get_text(a) for a in e2e.find_all(page, 'label', showing=True)][:8]
        raise e2e.Failure(f'{e}; its first labels: {labels}') from None
    return page


def close_popover(app, role, name):
    """Closes the open menu or popover (role, name) with Escape.  Its own
    accessible may keep saying "showing": look for it from the top."""
    e2e.press_key(0xff1b)  # Escape
    e2e.find_none(app.accessible, role, name, showing=True, timeout=5.0)


def main():
    try:
        run_test()
    finally:
        for name in (LIVE1, LIVE2):
            if e2e.box_exists(name):
                e2e.remove_box(name)


def run_test():
    for name in (LIVE1, LIVE2):
        if e2e.box_exists(name):
            e2e.remove_box(name)

    e2e.run_user(['distrobox', 'create', '--yes', '--no-entry', '--image', e2e.IMAGE,
                  '--name', LIVE1])

    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, LIVE1, 'Created', timeout=30)
        e2e.settle()
        e2e.screenshot('live-list')
        audit_names(app, 'the list')

        menu = e2e.open_menu(app, e2e.find(win, 'toggle button', 'Main Menu', showing=True))
        e2e.find(menu, e2e.MENU_ITEM_ROLES, 'Refresh', showing=True)
        audit_names(app, 'the main menu')
        e2e.screenshot('live-main-menu')
        close_popover(app, 'menu', 'Main Menu')

        # Created on the command line while the app runs
        measure(f'{LIVE2} appears in the list',
                ['distrobox', 'create', '--yes', '--no-entry', '--image', e2e.IMAGE,
                 '--name', LIVE2],
                lambda t: e2e.find_box_row(boxes, LIVE2, timeout=t, interval=POLL))

        measure(f'{LIVE2} shows as Running',
                ['podman', 'start', LIVE2],
                lambda t: e2e.find_box_row(boxes, LIVE2, 'Running', timeout=t, interval=POLL))
        row = e2e.find_box_row(boxes, LIVE2, 'Running')
        e2e.wait_until(lambda: 'Running' in e2e.row_texts(row), 5.0,
                       f'the row of {LIVE2} to read "Running"')

        # Stopped from the details page, through the confirmation
        e2e.select_box(boxes, LIVE2)
        page = check_page_state(win, LIVE2, 'Running')
        audit_names(app, f'the page of running {LIVE2}')
        menu = e2e.open_menu(app, e2e.find(page, 'toggle button', 'More Actions', showing=True))
        e2e.find(menu, e2e.MENU_ITEM_ROLES, 'Delete…', showing=True)
        audit_names(app, 'the box menu')
        e2e.screenshot('live-box-menu')
        close_popover(app, 'menu', 'More Actions')

        e2e.click(e2e.find(page, 'button', 'Stop', showing=True))
        dialog = e2e.find_alert(win, f'Stop “{LIVE2}”?')
        audit_names(app, 'the stop dialog')
        e2e.respond(dialog, 'Stop')
        stop_clicked = time.monotonic()
        e2e.find_box_row(boxes, LIVE2, 'Stopped', timeout=OPERATION_TIMEOUT)
        e2e.log(f'{LIVE2} stopped {time.monotonic() - stop_clicked:.1f} s after confirming')
        row = e2e.find_box_row(boxes, LIVE2)
        e2e.wait_until(lambda: 'Stopped' in e2e.row_texts(row), 5.0,
                       f'the row of {LIVE2} to read "Stopped"')
        page = check_page_state(win, LIVE2, 'Stopped')
        e2e.find(page, 'button', 'Start', showing=True)
        states = [c.get('State') for c in e2e.podman_containers()
                  if LIVE2 in (c.get('Names') or [])]
        e2e.check(states and states[0] != 'running',
                  f'the window says {LIVE2} stopped but podman says {states}')
        e2e.settle()
        e2e.screenshot('live-stopped')

        tasks = e2e.find(win, 'toggle button', 'Tasks', showing=True)
        e2e.click(tasks)
        e2e.find(app.accessible, 'list', 'Tasks', showing=True)
        audit_names(app, 'the task list')
        close_popover(app, 'list', 'Tasks')

        # Removed on the command line
        measure(f'{LIVE1} leaves the list',
                ['podman', 'rm', '--force', '--time', '0', LIVE1],
                lambda t: e2e.wait_box_row_gone(boxes, LIVE1, timeout=t, interval=POLL))

        # The Delete key asks first (cancelled here) ...
        # (GTK's list items refuse AT-SPI's grab_focus: click as people do)
        row = e2e.find_box_row(boxes, LIVE2)
        e2e.do_action(row, 'listitem.scroll-to')
        e2e.click_at(row)
        e2e.wait_until(lambda: e2e.has_state(row, Atspi.StateType.FOCUSED), 5.0,
                       f'the row of {LIVE2} to take the keyboard focus')
        e2e.press_key(0xffff)  # Delete
        dialog = e2e.find_alert(win, f'Delete “{LIVE2}”?')
        e2e.respond(dialog, 'Cancel')
        e2e.find_box_row(boxes, LIVE2, 'Stopped', timeout=2)
        e2e.check(e2e.box_exists(LIVE2), f'cancelling the delete dialog deleted {LIVE2}')

        # ... and so does the menu, which is confirmed
        page = content_page(win, LIVE2)
        e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True),
                             'Delete…')
        dialog = e2e.find_alert(win, f'Delete “{LIVE2}”?')
        e2e.find(dialog, 'label', lambda t: 'cannot be undone' in t, showing=True)
        audit_names(app, 'the delete dialog')
        e2e.settle()
        e2e.screenshot('live-delete-dialog')
        e2e.respond(dialog, 'Delete')
        e2e.wait_box_row_gone(boxes, LIVE2, timeout=OPERATION_TIMEOUT)
        e2e.check(LIVE2 not in e2e.box_names(),
                  f'{LIVE2} left the list but podman ps -a still lists it')

        # Nothing left: the empty state, unless the test user has boxes of
        # their own (a developer's machine)
        others = [n for n in e2e.box_names() if not n.startswith(e2e.BOX_PREFIX)]
        if others:
            e2e.log(f'NOTE: not checking "No Boxes": the test user has other boxes: {others}')
            e2e.wait_until(lambda: sorted(e2e.box_rows(boxes)) == sorted(others), 10.0,
                           f'the list to show only {others}')
            e2e.settle()
            e2e.screenshot('live-after-delete')
        else:
            empty = e2e.find(win, None, 'No Boxes', showing=True, timeout=10)
            # the first boxes, each described by the image it uses
            image = re.compile(r'^[a-z0-9.-]+(:[0-9]+)?/[a-z0-9._/-]+(:[A-Za-z0-9._-]+)?$')
            e2e.find(empty, 'button', re.compile(r'^Create .+ Box$'), description=image, showing=True)
            e2e.find(empty, 'button', re.compile(r'^Try .+'), description=image, showing=True)
            # (the list's own accessible keeps saying "showing": look from the top)
            e2e.find_none(win, 'list', e2e.BOX_LIST, showing=True, timeout=5)
            audit_names(app, 'the empty window')
            e2e.settle()
            e2e.screenshot('live-empty')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')

    e2e.log('latencies: ' + ', '.join(f'{k}: {v:.3f} s' for k, v in latencies.items()))
    e2e.check(not unnamed, 'controls without an accessible name:\n  ' + '\n  '.join(unnamed))


e2e.run(main)
