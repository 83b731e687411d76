# SPDX-License-Identifier: MIT
"""`cmake --install` puts the package where the interpreter finds it under the prefix."""

import os
import subprocess
import sys

import pytest


def test_installed_package_imports(tmp_path):
    build = os.environ.get("CRITTER_BUILD_DIR")
    if not build:
        pytest.fail("CRITTER_BUILD_DIR is not set (CTest sets it)")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    found = list(prefix.glob("lib/python3*/*-packages/critter/_critter*.so"))
    assert len(found) == 1, list(prefix.rglob("critter*"))
    package_dir = found[0].parent
    for name in ("__init__.py", "_critter.pyi", "py.typed"):
        assert (package_dir / name).is_file()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(package_dir.parent)
    out = subprocess.run([sys.executable, "-c", "import critter; print(critter.__file__)"], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith(str(package_dir))
