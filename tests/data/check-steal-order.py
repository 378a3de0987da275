#!/usr/bin/env python3
# check-steal-order.py
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A call must not both steal a pointer and use it: in
#
#   start_async (data->self->cancellable, callback, g_steal_pointer (&data));
#
# C leaves the order of the arguments open, and an optimised build (the
# Flatpak's) may steal first and then read through NULL. The debug build
# of the test suites happens to read first, so only this check sees it.
# Fails for every call under src/ that passes g_steal_pointer (&NAME) and
# names NAME in another argument; take what is needed into a variable
# before the call instead.
#
# Usage: check-steal-order.py SOURCE_ROOT
#        check-steal-order.py --self-test

import os
import re
import sys
import tempfile

STEAL = re.compile(r'g_steal_pointer\s*\(\s*&\s*(\w+)\s*\)')
# comments and string or character literals, blanked before looking
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


def blank(match):
    return re.sub(r'[^\n]', ' ', match.group(0))


def enclosing_call(text, pos):
    """(start, end) of the argument list around pos: from the unmatched
    '(' before it to its matching ')'; None outside any call."""
    depth = 0
    start = pos - 1
    while start >= 0:
        c = text[start]
        if c == ')':
            depth += 1
        elif c == '(':
            if depth == 0:
                break
            depth -= 1
        elif c in ';{}' and depth == 0:
            return None
        start -= 1
    if start < 0:
        return None
    depth = 0
    for end in range(start, len(text)):
        if text[end] == '(':
            depth += 1
        elif text[end] == ')':
            depth -= 1
            if depth == 0:
                return start + 1, end
    return None


def violations_in(text):
    """(line, name) of each call that steals name and uses it too."""
    text = NOISE.sub(blank, text)
    found = []
    for match in STEAL.finditer(text):
        span = enclosing_call(text, match.start())
        if span is None:
            continue
        args = text[span[0]:match.start()] + ' ' * len(match.group(0)) + text[match.end():span[1]]
        name = re.escape(match.group(1))
        # the name itself, not a member of that name (self->name, s.name)
        if re.search(r'(?<!->)(?<![\w.])' + name + r'\b', args):
            found.append((text.count('\n', 0, match.start()) + 1, match.group(1)))
    return found


def find_violations(root):
    root = os.path.abspath(root)
    result = []
    for directory, _, files in os.walk(os.path.join(root, 'src')):
        for filename in sorted(files):
            if not filename.endswith('.c'):
                continue
            path = os.path.join(directory, filename)
            with open(path, encoding='utf-8') as f:
                for line, name in violations_in(f.read()):
                    result.append(f'{os.path.relpath(path, root)}:{line}: {name} is used in the '
                                  f'call that steals it')
    return sorted(result)


def self_test():
    good = '''
static void cb (void)
{
  GCancellable *cancellable = data->self->cancellable;
  start_async (path, cancellable, done_cb, g_steal_pointer (&data));
  g_task_return_error (task, g_steal_pointer (&error));
  self->files = g_steal_pointer (&files);
  set (self->data, "a string with data, (&data)", g_steal_pointer (&data));
  /* start_async (data->self, g_steal_pointer (&data)); */
  finish (g_steal_pointer (&task), g_steal_pointer (&error));
}
'''
    assert violations_in(good) == [], violations_in(good)
    bad = '''
static void cb (void)
{
  start_async (path, data->self->cancellable,
               done_cb, g_steal_pointer (&data));
  reload_async (store, g_task_get_cancellable (task), done_cb, g_steal_pointer (&task));
  take (g_steal_pointer (&op), op);
}
'''
    assert violations_in(bad) == [(5, 'data'), (6, 'task'), (7, 'op')], violations_in(bad)
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, 'src', 'core'))
        with open(os.path.join(root, 'src', 'core', 'a.c'), 'w', encoding='utf-8') as f:
            f.write(bad)
        with open(os.path.join(root, 'src', 'b.c'), 'w', encoding='utf-8') as f:
            f.write(good)
        found = find_violations(root)
        assert len(found) == 3 and all(v.startswith('src/core/a.c:') for v in found), found
    print('self-test passed')
    return 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2:
        print('usage: check-steal-order.py SOURCE_ROOT | --self-test', file=sys.stderr)
        return 2
    found = find_violations(sys.argv[1])
    for v in found:
        print(v, file=sys.stderr)
    if found:
        print(f'{len(found)} call(s) steal a pointer and use it in the same call: '
              'C does not say which comes first', file=sys.stderr)
        return 1
    print('no call steals a pointer it uses')
    return 0


if __name__ == '__main__':
    sys.exit(main())
