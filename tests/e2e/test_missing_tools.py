# test_missing_tools.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Without distrobox on PATH (podman still there) the window says that
distrobox is not installed and offers Retry; once distrobox is there,
Retry brings up the boxes."""

import shutil

import kiste_e2e as e2e

BOX = 'kiste-e2e-tools'
MISSING_TITLE = 'No Distrobox or Toolbx Found'


def main():
    with e2e.box(BOX), e2e.program_dir(exclude=('distrobox*', 'toolbox')) as bin_dir:
        e2e.check(shutil.which('distrobox', path=bin_dir) is None,
                  f'distrobox is still found in {bin_dir}')
        e2e.check(shutil.which('podman', path=bin_dir) is not None,
                  f'podman is not found in {bin_dir}')

        with e2e.App(env={'PATH': bin_dir}) as app:
            win = app.window('Kiste')
            # The status page takes its title as its accessible name
            page = e2e.find(win, 'grouping', MISSING_TITLE, showing=True, timeout=30)
            e2e.find(page, 'label', MISSING_TITLE, showing=True)
            e2e.find(page, 'label', lambda text: 'distrobox' in text and text != MISSING_TITLE,
                     showing=True)
            retry = e2e.find(page, 'button', 'Retry', showing=True)
            e2e.find_none(win, 'list', e2e.BOX_LIST, showing=True, timeout=0)

            unnamed = e2e.unnamed_controls(app.accessible)
            e2e.check(not unnamed,
                      'controls without an accessible name:\n  ' + '\n  '.join(unnamed))
            e2e.settle()
            e2e.screenshot('missing-distrobox')

            added = e2e.add_programs(bin_dir, 'distrobox*')
            e2e.log(f'put back on PATH: {", ".join(added)}')
            e2e.check('distrobox' in added, f'no distrobox to put back (added {added})')
            e2e.click(retry)

            # The window's own accessibles keep stale "showing" states:
            # look from the top for what shows now
            boxes = e2e.box_list(win, timeout=30)
            e2e.find_box_row(boxes, BOX, timeout=10)
            e2e.find_none(win, 'label', MISSING_TITLE, showing=True, timeout=5)
            e2e.settle()
            e2e.screenshot('missing-distrobox-retried')

            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


e2e.run(main)
