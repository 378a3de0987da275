# test_boxfile.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Box files on real rootless podman. A real box with a home folder of its
own gets a package installed inside (a .deb built here, installed with
dpkg by the box's root), a file in its home, a file its root wrote there
(owned by one of the user's subordinate ids on this side, readable only in
podman's user namespace) and an app exported to the app menu. Save to File…
on its page, with its home folder ticked and the file named in the real file
chooser, writes a .kistebox. The box, its launcher and its home are removed.

A copy cut off in the middle, a copy with one byte of the image changed and
a file whose image archive (a real `podman save`, its names rewritten, the
box file's checksums made right) names one of the user's own images are
refused, each with a message saying so, before anything is made or loaded:
no container, no image changed, nothing left in Kiste's cache. Then the file
opened with Kiste (as "Open With Kiste" from the file manager does) shows
its preview; Restore In… puts the home into a new folder, Create Box makes
the box again: the package, both files and the menu entry are back, and the
app closes only once the box is running and its app exported."""

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

import kiste_e2e as e2e
import test_portal_home as portal  # its helpers; its main does not run on import
from gi.repository import Gio, GLib  # after kiste_e2e, which picks the versions

BOX = 'kiste-e2e-boxfile'
SAVED_IMAGE = f'localhost/kiste-saved/{BOX}:latest'
VICTIM = 'localhost/kiste-e2e-victim:latest'
PACKAGE = 'kiste-e2e-boxfile-app'
APP_ID = 'kiste-e2e-boxfile-app'
APP_NAME = 'Kiste Box File App'
PROGRAM = f'/usr/bin/{APP_ID}'
NOTE = 'note.txt'
NOTE_TEXT = 'a file in the box\'s own home\n'
ROOT_FILE = 'written-by-root.txt'
ROOT_TEXT = 'the box\'s root wrote this\n'
START_TIMEOUT = 300.0
SAVE_TIMEOUT = 900.0
HOME = os.path.expanduser('~')
# Kiste's cache: in the sandbox and the Flatpak, the app's own folder
if e2e.SANDBOX or e2e.FLATPAK:
    CACHE = os.path.join(HOME, '.var', 'app', e2e.FLATPAK_APP, 'cache', 'kiste')
else:
    CACHE = os.path.join(os.environ.get('XDG_CACHE_HOME') or os.path.join(HOME, '.cache'), 'kiste')
DATA_HOME = os.environ.get('XDG_DATA_HOME') or os.path.join(HOME, '.local', 'share')
LAUNCHER = os.path.join(DATA_HOME, 'applications', f'{BOX}-{APP_ID}.desktop')
# where Restore In… puts the home: a new folder named after the box in the
# folder chosen, the home folder the chooser starts in
RESTORED = os.path.join(HOME, BOX)

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Exec={PROGRAM}
Categories=Utility;
'''


def image_exists(image):
    return e2e.run_user(['podman', 'image', 'exists', image], check=False).returncode == 0


def image_id(image):
    proc = e2e.run_user(['podman', 'image', 'inspect', '--format', '{{.Id}}', image], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def images():
    """Every image name and the image it names right now."""
    proc = e2e.run_user(['podman', 'images', '--format', '{{.Repository}}:{{.Tag}} {{.ID}}'])
    return sorted(proc.stdout.split('\n'))


def cache_leftovers():
    if not os.path.isdir(CACHE):
        return []
    return sorted(name for name in os.listdir(CACHE) if name.startswith('boxfile-'))


def said(win, start):
    return e2e.find_all(win, 'label', lambda text: text.startswith(start), showing=True)


def remove_tree(path):
    """A box's home, whose files may belong to subordinate ids: removed in
    podman's user namespace."""
    if os.path.lexists(path):
        e2e.run_user(['podman', 'unshare', 'rm', '-rf', '--', path], check=False)


def cleanup(folder=None):
    e2e.remove_box(BOX)
    for image in (SAVED_IMAGE, VICTIM):
        if image_exists(image):
            e2e.run_user(['podman', 'rmi', '--force', image], check=False)
    if os.path.exists(LAUNCHER):
        os.unlink(LAUNCHER)
    remove_tree(RESTORED)
    if folder is not None:
        remove_tree(folder)


def build_deb(folder):
    """A package with a program and its launcher, no dependencies."""
    root = os.path.join(folder, 'deb')
    for sub in ('DEBIAN', 'usr/bin', 'usr/share/applications'):
        os.makedirs(os.path.join(root, sub))
    with open(os.path.join(root, 'DEBIAN', 'control'), 'w') as f:
        f.write(f'Package: {PACKAGE}\nVersion: 1.0\nArchitecture: all\n'
                'Maintainer: Kiste tests <tests@example.org>\n'
                'Description: a package installed in a box saved to a file\n')
    with open(os.path.join(root, PROGRAM.lstrip('/')), 'w') as f:
        f.write('#!/bin/sh\necho hello from a saved box\n')
    os.chmod(os.path.join(root, PROGRAM.lstrip('/')), 0o755)
    with open(os.path.join(root, 'usr', 'share', 'applications', f'{APP_ID}.desktop'), 'w') as f:
        f.write(DESKTOP)
    deb = os.path.join(folder, f'{PACKAGE}_1.0_all.deb')
    subprocess.run(['dpkg-deb', '--root-owner-group', '--build', root, deb], check=True,
                   capture_output=True)
    return deb


def package_installed():
    proc = e2e.run_user(['podman', 'exec', BOX, 'dpkg', '-s', PACKAGE], check=False)
    return proc.returncode == 0 and 'Status: install ok installed' in proc.stdout


def prepare(folder, home):
    """The package installed by the box's root, the two files in its home,
    the app in the menu."""
    deb = build_deb(folder)
    # through /tmp, which the box shares with the host
    shared = os.path.join('/tmp', os.path.basename(deb))
    shutil.copyfile(deb, shared)
    os.chmod(shared, 0o644)
    try:
        e2e.run_user(['podman', 'exec', '--user', 'root', BOX, 'dpkg', '-i', shared])
    finally:
        os.unlink(shared)
    e2e.check(package_installed(), f'{PACKAGE} did not install in {BOX}')

    with open(os.path.join(home, NOTE), 'w') as f:
        f.write(NOTE_TEXT)
    e2e.run_user(['podman', 'exec', '-i', '--user', 'root', BOX, 'sh', '-c',
                  'cat > "$1" && chmod 600 "$1"', 'sh', os.path.join(home, ROOT_FILE)],
                 input=ROOT_TEXT)
    owner = os.stat(os.path.join(home, ROOT_FILE)).st_uid
    e2e.log(f'{ROOT_FILE} belongs to uid {owner} here')
    e2e.check(owner != os.getuid(), f'{ROOT_FILE} belongs to the user: no subordinate id to test')

    e2e.run_user(['distrobox', 'enter', BOX, '--', 'distrobox-export', '--app', APP_ID],
                 timeout=START_TIMEOUT)
    e2e.check(os.path.exists(LAUNCHER), f'distrobox-export wrote no {LAUNCHER}')


@contextlib.contextmanager
def portals():
    """In the sandbox and the Flatpak, the file choosers are the portal's:
    its GTK backend named (no desktop session names one here) and the
    Documents portal started before the app, as `flatpak run` does."""
    if not (e2e.SANDBOX or e2e.FLATPAK):
        yield
        return
    made_conf = not os.path.exists(portal.PORTALS_CONF)
    if made_conf:
        os.makedirs(os.path.dirname(portal.PORTALS_CONF), exist_ok=True)
        with open(portal.PORTALS_CONF, 'w', encoding='utf-8') as f:
            f.write('[preferred]\ndefault=gtk\n')
    try:
        e2e.run_user(['gdbus', 'call', '--session', '--dest', 'org.freedesktop.portal.Documents',
                      '--object-path', '/org/freedesktop/portal/documents', '--method',
                      'org.freedesktop.portal.Documents.GetMountPoint'], timeout=60)
        if not os.path.ismount(portal.DOC_MOUNT):
            e2e.skip(f'the Documents portal has no file system at {portal.DOC_MOUNT}: '
                     'FUSE is not available to this user')
        yield
    finally:
        if made_conf:
            os.unlink(portal.PORTALS_CONF)


def portal_document(path):
    """The path of path in the Documents portal, exported for the app, as
    `flatpak run --file-forwarding` and the file manager's Open With hand a
    Flatpak a file of the host."""
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    fds = Gio.UnixFDList.new_from_array([os.open(path, os.O_PATH | os.O_CLOEXEC)])
    # flags: reuse an existing document
    result, _ = bus.call_with_unix_fd_list_sync(
        'org.freedesktop.portal.Documents', '/org/freedesktop/portal/documents',
        'org.freedesktop.portal.Documents', 'AddFull',
        GLib.Variant('(ahusas)', ([0], 1, e2e.FLATPAK_APP, ['read'])),
        GLib.VariantType('(asa{sv})'), Gio.DBusCallFlags.NONE, 30000, fds, None)
    doc = os.path.join(portal.DOC_MOUNT, result.unpack()[0][0], os.path.basename(path))
    e2e.log(f'{path} is {doc} for {e2e.FLATPAK_APP}')
    return doc


@contextlib.contextmanager
def opened(path, log_name):
    """The app with the box file opened with Kiste, as the file manager
    does: from the sandbox and the Flatpak, which see no file in the
    host's home, through the Documents portal. Yields the app and its
    window."""
    if e2e.FLATPAK:
        args = ['@@', path, '@@']
    elif e2e.SANDBOX:
        args = [portal_document(path)]
    else:
        args = [path]
    with e2e.App(args=args, log_name=log_name) as app:
        yield app, app.window('Kiste')


def main():
    if shutil.which('dpkg-deb') is None:
        e2e.skip('dpkg-deb is not installed')
    with portals():
        run_test()


def run_test():
    folder = tempfile.mkdtemp(prefix='kiste-e2e-boxfile.', dir=HOME)
    home = os.path.join(folder, 'box home')
    cleanup()
    try:
        os.makedirs(home)
        with e2e.box(BOX, extra_args=('--home', home)):
            e2e.run_user(['distrobox', 'enter', BOX, '--', 'true'], timeout=START_TIMEOUT)
            prepare(folder, home)
            path = save(os.path.join(folder, f'{BOX}.kistebox'))
        e2e.check(not e2e.box_exists(BOX), f'{BOX} is still there after its removal')
        if os.path.exists(LAUNCHER):
            os.unlink(LAUNCHER)
        remove_tree(home)
        refused(path, folder)
        crafted(path, folder)
        open_file(path)
    finally:
        cleanup(folder)


def find_chooser(title, timeout=30.0):
    """The file chooser titled title: the portal's (xdg-desktop-portal-gtk,
    another process on the bus) when the session has one, else GTK's own
    in the app."""
    roles = ('dialog', 'file chooser', 'frame', 'window')

    def probe():
        for application in e2e.children(e2e.Atspi.get_desktop(0)):
            for acc in e2e.children(application):
                if e2e.matches(acc, roles, title, showing=True):
                    # its location entry comes later: no cached children
                    application.set_cache_mask(e2e.Atspi.Cache.NONE)
                    return acc
        return None
    return e2e.wait_until(probe, timeout, f'a file chooser titled {title!r}')


def save_to_file(app, win, box, path, prefix='boxfile'):
    """Save to File… on the box's page: its home folder ticked, with its
    size; the file's name typed into the file chooser (the portal's from
    the sandbox and the Flatpak, which hand the app a path of the
    Documents portal); waits until the file is written."""
    boxes = e2e.box_list(win, timeout=30)
    e2e.select_box(boxes, box)
    page = e2e.find(win, 'grouping', box, showing=True, timeout=10)
    e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True),
                         'Save to File…')
    question = e2e.find_alert(win, f'Save “{box}” to a File', timeout=60)
    switch = e2e.find_switch(question, 'Save Its Home Folder Too', timeout=60)
    sizes = [e2e.get_text(l) for l in e2e.find_all(question, 'label', showing=True)
             if re.fullmatch(r'[0-9.]+\s(bytes|kB|MB|GB)', e2e.get_text(l))]
    e2e.log(f'the question offers the home folder, of {sizes}')
    e2e.check(sizes, 'the question does not say how large the home folder is')
    e2e.toggle(switch, True)
    e2e.settle()
    e2e.screenshot(f'{prefix}-save-home')
    e2e.respond(question, 'Choose File…')
    chooser = find_chooser('Save to File')

    def name_field():
        for acc in e2e.walk(chooser):
            if (e2e.matches(acc, ('text', 'entry'), showing=True) and
                    e2e.get_text(acc) == f'{box}.kistebox'):
                return acc
        return None
    field = e2e.wait_until(name_field, 15, 'the file chooser\'s name field with the box\'s name')
    e2e.settle()
    e2e.screenshot(f'{prefix}-save-chooser')
    e2e.set_text(field, path)
    e2e.click(e2e.find(chooser, 'button', lambda n: n.replace('_', '') == 'Save', showing=True))
    e2e.wait_gone(chooser, 15)

    e2e.wait_until(lambda: os.path.exists(path) or said(win, f'Could not save “{box}”'),
                   SAVE_TIMEOUT, 'the box file to be written')
    e2e.settle()
    e2e.screenshot(f'{prefix}-saved')
    if not os.path.exists(path):
        failure_details(win, prefix)
    e2e.check(os.path.exists(path),
              f'Save to File failed: {[e2e.get_text(l) for l in said(win, "Could not")]}')
    e2e.log(f'{path}: {os.path.getsize(path)} bytes')


def failure_details(win, prefix):
    """The failed task's Details, logged: what the commands printed."""
    try:
        e2e.click(e2e.find(win, 'button', 'Details', showing=True, timeout=5))
        e2e.settle(1)
        e2e.screenshot(f'{prefix}-failure-details')
        for acc in e2e.walk(win):
            if e2e.matches(acc, ('label', 'text'), showing=True) and e2e.get_text(acc):
                e2e.log(f'shown: {e2e.get_text(acc)}')
    except e2e.Failure as e:
        e2e.log(f'no details: {e}')


def save(path):
    """Saved with its home, checked: the file's members, its apps and the
    home's files; the committed image and the cache cleaned up."""
    with e2e.App() as app:
        win = app.window('Kiste')
        save_to_file(app, win, BOX, path)
        with tarfile.open(path) as tar:
            names = tar.getnames()
            apps = tar.extractfile('apps.txt').read().decode() if 'apps.txt' in names else ''
            with tarfile.open(fileobj=tar.extractfile('home.tar')) as home_tar:
                home_names = home_tar.getnames()
        e2e.check(names[-1] == 'index.json' and 'image.tar' in names and 'distrobox.ini' in names
                  and 'home.tar' in names, f'the box file holds {names}')
        e2e.check(f'{APP_ID}.desktop' in apps.split(), f'the box file lists the apps {apps!r}')
        e2e.check(f'./{NOTE}' in home_names and f'./{ROOT_FILE}' in home_names,
                  f'the saved home holds {home_names}')
        # the committed image was only a step on the way
        e2e.wait_until(lambda: not image_exists(SAVED_IMAGE), 60, f'{SAVED_IMAGE} to be removed')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(not cache_leftovers(), f'Save left {cache_leftovers()} in {CACHE}')
    return path


def refuse(copy, name, message):
    """Opens copy with Kiste and waits for it to be refused with message,
    checking that nothing was made or loaded."""
    containers = sorted(e2e.box_names())
    before = images()
    with opened(copy, f'app-{name}.log') as (app, win):
        label = e2e.wait_until(lambda: said(win, f'Could not open “{os.path.basename(copy)}”'),
                               300, f'Kiste to refuse the {name} file')[0]
        text = e2e.get_text(label)
        e2e.log(f'the {name} file: {text}')
        e2e.settle()
        e2e.screenshot(f'boxfile-refused-{name}')
        e2e.check(message in text, f'the {name} file was refused with {text!r}, expected {message!r}')
        e2e.check(not e2e.find_all(win, ('alert', 'dialog'), 'Open Box File', showing=True),
                  f'the {name} file got a preview')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(sorted(e2e.box_names()) == containers,
              f'the {name} file changed the containers: {sorted(e2e.box_names())}')
    e2e.check(images() == before, f'the {name} file changed the images: {images()}, was {before}')
    e2e.check(not image_exists(SAVED_IMAGE), f'the {name} file left {SAVED_IMAGE}')
    e2e.check(not cache_leftovers(), f'the {name} file left {cache_leftovers()} in {CACHE}')


def refused(path, folder):
    """A cut-off copy and a copy with one byte changed inside image.tar."""
    with tarfile.open(path) as tar:
        member = tar.getmember('image.tar')
    size = os.path.getsize(path)
    cases = (
        ('truncated', 'The box file is cut off', lambda copy: os.truncate(copy, size // 2)),
        ('changed', 'The box file was changed or damaged', lambda copy: flip(copy, member)),
    )
    for name, message, spoil in cases:
        copy = os.path.join(folder, f'{name}.kistebox')
        shutil.copyfile(path, copy)
        spoil(copy)
        refuse(copy, name, message)
        os.unlink(copy)


def flip(copy, member):
    """Changes one byte in the middle of the image's data."""
    with open(copy, 'r+b') as f:
        f.seek(member.offset_data + member.size // 2)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0xff]))


def crafted(path, folder):
    """A box file whose checksums are right but whose image archive, a real
    `podman save` of the saved box's image, names one of the user's own
    images: loading it would retag that image."""
    e2e.run_user(['podman', 'tag', e2e.IMAGE, VICTIM])
    victim_id = image_id(VICTIM)
    inner_path = os.path.join(folder, 'saved-image.tar')
    evil_path = os.path.join(folder, 'evil-image.tar')
    file_path = os.path.join(folder, 'crafted.kistebox')
    with tarfile.open(path) as tar:
        with open(inner_path, 'wb') as out:
            shutil.copyfileobj(tar.extractfile('image.tar'), out)
        settings = tar.extractfile('distrobox.ini').read()
        index = json.loads(tar.extractfile('index.json').read())

    # the engine's archive with its names rewritten: docker's manifest.json
    # and repositories, as podman saves a docker-archive, or an OCI index
    renamed = 0
    victim_repo, victim_tag = VICTIM.rsplit(':', 1)
    with tarfile.open(inner_path) as src, tarfile.open(evil_path, 'w') as dst:
        for member in src.getmembers():
            data = src.extractfile(member) if member.isfile() else None
            name = member.name.lstrip('./')
            if name in ('manifest.json', 'repositories', 'index.json'):
                doc = json.loads(data.read())
                if name == 'manifest.json':
                    for manifest in doc:
                        if manifest.get('RepoTags'):
                            manifest['RepoTags'] = [VICTIM]
                            renamed += 1
                elif name == 'repositories':
                    doc = {victim_repo: {victim_tag: tag_id}
                           for tags in doc.values() for tag_id in list(tags.values())[:1]}
                else:
                    for manifest in doc.get('manifests', []):
                        annotations = manifest.setdefault('annotations', {})
                        if 'org.opencontainers.image.ref.name' in annotations:
                            annotations['org.opencontainers.image.ref.name'] = VICTIM
                            renamed += 1
                raw = json.dumps(doc).encode()
                member.size = len(raw)
                data = io.BytesIO(raw)
            dst.addfile(member, data)
    e2e.check(renamed == 1, f'podman save wrote {renamed} names into its archive')
    os.unlink(inner_path)

    # a box file with right checksums around it
    members = {'image.tar': evil_path}
    sums = {}
    for name, source in members.items():
        digest = hashlib.sha256()
        with open(source, 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                digest.update(chunk)
        sums[name] = {'size': os.path.getsize(source), 'sha256': digest.hexdigest()}
    sums['distrobox.ini'] = {'size': len(settings), 'sha256': hashlib.sha256(settings).hexdigest()}
    index['members'] = sums
    raw_index = json.dumps(index).encode()
    with tarfile.open(file_path, 'w', format=tarfile.USTAR_FORMAT) as out:
        out.add(evil_path, arcname='image.tar')
        info = tarfile.TarInfo('distrobox.ini')
        info.size = len(settings)
        out.addfile(info, io.BytesIO(settings))
        info = tarfile.TarInfo('index.json')
        info.size = len(raw_index)
        out.addfile(info, io.BytesIO(raw_index))
    os.unlink(evil_path)

    refuse(file_path, 'crafted', 'its archive names another image')
    e2e.check(image_id(VICTIM) == victim_id,
              f'{VICTIM} was retagged: {image_id(VICTIM)}, was {victim_id}')
    os.unlink(file_path)
    e2e.run_user(['podman', 'rmi', VICTIM], check=False)


def restore_in(dialog):
    """Restore In… and Select: the chooser starts in the home folder, where
    the new folder named after the box goes."""
    e2e.click(e2e.find(dialog, 'button', 'Restore In…', showing=True))
    chooser = find_chooser('Restore the Home Folder in')
    select = e2e.find(chooser, 'button', lambda n: n.replace('_', '') in ('Select', 'Open'),
                      showing=True, timeout=15)
    e2e.wait_until(lambda: e2e.has_state(select, e2e.Atspi.StateType.SENSITIVE), 10,
                   'Select to be offered')
    e2e.settle()
    e2e.screenshot('boxfile-restore-in')
    e2e.click(select)
    e2e.wait_gone(chooser, 15)


def open_file(path):
    """Opened with Kiste: the preview, the home restored in a new folder,
    the box made again with its package, its files and its app."""
    restored = RESTORED
    with opened(path, 'app-open.log') as (app, win):
        dialog = e2e.find_alert(win, 'Open Box File', timeout=300)
        name = e2e.find(dialog, None, 'Name', showing=True)
        e2e.check(e2e.get_text(name) in (BOX, 'Name'), f'the Name row reads {e2e.get_text(name)!r}')
        e2e.check(said(dialog, f'The box “{BOX}”'), 'the preview does not name the box')
        restore_in(dialog)
        e2e.wait_until(lambda: e2e.find_all(dialog, 'label', restored, showing=True), 10,
                       f'the preview to name {restored}')
        e2e.settle()
        e2e.screenshot('boxfile-preview')
        e2e.respond(dialog, 'Create Box')

        # with no other box, the list shows once the box exists: after the
        # image's load and the create, which take longer on a busy machine
        boxes = e2e.box_list(win, timeout=START_TIMEOUT)
        # settled: running, set up, its app in the menu again; the app is
        # not closed while the new box is still starting
        e2e.find_box_row(boxes, BOX, state='Running', timeout=START_TIMEOUT)
        e2e.wait_until(lambda: os.path.exists(LAUNCHER), START_TIMEOUT,
                       f'{LAUNCHER} to be written again')
        # a row says its running task instead of its state: Running again
        # once the export is done
        e2e.find_box_row(boxes, BOX, state='Running', timeout=120)
        e2e.check(package_installed(), f'{PACKAGE} did not come back with the box')
        with open(os.path.join(restored, NOTE)) as f:
            e2e.check(f.read() == NOTE_TEXT, f'{NOTE} came back changed')
        with open(os.path.join(restored, ROOT_FILE)) as f:
            e2e.check(f.read() == ROOT_TEXT, f'{ROOT_FILE} came back changed')
        mounts = [m.get('Source') for m in e2e.inspect_box(BOX).get('Mounts', [])]
        e2e.check(restored in mounts, f'{BOX} does not mount {restored}: {mounts}')
        image = e2e.inspect_box(BOX).get('ImageName')
        e2e.check(image == SAVED_IMAGE, f'{BOX} was made of {image!r}, expected {SAVED_IMAGE}')
        with open(LAUNCHER) as f:
            e2e.check(f'Name={APP_NAME}' in f.read(), f'{LAUNCHER} is not the app\'s')
        e2e.settle()
        e2e.screenshot('boxfile-opened')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(not cache_leftovers(), f'Open left {cache_leftovers()} in {CACHE}')


if __name__ == '__main__':
    e2e.run(main)
