# test_boxfile_docker.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Box files on the real docker daemon. A box made with docker
(`DBX_CONTAINER_MANAGER=docker distrobox create`) with a home folder of its
own gets a file in that home and a file its root writes under /opt, which
only the committed image carries. Save to File… on its page, with its home
folder ticked and the file named in the file chooser, writes a .kistebox;
the committed image is gone from docker afterwards. The box and its home
are removed. The file opened with Kiste shows its preview; Restore In…
puts the home into a new folder and Create Box makes the box again: on
docker, not podman, made of the image docker loaded as
localhost/kiste-saved/BOX:latest, both files back, nothing left in Kiste's
cache."""

import json
import os
import shutil
import tempfile

import kiste_e2e as e2e
import test_boxfile as boxfile  # its helpers; its main does not run on import

BOX = 'kiste-e2e-boxfile-dk'
SAVED_IMAGE = f'localhost/kiste-saved/{BOX}:latest'
NOTE = 'note.txt'
NOTE_TEXT = 'a file in the docker box\'s own home\n'
ROOT_FILE = '/opt/kiste-e2e-written-by-root.txt'
ROOT_TEXT = 'the docker box\'s root wrote this\n'
# docker's first start runs distrobox-init's setup of the user
START_TIMEOUT = 300.0
HOME = os.path.expanduser('~')
# where Restore In… puts the home: a new folder named after the box in the
# home folder, where the chooser starts
RESTORED = os.path.join(HOME, BOX)


def docker(argv, check=True, timeout=300, input=None):
    return e2e.run_user(['docker', *argv], check=check, timeout=timeout, input=input)


def docker_inspect(name, kind='container'):
    proc = docker([kind, 'inspect', name], check=False)
    if proc.returncode != 0:
        return None
    data = json.loads(proc.stdout or '[]')
    return data[0] if data else None


def distrobox_docker(argv, check=True, timeout=START_TIMEOUT):
    return e2e.run_user(['env', 'DBX_CONTAINER_MANAGER=docker', 'distrobox', *argv],
                        check=check, timeout=timeout)


def remove_docker_box():
    if docker_inspect(BOX) is not None:
        distrobox_docker(['rm', '--force', BOX], check=False, timeout=120)
    if docker_inspect(BOX) is not None:
        docker(['rm', '--force', BOX], check=False)


def remove_home(path):
    """A docker box's home, where distrobox-init may have left files of
    the real root: removed by a container of the same image."""
    if not os.path.lexists(path):
        return
    try:
        shutil.rmtree(path)
    except OSError as e:
        e2e.log(f'cannot remove {path} directly ({e}); trying a docker container')
        parent = os.path.dirname(path)
        docker(['run', '--rm', '--volume', f'{parent}:/parent', e2e.IMAGE,
                'rm', '-rf', '--', f'/parent/{os.path.basename(path)}'], check=False)
    e2e.check(not os.path.lexists(path), f'could not remove {path}')


def cleanup(folder=None):
    remove_docker_box()
    if docker_inspect(SAVED_IMAGE, 'image') is not None:
        docker(['rmi', '--force', SAVED_IMAGE], check=False)
    remove_home(RESTORED)
    if folder is not None:
        remove_home(folder)


def main():
    if docker(['info'], check=False, timeout=60).returncode != 0:
        e2e.skip('docker is not installed or its daemon does not answer the test user')
    if docker_inspect(e2e.IMAGE, 'image') is None:
        e2e.skip(f'docker has no {e2e.IMAGE} (setup-env loads it from podman)')
    folder = tempfile.mkdtemp(prefix='kiste-e2e-boxfile-dk.', dir=HOME)
    home = os.path.join(folder, 'box home')
    cleanup()
    try:
        os.makedirs(home)
        with boxfile.portals():
            run_test(folder, home)
    finally:
        cleanup(folder)


def run_test(folder, home):
    distrobox_docker(['create', '--yes', '--no-entry', '--image', e2e.IMAGE, '--name', BOX,
                      '--home', home])
    e2e.check(docker_inspect(BOX) is not None, f'docker has no box {BOX}')
    distrobox_docker(['enter', BOX, '--', 'true'])

    # a file of the user's in the home, one of the box's root under /opt
    with open(os.path.join(home, NOTE), 'w') as f:
        f.write(NOTE_TEXT)
    docker(['exec', '-i', '--user', 'root', BOX, 'sh', '-c', 'cat > "$1"', 'sh', ROOT_FILE],
           input=ROOT_TEXT)

    path = os.path.join(folder, f'{BOX}.kistebox')
    with e2e.App() as app:
        win = app.window('Kiste')
        boxfile.save_to_file(app, win, BOX, path, prefix='boxfile-docker')
        e2e.wait_until(lambda: docker_inspect(SAVED_IMAGE, 'image') is None, 60,
                       f'{SAVED_IMAGE} to be removed from docker')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(not boxfile.cache_leftovers(),
              f'Save left {boxfile.cache_leftovers()} in {boxfile.CACHE}')
    with boxfile.tarfile.open(path) as tar:
        names = tar.getnames()
        index = json.loads(tar.extractfile('index.json').read())
        with boxfile.tarfile.open(fileobj=tar.extractfile('home.tar')) as home_tar:
            home_names = home_tar.getnames()
    e2e.check('image.tar' in names and 'home.tar' in names, f'the box file holds {names}')
    e2e.check(index.get('engine') == 'docker', f'the box file says engine {index.get("engine")!r}')
    e2e.check(f'./{NOTE}' in home_names, f'the saved home holds {home_names}')

    remove_docker_box()
    remove_home(home)
    open_file(path)


def open_file(path):
    """Opened with Kiste: the preview, the home restored in a new folder,
    the box made again on docker."""
    with boxfile.opened(path, 'app-open.log') as (app, win):
        dialog = e2e.find_alert(win, 'Open Box File', timeout=300)
        e2e.wait_until(lambda: boxfile.said(dialog, f'The box “{BOX}”, saved with docker'), 10,
                       'the preview to name the box and docker')
        boxfile.restore_in(dialog)
        e2e.wait_until(lambda: e2e.find_all(dialog, 'label', RESTORED, showing=True), 10,
                       f'the preview to name {RESTORED}')
        e2e.settle()
        e2e.screenshot('boxfile-docker-preview')
        e2e.respond(dialog, 'Create Box')

        # with no other box, the list shows once the box exists: after the
        # image's load and the create, which take longer on a busy machine
        boxes = e2e.box_list(win, timeout=START_TIMEOUT)
        e2e.find_box_row(boxes, BOX, state='Running', timeout=START_TIMEOUT)
        e2e.select_box(boxes, BOX)
        page = e2e.find(win, 'grouping', BOX, showing=True)
        e2e.wait_row_text(page, 'Container Manager', 'Docker')
        e2e.settle()
        e2e.screenshot('boxfile-docker-opened')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')

    info = docker_inspect(BOX)
    e2e.check(info is not None, f'docker has no box {BOX}')
    e2e.check(not e2e.box_exists(BOX), f'{BOX} was made on podman')
    e2e.check(info['State']['Status'] == 'running', f'docker says {info["State"]["Status"]}')
    image = info['Config']['Image']
    e2e.check(image == SAVED_IMAGE, f'{BOX} was made of {image!r}, expected {SAVED_IMAGE}')
    loaded = docker_inspect(SAVED_IMAGE, 'image')
    e2e.check(loaded is not None and SAVED_IMAGE in (loaded.get('RepoTags') or []),
              f'docker has no image tagged {SAVED_IMAGE}: {loaded and loaded.get("RepoTags")}')
    e2e.check(loaded['Id'] == info['Image'], f'{BOX} was not made of the loaded image')
    e2e.check(e2e.run_user(['podman', 'image', 'exists', SAVED_IMAGE], check=False).returncode != 0,
              f'{SAVED_IMAGE} was loaded into podman')
    text = docker(['exec', BOX, 'cat', ROOT_FILE]).stdout
    e2e.check(text == ROOT_TEXT, f'{ROOT_FILE} came back as {text!r}')
    with open(os.path.join(RESTORED, NOTE)) as f:
        e2e.check(f.read() == NOTE_TEXT, f'{NOTE} came back changed')
    mounts = [m.get('Source') for m in info.get('Mounts') or []]
    e2e.check(RESTORED in mounts, f'{BOX} does not mount {RESTORED}: {mounts}')
    e2e.check(not boxfile.cache_leftovers(),
              f'Open left {boxfile.cache_leftovers()} in {boxfile.CACHE}')


if __name__ == '__main__':
    e2e.run(main)
