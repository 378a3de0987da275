#!/bin/sh
# Stands in for "flatpak-spawn --host": like the real one, the command gets a
# fresh environment (here PATH and HOME) plus the --env= values, runs in
# --directory=, and a missing program is reported as a failed portal call.
dir=
envs=
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
while [ "$#" -gt 0 ]; do
    case "$1" in
        --host|--watch-bus) ;;
        --directory=*) dir="${1#--directory=}" ;;
        --env=*) envs="$envs $(quote "${1#--env=}")" ;;
        -*) printf 'unknown option %s\n' "$1" >&2; exit 1 ;;
        *) break ;;
    esac
    shift
done
if [ "$#" -eq 0 ]; then
    printf 'No command specified\n' >&2
    exit 1
fi
# Like the session helper, the program is looked up on our own PATH, not
# on a PATH given with --env=
if ! program=$(command -v "$1" 2>/dev/null); then
    printf 'Portal call failed: Failed to execute child process “%s” (No such file or directory)\n' "$1" >&2
    exit 1
fi
shift
set -- "$program" "$@"
cd "${dir:-$HOME}" || exit 1
eval "exec env -i PATH=\"\$PATH\" HOME=\"\$HOME\" $envs \"\$@\""
