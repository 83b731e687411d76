// SPDX-License-Identifier: MIT
// Image files for rendered pictures: PNG (one frame) and animated GIF (a clip). Pixels are RGBA8,
// rows top to bottom. Reading and decoding images: image_decoder.h.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "critter/asset/rgba_image.h"
#include "critter/core/error.h"
#include "critter/io/image/image_decoder.h"

namespace critter::io {

// The pixel type of every image function in io (asset/rgba_image.h).
using critter::RgbaImage;

// Writes `image` as an 8-bit RGBA PNG. Fails (kUsage) on an empty image or a pixel buffer of the
// wrong size, (kIo) when the file cannot be written.
Status write_png(std::string_view path, const RgbaImage& image);

struct GifOptions {
  // Delay between frames in seconds; GIF stores hundredths, so it is rounded to 0.01 s (min 0.02).
  float frame_delay = 0.04f;
  bool loop = true;  // loop forever (NETSCAPE2.0 extension)
  // Colours of the shared palette (2..256). Fewer colours give smaller files.
  int colours = 256;
  // Ordered (Bayer 4x4) dithering against banding on smooth shading.
  bool dither = true;
  // Pixels with alpha < 128 get a palette entry of their own marked transparent (and each frame
  // replaces the last instead of drawing over it); the other pixels' colours are taken as
  // straight, not premultiplied. One of `colours` goes to the transparent entry.
  bool transparent = false;
};

// Builds one palette for all frames by median cut over the frames' colours (alpha ignored unless
// options.transparent; premultiplied pixels over an opaque background expected), maps every pixel
// to it and writes an animated GIF. Every frame must have the same size. Fails (kUsage) on no
// frames, mismatched or empty frames, bad options; (kIo) when the file cannot be written.
Status write_gif(std::string_view path, std::span<const RgbaImage> frames,
                 const GifOptions& options = {});

// The median-cut palette write_gif uses: at most `colours` RGB triples (3 bytes each) covering
// the colours of `frames`. Exposed for tests.
std::vector<std::uint8_t> median_cut_palette(std::span<const RgbaImage> frames, int colours);

}  // namespace critter::io
