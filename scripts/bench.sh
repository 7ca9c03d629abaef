#!/usr/bin/env bash
# Builds and runs the benchmarks: ctorch, libtorch (Debian's libtorch-dev, installed here when
# missing and possible) and PyTorch side by side in one run, the MiniGPT training step included.
#   scripts/bench.sh [ITERS] [STEPS]
# PyTorch: the command in CTORCH_BENCH_PYTHON (e.g. "python3"), else the reference PyTorch 2.6
# runner of the shared folder beside the project (../shared/tools/torchref), else the first
# python3 that imports torch.
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
py="${CTORCH_BENCH_PYTHON:-}"
if [ -z "$py" ] && [ -x ../shared/tools/torchref ]; then py=../shared/tools/torchref; fi
if [ -z "$py" ]; then
  for cand in python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import torch' >/dev/null 2>&1; then py="$cand"; break; fi
  done
fi
pycmd=""
if [ -n "$py" ]; then
  pycmd="$py bench/peer/pytorch_bench.py"
fi
# one thread on every side: the peers call set_num_threads(1); OpenBLAS would use both cores
# for ctorch's larger products
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
./build/bench/bench_dispatch "${1:-200000}" build/bench/libtorch_bench "$pycmd" "${2:-20}"
