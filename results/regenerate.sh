#!/usr/bin/env bash
# Rebuild a study's database (or its benchmark's CSV) from the repository alone, then its plots: the
# one way every results/<study>/ here is made (results/fhcp/ and results/mip/ keep their own scripts).
#
#   results/regenerate.sh NAME [more harness.run arguments, e.g. --executor dask --scheduler ADDR]
#   NAME: reference reference-hard reference-slither performance scaling janko-loop graph proof-check
#         fuzz, or all (the five references and janko-loop: the database studies under an hour of CPU each)
#
# Run from the repository root with the project installed. Each database is ONE sweep (one
# `harness.run` invocation: one machine, one load, the runs shuffled together; issue 17) of each
# configuration with its defaults under one CPU-time limit, one run at a time (--jobs 1: on a shared
# 2-core machine a second job is load), so every figure drawn from it compares like with like; then
# `python -m harness.tables` remakes the READMEs' tables from it. How long each takes, estimated from
# the committed runs' own CPU columns: each study's README.
#
# Resumable by rerunning: a database that is git's committed copy is removed first (git keeps it);
# one that a rebuild has already changed is kept, and harness.run skips the runs it holds for this
# code, so an interrupted rebuild goes on where it stopped (the batches are sweeps of their own).
set -euo pipefail

STRATEGIES=circuit,lazy,sat,propagator,asp
LIMIT=60

fresh() {  # DB: start anew from git's committed copy; keep a rebuild in progress
    local db=$1
    if [ -e "$db" ] && git ls-files --error-unmatch "$db" >/dev/null 2>&1 && git diff --quiet -- "$db"; then
        rm -f "$db" "$db"-wal "$db"-shm "${db%.sqlite}.parquet"
    fi
}

sweep() {  # DB [harness.run arguments]: one sweep into DB
    local db=$1
    shift
    mkdir -p "$(dirname "$db")"
    fresh "$db"
    python -m harness.run --db "$db" "$@"
}

one_sweep() {  # DIR INSTANCE_SET [more harness.run arguments]: the five loop strategies, and the plots
    local dir=results/$1 set=$2
    shift 2
    rm -rf "$dir"/steps
    sweep "$dir"/runs.sqlite --encoding "$STRATEGIES" --instances "$set" --time-limit "$LIMIT" --jobs 1 "$@"
    python -m harness.plot --db "$dir"/runs.sqlite --out "$dir"/plots
}

name=${1:-all}
shift || true
case "$name" in
    reference) one_sweep reference masyu-janko-java --seed 0 1 2 "$@" ;;  # the README's headline: three seeds
    reference-hard) one_sweep reference-hard masyu-hard "$@" ;;
    reference-slither) one_sweep reference-slither slither-janko "$@" ;;
    performance) one_sweep performance masyu-pm-hard-large "$@" ;;
    scaling) one_sweep scaling masyu-scaling "$@" ;;
    janko-loop)
        sweep results/janko-loop/runs.sqlite --encoding sat,circuit,asp --instances geradeweg-janko \
            country-janko moonsun-janko castlewall-janko yajilin-janko --time-limit "$LIMIT" --jobs 1 "$@" ;;
    graph)  # five databases, each its own sweep
        dir=results/graph
        sweep "$dir"/runs.sqlite --encoding \
            circuit,lazy,sat,propagator,asp,dfs,sat:cuts=cutset,lazy:cuts=cutset,propagator:eager=all \
            --instances graph-hard graph-tsplib --time-limit "$LIMIT" --wall-limit 900 --jobs 1 "$@"
        python -m harness.plot --db "$dir"/runs.sqlite --out "$dir"/plots
        sweep "$dir"/lp.sqlite --encoding circuit-lp --instances graph-hard-nonhamiltonian \
            --time-limit "$LIMIT" --wall-limit 900 --jobs 1 "$@"
        sweep "$dir"/options-60s.sqlite --encoding sat:join=merge,cegar:phase=false,cegar \
            --instances graph-hard-hamiltonian graph-tsplib --time-limit "$LIMIT" --wall-limit 3600 --jobs 1 "$@"
        sweep "$dir"/frontier.sqlite --encoding frontier:order=rcm,frontier:order=greedy \
            --instances graph-hard graph-tsplib --time-limit "$LIMIT" --wall-limit 900 --jobs 1 "$@"
        # connect on graph-hard's four targets, written out of the bundled sets into a folder of our own
        targets=$(mktemp -d)
        trap 'rm -rf "$targets"' EXIT
        python -m harness.sets export graph-hard "$targets" >/dev/null
        python -m harness.sets export graph-tsplib "$targets" >/dev/null
        sweep "$dir"/connect-targets.sqlite --encoding connect --instances "$targets"/graph-grid-4900-s2026-000.txt \
            "$targets"/i324.txt "$targets"/graph-flower-84-s2026-000.txt "$targets"/graph-gp-nonham-502-s2026-000.txt \
            --kind graph --time-limit "$LIMIT" --wall-limit 1500 --jobs 1 "$@" ;;
    proof-check)  # no database: the benchmark's CSV (graph-hard's non-Hamiltonian graphs sat proves in 60 s)
        python tests/benchmarks/bench_proof_check.py --time-limit "$LIMIT" --csv results/proof-check/proof-check.csv \
            --instances graph-gp-nonham-22-s2026-000 graph-gp-nonham-58-s2026-000 graph-gp-nonham-106-s2026-000 \
            graph-flower-20-s2026-000 graph-flower-28-s2026-000 graph-flower-36-s2026-000 graph-flower-44-s2026-000 \
            graph-flower-52-s2026-000 graph-tutte-46-s2026-000 graph-grid-odd-81-s2026-000 \
            graph-gp-nonham-202-s2026-000 ;;
    fuzz)  # no database: the campaign's CSV and its full output, on one core
        python tests/benchmarks/bench_fuzz.py --csv results/fuzz/campaign.csv > results/fuzz/campaign.txt ;;
    all)
        for study in reference reference-hard reference-slither performance scaling janko-loop; do
            "$0" "$study" "$@"
        done ;;
    *) sed -n '5,7p' "$0" >&2; exit 2 ;;
esac
[ "$name" = all ] || python -m harness.tables
