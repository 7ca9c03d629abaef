#!/usr/bin/env bash
# Installs the libraries ctorch prefers (OpenBLAS, whose default Debian variant is the pthread one
# the README measures; cJSON; pkg-config to find them) when this is a
# Debian machine we may install on. Never fails: without them the build uses its built-in
# fallbacks (a plain GEMM loop and a small JSON reader/writer).
set -u
want=()
command -v pkg-config >/dev/null 2>&1 || want+=(pkg-config)
pkg-config --exists openblas 2>/dev/null || want+=(libopenblas-dev)
pkg-config --exists libcjson 2>/dev/null || want+=(libcjson-dev)
[ ${#want[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "deps: installing ${want[*]}" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } >/dev/null 2>&1 \
    || echo "deps: could not install ${want[*]}; building with the built-in fallbacks" >&2
else
  echo "deps: ${want[*]} missing and cannot be installed here; building with the built-in fallbacks" >&2
fi
exit 0
