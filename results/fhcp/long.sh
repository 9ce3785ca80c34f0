#!/usr/bin/env bash
# The long budget (issue 47, item 4): the public FHCP graphs no harness configuration solved within 60 s
# (`long.graphs`: the 60 graphs with no verified answer within 60 s in any database of results/fhcp at
# 251f348), each run once with `cegar-split-prepass` (sat's graph default when it began) at 1,800 s CPU, seed 0, into
# results/fhcp/long-1800s.sqlite; then the tables of results/fhcp/README.md. One run per graph gives its
# count at every cutoff up to 1,800 s (1, 10, 60, 300, 600 s too): run at 600 s first and again at
# 1,800 s, a graph needing more than 600 s would pay its first 600 s twice.
#
#   results/fhcp/long.sh [more harness.run arguments, e.g. --executor slurm --jobs 40]
#
# CORPUS is the folder of the public graphs (graphN.hcp.gz; default ../shared/corpus/fhcp/hcp beside the
# checkout); ENCODING, GRAPHS (a file of graph names) and DB another configuration's sweep, as
#   ENCODING=cegar-split-glucose GRAPHS=results/fhcp/long-great-hubs.graphs \
#       DB=results/fhcp/long-glucose-1800s.sqlite results/fhcp/long.sh --jobs 1
# (the great-hub family of long_families.py, on Glucose: results/fhcp/README.md). Resumable in batches at
# one commit (results/same_commit.py refuses another): a batch keeps every finished run, so a session that
# ends loses only the runs in flight; a batch given GRAPHS, a part of the sweep's list, runs those first
# and is still a batch of the sweep (harness/analysis/batches.py). On Slurm (docs/CLUSTER.md)
# give --executor slurm and its settings. Run from anywhere, with the project installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python}
CORPUS=${CORPUS:-../shared/corpus/fhcp/hcp}
DB=${DB:-results/fhcp/long-1800s.sqlite}
ENCODING=${ENCODING:-cegar-split-prepass}
GRAPHS=${GRAPHS:-results/fhcp/long.graphs}

mapfile -t graphs < <(sed "s|.*|$CORPUS/&.hcp.gz|" "$GRAPHS")
"$PYTHON" results/same_commit.py "$DB"
"$PYTHON" -m harness.run --encoding "$ENCODING" --instances "${graphs[@]}" --kind graph \
    --time-limit 1800 --wall-limit 3600 --seed 0 --order-seed 0 --jobs 2 --db "$DB" "$@"
"$PYTHON" -m harness.tables results/fhcp/README.md
