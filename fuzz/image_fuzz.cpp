// SPDX-License-Identifier: MIT
// libFuzzer target: texture decoding (PNG, JPEG, BMP, TGA, GIF's first frame and the other formats
// the decoder reads) from memory. Properties: no crash, leak or sanitizer report; a decoded image
// holds width x height RGBA8 pixels; a failure says why.
#include <cstddef>
#include <cstdint>
#include <span>

#include "critter/io/image/image_decoder.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace critter;
  auto image = io::decode_image_bytes(std::span<const std::uint8_t>(data, size), "fuzz.png");
  if (!image) {
    if (image.error().message.empty()) critter::fuzz::fail("image", "error without a message");
    return 0;
  }
  if (image->pixels.size() !=
      static_cast<std::size_t>(image->width) * static_cast<std::size_t>(image->height) * 4u)
    critter::fuzz::fail("image", "pixel count does not match the size");
  return 0;
}
