# test_recreate.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Boxes made again and snapshots, on real rootless podman with the
registry on 127.0.0.1:5000 (setup-env starts it; registries.conf lets it
speak plain HTTP).

Image v1 (the ready image with a version file and a small app) is pushed
and pulled, a box is made from it with a home folder of its own, a file is
put there and the app exported with distrobox-export. v2 is pushed: Check
for Updates says so, Update Box… makes the box again: it runs v2, the file
and the exported launcher are still there, the snapshot taken before is
gone. v3 is pushed, found, then made unpullable (its manifest deleted from
the registry): Update Box… fails and leaves the box as it was (the same
container, v2, the file), with no journal left.

Then a file is put inside the box outside its home, Take Snapshot keeps
it, the file is removed, Restore… brings it back, and the home's file is
still there."""

import json
import os
import shutil
import tempfile
import urllib.request

import kiste_e2e as e2e

BOX = 'kiste-e2e-recreate'
REPOSITORY = 'kiste/recreate'
REMOTE = f'localhost:5000/{REPOSITORY}:latest'
LOCAL = 'localhost/kiste-e2e-recreate:{}'
APP = '/usr/share/applications/kiste-e2e-recreate.desktop'
MARKER = '/opt/kiste-e2e-marker'
TIMEOUT = 60.0
LONG = 300.0


def registry_answers():
    try:
        with urllib.request.urlopen('http://127.0.0.1:5000/v2/', timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def build_image(version):
    """The ready image with /etc/kiste-e2e-version and an app's launcher."""
    tag = LOCAL.format(version)
    folder = tempfile.mkdtemp(prefix='kiste-e2e-recreate-')
    builder = f'kiste-e2e-recreate-build-{version}'
    try:
        with open(os.path.join(folder, 'version'), 'w', encoding='utf-8') as f:
            f.write(f'{version}\n')
        with open(os.path.join(folder, 'app.desktop'), 'w', encoding='utf-8') as f:
            f.write('[Desktop Entry]\nType=Application\nName=Kiste Recreate Test\n'
                    'Exec=/usr/bin/true\nIcon=utilities-terminal\n')
        e2e.run_user(['podman', 'rm', '--force', builder], check=False)
        e2e.run_user(['podman', 'create', '--name', builder, e2e.IMAGE, 'true'])
        e2e.run_user(['podman', 'cp', os.path.join(folder, 'version'), f'{builder}:/etc/kiste-e2e-version'])
        e2e.run_user(['podman', 'cp', os.path.join(folder, 'app.desktop'), f'{builder}:{APP}'])
        e2e.run_user(['podman', 'commit', builder, tag])
    finally:
        e2e.run_user(['podman', 'rm', '--force', builder], check=False)
        shutil.rmtree(folder, ignore_errors=True)
    return tag


def push(version):
    e2e.run_user(['podman', 'push', '--tls-verify=false', LOCAL.format(version), f'docker://{REMOTE}'])


def remote_digest():
    return e2e.run_user(['skopeo', 'inspect', '--format', '{{.Digest}}', f'docker://{REMOTE}']).stdout.strip()


def delete_remote_manifest(digest):
    """The registry forgets the tag's image: a pull of it fails."""
    request = urllib.request.Request(f'http://127.0.0.1:5000/v2/{REPOSITORY}/manifests/{digest}',
                                     method='DELETE')
    with urllib.request.urlopen(request, timeout=10) as answer:
        e2e.check(answer.status == 202, f'the registry answered {answer.status} to the deletion')


def image_id(ref):
    return e2e.run_user(['podman', 'image', 'inspect', '--format', '{{.Id}}', ref]).stdout.strip()


def box_version():
    """The version file of the box's image (the box may be stopped)."""
    image = e2e.inspect_box(BOX)['Image']
    return image, e2e.run_user(['podman', 'run', '--rm', '--network', 'none', '--entrypoint', 'cat', image,
                                '/etc/kiste-e2e-version']).stdout.strip()


