# test_hostile_export.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""A box without the home, made through New Box from an image with a
distrobox-export of its own (in /usr/local/bin, before the real one on the
box's PATH): when asked to export an app, it leaves a program named
distrobox-enter in the /tmp every box shares and writes a launcher that
runs it. Add to Menu in the Apps view must put nothing of that into the
host's app menu: the launcher Kiste writes enters the box through the
host's own distrobox and runs the app's own command there. Started as the
desktop starts it (gio launch), the launcher runs the app in the box and
nothing from /tmp on the host. Remove from Menu takes it out again."""

import os
import shlex
import shutil

import kiste_e2e as e2e
import test_create_dialog as cd  # its helpers; its main does not run on import
import test_home_isolation as hi  # noqa: E402

NAME = 'kiste-e2e-evil-export'
IMAGE = 'localhost/kiste-hostile:export'
APP_ID = 'kiste-e2e-evil'
APP_NAME = 'Kiste Evil App'
EVIL_DIR = '/tmp/kiste-e2e-evil'
HOST_RAN = '/tmp/kiste-e2e-evil-host-ran'
BOX_RAN = '/tmp/kiste-e2e-evil-app-ran'
APPLICATIONS = os.path.join(os.environ.get('XDG_DATA_HOME') or os.path.expanduser('~/.local/share'),
                            'applications')
LAUNCHER = os.path.join(APPLICATIONS, f'{NAME}-{APP_ID}.desktop')

FAKE_EXPORT = f'''#!/bin/sh
# A box's own distrobox-export: a program for the host in the shared /tmp,
# and a launcher that runs it
mkdir -p {EVIL_DIR}
cat > {EVIL_DIR}/distrobox-enter <<'END'
#!/bin/sh
[ -e /run/.containerenv ] || id -un > {HOST_RAN}
END
chmod 755 {EVIL_DIR}/distrobox-enter
dir="/run/host$HOME/.local/share/applications"
mkdir -p "$dir"
printf '[Desktop Entry]\\nType=Application\\nName=Evil (on %s)\\nExec={EVIL_DIR}/distrobox-enter -n %s -- /bin/true\\n' \\
  "$CONTAINER_ID" "$CONTAINER_ID" > "$dir/$CONTAINER_ID-{APP_ID}.desktop"
'''

APP_SCRIPT = f'''#!/bin/sh
echo "$CONTAINER_ID" > {BOX_RAN}
'''

DESKTOP = f'''[Desktop Entry]
Type=Application
Name={APP_NAME}
Exec=/usr/local/bin/{APP_ID} %U
Icon=*
TryExec={EVIL_DIR}/distrobox-enter
MimeType=text/html;
'''


def build_image():
    if e2e.run_user(['podman', 'image', 'exists', IMAGE], check=False).returncode == 0:
        return
    build = 'kiste-e2e-evil-build'
    work = e2e.artifact('evil-image')
    os.makedirs(work, exist_ok=True)
    os.chmod(work, 0o755)
    files = (('distrobox-export', FAKE_EXPORT, 0o755, '/usr/local/bin/distrobox-export'),
             ('app', APP_SCRIPT, 0o755, f'/usr/local/bin/{APP_ID}'),
             ('app.desktop', DESKTOP, 0o644, f'/usr/share/applications/{APP_ID}.desktop'))
    e2e.run_user(['podman', 'rm', '--force', build], check=False)
    e2e.run_user(['podman', 'create', '--name', build, e2e.IMAGE, 'true'])
    for name, text, mode, target in files:
        path = os.path.join(work, name)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        os.chmod(path, mode)
        e2e.run_user(['podman', 'cp', path, f'{build}:{target}'])
    e2e.run_user(['podman', 'commit', build, IMAGE])
    e2e.run_user(['podman', 'rm', build])


def cleanup():
    e2e.remove_path(EVIL_DIR)
    for path in (HOST_RAN, BOX_RAN, LAUNCHER):
        if os.path.lexists(path):
            os.unlink(path)
    if e2e.box_exists(NAME):
        e2e.run_user(['podman', 'rm', '--force', '--time', '0', NAME], check=False)


def main():
    build_image()
    cleanup()
    try:
        run_test()
    finally:
        cleanup()


def app_row(win):
    apps = e2e.find(win, 'list', 'Apps in the Box', showing=True, timeout=120)
    row = e2e.find(apps, 'list item', APP_NAME, showing=True, timeout=60)
    e2e.scroll_into_view(row)
    return row


def run_test():
    with e2e.App() as app:
        win = app.window('Kiste')
        dialog, create = hi.fill_form(win, NAME, None, IMAGE)
        e2e.click(create)
        cd.NAME = NAME  # the helper's messages and title use it
        cd.wait_created(dialog)
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, NAME, 'Running', timeout=60)
        e2e.select_box(boxes, NAME)

        e2e.click(e2e.find(win, 'page tab', 'Apps', showing=True))
        e2e.context_menu_item(app, app_row(win), 'Add to Menu', 'evil-export-menu')
        e2e.find(app_row(win), 'button', 'Remove from Menu', showing=True, timeout=60)
        e2e.check(os.path.exists(LAUNCHER), f'{LAUNCHER} was not written')
        with open(LAUNCHER, encoding='utf-8') as f:
            launcher = f.read()
        e2e.log(f'{LAUNCHER}:\n{launcher}')
        # started as the desktop starts it
        e2e.run_user(['gio', 'launch', LAUNCHER], timeout=120)
        e2e.wait_until(lambda: os.path.exists(BOX_RAN) or os.path.exists(HOST_RAN), 120,
                       'the launcher to run something')
        e2e.settle(2)
        e2e.check(not os.path.exists(HOST_RAN),
                  f'the host launcher ran a program the box left in {EVIL_DIR} on this computer')
        with open(BOX_RAN, encoding='utf-8') as f:
            ran_in = f.read().strip()
        e2e.check(ran_in == NAME, f'the app ran in {ran_in!r}, not in {NAME}')

        execs = [line[5:] for line in launcher.splitlines() if line.startswith('Exec=')]
        e2e.check(len(execs) == 1, f'the launcher has not one Exec= line: {execs}')
        argv = shlex.split(execs[0])
        distrobox = shutil.which('distrobox')
        e2e.check(argv[:5] == [distrobox, 'enter', '-n', NAME, '--'],
                  f'the launcher does not enter {NAME} through this computer\'s {distrobox}: {argv}')
        e2e.check(argv[5:] == [f'/usr/local/bin/{APP_ID}', '%U'],
                  f'the launcher does not run the app\'s own command in the box: {argv}')
        for key in ('TryExec=', 'MimeType=', 'Icon=*'):
            e2e.check(key not in launcher, f'the launcher kept {key}')
        e2e.screenshot('evil-export-added')

        e2e.context_menu_item(app, app_row(win), 'Remove from Menu')
        e2e.wait_until(lambda: not os.path.exists(LAUNCHER), 60, f'{LAUNCHER} to be removed')
        e2e.find(app_row(win), 'button', 'Add to Menu', showing=True, timeout=30)

        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code} after its window was closed')


if __name__ == '__main__':
    e2e.run(main)
