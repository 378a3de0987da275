# test_autostart.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Start When I Log In on a real box's page.  The e2e machines run no
systemd user manager, so the page offers no switch and its row says why;
nothing is written into the test user's systemd folder.  On a machine
whose test user has a user manager, the switch is there and off."""

import kiste_e2e as e2e

BOX = 'kiste-e2e-autostart'
TITLE = 'Start When I Log In'
REASON = ('Your session has no systemd user manager, so boxes cannot be started '
          'when you log in.')
UNIT = f'kiste-box-{BOX}.service'


def unit_exists():
    return e2e.run_user(['sh', '-c', 'test -e "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/$1"',
                         'sh', UNIT], check=False, timeout=30).returncode == 0


def main():
    has_manager = e2e.run_user(['systemctl', '--user', 'show-environment'],
                               check=False, timeout=30).returncode == 0
    e2e.log(f'the test user has a systemd user manager: {has_manager}')
    e2e.check(not unit_exists(), f'{UNIT} is there before the test')

    with e2e.box(BOX):
        with e2e.App() as app:
            win = app.window('Kiste')
            boxes = e2e.box_list(win, timeout=30)
            e2e.select_box(boxes, BOX, timeout=30)
            page = e2e.find(win, 'grouping', BOX, showing=True)

            # the switch above it is there: the page's details are shown (a
            # row's switch is named by the row's title)
            e2e.find_switch(page, 'In the App Menu')
            row = e2e.find_row(page, TITLE)
            e2e.scroll_into_view(row)
            if has_manager:
                switch = e2e.find_switch(page, TITLE)
                e2e.check(not e2e.is_checked(switch), f'{TITLE} is on for a new box')
            else:
                # no switch, and the row says why
                e2e.wait_row_text(page, TITLE, REASON, timeout=30)
                e2e.find_none(page, e2e.SWITCH_ROLES, TITLE, showing=True, timeout=5)
            e2e.settle()
            e2e.screenshot('autostart-row')
            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code}')

    e2e.check(not unit_exists(), f'{UNIT} was written')


e2e.run(main)
