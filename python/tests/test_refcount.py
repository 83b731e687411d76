# SPDX-License-Identifier: MIT
"""Lifetimes: a Pose keeps its Model alive, arrays keep their owner alive, and loading the same
small model 10,000 times does not grow the process."""

import gc
import weakref

import critter
from conftest import model_path

SMALL = model_path("SimpleSkin/SimpleSkin.gltf")


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_pose_keeps_its_model_alive():
    model = critter.load(SMALL)
    alive = weakref.ref(model)
    pose = model.sample(0, [0.5])
    del model
    gc.collect()
    assert alive() is not None
    assert pose.model is alive()
    assert pose.model.bones[0].name
    del pose
    gc.collect()
    assert alive() is None


def test_arrays_keep_the_pose_and_the_model_alive():
    model = critter.load(SMALL)
    alive = weakref.ref(model)
    matrices = model.sample(0, [0.5, 1.0]).model_matrices
    positions = model.meshes[0].positions
    del model
    gc.collect()
    assert alive() is not None
    del matrices
    gc.collect()
    assert alive() is not None  # positions still views the model
    del positions
    gc.collect()
    assert alive() is None


def test_controller_keeps_its_model_alive():
    model = critter.load(model_path("Wizard/Wizard.glb"))
    alive = weakref.ref(model)
    from conftest import ROOT

    controller = critter.Controller(model, str(ROOT / "docs" / "examples" / "Wizard.json"))
    del model
    gc.collect()
    controller.update(0.1)
    assert controller.pose.model_matrices.shape[1] == len(controller.model.bones)
    assert alive() is not None
    del controller
    gc.collect()
    assert alive() is None


def test_no_leak_over_10000_loads():
    for _ in range(500):  # warm up the allocator
        critter.load(SMALL).sample(0, [0.1]).local_trs
    gc.collect()
    before = rss_bytes()
    for _ in range(10000):
        model = critter.load(SMALL)
        model.sample(0, [0.1, 0.2]).model_matrices
        model.meshes[0].positions
    del model
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 4 * 1024 * 1024, f"RSS grew by {grown} bytes over 10,000 loads"
