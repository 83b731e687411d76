// SPDX-License-Identifier: MIT
#include "io/image/stb_codec.h"
#include "io/image/jpeg_codec.h"
#include "io/image/pixel_limit.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
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
        // A comment ends at a line feed or a carriage return, as stb reads it.
        while (i < b.size() && b[i] != '\n' && b[i] != '\r') ++i;
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

// Why a BMP must not reach stb, or empty. stb takes the absolute value of the height of a
// Windows BMP (negative: rows stored top-down) before it checks its size, which for -2^31 is
// undefined (fuzzing, UBSan, a 34-byte file); a height beyond stb's 2^24 limit is refused here
// with its location instead.
std::string bmp_header_problem(std::span<const std::uint8_t> b) {
  if (b.size() < 26 || b[0] != 'B' || b[1] != 'M') return {};
  const auto le32 = [&](std::size_t at) {
    return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8 | std::uint32_t{b[at + 2]} << 16 |
           std::uint32_t{b[at + 3]} << 24;
  };
  if (le32(14) == 12) return {};  // the OS/2 header: 16-bit sizes
  const auto height = static_cast<std::int32_t>(le32(22));
  constexpr std::int64_t kMaxSide = std::int64_t{1} << 24;
  if (height < -kMaxSide || height > kMaxSide)
    return "BMP height " + std::to_string(height) + " (byte 22) is out of range";
  return {};
}

// Why a TGA must not reach stb, or empty. TGA has no signature: stb takes as TGA what passes its
// header test (colour map type 0 or 1, a known image type, width and height of at least 1, a
// known pixel size), which every other format's signature fails. stb then reads every declared
// pixel, zeros where the file has ended (fuzzing: a 16 KB file declaring 65496 x 224 pixels ran
// for more than ten seconds in the sanitised build). So uncompressed pixel data must be all
// there, and run-length data can at most give 128 pixels per byte.
std::string tga_header_problem(std::span<const std::uint8_t> b) {
  if (b.size() < 18 || b[1] > 1) return {};
  const auto le16 = [&](std::size_t at) {
    return std::uint32_t{b[at]} | std::uint32_t{b[at + 1]} << 8;
  };
  const std::uint32_t type = b[2], bits = b[16];
  const bool mapped = b[1] == 1;
  const auto known = [](std::uint32_t x) {
    return x == 8 || x == 15 || x == 16 || x == 24 || x == 32;
  };
  if (mapped ? (type != 1 && type != 9) || !known(b[7]) || (bits != 8 && bits != 16)
             : (type != 2 && type != 3 && type != 10 && type != 11))
    return {};
  const std::uint64_t width = le16(12), height = le16(14);
  if (width == 0 || height == 0 || !known(bits)) return {};
  const std::uint64_t start =
      18 + std::uint64_t{b[0]} + (mapped ? le16(5) * ((std::uint64_t{b[7]} + 7) / 8) : 0);
  const std::uint64_t follow = b.size() > start ? b.size() - start : 0;
  const std::uint64_t pixels = width * height;
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  if (type < 9) {
    const std::uint64_t need = pixels * ((bits + 7) / 8);
    if (need > follow)
      return "TGA of " + size + " pixels needs " + std::to_string(need) +
             " bytes of pixel data from byte " + std::to_string(start) + ", " +
             std::to_string(follow) + " follow";
  } else if (pixels > 128 * follow) {
    return "run-length TGA of " + size + " pixels can't come out of the " + std::to_string(follow) +
           " bytes from byte " + std::to_string(start);
  }
  return {};
}

// What a PNG's chunks need before stb sees them, found by walking them up to IEND or to a last
// chunk the file ends inside (fuzzing found each): `problem` when a chunk's declared length runs
// past the end of the bytes, since stb grows its buffer to hold an IDAT chunk before it reads one
// (2 GiB for a 121-byte file); and `trimmed`, the PNG without its IDAT chunks of length 0, when it
// has some: stb copies each chunk into its buffer, which is still unallocated before the first
// non-empty one, a zero-length copy from a null pointer (undefined behaviour, UBSan). Both empty
// for anything else.
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
  // Every chunk whose 8-byte header is there, the last one too when the file ends inside it
  // (stb reads a header and then the data, whatever follows).
  while (b.size() - at >= 8) {
    const std::uint32_t length = (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
                                 (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]};
    const auto type = [&](const char* name) {
      return std::equal(name, name + 4, b.begin() + static_cast<std::ptrdiff_t>(at + 4));
    };
    if (type("IEND")) break;
    // The bytes after the header: the data, then a 4-byte CRC.
    const std::size_t rest = b.size() - at - 8;
    const std::size_t data = rest >= 4 ? rest - 4 : 0;
    if (length > data) {
      screen.problem = "PNG chunk at byte " + std::to_string(at) + " declares " +
                       std::to_string(length) + " bytes of data, " + std::to_string(data) +
                       " follow";
      screen.trimmed.clear();
      return screen;
    }
    if (type("IDAT") && length == 0) {
      if (from == 0) out.reserve(b.size());
      out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from),
                 b.begin() + static_cast<std::ptrdiff_t>(at));
      from = std::min(at + 12, b.size());
    }
    if (rest < 4 + std::size_t{length}) break;  // the file ends inside this chunk's CRC
    at += 12 + std::size_t{length};
  }
  if (from != 0) out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(from), b.end());
  return screen;
}

}  // namespace

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes) {
  if (std::string pnm = pnm_header_problem(bytes); !pnm.empty()) return std::unexpected(pnm);
  if (std::string bmp = bmp_header_problem(bytes); !bmp.empty()) return std::unexpected(bmp);
  // JPEG goes to libjpeg-turbo (see jpeg_codec.h).
  if (jpeg::looks_like_jpeg(bytes)) return jpeg::decode(bytes);
  int declared_w = 0;
  int declared_h = 0;
  int declared_channels = 0;
  if (stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &declared_w, &declared_h,
                            &declared_channels) != 0) {
    // stb reports a top-down BMP's height as negative: the size is its magnitude.
    const auto magnitude = [](int v) {
      return static_cast<std::uint64_t>(std::abs(std::int64_t{v}));
    };
    std::string problem =
        pixel_limit_problem(magnitude(declared_w), magnitude(declared_h), bytes.size());
    if (!problem.empty()) return std::unexpected(std::move(problem));
  }
  if (std::string tga = tga_header_problem(bytes); !tga.empty()) return std::unexpected(tga);
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
