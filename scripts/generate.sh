#!/usr/bin/env bash
# Builds splgen, then runs `splgen gen SPEC [args...]` from the current directory, e.g.
#   scripts/generate.sh "DFT(1024)" -o dft1024.cpp
# Build output goes to stderr, so the source can go to stdout when -o is not given.
set -euo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: $0 SPEC [splgen gen options...]   (e.g. $0 \"DFT(1024)\" -o dft1024.cpp)" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build.sh" >&2
exec "$root/build/splgen" gen "$@"
