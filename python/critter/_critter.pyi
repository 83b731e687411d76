# SPDX-License-Identifier: MIT
"""Type stubs of critter._critter, the extension module the critter package re-exports."""

from typing import Any, Literal, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

class Error(Exception):
    """A located failure. str() gives 'file:location: rule'."""

    code: str  # io, parse, invalid, out of range, unsupported, limit or usage
    file: str
    location: str
    rule: str

class Bone:
    index: int
    name: str
    parent: int  # -1 for a root; always below index
    source_index: int  # index in the file (glTF node), -1 when none

class Clip:
    index: int
    name: str
    duration: float  # seconds

class MorphTarget:
    mesh: str
    mesh_index: int
    index: int
    name: str
    default_weight: float

class Mesh:
    name: str
    index: int
    bone: int
    skin: int
    morph_names: list[str]
    vertex_offset: int
    vertex_count: int
    material: int
    parts: list[Mesh]
    positions: npt.NDArray[np.float32]  # (V, 3)
    normals: npt.NDArray[np.float32]  # (V, 3) or (0, 3)
    uvs: npt.NDArray[np.float32]  # (V, 2) or (0, 2)
    joints: npt.NDArray[np.uint16]  # (V, 4) or (0, 4)
    weights: npt.NDArray[np.float32]  # (V, 4) or (0, 4)
    indices: npt.NDArray[np.uint32]  # (N,)

class Pose:
    model: Model
    clip: str
    times: list[float]
    local_trs: npt.NDArray[np.float32]  # (T, J, 10): t xyz, r xyzw, s xyz
    model_matrices: npt.NDArray[np.float32]  # (T, J, 4, 4) row-major
    morph_weights: npt.NDArray[np.float32]  # (T, W)
    def __len__(self) -> int: ...

class Model:
    path: str
    name: str
    format: str
    warnings: list[str]
    bones: list[Bone]
    rest_trs: npt.NDArray[np.float32]  # (J, 10)
    meshes: list[Mesh]
    skins: list[Any]  # namespaces: name, joints (int16), inverse_bind (N, 4, 4), skeleton_root
    clips: list[Clip]
    morph_targets: list[MorphTarget]
    bounds: npt.NDArray[np.float32]  # (2, 3): min, max
    def sample(self, clip: Union[int, str], times: Union[float, Sequence[float], npt.ArrayLike]) -> Pose: ...
    def skin(
        self, pose: Pose, *, normals: Literal["inverse_transpose", "matrix"] = ...
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...

def load(
    path: str,
    *,
    clips: Union[None, str, Mapping[str, tuple[int, int]], Sequence[tuple[str, tuple[int, int]]]] = None,
    clips_fps: float | None = None,
    look: int = 0,
    lod: int = 0,
    game: str | None = None,
    limbs: bool = False,
    allow_outside_uris: bool = False,
) -> Model: ...

class Controller:
    model: Model
    time: float
    pose: Pose
    events: list[dict[str, Any]]
    warnings: list[str]
    rotation_blend: str  # 'slerp' (default), 'nlerp' or 'lerp'
    def __init__(self, model: Model, config_path: str, asset_roots: Sequence[str] = ()) -> None: ...
    def set_param(self, name: str, value: Union[bool, int, float, str, Sequence[float], None]) -> None: ...
    def fire(self, name: str) -> None: ...
    def update(self, dt: float) -> None: ...

class Creature:
    model: Model
    time: float
    info: dict[str, Any]
    events: list[dict[str, Any]]
    def __init__(
        self,
        model: Model,
        kind: str = "four-legged",
        species: str | None = None,
        rig_params: Mapping[str, Any] = {},
    ) -> None: ...
    def step(self, dt: float, state: Mapping[str, Any] | None = None) -> Pose: ...

class Diagnostic:
    severity: str  # error or warning
    file: str
    location: str
    rule: str

def convert(src: str, dst: str, **options: Any) -> str: ...
def render(src: str, dst: str, **options: Any) -> str: ...
def check(config: str, model: Union[Model, str], asset_roots: Sequence[str] = ()) -> list[Diagnostic]: ...
