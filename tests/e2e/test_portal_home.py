# test_portal_home.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A box's home folder picked through the file chooser portal, in the real
Flatpak (KISTE_E2E_FLATPAK=1), which may see no folder of the host: Choose…
in the New Box dialog opens xdg-desktop-portal's file chooser (its GTK
backend, a window of another process), the folder picked there reaches the
app as a path of the Documents portal, and the dialog shows and uses the
folder's path on the host. The box made with it has that folder as its
home (`podman inspect`)."""

import os

import kiste_e2e as e2e
import test_create_dialog as cd  # its helpers; its main does not run on import
from gi.repository import Atspi  # after kiste_e2e, which picks its version

NAME = 'kiste-e2e-portal'
HOST_HOME = os.path.expanduser('~')
# Spaces, as people name folders: the path goes through the portal and
# distrobox as one argument
PARENT = os.path.join(HOST_HOME, 'Kiste Portal')
BOX_HOME = os.path.join(PARENT, 'picked home')
CHOOSER_TITLE = 'Choose a Home Folder'
PORTALS_CONF = os.path.join(HOST_HOME, '.config', 'xdg-desktop-portal', 'portals.conf')
DOC_MOUNT = f'/run/user/{os.getuid()}/doc'


def portal_chooser(timeout=30.0):
    """The file chooser window the portal's backend shows (another app)."""
    def probe():
        for app in e2e.children(Atspi.get_desktop(0)):
            for win in e2e.children(app):
                if e2e.matches(win, ('file chooser', 'dialog', 'frame', 'window'), CHOOSER_TITLE) and \
                        e2e.is_showing(win):
                    # its tree changes as we type: nothing cached
                    app.set_cache_mask(Atspi.Cache.NONE)
                    return win
        return None
    return e2e.wait_until(probe, timeout, f'the portal\'s file chooser {CHOOSER_TITLE!r}')


def location_entry(chooser):
    """The chooser's location entry, opened with Ctrl+L as people do (once
    more if a busy machine lost the keys)."""
    for attempt in range(3):
        e2e.click_at(e2e.find(chooser, ('table', 'tree table', 'list'), showing=True))
        e2e.settle(0.3)
        e2e.Atspi.generate_keyboard_event(0x4, None, Atspi.KeySynthType.LOCKMODIFIERS)
        try:
            e2e.press_key(0x6c)  # Control+L
        finally:
            e2e.Atspi.generate_keyboard_event(0x4, None, Atspi.KeySynthType.UNLOCKMODIFIERS)
        try:
            return e2e.find(chooser, 'text', showing=True, timeout=10)
        except e2e.Failure:
            if attempt == 2:
                raise
            e2e.log('no location entry yet: Ctrl+L again')
    return None


def choose_folder(chooser, path):
    """Types the folder's path into the chooser's location entry and
    accepts it."""
    entry = location_entry(chooser)
    e2e.set_text(entry, path + '/')
    e2e.settle(0.5)
    e2e.screenshot('portal-file-chooser')
    accept = e2e.find(chooser, 'button', lambda n: n.replace('_', '') in ('Select', 'Open'),
                      showing=True)
    e2e.click(accept)


def exported_to_app():
    """Whether the picked folder is one of the app's documents (what the
    file chooser portal hands a sandboxed app)."""
    by_app = os.path.join(DOC_MOUNT, 'by-app', e2e.FLATPAK_APP)
    try:
        ids = os.listdir(by_app)
    except OSError:
        return False
    return any(os.path.basename(BOX_HOME) in os.listdir(os.path.join(by_app, i)) for i in ids)


def main():
    if not e2e.FLATPAK:
        e2e.skip('the file chooser portal is what the Flatpak uses: run with KISTE_E2E_FLATPAK=1')
    made_conf = not os.path.exists(PORTALS_CONF)
    if made_conf:
        # the GTK backend for every portal, without xdg-desktop-portal
        # guessing (no desktop session names one here)
        os.makedirs(os.path.dirname(PORTALS_CONF), exist_ok=True)
        with open(PORTALS_CONF, 'w', encoding='utf-8') as f:
            f.write('[preferred]\ndefault=gtk\n')
    try:
        run_test()
    finally:
        if made_conf:
            os.unlink(PORTALS_CONF)
        if e2e.box_exists(NAME):
            e2e.run_user(['podman', 'rm', '--force', '--time', '0', NAME], check=False)
        e2e.remove_path(PARENT)
    e2e.check(not e2e.box_exists(NAME), f'the box {NAME} was not removed')


def run_test():
    if e2e.box_exists(NAME):
        e2e.remove_box(NAME)
    e2e.remove_path(PARENT)
    os.makedirs(BOX_HOME)

    with e2e.App() as app:
        win = app.window('Kiste')
        # flatpak run starts the Documents portal; it needs FUSE
        if not os.path.ismount(DOC_MOUNT):
            e2e.skip(f'the Documents portal has no file system at {DOC_MOUNT}: '
                     'FUSE is not available to this user')
        e2e.click(e2e.find(win, 'button', 'New Box', showing=True, timeout=30))
        dialog = e2e.find_alert(win, 'New Box')
        e2e.set_text(cd.find_text(dialog, 'Image'), e2e.IMAGE)
        name = cd.find_text(dialog, 'Name')
        e2e.wait_until(lambda: e2e.get_text(name), 5.0, 'a name to be suggested')
        e2e.set_text(name, NAME)
        e2e.toggle(e2e.find_switch(dialog, 'Separate Home Folder'), True)
        folder = cd.find_text(dialog, 'Folder')

        e2e.click(e2e.find(dialog, 'button', 'Choose…', showing=True))
        choose_folder(portal_chooser(), BOX_HOME)

        # the app got a path of the Documents portal and shows the host's
        e2e.wait_until(lambda: e2e.get_text(folder) == BOX_HOME, 30.0,
                       f'the Folder field to read {BOX_HOME!r} '
                       f'(it reads {e2e.get_text(folder)!r})')
        e2e.check(exported_to_app(), f'the Documents portal did not give {e2e.FLATPAK_APP} the '
                  f'folder: it is not in {DOC_MOUNT}/by-app/{e2e.FLATPAK_APP}')
        e2e.park_pointer()
        e2e.settle(1)
        e2e.screenshot('portal-home-picked')

        create = e2e.find(dialog, 'button', 'Create', showing=True)
        e2e.wait_until(lambda: e2e.has_state(create, Atspi.StateType.SENSITIVE), 10.0,
                       'Create to become clickable')
        e2e.click(create)
        cd.NAME = NAME
        cd.wait_created(dialog)

        info = e2e.inspect_box(NAME)
        env = (info.get('Config') or {}).get('Env') or []
        mounts = info.get('Mounts') or []
        e2e.check(f'HOME={BOX_HOME}' in env,
                  f'HOME={BOX_HOME} is not in the box\'s environment: '
                  f'{[e for e in env if e.startswith("HOME=")]}')
        e2e.check(any(m.get('Source') == BOX_HOME and m.get('Destination') == BOX_HOME
                      for m in mounts),
                  f'no bind mount of {BOX_HOME!r}; mounts: '
                  f'{[(m.get("Source"), m.get("Destination")) for m in mounts]}')
        e2e.check(not any((m.get('Source') or '').startswith(DOC_MOUNT) for m in mounts),
                  'the box mounts a path of the Documents portal')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
