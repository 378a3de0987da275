#!/bin/sh
# run-bench.sh
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The box store's refresh against a bare `podman ps` and `distrobox list`,
# on real boxes, and the processes one refresh starts.
#
# Usage: tests/bench/run-bench.sh BENCH_PROGRAM IMAGE [LATENCY_PROGRAM]
#
# Run it as the user whose rootless podman is measured (with its
# XDG_RUNTIME_DIR). It creates boxes named kiste-bench-NNN from IMAGE with
# `distrobox create --yes --no-entry` (they are never started) until each
# size in KISTE_BENCH_SIZES exists, measures at each size, then measures
# KISTE_BENCH_FAKE_BOXES boxes replayed by a fake podman from the recorded
# output of the real ones, and removes the boxes it created. Other boxes of
# the user are listed too; each line says how many there were.
#
# With KISTE_BENCH_TOOLBX_IMAGE set, every second box is a toolbox made
# from that image with `toolbox create` (Toolbx and distrobox side by side,
# from the same ps).
#
# Environment: KISTE_BENCH_SIZES (default "1 20 100"), KISTE_BENCH_RUNS
# (timed runs per measurement, default 21), KISTE_BENCH_FAKE_BOXES (1000),
# KISTE_BENCH_FAKE_LIST_RUNS (runs of distrobox list on the fake, default 3:
# it takes over a minute per run there), KISTE_BENCH_OUTPUT (a file each
# result line is appended to).

set -eu

usage="usage: run-bench.sh BENCH_PROGRAM IMAGE [LATENCY_PROGRAM]"
bench=${1:?$usage}
image=${2:?$usage}
latency=${3:-}
sizes=${KISTE_BENCH_SIZES:-1 20 100}
runs=${KISTE_BENCH_RUNS:-21}
fake_boxes=${KISTE_BENCH_FAKE_BOXES:-1000}
fake_list_runs=${KISTE_BENCH_FAKE_LIST_RUNS:-3}
output=${KISTE_BENCH_OUTPUT:+--output=$KISTE_BENCH_OUTPUT}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
created=""
count=0

cleanup () {
  if [ -n "$created" ]; then
    # shellcheck disable=SC2086 # one word per box name
    podman rm -f $created >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if podman ps -a --format '{{.Names}}' | grep -q '^kiste-bench-'; then
  echo "run-bench.sh: remove the kiste-bench-* boxes of an earlier run first" >&2
  exit 1
fi

header=""
for size in $sizes; do
  while [ "$count" -lt "$size" ]; do
    count=$((count + 1))
    name=$(printf 'kiste-bench-%03d' "$count")
    created="$created $name"
    if [ -n "${KISTE_BENCH_TOOLBX_IMAGE:-}" ] && [ $((count % 2)) = 0 ]; then
      set -- toolbox create --assumeyes --image "$KISTE_BENCH_TOOLBX_IMAGE" "$name"
    else
      set -- distrobox create --yes --no-entry --image "$image" --name "$name"
    fi
    "$@" >"$work/create.log" 2>&1 || {
      cat "$work/create.log" >&2
      exit 1
    }
  done

  echo "# $size bench boxes, $(podman ps -a -q | wc -l) containers in all"
  # shellcheck disable=SC2086 # empty or one option each
  "$bench" real --runs "$runs" $header $output
  header=--no-header
done

if [ -n "$latency" ] && [ "$count" -gt 0 ]; then
  echo "# a box stopped and started on the command line, $(podman ps -a -q | wc -l) containers in all"
  # shellcheck disable=SC2086 # empty or one option
  "$latency" --box kiste-bench-001 $output
fi

template="$here/../fixtures/ps-podman5.json"
if [ "$count" -gt 0 ]; then
  podman ps -a --no-trunc --format json >"$work/recorded.json"
  template="$work/recorded.json"
fi

echo "# $fake_boxes boxes replayed by a fake podman from $(basename "$template")"
# shellcheck disable=SC2086
"$bench" fake --boxes "$fake_boxes" --runs "$runs" --list-runs "$fake_list_runs" \
  --template "$template" $header $output
