// SPDX-License-Identifier: MIT
// The stb_image / stb_image_write calls io makes, behind plain functions: stb is configured
// (implementation, static linkage, warning suppressions) in stb_codec.cpp alone.
#pragma once

#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <vector>

#include "critter/asset/rgba_image.h"

namespace critter::io::stb {

// Decodes bytes to RGBA8; on failure the decoder's reason. At most INT_MAX bytes (stb's limit).
std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes);

// Opens and decodes a file to RGBA8; on failure the decoder's reason ("can't fopen", ...).
std::expected<RgbaImage, std::string> read(const std::string& path);

// Encodes `image` (valid: positive size, matching buffer) as an RGBA PNG. False when stb fails.
bool encode_png(const RgbaImage& image, std::vector<std::uint8_t>& out);

}  // namespace critter::io::stb
