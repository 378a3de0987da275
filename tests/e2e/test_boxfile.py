# test_boxfile.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Box files on real rootless podman: a real box gets a program of its own
in /usr/local/bin (written by its root, a change of the box and not of its
image); Save to File… on its page, through the real file chooser, writes a
.kistebox. The box is removed. A copy cut off in the middle and a copy with
one byte of the image changed are refused, each with a message saying so,
before anything is made: no container, no image, nothing left in Kiste's
cache. Then the file opened with Kiste (as "Open With Kiste" from the file
manager does) shows its preview; Create Box makes the box again, and the
program is in it."""

import os
import shutil
import tarfile
import tempfile

import kiste_e2e as e2e

BOX = 'kiste-e2e-boxfile'
SAVED_IMAGE = f'localhost/kiste-saved/{BOX}:latest'
PROGRAM = '/usr/local/bin/kiste-e2e-boxfile-hello'
PROGRAM_TEXT = '#!/bin/sh\necho hello from a saved box\n'
START_TIMEOUT = 300.0
SAVE_TIMEOUT = 900.0
CACHE = os.path.join(os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'kiste')


def image_exists(image):
    return e2e.run_user(['podman', 'image', 'exists', image], check=False).returncode == 0


def cache_leftovers():
    if not os.path.isdir(CACHE):
        return []
    return sorted(name for name in os.listdir(CACHE) if name.startswith('boxfile-'))


def said(win, start):
    return e2e.find_all(win, 'label', lambda text: text.startswith(start), showing=True)


def cleanup():
    e2e.remove_box(BOX)
    if image_exists(SAVED_IMAGE):
        e2e.run_user(['podman', 'rmi', '--force', SAVED_IMAGE], check=False)


def main():
    cleanup()
    folder = tempfile.mkdtemp(prefix='kiste-e2e-boxfile.', dir=os.path.expanduser('~'))
    try:
        with e2e.box(BOX):
            e2e.run_user(['distrobox', 'enter', BOX, '--', 'true'], timeout=START_TIMEOUT)
            e2e.run_user(['podman', 'exec', '-i', '--user', 'root', BOX, 'sh', '-c',
                          f'cat > {PROGRAM} && chmod 755 {PROGRAM}'], input=PROGRAM_TEXT)
            path = save(os.path.join(folder, f'{BOX}.kistebox'))
        e2e.check(not e2e.box_exists(BOX), f'{BOX} is still there after its removal')
        refused(path, folder)
        open_file(path)
    finally:
        cleanup()
        shutil.rmtree(folder, ignore_errors=True)


def find_chooser(title, timeout=30.0):
    """The file chooser titled title: the portal's (xdg-desktop-portal-gtk,
    another process on the bus) when the session has one, else GTK's own
    in the app."""
    roles = ('dialog', 'file chooser', 'frame', 'window')

    def probe():
        for application in e2e.children(e2e.Atspi.get_desktop(0)):
            for acc in e2e.children(application):
                if e2e.matches(acc, roles, title, showing=True):
                    return acc
        return None
    return e2e.wait_until(probe, timeout, f'a file chooser titled {title!r}')


def save(path):
    """Save to File… on the box's page, the file's name typed into the
    file chooser."""
    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.select_box(boxes, BOX)
        page = e2e.find(win, 'grouping', BOX, showing=True, timeout=10)
        e2e.choose_menu_item(app, e2e.find(page, 'toggle button', 'More Actions', showing=True),
                             'Save to File…')
        chooser = find_chooser('Save to File')

        def name_field():
            for acc in e2e.walk(chooser):
                if (e2e.matches(acc, ('text', 'entry'), showing=True) and
                        e2e.get_text(acc) == f'{BOX}.kistebox'):
                    return acc
            return None
        field = e2e.wait_until(name_field, 15, 'the file chooser\'s name field with the box\'s name')
        e2e.settle()
        e2e.screenshot('boxfile-save-chooser')
        e2e.set_text(field, path)
        e2e.click(e2e.find(chooser, 'button', 'Save', showing=True))
        e2e.wait_gone(chooser, 15)

        e2e.wait_until(lambda: os.path.exists(path) or said(win, f'Could not save “{BOX}”'),
                       SAVE_TIMEOUT, 'the box file to be written')
        e2e.settle()
        e2e.screenshot('boxfile-saved')
        e2e.check(os.path.exists(path), f'Save to File failed: {[e2e.get_text(l) for l in said(win, "Could not")]}')
        e2e.log(f'{path}: {os.path.getsize(path)} bytes')
        with tarfile.open(path) as tar:
            names = tar.getnames()
        e2e.check(names[-1] == 'index.json' and 'image.tar' in names and 'distrobox.ini' in names,
                  f'the box file holds {names}')
        # the committed image was only a step on the way
        e2e.wait_until(lambda: not image_exists(SAVED_IMAGE), 60, f'{SAVED_IMAGE} to be removed')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(not cache_leftovers(), f'Save left {cache_leftovers()} in {CACHE}')
    return path


def refused(path, folder):
    """A cut-off copy and a copy with one byte changed inside image.tar
    are refused before anything is made."""
    with tarfile.open(path) as tar:
        member = tar.getmember('image.tar')
    size = os.path.getsize(path)
    cases = (
        ('truncated', 'The box file is cut off', lambda copy: os.truncate(copy, size // 2)),
        ('changed', 'The box file was changed or damaged', lambda copy: flip(copy, member)),
    )
    containers = sorted(e2e.box_names())
    for name, message, spoil in cases:
        copy = os.path.join(folder, f'{name}.kistebox')
        shutil.copyfile(path, copy)
        spoil(copy)
        with e2e.App(args=[copy], log_name=f'app-{name}.log') as app:
            win = app.window('Kiste')
            label = e2e.wait_until(lambda: said(win, f'Could not open “{name}.kistebox”'), 300,
                                   f'Kiste to refuse the {name} file')[0]
            text = e2e.get_text(label)
            e2e.log(f'the {name} file: {text}')
            e2e.settle()
            e2e.screenshot(f'boxfile-refused-{name}')
            e2e.check(message in text, f'the {name} file was refused with {text!r}, expected {message!r}')
            e2e.check(not e2e.find_all(win, ('alert', 'dialog'), 'Open Box File', showing=True),
                      f'the {name} file got a preview')
            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code}')
        os.unlink(copy)
        e2e.check(sorted(e2e.box_names()) == containers,
                  f'the {name} file changed the containers: {sorted(e2e.box_names())}')
        e2e.check(not image_exists(SAVED_IMAGE), f'the {name} file left {SAVED_IMAGE}')
        e2e.check(not cache_leftovers(), f'the {name} file left {cache_leftovers()} in {CACHE}')


def flip(copy, member):
    """Changes one byte in the middle of the image's data."""
    with open(copy, 'r+b') as f:
        f.seek(member.offset_data + member.size // 2)
        byte = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([byte[0] ^ 0xff]))


