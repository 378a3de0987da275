#!/bin/sh
# Prints each argument on a line of its own, so tests can see argv arrive
# unchanged (no shell ever re-reads it).
for arg in "$@"; do
    printf '%s\n' "$arg"
done
printf '%d arguments\n' "$#" >&2
