# SPDX-License-Identifier: MIT
"""critter.load and what a Model exposes, on every shared model, checked against `critter info`."""

import gc

import numpy as np
import pytest

import critter
from conftest import cli_json, model_path, shared_models


@pytest.mark.parametrize("path", shared_models(), ids=lambda p: p.name)
def test_every_shared_model_loads_as_the_cli_describes_it(path):
    model = critter.load(str(path))
    info = cli_json("info", path, "--json")
    assert model.path == str(path)
    assert model.format == info["format"]
    assert sorted(b.name for b in model.bones) == sorted(b["name"] for b in info["bones"])
    assert [c.name for c in model.clips] == [a["name"] for a in info["animations"]]
    for clip, anim in zip(model.clips, info["animations"]):
        assert clip.duration == pytest.approx(anim["duration"], abs=1e-6)
    assert [m.name for m in model.meshes] == [m["name"] for m in info["meshes"]]
    for bone in model.bones:
        assert -1 <= bone.parent < bone.index
    total = 0
    for mesh, described in zip(model.meshes, info["meshes"]):
        assert [p.vertex_count for p in mesh.parts] == [p["vertices"] for p in described["parts"]]
        assert mesh.vertex_offset == total
        v = mesh.vertex_count
        total += v
        assert mesh.positions.shape == (v, 3) and mesh.positions.dtype == np.float32
        assert mesh.normals.shape in ((v, 3), (0, 3))
        assert mesh.uvs.shape in ((v, 2), (0, 2))
        assert mesh.joints.shape in ((v, 4), (0, 4)) and mesh.joints.dtype == np.uint16
        assert mesh.weights.shape in ((v, 4), (0, 4))
        assert mesh.indices.dtype == np.uint32
        assert mesh.indices.size == 0 or int(mesh.indices.max()) < v
        assert mesh.morph_names == described["morph_names"]
        if mesh.skin >= 0 and mesh.weights.size:
            np.testing.assert_allclose(mesh.weights.sum(axis=1), 1.0, atol=1e-5)
    assert len(model.skins) == len(info["skins"])
    for skin in model.skins:
        assert skin.inverse_bind.shape == (len(skin.joints), 4, 4)
    assert len(model.morph_targets) == sum(len(m["default_weights"]) for m in info["meshes"])
    assert model.bounds.shape == (2, 3)
    assert np.all(model.bounds[0] <= model.bounds[1])


def test_mesh_arrays_are_read_only_views_that_keep_the_model_alive():
    model = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    positions = model.meshes[0].positions
    expected = positions.copy()
    assert not positions.flags.writeable
    assert not positions.flags.owndata  # a view of the model's buffer
    with pytest.raises(ValueError):
        positions[0, 0] = 1.0
    del model
    gc.collect()
    np.testing.assert_array_equal(positions, expected)


def test_inverse_binds_are_row_major():
    model = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    ib = model.skins[0].inverse_bind
    # The glTF's second inverse bind matrix translates by -1 along Y: the last column holds it.
    assert ib[1, 1, 3] == pytest.approx(-1.0)
    np.testing.assert_allclose(ib[1, 3], [0, 0, 0, 1])


def test_clips_option_cuts_frame_ranges():
    path = "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d"
    model = critter.load(path, clips={"stand": (0, 79), "walk": (168, 187)}, clips_fps=30)
    assert [c.name for c in model.clips] == ["stand", "walk"]
    assert model.clips[1].duration == pytest.approx(19 / 30, abs=1e-4)
    same = critter.load(path, clips="stand:0-79,walk:168-187", clips_fps=30)
    assert [c.duration for c in same.clips] == [c.duration for c in model.clips]


def test_builtin_models_load():
    model = critter.load("builtin:four-legged")
    assert len(model.bones) > 5


MINETEST_CHARACTER = (
    "/usr/share/games/minetest/games/minetest_game/mods/player_api/models/character.b3d"
)


def test_limbs_cut_block_limbs_at_the_knees_and_elbows():
    plain = critter.load(MINETEST_CHARACTER)
    split = critter.load(MINETEST_CHARACTER, limbs=True)
    assert len(split.bones) == len(plain.bones) + 8
    names = [b.name for b in split.bones]
    for limb in ("Arm_Right", "Arm_Left", "Leg_Right", "Leg_Left"):
        assert limb + ".lower" in names and limb + ".seam" in names
        lower = split.bones[names.index(limb + ".lower")]
        assert split.bones[lower.parent].name == limb


def test_limbs_leave_a_model_without_block_limbs_as_it_is():
    plain = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    model = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"), limbs=True)
    assert len(model.bones) == len(plain.bones)
    assert any("no block limbs" in w for w in model.warnings)


def test_help_reads_well():
    doc = critter.load.__doc__
    assert "clips" in doc and "look" in doc and "critter.Error" in doc
    assert "many times" in critter.__doc__ or "many" in critter.__doc__
    assert critter.Model.sample.__doc__.startswith("sample(")
