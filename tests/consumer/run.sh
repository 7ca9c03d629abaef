#!/bin/sh
# Uses ctorch the way another program would, out of the source tree, and checks what it prints.
#
#   run.sh installed    CMAKE BUILD_DIR SOURCE_DIR CC PKG_CONFIG VERSION NM [PYTHON]
#     installs BUILD_DIR into a temporary prefix; checks the installed files, the SONAME, that
#     every public header compiles on its own, and that libctorch.so exports exactly the functions
#     the installed headers declare; builds tests/consumer/consumer.c through pkg-config
#     and through find_package(ctorch) (shared and static) and runs each. Then the installed
#     command (P/bin/ctorch) and, with PYTHON (the interpreter the package was built for), the
#     Python package under P/lib/python3/dist-packages: imported by a plain PYTHON with
#     PYTHONPATH, made `torch` by ctorch.install_as_torch(), found by the installed
#     `ctorch python` from its own location, and by a copy of the command elsewhere from the build
#     tree, which, when that is out of sight too, says where it looked.
#   run.sh subdirectory CMAKE BUILD_DIR SOURCE_DIR CC PKG_CONFIG VERSION NM
#     builds consumer.c in a parent project that adds SOURCE_DIR with add_subdirectory.
# Exits non-zero on the first difference.
set -eu
mode=$1 cmake=$2 build=$3 src=$4 cc=$5 pkg_config=$6 version=$7 nm=$8 python=${9:-}
here=$src/tests/consumer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The consumer prints its version line and then what tests/consumer/expected.txt holds.
check_run() { # PROGRAM LABEL
    out=$work/out.txt
    "$1" >"$out" 2>&1 || { cat "$out"; fail "$2: the consumer exited with an error"; }
    head -n 1 "$out" | grep -qxF "version $version headers $version ($version)" ||
        { cat "$out"; fail "$2: expected library and header version $version"; }
    tail -n +2 "$out" | diff -u "$here/expected.txt" - || fail "$2: output differs from expected.txt"
    echo "ok: $2"
}

