# kiste_e2e.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Helpers for Kiste's end-to-end tests.

A test is a script test_<name>.py that run-e2e starts as the test user,
under Xvfb, with a session bus and the AT-SPI bus already running.  It
drives the real app through AT-SPI by role and accessible name, and talks
to podman and distrobox directly to set up and check real boxes.

Environment (set by run-e2e):
  KISTE_BIN        the app binary
  KISTE_ARTIFACTS  where screenshots, logs and tree dumps go
  KISTE_E2E_IMAGE  a local image whose boxes start without a package phase
  KISTE_E2E_TEST   the test's name

A typical test:

    import kiste_e2e as e2e

    def main():
        with e2e.box('kiste-e2e-foo'), e2e.App() as app:
            win = app.window()
            e2e.click(e2e.find(win, 'button', 'Main Menu'))
            e2e.screenshot('foo-menu')

    e2e.run(main)
"""

import contextlib
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import gi

gi.require_version('Atspi', '2.0')
from gi.repository import Atspi, GLib  # noqa: E402

KISTE_BIN = os.environ.get('KISTE_BIN', 'kiste')
ARTIFACTS = os.environ.get('KISTE_ARTIFACTS') or os.getcwd()
IMAGE = os.environ.get('KISTE_E2E_IMAGE', 'localhost/kiste-debian:ready')
TEST_NAME = os.environ.get('KISTE_E2E_TEST', 'e2e')
BOX_PREFIX = 'kiste-e2e-'
# KISTE_E2E_SANDBOX=1 runs the app inside a Flatpak-like sandbox (see
# flatpak-sandbox): every host command must go through flatpak-spawn.
SANDBOX = os.environ.get('KISTE_E2E_SANDBOX') == '1'
SANDBOX_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'flatpak-sandbox')
# What the sandboxed app gets from the test's environment
SANDBOX_PASS = ('GSETTINGS_BACKEND', 'GSETTINGS_SCHEMA_DIR', 'GDK_BACKEND', 'G_MESSAGES_DEBUG',
                'G_DEBUG', 'GSK_RENDERER', 'LC_ALL', 'KISTE_ARTIFACTS')
# KISTE_E2E_FLATPAK=1 tests the real Flatpak: `flatpak run` of the app
# installed in the test user's installation, with the permissions of its
# manifest and nothing else.  KISTE_E2E_FLATPAK_APP names another app id.
FLATPAK = os.environ.get('KISTE_E2E_FLATPAK') == '1'
FLATPAK_APP = os.environ.get('KISTE_E2E_FLATPAK_APP') or 'io.github.kiste.Kiste'
# What `flatpak run` would carry into the sandbox, where these host paths
# mean nothing: the app uses its own schemas and spawn helper under /app
FLATPAK_DROP = ('GSETTINGS_SCHEMA_DIR', 'KISTE_SPAWN_HELPER', 'KISTE_BIN')

# What the app may register as on the accessibility bus when it cannot be
# matched by process id.
APP_NAMES = ('kiste', 'Kiste', 'io.github.kiste.Kiste', 'io.github.kiste.Kiste.Devel')

EXIT_SKIP = 77

_start_time = time.monotonic()
_apps = []
_diagnosed = False


class Failure(AssertionError):
    """A test expectation that did not hold; the message says which."""


class Skip(Exception):
    """The test cannot run on this machine; run() exits with 77."""


class _Interrupted(BaseException):
    pass


# Logging and artifacts

def log(message):
    print(f'[{time.monotonic() - _start_time:7.2f}] {message}', file=sys.stderr, flush=True)


def artifact(name):
    """Path of an artifact file; the directory is collected by run-e2e."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    return os.path.join(ARTIFACTS, name)


def shown(path):
    """How to name an artifact in messages: run-e2e copies the directory
    into the build tree, so the temporary path means nothing later."""
    rel = os.path.relpath(path, ARTIFACTS)
    return path if rel.startswith('..') else f'<artifacts>/{rel}'


def check(condition, message):
    if not condition:
        raise Failure(message)


def skip(reason):
    raise Skip(reason)


