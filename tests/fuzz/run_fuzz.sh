#!/usr/bin/env bash
# Runs one fuzz target on its seeds and reproducers, then on new inputs (ctest label fuzz;
# tests/fuzz/README.md). Any crash, sanitizer report, abort of the target's own checks or
# input running past TIMEOUT seconds fails, and the input is kept in ARTIFACTS.
#
#   run_fuzz.sh libfuzzer|standalone BINARY SECONDS_OR_RUNS TIMEOUT ARTIFACTS SEED...
#
# libfuzzer: fuzzes for SECONDS (libFuzzer's main; coverage-guided). standalone: runs RUNS
# mutated inputs (tests/fuzz/standalone_main.cpp). A SEED is a file, a directory, or a glob
# pattern in quotes ('tests/golden/parse/*.input'); all are copied into a fresh corpus.
set -euo pipefail
mode=$1 binary=$(realpath "$2") amount=$3 timeout=$4 artifacts=$5
shift 5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$artifacts"
artifacts=$(realpath "$artifacts")
shopt -s nullglob
for pattern in "$@"; do
  for seed in $pattern; do
    if [[ ! -e "$seed" ]]; then
      continue
    elif [[ -d "$seed" ]]; then
      find "$seed" -type f -exec cp -t "$work/corpus" --backup=numbered {} +
    else
      cp --backup=numbered "$seed" "$work/corpus/"
    fi
  done
done
echo "$(basename "$binary"): $(ls "$work/corpus" | wc -l) seed inputs"
cd "$work"
case $mode in
  libfuzzer)
    # Runs every seed first (the reproducers among them), then fuzzes from them.
    "$binary" -max_total_time="$amount" -timeout="$timeout" -rss_limit_mb=4096 -seed=1 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" "$work/corpus" ;;
  standalone)
    if ! "$binary" -runs="$amount" -timeout="$timeout" -max_len=4096 -seed=1 "$work/corpus"; then
      [[ -f crash-standalone ]] && cp crash-standalone "$artifacts/"
      exit 1
    fi ;;
  *) echo "run_fuzz.sh: unknown mode $mode" >&2; exit 2 ;;
esac
