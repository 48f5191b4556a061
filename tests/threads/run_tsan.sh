#!/usr/bin/env bash
# ThreadSanitizer over threaded kernels (ctest label tsan): each kernel is generated with the
# thread team (--threading team), compiled with tsan_main.cpp under -fsanitize=thread and run;
# any TSan report fails. OpenMP kernels are not run here: Debian's libgomp is not built with
# TSan, whose reports on its barriers would be false positives (docs/threads.md).
# Usage: run_tsan.sh SPLGEN RUNTIME_INCLUDE_DIR
set -euo pipefail
splgen=$1 include=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cxx=${CXX:-c++}
status=0
for spec_threads in "DFT(16384):2" "DFT(16384):3" "DFT(65536):4" "DFT(128 x 128):2" "I(64) (x) DFT(256):3"; do
  spec=${spec_threads%:*} threads=${spec_threads##*:}
  points=1  # the product of the numbers in the spec (DFT(a x b), I(m) (x) DFT(n))
  for v in $(grep -o '[0-9]\+' <<<"$spec"); do points=$((points * v)); done
  "$splgen" gen "$spec" --threads "$threads" --threading team --isa scalar --name tsan_kernel -o "$work/k.cpp"
  grep -q "team.run" "$work/k.cpp" || { echo "FAIL: $spec --threads $threads has no parallel region"; status=1; continue; }
  $cxx -std=c++17 -O1 -g -fsanitize=thread -pthread -I"$include" -DKERNEL=tsan_kernel -DPOINTS="$points" \
    "$work/k.cpp" "$here/tsan_main.cpp" -o "$work/run"
  if TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$work/run" >"$work/out" 2>&1; then
    echo "ok: $spec --threads $threads: $(tail -1 "$work/out")"
  else
    echo "FAIL: $spec --threads $threads"; cat "$work/out"; status=1
  fi
done
exit $status
