#!/usr/bin/env bash
# Builds and runs the benchmarks: ctorch and libtorch (Debian's libtorch-dev, installed here when
# missing and possible) side by side in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ ! -e /usr/include/ATen/ATen.h ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "bench: installing libtorch-dev (the peer)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libtorch-dev g++; } >/dev/null 2>&1 || true
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
cmake --build build --target libtorch_bench -j"$(nproc)" 2>/dev/null || echo "bench: libtorch peer not built" >&2
./build/bench/bench_dispatch "${1:-200000}" build/bench/libtorch_bench

# The Python front-end against PyTorch: the same script under `ctorch python` and under the
# interpreter in CTORCH_TORCH_PYTHON (a command; default /usr/bin/python3 when it has torch).
peer="${CTORCH_TORCH_PYTHON:-/usr/bin/python3}"
if [ -x build/bin/ctorch ] && build/bin/ctorch python --help >/dev/null 2>&1; then
  ct_out="$(build/bin/ctorch python bench/python/frontend.py "${2:-2000}")"
  if pt_out="$($peer bench/python/frontend.py "${2:-2000}" 2>/dev/null)"; then
    echo
    echo "Python front-end (us per iteration, median of 5 rounds): ctorch python vs $peer"
    awk 'NR==FNR { if ($1 == "torch") ctv = $2; else ct[$1] = $2; next }
         $1 == "torch" { printf "  %-14s %12s %12s %9s\n", "", "ctorch " ctv, "torch " $2, "speed-up"; next }
         { printf "  %-14s %12.3f %12.3f %8.2fx\n", $1, ct[$1], $2, $2 / ct[$1] }' \
      <(echo "$ct_out") <(echo "$pt_out")
  else
    echo "bench: no PyTorch for the Python comparison ($peer); ctorch python alone:" >&2
    echo "$ct_out"
  fi
fi