case $mode in
installed)
    prefix=$work/prefix
    "$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }
    pc=$(find "$prefix" -name ctorch.pc | head -n 1)
    [ -n "$pc" ] || fail "not installed: ctorch.pc"
    libdir=$(dirname "$(dirname "$pc")")
    for f in include/ctorch/ctorch.h include/ctorch/ops_generated.h include/ctorch/version.h include/ctorch/export.h; do
        [ -f "$prefix/$f" ] || fail "not installed: $f"
    done
    for f in libctorch.a libctorch.so pkgconfig/ctorch.pc cmake/ctorch/ctorchConfig.cmake \
             cmake/ctorch/ctorchConfigVersion.cmake cmake/ctorch/ctorchTargets.cmake; do
        [ -e "$libdir/$f" ] || fail "not installed: ${libdir#"$prefix"/}/$f"
    done
    for f in bin/ctorch share/doc/ctorch/LICENSE; do
        [ -f "$prefix/$f" ] || fail "not installed: $f"
    done
    echo "ok: installed $(cd "$prefix" && find . -type f | wc -l) files and $(cd "$prefix" && find . -type l | wc -l) links"

    # the SONAME carries MAJOR.MINOR while the major version is 0, MAJOR afterwards
    major=${version%%.*}
    rest=${version#*.}
    minor=${rest%%.*}
    if [ "$major" = 0 ]; then soname=libctorch.so.$major.$minor; else soname=libctorch.so.$major; fi
    [ -e "$libdir/$soname" ] || fail "no $soname"
    objdump -p "$libdir/libctorch.so" | grep -q "SONAME *$soname\$" || fail "SONAME is not $soname"
    echo "ok: SONAME $soname"

    # every public header compiles alone, in strict C11
    for h in "$prefix"/include/ctorch/*.h; do
        printf '#include <ctorch/%s>\ntypedef int ct_header_check;\n' "${h##*/}" |
            "$cc" -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -I"$prefix/include" -x c - ||
            fail "ctorch/${h##*/} does not compile on its own"
    done
    echo "ok: each of $(ls "$prefix"/include/ctorch/*.h | wc -l) public headers compiles on its own"

    # exported = every function the installed headers declare (and none else), both ways: the
    # compiler lists the declarations (GCC's -aux-info), so one without CT_API is caught too;
    # other compilers: the declarations marked CT_API
    "$nm" -D --defined-only "$libdir/libctorch.so" | awk '{print $NF}' | sort -u >"$work/exported.txt"
    printf '#include <ctorch/ctorch.h>\n' >"$work/all.c"
    if "$cc" -std=c11 -I"$prefix/include" -aux-info "$work/aux.txt" -S -o /dev/null "$work/all.c" 2>/dev/null; then
        grep -F "$prefix/include/ctorch/" "$work/aux.txt" | grep -E '\*/ extern ' | sed 's/ (.*//' | awk '{print $NF}' |
            tr -d '*' | sort -u >"$work/declared.txt"
    else
        cat "$prefix"/include/ctorch/*.h | tr '\n' ' ' | sed 's/CT_API/\nCT_API/g' | grep -E '^CT_API [A-Za-z0-9_ *]+\(' |
            sed 's/(.*//' | awk '{print $NF}' | tr -d '*' | grep '^ct_' | sort -u >"$work/declared.txt"
    fi
    [ -s "$work/declared.txt" ] || fail "found no public declaration"
    comm -23 "$work/exported.txt" "$work/declared.txt" >"$work/extra.txt"
    comm -13 "$work/exported.txt" "$work/declared.txt" >"$work/missing.txt"
    [ -s "$work/extra.txt" ] && { sed 's|^|  exported but not declared by <ctorch/ctorch.h>: |' "$work/extra.txt"; fail "libctorch.so exports internal symbols"; }
    [ -s "$work/missing.txt" ] && { sed 's|^|  declared by <ctorch/ctorch.h> but not exported: |' "$work/missing.txt"; fail "public functions missing from libctorch.so"; }
    echo "ok: libctorch.so exports exactly the $(wc -l <"$work/exported.txt") functions the public headers declare"

    # through pkg-config, as a Makefile would
    export PKG_CONFIG_PATH="$libdir/pkgconfig"
    [ -n "$pkg_config" ] || fail "no pkg-config"
    [ "$("$pkg_config" --modversion ctorch)" = "$version" ] || fail "pkg-config --modversion"
    cflags=$("$pkg_config" --cflags ctorch)
    libs=$("$pkg_config" --libs ctorch)
    echo "build line: cc -std=c11 $cflags consumer.c $libs -Wl,-rpath,$libdir" | sed "s#$prefix#\$PREFIX#g"
    # shellcheck disable=SC2086 # the flags are words
    "$cc" -std=c11 -Wall -Wextra -Werror $cflags "$here/consumer.c" -o "$work/consumer_pc" $libs -Wl,-rpath,"$libdir" ||
        fail "building through pkg-config"
    check_run "$work/consumer_pc" "pkg-config build (shared)"
    static_libs=$("$pkg_config" --libs --static ctorch)
    echo "pkg-config --static --libs: $static_libs" | sed "s#$prefix#\$PREFIX#g"

    # through find_package(ctorch)
    "$cmake" -S "$here" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
        { cat "$work/cmake.log"; fail "configuring the find_package consumer"; }
    "$cmake" --build "$work/cmake" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the find_package consumer"; }
    check_run "$work/cmake/consumer" "find_package build, ctorch::ctorch (shared)"
    check_run "$work/cmake/consumer_static" "find_package build, ctorch::ctorch_static"
    objdump -p "$work/cmake/consumer" | grep -q "NEEDED *$soname" || fail "ctorch::ctorch does not link $soname"
    if objdump -p "$work/cmake/consumer_static" | grep -q "NEEDED *libctorch"; then fail "ctorch::ctorch_static links the shared library"; fi

    # the installed command
    "$prefix/bin/ctorch" --version | head -n 1 | grep -qxF "ctorch $version" || fail "the installed ctorch: --version"
    "$prefix/bin/ctorch" dump aten::addmm | grep -q "computed dispatch table" || fail "the installed ctorch: dump"
    echo "ok: the installed command runs"
    if [ -n "$python" ]; then
        site=$prefix/lib/python3/dist-packages
        [ -f "$site/ctorch/__init__.py" ] || fail "not installed: lib/python3/dist-packages/ctorch/__init__.py"
        ls "$site"/ctorch/_C*.so >/dev/null 2>&1 || fail "not installed: lib/python3/dist-packages/ctorch/_C*.so"
        [ "$(cd "$src/python" && find ctorch -name '*.py' | wc -l)" = "$(cd "$site" && find ctorch -name '*.py' | wc -l)" ] ||
            fail "the installed package lacks some of python/ctorch's modules"
        # a plain interpreter: import ctorch, then torch through the one public call
        probe='import ctorch, sys; ctorch.install_as_torch(); import torch, torch.nn.functional as F
