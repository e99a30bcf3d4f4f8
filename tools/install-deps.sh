#!/usr/bin/env bash
# Installs the Debian 12 packages ctff needs to build and test, skipping those already present.
# Run as root (or through sudo). Never installs libboost-dev / libboost-all-dev: ctff uses the
# versioned libboost1.81-dev.
#
#   --bench   also the optional extras of the benchmark scripts only (tools/bench.sh,
#             tools/compile_scaling.sh): jq, gnuplot-nox, GNU time. Not needed to build or test.
set -euo pipefail

packages=(
  g++-12
  cmake
  make
  ninja-build
  ccache
  libboost1.81-dev
  catch2
  libprotobuf-dev
  protobuf-compiler
  libbenchmark-dev
  nlohmann-json3-dev
  zlib1g-dev
  libgrpc++-dev
  protobuf-compiler-grpc
  python3-grpcio
  python3-protobuf
  openssl
  python3-numpy
  clang-16
  libclang-rt-16-dev
  clang-22
  libclang-rt-22-dev
  libc++-22-dev
  libc++abi-22-dev
  python3
)
if [[ ${1:-} == --bench ]]; then
  packages+=(jq gnuplot-nox time)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "install-deps: missing ${missing[*]}; run this script as root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y --no-install-recommends "${missing[@]}"
