#!/usr/bin/env bash
# Installs the Debian packages the build needs, once. As root: apt-get.
# Otherwise: prints the one apt-get line to run, and stops.
set -euo pipefail
packages=(
  cmake make g++ clang libclang-rt-14-dev pkg-config
  libimgui-dev libglfw3-dev libstb-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core
  pybind11-dev python3-dev python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: missing packages; run:"
  echo "  sudo apt-get install -y ${missing[*]}"
  exit 1
fi
