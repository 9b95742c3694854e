# Sourced by the GPU scripts: the CMake arguments of a CUDA build in "$build" from "$root",
# with SWZ_DEPS_PREFIX (an install prefix of nlohmann-json, fmt, CLI11, GoogleTest and
# pkg-config unpacked from the Debian packages) for machines without those packages.
export PATH=/usr/local/cuda/bin:$PATH
args=(-S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSWZ_BUILD_GUI=OFF -DSWZ_BUILD_BENCH=OFF -DSWZ_BUILD_TESTS=ON -DSWZ_ENABLE_CUDA=ON)
if [ -n "${SWZ_DEPS_PREFIX:-}" ]; then
  args+=(-DCMAKE_PREFIX_PATH="$SWZ_DEPS_PREFIX")
  command -v pkg-config >/dev/null || args+=(-DPKG_CONFIG_EXECUTABLE="$SWZ_DEPS_PREFIX/bin/pkg-config")
  export LD_LIBRARY_PATH="$SWZ_DEPS_PREFIX/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
