# test_home_isolation.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Home isolation through the New Box dialog, on a released distrobox
(which has no --unshare-home): a box made with the Home Folder switch on
has no mount at or above the host home, carries the label, sees an empty
/run/host/home, cannot read a file of the host home at its path or under
/run/host, has its own home owned by the user with mode 755, opens a
terminal there, and its page says "not in this box". A second box does
the same with a separate home folder, which is its home and the only
folder of the host home it has. Run as a user whose home is in /var/home,
it checks the Fedora Atomic layout too."""

import os
import stat

import kiste_e2e as e2e
from gi.repository import Atspi  # after kiste_e2e, which picks its version
import test_create_dialog as cd  # its helpers; its main does not run on import
import test_terminal as t  # noqa: E402

PLAIN = 'kiste-e2e-nohome'
SEPARATE = 'kiste-e2e-nohome-own'
HOST_HOME = os.path.expanduser('~')
USER = os.environ.get('USER') or os.path.basename(HOST_HOME)
UID = os.getuid()
MARKER = os.path.join(HOST_HOME, 'kiste-e2e-secret.txt')
OWN_HOME = os.path.join(HOST_HOME, 'Kiste Boxes', 'e2e nohome')


def fill_form(win, name, own_home, image=None):
    e2e.click(e2e.find(win, 'button', 'New Box', showing=True, timeout=30))
    dialog = e2e.find_alert(win, 'New Box')
    create = e2e.find(dialog, 'button', 'Create', showing=True)
    e2e.set_text(cd.find_text(dialog, 'Image'), image or e2e.IMAGE)
    name_entry = cd.find_text(dialog, 'Name')
    e2e.wait_until(lambda: e2e.get_text(name_entry), 5.0, 'a name to be suggested')
    e2e.set_text(name_entry, name)
    if own_home:
        e2e.toggle(e2e.find_switch(dialog, 'Separate Home Folder'), True)
        e2e.set_text(cd.find_text(dialog, 'Folder'), own_home)

    home_switch = e2e.find_switch(dialog, 'Home Folder')
    e2e.check(e2e.has_state(home_switch, Atspi.StateType.SENSITIVE),
              'the Home Folder switch is off limits on a released distrobox')
    e2e.toggle(home_switch, True)
    e2e.wait_until(lambda: e2e.has_state(create, Atspi.StateType.SENSITIVE), 10.0,
                   'Create to become clickable')
    e2e.check(e2e.scroll_into_view(home_switch), 'cannot scroll the Home Folder switch into view')
    e2e.park_pointer()
    e2e.settle(1)
    e2e.screenshot(f'{name}-form')
    return dialog, create


def check_container(name, own_home):
    info = e2e.inspect_box(name)
    labels = (info.get('Config') or {}).get('Labels') or {}
    mounts = info.get('Mounts') or []
    destinations = [m.get('Destination') or '' for m in mounts]
    e2e.log(f'{name} mounts: {sorted(destinations)}')

    e2e.check(labels.get('distrobox.unshare_home') == '1',
              f'the label distrobox.unshare_home=1 is missing: {labels}')
    for dest in destinations:
        contains = dest == HOST_HOME or HOST_HOME.startswith(dest.rstrip('/') + '/')
        e2e.check(not contains, f'the mount {dest!r} shows the host home {HOST_HOME!r}')
    tmpfs = (info.get('HostConfig') or {}).get('Tmpfs') or {}
    e2e.log(f'{name} tmpfs: {sorted(tmpfs)}')
    e2e.check('/run/host/home' in tmpfs, 'no empty tmpfs covers /run/host/home')
    if HOST_HOME.startswith('/var/home/'):
        e2e.check('/run/host/var/home' in tmpfs, 'no empty tmpfs covers /run/host/var/home')
    if own_home:
        e2e.check(any(m.get('Source') == own_home and m.get('Destination') == own_home
                      for m in mounts),
                  f'the separate home folder {own_home!r} is not mounted')

    box_home = own_home or HOST_HOME
    script = ('stat -c "%u %a" "$HOME"; echo "home=$HOME"; '
              f'test -e "{MARKER}" && echo at-its-path; '
              f'test -e "/run/host{MARKER}" && echo under-run-host; '
              'echo "run-host-home=$(ls -A /run/host/home | wc -l)"; '
              'test -d /run/host/var/home && echo "run-host-var-home=$(ls -A /run/host/var/home | wc -l)"; '
              'true')
    out = e2e.run_user(['podman', 'exec', '--user', USER, name, 'sh', '-c', script]).stdout
    e2e.log(f'inside {name}:\n{out}')
    lines = out.splitlines()
    e2e.check(lines[0] == f'{UID} 755', f'the box home is not the user\'s with mode 755: {lines[0]!r}')
    e2e.check(f'home={box_home}' in lines, f'HOME in the box is not {box_home!r}')
    e2e.check('at-its-path' not in lines, f'the box reads {MARKER} of the host home')
    e2e.check('under-run-host' not in lines, f'the box reads {MARKER} under /run/host')
    e2e.check('run-host-home=0' in lines, '/run/host/home is not empty in the box')
    e2e.check(all(line == 'run-host-var-home=0' for line in lines if line.startswith('run-host-var-home=')),
              '/run/host/var/home is not empty in the box')
    if own_home:
        mode = os.stat(own_home)
        e2e.check(mode.st_uid == UID and stat.S_ISDIR(mode.st_mode),
                  f'the separate home folder {own_home!r} is not the user\'s')


def check_page(win, name, own_home):
    boxes = e2e.box_list(win, timeout=30)
    e2e.find_box_row(boxes, name, 'Running', timeout=30)
    page = e2e.find(win, 'grouping', name, showing=True, timeout=30)
    sentence = ('Your home folder is not in this box' if not own_home
                else f'Your home folder is not in this box: it has its own at {own_home}')
    row = e2e.find_row(page, sentence, timeout=30)
    texts = ' '.join(e2e.row_texts(row))
    e2e.check('Sudo in the box can undo this' in texts, f'the row does not say its limits: {texts}')
    if own_home:
        e2e.check(own_home in texts, f'the row does not name the folder of the home in the box: {texts}')
    e2e.check(e2e.scroll_into_view(row), 'cannot scroll the Isolation group into view')
    e2e.park_pointer()
    e2e.settle(1)
    e2e.screenshot(f'{name}-details')
    return boxes


def check_terminal(win, boxes, name, own_home):
    term = t.open_terminal(win, boxes, name)
    t.wait_for_prompt(term, 60)
    t.type_line(term, f'echo "where=$(pwd)"; cat {MARKER} 2>/dev/null || echo "secret-$((40+2))"')
    e2e.wait_until(lambda: any(line.startswith('secret-42') for line in t.terminal_lines(term)), 30,
                   'the terminal to answer')
    lines = t.terminal_lines(term)
    e2e.check(f'where={own_home or HOST_HOME}' in lines, f'the terminal does not start in the box home: {lines}')
    e2e.check('secret' not in lines, 'the terminal reads the host home\'s file')
    e2e.screenshot(f'{name}-terminal')


def one_box(app, win, name, own_home):
    dialog, create = fill_form(win, name, own_home)
    e2e.click(create)
    cd.NAME = name  # the helper's messages and title use it
    cd.wait_created(dialog)
    check_container(name, own_home)
    boxes = check_page(win, name, own_home)
    check_terminal(win, boxes, name, own_home)


def main():
    try:
        run_test()
    finally:
        for name in (PLAIN, SEPARATE):
            if e2e.box_exists(name):
                e2e.run_user(['podman', 'rm', '--force', '--time', '0', name], check=False)
        e2e.remove_path(OWN_HOME)
        if os.path.exists(MARKER):
            os.unlink(MARKER)


def run_test():
    for name in (PLAIN, SEPARATE):
        if e2e.box_exists(name):
            e2e.remove_box(name)
    e2e.remove_path(OWN_HOME)
    with open(MARKER, 'w') as f:
        f.write('secret\n')
    e2e.log(f'host home {HOST_HOME}')

    with e2e.App() as app:
        win = app.window('Kiste')
        one_box(app, win, PLAIN, None)
        one_box(app, win, SEPARATE, OWN_HOME)
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
