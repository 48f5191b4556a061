#!/usr/bin/env bash
# Distributed kernels under mpirun on this machine (ctest mpi_kernels, docs/mpi.md): each case is
# generated with --target mpi, compiled with mpicxx and mpi_kernel_main.cpp, and run on its
# ranks (--oversubscribe: more ranks than cores); mpi_kernel_main.cpp checks it against FFTW3
# and long-double references, and its failure paths. Bad specs must be refused in one line.
# Usage: run_mpi.sh SPLGEN
set -euo pipefail
splgen=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for tool in mpicxx mpirun; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool not found (scripts/setup.sh installs openmpi-bin and libopenmpi-dev)"; exit 1; }
done
# Open MPI refuses root without these; CI runs as root.
# single_copy none: containers that forbid process_vm_readv (CMA) would fail large messages.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
isa=scalar
grep -q ' avx2 ' /proc/cpuinfo && grep -q ' fma ' /proc/cpuinfo && isa=avx2
status=0
# spec | ranks | dims for FFTW | extra flags
cases=(
  "DFT(1024)|2|1024|"
  "DFT(4096)|4|4096|--isa $isa"
  "DFT(4096)|4|4096|--inverse --precision float --isa $isa"
  "DFT(2304)|3|2304|"
  "DFT(65536)|4|65536|--distribution cyclic --isa $isa"
  "DFT(4096)|2|4096|--distribution cyclic --precision float"
  "DFT(2^20)|2|1048576|--isa $isa"
  "DFT(64 x 64)|4|64,64|--isa $isa"
  "DFT(48 x 36)|3|48,36|--precision float"
  "DFT(256 x 128, -1)|2|256,128|"
  "DFT(32 x 32 x 32)|4|32,32,32|--isa $isa"
  "DFT(12 x 9 x 10)|3|12,9,10|--precision float"
  "DFT(16 x 16 x 16)|4|16,16,16|--decomposition pencil --isa $isa"
  "DFT(16 x 16 x 16, -1)|4|16,16,16|--decomposition pencil --precision float --isa $isa"
  "DFT(8 x 12 x 6)|2|8,12,6|--decomposition pencil"
  "DFT(8 x 12 x 6)|2|8,12,6|--decomposition pencil --grid 2x1 --precision float"
  "DFT(12 x 6 x 9, -1)|3|12,6,9|--decomposition pencil"
  "DFT(32 x 32 x 32, -1)|4|32,32,32|--decomposition pencil --grid 4x1 --precision float --isa $isa"
  "DFT(64 x 64 x 64)|4|64,64,64|--decomposition pencil --isa $isa"
  "DFT(16 x 16 x 16)|4|16,16,16|--decomposition pencil --overlap 4 --isa $isa"
  "DFT(16 x 16 x 16, -1)|4|16,16,16|--decomposition pencil --overlap 2 --precision float --isa $isa"
  "DFT(12 x 6 x 9)|3|12,6,9|--decomposition pencil --overlap 3 --precision float"
  "DFT(8 x 12 x 6, -1)|2|8,12,6|--decomposition pencil --grid 2x1 --overlap 2"
  "DFT(64 x 64 x 64)|4|64,64,64|--decomposition pencil --overlap 8 --isa $isa"
  "DFT(64 x 64)|2|64,64|--overlap 2 --isa $isa"
  "DFT(48 x 36)|3|48,36|--overlap 4 --precision float"
  "DFT(256 x 128, -1)|4|256,128|--overlap 4 --isa $isa"
  "DFT(32 x 32 x 32)|4|32,32,32|--overlap 2 --isa $isa"
  "DFT(16 x 16 x 16, -1)|2|16,16,16|--overlap 4 --isa $isa"
  "DFT(12 x 9 x 10)|3|12,9,10|--overlap 2 --precision float"
  "DFT(4096)|2|4096|--overlap 2 --isa $isa"
  "DFT(4096)|4|4096|--overlap 4 --inverse --precision float --isa $isa"
  "DFT(2304)|3|2304|--overlap 2"
  "DFT(65536, -1)|4|65536|--overlap 2 --precision float"
  "DFT(2^20)|2|1048576|--overlap 4 --isa $isa"
  "DFT(10 x 12)|3|10,12|"
  "DFT(100 x 100)|3|100,100|--isa $isa"
  "DFT(7 x 9, -1)|4|7,9|--precision float"
  "DFT(5 x 6 x 7)|3|5,6,7|--isa $isa"
  "DFT(6 x 10 x 7, -1)|4|6,10,7|--precision float --isa $isa"
  "DFT(2 x 9)|3|2,9|"
  "DFT(3 x 4 x 5, -1)|4|3,4,5|"
  "DFT(12 x 10)|4|12,10|--isa $isa"
)
for c in "${cases[@]}"; do
  IFS='|' read -r spec ranks dims flags <<<"$c"
  # shellcheck disable=SC2086
  "$splgen" gen "$spec" --target mpi --ranks "$ranks" $flags --name mpi_kernel -o "$work/k.cpp"
  real=double sign=-1
  [[ $flags == *"--precision float"* ]] && real=float
  [[ $flags == *"--inverse"* || $spec == *", -1)" ]] && sign=1
  xp=0 yp=0 grid=0,0
  # an uneven slab kernel's rows per rank, from its header comment
  row_block=$(sed -n 's|^// distributed: .*uneven slabs of \([0-9]*\) rows.*|\1|p' "$work/k.cpp")
  row_block=${row_block:-0}
  if [[ $flags == *pencil* ]]; then  # the grid, from the kernel's header comment
    grid=$(sed -n 's|^// distributed: .*pencils of a \([0-9]*\) x \([0-9]*\) grid.*|\1,\2|p' "$work/k.cpp")
  fi
  if [[ $flags == *cyclic* ]]; then  # the packets, from the kernel's header comment
    xp=$(sed -n 's|^// x: cyclic(\([0-9]*\)).*|\1|p' "$work/k.cpp") yp=$(sed -n 's|^// y: cyclic(\([0-9]*\)).*|\1|p' "$work/k.cpp")
  fi
  mpicxx -std=c++17 -O2 -DKERNEL=mpi_kernel -DSPLGEN_REAL=$real -DOMPI_SKIP_MPICXX=1 "-DDIMS=$dims" -DSIGN=$sign -DX_PACKET="$xp" -DY_PACKET="$yp" "-DGRID=$grid" -DROW_BLOCK="$row_block" \
    "-DTO_STRING=\"$spec $flags\"" "$work/k.cpp" "$here/mpi_kernel_main.cpp" -lfftw3l -lfftw3 -o "$work/run"
  if timeout 300 mpirun -np "$ranks" "$work/run" >"$work/out" 2>&1; then
    echo "ok: $(grep ranks "$work/out" | head -1)"
  else
    echo "FAIL: $spec on $ranks ranks ($flags)"; cat "$work/out"; status=1
  fi
