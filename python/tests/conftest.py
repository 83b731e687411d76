# SPDX-License-Identifier: MIT
"""Paths the Python tests share: the repository, the shared models and the critter CLI.

CTest sets CRITTER_SOURCE_DIR, CRITTER_SHARED_MODELS, CRITTER_CLI and PYTHONPATH (the build
tree's critter package); run by hand, the defaults below find a release build.
"""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(os.environ.get("CRITTER_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
MODELS = pathlib.Path(os.environ.get("CRITTER_SHARED_MODELS", ROOT.parent / "shared" / "models"))
CLI = os.environ.get("CRITTER_CLI", str(ROOT / "build" / "release" / "tools" / "critter" / "critter"))
MODEL_SUFFIXES = {".gltf", ".glb", ".dae", ".b3d", ".obj", ".model", ".fbx"}


def shared_models():
    """Every model file under the shared models folder, sorted."""
    return sorted(p for p in MODELS.rglob("*") if p.suffix.lower() in MODEL_SUFFIXES)


def model_path(relative):
    return str(MODELS / relative)


def cli(*args, check=True):
    """Runs the critter CLI; returns the completed process (text output)."""
    result = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"critter {' '.join(map(str, args))} failed: {result.stderr}")
    return result


def cli_json(*args):
    return json.loads(cli(*args).stdout)


@pytest.fixture(scope="session")
def models_dir():
    assert MODELS.is_dir(), f"shared models not found at {MODELS}"
    return MODELS
