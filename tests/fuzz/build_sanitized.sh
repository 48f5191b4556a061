#!/usr/bin/env bash
# Builds splgen's in-process unit tests and the fuzz targets with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer (-DSPLGEN_FUZZ=ON) into BUILD_DIR: the setup of
# the ctest labels asan and fuzz (tests/fuzz/CMakeLists.txt). -O1 with line tables: reports
# name the lines, and the build stays short.
#   build_sanitized.sh CLANGXX SOURCE_DIR BUILD_DIR [COMPILER_LAUNCHER]
set -euo pipefail
clangxx=$1 source=$2 build=$3 launcher=${4:-}
args=(-DCMAKE_CXX_COMPILER="$clangxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DSPLGEN_FUZZ=ON -DSPLGEN_INSTALL=OFF)
[[ -n "$launcher" ]] && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$source" -B "$build" "${generator[@]}" "${args[@]}" >/dev/null
cmake --build "$build" -j "$(nproc)" --target unit_tests_in_process fuzz_targets
