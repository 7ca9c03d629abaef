#!/usr/bin/env bash
# Builds ctorch (release) into build/ and runs the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
./build/bin/ctorch keys
./build/bin/ctorch dump aten::addmm
