#!/usr/bin/env bash
# The FHCP study's headline (issues 45, 47), rebuilt from the repository alone: the harness's presets
# `cegar-split-prepass` (sat's graph default until 2026-12-06) and `cegar-split` and the `asp` encoding on fhcp-sample
# (the 100 bundled FHCP graphs) at the field's 60 s CPU limit, seeds 0 1 2, one sweep into
# results/fhcp/headline.sqlite; then every generated table of results/fhcp/README.md (`python -m
# harness.tables`).
#
# Resumable: rerunning it continues the sweep (the harness keeps finished runs and runs the rest; each
# rerun is a batch of the same sweep, joined in the tables when the command's plan, the commit and the
# host are the same: harness/analysis/batches.py). So it refuses to continue a database at another
# commit than the one its first batch ran at: check that commit out (`git worktree add`), or start a
# new database (DB=...). Extra arguments go to harness.run, after the study's own:
#   results/fhcp/regenerate.sh --executor slurm --slurm-partition short --jobs 40
#   results/fhcp/regenerate.sh --executor dask --scheduler tcp://host:8786 --jobs 16
# The headline on one kind of machine, with the frontier pre-pass (sat's graph default 2026-12-06 to 12-07) beside the one before (issue 47;
# run 2026-12-05 in three batches at 8fb831c; its tables in results/fhcp/README.md):
#   DB=results/fhcp/headline-frontier.sqlite ENCODINGS=cegar-split-frontier,cegar-split-prepass,asp \
#       results/fhcp/regenerate.sh
# The selector, `auto` with the rule trained with cegar-split-frontier among its candidates (results/selector;
# run 2026-12-06 at 87425fb, on the same machine; its tables in results/fhcp/README.md):
#   DB=results/fhcp/headline-auto.sqlite ENCODINGS=auto results/fhcp/regenerate.sh
# degree=auto (sat's graph default since 2026-12-07) beside the default before it (run 2026-12-07 at cd93dc8, one
# batch; its tables in results/fhcp/README.md):
#   DB=results/fhcp/headline-auto-degree.sqlite ENCODINGS=cegar-split-frontier,cegar-split-auto results/fhcp/regenerate.sh
# Run from anywhere, with the project installed. How long it takes: results/fhcp/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."

DB=${DB:-results/fhcp/headline.sqlite}
PYTHON=${PYTHON:-python}
ENCODINGS=${ENCODINGS:-cegar-split-prepass,cegar-split,asp}

"$PYTHON" results/same_commit.py "$DB"
"$PYTHON" -m harness.run --encoding "$ENCODINGS" --instances fhcp-sample --time-limit 60 \
    --wall-limit 1200 --seed 0 1 2 --jobs 2 --db "$DB" "$@"
"$PYTHON" -m harness.tables results/fhcp/README.md