def screenshot(name):
    """Saves the whole X screen as <artifacts>/<name>.png and returns the path."""
    path = artifact(name + '.png')
    try:
        proc = subprocess.run(['import', '-window', 'root', path],
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failure(f'screenshot {name}: {e}') from e
    if proc.returncode != 0 or not os.path.exists(path):
        raise Failure(f'screenshot {name} failed (exit {proc.returncode}): {proc.stderr.strip()}')
    log(f'screenshot: {shown(path)}')
    return path


# Waiting

def pump():
    """Handles pending AT-SPI events so that cached state stays current."""
    ctx = GLib.MainContext.default()
    while ctx.pending():
        ctx.iteration(False)


def wait_until(probe, timeout=10.0, what='a condition', interval=0.1):
    """Calls probe() every interval seconds until it returns something true.

    Returns that value, or raises Failure after timeout seconds.  Errors
    from AT-SPI (objects going away while we look) count as "not yet".
    """
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        pump()
        try:
            result = probe()
            if result:
                return result
        except GLib.Error as e:
            last_error = e
        if time.monotonic() >= deadline:
            detail = f' (last error: {last_error.message})' if last_error else ''
            raise Failure(f'timed out after {timeout:g} s waiting for {what}{detail}')
        time.sleep(interval)


def settle(seconds=0.5):
    """Gives the app time to finish painting (before a screenshot, say)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pump()
        time.sleep(0.05)


# Commands as the test user

def run_user(argv, check=True, timeout=300, input=None):
    """Runs argv (podman, distrobox...) as the current user and returns the
    CompletedProcess (text output).  Raises Failure with the output when
    check is true and the command fails.  Every call is logged to
    <artifacts>/commands.log."""
    cmd = shlex.join(argv)
    log(f'$ {cmd}')
    started = time.monotonic()
    try:
        proc = subprocess.run(argv, input=input,
                              stdin=subprocess.DEVNULL if input is None else None,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise Failure(f'command timed out after {timeout} s: {cmd}') from e
    except OSError as e:
        raise Failure(f'cannot run {cmd}: {e}') from e
    with open(artifact('commands.log'), 'a', encoding='utf-8') as f:
        f.write(f'$ {cmd}\n# exit {proc.returncode} after {time.monotonic() - started:.1f} s\n')
        if proc.stdout:
            f.write(f'# stdout:\n{proc.stdout}\n')
        if proc.stderr:
            f.write(f'# stderr:\n{proc.stderr}\n')
    if check and proc.returncode != 0:
        raise Failure(f'command failed with exit {proc.returncode}: {cmd}\n'
                      f'--- stdout ---\n{proc.stdout}--- stderr ---\n{proc.stderr}')
    return proc


def podman_containers():
    """All of the user's containers, as podman ps --format json objects."""
    proc = run_user(['podman', 'ps', '--all', '--no-trunc', '--format', 'json'])
    try:
        return json.loads(proc.stdout or '[]') or []
    except ValueError as e:
        raise Failure(f'podman ps printed invalid JSON: {e}\n{proc.stdout}') from e


def inspect_box(name):
    """podman container inspect of box name, as one JSON object."""
    proc = run_user(['podman', 'container', 'inspect', '--format', 'json', name])
    try:
        data = json.loads(proc.stdout or '[]')
    except ValueError as e:
        raise Failure(f'podman container inspect printed invalid JSON: {e}\n{proc.stdout}') from e
    check(isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict),
          f'podman container inspect {name} printed {len(data) if isinstance(data, list) else data!r} '
          'objects, expected one')
    return data[0]


def remove_path(path):
    """Removes a file or directory tree of the test user.  Files a box's
    root wrote there belong to subordinate ids: those go with `podman
    unshare`, which runs as root of the user's namespace."""
    if not os.path.lexists(path):
        return
    log(f'removing {path}')
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except OSError as e:
        log(f'cannot remove {path} directly ({e}); trying podman unshare')
        run_user(['podman', 'unshare', 'rm', '-rf', '--', path], check=False)
    check(not os.path.lexists(path), f'could not remove {path}')


def box_names():
    return [name for c in podman_containers() for name in (c.get('Names') or [])]


def box_exists(name):
    return run_user(['podman', 'container', 'exists', name], check=False).returncode == 0


def remove_box(name):
    run_user(['distrobox', 'rm', '--force', name], check=False, timeout=120)
    if box_exists(name):
        run_user(['podman', 'rm', '--force', '--time', '0', name], check=False, timeout=120)


@contextlib.contextmanager
def box(name, image=None, extra_args=()):
    """Creates a real box with the distrobox CLI and removes it afterwards.

    Names must start with kiste-e2e- so that run-e2e can remove leftovers.
    """
    check(name.startswith(BOX_PREFIX), f'test box names must start with {BOX_PREFIX}: {name}')
    if box_exists(name):
        remove_box(name)
    run_user(['distrobox', 'create', '--yes', '--no-entry',
              '--image', image or IMAGE, '--name', name, *extra_args])
    check(box_exists(name), f'distrobox create succeeded but podman has no container {name}')
    try:
        yield name
    finally:
        remove_box(name)


# AT-SPI queries

_ROLE_ALIASES = {'push button': 'button'}


def _norm_role(role):
    role = role.lower().replace('_', ' ')
    return _ROLE_ALIASES.get(role, role)


def role_name(acc):
    return _norm_role(acc.get_role_name() or '')


# Containers that are never labelled: skipping them keeps walks fast
_UNNAMED_ROLES = {'panel', 'filler', 'application', 'invalid'}


def accessible_name(acc):
    """The accessible name; for a control named only through a
    labelled-by relation (GTK's menu items), the text of its labels."""
    name = acc.get_name() or ''
    if name or role_name(acc) in _UNNAMED_ROLES:
        return name
    parts = []
    try:
        for relation in acc.get_relation_set() or []:
            if relation.get_relation_type() != Atspi.RelationType.LABELLED_BY:
                continue
            for i in range(relation.get_n_targets()):
                label = relation.get_target(i)
                parts.append(label.get_name() or get_text(label))
    except GLib.Error:
        pass
    return ' '.join(p for p in parts if p)


def describe(acc):
    try:
        return f'[{role_name(acc)}] {accessible_name(acc)!r}'
    except GLib.Error:
        return '[defunct]'


