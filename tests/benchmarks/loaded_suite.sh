#!/bin/sh
# The whole test suite while two CPU-bound processes keep both cores busy: no test may depend on how
# fast the machine is (issue 20). Run from the repository root, not in CI:
#   sh tests/benchmarks/loaded_suite.sh [PYTEST ARGS]      (PYTHON=/path/to/python to pick one)
# Prints the load average before and after, and pytest's result line; exits with pytest's code.
set -u
PY=${PYTHON:-python}
"$PY" -c 'while True: pass' & HOG1=$!
"$PY" -c 'while True: pass' & HOG2=$!
trap 'kill $HOG1 $HOG2 2>/dev/null' EXIT INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); two CPU hogs: $HOG1 $HOG2; $(nproc) cores"
start=$(date +%s)
"$PY" -m pytest -x -q -p no:cacheprovider "$@"
code=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - start )) s; pytest exit code $code"
exit $code
