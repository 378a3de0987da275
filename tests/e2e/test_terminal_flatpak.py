# test_terminal_flatpak.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Terminal tabs from a Flatpak-like sandbox: the real app runs in
bubblewrap with /.flatpak-info, without /home and with podman and
distrobox hidden, and reaches the host only through the real
flatpak-spawn and Flatpak's session helper on the session bus. A tab for
a real running box gets a terminal (`tty` names a device), job control
(no "no job control", `jobs` lists a background job), the window size
(`stty size` follows the terminal) and the box's shell
(`echo $CONTAINER_ID`). With KISTE_E2E_FLATPAK=1 the same runs in the real
Flatpak's sandbox (`flatpak run`)."""

import os
import shutil
import stat

import kiste_e2e as e2e
import test_terminal as t

NAME = 'kiste-e2e-term-sandbox'
FLATPAK_SPAWN = '/usr/libexec/flatpak-xdg-utils/flatpak-spawn'
SESSION_HELPER = '/usr/libexec/flatpak-session-helper'

WRAPPER = r'''#!/bin/sh
# The app in a sandbox that hides the host the way Flatpak does
set -eu
a=${DBUS_SESSION_BUS_ADDRESS%%,*}
bus=
case $a in unix:path=*) sock=${a#unix:path=}; bus="--bind $sock $sock" ;; esac
uid=$(id -u)
# shellcheck disable=SC2086
exec bwrap --ro-bind /usr /usr --symlink usr/bin /bin --symlink usr/lib /lib \
  --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin \
  --ro-bind /etc /etc --proc /proc --dev /dev --tmpfs /tmp $bus \
  --bind "/run/user/$uid" "/run/user/$uid" \
  --ro-bind "$KISTE_SANDBOX_INFO" /.flatpak-info \
  --ro-bind /dev/null /usr/bin/podman --ro-bind /dev/null /usr/bin/distrobox \
  --ro-bind /tmp/.X11-unix /tmp/.X11-unix --ro-bind "$XAUTHORITY" "$XAUTHORITY" \
  --ro-bind "$KISTE_SANDBOX_WORK" "$KISTE_SANDBOX_WORK" \
  --bind "$KISTE_ARTIFACTS" "$KISTE_ARTIFACTS" \
  --ro-bind "$KISTE_SANDBOX_SPAWN" /app/bin/flatpak-spawn \
  --setenv PATH /app/bin:/usr/bin:/bin \
  --unshare-pid --die-with-parent \
  "$KISTE_SANDBOX_BIN" "$@"
'''


def stty_size(term):
    """(rows, columns) as `stty size` prints them in the terminal."""
    def sizes():
        return [line[5:] for line in t.terminal_lines(term) if line.startswith('size=')]
    before = len(sizes())
    t.type_line(term, 'echo "size=$(stty size)"')
    e2e.wait_until(lambda: len(sizes()) > before, 30, '`stty size` to print')
    rows, columns = sizes()[-1].split()
    return int(rows), int(columns)


def main():
    for tool in ('bwrap', FLATPAK_SPAWN, SESSION_HELPER):
        if not (shutil.which(tool) or os.access(tool, os.X_OK)):
            e2e.skip(f'{tool} is not installed (packages bubblewrap, flatpak, flatpak-xdg-utils)')
    with e2e.box(NAME):
        run_test()


def run_test():
    e2e.run_user(['distrobox', 'enter', NAME, '--', 'true'], timeout=t.START_TIMEOUT)

    info = e2e.artifact('flatpak-info')
    with open(info, 'w', encoding='utf-8') as f:
        f.write('[Application]\nname=io.github.kiste.Kiste\n')
    wrapper = e2e.artifact('kiste-in-sandbox')
    with open(wrapper, 'w', encoding='utf-8') as f:
        f.write(WRAPPER)
    os.chmod(wrapper, stat.S_IRWXU)

    real_bin = os.path.abspath(e2e.KISTE_BIN)
    env = {
        'KISTE_SANDBOX_INFO': info,
        'KISTE_SANDBOX_BIN': real_bin,
        # the copied binary, schemas and test scripts
        'KISTE_SANDBOX_WORK': os.path.dirname(os.path.dirname(real_bin)),
        'KISTE_SANDBOX_SPAWN': FLATPAK_SPAWN,
    }
    e2e.KISTE_BIN = wrapper
    if e2e.FLATPAK:
        env = {}  # App starts the real Flatpak: nothing to wrap
    try:
        with e2e.App(env=env, log_name='app-sandbox.log') as app:
            win = app.window('Kiste')
            boxes = e2e.box_list(win, timeout=60)
            # listed through flatpak-spawn: podman is hidden in here
            e2e.find_box_row(boxes, NAME, 'Running', timeout=60)
            term = t.open_terminal(win, boxes, NAME)
            t.wait_for_prompt(term, 60)
            t.check_container_id(term, NAME)

            before = len([line for line in t.terminal_lines(term) if line.startswith('/dev/')])
            t.type_line(term, 'tty')
            e2e.wait_until(lambda: len([line for line in t.terminal_lines(term)
                                        if line.startswith('/dev/')]) > before,
                           30, '`tty` to name a terminal device')
            e2e.check(not any('not a tty' in line for line in t.terminal_lines(term)),
                      '`tty` says "not a tty" in the sandboxed tab')

            t.type_line(term, 'sleep 300 &')
            t.type_line(term, 'jobs')
            e2e.wait_until(lambda: any('Running' in line and 'sleep 300' in line
                                       for line in t.terminal_lines(term)),
                           30, '`jobs` to list the background sleep')
            text = e2e.get_text(term)
            e2e.check('no job control' not in text, f'the shell has no job control:\n{text}')
            t.type_line(term, 'kill %1')

            # A new size reaches the shell on the host (SIGWINCH through the
            # sandbox): zooming out gives the terminal more rows and columns
            first = stty_size(term)
            e2e.click_at(term)
            t.press_with_modifiers(0x02d, 0x4)  # Control+minus
            t.press_with_modifiers(0x02d, 0x4)
            e2e.settle(1.0)
            second = stty_size(term)
            e2e.log(f'stty size: {first} before zooming out, {second} after')
            e2e.check(second[0] > first[0] and second[1] > first[1],
                      f'the shell still sees {second} after the terminal grew from {first}')
            e2e.settle()
            e2e.screenshot('terminal-sandbox')

            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code} after its window was closed')
    finally:
        e2e.KISTE_BIN = real_bin

    for line in (t.login_shells(NAME)):
        e2e.log(f'left in {NAME}: {line}')
    e2e.wait_until(lambda: not t.login_shells(NAME), 15.0,
                   f'the login shells in {NAME} to end with the sandboxed app')


if __name__ == '__main__':
    e2e.run(main)
