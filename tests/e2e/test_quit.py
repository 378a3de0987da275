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
SIGHUP and Ctrl+Q each end it within two seconds, its commands with it.

In the Flatpak and the sandbox the signals go to the app inside bwrap, as
a session sends them, and its commands are the host processes that
flatpak-spawn started for it: those must end too."""

import os
import signal
import time

import kiste_e2e as e2e
import test_create_dialog as cd  # its helpers; its main does not run on import
import test_terminal as t  # noqa: E402

BOX = 'kiste-e2e-quit'


def alive(pid):
    try:
        with open(f'/proc/{pid}/stat', encoding='utf-8', errors='replace') as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(')') + 2] != 'Z'


def events_children(app):
    """The app's processes once its podman events stream runs.  In the
    Flatpak and the sandbox these include the host commands that
    flatpak-spawn started for it."""
    def probe():
        procs = e2e.descendants(app.pid)
        if e2e.FLATPAK or e2e.SANDBOX:
            procs.update(e2e.host_commands())
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
        e2e.log('the app runs: ' + '; '.join(procs.values()))
        os.kill(app.app_pid, signum)
        try:
            code = app.proc.wait(15)
        except Exception:
            app.terminate()
            raise e2e.Failure(f'the app did not exit within 15 s of {signum.name}')
        if signum == signal.SIGKILL:
            # bwrap, which waits for the app in the sandboxes, exits on its own
            if not (e2e.FLATPAK or e2e.SANDBOX):
                e2e.check(code == -signal.SIGKILL,
                          f'the app exited with {code} instead of being killed')
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
            os.kill(app.app_pid, how)
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


if __name__ == "__main__":
    e2e.run(main)
