// SPDX-License-Identifier: MIT
// Skins applied from outside a model file, as games do: Minetest's character.b3d names no texture
// and the game gives it a player's skin (character.png). `--texture FILE` puts FILE on every
// material's base colour; `--texture MATERIAL=FILE` on one material's only.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "critter/asset/model.h"
#include "critter/core/error.h"

namespace critter::io {

// One skin: `path` (an image file) for the base colour of the material named `material`, or of
// every material when `material` is empty.
struct TextureOverride {
  std::string material;
  std::string path;

  friend bool operator==(const TextureOverride&, const TextureOverride&) = default;
};

// Parses `FILE` or `MATERIAL=FILE`. Text that names an existing file is a FILE even when it holds
// '='; otherwise the part before the first '=' is the material. An empty file or material name is
// ErrorCode::kUsage at `option`.
Result<TextureOverride> parse_texture_override(std::string_view text,
                                               std::string_view option = "--texture");

// A copy of `model` with the overrides applied in order (a later one wins for its materials): each
// overridden material's base colour texture becomes the override's image (UV set 0, no transform),
// its factor is kept; an OPAQUE material becomes MASK (cutoff 0.5) when the image has transparent
// texels, as games draw skins with an alpha test. The image is embedded (its bytes, named after the
// file's stem), so writers store it like any embedded image. A model without materials takes a FILE
// override on no material (a warning is the caller's to give; nothing is drawn differently). Each
// file is read and decoded once here, so a missing or undecodable image is an error at the file's
// path, location "--texture" (ErrorCode::kIo or kParse), and an unknown material name is
// ErrorCode::kUsage listing the model's material names. Images no material uses any more are
// dropped.
Result<Model> apply_texture_overrides(const Model& model,
                                      std::span<const TextureOverride> overrides);

}  // namespace critter::io
