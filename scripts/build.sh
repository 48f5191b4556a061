#!/usr/bin/env bash
# Installs missing packages, configures build/ (Ninja, Release) and builds with all cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
