# test_recreate_crash.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Kiste killed while it makes a box again, on real rootless podman with
the registry on 127.0.0.1:5000. A box of image v1 with a home folder of its
own and a file in it; v2 pushed; Update Box…, and as soon as the old box is
gone Kiste is killed (SIGKILL, as a crash or a power cut would). The
journal and the snapshot are there. The next start asks about the box
that was not finished; Finish makes it from v2, with its home folder and
the file, and nothing is left: no journal, no snapshot."""

import json
import os
import shutil
import tempfile
import time
import urllib.request

import kiste_e2e as e2e

BOX = 'kiste-e2e-recreate-crash'
REMOTE = 'localhost:5000/kiste/recreate-crash:latest'
LOCAL = 'localhost/kiste-e2e-recreate-crash:{}'
TIMEOUT = 60.0
LONG = 300.0


def registry_answers():
    try:
        with urllib.request.urlopen('http://127.0.0.1:5000/v2/', timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def build_image(version):
    """The ready image with /etc/kiste-e2e-version."""
    tag = LOCAL.format(version)
    folder = tempfile.mkdtemp(prefix='kiste-e2e-recreate-crash-')
    builder = f'kiste-e2e-recreate-crash-build-{version}'
    try:
        with open(os.path.join(folder, 'version'), 'w', encoding='utf-8') as f:
            f.write(f'{version}\n')
        e2e.run_user(['podman', 'rm', '--force', builder], check=False)
        e2e.run_user(['podman', 'create', '--name', builder, e2e.IMAGE, 'true'])
        e2e.run_user(['podman', 'cp', os.path.join(folder, 'version'), f'{builder}:/etc/kiste-e2e-version'])
        e2e.run_user(['podman', 'commit', builder, tag])
    finally:
        e2e.run_user(['podman', 'rm', '--force', builder], check=False)
        shutil.rmtree(folder, ignore_errors=True)


def push(version):
    e2e.run_user(['podman', 'push', '--tls-verify=false', LOCAL.format(version), f'docker://{REMOTE}'])


def box_id():
    proc = e2e.run_user(['podman', 'container', 'inspect', '--format', '{{.Id}}', BOX], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def box_image():
    proc = e2e.run_user(['podman', 'container', 'inspect', '--format', '{{.Image}}', BOX], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def image_id(ref):
    return e2e.run_user(['podman', 'image', 'inspect', '--format', '{{.Id}}', ref]).stdout.strip()


def snapshots():
    proc = e2e.run_user(['podman', 'images', '--filter', f'label=io.github.kiste.snapshot.box={BOX}',
                         '--format', 'json'])
    return [name for image in json.loads(proc.stdout or '[]') for name in image.get('Names') or []]


def journal_path():
    state = os.environ.get('XDG_STATE_HOME') or os.path.expanduser('~/.local/state')
    return os.path.join(state, 'kiste', 'journal', f'podman-{BOX}.json')


def row_says_newer(lst):
    return 'Newer image available' in e2e.row_texts(e2e.find_box_row(lst, BOX))


def main():
    if shutil.which('skopeo') is None:
        e2e.skip('skopeo is not installed (build-aux/install-deps installs it)')
    if not registry_answers():
        e2e.skip('no registry answers on 127.0.0.1:5000 (setup-env starts docker-registry)')
    home_dir = os.path.join(os.path.expanduser('~'), 'kiste-e2e-recreate-crash-home')
    try:
        run_test(home_dir)
    finally:
        if e2e.box_exists(BOX):
            e2e.remove_box(BOX)
        names = snapshots()
        if names:
            e2e.run_user(['podman', 'rmi', '--force', *names], check=False)
        e2e.run_user(['podman', 'rmi', '--force', REMOTE, LOCAL.format('v1'), LOCAL.format('v2')], check=False)
        if os.path.exists(journal_path()):
            os.unlink(journal_path())
        e2e.remove_path(home_dir)


def run_test(home_dir):
    e2e.remove_path(home_dir)
    os.makedirs(home_dir)
    build_image('v1')
    build_image('v2')
    push('v1')
    e2e.run_user(['podman', 'pull', REMOTE])
    if e2e.box_exists(BOX):
        e2e.remove_box(BOX)
    e2e.run_user(['distrobox', 'create', '--yes', '--no-entry', '--image', REMOTE, '--name', BOX,
                  '--home', home_dir])
    with open(os.path.join(home_dir, 'keep.txt'), 'w', encoding='utf-8') as f:
        f.write('mine\n')
    push('v2')
    old_id = box_id()

    # the update, killed half-way
    with e2e.App(log_name='app-killed.log') as app:
        win = app.window('Kiste')
        lst = e2e.box_list(win)
        e2e.select_box(lst, BOX)
        e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'Main Menu', showing=True),
                             'Check for Updates')
        e2e.wait_until(lambda: row_says_newer(lst), TIMEOUT, 'the row to say "Newer image available"')
        e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'More Actions', showing=True), 'Update Box…')
        e2e.respond(e2e.find_alert(app.accessible, f'Update “{BOX}”?'), 'Update')
        deadline = time.monotonic() + LONG
        while box_id() == old_id:
            e2e.check(time.monotonic() < deadline, 'the old box was never removed')
            time.sleep(0.02)
        app.proc.kill()
        app.proc.wait()
        e2e.log(f'killed the app; the box is now {box_id()!r}')

    e2e.check(os.path.exists(journal_path()), 'no journal after the kill')
    e2e.check(len(snapshots()) == 1, f'snapshots after the kill: {snapshots()}')
    with open(os.path.join(home_dir, 'keep.txt'), encoding='utf-8') as f:
        e2e.check(f.read() == 'mine\n', 'the kill changed the file in the box\'s home')

    # the next start asks, and finishes
    with e2e.App(log_name='app-next.log') as app:
        dialog = e2e.find_alert(app.accessible, 'A Box Was Not Finished', timeout=TIMEOUT)
        e2e.settle()
        e2e.screenshot('recreate-crash-question')
        e2e.respond(dialog, 'Finish')
        e2e.wait_until(lambda: box_image() == image_id(LOCAL.format('v2')) and
                       not os.path.exists(journal_path()) and not snapshots(),
                       LONG, 'the box made from v2, the journal and the snapshot gone')
        inspect = e2e.inspect_box(BOX)
        e2e.check(home_dir in inspect['Config']['CreateCommand'], 'the box made again lost its home folder')
        with open(os.path.join(home_dir, 'keep.txt'), encoding='utf-8') as f:
            e2e.check(f.read() == 'mine\n', 'the file in the box\'s home changed')
        e2e.settle()
        e2e.screenshot('recreate-crash-finished')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


e2e.run(main)
