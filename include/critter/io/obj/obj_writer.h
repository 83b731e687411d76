// SPDX-License-Identifier: MIT
// Wavefront OBJ writer: the geometry of a Model, deformed into one pose, as `.obj` plus a `.mtl`
// material library (and the base colour textures it names) beside it.
//
// Pose: the rest pose with each mesh's default morph weights, or a clip sampled at a time
// (anim::SamplingJob, anim::LocalToModelJob). Every part is morphed, then skinned by its mesh's
// skin or placed by its bone's model transform (deform::SkinMeshPartJob), so the file holds the
// model as it looks at that moment, in model space (metres, +Y up). A part of a skinned mesh
// without joint weights is morphed only and written in mesh space, with a warning.
//
// Layout: a comment header, `mtllib` (when materials are written), then per mesh `g <name>` and
// per part `usemtl <material>` followed by its vertices (`v`), texture coordinates (`vt`, from UV
// set 0 with v flipped to OBJ's bottom-left origin: vt = (u, 1 - v)), normals (`vn`) and its
// elements: `f` for triangles (v/vt/vn, v/vt, v//vn or v as the streams allow), `l` for lines,
// `p` for points. Indices are 1-based and global, as OBJ requires. Names are written with blanks
// replaced by '_'; unnamed meshes and materials become "mesh_<i>" / "material_<i>", and parts
// without a material use "default". Numbers use the shortest text that reads back to the same
// float.
//
// Materials (.mtl): Kd (base colour RGB), d (base colour alpha, when below 1), Ke (emissive, when
// not black), illum 1, and map_Kd naming the base colour texture, copied (external file) or
// written (embedded bytes) next to the output like the glTF writer does. A missing texture is
// left out with a warning.
//
// Every file is written through AtomicFileSet (atomic_file.h): either all outputs appear complete
// or none changes. No exception crosses the API.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::io {

struct ObjWriteOptions {
  // The clip to pose the model with (index into Model::clips()), or -1 for the rest pose.
  int clip = -1;
  // Seconds of clip time (finite); clamped to the clip's keys as SamplingJob does.
  float time = 0.0f;
  // Write the .mtl (and its textures) and the `mtllib`/`usemtl` lines.
  bool write_materials = true;
};

// What a successful write produced.
struct ObjWriteReport {
  std::vector<std::string> files;  // every file written, the .obj first
  std::size_t vertices = 0;        // `v` lines
  std::size_t faces = 0;           // `f` lines (triangles)
  std::size_t lines = 0;           // `l` lines
  std::size_t points = 0;          // `p` lines
};

// Writes `model` to `path` (the folder must exist; the .mtl is "<stem>.mtl" beside it).
// Errors: kUsage for a clip index out of range or a non-finite time, kIo when a file cannot be
// written, and errors of the deform and anim jobs (which a valid Model never triggers).
Result<ObjWriteReport> write_obj(const Model& model, std::string_view path,
                                 const ObjWriteOptions& options = {}, Diagnostics* diag = nullptr);

}  // namespace critter::io
