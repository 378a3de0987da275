# test_terminal_home.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""The workdir rule of a box with its own home (seed 006), through real
tabs: in a box labelled distrobox.unshare_home=1, without the host home
mounted, Ctrl+Shift+T keeps a folder of the host home only when one of
the box's own mounts holds it; any other folder of the host home gives
a shell in the box home. The box is made as Kiste's home isolation makes
it from distrobox's own dry run (no released distrobox has
--unshare-home)."""

import os
import shlex

import kiste_e2e as e2e
import test_terminal as t  # noqa: E402  (its helpers; its main does not run on import)

NAME = 'kiste-e2e-term-home'
HOME = os.path.expanduser('~')
USER = os.environ.get('USER') or os.getlogin()
UID = os.getuid()
MOUNTED = os.path.join(HOME, 'kiste-e2e-proj')
NOT_MOUNTED = os.path.join(HOME, 'kiste-e2e-hostonly')


def create_isolated_box():
    """distrobox create --dry-run, without the host home and its runtime
    folder, /run/host/home masked, the label added, plus one folder of the
    home mounted; run with podman itself."""
    out = e2e.run_user(['distrobox', 'create', '--dry-run', '--yes', '--no-entry',
                        '--image', e2e.IMAGE, '--name', NAME]).stdout
    argv = shlex.split(' '.join(out.splitlines()))
    e2e.check(argv[:2] == ['podman', 'create'], f'unexpected dry run: {argv[:4]}')
    dropped = {f'{HOME}:{HOME}:rslave', f'/run/user/{UID}:/run/user/{UID}:rslave',
               f'/var/home/{USER}:/var/home/{USER}:rslave'}
    result = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        value = argv[i + 1] if i + 1 < len(argv) else None
        if arg == '--volume' and value in dropped:
            i += 2
            continue
        if arg == '--volume' and value == '/home:/run/host/home:rslave':
            result += ['--mount', 'type=tmpfs,destination=/run/host/home']
            i += 2
            continue
        if arg == '--entrypoint':
            result += ['--label', 'distrobox.unshare_home=1', '--env', 'DISTROBOX_UNSHARE_HOME=1',
                       '--volume', f'{MOUNTED}:{MOUNTED}:rslave']
        result.append(arg)
        i += 1
    e2e.run_user(result)
    # The first start, then the home distrobox 1.8 does not make itself
    e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)
    e2e.run_user(['podman', 'exec', '--user', 'root', NAME, 'sh', '-c',
                  'mkdir -p "$1" "$2" && chown "$3" "$1" "$2"', 'sh',
                  HOME, NOT_MOUNTED, f'{UID}:{os.getgid()}'])
    mounts = e2e.inspect_box(NAME).get('Mounts', [])
    destinations = [m.get('Destination') for m in mounts]
    e2e.check(HOME not in destinations, f'the host home is mounted in {NAME}: {destinations}')


def pwd_in(term):
    """What `pwd` prints in the terminal."""
    def printed():
        return [line[4:] for line in t.terminal_lines(term) if line.startswith('pwd=')]
    before = len(printed())
    t.type_line(term, 'echo "pwd=$(pwd)"')
    e2e.wait_until(lambda: len(printed()) > before, 30, 'pwd to print')
    return printed()[-1]


def new_tab_here(win, term):
    e2e.click_at(term)
    t.press_with_modifiers(0x054, 0x5)  # Shift+Control+T
    e2e.settle(1.0)
    term = t.terminal_in(win)
    t.wait_for_prompt(term, 30)
    return term


def main():
    try:
        run_test()
    finally:
        if e2e.box_exists(NAME):
            e2e.remove_box(NAME)


def run_test():
    if e2e.box_exists(NAME):
        e2e.remove_box(NAME)
    for folder in (MOUNTED, NOT_MOUNTED):
        os.makedirs(folder, exist_ok=True)
    create_isolated_box()

    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, NAME, 'Running', timeout=30)
        term = t.open_terminal(win, boxes, NAME)
        t.wait_for_prompt(term, 30)
        e2e.check(pwd_in(term) == HOME, 'the first shell does not start in the box home')

        # A folder of the home that the box mounts: kept
        t.type_line(term, f'cd {shlex.quote(MOUNTED)}')
        e2e.settle(1.0)
        term = new_tab_here(win, term)
        here = pwd_in(term)
        e2e.check(here == MOUNTED, f'the new tab starts in {here!r}, not in the mounted {MOUNTED!r}')

        # A folder of the host home the box does not mount (the box has one
        # of that name in its own home): the box home
        t.type_line(term, f'cd {shlex.quote(NOT_MOUNTED)}')
        e2e.settle(1.0)
        term = new_tab_here(win, term)
        here = pwd_in(term)
        e2e.check(here == HOME, f'the new tab starts in {here!r}, not in the box home {HOME!r}')
        e2e.settle()
        e2e.screenshot('terminal-unshared-home')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


e2e.run(main)
