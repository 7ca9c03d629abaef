#!/usr/bin/env bash
# Builds ctorch and runs every test: an optimised build (with OpenBLAS when present), once at
# the best CPU capability and once pinned to each lower one (CTORCH_CPU_CAPABILITY), and an
# AddressSanitizer + UndefinedBehaviorSanitizer build that uses the built-in GEMM loop, so both
# matrix-product paths are tested, and a ThreadSanitizer build of the tests that start threads
# (test_threads, test_alloc, test_rng). All use the system cJSON. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs="$(nproc)"
# Link-time optimisation off here: with it every test program re-optimises the whole library
# at link time, which makes the build several times slower; the code and flags are otherwise
# those of scripts/main.sh's build (which keeps it on).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCTORCH_LTO=OFF >/dev/null
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
# the tests that start threads, under ThreadSanitizer (any report fails the test: exit code 66)
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DCTORCH_TSAN=ON -DCTORCH_USE_BLAS=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target test_threads test_alloc test_rng
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" -R '^test_(threads|alloc|rng)$'
