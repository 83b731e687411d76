# SPDX-License-Identifier: MIT
"""critter: load, pose, skin, convert and render rigged creature models.

    import critter
    model = critter.load("wolf.glb")
    pose = model.sample("walk", [0.0, 0.1, 0.2])    # one call, many times
    pose.model_matrices.shape                        # (3, len(model.bones), 4, 4)
    positions, normals = model.skin(pose)            # (3, V, 3) each
    critter.convert("wolf.glb", "wolf.obj", anim="walk", time=0.5)
    critter.render("wolf.glb", "wolf.png", anim="walk", time=0.5)

Every failure raises critter.Error with `file`, `location` and `rule`.
"""

from ._critter import (  # noqa: F401
    Bone,
    Clip,
    Controller,
    Creature,
    Diagnostic,
    Error,
    Mesh,
    Model,
    MorphTarget,
    Pose,
    check,
    convert,
    load,
    render,
)

__all__ = [
    "Bone",
    "Clip",
    "Controller",
    "Creature",
    "Diagnostic",
    "Error",
    "Mesh",
    "Model",
    "MorphTarget",
    "Pose",
    "check",
    "convert",
    "load",
    "render",
]
