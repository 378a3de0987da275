#!/usr/bin/env python3
# check-manager-door.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The manager is the only door to podman, docker and distrobox: fails when a
# file under src/ outside src/core/ reaches past it, calling
# kiste_manager_get_runner(), a kiste_runner_* or a kiste_commands_*
# function. Widgets ask the manager (kiste-manager.h) instead.
#
# Usage: check-manager-door.py SOURCE_ROOT
#        check-manager-door.py --self-test

import os
import re
import sys
import tempfile

FORBIDDEN = re.compile(r'\b(kiste_manager_get_runner|kiste_runner_\w+|kiste_commands_\w+)\b')


def find_violations(root):
    root = os.path.abspath(root)
    src = os.path.join(root, 'src')
    core = os.path.join(src, 'core')
    violations = []
    for directory, subdirs, files in os.walk(src):
        if os.path.commonpath([directory, core]) == core:
            subdirs[:] = []
            continue
        for name in sorted(files):
            if not name.endswith(('.c', '.h')):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding='utf-8') as f:
                for number, line in enumerate(f, 1):
                    for match in FORBIDDEN.finditer(line):
                        violations.append('%s:%d: %s' % (os.path.relpath(path, root),
                                                         number, match.group(1)))
    return violations


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'src', 'core'))
        with open(os.path.join(root, 'src', 'core', 'kiste-manager.c'), 'w') as f:
            f.write('kiste_runner_run_async (kiste_manager_get_runner (self), argv);\n')
        with open(os.path.join(root, 'src', 'kiste-window.c'), 'w') as f:
            f.write('kiste_manager_start_async (manager, name);\n')
        assert find_violations(root) == [], 'the core may use the runner'

        with open(os.path.join(root, 'src', 'kiste-page.c'), 'w') as f:
            f.write('  ok ();\n  argv = kiste_commands_stats_argv ("podman", name);\n'
                    '  kiste_runner_run_async (kiste_manager_get_runner (m), argv);\n')
        found = find_violations(root)
        assert found == ['src/kiste-page.c:2: kiste_commands_stats_argv',
                         'src/kiste-page.c:3: kiste_runner_run_async',
                         'src/kiste-page.c:3: kiste_manager_get_runner'], found
    print('self-test passed')


def main():
    if sys.argv[1:] == ['--self-test']:
        self_test()
        return 0
    if len(sys.argv) != 2:
        print(__doc__ or 'usage: check-manager-door.py SOURCE_ROOT', file=sys.stderr)
        return 2
    violations = find_violations(sys.argv[1])
    for violation in violations:
        print('%s: widgets ask the manager, not the runner or the command builders' % violation,
              file=sys.stderr)
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
