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

import os
import shlex
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
    """The login shells (`SHELL -l`, what a tab starts) running in box name.
    A box sees every process of the host: those of other users (another
    test user's run beside this one) are left out."""
    out = e2e.run_user(['podman', 'exec', name, 'ps', '-o', 'args=', '-U', str(os.getuid())],
                       check=False).stdout
    return [line.strip() for line in out.splitlines() if line.strip().endswith(' -l')]


def child_pids(pid):
    out = subprocess.run(['ps', '-o', 'pid=', '--ppid', str(pid)],
                         capture_output=True, text=True, check=False).stdout
    return [int(p) for p in out.split()]


def split_exec_argv(args, name):
    """(options up to DISTROBOX_ENTER_PATH, the forwarded host variables as a
    sorted list, the rest up to the box name, the command after it)"""
    end = args.index(name)
    head, forwarded, rest = [], [], []
    part = head
    for arg in args[:end]:
        if part is forwarded and arg.startswith('--env=PATH='):
            part = rest
        part.append(arg)
        if part is head and arg.startswith('--env=DISTROBOX_ENTER_PATH='):
            part = forwarded
    return head, sorted(forwarded), rest, args[end + 1:]


def compare_with_dry_run(app_pid, name):
    """The argv the app runs for a tab against `distrobox enter --dry-run`
    run now with the same environment, folder and terminal."""
    for pid in child_pids(app_pid):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as f:
                argv = [a.decode() for a in f.read().split(b'\0')[:-1]]
            with open(f'/proc/{pid}/environ', 'rb') as f:
                env = dict(e.decode().split('=', 1) for e in f.read().split(b'\0')[:-1] if b'=' in e)
            cwd = os.readlink(f'/proc/{pid}/cwd')
        except OSError:
            continue
        if argv[:2] == ['podman', 'exec'] and f'--env=CONTAINER_ID={name}' in argv:
            break
    else:
        raise e2e.Failure(f'no podman exec of {name} among the app\'s children')

    dry = subprocess.run(['script', '-qec', f'distrobox enter --dry-run {shlex.quote(name)}',
                          '/dev/null'], env=env, cwd=cwd, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False)
    lines = [line for line in dry.stdout.replace('\r', '').splitlines() if line]
    e2e.check(lines and lines[-1].startswith(name + ' '), f'unexpected dry run:\n{dry.stdout}')
    theirs = lines[:-1] + [name]
    their_command = lines[-1][len(name) + 1:]
    ours = split_exec_argv(argv[1:], name)
    expected = split_exec_argv(theirs, name)
    e2e.log(f'compared {len(argv)} arguments with distrobox enter --dry-run')
    # The dry run stops before distrobox reads the box's own PATH from
    # inspect; what the real run passes is asked from a real enter below
    our_path = [a for a in ours[2] if a.startswith('--env=PATH=')]
    ours_rest = [a for a in ours[2] if not a.startswith('--env=PATH=')]
    their_rest = [a for a in expected[2] if not a.startswith('--env=PATH=')]
    for what, a, b in (('options', ours[0], expected[0]),
                       ('forwarded variables', ours[1], expected[1]),
                       ('XDG folders', ours_rest, their_rest)):
        e2e.check(a == b, f'{what} differ from distrobox enter --dry-run:\n'
                          f'  ours:        {a}\n  distrobox: {b}')
    real = subprocess.run(['distrobox', 'enter', name, '--', 'printenv', 'PATH'], env=env, cwd=cwd,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False)
    real_path = real.stdout.strip().splitlines()[-1] if real.stdout.strip() else ''
    e2e.check(our_path == [f'--env=PATH={real_path}'],
              f'PATH differs from a real distrobox enter: ours {our_path}, distrobox {real_path!r}')
    e2e.check(' '.join(ours[3]) == their_command,
              f'the command differs: {ours[3]} vs {their_command!r}')


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
        compare_with_dry_run(app.pid, RUNNING)
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
