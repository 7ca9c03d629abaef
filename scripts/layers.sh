#!/usr/bin/env bash
# Redraws the dependency picture of docs/architecture.md from a release build: the layer graph
# (layers.dot), the files on an edge against the order or on a cycle (back-edges.dot), the text
# report (dependencies.txt) and, when Graphviz is installed, their SVGs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh graphviz
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target ctorch ctorch_layers >/dev/null
out=docs/architecture
mkdir -p "$out"
build/ctorch_layers --root . --map tools/layers/layers.txt --gen build/generated \
  --objects-file build/layers/ctorch.objects --allowlist tools/layers/allowlist.txt \
  --dot "$out/layers.dot" --files-dot "$out/back-edges.dot" --text "$out/dependencies.txt" | tail -n 2
if command -v dot >/dev/null 2>&1; then
  for g in layers back-edges; do dot -Tsvg "$out/$g.dot" -o "$out/$g.svg"; done
  echo "drew $out/layers.svg and $out/back-edges.svg"
else
  echo "Graphviz not installed: the .dot files are current, the .svg files were not redrawn" >&2
fi
