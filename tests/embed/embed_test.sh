#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds examples/embed as a consumer would and runs it on a model:
#   embed_test.sh find_package  SOURCE_DIR BUILD_DIR WORK_DIR MODEL [cmake args...]
#     installs BUILD_DIR into WORK_DIR/prefix, then builds the example with find_package(critter)
#   embed_test.sh subdirectory  SOURCE_DIR BUILD_DIR WORK_DIR MODEL [cmake args...]
#     builds the example with critter's sources as a subproject (add_subdirectory)
# Passes when the example prints the posed joint matrix and the skinned vertex.
set -euo pipefail
mode=$1 source=$2 build=$3 work=$4 model=$5
shift 5
rm -rf "$work"
mkdir -p "$work"
case "$mode" in
  find_package)
    cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
    test -f "$work/prefix/lib/cmake/critter/critterConfig.cmake"
    test -f "$work/prefix/include/critter/io/load.h"
    cmake -S "$source/examples/embed" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" "$@" \
      >"$work/configure.log"
    ;;
  subdirectory)
    cmake -S "$source/examples/embed" -B "$work/build" -DCRITTER_SOURCE_DIR="$source" "$@" \
      >"$work/configure.log"
    ;;
  *)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
cmake --build "$work/build" -j 2 >"$work/build.log"
out=$("$work/build/embed" "$model" 1)
echo "$out"
grep -q "model matrix" <<<"$out"
grep -q "vertices skinned" <<<"$out"
