# test_hostile_image.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A box whose image sets ENV PATH to something with $(…): distrobox enter
evals that value on the host at every enter (the test first shows that it
does). Through Kiste nothing of it runs on the host: a terminal tab opens
with a direct podman exec (the PATH arrives as data), and Upgrade, which
would go through distrobox enter, is refused with the reason."""

import os

import kiste_e2e as e2e
import test_terminal as t  # noqa: E402  (its helpers; its main does not run on import)

NAME = 'kiste-e2e-hostile'
IMAGE = 'localhost/kiste-hostile:path'
MARKER = '/tmp/kiste-e2e-hostile-ran'
HOSTILE_PATH = f'/usr/local/bin:/usr/bin:/bin:$(id>{MARKER})'


def build_image():
    if e2e.run_user(['podman', 'image', 'exists', IMAGE], check=False).returncode == 0:
        return
    e2e.run_user(['podman', 'rm', '--force', 'kiste-e2e-hostile-build'], check=False)
    e2e.run_user(['podman', 'create', '--name', 'kiste-e2e-hostile-build', e2e.IMAGE, 'true'])
    e2e.run_user(['podman', 'commit', '--change', f'ENV PATH={HOSTILE_PATH}',
                  'kiste-e2e-hostile-build', IMAGE])
    e2e.run_user(['podman', 'rm', 'kiste-e2e-hostile-build'])


def marker_gone():
    if os.path.exists(MARKER):
        os.unlink(MARKER)


def main():
    build_image()
    marker_gone()
    try:
        with e2e.box(NAME, image=IMAGE):
            # what Kiste protects against: the CLI runs the command
            e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)
            e2e.check(os.path.exists(MARKER),
                      'distrobox enter did not run the PATH of the image: the test proves nothing')
            marker_gone()
            e2e.run_user(['podman', 'stop', '--time', '0', NAME])
            run_test()
    finally:
        marker_gone()


def run_test():
    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, NAME, timeout=30)
        e2e.select_box(boxes, NAME)
        page = e2e.find(win, 'grouping', NAME, showing=True, timeout=10)

        # Upgrade would go through distrobox enter: refused, with the reason
        e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True),
                             'Upgrade')
        e2e.find(win, 'label', lambda text: text.startswith('Could not upgrade'),
                 showing=True, timeout=30)
        e2e.screenshot('hostile-upgrade-refused')
        e2e.check(not os.path.exists(MARKER), 'Upgrade ran the image PATH on the host')

        # a stopped box: Kiste starts it and opens the shell directly
        term = t.open_terminal(win, boxes, NAME)
        t.wait_for_prompt(term, t.START_TIMEOUT)
        # the PATH the shell was started with (its profile sets another)
        t.type_line(term, "tr '\\0' '\\n' </proc/$$/environ | sed -n 's/^PATH=/path-is=/p'")
        e2e.wait_until(lambda: any(line.startswith('path-is=') for line in t.terminal_lines(term)),
                       30, 'the shell to print its PATH')
        printed = [line for line in t.terminal_lines(term) if line.startswith('path-is=')][-1]
        e2e.log(printed)
        e2e.check('$(id>' in printed, f'the box PATH is not the image\'s, as data: {printed!r}')
        e2e.check(not os.path.exists(MARKER), 'opening a terminal ran the image PATH on the host')
        e2e.screenshot('hostile-terminal')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
