// SPDX-License-Identifier: MIT
// glTF 2.0 writer: a Model out as `.gltf` (JSON + `.bin` + image files beside it) or `.glb` (one
// binary container). The output passes the Khronos glTF-Validator without errors for any Model
// whose data is itself valid glTF (unit normals and rotations, strictly increasing key times).
//
// Mapping from Model:
// - Skeleton: joint i becomes node i (name, children, TRS of its rest pose; identity parts left
//   out). Roots of the skeleton are the first roots of the single scene.
// - Meshes: Mesh m becomes glTF mesh m (name; each MeshPart a primitive with every stream it has:
//   POSITION with min/max, NORMAL, TANGENT, TEXCOORD_0/1, COLOR_0, JOINTS_0 as unsigned byte
//   when every index is below 256 else unsigned short, WEIGHTS_0; indices as unsigned short when
//   every index is below 65535 else unsigned int; morph targets with POSITION/NORMAL/TANGENT
//   deltas, `weights` = default_weights, extras.targetNames = morph_names). Data is not
//   interleaved; every accessor starts on a 4-byte boundary.
// - Mesh nodes: a rigid mesh goes on the node of its bone when no other mesh is there yet, else on
//   a new untransformed child node of that bone; a mesh with bone -1 goes on a new root node. A
//   skinned mesh goes on its bone's node when no other mesh is there yet and no skin uses that
//   node as a joint (so a model read from glTF keeps its node tree: no node is added); otherwise
//   on a new untransformed root node (glTF ignores the node transform of a skinned mesh). New
//   nodes are named after the mesh ("mesh_<m>" when it has no name), made unique against every
//   joint and earlier new node with a "_2", "_3", ... suffix, and come after the joints, so node
//   i is still joint i.
// - Skins: joints as node indices, inverseBindMatrices (MAT4 floats), `skeleton` when set.
// - Clips: each clip with a track to write becomes an animation, in order, with one sampler and
//   channel per track, keys and interpolation (STEP, LINEAR, CUBICSPLINE) exactly as stored.
//   Weights tracks target the node of their mesh. Identical key-time arrays of one clip share an
//   accessor. When several tracks of a clip drive the same target only the last is kept (it is
//   the one sampling uses), with a warning; a clip with no track to write is left out with a
//   warning (a document without animations has no "animations" member: no member of the output
//   is ever null).
// - Materials: pbrMetallicRoughness (base colour factor and texture, metallic, roughness), normal
//   texture, emissive factor, alphaMode and alphaCutoff, doubleSided, KHR_materials_unlit and
//   KHR_texture_transform when used (listed in extensionsUsed); one sampler per distinct
//   wrap/filter state.
// - Images: in a .glb every image is embedded as a buffer view with its MIME type; for a .gltf an
//   external image file is copied next to the output under its own file name and embedded bytes
//   are written to a file named "<output stem>_<image name or image<i>>.<png|jpg|...>" next to it.
//   A file of that name already in the folder is never replaced: it is used when it holds the
//   same bytes, else the image takes the first free "<name>_<n>.<ext>" (n = 2, 3, ...). A
//   missing image (Image::missing, or a file that cannot be read now) is left out with a warning
//   and the texture slots that used it are dropped.
// - asset.generator is "critter".
//
// Data fixes (each with a warning naming the mesh part): normals of zero length or with a
// non-finite component (degenerate triangles) become the normal of a triangle with an area that
// uses the vertex, else +Y; tangent directions of zero length or not finite become a unit vector
// perpendicular to the normal; normals and tangent directions whose length differs from 1 by more
// than 1e-4 are renormalised; tangent handedness other than +-1
// becomes its sign; a skinned part without joints and weights gets every vertex bound to skin
// joint 0; joints and weights of a part whose mesh has no skin are left out.
//
// Every file is written through AtomicFileSet (atomic_file.h): either all outputs appear complete
// or none changes. No exception crosses the API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/model.h"
#include "critter/core/diagnostics.h"
#include "critter/core/error.h"

namespace critter::io {

enum class GltfContainer : std::uint8_t {
  kAuto,  // by the output's extension: ".glb" (any case) gives kGlb, anything else kGltf
  kGltf,  // JSON + .bin + image files
  kGlb,   // one binary file
};

struct GltfWriteOptions {
  GltfContainer container = GltfContainer::kAuto;
  // Indentation of the JSON of a .gltf (spaces; -1 writes it on one line). GLB JSON is compact.
  int json_indent = 1;
};

// What a successful write produced.
struct GltfWriteReport {
  std::vector<std::string> files;    // every file written, the main output first
  std::size_t node_count = 0;        // glTF nodes: joint count + mesh_nodes_added
  std::size_t mesh_nodes_added = 0;  // nodes created to hold meshes (see "Mesh nodes")
  std::size_t bytes = 0;             // size of the main output (.gltf JSON or whole .glb)
};

// Writes `model` to `path` (the folder must exist). Warnings about data that was fixed or left out
// go to `diag` (may be null), with `path` as their path and a JSON pointer of the output as their
// location. Errors: kIo when a file cannot be written or an external image cannot be copied,
// kLimit when the binary data exceeds 4 GiB (the GLB limit).
Result<GltfWriteReport> write_gltf(const Model& model, std::string_view path,
                                   const GltfWriteOptions& options = {},
                                   Diagnostics* diag = nullptr);

// The .glb of `model` in memory (images embedded, as write_gltf would write it). `name_for_errors`
// names the output in warnings and errors.
Result<std::vector<std::uint8_t>> encode_glb(const Model& model,
                                             std::string_view name_for_errors = "model.glb",
                                             Diagnostics* diag = nullptr);

}  // namespace critter::io
