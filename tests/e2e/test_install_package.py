# test_install_package.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Install a Package File on real podman and distrobox: a tiny .deb built
here with dpkg-deb and opened with Kiste (as "Open With Kiste" from the
file manager does) is offered to the Debian box; choosing it runs the
install in a terminal tab in that box, and `podman exec BOX dpkg -s NAME`
then finds the package installed.

From the Flatpak-like sandbox (KISTE_E2E_SANDBOX=1, the -sandbox variant)
the file lies in the home the sandbox hides: the app has only its host path,
and the install must still reach it through flatpak-spawn. A package file
the host does not have fails in its tab, saying so, and nothing runs.
The real Flatpak (KISTE_E2E_FLATPAK=1) gets the file as its launcher
hands it over, a path of the Documents portal, and installs the file it
stands for; the missing file it gets by its host path."""

import os
import shutil
import subprocess
import tempfile

import kiste_e2e as e2e
from test_terminal import terminal_in

BOX = 'kiste-e2e-pkg'
PACKAGE = 'kiste-e2e-hello'
START_TIMEOUT = 180.0
INSTALL_TIMEOUT = 120.0


def build_deb(folder):
    """A package with one file and no dependencies, as the test user."""
    root = os.path.join(folder, 'root')
    os.makedirs(os.path.join(root, 'DEBIAN'))
    os.makedirs(os.path.join(root, 'usr', 'share', 'doc', PACKAGE))
    with open(os.path.join(root, 'DEBIAN', 'control'), 'w') as f:
        f.write(f'Package: {PACKAGE}\nVersion: 1.0\nArchitecture: all\n'
                'Maintainer: Kiste tests <tests@example.org>\n'
                'Description: a package the end-to-end tests install\n')
    with open(os.path.join(root, 'usr', 'share', 'doc', PACKAGE, 'README'), 'w') as f:
        f.write('hello from a package file\n')
    deb = os.path.join(folder, f'{PACKAGE}_1.0_all.deb')
    subprocess.run(['dpkg-deb', '--root-owner-group', '--build', root, deb], check=True,
                   capture_output=True)
    return deb


def installed():
    proc = e2e.run_user(['podman', 'exec', BOX, 'dpkg', '-s', PACKAGE], check=False)
    return proc.returncode == 0 and 'Status: install ok installed' in proc.stdout


def main():
    if shutil.which('dpkg-deb') is None:
        e2e.skip('dpkg-deb is not installed')
    folder = tempfile.mkdtemp(prefix='kiste-e2e-pkg.', dir=os.path.expanduser('~'))
    try:
        with e2e.box(BOX):
            run_test(build_deb(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_test(deb):
    e2e.log(f'package file: {deb}')
    # Running and set up, as after a first enter
    e2e.run_user(['distrobox', 'enter', BOX, '--', 'true'], timeout=START_TIMEOUT)
    e2e.check(not installed(), f'{PACKAGE} is installed in {BOX} before the test')

    # as the Flatpak's launcher opens files: through the Documents portal
    with e2e.App(args=['@@', deb, '@@'] if e2e.FLATPAK else [deb]) as app:
        win = app.window('Kiste')
        dialog = e2e.find_alert(win, 'Install Package File?', timeout=30)
        e2e.settle()
        e2e.screenshot('install-package-choose-box')
        e2e.respond(dialog, BOX)

        term = terminal_in(win)
        e2e.wait_until(installed, INSTALL_TIMEOUT, f'{PACKAGE} installed in {BOX}')
        text = e2e.get_text(term)
        e2e.log(f'the tab shows:\n{text}')
        e2e.check('apt-get' in text or PACKAGE in text,
                  f'the install did not run in the tab:\n{text}')
        e2e.settle()
        e2e.screenshot('install-package-tab')

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')

    if e2e.SANDBOX or e2e.FLATPAK:
        missing_file(os.path.join(os.path.dirname(deb), f'{PACKAGE}-missing_1.0_all.deb'))


def missing_file(deb):
    """From the sandbox, the host is asked for the file before the install."""
    with e2e.App(args=[deb], log_name='app-missing.log') as app:
        win = app.window('Kiste')
        dialog = e2e.find_alert(win, 'Install Package File?', timeout=30)
        e2e.respond(dialog, BOX)
        term = terminal_in(win)
        e2e.wait_until(lambda: 'does not exist on the host' in e2e.get_text(term), 60,
                       'the tab saying the host has no such file')
        e2e.log(f'the tab shows:\n{e2e.get_text(term)}')
        e2e.settle()
        e2e.screenshot('install-package-missing')
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')


if __name__ == '__main__':
    e2e.run(main)