def box_id():
    """The box's container id, or None while there is none (it may go
    between two commands while Kiste makes it again)."""
    proc = e2e.run_user(['podman', 'container', 'inspect', '--format', '{{.Id}}', BOX], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def snapshots():
    proc = e2e.run_user(['podman', 'images', '--filter', f'label=io.github.kiste.snapshot.box={BOX}',
                         '--format', 'json'])
    return [name for image in json.loads(proc.stdout or '[]') for name in image.get('Names') or []]


def journal_path():
    state = os.environ.get('XDG_STATE_HOME') or os.path.expanduser('~/.local/state')
    return os.path.join(state, 'kiste', 'journal', f'podman-{BOX}.json')


def check_for_updates(app, win):
    e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'Main Menu', showing=True),
                         'Check for Updates')


def row_says_newer(lst):
    return 'Newer image available' in e2e.row_texts(e2e.find_box_row(lst, BOX))


def update_box(app, win, screenshot=None):
    e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'More Actions', showing=True), 'Update Box…')
    dialog = e2e.find_alert(app.accessible, f'Update “{BOX}”?')
    if screenshot:
        e2e.settle()
        e2e.screenshot(screenshot)
    e2e.respond(dialog, 'Update')


def idle(win):
    """No task on the box: the page's Take Snapshot button is usable again.
    A box made again is a new box in the list: it is selected again."""
    buttons = e2e.find_all(win, 'button', 'Take Snapshot', showing=True)
    if not buttons:
        # while the box is away the list may be empty, or not there
        if any(e2e.find_all(win, 'list item', lambda name: (name or '').startswith(f'{BOX},'), showing=True)):
            e2e.select_box(e2e.box_list(win), BOX)
        return False
    return e2e.has_state(buttons[0], e2e.Atspi.StateType.SENSITIVE)


def main():
    if shutil.which('skopeo') is None:
        e2e.skip('skopeo is not installed (build-aux/install-deps installs it)')
    if not registry_answers():
        e2e.skip('no registry answers on 127.0.0.1:5000 (setup-env starts docker-registry)')
    try:
        run_test()
    finally:
        if e2e.box_exists(BOX):
            e2e.remove_box(BOX)
        names = snapshots()
        if names:
            e2e.run_user(['podman', 'rmi', '--force', *names], check=False)
        e2e.run_user(['podman', 'rmi', '--force', REMOTE, *(LOCAL.format(v) for v in ('v1', 'v2', 'v3'))],
                     check=False)


