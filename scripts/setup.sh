#!/usr/bin/env bash
# Installs the Debian packages splgen needs to build and test. Does nothing (not even
# apt-get update) when they are all installed. Non-interactive; run as root or with sudo.
set -euo pipefail

# ccache: the consumer tests build splgen three times (add_subdirectory, FetchContent, without
# FFTW3) from the same sources; with it the second and third are cache hits.
# libclang-rt-dev: clang's sanitizer and libFuzzer runtimes (tests/fuzz/, labels asan and fuzz),
# only recommended by clang. libvkfft-dev: VkFFT's header, which bench --target cuda times beside
# cuFFT where it builds (docs/cuda.md).
packages=(cmake ninja-build g++ clang libclang-rt-dev libboost-dev libfmt-dev libcli11-dev libgtest-dev libfftw3-dev
          pkg-config ccache libopenmpi-dev openmpi-bin libfftw3-mpi-dev libvkfft-dev)

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "setup.sh: dpkg-query not found (not Debian/Ubuntu?); install these yourself: ${packages[*]}" >&2
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  if [[ "$status" != "installed" ]]; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

echo "setup.sh: installing ${missing[*]}" >&2
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
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