def children(acc):
    try:
        n = acc.get_child_count()
    except GLib.Error:
        return []
    result = []
    for i in range(n):
        try:
            child = acc.get_child_at_index(i)
        except GLib.Error:
            continue
        if child is not None:
            result.append(child)
    return result


def walk(root, max_nodes=20000):
    """Breadth-first descendants of root (root excluded)."""
    queue = children(root)
    seen = 0
    while queue and seen < max_nodes:
        acc = queue.pop(0)
        seen += 1
        yield acc
        queue.extend(children(acc))


def states(acc):
    try:
        return set(acc.get_state_set().get_states())
    except GLib.Error:
        return set()


def has_state(acc, state):
    return state in states(acc)


def is_showing(acc):
    s = states(acc)
    return Atspi.StateType.SHOWING in s and Atspi.StateType.VISIBLE in s


def _matches_text(value, wanted):
    if wanted is None:
        return True
    if callable(wanted):
        return bool(wanted(value))
    if isinstance(wanted, re.Pattern):
        return wanted.search(value or '') is not None
    return value == wanted


def _matches_role(acc, role):
    if role is None:
        return True
    roles = role if isinstance(role, (tuple, list, set, frozenset)) else (role,)
    actual = role_name(acc)
    return any(_norm_role(r) == actual for r in roles)


def matches(acc, role=None, name=None, description=None, showing=None):
    try:
        if not _matches_role(acc, role):
            return False
        if not _matches_text(accessible_name(acc), name):
            return False
        if description is not None and not _matches_text(acc.get_description() or '', description):
            return False
    except GLib.Error:
        return False
    if showing is not None and is_showing(acc) != showing:
        return False
    return True


def _what(role, name, description):
    parts = [f'role {role!r}' if role is not None else 'any role']
    if name is not None:
        parts.append(f'name {name.pattern if isinstance(name, re.Pattern) else name!r}')
    if description is not None:
        parts.append(f'description {description!r}')
    return ', '.join(parts)


def find_all(root, role=None, name=None, description=None, showing=None):
    """All descendants of root matching role (a role name such as 'button',
    or a tuple of them), name and description (exact strings, compiled
    regular expressions or predicates)."""
    return [acc for acc in walk(root)
            if matches(acc, role, name, description, showing)]


def find(root, role=None, name=None, description=None, showing=None, timeout=10.0):
    """The first descendant of root that matches, waiting up to timeout
    seconds for it to appear.  Raises Failure naming what was missing."""
    def probe():
        for acc in walk(root):
            if matches(acc, role, name, description, showing):
                return acc
        return None
    return wait_until(probe, timeout,
                      f'{_what(role, name, description)} under {describe(root)}')


def find_none(root, role=None, name=None, description=None, showing=None, timeout=10.0):
    """Waits until no descendant of root matches (e.g. a dialog closed)."""
    wait_until(lambda: not find_all(root, role, name, description, showing), timeout,
               f'{_what(role, name, description)} to disappear from {describe(root)}')


# AT-SPI actions

# The interface methods are called through their interface: on an
# Atspi.Accessible, names such as get_text resolve to other methods.

def action_names(acc):
    if acc.get_action_iface() is None:
        return []
    return [Atspi.Action.get_action_name(acc, i) for i in range(Atspi.Action.get_n_actions(acc))]


def do_action(acc, name):
    """Runs the named AT-SPI action (e.g. 'click', 'window.close')."""
    names = action_names(acc)
    check(name in names, f'{describe(acc)} has no action {name!r} (it has {names})')
    log(f'action {name} on {describe(acc)}')
    check(Atspi.Action.do_action(acc, names.index(name)),
          f'action {name!r} on {describe(acc)} was refused')
    pump()


def click(acc, preferred=('click', 'activate', 'press', 'toggle', 'open')):
    """Activates a button, row or similar control through its main action.

    A control without one (a GtkMenuButton is a plain "button" around a
    "toggle button") is activated through its closest descendant that has.
    """
    names = action_names(acc)
    for name in preferred:
        if name in names:
            do_action(acc, name)
            return
    for inner in walk(acc, max_nodes=20):
        inner_names = action_names(inner)
        for name in preferred:
            if name in inner_names:
                do_action(inner, name)
                return
    raise Failure(f'{describe(acc)} has no click-like action (it has {names})')


activate = click


def is_checked(acc):
    s = states(acc)
    return Atspi.StateType.CHECKED in s or Atspi.StateType.PRESSED in s


def toggle(acc, expected=None, timeout=5.0):
    """Toggles a check button, switch or toggle button; with expected given,
    waits until the control reports that state."""
    click(acc, ('toggle', 'click', 'activate', 'press'))
    if expected is not None:
        wait_until(lambda: is_checked(acc) == expected, timeout,
                   f'{describe(acc)} to become {"checked" if expected else "unchecked"}')


def get_text(acc):
    """The text of a label, entry or terminal (falls back to the name)."""
    if acc.get_text_iface() is not None:
        return Atspi.Text.get_text(acc, 0, Atspi.Text.get_character_count(acc))
    return acc.get_name() or ''