def open_file(path):
    """Opened with Kiste: the preview, then the box made again."""
    with e2e.App(args=[path], log_name='app-open.log') as app:
        win = app.window('Kiste')
        dialog = e2e.find_alert(win, 'Open Box File', timeout=300)
        name = e2e.find(dialog, None, 'Name', showing=True)
        e2e.check(e2e.get_text(name) in (BOX, 'Name'), f'the Name row reads {e2e.get_text(name)!r}')
        e2e.check(said(dialog, f'The box “{BOX}”'), 'the preview does not name the box')
        e2e.settle()
        e2e.screenshot('boxfile-preview')
        e2e.respond(dialog, 'Create Box')

        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, BOX, timeout=START_TIMEOUT)
        e2e.wait_until(lambda: e2e.inspect_box(BOX).get('State', {}).get('Running'),
                       START_TIMEOUT, f'{BOX} to run')
        proc = e2e.run_user(['podman', 'exec', BOX, 'cat', PROGRAM], check=False)
        e2e.check(proc.returncode == 0 and proc.stdout == PROGRAM_TEXT,
                  f'{PROGRAM} did not come back with the box: exit {proc.returncode}, {proc.stdout!r} '
                  f'{proc.stderr!r}')
        image = e2e.inspect_box(BOX).get('ImageName')
        e2e.check(image == SAVED_IMAGE, f'{BOX} was made of {image!r}, expected {SAVED_IMAGE}')
        e2e.settle()
        e2e.screenshot('boxfile-opened')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')
    e2e.check(not cache_leftovers(), f'Open left {cache_leftovers()} in {CACHE}')


if __name__ == '__main__':
    e2e.run(main)