done
# Sizes the ranks do not divide, and splits the par rules cannot distribute: one line, exit 2.
# Pencils: a grid that does not divide the sizes, no grid that does, not 3D, a grid of other ranks,
# --grid without pencils, chunks that do not divide a rank's rows (pencils; slabs: rows of m, then
# columns after the first exchange; 1D: no split N = m n with p K dividing m and n), --overlap
# with the cyclic distribution; an uneven slab kernel (the ranks do not divide m or a row of m)
# with --overlap or the cyclic distribution, and a 1D DFT(N) whose N no split m n with P | m, n has.
for bad in "DFT(1000)|3" "DFT(96)|3" "DFT(64)|1" "DFT(6 x 6 x 9)|4|--decomposition pencil" \
  "DFT(8 x 8 x 6)|4|--decomposition pencil --grid 1x4" "DFT(64 x 64)|4|--decomposition pencil" \
  "DFT(8 x 8 x 8)|4|--decomposition pencil --grid 2x4" "DFT(8 x 8 x 8)|4|--grid 2x2" \
  "DFT(8 x 8 x 8)|4|--decomposition pencil --overlap 3" "DFT(64)|2|--overlap 8" "DFT(64 x 64)|4|--overlap 3" \
  "DFT(12 x 6 x 9)|3|--overlap 4" "DFT(4096)|2|--overlap 3" "DFT(4096)|2|--overlap 2 --distribution cyclic" \
  "DFT(24)|4" "DFT(10 x 12)|3|--overlap 2" "DFT(10 x 12)|3|--distribution cyclic" "DFT(10 x 12)|3|--decomposition pencil"; do
  IFS='|' read -r spec ranks flags <<<"$bad"
  # shellcheck disable=SC2086
  if out=$("$splgen" gen "$spec" --target mpi --ranks "$ranks" $flags -o "$work/bad.cpp" 2>&1); then
    echo "FAIL: $spec on $ranks ranks was accepted"; status=1
  elif [[ $(wc -l <<<"$out") -ne 1 ]]; then
    echo "FAIL: $spec on $ranks ranks: not one line: $out"; status=1
  else
    echo "ok: refused: $out"
  fi
done
exit $status
