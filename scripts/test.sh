#!/usr/bin/env bash
# Builds ctorch and runs every test: an optimised build (with OpenBLAS when present), at the best
# CPU capability with one and with two intra-op threads (CTORCH_NUM_THREADS) and once pinned to
# each lower one (CTORCH_CPU_CAPABILITY; one level at each count), and an
# AddressSanitizer + UndefinedBehaviorSanitizer build that uses the built-in GEMM loop, so both
# matrix-product paths are tested, and a ThreadSanitizer build of the tests that start threads
# (test_threads, test_alloc, test_rng, test_startup, test_parallel, test_default_dtype). All use
# the system cJSON.
# Last, when clang with libFuzzer is there, a short run of the fuzz target tests/fuzz/fuzz_ops.c
# (random op sequences through the boxed call and the typed wrappers; docs/fuzzing.md has the
# long run). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
jobs="$(nproc)"
# Link-time optimisation off here: with it every test program re-optimises the whole library
# at link time, which makes the build several times slower; the code and flags are otherwise
# those of scripts/main.sh's build (which keeps it on).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCTORCH_LTO=OFF >/dev/null
cmake --build build -j"$jobs"
# every test at one and at two intra-op threads (CTORCH_NUM_THREADS; the results whose float bits
# depend on the split are recorded at both counts)
echo "== CTORCH_NUM_THREADS=1"
CTORCH_NUM_THREADS=1 ctest --test-dir build --output-on-failure -j"$jobs"
# the counts the reliability tests measured in that run (their output is in ctest's log)
grep -h -E '^misuse: |^step threads: |allocations per run|reports failed once|^ +\(only every' \
  build/Testing/Temporary/LastTest.log || true
echo "== CTORCH_NUM_THREADS=2"
CTORCH_NUM_THREADS=2 ctest --test-dir build --output-on-failure -j"$jobs"
# every test again with the kernels pinned to each lower CPU capability this machine has
# (src/ops/cpu/vec/: every recorded value must hold at every level), one level at each count
for run in default:1 avx2:2; do
  level="${run%:*}" threads="${run#*:}"
  echo "== CTORCH_CPU_CAPABILITY=$level CTORCH_NUM_THREADS=$threads"
  CTORCH_CPU_CAPABILITY=$level CTORCH_NUM_THREADS=$threads ctest --test-dir build --output-on-failure -j"$jobs"
done
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCTORCH_SANITIZE=ON -DCTORCH_USE_BLAS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
# the tests that start threads, under ThreadSanitizer (any report fails the test: exit code 66)
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Debug -DCTORCH_TSAN=ON -DCTORCH_USE_BLAS=OFF >/dev/null
cmake --build build-tsan -j"$jobs" --target test_threads test_alloc test_rng test_startup test_parallel test_default_dtype
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build-tsan --output-on-failure -j"$jobs" -R '^test_(threads|alloc|rng|startup|parallel|default_dtype)$'
# the libFuzzer target: a short run from a fixed seed (the long run is in docs/fuzzing.md)
if command -v clang >/dev/null 2>&1 && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; return (int)n * 0; }' \
     | clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCTORCH_FUZZ=ON -DCTORCH_USE_BLAS=OFF -DCTORCH_WERROR=OFF >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz_ops
  # the inputs that found bugs, first (each must now run clean)
  build-fuzz/bin/fuzz_ops tests/fuzz/crashes/* 2>build-fuzz/fuzz_regress.log \
    || { tail -40 build-fuzz/fuzz_regress.log; exit 1; }
  echo "fuzz_ops: $(ls tests/fuzz/crashes | wc -l) earlier findings run clean"
  mkdir -p build-fuzz/corpus
  build-fuzz/bin/fuzz_ops -seed=1 -runs=4000 -max_len=256 -timeout=20 -rss_limit_mb=4096 build-fuzz/corpus \
    2>build-fuzz/fuzz_short.log || { tail -60 build-fuzz/fuzz_short.log; exit 1; }
  echo "fuzz_ops: $(grep -o 'Done [0-9]* runs in [0-9]* second(s)' build-fuzz/fuzz_short.log), no crash, leak or left-over state"
else
  echo "fuzz_ops: skipped (clang with libFuzzer not found; scripts/deps.sh installs clang and libclang-rt-14-dev)"
fi
