// SPDX-License-Identifier: MIT
// Morph target texture packing for the GPU morph path (playback.md §11, rendering.md §10):
// one RGBA32F 2D array texture per morphed mesh part, 3 layers per target.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "critter/asset/morph_set.h"
#include "critter/core/error.h"

namespace critter::deform {

// Largest texture width and height. Powers of two from 1 to 65536; the defaults are Defold's
// max_morph_target_texture_width/height. Raise them up to the GL texture size limit at most.
struct MorphTextureLimits {
  std::uint32_t max_width = 1024;
  std::uint32_t max_height = 1024;
};

struct MorphTextureSize {
  std::uint32_t width = 1;
  std::uint32_t height = 1;
};

// The packed texture. Layer 3i holds target i's position deltas (xyz, w = 0), 3i + 1 its normal
// deltas (xyz, w = 0), 3i + 2 its tangent deltas (xyz, w = 0: MorphTarget tangents have no w).
// Vertex v is texel (v mod width, v div width) of each layer; streams a target lacks and texels
// past the vertex count are 0. `texels` is layer-major: layer l occupies floats
// [l * width * height * 4, (l + 1) * width * height * 4), 4 floats (RGBA) per texel, row-major.
struct MorphTexture {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t layers = 0;  // 3 * target count
  std::vector<float> texels;

  std::size_t layer_floats() const { return std::size_t{width} * height * 4; }
  // Float offset of vertex v's texel in `layer`.
  std::size_t offset(std::uint32_t layer, std::size_t v) const {
    return layer * layer_floats() + 4 * v;
  }
};

// Texture size for N vertices: from 1x1, while width * height < N, double the width if it is below
// max_width, else double the height if it is below max_height, else stop. Fails (kLimit) when the
// size reached still cannot hold N, with a message naming `mesh_name`, N, the size reached and the
// limits; fails (kUsage) when a limit is not a power of two in [1, 65536].
Result<MorphTextureSize> morph_texture_size(std::size_t vertex_count, std::string_view mesh_name,
                                            const MorphTextureLimits& limits = {});

// Packs a part's targets. N = max(vertex_count, the largest target position, normal or tangent
// stream). Fails as morph_texture_size does, or (kInvalid) when the part has no target.
Result<MorphTexture> pack_morph_texture(const MorphSet& morphs, std::size_t vertex_count,
                                        std::string_view mesh_name,
                                        const MorphTextureLimits& limits = {});

}  // namespace critter::deform
