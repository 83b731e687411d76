# SPDX-License-Identifier: MIT
"""Model.skin (the C++ CPU skinning path) against linear blend skinning written in numpy from the
model's own arrays, and against the vertices `critter convert --format obj` bakes."""

import numpy as np
import pytest

import critter
from conftest import cli, model_path

SKINNED = ["SimpleSkin/SimpleSkin.gltf", "RiggedFigure/RiggedFigure.glb", "Wizard/Wizard.glb"]


def numpy_skin(model, pose, t):
    """Every vertex of every mesh part posed by pose[t], in numpy (models without morph targets)."""
    out = []
    mats = pose.model_matrices[t].astype(np.float64)
    for mesh in model.meshes:
        p = np.c_[mesh.positions.astype(np.float64), np.ones(mesh.vertex_count)]
        if mesh.skin >= 0:
            skin = model.skins[mesh.skin]
            palette = mats[skin.joints.astype(int)] @ skin.inverse_bind.astype(np.float64)
            m = np.einsum("vk,vkij->vij", mesh.weights.astype(np.float64), palette[mesh.joints.astype(int)])
            out.append(np.einsum("vij,vj->vi", m, p)[:, :3])
        else:
            m = mats[mesh.bone] if mesh.bone >= 0 else np.eye(4)
            out.append((p @ m.T)[:, :3])
    return np.concatenate(out)


@pytest.mark.parametrize("name", SKINNED)
def test_skinning_equals_numpy_blend_skinning(name):
    model = critter.load(model_path(name))
    clip = model.clips[0]
    pose = model.sample(0, [0.0, clip.duration * 0.4, clip.duration * 0.9])
    positions, normals = model.skin(pose)
    vertices = sum(m.vertex_count for m in model.meshes)
    assert positions.shape == normals.shape == (3, vertices, 3)
    for t in range(3):
        expected = numpy_skin(model, pose, t)
        scale = max(1.0, float(np.abs(expected).max()))
        np.testing.assert_allclose(positions[t], expected, atol=1e-4 * scale)
    lengths = np.linalg.norm(normals, axis=2)
    assert np.all((np.abs(lengths - 1) < 1e-3) | (lengths == 0))


def read_obj_vertices(path):
    return np.array([[float(x) for x in line.split()[1:4]] for line in open(path) if line.startswith("v ")])


@pytest.mark.parametrize("name", ["SimpleSkin/SimpleSkin.gltf", "RiggedFigure/RiggedFigure.glb"])
def test_skinning_equals_the_obj_the_cli_bakes(name, tmp_path):
    model = critter.load(model_path(name))
    t = model.clips[0].duration * 0.5
    positions, _ = model.skin(model.sample(0, [t]))
    obj = tmp_path / "posed.obj"
    cli("convert", model_path(name), "-o", obj, "--anim", "0", "--time", repr(t), "--quiet")
    baked = read_obj_vertices(obj)
    assert baked.shape == positions[0].shape
    np.testing.assert_allclose(baked, positions[0], atol=1e-4)


def test_morph_targets_are_applied():
    model = critter.load(model_path("AnimatedMorphSphere/AnimatedMorphSphere.gltf"))
    rest = np.concatenate([m.positions for m in model.meshes])
    pose = model.sample(0, [0.0, model.clips[0].duration * 0.5])
    positions, _ = model.skin(pose)
    assert pose.morph_weights.shape == (2, len(model.morph_targets))
    assert not np.allclose(positions[1], rest, atol=1e-4)


def test_a_pose_of_another_model_is_refused():
    a = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    b = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    with pytest.raises(critter.Error, match="another model"):
        a.skin(b.sample(0, [0.0]))
