#!/bin/sh
# Runs the benchmark's comparison for one round of a few cases on ctorch alone, with tiny batches,
# and checks that it printed its table: the header, a row per case, an observer's cost, the
# targets, and no error cell. Speed is not checked.
#   smoke.sh PYTHON COMPARE_PY BUILD_DIR
set -eu
py=$1 compare=$2 build=$3
out=$("$py" "$compare" --build "$build" --rounds 1 --programs ctorch --cases add1_mode,step_trace,linear_fwd \
      --warmup-ms 1 --batch-ms 0.2 --batches 1 2>&1) || { echo "$out"; echo "bench_smoke: compare.py failed"; exit 1; }
echo "$out"
fail() { echo "bench_smoke: $1"; exit 1; }
echo "$out" | grep -q '^case  *unit  *ctorch 1t  *ctorch 2t' || fail "no table header"
for row in 'add, 1 element (new tensor)' 'the same under an op-logging mode' 'lab linear: x 2x64' \
           'seed MLP step' 'with the decision trace collected' 'step: decision trace, cost' \
           'add: op-logging mode, cost' 'max RSS, small cases' '^targets'; do
  echo "$out" | grep -q "$row" || fail "no row '$row'"
done
# every ctorch cell of a timed row holds a number
echo "$out" | grep -E '^(add, 1 element|lab linear|seed MLP step)' | sed 's/|.*//' | grep -q '—' \
  && fail "a ctorch cell is empty"
echo "$out" | grep -q 'error\[' && fail "a case failed"
exit 0
