# test_hostile_home.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Delete with its home folder removes nothing outside the box's home. A
box whose own home is in /tmp (which every box shares) swaps a folder on
the way to its home for a link into the user's home, then the user
deletes the box with its home folder from Kiste: the box goes, the files
the link points to stay, and Kiste says why the home was not deleted."""

import os

import kiste_e2e as e2e
import test_terminal as t  # noqa: E402

NAME = 'kiste-e2e-swap-home'
TOP = '/tmp/kiste-e2e-swap'
PARENT = f'{TOP}/parent'
HOME = f'{PARENT}/home'
VICTIM = os.path.expanduser('~/kiste-e2e-victim')
PRECIOUS = os.path.join(VICTIM, 'home', 'precious.txt')

# run by the box, as the user, on the /tmp it shares with this computer
SWAP = f'mv {PARENT} {PARENT}.moved && ln -s {VICTIM} {PARENT}'


def cleanup():
    for path in (TOP, VICTIM):
        if os.path.islink(PARENT):
            os.unlink(PARENT)
        e2e.remove_path(path)


def main():
    cleanup()
    os.makedirs(os.path.dirname(PRECIOUS))
    with open(PRECIOUS, 'w', encoding='utf-8') as f:
        f.write('mine\n')
    os.makedirs(HOME)
    try:
        with e2e.box(NAME, extra_args=('--home', HOME)):
            e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)
            e2e.run_user(['podman', 'exec', '--user', os.environ.get('USER', 'kistetest'), NAME,
                          'sh', '-c', SWAP])
            e2e.check(os.path.islink(PARENT), f'the box could not swap {PARENT} for a link')
            run_test()
    finally:
        cleanup()


def run_test():
    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, NAME, timeout=30)
        e2e.select_box(boxes, NAME)
        page = e2e.find(win, 'grouping', NAME, showing=True, timeout=10)
        e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True),
                             'Delete…')
        dialog = e2e.find_alert(win, f'Delete “{NAME}”?')
        check = e2e.find(dialog, 'check box', lambda text: text.startswith('Also delete its home folder'),
                         showing=True)
        # from the keyboard (the dialog opens on Cancel; the box comes before)
        t.press_with_modifiers(0xff09, 0x1)  # Shift+Tab
        e2e.wait_until(lambda: e2e.has_state(check, e2e.Atspi.StateType.FOCUSED), 5, 'the box to have the focus')
        e2e.press_key(0x20)  # space
        e2e.wait_until(lambda: e2e.is_checked(check), 5, 'the box to be ticked')
        e2e.settle()
        e2e.screenshot('swap-home-delete-dialog')
        e2e.respond(dialog, 'Delete')
        e2e.wait_box_row_gone(boxes, NAME, timeout=120)

        def said(start):
            return e2e.find_all(win, 'label', lambda text: text.startswith(start), showing=True)
        e2e.wait_until(lambda: said(f'Could not delete “{NAME}”') or said(f'“{NAME}” was deleted')
                       or not os.path.exists(PRECIOUS), 60, 'the delete to end')
        e2e.screenshot('swap-home-refused')
        e2e.check(os.path.exists(PRECIOUS),
                  f'Delete with the home folder removed {PRECIOUS}, through the link the box made')
        e2e.check(said(f'Could not delete “{NAME}”'), 'Kiste does not say the home folder was not deleted')
        e2e.check(os.path.isdir(f'{PARENT}.moved/home'),
                  'the home folder went after all (it was not removed through the link, but how?)')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
