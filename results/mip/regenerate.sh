#!/usr/bin/env bash
# The mip study (issue 48), rebuilt from the repository alone: each database one sweep (one command,
# one commit, one host, the runs of every configuration shuffled together), then the tables of
# results/mip/README.md (`python -m harness.tables`).
#
#   results/mip/regenerate.sh NAME [more harness.run arguments, e.g. --executor slurm --jobs 40]
#   NAME: smoke           the five configurations on masyu-smoke and slither-smoke, seeds 0 1 2 (minutes)
#         masyu-default   the same on masyu-default, seed 0 (minutes), and the separation tables
#         reference       mip (its default), lazy, sat and circuit on the Masyu and Slitherlink reference
#                         sets (masyu-janko-java, slither-janko), seeds 0 1 2 (about an hour), and their
#                         separation table
#         graph-hard      every loop strategy and both mip modes on graph-hard, seeds 0 1 2 (hours), and its
#                         separation table
#         fhcp-sample     the same on fhcp-sample, seed 0 (hours: the longest)
#         kinds           both mip modes on every loop genre's janko set, slither-hard, graph-smoke and
#                         graph-tsplib, seed 0: every answer judged by its kind's checker (under an hour),
#                         then its separation table
#
# Resumable: rerunning a NAME continues its sweep (finished runs are kept; each rerun is a batch of the
# same sweep, joined in the tables when the plan, commit and host are the same: harness/analysis/
# batches.py), so a long one runs in batches that fit a session. It refuses to continue a database begun
# at another commit than this checkout's (its batches would be two sweeps): check that commit out
# (`git worktree add DIR COMMIT`) or set DB=... for a new database. Run from anywhere, with the project
# installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python}
LOOPS=lazy,sat,circuit
FIVE=mip,mip:separate=integral,$LOOPS
# mip at its default beside the loop strategies, without integral separation (the costliest of the five
# on Slitherlink), so the reference sets' three seeds fit about an hour of two cores
DEFAULTS=mip,$LOOPS
# every loop strategy that serves graphs, at its defaults, beside both separation modes of mip
EVERY=$FIVE,propagator,asp,eager,connect,frontier

sweep() {  # DB ENCODINGS [harness.run arguments]
    local db=$1 encodings=$2
    shift 2
    "$PYTHON" results/same_commit.py "$db"
    "$PYTHON" -m harness.run --encoding "$encodings" --time-limit 60 --order-seed 0 --db "$db" "$@"
}

name=${1:-}
shift || true
case "$name" in
    smoke) sweep "${DB:-results/mip/smoke.sqlite}" "$FIVE" --instances masyu-smoke slither-smoke \
        --seed 0 1 2 --jobs 1 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-smoke.csv results/mip/smoke.sqlite ;;
    masyu-default) sweep "${DB:-results/mip/masyu-default.sqlite}" "$FIVE" --instances masyu-default \
        --seed 0 --jobs 1 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-masyu-default.csv \
            results/mip/masyu-default.sqlite ;;
    reference) sweep "${DB:-results/mip/reference.sqlite}" "$DEFAULTS" --instances masyu-janko-java \
        slither-janko --seed 0 1 2 --jobs 2 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-reference.csv \
            results/mip/reference.sqlite ;;
    graph-hard) sweep "${DB:-results/mip/loops-graph-hard.sqlite}" "$EVERY" --instances graph-hard \
        --seed 0 1 2 --wall-limit 1200 --jobs 2 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-graph-hard.csv \
            results/mip/loops-graph-hard.sqlite ;;
    fhcp-sample) sweep "${DB:-results/mip/loops-fhcp-sample.sqlite}" "$EVERY" --instances fhcp-sample \
        --seed 0 --wall-limit 1200 --jobs 2 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-fhcp-sample.csv \
            results/mip/loops-fhcp-sample.sqlite ;;
    kinds) sweep "${DB:-results/mip/kinds.sqlite}" mip,mip:separate=integral --instances castlewall-janko \
        country-janko geradeweg-janko moonsun-janko yajilin-janko slither-hard graph-smoke graph-tsplib \
        --seed 0 --jobs 1 "$@"
        "$PYTHON" results/mip/separation.py --csv results/mip/separation-kinds.csv results/mip/kinds.sqlite ;;
    *) sed -n '6,17p' "$0" >&2; exit 2 ;;
esac
"$PYTHON" -m harness.tables results/mip/README.md
