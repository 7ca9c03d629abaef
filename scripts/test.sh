#!/usr/bin/env bash
# Builds ctorch and runs every test twice: an optimised build (with OpenBLAS when present) and an
# AddressSanitizer + UndefinedBehaviorSanitizer build that uses the built-in GEMM loop, so both
# matrix-product paths are tested. Both use the system cJSON. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs="$(nproc)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build --output-on-failure -j"$jobs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCTORCH_SANITIZE=ON -DCTORCH_USE_BLAS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