assert torch is ctorch and torch.ones(2).tolist() == [1.0, 1.0] and F.relu(torch.ones(1)).item() == 1.0
print(ctorch.__file__)'
        got=$(cd "$work" && PYTHONPATH=$site "$python" -s -c "$probe") || fail "PYTHONPATH=P/lib/python3/dist-packages python3: import ctorch"
        [ "$got" = "$site/ctorch/__init__.py" ] || fail "python3 imported ctorch from $got, not from the prefix"
        echo "ok: PYTHONPATH=\$PREFIX/lib/python3/dist-packages python3 imports ctorch and makes it torch with install_as_torch()"
        # the installed ctorch python finds the installed package from its own location
        printf 'import sys, torch\nprint(torch.__file__, sys.argv[1:])\n' >"$work/script.py"
        got=$(cd "$work" && env -u PYTHONPATH "$prefix/bin/ctorch" python script.py a b) || fail "P/bin/ctorch python script.py"
        [ "$got" = "$site/ctorch/__init__.py ['a', 'b']" ] || fail "P/bin/ctorch python used $got"
        echo "ok: \$PREFIX/bin/ctorch python script.py runs on the installed package"
        # a copy elsewhere falls back to the build tree's package; with that hidden, it says so
        mkdir -p "$work/copy"
        cp "$prefix/bin/ctorch" "$work/copy/ctorch"
        got=$(cd "$work" && env -u PYTHONPATH "$work/copy/ctorch" python -c 'import torch; print(torch.__file__)') ||
            fail "a copied ctorch python"
        [ "$got" = "$(cd "$build/python" && pwd -P)/ctorch/__init__.py" ] || fail "a copied ctorch python used $got"
        echo "ok: a copied ctorch finds the package of the build tree it was built in"
        if unshare -m true 2>/dev/null; then
            err=$(unshare -m sh -c 'mount -t tmpfs none "$1/python" && "$2" python -c pass' sh "$build" "$work/copy/ctorch" 2>&1) &&
                fail "a copied ctorch without its package ran"
            case $err in
            "ctorch python: ctorch's Python package was not found (looked for ctorch/__init__.py in "*) ;;
            *) fail "a copied ctorch without its package: $err" ;;
            esac
            [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "a copied ctorch without its package: more than one line"
            echo "ok: a copied ctorch without any package says where it looked"
        else
            echo "skipped: a copied ctorch without any package (no mount namespace here)"
        fi
    fi
    ;;
subdirectory)
    "$cmake" -S "$here/subdir" -B "$work/sub" -DCTORCH_SOURCE_DIR="$src" -DCTORCH_BUILD_SHARED=OFF \
        -DCTORCH_USE_BLAS=OFF >"$work/cmake.log" 2>&1 ||
        { cat "$work/cmake.log"; fail "configuring the add_subdirectory consumer"; }
    "$cmake" --build "$work/sub" --target consumer -j 2 >"$work/build.log" 2>&1 ||
        { tail -n 40 "$work/build.log"; fail "building the add_subdirectory consumer"; }
    check_run "$work/sub/consumer" "add_subdirectory build"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
