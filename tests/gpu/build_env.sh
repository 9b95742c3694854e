# Sourced by the GPU scripts: the CMake arguments of a CUDA build in "$build" from "$root",
# with SWZ_DEPS_PREFIX (an install prefix of nlohmann-json, fmt, CLI11, GoogleTest, stb and
# pkgconf unpacked from the Debian packages: nlohmann-json3-dev libfmt-dev libfmt9
# libcli11-dev libgtest-dev googletest libstb-dev libstb0 pkgconf pkgconf-bin libpkgconf3,
# and pybind11-dev for the Python module,
# each `apt-get download` + `dpkg-deb -x PKG.deb DIR`, then SWZ_DEPS_PREFIX=DIR/usr) for
# machines without those packages.
export PATH=/usr/local/cuda/bin:$PATH
args=(-S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSWZ_BUILD_GUI=OFF -DSWZ_BUILD_BENCH=OFF -DSWZ_BUILD_TESTS=ON -DSWZ_ENABLE_CUDA=ON)
if [ -n "${SWZ_DEPS_PREFIX:-}" ]; then
  args+=(-DCMAKE_PREFIX_PATH="$SWZ_DEPS_PREFIX")
  command -v pkg-config >/dev/null || args+=(-DPKG_CONFIG_EXECUTABLE="$SWZ_DEPS_PREFIX/bin/pkg-config")
  export LD_LIBRARY_PATH="$SWZ_DEPS_PREFIX/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # Debian's .pc files say prefix=/usr: copies that name the unpacked prefix instead (stb).
  pcdir="$build/deps-pkgconfig"
  mkdir -p "$pcdir"
  find "$SWZ_DEPS_PREFIX" -name '*.pc' | while read -r pc; do
    sed "s#^prefix=/usr\$#prefix=$SWZ_DEPS_PREFIX#" "$pc" >"$pcdir/$(basename "$pc")"
  done
  export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export PKG_CONFIG_LIBDIR="$pcdir"
fi
