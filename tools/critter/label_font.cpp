// SPDX-License-Identifier: MIT
#include "label_font.h"

#include <array>
#include <cstdint>

namespace critter::cli {
namespace {

struct Glyph {
  char c;
  std::array<std::uint8_t, 7> rows;  // top to bottom; bit 4 is the leftmost pixel
};

// Drawn for this project: digits and signs at full height, lowercase letters on a 5-row x-height
// with ascenders.
constexpr Glyph kGlyphs[] = {
    {' ', {0, 0, 0, 0, 0, 0, 0}},
    {'0', {0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110}},
    {'1', {0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110}},
    {'2', {0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111}},
    {'3', {0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110}},
    {'4', {0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010}},
    {'5', {0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110}},
    {'6', {0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110}},
    {'7', {0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000}},
    {'8', {0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110}},
    {'9', {0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100}},
    {'.', {0, 0, 0, 0, 0, 0b01100, 0b01100}},
    {'-', {0, 0, 0, 0b11111, 0, 0, 0}},
    {'+', {0, 0b00100, 0b00100, 0b11111, 0b00100, 0b00100, 0}},
    {':', {0, 0b01100, 0b01100, 0, 0b01100, 0b01100, 0}},
    {'=', {0, 0, 0b11111, 0, 0b11111, 0, 0}},
    {'/', {0b00001, 0b00010, 0b00010, 0b00100, 0b01000, 0b01000, 0b10000}},
    {'_', {0, 0, 0, 0, 0, 0, 0b11111}},
    {'a', {0, 0, 0b01110, 0b00001, 0b01111, 0b10001, 0b01111}},
    {'b', {0b10000, 0b10000, 0b10110, 0b11001, 0b10001, 0b10001, 0b11110}},
    {'c', {0, 0, 0b01110, 0b10000, 0b10000, 0b10001, 0b01110}},
    {'d', {0b00001, 0b00001, 0b01101, 0b10011, 0b10001, 0b10001, 0b01111}},
    {'e', {0, 0, 0b01110, 0b10001, 0b11111, 0b10000, 0b01110}},
    {'f', {0b00110, 0b01001, 0b01000, 0b11100, 0b01000, 0b01000, 0b01000}},
    {'g', {0, 0b01111, 0b10001, 0b10001, 0b01111, 0b00001, 0b01110}},
    {'h', {0b10000, 0b10000, 0b10110, 0b11001, 0b10001, 0b10001, 0b10001}},
    {'i', {0b00100, 0, 0b01100, 0b00100, 0b00100, 0b00100, 0b01110}},
    {'j', {0b00010, 0, 0b00110, 0b00010, 0b00010, 0b10010, 0b01100}},
    {'k', {0b10000, 0b10000, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010}},
    {'l', {0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110}},
    {'m', {0, 0, 0b11010, 0b10101, 0b10101, 0b10001, 0b10001}},
    {'n', {0, 0, 0b10110, 0b11001, 0b10001, 0b10001, 0b10001}},
    {'o', {0, 0, 0b01110, 0b10001, 0b10001, 0b10001, 0b01110}},
    {'p', {0, 0, 0b11110, 0b10001, 0b11110, 0b10000, 0b10000}},
    {'q', {0, 0, 0b01101, 0b10011, 0b01111, 0b00001, 0b00001}},
    {'r', {0, 0, 0b10110, 0b11001, 0b10000, 0b10000, 0b10000}},
    {'s', {0, 0, 0b01110, 0b10000, 0b01110, 0b00001, 0b11110}},
    {'t', {0b01000, 0b01000, 0b11100, 0b01000, 0b01000, 0b01001, 0b00110}},
    {'u', {0, 0, 0b10001, 0b10001, 0b10001, 0b10011, 0b01101}},
    {'v', {0, 0, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100}},
    {'w', {0, 0, 0b10001, 0b10001, 0b10101, 0b10101, 0b01010}},
    {'x', {0, 0, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001}},
    {'y', {0, 0, 0b10001, 0b10001, 0b01111, 0b00001, 0b01110}},
    {'z', {0, 0, 0b11111, 0b00010, 0b00100, 0b01000, 0b11111}},
};

constexpr std::array<std::uint8_t, 7> kMissing = {0b11111, 0b10001, 0b10001, 0b10001,
                                                  0b10001, 0b10001, 0b11111};

const std::array<std::uint8_t, 7>& glyph(char c) {
  if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  for (const Glyph& g : kGlyphs) {
    if (g.c == c) return g.rows;
  }
  return kMissing;
}

}  // namespace

int label_width(std::string_view text, int scale) {
  if (text.empty()) return 0;
  return (static_cast<int>(text.size()) * kLabelAdvance - 1) * scale;
}

int label_height(int scale) {
  return 7 * scale;
}

void draw_label(RgbaImage& image, int x, int y, std::string_view text, int scale,
                const unsigned char (&rgba)[4]) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto& rows = glyph(text[i]);
    const int left = x + static_cast<int>(i) * kLabelAdvance * scale;
    for (int row = 0; row < 7; ++row) {
      for (int col = 0; col < 5; ++col) {
        if ((rows[static_cast<std::size_t>(row)] & (0b10000 >> col)) == 0) continue;
        for (int dy = 0; dy < scale; ++dy) {
          for (int dx = 0; dx < scale; ++dx) {
            const int px = left + col * scale + dx;
            const int py = y + row * scale + dy;
            if (px < 0 || py < 0 || px >= image.width || py >= image.height) continue;
            unsigned char* p = image.pixels.data() + (static_cast<std::size_t>(py) *
                                                          static_cast<std::size_t>(image.width) +
                                                      static_cast<std::size_t>(px)) *
                                                         4;
            for (int k = 0; k < 4; ++k) p[k] = rgba[k];
          }
        }
      }
    }
  }
}

}  // namespace critter::cli
