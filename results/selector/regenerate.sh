#!/usr/bin/env bash
# The selector's own runs and its table (issue 47, item 3), rebuilt from the repository and the FHCP corpus:
# `asp` at a 10 s CPU limit, seed 0, on the 664 training graphs it had no 60 s run on
# (`asp-10s.graphs`: the training graphs whose `asp` cell was unknown in results/fhcp's 60 s databases
# at ad98465), one sweep into results/selector/asp-10s.sqlite; then the rule trained again
# (encodings/auto.json), the option tables that show it, and the table of results/selector/README.md.
#
#   results/selector/regenerate.sh [more harness.run arguments, e.g. --executor slurm --jobs 40]
#
# A third candidate's runs on every training graph (`training.graphs`, the 801 public graphs outside
# fhcp-sample) are the same command with ENCODING, LIMIT, GRAPHS and DB (begun 2026-12-05, in batches):
#
#   ENCODING=cegar-split-frontier LIMIT=60 GRAPHS=results/selector/training.graphs \
#       DB=results/selector/frontier-60s.sqlite results/selector/regenerate.sh
#
# A fourth, sat's graph default since 2026-12-07 (at commit 29663df, in two batches that day; not read
# by training: results/selector/README.md says why):
#
#   ENCODING=cegar-split-auto LIMIT=60 GRAPHS=results/selector/training.graphs \
#       DB=results/selector/auto-60s.sqlite results/selector/regenerate.sh
#
# CORPUS is the folder of the public graphs (graphN.hcp.gz; default ../shared/corpus/fhcp/hcp beside the
# checkout, its PROVENANCE.md says where they come from). Resumable in batches at one commit, as every
# study's sweep (results/same_commit.py refuses another). Run from anywhere, with the project installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python}
CORPUS=${CORPUS:-../shared/corpus/fhcp/hcp}
ENCODING=${ENCODING:-asp}
LIMIT=${LIMIT:-10}
GRAPHS=${GRAPHS:-results/selector/asp-10s.graphs}
DB=${DB:-results/selector/asp-10s.sqlite}

mapfile -t graphs < <(sed "s|.*|$CORPUS/&.hcp.gz|" "$GRAPHS")
"$PYTHON" results/same_commit.py "$DB"
"$PYTHON" -m harness.run --encoding "$ENCODING" --instances "${graphs[@]}" --kind graph --time-limit "$LIMIT" \
    --wall-limit 600 --seed 0 --order-seed 0 --jobs 2 --db "$DB" "$@"
"$PYTHON" -m harness.select train
"$PYTHON" -m harness.option_tables --write
"$PYTHON" -m harness.tables results/selector/README.md
