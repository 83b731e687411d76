// SPDX-License-Identifier: MIT
#include "io/image/jpeg_codec.h"

#include <csetjmp>
#include <cstdio>
#include <memory>
#include <vector>

#include <jpeglib.h>
// After jpeglib.h, which it needs.
#include <jerror.h>

#include "io/image/pixel_limit.h"

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

// A warning means corrupt data, and fails the decode; but bytes between segments that are not a
// marker (written by some cameras and editors; stb skipped them too) are only skipped.
void emit_message(j_common_ptr cinfo, int level) {
  if (level < 0 && cinfo->err->msg_code != JWRN_EXTRANEOUS_DATA) error_exit(cinfo);
}

void progress(j_common_ptr cinfo) {
  auto* d = reinterpret_cast<j_decompress_ptr>(cinfo);
  if (d->input_scan_number > kMaxScans) {
    auto* e = reinterpret_cast<ErrorManager*>(cinfo->err);
    std::snprintf(e->message, sizeof e->message, "more than %d scans", kMaxScans);
    std::longjmp(e->jump, 1);
  }
}

// Where the start-of-image marker's 0xFF is (fill bytes before it are allowed, as stb allowed
// them), or kNoJpeg.
constexpr std::size_t kNoJpeg = SIZE_MAX;
std::size_t start_of_image(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < 2 || bytes[0] != 0xFF) return kNoJpeg;
  std::size_t i = 1;
  while (i < bytes.size() && bytes[i] == 0xFF) ++i;
  return i < bytes.size() && bytes[i] == 0xD8 ? i - 1 : kNoJpeg;
}

// What the decode writes; allocated before setjmp, so that a longjmp back finds it intact.
struct Output {
  RgbaImage image;
  std::vector<JSAMPROW> rows;
};

}  // namespace

bool looks_like_jpeg(std::span<const std::uint8_t> bytes) {
  return start_of_image(bytes) != kNoJpeg;
}

std::expected<RgbaImage, std::string> decode(std::span<const std::uint8_t> bytes) {
  const std::size_t first = start_of_image(bytes);
  if (first == kNoJpeg) return std::unexpected(std::string("not a JPEG"));
  const std::span<const std::uint8_t> data = bytes.subspan(first);

  jpeg_decompress_struct cinfo{};
  ErrorManager errors{};
  jpeg_progress_mgr monitor{};
  const auto out = std::make_unique<Output>();
  RgbaImage& image = out->image;
  std::vector<JSAMPROW>& rows = out->rows;
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
  if (std::string problem =
          pixel_limit_problem(cinfo.image_width, cinfo.image_height, bytes.size());
      !problem.empty()) {
    jpeg_destroy_decompress(&cinfo);
    return std::unexpected(std::move(problem));
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
  return std::move(image);
}

}  // namespace critter::io::jpeg
