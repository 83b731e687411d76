// SPDX-License-Identifier: MIT
#include "io/image/stb_codec.h"

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

}  // namespace

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes) {
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* data =
      stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  return adopt(data, w, h);
}

std::expected<RgbaImage, std::string> read(const std::string& path) {
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  return adopt(data, w, h);
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