def set_text(acc, value, timeout=5.0):
    """Replaces the text of an editable control and waits until it reads back."""
    if acc.get_editable_text_iface() is not None:
        log(f'set text {value!r} on {describe(acc)}')
        Atspi.EditableText.set_text_contents(acc, value)
    else:
        # No EditableText: focus the control and type, as a user would
        check(acc.get_component_iface() is not None, f'{describe(acc)} cannot take text')
        Atspi.Component.grab_focus(acc)
        log(f'type {value!r} into {describe(acc)}')
        Atspi.generate_keyboard_event(0, value, Atspi.KeySynthType.STRING)
    wait_until(lambda: get_text(acc) == value, timeout,
               f'{describe(acc)} to read back {value!r}')


SWITCH_ROLES = ('check box', 'switch', 'toggle button')


def find_switch(root, name, showing=True, timeout=10.0):
    """The control that toggles the switch (or check button) named name.

    An AdwSwitchRow shows as a check box around the GtkSwitch, which is a
    check box too; only the inner one has the "toggle" action."""
    def probe():
        for acc in walk(root):
            if matches(acc, SWITCH_ROLES, name, showing=showing) and 'toggle' in action_names(acc):
                return acc
        return None
    return wait_until(probe, timeout, f'a switch named {name!r} under {describe(root)}')


def press_key(keysym):
    """Presses and releases one key, given as an X keysym number (e.g.
    0xff1b for Escape), on whatever has the keyboard focus."""
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)
    pump()


# Diagnostics

_DUMP_STATES = (
    ('showing', Atspi.StateType.SHOWING),
    ('focused', Atspi.StateType.FOCUSED),
    ('insensitive', None),
    ('checked', Atspi.StateType.CHECKED),
    ('pressed', Atspi.StateType.PRESSED),
    ('expanded', Atspi.StateType.EXPANDED),
    ('selected', Atspi.StateType.SELECTED),
)

# Actions every label and text has: noise in a dump
_DUMP_SKIP_ACTIONS = ('clipboard.', 'selection.', 'link.', 'menu.popup')

_TEXT_ROLES = {'label', 'text', 'entry', 'terminal', 'password text'}


def dump_tree(root, max_nodes=5000):
    """A readable indented dump of root and its descendants: role, name,
    description, interesting states, actions and text."""
    lines = []

    def visit(acc, depth):
        if len(lines) >= max_nodes:
            return
        try:
            line = '  ' * depth + describe(acc)
            desc = acc.get_description()
            if desc:
                line += f' desc={desc!r}'
            s = states(acc)
            flags = []
            for label, state in _DUMP_STATES:
                if state is None:
                    if Atspi.StateType.SENSITIVE not in s:
                        flags.append(label)
                elif state in s:
                    flags.append(label)
            if flags:
                line += ' {' + ','.join(flags) + '}'
            acts = [a for a in action_names(acc) if not a.startswith(_DUMP_SKIP_ACTIONS)]
            if acts:
                line += f' actions={acts}'
            if role_name(acc) in _TEXT_ROLES and acc.get_text_iface() is not None:
                text = get_text(acc)
                if text and text != accessible_name(acc):
                    line += f' text={text[-200:]!r}'
        except GLib.Error as e:
            line = '  ' * depth + f'[error: {e.message}]'
        lines.append(line)
        for child in children(acc):
            visit(child, depth + 1)

    visit(root, 0)
    if len(lines) >= max_nodes:
        lines.append(f'... (stopped after {max_nodes} nodes)')
    return '\n'.join(lines) + '\n'


def dump_desktop():
    desktop = Atspi.get_desktop(0)
    out = ['(the app is not on the accessibility bus; applications there:)']
    for app in children(desktop):
        try:
            pid = app.get_process_id()
        except GLib.Error:
            pid = '?'
        out.append(f'application {app.get_name()!r} pid {pid}')
    return '\n'.join(out) + '\n'


def process_table():
    """pid -> (ppid, cmdline) of every process this user can see."""
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
        table[int(entry)] = (int(stat[stat.rfind(')') + 2:].split()[1]), cmdline)
    return table


def descendants(pid, table=None):
    """pid -> cmdline of every process below pid."""
    table = process_table() if table is None else table
    found = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, cmdline) in table.items():
            if ppid == parent and child not in found:
                found[child] = cmdline
                todo.append(child)
    return found


def host_commands():
    """pid -> cmdline of the host commands that flatpak-spawn --host runs
    for an app of this session: the children of this user's
    flatpak-session-helper (one per session bus; an e2e run has its own)."""
    table = process_table()
    found = {}
    for pid, (_ppid, cmdline) in table.items():
        if cmdline.split(' ', 1)[0].endswith('/flatpak-session-helper'):
            try:
                if os.stat(f'/proc/{pid}').st_uid != os.getuid():
                    continue
            except OSError:
                continue
            found.update(descendants(pid, table))
    return found


def check_host_commands_ended(timeout=5.0):
    """In the Flatpak and the sandbox, nothing the app ran on the host may
    outlive it: the host commands must be gone within timeout of its exit.
    Leftovers are killed after the check, so the next test starts clean."""
    deadline = time.monotonic() + timeout
    left = host_commands()
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = host_commands()
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    check(not left, f'host commands of the app outlived it by {timeout:g} s: '
                    + '; '.join(f'{pid} {cmd}' for pid, cmd in left.items()))


