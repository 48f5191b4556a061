#!/usr/bin/env bash
# The consumer tests (tests/CMakeLists.txt, label `consumer`): configure, build and run the
# example project examples/consumer, which generates its FFTs with splgen_add_transform().
#
#   run_consumer.sh MODE SOURCE_DIR BUILD_DIR WORK_DIR [GENERATOR] [LAUNCHER]
#
# SOURCE_DIR/BUILD_DIR: splgen's source and build trees; WORK_DIR: scratch space (the install
# prefix WORK_DIR/prefix is shared by the modes). MODE:
#   install       cmake --install BUILD_DIR into WORK_DIR/prefix, check the installed files,
#                 and that the installed splgen finds its installed rules
#   installed     find_package(splgen) from WORK_DIR/prefix: build, run the app
#   rebuild       an unchanged build does not rerun the generator; a new spec, a touched rule
#                 file do (and only the transforms that use them)
#   bad_spec      a bad SPEC fails the build with splgen's message; a bad ISA fails the configure
#   wisdom        WISDOM file: passed to splgen gen as --wisdom FILE, and a dependency
#   subdirectory  add_subdirectory(SOURCE_DIR): build (splgen included), run the app
#   fetchcontent  FetchContent_Declare(splgen SOURCE_DIR SOURCE_DIR): build, run the app
#   cross         a cross build: SPLGEN_EXECUTABLE names the host splgen, ISA avx2 generated
#   cuda          TARGET cuda (CONSUMER_CUDA=ON): the .cu kernel generated and built with nvcc,
#                 its app run where there is a GPU; exit 77 (skipped) without nvcc
#   generator_only  splgen configured with SPLGEN_WITH_FFTW=OFF: the generator builds and runs
#                 without FFTW3 (nothing links it), selftest checks a kernel, and bench/search say
#                 why they are missing
set -euo pipefail
mode="$1"
src="$(cd "$2" && pwd)"
bld="$(cd "$3" && pwd)"
work="$4"
generator="${5:-Ninja}"
launcher="${6:-}"
prefix="$work/prefix"
example="$src/examples/consumer"
mkdir -p "$work"
# The add_subdirectory, FetchContent and generator-only builds compile splgen again, in build
# trees of other depths: with absolute paths in ccache's hashes (no CCACHE_BASEDIR) they share
# its entries, and those of splgen's own build when it used ccache (scripts/build.sh).
unset CCACHE_BASEDIR

fail() { echo "FAIL: $*" >&2; exit 1; }

configure() {  # configure DIR ARGS...: a fresh build of the example in DIR
  local dir="$1"; shift
  rm -rf "$dir"
  local extra=()
  [[ -n "$launcher" ]] && extra+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
  cmake -S "$example" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" "$@"
}

run_app() {  # run_app DIR: the app checks its transforms against a naive DFT
  local out
  out="$("$1/consumer_app")" || { echo "$out"; fail "consumer_app failed"; }
  echo "$out"
  [[ "$(grep -c ': ok' <<<"$out")" -eq 6 ]] || fail "expected 6 transforms ok"
}

