# SPDX-License-Identifier: MIT
"""critter.convert and critter.render write what the CLI writes."""

import struct

import pytest

import critter
from conftest import cli, model_path

SKIN = model_path("SimpleSkin/SimpleSkin.gltf")


@pytest.mark.parametrize("suffix", [".glb", ".gltf", ".obj"])
def test_convert_writes_a_model_that_loads_back(tmp_path, suffix):
    out = tmp_path / ("out" + suffix)
    critter.convert(SKIN, str(out))
    back = critter.load(str(out))
    assert len(back.meshes) == len(critter.load(SKIN).meshes)
    if suffix != ".obj":
        assert [b.name for b in back.bones] == [b.name for b in critter.load(SKIN).bones]


def test_convert_equals_the_cli(tmp_path):
    mine, theirs = tmp_path / "py.gltf", tmp_path / "cli.gltf"
    critter.convert(SKIN, str(mine), format="gltf")
    cli("convert", SKIN, "-o", theirs, "--format", "gltf", "--quiet")
    assert mine.read_text() == theirs.read_text().replace("cli.bin", "py.bin").replace("cli.gltf", "py.gltf")


def png_size(path):
    data = open(path, "rb").read(32)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_render_png_and_sheet(tmp_path):
    still = tmp_path / "still.png"
    critter.render(model_path("Wizard/Wizard.glb"), str(still), anim="Walk", time=0.3, size="64x48")
    assert png_size(still) == (64, 48)
    sheet = tmp_path / "sheet.png"
    critter.render(model_path("Wizard/Wizard.glb"), str(sheet), anim="Walk", sheet=4, size="32x32")
    w, h = png_size(sheet)
    assert w * h == 4 * 32 * 32
