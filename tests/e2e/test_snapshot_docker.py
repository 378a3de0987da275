# test_snapshot_docker.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Take Snapshot pauses a running box only while it is copied, on the
real docker daemon (which can pause, unlike rootless podman on cgroups
v1, whose boxes Kiste copies while they run). A box made with docker is
started, Take Snapshot is chosen from its ⋮ menu and the snapshot shows
in the page's Snapshots group. docker then has the image
localhost/kiste-snapshot:BOX-YYYYMMDD-HHMMSS with the box's label, its
events show exactly one pause followed by one unpause of the box during
the snapshot, the box runs (not paused) afterwards, and nothing Kiste
shows or logs says the box was copied while it ran. A commit without
pausing leaves no pause event and fails the test."""

import json
import re
import time

import kiste_e2e as e2e

BOX = 'kiste-e2e-dsnap'
LABEL = 'io.github.kiste.snapshot.box'
SNAPSHOT = re.compile(r'^localhost/kiste-snapshot:' + re.escape(BOX) + r'-\d{8}-\d{6}$')
# What Kiste says when the engine cannot pause (kiste-manager-snapshots.c)
UNPAUSED = 'cannot be paused here'
# docker's first start runs distrobox-init's setup of the user
START_TIMEOUT = 300.0
SNAPSHOT_TIMEOUT = 300.0


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


def snapshots():
    """The names of docker's images labelled as snapshots of the box."""
    proc = docker(['images', '--filter', f'label={LABEL}={BOX}', '--format', '{{.Repository}}:{{.Tag}}'])
    return [line.strip() for line in proc.stdout.splitlines() if line.strip()]


def pause_events(since, until):
    """The box's pause and unpause events between since and until (Unix
    times), oldest first."""
    proc = docker(['events', '--since', f'{since:.3f}', '--until', f'{until:.3f}',
                   '--filter', f'container={BOX}', '--filter', 'event=pause', '--filter', 'event=unpause',
                   '--format', '{{json .}}'], timeout=60)
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    for event in events:
        e2e.log(f'docker event: {json.dumps(event, sort_keys=True)}')
    return events


def ui_texts(root):
    """Every label and text of the app's accessible tree, showing or not."""
    texts = []
    for acc in e2e.walk(root):
        try:
            if e2e.role_name(acc) in ('label', 'text'):
                texts.append(e2e.get_text(acc) or '')
            texts.append(acc.get_name() or '')
        except e2e.GLib.Error:
            continue
    return texts


def main():
    if docker(['info'], check=False, timeout=60).returncode != 0:
        e2e.skip('docker is not installed or its daemon does not answer the test user')
    if docker(['image', 'inspect', e2e.IMAGE], check=False).returncode != 0:
        e2e.skip(f'docker has no {e2e.IMAGE} (setup-env loads it from podman)')
    try:
        run_test()
    finally:
        remove_docker_box(BOX)
        names = snapshots()
        if names:
            docker(['rmi', '--force', *names], check=False)


def run_test():
    remove_docker_box(BOX)
    stale = snapshots()
    if stale:
        docker(['rmi', '--force', *stale], check=False)
    e2e.run_user(['env', 'DBX_CONTAINER_MANAGER=docker', 'distrobox', 'create', '--yes',
                  '--no-entry', '--image', e2e.IMAGE, '--name', BOX], timeout=300)
    # Running, with distrobox-init done
    e2e.run_user(['env', 'DBX_CONTAINER_MANAGER=docker', 'distrobox', 'enter', '--name', BOX,
                  '--no-tty', '--', 'true'], timeout=START_TIMEOUT)
    e2e.check(docker_state(BOX) == 'running', f'docker says {docker_state(BOX)}, expected running')

    with e2e.App() as app:
        win = app.window('Kiste')
        boxes = e2e.box_list(win, timeout=30)
        e2e.find_box_row(boxes, BOX, 'Running', timeout=30)
        e2e.select_box(boxes, BOX)
        page = e2e.find(win, 'grouping', BOX, showing=True)
        # the docker box (rows name the engine only beside podman's boxes)
        e2e.wait_row_text(page, 'Container Manager', 'Docker')

        since = time.time() - 1.0
        e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'More Actions', showing=True),
                             'Take Snapshot')
        e2e.wait_until(lambda: len(snapshots()) == 1, SNAPSHOT_TIMEOUT, 'docker to have the snapshot')
        restore = e2e.find(win, 'button', 'Restore…', showing=True, timeout=60)
        e2e.scroll_into_view(restore)
        e2e.settle(1)
        until = time.time() + 1.0
        e2e.screenshot('snapshot-docker')

        # The image, named and labelled as a snapshot of the box
        name = snapshots()[0]
        e2e.log(f'the snapshot: {name}')
        e2e.check(SNAPSHOT.match(name), f'the snapshot is named {name!r}')
        labels = json.loads(docker(['image', 'inspect', '--format', '{{json .Config.Labels}}', name]).stdout)
        e2e.check((labels or {}).get(LABEL) == BOX, f'the snapshot is labelled {labels!r}')

        # Paused once while it was copied, and running again
        events = pause_events(since, until)
        actions = [event.get('Action') or event.get('status') for event in events]
        e2e.check(actions == ['pause', 'unpause'],
                  f'docker saw {actions} during the snapshot, expected one pause, then one unpause '
                  '(a box copied without pausing shows none)')
        state = json.loads(docker(['inspect', '--format', '{{json .State}}', BOX]).stdout)
        e2e.log(f'{BOX} afterwards: Status={state.get("Status")} Running={state.get("Running")} '
                f'Paused={state.get("Paused")}')
        e2e.check(state.get('Status') == 'running' and state.get('Running') and not state.get('Paused'),
                  f'the box is {state.get("Status")} after the snapshot, paused={state.get("Paused")}')
        e2e.find_box_row(boxes, BOX, 'Running', timeout=10)

        # Nothing says the box was copied while it ran: the task list ...
        e2e.click(e2e.find(win, 'toggle button', 'Tasks', showing=True))
        tasks = e2e.find(app.accessible, 'list', 'Tasks', showing=True)
        e2e.wait_until(lambda: e2e.find_all(tasks, 'list item'), 10.0, 'the snapshot\'s task in the list')
        # the lines a task adds are under its Output, folded
        unfold = e2e.find_all(tasks, 'button', 'Output', showing=True)
        e2e.check(unfold, 'the snapshot\'s task shows no Output')
        for output in unfold:
            e2e.click(output)
        e2e.settle()
        task_texts = [t for t in ui_texts(tasks) if t]
        e2e.log(f'the task list shows: {task_texts}')
        e2e.check(any(BOX in t for t in task_texts), f'the task list does not name {BOX}: {task_texts}')
        e2e.check(any('commit --pause=true' in t for t in task_texts),
                  f'the task\'s output shows no commit that pauses: {task_texts}')
        e2e.settle()
        e2e.screenshot('snapshot-docker-tasks')
        said = [t for t in ui_texts(app.accessible) if UNPAUSED in t]
        e2e.check(not said, f'the app says the box was copied while it ran: {said}')
        e2e.press_key(0xff1b)  # Escape
        code = app.close()
        e2e.check(code == 0, f'the app exited with code {code}')

    # ... and the app's log
    with open(app.log_path, encoding='utf-8', errors='replace') as f:
        logged = [line.rstrip() for line in f if UNPAUSED in line]
    e2e.check(not logged, f'the app logged that the box was copied while it ran: {logged}')


e2e.run(main)
