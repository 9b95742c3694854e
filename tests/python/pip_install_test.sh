#!/bin/sh
# pip install . as a Python user does it, offline: a fresh venv that sees Debian's packages
# (setuptools, wheel, pybind11), the PEP 517 build of pyproject.toml with no index and no build
# isolation, then import and solve from outside the source tree.
#   pip_install_test.sh SOURCE_DIR BUILD_DIR PYTHON
# BUILD_DIR: a configured tree whose swz_python target the build reuses (SWZ_CMAKE_BUILD_DIR), so
# only the module is built (here: already built, so nothing compiles).
set -eu
source_dir=$1 build_dir=$2 python=$3
venv=$(mktemp -d "${TMPDIR:-/tmp}/swizzle-venv.XXXXXX")
trap 'rm -rf "$venv"' EXIT
"$python" -m venv --system-site-packages "$venv"
SWZ_CMAKE_BUILD_DIR=$build_dir PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore \
  "$venv/bin/python" -m pip install --no-build-isolation --no-index --no-cache-dir -q "$source_dir"
cd "$venv"
"$venv/bin/python" - "$venv" <<'PY'
import pathlib
import sys

import swizzle

venv = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(swizzle.__file__).resolve()
assert venv in where.parents, f"imported from {where}, not the venv {venv}"
assert (where.parent / "py.typed").exists() and (where.parent / "__init__.pyi").exists()
result = swizzle.solve(preset="transpose16x32")
assert result["conflict_free"] and result["check"], result.get("check")
assert swizzle.Layout(result["shared"]).kind == "shared"
print(f"swizzle {swizzle.__version__} from {where.parent}: transpose16x32 solved,",
      result["write"]["wavefronts"], "+", result["read"]["wavefronts"], "wavefronts")
PY
