// SPDX-License-Identifier: MIT
#include "io/image/jpeg_codec.h"

#include <csetjmp>
#include <cstdio>
#include <vector>

#include <jpeglib.h>

namespace critter::io::jpeg {
namespace {

constexpr int kMaxScans = 1000;

// libjpeg reports errors through error_exit, which must not return: it jumps back to decode()
// with the message kept. Warnings (corrupt data libjpeg would carry on past) end the decode too.
struct ErrorManager {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void error_exit(j_common_ptr cinfo) {
  auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, e->message);
  std::longjmp(e->jump, 1);
}

void emit_message(j_common_ptr cinfo, int level) {
  if (level < 0) error_exit(cinfo);  // a warning: corrupt data
}

void progress(j_common_ptr cinfo) {
  auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
  if (d->input_scan_number > kMaxScans) {
    auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
    std::snprintf(e->message, sizeof e->message, "more than %d scans", kMaxScans);
    std::longjmp(e->jump, 1);
  }
}

}  // namespace

bool looks_like_jpeg(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 2 || bytes[0] != 0xFF) return false;
  std::size_t i = 1;
  while (i < bytes.size() && bytes[i] == 0xFF) ++i;
  return i < bytes.size() && bytes[i] == 0xD8;
}

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes,
                                             std::uint64_t max_pixels) {
  // Fill bytes before the start of image are skipped, as stb did; libjpeg wants the marker first.
  std::size_t first = 0;
  while (first + 1 < bytes.size() && bytes[first + 1] == 0xFF) ++first;
  const std::span<const std::uint8_t> data = bytes.subspan(first);

  jpeg_decompress_struct cinfo{};
  ErrorManager errors{};
  jpeg_progress_mgr monitor{};
  // Everything the jump can skip over lives outside the setjmp scope (no destructors skipped).
  RgbaImage image;
  std::vector<JSAMPROW> rows;
  cinfo.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = error_exit;
  errors.base.emit_message = emit_message;
  if (setjmp(errors.jump) != 0) {
    jpeg_destroy_decompress(&cinfo);
    return std::unexpected("bad JPEG: " + std::string(errors.message));
  }
  jpeg_create_decompress(&cinfo);
  monitor.progress_monitor = progress;
  cinfo.progress = &monitor;
  jpeg_mem_src(&cinfo, data.data(), static_cast<unsigned long>(data.size()));
  jpeg_read_header(&cinfo, TRUE);
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    jpeg_destroy_decompress(&cinfo);
    return std::unexpected(std::string("CMYK JPEG is not supported"));
  }
  const std::uint64_t pixels = std::uint64_t{cinfo.image_width} * cinfo.image_height;
  if (pixels > max_pixels) {
    const std::string size =
        std::to_string(cinfo.image_width) + "x" + std::to_string(cinfo.image_height);
    jpeg_destroy_decompress(&cinfo);
    return std::unexpected("image of " + size + " pixels is larger than its " +
                           std::to_string(bytes.size()) + " bytes can hold or 64 megapixels");
  }
  cinfo.out_color_space = JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  image.width = static_cast<int>(cinfo.output_width);
  image.height = static_cast<int>(cinfo.output_height);
  image.pixels.resize(image.byte_count());
  rows.resize(cinfo.output_height);
  for (std::size_t y = 0; y < rows.size(); ++y)
    rows[y] = image.pixels.data() + y * std::size_t{cinfo.output_width} * 4;
  while (cinfo.output_scanline < cinfo.output_height)
    jpeg_read_scanlines(&cinfo, rows.data() + cinfo.output_scanline,
                        cinfo.output_height - cinfo.output_scanline);
  jpeg_finish_decompress(&cinfo);
  jpeg_destroy_decompress(&cinfo);
  return image;
}

}  // namespace critter::io::jpeg
