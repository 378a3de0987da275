# test_docker.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Docker boxes beside podman's, on the real engines: a box made with
docker (`DBX_CONTAINER_MANAGER=docker distrobox create`) and one made
with podman show in one list, each row naming its engine; a terminal in
the docker box starts it on docker and is a shell inside it (read back
through AT-SPI); Stop stops it on docker; the podman box is left alone,
and the app runs one ps and one events stream per engine."""

import subprocess
import time

import kiste_e2e as e2e

PODMAN_BOX = 'kiste-e2e-dk-podman'
DOCKER_BOX = 'kiste-e2e-dk-docker'
# docker's first start runs distrobox-init's setup of the user
START_TIMEOUT = 240.0
OPERATION_TIMEOUT = 120.0


def docker(argv, check=True, timeout=300):
    return e2e.run_user(['docker', *argv], check=check, timeout=timeout)


def docker_state(name):
    proc = docker(['inspect', '--format', '{{.State.Status}}', name], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def remove_docker_box(name):
    if docker_state(name) is not None:
        e2e.run_user(['env', 'DBX_CONTAINER_MANAGER=docker', 'distrobox', 'rm', '--force', name],
                     check=False, timeout=120)
    if docker_state(name) is not None:
        docker(['rm', '--force', name], check=False)


def terminal_lines(term):
    return [line.rstrip() for line in e2e.get_text(term).splitlines()]


def type_line(term, text):
    e2e.click_at(term)
    e2e.log(f'type {text!r}')
    e2e.Atspi.generate_keyboard_event(0, text, e2e.Atspi.KeySynthType.STRING)
    e2e.press_key(0xff0d)  # Return


def app_commands(pid):
    """The command lines of the processes the app started (its children)."""
    out = subprocess.run(['ps', '-o', 'args=', '--ppid', str(pid)],
                         capture_output=True, text=True, check=False).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def main():
    if docker(['info'], check=False, timeout=60).returncode != 0:
        e2e.skip('docker is not installed or its daemon does not answer the test user')
    if docker(['image', 'inspect', e2e.IMAGE], check=False).returncode != 0:
        e2e.skip(f'docker has no {e2e.IMAGE} (setup-env loads it from podman)')
    try:
        run_test()
    finally:
        remove_docker_box(DOCKER_BOX)
        if e2e.box_exists(PODMAN_BOX):
            e2e.remove_box(PODMAN_BOX)


def run_test():
    remove_docker_box(DOCKER_BOX)
    e2e.run_user(['env', 'DBX_CONTAINER_MANAGER=docker', 'distrobox', 'create', '--yes',
                  '--no-entry', '--image', e2e.IMAGE, '--name', DOCKER_BOX], timeout=300)
    e2e.check(docker_state(DOCKER_BOX) == 'created', f'docker has no created box {DOCKER_BOX}')

    with e2e.box(PODMAN_BOX):
        with e2e.App() as app:
            win = app.window('Kiste')
            boxes = e2e.box_list(win, timeout=30)

            # One list, each row naming its engine
            docker_row = e2e.find_box_row(boxes, DOCKER_BOX, timeout=30)
            podman_row = e2e.find_box_row(boxes, PODMAN_BOX, timeout=30)
            e2e.wait_until(lambda: e2e.row_engine(docker_row) == 'Docker', 10.0,
                           f'the row of {DOCKER_BOX} to say Docker: {docker_row.get_name()!r}')
            e2e.check(e2e.row_engine(podman_row) == 'Podman',
                      f'the row of {PODMAN_BOX} does not say Podman: {podman_row.get_name()!r}')
            e2e.check('Docker' in e2e.row_texts(docker_row),
                      f'the row of {DOCKER_BOX} shows {e2e.row_texts(docker_row)}')
            e2e.settle()
            e2e.screenshot('docker-beside-podman')

            # Idle: one events stream per engine, and no ps left running
            commands = app_commands(app.pid)
            e2e.log(f'the app runs: {commands}')
            for engine in ('podman', 'docker'):
                streams = [c for c in commands if c.startswith(f'{engine} events')]
                e2e.check(len(streams) == 1, f'{len(streams)} {engine} events streams: {commands}')
            e2e.check(not [c for c in commands if ' ps ' in f' {c} '],
                      f'a ps still runs while the app is idle: {commands}')

            # The details say docker
            e2e.select_box(boxes, DOCKER_BOX)
            page = e2e.find(win, 'grouping', DOCKER_BOX, showing=True)
            e2e.wait_row_text(page, 'Container Manager', 'Docker')

            # A terminal starts it on docker and is a shell inside it
            e2e.click(e2e.find(page, 'button', 'Open Terminal', showing=True))
            term = e2e.find(win, 'terminal', 'Terminal', showing=True, timeout=30)
            e2e.find_box_row(boxes, DOCKER_BOX, 'Running', timeout=START_TIMEOUT)
            e2e.check(docker_state(DOCKER_BOX) == 'running', f'docker says {docker_state(DOCKER_BOX)}')
            e2e.wait_until(lambda: [l for l in terminal_lines(term) if l.strip()][-1:] and
                           [l for l in terminal_lines(term) if l.strip()][-1].endswith(('$', '#', '>')),
                           START_TIMEOUT, 'a shell prompt in the docker box')
            type_line(term, 'test -f /.dockerenv && echo "IN-DOCKER:$CONTAINER_ID"')
            e2e.wait_until(lambda: f'IN-DOCKER:{DOCKER_BOX}' in terminal_lines(term), 30.0,
                           'the shell to say it runs in the docker box')
            e2e.settle()
            e2e.screenshot('docker-terminal')
            e2e.check(docker_state(PODMAN_BOX) is None, f'{PODMAN_BOX} is a docker container too')
            e2e.check(not e2e.inspect_box(PODMAN_BOX).get('State', {}).get('Running'),
                      f'{PODMAN_BOX} was started')
            type_line(term, 'exit')
            e2e.click(e2e.find(win, 'button', 'Close Tab', showing=True, timeout=15))

            # Stop, on docker
            e2e.select_box(boxes, DOCKER_BOX)
            page = e2e.find(win, 'grouping', DOCKER_BOX, showing=True)
            e2e.click(e2e.find(page, 'button', 'Stop', showing=True))
            dialog = e2e.find_alert(win, f'Stop “{DOCKER_BOX}”?')
            e2e.respond(dialog, 'Stop')
            stopped = time.monotonic()
            e2e.find_box_row(boxes, DOCKER_BOX, 'Stopped', timeout=OPERATION_TIMEOUT)
            e2e.log(f'{DOCKER_BOX} stopped {time.monotonic() - stopped:.1f} s after confirming')
            e2e.check(docker_state(DOCKER_BOX) == 'exited', f'docker says {docker_state(DOCKER_BOX)}')
            e2e.find_box_row(boxes, PODMAN_BOX, timeout=5)


e2e.run(main)
