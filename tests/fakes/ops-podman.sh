#!/bin/sh
# Stands in for podman in the start monitor tests: container inspect,
# start, inspect --format {{.State.Status}} and logs --follow, replaying
# first starts captured from distrobox 1.8.2.5 boxes.
#
# KISTE_FAKE_STATE   a folder for the box's state between calls:
#                    status    the box's state ("exited" when missing)
#                    calls     one line per call, arguments joined by "|"
#                    logs.pid  the process id of the last logs call
# KISTE_FAKE_SCENARIO what logs does:
#   progress      a whole first start, a few lines at a time, then keeps following
#   error         the start whose init hook failed; the box exits, so does logs
#   dies          part of a start; the box exits, so does logs
#   dies-quietly  part of a start; the box exits but logs keeps running
#   hang          two lines, then nothing
#   warning       a short start with a "Warning:" line
#   start-fails   start itself fails as podman does
# KISTE_FAKE_LOG_DRIVER  the log driver inspect reports (default k8s-file)
# KISTE_FAKE_BOX     the only box that exists (default fx-first)

state=${KISTE_FAKE_STATE:?}
fixtures=${KISTE_TEST_FIXTURES:?}
scenario=${KISTE_FAKE_SCENARIO:-progress}
box=${KISTE_FAKE_BOX:-fx-first}

(IFS='|'; printf '%s\n' "$*") >> "$state/calls"

box_status () {
    cat "$state/status" 2>/dev/null || echo exited
}

no_such_box () {
    printf 'Error: no container with name or ID "%s" found: no such container\n' "$1" >&2
    exit 125
}

# Prints a fixture a few lines at a time, like a box that is busy.
replay () {
    n=0
    while IFS= read -r line; do
        printf '%s\n' "$line"
        n=$((n + 1))
        if [ $((n % 150)) -eq 0 ]; then
            sleep 0.01
        fi
    done
}

case "$1" in
container)
    # container inspect NAME
    [ "$2" = inspect ] && [ "$3" = "$box" ] || no_such_box "$3"
    status=$(box_status)
    if [ "$status" = running ]; then
        json=logs-inspect-running.json
    else
        json=logs-inspect-exited.json
    fi
    sed -e "s/\"Status\": \"[a-z]*\"/\"Status\": \"$status\"/" \
        -e "s/\"Type\": \"k8s-file\"/\"Type\": \"${KISTE_FAKE_LOG_DRIVER:-k8s-file}\"/" \
        "$fixtures/$json"
    ;;
start)
    [ "$2" = "$box" ] || no_such_box "$2"
    if [ "$scenario" = start-fails ]; then
        printf 'Error: unable to start container "%s": runc create failed: unable to start container process\n' "$2" >&2
        exit 125
    fi
    echo running > "$state/status"
    echo "$2"
    ;;
inspect)
    # inspect --type container --format {{.State.Status}} NAME
    eval "last=\${$#}"
    [ "$last" = "$box" ] || no_such_box "$last"
    box_status
    ;;
logs)
    echo $$ > "$state/logs.pid"
    case "$scenario" in
    progress)
        replay < "$fixtures/logs-first-start-debian.txt"
        exec sleep 600
        ;;
    error)
        replay < "$fixtures/logs-first-start-error.txt"
        echo exited > "$state/status"
        ;;
    dies)
        head -n 600 "$fixtures/logs-first-start-debian.txt"
        echo exited > "$state/status"
        ;;
    dies-quietly)
        head -n 600 "$fixtures/logs-first-start-debian.txt"
        echo exited > "$state/status"
        exec sleep 600
        ;;
    hang)
        head -n 2 "$fixtures/logs-first-start-debian.txt"
        exec sleep 600
        ;;
    warning)
        printf '%s\n' \
            "distrobox: Setting up read-write mounts..." \
            "+ mount_bind /var/home /run/host/home" \
            "Warning: Cannot bind mount /var/home to /run/host/home" \
            "distrobox: Setting up host's sockets integration..." \
            "container_setup_done"
        exec sleep 600
        ;;
    *)
        exit 0
        ;;
    esac
    ;;
*)
    printf 'Error: unknown command "%s"\n' "$1" >&2
    exit 125
    ;;
esac
