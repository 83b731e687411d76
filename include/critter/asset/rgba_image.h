// SPDX-License-Identifier: MIT
// RgbaImage: decoded pixels, the form in which pictures travel between modules: io decodes
// textures and reads and writes PNG/GIF files with it, gl uploads it as a texture and captures
// frames into it. Plain data, no file or GL state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace critter {

// 8-bit RGBA pixels, rows top to bottom, 4 bytes per pixel (R, G, B, A) with no row padding.
// Always four channels: decoders expand grey and RGB sources, so users never branch on a count.
struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  // width * height * 4 bytes

  std::size_t byte_count() const {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
  }
};

}  // namespace critter
