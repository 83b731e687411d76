# SPDX-License-Identifier: MIT
"""critter.Controller against `critter pose --config`, and critter.Creature against
`critter pose --creature`: the same simulation gives the same pose."""

import numpy as np
import pytest

import critter
from conftest import ROOT, cli_json, model_path

WIZARD = model_path("Wizard/Wizard.glb")
CONFIG = str(ROOT / "docs" / "examples" / "Wizard.json")
STEP = 1.0 / 60.0


def compare(pose, doc_time, model):
    index_of = {(b.source_index if b.source_index >= 0 else b.index): b.index for b in model.bones}
    for node in doc_time["nodes"]:
        j = index_of[node["index"]]
        local = node["local"]
        np.testing.assert_allclose(pose.local_trs[0, j], local["t"] + local["r"] + local["s"],
                                   rtol=1e-4, atol=1e-4)
        world = np.array(node["world"]).reshape(4, 4).T
        np.testing.assert_allclose(pose.model_matrices[0, j], world, rtol=1e-4, atol=1e-4)


def test_rotation_blend_nlerp_matches_the_cli():
    model = critter.load(WIZARD)
    controller = critter.Controller(model, CONFIG)
    assert controller.rotation_blend == "slerp"
    controller.rotation_blend = "nlerp"
    assert controller.rotation_blend == "nlerp"
    with pytest.raises(ValueError, match="rotation_blend"):
        controller.rotation_blend = "sum"
    controller.rotation_blend = "lerp"
    assert controller.rotation_blend == "lerp"
    controller.rotation_blend = "nlerp"
    for _ in range(6):
        controller.set_param("SpeedXZ", 1.0)
        controller.set_param("IsOnGround", True)
        controller.update(STEP)
    args = ["pose", WIZARD, "--config", CONFIG, "--param", "SpeedXZ=1", "--param", "IsOnGround=true",
            "--time", "0.1", "--json"]
    nlerp = cli_json(*args, "--rotation-blend", "nlerp")["times"][0]
    compare(controller.pose, nlerp, model)
    # Mid-fade the two blends differ by more than compare() allows, so a controller that kept
    # slerp would fail above.
    slerp = cli_json(*args)["times"][0]
    apart = max(abs(x - y) for a, b in zip(slerp["nodes"], nlerp["nodes"])
                for x, y in zip(a["local"]["r"], b["local"]["r"]))
    assert apart > 5e-4


def test_controller_walks_as_the_cli_shows():
    model = critter.load(WIZARD)
    controller = critter.Controller(model, CONFIG)
    steps = 30
    seen = []
    for _ in range(steps):
        controller.set_param("SpeedXZ", 1.0)
        controller.set_param("IsOnGround", True)
        controller.update(STEP)
        seen += controller.events
    assert controller.time == pytest.approx(steps * STEP)
    doc = cli_json("pose", WIZARD, "--config", CONFIG, "--param", "SpeedXZ=1", "--param", "IsOnGround=true",
                   "--time", "0.5", "--json")
    compare(controller.pose, doc["times"][0], model)
    footsteps = [e for e in seen if e["name"] == "Footstep"]
    assert [(e["data"], e["layer"]) for e in footsteps] == [
        (e["data"], e["layer"]) for e in doc["times"][0]["events"] if e["name"] == "Footstep"]


def test_controller_parameters_are_checked():
    controller = critter.Controller(critter.load(WIZARD), CONFIG)
    with pytest.raises(critter.Error) as e:
        controller.set_param("NoSuchParameter", 1.0)
    assert e.value.file == CONFIG


def test_check_a_clean_config():
    assert [d for d in critter.check(CONFIG, WIZARD) if d.severity == "error"] == []


def test_creature_steps_as_the_cli_shows():
    model = critter.load("builtin:four-legged")
    creature = critter.Creature(model, kind="four-legged", species="wolf")
    for _ in range(30):
        pose = creature.step(STEP, {"speed": 2.0})
    doc = cli_json("pose", "builtin:four-legged", "--creature", "four-legged", "--species", "wolf",
                   "--state", "speed=2", "--time", "0.5", "--json")
    compare(pose, doc["times"][0], model)
    shown = doc["times"][0]["creature"]
    assert creature.info["gait"] == shown["gait"]
    assert creature.info["phase"] == pytest.approx(shown["phase"], abs=1e-4)
    assert [e["name"] for e in creature.events] == [e["name"] for e in shown["events"]]
