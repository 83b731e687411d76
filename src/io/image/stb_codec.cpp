// SPDX-License-Identifier: MIT
#include "io/image/stb_codec.h"
#include "io/image/jpeg_codec.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

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

// JPEGs are decoded by libjpeg-turbo now (jpeg_codec.h); this screen, written for stb, stays in
// front of it because its error names the offending table.
// Where stb would read a JPEG Huffman table (DHT) of more than 256 codes: the byte offset of the
// table, or kNoTable. stb's build_huffman writes one code size per code and a terminating zero
// into a 257-entry array, so a larger table writes past its end (an out-of-bounds write in the
// decoder's state); such files never reach it. The walk follows stb's reading and finds every
// table stb would build, and possibly more: stb takes the start of image (SOI) after any 0xFF
// fill bytes, and reads the tables of a DHT segment for as long as the segment's length has bytes
// left, so the last table may run past the segment (bytes past the data read as zero). Other
// segments are stepped over by their lengths (stb refuses one whose contents disagree with its
// length), entropy-coded data byte by byte (stuffed 0xFF 0x00, restart markers); where stb would
// stop on a bad segment, the walk goes on.
constexpr std::size_t kNoTable = SIZE_MAX;

std::size_t jpeg_oversized_huffman_table(std::span<const std::uint8_t> b) {
  const auto at = [b](std::size_t i) -> std::size_t { return i < b.size() ? b[i] : 0; };
  if (at(0) != 0xFF) return kNoTable;
  std::size_t i = 1;
  while (at(i) == 0xFF) ++i;
  if (at(i) != 0xD8) return kNoTable;
  ++i;
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
    if (marker == 0xD9 || i + 3 >= b.size()) return kNoTable;
    const std::size_t length = at(i + 2) << 8 | at(i + 3);
    if (marker == 0xC4) {
      // stb: left = length - 2; per table a class/id byte, 16 counts and one value per code.
      std::ptrdiff_t left = static_cast<std::ptrdiff_t>(length) - 2;
      for (std::size_t t = i + 4; left > 0;) {
        std::size_t codes = 0;
        for (std::size_t k = 1; k <= 16; ++k) codes += at(t + k);
        if (codes > 256) return t;
        t += 17 + codes;
        left -= static_cast<std::ptrdiff_t>(17 + codes);
      }
    }
    i += 2 + length;
  }
  return kNoTable;
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

// What a PNG's chunks need before stb sees them, found by walking them up to IEND (fuzzing found
// both): `problem` when a chunk's declared length runs past the end of the bytes, since stb
// grows its buffer to hold an IDAT chunk before it reads one (2 GiB for a 121-byte file); and
// `trimmed`, the PNG without its IDAT chunks of length 0, when it has some: stb copies each chunk
// into its buffer, which is still unallocated before the first non-empty one, a zero-length copy
// from a null pointer (undefined behaviour, UBSan). Both empty for anything else.
struct PngScreen {
  std::string problem;
  std::vector<std::uint8_t> trimmed;
};

PngScreen screen_png(std::span<const std::uint8_t> b) {
  static constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  PngScreen screen;
  if (b.size() < 8 || !std::equal(std::begin(kSignature), std::end(kSignature), b.begin())) {
    return screen;
  }
  std::vector<std::uint8_t>& out = screen.trimmed;  // the bytes before each empty IDAT
  std::size_t from = 0;                             // the first byte not yet copied to `out`
  std::size_t at = 8;
  while (b.size() - at >= 12) {
    const std::uint32_t length = (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
                                 (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]};
    const auto type = [&](const char* name) {
      return std::equal(name, name + 4, b.begin() + static_cast<std::ptrdiff_t>(at + 4));
    };
    if (type("IEND")) break;
    if (length > b.size() - at - 12) {
      screen.problem = "PNG chunk at byte " + std::to_string(at) + " declares " +
                       std::to_string(length) + " bytes of data, " +
                       std::to_string(b.size() - at - 12) + " follow";
      screen.trimmed.clear();
      return screen;
    }
    if (type("IDAT") && length == 0) {
      if (from == 0) out.reserve(b.size());
      out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from),
                 b.begin() + static_cast<std::ptrdiff_t>(at));
      from = at + 12;
    }
    at += 12 + std::size_t{length};
  }
  if (from != 0) out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from), b.end());
  return screen;
}

}  // namespace

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes) {
  if (const std::size_t table = jpeg_oversized_huffman_table(bytes); table != kNoTable)
    return std::unexpected("bad DHT header: Huffman table of more than 256 codes (byte " +
                           std::to_string(table) + ")");
  if (std::string pnm = pnm_header_problem(bytes); !pnm.empty()) return std::unexpected(pnm);
  // stb allocates the declared size and, for TGA, BMP and other raw formats, loops over every
  // pixel even when the data stops after a few bytes. No format packs more than about 1024 pixels
  // into a byte, so a header declaring more is refused before any allocation, as is any image
  // over 64 megapixels (256 MiB of RGBA).
  constexpr std::uint64_t kMaxPixels = std::uint64_t{64} << 20;
  const std::uint64_t max_pixels =
      std::min<std::uint64_t>(kMaxPixels, 1024 * std::uint64_t{bytes.size()});
  // JPEG goes to libjpeg-turbo (see jpeg_codec.h), after the screens above.
  if (jpeg::looks_like_jpeg(bytes)) return jpeg::decode(bytes, max_pixels);
  int declared_w = 0;
  int declared_h = 0;
  int declared_channels = 0;
  if (stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &declared_w, &declared_h,
                            &declared_channels) != 0) {
    const std::uint64_t pixels =
        static_cast<std::uint64_t>(declared_w) * static_cast<std::uint64_t>(declared_h);
    if (pixels > max_pixels)
      return std::unexpected("image of " + std::to_string(declared_w) + "x" +
                             std::to_string(declared_h) + " pixels is larger than its " +
                             std::to_string(bytes.size()) + " bytes can hold or 64 megapixels");
  }
  const PngScreen png = screen_png(bytes);
  if (!png.problem.empty()) return std::unexpected(png.problem);
  const std::span<const std::uint8_t> input = png.trimmed.empty() ? bytes : std::span(png.trimmed);
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* data =
      stbi_load_from_memory(input.data(), static_cast<int>(input.size()), &w, &h, &channels, 4);
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
