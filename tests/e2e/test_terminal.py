# test_terminal.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Terminal tabs enter real boxes: Open Terminal on a running box's page
gives a shell in that box (typing `echo $CONTAINER_ID` prints the box's
name, read back from the terminal through AT-SPI), through the direct
`podman exec` when the box is understood; exit shows the exit banner and
Restart brings a new shell; a stopped box starts first, then the shell
comes in the same tab."""

import subprocess
import time

import kiste_e2e as e2e

RUNNING = 'kiste-e2e-term-run'
STOPPED = 'kiste-e2e-term-stop'

# A stopped box of the ready image starts in a few seconds; allow a slow
# machine its first start
START_TIMEOUT = 180.0


def terminal_in(win):
    """The showing terminal of the selected tab."""
    return e2e.find(win, 'terminal', 'Terminal', showing=True, timeout=30)


def terminal_lines(term):
    return [line.rstrip() for line in e2e.get_text(term).splitlines()]


def wait_for_prompt(term, timeout):
    """Waits until the shell printed something that ends like a prompt."""
    def probe():
        lines = [line for line in terminal_lines(term) if line.strip()]
        return bool(lines) and lines[-1].endswith(('$', '#', '>'))
    e2e.wait_until(probe, timeout, 'a shell prompt in the terminal')


def type_line(term, text):
    """Types text and Return into the terminal, as a person would."""
    e2e.click_at(term)
    e2e.log(f'type {text!r}')
    e2e.Atspi.generate_keyboard_event(0, text, e2e.Atspi.KeySynthType.STRING)
    e2e.press_key(0xff0d)  # Return


def press_with_modifiers(keysym, mask):
    """Presses keysym with modifiers held (X masks: 1 Shift, 4 Control)."""
    e2e.Atspi.generate_keyboard_event(mask, None, e2e.Atspi.KeySynthType.LOCKMODIFIERS)
    try:
        e2e.press_key(keysym)
    finally:
        e2e.Atspi.generate_keyboard_event(mask, None, e2e.Atspi.KeySynthType.UNLOCKMODIFIERS)


def check_container_id(term, name, timeout=30.0):
    """`echo $CONTAINER_ID` prints the box's name on a line of its own."""
    before = terminal_lines(term).count(name)
    type_line(term, 'echo $CONTAINER_ID')
    e2e.wait_until(lambda: terminal_lines(term).count(name) > before, timeout,
                   f'the terminal to print {name!r} for $CONTAINER_ID')


def shell_children(pid):
    """The command lines of the app's child processes."""
    out = subprocess.run(['ps', '-o', 'args=', '--ppid', str(pid)],
                         capture_output=True, text=True, check=False).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def login_shells(name):
    """The login shells (`SHELL -l`, what a tab starts) running in box name."""
    out = e2e.run_user(['podman', 'exec', name, 'ps', '-eo', 'args='], check=False).stdout
    return [line.strip() for line in out.splitlines() if line.strip().endswith(' -l')]


def open_terminal(win, boxes, name):
    e2e.select_box(boxes, name)
    page = e2e.find(win, 'grouping', name, showing=True)
    e2e.click(e2e.find(page, 'button', 'Open Terminal', showing=True))
    return terminal_in(win)


def main():
    try:
        run_test()
    finally:
        for name in (RUNNING, STOPPED):
            if e2e.box_exists(name):
                e2e.remove_box(name)