def diagnose(reason):
    """Saves what helps to understand a failure: a screenshot and the AT-SPI
    tree of every app started by the test (run-e2e prints the logs)."""
    global _diagnosed
    if _diagnosed:
        return
    _diagnosed = True
    log(f'collecting diagnostics: {reason}')
    try:
        screenshot('failure')
    except Failure as e:
        log(str(e))
    for app in _apps:
        try:
            tree = app.dump()
        except Exception as e:  # the tree is best effort
            tree = f'(cannot dump the AT-SPI tree: {e})\n'
        path = artifact(f'atspi-tree-{app.pid}.txt')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(tree)
        print(f'--- AT-SPI tree of the app (pid {app.pid}), saved as {shown(path)} ---\n{tree}',
              file=sys.stderr, flush=True)


# The app

class App:
    """The app under test, started as a subprocess of the test.

    Use as a context manager: entering starts the app and waits for its
    accessibility tree; leaving closes it (and on an exception first saves
    diagnostics).  stdout and stderr go to <artifacts>/<log_name>.
    """

    def __init__(self, args=(), env=None, log_name='app.log', timeout=30.0):
        self.args = list(args)
        self.env = dict(env or {})
        self.log_path = artifact(log_name)
        self.timeout = timeout
        self.proc = None
        self.accessible = None

    @property
    def pid(self):
        """The process that was started: `flatpak run` or the sandbox's
        bwrap in those modes, whose children run the app."""
        return self.proc.pid if self.proc else None

    @property
    def app_pid(self):
        """The app's own process: what a session signals at logout.  In the
        Flatpak and the sandbox it runs inside bwrap, a few levels down."""
        if self.proc is None or not (FLATPAK or SANDBOX):
            return self.pid
        for pid in descendants(self.proc.pid):
            try:
                with open(f'/proc/{pid}/comm', encoding='utf-8') as f:
                    if f.read().strip() == 'kiste':
                        return pid
            except OSError:
                continue
        return None

    def start(self):
        env = dict(os.environ)
        env.update(self.env)
        argv = [KISTE_BIN, *self.args]
        if FLATPAK:
            for var in FLATPAK_DROP:
                env.pop(var, None)
            # files between @@ go through the Documents portal, as the
            # exported launcher's `--file-forwarding … @@ %F @@` sends them
            forwarding = ['--file-forwarding'] if '@@' in self.args else []
            argv = ['flatpak', 'run', *forwarding, FLATPAK_APP, *self.args]
        else:
            check(os.access(KISTE_BIN, os.X_OK), f'app binary not found or not executable: {KISTE_BIN}')
        if SANDBOX:
            # the build under test and the artifacts folder, read-only
            binds = {os.path.dirname(os.path.dirname(os.path.abspath(KISTE_BIN)))}
            if env.get('GSETTINGS_SCHEMA_DIR'):
                binds.add(env['GSETTINGS_SCHEMA_DIR'])
            env['KISTE_SANDBOX_RO_BIND'] = ' '.join(sorted(binds))
            env['KISTE_SANDBOX_PASS'] = ' '.join(SANDBOX_PASS + tuple(self.env))
            argv = [SANDBOX_SCRIPT, *argv]
        log(f'starting {shlex.join(argv)} (output in {shown(self.log_path)})')
        with open(self.log_path, 'ab') as logf:
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=logf, stderr=subprocess.STDOUT, env=env)
        _apps.append(self)
        self.accessible = wait_until(self._lookup, self.timeout,
                                     f'the app (pid {self.pid}) on the accessibility bus')
        try:
            self.accessible.set_cache_mask(Atspi.Cache.NONE)
        except (AttributeError, GLib.Error):
            pass
        log(f'app registered on the accessibility bus as {self.accessible.get_name()!r}')
        return self

    def _lookup(self):
        if self.proc.poll() is not None:
            raise Failure(f'the app exited with code {self.proc.returncode} during startup '
                          f'(its output is in {shown(self.log_path)})')
        by_name = None
        for acc in children(Atspi.get_desktop(0)):
            try:
                if acc.get_process_id() == self.proc.pid:
                    return acc
                if acc.get_name() in APP_NAMES:
                    by_name = acc
            except GLib.Error:
                continue
        # A launcher script would register under a child's pid
        return by_name

    def window(self, name='Kiste', timeout=None):
        """The app's top-level window (role frame) with that accessible name,
        once it is showing."""
        timeout = self.timeout if timeout is None else timeout

        def probe():
            for acc in children(self.accessible):
                if matches(acc, ('frame', 'window', 'dialog'), name) and is_showing(acc):
                    return acc
            return None
        return wait_until(probe, timeout, f'a showing window named {name!r}')

    def windows(self):
        return children(self.accessible) if self.accessible else []

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def close(self, timeout=15.0):
        """Closes every window through AT-SPI (as the close button does) and
        returns the app's exit code.  Falls back to SIGTERM, then SIGKILL."""
        if not self.running():
            return self.proc.returncode if self.proc else None
        for win in self.windows():
            try:
                if 'window.close' in action_names(win):
                    do_action(win, 'window.close')
                else:
                    click(find(win, 'button', 'Close', timeout=2))
            except (Failure, GLib.Error) as e:
                log(f'cannot close {describe(win)} through AT-SPI: {e}')
        try:
            code = self.proc.wait(timeout)
            log(f'app exited with code {code}')
            return code
        except subprocess.TimeoutExpired:
            log(f'app still running {timeout:g} s after its windows were closed; terminating it')
            self.terminate()
            raise Failure(f'the app did not exit within {timeout:g} s after closing its windows')

    def terminate(self, timeout=5.0):
        """SIGTERM to the app, as a session sends at logout, then SIGKILL.
        In the Flatpak the signal goes to the app inside the sandbox:
        ending `flatpak run` would leave the sandbox and the app running."""
        if not self.running():
            return self.proc.returncode if self.proc else None
        target = self.app_pid
        try:
            os.kill(target or self.proc.pid, signal.SIGTERM)
        except OSError:
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            if FLATPAK:
                subprocess.run(['flatpak', 'kill', FLATPAK_APP], capture_output=True, timeout=30)
            self.proc.kill()
            return self.proc.wait()

    def dump(self):
        if self.accessible is None:
            return dump_desktop()
        return dump_tree(self.accessible)

    def log_tail(self, lines=60):
        try:
            with open(self.log_path, encoding='utf-8', errors='replace') as f:
                return ''.join(f.readlines()[-lines:])
        except OSError as e:
            return f'({e})\n'

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            if self.proc is not None:
                diagnose('the app did not come up')
                self.terminate()
            raise

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and not issubclass(exc_type, _Interrupted):
            diagnose(f'{exc_type.__name__} while the app was running')
        self.terminate()
        return False


