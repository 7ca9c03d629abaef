#!/usr/bin/env bash
# Installs the libraries ctorch builds on when this is a Debian machine we may install on:
# cJSON (libcjson-dev, required: the build stops without it), OpenBLAS (libopenblas-dev,
# optional: without it matrix products use a plain loop), SLEEF (libsleef-dev, optional: the
# vectorised exp/log of PyTorch's AVX2/AVX512 kernels), pkg-config to find them, Python's
# headers (python3-dev: the Python front-end ctorch._C and `ctorch python` are built against the
# system interpreter, /usr/bin/python3), Graphviz (graphviz, optional: its dot program draws
# autograd graphs as SVG; without it the lab writes the DOT file only and says so) and clang with
# its libFuzzer runtime (clang, libclang-rt-14-dev; optional: scripts/test.sh runs the fuzz target
# fuzz_ops only when clang can link -fsanitize=fuzzer).
# Never fails itself; cmake says what is still missing.
#   scripts/deps.sh [graphviz]   graphviz: also Graphviz, to draw docs/architecture/*.svg
set -u
want=()
command -v pkg-config >/dev/null 2>&1 || want+=(pkg-config)
pkg-config --exists openblas 2>/dev/null || want+=(libopenblas-dev)
pkg-config --exists libcjson 2>/dev/null || want+=(libcjson-dev)
pkg-config --exists sleef 2>/dev/null || want+=(libsleef-dev)
# the headers of the interpreter CMake builds the extension for (python3-dev names Debian's default)
py_inc="$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)"
[ -n "$py_inc" ] && [ -f "$py_inc/Python.h" ] || want+=(python3-dev)
command -v dot >/dev/null 2>&1 || want+=(graphviz)
command -v clang >/dev/null 2>&1 || want+=(clang)
# libFuzzer's runtime (libclang_rt.fuzzer) ships in libclang-rt-N-dev on Debian 12
if command -v clang >/dev/null 2>&1 && ! [ -e "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] \
   && ! ls "$(clang -print-resource-dir 2>/dev/null)"/lib/linux/libclang_rt.fuzzer*.a >/dev/null 2>&1; then
  v="$(clang -dumpversion 2>/dev/null | cut -d. -f1)"
  want+=("libclang-rt-${v:-14}-dev")
fi
for extra in "$@"; do
  case $extra in
    graphviz) command -v dot >/dev/null 2>&1 || want+=(graphviz) ;;
    *) echo "deps: unknown extra '$extra'" >&2 ;;
  esac
done
[ ${#want[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "deps: installing ${want[*]}" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${want[@]}"; } >/dev/null 2>&1 \
    || echo "deps: could not install ${want[*]}" >&2
else
  echo "deps: ${want[*]} missing and cannot be installed here (apt-get install ${want[*]} as root)" >&2
fi
exit 0
