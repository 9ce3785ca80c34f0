#!/bin/sh
# The tests while CPU-bound processes keep the cores busy: no test may depend on how fast the machine
# is or on an idle one (issues 20 and 45). Run from the repository root, not in CI:
#   HOGS=4 sh tests/benchmarks/loaded_suite.sh                 the default tier beside four hogs
#   sh tests/benchmarks/loaded_suite.sh --full                 every test beside two (HOGS default 2)
# (PYTHON=/path/to/python to pick one; other arguments go to pytest.) Prints the load average before
# and after, the seconds taken and pytest's result line; exits with pytest's code.
set -u
PY=${PYTHON:-python}
HOGS=${HOGS:-2}
PIDS=""
i=0
while [ "$i" -lt "$HOGS" ]; do
    "$PY" -c 'while True: pass' & PIDS="$PIDS $!"
    i=$((i + 1))
done
trap 'kill $PIDS 2>/dev/null' EXIT INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $HOGS CPU hogs:$PIDS; $(nproc) cores"
start=$(date +%s)
"$PY" -m pytest -x -q -p no:cacheprovider "$@"
code=$?
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - start )) s; pytest exit code $code"
exit $code