# Mouse

def screen_extents(acc):
    """(x, y, width, height) of acc on the screen.

    GTK 4 reports every position relative to the accessible parent, and
    the top-level window at minus its shadow width; without a window
    manager (our Xvfb) the window's surface sits at the screen's origin.
    """
    rect = Atspi.Component.get_extents(acc, Atspi.CoordType.SCREEN)
    if rect.x or rect.y:
        return rect.x, rect.y, rect.width, rect.height
    x = y = 0
    node = acc
    while node is not None and role_name(node) not in ('frame', 'window', 'dialog', 'alert'):
        if node.get_component_iface() is not None:
            pos = Atspi.Component.get_extents(node, Atspi.CoordType.PARENT)
            x, y = x + pos.x, y + pos.y
        node = node.get_parent()
    if node is not None:
        top = Atspi.Component.get_extents(node, Atspi.CoordType.PARENT)
        x, y = x - min(top.x, 0), y - min(top.y, 0)
    return x, y, rect.width, rect.height


def click_at(acc, button=1):
    """Clicks the middle of acc with the real (XTest) pointer, for what
    AT-SPI actions cannot do (move the keyboard focus to a list row)."""
    check(acc.get_component_iface() is not None, f'{describe(acc)} has no position to click')
    x, y, width, height = screen_extents(acc)
    check(width > 0 and height > 0, f'{describe(acc)} has no size on screen')
    x, y = x + width // 2, y + height // 2
    log(f'mouse click at {x},{y} on {describe(acc)}')
    Atspi.generate_mouse_event(x, y, f'b{button}c')
    pump()


def _scroll_pane(acc):
    node = acc.get_parent()
    while node is not None and role_name(node) not in ('scroll pane', 'frame', 'window'):
        node = node.get_parent()
    return node if node is not None and role_name(node) == 'scroll pane' else None


def scroll_into_view(acc, max_steps=40):
    """Scrolls the scrolled window around acc with the mouse wheel, as
    people do, until acc shows wholly (GTK does not implement AT-SPI's
    ScrollTo).  Returns whether it does."""
    pane = _scroll_pane(acc)
    if pane is None:
        return True
    for _ in range(max_steps):
        pump()
        _, y, _, height = screen_extents(acc)
        pane_x, pane_y, pane_width, pane_height = screen_extents(pane)
        if y >= pane_y and y + height <= pane_y + pane_height:
            return True
        # X buttons 4 and 5 are the wheel turned up and down
        button = 5 if y + height > pane_y + pane_height else 4
        Atspi.generate_mouse_event(pane_x + pane_width // 2, pane_y + pane_height // 2,
                                   f'b{button}c')
        settle(0.1)
    log(f'could not scroll {describe(acc)} into view')
    return False


def park_pointer():
    """Moves the pointer to the screen's bottom right corner, off the
    app's window, so that no hover highlight shows in a screenshot."""
    screen = Atspi.get_desktop(0)
    try:
        rect = Atspi.Component.get_extents(screen, Atspi.CoordType.SCREEN)
        x, y = max(rect.width - 1, 0), max(rect.height - 1, 0)
    except (AttributeError, GLib.Error):
        x, y = 1279, 799
    Atspi.generate_mouse_event(x, y, 'abs')
    pump()


# Boxes in the main window

BOX_LIST = 'Boxes'


def box_list(win, timeout=10.0):
    """The list of boxes (role list, accessible name "Boxes") once it shows."""
    return find(win, 'list', BOX_LIST, showing=True, timeout=timeout)


