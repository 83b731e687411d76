// SPDX-License-Identifier: MIT
// A tiny built-in bitmap font for labels on pictures (contact-sheet times): 5x7 glyphs of the
// digits, the lowercase letters and a few signs, drawn straight into RGBA pixels.
#pragma once

#include <string_view>

#include "critter/asset/rgba_image.h"

namespace critter::cli {

// Glyph cell size in font pixels (5x7 glyph plus one column and one row of spacing).
inline constexpr int kLabelAdvance = 6;
inline constexpr int kLabelLineHeight = 8;

// Width and height in image pixels of `text` drawn at `scale` (>= 1).
int label_width(std::string_view text, int scale);
int label_height(int scale);

// Draws `text` with its top-left corner at (x, y), each font pixel a scale x scale square of
// `rgba` (straight RGBA8, written over the pixels). Characters the font lacks (capitals are drawn
// as lowercase) draw as a hollow box; pixels outside the image are skipped.
void draw_label(RgbaImage& image, int x, int y, std::string_view text, int scale,
                const unsigned char (&rgba)[4]);

}  // namespace critter::cli