def run_test():
    home_dir = os.path.join(os.path.expanduser('~'), 'kiste-e2e-recreate-home')
    e2e.remove_path(home_dir)
    os.makedirs(home_dir)
    for version in ('v1', 'v2', 'v3'):
        build_image(version)
    push('v1')
    e2e.run_user(['podman', 'pull', REMOTE])

    launcher = os.path.join(os.path.expanduser('~'), '.local', 'share', 'applications',
                            f'{BOX}-kiste-e2e-recreate.desktop')
    with e2e.box(BOX, image=REMOTE, extra_args=('--home', home_dir)):
        with open(os.path.join(home_dir, 'keep.txt'), 'w', encoding='utf-8') as f:
            f.write('mine\n')
        e2e.run_user(['distrobox', 'enter', '--name', BOX, '--no-tty', '--',
                      'distrobox-export', '--app', APP], timeout=LONG)
        e2e.check(os.path.exists(launcher), f'distrobox-export wrote no launcher at {launcher}')
        with open(launcher, encoding='utf-8') as f:
            launcher_text = f.read()
        e2e.run_user(['podman', 'stop', '--time', '2', BOX])
        _, version = box_version()
        e2e.check(version == 'v1', f'the box runs {version}, expected v1')
        push('v2')

        with e2e.App() as app:
            win = app.window('Kiste')
            lst = e2e.box_list(win)
            e2e.select_box(lst, BOX)

            # the update, found and made
            check_for_updates(app, win)
            e2e.wait_until(lambda: row_says_newer(lst), TIMEOUT, 'the row to say "Newer image available"')
            old_id = box_id()
            update_box(app, win, 'recreate-confirm')
            e2e.wait_until(lambda: box_id() not in (None, old_id) and idle(win), LONG,
                           'the box to be made again')
            image, version = box_version()
            e2e.check(version == 'v2', f'after the update the box runs {version}, expected v2')
            e2e.check(image == image_id(LOCAL.format('v2')), 'the box is not made from image v2')
            with open(os.path.join(home_dir, 'keep.txt'), encoding='utf-8') as f:
                e2e.check(f.read() == 'mine\n', 'the file in the box\'s home changed')
            e2e.check(os.path.exists(launcher), 'the exported launcher is gone')
            with open(launcher, encoding='utf-8') as f:
                e2e.check(f.read() == launcher_text, 'the exported launcher changed')
            inspect = e2e.inspect_box(BOX)
            e2e.check(f'--home' in inspect['Config']['CreateCommand'] and
                      home_dir in inspect['Config']['CreateCommand'],
                      'the box made again lost its home folder')
            e2e.check(not snapshots(), f'the snapshot taken before is still there: {snapshots()}')
            e2e.check(not os.path.exists(journal_path()), 'the journal is still there')
            e2e.settle()
            e2e.screenshot('recreate-updated')

            # an update that cannot be downloaded changes nothing
            push('v3')
            digest_v3 = remote_digest()
            check_for_updates(app, win)
            e2e.wait_until(lambda: row_says_newer(lst), TIMEOUT, 'the row to say "Newer image available" for v3')
            delete_remote_manifest(digest_v3)
            kept_id = box_id()
            update_box(app, win)
            e2e.wait_until(lambda: idle(win), LONG, 'the failed update to end')
            e2e.settle(2)
            e2e.check(box_id() == kept_id, 'the failed update replaced the box')
            _, version = box_version()
            e2e.check(version == 'v2', f'after the failed update the box runs {version}, expected v2')
            e2e.check(not snapshots(), f'the failed update left snapshots: {snapshots()}')
            e2e.check(not os.path.exists(journal_path()), 'the failed update left its journal')
            e2e.screenshot('recreate-failed')

            # a snapshot keeps what is outside the home
            e2e.run_user(['podman', 'start', BOX])
            e2e.run_user(['podman', 'exec', '--user', 'root', BOX, 'sh', '-c', f'echo kept > {MARKER}'])
            e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'More Actions', showing=True),
                                 'Take Snapshot')
            e2e.wait_until(lambda: len(snapshots()) == 1 and idle(win), LONG, 'the snapshot to be taken')
            e2e.check(e2e.inspect_box(BOX)['State']['Running'], 'the box no longer runs after the snapshot')
            e2e.run_user(['podman', 'exec', '--user', 'root', BOX, 'rm', '-f', MARKER])
            snapshot = snapshots()[0]

            restore = e2e.find(win, 'button', 'Restore…', showing=True, timeout=TIMEOUT)
            e2e.scroll_into_view(restore)
            e2e.settle()
            e2e.screenshot('snapshots')
            before = box_id()
            e2e.click(restore)
            dialog = e2e.find_alert(app.accessible, f'Restore “{BOX}”?')
            e2e.respond(dialog, 'Restore')
            e2e.wait_until(lambda: box_id() not in (None, before) and idle(win), LONG,
                           'the box to be restored')
            e2e.check(e2e.inspect_box(BOX)['ImageName'] == snapshot,
                      f'the restored box is not made from {snapshot}')
            e2e.run_user(['podman', 'start', BOX])
            proc = e2e.run_user(['podman', 'exec', '--user', 'root', BOX, 'cat', MARKER], check=False)
            e2e.check(proc.returncode == 0 and proc.stdout.strip() == 'kept',
                      f'the file outside the home is not back in the box: {proc.stderr.strip()}')
            # the snapshot the box is made from stays, the one taken before the restore goes
            e2e.check(snapshots() == [snapshot], f'snapshots after the restore: {snapshots()}')
            with open(os.path.join(home_dir, 'keep.txt'), encoding='utf-8') as f:
                e2e.check(f.read() == 'mine\n', 'the file in the box\'s home changed')
            e2e.check(not os.path.exists(journal_path()), 'the restore left its journal')
            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code}')

    e2e.remove_path(home_dir)
    if os.path.exists(launcher):
        os.unlink(launcher)


e2e.run(main)