def run_test():
    for name in (RUNNING, STOPPED):
        if e2e.box_exists(name):
            e2e.remove_box(name)
        e2e.run_user(['distrobox', 'create', '--yes', '--no-entry', '--image', e2e.IMAGE,
                      '--name', name])
    # Running and set up, as after a first enter
    e2e.run_user(['distrobox', 'enter', RUNNING, '--', 'true'], timeout=START_TIMEOUT)

    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, RUNNING, 'Running', timeout=30)
        e2e.find_box_row(boxes, STOPPED, timeout=30)

        # A running box: the shell comes at once, in the box
        opened = time.monotonic()
        term = open_terminal(win, boxes, RUNNING)
        wait_for_prompt(term, 30)
        e2e.log(f'prompt of {RUNNING} {time.monotonic() - opened:.2f} s after Open Terminal')
        children = shell_children(app.pid)
        e2e.log(f'the app runs: {children}')
        direct = [c for c in children if c.startswith('podman exec') and
                  f'--env=CONTAINER_ID={RUNNING}' in c]
        e2e.check(direct, f'the shell of {RUNNING} does not run as a direct podman exec: {children}')
        check_container_id(term, RUNNING)
        e2e.settle()
        e2e.screenshot('terminal-running-box')

        # The row counts the box's terminal
        row = e2e.find_box_row(boxes, RUNNING)
        e2e.wait_until(lambda: '1' in e2e.row_texts(row), 5.0,
                       f'the row of {RUNNING} to count its terminal: {e2e.row_texts(row)}')

        # Closing the tab while a program runs in the box asks first
        type_line(term, 'sleep 12')
        e2e.settle(1.0)
        e2e.click(e2e.find(win, 'button', 'Close Tab', showing=True))
        dialog = e2e.find_alert(win, 'Close Terminal?')
        e2e.settle()
        e2e.screenshot('terminal-close-asks')
        e2e.respond(dialog, 'Cancel')
        term = terminal_in(win)
        e2e.check('sleep 12' in e2e.get_text(term), 'the tab lost its shell after Cancel')
        wait_for_prompt(term, 30)

        # exit, the banner, Restart
        type_line(term, 'exit 4')
        banner_text = e2e.find(win, 'label', lambda t: 'exit status 4' in t, showing=True,
                               timeout=30)
        e2e.log(f'banner: {e2e.get_text(banner_text)!r}')
        e2e.settle()
        e2e.screenshot('terminal-exited')
        e2e.click(e2e.find(win, 'button', 'Restart', showing=True))
        term = terminal_in(win)
        wait_for_prompt(term, 30)
        check_container_id(term, RUNNING)

        # Ctrl+Shift+T, typed into the terminal: another shell in the same box
        e2e.click_at(term)
        press_with_modifiers(0x054, 0x5)  # Shift+Control+T
        e2e.wait_until(lambda: '2' in e2e.row_texts(row), 10.0,
                       f'the row of {RUNNING} to count two terminals: {e2e.row_texts(row)}')
        term = terminal_in(win)
        wait_for_prompt(term, 30)
        check_container_id(term, RUNNING)

        # A stopped box starts first, then the shell comes in its tab
        opened = time.monotonic()
        term = open_terminal(win, boxes, STOPPED)
        e2e.find_box_row(boxes, STOPPED, 'Running', timeout=START_TIMEOUT)
        wait_for_prompt(term, START_TIMEOUT)
        e2e.log(f'prompt of stopped {STOPPED} {time.monotonic() - opened:.1f} s after Open Terminal')
        check_container_id(term, STOPPED)
        states = [c.get('State') for c in e2e.podman_containers()
                  if STOPPED in (c.get('Names') or [])]
        e2e.check(states == ['running'], f'podman says {STOPPED} is {states}')
        e2e.settle()
        e2e.screenshot('terminal-started-box')

        # (what is checked after the app is gone is there now)
        shells = login_shells(RUNNING)
        e2e.log(f'login shells in {RUNNING}: {shells}')
        e2e.check(shells, f'no login shell found in {RUNNING} while its tab is open')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')

    # No shell outlives the app, on the host or in the boxes
    leftovers = [line for line in subprocess.run(['ps', '-eo', 'args='], capture_output=True,
                                                 text=True, check=False).stdout.splitlines()
                 if 'exec' in line and f'CONTAINER_ID={RUNNING}' in line]
    e2e.check(not leftovers, f'shells outlived the app: {leftovers}')
    for name in (RUNNING, STOPPED):
        e2e.wait_until(lambda name=name: not login_shells(name), 15.0,
                       f'the login shells in {name} to end with the app')


if __name__ == '__main__':
    e2e.run(main)
