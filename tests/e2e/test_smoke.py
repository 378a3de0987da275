# test_smoke.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Smoke test: with a real box present, the app starts as an ordinary user,
shows its main window with the primary menu, and quits cleanly when the
window is closed."""

import kiste_e2e as e2e

BOX = 'kiste-e2e-smoke'


def main():
    with e2e.box(BOX):
        e2e.check(BOX in e2e.box_names(), f'podman ps does not list the new box {BOX}')
        with e2e.App() as app:
            win = app.window('Kiste')
            e2e.check(win.get_name() == 'Kiste',
                      f'main window title is {win.get_name()!r}, expected "Kiste"')
            menu = e2e.find(win, ('button', 'toggle button', 'menu button'), 'Main Menu')
            e2e.check(e2e.is_showing(menu), 'the "Main Menu" button exists but is not showing')
            e2e.settle()
            e2e.screenshot('smoke-main-window')
            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code} after its window was closed')
    e2e.check(BOX not in e2e.box_names(), f'box {BOX} was not removed')


e2e.run(main)
