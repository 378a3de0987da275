#!/bin/sh
# compare-builds.sh
#
# Copyright 2026 The Kiste authors
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The refresh, start-up and memory benchmarks of two builds of Kiste (a
# change and what came before it), in turns in one run, so that both meet
# the same machine: each build's store benchmark (1000 boxes through a fake
# podman) and window benchmark (first frame, list filled, memory), ROUNDS
# times, old first. Every result line goes to stdout with the build's name
# in front; the benchmarks' own lines say what each figure is.
#
# Usage: tests/bench/compare-builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]
#
# Environment: KISTE_BENCH_BOXES (default 1000), KISTE_BENCH_RUNS (timed
# refreshes per store measurement, default 21), KISTE_BENCH_WINDOW_RUNS
# (starts of each window, default 7).

set -eu

usage="usage: compare-builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS]"
old=${1:?$usage}
new=${2:?$usage}
rounds=${3:-2}
boxes=${KISTE_BENCH_BOXES:-1000}
runs=${KISTE_BENCH_RUNS:-21}
window_runs=${KISTE_BENCH_WINDOW_RUNS:-7}
source_root=$(cd "$(dirname "$0")/../.." && pwd)
fixtures=$source_root/tests/fixtures

# The store's header line once ($header empty), then result lines only
header=
run_store () {
  build=$1
  LC_ALL=C.UTF-8 KISTE_SPAWN_HELPER="$build/src/kiste-spawn-helper" \
    "$build/tests/bench/kiste-bench-store" fake --boxes "$boxes" --runs "$runs" \
    --list-runs 0 --cold-runs 7 --idle-seconds 5 ${header:+--no-header} \
    --template "$fixtures/ps-podman5.json"
}

run_window () {
  build=$1
  LC_ALL=C.UTF-8 KISTE_SPAWN_HELPER="$build/src/kiste-spawn-helper" \
    GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" GDK_BACKEND=x11 \
    NO_AT_BRIDGE=1 DBUS_SESSION_BUS_ADDRESS=disabled: GDK_DEBUG=no-portals \
    xvfb-run -a -s '-screen 0 1280x800x24' "$build/tests/bench/kiste-bench-window" \
    --boxes "$boxes" --runs "$window_runs" --refreshes 5 \
    --template "$fixtures/ps-podman5.json" \
    --help-text "$fixtures/help-distrobox-1.8.2.5.txt" 2>/dev/null
}

for round in $(seq "$rounds"); do
  for pair in "old $old" "new $new"; do
    set -- $pair
    run_store "$2" | grep -v '^#' | sed "s/^/$1 store  (round $round): /"
    header=shown
    run_window "$2" | grep -v '^#' | sed "s/^/$1 window (round $round): /"
  done
done
