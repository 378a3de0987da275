# test_bundled_distrobox.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""The Flatpak's own distrobox on a host without one (Fedora Silverblue
ships podman, not distrobox), with the app in the Flatpak-like sandbox:
the host's login PATH lacks distrobox, the missing-tools page offers the
copy the app carries, and after asking it lands in the app's data folder
on the host, the boxes appear, Preferences says whose distrobox is in use,
and a box made through the New Box dialog runs with that copy's init.
With KISTE_E2E_FLATPAK=1 the app is the real Flatpak and the copy it
offers is the one its distrobox module installed."""

import os
import shutil
import tempfile

import kiste_e2e as e2e
import test_create_dialog as cd  # its helpers; its main does not run on import
import test_terminal as t  # noqa: E402

BOX = 'kiste-e2e-owncopy'
NEW_BOX = 'kiste-e2e-owncopy-new'
MISSING_TITLE = 'No Distrobox or Toolbx Found'
HOME = os.path.expanduser('~')
OWN_COPY = os.path.join(HOME, '.var', 'app', 'io.github.kiste.Kiste', 'data', 'distrobox')
PROFILES = [os.path.join(HOME, name) for name in ('.bash_profile', '.bash_login', '.profile')]


def bundle_dir():
    """What the Flatpak's distrobox module installs: copies of the scripts
    (links would point at the host's, which the sandbox hides). The real
    Flatpak's own, seen from the host, when testing that."""
    if e2e.FLATPAK:
        location = e2e.run_user(['flatpak', '--user', 'info', '--show-location',
                                 e2e.FLATPAK_APP]).stdout.strip()
        return os.path.join(location, 'files', 'share', 'kiste', 'distrobox')
    path = tempfile.mkdtemp(prefix='kiste-e2e-bundle.')
    os.chmod(path, 0o755)
    for name in os.listdir('/usr/bin'):
        if name.startswith('distrobox'):
            shutil.copy2(os.path.join('/usr/bin', name), path)
    e2e.check(os.path.exists(os.path.join(path, 'distrobox-init')), 'no distrobox on this machine to bundle')
    return path


def version_of(folder):
    with open(os.path.join(folder, 'distrobox'), encoding='utf-8') as f:
        for line in f:
            if line.startswith('version="'):
                return line.split('"')[1]
    return None


def main():
    e2e.check(e2e.SANDBOX or e2e.FLATPAK, 'this test runs the app in the sandbox or the Flatpak only')
    saved = {}
    for path in PROFILES:
        if os.path.exists(path):
            saved[path] = path + '.kiste-e2e-saved'
            os.rename(path, saved[path])
    bundle = bundle_dir()
    try:
        with e2e.box(BOX), e2e.program_dir(exclude=('distrobox*', 'toolbox')) as bin_dir:
            # the host's login shell knows no distrobox
            with open(PROFILES[-1], 'w', encoding='utf-8') as f:
                f.write(f'PATH="{bin_dir}"\n')
            run_test(bundle)
    finally:
        for path in PROFILES:
            if os.path.exists(path) and path not in saved.values():
                os.unlink(path)
        for path, backup in saved.items():
            os.rename(backup, path)
        if not e2e.FLATPAK:
            shutil.rmtree(bundle, ignore_errors=True)
        shutil.rmtree(OWN_COPY, ignore_errors=True)
        if e2e.box_exists(NEW_BOX):
            e2e.run_user(['podman', 'rm', '--force', '--time', '0', NEW_BOX], check=False)


def run_test(bundle):
    shutil.rmtree(OWN_COPY, ignore_errors=True)
    version = version_of(bundle)
    e2e.log(f'bundled distrobox {version}')

    with e2e.App(env={} if e2e.FLATPAK else {'KISTE_SANDBOX_DISTROBOX': bundle}) as app:
        win = app.window('Kiste')
        page = e2e.find(win, 'grouping', MISSING_TITLE, showing=True, timeout=30)
        use = e2e.find(page, 'button', f'Use Distrobox {version} From Kiste…', showing=True)
        e2e.settle()
        e2e.screenshot('missing-distrobox-offer')

        e2e.click(use)
        alert = e2e.find_alert(win, f'Use Distrobox {version} From Kiste?')
        e2e.screenshot('use-own-copy')
        e2e.click(e2e.find(alert, 'button', 'Use Kiste’s Copy', showing=True))

        # the copy is on the host, in the app's data folder, and in use
        boxes = e2e.box_list(win, timeout=60)
        e2e.find_box_row(boxes, BOX, timeout=30)
        e2e.check(os.access(os.path.join(OWN_COPY, 'distrobox'), os.X_OK),
                  f'no runnable distrobox in {OWN_COPY}')
        e2e.check(version_of(OWN_COPY) == version, f'the copy in {OWN_COPY} is not {version}')

        t.press_with_modifiers(0x2c, 0x4)  # Control+comma
        prefs = e2e.find(app.accessible, ('dialog', 'frame', 'window'), 'Preferences',
                         showing=True, timeout=10)
        row = e2e.find_row(prefs, 'Distrobox', timeout=10)
        texts = ' '.join(e2e.row_texts(row))
        e2e.check(f'{version}, Kiste’s own copy' in texts,
                  f'Preferences does not say the distrobox in use is Kiste’s copy: {texts}')
        e2e.screenshot('preferences-own-copy')
        e2e.press_key(0xff1b)  # Escape
        e2e.settle(1)

        # a box made with that copy: its init comes from the app's folder
        e2e.click(e2e.find(win, 'button', 'New Box', showing=True, timeout=30))
        dialog = e2e.find_alert(win, 'New Box')
        e2e.set_text(cd.find_text(dialog, 'Image'), e2e.IMAGE)
        name = cd.find_text(dialog, 'Name')
        e2e.wait_until(lambda: e2e.get_text(name), 5.0, 'a name to be suggested')
        e2e.set_text(name, NEW_BOX)
        create = e2e.find(dialog, 'button', 'Create', showing=True)
        e2e.wait_until(lambda: e2e.has_state(create, e2e.Atspi.StateType.SENSITIVE), 10.0,
                       'Create to become clickable')
        e2e.click(create)
        cd.NAME = NEW_BOX
        cd.wait_created(dialog)
        mounts = e2e.inspect_box(NEW_BOX).get('Mounts') or []
        entry = [m.get('Source') for m in mounts if m.get('Destination') == '/usr/bin/entrypoint']
        e2e.check(entry == [os.path.join(OWN_COPY, 'distrobox-init')],
                  f'the new box runs the init {entry}, not the one of Kiste’s copy')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
