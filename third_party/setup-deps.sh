#!/usr/bin/env bash
# Installs the Debian packages one make target needs, once. As root: apt-get.
# Otherwise: prints the one apt-get line to run, and stops.
#
#   setup-deps.sh run       the workbench and the CLI (make run)
#   setup-deps.sh test      + the tests: GoogleTest, Google Benchmark, Xvfb, pytest, the Python module
#                           and its pip install (make test, make build, make bench); + Chromium when
#                           the browser build is there (make test then runs its page)
#   setup-deps.sh web       + emscripten, Chromium and Dear ImGui's sources (make web, make test-web)
#   setup-deps.sh sanitize  the tests + clang and its sanitizer runtimes (make test-sanitize, make fuzz)
#   setup-deps.sh wheel     + the Python module's build and the wheel's (make wheel, pip install .)
#   setup-deps.sh all       every one of them (no argument: the same)
#   setup-deps.sh --list T  prints target T's packages, one a line, and installs nothing
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

run_packages=(
  cmake make g++ pkg-config
  libimgui-dev libglfw3-dev libstb-dev nlohmann-json3-dev libcli11-dev libfmt-dev
  libgl1-mesa-dri libegl-mesa0 fonts-dejavu-core
)
# The module's build: pybind11 as Debian ships it (headers and its CMake package).
python_module_packages=(pybind11-dev python3-dev)
# pip install . in a venv, offline: the PEP 517 backend (setuptools, wheel) and the venv with its pip.
pip_install_packages=(python3-setuptools python3-wheel python3-pybind11 python3-venv)
test_packages=(
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth python3-pytest
  "${python_module_packages[@]}" "${pip_install_packages[@]}"
)
web_packages=(emscripten chromium dpkg-dev)
sanitize_packages=(clang libclang-rt-14-dev)
wheel_packages=("${python_module_packages[@]}" "${pip_install_packages[@]}" python3-build)

packages_for() {
  case "$1" in
    run) echo "${run_packages[@]}" ;;
    test)
      echo "${run_packages[@]}" "${test_packages[@]}"
      # With the browser build there, make test runs its page in headless Chromium (tests/web).
      if [ -f "$root/build-web/site/index.html" ]; then echo chromium; fi
      ;;
    web) echo "${run_packages[@]}" "${web_packages[@]}" ;;
    sanitize) echo "${run_packages[@]}" "${test_packages[@]}" "${sanitize_packages[@]}" ;;
    wheel) echo "${run_packages[@]}" "${wheel_packages[@]}" ;;
    all)
      echo "${run_packages[@]}" "${test_packages[@]}" "${web_packages[@]}" "${sanitize_packages[@]}" "${wheel_packages[@]}"
      ;;
    *)
      echo "setup-deps.sh: unknown target '$1' (run, test, web, sanitize, wheel, all)" >&2
      return 2
      ;;
  esac
}

if [ "${1:-}" = "--list" ]; then
  packages_for "${2:-all}" | tr ' ' '\n' | sort -u
  exit 0
fi
target="${1:-all}"
packages_for "$target" >/dev/null || exit 2
read -r -a packages <<<"$(packages_for "$target" | tr '\n' ' ')"

# The browser build (make web) compiles Dear ImGui's own sources with emcc: Debian's source
# package (1.86, the version libimgui-dev ships) unpacked into third_party/imgui-src, once.
imgui_src="$here/imgui-src"
fetch_imgui_source() {
  case "$target" in web | all) ;; *) return 0 ;; esac
  ls "$imgui_src"/imgui-*/imgui.cpp >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: the browser build needs Dear ImGui's sources; as root run: $0 web"
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
  echo "setup ($target): installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fetch_imgui_source
else
  echo "setup ($target): missing packages; run:"
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}"
  exit 1
fi
