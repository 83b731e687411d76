# SPDX-License-Identifier: MIT
"""Model.skin (the C++ CPU skinning path) against linear blend skinning written in numpy from the
model's own arrays, and against the vertices `critter convert --format obj` bakes."""

import numpy as np
import pytest

import critter
from conftest import cli, model_path

SKINNED = ["SimpleSkin/SimpleSkin.gltf", "RiggedFigure/RiggedFigure.glb", "Wizard/Wizard.glb"]


def numpy_vertex_matrices(model, pose, t):
    """Every vertex's blended 4x4 matrix (its bone's on rigid meshes) for pose[t], in float64,
    every mesh part in Model.meshes order."""
    mats = pose.model_matrices[t].astype(np.float64)
    out = []
    for mesh in model.meshes:
        if mesh.skin >= 0:
            skin = model.skins[mesh.skin]
            palette = mats[skin.joints.astype(int)] @ skin.inverse_bind.astype(np.float64)
            out.append(np.einsum("vk,vkij->vij", mesh.weights.astype(np.float64), palette[mesh.joints.astype(int)]))
        else:
            bone = mats[mesh.bone] if mesh.bone >= 0 else np.eye(4)
            out.append(np.broadcast_to(bone, (mesh.vertex_count, 4, 4)))
    return np.concatenate(out)


def numpy_skin(model, pose, t):
    """Every vertex of every mesh part posed by pose[t], in numpy (models without morph targets)."""
    p = np.concatenate([m.positions for m in model.meshes]).astype(np.float64)
    p = np.c_[p, np.ones(len(p))]
    return np.einsum("vij,vj->vi", numpy_vertex_matrices(model, pose, t), p)[:, :3]


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


def test_normals_by_the_inverse_transpose_or_by_the_matrix():
    model = critter.load(model_path("Wizard/Wizard.glb"))
    assert any(m.skin >= 0 for m in model.meshes)
    assert all(m.normals.shape == (m.vertex_count, 3) and not m.morph_names for m in model.meshes)
    pose = model.sample(0, [model.clips[0].duration * 0.4])
    p_it, n_it = model.skin(pose)
    p_m, n_m = model.skin(pose, normals="matrix")
    np.testing.assert_array_equal(p_it, p_m)
    m3 = numpy_vertex_matrices(model, pose, 0)[:, :3, :3]
    n = np.concatenate([mesh.normals for mesh in model.meshes]).astype(np.float64)
    by_matrix = np.einsum("vij,vj->vi", m3, n)
    by_inverse_transpose = np.einsum("vji,vj->vi", np.linalg.inv(m3), n)

    def unit(v):
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    np.testing.assert_allclose(n_m[0], unit(by_matrix), atol=2e-4)
    np.testing.assert_allclose(n_it[0], unit(by_inverse_transpose), atol=2e-4)
    # The Wizard's influences disagree on some vertices: there the two forms part.
    assert np.abs(n_m[0] - n_it[0]).max() > 1e-3
    with pytest.raises(ValueError, match="inverse_transpose"):
        model.skin(pose, normals="cofactor")
