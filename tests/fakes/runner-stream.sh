#!/bin/sh
# Lines on both streams, a "\r" progress line, and a last line without a
# newline; exits with $1 (default 0).
printf 'out 1\n'
printf 'err 1\n' >&2
printf 'progress 10%%\rprogress 100%%\n'
printf 'err 2\n' >&2
printf 'out 3\n'
i=0
while [ "$i" -lt 8 ]; do
    printf 'warn %d\n' "$i" >&2
    i=$((i + 1))
done
printf 'no newline at end'
exit "${1:-0}"
