#!/bin/sh
# Exits at once but leaves a background process holding stdout open.
# Its pid goes to $1 so the test can clean up.
sleep 30 &
printf '%s\n' "$!" > "$1"
printf 'started\n'
exit 0
