# SPDX-License-Identifier: MIT
"""Hostile and broken files raise critter.Error carrying the file, the location and the rule;
nothing crashes."""

import json
import os
import random

import pytest

import critter
from conftest import model_path


def load_error(path, **options):
    with pytest.raises(critter.Error) as e:
        critter.load(str(path), **options)
    err = e.value
    assert err.file == str(path)
    assert err.rule
    where = f"{err.file}:{err.location}" if err.location else err.file
    assert str(err) == f"{where}: {err.rule}"
    return err


def test_missing_file(tmp_path):
    err = load_error(tmp_path / "absent.glb")
    assert err.code == "io"


def test_empty_file(tmp_path):
    p = tmp_path / "empty.glb"
    p.write_bytes(b"")
    assert load_error(p).code == "parse"


def test_truncated_glb(tmp_path):
    data = open(model_path("RiggedFigure/RiggedFigure.glb"), "rb").read()
    p = tmp_path / "cut.glb"
    p.write_bytes(data[: len(data) // 3])
    err = load_error(p)
    assert err.location


def test_accessor_out_of_range(tmp_path):
    doc = json.load(open(model_path("SimpleSkin/SimpleSkin.gltf")))
    doc["accessors"][0]["count"] = 10**9
    p = tmp_path / "hostile.gltf"
    p.write_text(json.dumps(doc))
    err = load_error(p)
    assert err.location.startswith("/accessors/0")


def test_outside_uri_refused(tmp_path):
    doc = json.load(open(model_path("SimpleSkin/SimpleSkin.gltf")))
    doc["buffers"][0]["uri"] = "../../etc/passwd"
    p = tmp_path / "escape.gltf"
    p.write_text(json.dumps(doc))
    err = load_error(p)
    assert err.location.startswith("/buffers/0")


@pytest.mark.parametrize("suffix", [".glb", ".gltf", ".b3d", ".dae", ".obj", ".model"])
def test_random_bytes(tmp_path, suffix):
    rng = random.Random(17)
    p = tmp_path / ("noise" + suffix)
    p.write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    load_error(p)


def test_png_named_as_a_model(tmp_path):
    p = tmp_path / "picture.gltf"
    p.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(64))
    assert load_error(p).code == "parse"


def test_bad_options_are_usage_errors():
    path = model_path("SimpleSkin/SimpleSkin.gltf")
    assert load_error(path, clips="walk").code == "usage"
    assert load_error(path, clips_fps=30).code == "usage"
    assert load_error("builtin:nothing").code == "usage"


def test_convert_and_render_failures_are_located(tmp_path):
    bad = tmp_path / "bad.glb"
    bad.write_bytes(b"glTF" + os.urandom(40))
    with pytest.raises(critter.Error) as e:
        critter.convert(str(bad), str(tmp_path / "out.glb"))
    assert e.value.file == str(bad) and e.value.location
    assert not (tmp_path / "out.glb").exists()
    with pytest.raises(critter.Error) as e:
        critter.render(str(bad), str(tmp_path / "out.png"), size="32x32")
    assert e.value.file == str(bad)
    with pytest.raises(critter.Error) as e:
        critter.convert(model_path("SimpleSkin/SimpleSkin.gltf"), str(tmp_path / "o.glb"), format="fbx")
    assert e.value.code == "usage"


def test_broken_config(tmp_path):
    model = critter.load(model_path("Wizard/Wizard.glb"))
    config = tmp_path / "broken.json"
    config.write_text('{ "states": { "gait": { "layer": "Base", "rules": [ { "condition": "[Speed] >", '
                      '"animation": "nope" } ] } } }')
    found = critter.check(str(config), model)
    errors = [d for d in found if d.severity == "error"]
    assert errors and all(d.file == str(config) and d.location.startswith("/") for d in errors)
    with pytest.raises(critter.Error) as e:
        critter.Controller(model, str(config))
    assert e.value.file == str(config) and e.value.location.startswith("/")


def test_creature_errors():
    model = critter.load(model_path("SimpleSkin/SimpleSkin.gltf"))
    with pytest.raises(critter.Error) as e:
        critter.Creature(model, kind="dragon")
    assert e.value.location == "--creature"
    with pytest.raises(critter.Error) as e:
        critter.Creature(model, kind="four-legged")  # no legs to drive
    assert e.value.file == model.path
