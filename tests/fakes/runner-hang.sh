#!/bin/sh
# Never finishes on its own. Writes "SHELL_PID CHILD_PID" to $1 so tests can
# check that both are gone after a timeout or cancel.
sleep 30 &
printf '%s %s\n' "$$" "$!" > "$1.tmp"
mv "$1.tmp" "$1"
printf 'waiting\n'
printf 'still waiting\n'
wait
