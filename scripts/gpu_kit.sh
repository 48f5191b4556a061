#!/usr/bin/env bash
# Writes, into DIR, everything a GPU session runs for issue 19's figures (docs/cuda.md, "A GPU
# session"), so that the GPU machine, which has no splgen, runs it all in one call:
#   DIR/bench-double, DIR/bench-float  bench --target cuda, 16..4096 (batch auto)
#   DIR/bench-large                    2^20, 2^22, 2^24, 2^26
#   DIR/bench-2d                       DFT(4096 x 4096)
#   DIR/search-N                       search --target cuda's candidates at 256, 1024, 4096 (batch
#                                      auto) and 2^20
#   DIR/run.sh                         there: builds every program (nvcc, all cores), then runs
#                                      them one at a time; each part's output to $OUT/NAME.txt
# Back here, `splgen bench --target cuda --results FILE` and `splgen search SPEC --target cuda
# --results FILE --wisdom W` read those files.
#   scripts/gpu_kit.sh DIR [SPLGEN] [ARCH]      (SPLGEN: build/splgen; ARCH: sm_90)
set -euo pipefail
dir=${1:?usage: scripts/gpu_kit.sh DIR [SPLGEN] [ARCH]}
splgen=${2:-build/splgen}
arch=${3:-sm_90}
rm -rf "$dir"
mkdir -p "$dir"
"$splgen" bench --target cuda --sizes 16,64,256,1024,4096 --batch auto --reps 7 --arch "$arch" --keep "$dir/bench-double" --no-run
"$splgen" bench --target cuda --sizes 16,64,256,1024,4096 --batch auto --reps 7 --arch "$arch" --precision float \
  --keep "$dir/bench-float" --no-run
"$splgen" bench --target cuda --sizes 2^20,2^22,2^24,2^26 --reps 7 --arch "$arch" --keep "$dir/bench-large" --no-run
"$splgen" bench --target cuda "DFT(4096 x 4096)" --reps 7 --arch "$arch" --keep "$dir/bench-2d" --no-run
for n in 256 1024 4096; do
  "$splgen" search "DFT($n)" --target cuda --batch auto --arch "$arch" --max-candidates 24 --reps 5 \
    --keep-dir "$dir/search-$n" --no-run
done
"$splgen" search "DFT(1048576)" --target cuda --arch "$arch" --max-candidates 24 --reps 5 --keep-dir "$dir/search-1048576" --no-run
cat > "$dir/run.sh" <<'EOF'
#!/bin/sh
# On the GPU machine: build every program at once, then time them one after another.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
ls -d */[0-9]* | xargs -P "$(nproc)" -I{} sh {}/build_and_run.sh --build-only > build.log 2>&1 || echo "some builds failed: build.log"
out=${OUT:-.}
for part in */run_all.sh; do
  name=$(dirname "$part")
  sh "$part" --run-only > "$out/$name.txt" 2>&1
  echo "$name: $(grep -c RESULT "$out/$name.txt") results"
done
EOF
chmod +x "$dir/run.sh"
echo "wrote $dir: carry it to the GPU machine and run sh $dir/run.sh there (docs/cuda.md, \"A GPU session\")"
