// SPDX-License-Identifier: MIT
// Mesh geometry: parts (one material each) with separate vertex streams (structure of arrays),
// an index buffer, morph target deltas and bounds. Immutable once inside a Model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/gtc/type_precision.hpp>

#include "critter/asset/morph_set.h"
#include "critter/core/math.h"

namespace critter {

enum class Topology : std::uint8_t { kTriangles, kLines, kPoints };

// Vertex streams of one part. `positions` defines the vertex count; every other stream is either
// empty (absent) or exactly as long. Joints index the part's Skin::joints (not the skeleton);
// weights are normalised to sum 1 for skinned parts.
struct VertexStreams {
  std::vector<vec3> positions;
  std::vector<vec3> normals;
  std::vector<vec4> tangents;  // xyz direction, w = handedness (+1 or -1)
  std::vector<vec2> uv0;
  std::vector<vec2> uv1;
  std::vector<vec4> colors;  // linear RGBA
  std::vector<glm::u16vec4> joints;
  std::vector<vec4> weights;

  std::size_t vertex_count() const { return positions.size(); }
};

struct MeshPart {
  VertexStreams streams;
  // Vertex indices; empty means non-indexed (vertices are used in order). Triangles: a multiple of
  // 3; lines: of 2. Strips and fans are converted to lists by importers.
  std::vector<std::uint32_t> indices;
  Topology topology = Topology::kTriangles;
  std::int32_t material = -1;  // index into Model::materials(), -1 for the default material
  MorphSet morphs;             // deltas of this part for each of the mesh's targets
  Aabb bounds;                 // of positions, in mesh space (filled by the builder)

  std::size_t vertex_count() const { return streams.vertex_count(); }
  // Number of indices drawn: indices.size(), or vertex_count() when non-indexed.
  std::size_t element_count() const { return indices.empty() ? vertex_count() : indices.size(); }
};

// A mesh placed in the model: geometry hanging from a bone (`bone`, -1 for the model root) and,
// when skinned, deformed by `skin` (then the bone's transform is ignored, as glTF says).
// Morph target names and default weights are shared by all parts; every part has the same
// target count.
struct Mesh {
  std::string name;
  std::vector<MeshPart> parts;
  std::int32_t bone = -1;
  std::int32_t skin = -1;
  std::vector<std::string> morph_names;  // may be shorter than the target count (unnamed)
  std::vector<float> default_weights;    // exactly morph_target_count() entries
  std::int32_t source_index = -1;        // glTF mesh index, -1 when unknown
  Aabb bounds;                           // union of part bounds, mesh space

  std::size_t morph_target_count() const { return default_weights.size(); }
};

}  // namespace critter
