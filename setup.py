"""The PEP 517 build of the `swizzle` Python module (pyproject.toml): setuptools packages what the
project's CMake builds. The extension is CMake's target swz_python (app/python), not a second
build description: this file only configures, builds that one target and copies it in.

Where CMake builds:
  SWZ_CMAKE_BUILD_DIR=<dir>  a tree already configured (make's build/, CI's): only swz_python is
                             built there, for the interpreter that tree was configured for
  (unset)                    build-python/ in the source tree, configured for this interpreter with
                             the module alone (no GUI, tests, benchmarks or CUDA), RelWithDebInfo as
                             make's build (-O3 adds nothing but GCC 12's false -Wrestrict warnings)
The packaged module is stripped of its debug info.
setuptools' own files (build/, *.egg-info) go into that folder too, never into the sources.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
GIVEN_BUILD_DIR = os.environ.get("SWZ_CMAKE_BUILD_DIR")
BUILD_DIR = pathlib.Path(GIVEN_BUILD_DIR or ROOT / "build-python").resolve()


def project_version():
    """The version CMake's project() declares (the module's _core.version is the same)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9.]+)", text)
    if not found:
        sys.exit("setup.py: no project(... VERSION x.y.z) in CMakeLists.txt")
    return found.group(1)


class CMakeBuild(build_ext):
    """Builds the extension with CMake's swz_python target and copies the module it writes."""

    def build_extension(self, ext):
        if not GIVEN_BUILD_DIR:
            self.configure()
        elif not (BUILD_DIR / "CMakeCache.txt").exists():
            sys.exit(f"setup.py: SWZ_CMAKE_BUILD_DIR={BUILD_DIR} is not a configured CMake build folder")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "--build", str(BUILD_DIR), "--target", "swz_python", "-j", jobs], check=True)
        module = BUILD_DIR / "python" / "swizzle" / ("_core" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not module.exists():
            sys.exit(f"setup.py: {module} was not built: {BUILD_DIR} builds the module for another Python "
                     f"than {sys.executable} (unset SWZ_CMAKE_BUILD_DIR to build one for it)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(module, target)
        if shutil.which("strip"):  # the package needs no debug info (RelWithDebInfo's is most of the file)
            subprocess.run(["strip", "--strip-debug", str(target)], check=True)

    def configure(self):
        flags = [f"-DPython_EXECUTABLE={sys.executable}", "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DSWZ_PYTHON=ON",
                 "-DSWZ_BUILD_GUI=OFF", "-DSWZ_BUILD_TESTS=OFF", "-DSWZ_BUILD_BENCH=OFF", "-DSWZ_ENABLE_CUDA=OFF"]
        try:  # Debian's python3-pybind11 names its CMake package; pybind11-dev's is found without it
            import pybind11

            flags.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(BUILD_DIR), *flags], check=True)


BUILD_DIR.mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    packages=["swizzle"],
    package_dir={"swizzle": "app/python/swizzle"},
    package_data={"swizzle": ["__init__.pyi", "py.typed"]},
    ext_modules=[Extension("swizzle._core", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(BUILD_DIR / "setuptools")}, "egg_info": {"egg_base": str(BUILD_DIR)}},
)
