# test_create_dialog.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A box created through the New Box dialog really is what the form said:
with a separate home folder whose path contains spaces and two isolation
switches on, `podman inspect` shows private IPC and process namespaces,
the distrobox label, the home in HOME and as a bind mount, and a box that
finished its first start; the window lists and selects the new box, and
its page tells the truth about what the box shares with the host."""

import os
import time

import kiste_e2e as e2e
from gi.repository import Atspi  # after kiste_e2e, which picks its version

NAME = 'kiste-e2e-create'
HOST_HOME = os.path.expanduser('~')
# Spaces in both components: distrobox builds a shell string from the path
HOME_PARENT = os.path.join(HOST_HOME, 'Kiste Boxes')
BOX_HOME = os.path.join(HOME_PARENT, 'e2e create')

# Switches of the dialog's Isolation group (their accessible names)
TURNED_ON = ('Shared Memory', 'Processes')
LEFT_OFF = ('Isolate Everything', 'Devices', 'User Groups', 'Network')

# The create and the first start of the ready image take seconds; pulling
# nothing and setting up nothing, three minutes is generous
CREATE_TIMEOUT = 180.0

SHARED = 'Shared with the host'
SEPARATE = 'Separate from the host'

timings = {}


def find_text(root, name, timeout=10.0):
    return e2e.find(root, 'text', name, showing=True, timeout=timeout)


def fill_form(dialog):
    create = e2e.find(dialog, 'button', 'Create', showing=True)
    e2e.check(not e2e.has_state(create, Atspi.StateType.SENSITIVE),
              'Create is clickable in an empty form')

    # The image suggests a name: people clear it and type their own
    name = find_text(dialog, 'Name')
    e2e.set_text(find_text(dialog, 'Image'), e2e.IMAGE)
    suggested = e2e.wait_until(lambda: e2e.get_text(name), 5.0,
                               f'a name suggested for {e2e.IMAGE}')
    e2e.log(f'suggested name: {suggested!r}')
    e2e.check(suggested == 'kiste-debian-ready',
              f'the name suggested for {e2e.IMAGE} is {suggested!r}, expected "kiste-debian-ready"')
    e2e.set_text(name, '')
    e2e.set_text(name, NAME)

    e2e.toggle(e2e.find_switch(dialog, 'Separate Home Folder'), True)
    folder = find_text(dialog, 'Folder')
    suggested_home = os.path.join(HOST_HOME, 'Boxes', NAME)
    e2e.wait_until(lambda: e2e.get_text(folder) == suggested_home, 5.0,
                   f'the folder to suggest {suggested_home!r}')
    e2e.set_text(folder, BOX_HOME)

    for switch in TURNED_ON:
        e2e.toggle(e2e.find_switch(dialog, switch), True)
    for switch in LEFT_OFF:
        e2e.check(not e2e.is_checked(e2e.find_switch(dialog, switch)),
                  f'the switch {switch!r} turned on by itself')

    e2e.wait_until(lambda: e2e.has_state(create, Atspi.StateType.SENSITIVE), 10.0,
                   'Create to become clickable')
    e2e.check(e2e.get_text(name) == NAME and e2e.get_text(folder) == BOX_HOME,
              f'the form lost what was typed: name {e2e.get_text(name)!r}, '
              f'folder {e2e.get_text(folder)!r}')
    return create


def failure_text(dialog):
    """What a failed or stopped creation says, or None while all is well."""
    labels = [e2e.get_text(a) for a in e2e.find_all(dialog, 'label', showing=True)]
    for i, text in enumerate(labels):
        if text.startswith('Could Not Create') or text == 'Creation Stopped':
            return ' / '.join(t for t in labels[i:i + 4] if t)
    return None


def output_of(dialog):
    try:
        return e2e.get_text(e2e.find(dialog, 'text', 'Output', timeout=1))
    except e2e.Failure:
        return '(no output shown)'


def wait_created(dialog):
    """Waits from the click on Create until the dialog closes (it does once
    the box finished its first start), with a screenshot on the way."""
    started = time.monotonic()
    title = f'Creating “{NAME}”'
    try:
        e2e.find(dialog, 'label', title, showing=True, timeout=10)
        e2e.find(dialog, 'list', 'Steps', showing=True, timeout=1)
        e2e.screenshot('create-progress')
    except e2e.Failure:
        if not e2e.is_gone(dialog):
            failed = failure_text(dialog)
            if failed:
                raise e2e.Failure(f'the dialog says: {failed}\n--- its output ---\n'
                                  f'{output_of(dialog)}') from None
            raise
        e2e.log('NOTE: the dialog closed before its progress view could be captured')

    def probe():
        if e2e.is_gone(dialog):
            return True
        failed = failure_text(dialog)
        if failed:
            e2e.screenshot('create-failed')
            raise e2e.Failure(f'the dialog says: {failed}\n--- its output ---\n{output_of(dialog)}')
        return False
    e2e.wait_until(probe, CREATE_TIMEOUT, 'the New Box dialog to finish and close', interval=0.5)
    timings['create and first start'] = time.monotonic() - started
    e2e.log(f'the dialog closed {timings["create and first start"]:.1f} s after Create')


def check_container():
    info = e2e.inspect_box(NAME)
    host = info.get('HostConfig') or {}
    config = info.get('Config') or {}
    labels = config.get('Labels') or {}
    env = config.get('Env') or []
    mounts = info.get('Mounts') or []

    e2e.log(f'IpcMode {host.get("IpcMode")!r}, PidMode {host.get("PidMode")!r}, '
            f'NetworkMode {host.get("NetworkMode")!r}')
    for key in ('IpcMode', 'PidMode'):
        e2e.check(host.get(key) and host[key] != 'host',
                  f'{key} is {host.get(key)!r}: the switch did not keep it apart')
    e2e.check(host.get('NetworkMode') == 'host',
              f'NetworkMode is {host.get("NetworkMode")!r}, but the Network switch was off')
    e2e.check(labels.get('manager') == 'distrobox',
              f'the label manager=distrobox is missing: {labels}')
    e2e.check(f'HOME={BOX_HOME}' in env,
              f'HOME={BOX_HOME} is not in the environment: '
              f'{[e for e in env if e.startswith(("HOME=", "DISTROBOX_HOST_HOME="))]}')
    e2e.check(f'DISTROBOX_HOST_HOME={HOST_HOME}' in env,
              f'DISTROBOX_HOST_HOME={HOST_HOME} is not in the environment')
    e2e.check(any(m.get('Source') == BOX_HOME and m.get('Destination') == BOX_HOME for m in mounts),
              f'no bind mount of {BOX_HOME!r}; mounts: '
              f'{[(m.get("Source"), m.get("Destination")) for m in mounts]}')
    # distrobox cannot keep the host home out: the page must say so
    e2e.check(any(m.get('Destination') == HOST_HOME for m in mounts),
              f'the host home {HOST_HOME} is not mounted, unlike what distrobox always does')
    # The path reached distrobox-init as one argument, not split at spaces
    args = info.get('Args') or config.get('Cmd') or []
    e2e.check(any(args[i] == '--home' and args[i + 1] == BOX_HOME for i in range(len(args) - 1)),
              f'the entrypoint did not get "--home {BOX_HOME}" as two arguments: {args}')
    e2e.check(os.path.isdir(BOX_HOME), f'the home folder {BOX_HOME} was not created')

    state = (info.get('State') or {}).get('Status')
    e2e.check(state == 'running', f'the box is {state!r} after the dialog closed, expected running')
    logs = e2e.run_user(['podman', 'logs', NAME])
    e2e.check('container_setup_done' in logs.stdout + logs.stderr,
              'the box is running but its log does not say that the first setup finished')

    # The namespaces themselves, against the network one as the control
    for ns, separate in (('ipc', True), ('pid', True), ('net', False)):
        inside = e2e.run_user(['podman', 'exec', NAME, 'readlink', f'/proc/self/ns/{ns}'])
        inside = inside.stdout.strip()
        outside = os.readlink(f'/proc/self/ns/{ns}')
        e2e.log(f'{ns} namespace: {inside} in the box, {outside} here')
        e2e.check((inside != outside) == separate,
                  f'the box {"shares" if separate else "does not share"} the {ns} namespace '
                  f'({inside} in the box, {outside} outside)')

    # distrobox-init made the user's home in the box the spaced path
    user = os.environ.get('USER') or os.path.basename(HOST_HOME)
    entry = e2e.run_user(['podman', 'exec', NAME, 'getent', 'passwd', user]).stdout.strip()
    e2e.check(entry.split(':')[5:6] == [BOX_HOME],
              f'in the box, {user} has the home {entry.split(":")[5:6]}, expected {BOX_HOME!r}')


def check_page(win):
    boxes = e2e.box_list(win, timeout=30)
    row = e2e.find_box_row(boxes, NAME, 'Running', timeout=30)
    # The window selects the box the dialog created
    e2e.wait_until(lambda: e2e.has_state(row, Atspi.StateType.SELECTED), 10.0,
                   f'the new box {NAME!r} to be selected')
    page = e2e.find(win, 'grouping', NAME, showing=True)

    e2e.wait_row_text(page, 'Home Folder', BOX_HOME, timeout=30)
    for title in ('Shared Memory (IPC)', 'Processes'):
        e2e.wait_row_text(page, title, SEPARATE, timeout=30)
    for title in ('Network', 'Devices and /sys'):
        e2e.wait_row_text(page, title, SHARED, timeout=30)
    # The isolation row of the home folder: the host home is still there
    e2e.wait_row_text(page, 'Home Folder', SHARED, timeout=30)
    sentence = (f'This box has its own home folder at {BOX_HOME}, but your home folder '
                f'{HOST_HOME} is still mounted in it')
    sharing = e2e.find_row(page, sentence, timeout=30)
    e2e.check('Programs in the box can read and change your files' in e2e.row_texts(sharing),
              f'the home sharing row does not warn about the host home: {e2e.row_texts(sharing)}')

    # The whole Isolation group: its last row is the home folder's
    rows = e2e.find_all(page, 'list item', 'Home Folder', showing=True)
    e2e.check(e2e.scroll_into_view(rows[-1]), 'cannot scroll the Isolation group into view')
    e2e.park_pointer()
    e2e.settle(1)
    e2e.screenshot('create-details')


def main():
    parent_existed = os.path.isdir(HOME_PARENT)
    try:
        run_test()
    finally:
        if e2e.box_exists(NAME):
            e2e.run_user(['podman', 'rm', '--force', '--time', '0', NAME], check=False)
        e2e.remove_path(BOX_HOME)
        if not parent_existed and os.path.isdir(HOME_PARENT):
            os.rmdir(HOME_PARENT)
    e2e.check(not e2e.box_exists(NAME), f'the box {NAME} was not removed')


def run_test():
    if e2e.box_exists(NAME):
        e2e.remove_box(NAME)
    e2e.remove_path(BOX_HOME)

    with e2e.App() as app:
        win = app.window('Kiste')
        e2e.click(e2e.find(win, 'button', 'New Box', showing=True, timeout=30))
        dialog = e2e.find_alert(win, 'New Box')
        create = fill_form(dialog)
        e2e.check(e2e.scroll_into_view(e2e.find_switch(dialog, 'Processes')),
                  'cannot scroll the Isolation switches into view')
        e2e.park_pointer()
        e2e.settle(1)
        e2e.screenshot('create-form')

        e2e.click(create)
        wait_created(dialog)
        check_container()
        check_page(win)

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')

    e2e.log('timings: ' + ', '.join(f'{k}: {v:.1f} s' for k, v in timings.items()))


if __name__ == '__main__':
    e2e.run(main)
