# SPDX-License-Identifier: MIT
"""Model.sample against `critter pose --json`: the same local TRS, model matrices and morph weights."""

import numpy as np
import pytest

import critter
from conftest import cli_json, model_path, shared_models

ANIMATED = [p for p in shared_models() if critter.load(str(p)).clips]


def times_inside(duration):
    # Loop-forward playback wraps at the end: compare strictly inside the clip.
    if duration <= 0:
        return [0.0]
    return [duration * f for f in (0.0, 0.13, 0.5, 0.77, 0.99)]


@pytest.mark.parametrize("path", ANIMATED, ids=lambda p: p.name)
def test_poses_equal_the_cli(path):
    model = critter.load(str(path))
    for clip in model.clips[:3]:
        times = times_inside(clip.duration)
        pose = model.sample(clip.index, times)
        assert pose.local_trs.shape == (len(times), len(model.bones), 10)
        assert pose.model_matrices.shape == (len(times), len(model.bones), 4, 4)
        args = ["pose", path, "--anim", str(clip.index), "--json"]
        for t in times:
            args += ["--time", repr(float(np.float32(t)))]
        doc = cli_json(*args)
        index_of = {(b.source_index if b.source_index >= 0 else b.index): b.index for b in model.bones}
        for ti, shown in enumerate(doc["times"]):
            for node in shown["nodes"]:
                j = index_of[node["index"]]
                assert model.bones[j].name == node["name"]
                local = node["local"]
                expected = local["t"] + local["r"] + local["s"]
                np.testing.assert_allclose(pose.local_trs[ti, j], expected, rtol=1e-5, atol=1e-5)
                world = np.array(node["world"], dtype=np.float64).reshape(4, 4).T  # column-major list
                np.testing.assert_allclose(pose.model_matrices[ti, j], world, rtol=1e-4, atol=1e-4)
            flat = [w for m in shown["morph"] for w in m["weights"]]
            np.testing.assert_allclose(pose.morph_weights[ti], flat, rtol=1e-5, atol=1e-5)


def test_clip_by_name_or_index_and_scalar_time():
    model = critter.load(model_path("Wizard/Wizard.glb"))
    walk = next(c for c in model.clips if c.name == "Walk")
    a = model.sample("Walk", [0.25])
    b = model.sample(walk.index, 0.25)
    np.testing.assert_array_equal(a.local_trs, b.local_trs)
    assert a.clip == "Walk" and list(b.times) == [0.25]
    c = model.sample(-1, [0.0])
    assert c.clip == model.clips[-1].name


def test_pose_arrays_are_views_kept_alive_by_the_pose():
    model = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    pose = model.sample(0, np.linspace(0, 5, 11))
    trs = pose.local_trs
    assert not trs.flags.owndata and not trs.flags.writeable
    assert pose.model_matrices.flags.c_contiguous
    del pose
    assert trs.base is not None
    assert np.all(np.isfinite(trs))


def test_bad_clip_and_times_raise_located_errors():
    path = model_path("SimpleSkin/SimpleSkin.gltf")
    model = critter.load(path)
    with pytest.raises(critter.Error) as e:
        model.sample("nope", [0.0])
    assert e.value.file == path and e.value.location == "clip" and "nope" in e.value.rule
    with pytest.raises(critter.Error) as e:
        model.sample(5, [0.0])
    assert e.value.code == "out of range"
    with pytest.raises(critter.Error) as e:
        model.sample(0, [0.0, float("nan")])
    assert e.value.location == "times"
    with pytest.raises(critter.Error):
        model.sample(0, [[0.0, 1.0]])


def test_threads_share_a_model():
    from concurrent.futures import ThreadPoolExecutor

    model = critter.load(model_path("Wizard/Wizard.glb"))
    times = np.linspace(0, model.clips[2].duration, 500)
    expected = model.sample(2, times).model_matrices
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: model.sample(2, times).model_matrices, range(8)))
    for r in results:
        np.testing.assert_array_equal(r, expected)
