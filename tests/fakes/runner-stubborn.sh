#!/bin/sh
# Like runner-hang.sh, but ignores the polite signals (the child inherits
# that), so only SIGKILL ends it.
trap '' TERM INT
sleep 30 &
printf '%s %s\n' "$$" "$!" > "$1.tmp"
mv "$1.tmp" "$1"
wait
