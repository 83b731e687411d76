// SPDX-License-Identifier: MIT
// The one rule on how large a decoded image may be, checked by every decoder (stb_codec,
// jpeg_codec) after reading the header and before allocating the pixels. Decoders allocate the
// declared size and some loop over every pixel even when the data stops after a few bytes; no
// format packs more than about 1024 pixels into a byte, so a header declaring more is refused,
// as is any image over 64 megapixels (256 MiB of RGBA).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace critter::io {

// Why an image of `width` x `height` pixels read from a file of `bytes` bytes is refused; empty
// when it is within the limit.
inline std::string pixel_limit_problem(std::uint64_t width, std::uint64_t height,
                                       std::size_t bytes) {
  constexpr std::uint64_t kMaxPixels = std::uint64_t{64} << 20;
  if (width * height <= std::min<std::uint64_t>(kMaxPixels, 1024 * std::uint64_t{bytes})) return {};
  return "image of " + std::to_string(width) + "x" + std::to_string(height) +
         " pixels is larger than its " + std::to_string(bytes) + " bytes can hold or 64 megapixels";
}

}  // namespace critter::io
