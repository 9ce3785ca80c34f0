#!/usr/bin/env bash
# Regenerate the committed references, each as ONE sweep (one `harness.run` invocation: one machine,
# one load, the runs shuffled together), so that every figure and ratio drawn from it compares like
# with like (issue 17). Each reference's database is removed first (git keeps the old one), then
# every loop strategy runs with its defaults (implied=true everywhere, one model for all) under one
# time limit, one run at a time (--jobs 1: on a shared 2-core machine a second job is load), and
# the plots are redrawn. CPU-heavy: about an hour on two cores; run one reference by naming it.
#
#   results/regenerate.sh [reference|reference-hard|reference-slither|performance|scaling|all]
#
# Run from the repository root with the project installed. `python -m harness.compare --db DB A B`
# then compares within the sweep (and would say ACROSS SWEEPS otherwise).
set -euo pipefail

STRATEGIES=circuit,lazy,sat,propagator,asp
LIMIT=60

one_sweep() {  # DIR INSTANCE_SET [more harness.run arguments]
    local dir=results/$1 set=$2
    shift 2
    mkdir -p "$dir"
    rm -f "$dir"/runs.sqlite "$dir"/runs.sqlite-wal "$dir"/runs.sqlite-shm "$dir"/runs.parquet
    rm -rf "$dir"/steps
    python -m harness.run --encoding "$STRATEGIES" --instances "$set" --time-limit "$LIMIT" --jobs 1 \
        --db "$dir"/runs.sqlite "$@"
    python -m harness.plot --db "$dir"/runs.sqlite --out "$dir"/plots
}

case "${1:-all}" in
    reference) one_sweep reference masyu-janko-java --seed 0 1 2 ;;  # the README's headline: three seeds
    reference-hard) one_sweep reference-hard masyu-hard ;;
    reference-slither) one_sweep reference-slither slither-janko ;;
    performance)
        one_sweep performance masyu-pm-hard-large
        # implied.sqlite held circuit, sat and propagator with implied=true when it was not yet the
        # default; every strategy has it by default now, so runs.sqlite above is that comparison.
        rm -f results/performance/implied.sqlite ;;
    scaling) one_sweep scaling masyu-scaling ;;
    all)
        for name in reference reference-hard reference-slither performance scaling; do "$0" "$name"; done ;;
    *) echo "usage: $0 [reference|reference-hard|reference-slither|performance|scaling|all]" >&2; exit 2 ;;
esac
