# SPDX-License-Identifier: MIT
"""examples/batch_dask.py on a small folder with a two-worker LocalCluster: every good file is
converted, the bad ones are reported with file and location, and the batch finishes."""

import os
import shutil
import subprocess
import sys

import critter
from conftest import ROOT, model_path

EXAMPLE = ROOT / "examples" / "batch_dask.py"


def run_batch(*args):
    return subprocess.run([sys.executable, str(EXAMPLE), *map(str, args), "--workers", "2"],
                          capture_output=True, text=True, timeout=600, env=dict(os.environ))


def make_folder(tmp_path):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    shutil.copy(model_path("SimpleSkin/SimpleSkin.gltf"), src / "SimpleSkin.gltf")
    shutil.copy(model_path("RiggedFigure/RiggedFigure.glb"), src / "sub" / "RiggedFigure.glb")
    shutil.copy(model_path("minetest_cart_b3d/carts_cart.b3d"), src / "cart.b3d")
    (src / "broken.glb").write_bytes(b"glTF\x02\x00\x00\x00" + b"\x00" * 30)
    (src / "notes.txt").write_text("not a model")
    return src


def test_batch_converts_good_files_and_names_bad_ones(tmp_path):
    src = make_folder(tmp_path)
    out = tmp_path / "out"
    result = run_batch(src, "--out", out, "--format", "glb")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert sum(line.startswith("ok ") for line in lines) == 3
    failed = [line for line in lines if line.startswith("FAILED")]
    assert len(failed) == 1
    assert str(src / "broken.glb") + ":" in failed[0] and "byte" in failed[0]
    assert lines[-1].startswith("3 converted, 1 failed, 4 files") and "on 2 workers" in lines[-1]
    for name in ["SimpleSkin.glb", "sub/RiggedFigure.glb", "cart.glb"]:
        assert critter.load(str(out / name)).meshes
    assert not (out / "broken.glb").exists()


def test_batch_renders_sheets(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(model_path("SimpleSkin/SimpleSkin.gltf"), src / "SimpleSkin.gltf")
    out = tmp_path / "sheets"
    result = run_batch(src, "--out", out, "--sheets")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (out / "SimpleSkin.png").read_bytes()[:4] == b"\x89PNG"
    assert result.stdout.splitlines()[-1].startswith("1 rendered, 0 failed")
