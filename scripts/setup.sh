#!/usr/bin/env bash
# Installs the Debian packages splgen needs to build and test. Does nothing (not even
# apt-get update) when they are all installed. Non-interactive; run as root or with sudo.
set -euo pipefail

# ccache: the consumer tests build splgen three times (add_subdirectory, FetchContent, without
# FFTW3) from the same sources; with it the second and third are cache hits.
# libclang-rt-dev: clang's sanitizer and libFuzzer runtimes (tests/fuzz/, labels asan and fuzz),
# only recommended by clang.
packages=(cmake ninja-build g++ clang libclang-rt-dev libboost-dev libfmt-dev libcli11-dev libgtest-dev libfftw3-dev
          pkg-config ccache libopenmpi-dev openmpi-bin libfftw3-mpi-dev)
# Wanted but not needed: VkFFT's header, which bench --target cuda times beside cuFFT where it
# builds (docs/cuda.md); a system without the package still builds and tests everything.
optional=(libvkfft-dev)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup.sh: dpkg-query not found (not Debian/Ubuntu?); install these yourself: ${packages[*]}" >&2
  exit 0
fi

missing=() missing_optional=()
for p in "${packages[@]}" "${optional[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    if [[ " ${optional[*]} " == *" $p "* ]]; then missing_optional+=("$p"); else missing+=("$p"); fi
  fi
done

if [[ ${#missing[@]} -eq 0 && ${#missing_optional[@]} -eq 0 ]]; then
  exit 0
fi

echo "setup.sh: installing ${missing[*]} ${missing_optional[*]}" >&2
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "setup.sh: need root to install ${missing[*]} (no sudo found)" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
for p in "${missing_optional[@]}"; do
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$p" ||
    echo "setup.sh: $p is not available here; going on without it" >&2
done
