// SPDX-License-Identifier: MIT
#include "critter/deform/morph_texture.h"

#include <algorithm>
#include <string>

namespace critter::deform {

namespace {

constexpr std::uint32_t kMaxLimit = 65536;

bool valid_limit(std::uint32_t v) {
  return v >= 1 && v <= kMaxLimit && (v & (v - 1)) == 0;
}

std::string size_text(std::uint32_t w, std::uint32_t h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

void copy_layer(float* layer, const std::vector<vec3>& deltas) {
  for (std::size_t v = 0; v < deltas.size(); ++v) {
    layer[4 * v + 0] = deltas[v].x;
    layer[4 * v + 1] = deltas[v].y;
    layer[4 * v + 2] = deltas[v].z;
  }
}

}  // namespace

Result<MorphTextureSize> morph_texture_size(std::size_t vertex_count, std::string_view mesh_name,
                                            const MorphTextureLimits& limits) {
  if (!valid_limit(limits.max_width) || !valid_limit(limits.max_height)) {
    return fail(Error::at(ErrorCode::kUsage, std::string(mesh_name), {},
                          "morph texture limits " + size_text(limits.max_width, limits.max_height) +
                              " must be powers of two from 1 to 65536"));
  }
  MorphTextureSize size;
  // 64-bit product: the limits allow 65536 x 65536, which overflows 32 bits.
  while (std::uint64_t{size.width} * size.height < vertex_count) {
    if (size.width < limits.max_width) {
      size.width *= 2;
    } else if (size.height < limits.max_height) {
      size.height *= 2;
    } else {
      return fail(Error::at(ErrorCode::kLimit, std::string(mesh_name), {},
                            "morph texture of mesh '" + std::string(mesh_name) +
                                "' cannot hold N = " + std::to_string(vertex_count) +
                                " vertices: reached " + size_text(size.width, size.height) +
                                " at the limits " +
                                size_text(limits.max_width, limits.max_height)));
    }
  }
  return size;
}

Result<MorphTexture> pack_morph_texture(const MorphSet& morphs, std::size_t vertex_count,
                                        std::string_view mesh_name,
                                        const MorphTextureLimits& limits) {
  if (morphs.empty()) {
    return fail(Error::at(ErrorCode::kInvalid, std::string(mesh_name), {},
                          "mesh '" + std::string(mesh_name) + "' has no morph target to pack"));
  }
  std::size_t n = vertex_count;
  for (const MorphTarget& t : morphs.targets) {
    n = std::max({n, t.positions.size(), t.normals.size(), t.tangents.size()});
  }
  auto size = morph_texture_size(n, mesh_name, limits);
  if (!size) return fail(std::move(size.error()));

  MorphTexture tex;
  tex.width = size->width;
  tex.height = size->height;
  tex.layers = static_cast<std::uint32_t>(3 * morphs.target_count());
  tex.texels.assign(tex.layers * tex.layer_floats(), 0.0f);
  for (std::uint32_t i = 0; i < morphs.target_count(); ++i) {
    const MorphTarget& t = morphs.targets[i];
    copy_layer(tex.texels.data() + tex.offset(3 * i, 0), t.positions);
    copy_layer(tex.texels.data() + tex.offset(3 * i + 1, 0), t.normals);
    copy_layer(tex.texels.data() + tex.offset(3 * i + 2, 0), t.tangents);
  }
  return tex;
}

}  // namespace critter::deform
