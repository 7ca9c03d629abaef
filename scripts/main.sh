#!/usr/bin/env bash
# Builds ctorch (release) into build/ and runs the main job: the two seed experiments.
#   Lab 00 (dispatcher trace over linear)  -> experiments/25-dispatcher-trace/{trace.log,REPORT.md,manifest.json}
#   the training-step tracer, seeds 0..2   -> experiments/20-dispatch-tracer/seed-N.json (also printed)
#   MiniGPT, default options               -> experiments/30-minigpt/{minigpt.json,summary.json,profile.txt,
#                                             trace.log,loss.svg,REPORT.md}
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCTORCH_LTO=ON >/dev/null
# only what the job runs: the ctorch program (with link-time optimisation, the build whose speed
# docs/performance.md measures) and what it needs; the tests are scripts/test.sh's, built
# without it
cmake --build build -j"$(nproc)" --target ctorch_cli
./build/bin/ctorch keys
./build/bin/ctorch dump aten::addmm
./build/bin/ctorch lab00 --out experiments/25-dispatcher-trace --seed 42
mkdir -p experiments/20-dispatch-tracer
for seed in 0 1 2; do
  echo "== ctorch step --seed $seed"
  ./build/bin/ctorch step --seed "$seed" --json-out "experiments/20-dispatch-tracer/seed-$seed.json"
done
echo "== ctorch gpt --out experiments/30-minigpt"
./build/bin/ctorch gpt --out experiments/30-minigpt
