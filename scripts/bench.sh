#!/usr/bin/env bash
# Builds ctorch's benchmark and every peer, runs them interleaved and prints one table
# (bench/compare.py; its options pass through, e.g. `scripts/bench.sh --rounds 3 --cases add1,step`).
#
# Peers: libtorch 1.13 in C++ (Debian's libtorch-dev) at 1 and 2 threads, PyTorch 1.13
# (Debian's python3-torch, /usr/bin/python3) and PyTorch 2.6 (run by ../shared/tools/torchref
# when the shared folder is beside the checkout). The MiniGPT training step (minigpt.py's
# defaults) is one of the cases. Missing peers are installed with apt when this
# machine allows it; a peer that still cannot run is reported and its column shows "—".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }
apt_install() {
  echo "bench: installing $* (a peer)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >/dev/null 2>&1 \
    || echo "bench: could not install $*" >&2
}
if [ ! -e /usr/include/ATen/ATen.h ] || ! command -v g++ >/dev/null 2>&1; then
  if can_apt; then apt_install libtorch-dev g++; else echo "bench: libtorch-dev missing and cannot be installed here" >&2; fi
fi
if ! /usr/bin/python3 -c 'import torch' >/dev/null 2>&1; then
  if can_apt; then apt_install python3-torch; else echo "bench: python3-torch missing and cannot be installed here" >&2; fi
fi
if ! command -v python3 >/dev/null 2>&1; then
  if can_apt; then apt_install python3-minimal; fi
  command -v python3 >/dev/null 2>&1 || { echo "bench: python3 is needed to run bench/compare.py" >&2; exit 1; }
fi
torchref=../shared/tools/torchref
[ -x "$torchref" ] || echo "bench: $torchref not found: the PyTorch 2.6 column is skipped" >&2

jobs="$(nproc)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build --target bench_ctorch fma_peak -j"$jobs" >/dev/null
# the libtorch peer exists as a target only when CMake found libtorch-dev and a C++ compiler
rm -f build/bench/libtorch_bench
cmake --build build --target libtorch_bench -j"$jobs" >/dev/null 2>&1 \
  || echo "bench: libtorch peer not built: its columns show —" >&2
exec python3 bench/compare.py --build build --torchref "$torchref" --json-out build/bench/last-run.json "$@"