# What a row names after the box's engine: the tool of a toolbox among
# distroboxes ("Toolbx" in every language)
ROW_TOOLS = ('Toolbx',)


def parse_row_label(label):
    """Splits a box row's accessible label into (NAME, STATE): "NAME, STATE",
    "NAME, ENGINE, STATE" once boxes of two engines are listed, "NAME, TOOL,
    STATE" for a toolbox among distroboxes, "NAME, ENGINE, TOOL, STATE" with
    both; box names never contain ", "."""
    parts = (label or '').split(', ')
    if len(parts) < 2:
        return (label or '', '')
    return (parts[0], parts[-1])


def row_engine(row):
    """The engine a box row names ("Docker", "Podman"), or None."""
    parts = (row.get_name() or '').split(', ')
    if len(parts) in (3, 4) and parts[1] not in ROW_TOOLS:
        return parts[1]
    return None


def row_tool(row):
    """The tool a box row names ("Toolbx"), or None."""
    parts = (row.get_name() or '').split(', ')
    if len(parts) in (3, 4) and parts[-2] in ROW_TOOLS:
        return parts[-2]
    return None


def box_rows(lst):
    """{name: (state, row)} for the rows of the box list right now."""
    rows = {}
    for acc in children(lst):
        try:
            if role_name(acc) != 'list item':
                continue
            name, state = parse_row_label(acc.get_name())
        except GLib.Error:
            continue
        rows[name] = (state, acc)
    return rows


def find_box_row(lst, name, state=None, timeout=10.0, interval=0.1):
    """The row of box name, waiting until it is there (and, with state
    given, until its accessible label says that state)."""
    def probe():
        found = box_rows(lst).get(name)
        if found is None or (state is not None and found[0] != state):
            return None
        return found[1]
    try:
        return wait_until(probe, timeout,
                          f'box {name!r} in the list' + (f' as {state!r}' if state else ''),
                          interval)
    except Failure as e:
        shown_rows = ', '.join(f'{n} ({s})' for n, (s, _) in sorted(box_rows(lst).items()))
        raise Failure(f'{e}; the list shows: {shown_rows or "nothing"}') from None


def wait_box_row_gone(lst, name, timeout=10.0, interval=0.1):
    wait_until(lambda: name not in box_rows(lst), timeout,
               f'box {name!r} to leave the list', interval)


def row_texts(row):
    """The texts of the labels in a row, in order (name, image, state...)."""
    return [get_text(acc) for acc in walk(row, max_nodes=50) if role_name(acc) == 'label']


def find_row(root, title, showing=True, timeout=10.0):
    """A list row (an AdwActionRow...) by its title, its accessible name."""
    return find(root, 'list item', title, showing=showing, timeout=timeout)


def wait_row_text(root, title, expected, timeout=10.0):
    """Waits until the row titled title under root shows a label reading
    expected (its subtitle, say) and returns the row.  On a timeout the
    message says what the row showed instead."""
    def probe():
        for row in find_all(root, 'list item', title, showing=True):
            if expected in row_texts(row):
                return row
        return None
    try:
        return wait_until(probe, timeout, f'the row {title!r} to read {expected!r}')
    except Failure as e:
        seen = [row_texts(row) for row in find_all(root, 'list item', title, showing=True)]
        raise Failure(f'{e}; the rows titled {title!r} show {seen or "nothing"}') from None


def select_box(lst, name, timeout=10.0):
    """Selects the row of box name the way a screen reader would (AT-SPI
    Selection), falling back to a mouse click; returns the row."""
    row = find_box_row(lst, name, timeout=timeout)
    if not has_state(row, Atspi.StateType.SELECTED):
        try:
            index = row.get_index_in_parent()
        except GLib.Error:
            index = -1
        log(f'select {describe(row)}')
        selected = False
        if index >= 0 and lst.get_selection_iface() is not None:
            try:
                selected = Atspi.Selection.select_child(lst, index)
            except GLib.Error as e:
                log(f'AT-SPI selection failed: {e.message}')
        if not selected:
            click_at(row)
    wait_until(lambda: has_state(row, Atspi.StateType.SELECTED), 5.0,
               f'box {name!r} to be selected')
    return row


# Dialogs and menus

def find_alert(root, heading=None, timeout=10.0):
    """A showing AdwAlertDialog (role alert) or other dialog, by heading."""
    return find(root, ('alert', 'dialog'), heading, showing=True, timeout=timeout)


def respond(dialog, label, timeout=5.0):
    """Clicks the response button named label in dialog and waits for the
    dialog to go away."""
    what = describe(dialog)
    click(find(dialog, 'button', label, showing=True, timeout=timeout))
    wait_until(lambda: is_gone(dialog), timeout, f'{what} to close after {label!r}')


def is_gone(acc):
    """Whether acc no longer shows.  GTK may leave a hidden widget's
    "showing" state stale, so being dropped by its parent counts too."""
    try:
        if not is_showing(acc):
            return True
        parent = acc.get_parent()
        return parent is None or acc.get_index_in_parent() < 0 or acc not in children(parent)
    except GLib.Error:
        return True


