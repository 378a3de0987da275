# test_quit.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Nothing outlives the app: with a real box present, the app watches
podman's events stream; when the app is told to quit (SIGTERM, SIGINT) it
exits cleanly, and when it is killed (SIGKILL) its podman processes go
with it anyway.

Quitting ends the app whatever is open: with the New Box dialog open and
a name typed into it, SIGTERM (what a session sends at logout), SIGINT,
SIGHUP and Ctrl+Q each end it within two seconds, its commands with it."""

import os
import signal
import time

import kiste_e2e as e2e
import test_create_dialog as cd  # its helpers; its main does not run on import
import test_terminal as t  # noqa: E402

BOX = 'kiste-e2e-quit'


def proc_table():
    """pid -> (ppid, state, cmdline) for every process we can see."""
    table = {}
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/stat', encoding='utf-8', errors='replace') as f:
                stat = f.read()
            with open(f'/proc/{entry}/cmdline', 'rb') as f:
                cmdline = f.read().replace(b'\0', b' ').decode(errors='replace').strip()
        except OSError:
            continue
        fields = stat[stat.rfind(')') + 2:].split()
        table[int(entry)] = (int(fields[1]), fields[0], cmdline)
    return table


def descendants(pid):
    table = proc_table()
    found = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, _state, cmdline) in table.items():
            if ppid == parent and child not in found:
                found[child] = cmdline
                todo.append(child)
    return found


def alive(pid):
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8', errors='replace') as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(')') + 2] != 'Z'


def events_children(app):
    """The app's processes once its podman events stream runs."""
    def probe():
        procs = descendants(app.pid)
        if any('podman' in cmd and ' events' in cmd for cmd in procs.values()):
            return procs
        return None
    return e2e.wait_until(probe, 20, 'the app\'s "podman events" child')


def check_gone(procs, how):
    deadline = time.monotonic() + 5
    left = dict(procs)
    while left and time.monotonic() < deadline:
        left = {pid: cmd for pid, cmd in left.items() if alive(pid)}
        time.sleep(0.05)
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    e2e.check(not left, f'after {how}, processes the app started are still running: '
                        + '; '.join(f'{pid} {cmd}' for pid, cmd in left.items()))
    e2e.log(f'after {how}: all {len(procs)} processes the app started are gone')


def quit_with(signum):
    with e2e.App(log_name=f'app-{signum.name}.log') as app:
        app.window('Kiste')
        procs = events_children(app)
        e2e.log(f'the app runs: ' + '; '.join(procs.values()))
        os.kill(app.pid, signum)
        try:
            code = app.proc.wait(15)
        except Exception:
            app.terminate()
            raise e2e.Failure(f'the app did not exit within 15 s of {signum.name}')
        if signum == signal.SIGKILL:
            e2e.check(code == -signal.SIGKILL, f'the app exited with {code} instead of being killed')
        else:
            e2e.check(code == 0, f'the app exited with code {code} after {signum.name}, expected 0')
        check_gone(procs, signum.name)


def quit_with_dialog_open(how):
    """how: a signal, or 'ctrl-q'"""
    label = how if isinstance(how, str) else how.name
    with e2e.App(log_name=f'app-dialog-{label}.log') as app:
        win = app.window('Kiste')
        procs = events_children(app)
        e2e.click(e2e.find(win, 'button', 'New Box', showing=True, timeout=30))
        dialog = e2e.find_alert(win, 'New Box')
        name = cd.find_text(dialog, 'Name')
        e2e.set_text(name, 'kiste-e2e-typed')
        e2e.settle(0.5)
        e2e.screenshot(f'quit-dialog-open-{label}')
        start = time.monotonic()
        if how == 'ctrl-q':
            # the keyboard in the dialog's Name field, as people type there
            e2e.click_at(name)
            e2e.settle(0.3)
            start = time.monotonic()
            t.press_with_modifiers(ord('q'), 4)  # Control
        else:
            os.kill(app.pid, how)
        try:
            code = app.proc.wait(2.0)
        except Exception:
            e2e.screenshot(f'quit-dialog-still-open-{label}')
            app.terminate()
            raise e2e.Failure(f'with the New Box dialog open, the app did not exit within 2 s of {label}')
        e2e.log(f'{label} with the dialog open: exited with {code} in {time.monotonic() - start:.2f} s')
        e2e.check(code == 0, f'the app exited with code {code} after {label}, expected 0')
        check_gone(procs, f'{label} with the dialog open')


def main():
    with e2e.box(BOX):
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
            quit_with(signum)
        for how in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, 'ctrl-q'):
            quit_with_dialog_open(how)


e2e.run(main)
