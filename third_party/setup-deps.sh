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
  emscripten chromium dpkg-dev
)
# The browser build (make web) compiles Dear ImGui's own sources with emcc: Debian's source
# package (1.86, the version libimgui-dev ships) unpacked into third_party/imgui-src, once.
here="$(cd "$(dirname "$0")" && pwd)"
imgui_src="$here/imgui-src"
fetch_imgui_source() {
  ls "$imgui_src"/imgui-*/imgui.cpp >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: the browser build needs Dear ImGui's sources; as root run: $0"
    return 0
  fi
  if ! grep -rqsE '^(deb-src .*bookworm main|Types: deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
      >/etc/apt/sources.list.d/swizzle-workbench-src.list
    apt-get update -qq
  fi
  mkdir -p "$imgui_src"
  (cd "$imgui_src" && apt-get source -qq imgui >/dev/null)
}
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  fetch_imgui_source
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fetch_imgui_source
else
  echo "setup: missing packages; run:"
  echo "  sudo apt-get install -y ${missing[*]}"
  exit 1
fi
