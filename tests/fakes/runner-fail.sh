#!/bin/sh
# Fails with the exit status given as $1 after some output on both streams.
printf 'partial output\n'
i=1
while [ "$i" -le 7 ]; do
    printf 'line %d\n' "$i" >&2
    i=$((i + 1))
done
printf 'Error: something broke\n\n' >&2
exit "${1:-1}"
