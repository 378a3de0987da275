# test_hostile_apps.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""What a box prints is bounded. One box holds, beside an ordinary app, a
desktop file that is a 100 GB sparse file and one that is a link to
/dev/zero: its Apps view lists the app and leaves the two out. Another box
has a `head` of its own that prints without end (a box's programs are the
box's): its Apps view says that the listing printed too much. Kiste's
memory stays under 300 MB all the while."""

import os
import signal

import kiste_e2e as e2e
import test_terminal as t  # noqa: E402

FILES = 'kiste-e2e-big-files'
FLOOD = 'kiste-e2e-flood'
APP_NAME = 'Kiste Ordinary App'
MAX_MEMORY_KB = 300 * 1024

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Exec=/bin/true
'''

SETUP_FILES = (
    'cat > /usr/share/applications/kiste-e2e-ordinary.desktop && '
    'printf "[Desktop Entry]\\nType=Application\\nName=Huge\\nExec=huge\\n" > '
    '/usr/share/applications/kiste-e2e-huge.desktop && '
    'truncate -s 100G /usr/share/applications/kiste-e2e-huge.desktop && '
    'ln -sf /dev/zero /usr/share/applications/kiste-e2e-zero.desktop'
)

SETUP_FLOOD = (
    "printf '#!/bin/sh\\nexec cat /dev/zero\\n' > /usr/local/bin/head && chmod 755 /usr/local/bin/head"
)


def memory_kb(pid, field='VmHWM'):
    try:
        with open(f'/proc/{pid}/status', encoding='utf-8') as f:
            for line in f:
                if line.startswith(field + ':'):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class MemoryWatch:
    """Fails (and stops the app) as soon as its memory passes the limit"""

    def __init__(self, app):
        self.app = app

    def check(self):
        used = memory_kb(self.app.pid, 'VmRSS')
        if used > MAX_MEMORY_KB:
            os.kill(self.app.pid, signal.SIGKILL)
            raise e2e.Failure(f'Kiste uses {used // 1024} MB, more than {MAX_MEMORY_KB // 1024} MB')

    def wait_until(self, probe, timeout, what):
        def watched():
            self.check()
            return probe()
        return e2e.wait_until(watched, timeout, what)


def show_apps(app, win, boxes, name, watch):
    e2e.select_box(boxes, name)
    e2e.click(e2e.find(win, 'page tab', 'Apps', showing=True))
    watch.check()


def main():
    with e2e.box(FILES), e2e.box(FLOOD):
        for name in (FILES, FLOOD):
            e2e.run_user(['distrobox', 'enter', name, '--', 'true'], timeout=t.START_TIMEOUT)
        e2e.run_user(['podman', 'exec', '-i', '--user', 'root', FILES, 'sh', '-c', SETUP_FILES],
                     input=DESKTOP)
        e2e.run_user(['podman', 'exec', '--user', 'root', FLOOD, 'sh', '-c', SETUP_FLOOD])
        run_test()


def run_test():
    with e2e.App() as app:
        watch = MemoryWatch(app)
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, FILES, 'Running', timeout=60)

        # the ordinary app, and neither of the two that are no launchers
        show_apps(app, win, boxes, FILES, watch)
        apps = watch.wait_until(lambda: e2e.find_all(win, 'list', 'Apps in the Box', showing=True), 120,
                                'the apps of the box')[0]
        e2e.find(apps, 'list item', APP_NAME, showing=True, timeout=30)
        e2e.check(not e2e.find_all(apps, 'list item', 'Huge', showing=None),
                  'the 100 GB desktop file is listed as an app')
        e2e.screenshot('hostile-apps-files')
        watch.check()
        e2e.log(f'Kiste\'s memory so far: {memory_kb(app.pid) // 1024} MB at most')

        # the box's own head prints without end: the listing is stopped
        show_apps(app, win, boxes, FLOOD, watch)
        page = watch.wait_until(lambda: e2e.find_all(win, None, 'The Apps Could Not Be Listed', showing=True),
                                120, 'the Apps view to say the listing failed')[0]
        text = ' '.join(e2e.row_texts(page)) + ' ' + (page.get_description() or '')
        e2e.log(f'the Apps view says: {text}')
        watch.check()
        e2e.find(win, 'label', lambda label: 'printed more than' in label, showing=True, timeout=10)
        e2e.screenshot('hostile-apps-flood')

        peak = memory_kb(app.pid)
        e2e.log(f'Kiste\'s peak memory: {peak // 1024} MB')
        e2e.check(peak < MAX_MEMORY_KB, f'Kiste\'s memory peaked at {peak // 1024} MB')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
