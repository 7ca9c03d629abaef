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
# Its own build folder, optimised as releases are (link-time optimisation on): scripts/test.sh
# configures build/ without link-time optimisation, and a benchmark of that would not be the
# library users get.
bdir=build-bench
cmake -S . -B "$bdir" -DCMAKE_BUILD_TYPE=Release -DCTORCH_LTO=ON >/dev/null
cmake --build "$bdir" --target bench_ctorch fma_peak -j"$jobs" >/dev/null
# the libtorch peer exists as a target only when CMake found libtorch-dev and a C++ compiler
rm -f "$bdir"/bench/libtorch_bench
cmake --build "$bdir" --target libtorch_bench -j"$jobs" >/dev/null 2>&1 \
  || echo "bench: libtorch peer not built: its columns show —" >&2
python3 bench/compare.py --build "$bdir" --torchref "$torchref" --json-out "$bdir"/bench/last-run.json "$@"

# The Python front-end against PyTorch: the same script under `ctorch python`, under the
# interpreter in CTORCH_TORCH_PYTHON (a command; default /usr/bin/python3, PyTorch 1.13) and under
# PyTorch 2.6 (torchref), CTORCH_BENCH_PY_ITERS iterations per round (default 2000). The three run
# one after another, twice, and each column keeps its faster run's medians.
cmake --build "$bdir" --target ctorch_cli ctorch_python -j"$jobs" >/dev/null 2>&1 || true
peer="${CTORCH_TORCH_PYTHON:-/usr/bin/python3}"
iters="${CTORCH_BENCH_PY_ITERS:-2000}"
if [ -x "$bdir"/bin/ctorch ] && "$bdir"/bin/ctorch python --help >/dev/null 2>&1; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  for pass in 1 2; do
    "$bdir"/bin/ctorch python bench/python/frontend.py "$iters" >"$tmp/ctorch.$pass"
    $peer bench/python/frontend.py "$iters" >"$tmp/pt113.$pass" 2>/dev/null || rm -f "$tmp/pt113.$pass"
    if [ -x "$torchref" ]; then
      flock /tmp/torchref.lock "$torchref" bench/python/frontend.py "$iters" >"$tmp/pt26.$pass" 2>/dev/null \
        || rm -f "$tmp/pt26.$pass"
    fi
  done
  echo
  echo "Python front-end (us per iteration; each column the faster of two runs' medians of 5 rounds; speed-up = PyTorch / ctorch):"
  python3 - "$tmp" <<'PY'
import os, sys
d = sys.argv[1]
def read(name):
    runs = [open(os.path.join(d, f"{name}.{p}")).read().split("\n") for p in (1, 2) if os.path.exists(os.path.join(d, f"{name}.{p}"))]
    if not runs:
        return None, {}
    version, best = None, {}
    for lines in runs:
        for line in lines:
            if not line.strip():
                continue
            k, v = line.split(None, 1)
            if k == "torch":
                version = v
            else:
                best[k] = min(best.get(k, float("inf")), float(v))
    return version, best
cols = [(n,) + read(n) for n in ("ctorch", "pt113", "pt26")]
ct = cols[0][2]
label = lambda n, v: ("ctorch python" if n == "ctorch" else f"PyTorch {v}") if v else f"{n} (not run)"
head = f"  {'':15}" + "".join(f"{label(n, v):>22}" for n, v, _ in cols)
print(head + "".join(f"{'vs ' + label(n, v):>24}" for n, v, _ in cols[1:]))
for case in ct:
    row = f"  {case:15}" + "".join(f"{b[case]:22.3f}" if case in b else f"{'-':>22}" for _, _, b in cols)
    row += "".join(f"{b[case] / ct[case]:23.2f}x" if case in b else f"{'-':>24}" for _, _, b in cols[1:])
    print(row)
PY
fi
