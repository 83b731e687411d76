// SPDX-License-Identifier: MIT
#include "critter/io/image/image_decoder.h"

#include <climits>
#include <string>

#include "io/image/stb_codec.h"

namespace critter::io {

Result<RgbaImage> decode_image_bytes(std::span<const std::uint8_t> bytes, std::string_view origin) {
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) {
    return fail(Error::at(ErrorCode::kLimit, std::string(origin), "",
                          "image of " + std::to_string(bytes.size()) + " bytes is too large"));
  }
  std::expected<RgbaImage, std::string> image = stb::decode(bytes);
  if (!image) return fail(Error::at(ErrorCode::kParse, std::string(origin), "", image.error()));
  return std::move(*image);
}

Result<RgbaImage> read_image(std::string_view path) {
  const std::string p(path);
  std::expected<RgbaImage, std::string> image = stb::read(p);
  if (!image) return fail(Error::at(ErrorCode::kIo, p, "", "cannot read image: " + image.error()));
  return std::move(*image);
}

Result<RgbaImage> decode_image(const Image& image) {
  const std::string location = "image '" + (image.uri.empty() ? image.name : image.uri) + "'";
  if (!image.bytes.empty()) {
    Result<RgbaImage> decoded = decode_image_bytes(image.bytes);
    if (!decoded) {
      return fail(Error::at(decoded.error().code, "", location, decoded.error().message));
    }
    return decoded;
  }
  if (image.missing) {
    return fail(Error::at(ErrorCode::kIo, image.resolved_path, location, "file not found"));
  }
  if (image.resolved_path.empty()) {
    return fail(Error::at(ErrorCode::kInvalid, "", location, "no image data"));
  }
  std::expected<RgbaImage, std::string> decoded = stb::read(image.resolved_path);
  if (!decoded) {
    // stb reports a file it cannot open with this reason; anything else is the content.
    const ErrorCode code = decoded.error() == "can't fopen" ? ErrorCode::kIo : ErrorCode::kParse;
    return fail(Error::at(code, image.resolved_path, location, decoded.error()));
  }
  return std::move(*decoded);
}

}  // namespace critter::io
