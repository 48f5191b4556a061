#!/usr/bin/env bash
# Installs missing packages, configures build/ (Ninja, Release) and builds with all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# ccache (scripts/setup.sh) as the compiler launcher: the consumer tests build splgen's sources
# again inside other projects (tests/consumer/run_consumer.sh), and hit this build's entries.
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build -j "$(nproc)"
