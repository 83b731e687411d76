// SPDX-License-Identifier: MIT
// Material and image references. Images are referenced (file path or embedded bytes), never
// decoded by the loader: io::decode_image decodes them when a renderer uploads the model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "critter/core/math.h"

namespace critter {

enum class AlphaMode : std::uint8_t { kOpaque, kMask, kBlend };

// Survivalcraft's ModelRenderingMode values (rendering.md §1).
enum class RenderMode : std::uint8_t {
  kSolid = 0,
  kAlphaThreshold = 1,
  kTransparentBeforeWater = 2,
  kTransparentAfterWater = 3,
};

// A texture use: which image, which UV set, and KHR_texture_transform when present.
struct TextureRef {
  std::int32_t image = -1;  // index into Model::images(), -1 for none
  std::int32_t texcoord = 0;
  bool has_transform = false;
  vec2 offset{0.0f};
  float rotation = 0.0f;  // radians, counter-clockwise
  vec2 scale{1.0f};
  std::int32_t wrap_s = 10497;  // GL enums as glTF stores them (REPEAT)
  std::int32_t wrap_t = 10497;
  std::int32_t mag_filter = 0;  // 0 = unspecified
  std::int32_t min_filter = 0;

  bool valid() const { return image >= 0; }
};

struct Material {
  std::string name;
  vec4 base_color_factor{1.0f};
  TextureRef base_color_texture;
  TextureRef normal_texture;
  float metallic_factor = 1.0f;
  float roughness_factor = 1.0f;
  vec3 emissive_factor{0.0f};
  AlphaMode alpha_mode = AlphaMode::kOpaque;
  float alpha_cutoff = 0.5f;
  bool double_sided = false;
  bool unlit = false;  // KHR_materials_unlit

  // glTF mapping of rendering.md §1: OPAQUE -> Solid, MASK -> AlphaThreshold,
  // BLEND -> TransparentBeforeWater (the host may move an instance after water).
  RenderMode render_mode() const;
};

// An image a material uses. Exactly one of `bytes` (embedded: .glb buffer view or data: URI) or
// `resolved_path` (external file) is set; `missing` is true when an external file was not found.
struct Image {
  std::string name;
  std::string uri;            // as written in the file; empty for embedded images
  std::string resolved_path;  // absolute or model-relative path to the file
  std::string mime_type;
  std::vector<std::uint8_t> bytes;
  bool missing = false;
};

}  // namespace critter
