// SPDX-License-Identifier: MIT
#include "io/image/stb_codec.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <fstream>
#include <iterator>

// stb's implementation is compiled here once, with static linkage so that another copy linked
// into a program (a system libstb, a library that bundles stb) cannot clash with it.
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wcast-align"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wnull-dereference"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#pragma GCC diagnostic pop

namespace critter::io::stb {
namespace {

// Takes ownership of stb's buffer; null means failure, reported with stb's reason.
std::expected<RgbaImage, std::string> adopt(stbi_uc* data, int w, int h) {
  if (data == nullptr) {
    // stb leaves the reason unset on some failures and names an unknown PNG chunk by its type
    // bytes, which is an empty string for a type starting with a zero byte.
    const char* reason = stbi_failure_reason();
    const bool said = reason != nullptr && *reason != '\0';
    return std::unexpected(std::string(said ? reason : "unknown decoder failure"));
  }
  RgbaImage image;
  image.width = w;
  image.height = h;
  image.pixels.assign(data, data + image.byte_count());
  stbi_image_free(data);
  return image;
}

// True when a JPEG (SOI at the start) has a Huffman table (DHT segment) of more than 256 codes.
// stb's JPEG decoder writes such a table's code sizes past the end of its 257-entry array (an
// out-of-bounds write in the decoder's state), so those files never reach it. Walks the marker
// segments by their lengths and steps over entropy-coded data (stuffed 0xFF 0x00, restarts).
bool jpeg_with_oversized_huffman_table(std::span<const std::uint8_t> b) {
  if (b.size() < 4 || b[0] != 0xFF || b[1] != 0xD8) return false;
  std::size_t i = 2;
  while (i + 1 < b.size()) {
    if (b[i] != 0xFF) {
      ++i;
      continue;
    }
    const std::uint8_t marker = b[i + 1];
    if (marker == 0xFF || marker == 0x00 || marker == 0x01 || marker == 0xD8 ||
        (marker >= 0xD0 && marker <= 0xD7)) {
      ++i;
      continue;
    }
    if (marker == 0xD9 || i + 3 >= b.size()) return false;
    const std::size_t length = static_cast<std::size_t>(b[i + 2]) << 8 | b[i + 3];
    const std::size_t end = std::min(b.size(), i + 2 + length);
    if (marker == 0xC4) {
      for (std::size_t t = i + 4; t + 17 <= end;) {
        std::size_t codes = 0;
        for (std::size_t k = 1; k <= 16; ++k) codes += b[t + k];
        if (codes > 256) return true;
        t += 17 + codes;
      }
    }
    i = std::max(end, i + 2);
  }
  return false;
}

// Why a binary PNM (P5 grey, P6 RGB) header must not reach stb, or empty. stb reads the header's
// numbers into an int without an overflow check (UB past 9 significant digits), and its 16-bit
// path (a maximum value over 255) reads past the end of its own buffer when the samples stop early.
std::string pnm_header_problem(std::span<const std::uint8_t> b) {
  if (b.size() < 2 || b[0] != 'P' || (b[1] != '5' && b[1] != '6')) return {};
  constexpr const char* kFields[] = {"width", "height", "maximum value"};
  std::size_t i = 2;
  for (int field = 0; field < 3; ++field) {
    while (i < b.size() && (std::isspace(b[i]) != 0 || b[i] == '#')) {
      if (b[i] == '#') {
        while (i < b.size() && b[i] != '\n') ++i;
      } else {
        ++i;
      }
    }
    std::uint64_t value = 0;
    int significant = 0;
    for (; i < b.size() && b[i] >= '0' && b[i] <= '9'; ++i) {
      if (value == 0 && b[i] == '0') continue;
      if (++significant > 9)
        return std::string("PNM ") + kFields[field] + " has more than 9 digits (byte " +
               std::to_string(i) + ")";
      value = value * 10 + static_cast<std::uint64_t>(b[i] - '0');
    }
    if (field == 2 && value > 255) return "16-bit PNM is not supported";
  }
  return {};
}

}  // namespace

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes) {
  if (jpeg_with_oversized_huffman_table(bytes))
    return std::unexpected(std::string("bad DHT header: Huffman table of more than 256 codes"));
  if (std::string pnm = pnm_header_problem(bytes); !pnm.empty()) return std::unexpected(pnm);
  // stb allocates the declared size and, for TGA, BMP and other raw formats, loops over every
  // pixel even when the data stops after a few bytes. No format packs more than about 1024 pixels
  // into a byte, so a header declaring more is refused before any allocation, as is any image
  // over 64 megapixels (256 MiB of RGBA).
  int declared_w = 0;
  int declared_h = 0;
  int declared_channels = 0;
  if (stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &declared_w, &declared_h,
                            &declared_channels) != 0) {
    constexpr std::uint64_t kMaxPixels = std::uint64_t{64} << 20;
    const std::uint64_t pixels =
        static_cast<std::uint64_t>(declared_w) * static_cast<std::uint64_t>(declared_h);
    if (pixels > std::min<std::uint64_t>(kMaxPixels, 1024 * std::uint64_t{bytes.size()}))
      return std::unexpected("image of " + std::to_string(declared_w) + "x" +
                             std::to_string(declared_h) + " pixels is larger than its " +
                             std::to_string(bytes.size()) + " bytes can hold or 64 megapixels");
  }
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* data =
      stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  return adopt(data, w, h);
}

std::expected<RgbaImage, std::string> read(const std::string& path) {
  // Read whole, so that decode() checks the bytes before stb sees them.
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(std::string("can't fopen"));
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>()};
  if (bytes.size() > static_cast<std::size_t>(INT_MAX))
    return std::unexpected(std::string("image file too large"));
  return decode(bytes);
}

bool encode_png(const RgbaImage& image, std::vector<std::uint8_t>& out) {
  auto append = [](void* context, void* data, int size) {
    auto* bytes = static_cast<std::vector<std::uint8_t>*>(context);
    const auto* begin = static_cast<const std::uint8_t*>(data);
    bytes->insert(bytes->end(), begin, begin + size);
  };
  return stbi_write_png_to_func(append, &out, image.width, image.height, 4, image.pixels.data(),
                                image.width * 4) != 0;
}

}  // namespace critter::io::stb