def wait_gone(acc, timeout=10.0, what=None):
    """Waits until acc (a dialog, say) no longer shows; see is_gone()."""
    what = what or describe(acc)
    wait_until(lambda: is_gone(acc), timeout, f'{what} to go away')


MENU_ITEM_ROLES = ('menu item', 'check menu item', 'radio menu item')


def open_menu(app, button, timeout=15.0):
    """Opens the menu of a menu button and returns the showing menu. A menu
    is built when first opened, which takes a while on a loaded machine; a
    click that did not toggle the button (it stays unchecked) is repeated
    once."""
    name = accessible_name(button)
    click(button)
    try:
        return find(app.accessible, 'menu', name or None, showing=True, timeout=timeout / 3)
    except Failure:
        if not is_checked(button):
            log(f'{describe(button)} did not open its menu: clicking it again')
            click(button)
    return find(app.accessible, 'menu', name or None, showing=True, timeout=timeout * 2 / 3)


def choose_menu_item(app, button, item, timeout=15.0):
    """Opens the menu of button and activates its item named item."""
    menu = open_menu(app, button, timeout)
    click(find(menu, MENU_ITEM_ROLES, item, showing=True, timeout=timeout))


def context_menu_item(app, row, item, screenshot_name=None):
    """Right-clicks row and chooses item from its context menu."""
    click_at(row, button=3)
    entry = find(app.accessible, MENU_ITEM_ROLES, item, showing=True, timeout=10)
    settle(0.3)
    if screenshot_name:
        screenshot(screenshot_name)
    click(entry)


# Accessibility audits

CONTROL_ROLES = ('button', 'toggle button', *MENU_ITEM_ROLES)


def controls(root, roles=CONTROL_ROLES):
    """The showing controls under root as (path, accessible name) pairs,
    where path names the control's labelled ancestors (for messages)."""
    found = []

    def visit(acc, path):
        for child in children(acc):
            try:
                label = accessible_name(child)
                role = role_name(child)
            except GLib.Error:
                continue
            if not is_showing(child):
                continue
            if _matches_role(child, roles):
                found.append((' > '.join(path + [f'[{role}] {label!r}']), label))
            visit(child, path + [f'[{role}] {label!r}'] if label else path)

    visit(root, [describe(root)])
    return found


def unnamed_controls(root, roles=CONTROL_ROLES):
    """Paths of the showing controls under root without an accessible name."""
    return [path for path, label in controls(root, roles) if not label.strip()]


# Programs on PATH

@contextlib.contextmanager
def program_dir(exclude=(), sources=('/usr/bin', '/bin')):
    """A temporary directory of symlinks to every program in sources except
    those matching the shell patterns in exclude, to run the app with a
    PATH that lacks some tool.  Yields the directory; add_programs() puts
    programs back."""
    path = tempfile.mkdtemp(prefix='kiste-e2e-path.')
    try:
        os.chmod(path, 0o755)
        add_programs(path, '*', sources, exclude)
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def add_programs(path, pattern, sources=('/usr/bin', '/bin'), exclude=()):
    """Symlinks the programs in sources matching pattern into path (the
    first source wins); returns their names."""
    added = []
    for source in sources:
        try:
            names = sorted(os.listdir(source))
        except OSError:
            continue
        for name in names:
            if not fnmatch.fnmatchcase(name, pattern):
                continue
            if any(fnmatch.fnmatchcase(name, e) for e in exclude):
                continue
            link = os.path.join(path, name)
            if os.path.lexists(link):
                continue
            os.symlink(os.path.join(source, name), link)
            added.append(name)
    return added


# Entry point

def _quiet_dbind(domain, level, message, data):
    if 'GetItems' not in message:
        print(f'({domain}) {message}', file=sys.stderr, flush=True)


def _on_signal(signum, frame):
    raise _Interrupted(f'signal {signum}')


def run(main):
    """Runs a test's main function and exits: 0 passed, 1 failed, 77 skipped."""
    # libatspi warns once per app that GTK has no AT-SPI cache object: noise
    GLib.log_set_handler('dbind', GLib.LogLevelFlags.LEVEL_WARNING, _quiet_dbind, None)
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGHUP, _on_signal)
    Atspi.init()
    log(f'test {TEST_NAME}: app {"flatpak run " + FLATPAK_APP if FLATPAK else KISTE_BIN}')
    try:
        main()
    except Skip as e:
        log(f'SKIP: {e}')
        sys.exit(EXIT_SKIP)
    except Failure as e:
        diagnose(str(e).splitlines()[0])
        log(f'FAIL: {e}')
        sys.exit(1)
    except (KeyboardInterrupt, _Interrupted) as e:
        log(f'FAIL: interrupted ({e or "keyboard"})')
        sys.exit(1)
    except Exception as e:
        traceback.print_exc()
        diagnose(repr(e))
        log(f'FAIL: {type(e).__name__}: {e}')
        sys.exit(1)
    finally:
        for app in _apps:
            app.terminate()
    if FLATPAK or SANDBOX:
        try:
            check_host_commands_ended()
        except Failure as e:
            log(f'FAIL: {e}')
            sys.exit(1)
    log(f'PASS: {TEST_NAME}')
    sys.exit(0)
