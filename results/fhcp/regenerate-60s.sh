#!/usr/bin/env bash
# The FHCP study at the field's 60 s CPU limit (issues 28 and 32), as it was run: ENCODINGS (default
# `asp,sat`) on the graphs of fhcp-sample in batches of 10, in a seeded shuffle of the set (Python's
# random.Random(28).shuffle of its names), each batch one `harness.run` sweep into one database, one
# run at a time. results/fhcp/README.md gives the ENCODINGS, FIRST and BATCHES of each run (FIRST, default
# 1: the first batch; two ranges of batches can run at once, each into its own DB, on a core each).
# Batches keep the strategies on the same graphs whenever the run stops, so a partial study is still
# a like-for-like one; a rerun resumes (finished runs are kept).
# SAMPLE=held-out takes instead 100 graphs of CORPUS that are not in fhcp-sample
# (random.Random(32).sample of their sorted names): a test set for a rule read off fhcp-sample;
# SAMPLE=rest the others, in a seeded shuffle (random.Random(33)), so a part of it is a random sample.
# Run from the repository root with the project installed; CORPUS is the FHCP files as published
# (graphN.hcp.gz; the bundled set's graphs are the same graphs edge for edge).
set -euo pipefail

CORPUS=${CORPUS:-../shared/corpus/fhcp/hcp}
DB=${DB:-results/fhcp/runs-60s.sqlite}
FIRST=${FIRST:-1}
BATCHES=${BATCHES:-10}
ENCODINGS=${ENCODINGS:-asp,sat}
SAMPLE=${SAMPLE:-fhcp-sample}
mapfile -t NAMES < <(python - "$CORPUS" "$SAMPLE" <<'EOF'
import random
import sys
from pathlib import Path
from harness import sets
corpus, sample = sys.argv[1:]
names = [i.name for i in sets.instances('fhcp-sample')]
others = sorted(set(p.name.removesuffix('.hcp.gz') for p in Path(corpus).glob('*.hcp.gz')) - set(names))
held_out = random.Random(32).sample(others, 100)
if sample == 'held-out':
    names = held_out
elif sample == 'rest':
    names = sorted(set(others) - set(held_out))
    random.Random(33).shuffle(names)
elif sample == 'fhcp-sample':
    random.Random(28).shuffle(names)
else:
    sys.exit(f'regenerate-60s.sh: SAMPLE must be fhcp-sample, held-out or rest, not {sample!r}')
print('\n'.join(names))
EOF
)
for ((i = (FIRST - 1) * 10; i < (FIRST - 1 + BATCHES) * 10 && i < ${#NAMES[@]}; i += 10)); do
    files=()
    for name in "${NAMES[@]:i:10}"; do files+=("$CORPUS/$name.hcp.gz"); done
    python -m harness.run --encoding "$ENCODINGS" --instances "${files[@]}" --time-limit 60 \
        --wall-limit 3600 --jobs 1 --db "$DB"
done
PUBLISHED=${PUBLISHED:-results/fhcp/published-times.tsv}
if [[ $ENCODINGS == asp,sat ]]; then  # other configurations: the compare README.md gives for them
    python -m harness.compare --db "$DB" --published "$PUBLISHED" asp sat --across-sweeps
fi
