// SPDX-License-Identifier: MIT
// Decoding images (PNG, JPEG, BMP, TGA, GIF's first frame, ...) to RGBA8 pixels: a model's
// textures, pictures read back by tools and tests. The only place critter decodes images; gl
// takes the decoded pixels through GpuModel's ImageDecoder, e.g.
//
//   auto gpu = renderer.upload(model, io::decode_image, &diag);
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "critter/asset/material.h"
#include "critter/asset/rgba_image.h"
#include "critter/core/error.h"

namespace critter::io {

// Decodes encoded image bytes. `origin` names the bytes in an error's path (a file, or empty for
// bytes embedded in a model). Fails (kParse) when the bytes are no image the decoder reads, with
// the decoder's reason as message; (kLimit) above 2 GiB of input.
Result<RgbaImage> decode_image_bytes(std::span<const std::uint8_t> bytes,
                                     std::string_view origin = {});

// Reads and decodes an image file. Fails (kIo) when the file is unreadable or no image, with
// message "cannot read image: <reason>".
Result<RgbaImage> read_image(std::string_view path);

// Decodes a model's image: its embedded `bytes`, else the file at `resolved_path`. The error's
// path is `resolved_path` (empty for embedded images), its location "image '<uri or name>'" and
// its message the bare reason, so callers can word their own warning: "file not found" (kIo) when
// the loader marked the image missing, "no image data" (kInvalid) when neither bytes nor a path
// are set, else the decoder's reason (kParse, or kIo when the file cannot be opened).
Result<RgbaImage> decode_image(const Image& image);

}  // namespace critter::io
