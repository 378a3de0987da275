# test_updates.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later

"""Check for Updates against a real registry on this computer (setup-env
starts it on 127.0.0.1:5000; the test user's registries.conf lets it speak
plain HTTP): image A pushed as localhost:5000/kiste/test:latest and pulled,
a box made from it; Check for Updates finds nothing new. Image B pushed
under the same tag: Check for Updates says "Newer image available" on the
box's row (to a screen reader too) and its page, with B's date, and nothing was pulled (the local
tag still names A's digest)."""

import json
import os
import shutil
import tarfile
import tempfile
import urllib.request

import kiste_e2e as e2e

BOX = 'kiste-e2e-updates'
REMOTE = 'localhost:5000/kiste/test:latest'
LOCAL_A = 'localhost/kiste-e2e-updates:a'
LOCAL_B = 'localhost/kiste-e2e-updates:b'
TIMEOUT = 60.0


def registry_answers():
    try:
        with urllib.request.urlopen('http://127.0.0.1:5000/v2/', timeout=5) as answer:
            return answer.status == 200
    except OSError:
        return False


def import_image(tag, content):
    """A tiny image of one file, made here: no registry needed to make it."""
    folder = tempfile.mkdtemp(prefix='kiste-e2e-updates-')
    try:
        path = os.path.join(folder, 'rootfs.tar')
        data = os.path.join(folder, 'content')
        with open(data, 'w', encoding='utf-8') as f:
            f.write(content)
        with tarfile.open(path, 'w') as tar:
            tar.add(data, arcname='etc/kiste-e2e-updates')
        e2e.run_user(['podman', 'import', '--change', f'LABEL kiste.e2e={content}', path, tag])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def push(local):
    # the test's own tool call; Kiste itself passes no TLS flag
    e2e.run_user(['podman', 'push', '--tls-verify=false', local, f'docker://{REMOTE}'])


def remote_digest():
    return e2e.run_user(['skopeo', 'inspect', '--format', '{{.Digest}}',
                         f'docker://{REMOTE}']).stdout.strip()


def local_image():
    proc = e2e.run_user(['podman', 'image', 'inspect', '--format', 'json', REMOTE])
    data = json.loads(proc.stdout)[0]
    digests = {data.get('Digest')} | {d.split('@', 1)[1] for d in data.get('RepoDigests') or [] if '@' in d}
    return data['Id'], digests


def check_for_updates(app, win):
    e2e.choose_menu_item(app, e2e.find(win, 'toggle button', 'Main Menu', showing=True),
                         'Check for Updates')


def row_says_newer(lst):
    row = e2e.find_box_row(lst, BOX)
    return 'Newer image available' in e2e.row_texts(row)


def page_update_text(win):
    for row in e2e.find_all(win, 'list item', 'Image Updates', showing=True):
        texts = [t for t in e2e.row_texts(row) if t != 'Image Updates']
        if texts:
            return texts[0]
    return None


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
        e2e.run_user(['podman', 'rmi', '--force', REMOTE, LOCAL_A, LOCAL_B], check=False)


def run_test():
    e2e.run_user(['podman', 'rmi', '--force', REMOTE, LOCAL_A, LOCAL_B], check=False)
    import_image(LOCAL_A, 'a')
    import_image(LOCAL_B, 'b')
    push(LOCAL_A)
    # as a user would have it: pulled from the registry, which records its digest
    e2e.run_user(['podman', 'pull', REMOTE])
    digest_a = remote_digest()
    id_a, digests_a = local_image()
    e2e.check(digest_a in digests_a, f'the pulled image does not know its digest {digest_a}: {digests_a}')

    with e2e.box(BOX, image=REMOTE):
        with e2e.App() as app:
            win = app.window('Kiste')
            lst = e2e.box_list(win)
            e2e.select_box(lst, BOX)
            e2e.wait_row_text(win, 'Image Updates', 'Not checked yet', timeout=TIMEOUT)

            check_for_updates(app, win)
            e2e.wait_row_text(win, 'Image Updates', 'Up to date', timeout=TIMEOUT)
            e2e.check(not row_says_newer(lst), 'the row says "Newer image available" for the same image')
            e2e.screenshot('updates-current')

            push(LOCAL_B)
            digest_b = remote_digest()
            e2e.check(digest_b != digest_a, 'pushing image B did not change the tag\'s digest')

            check_for_updates(app, win)
            e2e.wait_until(lambda: row_says_newer(lst), TIMEOUT,
                           'the row to say "Newer image available"')
            e2e.wait_until(lambda: (page_update_text(win) or '').startswith('Newer image available, made '),
                           TIMEOUT, 'the page to say "Newer image available, made …"')
            # a screen reader hears it too, in the row's description
            e2e.wait_until(lambda: (e2e.find_box_row(lst, BOX).get_description() or '')
                           .startswith('Newer image available'),
                           TIMEOUT, 'the row\'s description to say "Newer image available"')
            e2e.settle()
            e2e.screenshot('updates-newer')
            code = app.close()
            e2e.check(code == 0, f'the app exited with code {code}')

    # nothing was pulled: the tag still names image A
    id_now, digests_now = local_image()
    e2e.check(id_now == id_a, f'the local tag changed image: {id_a} -> {id_now}')
    e2e.check(digest_a in digests_now and digest_b not in digests_now,
              f'the local image\'s digests changed: {digests_now}')


e2e.run(main)