case "$mode" in
  install)
    rm -rf "$prefix"
    cmake --install "$bld" --prefix "$prefix"
    for f in bin/splgen lib/cmake/splgen/splgenConfig.cmake lib/cmake/splgen/splgenConfigVersion.cmake \
             lib/cmake/splgen/splgenTargets.cmake lib/cmake/splgen/SplgenAddTransform.cmake \
             share/pkgconfig/splgen.pc share/splgen/rules/dft.rules share/doc/splgen/cmake.md \
             share/doc/splgen/cli.md share/splgen/generated/splgen_kernels.h; do
      [[ -e "$prefix/$f" ]] || fail "not installed: $f"
    done
    # The installed program reads the installed rules (not the source tree's).
    list="$("$prefix/bin/splgen" rules list)"
    grep -q "$prefix/share/splgen/rules/dft.rules" <<<"$list" || fail "installed splgen does not read $prefix/share/splgen/rules"
    "$prefix/bin/splgen" gen "DFT(8)" -o "$work/dft8.cpp" --header "$work/dft8.h"
    grep -q "void splgen_dft8(double" "$work/dft8.h" || fail "--header"
    if command -v pkg-config >/dev/null; then
      exe="$(PKG_CONFIG_PATH="$prefix/share/pkgconfig" pkg-config --variable=splgen splgen)"
      [[ "$("$exe" --version)" == "$("$prefix/bin/splgen" --version)" ]] || fail "pkg-config names $exe"
    fi
    echo "installed into $prefix"
    ;;

  installed)
    configure "$work/installed" -DCMAKE_PREFIX_PATH="$prefix"
    cmake --build "$work/installed"
    run_app "$work/installed"
    ;;

  rebuild)
    dir="$work/rebuild"
    configure "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_SIZE=64
    cmake --build "$dir" | tee "$work/rebuild.1.log"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.1.log")" -eq 6 ]] || fail "first build: 6 generations expected"
    # Unchanged: nothing to do, even after a reconfigure with the same arguments.
    cmake "$dir" >/dev/null
    cmake --build "$dir" | tee "$work/rebuild.2.log"
    ! grep -q 'splgen: generating' "$work/rebuild.2.log" || fail "an unchanged build re-ran the generator"
    if [[ "$generator" == Ninja ]]; then
      grep -q "no work to do" <<<"$(ninja -C "$dir" -n)" || fail "ninja -n: work left after a no-op build"
    fi
    # A new spec (a formula equal to DFT(64)): the forward transform, and only it, is generated
    # again, and is still right; so for a new ISA.
    cmake "$dir" -DCONSUMER_SPEC="(DFT(8) (x) I(8)) * T(64,8) * (I(8) (x) DFT(8)) * L(64,8)" >/dev/null
    cmake --build "$dir" | tee "$work/rebuild.3.log"
    grep -q 'splgen: generating fft = (DFT(8)' "$work/rebuild.3.log" || fail "a new SPEC did not regenerate fft"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.3.log")" -eq 1 ]] || fail "only fft should be regenerated"
    run_app "$dir"
    cmake "$dir" -DCONSUMER_SPEC="" -DCONSUMER_ISA=scalar >/dev/null
    cmake --build "$dir" | tee "$work/rebuild.4.log"
    grep -q 'splgen: generating fft = DFT(64) (double, scalar)' "$work/rebuild.4.log" || fail "a new ISA did not regenerate fft"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.4.log")" -eq 1 ]] || fail "only fft should be regenerated"
    run_app "$dir"
    # A new size: all six.
    cmake "$dir" -DCONSUMER_SIZE=128 >/dev/null
    cmake --build "$dir" | tee "$work/rebuild.5.log"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.5.log")" -eq 6 ]] || fail "a new size: 6 generations expected"
    run_app "$dir"
    # A rule file is an input of the transforms that use it (a copy: the source tree stays untouched).
    cp "$example/dif.rules" "$work/dif.rules"
    cmake "$dir" -DCONSUMER_RULES="$work/dif.rules" >/dev/null
    cmake --build "$dir" >/dev/null
    sleep 1
    touch "$work/dif.rules"
    cmake --build "$dir" | tee "$work/rebuild.6.log"
    grep -q 'splgen: generating fft_dif' "$work/rebuild.6.log" || fail "a touched rule file did not regenerate fft_dif"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.6.log")" -eq 1 ]] || fail "only fft_dif uses the rules"
    # ... and so is the splgen program.
    sleep 1
    touch "$prefix/bin/splgen"
    cmake --build "$dir" | tee "$work/rebuild.7.log"
    [[ "$(grep -c 'splgen: generating' "$work/rebuild.7.log")" -eq 6 ]] || fail "a new splgen program: 6 generations expected"
    ;;

  bad_spec)
    dir="$work/bad_spec"
    configure "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_SPEC="DFT(12"
    if cmake --build "$dir" >"$work/bad_spec.log" 2>&1; then
      cat "$work/bad_spec.log"; fail "a bad SPEC built"
    fi
    cat "$work/bad_spec.log"
    grep -q "splgen: error: 1:7: expected ')'" "$work/bad_spec.log" || fail "splgen's message is not in the build output"
    if configure "$work/bad_isa" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_ISA=neon >"$work/bad_isa.log" 2>&1; then
      cat "$work/bad_isa.log"; fail "a bad ISA configured"
    fi
    cat "$work/bad_isa.log"
    grep -q "got 'neon'" "$work/bad_isa.log" || fail "no ISA message"
    ;;

  wisdom)
    dir="$work/wisdom"
    wisdom="$work/fft.wisdom"
    rm -f "$wisdom"
    configure "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_SIZE=64 -DCONSUMER_ISA=scalar -DCONSUMER_WISDOM="$wisdom"
    # The generation command passes the file, and the file is an input of it.
    if [[ "$generator" == Ninja ]]; then
      plan="$(ninja -C "$dir" -t commands)"
      grep -q -- "--wisdom $wisdom" <<<"$plan" || fail "splgen gen is not given --wisdom $wisdom"
      grep -q "$wisdom" <<<"$(ninja -C "$dir" -t query splgen/fft.cpp)" || fail "the wisdom file is not an input of fft.cpp"
    fi
    splgen="$prefix/bin/splgen"
    if "$splgen" gen --help | grep -q -- --wisdom && "$splgen" search --help >/dev/null 2>&1; then
      # A plan for the transform (the operation-count model: no compiling, no timing), used by the build.
      "$splgen" search "DFT(64)" --isa scalar --precision double --strategy estimate --wisdom "$wisdom" \
        | tee "$work/search.log"
      formula="$(sed -n 's/^formula: //p' "$work/search.log")"
      cmake --build "$dir" 2>&1 | tee "$work/wisdom.1.log"
      grep -q 'splgen: generating fft ' "$work/wisdom.1.log" || fail "fft was not generated"
      ! grep -q "default plan" "$work/wisdom.1.log" || fail "splgen gen did not use the plan of the wisdom file"
      grep -qF "// formula: $formula" "$dir/splgen/fft.cpp" || fail "fft.cpp is not the searched formula $formula"
      run_app "$dir"
      sleep 1
      touch "$wisdom"
      cmake --build "$dir" | tee "$work/wisdom.2.log"
      grep -q 'splgen: generating fft ' "$work/wisdom.2.log" || fail "a changed wisdom file did not regenerate fft"
      [[ "$(grep -c 'splgen: generating' "$work/wisdom.2.log")" -eq 1 ]] || fail "only fft uses the wisdom file"
    else
      : >"$wisdom"
      echo "this splgen has no gen --wisdom / search yet: checked the configure-time plumbing only"
    fi
    ;;

  subdirectory)
    dir="$work/subdirectory"
    configure "$dir" -DSPLGEN_SOURCE_DIR="$src" -DCONSUMER_SIZE=256
    # splgen's own tests and install rules are off inside another project.
    grep -q "^SPLGEN_BUILD_TESTS:BOOL=OFF" "$dir/CMakeCache.txt" || fail "SPLGEN_BUILD_TESTS should default OFF"
    grep -q "^SPLGEN_INSTALL:BOOL=OFF" "$dir/CMakeCache.txt" || fail "SPLGEN_INSTALL should default OFF"
    cmake --build "$dir"
    run_app "$dir"
    # splgen's kernels library is built only when linked.
    [[ ! -e "$dir/splgen/generated/libsplgen_kernels.a" ]] || fail "splgen::kernels was built without being linked"
    ;;

  fetchcontent)
    dir="$work/fetchcontent"
    configure "$dir" -DSPLGEN_SOURCE_DIR="$src" -DCONSUMER_FETCHCONTENT=ON -DCONSUMER_SIZE=512
    [[ -d "$dir/_deps/splgen-build" ]] || fail "splgen was not added with FetchContent"
    cmake --build "$dir"
    run_app "$dir"
    ;;

  generator_only)
    dir="$work/generator_only"
    rm -rf "$dir"
    extra=()
    [[ -n "$launcher" ]] && extra+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$launcher")
    cmake -S "$src" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE=Release -DSPLGEN_WITH_FFTW=OFF \
      -DSPLGEN_BUILD_TESTS=OFF "${extra[@]}"
    cmake --build "$dir" --target splgen
    ! grep -q "splgen_measure" "$dir/build.ninja" 2>/dev/null || fail "the measuring layer is configured"
    ! ldd "$dir/splgen" | grep -q fftw || fail "splgen links FFTW3"
    "$dir/splgen" gen "DFT(64)" --isa avx2 -o "$work/generator_only.cpp"
    grep -q "void splgen_dft64(double" "$work/generator_only.cpp" || fail "no kernel generated"
    if "$dir/splgen" bench "DFT(64)" 2>"$work/generator_only.err"; then fail "bench ran without FFTW3"; fi
    grep -q "bench: this splgen was built without FFTW3" "$work/generator_only.err" || fail "no reason given for bench"
    [[ "$(wc -l <"$work/generator_only.err")" -eq 1 ]] || fail "the error is not one line"
    # selftest compiles and checks a kernel with a compiler only (generator/kernel/, no FFTW3).
    "$dir/splgen" selftest "DFT(64)" >"$work/generator_only_selftest.out" || fail "selftest failed without FFTW3"
    grep -q "^OK: time shift" "$work/generator_only_selftest.out" || fail "selftest printed no time-shift check"
    ;;

  cross)
    # A cross build (CMAKE_SYSTEM_NAME set: CMake treats the build as cross-compiling) with
    # splgen's source tree: the splgen target would be built for the target machine, so
    # SPLGEN_EXECUTABLE names a host splgen; generation only emits text, so ISA avx2 works on
    # any build host. Only the generation is run (the toolchain here is the host's).
    dir="$work/cross"
    configure "$dir" -DSPLGEN_SOURCE_DIR="$src" -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=x86_64 \
      -DSPLGEN_EXECUTABLE="$prefix/bin/splgen" -DCONSUMER_ISA=avx2 -DCONSUMER_SIZE=32 | tee "$work/cross.log"
    grep -q "consumer: cross-compiling: TRUE" "$work/cross.log" || fail "not a cross build"
    if [[ "$generator" == Ninja ]]; then
      ninja -C "$dir" splgen/fft.cpp splgen/fft.h
      grep -q "__attribute__((target(\"avx2,fma\"))) void fft(double" "$dir/splgen/fft.h" || fail "no avx2 kernel"
      [[ ! -e "$dir/splgen/splgen" ]] || fail "the target-machine splgen was built to generate"
    else
      echo "not Ninja: configure checked only"
    fi
    ;;

  cuda)
    nvcc="$(command -v nvcc || true)"
    [[ -n "$nvcc" || ! -x /usr/local/cuda/bin/nvcc ]] || nvcc=/usr/local/cuda/bin/nvcc
    if [[ -z "$nvcc" ]]; then echo "consumer cuda: skipped: no nvcc (the CUDA toolkit)"; exit 77; fi
    dir="$work/cuda"
    configure "$dir" -DCMAKE_PREFIX_PATH="$prefix" -DCONSUMER_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc" \
      -DCMAKE_CUDA_ARCHITECTURES=80 -DCONSUMER_SIZE=256
    cmake --build "$dir" --target consumer_gpu_app
    grep -q "__global__" "$dir/splgen/fft_gpu.cu" || fail "no CUDA kernel generated"
    set +e
    "$dir/consumer_gpu_app"
    status=$?
    set -e
    [[ $status -eq 0 || $status -eq 77 ]] || fail "consumer_gpu_app failed ($status)"
    ;;

  *)
    echo "run_consumer.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
echo "consumer $mode: ok"
