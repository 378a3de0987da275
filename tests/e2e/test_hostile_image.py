# test_hostile_image.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A box whose image sets ENV PATH to something with $(…): distrobox enter
evals that value on the host at every enter (the test first shows that it
does). Through Kiste nothing of it runs on the host:
- Upgrade, which would go through distrobox enter, is refused with the
  reason;
- Launch in the Apps view starts the box's app through the direct podman
  exec terminal tabs use (the PATH arrives as data): the app runs in the
  box;
- a terminal tab opens with that direct exec;
- with a terminal app of the user's chosen for boxes (a Flatpak GNOME
  Console, which runs `distrobox enter`), Open Terminal from the row of the
  box, whose details were not read yet, is refused with the reason.
Each of these ran the image's PATH on the host before the enter check
failed closed and stood in front of every way into distrobox enter."""

import os

import kiste_e2e as e2e
import test_external_terminal as ext  # its helpers; its main does not run on import
import test_terminal as t  # noqa: E402

NAME = 'kiste-e2e-hostile'
# sorts before the hostile box, so it is the one a new window shows
PLAIN = 'kiste-e2e-a-plain'
IMAGE = 'localhost/kiste-hostile:path-app'
MARKER = '/tmp/kiste-e2e-hostile-ran'
HOSTILE_PATH = f'/usr/local/bin:/usr/bin:/bin:$(id>{MARKER})'
APP_NAME = 'Kiste Hostile App'
APP = '/usr/local/bin/kiste-e2e-hostile-app'
LAUNCHED = '/tmp/kiste-e2e-hostile-launched'

APP_SCRIPT = f'''#!/bin/sh
# the box shares /tmp: where it ran, for the test on the host
echo "$CONTAINER_ID" > {LAUNCHED}
'''

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Exec={APP}
Icon=utilities-terminal
'''


def build_image():
    if e2e.run_user(['podman', 'image', 'exists', IMAGE], check=False).returncode == 0:
        return
    build = 'kiste-e2e-hostile-build'
    work = e2e.artifact('hostile-image')
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    for name, text, mode in (('app', APP_SCRIPT, 0o755), ('app.desktop', DESKTOP, 0o644)):
        with open(os.path.join(work, name), 'w', encoding='utf-8') as f:
            f.write(text)
        os.chmod(os.path.join(work, name), mode)
    e2e.run_user(['podman', 'rm', '--force', build], check=False)
    e2e.run_user(['podman', 'create', '--name', build, e2e.IMAGE, 'true'])
    e2e.run_user(['podman', 'cp', os.path.join(work, 'app'), f'{build}:{APP}'])
    e2e.run_user(['podman', 'cp', os.path.join(work, 'app.desktop'),
                  f'{build}:/usr/share/applications/kiste-e2e-hostile-app.desktop'])
    e2e.run_user(['podman', 'commit', '--change', f'ENV PATH={HOSTILE_PATH}', build, IMAGE])
    e2e.run_user(['podman', 'rm', build])


def forget(*paths):
    for path in paths:
        if os.path.exists(path):
            os.unlink(path)


def main():
    build_image()
    forget(MARKER, LAUNCHED)
    ext.install_fake_terminal()
    try:
        with e2e.box(NAME, image=IMAGE), e2e.box(PLAIN):
            # what Kiste protects against: the CLI runs the command
            e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)
            e2e.check(os.path.exists(MARKER),
                      'distrobox enter did not run the PATH of the image: the test proves nothing')
            forget(MARKER)
            e2e.run_user(['podman', 'stop', '--time', '0', NAME])
            run_test()
            external_terminal()
    finally:
        forget(MARKER, LAUNCHED)


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

        # Launch: the app runs in the box, through the direct exec (the
        # box is stopped: it is started to look for apps)
        e2e.click(e2e.find(win, 'page tab', 'Apps', showing=True))
        e2e.click(e2e.find(win, 'button', 'Start and Look for Apps', showing=True, timeout=30))
        apps = e2e.find(win, 'list', 'Apps in the Box', showing=True, timeout=t.START_TIMEOUT)
        row = e2e.find(apps, 'list item', APP_NAME, showing=True, timeout=60)
        e2e.scroll_into_view(row)
        e2e.context_menu_item(app, row, 'Launch', 'hostile-launch-menu')
        e2e.wait_until(lambda: os.path.exists(LAUNCHED), 60, 'the launched app to run')
        with open(LAUNCHED, encoding='utf-8') as f:
            ran_in = f.read().strip()
        e2e.check(ran_in == NAME, f'the app ran in {ran_in!r}, not in {NAME}')
        e2e.settle(1)
        e2e.check(not os.path.exists(MARKER), 'Launch ran the image PATH on the host')
        e2e.screenshot('hostile-launched')
        e2e.click(e2e.find(win, 'page tab', 'Details', showing=True))

        # the shell in a tab: opened with a direct podman exec
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


def external_terminal():
    """A new window shows the plain box; the hostile one's details are not
    read until something asks for them."""
    with e2e.App(log_name='app-external.log') as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find(win, 'grouping', PLAIN, showing=True, timeout=30)
        ext.choose_terminal(app, ext.CHOICE)

        row = e2e.find_box_row(boxes, NAME, timeout=30)
        e2e.context_menu_item(app, row, 'Open Terminal', 'hostile-external-menu')

        def refused():
            return e2e.find_all(win, 'label', lambda text: 'distrobox would run' in text and 'PATH' in text,
                                showing=True)
        e2e.wait_until(lambda: refused() or ext.read('status') is not None or os.path.exists(MARKER),
                       60, 'Open Terminal to be refused, or the terminal app to run')
        e2e.settle(3)
        e2e.screenshot('hostile-external-refused')
        e2e.check(not os.path.exists(MARKER),
                  'Open Terminal in the terminal app ran the image PATH on the host')
        e2e.check(ext.read('status') is None, 'the terminal app was started for the box')
        e2e.check(refused(), 'Open Terminal did not say why it is refused')
        alert = e2e.find_alert(win, 'Terminal Not Opened')
        e2e.click(e2e.find(alert, 'button', 'Close', showing=True))
        e2e.wait_gone(alert, 10, 'the alert to close')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
