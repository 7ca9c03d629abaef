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
