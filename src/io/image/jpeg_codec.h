// SPDX-License-Identifier: MIT
// JPEG decoding through libjpeg-turbo (Debian's libjpeg-dev). stb's JPEG decoder (2.27, Debian's
// libstb-dev) shifts past 31 bits on some corrupt entropy-coded data (undefined behaviour found by
// fuzzing); libjpeg-turbo is the decoder most fuzzed in the wild, so JPEGs go there instead.
#pragma once

#include <cstdint>
#include <expected>
#include <span>
#include <string>

#include "critter/asset/rgba_image.h"

namespace critter::io::jpeg {

// True when `bytes` start like a JPEG (0xFF, then the start-of-image marker after any fill bytes).
bool looks_like_jpeg(std::span<const std::uint8_t> bytes);

// Decodes a JPEG (baseline or progressive; greyscale or YCbCr) to RGBA8. Every libjpeg warning
// about corrupt data is a failure (but bytes between segments, which are skipped), as is an image
// over the pixel limit (pixel_limit.h), a CMYK image, or more than 1,000 scans (a progressive file
// can hold thousands, each a full pass over the image). The reason is libjpeg's message.
std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes);

}  // namespace critter::io::jpeg
