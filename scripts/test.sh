#!/usr/bin/env bash
# Builds ctorch and runs every test: an optimised build (with OpenBLAS when present), once at
# the best CPU capability and once pinned to each lower one (CTORCH_CPU_CAPABILITY), and an
# AddressSanitizer + UndefinedBehaviorSanitizer build that uses the built-in GEMM loop, so both
# matrix-product paths are tested. All use the system cJSON. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs="$(nproc)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
# every test again with the kernels pinned to each lower CPU capability this machine has
# (src/ops/cpu/vec/: every recorded value must hold at every level)
for level in default avx2; do
  echo "== CTORCH_CPU_CAPABILITY=$level"
  CTORCH_CPU_CAPABILITY=$level ctest --test-dir build --output-on-failure -j"$jobs"
done
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCTORCH_SANITIZE=ON -DCTORCH_USE_BLAS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
