# test_try_image.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Try an Image on real podman and distrobox: the main menu's Try an Image…
takes the ready image and one isolation switch, makes a temporary box
(podman shows its label), opens a terminal tab in it where typing
`echo $CONTAINER_ID` prints the box's name, and closing that last tab asks
"Remove Temporary Box?"; Remove takes the box away (podman no longer
lists it). A temporary box left behind (made outside the app with the
label, as after a crash) is offered for removal when the app starts."""

import time

import kiste_e2e as e2e
from test_terminal import check_container_id, terminal_in, wait_for_prompt

LABEL = 'io.github.kiste.temporary'
LEFTOVER = 'kiste-try-e2e0ld'
CREATE_TIMEOUT = 180.0


def temporary_boxes():
    return [name for c in e2e.podman_containers()
            for name in (c.get('Names') or [])
            if (c.get('Labels') or {}).get(LABEL) == '1']


def remove_temporary_boxes():
    for name in temporary_boxes():
        e2e.remove_box(name)


def row_gone(win, name):
    """The box's row left the list, or the list left for "No Boxes"."""
    if e2e.find_all(win, 'label', 'No Boxes', showing=True):
        return True
    try:
        return name not in e2e.box_rows(e2e.box_list(win, timeout=1))
    except e2e.Failure:
        return False


def main():
    try:
        run_test()
    finally:
        remove_temporary_boxes()


def run_test():
    remove_temporary_boxes()

    # Left behind by a Kiste that crashed: offered for removal at the start
    e2e.run_user(['distrobox', 'create', '--yes', '--no-entry', '--image', e2e.IMAGE,
                  '--name', LEFTOVER, '--additional-flags', f'--label {LABEL}=1'])
    with e2e.App() as app:
        win = app.window('Kiste')
        dialog = e2e.find_alert(win, 'Remove Temporary Box?', timeout=30)
        e2e.settle()
        e2e.screenshot('try-image-leftover')
        e2e.respond(dialog, 'Remove')
        e2e.wait_until(lambda: not e2e.box_exists(LEFTOVER), 60.0,
                       f'podman to no longer list {LEFTOVER}')

        # Try an Image… from the main menu
        e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'Main Menu', showing=True),
                             'Try an Image…')
        dialog = e2e.find(app.accessible, 'dialog', 'Try an Image', showing=True, timeout=10)
        e2e.check(not e2e.find_all(dialog, 'text', 'Name', showing=True),
                  'Try an Image asks for a name')
        e2e.set_text(e2e.find(dialog, 'text', 'Image', showing=True), e2e.IMAGE)
        e2e.toggle(e2e.find_switch(dialog, 'Shared Memory'), True)
        try_button = e2e.find(dialog, 'button', 'Try', showing=True)
        e2e.wait_until(lambda: e2e.has_state(try_button, e2e.Atspi.StateType.SENSITIVE), 10.0,
                       'Try to become clickable')
        e2e.settle()
        e2e.screenshot('try-image-dialog')
        started = time.monotonic()
        e2e.click(try_button)

        e2e.wait_until(lambda: temporary_boxes(), CREATE_TIMEOUT, 'a temporary box in podman')
        name = temporary_boxes()[0]
        e2e.log(f'temporary box: {name}')
        e2e.check(name.startswith('kiste-try-'), f'the temporary box is called {name!r}')
        info = e2e.inspect_box(name)
        e2e.check(info['HostConfig']['IpcMode'] != 'host',
                  f'Shared Memory was not isolated: {info["HostConfig"]["IpcMode"]}')

        # Its tab comes once the box is set up
        e2e.wait_gone(dialog, CREATE_TIMEOUT, 'the Try an Image dialog')
        term = terminal_in(win)
        wait_for_prompt(term, CREATE_TIMEOUT)
        e2e.log(f'prompt {time.monotonic() - started:.1f} s after Try')
        check_container_id(term, name)
        e2e.settle()
        e2e.screenshot('try-image-terminal')

        # Closing its last tab asks, and Remove takes the box away
        e2e.click(e2e.find(win, 'button', 'Close Tab', showing=True))
        dialog = e2e.find_alert(win, 'Remove Temporary Box?', timeout=15)
        e2e.settle()
        e2e.screenshot('try-image-remove')
        e2e.respond(dialog, 'Remove')
        e2e.wait_until(lambda: not e2e.box_exists(name), 60.0, f'podman to no longer list {name}')
        e2e.wait_until(lambda: row_gone(win, name), 30.0, f'{name} to leave the list')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


if __name__ == '__main__':
    e2e.run(main)
